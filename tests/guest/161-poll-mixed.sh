#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: poll-mixed
# timeout: 300
#
# Poll and interrupt-driven queues at the same time: two fio write + verify
# runs side by side on separate halves of the disk, one with io_uring
# --hipri (poll queues), one with libaio (interrupt-driven queues); both must
# verify.  On smq_sas both kinds of queue must have completed commands
# meanwhile, the poll queues' all by mq_poll.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/poll.sh"
poll_setup
poll_capable "$DEV" || fail "$DEV does not support polled I/O"

half=$((DEV_SIZE_BYTES / 2))
per_job=$((half / 2))
per_job=$((per_job - per_job % 1048576))
[ "$per_job" -gt 16777216 ] && per_job=16777216
[ "$per_job" -ge 1048576 ] || skip "disk too small ($DEV_SIZE_BYTES bytes)"

[ "$POLL_SMQ" = 1 ] && before=$(poll_totals "$DEV")
mkdir -p "$SMQ_TEST_TMP/hipri" "$SMQ_TEST_TMP/irq"
(
	d=$SMQ_TEST_TMP/hipri
	POLL_FIO_OUT=$d/fio.out FIO_VERIFY_JOBS=2 FIO_VERIFY_SIZE=$per_job \
		FIO_VERIFY_DEPTH=8 poll_fio_verify "$DEV" --ioengine=io_uring \
		--hipri >"$d/log" 2>&1
	echo $? >"$d/rc"
) &
hp=$!
(
	d=$SMQ_TEST_TMP/irq
	POLL_FIO_OUT=$d/fio.out FIO_VERIFY_JOBS=2 FIO_VERIFY_SIZE=$per_job \
		FIO_VERIFY_OFFSET=$half poll_fio_verify "$DEV" --ioengine=libaio \
		>"$d/log" 2>&1
	echo $? >"$d/rc"
) &
ip=$!
wait "$hp"
wait "$ip"
for k in hipri irq; do
	say "---- $k"
	cat "$SMQ_TEST_TMP/$k/log"
done
for k in hipri irq; do
	case $(cat "$SMQ_TEST_TMP/$k/rc") in
	0) say "$k: data verified" ;;
	1) fail "$k: verify found corrupted data" ;;
	*) fail "$k: fio failed" ;;
	esac
done
if [ "$POLL_SMQ" = 1 ]; then
	poll_delta "$before" "$(poll_totals "$DEV")"
	poll_check_polled
	[ "$pd_iq_completed" -gt 0 ] || fail "no command completed on an interrupt-driven queue"
	say "poll and interrupt-driven queues both in use, both verified"
fi
exit 0
