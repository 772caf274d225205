# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Helpers for guest tests and the guest runner (busybox sh). Tests source it:
#   . "$SMQ_GUEST_DIR/lib/common.sh"
# The runner exports SMQ_GUEST_DIR (this tests/guest directory), the target's
# DEV* variables, and SMQ_TEST_TMP (a scratch directory for the test).

: "${SMQ_GUEST_DIR:=$(cd "$(dirname "$0")" && pwd)}"

# Exit codes of a test.
SMQ_FAIL=1
SMQ_SKIP=77

say() { printf '%s\n' "$*"; }

# fio, never creating a file: the tests run it on block devices only, and a
# disk removed before fio opened it must make fio fail, not leave a regular
# file of that name in /dev for fio to write (it would also shadow the
# device node of the next disk of that name).
fio() {
	command fio --allow_file_create=0 "$@"
}

# dmesg with no arguments, in a test: the kernel log since the runner's
# mark for this test (SMQ_DMESG_MARK), so that what earlier tests of the
# same boot logged is not taken for this one's (all of it where the mark
# is gone, e.g. after dmesg -c).  With arguments: the real dmesg.
# shellcheck disable=SC2120 # tests call it with no arguments
dmesg() {
	if [ $# -gt 0 ] || [ -z "${SMQ_DMESG_MARK:-}" ]; then
		command dmesg "$@"
		return
	fi
	dmesg_since "$SMQ_DMESG_MARK"
}

# dmesg_since MARK: the kernel log after MARK (all of it if the mark is gone).
dmesg_since() {
	command dmesg | awk -v m="$1" '
		{ line[NR] = $0 }
		index($0, m) { start = NR }
		END { for (i = start + 1; i <= NR; i++) print line[i] }'
}
fail() { say "FAIL: $*" >&2; exit "$SMQ_FAIL"; }
skip() { say "SKIP: $*"; exit "$SMQ_SKIP"; }

# refuse FILE VALUE: writing VALUE to the sysfs FILE must fail and leave
# the file's value as it was.
refuse() {
	_rf_old=$(cat "$1")
	if say "$2" >"$1" 2>/dev/null; then
		fail "$1 accepted '$2'"
	fi
	[ "$(cat "$1")" = "$_rf_old" ] || fail "$1 changed after refusing '$2'"
	say "refused: $2 > $1"
}

# sched_file DEV: the disk's scheduler file: smq's smq/scheduler, else the
# kernel's queue/scheduler.
sched_file() {
	_sf=/sys/block/${1##*/}/smq/scheduler
	[ -e "$_sf" ] || _sf=/sys/block/${1##*/}/queue/scheduler
	say "$_sf"
}

# need_cmd CMD...: skip the test unless every CMD exists in this guest.
need_cmd() {
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || skip "no $_c in this guest"
	done
}

# need_dev: the target must have given the test a block device.
need_dev() {
	if [ -z "${DEV:-}" ] || [ ! -b "$DEV" ]; then
		fail "target gave no block device (DEV='${DEV:-}')"
	fi
}

# need_scsi: skip unless the target's device speaks SCSI (SG_IO).
need_scsi() {
	need_dev
	[ "${DEV_SCSI:-0}" = 1 ] || skip "target device is not a SCSI disk"
}

# run_with_timeout SECS CMD...: run CMD in its own session; after SECS kill
# the whole session (TERM, then KILL). Returns CMD's status; when the limit
# was hit, returns 124 whatever the status.
run_with_timeout() {
	_rwt_secs=$1
	shift
	_rwt_flag=$(mktemp /tmp/smq-timeout.XXXXXX)
	rm -f "$_rwt_flag"
	setsid "$@" &
	_rwt_pid=$!
	setsid sh -c "sleep $_rwt_secs; : >$_rwt_flag; kill -TERM -- -$_rwt_pid;
		sleep 3; kill -KILL -- -$_rwt_pid" >/dev/null 2>&1 &
	_rwt_wd=$!
	_rwt_rc=0
	wait "$_rwt_pid" || _rwt_rc=$?
	# The watchdog itself (it may not have made its session yet), then its sleep.
	kill -KILL "$_rwt_wd" 2>/dev/null
	kill -KILL -- "-$_rwt_wd" 2>/dev/null
	wait "$_rwt_wd" 2>/dev/null
	if [ -e "$_rwt_flag" ]; then
		rm -f "$_rwt_flag"
		return 124
	fi
	return "$_rwt_rc"
}

# wait_until SECS CMD...: poll CMD (every 0.1 s) until it succeeds.
wait_until() {
	_wu_n=$(($1 * 10))
	shift
	while ! "$@" >/dev/null 2>&1; do
		_wu_n=$((_wu_n - 1))
		[ "$_wu_n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# unload_modules MODULE...: rmmod each loaded MODULE (not its dependencies),
# retrying for up to 10 s while it is still busy.
unload_modules() {
	for _m in "$@"; do
		_m=$(say "$_m" | tr - _)
		[ -d "/sys/module/$_m" ] || continue
		wait_until 10 rmmod "$_m" || { rmmod "$_m"; return 1; }
	done
}

# cap_lines N: copy stdin, keeping the first and last N/2 lines of long input.
cap_lines() {
	awk -v n="$1" '
		{ if (NR <= n / 2) print; else t[NR % (n / 2)] = $0 }
		END {
			if (NR <= n / 2) exit
			s = NR - n / 2 + 1; if (s <= n / 2) s = n / 2 + 1
			if (s > n / 2 + 1) printf "[... %d lines left out ...]\n", s - n / 2 - 1
			for (i = s; i <= NR; i++) print t[i % (n / 2)]
		}'
}

# cpu_set LIST: the CPUs of a CPU list in either form, ranges ("0-2,5",
# queue_map, debugfs) or Linux's mq/<n>/cpu_list ("0, 1, 2, 5"), one
# space-separated word each, in order.
cpu_set() {
	say "$1" | tr ',' '\n' | while read -r _cs; do
		case $_cs in
		*-*) seq "${_cs%-*}" "${_cs#*-}" ;;
		'') ;;
		*) say "$_cs" ;;
		esac
	done | tr '\n' ' '
}

# long_case WHAT: true when the target spec asks for the long version of a
# test (LONG=1: make check-long, the debug lane); else says that WHAT is
# left to it and is false.  make check runs the short version.
long_case() {
	[ "${TARGET_LONG:-0}" = 1 ] && return 0
	say "short version: $1 runs with LONG=1 (make check-long)"
	return 1
}

# Older name of unload_modules, kept for targets that use it.
modprobe_r() { unload_modules "$@"; }
