#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: poll-verify
# timeout: 300
#
# Polled I/O on a disk with poll queues: fio write + verify (crc32c, 4 jobs,
# 512 B..1 MiB) with --ioengine=io_uring --hipri (IORING_SETUP_IOPOLL: the
# kernel's bio_poll() -> the disk's poll_bio), then with --ioengine=pvsync2
# --hipri.  The disk must advertise polling (queue/io_poll = 1) and the data
# must verify.  On smq_sas, the io_uring pass must have been completed by
# polling: commands reached the poll queues and every one of them was reaped
# by mq_poll (none by an IPI, a tasklet or irq_poll), and smq_blk counted
# requests completed through ->poll.  Then polled 1 MiB writes that the
# kernel must split (max_sectors_kb 64) verify, by interrupt, and do not
# hang (6.1's REQ_NOWAIT on polled bios).  The pvsync2 pass verifies; whether it
# polled is printed (the kernels' synchronous block-device path does not set
# REQ_POLLED).  Peers: scsi_debug and null_blk with poll_queues.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/poll.sh"
poll_setup

poll_capable "$DEV" || fail "$DEV does not support polled I/O (queue/io_poll $(cat "/sys/block/${DEV##*/}/queue/io_poll"))"

[ "$POLL_SMQ" = 1 ] && before=$(poll_totals "$DEV")
FIO_VERIFY_DEPTH=8 poll_fio_verify "$DEV" --ioengine=io_uring --hipri
case $? in
0) ;;
1) fail "io_uring --hipri: verify found corrupted data on $DEV" ;;
*) fail "io_uring --hipri: fio failed on $DEV" ;;
esac
if [ "$POLL_SMQ" = 1 ]; then
	after=$(poll_totals "$DEV")
	poll_delta "$before" "$after"
	poll_check_polled
	say "io_uring --hipri: verified, completed by polling"
fi

# Polled bios that the kernel must split (max_sectors_kb 64, 1 MiB writes):
# 6.1 marks asynchronous polled bios REQ_NOWAIT even when io_uring's worker
# reissues them, and fails a REQ_NOWAIT bio that needs a split with EAGAIN,
# so io_uring would resubmit forever; smq issues them as ordinary bios
# (smq_bio_nowait_split()).  On 6.12 the worker's reissue may wait and the
# kernel splits it.  Either way the parts complete by interrupt.  smq only:
# on 6.1 the kernel's own stack has no such way out.
if [ "$POLL_SMQ" = 1 ]; then
	before=$(poll_totals "$DEV")
	FIO_VERIFY_BSSPLIT=1048576/100 FIO_VERIFY_SIZE=16777216 FIO_VERIFY_DEPTH=4 \
		poll_fio_verify_split "$DEV" 64 --ioengine=io_uring --hipri
	case $? in
	0) ;;
	1) fail "io_uring --hipri, split bios: verify found corrupted data on $DEV" ;;
	*) fail "io_uring --hipri, split bios: fio failed on $DEV" ;;
	esac
	poll_delta "$before" "$(poll_totals "$DEV")"
	[ "$pd_iq_completed" -ge 32 ] ||
		fail "split polled bios: only $pd_iq_completed commands on interrupt queues"
	say "io_uring --hipri, 1 MiB bios split to 64 KiB: verified, by interrupt"
fi

[ "$POLL_SMQ" = 1 ] && before=$(poll_totals "$DEV")
FIO_VERIFY_JOBS=2 poll_fio_verify "$DEV" --ioengine=pvsync2 --hipri
case $? in
0) ;;
1) fail "pvsync2 --hipri: verify found corrupted data on $DEV" ;;
*) fail "pvsync2 --hipri: fio failed on $DEV" ;;
esac
if [ "$POLL_SMQ" = 1 ]; then
	poll_delta "$before" "$(poll_totals "$DEV")"
	[ "$pd_pq_reaped" = "$pd_pq_completed" ] ||
		fail "pvsync2: poll queue commands completed other than by mq_poll"
	if [ "$pd_pq_queued" -gt 0 ]; then
		say "pvsync2 --hipri: verified, $pd_pq_queued commands polled"
	else
		say "pvsync2 --hipri: verified, not polled by this kernel ($(uname -r))"
	fi
fi
exit 0
