/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * expect - prints the communication matrix that libcommprof must write
 * for a run of one of the example programs (contrib/examples) or of the
 * test program `calls`, computed from the programs' documented patterns
 * and from the counting model of doc/profiler.md.  It shares no code with
 * the profiler nor with the programs: it is the independent side of the
 * comparison.
 *
 *   expect ring P BYTES ROUNDS
 *   expect halo2d PX PY N ITERS
 *   expect alltoall P SCALE ROUNDS
 *   expect pairs P BIG SMALL ROUNDS
 *   expect calls P COMM C CASE...
 *
 * The model, from the whole job's point of view: a point-to-point message
 * counts once with its bytes (even 0 bytes); a collective's block counts
 * once when it holds data; barrier is one empty message per pair; nothing
 * a rank sends to itself counts.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct matrix {
	int size;
	uint64_t *bytes;    /* [from * size + to] */
	uint64_t *messages;
};

static void message(struct matrix *m, int from, int to, uint64_t bytes)
{
	if (from == to)
		return;
	m->bytes[from * m->size + to] += bytes;
	m->messages[from * m->size + to] += 1;
}

static void block(struct matrix *m, int from, int to, uint64_t bytes)
{
	if (bytes > 0)
		message(m, from, to, bytes);
}

static void print_list(const struct matrix *m, const char *name,
		       const uint64_t *values, bool last)
{
	const char *sep = "";
	int i, j;

	printf(" \"%s\": [", name);
	for (i = 0; i < m->size; i++)
		for (j = 0; j < m->size; j++)
			if (values[i * m->size + j]) {
				printf("%s\n  [%d, %d, %" PRIu64 "]", sep, i, j,
				       values[i * m->size + j]);
				sep = ",";
			}
	printf("\n ]%s\n", last ? "}" : ",");
}

static void print_matrix(const struct matrix *m)
{
	printf("{\"size\": %d, \"unit\": \"bytes\",\n", m->size);
	print_list(m, "entries", m->bytes, false);
	print_list(m, "messages", m->messages, true);
}

/* ------------------------------------------------------------------ */
/* The examples                                                        */
/* ------------------------------------------------------------------ */

/* ring: i sends BYTES to i+1 (mod P), ROUNDS times. */
static void ring(struct matrix *m, const long *a)
{
	long bytes = a[0], rounds = a[1], r;
	int i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < m->size; i++)
			message(m, i, (i + 1) % m->size, (uint64_t)bytes);
}

/* halo2d: rank y*PX + x; N doubles to each grid neighbour and an
 * allreduce of one double per iteration. */
static void halo2d(struct matrix *m, int px, int py, const long *a)
{
	long n = a[0], iters = a[1], t;
	int x, y, i, j;
	static const int dx[] = { -1, 1, 0, 0 }, dy[] = { 0, 0, -1, 1 };

	for (t = 0; t < iters; t++)
		for (y = 0; y < py; y++)
			for (x = 0; x < px; x++) {
				i = y * px + x;
				for (j = 0; j < 4; j++)
					if (x + dx[j] >= 0 && x + dx[j] < px
					    && y + dy[j] >= 0
					    && y + dy[j] < py)
						message(m, i, (y + dy[j]) * px
							+ x + dx[j],
							(uint64_t)n * 8);
				for (j = 0; j < m->size; j++)
					block(m, i, j, 8);
			}
}

/* alltoall: i sends (i+1)(j+2) SCALE ints to j, ROUNDS times. */
static void alltoall(struct matrix *m, const long *a)
{
	long scale = a[0], rounds = a[1], r;
	int i, j;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < m->size; i++)
			for (j = 0; j < m->size; j++)
				block(m, i, j, (uint64_t)((i + 1) * (j + 2)
					       * scale * 4));
}

/* pairs: 2k and 2k+1 exchange BIG bytes, everyone else SMALL, each
 * round. */
static void pairs(struct matrix *m, const long *a)
{
	long big = a[0], small = a[1], rounds = a[2], r;
	int i, j;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < m->size; i++)
			for (j = 0; j < m->size; j++)
				if (i != j)
					message(m, i, j, (uint64_t)(
						j == (i ^ 1) ? big : small));
}

/* ------------------------------------------------------------------ */
/* calls: one model per case, as tests/profiler/calls.c describes them */
/* ------------------------------------------------------------------ */

