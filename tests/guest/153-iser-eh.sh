#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-eh
# timeout: 400
#
# smq_iser only: the midlayer's error handler over iSER. The host drops
# SCSI Responses as if lost (hostN/iser_drop_responses, fault injection),
# so their commands time out (device/timeout 2 s) under a fio write+verify
# on every session of the host. For each, ABORT TASK goes to the task's
# session; LIO already completed the task and answers "task does not
# exist", the driver forgets the command (its registration invalidated
# unless the target did it), TEST UNIT READY passes on the same session, and
# the command is retried. The verify must then find every block, the
# injected count must be used up, error handling must have run once per
# drop (hostN/eh_count), no LUN or host reset may have been needed and the
# sessions must not have reconnected. Then one response is held back and
# delivered 5 s late (hostN/iser_late_responses), after its command timed
# out, was aborted and retried: it must match nothing (counted as stale in
# iser_sessions, no completion of the retry or of another command), and the
# write+verify must pass. Last, the ABORT TASK and the LUN reset lose their
# answers too (hostN/iser_drop_tmf_responses): the error handler escalates
# to the target / host reset, which reinstates every session, and the
# write+verify still passes (this last part with LONG=1 only: make
# check-long and the debug lane).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
iser_test_setup
say 2 >"$sd/timeout" || fail "cannot set $sd/timeout"
say 5 >"$sd/eh_timeout" || fail "cannot set $sd/eh_timeout"
eh0=$(cat "$hd/eh_count")
sed 's/^/    /' "$hd/iser_sessions"

drops=4
say "== $drops SCSI Responses lost under write+verify"
say "$drops" >"$hd/iser_drop_responses" || fail "cannot set iser_drop_responses"
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" ||
	fail "write+verify failed across lost responses"
left=$(cat "$hd/iser_drop_responses")
[ "$left" = 0 ] || fail "only $((drops - left)) of $drops responses were dropped"
eh=$(($(cat "$hd/eh_count") - eh0))
say "error handling ran $eh time(s)"
[ "$eh" -ge "$drops" ] || fail "error handling ran $eh times for $drops lost responses"
sed 's/^/    /' "$hd/iser_sessions"
grep -q 'reconnects [1-9]' "$hd/iser_sessions" && fail "a session reconnected"
dmesg | grep -q 'timed out.*aborting' || fail "no abort in the kernel log"
if dmesg | grep -Eq 'resetting the LUN|resetting target|resetting host'; then
	fail "an abort was not enough: a reset ran"
fi
say "== a SCSI Response delivered 5 s late, after its command was taken back"
# field NAME: the sum of NAME's values over the sessions.
field() { iser_session_field "$hd" "$1" | awk '{ s += $1 } END { print s + 0 }'; }
stale0=$(field stale)
eh0=$(cat "$hd/eh_count")
say 1 >"$hd/iser_late_responses" || fail "cannot set iser_late_responses"
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" ||
	fail "write+verify failed across a late response"
[ "$(cat "$hd/iser_late_responses")" = 0 ] || fail "no response was held back"
# The held response comes 5 s after it arrived: wait for it to be seen.
# shellcheck disable=SC2317 # called through wait_until
stale_grew() { [ "$(field stale)" -gt "$stale0" ]; }
wait_until 15 stale_grew ||
	{ sed 's/^/    /' "$hd/iser_sessions"; fail "the late response did not arrive or matched a command"; }
say "late response dropped as stale ($(($(field stale) - stale0))), error handling ran $(($(cat "$hd/eh_count") - eh0)) time(s)"
[ "$(cat "$hd/eh_count")" -gt "$eh0" ] || fail "the held response's command did not time out"
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after the late response"

long_case "the escalation to a target reset (TMF answers lost)" || exit 0
say "== ABORT TASK and LOGICAL UNIT RESET unanswered: a target reset under write+verify"
# Every TMF answer of the abort and of the LUN reset (one per session) is
# lost: both time out (10 s each), the target reset (the host's one target)
# reinstates every session, the commands in flight are reclaimed and retried.
say 10 >"$sd/timeout" || fail "cannot set $sd/timeout"
nq=$(wc -l <"$hd/iser_sessions")
say 1 >"$hd/iser_drop_responses" || fail "cannot set iser_drop_responses"
say $((1 + nq)) >"$hd/iser_drop_tmf_responses" || fail "cannot set iser_drop_tmf_responses"
FIO_VERIFY_SIZE=$((8 * 1048576)) fio_write_verify "$DEV" ||
	fail "write+verify failed across a host reset"
[ "$(cat "$hd/iser_drop_tmf_responses")" = 0 ] || fail "not every TMF answer was dropped"
dmesg | grep -q 'resetting the LUN' || fail "no LUN reset ran"
# smq_iser's target reset is its host reset (a host is one target).
dmesg | grep -q 'resetting target' || fail "no target reset ran"
dmesg | grep -q "host$h: sessions reinstated by reset: all up" || fail "the host reset did not bring every session up"
st=$(cat "$sd/state")
[ "$st" = running ] || fail "LUN state '$st' after the host reset"
sed 's/^/    /' "$hd/iser_sessions"
say 2 >"$sd/timeout"

say "== bad values"
for f in iser_drop_responses iser_late_responses iser_drop_tmf_responses; do
	if say -1 >"$hd/$f" 2>/dev/null; then
		fail "$f took -1"
	fi
	say 0 >"$hd/$f"
done
exit 0
