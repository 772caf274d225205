#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-abort
# timeout: 420
#
# A command the device sits on past its timeout is aborted through the
# control queue (target smq_virtio:NBD=1): with the LUN's timeout at 4 s,
# nbdkit's pause filter holds every request of the disk for 12 s while fio
# write+verify runs.  smq's error handler must send ABORT TASK (or escalate
# to a LUN reset), the device answers once the held request is let go, and
# fio's pass must then finish with all data verified: nothing lost, nothing
# hung, the host's eh_count up.  The same fault runs on Linux's virtio_scsi
# + sd disk in the same boot, which must come through the same way.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
need_cmd fio
need_dev
if [ "${TARGET_NBD:-0}" != 1 ] || [ -z "${SMQ_CTL:-}" ]; then
	skip "needs target smq_virtio:NBD=1"
fi

trap 'host_req resume 0 0; host_req resume 1 0; sleep 2' EXIT

# stall_round C DISK NAME
stall_round() {
	_c=$1 _d=$2 _n=$3
	say 4 >"/sys/block/${_d##*/}/device/timeout" || fail "$_n: cannot set the timeout"
	mkdir -p "$SMQ_TEST_TMP/$_c"
	(SMQ_TEST_TMP=$SMQ_TEST_TMP/$_c FIO_VERIFY_JOBS=2 FIO_VERIFY_RW=randwrite \
		fio_write_verify "$_d" >"$SMQ_TEST_TMP/$_c/log" 2>&1
	 say "$?" >"$SMQ_TEST_TMP/$_c/rc") &
	_bg=$!
	sleep 1
	host_req pause "$_c" 0
	sleep 12
	host_req resume "$_c" 0
	_n2=1800
	while kill -0 "$_bg" 2>/dev/null; do
		_n2=$((_n2 - 1))
		[ "$_n2" -gt 0 ] || { cat "$SMQ_TEST_TMP/$_c/log"; fail "$_n: fio did not finish 180 s after the stall ended"; }
		sleep 0.1
	done
	cap_lines 60 <"$SMQ_TEST_TMP/$_c/log"
	case $(cat "$SMQ_TEST_TMP/$_c/rc") in
	0) say "$_n: data verified after the stall" ;;
	1) fail "$_n: corrupt data after the stall" ;;
	*) fail "$_n: fio failed after the stall" ;;
	esac
	say 30 >"/sys/block/${_d##*/}/device/timeout"
}

h=$(vs_smq_host "$DEV")
eh0=$(cat "/sys/class/smq_host/host$h/eh_count")
mark=$(dmesg_mark)
stall_round 0 "$DEV" "smq_virtio ($DEV)"
eh1=$(cat "/sys/class/smq_host/host$h/eh_count")
say "smq host$h: eh_count $eh0 -> $eh1"
[ "$eh1" -gt "$eh0" ] || fail "smq's error handler never ran: the stall did not time a command out"
dmesg_since "$mark" | grep -E "TMF|smq_scsi.*(abort|reset)" | tail -n 10
dmesg_since "$mark" | grep -q "TMF [05] to 0:0: FUNCTION" || fail "no ABORT TASK or LUN RESET answered by the device"
if [ -n "${PEER_DEV:-}" ]; then
	stall_round 1 "$PEER_DEV" "Linux virtio_scsi ($PEER_DEV)"
	dmesg_since "$mark" | grep -E "sd 1:|scsi host1" | tail -n 10
fi
exit 0
