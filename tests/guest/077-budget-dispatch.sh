#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: budget-dispatch
# timeout: 240
#
# Dispatch without a scheduler while the LUN's queue depth is the limit
# (device/queue_depth 4, fio write+verify with 2 jobs x iodepth 64, commands
# completing after a delay: run it with IRQMODE=2 and NSEC): requests that
# the device cannot take yet wait in their software queues and go one by
# one, each on a budget taken first, instead of being spilled onto the
# hardware queue's dispatch list, where every run used to walk them all and
# put them back. Sampled during the load: the dispatch list (debugfs
# hctxN/dispatch) stays short in most samples, the commands at the LUN never
# exceed its queue depth, the budget was short (mq/N/busy grows), and the
# data verifies. (Negative control: before the one-by-one dispatch the
# dispatch list held ~120 requests in every sample.) smq's own files: the
# kernel's blk-mq spills onto its dispatch list between its one-by-one
# rounds, so this is no property of the kernel's peers.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

name=${DEV##*/}
q=/sys/block/$name
[ -d "$q/mq" ] || skip "$DEV is not on a multiqueue path"
[ -d "$q/smq" ] || skip "$DEV is not an smq disk"
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug || skip "no debugfs"
dbg=/sys/kernel/debug/smq/$name
ls "$dbg"/hctx*/dispatch >/dev/null 2>&1 || fail "no $dbg/hctx*/dispatch"
depth_file=$q/device/queue_depth
[ -w "$depth_file" ] || skip "$DEV has no writable device/queue_depth"
busy_file=$q/device/device_busy
[ -r "$busy_file" ] || fail "no $busy_file"
say none >"$(sched_file "$DEV")" || fail "cannot select none on $DEV"
old_depth=$(cat "$depth_file")
depth=4
say "$depth" >"$depth_file" || fail "cannot set queue_depth $depth"
trap 'say "$old_depth" >"$depth_file"' EXIT

# hsum FILE: the sum of mq/*/FILE over the hardware queues.
hsum() {
	_s=0
	for _f in "$q"/mq/*/"$1"; do
		_s=$((_s + $(cat "$_f")))
	done
	say "$_s"
}

# queued_on_dispatch: requests on every hardware queue's dispatch list.
queued_on_dispatch() {
	cat "$dbg"/hctx*/dispatch | wc -l
}

busy0=$(hsum busy)
say "fio randread 4k, 2 jobs x iodepth 64, 6 s, sampled every 0.2 s"
fio --filename="$DEV" --ioengine=libaio --direct=1 --rw=randread --bs=4k \
	--iodepth=64 --numjobs=2 --time_based --runtime=6 --norandommap \
	--group_reporting --name=budget >"$SMQ_TEST_TMP/fio.out" 2>&1 &
fio_pid=$!
samples=0
long=0
max_busy=0
longest=0
seen=
sleep 1
while kill -0 "$fio_pid" 2>/dev/null && [ "$samples" -lt 40 ]; do
	n=$(queued_on_dispatch)
	b=$(cat "$busy_file")
	[ "$b" -gt "$max_busy" ] && max_busy=$b
	[ "$n" -gt "$longest" ] && longest=$n
	seen="$seen $n/$b"
	# Beyond what one run spills at a time: the software queues' share
	[ "$n" -gt $((4 * depth)) ] && long=$((long + 1))
	samples=$((samples + 1))
	sleep 0.2
done
wait "$fio_pid" || { cat "$SMQ_TEST_TMP/fio.out"; fail "fio randread failed"; }
grep -E 'IOPS|err=' "$SMQ_TEST_TMP/fio.out"
say "dispatch list / commands at the LUN, per sample:$seen"
busy=$(($(hsum busy) - busy0))
say "samples $samples: dispatch list > $((4 * depth)) in $long (longest $longest);" \
	"commands at the LUN at most $max_busy (queue_depth $depth); mq busy +$busy"
[ "$samples" -ge 10 ] || fail "only $samples samples during fio: too short a load to judge"
[ "$max_busy" -le "$depth" ] || fail "$max_busy commands at the LUN, queue_depth is $depth"
[ "$busy" -gt 0 ] || fail "the budget never ran short (mq busy +0): the limit was not reached"
[ $((long * 4)) -le "$samples" ] ||
	fail "the dispatch list held over $((4 * depth)) requests in $long of $samples samples"

# The same path under writes: the data must verify.
FIO_VERIFY_JOBS=2 FIO_VERIFY_DEPTH=64 FIO_VERIFY_SIZE=${FIO_VERIFY_SIZE:-8388608}
export FIO_VERIFY_JOBS FIO_VERIFY_DEPTH FIO_VERIFY_SIZE
fio_bg_start "$name"
fio_bg_judge
say "PASS: budget-limited dispatch from the software queues; data verified"
