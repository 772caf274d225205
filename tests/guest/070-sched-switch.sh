#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sched-switch
# timeout: 300
#
# Switch the I/O scheduler every 100-200 ms while fio write+verify runs
# (SWITCH_SECS, default 30 s), and at the same time change the LUN's queue
# depth (device/queue_depth: 4, 32, 1, 64) every 50 ms, which reruns the
# queues while the scheduler under them changes: no verify error, no hang,
# clean dmesg.  smq disks switch through /sys/block/X/smq/scheduler, the
# kernel's own through queue/scheduler.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

sched=$(sched_file "$DEV")
[ -w "$sched" ] || skip "$DEV has no scheduler file"
# The file lists only loaded schedulers: select smq's modular one of this
# path once (loading its module), then go back.
mode=/sys/block/${DEV##*/}/smq/queue_mode
if [ -r "$mode" ]; then
	old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sched")
	case $(cat "$mode") in
	mq) say mq-deadline >"$sched" ;;
	*) say deadline >"$sched" ;;
	esac || fail "cannot select smq's modular scheduler on $DEV"
	say "$old" >"$sched" || fail "cannot select $old again on $DEV"
fi
names=$(tr -d '[]' <"$sched")
[ "$(say "$names" | wc -w)" -ge 2 ] || skip "only one scheduler ($names) for $DEV"
say "switching $sched among: $names"

secs=${SWITCH_SECS:-30}
stop=$SMQ_TEST_TMP/stop
(
	n=0
	while [ ! -e "$stop" ]; do
		for s in $names; do
			[ -e "$stop" ] && break
			echo "$s" >"$sched" || { say "switch to $s failed"; exit 1; }
			n=$((n + 1))
			usleep $((100000 + (n % 11) * 10000))
		done
	done
	say "$n switches"
) &
switcher=$!

qd=/sys/block/${DEV##*/}/device/queue_depth
qd_old=
depther=
if [ -w "$qd" ]; then
	qd_old=$(cat "$qd")
	(
		n=0
		while [ ! -e "$stop" ]; do
			for d in 4 32 1 64; do
				echo "$d" >"$qd" 2>/dev/null && n=$((n + 1))
				usleep 50000
			done
		done
		say "$n queue depth changes"
		[ "$n" -gt 0 ]
	) &
	depther=$!
fi

FIO_VERIFY_SIZE=${FIO_VERIFY_SIZE:-4194304}
export FIO_VERIFY_SIZE
end=$(($(date +%s) + secs))
rounds=0
rc=0
while [ "$(date +%s)" -lt "$end" ]; do
	fio_write_verify "$DEV" >"$SMQ_TEST_TMP/fio.log" 2>&1
	rc=$?
	rounds=$((rounds + 1))
	[ "$rc" = 0 ] || break
done
: >"$stop"
wait "$switcher"
swrc=$?
qdrc=0
if [ -n "$depther" ]; then
	wait "$depther" || qdrc=1
	say "$qd_old" >"$qd"
fi
say "$rounds write+verify rounds, last status $rc"
[ "$rc" = 0 ] || { cat "$SMQ_TEST_TMP/fio.log"; fail "fio verify failed while switching schedulers"; }
[ "$swrc" = 0 ] || fail "a scheduler switch failed"
[ "$qdrc" = 0 ] || fail "no queue depth change was accepted"
say "scheduler now: $(cat "$sched")"
exit 0
