/* matrix.c: not written yet */
