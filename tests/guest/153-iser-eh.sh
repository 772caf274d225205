#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-eh
# timeout: 240
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
# sessions must not have reconnected.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev
h=$(smq_iser_host_of 0) || skip "not an smq_iser target"
hd=/sys/class/smq_host/host$h
sd=/sys/block/${DEV##*/}/device
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
say "== bad values"
if say -1 >"$hd/iser_drop_responses" 2>/dev/null; then
	fail "iser_drop_responses took -1"
fi
say 0 >"$hd/iser_drop_responses"
exit 0
