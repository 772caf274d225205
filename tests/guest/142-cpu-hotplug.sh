#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: cpu-hotplug
# timeout: 600
#
# CPUs go offline and online in a loop while fio write+verify runs on every
# LUN of the host: CPU 1, 2, ... (every CPU but 0) are taken down one after
# the other, then brought back, until fio's passes end (at least two
# rounds).  With one CPU per hardware queue (VCPUS=4, QUEUES=4) each offline
# CPU takes the last CPU of a hardware queue: smq_blk drains that queue and
# re-routes its submitters (smq_cpuhp.c).  No fio error or corrupt block, no
# hang; afterwards every CPU is online and every disk does I/O.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

cpus=
for c in /sys/devices/system/cpu/cpu[1-9]*; do
	[ -w "$c/online" ] && cpus="$cpus ${c##*cpu}"
done
[ -n "$cpus" ] || skip "no CPU can go offline"
disks=
for d in /sys/block/*; do
	[ -e "$d/smq" ] && disks="$disks ${d##*/}"
done
say "hotplug CPUs:$cpus; disks:$disks"

online() { # CPU 0|1
	say "$2" >"/sys/devices/system/cpu/cpu$1/online" ||
		fail "cpu$1: writing $2 to online failed"
}

# shellcheck disable=SC2086 # disks is a word list
fio_bg_start $disks
rounds=0
while fio_bg_busy || [ "$rounds" -lt 2 ]; do
	for c in $cpus; do
		online "$c" 0
		sleep 0.2
	done
	for c in $cpus; do
		online "$c" 1
		sleep 0.2
	done
	rounds=$((rounds + 1))
done
say "$rounds rounds while fio ran; online: $(cat /sys/devices/system/cpu/online)"
fio_bg_judge
for d in $disks; do
	dd if="/dev/$d" of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null ||
		fail "/dev/$d does no I/O after the hotplug rounds"
done
exit 0
