/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_mapper.c - the mapper thread of a node (OnDeLoc-MPI's "mapper
 * thread", in the task of local rank 0).  Each round it sleeps the
 * interval, takes the traffic of the interval between this node's ranks
 * from the segment (today's counters minus its last snapshot), maps the
 * ranks with the engine (tm_online_map_round), moves the tasks whose
 * cores change, and stretches or shrinks the interval (Equations 1 and 2
 * of the paper, tm_online_next_interval).
 *
 * It never calls MPI (MPI may not be thread-safe in this job) and holds
 * no lock the application could wait on: it only reads counters the
 * ranks write, and writes the snapshot rows nobody reads before it is
 * joined.  If the process exits without MPI_Finalize, it dies with it.
 *
 * Two bases: its own copy of the node's columns as the last round read
 * them (the interval's traffic is the counters minus it), and, with
 * save=, the segment's snapshot rows, moved forward only when a round
 * changed the mapping: what is saved is the traffic of the pattern the
 * tasks ended in (the whole run if the mapping never changed), not the
 * few milliseconds since the last round.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tm_matrix.h"

#include "online.h"

struct online_mapper {
	struct online_config cfg;
	struct online_segment *seg;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;  /* on CLOCK_MONOTONIC */
	bool stop;            /* under lock */
	struct timespec started;

	/* The ranks mapped, fixed at the first round (those registered). */
	int n;
	int *local_rank;
	int *world_rank;
	struct online_slot **slot;
	cpu_set_t *cpus;      /* where each is bound now */
	int *previous, *leaf_of;
	bool *gone;           /* its task no longer exists */
	uint64_t *base;       /* [a * n + b]: a's bytes to b at the last round */
	tm_tree *tree;

	/* the interval's entries, kept between rounds */
	size_t capacity;
	int *ei, *ej;
	double *ew;

	struct online_stats stats;
};

static double since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Sleeps `seconds` unless stopped; false once stopped. */
static bool sleep_unless_stopped(struct online_mapper *m, double seconds)
{
	struct timespec until;
	bool stopped;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)seconds;
	until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&m->lock);
	while (!m->stop &&
	       pthread_cond_timedwait(&m->wake, &m->lock, &until) != ETIMEDOUT)
		;
	stopped = m->stop;
	pthread_mutex_unlock(&m->lock);
	return !stopped;
}

/* The first interval: the name goes as soon as every local rank has
 * registered (checked every 10 ms), or at its end. */
static bool first_interval(struct online_mapper *m)
{
	struct online_header *h = m->seg->header;
	double first = m->cfg.params.first;
	double step;

	while (m->seg->linked) {
		if (atomic_load_explicit(&h->registered, memory_order_acquire)
		    >= (uint32_t)h->local_size || since(&m->started) >= first) {
			online_segment_unlink(m->seg);
			break;
		}
		step = first - since(&m->started);
		if (!sleep_unless_stopped(m, step < 0.01 ? step : 0.01))
			return false;
	}
	step = first - since(&m->started);
	return step <= 0 || sleep_unless_stopped(m, step);
}

static void say(const struct online_mapper *m, const char *what,
		const char *why)
{
	fprintf(stderr, ONLINE_PREFIX "node %s: %s: %s\n", m->cfg.node, what,
		why);
}

/* The registered ranks, their CPUs and the tree: false when there is
 * nothing to map (one line said why, unless there is simply one rank). */
static bool members(struct online_mapper *m)
{
	struct online_header *h = m->seg->header;
	size_t n = (size_t)h->local_size;
	struct online_slot *s;
	tm_error err = { 0 };
	int r;

	m->local_rank = malloc(n * sizeof *m->local_rank);
	m->world_rank = malloc(n * sizeof *m->world_rank);
	m->slot = malloc(n * sizeof *m->slot);
	m->cpus = malloc(n * sizeof *m->cpus);
	m->previous = malloc(n * sizeof *m->previous);
	m->leaf_of = malloc(n * sizeof *m->leaf_of);
	m->gone = calloc(n, sizeof *m->gone);
	/* n is bounded by the segment's own size check (ONLINE_SEGMENT_MAX) */
	m->base = calloc(n * n, sizeof *m->base);
	if (!m->local_rank || !m->world_rank || !m->slot || !m->cpus ||
	    !m->previous || !m->leaf_of || !m->gone || !m->base) {
		say(m, "not mapping", "out of memory");
		return false;
	}
	for (r = 0; r < h->local_size; r++) {
		s = online_segment_slot(m->seg, r);
		if (atomic_load_explicit(&s->state, memory_order_acquire)
		    != ONLINE_SLOT_READY)
			continue; /* never called MPI_Init: left alone */
		if (s->world_rank < 0 || s->world_rank >= h->world_size)
			continue; /* cannot be: only our tasks write here */
		m->local_rank[m->n] = r;
		m->world_rank[m->n] = s->world_rank;
		m->slot[m->n] = s;
		m->cpus[m->n] = s->cpus;
		m->n++;
	}
	m->stats.n = m->n;
	m->stats.local_rank = m->local_rank;
	m->stats.world_rank = m->world_rank;
	m->stats.cpus = m->cpus;
	if (m->n < 2)
		return false; /* one rank: nothing to place */
	m->tree = online_tree_build(m->cpus, m->n, m->cfg.cpus_per_task, &err);
	if (!m->tree) {
		say(m, "not mapping", err.text);
		return false;
	}
	online_initial_leaves(m->tree, m->cpus, m->n, m->previous);
	return true;
}

static bool add_entry(struct online_mapper *m, size_t *count, int i, int j,
		      double w)
{
	if (*count == m->capacity) {
		size_t more = m->capacity ? 2 * m->capacity : 64;
		int *ei = realloc(m->ei, more * sizeof *ei);
		int *ej = ei ? realloc(m->ej, more * sizeof *ej) : NULL;
		double *ew = ej ? realloc(m->ew, more * sizeof *ew) : NULL;

		if (ei)
			m->ei = ei;
		if (ej)
			m->ej = ej;
		if (!ew)
			return false;
		m->ew = ew;
		m->capacity = more;
	}
	m->ei[*count] = i;
	m->ej[*count] = j;
	m->ew[*count] = w;
	(*count)++;
	return true;
}

/* The interval's matrix between the members, in bytes: what each sent
 * to the others since the last round, from one load of each counter,
 * which becomes the new base, so that no byte is counted twice or lost
 * between rounds. */
static tm_matrix *interval_matrix(struct online_mapper *m, tm_error *err)
{
	tm_matrix *mat = NULL;
	size_t count = 0;
	uint64_t now, *before;
	int a, b;

	for (a = 0; a < m->n; a++) {
		_Atomic uint64_t *row = online_slot_row(m->seg, m->slot[a],
							ONLINE_ROW_BYTES);

		for (b = 0; b < m->n; b++) {
			now = atomic_load_explicit(&row[m->world_rank[b]],
						   memory_order_relaxed);
			before = &m->base[(size_t)a * (size_t)m->n + (size_t)b];
			if (now > *before &&
			    !add_entry(m, &count, a, b, (double)(now - *before))) {
				tm_error_nomem(err);
				return NULL;
			}
			*before = now;
		}
	}
	if (tm_matrix_from_entries(m->n, count, m->ei, m->ej, m->ew, &mat,
				   err))
		return NULL;
	return mat;
}

/* save=: the tasks now follow a new mapping, so the pattern saved at the
 * end starts here: every member's snapshot rows (all world columns) are
 * set to its counters. */
static void mark_pattern_start(struct online_mapper *m)
{
	static const enum online_row_kind rows[2][2] = {
		{ ONLINE_ROW_BYTES, ONLINE_ROW_SNAP_BYTES },
		{ ONLINE_ROW_MESSAGES, ONLINE_ROW_SNAP_MESSAGES },
	};
	int a, k, j;

	if (!m->cfg.params.save[0])
		return;
	for (a = 0; a < m->n; a++) {
		for (k = 0; k < 2; k++) {
			_Atomic uint64_t *row = online_slot_row(
				m->seg, m->slot[a], rows[k][0]);
			_Atomic uint64_t *snap = online_slot_row(
				m->seg, m->slot[a], rows[k][1]);

			for (j = 0; j < m->seg->header->world_size; j++)
				atomic_store_explicit(&snap[j],
					atomic_load_explicit(&row[j],
						memory_order_relaxed),
					memory_order_relaxed);
		}
	}
	atomic_fetch_add_explicit(&m->seg->header->snap_epoch, 1,
				  memory_order_release);
}

/* Binds every rank whose leaf's CPUs are not the ones it has; returns
 * how many moved. */
static int apply(struct online_mapper *m)
{
	cpu_set_t want;
	int a, moved = 0, error;

	for (a = 0; a < m->n; a++) {
		online_leaf_cpus(m->tree, m->leaf_of[a], &want);
		if (m->gone[a] || CPU_EQUAL(&want, &m->cpus[a]))
			continue;
		error = online_move_task(m->slot[a]->pid,
					 m->slot[a]->start_time, &want);
		if (error == ESRCH) {
			m->gone[a] = true; /* killed, or finished */
			continue;
		}
		if (error) {
			char what[64];

			snprintf(what, sizeof what, "moving local rank %d",
				 m->local_rank[a]);
			say(m, what, strerror(error));
			continue;
		}
		m->cpus[a] = want;
		moved++;
	}
	return moved;
}

/* One round; false when mapping cannot go on (one line said why). */
static bool round_once(struct online_mapper *m, double interval,
		       bool *changed)
{
	struct timespec start;
	tm_online_round r;
	tm_error err = { 0 };
	tm_matrix *mat;
	int moved;
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &start);
	mat = interval_matrix(m, &err);
	ok = mat && tm_online_map_round(&m->cfg.params, m->tree, mat,
					m->previous, m->leaf_of, &r, &err)
		    == TM_OK;
	tm_matrix_free(mat);
	if (!ok) {
		say(m, "mapping stopped", err.text);
		return false;
	}
	moved = apply(m);
	/* a move also happens when an unbound task gets its first core */
	*changed = r.changed || moved > 0;
	if (*changed)
		mark_pattern_start(m);
	memcpy(m->previous, m->leaf_of, (size_t)m->n * sizeof *m->previous);
	m->stats.mapping_seconds += since(&start);
	if (m->stats.rounds < ONLINE_REPORT_INTERVALS)
		m->stats.intervals[m->stats.rounds] = interval;
	m->stats.rounds++;
	m->stats.moves += moved;
	m->stats.cost = r.cost;
	m->stats.packed_cost = r.packed_cost;
	online_log_round(m->cfg.log_path, m->cfg.node, m->stats.rounds,
			 since(&m->started), interval, *changed, moved, r.cost);
	return true;
}

