/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_online_segment - the online mode's shared-memory protocol
 * (contrib/profiler/online_segment.c), with plain processes and a real
 * POSIX shared-memory object, no MPI:
 *   - names, sizes and the bound on them;
 *   - the object is the user's, mode 0600 whatever the umask, and one
 *     that is not (wrong mode, wrong size) is refused;
 *   - a forked writer registers (fields, then state, then the count) and
 *     adds a constant that changes both 32-bit halves of each counter,
 *     while this process reads: every value read is a multiple of it
 *     (no torn read) and never smaller than the last (monotonic), and a
 *     slot seen READY always has its fields complete;
 *   - after unlink the name is gone and the mapping still works.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../unit/check.h"
#include "online_segment.h"

/* Crosses the 32-bit boundary at every add: a read mixing two values'
 * halves is not a multiple of it. */
#define STEP UINT64_C(0x0000000100000001)
enum { WORLD = 8, LOCAL = 2, WRITER_ADDS = 2000000 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The writer: local rank 1, world rank 5. */
/* What the writer registers, all there once its slot reads READY. */
static bool slot_complete(const struct online_slot *slot, pid_t child)
{
	return slot->world_rank == 5 && slot->pid == child &&
	       CPU_ISSET(3, &slot->cpus) && slot->start_time != 0;
}

static int writer(const char *name)
{
	struct online_segment seg;
	_Atomic uint64_t *bytes, *messages;
	char why[512];
	cpu_set_t cpus;
	long k;
	int j;

	if (online_segment_attach(&seg, name, WORLD, LOCAL, 5.0, why,
				  sizeof why) != 0) {
		fprintf(stderr, "writer: %s\n", why);
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(3, &cpus);
	bytes = online_slot_row(&seg, online_segment_slot(&seg, 1),
				ONLINE_ROW_BYTES);
	messages = online_slot_row(&seg, online_segment_slot(&seg, 1),
				   ONLINE_ROW_MESSAGES);
	online_segment_register(&seg, 1, 5, (int)getpid(),
				online_process_start_time((int)getpid()),
				&cpus);
	/* as libcommprof's single-threaded hot path: load and store */
	for (k = 0; k < WRITER_ADDS; k++) {
		j = (int)(k % WORLD);
		atomic_store_explicit(&bytes[j], atomic_load_explicit(
			&bytes[j], memory_order_relaxed) + STEP,
			memory_order_relaxed);
		atomic_store_explicit(&messages[j], atomic_load_explicit(
			&messages[j], memory_order_relaxed) + 1,
			memory_order_relaxed);
	}
	online_segment_close(&seg);
	return 0;
}

static void test_names(void)
{
	size_t slot;
	const char *why = "";
	char long_name[300];

	CHECK(online_segment_name_ok("/treematch-online.1000.42.0"),
	      "a plugin's name is accepted");
	CHECK(!online_segment_name_ok("/treematch-online."),
	      "a name without a key is refused");
	CHECK(!online_segment_name_ok("/treematch-online.a/b"),
	      "a name with a slash is refused");
	CHECK(!online_segment_name_ok("/other.1"), "another prefix is refused");
	memset(long_name, 'x', sizeof long_name);
	memcpy(long_name, "/treematch-online.", 18);
	long_name[ONLINE_NAME_MAX + 1] = '\0';
	CHECK(!online_segment_name_ok(long_name),
	      "a name over 200 characters is refused");
	long_name[ONLINE_NAME_MAX] = '\0';
	CHECK(online_segment_name_ok(long_name),
	      "a name of 200 characters is accepted");
	CHECK(online_segment_size(65536, 127, &slot, &why) != 0,
	      "65536 ranks, 127 on the node fit the bound");
	CHECK(online_segment_size(65536, 128, &slot, &why) == 0,
	      "65536 ranks, 128 on the node are refused");
	CHECK(online_segment_size(4, 5, &slot, &why) == 0,
	      "more local ranks than ranks are refused");
	CHECK(online_atomics_ok(), "64-bit atomics are lock-free here");
}

static void test_refusals(const char *name)
{
	struct online_segment seg;
	char why[512] = "";
	int fd;

	/* a leftover of ours with a wrong mode: attach refuses it */
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0644);
	if (fd >= 0) {
		size_t slot;
		const char *reason;

		fchmod(fd, 0644);
		if (ftruncate(fd, (off_t)online_segment_size(WORLD, LOCAL,
							     &slot, &reason)))
			perror("ftruncate");
		close(fd);
	}
	CHECK(online_segment_attach(&seg, name, WORLD, LOCAL, 0.1, why,
				    sizeof why) == -1 &&
	      strstr(why, "0644"), "attach refuses an object of mode 0644");
	shm_unlink(name);
	why[0] = '\0';
	CHECK(online_segment_attach(&seg, name, WORLD, LOCAL, 0.2, why,
				    sizeof why) == 1,
	      "attach gives up when nobody made the object");
	/* the creator removes a leftover of ours and makes its own */
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd >= 0)
		close(fd);
	CHECK(online_segment_create(&seg, name, WORLD, LOCAL, why,
				    sizeof why) == 0,
	      "create replaces a leftover of ours");
	online_segment_unlink(&seg);
	online_segment_close(&seg);
}

