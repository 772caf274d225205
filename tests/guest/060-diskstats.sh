#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: diskstats
# timeout: 120
#
# /proc/diskstats counts what fio did: a random read and a random write pass
# of known size (4 KiB blocks, merges off) move the disk's completed reads,
# writes and sectors by exactly fio's I/O counts, and nothing stays in flight.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

name=${DEV##*/}
ios=2048
bs=4096

# diskstats_field N: field N (1-based after the name) of this disk's line.
diskstats_field() {
	awk -v d="$name" -v n="$1" '$3 == d { print $(3 + n) }' /proc/diskstats
}

for f in /sys/block/"$name"/smq/nomerges /sys/block/"$name"/queue/nomerges; do
	[ -w "$f" ] && echo 2 >"$f"
done

r0=$(diskstats_field 1); rs0=$(diskstats_field 3)
w0=$(diskstats_field 5); ws0=$(diskstats_field 7)
fio --name=ds-read --filename="$DEV" --rw=randread --bs=$bs --direct=1 \
	--ioengine=libaio --iodepth=16 --size=$((ios * bs)) --randrepeat=1 \
	>/dev/null || fail "fio read pass failed"
fio --name=ds-write --filename="$DEV" --rw=randwrite --bs=$bs --direct=1 \
	--ioengine=libaio --iodepth=16 --size=$((ios * bs)) --randrepeat=1 \
	>/dev/null || fail "fio write pass failed"
r1=$(diskstats_field 1); rs1=$(diskstats_field 3)
w1=$(diskstats_field 5); ws1=$(diskstats_field 7)
inflight=$(diskstats_field 9)

say "reads $((r1 - r0)) sectors $((rs1 - rs0)); writes $((w1 - w0)) sectors $((ws1 - ws0)); in flight $inflight"
[ $((r1 - r0)) -eq $ios ] || fail "diskstats counted $((r1 - r0)) reads, fio did $ios"
[ $((rs1 - rs0)) -eq $((ios * bs / 512)) ] || fail "read sectors $((rs1 - rs0)), expected $((ios * bs / 512))"
[ $((w1 - w0)) -eq $ios ] || fail "diskstats counted $((w1 - w0)) writes, fio did $ios"
[ $((ws1 - ws0)) -eq $((ios * bs / 512)) ] || fail "write sectors $((ws1 - ws0)), expected $((ios * bs / 512))"
[ "$inflight" -eq 0 ] || fail "$inflight I/Os still in flight after fio ended"
exit 0
