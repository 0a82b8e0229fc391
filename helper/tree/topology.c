/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topology.c - topology trees from hwloc (see tm_topology.h and
 * doc/topology.md).  The only file of the library that includes hwloc.h.
 *
 * The whole machine is loaded, disallowed PUs included, and walked while
 * skipping what is outside the allowed set: restricting the hwloc topology
 * instead would renumber the logical indices that users see in lstopo and
 * that Slurm's core lists use.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "tree/topology_internal.h"
#include "tm_slurm_cores.h"
#include "util/grow.h"

/* ------------------------------------------------------------------ */
/* Opening the topology a spec names                                    */

/* hwloc wants PUs as the last level of a synthetic description; let
 * "core:4" mean cores with one PU each, as users write it. */
static int set_synthetic(hwloc_topology_t topo, const char *desc)
{
	size_t len = strlen(desc) + sizeof(" pu:1");
	char *with_pus;
	int rc;

	if (hwloc_topology_set_synthetic(topo, desc) == 0)
		return 0;
	with_pus = malloc(len);
	if (!with_pus)
		return -1;
	snprintf(with_pus, len, "%s pu:1", desc);
	rc = hwloc_topology_set_synthetic(topo, with_pus);
	free(with_pus);
	return rc;
}

/* The major version of an XML file's <topology version="X.Y">, or -1.
 * Only the start of the file is read: the element comes first. */
static int xml_major_version(const char *path)
{
	char head[4096];
	FILE *f = fopen(path, "r");
	size_t n;
	const char *p;

	if (!f)
		return -1;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	p = strstr(head, "<topology");
	if (!p || !(p = strstr(p, "version=\"")))
		return -1;
	p += strlen("version=\"");
	return *p >= '0' && *p <= '9' ? atoi(p) : -1;
}

static tm_status xml_error(const char *spec, int errnum, tm_error *err)
{
	int major = xml_major_version(spec + 4);

	/* hwloc 2 refuses hwloc 3's files (what hwloc's master writes) with
	 * EINVAL, as if they were not XML: say what is wrong instead. */
	if (major > 2)
		return tm_error_set(err, TM_ERR_TOPOLOGY,
				    "%s: cannot load: hwloc XML version %d "
				    "(hwloc %d's format) is newer than this "
				    "hwloc %s reads: export it with `lstopo "
				    "--export-xml-flags v2` (hwloc %d), or run "
				    "with an hwloc that reads it", spec, major,
				    major, HWLOC_VERSION, major);
	if (errnum == EINVAL || errnum == 0)
		return tm_error_set(err, TM_ERR_TOPOLOGY,
				    "%s: cannot load: not an hwloc XML "
				    "topology", spec);
	return tm_error_set(err, TM_ERR_IO, "%s: cannot load: %s", spec,
			    strerror(errnum));
}

static tm_status open_topology(const char *spec, hwloc_topology_t *out,
			       tm_error *err)
{
	int is_xml = strncmp(spec, "xml:", 4) == 0;
	int is_synthetic = strncmp(spec, "synthetic:", 10) == 0;
	hwloc_topology_t topo;
	tm_status status = TM_OK;

	if (!is_xml && !is_synthetic && strcmp(spec, "this") != 0)
		return tm_error_set(err, TM_ERR_USAGE,
				    "%s: expected this, xml:PATH, "
				    "synthetic:DESCRIPTION or tree:ARITIES",
				    spec);
	if (hwloc_topology_init(&topo) != 0)
		return tm_error_nomem(err);
	/* Disallowed PUs stay in the tree so that logical indices are the
	 * machine's; the walk skips them. */
	hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	errno = 0;
	if (is_xml && hwloc_topology_set_xml(topo, spec + 4) != 0)
		status = xml_error(spec, errno, err);
	else if (is_synthetic && set_synthetic(topo, spec + 10) != 0)
		status = tm_error_set(err, TM_ERR_TOPOLOGY,
				      "%s: invalid hwloc synthetic description",
				      spec);
	else if (hwloc_topology_load(topo) != 0)
		status = is_xml ? xml_error(spec, errno, err)
				: tm_error_set(err, TM_ERR_TOPOLOGY,
					       "%s: cannot load: %s", spec,
					       strerror(errno));
	if (status != TM_OK) {
		hwloc_topology_destroy(topo);
		return status;
	}
	*out = topo;
	return TM_OK;
}

