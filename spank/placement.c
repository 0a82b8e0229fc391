/*
 * placement.c - read treematch-helper's answer.  The helper ran as the
 * job's user, who could have tampered with it, so its output is checked
 * like any user input before anything is used: the right ranks in the
 * right order, each on valid CPUs within those it placed them among.
 * Binding happens in the task, as the user, with sched_setaffinity: it can
 * do nothing the user could not do in the task itself, and where Slurm
 * confines jobs (task/cgroup) the kernel refuses CPUs outside the job.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <jansson.h>

#include "placement.h"
#include "tm_spank.h"

void placement_free(placement *p)
{
	for (int i = 0; i < p->n; i++) {
		if (p->cpus)
			free(p->cpus[i]);
		if (p->cores)
			free(p->cores[i]);
	}
	free(p->cpus);
	free(p->cores);
	memset(p, 0, sizeof(*p));
}

static char *cores_text(json_t *cores)
{
	char buf[256] = "";
	size_t len = 0, i;
	json_t *c;

	json_array_foreach(cores, i, c) {
		if (!json_is_integer(c) || len + 24 >= sizeof(buf))
			break;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%lld",
					i ? "," : "", (long long)json_integer_value(c));
	}
	return strdup(buf);
}

/* The helper's CPU lists are parsed in root's slurmstepd: no index past
 * any real machine (hwloc would allocate a bitmap that large) and no
 * open-ended range ("4-", which hwloc reads as "4 to infinity"). */
enum { MAX_CPU_INDEX = 1 << 16 };

static int cpu_list_bounded(const char *s)
{
	if (!s || !*s)
		return 0;
	while (*s) {
		if (*s < '0' || *s > '9')
			return 0;
		long v = 0;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (*s++ - '0');
			if (v >= MAX_CPU_INDEX)
				return 0;
		}
		if (*s == '-' || *s == ',') {
			s++;
			if (*s < '0' || *s > '9')
				return 0;
		} else if (*s) {
			return 0;
		}
	}
	return 1;
}

static int check_entry(json_t *item, int i, uint32_t rank,
		       hwloc_const_bitmap_t allowed, hwloc_bitmap_t set,
		       placement *p, char *why, size_t whylen)
{
	json_t *r = json_object_get(item, "rank");
	json_t *cpus = json_object_get(item, "cpus");

	if (!json_is_integer(r) || json_integer_value(r) != (json_int_t)rank) {
		snprintf(why, whylen, "the helper's placement[%d] is not rank %u",
			 i, rank);
		return -1;
	}
	if (!json_is_string(cpus) ||
	    !cpu_list_bounded(json_string_value(cpus)) ||
	    hwloc_bitmap_list_sscanf(set, json_string_value(cpus)) < 0 ||
	    hwloc_bitmap_iszero(set)) {
		snprintf(why, whylen, "the helper gave rank %u no valid CPU list",
			 rank);
		return -1;
	}
	if (!hwloc_bitmap_isincluded(set, allowed)) {
		snprintf(why, whylen, "the helper placed rank %u outside the "
			 "CPUs it was given", rank);
		return -1;
	}
	p->cpus[i] = strdup(json_string_value(cpus));
	p->cores[i] = cores_text(json_object_get(item, "cores"));
	if (!p->cpus[i] || !p->cores[i]) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

static void read_costs(json_t *root, placement *p)
{
	json_t *cost = json_object_get(root, "cost"), *v;
	const char *name;

	json_object_foreach(cost, name, v) {
		if (p->ncosts == PLACEMENT_MAX_COSTS || !json_is_number(v))
			break;
		snprintf(p->cost_name[p->ncosts], sizeof(p->cost_name[0]), "%s",
			 name);
		p->cost[p->ncosts++] = json_number_value(v);
	}
}

int placement_parse(const char *text, size_t len, int n,
		    const uint32_t *ranks, placement *p, char *cpus,
		    size_t cpus_size, char *why, size_t whylen)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	hwloc_bitmap_t allowed_set = NULL, set = hwloc_bitmap_alloc();
	int rc = -1;

	memset(p, 0, sizeof(*p));
	p->cpus = calloc((size_t)n + 1, sizeof(char *));
	p->cores = calloc((size_t)n + 1, sizeof(char *));
	p->n = n;
	if (!p->cpus || !p->cores || !set) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	if (!root) {
		char clean[sizeof(jerr.text)];
		text_clean(clean, sizeof(clean), jerr.text, sizeof(jerr.text));
		snprintf(why, whylen, "the helper's output is not JSON (%s)",
			 clean);
		goto out;
	}
	json_t *all = json_object_get(root, "cpus");
	allowed_set = hwloc_bitmap_alloc();
	if (!allowed_set || !json_is_string(all) ||
	    !cpu_list_bounded(json_string_value(all)) ||
	    hwloc_bitmap_list_sscanf(allowed_set, json_string_value(all)) < 0 ||
	    hwloc_bitmap_iszero(allowed_set) ||
	    strlen(json_string_value(all)) >= cpus_size) {
		snprintf(why, whylen, "the helper's output has no valid \"cpus\"");
		goto out;
	}
	strcpy(cpus, json_string_value(all));
	json_t *list = json_object_get(root, "placement");
	if (!json_is_array(list) || json_array_size(list) != (size_t)n) {
		snprintf(why, whylen, "the helper placed %zu ranks, expected %d",
			 json_is_array(list) ? json_array_size(list) : 0, n);
		goto out;
	}
	for (int i = 0; i < n; i++)
		if (check_entry(json_array_get(list, (size_t)i), i, ranks[i],
				allowed_set, set, p, why, whylen) < 0)
			goto out;
	read_costs(root, p);
	p->proven_optimal = json_is_true(json_object_get(root, "proven-optimal"));
	rc = 0;
out:
	json_decref(root);
	hwloc_bitmap_free(set);
	hwloc_bitmap_free(allowed_set);
	if (rc < 0)
		placement_free(p);
	return rc;
}
