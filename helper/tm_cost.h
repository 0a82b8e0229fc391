/* tm_cost.h: not written yet */
