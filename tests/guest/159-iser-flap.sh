#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-flap
# timeout: 200
#
# The same link flap on smq_iser and on the kernel's ib_iser + open-iscsi:
# a 5 s outage (LIO's tpg disabled) under a random-write load of 2 fio jobs
# at iodepth 16. Both must hold the LUN ("blocked" in device/state) instead
# of failing or spinning (where the disk has smq's per-queue run counters,
# fewer than 100 runs in 3 s), resume I/O within 5 s of the target's return
# (first read completed), end with no fio error, and leave the LUN
# "running". Prints the measured figures (FLAP lines) for the comparison.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
need_cmd fio
need_dev
[ -d "$LIO/iscsi/${ISER_IQN}0" ] || skip "not an iSER target of lib/iser.sh"
d=${DEV##*/}
# shellcheck disable=SC2317 # run by the EXIT trap
restore() { lio_tpg_enable 0 2>/dev/null; }
trap restore EXIT
runs() { cat /sys/block/"$d"/mq/*/runs 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
now() { awk '{ print $1 }' /proc/uptime; }

fio --name=flap --filename="$DEV" --ioengine=libaio --direct=1 --rw=randwrite --bs=4k \
	--iodepth=16 --numjobs=2 --time_based --runtime=25 --group_reporting \
	--output="$SMQ_TEST_TMP/f.out" >/dev/null 2>&1 &
f=$!
sleep 5
kill -0 "$f" 2>/dev/null || { cat "$SMQ_TEST_TMP/f.out"; fail "fio ended before the outage"; }
lio_tpg_disable 0 || fail "cannot disable the tpg"
sleep 1
st=$(cat "/sys/block/$d/device/state")
r0=$(runs)
sleep 3
r=$(($(runs) - r0))
sleep 1
lio_tpg_enable 0 || fail "cannot re-enable the tpg"
t0=$(now)
n=0
until dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -lt 600 ] || fail "no I/O 30 s after the target came back"
	sleep 0.05
done
resume=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
rc=0
wait "$f" || rc=$?
after=$(cat "/sys/block/$d/device/state")
say "FLAP state_during=$st queue_runs_3s=$r resume_s=$resume fio_status=$rc state_after=$after"
grep -E "err=|IOPS" "$SMQ_TEST_TMP/f.out" | sed 's/^/FLAP /'
[ "$st" = blocked ] || fail "LUN state '$st' during the outage, not blocked"
[ "$r" -lt 100 ] || fail "$r queue runs in 3 s of outage: polled busy"
[ "$rc" = 0 ] || fail "fio failed across a 5 s outage (status $rc)"
grep -q 'err= 0' "$SMQ_TEST_TMP/f.out" || fail "fio reported an error across a 5 s outage"
awk -v r="$resume" 'BEGIN { exit !(r <= 5) }' || fail "I/O resumed $resume s after the target's return, not within 5 s"
[ "$after" = running ] || fail "LUN state '$after' after the outage"
exit 0