struct comm {
	int world_size;
	bool reversed, inter;
	int groups;   /* 1, or 2 on an intercommunicator */
	int size;     /* of each group */
	int c;        /* unit count */
	bool in_place;
};

/* World rank of member k of group g. */
static int member(const struct comm *cm, int g, int k)
{
	if (cm->inter)
		return 2 * k + g;
	return cm->reversed ? cm->world_size - 1 - k : k;
}

/* World rank of peer j of a member of group g: the remote group's j-th
 * member on an intercommunicator, the local group's otherwise. */
static int peer(const struct comm *cm, int g, int j)
{
	return member(cm, cm->inter ? 1 - g : g, j);
}

#define EACH_MEMBER(cm, g, k) \
	for (g = 0; g < (cm)->groups; g++) \
		for (k = 0; k < (cm)->size; k++)

static void ring_messages(struct matrix *m, const struct comm *cm,
			  int times, uint64_t bytes)
{
	int g, k, t;

	for (t = 0; t < times; t++)
		EACH_MEMBER(cm, g, k)
			message(m, member(cm, g, k),
				peer(cm, g, (k + 1) % cm->size), bytes);
}

static void barrier(struct matrix *m, const struct comm *cm)
{
	int g, k, j;

	EACH_MEMBER(cm, g, k)
		for (j = 0; j < cm->size; j++)
			message(m, member(cm, g, k), peer(cm, g, j), 0);
}

static uint64_t ints(const struct comm *cm, int units)
{
	return (uint64_t)units * (uint64_t)cm->c * 4;
}

/* Point-to-point cases */

static void send_once(struct matrix *m, const struct comm *cm)
{
	ring_messages(m, cm, 1, ints(cm, 1));
}

static void ready_send(struct matrix *m, const struct comm *cm)
{
	barrier(m, cm);
	ring_messages(m, cm, 1, ints(cm, 1));
}

static void persistent(struct matrix *m, const struct comm *cm)
{
	ring_messages(m, cm, 2, ints(cm, 1));
}

static void startall(struct matrix *m, const struct comm *cm)
{
	ring_messages(m, cm, 6, ints(cm, 1));
}

static void zero(struct matrix *m, const struct comm *cm)
{
	ring_messages(m, cm, 1, 0);
}

/* Three communicators in turn, rank k being world P-1-k, then k, then
 * k-1 mod P; one message of C ints to the right in each. */
static void reuse(struct matrix *m, const struct comm *cm)
{
	int p = cm->world_size, k;

	for (k = 0; k < p; k++) {
		message(m, p - 1 - k, p - 1 - (k + 1) % p, ints(cm, 1));
		message(m, k, (k + 1) % p, ints(cm, 1));
		message(m, (k + p - 1) % p, k, ints(cm, 1));
	}
}

static void nothing(struct matrix *m, const struct comm *cm)
{
	(void)m;
	(void)cm;
}

/* Rooted collectives: the root is member 1 mod n of the only group, or
 * member 0 of group A on an intercommunicator, sending to group B. */

static int root_world(const struct comm *cm)
{
	return cm->inter ? member(cm, 0, 0) : member(cm, 0, 1 % cm->size);
}

/* Members that are not the root, on the side that exchanges with it. */
static int leaf_world(const struct comm *cm, int k)
{
	return member(cm, cm->inter ? 1 : 0, k);
}

static void from_root(struct matrix *m, const struct comm *cm, bool growing)
{
	int k;

	for (k = 0; k < cm->size; k++)
		block(m, root_world(cm), leaf_world(cm, k),
		      ints(cm, growing ? k + 1 : 1));
}

static void to_root(struct matrix *m, const struct comm *cm, bool growing)
{
	int k;

	for (k = 0; k < cm->size; k++)
		block(m, leaf_world(cm, k), root_world(cm),
		      ints(cm, growing ? k + 1 : 1));
}

static void bcast(struct matrix *m, const struct comm *cm)
{
	from_root(m, cm, false);
}

static void scatter(struct matrix *m, const struct comm *cm)
{
	from_root(m, cm, false);
}

static void scatterv(struct matrix *m, const struct comm *cm)
{
	from_root(m, cm, true);
}

static void reduce(struct matrix *m, const struct comm *cm)
{
	to_root(m, cm, false);
}

static void gatherv(struct matrix *m, const struct comm *cm)
{
	to_root(m, cm, true);
}

