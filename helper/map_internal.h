/* map_internal.h: not written yet */
