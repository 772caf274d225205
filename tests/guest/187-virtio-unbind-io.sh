#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-unbind-io
# timeout: 900
#
# The controller unbound under I/O from every CPU, ROUNDS times (default 6;
# target spec ROUNDS=N), on smq's controller vs0 and then on Linux's
# virtio_scsi's vs1 (the same operation on the kernel's stack: the
# reference): fio randrw 4k, one job
# per CPU pinned to it, iodepth 32, libaio, O_DIRECT, time-based; once the
# disk's counters show the load, after a delay that varies per round
# (0.5-2.9 s), the controller is unbound.  The
# unbind must return within 60 s, fio must end within 30 s after it (a
# removed host completes every request it took, with an error if need be),
# the disk must be gone; the controller bound again must bring its disk
# back within 30 s with the same size, and a read of it must work.  On a
# hang the fio threads' kernel stacks, the blocked tasks (sysrq w) and
# smq's debugfs state of the disk's queues are printed.
# Every other round on smq also changes the scheduler (none / mq-deadline,
# deadline / noop on the legacy path) before the load.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio
need_dev
[ -n "${VS_SMQ:-}" ] || skip "needs target smq_virtio"
rounds=${TARGET_ROUNDS:-6}
ncpu=$(grep -c '^processor' /proc/cpuinfo)

# dump_state PID DISK: what a hang looks like from inside: every fio
# thread's state, kernel stack and open files, fio's output so far.
dump_state() {
	for _t in /proc/[0-9]*/task/[0-9]*; do
		[ "$(cat "$_t/comm" 2>/dev/null)" = fio ] || continue
		say "--- fio thread ${_t##*/}: $(grep '^State' "$_t/status" 2>/dev/null)"
		cat "$_t/stack" 2>/dev/null
		for _fd in "${_t%/task/*}"/fd/*; do
			case $(readlink "$_fd") in
			/dev/*) say "  fd ${_fd##*/} -> $(readlink "$_fd")" ;;
			esac
		done
	done
	say "--- fio's output so far:"
	cat "$SMQ_TEST_TMP/load.out"
	[ -w /proc/sysrq-trigger ] && echo w >/proc/sysrq-trigger
	_dbg=/sys/kernel/debug/smq_blk
	[ -d "$_dbg" ] && find "$_dbg" -type f 2>/dev/null | while read -r _f; do
		case "$_f" in
		*/"${2##*/}"/*) say "--- $_f:"; head -c 2000 "$_f" 2>/dev/null ;;
		esac
	done
	return 0
}

# one_round VIRTIO DRIVER C DISK ROUND: unbind VIRTIO (controller vsC, disk
# DISK) from DRIVER under fio from every CPU, bind it back; sets D.
one_round() {
	_size=$(cat "/sys/block/${4##*/}/size")
	_delay=$((5 + ($5 * 7) % 25))
	_delay="$((_delay / 10)).$((_delay % 10))"
	say "round $5 on $2: unbind $1 $_delay s into the load ($ncpu jobs)"
	fio --filename="$4" --ioengine=libaio --direct=1 --iodepth=32 --rw=randrw \
		--bs=4k --size=64m --time_based --runtime=120 --numjobs="$ncpu" \
		--cpus_allowed_policy=split --cpus_allowed="0-$((ncpu - 1))" \
		--group_reporting --name=load >"$SMQ_TEST_TMP/load.out" 2>&1 &
	_fpid=$!
	io_flowing "$4" 30 || { cat "$SMQ_TEST_TMP/load.out"; fail "round $5: no I/O on $4 30 s after fio started"; }
	sleep "$_delay"
	kill -0 "$_fpid" 2>/dev/null || { cat "$SMQ_TEST_TMP/load.out"; fail "fio ended early"; }
	run_with_timeout 60 sh -c "echo $1 >/sys/bus/virtio/drivers/$2/unbind" ||
		{ dump_state "$_fpid" "$4"; fail "round $5: the unbind of $1 from $2 did not return in 60 s"; }
	_n=300
	while kill -0 "$_fpid" 2>/dev/null; do
		_n=$((_n - 1))
		if [ "$_n" -le 0 ]; then
			dump_state "$_fpid" "$4"
			kill -9 "$_fpid"
			fail "round $5: fio hung after the unbind of $1 from $2"
		fi
		sleep 0.1
	done
	if wait "$_fpid"; then
		say "fio ended without an error"
	else
		say "fio ended with an error, as expected"
	fi
	grep -E 'err=|IOPS' "$SMQ_TEST_TMP/load.out" | head -n 3
	vs_wait_gone "$3" 0 || fail "round $5: the disk of vs$3 stayed after the unbind"
	vs_bind "$1" "$2" || fail "round $5: bind $1 to $2 failed"
	D=$(vs_wait_disk "$3" 0) || fail "round $5: no disk $3 30 s after binding $1 to $2"
	[ "$(cat "/sys/block/${D##*/}/size")" = "$_size" ] || fail "$D: size changed"
	dd if="$D" of=/dev/null bs=1M count=4 iflag=direct 2>/dev/null ||
		fail "round $5: $D does not read after the rebind"
}

# set_sched DISK ROUND: alternate the scheduler of smq's disk.
set_sched() {
	_sf=$(sched_file "$1") || return 0
	case "$(cat "$_sf")" in
	*mq-deadline*) _s=$([ $(($2 % 2)) = 0 ] && echo mq-deadline || echo none) ;;
	*deadline*) _s=$([ $(($2 % 2)) = 0 ] && echo deadline || echo noop) ;;
	*) return 0 ;;
	esac
	say "$_s" >"$_sf" || fail "$1: scheduler $_s refused"
}

D=$DEV
r=1
while [ "$r" -le "$rounds" ]; do
	set_sched "$D" "$r"
	one_round "$VS_SMQ" smq_virtio 0 "$D" "$r"
	r=$((r + 1))
done

# Linux's sd names its disks from its own index: with smq's disks named sdX
# too (smq_scsi disk_prefix=sd), its rebound disk could take a name smq's
# disk holds.
case ${D##*/} in
sd*) say "smq's disk is ${D##*/} (DISK_PREFIX=sd): the reference rounds on Linux's vs1 are not run"
	exit 0 ;;
esac
if [ -n "${VS_LINUX:-}" ] && [ -n "${PEER_DEV:-}" ]; then
	D=$PEER_DEV
	r=1
	while [ "$r" -le "$(((rounds + 1) / 2))" ]; do
		one_round "$VS_LINUX" virtio_scsi 1 "$D" "$r"
		r=$((r + 1))
	done
	PEER_DEV=$D
else
	say "no Linux controller vs1: the reference rounds are not run"
fi
exit 0
