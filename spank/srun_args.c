/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * srun_args.c - read srun's command line the way srun's own parser does
 * (GNU getopt_long with a '+' option string: the first word that is not
 * an option is the command; a long option may be shortened to a unique
 * prefix; an optional argument must be attached with '=').  Only the
 * options that decide where tasks run are kept.  srun's own options are
 * those of the release the plugin was built for (slurm_compat.c, read
 * from that release's sources); a long option known to neither srun nor
 * this plugin (another SPANK plugin's) is passed over when its value is
 * attached with '=', since it cannot then take the next word; otherwise
 * the scan fails, naming it, and the caller says so and leaves the layout
 * to Slurm rather than guess where the command starts.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "slurm_compat.h"
#include "srun_args.h"

/* This plugin's own options, in the same form, from the table srun was
 * given (options.c, passed in), so that a new option is never "unknown"
 * here. */
enum { OWN_MAX = 32 };
static char own_options[OWN_MAX][48];
static const struct spank_option *own_table;

static const char *own_option(int i)
{
	for (int k = 0; k < i && k < OWN_MAX; k++)
		if (!own_table[k].name)
			return NULL; /* past the table's end */
	if (i >= OWN_MAX || !own_table[i].name)
		return NULL;
	if (!own_options[i][0])
		snprintf(own_options[i], sizeof(own_options[i]), "%s:%c",
			 own_table[i].name, own_table[i].has_arg ? 'R' : 'N');
	return own_options[i];
}

/* Entry i of srun's options followed by the plugin's, NULL past the end. */
static const char *option_entry(int i)
{
	static int nsrun = -1;

	if (nsrun < 0)
		for (nsrun = 0; compat_srun_long_option(nsrun); nsrun++)
			;
	return i < nsrun ? compat_srun_long_option(i) : own_option(i - nsrun);
}

/* The table entry of name[0..len-1], exact or a unique prefix. */
static const char *find_long(const char *name, size_t len)
{
	const char *hit = NULL;
	int hits = 0;

	const char *e;

	for (int i = 0; (e = option_entry(i)) != NULL; i++) {
		size_t l = (size_t)(strchr(e, ':') - e);

		if (strncmp(e, name, len) != 0)
			continue;
		if (l == len)
			return e;
		hit = e;
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

int srun_args_scan(int argc, char **argv, const struct spank_option *own,
		   srun_args *a)
{
	int i;

	own_table = own;
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

			if (!e && eq)
				continue; /* another plugin's, self-contained */
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

			if (strchr(compat_srun_short_with_arg, *p)) {
				const char *val = p[1] ? p + 1 :
						  i + 1 < argc ? argv[++i] : NULL;
				if (!val)
					return unknown(a, w);
				keep(a, name, strlen(name), val);
				break;
			}
			if (strchr(compat_srun_short_optional, *p))
				break; /* the rest is its argument */
			if (!strchr(compat_srun_short_plain, *p))
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
