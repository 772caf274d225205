#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-rebind
# timeout: 420
#
# Controller vs0 moves between smq_virtio and Linux's virtio_scsi through
# the virtio bus's unbind/bind files, and the data goes with it: smq writes
# (fio, crc32c headers) range A; the controller goes to Linux, which
# verifies A and writes range B; back on smq, A and B verify.  Then
# unbind/rebind smq_virtio ROUNDS times (default 4; target spec ROUNDS=N), every other round
# under fio (which must end, with errors, not hang), the disk coming back
# each time with the same size; after the last round A and B still verify.
# Run with slub_debug poisoning (SLUB=FZPU): a use after free of the
# removed host's memory shows at once.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio
need_dev
[ -n "${VS_SMQ:-}" ] || skip "needs target smq_virtio"
[ "$(vs_driver_of "$VS_SMQ")" = smq_virtio ] || fail "$VS_SMQ is not bound to smq_virtio"
rounds=${TARGET_ROUNDS:-4}
half=$((DEV_SIZE_BYTES / 2))
size0=$(cat "/sys/block/${DEV##*/}/size")

# verify_range DEV OFFSET: fio's verify pass over the range written at OFFSET.
verify_range() {
	FIO_VERIFY_OFFSET=$2 FIO_VERIFY_JOBS=2 fio_verify_check "$1"
	case $? in
	0) ;;
	1) fail "$1: data at offset $2 corrupt" ;;
	*) fail "$1: fio failed verifying offset $2" ;;
	esac
}
write_range() {
	FIO_VERIFY_OFFSET=$2 FIO_VERIFY_JOBS=2 fio_verify_write "$1" || fail "$1: fio write at $2 failed"
}

# move DRIVER: rebind vs0 to DRIVER and wait for its disk; sets D.
move() {
	vs_unbind "$VS_SMQ" || fail "unbind $VS_SMQ failed"
	vs_wait_gone 0 0 || fail "the disk of $VS_SMQ stayed after unbind"
	vs_bind "$VS_SMQ" "$1" || fail "bind $VS_SMQ to $1 failed"
	[ "$(vs_driver_of "$VS_SMQ")" = "$1" ] || fail "$VS_SMQ is not bound to $1"
	D=$(vs_wait_disk 0 0) || fail "no disk after binding $VS_SMQ to $1"
	[ "$(cat "/sys/block/${D##*/}/size")" = "$size0" ] || fail "$D: size changed"
	say "$VS_SMQ on $1: $D"
}

write_range "$DEV" 0
move virtio_scsi
verify_range "$D" 0
write_range "$D" "$half"
move smq_virtio
verify_range "$D" 0
verify_range "$D" "$half"

r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 0 ]; then
		say "round $r: unbind under fio"
		fio --filename="$D" --ioengine=libaio --direct=1 --iodepth=32 --rw=randrw \
			--bs=4k --size=64m --offset=$((half + half / 2)) --time_based --runtime=60 \
			--name=load >"$SMQ_TEST_TMP/load.out" 2>&1 &
		fpid=$!
		io_flowing "$D" 30 || { cat "$SMQ_TEST_TMP/load.out"; fail "no I/O on $D 30 s after fio started"; }
		sleep 2
		kill -0 "$fpid" 2>/dev/null || { cat "$SMQ_TEST_TMP/load.out"; fail "fio load ended early"; }
		vs_unbind "$VS_SMQ" || fail "unbind under fio failed"
		fio_must_end "$fpid" 30 "the unbind"
		tail -n 5 "$SMQ_TEST_TMP/load.out"
		vs_wait_gone 0 0 || fail "the disk stayed after unbind"
		vs_bind "$VS_SMQ" smq_virtio || fail "rebind failed"
		D=$(vs_wait_disk 0 0) || fail "no disk after rebind"
	else
		say "round $r: unbind idle"
		move smq_virtio
	fi
	r=$((r + 1))
done
verify_range "$D" 0
verify_range "$D" "$half"
exit 0
