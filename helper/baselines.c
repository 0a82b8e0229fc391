/* baselines.c: not written yet */
