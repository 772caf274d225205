#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: nr-hw-queues
# timeout: 600
#
# Change a running host's hardware queue count while fio write+verify runs
# on every LUN of it: /sys/class/smq_host/hostN/nr_hw_queues cycles
# 1 -> 4 -> 2 -> 3 -> 1 (counts above max_hw_queues, i.e. the CPUs, are
# left out) until fio's write and verify passes end.  After each change
# the host, every disk's smq/nr_hw_queues, mq/ and debugfs hctx<N>/ show
# the new count and hostN/queue_map names that many queues.  fio must see
# no error and no corrupt block (a lost write fails the verify); the dmesg
# gate catches the rest.  Then bad values (0, max + 1, junk) must fail with
# EINVAL and one message naming the value.  On a use_blk_mq=N host every
# write must fail with EINVAL.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

h=
for c in /sys/class/smq_host/host*; do
	[ -e "$c/nr_hw_queues" ] && h=$c
done
[ -n "$h" ] || skip "no smq host"
f=$h/nr_hw_queues

if [ "$(cat "$h/use_blk_mq")" = 0 ]; then
	say 1 >"$f" 2>/dev/null && fail "legacy host accepted nr_hw_queues"
	dmesg | grep -q "nr_hw_queues: the legacy path" ||
		fail "no message for the legacy host"
	say "legacy host: nr_hw_queues refused"
	exit 0
fi
max=$(cat "$h/max_hw_queues")
[ "$max" -ge 2 ] || skip "max_hw_queues $max: needs 2 CPUs or more"
old=$(cat "$f")

disks=
for d in /sys/block/*; do
	[ -e "$d/smq" ] && disks="$disks ${d##*/}"
done
say "host ${h##*/}: max_hw_queues $max, now $old; disks:$disks"

# count PATH...: how many paths a glob matched.
count() {
	if [ -e "$1" ]; then say "$#"; else say 0; fi
}

# check N: every view of the host shows N hardware queues.
check() {
	[ "$(cat "$f")" = "$1" ] || { say "$f: $(cat "$f"), want $1"; return 1; }
	[ "$(grep -c ':' "$h/queue_map")" = "$1" ] ||
		{ say "queue_map:"; cat "$h/queue_map"; return 1; }
	for _d in $disks; do
		[ "$(cat "/sys/block/$_d/smq/nr_hw_queues")" = "$1" ] ||
			{ say "$_d: smq/nr_hw_queues $(cat "/sys/block/$_d/smq/nr_hw_queues")"; return 1; }
		[ "$(count "/sys/block/$_d/mq/"*)" = "$1" ] ||
			{ say "$_d: mq/: $(ls "/sys/block/$_d/mq")"; return 1; }
		_dbg=/sys/kernel/debug/smq/$_d
		if [ -d "$_dbg" ]; then
			[ "$(count "$_dbg"/hctx*)" = "$1" ] ||
				{ say "$_d: debugfs: $(ls "$_dbg")"; return 1; }
		fi
	done
}

[ -d /sys/kernel/debug/smq ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true

# shellcheck disable=SC2086 # disks is a word list
fio_bg_start $disks

changes=0
while fio_bg_busy || [ "$changes" -lt 4 ]; do
	for n in 1 4 2 3; do
		[ "$n" -le "$max" ] || continue
		say "$n" >"$f" || fail "writing $n to nr_hw_queues failed"
		check "$n" || fail "views disagree after $n"
		changes=$((changes + 1))
		sleep 0.3
	done
done
say 1 >"$f" || fail "writing 1 failed"
check 1 || fail "views disagree after 1"
say "$changes changes while fio ran"

fio_bg_judge

# Bad values: EINVAL and a message naming the value, nothing changed.
for v in 0 $((max + 1)) junk; do
	say "$v" >"$f" 2>/dev/null && fail "nr_hw_queues accepted $v"
	dmesg | grep -q "nr_hw_queues: invalid value '$v'" ||
		fail "no message naming $v"
done
check 1 || fail "a bad value changed the queues"
say "$old" >"$f" || fail "writing back $old failed"
check "$old" || fail "views disagree after $old"
exit 0
