#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# demo.sh - the README's first command: the whole slurm-treematch loop on
# this one machine, in well under a minute once the packages are installed.
#
#   contrib/demo.sh          as root, from a clone or an unpacked tarball
#
# It installs the Debian 12 packages that are missing (install-deps.sh),
# builds the project if needed, starts a throwaway 2-node Slurm cluster on
# this machine (tests/slurm/cluster.sh), profiles an MPI program with
# commprof, runs it again placed with srun --comm-matrix, shows which core
# each rank got and what the placement costs against packed and round-robin
# (on the test nodes, and as a dry run on a realistic 8-core node), then
# stops the cluster whatever happens.  doc/loop.md explains every step.
#
# Environment:
#   TM_DEMO_BUILDDIR=DIR   the build tree (default: the source tree)
#   TM_DEMO_BUILD=no       use what DIR holds, build nothing
#   TM_DEMO_INSTALL=no     do not look for missing packages
#   TM_DEMO_TIMEOUT=120    seconds each job may take
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
build=${TM_DEMO_BUILDDIR:-$top}
cluster_sh=$top/tests/slurm/cluster.sh
start=$EPOCHREALTIME

# The example: halo2d on a grid of 4 x 2 ranks (rank r at column r % 4, row
# r / 4), each exchanging the edges of its 100 x 100 cells with its
# neighbours 10 times.  A flat grid: packed placement (rank i on core i)
# puts each row on its own socket of the realistic node, so that every
# exchange between rows crosses sockets.  8 ranks: the test nodes have 2
# CPUs each, and more ranks would mostly wait for each other.
grid_x=4 grid_y=2 cells=100 iterations=10
np=$((grid_x * grid_y))
# The realistic node of the dry run: 2 sockets, each with one L3 and 2 L2
# caches shared by 2 cores (hwloc's synthetic description).
realistic="pack:2 l3:1 l2:2 core:2 pu:1"
cores_per_l2=2 cores_per_socket=4	# its cores are numbered socket by socket

# An outer Slurm job's variables would send our sruns to its cluster.
while read -r var; do
	case $var in SLURM_* | SBATCH_* | SALLOC_* | SRUN_*) unset "$var" ;; esac
done < <(compgen -e)

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
die() {
	printf 'demo: error: %s\n' "$*" >&2
	exit 1
}
seconds_since() {	# seconds_since START -> "1.2"
	local us=$((${EPOCHREALTIME/./} - ${1/./}))
	printf '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))
}

# neighbours: reads "RANK CORE" lines of a placement on the realistic node;
# says how many pairs of grid neighbours share an L2, a socket, or neither.
neighbours() {
	awk -v gx="$grid_x" -v gy="$grid_y" -v l2="$cores_per_l2" -v socket="$cores_per_socket" '
	function pair(a, b) {
		if (int(core[a] / l2) == int(core[b] / l2)) shared_l2++
		else if (int(core[a] / socket) == int(core[b] / socket)) shared_socket++
		else across++
	}
	{ core[$1] = $2 }
	END {
		for (y = 0; y < gy; y++)
			for (x = 0; x < gx; x++) {
				if (x + 1 < gx) pair(y * gx + x, y * gx + x + 1)
				if (y + 1 < gy) pair(y * gx + x, (y + 1) * gx + x)
			}
		printf "%2d share an L2, %2d share a socket, %2d cross sockets\n",
		       shared_l2, shared_socket, across
	}'
}

# ---- the end, whatever happens --------------------------------------------

dir='' child=''
cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	# A job step still running (interrupted): srun cancels it on TERM.
	[ -z "$child" ] || kill -TERM "$child" 2>/dev/null
	if [ -n "$dir" ] && [ -f "$dir/cluster/owner" ]; then
		"$cluster_sh" down "$dir/cluster" >"$dir/down.log" 2>&1 ||
			{ cat "$dir/down.log" >&2; rc=1; }
	fi
	if [ -n "$dir" ]; then
		if [ "$rc" = 1 ]; then
			say "demo: kept $dir for a look (logs: $dir/*.log, $dir/work/*.err)" >&2
		else
			rm -rf -- "$dir"
			[ "$rc" != 0 ] || say "cluster: stopped; $dir removed"
		fi
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# run NAME CMD...: CMD with its output in $dir/work/NAME.out and .err; in
# the background, so that a signal stops the demo at once.  Ranks that
# poll for messages share this machine's CPUs: on a machine busy with other
# work a run can take far longer than its usual second, hence a time limit.
run() {
	local name=$1 rc limit=${TM_DEMO_TIMEOUT:-120}
	shift
	timeout "$limit" "$@" >"$dir/work/$name.out" 2>"$dir/work/$name.err" </dev/null &
	child=$!
	wait "$child"
	rc=$?
	child=''
	[ "$rc" != 124 ] || say "demo: stopped after ${limit}s (TM_DEMO_TIMEOUT): is the machine busy?" >&2
	if [ "$rc" != 0 ]; then
		say "demo: $* exited with $rc:" >&2
		tail -n 20 "$dir/work/$name.err" >&2
		exit 1
	fi
}