/* ------------------------------------------------------------------ */
/* The PUs we may use                                                   */

static tm_status parse_restriction(const char *spec, const char *cpus,
				   hwloc_const_bitmap_t machine,
				   hwloc_const_bitmap_t complete,
				   hwloc_bitmap_t wanted, tm_error *err)
{
	char have[256], missing[256], offline[256];

	if (hwloc_bitmap_list_sscanf(wanted, cpus) != 0 ||
	    hwloc_bitmap_weight(wanted) <= 0)
		return tm_error_set(err, TM_ERR_USAGE,
				    "--restrict %s: expected a CPU list such "
				    "as 0-3,8", cpus);
	hwloc_bitmap_list_snprintf(have, sizeof(have), machine);
	if (!hwloc_bitmap_intersects(wanted, machine) &&
	    !hwloc_bitmap_intersects(wanted, complete))
		return tm_error_set(err, TM_ERR_TOPOLOGY,
				    "--restrict %s: no such CPUs in topology "
				    "%s (%s)", cpus, spec, have);
	if (!hwloc_bitmap_isincluded(wanted, machine)) {
		hwloc_bitmap_t extra = hwloc_bitmap_alloc();
		hwloc_bitmap_t off = hwloc_bitmap_alloc();

		/* CPUs the machine has but that are offline (hwloc's complete
		 * cpuset) are told apart from CPUs it does not have. */
		if (!extra || !off ||
		    hwloc_bitmap_andnot(extra, wanted, machine) != 0 ||
		    hwloc_bitmap_and(off, extra, complete) != 0 ||
		    hwloc_bitmap_andnot(extra, extra, off) != 0) {
			hwloc_bitmap_free(extra);
			hwloc_bitmap_free(off);
			return tm_error_nomem(err);
		}
		hwloc_bitmap_list_snprintf(missing, sizeof(missing), extra);
		hwloc_bitmap_list_snprintf(offline, sizeof(offline), off);
		int noff = !hwloc_bitmap_iszero(off);
		int nmissing = !hwloc_bitmap_iszero(extra);
		hwloc_bitmap_free(extra);
		hwloc_bitmap_free(off);
		if (noff && nmissing)
			return tm_error_set(err, TM_ERR_TOPOLOGY,
					    "--restrict %s: CPUs %s are offline "
					    "and CPUs %s are not in topology %s "
					    "(online: %s)", cpus, offline,
					    missing, spec, have);
		if (noff)
			return tm_error_set(err, TM_ERR_TOPOLOGY,
					    "--restrict %s: CPUs %s are offline "
					    "in topology %s (online: %s)", cpus,
					    offline, spec, have);
		return tm_error_set(err, TM_ERR_TOPOLOGY,
				    "--restrict %s: CPUs %s are not in "
				    "topology %s (%s)", cpus, missing, spec,
				    have);
	}
	return TM_OK;
}

/* "cores:0-3,8": logical core indices, the way Slurm numbers a node's
 * cores (socket-major, as hwloc's logical order); wanted = their PUs. */
static tm_status parse_core_restriction(hwloc_topology_t topo, const char *list,
					hwloc_bitmap_t wanted, tm_error *err)
{
	int ncores;

	switch (tm_slurm_cores_cpuset(topo, list, wanted, &ncores)) {
	case 0:
		return TM_OK;
	case -2:
		return tm_error_set(err, TM_ERR_TOPOLOGY, "--slurm-cores %s: the "
				    "topology has %d cores (0-%d): Slurm's node "
				    "description and the hardware differ", list,
				    ncores, ncores - 1);
	default:
		return tm_error_set(err, TM_ERR_USAGE, "--slurm-cores %s: expected "
				    "a list of core numbers such as 0-3,8", list);
	}
}

/* allowed = the topology's PUs that this process may use, within the
 * restriction if there is one. */
