/* group.c: not written yet */