/* Every member to every peer; the block size by sender k and peer j. */
static void all_to_all(struct matrix *m, const struct comm *cm,
		       uint64_t (*size)(const struct comm *, int, int))
{
	int g, k, j;

	EACH_MEMBER(cm, g, k)
		for (j = 0; j < cm->size; j++)
			block(m, member(cm, g, k), peer(cm, g, j),
			      size(cm, k, j));
}

static uint64_t unit_block(const struct comm *cm, int k, int j)
{
	(void)j;
	(void)k;
	return ints(cm, 1);
}

static uint64_t sender_block(const struct comm *cm, int k, int j)
{
	(void)j;
	return ints(cm, k + 1);
}

static uint64_t receiver_block(const struct comm *cm, int k, int j)
{
	(void)k;
	return ints(cm, j + 1);
}

static uint64_t v_block(const struct comm *cm, int k, int j)
{
	return ints(cm, cm->in_place ? k + j + 1 : k + 2 * j + 1);
}

static uint64_t w_block(const struct comm *cm, int k, int j)
{
	int parity = cm->in_place ? (k + j) % 2 : j % 2;
	uint64_t elements = (uint64_t)(k + j + 1) * (uint64_t)cm->c;

	return elements * (parity ? 8 : 4);
}

/* An intercommunicator reduce-scatter shares each sender's vector of
 * `count` elements evenly over the remote group. */
static uint64_t even_share(const struct comm *cm, long count, int j)
{
	long parts = cm->size;

	return (uint64_t)(count * (j + 1) / parts - count * j / parts) * 4;
}

static uint64_t inter_rs_block(const struct comm *cm, int k, int j)
{
	(void)k;
	return even_share(cm, (long)cm->size * (cm->size + 1) / 2 * cm->c, j);
}

static uint64_t inter_rsb_block(const struct comm *cm, int k, int j)
{
	(void)k;
	return even_share(cm, (long)cm->size * cm->c, j);
}

static void allreduce(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, unit_block);
}

static void allgatherv(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, sender_block);
}

static void alltoallv(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, v_block);
}

static void alltoallw(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, w_block);
}

static void reduce_scatter(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, cm->inter ? inter_rs_block : receiver_block);
}

static void reduce_scatter_block(struct matrix *m, const struct comm *cm)
{
	all_to_all(m, cm, cm->inter ? inter_rsb_block : unit_block);
}

/* Member k's input goes to every member above it. */
static void scan(struct matrix *m, const struct comm *cm)
{
	int k, j;

	for (k = 0; k < cm->size; k++)
		for (j = k + 1; j < cm->size; j++)
			block(m, member(cm, 0, k), member(cm, 0, j),
			      ints(cm, 1));
}

struct model {
	const char *name;
	void (*count)(struct matrix *, const struct comm *);
};

static const struct model p2p_models[] = {
	{ "send", send_once }, { "bsend", send_once },
	{ "ssend", send_once }, { "rsend", ready_send },
	{ "isend", send_once }, { "ibsend", send_once },
	{ "issend", send_once }, { "irsend", ready_send },
	{ "sendrecv", send_once }, { "sendrecv_replace", send_once },
	{ "persistent", persistent }, { "rsend_init", ready_send },
	{ "startall", startall }, { "zero", zero },
	{ "proc_null", nothing }, { "self", nothing }, { "reuse", reuse },
};

static const struct model collective_models[] = {
	{ "barrier", barrier }, { "bcast", bcast }, { "bcast0", nothing },
	{ "reduce", reduce }, { "allreduce", allreduce },
	{ "gather", reduce }, { "gatherv", gatherv },
	{ "scatter", scatter }, { "scatterv", scatterv },
	{ "allgather", allreduce }, { "allgatherv", allgatherv },
	{ "alltoall", allreduce }, { "alltoallv", alltoallv },
	{ "alltoallw", alltoallw }, { "reduce_scatter", reduce_scatter },
	{ "reduce_scatter_block", reduce_scatter_block },
	{ "scan", scan }, { "exscan", scan },
};

static const struct model *find_model(const struct model *models,
				      size_t count, const char *name)
{
	size_t k;

	for (k = 0; k < count; k++)
		if (strcmp(models[k].name, name) == 0)
			return &models[k];
	return NULL;
}

#define FIND(table, name) \
	find_model(table, sizeof table / sizeof table[0], name)

