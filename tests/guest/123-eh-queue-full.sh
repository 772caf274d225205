#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-queue-full
# timeout: 180
#
# TASK SET FULL ramps the LUN's queue depth down to what it holds then,
# and the ramp up brings it back one step per queue_ramp_up_period.  The
# user sets queue_depth 24 and queue_ramp_up_period 300 ms; fio keeps 32
# WRITEs queued; three WRITEs are answered TASK SET FULL.  Sampled every
# 100 ms, device/queue_depth must drop below 24 and be back at 24 before
# fio ends (8 s), and fio must not fail (the WRITEs are requeued).  On
# scsi_debug (Linux ramps down only after repeated queue fulls at one
# depth) the samples are recorded, not judged.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
need_cmd fio
need_scsi
inject_ready

qd=$(sdev_attr "$DEV" queue_depth)
ramp=$(sdev_attr "$DEV" queue_ramp_up_period)
old=$(cat "$qd")
say 24 >"$qd" || fail "cannot set queue_depth"
say 300 >"$ramp" 2>/dev/null || say "no queue_ramp_up_period"
trap 'say "$old" >"$qd"' EXIT

fio --name=qfull --filename="$DEV" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=32 --size=8m --time_based --runtime=8 \
	>"$SMQ_TEST_TMP/fio.out" 2>&1 &
fio_pid=$!
sleep 1
inject "$DEV" 2 -3 0x2a 0 0 0x28 0 0 0 || fail "cannot inject TASK SET FULL"
min=24
last=24
while kill -0 "$fio_pid" 2>/dev/null; do
	last=$(cat "$qd")
	[ "$last" -lt "$min" ] && min=$last
	printf '%s ' "$last"
	sleep 0.1
done
say
wait "$fio_pid"
rc=$?
cat "$SMQ_TEST_TMP/fio.out"
say "queue_depth: lowest $min, last $last"
[ "$rc" = 0 ] || fail "fio failed across TASK SET FULL"
if [ "$(inject_drv)" = smq_sas ]; then
	[ "$min" -lt 24 ] || fail "TASK SET FULL did not ramp the depth down"
	[ "$(cat "$qd")" = 24 ] || fail "the depth did not ramp back up to 24"
fi
exit 0
