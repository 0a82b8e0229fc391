/* mpipp.c: not written yet */