/* A case name: a point-to-point one, or a collective with an optional
 * `i` in front (non-blocking: same model) and `_ip` behind (in place). */
static bool count_case(struct matrix *m, struct comm *cm, const char *name)
{
	char base[64];
	size_t length = strlen(name);
	const struct model *model = FIND(p2p_models, name);

	cm->in_place = false;
	if (!model && length < sizeof base) {
		strcpy(base, name);
		if (length > 3 && strcmp(base + length - 3, "_ip") == 0) {
			base[length - 3] = '\0';
			cm->in_place = true;
		}
		model = FIND(collective_models, base);
		if (!model && base[0] == 'i')
			model = FIND(collective_models, base + 1);
	}
	if (!model)
		return false;
	model->count(m, cm);
	return true;
}

static bool calls(struct matrix *m, const char *kind, int c, int count,
		  char **names)
{
	struct comm cm = { .world_size = m->size, .c = c, .groups = 1,
			   .size = m->size };
	int k;

	if (strcmp(kind, "reversed") == 0) {
		cm.reversed = true;
	} else if (strcmp(kind, "inter") == 0 && m->size % 2 == 0) {
		cm.inter = true;
		cm.groups = 2;
		cm.size = m->size / 2;
	} else if (strcmp(kind, "world") != 0) {
		fprintf(stderr, "expect: no communicator '%s'\n", kind);
		return false;
	}
	for (k = 0; k < count; k++)
		if (!count_case(m, &cm, names[k])) {
			fprintf(stderr, "expect: no case '%s'\n", names[k]);
			return false;
		}
	return true;
}

/* ------------------------------------------------------------------ */

static bool positive_args(int argc, char **argv, int from, long *out)
{
	char *end;
	int k;

	for (k = from; k < argc; k++) {
		out[k - from] = strtol(argv[k], &end, 10);
		if (end == argv[k] || *end || out[k - from] < 1) {
			fprintf(stderr, "expect: '%s' is not a positive "
				"integer\n", argv[k]);
			return false;
		}
	}
	return true;
}

static bool allocate(struct matrix *m, long size)
{
	m->size = (int)size;
	m->bytes = calloc((size_t)(size * size), sizeof *m->bytes);
	m->messages = calloc((size_t)(size * size), sizeof *m->messages);
	return m->bytes && m->messages;
}

int main(int argc, char **argv)
{
	struct matrix m = { 0 };
	const char *pattern = argc > 1 ? argv[1] : "";
	long a[5];
	bool ok;

	if (strcmp(pattern, "ring") == 0 && argc == 5)
		ok = positive_args(argc, argv, 2, a) && allocate(&m, a[0]);
	else if (strcmp(pattern, "halo2d") == 0 && argc == 6)
		ok = positive_args(argc, argv, 2, a)
		     && allocate(&m, a[0] * a[1]);
	else if (strcmp(pattern, "alltoall") == 0 && argc == 5)
		ok = positive_args(argc, argv, 2, a) && allocate(&m, a[0]);
	else if (strcmp(pattern, "pairs") == 0 && argc == 6)
		ok = positive_args(argc, argv, 2, a) && allocate(&m, a[0]);
	else if (strcmp(pattern, "calls") == 0 && argc >= 6)
		ok = positive_args(3, argv, 2, a)
		     && positive_args(5, argv, 4, a + 1)
		     && allocate(&m, a[0]);
	else {
		fprintf(stderr, "usage: expect ring P BYTES ROUNDS\n"
			"       expect halo2d PX PY N ITERS\n"
			"       expect alltoall P SCALE ROUNDS\n"
			"       expect pairs P BIG SMALL ROUNDS\n"
			"       expect calls P COMM C CASE...\n");
		return 2;
	}
	if (!ok)
		return 2;

	if (strcmp(pattern, "ring") == 0)
		ring(&m, a + 1);
	else if (strcmp(pattern, "halo2d") == 0)
		halo2d(&m, (int)a[0], (int)a[1], a + 2);
	else if (strcmp(pattern, "alltoall") == 0)
		alltoall(&m, a + 1);
	else if (strcmp(pattern, "pairs") == 0)
		pairs(&m, a + 1);
	else if (!calls(&m, argv[3], (int)a[1], argc - 5, argv + 5))
		return 2;

	print_matrix(&m);
	free(m.bytes);
	free(m.messages);
	return 0;
}
