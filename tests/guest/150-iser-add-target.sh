#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-add-target
# timeout: 300
#
# smq_iser only (target smq_iser): bad add_target strings are each refused
# with EINVAL and make no host (no dst, a bad IP, a bad port, no target,
# queues=0, queues above the CPU count, queue_depth 0 or huge, cmd_per_lun
# above queue_depth, an unknown key, a key twice, nothing, junk); remove_target
# of a number that is no smq_iser host (or not a number) is EINVAL; a
# second host for a target is refused (EEXIST). An address nobody answers,
# a port with no portal and a target LIO does not have fail add_target with
# EHOSTUNREACH / ETIMEDOUT, ECONNREFUSED and EAGAIN (one log line) within
# a minute, leaving no host. Then the
# target's host is removed and added back with a good string: one new host,
# its iser_target names the target, its disk reads.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
need_cmd smq-helper
need_dev
[ -w "$SMQ_ISER_CTL/add_target" ] || skip "not an smq_iser target"

iqn=${ISER_IQN}0
dst=$ISER_IP:$ISER_PORT
# nr_cpu_ids: one more than the last possible CPU.
cpus=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1))
nl='
'
hosts() { smq_iser_hosts | tr '\n' ' '; }

# einval FILE STRING: writing STRING fails with EINVAL, no host appears or goes.
einval() {
	_ei_before=$(hosts)
	_ei_out=$(smq-helper write "$1" "$2") && fail "${1##*/} accepted '$2'"
	[ "$_ei_out" = "ret=-22" ] || fail "${1##*/} '$2': $_ei_out, not EINVAL (-22)"
	[ "$(hosts)" = "$_ei_before" ] || fail "${1##*/} '$2': hosts $_ei_before -> $(hosts)"
	say "EINVAL: ${1##*/} '$2'"
}

add=$SMQ_ISER_CTL/add_target
rem=$SMQ_ISER_CTL/remove_target
einval "$add" "target=$iqn"
einval "$add" "dst=10.0.0.999:3260,target=$iqn"
einval "$add" "dst=not-an-address,target=$iqn"
einval "$add" "dst=10.0.0.1:99999,target=$iqn"
einval "$add" "dst=10.0.0.1:port,target=$iqn"
einval "$add" "dst=$dst"
einval "$add" "dst=$dst,target="
einval "$add" "dst=$dst,target=$iqn,queues=0"
einval "$add" "dst=$dst,target=$iqn,queues=$((cpus + 1))"
einval "$add" "dst=$dst,target=$iqn,queue_depth=0"
einval "$add" "dst=$dst,target=$iqn,queue_depth=1000000"
einval "$add" "dst=$dst,target=$iqn,queue_depth=-1"
einval "$add" "dst=$dst,target=$iqn,queue_depth=16,cmd_per_lun=32"
einval "$add" "dst=$dst,target=$iqn,bogus=1"
einval "$add" "dst=$dst,dst=$dst,target=$iqn"
einval "$add" "dst=$dst,target=$iqn,queues=1,queues=1"
einval "$add" "$nl"
einval "$add" "dst=$dst,,target=$iqn"
einval "$add" "junk"
# The target already has a host: EEXIST (the driver's choice; a valid string).
out=$(smq-helper write "$add" "$(smq_iser_add_string 0)") && fail "a second host for $iqn"
[ "$out" = "ret=-17" ] || [ "$out" = "ret=-22" ] || fail "a second host for $iqn: $out"
say "refused ($out): a second host for $iqn"

# failed_add STRING ERRNOS SECS: add_target fails within SECS with one of
# ERRNOS (negative numbers, space separated) and makes no host.
failed_add() {
	_fa_before=$(hosts)
	_fa_t0=$(date +%s)
	_fa_out=$(run_with_timeout "$3" smq-helper write "$add" "$1") &&
		fail "add_target accepted '$1'"
	_fa_s=$(($(date +%s) - _fa_t0))
	case " $2 " in
	*" ${_fa_out#ret=} "*) ;;
	*) fail "add_target '$1': '$_fa_out' after $_fa_s s, not one of $2" ;;
	esac
	[ "$(hosts)" = "$_fa_before" ] || fail "add_target '$1': hosts $_fa_before -> $(hosts)"
	say "refused ($_fa_out, $_fa_s s): '$1'"
}
# An address nobody answers on: unreachable or timed out, not a hang.
failed_add "dst=10.0.0.77:3260,target=$iqn" "-113 -110" 60
# No portal on that port: the connection is refused (or unreachable).
failed_add "dst=$ISER_IP:3261,target=$iqn" "-111 -113 -110" 60
# A target LIO does not have: the login is refused (LIO answers "service
# unavailable", status class 3: EAGAIN; an initiator error would be EACCES).
failed_add "dst=$dst,target=${ISER_IQN}nosuch" "-11 -13" 60
dmesg | grep -q "${ISER_IQN}nosuch.*login refused" || fail "no log line for the refused login"

h=$(smq_iser_host_of 0) || fail "no smq_iser host for $iqn"
einval "$rem" 99999
einval "$rem" -1
einval "$rem" abc
einval "$rem" "$nl"
einval "$rem" "$((h + 1000))"

# Remove the host, add it back with a good string.
say "$h" >"$rem" || fail "remove_target $h failed"
wait_until 30 sh -c "[ ! -e /sys/class/smq_host/host$h ]" || fail "host$h still there"
[ -z "$(hosts)" ] || fail "hosts left after removing host$h: $(hosts)"
before=$(list_disks)
out=$(smq-helper write "$add" "$(smq_iser_add_string 0 1 64 16)") ||
	fail "a good add_target string was refused: $out"
n=$(smq_iser_host_of 0) || fail "no host after a good add_target"
say "add_target made host$n"
[ "$(hosts)" = "$n " ] || fail "hosts after add_target: $(hosts)"
grep -q "$iqn" "/sys/class/smq_host/host$n/iser_target" || fail "host$n iser_target: $(cat "/sys/class/smq_host/host$n/iser_target")"
wait_for_new_disk "$before" 30 || fail "no disk on host$n"
dd if="$DEV" of=/dev/null bs=4096 count=256 iflag=direct 2>/dev/null || fail "$DEV does no I/O"
say "host$n: $DEV reads"
exit 0
