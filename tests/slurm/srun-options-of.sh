#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# srun-options-of.sh SLURM_OPT_C - the options srun accepts, read from a
# release's src/common/slurm_opt.c: one "name:K" line per long option and
# "-c:K" per short one, K = R (takes an argument), O (optional, attached)
# or N (none), sorted.  An option is srun's when its table entry has a
# set_func or a set_func_srun (slurm_option_table_create keeps those) and
# it is listed in common_options[].
set -eu
awk '
/^static slurm_cli_opt_t slurm_opt_[A-Za-z0-9_]+ = \{/ {
	id = $3; name = ""; arg = ""; val = ""; srun = 0; inside = 1; next
}
inside && /\.name = "/ { s = $0; sub(/.*\.name = "/, "", s); sub(/".*/, "", s); name = s }
inside && /\.has_arg = / {
	arg = $0 ~ /required_argument/ ? "R" : $0 ~ /optional_argument/ ? "O" : "N"
}
inside && /\.val = '"'"'.'"'"'/ { s = $0; sub(/.*\.val = '"'"'/, "", s); val = substr(s, 1, 1) }
inside && /\.set_func(_srun)? = / { srun = 1 }
inside && /^};/ {
	inside = 0
	if (srun) { lname[id] = name; larg[id] = arg; lval[id] = val }
	next
}
/^static const slurm_cli_opt_t \*common_options\[\] = \{/ { list = 1; next }
list && /^};/ { list = 0; next }
list && /&slurm_opt_/ {
	id = $0; sub(/.*&/, "", id); sub(/,.*/, "", id)
	if (id in lname) {
		if (lname[id] != "") print lname[id] ":" larg[id]
		if (lval[id] != "") print "-" lval[id] ":" larg[id]
	}
}
' "$1" | LC_ALL=C sort -u
