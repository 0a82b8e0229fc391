/* matrix_parse.h: not written yet */
