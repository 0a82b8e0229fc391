/* tm_map.h: not written yet */