# ---- 1. packages, build ---------------------------------------------------

[ "$(id -u)" = 0 ] ||
	die "run me as root: I start a private Slurm cluster (and install packages)"
say "slurm-treematch demo: profile an MPI program, then place its ranks with TreeMatch"

step "1. packages and build"
if [ "${TM_DEMO_INSTALL:-yes}" = no ]; then
	say "packages: not checked (TM_DEMO_INSTALL=no)"
else
	"$top/contrib/install-deps.sh" || die "contrib/install-deps.sh failed"
	# every command and file the demo and the tests use (contrib/deps.list)
	"$top/contrib/install-deps.sh" --check >&2 ||
		die "missing commands or files (above): contrib/install-deps.sh did not install them"
	say "packages: everything contrib/deps.list names is installed"
fi

dir=$(mktemp -d /tmp/tm-demo.XXXXXX) || die "cannot make a directory in /tmp"
chmod 755 "$dir"	# munged and the jobs must traverse it
mkdir -m 755 "$dir/work"

# build_tree: like tests/run-all.sh, but only what the demo runs (half the
# time of a full build on a fresh clone).
build_tree() {
	if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
		(cd "$top" && autoreconf -fi) || return 1
	fi
	# configured before Open MPI was installed: again, to find mpicc
	if [ ! -f "$build/Makefile" ] ||
		[ -z "$(sed -n 's/^MPICC = //p' "$build/Makefile")" ]; then
		mkdir -p "$build" && (cd "$build" &&
			"$top/configure" -q --disable-dependency-tracking) || return 1
	fi
	make -C "$build" -j"$(nproc)" helper/treematch-helper spank/treematch.la \
		contrib/profiler/libcommprof.la contrib/profiler/libcommprof-openmpi.la \
		contrib/profiler/commprof \
		contrib/profiler/commprof-matrix contrib/examples/halo2d
}

if [ "${TM_DEMO_BUILD:-yes}" = no ]; then
	say "build: using $build as it is (TM_DEMO_BUILD=no)"
else
	t=$EPOCHREALTIME
	if ! build_tree >"$dir/build.log" 2>&1; then
		tail -n 20 "$dir/build.log" >&2
		die "the build failed (the whole log: $dir/build.log)"
	fi
	say "build: $build is up to date ($(seconds_since "$t") s)"
fi

helper=$build/helper/treematch-helper
plugin=$build/spank/.libs/treematch.so
profiler=$build/contrib/profiler/.libs/libcommprof.so
for f in "$helper" "$plugin" "$profiler" "$build/contrib/profiler/commprof" \
	"$build/contrib/profiler/commprof-matrix" "$build/contrib/examples/halo2d"; do
	[ -e "$f" ] || die "$f is missing: was the build configured with Slurm and Open MPI?"
done

# ---- 2. the cluster --------------------------------------------------------

step "2. a throwaway Slurm cluster on this machine"
t=$EPOCHREALTIME
printf 'required %s helper=%s\n' "$plugin" "$helper" >"$dir/plugstack.conf"
CLUSTER_OWNER_PID=$$ NNODES=2 PLUGSTACK=$dir/plugstack.conf \
	"$cluster_sh" up "$dir/cluster" >"$dir/up.log" 2>&1 ||
	{ cat "$dir/up.log" >&2; die "the cluster did not start"; }
export SLURM_CONF=$dir/cluster/etc/slurm.conf
cpus=$(sinfo -h -N -o %c | head -n 1)
say "cluster: nodes n1 and n2 with $cpus CPUs each, up in $(seconds_since "$t") s" \
	"(private munged, slurmctld and 2 slurmd; files in $dir/cluster)"
