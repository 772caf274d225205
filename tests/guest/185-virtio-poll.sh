#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-poll
# timeout: 300
#
# Polled completion on virtio-scsi (target smq_virtio:POLL_QUEUES=1, and
# PEER_POLL_QUEUES=1 for Linux's virtscsi_poll_queues, 6.12): the last
# request virtqueue of smq's controller raises no interrupt (no
# virtioN-request_poll line in /proc/interrupts), io_uring --hipri
# write+verify passes on smq's disk with smq_blk's poll queue counting the
# requests it completed by polling, and the same job passes on Linux's
# disk beside it when its driver has poll queues.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/poll.sh"
poll_setup
if [ -z "${VS_SMQ:-}" ] || [ "${TARGET_POLL_QUEUES:-0}" = 0 ]; then
	skip "needs target smq_virtio:POLL_QUEUES=N"
fi
poll_capable "$DEV" || fail "$DEV does not support polled I/O"

# polled DEV: requests smq_blk's poll queues of DEV completed by ->poll.
polled() {
	_p=0
	for _q in /sys/block/"${1##*/}"/mq/*; do
		[ "$(cat "$_q/type" 2>/dev/null)" = poll ] || continue
		_p=$((_p + $(cat "$_q/polled")))
	done
	say "$_p"
}
grep "$VS_SMQ-request" /proc/interrupts
grep -q "$VS_SMQ-request_poll" /proc/interrupts && fail "a polled virtqueue of $VS_SMQ has an interrupt"
b=$(polled "$DEV")
FIO_VERIFY_DEPTH=8 poll_fio_verify "$DEV" --ioengine=io_uring --hipri
case $? in
0) ;;
1) fail "io_uring --hipri: corrupt data on $DEV" ;;
*) fail "io_uring --hipri: fio failed on $DEV" ;;
esac
a=$(polled "$DEV")
say "$DEV: $((a - b)) requests completed by polling"
[ "$a" -gt "$b" ] || fail "no request of $DEV was completed by polling"
if [ -n "${PEER_DEV:-}" ] && poll_capable "$PEER_DEV"; then
	FIO_VERIFY_DEPTH=8 poll_fio_verify "$PEER_DEV" --ioengine=io_uring --hipri ||
		fail "io_uring --hipri failed on Linux's $PEER_DEV"
	say "Linux's $PEER_DEV: polled write+verify passed"
else
	say "Linux's disk has no poll queues here (PEER_POLL_QUEUES, 6.12 only)"
fi
exit 0
