/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pngstat.c - what svg-render.sh needs to know of a browser's screenshot,
 * with zlib only (no image library, no python): its size, how many
 * distinct colours it has, and how many pixels have each colour asked for.
 *
 *   pngstat FILE [RRGGBB ...]
 *   prints "WIDTH HEIGHT DISTINCT" and then one count per colour asked.
 *
 * Reads 8-bit RGB or RGBA, not interlaced (what Chromium writes); anything
 * else is refused with one line on stderr, exit 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *file, const char *what)
{
	fprintf(stderr, "pngstat: %s: %s\n", file, what);
	return 1;
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

int main(int argc, char **argv)
{
	static const unsigned char sig[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
	unsigned char *file = NULL, *idat = NULL, *raw = NULL, *seen = NULL;
	size_t len = 0, cap = 0, nidat = 0, got;
	uint32_t w = 0, h = 0;
	int bpp = 0;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: pngstat FILE [RRGGBB ...]\n");
		return 2;
	}
	if (!(f = fopen(argv[1], "rb")))
		return fail(argv[1], "cannot open");
	do {
		if (len + 65536 > cap) {
			cap = cap ? 2 * cap : 1 << 20;
			if (!(file = realloc(file, cap)))
				return fail(argv[1], "out of memory");
		}
		got = fread(file + len, 1, 65536, f);
		len += got;
	} while (got > 0);
	fclose(f);
	if (len < 8 || memcmp(file, sig, 8))
		return fail(argv[1], "not a PNG");
	if (!(idat = malloc(len)))
		return fail(argv[1], "out of memory");
	for (size_t at = 8; at + 12 <= len;) {
		uint32_t n = be32(file + at);
		const unsigned char *type = file + at + 4, *data = type + 4;

		if (n > len - at - 12)
			return fail(argv[1], "truncated chunk");
		if (!memcmp(type, "IHDR", 4) && n >= 13) {
			w = be32(data);
			h = be32(data + 4);
			if (data[8] != 8 || (data[9] != 2 && data[9] != 6) ||
			    data[12] != 0)
				return fail(argv[1], "expected 8-bit RGB or RGBA, "
					    "not interlaced");
			bpp = data[9] == 6 ? 4 : 3;
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + nidat, data, n);
			nidat += n;
		} else if (!memcmp(type, "IEND", 4)) {
			break;
		}
		at += 12 + (size_t)n;
	}
	if (!bpp || w == 0 || h == 0 || w > 20000 || h > 20000)
		return fail(argv[1], "no usable IHDR");
	size_t stride = (size_t)w * (size_t)bpp;
	uLongf rawlen = (uLongf)((stride + 1) * h);
	if (!(raw = malloc(rawlen)) ||
	    uncompress(raw, &rawlen, idat, (uLong)nidat) != Z_OK ||
	    rawlen != (stride + 1) * h)
		return fail(argv[1], "bad image data");
	/* undo the row filters in place: row y at raw + y * (stride + 1) + 1 */
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + y * (stride + 1), *px = row + 1;
		const unsigned char *up = y ? px - (stride + 1) : NULL;

		for (size_t i = 0; i < stride; i++) {
			int a = i >= (size_t)bpp ? px[i - bpp] : 0;
			int b = up ? up[i] : 0;
			int c = up && i >= (size_t)bpp ? up[i - bpp] : 0;

			switch (row[0]) {
			case 0: break;
			case 1: px[i] = (unsigned char)(px[i] + a); break;
			case 2: px[i] = (unsigned char)(px[i] + b); break;
			case 3: px[i] = (unsigned char)(px[i] + (a + b) / 2); break;
			case 4: px[i] = (unsigned char)(px[i] + paeth(a, b, c)); break;
			default: return fail(argv[1], "bad row filter");
			}
		}
	}
	if (!(seen = calloc(1 << 21, 1)))
		return fail(argv[1], "out of memory");
	long distinct = 0, *count = calloc((size_t)argc, sizeof(long));
	unsigned long want[64];
	int nwant = argc - 2 < 64 ? argc - 2 : 64;

	for (int k = 0; k < nwant; k++)
		want[k] = strtoul(argv[k + 2], NULL, 16);
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			const unsigned char *p = raw + y * (stride + 1) + 1 +
						 (size_t)x * (size_t)bpp;
			unsigned long rgb = (unsigned long)p[0] << 16 |
					    (unsigned long)p[1] << 8 | p[2];

			if (!(seen[rgb >> 3] & (1 << (rgb & 7)))) {
				seen[rgb >> 3] |= (unsigned char)(1 << (rgb & 7));
				distinct++;
			}
			for (int k = 0; k < nwant; k++)
				count[k] += rgb == want[k];
		}
	printf("%u %u %ld", w, h, distinct);
	for (int k = 0; k < nwant; k++)
		printf(" %ld", count[k]);
	printf("\n");
	free(file);
	free(idat);
	free(raw);
	free(seen);
	free(count);
	return 0;
}
