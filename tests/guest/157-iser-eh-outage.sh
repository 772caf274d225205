#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-eh-outage
# timeout: 300
#
# smq_iser only: error handling that meets a lost connection. One write
# (dd, O_DIRECT) loses its SCSI Response (hostN/iser_drop_responses), times
# out (device/timeout 6 s), ABORT TASK succeeds, and the error handler's TEST
# UNIT READY loses its response too; right then the target goes away (tpg
# disabled) for 20 s, with iser_replacement_timeout -1 (wait forever). The
# error handler must wait for the session instead of resetting into an
# absent target and taking the LUN offline: once the target is back, the
# LUN reset and TEST UNIT READY pass, the write is retried and lands (read
# back and compared), the LUN is "running", no LUN went offline, and a
# write+verify passes. The same while an outage outlasts a replacement
# timeout of 3 s: the write fails (transport error), the LUN stays "running"
# (not offline) and works once the target is back (with LONG=1 only: make
# check-long and the debug lane). Negative control: the
# driver of before (35df7f8) takes the LUN offline in both cases (its
# escalation runs into the absent target: abort, LUN reset, one login at
# the host reset, offline).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
iser_test_setup
rt=$hd/iser_replacement_timeout
old_rt=$(cat "$rt")
# shellcheck disable=SC2317 # run by the EXIT trap
restore() {
	lio_tpg_enable 0 2>/dev/null
	say 0 >"$hd/iser_drop_responses"
	say "$old_rt" >"$rt"
}
trap restore EXIT
# 6 s: the midlayer gives a command (allowed + 1) x timeout = 36 s in all.
say 6 >"$sd/timeout" || fail "cannot set $sd/timeout"
say 5 >"$sd/eh_timeout" || fail "cannot set $sd/eh_timeout"
sessions() { sed 's/^/    /' "$hd/iser_sessions"; }
head -c 4096 /dev/urandom >"$SMQ_TEST_TMP/blk" || fail "no pattern"

# lost_during_eh TIMEOUT DOWN-SECS: the write at block 77 loses its
# response and its TEST UNIT READY's, then the tpg is disabled for
# DOWN-SECS with iser_replacement_timeout TIMEOUT; returns dd's status.
lost_during_eh() {
	say "$1" >"$rt" || fail "cannot set $rt to $1"
	say 2 >"$hd/iser_drop_responses" || fail "cannot set iser_drop_responses"
	dd if="$SMQ_TEST_TMP/blk" of="$DEV" bs=4096 seek=77 count=1 oflag=direct \
		conv=notrunc 2>"$SMQ_TEST_TMP/dd.err" &
	_le_dd=$!
	wait_until 30 sh -c "[ \$(cat $hd/iser_drop_responses) = 0 ]" ||
		fail "the write and its TEST UNIT READY did not lose their responses"
	lio_tpg_disable 0 || fail "cannot disable the tpg"
	say "responses lost, target away for $2 s (replacement_timeout $1)"
	sleep "$2"
	sessions
	_le_st=$(cat "$sd/state")
	say "LUN $_le_st while the target is away"
	[ "$_le_st" != offline ] || fail "the LUN went offline during a network outage"
	lio_tpg_enable 0 || fail "cannot re-enable the tpg"
	_le_rc=0
	run_with_timeout 90 sh -c "while kill -0 $_le_dd 2>/dev/null; do sleep 0.2; done" ||
		fail "the write did not end within 90 s of the target's return"
	wait "$_le_dd" || _le_rc=$?
	cat "$SMQ_TEST_TMP/dd.err"
	return "$_le_rc"
}

say "== a timed-out write whose error handling meets an outage (replacement_timeout -1)"
lost_during_eh -1 20 || fail "the write failed across the outage"
dd if="$DEV" of="$SMQ_TEST_TMP/back" bs=4096 skip=77 count=1 iflag=direct 2>/dev/null ||
	fail "cannot read block 77 back"
cmp -s "$SMQ_TEST_TMP/blk" "$SMQ_TEST_TMP/back" || fail "block 77 does not hold what was written"
st=$(cat "$sd/state")
[ "$st" = running ] || fail "LUN state '$st' after recovery"
dmesg | grep -q 'timed out.*aborting' || fail "the write did not time out (no error handling ran)"
sessions
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after recovery"

long_case "the outage outlasting replacement_timeout 3" || exit 0
say "== the same outage outlasting replacement_timeout 3"
if lost_during_eh 3 12; then
	fail "the write succeeded although the target was away past the replacement timeout"
fi
st=$(cat "$sd/state")
say "LUN $st after the write failed"
[ "$st" = running ] || fail "LUN state '$st' after a failed transport, not running"
wait_until 60 dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct ||
	{ sessions; fail "no I/O 60 s after the target came back"; }
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after the target came back"
dmesg | grep -q 'taking the LUN offline' && fail "error handling took a LUN offline"
exit 0
