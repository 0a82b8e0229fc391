/* tm_report.h: not written yet */
