/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_corpus.c - every real machine of the shared corpus (hwloc XML files
 * of ../shared/topologies, or $TM_TOPOLOGIES), read at test time: full,
 * half, --cpus-per-task 2, oversubscribed, --bind pu and an odd --restrict,
 * each placement checked valid (allowed CPUs only, one rank per core or
 * PU, slots of --cpus-per-task within one subtree, the most powerful kinds
 * of core first on hybrid processors) and the same twice.
 *
 * It calls the library the way `treematch-helper map` does (load, keep the
 * best CPU kinds, slots, oversubscription, TreeMatch): 111 machines take a
 * few seconds here, where 600 helper processes would take minutes.
 * Without the folder (a user's own clone) it says so in one line and
 * passes: the corpus is not part of the repository.
 */
#include <config.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"

#include "tm_map.h"
#include "tm_matrix.h"
#include "tm_topology.h"
#include "tm_tree.h"

enum { MAX_RANKS = 1200 };

/* What one case asks for. */
typedef struct job {
	const char *name;
	const char *restrict_cpus; /* NULL: the whole machine */
	tm_leaf_kind bind;
	int cpus_per_task;
	int nranks;
} job;

/* What one case gives. */
typedef struct placed {
	tm_tree *before_slots;     /* the tree of cores (PUs) ranks may use */
	tm_tree *t;                /* the tree the ranks went on */
	int leaf_of[MAX_RANKS];
} placed;

/* A ring with a few longer edges: every rank talks, not all alike. */
static tm_matrix *matrix(int n)
{
	int *i = malloc(sizeof(int) * 2 * (size_t)n + 1);
	int *j = malloc(sizeof(int) * 2 * (size_t)n + 1);
	double *w = malloc(sizeof(double) * 2 * (size_t)n + 1);
	tm_matrix *m = NULL;
	size_t k = 0;

	for (int r = 0; r + 1 < n; r++) {
		i[k] = r, j[k] = r + 1, w[k++] = 100;
		if (r + 3 < n)
			i[k] = r, j[k] = r + 3, w[k++] = 1 + r % 7;
	}
	tm_matrix_from_entries(n, k, i, j, w, &m, NULL);
	free(i);
	free(j);
	free(w);
	return m;
}

static void placed_free(placed *p)
{
	tm_tree_free(p->before_slots);
	tm_tree_free(p->t);
	p->before_slots = p->t = NULL;
}

/* treematch-helper map's pipeline (cli_map.c build_tree), then TreeMatch. */
static int place(const char *spec, const job *jb, const tm_cpu_kinds **kinds_out,
		 tm_cpu_kinds **kinds_keep, placed *p, tm_error *err)
{
	tm_tree *t = NULL, *next;
	tm_cpu_kinds *kinds = NULL;
	tm_matrix *m = NULL;
	int used, last;

	memset(p, 0, sizeof(*p));
	if (tm_topology_load_kinds(spec, jb->restrict_cpus, jb->bind, &t,
				   &kinds, err))
		return -1;
	next = tm_cpu_kinds_keep_best(t, kinds, jb->nranks, jb->cpus_per_task,
				      &used, &last, err);
	tm_tree_free(t);
	if (!next)
		goto fail;
	t = next;
	p->before_slots = tm_tree_copy(t, err);
	if (jb->cpus_per_task > 1) {
		next = tm_tree_group_leaves(t, jb->cpus_per_task, err);
		tm_tree_free(t);
		if (!(t = next))
			goto fail;
	}
	if (jb->nranks > t->nleaves) {
		next = tm_tree_oversubscribe(t, jb->nranks, err);
		tm_tree_free(t);
		if (!(t = next))
			goto fail;
	}
	p->t = t;
	m = matrix(jb->nranks);
	if (!m || tm_map(TM_ALGO_TREEMATCH, t, m, p->leaf_of, err))
		goto fail;
	tm_matrix_free(m);
	if (kinds_keep) {
		*kinds_keep = kinds;
		*kinds_out = kinds;
	} else {
		tm_cpu_kinds_free(kinds);
	}
	return 0;
fail:
	tm_matrix_free(m);
	tm_cpu_kinds_free(kinds);
	placed_free(p);
	return -1;
}

/* The leaf of `tree` whose record lists PU `pu`, or -1. */
static int leaf_with_pu(const tm_tree *tree, int pu)
{
	for (int l = 0; l < tree->nleaves; l++)
		for (int k = 0; k < tree->leaf[l].npus; k++)
			if (tree->leaf[l].pus[k] == pu)
				return l;
	return -1;
}

/* Every PU of a tree's leaves, as a 0/1 array indexed by OS index. */
static char *pu_set(const tm_tree *tree, int size)
{
	char *set = calloc((size_t)size, 1);

	for (int l = 0; set && l < tree->nleaves; l++)
		for (int k = 0; k < tree->leaf[l].npus; k++)
			if (tree->leaf[l].pus[k] < size)
				set[tree->leaf[l].pus[k]] = 1;
	return set;
}

static int max_pu(const tm_tree *tree)
{
	int max = 0;

	for (int l = 0; l < tree->nleaves; l++)
		for (int k = 0; k < tree->leaf[l].npus; k++)
			if (tree->leaf[l].pus[k] > max)
				max = tree->leaf[l].pus[k];
	return max;
}

/* One line of why a placement is not valid, or "" when it is. */
static void validate(const char *spec, const job *jb, const placed *p,
		     const tm_tree *whole_pus, const tm_cpu_kinds *kinds,
		     const tm_tree *whole, char *why, size_t size)
{
	const tm_tree *t = p->t;
	int npu = max_pu(whole_pus) + 1;
	char *allowed = pu_set(whole_pus, npu);
	char *wanted = NULL;
	int *uses = calloc((size_t)npu, sizeof(int));
	int limit = 1;

	why[0] = '\0';
	if (!allowed || !uses) {
		snprintf(why, size, "out of memory");
		goto out;
	}
	if (jb->restrict_cpus) {
		tm_tree *r = NULL;
		tm_error err;

		if (tm_topology_load(spec, jb->restrict_cpus, TM_LEAF_PU, &r,
				     &err) == TM_OK)
			wanted = pu_set(r, npu);
		tm_tree_free(r);
	}
	int leaves = p->before_slots->nleaves /
		     (jb->cpus_per_task > 1 ? jb->cpus_per_task : 1);
	if (jb->nranks > leaves)
		limit = (jb->nranks + leaves - 1) / leaves;
	for (int i = 0; i < jb->nranks && !why[0]; i++) {
		int l = p->leaf_of[i];

		if (l < 0 || l >= t->nleaves) {
			snprintf(why, size, "rank %d on leaf %d of %d", i, l,
				 t->nleaves);
			break;
		}
		const tm_leaf *leaf = &t->leaf[l];
		int per = jb->cpus_per_task > 1 ? jb->cpus_per_task : 1;

		if ((jb->bind == TM_LEAF_CORE && leaf->ncores != per) ||
		    (jb->bind == TM_LEAF_PU && leaf->npus != per)) {
			snprintf(why, size, "rank %d has %d cores, %d PUs, "
				 "expected %d", i, leaf->ncores, leaf->npus,
				 per);
			break;
		}
		for (int k = 0; k < leaf->npus; k++) {
			int pu = leaf->pus[k];

			if (pu >= npu || !allowed[pu] ||
			    (wanted && !wanted[pu])) {
				snprintf(why, size, "rank %d on CPU %d, not "
					 "allowed", i, pu);
				break;
			}
			if (++uses[pu] > limit) {
				snprintf(why, size, "CPU %d holds %d ranks, at "
					 "most %d expected", pu, uses[pu],
					 limit);
				break;
			}
		}
	}
	/* one rank per core: no core's PUs split between ranks */
	for (int i = 0; i < jb->nranks && !why[0] && limit == 1 &&
			jb->bind == TM_LEAF_CORE; i++) {
		const tm_leaf *a = &t->leaf[p->leaf_of[i]];

		for (int j = i + 1; j < jb->nranks && !why[0]; j++) {
			const tm_leaf *b = &t->leaf[p->leaf_of[j]];

			for (int x = 0; x < a->ncores; x++)
				for (int y = 0; y < b->ncores; y++)
					if (a->cores[x] == b->cores[y])
						snprintf(why, size, "ranks %d "
							 "and %d share core %d",
							 i, j, a->cores[x]);
		}
	}
	/* Slots: every node of the tree of cores has fewer slots spanning
	 * its children than it has children (each child hands up fewer
	 * leaves than a slot), so a slot is cut inside the smallest subtree
	 * that can hold it. */
	if (!why[0] && jb->cpus_per_task > 1) {
		const tm_tree *c = p->before_slots;
		int *spanning = calloc((size_t)c->nnodes, sizeof(int));

		for (int s = 0; spanning && s < t->nleaves && !why[0]; s++) {
			const tm_leaf *slot = &t->leaf[s];
			int first = leaf_with_pu(c, slot->pus[0]);
			int depth = c->depth;

			for (int k = 1; k < slot->npus; k++) {
				int d = tm_tree_lca_depth(c, first,
						leaf_with_pu(c, slot->pus[k]));
				if (d < depth)
					depth = d;
			}
			int v = c->level_start[c->depth] + first;
			while (c->level_start[depth + 1] <= v &&
			       depth < c->depth)
				v = c->parent[v];
			if (depth < c->depth && ++spanning[v] >= c->arity[v])
				snprintf(why, size, "%d slots span the %d "
					 "children of one %s", spanning[v],
					 c->arity[v], c->level_name[depth]);
		}
		free(spanning);
	}
	/* Hybrid processors: a rank on a kind means every leaf of the more
	 * powerful kinds holds a rank. */
	if (!why[0] && kinds && kinds->ranked && kinds->n > 1 && limit == 1) {
		int worst = -1;

		for (int i = 0; i < jb->nranks; i++) {
			const tm_leaf *leaf = &t->leaf[p->leaf_of[i]];
			tm_leaf one = { 1, leaf->pus, 0, NULL };
			int k = tm_cpu_kinds_of_leaf(kinds, &one);

			if (k > worst)
				worst = k;
		}
		for (int l = 0; l < whole->nleaves && !why[0]; l++) {
			const tm_leaf *leaf = &whole->leaf[l];

			if (tm_cpu_kinds_of_leaf(kinds, leaf) >= worst)
				continue;
			for (int k = 0; k < leaf->npus; k++)
				if (wanted ? wanted[leaf->pus[k]] : 1) {
					if (!uses[leaf->pus[k]])
						snprintf(why, size, "CPU %d "
							 "of kind %s is idle "
							 "while ranks run on "
							 "kind %s",
							 leaf->pus[k],
							 kinds->kind[tm_cpu_kinds_of_leaf(kinds, leaf)].name,
							 kinds->kind[worst].name);
					break;
				}
		}
	}
out:
	free(allowed);
	free(wanted);
	free(uses);
}

static int same_placement(const placed *a, const placed *b, int n)
{
	if (a->t->nleaves != b->t->nleaves)
		return 0;
	for (int i = 0; i < n; i++) {
		const tm_leaf *x = &a->t->leaf[a->leaf_of[i]];
		const tm_leaf *y = &b->t->leaf[b->leaf_of[i]];

		if (x->npus != y->npus ||
		    memcmp(x->pus, y->pus, sizeof(int) * (size_t)x->npus))
			return 0;
	}
	return 1;
}

/* "1,4,7,...,14-15": every third allowed PU from the second, and the last
 * two, written as a user would (single CPUs and a range when they are
 * consecutive). */
static void odd_restriction(const tm_tree *pus, char *buf, size_t size)
{
	int n = 0, *all = malloc(sizeof(int) * ((size_t)pus->nleaves + 1));
	size_t len = 0;

	buf[0] = '\0';
	for (int l = 0; all && l < pus->nleaves; l++)
		all[n++] = pus->leaf[l].pus[0];
	for (int i = 1; i < n - 2 && len < size; i += 3)
		len += (size_t)snprintf(buf + len, size - len, "%s%d",
					len ? "," : "", all[i]);
	if (n >= 2 && len < size)
		snprintf(buf + len, size - len, "%s%d%s%d", len ? "," : "",
			 all[n - 2], all[n - 1] == all[n - 2] + 1 ? "-" : ",",
			 all[n - 1]);
	else if (n == 1)
		snprintf(buf, size, "%d", all[0]);
	free(all);
}

static void run_machine(const char *dir, const char *file)
{
	char spec[8192], restriction[4096], why[512];
	tm_tree *cores = NULL, *pus = NULL;
	tm_cpu_kinds *kinds = NULL;
	tm_error err = { 0 };

	snprintf(spec, sizeof(spec), "xml:%s/%s", dir, file);
	if (tm_topology_load_kinds(spec, NULL, TM_LEAF_CORE, &cores, &kinds,
				   &err) ||
	    tm_topology_load(spec, NULL, TM_LEAF_PU, &pus, &err)) {
		CHECK(0, "%s: loads (%s)", file, err.text);
		goto out;
	}
	odd_restriction(pus, restriction, sizeof(restriction));
	int nc = cores->nleaves, np = pus->nleaves;
	int over = 2 * nc + 1 < MAX_RANKS ? 2 * nc + 1 : MAX_RANKS;
	job jobs[] = {
		{ "full", NULL, TM_LEAF_CORE, 1, nc },
		{ "half", NULL, TM_LEAF_CORE, 1, nc / 2 > 0 ? nc / 2 : 1 },
		{ "--cpus-per-task 2", NULL, TM_LEAF_CORE, 2,
		  nc / 3 > 0 ? nc / 3 : 1 },
		{ "oversubscribed", NULL, TM_LEAF_CORE, 1, over },
		{ "--bind pu", NULL, TM_LEAF_PU, 1, np > 1 ? np - 1 : 1 },
		{ "--restrict", restriction, TM_LEAF_CORE, 1, 0 },
	};
	for (size_t c = 0; c < sizeof(jobs) / sizeof(*jobs); c++) {
		job *jb = &jobs[c];
		placed a, b;
		const tm_cpu_kinds *k = NULL;
		tm_cpu_kinds *keep = NULL;

		if (jb->cpus_per_task > 1 && nc < 2)
			continue; /* one core: no slot of 2 */
		if (jb->restrict_cpus) {
			tm_tree *r = NULL;

			if (tm_topology_load(spec, jb->restrict_cpus,
					     TM_LEAF_CORE, &r, &err)) {
				CHECK(0, "%s: --restrict %s loads (%s)", file,
				      jb->restrict_cpus, err.text);
				continue;
			}
			jb->nranks = r->nleaves;
			tm_tree_free(r);
		}
		if (place(spec, jb, &k, &keep, &a, &err)) {
			CHECK(0, "%s: %s, %d ranks: placed (%s)", file,
			      jb->name, jb->nranks, err.text);
			continue;
		}
		validate(spec, jb, &a, pus, k, cores, why, sizeof(why));
		CHECK(!why[0], "%s: %s, %d ranks: a valid placement%s%s", file,
		      jb->name, jb->nranks, why[0] ? ": " : "", why);
		if (place(spec, jb, NULL, NULL, &b, &err) == 0) {
			CHECK(same_placement(&a, &b, jb->nranks),
			      "%s: %s: the same placement twice", file,
			      jb->name);
			placed_free(&b);
		} else {
			CHECK(0, "%s: %s: placed again (%s)", file, jb->name,
			      err.text);
		}
		placed_free(&a);
		tm_cpu_kinds_free(keep);
	}
out:
	tm_tree_free(cores);
	tm_tree_free(pus);
	tm_cpu_kinds_free(kinds);
}

/* Hybrid machines: a job that fits on the most powerful kind is placed
 * there; one that does not uses all of it first. */
static int run_hybrid(const char *dir, const char *file)
{
	char spec[8192], why[512];
	tm_tree *cores = NULL, *pus = NULL;
	tm_cpu_kinds *kinds = NULL;
	tm_error err = { 0 };
	int hybrid = 0;

	snprintf(spec, sizeof(spec), "xml:%s/%s", dir, file);
	if (tm_topology_load_kinds(spec, NULL, TM_LEAF_CORE, &cores, &kinds,
				   &err) ||
	    tm_topology_load(spec, NULL, TM_LEAF_PU, &pus, &err))
		goto out;
	if (kinds->n < 2 || !kinds->ranked)
		goto out;
	int best = 0;
	for (int l = 0; l < cores->nleaves; l++)
		best += tm_cpu_kinds_of_leaf(kinds, &cores->leaf[l]) == 0;
	if (best == 0 || best >= cores->nleaves)
		goto out;
	hybrid = 1;
	int sizes[] = { best, best + 1 };
	for (int s = 0; s < 2; s++) {
		job jb = { s ? "more than the best kind" : "the best kind's size",
			   NULL, TM_LEAF_CORE, 1, sizes[s] };
		placed a;
		const tm_cpu_kinds *k;
		tm_cpu_kinds *keep = NULL;

		if (place(spec, &jb, &k, &keep, &a, &err)) {
			CHECK(0, "%s: %d ranks placed (%s)", file, jb.nranks,
			      err.text);
			continue;
		}
		int on_best = 0;
		for (int i = 0; i < jb.nranks; i++)
			on_best += tm_cpu_kinds_of_leaf(k,
					&a.t->leaf[a.leaf_of[i]]) == 0;
		validate(spec, &jb, &a, pus, k, cores, why, sizeof(why));
		CHECK(on_best == best && !why[0],
		      "%s: %d ranks, %d %s cores: %d of them on %s%s%s", file,
		      jb.nranks, best, k->kind[0].name, on_best,
		      k->kind[0].name, why[0] ? ": " : "", why);
		placed_free(&a);
		tm_cpu_kinds_free(keep);
	}
out:
	tm_tree_free(cores);
	tm_tree_free(pus);
	tm_cpu_kinds_free(kinds);
	return hybrid;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *env = getenv("TM_TOPOLOGIES");
	const char *top = getenv("top_srcdir");
	char dir[4096];
	struct stat st;
	struct dirent *e;
	char **files = NULL;
	int n = 0, cap = 0, hybrid = 0;
	struct timespec t0, t1;
	DIR *d;

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else
		snprintf(dir, sizeof(dir), "%s/../shared/topologies",
			 top ? top : ".");
	int is_corpus = 1;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		/* the same checks on the project's own real exports, so that
		 * a tree without the corpus beside it still tests something */
		printf("# %s is absent: the corpus of real machines is not "
		       "checked here (set TM_TOPOLOGIES to its folder); the "
		       "machines of tests/data are\n", dir);
		snprintf(dir, sizeof(dir), "%s/tests/data", top ? top : ".");
		is_corpus = 0;
	}
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".xml"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 128;
			files = realloc(files, sizeof(char *) * (size_t)cap);
		}
		files[n++] = strdup(e->d_name);
	}
	if (d)
		closedir(d);
	CHECK(n > 0, "%s holds hwloc XML files (%d)", dir, n);
	qsort(files, (size_t)n, sizeof(char *), by_name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) {
		run_machine(dir, files[i]);
		hybrid += run_hybrid(dir, files[i]);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(!is_corpus || hybrid >= 5, "the corpus has hybrid machines "
	      "with ranked kinds (%d)", hybrid);
	printf("# %d machines (%d hybrid) in %.1f s\n", n, hybrid,
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (int i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return check_status();
}
