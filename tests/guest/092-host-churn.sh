#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: host-churn
# timeout: 300
#
# Hosts come and go while every LUN of every host runs fio: ROUNDS (target
# spec; default 2, 5 in make check-long and the debug lane) rounds of
# removing the first host under I/O (its LUNs' queues drain while LUNs of
# the other host keep completing, rerunning starved LUNs) and adding one
# back.  Meant for a scarce host (small can_queue, several LUNs, so LUNs wait
# on the host's starved list) on both paths, with slub_debug poisoning or on
# the debug kernel.  No fio may hang; the survivors must do I/O afterwards.
# Each removal races a "- - -" scan of every host and the delete of one LUN
# (sysfs "scan" and "delete"); afterwards a scan of every host brings the
# deleted LUNs back.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev
p=/sys/module/smq_sas/parameters
[ -w "$p/add_host" ] || skip "$DEV is not an smq_sas disk"
hosts=$(cat "$p/add_host")
[ "$hosts" -ge 2 ] || skip "needs HOSTS >= 2"

rounds=${TARGET_ROUNDS:-2}
round=1
while [ "$round" -le "$rounds" ]; do
	pids=
	for d in /sys/block/*; do
		[ -e "$d/smq" ] || continue
		fio --name=churn --filename="/dev/${d##*/}" --ioengine=libaio --direct=1 \
			--rw=randrw --bs=4k --iodepth=32 --time_based --runtime=6 \
			--output=/dev/null >/dev/null 2>&1 &
		pids="$pids $!"
	done
	sleep 2
	racers=
	for hd in /sys/class/smq_host/host*; do
		say "- - -" >"$hd/scan" 2>/dev/null &
		racers="$racers $!"
	done
	for d in /sys/block/*; do
		[ -e "$d/smq" ] && victim=$d
	done
	say 1 >"$victim/device/delete" 2>/dev/null &
	racers="$racers $!"
	say -1 >"$p/add_host" || fail "removing a host failed (round $round)"
	say 1 >"$p/add_host" || fail "adding a host failed (round $round)"
	for pid in $racers; do
		# A scan or delete may fail against the removed host; each must end.
		wait "$pid" 2>/dev/null
	done
	for hd in /sys/class/smq_host/host*; do
		say "- - -" >"$hd/scan" || fail "scan of $hd failed (round $round)"
	done
	for pid in $pids; do
		# fio on the removed host's disks fails; it must still end.
		run_with_timeout 60 sh -c "while kill -0 $pid 2>/dev/null; do sleep 0.2; done" ||
			fail "fio $pid did not end (round $round)"
		wait "$pid" 2>/dev/null
	done
	[ "$(cat "$p/add_host")" = "$hosts" ] || fail "hosts: $(cat "$p/add_host"), want $hosts"
	say "round $round: host removed under I/O and added back"
	round=$((round + 1))
done
# shellcheck disable=SC2016 # expanded by the inner sh
wait_until 30 sh -c '[ "$(ls -d /sys/block/*/smq | wc -l)" -ge 2 ]' || fail "disks missing"
for d in /sys/block/*; do
	[ -e "$d/smq" ] || continue
	dd if="/dev/${d##*/}" of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null ||
		fail "/dev/${d##*/} does no I/O after the churn"
done
exit 0
