/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * srun_args.c - read srun's command line the way srun's own parser does
 * (GNU getopt_long with a '+' option string: the first word that is not
 * an option is the command; a long option may be shortened to a unique
 * prefix; an optional argument must be attached with '=').  Only the
 * options that decide where tasks run are kept; any option not in the
 * table (another plugin's, a newer srun's) makes the scan fail, and the
 * caller then leaves the layout to Slurm rather than guess.
 */
#include <config.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "srun_args.h"

static const char *const long_options[] = {
#include "srun_options.inc"
	/* this plugin's own */
	"comm-matrix:R",
	"comm-matrix-algorithm:R",
	"comm-matrix-keep-layout:N",
	"comm-matrix-online:R",
	"comm-matrix-report:N",
	"comm-matrix-svg:N",
	"comm-matrix-topology:R",
	NULL
};

/* srun 22.05's short options by the argument they take. */
static const char short_with_arg[] = "ABCDFGJLMNSTWbcdeimnopqrtwx";
static const char short_optional[] = "IKk";
static const char short_plain[] = "EHOQVXZhlsuv";

/* The table entry of name[0..len-1], exact or a unique prefix. */
static const char *find_long(const char *name, size_t len)
{
	const char *hit = NULL;
	int hits = 0;

	for (int i = 0; long_options[i]; i++) {
		size_t l = (size_t)(strchr(long_options[i], ':') -
				    long_options[i]);

		if (strncmp(long_options[i], name, len) != 0)
			continue;
		if (l == len)
			return long_options[i];
		hit = long_options[i];
		hits++;
	}
	return hits == 1 ? hit : NULL;
}

static void keep(srun_args *a, const char *name, size_t len, const char *val)
{
#define IS(s) (len == strlen(s) && strncmp(name, s, len) == 0)
	if (IS("ntasks")) a->ntasks = val;
	else if (IS("nodes")) a->nodes = val;
	else if (IS("cpus-per-task")) a->cpus_per_task = val;
	else if (IS("ntasks-per-node")) a->tasks_per_node = val;
	else if (IS("nodelist")) a->nodelist = val;
	else if (IS("nodefile")) a->nodefile = val;
	else if (IS("exclude")) a->exclude = val;
	else if (IS("distribution")) a->distribution = val;
	else if (IS("relative")) a->relative = val;
	else if (IS("het-group") || IS("pack-group")) a->het_group = val;
	else if (IS("overcommit")) a->overcommit = 1;
	else if (IS("comm-matrix-keep-layout")) a->keep_layout = 1;
	else if (IS("comm-matrix-topology")) a->dry_run = 1;
#undef IS
}

static const char *short_long_name(char c)
{
	switch (c) {
	case 'n': return "ntasks";
	case 'N': return "nodes";
	case 'c': return "cpus-per-task";
	case 'w': return "nodelist";
	case 'F': return "nodefile";
	case 'x': return "exclude";
	case 'm': return "distribution";
	case 'r': return "relative";
	case 'O': return "overcommit";
	default: return "";
	}
}

static int unknown(srun_args *a, const char *word)
{
	size_t n = strcspn(word, "=");

	if (n >= sizeof(a->unknown))
		n = sizeof(a->unknown) - 1;
	memcpy(a->unknown, word, n);
	a->unknown[n] = '\0';
	return -1;
}

int srun_args_scan(int argc, char **argv, srun_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		char *w = argv[i];

		if (strcmp(w, "--") == 0) {
			i++;
			break;
		}
		if (w[0] != '-' || !w[1])
			break; /* the command */
		if (w[1] == '-') {
			const char *eq = strchr(w + 2, '=');
			size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
			const char *e = find_long(w + 2, len);

			if (!e)
				return unknown(a, w);
			size_t nlen = (size_t)(strchr(e, ':') - e);
			const char *val = eq ? eq + 1 : NULL;
			if (!eq && e[nlen + 1] == 'R') {
				if (i + 1 >= argc)
					return unknown(a, w);
				val = argv[++i];
			}
			keep(a, e, nlen, val);
			continue;
		}
		for (char *p = w + 1; *p; p++) {
			const char *name = short_long_name(*p);

			if (strchr(short_with_arg, *p)) {
				const char *val = p[1] ? p + 1 :
						  i + 1 < argc ? argv[++i] : NULL;
				if (!val)
					return unknown(a, w);
				keep(a, name, strlen(name), val);
				break;
			}
			if (strchr(short_optional, *p))
				break; /* the rest is its argument */
			if (!strchr(short_plain, *p))
				return unknown(a, w);
			keep(a, name, strlen(name), NULL);
		}
	}
	for (; i < argc; i++)
		if (strcmp(argv[i], ":") == 0)
			a->het_colon = 1;
	return 0;
}

int srun_args_read_self(char *buf, int size, char **argv, int max)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	int len = 0, n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (len < size - 1 &&
	       (r = read(fd, buf + len, (size_t)(size - 1 - len))) > 0)
		len += (int)r;
	close(fd);
	if (len >= size - 1)
		return -1; /* cut: the end of the line would be misread */
	buf[len] = '\0';
	for (int p = 0; p < len && n < max; p += (int)strlen(buf + p) + 1)
		argv[n++] = buf + p;
	return n < max ? n : -1;
}
