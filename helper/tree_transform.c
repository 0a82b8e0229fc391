/* tree_transform.c: not written yet */
