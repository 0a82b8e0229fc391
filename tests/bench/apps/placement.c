/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement.c - placements as files: the helper's JSON (with a "node" key
 * per rank when the job has several nodes) and SMPI hostfiles.
 *
 * A rank is found by its CPUs, as the plugin binds it: "cpus" of the
 * helper's output must be exactly the CPUs of one core of the node's tree,
 * so any placement the helper prints for that machine can be simulated.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tm_topology.h"
#include "tmsim.h"

int tmsim_write_placement(FILE *f, const tmsim_job *job, int n,
			  const int *leaf_of)
{
	const int per = job->leaves_per_node;
	char cpus[4096];

	fprintf(f, "{\"placement\": [");
	for (int r = 0; r < n; r++) {
		const tm_leaf *leaf = &job->tree->leaf[leaf_of[r]];
		tm_cpulist_format(cpus, sizeof(cpus), leaf->pus, leaf->npus);
		fprintf(f, "%s\n {\"rank\": %d, ", r ? "," : "", r);
		if (job->switches > 0)
			fprintf(f, "\"node\": %d, ", leaf_of[r] / per);
		fprintf(f, "\"cpus\": \"%s\", \"cores\": [", cpus);
		for (int c = 0; c < leaf->ncores; c++)
			fprintf(f, "%s%d", c ? ", " : "", leaf->cores[c]);
		fprintf(f, "]}");
	}
	fprintf(f, "\n]}\n");
	return ferror(f) ? -1 : 0;
}

int tmsim_write_hostfile(FILE *f, int n, const int *leaf_of)
{
	for (int r = 0; r < n; r++)
		fprintf(f, "c%d\n", leaf_of[r]);
	return ferror(f) ? -1 : 0;
}

/* The cpu list of every core of the node, to find a rank's by text. */
static char **leaf_cpus(const tm_tree *node)
{
	char **list = calloc((size_t)node->nleaves, sizeof(char *));
	char buf[4096];

	for (int l = 0; list && l < node->nleaves; l++) {
		tm_cpulist_format(buf, sizeof(buf), node->leaf[l].pus,
				  node->leaf[l].npus);
		if (!(list[l] = strdup(buf))) {
			while (l--)
				free(list[l]);
			free(list);
			return NULL;
		}
	}
	return list;
}

static int read_entries(const char *path, json_t *array, const tmsim_job *job,
			char **cpus_of, int n, int *leaf_of, tm_error *err)
{
	size_t k;
	json_t *item;

	json_array_foreach(array, k, item) {
		json_t *jr = json_object_get(item, "rank");
		json_t *jc = json_object_get(item, "cpus");
		json_t *jn = json_object_get(item, "node");
		int node = jn ? (int)json_integer_value(jn) : 0, l;

		if (!json_is_integer(jr) || json_integer_value(jr) < 0 ||
		    json_integer_value(jr) >= n)
			return tm_error_set(err, TM_ERR_FORMAT, "%s: placement"
					    "[%zu].rank: expected an integer "
					    "0..%d", path, k, n - 1), -1;
		if (!json_is_string(jc))
			return tm_error_set(err, TM_ERR_FORMAT, "%s: placement"
					    "[%zu].cpus: expected a string "
					    "such as \"4\" or \"4,36\"", path,
					    k), -1;
		if ((jn && !json_is_integer(jn)) || node < 0 ||
		    node >= job->nodes)
			return tm_error_set(err, TM_ERR_FORMAT, "%s: placement"
					    "[%zu].node: expected an integer "
					    "0..%d", path, k, job->nodes - 1),
			       -1;
		for (l = 0; l < job->leaves_per_node; l++)
			if (strcmp(cpus_of[l], json_string_value(jc)) == 0)
				break;
		if (l == job->leaves_per_node)
			return tm_error_set(err, TM_ERR_FORMAT, "%s: placement"
					    "[%zu].cpus: \"%s\" is not the CPUs"
					    " of one core of %s", path, k,
					    json_string_value(jc),
					    job->node_spec), -1;
		leaf_of[json_integer_value(jr)] = node * job->leaves_per_node
						  + l;
	}
	return 0;
}

int tmsim_read_placement(const char *path, const tmsim_job *job, int n,
			 int *leaf_of, tm_error *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *array;
	char **cpus_of;
	int status = -1;

	if (!root)
		return tm_error_set(err, TM_ERR_SYNTAX, "%s:%d:%d: %s", path,
				    je.line, je.column, je.text), -1;
	array = json_object_get(root, "placement");
	if (!json_is_array(array)) {
		tm_error_set(err, TM_ERR_FORMAT, "%s: expected an object with "
			     "a \"placement\" array (treematch-helper map "
			     "--format json)", path);
		json_decref(root);
		return -1;
	}
	if (!(cpus_of = leaf_cpus(job->node))) {
		json_decref(root);
		return tm_error_nomem(err), -1;
	}
	for (int r = 0; r < n; r++)
		leaf_of[r] = -1;
	status = read_entries(path, array, job, cpus_of, n, leaf_of, err);
	for (int r = 0; status == 0 && r < n; r++)
		if (leaf_of[r] < 0) {
			tm_error_set(err, TM_ERR_SIZE, "%s: placement: rank %d "
				     "is missing, expected ranks 0..%d", path,
				     r, n - 1);
			status = -1;
		}
	for (int l = 0; l < job->leaves_per_node; l++)
		free(cpus_of[l]);
	free(cpus_of);
	json_decref(root);
	return status;
}
