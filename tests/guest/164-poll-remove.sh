#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: poll-remove
# timeout: 180
#
# smq_sas host with poll queues removed while fio runs polled I/O on its
# disk (io_uring --hipri, randrw, iodepth 16, 2 jobs): once the disk is
# deleted the kernel no longer lets the pollers in (bio_poll() cannot
# enter the dead queue), so the requests still on the poll queues must be
# reaped by the queue's teardown: the removal must finish within 15 s (the
# command timeout is 30 s), fio must exit, and nothing may complain (the
# dmesg gate; run it with SLUB=FZPU).  Then a new host is added and polled
# I/O works on its disk.  Leaves a different disk behind: run it last.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/poll.sh"
need_cmd fio
need_dev
fio --enghelp=io_uring >/dev/null 2>&1 || skip "fio has no io_uring engine"
p=/sys/module/smq_sas/parameters
[ -r "$p/poll_queues" ] || skip "$DEV is not an smq_sas disk"
[ "$(cat "$p/poll_queues")" -gt 0 ] || fail "smq_sas loaded without poll queues"
poll_capable "$DEV" || fail "$DEV does not support polled I/O"

fio --name=rm --filename="$DEV" --ioengine=io_uring --hipri --direct=1 \
	--rw=randrw --bs=4k --iodepth=16 --numjobs=2 --time_based --runtime=60 \
	--group_reporting --output="$SMQ_TEST_TMP/fio.out" >/dev/null 2>&1 &
fpid=$!
sleep 3
kill -0 "$fpid" 2>/dev/null || { cat "$SMQ_TEST_TMP/fio.out"; fail "fio ended early"; }
poll_is_smq_sas && cat /sys/kernel/debug/smq_sas/*/reply_queues
t0=$(date +%s)
say -1 >"$p/add_host" || fail "removing the host failed"
t1=$(date +%s)
say "host removed under polled I/O in $((t1 - t0)) s"
[ $((t1 - t0)) -lt 15 ] || fail "removal took $((t1 - t0)) s: polled requests waited for their timeout"
n=0
while kill -0 "$fpid" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 30 ] || { kill -9 "$fpid"; fail "fio still running 30 s after the removal"; }
	sleep 1
done
wait "$fpid" || say "fio ended with status $? (its disk went away)"
[ "$(cat "$p/add_host")" = 0 ] || fail "hosts left: $(cat "$p/add_host")"

before=$(list_disks)
say 1 >"$p/add_host" || fail "adding a host back failed"
wait_for_new_disk "$before" 30 || fail "no disk on the new host"
poll_capable "$DEV" || fail "new disk $DEV does not support polled I/O"
FIO_VERIFY_JOBS=2 FIO_VERIFY_SIZE=4194304 poll_fio_verify "$DEV" \
	--ioengine=io_uring --hipri || fail "polled verify on the new host's disk failed"
exit 0
