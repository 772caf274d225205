#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: poll-legacy
# timeout: 300
#
# --hipri on a disk without poll queues (smq's legacy path, smq mq with
# poll_queues=0; the peers without poll_queues): the disk does not
# advertise polling (queue/io_poll = 0) and nothing goes wrong.  pvsync2
# --hipri writes and verifies (completed by interrupt).  io_uring --hipri
# (IOPOLL): 6.1 clears REQ_POLLED of bios to such a disk, so it writes and
# verifies; 6.10 and later fail those bios with EOPNOTSUPP, which fio must
# report as "Operation not supported" and nothing else.  No kernel warning
# either way (the runner's dmesg gate).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/poll.sh"
poll_setup

poll_capable "$DEV" && fail "$DEV advertises polling (queue/io_poll = 1)"
say "$DEV: queue/io_poll = 0"

FIO_VERIFY_JOBS=2 poll_fio_verify "$DEV" --ioengine=pvsync2 --hipri
case $? in
0) say "pvsync2 --hipri: verified" ;;
1) fail "pvsync2 --hipri: verify found corrupted data on $DEV" ;;
*) fail "pvsync2 --hipri: fio failed on $DEV" ;;
esac

rel=$(uname -r)
maj=${rel%%.*}
min=${rel#*.}
min=${min%%.*}
# On smq, bios split to 64 KiB: on 6.1 io_uring's polled bios of 64 KiB
# and more then all need a split and come REQ_NOWAIT, which smq issues as
# ordinary bios (smq_bio_nowait_split()); the kernel's own stack fails
# them with EAGAIN and io_uring resubmits them forever, so the peers keep
# their limits (a split there is only as likely as scattered pages).
if poll_is_smq_sas; then
	FIO_VERIFY_JOBS=2 poll_fio_verify_split "$DEV" 64 --ioengine=io_uring --hipri
else
	FIO_VERIFY_JOBS=2 poll_fio_verify "$DEV" --ioengine=io_uring --hipri
fi
rc=$?
if [ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "$min" -ge 10 ]; }; then
	[ "$rc" = 2 ] || fail "io_uring --hipri on $rel: expected EOPNOTSUPP, fio status class $rc"
	grep -q "Operation not supported" "$SMQ_TEST_TMP/fio-poll.out" ||
		fail "io_uring --hipri failed other than with EOPNOTSUPP"
	say "io_uring --hipri on $rel: refused with EOPNOTSUPP (no poll queues)"
else
	[ "$rc" = 0 ] || fail "io_uring --hipri on $rel: fio status class $rc"
	say "io_uring --hipri on $rel: verified (REQ_POLLED cleared by the kernel)"
fi
exit 0
