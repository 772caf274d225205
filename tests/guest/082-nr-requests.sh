#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: nr-requests
# timeout: 120
#
# smq/nr_requests bounds the requests a disk has at once, per tag space
# (each hardware queue's, or the host's shared one, or the legacy pool):
# with fio at iodepth 64, /sys/block/X/inflight (requests started in the
# driver) never exceeds it times the tag spaces fio's CPUs use, while at
# the default it does go past that (else the check could not fail: skip).
# With mq-deadline, iosched/async_depth bounds writes the same way and
# follows nr_requests. Out-of-range values are refused; fio finishes (no
# hang) after every change.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

q=/sys/block/${DEV##*/}
[ -w "$q/smq/nr_requests" ] || skip "$DEV has no writable smq/nr_requests"
max=$(cat "$q/smq/nr_requests")
LIMIT=4
# Tag spaces a job may allocate from: one per hardware queue, unless shared.
spaces=1
if [ "$(cat "$q/smq/queue_mode")" = mq ] && [ "$(cat "$q/smq/host_tagset")" = 0 ]; then
	spaces=$(cat "$q/smq/nr_hw_queues")
fi
bound=$((LIMIT * spaces))

# peak RW: run fio (RW at iodepth 64) for 3 s; print the largest number of
# requests in flight seen, sampled every 20 ms.
peak() {
	fio --name=peak --filename="$DEV" --ioengine=libaio --direct=1 --bs=4k \
		--rw="$1" --iodepth=64 --time_based --runtime=3 --size=64m \
		>"$SMQ_TEST_TMP/peak.out" 2>&1 &
	_pid=$!
	_peak=0
	while kill -0 "$_pid" 2>/dev/null; do
		# shellcheck disable=SC2046 # two numbers: reads, writes
		set -- $(cat "$q/inflight")
		_n=$(($1 + $2))
		[ "$_n" -le "$_peak" ] || _peak=$_n
		usleep 20000
	done
	wait "$_pid" || { cat "$SMQ_TEST_TMP/peak.out"; fail "fio $1 failed"; }
	say "$_peak"
}

refuse "$q/smq/nr_requests" 0
refuse "$q/smq/nr_requests" $((max + 1))
refuse "$q/smq/nr_requests" many

base=$(peak randread) || exit
say "nr_requests $max: up to $base requests in flight"
[ "$base" -gt "$bound" ] || skip "only $base in flight at the default: cannot show a limit of $bound"
say "$LIMIT" >"$q/smq/nr_requests" || fail "nr_requests refused $LIMIT"
[ "$(cat "$q/smq/nr_requests")" = "$LIMIT" ] || fail "nr_requests reads $(cat "$q/smq/nr_requests")"
got=$(peak randread) || exit
say "nr_requests $LIMIT: up to $got requests in flight ($spaces tag space(s): at most $bound)"
[ "$got" -le "$bound" ] || fail "$got requests in flight with nr_requests $LIMIT x $spaces"
[ "$got" -ge 1 ] || fail "no request seen in flight"

if [ -e "$q/smq/iosched/async_depth" ]; then
	say "$max" >"$q/smq/nr_requests" || fail "nr_requests refused $max"
	a=$(cat "$q/smq/iosched/async_depth")
	[ "$a" = "$max" ] || fail "async_depth $a did not follow nr_requests $max"
	refuse "$q/smq/iosched/async_depth" 0
	refuse "$q/smq/iosched/async_depth" $((max + 1))
	say 2 >"$q/smq/iosched/async_depth" || fail "async_depth refused 2"
	got=$(peak randwrite) || exit
	say "async_depth 2: up to $got writes in flight (at most $((2 * spaces)))"
	[ "$got" -le $((2 * spaces)) ] || fail "$got writes in flight with async_depth 2 x $spaces"
	got=$(peak randread) || exit
	say "async_depth 2: up to $got sync reads in flight"
	[ "$got" -gt $((2 * spaces)) ] || fail "sync reads limited by async_depth ($got in flight)"
fi
say "$max" >"$q/smq/nr_requests" || fail "cannot restore nr_requests $max"
exit 0
