#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: ng-timeout
# timeout: 150
#
# A passthrough command the device never answers times out through the
# error handler like any request: the driver drops one READ(10) (rule
# "0 -1 0x28"), the command's 1 s timeout (raised to SG_IO's 7 s floor)
# expires, the error handler aborts it, and its CQE comes back with a
# host byte (not GOOD) within the limit, while other commands issued
# meanwhile complete.  The LUN then reads fine again.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
. "$SMQ_GUEST_DIR/lib/ng.sh"
ng_setup
inject_ready

bs8=$((8 * NG_LBS))
trap 'inject_clear "$DEV" 0 0x28 >/dev/null 2>&1' EXIT
inject "$DEV" 0 -1 0x28 || fail "cannot drop a READ(10)"
start=$(date +%s)
ng_cmd --timeout 1000 --raw 28000000000000000800 --dir in --len $bs8 >"$SMQ_TEST_TMP/t.out" &
pid=$!
sleep 1
out=$(ng_cmd --raw 88000000000000000010000000080000 --dir in --len $bs8)
say "READ(16) meanwhile: $out"
[ "$(ng_field "$out" status)" = 0x00 ] || fail "a READ(16) failed while the READ(10) hung: $out"
wait $pid
out=$(cat "$SMQ_TEST_TMP/t.out")
took=$(($(date +%s) - start))
say "dropped READ(10) after ${took}s: $out"
case "$out" in
status=*) ;;
*) fail "timed-out command: no SCSI outcome: $out" ;;
esac
[ "$(ng_field "$out" status)" != 0x00 ] || [ "$(ng_field "$out" host)" != 0x00 ] ||
	fail "timed-out command came back GOOD"
[ "$took" -ge 6 ] || fail "came back after ${took}s, before its 7 s timeout"
inject_clear "$DEV" 0 0x28
out=$(ng_cmd --raw 28000000000000000800 --dir in --len $bs8)
[ "$(ng_field "$out" status)" = 0x00 ] || fail "the LUN does not read after the timeout: $out"
exit 0
