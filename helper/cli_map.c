/* cli_map.c: not written yet */
