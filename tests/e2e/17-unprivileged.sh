#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 17-unprivileged.sh - jobs of an ordinary user: placement works; a matrix
# the user cannot read is refused (by srun, and by the nodes when srun's
# check is skipped) and its content appears nowhere; the helper runs with
# the user's uid, gid and groups, without privileges, never as root.
set -u
# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
# shellcheck source=tests/e2e/plugin.sh
. "$top_srcdir/tests/e2e/plugin.sh"
e2e_require_root_and_slurm

# The user gets a supplementary group, so that "the user's groups" differs
# from "the user's primary group".  Before the cluster starts: slurmctld
# caches group lists.
extra_group=$E2E_USER-extra
as_user true || { nok "the user $E2E_USER exists"; exit 1; }
lock=/run/lock
[ -d "$lock" ] || lock=/tmp
(
	flock -w 30 9 || exit 1
	getent group "$extra_group" >/dev/null || groupadd "$extra_group" || exit 1
	id -nG "$E2E_USER" | tr ' ' '\n' | grep -qxF "$extra_group" ||
		usermod -aG "$extra_group" "$E2E_USER"
) 9>>"$lock/slurm-treematch-e2e-useradd.lock" ||
	{ nok "the group $extra_group exists and $E2E_USER is in it"; exit 1; }
uid=$(id -u "$E2E_USER") gid=$(id -g "$E2E_USER")
groups=$(id -G "$E2E_USER" | tr ' ' '\n' | sort -n | paste -sd' ' -)
extra_gid=$(getent group "$extra_group" | cut -d: -f3)
check "$E2E_USER has the supplementary group $extra_group ($extra_gid)" \
	grep -qxF "${extra_gid:-none}" <(tr ' ' '\n' <<<"$groups")

tm_setup
# A root-only matrix in a root-only directory, holding a string to look for.
# It is not valid JSON, so a reader would quote it in its error message.
secret=TM-SECRET-$$-$RANDOM$RANDOM
mkdir -m 700 "$TM_DIR/private"
printf '%s\n' "$secret 0 1" >"$TM_DIR/private/m.json"
chmod 600 "$TM_DIR/private/m.json"
private=$TM_DIR/private/m.json
cluster_start 2
cd "$E2E_WORK" || exit 1

tm_matrix shared.json 4 0 1 1000 2 3 1000 1 2 10
tm_matrix own.json 4 0 2 1000 1 3 1000
chown "$uid:$gid" own.json
chmod 600 own.json
mkdir -m 1777 ran
tm_slurm_binding as_user srun -Q -N2 -n4 "$TM_PROBE"
slurm_n4=$TM_OUT

# ---- placement as the user -------------------------------------------------------

tm_run as_user srun -Q -N2 -n4 --comm-matrix=shared.json "$TM_PROBE"
check_eq "$E2E_USER: srun --comm-matrix=shared.json: exit 0, no message" "$TM_RC:$TM_ERR" "0:"
tm_check_placed "$E2E_USER, shared.json" 4
tm_check_helper "$E2E_USER, shared.json: where treematch-helper map puts the ranks" \
	shared.json 4 "$slurm_n4" --topology this
tm_run as_user srun -Q -N2 -n4 --comm-matrix=own.json "$TM_PROBE"
check_eq "$E2E_USER: a matrix only the user can read (mode 600): exit 0, no message" \
	"$TM_RC:$TM_ERR" "0:"
tm_check_placed "$E2E_USER, own.json" 4

# ---- a matrix the user cannot read -----------------------------------------------

# nowhere TEXT: the secret is neither in TEXT nor in the cluster's logs.
# shellcheck disable=SC2317 # called through check
nowhere() {
	! grep -F -- "$secret" <<<"$1" && ! grep -rF -- "$secret" "$E2E_CLUSTER_DIR/log"
}

