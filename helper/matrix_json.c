/* matrix_json.c: not written yet */
