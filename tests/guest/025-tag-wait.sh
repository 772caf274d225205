#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: tag-wait
# timeout: 240
#
# Every disk of the target at once (DEVS), each with fio write+verify jobs
# whose queue depth is far beyond the host's tags (run it with a scarce
# can_queue and shared host tags): submitters sleep for tags while their
# plug holds requests, completions race with those sleeps. All data must
# verify on every disk. (Regression: sleeping for a tag flushed and freed
# the task's plug batch, which the submitter then reused; boot with
# SLUB=FZP so the reuse of freed memory is caught at once.)

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

devs=${DEVS:-$DEV}
FIO_VERIFY_JOBS=${FIO_VERIFY_JOBS:-2}
FIO_VERIFY_DEPTH=${FIO_VERIFY_DEPTH:-64}
FIO_VERIFY_SIZE=${FIO_VERIFY_SIZE:-4194304}
export FIO_VERIFY_JOBS FIO_VERIFY_DEPTH FIO_VERIFY_SIZE
say "fio write+verify on$devs at once: $FIO_VERIFY_JOBS jobs x iodepth $FIO_VERIFY_DEPTH each"
tmp=$SMQ_TEST_TMP
pids=
for d in $devs; do
	n=${d##*/}
	mkdir -p "$tmp/$n"
	(
		SMQ_TEST_TMP=$tmp/$n
		fio_write_verify "$d" --iodepth_batch_submit=8 >"$tmp/$n/log" 2>&1
		echo $? >"$tmp/$n/rc"
	) &
	pids="$pids $!"
done
# shellcheck disable=SC2086 # a list of pids
wait $pids
bad=0
for d in $devs; do
	n=${d##*/}
	rc=$(cat "$tmp/$n/rc" 2>/dev/null || echo none)
	case $rc in
	0) say "$d: data verified" ;;
	1) say "$d: DATA MISMATCH"; bad=1 ;;
	*) say "$d: fio failed (status $rc)"; bad=1 ;;
	esac
	[ "$rc" = 0 ] || cap_lines 40 <"$tmp/$n/log"
done
[ "$bad" = 0 ] || fail "write+verify failed on at least one disk"
