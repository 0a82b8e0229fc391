/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config.c - the site's defaults: the arguments after the plugin's path in
 * plugstack.conf, e.g.
 *   optional /usr/lib/slurm-treematch/treematch.so on_error=warn timeout=10
 * Every key is documented in etc/plugstack.conf.example.  A bad argument
 * never takes a node down: the plugin then does nothing and says why.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_map.h"
#include "tm_spank.h"

#ifndef TM_HELPER_PATH
#define TM_HELPER_PATH "/usr/bin/treematch-helper"
#endif
#ifndef TM_PROFILER_PATH
#define TM_PROFILER_PATH "/usr/lib/slurm-treematch/libcommprof.so"
#endif

enum { DEFAULT_TIMEOUT = 10, MAX_TIMEOUT = 3600 };
#define DEFAULT_MAX_SIZE (256LL << 20)

static int yes_no(const char *v, int *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "true"))
		*out = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "false"))
		*out = 0;
	else
		return -1;
	return 0;
}

/* "512", "64K", "256M", "2G" */
static int parse_size(const char *v, long long *out)
{
	char *end;

	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (errno || end == v || n <= 0)
		return -1;
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: break;
	}
	if (*end || n > (LLONG_MAX >> shift))
		return -1;
	n <<= shift;
	*out = n;
	return 0;
}

static int copy_path(char *dst, size_t size, const char *v)
{
	if (v[0] != '/' || strlen(v) >= size)
		return -1;
	strcpy(dst, v);
	return 0;
}

/* Returns NULL when accepted, else what was expected. */
static const char *set_key(site_config *cfg, const char *key, const char *v)
{
	char *end;

	if (!strcmp(key, "helper"))
		return copy_path(cfg->helper, sizeof(cfg->helper), v) ?
		       "an absolute path" : NULL;
	if (!strcmp(key, "on_error")) {
		if (strcmp(v, "warn") && strcmp(v, "fail"))
			return "warn or fail";
		cfg->fail = !strcmp(v, "fail");
		return NULL;
	}
	if (!strcmp(key, "timeout")) {
		long t = strtol(v, &end, 10);
		if (end == v || *end || t < 1 || t > MAX_TIMEOUT)
			return "a number of seconds from 1 to 3600";
		cfg->timeout = (int)t;
		return NULL;
	}
	if (!strcmp(key, "bind")) {
		if (strcmp(v, "core") && strcmp(v, "pu"))
			return "core or pu";
		cfg->bind_pu = !strcmp(v, "pu");
		return NULL;
	}
	if (!strcmp(key, "cpu_kinds")) {
		if (strcmp(v, "ordered") && strcmp(v, "equal"))
			return "ordered or equal";
		cfg->cpu_kinds_equal = !strcmp(v, "equal");
		return NULL;
	}
	if (!strcmp(key, "report"))
		return yes_no(v, &cfg->report) ? "yes or no" : NULL;
	if (!strcmp(key, "auto")) {
		/* online: steps without a matrix of their own (neither
		 * --comm-matrix nor one in matrix_dir) are placed online */
		cfg->auto_online = !strcmp(v, "online");
		if (cfg->auto_online) {
			cfg->auto_matrix = 1;
			return NULL;
		}
		return yes_no(v, &cfg->auto_matrix) ? "yes, no or online" : NULL;
	}
	if (!strcmp(key, "profiler"))
		return copy_path(cfg->profiler, sizeof(cfg->profiler), v) ?
		       "an absolute path" : NULL;
	if (!strcmp(key, "online")) {
		/* the user's --comm-matrix-online goes over it, key by key */
		tm_online_params p;
		tm_error err = { 0 };
		static char why[TM_ERROR_TEXT_MAX + 32];

		tm_online_params_default(&p);
		if (tm_online_params_parse(v, "online=", &p, &err) != TM_OK) {
			/* "online=: slope=1: expected ...": the key inside */
			const char *e = err.text;
			if (!strncmp(e, "online=: ", 9))
				e += 9;
			snprintf(why, sizeof(why), "online parameters (%s)", e);
			return why;
		}
		cfg->online = p;
		return NULL;
	}
	/* "key=" is the default written out, as in plugstack.conf.example */
	char *optional = !strcmp(key, "matrix_dir") ? cfg->matrix_dir :
			 !strcmp(key, "topology")   ? cfg->topology :
			 !strcmp(key, "algorithm")  ? cfg->algorithm : NULL;
	if (!*v && optional) {
		optional[0] = '\0';
		return NULL;
	}
	if (!strcmp(key, "matrix_dir"))
		return copy_path(cfg->matrix_dir, sizeof(cfg->matrix_dir), v) ?
		       "an absolute path" : NULL;
	if (!strcmp(key, "topology")) {
		if ((strncmp(v, "xml:", 4) && strncmp(v, "synthetic:", 10) &&
		     strncmp(v, "tree:", 5)) ||
		    strlen(v) >= sizeof(cfg->topology))
			return "xml:PATH, synthetic:DESCRIPTION or tree:ARITIES";
		strcpy(cfg->topology, v);
		return NULL;
	}
	if (!strcmp(key, "algorithm")) {
		tm_algorithm a;

		if (tm_algorithm_parse(v, &a) < 0)
			return tm_algorithm_choices();
		snprintf(cfg->algorithm, sizeof(cfg->algorithm), "%s", v);
		return NULL;
	}
	if (!strcmp(key, "nodes"))
		return yes_no(v, &cfg->nodes) ? "yes or no" : NULL;
	if (!strcmp(key, "network_costs")) {
		/* passed to treematch-helper job, which checks the values */
		if (!*v || strlen(v) >= sizeof(cfg->network_costs) ||
		    strspn(v, "0123456789.,eE+") != strlen(v))
			return "costs such as 10 or 1000,100";
		snprintf(cfg->network_costs, sizeof(cfg->network_costs), "%s",
			 v);
		return NULL;
	}
	if (!strcmp(key, "max_size"))
		return parse_size(v, &cfg->max_size) ?
		       "a size in bytes such as 64M" : NULL;
	return "";
}

void config_parse(site_config *cfg, int ac, char **av)
{
	static const char keys[] = "helper, on_error, timeout, bind, "
				   "cpu_kinds, report, "
				   "matrix_dir, auto, topology, algorithm, "
				   "nodes, network_costs, online, profiler "
				   "or max_size";

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->helper, sizeof(cfg->helper), "%s", TM_HELPER_PATH);
	snprintf(cfg->profiler, sizeof(cfg->profiler), "%s", TM_PROFILER_PATH);
	tm_online_params_default(&cfg->online);
	cfg->timeout = DEFAULT_TIMEOUT;
	cfg->max_size = DEFAULT_MAX_SIZE;
	cfg->nodes = 1;
	for (int i = 0; i < ac; i++) {
		char key[64];
		const char *eq = strchr(av[i], '=');
		size_t klen = eq ? (size_t)(eq - av[i]) : strlen(av[i]);
		char arg[TEXT_MAX];

		text_clean(arg, sizeof(arg), av[i], strlen(av[i]));
		if (!eq || klen == 0 || klen >= sizeof(key)) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "plugstack.conf: '%.200s': expected key=value, "
				 "with key one of %s", arg, keys);
			return;
		}
		memcpy(key, av[i], klen);
		key[klen] = '\0';
		const char *expected = set_key(cfg, key, eq + 1);
		if (expected && !*expected) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "plugstack.conf: unknown key in '%.200s': expected "
				 "%s", arg, keys);
			return;
		}
		if (expected) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "plugstack.conf: '%.200s': expected %s", arg,
				 expected);
			return;
		}
	}
}
