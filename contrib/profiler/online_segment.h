/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_segment.h - the node-local shared-memory segment of libcommprof's
 * online mode (doc/online.md, "Monitoring and the mapper").
 *
 * One POSIX shared-memory object per job step and node, owned by the user,
 * mode 0600: a header, then one slot per local rank.  A slot holds what the
 * mapper needs to know of its task (world rank, pid, start time, the CPUs
 * it was given) and four rows of world_size counters:
 *   bytes, messages          what the rank sent to each world rank since
 *                            MPI_Init: libcommprof counts straight into
 *                            them, so the hot path is the plain profiler's;
 *   snap_bytes, snap_messages with save=: the same rows as the mapper
 *                            read them when the mapping last changed, so
 *                            that the rank can write the traffic since
 *                            then at MPI_Finalize.
 * Each counter has one writer; readers load it whole with an aligned,
 * lock-free 64-bit atomic, so no read is ever torn (setup refuses a
 * platform where it would not be lock-free).  A slot's fixed fields are
 * written before its state is release-stored READY; a reader that
 * acquire-loads READY sees them complete.
 *
 * No MPI here: tests/profiler/test_online_segment.c checks the protocol
 * with plain processes.
 */
#ifndef ONLINE_SEGMENT_H
#define ONLINE_SEGMENT_H

/* cpu_set_t needs _GNU_SOURCE: include <config.h> first. */
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "TMONLIN1" */
#define ONLINE_MAGIC UINT64_C(0x544d4f4e4c494e31)
enum { ONLINE_VERSION = 1 };

/* Longest segment name accepted, without the terminating NUL. */
enum { ONLINE_NAME_MAX = 200 };

/* Most bytes a segment may take (it lives in RAM, in /dev/shm): 65,536
 * world ranks x 127 local ranks fit, anything larger is refused. */
#define ONLINE_SEGMENT_MAX ((size_t)256 << 20)

enum online_slot_state {
	ONLINE_SLOT_EMPTY = 0, /* nobody registered (yet) */
	ONLINE_SLOT_READY = 1, /* fields complete, rows counting */
	ONLINE_SLOT_GONE = 2   /* the rank left through MPI_Finalize */
};

struct online_header {
	uint64_t magic;
	uint32_t version;
	int32_t world_size;
	int32_t local_size;
	uint32_t reserved;
	uint64_t slot_bytes;  /* size of one slot, rows included */
	uint64_t total_bytes; /* of the whole segment */
	/* Release-stored last by the creator: the fields above are set. */
	_Atomic uint32_t ready;
	/* Slots that went READY, incremented after each one. */
	_Atomic uint32_t registered;
	/* Release-stored by the mapper after each update of the snap rows. */
	_Atomic uint64_t snap_epoch;
};

struct online_slot {
	_Atomic uint32_t state;
	int32_t world_rank;
	int32_t pid;
	int32_t reserved;
	/* /proc/PID/stat field 22: with the pid, tells this task from a
	 * later process that got its pid. */
	uint64_t start_time;
	/* sched_getaffinity at MPI_Init: the CPUs the launcher gave it. */
	cpu_set_t cpus;
	/* then bytes, messages, snap_bytes, snap_messages, world_size
	 * counters each (online_row) */
};

enum online_row_kind {
	ONLINE_ROW_BYTES = 0,
	ONLINE_ROW_MESSAGES = 1,
	ONLINE_ROW_SNAP_BYTES = 2,
	ONLINE_ROW_SNAP_MESSAGES = 3
};

struct online_segment {
	char name[ONLINE_NAME_MAX + 1];
	struct online_header *header;
	size_t size;
	bool linked; /* this process has not unlinked the name */
};

/* The size of a segment for these counts, 0 (and *why set) when the
 * counts are invalid or the segment would exceed ONLINE_SEGMENT_MAX. */
size_t online_segment_size(int world_size, int local_size, size_t *slot_bytes,
			   const char **why);

/* Whether a name has the form "/treematch-online.[A-Za-z0-9._-]+" and at
 * most ONLINE_NAME_MAX characters. */
bool online_segment_name_ok(const char *name);

/* Whether 64-bit atomics are lock-free here (torn reads impossible). */
bool online_atomics_ok(void);

/* The creator (local rank 0): makes the object (O_EXCL; a leftover of
 * ours under the same name is removed first, one made by anybody else is
 * refused), mode 0600 whatever the umask, sized and mapped, the header
 * filled and published.  0 on success; otherwise -1 with a reason of one
 * line in why[size]. */
int online_segment_create(struct online_segment *seg, const char *name,
			  int world_size, int local_size, char *why,
			  size_t why_size);

/* Every other local rank: opens the creator's object, waiting up to
 * `wait_seconds` for it to exist and be published; checks owner, mode,
 * size and header.  0 on success; 1 when it never appeared (creator
 * absent or late); -1 when it is not acceptable.  why as above. */
int online_segment_attach(struct online_segment *seg, const char *name,
			  int world_size, int local_size, double wait_seconds,
			  char *why, size_t why_size);

struct online_slot *online_segment_slot(const struct online_segment *seg,
					int local_rank);
_Atomic uint64_t *online_slot_row(const struct online_segment *seg,
				  struct online_slot *slot,
				  enum online_row_kind kind);

/* Fills the slot's fixed fields, then publishes it (release) and counts
 * it in header->registered. */
void online_segment_register(const struct online_segment *seg,
			     int local_rank, int world_rank, int pid,
			     uint64_t start_time, const cpu_set_t *cpus);

/* Removes the name (once; the mapping stays usable). */
void online_segment_unlink(struct online_segment *seg);

/* Unmaps; the name is left as it is. */
void online_segment_close(struct online_segment *seg);

/* Field 22 of /proc/PID/stat, 0 when it cannot be read. */
uint64_t online_process_start_time(int pid);

#endif /* ONLINE_SEGMENT_H */
