#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-recovery
# timeout: 300
#
# Error handler escalation through the LUN's debugfs "error" rules, on
# smq_sas and scsi_debug (skipped where the kernel has no such file): a
# dropped WRITE times out (LUN timeout 2 s); with its abort failing the LUN
# reset recovers it, with the LUN reset failing too the next step does
# (target or host reset, whatever the midlayer escalates to). Each time the
# WRITE completes with its data and the disk stays usable (fio
# write+verify). smq_sas only: the counters of debugfs
# smq_sas/adapterN/eh, and when abort, LUN, target and host reset all fail
# the LUN goes offline, the WRITE fails, and after "running" is written to
# its state the disk works again.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/knobs.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/fault.sh"
need_cmd fio cmp
need_scsi
fault_setup
[ -n "$FAULT_ERR" ] || skip "$FAULT_DRV has no debugfs error rules in this kernel"

lbs=${DEV_LBS:-512}
sysdev=/sys/block/${DEV##*/}/device
trap 'fault_rules_clear; restore_knobs' EXIT
knob "$sysdev/timeout" 2

# Sequential writes: none overlaps another (fio_verify_args' blockalign
# turns fio's random map off, so random writes may hit a block twice; a
# fault that retries the first reorders them, and fio's verify, expecting
# the later one, reports a mismatch on any disk, scsi_debug's too).
FIO_VERIFY_SIZE=1048576 FIO_VERIFY_BSSPLIT=4096/50:65536/50 FIO_VERIFY_DEPTH=8 FIO_VERIFY_RW=write
export FIO_VERIFY_SIZE FIO_VERIFY_BSSPLIT FIO_VERIFY_DEPTH FIO_VERIFY_RW

dd if=/dev/urandom of="$SMQ_TEST_TMP/data" bs="$lbs" count=8 2>/dev/null

# write_back LBA: write the 8 data blocks at LBA (direct), read them back.
# Status 0 when the data is there, 1 when the write failed, 2 on a mismatch.
write_back() {
	dd if="$SMQ_TEST_TMP/data" of="$DEV" bs="$lbs" seek="$1" count=8 oflag=direct conv=notrunc \
		2>"$SMQ_TEST_TMP/dd" || { cat "$SMQ_TEST_TMP/dd"; return 1; }
	dd if="$DEV" of="$SMQ_TEST_TMP/back" bs="$lbs" skip="$1" count=8 iflag=direct 2>/dev/null ||
		return 2
	cmp -s "$SMQ_TEST_TMP/data" "$SMQ_TEST_TMP/back" || return 2
}

usable() {
	fio_write_verify "$DEV" >"$SMQ_TEST_TMP/fio.log" 2>&1 ||
		{ cat "$SMQ_TEST_TMP/fio.log"; fail "the disk is not usable after $1"; }
	say "disk usable after $1"
}

# 1: the abort fails, the LUN reset recovers.
a0=$(fault_eh aborts) l0=$(fault_eh lun_resets)
fault_rule "3 -1 0xff"
fault_rule "0 -1 0x2a"
start=$(date +%s)
write_back 5000 || fail "the dropped WRITE was not recovered by the LUN reset (status $?)"
say "WRITE recovered after $(($(date +%s) - start)) s"
fault_rules_clear
usable "abort failed, LUN reset"
if [ "$FAULT_DRV" = smq_sas ]; then
	[ "$(fault_eh aborts)" -gt "$a0" ] || fail "no abort counted"
	[ "$(fault_eh lun_resets)" -gt "$l0" ] || fail "no LUN reset counted"
fi

# 2: the abort and the LUN reset fail, the next step recovers.
h0=$(($(fault_eh host_resets) + $(fault_eh target_resets))) f0=$(fault_eh reset_fails)
fault_rule "3 -1 0xff"
fault_rule "4 -1 0xff"
fault_rule "0 -1 0x2a"
write_back 6000 || fail "the dropped WRITE was not recovered after a failed LUN reset (status $?)"
fault_rules_clear
usable "abort and LUN reset failed"
if [ "$FAULT_DRV" = smq_sas ]; then
	cat /sys/kernel/debug/smq_sas/adapter*/eh
	[ "$(fault_eh reset_fails)" -gt "$f0" ] || fail "no failed reset counted"
	[ $(($(fault_eh host_resets) + $(fault_eh target_resets))) -gt "$h0" ] ||
		fail "no target or host reset counted"
	[ "$(fault_eh forgotten)" -ge 2 ] || fail "fewer than 2 dropped commands forgotten"
	[ "$(fault_eh unit_attentions)" -ge 1 ] || fail "no UNIT ATTENTION reported after the resets"
fi

[ "$FAULT_DRV" = smq_sas ] || exit 0

# 3 (smq_sas): every step fails: the LUN goes offline, the WRITE fails.
fault_rule "3 1 0xff"
fault_rule "4 1 0xff"
fault_rule "7 1 0xff"
fault_rule "8 1 0xff"
fault_rule "0 -1 0x2a"
if write_back 7000; then
	fail "the WRITE succeeded although every recovery step failed"
fi
[ "$(cat "$sysdev/state")" = offline ] || fail "the LUN is $(cat "$sysdev/state"), not offline"
fault_rules_clear
say running >"$sysdev/state" || fail "cannot set the LUN running again"
usable "the LUN was set running again"
exit 0