int main(void)
{
	struct online_segment seg;
	struct online_slot *slot;
	_Atomic uint64_t *bytes, *messages;
	char name[128], path[160], why[512];
	uint64_t last[WORLD] = { 0 }, v, m;
	long reads = 0, torn = 0, backwards = 0, incomplete = 0;
	bool seen_ready = false;
	struct stat st;
	double deadline;
	pid_t child;
	int status, j;

	test_names();
	snprintf(name, sizeof name, "/treematch-online.unit.%ld",
		 (long)getpid());
	snprintf(path, sizeof path, "/dev/shm%s", name);
	test_refusals(name);

	umask(0); /* the object must be 0600 all the same */
	CHECK(online_segment_create(&seg, name, WORLD, LOCAL, why,
				    sizeof why) == 0, "local rank 0 creates");
	CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600 &&
	      st.st_uid == getuid(), "the object is the user's, mode 0600");

	child = fork();
	if (child == 0)
		_exit(writer(name));
	slot = online_segment_slot(&seg, 1);
	bytes = online_slot_row(&seg, slot, ONLINE_ROW_BYTES);
	messages = online_slot_row(&seg, slot, ONLINE_ROW_MESSAGES);
	deadline = now() + 60;
	while (waitpid(child, &status, WNOHANG) == 0 && now() < deadline) {
		if (atomic_load_explicit(&slot->state, memory_order_acquire)
		    == ONLINE_SLOT_READY) {
			if (!seen_ready && !slot_complete(slot, child))
				incomplete++;
			seen_ready = true;
		}
		for (j = 0; j < WORLD; j++) {
			v = atomic_load_explicit(&bytes[j],
						 memory_order_relaxed);
			m = atomic_load_explicit(&messages[j],
						 memory_order_relaxed);
			reads++;
			if (v % STEP != 0 || (v >> 32) != (v & 0xffffffffu))
				torn++;
			if (v < last[j])
				backwards++;
			last[j] = v;
			(void)m;
		}
	}
	/* On a loaded machine the writer may register and end while this
	 * process waits for a CPU: the slot stays READY after it. */
	if (!seen_ready &&
	    atomic_load_explicit(&slot->state, memory_order_acquire) ==
		    ONLINE_SLOT_READY) {
		if (!slot_complete(slot, child))
			incomplete++;
		seen_ready = true;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the writer ran to the end");
	printf("# %ld reads of counters being written\n", reads);
	CHECK(reads > 1000, "the reader read while the writer wrote");
	CHECK(torn == 0, "no read was torn (always a multiple of the step)");
	CHECK(backwards == 0, "counters never went backwards");
	CHECK(seen_ready && incomplete == 0,
	      "a slot seen READY has its fields complete");
	CHECK(atomic_load(&seg.header->registered) == 1,
	      "the writer counted itself in registered");
	for (j = 0, v = 0; j < WORLD; j++)
		v += atomic_load(&messages[j]);
	CHECK(v == WRITER_ADDS, "every message the writer counted is there");
	online_segment_unlink(&seg);
	CHECK(stat(path, &st) != 0 && errno == ENOENT,
	      "after unlink the name is gone");
	atomic_store(&bytes[0], 7);
	CHECK(atomic_load(&bytes[0]) == 7, "the mapping outlives the name");
	online_segment_close(&seg);
	return check_status();
}
