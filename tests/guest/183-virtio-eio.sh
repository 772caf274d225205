#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-eio
# timeout: 420
#
# Injected EIO from the disk's backend (nbdkit's error filter, target
# smq_virtio:NBD=1), on smq_virtio's disk and, beside it in the same boot,
# on Linux's virtio_scsi + sd disk, the same fault the same way: fio has
# written and verified a range; while the error is on, a fio write+verify
# pass and a direct read must both end with an I/O error (EIO), within 120 s
# and without a corrupt-data verdict; once the error is off, the first
# range verifies and a new write+verify pass succeeds.  The time each stack
# took to report the error is printed side by side.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio dd
need_dev
if [ "${TARGET_NBD:-0}" != 1 ] || [ -z "${SMQ_CTL:-}" ]; then
	skip "needs target smq_virtio:NBD=1"
fi
half=$((DEV_SIZE_BYTES / 2))
# Whatever happens, the next test gets its disks back.
trap 'host_req error 0 0 off; host_req error 1 0 off; sleep 2' EXIT

# eio_round C DISK NAME: the fault on controller vsC's LUN 0 (DISK).
eio_round() {
	_c=$1 _d=$2 _n=$3
	FIO_VERIFY_JOBS=2 fio_write_verify "$_d" || fail "$_n: write+verify before the fault failed"
	host_req error "$_c" 0 on
	# The host carries the request out within a second or so: wait until a
	# read fails (it must, within the time limit).
	_t0=$(date +%s)
	_got=
	while [ $(($(date +%s) - _t0)) -lt 120 ]; do
		if ! run_with_timeout 120 dd if="$_d" of=/dev/null bs=4k count=1 iflag=direct \
			skip=$(($(date +%s) % 1000)) 2>"$SMQ_TEST_TMP/dd.err"; then
			_got=1
			break
		fi
		sleep 0.5
	done
	_t1=$(date +%s)
	[ -n "$_got" ] || fail "$_n: reads still succeed 120 s after the error was switched on"
	grep -qi "input/output error" "$SMQ_TEST_TMP/dd.err" || { cat "$SMQ_TEST_TMP/dd.err"; fail "$_n: the read failed, but not with EIO"; }
	say "$_n: read failed with EIO $((_t1 - _t0)) s after the request"
	times="$times $_n: read $((_t1 - _t0)) s,"
	_t0=$(date +%s)
	FIO_VERIFY_OFFSET=$half FIO_VERIFY_JOBS=2 run_with_timeout 180 sh -c \
		". $SMQ_GUEST_DIR/lib/common.sh; . $SMQ_GUEST_DIR/lib/fio-verify.sh; fio_write_verify $_d"
	_rc=$?
	_t1=$(date +%s)
	case $_rc in
	0) fail "$_n: fio write+verify passed with every request failing" ;;
	1) fail "$_n: fio reported corrupt data instead of an I/O error" ;;
	124) fail "$_n: fio hung with the error on" ;;
	esac
	grep -q "Input/output error\|err= *5" "$SMQ_TEST_TMP/fio-write.out" ||
		fail "$_n: fio failed, but not with EIO"
	say "$_n: fio write failed with EIO in $((_t1 - _t0)) s"
	times="$times fio write $((_t1 - _t0)) s;"
	host_req error "$_c" 0 off
	wait_until 30 dd if="$_d" of=/dev/null bs=4k count=1 iflag=direct ||
		fail "$_n: reads still fail 30 s after the error was switched off"
	FIO_VERIFY_JOBS=2 fio_verify_check "$_d" || fail "$_n: the range written before the fault does not verify"
	FIO_VERIFY_OFFSET=$half FIO_VERIFY_JOBS=2 fio_write_verify "$_d" ||
		fail "$_n: write+verify after the fault failed"
}

times=
eio_round 0 "$DEV" "smq_virtio ($DEV)"
[ -z "${PEER_DEV:-}" ] || eio_round 1 "$PEER_DEV" "Linux virtio_scsi ($PEER_DEV)"
say "time to EIO:$times"
exit 0
