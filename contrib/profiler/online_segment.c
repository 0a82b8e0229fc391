/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * online_segment.c - creating, checking and mapping the online mode's
 * shared-memory segment (online_segment.h has the layout and protocol).
 *
 * Only local rank 0 creates the object, with O_EXCL; the others open what
 * it made, waiting a bounded time.  Had every rank used O_CREAT, a rank
 * arriving after the mapper removed the name (which it does as early as
 * it can, so that killed tasks leave nothing behind) would make a second
 * object that nobody ever removes.  With one creator, a late rank finds
 * no name, runs unmapped, and leaves nothing.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "online_segment.h"

static const char prefix[] = "/treematch-online.";

bool online_segment_name_ok(const char *name)
{
	size_t len = strlen(name), k;

	if (len > ONLINE_NAME_MAX || len <= sizeof prefix - 1 ||
	    strncmp(name, prefix, sizeof prefix - 1) != 0)
		return false;
	for (k = sizeof prefix - 1; k < len; k++) {
		char c = name[k];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

bool online_atomics_ok(void)
{
	_Atomic uint64_t probe = 0;
	_Atomic uint32_t probe32 = 0;

	return atomic_is_lock_free(&probe) && atomic_is_lock_free(&probe32);
}

/* Slots start on a cache line: two ranks' counters never share one. */
static size_t round_up(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

size_t online_segment_size(int world_size, int local_size, size_t *slot_bytes,
			   const char **why)
{
	size_t slot, total;

	if (world_size < 1 || local_size < 1 || local_size > world_size) {
		*why = "invalid rank counts";
		return 0;
	}
	/* checked in this order so that no product below can overflow:
	 * world_size < 2^31, and 4 * 8 * 2^31 fits in any 64-bit size_t */
	slot = round_up(sizeof(struct online_slot)) +
	       round_up(4 * sizeof(uint64_t) * (size_t)world_size);
	if (slot > ONLINE_SEGMENT_MAX ||
	    (size_t)local_size > (ONLINE_SEGMENT_MAX - 64) / slot) {
		*why = "the segment would exceed 256 MiB";
		return 0;
	}
	total = round_up(sizeof(struct online_header)) +
		slot * (size_t)local_size;
	*slot_bytes = slot;
	return total;
}

struct online_slot *online_segment_slot(const struct online_segment *seg,
					int local_rank)
{
	char *base = (char *)seg->header;

	return (struct online_slot *)(base +
		round_up(sizeof(struct online_header)) +
		(size_t)local_rank * seg->header->slot_bytes);
}

_Atomic uint64_t *online_slot_row(const struct online_segment *seg,
				  struct online_slot *slot,
				  enum online_row_kind kind)
{
	_Atomic uint64_t *rows = (_Atomic uint64_t *)
		((char *)slot + round_up(sizeof(struct online_slot)));

	return rows + (size_t)kind * (size_t)seg->header->world_size;
}

/* The object behind fd is ours, 0600, a regular shared-memory object of
 * `size` bytes (or 0 when `empty_ok`, a fresh one; any size for
 * ANY_SIZE). */
#define ANY_SIZE ((size_t)-1)

static int check_object(int fd, const char *name, size_t size, bool empty_ok,
			char *why, size_t why_size)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		snprintf(why, why_size, "%s: %s", name, strerror(errno));
		return -1;
	}
	if (st.st_uid != getuid() || (st.st_mode & 07777) != 0600 ||
	    !S_ISREG(st.st_mode)) {
		snprintf(why, why_size, "%s: owned by uid %ld with mode %04o, "
			 "expected uid %ld and 0600: not used", name,
			 (long)st.st_uid, (unsigned)(st.st_mode & 07777),
			 (long)getuid());
		return -1;
	}
	if (size != ANY_SIZE && !(empty_ok && st.st_size == 0) &&
	    (size_t)st.st_size != size) {
		snprintf(why, why_size, "%s: %lld bytes, expected %zu: not "
			 "used", name, (long long)st.st_size, size);
		return -1;
	}
	return 0;
}

static int map_object(struct online_segment *seg, int fd, size_t size,
		      char *why, size_t why_size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		snprintf(why, why_size, "%s: mmap: %s", seg->name,
			 strerror(errno));
		return -1;
	}
	seg->header = p;
	seg->size = size;
	return 0;
}

/* O_EXCL, retried once after removing a leftover that is ours (a run
 * killed before its mapper removed the name: under Slurm the plugin
 * removes it, under mpirun nobody would). */
static int create_exclusive(const char *name, char *why, size_t why_size)
{
	int attempt, fd = -1;

	for (attempt = 0; attempt < 2; attempt++) {
		fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW,
			      0600);
		if (fd >= 0 || errno != EEXIST || attempt > 0)
			break;
		fd = shm_open(name, O_RDWR | O_NOFOLLOW, 0);
		if (fd < 0)
			continue; /* gone meanwhile: try again */
		if (check_object(fd, name, ANY_SIZE, false, why,
				 why_size) != 0) {
			close(fd);
			return -1;
		}
		close(fd);
		shm_unlink(name);
	}
	if (fd < 0)
		snprintf(why, why_size, "%s: %s", name, strerror(errno));
	return fd;
}

