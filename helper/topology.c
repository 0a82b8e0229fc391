/* topology.c: not written yet */
