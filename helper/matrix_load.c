/* matrix_load.c: not written yet */