static tm_status find_allowed(hwloc_topology_t topo, const char *spec,
			      const char *restrict_cpus, hwloc_bitmap_t allowed,
			      tm_error *err)
{
	hwloc_const_bitmap_t machine = hwloc_topology_get_topology_cpuset(topo);
	hwloc_bitmap_t wanted;
	tm_status status = TM_OK;
	char usable[256];

	if (hwloc_bitmap_and(allowed, machine,
			     hwloc_topology_get_allowed_cpuset(topo)) != 0)
		return tm_error_nomem(err);
	hwloc_bitmap_list_snprintf(usable, sizeof(usable), allowed);
	if (!restrict_cpus) {
		if (hwloc_bitmap_iszero(allowed))
			return tm_error_set(err, TM_ERR_TOPOLOGY,
					    "%s: no CPU is available to this "
					    "process", spec);
		return TM_OK;
	}
	wanted = hwloc_bitmap_alloc();
	if (!wanted)
		return tm_error_nomem(err);
	if (strncmp(restrict_cpus, "cores:", 6) == 0)
		status = parse_core_restriction(topo, restrict_cpus + 6, wanted,
						err);
	else
		status = parse_restriction(spec, restrict_cpus, machine,
					   hwloc_topology_get_complete_cpuset(topo),
					   wanted, err);
	if (status == TM_OK && hwloc_bitmap_and(allowed, allowed, wanted) != 0)
		status = tm_error_nomem(err);
	int by_core = strncmp(restrict_cpus, "cores:", 6) == 0;
	if (status == TM_OK && hwloc_bitmap_iszero(allowed))
		status = tm_error_set(err, TM_ERR_TOPOLOGY,
				      "%s %s: none of these %s is available to "
				      "this process in topology %s (available "
				      "CPUs: %s)",
				      by_core ? "--slurm-cores" : "--restrict",
				      restrict_cpus + (by_core ? 6 : 0),
				      by_core ? "cores" : "CPUs", spec, usable);
	hwloc_bitmap_free(wanted);
	return status;
}

/* ------------------------------------------------------------------ */
/* Walking hwloc's tree into tm_tree's level order                      */

typedef struct walk {
	hwloc_topology_t topo;
	hwloc_const_bitmap_t allowed;
	int leaf_depth;     /* hwloc depth of the leaf type */
	int n, cap;
	hwloc_obj_t *obj;   /* per tree node, in level order */
	int *parent;        /* per tree node */
	int *level_size;    /* leaf_depth + 1 entries */
} walk;

/* The tree level an object belongs to.  A PU that stands where a core is
 * expected (a branch without cores) is a leaf too. */
static int tree_level(const walk *w, hwloc_obj_t obj)
{
	if (obj->depth >= w->leaf_depth || obj->type == HWLOC_OBJ_PU)
		return w->leaf_depth;
	return obj->depth;
}

static int walk_push(walk *w, hwloc_obj_t obj, int parent)
{
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 64;

		if (tm__grow_array(&w->obj, sizeof(*w->obj), cap) < 0 ||
		    tm__grow_array(&w->parent, sizeof(*w->parent), cap) < 0)
			return -1;
		w->cap = cap;
	}
	w->obj[w->n] = obj;
	w->parent[w->n] = parent;
	w->n++;
	return 0;
}

/* Breadth first from the root.  An object deeper than the level being
 * filled (its branch skips an hwloc level) is pushed again as its own
 * pass-through parent until it reaches its level. */
static int walk_levels(walk *w)
{
	int start = 0;

	if (walk_push(w, hwloc_get_root_obj(w->topo), -1))
		return -1;
	w->level_size[0] = 1;
	for (int d = 0; d < w->leaf_depth; d++) {
		int end = w->n;

		for (int i = start; i < end; i++) {
			hwloc_obj_t obj = w->obj[i];

			if (tree_level(w, obj) > d) {
				if (walk_push(w, obj, i))
					return -1;
				continue;
			}
			for (unsigned k = 0; k < obj->arity; k++) {
				hwloc_obj_t child = obj->children[k];

				if (hwloc_bitmap_intersects(child->cpuset,
							    w->allowed) &&
				    walk_push(w, child, i))
					return -1;
			}
		}
		w->level_size[d + 1] = w->n - end;
		start = end;
	}
	return 0;
}

