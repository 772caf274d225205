#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-lun-scoped
# timeout: 180
#
# Recovery of one LUN does not stop the others (needs 2 LUNs: smq_sas
# LUNS=2, scsi_debug OPTS=max_luns=2).
# fio reads LUN 1 all along.  On LUN 0 (device timeout 2 s, eh_timeout
# 2 s) one READ is dropped, its abort fails and the TEST UNIT READY after
# the LUN reset is dropped too: LUN 0 stays in recovery for seconds (LUN
# reset, TUR timeout, target reset).  Reads completed on each LUN are
# sampled from /sys/block/X/stat every 200 ms: LUN 0 must stall (at least
# 2 s without a completed read) while LUN 1 never goes 1 s without one.
# On scsi_debug Linux's error handler stops the whole host: the stall of
# LUN 1 is recorded, not judged.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
need_cmd fio
need_scsi
inject_ready
if [ "$(say "${DEVS:-}" | wc -w)" -lt 2 ]; then
	# scsi_debug's target lists one disk: take the LUNs of DEV's target.
	h=$(inject_hctl "$DEV")
	DEVS=
	for b in /sys/block/*; do
		[ -e "$b/device" ] || continue
		case $(inject_hctl "${b##*/}") in
		"${h%:*}":*) DEVS="$DEVS /dev/${b##*/}" ;;
		esac
	done
fi
# shellcheck disable=SC2086 # DEVS is a word list
set -- $DEVS
[ $# -ge 2 ] || skip "needs 2 LUNs (LUNS=2)"
lun0=$1
lun1=$2
for d in "$lun0" "$lun1"; do
	say "$d: $(inject_hctl "$d")"
done

t=$(sdev_attr "$lun0" timeout)
old=$(cat "$t")
say 2 >"$t" || fail "cannot set $t"
say 2 >"$(sdev_attr "$lun0" eh_timeout)" 2>/dev/null || say "no eh_timeout"
trap 'say "$old" >"$t"' EXIT

fio --name=lun1 --filename="$lun1" --rw=randread --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=4 --size=16m --time_based --runtime=30 \
	>"$SMQ_TEST_TMP/fio1.out" 2>&1 &
fio1=$!
# LUN 0: single reads in a loop, one of which gets stuck.
(
	i=0
	while [ "$i" -lt 4000 ]; do
		dd if="$lun0" of=/dev/null bs=4096 count=1 skip=$((i % 1000)) iflag=direct 2>/dev/null
		i=$((i + 1))
	done
) &
dd0=$!
sleep 2
inject "$lun0" 3 -1 0x28 || fail "cannot make the abort fail"
inject "$lun0" 0 -1 0x00 || fail "cannot drop a TEST UNIT READY"
inject "$lun0" 0 -1 0x28 || fail "cannot drop a READ"

n=0
r0=$(reads_done "$lun0")
r1=$(reads_done "$lun1")
stall0=0
stall1=0
max0=0
max1=0
while [ "$n" -lt 60 ]; do
	sleep 0.2
	# Judge only while fio runs on LUN 1 (a slow kernel samples slower).
	kill -0 "$fio1" 2>/dev/null || break
	a=$(reads_done "$lun0")
	b=$(reads_done "$lun1")
	if [ "$a" = "$r0" ]; then stall0=$((stall0 + 1)); else stall0=0; fi
	if [ "$b" = "$r1" ]; then stall1=$((stall1 + 1)); else stall1=0; fi
	[ "$stall0" -gt "$max0" ] && max0=$stall0
	[ "$stall1" -gt "$max1" ] && max1=$stall1
	printf '%s/%s ' "$((a - r0))" "$((b - r1))"
	r0=$a
	r1=$b
	n=$((n + 1))
done
say
kill "$dd0" 2>/dev/null
wait "$dd0"
wait "$fio1"
rc=$?
say "$n samples of 200 ms taken while fio ran on LUN 1"
[ "$n" -ge 30 ] || fail "fio on LUN 1 ended after $n samples: too few to judge"

cat "$SMQ_TEST_TMP/fio1.out"
say "longest stall: LUN 0 $((max0 * 200)) ms, LUN 1 $((max1 * 200)) ms"
[ "$rc" = 0 ] || fail "fio on LUN 1 failed"
[ "$max0" -ge 10 ] || fail "LUN 0 did not stall: was the fault injected?"
if [ "$(inject_drv)" = smq_sas ]; then
	[ "$max1" -lt 5 ] || fail "LUN 1 stalled $((max1 * 200)) ms while LUN 0 recovered"
else
	say "scsi_debug: LUN 1 stall recorded, not judged (host-wide error handler)"
fi
grep -q running "$(sdev_attr "$lun0" state)" || fail "LUN 0 not running after recovery"
exit 0