say "plugstack.conf: $(cat "$dir/plugstack.conf")"

# The programs, under short names in the jobs' directory (the same on both
# nodes: they are this machine); commprof preloads the build tree's library.
cd "$dir/work" || exit 1
ln -s "$build/contrib/examples/halo2d" halo2d
export PATH=$build/contrib/profiler:$PATH COMMPROF_LIBRARY=$profiler
# More ranks than CPUs: let a waiting rank give its CPU to the others.
export OMPI_MCA_mpi_yield_when_idle=1
cat >show <<'EOF'
#!/bin/bash
# show PROGRAM...: one line about this task's binding, then the program
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$$/status")
echo "task $SLURM_PROCID $SLURMD_NODENAME allowed=$allowed" \
	"cpus=${SLURM_TREEMATCH_CPUS:--} status=${SLURM_TREEMATCH_STATUS:--}"
exec "$@"
EOF
chmod 755 show
# $np ranks on 2 x $cpus CPUs: salloc takes both nodes whole, and srun -O
# (--overcommit) starts more tasks than CPUs in them.
alloc=(salloc -Q -N2 --exclusive)
app=(./halo2d "$grid_x" "$grid_y" "$cells" "$iterations")

# ---- 3. profile ------------------------------------------------------------

step "3. profile: one ordinary run under commprof writes the matrix"
t=$EPOCHREALTIME
profile=(srun -Q --mpi=pmix -O -n"$np" commprof -o halo2d.json "${app[@]}")
say "\$ ${alloc[*]} \\"
say "    ${profile[*]}"
run profile "${alloc[@]}" "${profile[@]}"
[ -s halo2d.json ] || die "commprof wrote no halo2d.json"
say "halo2d ran on $np ranks ($grid_x x $grid_y grid) in $(seconds_since "$t") s;" \
	"every rank checked what it received"

