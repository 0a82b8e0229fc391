#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 15-bad-input.sh - matrices that cannot be used (missing, malformed JSON,
# wrong size, a negative value, larger than max_size, a huge "size" in a
# tiny file, a directory):
#   on_error=warn: the application runs with Slurm's binding, one warning
#     line names the file and the place, SLURM_TREEMATCH_STATUS says why;
#   on_error=fail, plugin required: srun stops, the application never runs;
#   on_error=fail, plugin optional: the application never runs either;
# and afterwards the cluster is as healthy as before.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

mkdir bad
echo '{ "size": 4, "unit": "bytes",
  "entries": [[0, 1, 1000], [2, 3 1000]] }' >bad/malformed.json
tm_matrix bad/wrong-size.json 8 0 1 1000
tm_matrix bad/negative.json 4 0 1 1000 2 3 -5
truncate -s 300M bad/huge.json	# sparse, more than max_size (256M)
# 33 bytes that say 16776961 ranks: srun spent 390 MB and seconds on them
printf '{"size": 16776961, "entries": []}' >bad/size-per-byte.json
mkdir bad/directory.json
# name  what the one warning line must say after "FILE"
cases=(
	"missing		: cannot open: No such file or directory"
	"malformed	:2:[0-9]+: .*JSON"
	"wrong-size	: \"size\" is 8, but the step has 4 tasks"
	"negative	: entries\\[1\\]: weight: .*-5"
	"huge		: 314572800 bytes, more than the site's limit of 268435456 \\(max_size\\)"
	"size-per-byte	: \"size\": 16776961 ranks in a file of 33 bytes: expected at least one byte per rank above 4096 ranks"
	"directory	: expected a regular file"
)

tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT

# run_case FILE: srun -N2 -n4 with that matrix; the probe leaves ran.RANK
# files in a fresh directory when the application runs.
run_case() {
	rm -rf ran
	mkdir -m 1777 ran
	tm_run srun -Q -N2 -n4 --comm-matrix="$1" "$TM_PROBE" "$E2E_WORK/ran"
	ran=$(find ran -name 'ran.*' | wc -l)
}

for mode in warn fail-required fail-optional; do
	case $mode in
	warn) tm_plugstack required on_error=warn ;;
	fail-required) tm_plugstack required on_error=fail ;;
	fail-optional) tm_plugstack optional on_error=fail ;;
	esac
	for c in "${cases[@]}"; do
		name=${c%%$'\t'*}
		what=${c##*$'\t'}
		file=$E2E_WORK/bad/$name.json
		run_case "bad/$name.json"
		lines=$(grep -c '^treematch: ' <<<"$TM_ERR")
		if [ "$mode" = warn ]; then
			check_eq "$mode, $name: srun exits 0 and the 4 tasks run" "$TM_RC $ran" "0 4"
			check_eq "$mode, $name: one line from the plugin" "$lines" 1
			check_match "$mode, $name: a warning naming the file and the place" "$TM_ERR" \
				"^treematch: warning: $file$what.*; tasks keep Slurm's binding\$"
			check_match "$mode, $name: each task's status is \"fallback: <why>\"" \
				"$(tm_col status | sort | uniq -c)" \
				"^ *4 fallback: $file$what"
			check_eq "$mode, $name: Slurm's own binding" \
				"$(cut -d' ' -f1-3 <<<"$TM_OUT")" "$(cut -d' ' -f1-3 <<<"$slurm_n4")"
		else
			check "$mode, $name: srun exits non-zero" test "$TM_RC" != 0
			check_eq "$mode, $name: the application does not run" "$ran" 0
			check_match "$mode, $name: an error naming the file and the place" "$TM_ERR" \
				"^treematch: error: $file$what.*; the step does not start \\(on_error=fail\\)\$"
			check_eq "$mode, $name: one line from the plugin" "$lines" 1
		fi
	done
done

# sbatch checks the file the same way before anything is queued.
tm_plugstack required on_error=fail
tm_run sbatch --parsable -N2 -n4 --comm-matrix=bad/malformed.json --wrap true
check "on_error=fail: sbatch --comm-matrix=bad/malformed.json fails" test "$TM_RC" != 0
check_match "... saying why" "$TM_ERR" "^treematch: error: $E2E_WORK/bad/malformed.json:2:"
check_eq "... and queues nothing" "$(squeue -h | wc -l)" 0
tm_run sbatch --parsable -N2 -n4 --comm-matrix=bad/size-per-byte.json --wrap true
check_match "on_error=fail: sbatch refuses 33 bytes saying 16776961 ranks, saying why" \
	"$TM_RC:$TM_ERR" "^[1-9][0-9]*:treematch: error: $E2E_WORK/bad/size-per-byte.json: \"size\": 16776961 ranks in a file of 33 bytes"
check_eq "... and queues nothing" "$(squeue -h | wc -l)" 0

# 16.8 MB of blanks that say 16776961 ranks: srun checks the file at the
# cost of its text (building its rows took 414 MB and 2.6 s)
if [ -x /usr/bin/time ]; then
	{ printf '{"size": 16776961, "entries": ['
	  head -c 16800000 /dev/zero | tr '\0' ' '
	  printf ']}'; } >bad/padded.json
	tm_run /usr/bin/time -f 'peak %M KB' srun -Q -N2 -n4 \
		--comm-matrix=bad/padded.json true
	peak=$(sed -n 's/^peak \([0-9]*\) KB$/\1/p' <<<"$TM_ERR")
	check "srun checks 16.8 MB saying 16776961 ranks in under 100 MB (peak ${peak:-?} KB)" \
		test "${peak:-999999}" -lt 102400
	check_match "... and refuses it by the reader's rule (8 bytes a rank above 1048576 ranks)" "$TM_ERR" \
		"^treematch: error: $E2E_WORK/bad/padded.json: \"size\": 16776961 ranks in a file of 16800033 bytes: expected at least 8 bytes per rank above 1048576 ranks"
fi

check "after all of it no daemon died and the next job runs" cluster_healthy
e2e_finish
