#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sched-bypass
# timeout: 180
#
# mq-deadline's bypass: a request whose hardware queue is idle while the
# scheduler holds nothing goes straight to the driver (mq/<n>/direct), and
# the scheduler is left alone (iosched/lock_stats: no lock round per I/O).
# Once requests wait in the scheduler (the LUN's queue depth at 4, 64
# random requests at once, commands completing after a delay: run it with
# IRQMODE=2 and NSEC), new ones queue behind them instead: direct issues
# are then a small part of what was dispatched, and queue runs take
# several requests per lock hold (lock_stats batched > batches); with
# sequential I/O bios merge into the queued requests (lock_stats merges).
# (Sequential requests merge into so few that the scheduler often runs
# empty, and then the next one rightly bypasses it.)

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

name=${DEV##*/}
q=/sys/block/$name
sched=$(sched_file "$DEV")
[ -d "$q/mq" ] || skip "$DEV is not on smq's mq path"
say mq-deadline >"$sched" || fail "cannot select mq-deadline on $DEV"
stats=$q/smq/iosched/lock_stats
[ -r "$stats" ] || fail "no $stats with mq-deadline"
grep -q batched "$stats" || fail "no dispatch batch counters in $stats: $(cat "$stats")"
depth=$q/device/queue_depth
[ -w "$depth" ] || skip "$DEV has no writable device/queue_depth"
old_depth=$(cat "$depth")

# hsum FILE: the sum of mq/*/FILE over the hardware queues.
hsum() {
	_s=0
	for _f in "$q"/mq/*/"$1"; do
		_s=$((_s + $(cat "$_f")))
	done
	say "$_s"
}

# lstat KEY: a field of lock_stats.
lstat() {
	# shellcheck disable=SC2046 # "key value" pairs
	set -- "$1" $(cat "$stats")
	_k=$1
	shift
	while [ $# -ge 2 ]; do
		[ "$1" = "$_k" ] && { say "$2"; return; }
		shift 2
	done
	fail "no $_k in $stats: $(cat "$stats")"
}

# ios: reads plus writes completed by the disk (/sys/block/X/stat).
ios() {
	# shellcheck disable=SC2046 # the stat fields
	set -- $(cat "$q/stat")
	say $(($1 + $5))
}

# 1. Idle queue: QD1 random reads, one at a time.
d0=$(hsum direct); p0=$(hsum dispatched); a0=$(lstat acquired); i0=$(ios)
fio --name=qd1 --filename="$DEV" --ioengine=psync --direct=1 --bs=4k \
	--rw=randread --size=64m --number_ios=2000 \
	>"$SMQ_TEST_TMP/qd1.out" 2>&1 || { cat "$SMQ_TEST_TMP/qd1.out"; fail "fio qd1 failed"; }
d1=$(hsum direct); p1=$(hsum dispatched); a1=$(lstat acquired); i1=$(ios)
n=$((i1 - i0)); dd=$((d1 - d0)); dp=$((p1 - p0)); da=$((a1 - a0))
say "QD1: $n I/Os, $dd direct, $dp dispatched, $da scheduler lock acquisitions"
[ "$n" -ge 2000 ] || fail "fio did $n I/Os, expected 2000"
# Nothing waits anywhere: (almost) every request is issued directly.
[ $((dd * 10)) -ge $((n * 9)) ] || fail "only $dd of $n QD1 requests were issued directly"
[ $((da * 10)) -le "$n" ] || fail "$da scheduler lock rounds for $n QD1 requests"

# busy RW: fio RW (4k, two jobs at iodepth 32, reads and writes apart) for
# 3 s at queue depth 4, so that requests wait in the scheduler; prints the
# change of direct, dispatched, merges, batches and batched.
busy() {
	_d0=$(hsum direct); _p0=$(hsum dispatched); _g0=$(lstat merges)
	_b0=$(lstat batches); _r0=$(lstat batched)
	say 4 >"$depth" || fail "cannot set $depth to 4"
	fio --ioengine=libaio --direct=1 --bs=4k --iodepth=32 --size=64m \
		--time_based --runtime=3 --filename="$DEV" \
		--name=reads --rw="$1"read --offset=0 \
		--name=writes --rw="$1"write --offset=64m \
		>"$SMQ_TEST_TMP/busy.out" 2>&1
	_rc=$?
	say "$old_depth" >"$depth"
	[ "$_rc" = 0 ] || { cat "$SMQ_TEST_TMP/busy.out" >&2; fail "fio $1 failed"; }
	say $(($(hsum direct) - _d0)) $(($(hsum dispatched) - _p0)) \
		$(($(lstat merges) - _g0)) $(($(lstat batches) - _b0)) \
		$(($(lstat batched) - _r0))
}

# 2. Busy queue, random I/O: requests wait in the scheduler, new ones
# queue behind them (the scheduler seldom runs empty), and queue runs take
# several requests per lock hold.
out=$(busy rand) || exit
# shellcheck disable=SC2086 # five numbers
set -- $out
say "random, queue depth 4: $2 dispatched, $1 direct, $5 requests in $4 dispatch batches"
[ "$2" -gt 0 ] || fail "nothing dispatched at queue depth 4"
[ $(($1 * 4)) -le "$2" ] || fail "$1 of $2 requests bypassed a busy scheduler"
[ "$4" -gt 0 ] || fail "no dispatch batch"
[ "$5" -gt "$4" ] || fail "queue runs took one request per lock hold ($5 in $4)"

# 3. Busy queue, sequential I/O: bios merge into the queued requests.
out=$(busy "") || exit
# shellcheck disable=SC2086 # five numbers
set -- $out
say "sequential, queue depth 4: $2 dispatched, $1 direct, $3 merges"
[ "$3" -gt 0 ] || fail "no bio merged into a queued request"
exit 0
