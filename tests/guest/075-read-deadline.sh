#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: read-deadline
# timeout: 180
#
# With a deadline scheduler and the LUN's queue depth at 1 (so requests
# wait in the scheduler), a stream of writes does not starve a reader: no
# read waits longer than read_expire plus slack (one write batch and the
# emulator's slowness).

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

name=${DEV##*/}
sched=$(sched_file "$DEV")
want=
for s in mq-deadline deadline; do
	grep -qw "$s" "$sched" 2>/dev/null && want=$s && break
done
[ -n "$want" ] || skip "no deadline scheduler for $DEV"
echo "$want" >"$sched" || fail "cannot select $want"
iosched=${sched%/scheduler}/iosched
expire=$(cat "$iosched/read_expire" 2>/dev/null || echo 500)
depth=/sys/block/$name/device/queue_depth
[ -w "$depth" ] && echo 1 >"$depth"
slack=${READ_SLACK_MS:-1500}

fio --output-format=terse --terse-version=3 \
	--filename="$DEV" --direct=1 --ioengine=libaio --time_based --runtime=10 \
	--name=writers --rw=randwrite --bs=64k --iodepth=64 --numjobs=2 \
	--name=reader --rw=randread --bs=4k --iodepth=1 \
	>"$SMQ_TEST_TMP/fio.terse" || fail "fio failed"
# terse v3: field 3 is the job name; read clat max (usec) is field 15.
max_us=$(awk -F';' '$3 == "reader" { print $15 }' "$SMQ_TEST_TMP/fio.terse")
reads=$(awk -F';' '$3 == "reader" { print $6 }' "$SMQ_TEST_TMP/fio.terse")
say "scheduler $want, read_expire $expire ms: reader did $reads reads, worst completion latency $((max_us / 1000)) ms"
[ -n "$max_us" ] || fail "no reader result"
[ "${reads:-0}" -gt 0 ] || fail "the reader completed no read in 10 s"
[ $((max_us / 1000)) -le $((expire + slack)) ] || fail "a read waited $((max_us / 1000)) ms (read_expire $expire ms + $slack ms)"
exit 0
