#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 11-sbatch.sh - `#SBATCH --comm-matrix=m.json` (relative to where sbatch
# ran) reaches the sruns of the script even after it changes directory; the
# batch script itself is left as Slurm runs it; salloc --comm-matrix too.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
tm_start 2

mkdir sub elsewhere
tm_matrix sub/m.json 4 0 1 1000 2 3 1000 1 2 10
# A decoy of the same name where the script goes: a broken file, so a srun
# that looked for m.json there would fall back with a warning.
echo '{ "size": 4, "entries": [[0, 1,' >elsewhere/m.json

tm_slurm_binding srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT

# job.sh [--comm-matrix line or not]: the batch script's own line, then its
# sruns from another directory, each into its own files.
write_job() {
	local file=$1 option=$2
	cat >"$file" <<EOF
#!/bin/bash
#SBATCH -N2 -n4
$option
allowed=\$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/\$\$/status)
echo "job \$SLURM_JOB_ID"
echo "batch allowed=\$allowed status=\${SLURM_TREEMATCH_STATUS:--} cpus=\${SLURM_TREEMATCH_CPUS:--}"
cd "$E2E_WORK/elsewhere" || exit 1
srun -n4 "$TM_PROBE" >"$E2E_WORK/\$SLURM_JOB_ID.n4" 2>"$E2E_WORK/\$SLURM_JOB_ID.n4.err"
echo "srun -n4: \$?"
srun -n2 "$TM_PROBE" >"$E2E_WORK/\$SLURM_JOB_ID.n2" 2>"$E2E_WORK/\$SLURM_JOB_ID.n2.err"
echo "srun -n2: \$?"
EOF
	chmod 755 "$file"
}
write_job sub/job.sh '#SBATCH --comm-matrix=m.json'
write_job sub/plain.sh '# (no matrix)'

# ---- #SBATCH --comm-matrix=m.json ---------------------------------------------

out=$(cd sub && sbatch_wait job.sh 2>&1)
check "sbatch job.sh (#SBATCH --comm-matrix=m.json) completes" test $? = 0
id=$(sed -n 's/^job //p' <<<"$out")
batch_line=$(grep '^batch ' <<<"$out")
check_match "the batch script has no SLURM_TREEMATCH_STATUS nor _CPUS" "$batch_line" \
	'^batch allowed=[^ ]+ status=- cpus=-$'
check_match "both of its sruns exit 0" "$(grep '^srun' <<<"$out" | paste -sd' ' -)" \
	'^srun -n4: 0 srun -n2: 0$'
n4=$(sort -n "$id.n4" 2>/dev/null)
check_eq "srun -n4 in the script, after cd: nothing on stderr" "$(cat "$id.n4.err" 2>&1)" ""
tm_check_placed "srun -n4 in the batch script, after cd" 4 "$n4"
TM_OUT=$n4 tm_check_helper "... placed with the file sbatch was given (sub/m.json)" \
	sub/m.json 4 "$slurm_n4" --topology this
n2=$(sort -n "$id.n2" 2>/dev/null)
check_match "srun -n2 in the same script: a warning about the size" \
	"$(cat "$id.n2.err" 2>&1)" \
	"^treematch: warning: $E2E_WORK/sub/m.json: \"size\" is 4, but the step has 2 tasks"
check_eq "... and its tasks run with status fallback" \
	"$(tm_col status "$n2" | sed 's/:.*//' | sort | uniq -c | awk '{ print $1, $2 }')" \
	"2 fallback"

# ---- the same script without the option ---------------------------------------

out=$(cd sub && sbatch_wait plain.sh 2>&1)
check "sbatch plain.sh (no matrix) completes" test $? = 0
id=$(sed -n 's/^job //p' <<<"$out")
check_eq "the batch script keeps Slurm's affinity (the same as without --comm-matrix)" \
	"$batch_line" "$(grep '^batch ' <<<"$out")"
check_eq "without the option its srun gets no SLURM_TREEMATCH_* variable" \
	"$(tm_col vars "$(cat "$id.n4")" | sort -u)" -

# ---- salloc --comm-matrix=m.json, srun inside ----------------------------------

tm_run bash -c "cd sub && salloc -Q -N2 -n4 --comm-matrix=m.json \
	bash -c 'cd ../elsewhere && srun -Q -n4 $TM_PROBE'"
check_eq "salloc --comm-matrix=m.json, then cd and srun -n4: exit 0, nothing on stderr" \
	"$TM_RC:$TM_ERR" "0:"
tm_check_placed "salloc, then srun -n4" 4
tm_check_helper "... placed with sub/m.json" sub/m.json 4 "$slurm_n4" --topology this

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
