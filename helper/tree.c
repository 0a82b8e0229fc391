/* tree.c: not written yet */
