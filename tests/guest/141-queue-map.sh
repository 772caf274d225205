#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: queue-map
# timeout: 600
#
# Rewrite a running host's CPU -> hardware queue map
# (/sys/class/smq_host/hostN/queue_map, "Q: cpu-list" per line) while fio
# write+verify runs on every LUN of it: with 2 hardware queues the map
# cycles through all CPUs on queue 0, the even CPUs on 0 and the odd on 1,
# the last CPU alone on 0, all CPUs on 1, until fio's passes end.  After
# each write queue_map reads back the map written and every disk's
# mq/<n>/cpu_list agrees.  No fio error or corrupt block.  Then bad maps (a
# CPU left out, a CPU twice, a queue out of range, junk) fail with EINVAL
# and a message; writing nr_hw_queues goes back to the driver's map.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

h=
for c in /sys/class/smq_host/host*; do
	[ -e "$c/queue_map" ] && h=$c
done
[ -n "$h" ] || skip "no smq host with queue_map"
m=$h/queue_map
if [ "$(cat "$h/use_blk_mq")" = 0 ]; then
	say "0: 0" >"$m" 2>/dev/null && fail "legacy host accepted a queue_map"
	exit 0
fi
[ "$(cat "$h/max_hw_queues")" -ge 2 ] || skip "needs 2 CPUs or more"
say 2 >"$h/nr_hw_queues" || fail "cannot set 2 hardware queues"
last=$(sed 's/.*[-,]//' /sys/devices/system/cpu/possible)
[ "$(cat /sys/devices/system/cpu/possible)" = "0-$last" ] ||
	skip "possible CPUs $(cat /sys/devices/system/cpu/possible) not 0-N"
all="0-$last"
if [ "$last" = 1 ]; then
	even=0 odd=1 rest=0
else
	even=$(seq 0 2 "$last" | paste -sd, -) odd=$(seq 1 2 "$last" | paste -sd, -)
	rest=0-$((last - 1))
	[ "$last" = 2 ] && rest=0-1
fi
[ "$last" = 1 ] && rest=0

disks=
for d in /sys/block/*; do
	[ -e "$d/smq" ] && disks="$disks ${d##*/}"
done

# apply Q0-LIST Q1-LIST: write the map, check every view of it.
apply() {
	printf '0: %s\n1: %s\n' "$1" "$2" >"$m" || { say "writing 0: $1 / 1: $2 failed"; return 1; }
	_want=$(printf '0: %s\n1: %s' "$1" "$2")
	[ "$(cat "$m")" = "$_want" ] || { say "queue_map reads:"; cat "$m"; return 1; }
	for _d in $disks; do
		if [ "$(cpu_set "$(cat "/sys/block/$_d/mq/0/cpu_list")")" != "$(cpu_set "$1")" ] ||
			[ "$(cpu_set "$(cat "/sys/block/$_d/mq/1/cpu_list")")" != "$(cpu_set "$2")" ]; then
			say "$_d: mq cpu_list $(cat "/sys/block/$_d/mq/"*/cpu_list | tr '\n' ' ')"
			return 1
		fi
	done
}

# shellcheck disable=SC2086 # disks is a word list
fio_bg_start $disks
changes=0
while fio_bg_busy || [ "$changes" -lt 4 ]; do
	apply "$all" "" || fail "map: all CPUs on 0"
	apply "$even" "$odd" || fail "map: even/odd"
	apply "$last" "$rest" || fail "map: last CPU alone"
	apply "" "$all" || fail "map: all CPUs on 1"
	changes=$((changes + 4))
	sleep 0.2
done
say "$changes maps while fio ran"
fio_bg_judge

# Bad maps: EINVAL, a message, the map unchanged.
apply "$even" "$odd" || fail "map: even/odd"
bad() {
	printf '%b' "$1" >"$m" 2>/dev/null && fail "queue_map accepted '$1'"
	dmesg | tail -n 5 | grep -q "queue_map: $2" || fail "no message '$2' for '$1'"
}
bad "0: 0\n" "CPU 1 not mapped"
bad "0: $all\n1: 0\n" "CPU 0 given twice"
bad "2: $all\n" "queue '2' not in 0..1"
bad "junk\n" "'junk': not 'queue: cpu-list'"
[ "$(cat "$m")" = "$(printf '0: %s\n1: %s' "$even" "$odd")" ] ||
	fail "a bad map changed the map"
# A new count drops the user's map for the driver's.
say 2 >"$h/nr_hw_queues"
say 1 >"$h/nr_hw_queues" || fail "count change to 1 failed"
say 2 >"$h/nr_hw_queues" || fail "count change to 2 failed"
[ "$(cat "$m")" != "$(printf '0: %s\n1: %s' "$even" "$odd")" ] || [ "$last" = 1 ] ||
	fail "the user's map survived a count change"
exit 0