static int collect_pus(const walk *w, hwloc_obj_t obj, hwloc_bitmap_t pus,
		       hwloc_bitmap_t cores)
{
	if (obj->type == HWLOC_OBJ_PU) {
		hwloc_obj_t core;

		if (!hwloc_bitmap_isset(w->allowed, obj->os_index))
			return 0;
		/* Without Core objects, each PU is its own core. */
		core = hwloc_get_ancestor_obj_by_type(w->topo, HWLOC_OBJ_CORE,
						      obj);
		if (hwloc_bitmap_set(pus, obj->os_index) != 0 ||
		    hwloc_bitmap_set(cores, core ? core->logical_index
						 : obj->logical_index) != 0)
			return -1;
		return 0;
	}
	for (unsigned k = 0; k < obj->arity; k++)
		if (collect_pus(w, obj->children[k], pus, cores))
			return -1;
	return 0;
}

/* Bits of a finite bitmap, ascending, into a new array. */
static int *bitmap_to_array(hwloc_const_bitmap_t set, int *n)
{
	int *list = malloc(((size_t)hwloc_bitmap_weight(set) + 1) *
			   sizeof(int));
	unsigned bit;
	int i = 0;

	if (!list)
		return NULL;
	hwloc_bitmap_foreach_begin(bit, set)
		list[i++] = (int)bit;
	hwloc_bitmap_foreach_end();
	*n = i;
	return list;
}

/* A leaf binds to the allowed PUs below it and names their cores. */
static tm_status fill_leaf(const walk *w, hwloc_obj_t obj, tm_leaf *leaf)
{
	hwloc_bitmap_t pus = hwloc_bitmap_alloc();
	hwloc_bitmap_t cores = hwloc_bitmap_alloc();
	tm_status status = TM_ERR_NOMEM;
	int npus, ncores;
	int *pu_list = NULL, *core_list = NULL;

	if (pus && cores && collect_pus(w, obj, pus, cores) == 0) {
		pu_list = bitmap_to_array(pus, &npus);
		core_list = bitmap_to_array(cores, &ncores);
	}
	if (pu_list && core_list) {
		free(leaf->pus);
		free(leaf->cores);
		leaf->pus = pu_list;
		leaf->npus = npus;
		leaf->cores = core_list;
		leaf->ncores = ncores;
		status = TM_OK;
	} else {
		free(pu_list);
		free(core_list);
	}
	hwloc_bitmap_free(pus);
	hwloc_bitmap_free(cores);
	return status;
}

/* hwloc's type names ("Package", "L3", "Group0"), plus "+NUMA" where the
 * level's objects carry NUMA nodes.  Pruning keeps the lower of two levels
 * with the same leaves, so a NUMA mark moves down to the level that will
 * stand for it. */
static tm_status name_levels(const walk *w, tm_tree *t)
{
	int numa_above = 0;

	for (int d = 0; d <= t->depth; d++) {
		hwloc_obj_t first = hwloc_get_obj_by_depth(w->topo, d, 0);
		int numa = numa_above;
		char type[64], name[80];

		for (int v = t->level_start[d]; v < t->level_start[d + 1]; v++)
			if (tree_level(w, w->obj[v]) == d &&
			    w->obj[v]->memory_arity > 0)
				numa = 1;
		hwloc_obj_type_snprintf(type, sizeof(type), first, 0);
		snprintf(name, sizeof(name), "%s%s", type, numa ? "+NUMA" : "");
		free(t->level_name[d]);
		t->level_name[d] = strdup(name);
		if (!t->level_name[d])
			return TM_ERR_NOMEM;
		numa_above = numa && d < t->depth && tm_tree_level_is_single_child(t, d);
	}
	return TM_OK;
}