tm_plugstack required on_error=warn
tm_run as_user srun -Q -N2 -n4 --comm-matrix="$private" "$TM_PROBE" "$E2E_WORK/ran"
check_eq "$E2E_USER, root-only matrix, on_error=warn: srun exits 0, the tasks run" \
	"$TM_RC $(find ran -name 'ran.*' | wc -l)" "0 4"
check_match "... srun refuses it: permission denied" "$TM_ERR" \
	"^treematch: warning: $private: cannot open: Permission denied; tasks keep Slurm's binding\$"
check_eq "... the tasks' status says so" "$(tm_col status | sort -u)" \
	"fallback: $private: cannot open: Permission denied"
check_eq "... and they keep Slurm's binding" "$(cut -d' ' -f1-3 <<<"$TM_OUT")" \
	"$(cut -d' ' -f1-3 <<<"$slurm_n4")"
check "... its content is not in srun's output nor in the logs" nowhere "$TM_OUT$TM_ERR"
tm_run as_user srun -Q -N2 -n4 --comm-matrix="$private" /usr/bin/env
check "... nor in the tasks' environment" nowhere "$TM_OUT$TM_ERR"

# srun's check skipped: the user's own srun with a plugstack.conf without the
# plugin, and the nodes told about the file directly.  The helper runs as the
# user on the nodes, so it cannot read the file either.
sed "s|^PlugStackConfig=.*|PlugStackConfig=$E2E_WORK/empty.conf|" "$SLURM_CONF" >user.conf
: >empty.conf
chmod 644 user.conf empty.conf
tm_run as_user env SLURM_CONF="$E2E_WORK/user.conf" SLURM_TREEMATCH_MATRIX="$private" \
	srun -Q -N2 -n4 "$TM_PROBE"
check_eq "srun's check skipped: the nodes refuse it too (permission denied)" \
	"$TM_RC:$(tm_col status | sort -u)" \
	"0:fallback: $private: cannot open: Permission denied"
check "... its content is not in srun's output nor in the logs" nowhere "$TM_OUT$TM_ERR"

tm_plugstack required on_error=fail
rm -f ran/*
tm_run as_user srun -Q -N2 -n4 --comm-matrix="$private" "$TM_PROBE" "$E2E_WORK/ran"
check_eq "on_error=fail: srun exits non-zero, the application does not run" \
	"$([ "$TM_RC" != 0 ] && echo failed) $(find ran -name 'ran.*' | wc -l)" "failed 0"
check_match "... saying why" "$TM_ERR" "^treematch: error: $private: cannot open: Permission denied"
check "... its content is not in srun's output nor in the logs" nowhere "$TM_OUT$TM_ERR"

# The checks above can see the content: root may read the file, and then
# the error quotes it.
tm_plugstack required
tm_run srun -Q -N2 -n4 --comm-matrix="$private" true
check_match "(root, who may read it, is told what is wrong with its content)" "$TM_ERR" \
	"^treematch: warning: $private:.*$secret"

# ---- who the helper runs as --------------------------------------------------------

tm_plugstack required "helper=$TM_FAKES/identity"
tm_run as_user srun -Q -N2 -n4 --comm-matrix=shared.json "$TM_PROBE"
id_line=$(tm_col status | sort -u)
echo "# the helper reported: $id_line"
check_match "the helper ran with the user's real, effective, saved and fs uid" "$id_line" \
	"^fallback: identity uid=$uid,$uid,$uid,$uid "
check_match "... and gid" "$id_line" " gid=$gid,$gid,$gid,$gid "
check_eq "... with exactly the user's groups" \
	"$(sed -n 's/.* groups=\([0-9 ]*\) capeff=.*/\1/p' <<<"$id_line" | tr ' ' '\n' | sort -n | paste -sd' ' -)" \
	"$groups"
check_match "... without any capability, and unable to gain privileges" "$id_line" \
	" capeff=0+ nonewprivs=1$"

check "no daemon died, the next job runs" cluster_healthy
e2e_finish
