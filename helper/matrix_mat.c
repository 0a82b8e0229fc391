/* matrix_mat.c: not written yet */
