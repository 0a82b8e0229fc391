#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 30-man-examples.sh - a user who reads only the man pages: the commands of
# the EXAMPLES sections of commprof(1) and spank-treematch(8), taken from
# the pages as man renders them (not a copy of them), run as written by an
# ordinary user on a 4-node test cluster whose MpiDefault is none: the
# matrix is recorded (commprof), merged, reused (--comm-matrix), reported
# and drawn (--comm-matrix-report, --comm-matrix-svg) and the online mode
# runs, each without an error.
#
# ./app, the pages' program, is Open MPI's halo2d example on 8 ranks (the
# pages run 8 tasks: 4 nodes of 2 CPUs); it prints each task's
# SLURM_TREEMATCH_STATUS first.  commprof comes from PATH, as installed.
# Open MPI's UCX between these nodes (one machine) now and then prints
# "ucp_disconnect_nb(N) failed" in MPI_Finalize: stderr is checked for the
# plugin's, the profiler's and MPI_Init's messages (doc/loop.md, "Known
# noise"); a slow run is described in the log, as in every MPI test.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
# shellcheck source=tests/e2e/mpi.sh
. "$top_srcdir/tests/e2e/mpi.sh"
command -v man >/dev/null 2>&1 || e2e_skip "man not found (Debian: man-db)"
spank_page=$top_builddir/spank/spank-treematch.8
commprof_page=$top_builddir/contrib/profiler/commprof.1
mpi_start 4

# The installed plugin preloads its own profiler in online steps: here,
# the build tree's (a copy, as every MPI test uses)
tm_plugstack required "profiler=$MPI_PROFILER"
export PATH=$TM_DIR:$PATH	# commprof, as if installed
cat >app <<EOF
#!/bin/bash
echo "task \$SLURM_PROCID status=\${SLURM_TREEMATCH_STATUS:--}"
exec $MPI_EXAMPLES/halo2d 4 2 50 4
EOF
chmod 755 app

# examples PAGE: the commands of the page's EXAMPLES section, one a line,
# as man shows them (no comment, no leading blanks)
examples() {
	MANWIDTH=200 LC_ALL=C.UTF-8 man -l "$1" 2>/dev/null |
		sed 's/\xe2\x88\x92/-/g; s/\xe2\x80\x90/-/g' |
		awk '/^EXAMPLES$/ { on = 1; next } /^[A-Z]/ { on = 0 }
		     on && /^ +(srun|commprof) / {
			sub(/^ +/, ""); sub(/ +#.*$/, ""); print }'
}

# check_example LINE STATUS: it ran all its 8 ranks correctly, each task
# with SLURM_TREEMATCH_STATUS STATUS (- for none), and no error
check_example() {
	local line=$1 status=$2
	check_eq "'$line': exits 0" "$TM_RC" 0
	check_eq "... with no error nor warning" \
		"$(grep -E '^treematch: (warning|error)|^commprof: .*(discarded|cannot|kept)|MPI_INIT' <<<"$TM_ERR")" ""
	mpi_ranks_ok "... $line" 8 "$TM_OUT"
	check_eq "... each of its 8 tasks with SLURM_TREEMATCH_STATUS $status" \
		"$(sed -n 's/^task [0-9]* status=//p' <<<"$TM_OUT" | sort | uniq -c |
			awk '{ print $1, $2 }')" "8 $status"
}

# ---- commprof(1): record twice, merge, place with the sum --------------

mapfile -t lines < <(examples "$commprof_page")
check_eq "commprof(1) shows 4 commands" "${#lines[@]}" 4
for line in "${lines[@]}"; do
	tm_run as_user bash -c "$line"	# as the user types it
	case $line in
	"commprof merge "*)
		check_eq "'$line': exits 0" "$TM_RC" 0
		check_match "... and says what it wrote" "$TM_ERR" \
			'^commprof: wrote app.json, the sum of 2 matrices \(8 ranks, '
		check_eq "... app.json belongs to the user" \
			"$(stat -c %U app.json 2>&1)" "$E2E_USER"
		;;
	*--comm-matrix=*)
		check_example "$line" applied
		check_eq "... its report: where the ranks went, per node" \
			"$(mpi_report_cpus "$TM_ERR" | wc -l)" 8
		;;
	*commprof\ -o\ *)
		check_example "$line" -
		file=$(sed -n 's/.*commprof -o \([^ ]*\) .*/\1/p' <<<"$line")
		check_match "... one line says where the matrix went" "$TM_ERR" \
			"^commprof: wrote $file \\(8 ranks, "
		;;
	*) nok "'$line': a command this test knows" ;;
	esac
done

# ---- spank-treematch(8): record, place, report, draw, online ------------

rm -f app.json treematch-*.svg
mapfile -t lines < <(examples "$spank_page")
check_eq "spank-treematch(8) shows 5 commands" "${#lines[@]}" 5
for line in "${lines[@]}"; do
	check_match "'$line' runs its MPI program with --mpi=pmix (MpiDefault=none)" \
		"$line" '^srun .*--mpi=pmix '
	tm_run as_user bash -c "$line"	# as the user types it
	case $line in
	*commprof*)
		check_example "$line" -
		check "... and writes app.json" test -s app.json
		;;
	*--comm-matrix=online*)
		check_example "$line" online
		;;
	*--comm-matrix-report*)
		check_example "$line" applied
		check_eq "... its report: one header per node" \
			"$(grep -cE '^treematch: n[1-4]: 2 tasks of step [0-9]+\.[0-9]+ placed on CPUs ' <<<"$TM_ERR")" 4
		check_eq "... and where each of the 8 ranks went" \
			"$(mpi_report_cpus "$TM_ERR" | awk '{ print $1 }' | paste -sd' ' -)" \
			"0 1 2 3 4 5 6 7"
		;;
	*--comm-matrix-svg*)
		check_example "$line" applied
		check_eq "... one picture per node, as it says" \
			"$(find . -maxdepth 1 -name 'treematch-*-n[1-4].svg' | wc -l) $(grep -c '^treematch: wrote treematch-' <<<"$TM_ERR")" \
			"4 4"
		;;
	*--comm-matrix=app.json*)
		check_example "$line" applied
		;;
	*) nok "'$line': a command this test knows" ;;
	esac
done

check "no daemon died" cluster_healthy
e2e_finish
