#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-transient
# timeout: 240
#
# Transient faults are invisible to fio verify: while fio writes and then
# verifies, the LUN answers some WRITEs with BUSY and some READs with UNIT
# ATTENTION (power on/reset) (a rule replaces one of the same type and
# opcode, so one kind per opcode), and the driver's every_nth/opts add RECOVERED
# ERROR and transport errors (ABORTED COMMAND, ACK/NAK timeout); one WRITE
# and one READ are dropped and time out (device timeout 3 s), so the error
# handler aborts them and they are retried.  Every fault must be retried
# or requeued: fio must pass, and (smq_sas; Linux logs and counts
# differently) the LUN's ioerr_cnt and the kernel log must show that the
# faults and the timeouts happened.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
need_cmd fio
need_scsi
inject_ready

t=$(sdev_attr "$DEV" timeout)
old=$(cat "$t")
say 3 >"$t" || fail "cannot set $t"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	inject_param every_nth 0
	inject_param opts 0
	say "$old" >"$t"
}
trap cleanup EXIT

err0=$(cat "$(sdev_attr "$DEV" ioerr_cnt)")
# WRITE(10) 0x2a: BUSY x4; READ(10) 0x28: UNIT ATTENTION x3; one of each dropped.
inject "$DEV" 2 -4 0x2a 0 0 0x08 0 0 0 || fail "cannot inject BUSY"
inject "$DEV" 2 -3 0x28 0 0 0x02 0x6 0x29 0x00 || fail "cannot inject UA"
inject "$DEV" 0 -1 0x2a || fail "cannot inject a timeout"
inject "$DEV" 0 -1 0x28 || fail "cannot inject a timeout"
# Every 50th command: RECOVERED ERROR (8) or transport error (16).
inject_param opts 24 || fail "cannot set opts"
inject_param every_nth 50 || fail "cannot set every_nth"

FIO_VERIFY_SIZE=4194304 FIO_VERIFY_BSSPLIT=4096/50:65536/50 FIO_VERIFY_DEPTH=8
export FIO_VERIFY_SIZE FIO_VERIFY_BSSPLIT FIO_VERIFY_DEPTH
fio_write_verify "$DEV"
rc=$?
cat "/sys/kernel/debug/$(inject_drv)/$(inject_hctl "$DEV")/error"
err1=$(cat "$(sdev_attr "$DEV" ioerr_cnt)")
say "ioerr_cnt $err0 -> $err1"
case $rc in
0) ;;
1) fail "transient faults corrupted data on $DEV" ;;
*) fail "transient faults made fio fail on $DEV" ;;
esac
if [ "$(inject_drv)" = smq_sas ]; then
	[ $((err1)) -ge $((err0 + 9)) ] || fail "fewer faults than injected reached the midlayer"
	dmesg | grep -q "timed out" || fail "no command timed out"
fi
exit 0
