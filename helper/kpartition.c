/* kpartition.c: not written yet */