/* Both ends start alike: the name kept, the size the segment must have
 * (0, and why, when the job is too large for one). */
static size_t begin(struct online_segment *seg, const char *name,
		    int world_size, int local_size, size_t *slot, char *why,
		    size_t why_size)
{
	const char *reason = "";
	size_t size;

	memset(seg, 0, sizeof *seg);
	snprintf(seg->name, sizeof seg->name, "%s", name);
	size = online_segment_size(world_size, local_size, slot, &reason);
	if (!size)
		snprintf(why, why_size, "%s for %d ranks, %d on this node",
			 reason, world_size, local_size);
	return size;
}

int online_segment_create(struct online_segment *seg, const char *name,
			  int world_size, int local_size, char *why,
			  size_t why_size)
{
	size_t slot = 0, size;
	struct online_header *h;
	int fd;

	size = begin(seg, name, world_size, local_size, &slot, why, why_size);
	if (!size)
		return -1;
	fd = create_exclusive(name, why, why_size);
	if (fd < 0)
		return -1;
	seg->linked = true;
	/* the umask may have taken bits away, never add any */
	if (fchmod(fd, 0600) != 0 ||
	    check_object(fd, name, 0, true, why, why_size) != 0 ||
	    ftruncate(fd, (off_t)size) != 0 ||
	    map_object(seg, fd, size, why, why_size) != 0) {
		if (!*why)
			snprintf(why, why_size, "%s: %s", name,
				 strerror(errno));
		close(fd);
		online_segment_unlink(seg);
		return -1;
	}
	close(fd);
	/* ftruncate gave zeros: every slot EMPTY, every counter 0 */
	h = seg->header;
	h->magic = ONLINE_MAGIC;
	h->version = ONLINE_VERSION;
	h->world_size = world_size;
	h->local_size = local_size;
	h->slot_bytes = slot;
	h->total_bytes = size;
	atomic_store_explicit(&h->ready, 1, memory_order_release);
	return 0;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int online_segment_attach(struct online_segment *seg, const char *name,
			  int world_size, int local_size, double wait_seconds,
			  char *why, size_t why_size)
{
	double deadline = now_seconds() + wait_seconds;
	size_t slot = 0, size;
	struct online_header *h;
	struct stat st;
	long pause = 1;
	int fd;

	size = begin(seg, name, world_size, local_size, &slot, why, why_size);
	if (!size)
		return -1;
	/* The creator makes the object, sizes it, then publishes the
	 * header: wait for all three (it is a few milliseconds behind at
	 * most, unless it never called MPI_Init). */
	for (;;) {
		fd = shm_open(name, O_RDWR | O_NOFOLLOW, 0);
		if (fd >= 0) {
			if (fstat(fd, &st) == 0 && (size_t)st.st_size == size)
				break;
			close(fd);
		} else if (errno != ENOENT) {
			snprintf(why, why_size, "%s: %s", name,
				 strerror(errno));
			return -1;
		}
		if (now_seconds() >= deadline) {
			snprintf(why, why_size, "%s: not made by local rank 0 "
				 "within %g s", name, wait_seconds);
			return 1;
		}
		pause_ms(pause);
		if (pause < 32)
			pause *= 2;
	}
	if (check_object(fd, name, size, false, why, why_size) != 0 ||
	    map_object(seg, fd, size, why, why_size) != 0) {
		close(fd);
		return -1;
	}
	close(fd);
	h = seg->header;
	while (!atomic_load_explicit(&h->ready, memory_order_acquire)) {
		if (now_seconds() >= deadline) {
			snprintf(why, why_size, "%s: never initialised", name);
			online_segment_close(seg);
			return 1;
		}
		pause_ms(1);
	}
	if (h->magic != ONLINE_MAGIC || h->version != ONLINE_VERSION ||
	    h->world_size != world_size || h->local_size != local_size ||
	    h->slot_bytes != slot || h->total_bytes != size) {
		snprintf(why, why_size, "%s: made for another job or version",
			 name);
		online_segment_close(seg);
		return -1;
	}
	return 0;
}

void online_segment_register(const struct online_segment *seg,
			     int local_rank, int world_rank, int pid,
			     uint64_t start_time, const cpu_set_t *cpus)
{
	struct online_slot *s = online_segment_slot(seg, local_rank);

	s->world_rank = world_rank;
	s->pid = pid;
	s->start_time = start_time;
	memcpy(&s->cpus, cpus, sizeof s->cpus);
	atomic_store_explicit(&s->state, ONLINE_SLOT_READY,
			      memory_order_release);
	atomic_fetch_add_explicit(&seg->header->registered, 1,
				  memory_order_release);
}

void online_segment_unlink(struct online_segment *seg)
{
	if (seg->linked) {
		shm_unlink(seg->name);
		seg->linked = false;
	}
}

void online_segment_close(struct online_segment *seg)
{
	if (seg->header)
		munmap(seg->header, seg->size);
	seg->header = NULL;
	seg->size = 0;
}

uint64_t online_process_start_time(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long value = 0;
	size_t got;
	FILE *f;
	int field;

	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	got = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[got] = '\0';
	/* the command name (field 2) may hold spaces and parentheses:
	 * count fields from the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (sscanf(p, "%llu", &value) != 1)
		return 0;
	return value;
}