# The matrix: who sent how many bytes to whom (commprof's JSON has one
# [from, to, bytes] entry per line).
awk '
	/"size"/ { match($0, /"size": *[0-9]+/); n = substr($0, RSTART, RLENGTH); sub(/.*: */, "", n); n += 0 }
	/"messages"/ { inside = 0 }
	inside && /\[/ {
		gsub(/[][,]/, " "); split($0, f, " ")
		i = f[1]; j = f[2]; w = f[3]
		total += w; h[i, j] += w; h[j, i] += w
		if (h[i, j] > max) max = h[i, j]
	}
	/"entries"/ { inside = 1 }
	END {
		pairs = 0; min = max
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (h[i, j] > 0) { pairs++; if (h[i, j] < min) min = h[i, j] }
		printf "profiled: halo2d.json: %d ranks, %d pairs exchanged data, %d bytes in all\n", n, pairs, total
		print "bytes between two ranks, both ways (# at least half the most, + a tenth, . less):"
		printf "  rank  "; for (j = 0; j < n; j++) printf "%3d", j; printf "\n"
		for (i = 0; i < n; i++) {
			printf "  %4d  ", i
			for (j = 0; j < n; j++) {
				w = h[i, j]
				# (parentheses: a bare ">" in printf redirects)
				printf "  %s", (w == 0 ? " " : w >= max / 2 ? "#" : (w >= max / 10 ? "+" : "."))
			}
			printf "\n"
		}
		printf "most: %d bytes (neighbours in the grid: the halos); least: %d bytes" \
		       " (the allreduce of one number per iteration)\n", max, min
	}' halo2d.json

# ---- 4. place --------------------------------------------------------------

step "4. run it again, placed with that matrix"
t=$EPOCHREALTIME
placed=(srun -Q --mpi=pmix -O -n"$np" --comm-matrix=halo2d.json --comm-matrix-report
	./show "${app[@]}")
say "\$ ${alloc[*]} \\"
say "    ${placed[*]}"
say "(./show prints each task's binding, then runs halo2d)"
run placed "${alloc[@]}" "${placed[@]}"
say "halo2d ran again, placed, in $(seconds_since "$t") s; every rank checked its data again"

tasks=$(grep '^task ' placed.out | sort -n -k2,2)
bound=$(awk '{ a = $4; c = $5; sub("allowed=", "", a); sub("cpus=", "", c)
	       if (a == c && $6 == "status=applied") n++ } END { print n + 0 }' <<<"$tasks")
[ "$bound" = "$np" ] || {
	say "$tasks" >&2
	die "only $bound of $np tasks are bound where the plugin placed them"
}
say "placed: $bound of $np tasks bound where the plugin said" \
	"(Cpus_allowed_list = SLURM_TREEMATCH_CPUS, SLURM_TREEMATCH_STATUS=applied)"
say "which node and CPU each rank of the grid got:"
awk -v gx="$grid_x" -v gy="$grid_y" '
	{ cpu = $5; sub("cpus=", "", cpu); at[$2] = $3 "/" cpu }
	END {
		printf "        "; for (x = 0; x < gx; x++) printf "  x=%-4d", x; printf "\n"
		for (y = gy - 1; y >= 0; y--) {
			printf "  y=%-3d ", y
			for (x = 0; x < gx; x++) printf "  %-6s", at[y * gx + x]
			printf "\n"
		}
	}' <<<"$tasks"
say "the plugin's report (--comm-matrix-report), once per node:"
grep '^treematch: n[0-9]*: ' placed.err | grep -v '   rank ' | sort | sed 's/^/  /'
if grep -q '^treematch: n[0-9]*: cost ' placed.err; then
	say "(the cost weighs each pair's bytes by how far apart their cores are:" \
		"x2.00 means twice as costly as TreeMatch's placement)"
fi
say "These test nodes have $cpus CPUs each, so $((np / 2)) ranks share them and" \
	"there is little to choose.  On a real node it matters:"

# ---- 5. a realistic node ---------------------------------------------------

step "5. the same matrix on a realistic node (dry run: computed, not bound)"
dry=(srun -Q -N1 -O -n"$np" --comm-matrix=halo2d.json
	"--comm-matrix-topology=synthetic:$realistic" --comm-matrix-report true)
say "\$ srun -Q -N1 -O -n$np --comm-matrix=halo2d.json \\"
say "    --comm-matrix-topology=\"synthetic:$realistic\" --comm-matrix-report true"
say "(one node described as 2 sockets x 2 L2 caches x 2 cores: cores 0-3 are" \
	"socket 0, 4-7 socket 1, cores 2k and 2k+1 share an L2; the program does" \
	"not matter: the plugin places the ranks before the tasks start)"
run dry "${dry[@]}"
dry_cores=$(sed -n 's/^treematch: [^ ]*:   rank \([0-9]*\) -> CPUs \([^ ]*\) .*/\1 \2/p' dry.err)
[ "$(grep -c . <<<"$dry_cores")" = "$np" ] || die "the dry run's report does not place $np ranks"
say "which core each rank of the grid would get:"
awk -v gx="$grid_x" -v gy="$grid_y" '
	{ at[$1] = $2 }
	END {
		printf "        "; for (x = 0; x < gx; x++) printf "  x=%-3d", x; printf "\n"
		for (y = gy - 1; y >= 0; y--) {
			printf "  y=%-3d ", y
			for (x = 0; x < gx; x++) printf "  %-5s", at[y * gx + x]
			printf "\n"
		}
	}' <<<"$dry_cores"
cost=$(sed -n 's/^treematch: [^ ]*: cost //p' dry.err)
[ -n "$cost" ] || die "the dry run printed no cost line"
say "cost: $cost"
say "where the $((grid_x * (grid_y - 1) + grid_y * (grid_x - 1))) pairs of grid neighbours (the heavy exchanges) end up:"
say "  TreeMatch:  $(neighbours <<<"$dry_cores")"
say "  packed:     $(seq 0 $((np - 1)) | awk '{ print $1, $1 }' | neighbours)   (rank i on core i)"
say "Packed puts row y=0 on one socket and row y=1 on the other: every exchange" \
	"between the rows crosses sockets.  Round-robin scatters neighbours over" \
	"the sockets.  TreeMatch groups the ranks that exchange most under the" \
	"same caches, and that is what srun --comm-matrix does on every node."

# ---- 6. the end -------------------------------------------------------------

step "6. done"
say "demo finished in $(seconds_since "$start") s." \
	"Next: doc/loop.md (the loop on a real cluster, batch scripts in contrib/batch)."
