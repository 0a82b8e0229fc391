/* treematch.c: not written yet */