static tm_status build_tree(hwloc_topology_t topo, hwloc_const_bitmap_t allowed,
			    tm_leaf_kind leaves, tm_tree **out, tm_error *err)
{
	walk w = { .topo = topo, .allowed = allowed };
	tm_tree *t = NULL;
	tm_status status = TM_OK;

	w.leaf_depth = hwloc_get_type_depth(topo, HWLOC_OBJ_CORE);
	if (leaves == TM_LEAF_PU || w.leaf_depth < 0)
		w.leaf_depth = hwloc_get_type_depth(topo, HWLOC_OBJ_PU);
	w.level_size = malloc(((size_t)w.leaf_depth + 1) * sizeof(int));
	if (!w.level_size || walk_levels(&w)) {
		status = tm_error_nomem(err);
		goto out;
	}
	t = tm_tree_build(w.leaf_depth, w.level_size, w.parent, err);
	if (!t) {
		status = err->status;
		goto out;
	}
	for (int l = 0; l < t->nleaves && status == TM_OK; l++)
		status = fill_leaf(&w, w.obj[t->level_start[t->depth] + l],
				   &t->leaf[l]);
	if (status == TM_OK)
		status = name_levels(&w, t);
	if (status != TM_OK) {
		tm_error_nomem(err);
		goto out;
	}
	*out = tm_tree_prune(t, 1, err);
	if (!*out)
		status = err->status;
out:
	tm_tree_free(t);
	free(w.obj);
	free(w.parent);
	free(w.level_size);
	return status;
}

/* ------------------------------------------------------------------ */
/* CPU kinds (hybrid processors)                                        */

void tm_cpu_kinds_free(tm_cpu_kinds *k)
{
	if (!k)
		return;
	for (int i = 0; i < k->n; i++)
		free(k->kind[i].pus);
	free(k->kind);
	free(k);
}

/* One of hwloc's infos of a kind as a number, or -1. */
static double kind_info(const struct hwloc_info_s *infos, unsigned ninfos,
			const char *name)
{
	for (unsigned i = 0; i < ninfos; i++)
		if (strcmp(infos[i].name, name) == 0 && infos[i].value)
			return atof(infos[i].value);
	return -1;
}

static const char *kind_core_type(const struct hwloc_info_s *infos,
				  unsigned ninfos)
{
	for (unsigned i = 0; i < ninfos; i++)
		if (strcmp(infos[i].name, "CoreType") == 0 && infos[i].value &&
		    infos[i].value[0])
			return infos[i].value;
	return NULL;
}

/* The kinds, most powerful first.  rank[i] is what sorts them: hwloc's
 * efficiency when it knows every kind's, else Linux's capacity or the
 * maximum frequency when every kind has it. */
static tm_status read_kinds(hwloc_topology_t topo, tm_cpu_kinds **out,
			    tm_error *err)
{
	int n = hwloc_cpukinds_get_nr(topo, 0);
	tm_cpu_kinds *k = calloc(1, sizeof(*k));
	double *eff = NULL, *cap = NULL, *freq = NULL, *rank = NULL;
	int all_eff = 1, all_cap = 1, all_freq = 1;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (n < 0)
		n = 0;
	if (!k || !set)
		goto nomem;
	k->ranked = 1;
	k->kind = calloc((size_t)n + 1, sizeof(*k->kind));
	eff = calloc((size_t)n + 1, sizeof(double));
	cap = calloc((size_t)n + 1, sizeof(double));
	freq = calloc((size_t)n + 1, sizeof(double));
	if (!k->kind || !eff || !cap || !freq)
		goto nomem;
	for (int i = 0; i < n; i++) {
		struct hwloc_info_s *infos = NULL;
		unsigned ninfos = 0;
		int e = -1;
		const char *type;
		tm_cpu_kind *kd = &k->kind[i];

		if (hwloc_cpukinds_get_info(topo, (unsigned)i, set, &e,
					    &ninfos, &infos, 0) != 0)
			hwloc_bitmap_zero(set);
		kd->pus = bitmap_to_array(set, &kd->npus);
		if (!kd->pus)
			goto nomem;
		k->n = i + 1;
		eff[i] = e;
		cap[i] = kind_info(infos, ninfos, "LinuxCapacity");
		freq[i] = kind_info(infos, ninfos, "FrequencyMaxMHz");
		all_eff &= e >= 0;
		all_cap &= cap[i] > 0;
		all_freq &= freq[i] > 0;
		type = kind_core_type(infos, ninfos);
		if (type)
			snprintf(kd->name, sizeof(kd->name), "%s", type);
		else if (cap[i] > 0)
			snprintf(kd->name, sizeof(kd->name), "capacity %g",
				 cap[i]);
		else if (freq[i] > 0)
			snprintf(kd->name, sizeof(kd->name), "%g MHz", freq[i]);
		else
			snprintf(kd->name, sizeof(kd->name), "kind %d", i);
	}
	rank = all_eff ? eff : all_cap ? cap : all_freq ? freq : NULL;
	if (n > 1 && !rank)
		k->ranked = 0;
	/* Most powerful first; a stable insertion sort keeps hwloc's order
	 * between equals. */
	for (int i = 1; rank && i < n; i++)
		for (int j = i; j > 0 && rank[j] > rank[j - 1]; j--) {
			tm_cpu_kind tmp = k->kind[j];
			double r = rank[j];

			k->kind[j] = k->kind[j - 1];
			k->kind[j - 1] = tmp;
			rank[j] = rank[j - 1];
			rank[j - 1] = r;
		}
	free(eff);
	free(cap);
	free(freq);
	hwloc_bitmap_free(set);
	*out = k;
	return TM_OK;
nomem:
	free(eff);
	free(cap);
	free(freq);
	hwloc_bitmap_free(set);
	tm_cpu_kinds_free(k);
	return tm_error_nomem(err);
}

