/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task.c - each task, in task_init: the task's own process, as the user,
 * just before exec.  Slurm's task/affinity sets its mask after
 * task_init_privileged and before task_init, so this is the first moment
 * a mask set by the plugin is not overwritten.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

#include "helper_run.h"
#include "step_cancel.h"
#include "tm_spank.h"

/* The kernel narrows a mask to the task's cgroup cpuset without an error:
 * CPUs outside it would be named in SLURM_TREEMATCH_CPUS yet unused. */
static int check_bound(const cpu_set_t *want, size_t size, const char *list,
		       char *why, size_t wl)
{
	size_t bits = size * 8 > CPU_SETSIZE ? size * 8 : CPU_SETSIZE;
	cpu_set_t *got = CPU_ALLOC(bits);
	size_t got_size = CPU_ALLOC_SIZE(bits);
	int rc = 0;

	if (!got)
		return 0; /* cannot tell: the binding itself succeeded */
	CPU_ZERO_S(got_size, got);
	if (sched_getaffinity(0, got_size, got) == 0) {
		for (size_t cpu = 0; cpu < bits; cpu++) {
			int in_want = cpu < size * 8 && CPU_ISSET_S(cpu, size, want);
			if (in_want != (CPU_ISSET_S(cpu, got_size, got) != 0)) {
				snprintf(why, wl, "cannot bind to CPUs %s: not "
					 "all of them are the step's (cgroup)",
					 list);
				rc = -1;
				break;
			}
		}
	}
	CPU_FREE(got);
	return rc;
}

static int bind_to(const char *list, char *why, size_t wl)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int rc = -1;

	if (!set || hwloc_bitmap_list_sscanf(set, list) < 0 ||
	    hwloc_bitmap_last(set) < 0) {
		snprintf(why, wl, "bad CPU list %s", list);
		hwloc_bitmap_free(set);
		return -1;
	}
	int ncpus = hwloc_bitmap_last(set) + 1;
	cpu_set_t *mask = CPU_ALLOC((size_t)ncpus);
	size_t size = CPU_ALLOC_SIZE((size_t)ncpus);
	if (mask) {
		unsigned cpu;
		CPU_ZERO_S(size, mask);
		hwloc_bitmap_foreach_begin(cpu, set) {
			CPU_SET_S(cpu, size, mask);
		} hwloc_bitmap_foreach_end();
		rc = sched_setaffinity(0, size, mask);
		if (rc < 0)
			snprintf(why, wl, "cannot bind to CPUs %s: %s", list,
				 strerror(errno));
		else
			rc = check_bound(mask, size, list, why, wl);
		CPU_FREE(mask);
	} else {
		snprintf(why, wl, "out of memory");
	}
	hwloc_bitmap_free(set);
	return rc;
}

/* --comm-matrix-svg: the node's first task, as the user, runs the helper
 * again for the picture and writes it into its working directory; a file
 * already there is never overwritten, nor reached through a link.  Root
 * writes nothing: everything here runs with the task's own rights. */
enum { SVG_MAX_BYTES = 32 << 20 };

static void draw_placement(const node_plan *plan)
{
	char why[TEXT_MAX] = "", file[PATH_TEXT_MAX];
	helper_result res = { 0 };
	helper_job job = { plan->svg_argv[0], plan->svg_argv, getuid(),
			   getgid(), NULL, 0, plan->timeout, SVG_MAX_BYTES,
			   65536, .as_caller = 1, .stdin_fd = -1 };

	snprintf(file, sizeof(file), "%s", plan->svg_file);
	for (char *c = file; *c; c++)
		if (*c == '/')
			*c = '_';
	if (helper_run(&job, &res, why, sizeof(why)) < 0 || !res.exited ||
	    res.exit_code != 0 || !res.out) {
		say(PLUGIN ": --comm-matrix-svg: no picture%s%s", why[0] ? ": " : "",
		    why);
	} else {
		int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			      O_CLOEXEC, 0644);
		size_t done = 0;

		while (fd >= 0 && done < res.out_len) {
			ssize_t n = write(fd, res.out + done, res.out_len - done);
			if (n <= 0)
				break;
			done += (size_t)n;
		}
		if (fd < 0 || done < res.out_len || close(fd) != 0)
			say(PLUGIN ": --comm-matrix-svg: cannot write %s: %s",
			    file, strerror(errno));
		else
			say(PLUGIN ": wrote %s", file);
	}
	helper_result_free(&res);
}

/* on_error=fail: the application must not run.  Returning an error is
 * enough when the plugin is "required" in plugstack.conf; when it is
 * "optional" Slurm ignores plugin errors by design and would exec the
 * task anyway, so the task process ends here, before exec.  This is the
 * task's own process, never slurmstepd's.  What failed on one node (or for
 * one task) fails the whole step: the tasks of the other nodes, which
 * may be running already, are ended with it (step_cancel.c). */
static void refuse_to_start(void)
{
	_exit(1);
}

int task_apply(spank_t sp, const node_plan *plan)
{
	int id = 0;
	char status[TEXT_MAX + 64], why[TEXT_MAX] = "";

	if (!plan->active)
		return 0;
	if (spank_get_item(sp, S_TASK_ID, &id) != ESPANK_SUCCESS)
		id = -1;
	if (id == 0 && plan->message) {
		size_t len = strlen(plan->message);
		if (len && plan->message[len - 1] == '\n')
			len--; /* say() adds the newline */
		say_text(plan->message, len);
	}
	if (plan->refuse) {
		if (id == 0 && plan->cancel_step)
			step_cancel(sp);
		refuse_to_start();
	}
	if (id == 0 && plan->svg_argv)
		draw_placement(plan);

	if (plan->online) {
		/* Slurm's binding to start with; the tasks move themselves */
		online_task_env(sp, plan, id);
		spank_unsetenv(sp, ENV_CPUS);
		spank_setenv(sp, ENV_STATUS, plan->status, 1);
		return 0;
	}
	snprintf(status, sizeof(status), "%s", plan->status);
	const char *cpus = plan->cpus && id >= 0 && id < plan->ntasks
			   ? plan->cpus[id] : NULL;
	if (cpus && !plan->dry_run && bind_to(cpus, why, sizeof(why)) < 0) {
		if (plan->fail) {
			say(PLUGIN ": error: task %d: %s; the step is "
			    "cancelled (on_error=fail)", id, why);
			step_cancel(sp);
			refuse_to_start();
		}
		snprintf(status, sizeof(status), "fallback: %s", why);
		say(PLUGIN ": warning: task %d: %s; it keeps Slurm's binding",
		    id, why);
		cpus = NULL;
	}
	if (cpus)
		spank_setenv(sp, ENV_CPUS, cpus, 1);
	else
		spank_unsetenv(sp, ENV_CPUS); /* e.g. one from the user's env */
	spank_setenv(sp, ENV_STATUS, status, 1);
	return 0;
}
