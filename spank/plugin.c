/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin.c - treematch.so, the SPANK plugin: srun --comm-matrix=FILE binds
 * every task to the cores TreeMatch chose for it.  Entry points only; see
 * tm_spank.h for which part runs where.
 *
 * The plugin never fails a Slurm daemon: a bad plugstack.conf line leaves
 * it doing nothing but saying so, and nothing here returns an error except
 * on the user's own request (on_error=fail).
 */
#include <config.h>

#include <stdlib.h>

#include "step_watch.h"
#include "tm_spank.h"

SPANK_PLUGIN(treematch, 1);

static site_config cfg;
static node_plan plan; /* computed in user_init, read by every task */

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	config_parse(&cfg, ac, av);
	switch (spank_context()) {
	case S_CTX_REMOTE:
		step_watch_note_stepd();
		/* fall through */
	case S_CTX_LOCAL:
	case S_CTX_ALLOCATOR:
		options_register(sp, &cfg);
		break;
	case S_CTX_SLURMD:
		/* once, when slurmd starts: where an admin looks first */
		if (cfg.error[0])
			slurm_error(PLUGIN ": %s; the plugin does nothing until "
				    "this is fixed", cfg.error);
		break;
	default:
		break;
	}
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)sp;
	(void)ac;
	(void)av;
	if (spank_context() == S_CTX_LOCAL)
		jobwide_post_opt(&cfg);
	if (spank_context() == S_CTX_LOCAL || spank_context() == S_CTX_ALLOCATOR)
		return local_check_options(&cfg);
	return 0;
}

int slurm_spank_local_user_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return local_prepare_step(sp, &cfg);
}

int slurm_spank_user_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return remote_plan_node(sp, &cfg, &plan);
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	return task_apply(sp, &plan);
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	(void)sp;
	(void)ac;
	(void)av;
	if (spank_context() == S_CTX_REMOTE)
		online_step_end(&plan);
	node_plan_free(&plan);
	free(user_opt.matrix);
	free(user_opt.topology);
	free(user_opt.algorithm);
	free(user_opt.online);
	user_opt.matrix = user_opt.topology = user_opt.algorithm = NULL;
	user_opt.online = NULL;
	user_opt.keep_layout = 0;
	user_opt.svg = 0;
	return 0;
}