tm_status tm_topology_load_kinds(const char *spec, const char *restrict_cpus,
				 tm_leaf_kind leaves, tm_tree **out,
				 tm_cpu_kinds **kinds, tm_error *err)
{
	hwloc_topology_t topo = NULL;
	hwloc_bitmap_t allowed;
	tm_status status;
	tm_error ignored;

	*out = NULL;
	if (kinds)
		*kinds = NULL;
	if (!err)
		err = &ignored; /* the steps below read back the status */
	if (!spec || !*spec)
		return tm_error_set(err, TM_ERR_TOPOLOGY, "no topology given: "
				    "expected this, xml:PATH, "
				    "synthetic:DESCRIPTION or tree:ARITIES");
	if (strncmp(spec, "tree:", 5) == 0) {
		status = tm__topology_abstract(spec, restrict_cpus, out, err);
		if (status == TM_OK && kinds &&
		    !(*kinds = calloc(1, sizeof(**kinds)))) {
			tm_tree_free(*out);
			*out = NULL;
			status = tm_error_nomem(err);
		}
		return status;
	}
	status = open_topology(spec, &topo, err);
	if (status != TM_OK)
		return status;
	allowed = hwloc_bitmap_alloc();
	if (!allowed)
		status = tm_error_nomem(err);
	else
		status = find_allowed(topo, spec, restrict_cpus, allowed, err);
	if (status == TM_OK)
		status = build_tree(topo, allowed, leaves, out, err);
	if (status == TM_OK && kinds) {
		status = read_kinds(topo, kinds, err);
		if (status != TM_OK) {
			tm_tree_free(*out);
			*out = NULL;
		}
	}
	hwloc_bitmap_free(allowed);
	hwloc_topology_destroy(topo);
	return status;
}

tm_status tm_topology_load(const char *spec, const char *restrict_cpus,
			   tm_leaf_kind leaves, tm_tree **out, tm_error *err)
{
	return tm_topology_load_kinds(spec, restrict_cpus, leaves, out, NULL,
				      err);
}

/* ------------------------------------------------------------------ */
/* CPU lists                                                            */

int tm_cpulist_format(char *buf, int size, const int *cpus, int n)
{
	int len = 0;

	if (size > 0)
		buf[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;
		char piece[32];
		int m;

		/* A run of consecutive CPUs (repeats tolerated) is "a-b". */
		while (j + 1 < n && cpus[j + 1] <= cpus[j] + 1)
			j++;
		if (cpus[i] == cpus[j])
			m = snprintf(piece, sizeof(piece), "%s%d",
				     i ? "," : "", cpus[i]);
		else
			m = snprintf(piece, sizeof(piece), "%s%d-%d",
				     i ? "," : "", cpus[i], cpus[j]);
		if (len < size - 1) {
			int room = size - 1 - len;
			int copy = m < room ? m : room;

			memcpy(buf + len, piece, (size_t)copy);
			buf[len + copy] = '\0';
		}
		len += m;
		i = j + 1;
	}
	return len;
}