static void *run(void *arg)
{
	struct online_mapper *m = arg;
	double interval = m->cfg.params.first;
	struct timespec start;
	bool changed, go;

	m->stats.interval = interval;
	if (!first_interval(m))
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &start);
	go = members(m);
	m->stats.mapping_seconds += since(&start);
	while (go && round_once(m, interval, &changed)) {
		interval = tm_online_next_interval(&m->cfg.params, interval,
						   changed);
		m->stats.interval = interval;
		if (!sleep_unless_stopped(m, interval))
			break;
	}
	/* nothing more to do: wait to be joined */
	while (sleep_unless_stopped(m, 3600))
		;
	return NULL;
}

static void free_mapper(struct online_mapper *m)
{
	tm_tree_free(m->tree);
	free(m->local_rank);
	free(m->world_rank);
	free(m->slot);
	free(m->cpus);
	free(m->previous);
	free(m->leaf_of);
	free(m->gone);
	free(m->base);
	free(m->ei);
	free(m->ej);
	free(m->ew);
	free(m);
}

struct online_mapper *online_mapper_start(const struct online_config *c,
					  struct online_segment *seg)
{
	struct online_mapper *m = calloc(1, sizeof *m);
	pthread_condattr_t attr;
	sigset_t all, old;
	int rc;

	if (!m) {
		fprintf(stderr, ONLINE_PREFIX "no memory for the mapper: "
			"online mode off\n");
		online_segment_unlink(seg);
		return NULL;
	}
	m->cfg = *c;
	m->seg = seg;
	clock_gettime(CLOCK_MONOTONIC, &m->started);
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&m->wake, &attr);
	pthread_condattr_destroy(&attr);
	/* the application's signals go to its own threads, never here */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&m->thread, NULL, run, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		fprintf(stderr, ONLINE_PREFIX "cannot start the mapper: %s: "
			"online mode off\n", strerror(rc));
		online_segment_unlink(seg);
		pthread_cond_destroy(&m->wake);
		pthread_mutex_destroy(&m->lock);
		free(m);
		return NULL;
	}
	return m;
}

void online_mapper_stop(struct online_mapper *m)
{
	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->wake);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);
	/* a job shorter than the first interval: the name goes now */
	online_segment_unlink(m->seg);
	m->stats.wall_seconds = since(&m->started);
	if (m->cfg.report)
		online_report_print(m->cfg.node, &m->stats);
	pthread_cond_destroy(&m->wake);
	pthread_mutex_destroy(&m->lock);
	free_mapper(m);
}
