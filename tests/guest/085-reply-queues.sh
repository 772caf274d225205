#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: reply-queues
# timeout: 120
#
# smq_sas reply queues under load, in whatever irqmode the target loaded:
# after random reads at iodepth 128 every queue has completed exactly what it
# accepted (nothing lost, nothing completed twice), and with irqmode=3 the
# replies went through irq_poll passes of at most poll_weight each; passes
# (irqmode 1 and 3) end their commands in completion batches, of more than
# one request when replies pile up (irq_poll after a delay).  Then the
# host is removed while I/O is running (writing -1 to add_host) and a new one
# added: the removal must drain the reply queues without kernel complaints.
# Leaves a different disk behind: run it last on its line.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

p=/sys/module/smq_sas/parameters
[ -r "$p/irqmode" ] || skip "$DEV is not an smq_sas disk"
irqmode=$(cat "$p/irqmode")
weight=$(cat "$p/poll_weight")
[ -d /sys/kernel/debug/smq_sas ] || mount -t debugfs none /sys/kernel/debug ||
	skip "no debugfs"

# Completions where the reply queue runs (rq_affinity 0): a completion moved
# to the submitting CPU (1, 2) goes by IPI, outside the pass's batch.
disk=${DEV#/dev/}
aff=/sys/block/$disk/smq/rq_affinity
old_aff=$(cat "$aff")
say 0 >"$aff" || fail "cannot set rq_affinity"
fio --name=rq --filename="$DEV" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --iodepth=128 --numjobs=2 --time_based --runtime=3 \
	--group_reporting --output=/dev/null || fail "fio randread failed"
say "$old_aff" >"$aff"

# Every queue idle: queued == completed; irq_poll counters consistent.
check_queues() {
	_cq_ok=0
	for _cq_f in /sys/kernel/debug/smq_sas/*/reply_queues; do
		say "$_cq_f:"
		cat "$_cq_f"
		sed 1d "$_cq_f" | awk -v mode="$irqmode" -v w="$weight" '
			$2 != $3 { print "queue " $1 ": queued " $2 " != completed " $3; bad = 1 }
			mode == 3 && $3 > 0 && $5 == 0 { print "queue " $1 ": no poll pass"; bad = 1 }
			mode == 3 && $3 > $5 * w { print "queue " $1 ": more than " w " per pass"; bad = 1 }
			mode == 3 && $6 > $5 { print "queue " $1 ": rearms > polls"; bad = 1 }
			mode != 3 && $5 != 0 { print "queue " $1 ": polls in irqmode " mode; bad = 1 }
			{ done += $3 }
			END { if (!done) print "no completions"; exit bad || !done }' ||
			_cq_ok=1
	done
	return $_cq_ok
}
wait_until 10 check_queues || { check_queues; fail "reply queues not idle or inconsistent"; }
check_queues

# Completion batches (smq_scsi_done_batch()): a reply-queue pass (softirq
# tasklet, irq_poll) hands its GOOD commands to a batch.  A reply raised in
# queuecommand runs its pass at once (local_bh_enable(), like an interrupt
# that arrives at once: one reply per pass); replies posted by an hrtimer
# (irqmode 3 with completion_nsec) pile up, so there passes end runs of
# more than one request.  A mode that completes command by command (0: in
# queuecommand, 2: hrtimer) never batches.
nsec=$(cat "$p/completion_nsec")
stats=$(cat /sys/kernel/debug/smq/"$disk"/hctx*/stats)
batched=$(echo "$stats" | awk -F= '$1 == "batched" { n += $2 } END { print n + 0 }')
runs=$(echo "$stats" | awk -F= '$1 == "batch_runs" { n += $2 } END { print n + 0 }')
say "completion batches: $batched requests in $runs runs (irqmode $irqmode, completion_nsec $nsec)"
case $irqmode in
1 | 3)
	[ "$batched" -gt 0 ] || fail "irqmode $irqmode: no request ended in a batch"
	if [ "$irqmode" = 3 ] && [ "$nsec" -gt 0 ]; then
		[ "$batched" -gt "$runs" ] ||
			fail "irq_poll after $nsec ns: runs of one request only ($batched in $runs)"
	fi
	;;
*)
	[ "$batched" = 0 ] || fail "irqmode $irqmode: $batched requests ended in batches"
	;;
esac

# Remove the host under I/O, then add a new one.
fio --name=rm --filename="$DEV" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --iodepth=128 --numjobs=2 --time_based --runtime=8 \
	--group_reporting --output=/dev/null >/dev/null 2>&1 &
fpid=$!
sleep 2
say -1 >"$p/add_host" || fail "removing the host failed"
say "host removed with I/O running"
wait "$fpid" || true
[ "$(cat "$p/add_host")" = 0 ] || fail "hosts left: $(cat "$p/add_host")"
say 1 >"$p/add_host" || fail "adding a host back failed"
wait_until 10 sh -c 'ls /sys/kernel/debug/smq_sas/*/reply_queues' ||
	fail "no reply queues after adding a host"
exit 0
