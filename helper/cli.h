/* cli.h: not written yet */
