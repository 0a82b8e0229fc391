/* map.c: not written yet */
