#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: neg-dropped-writes
# timeout: 240
#
# Negative control of fio-verify: dm-flakey with drop_writes on top of the
# disk silently loses every write. The same write+verify as 020-fio-verify
# must then FAIL its verify pass; this test passes only if it did.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio dmsetup blockdev
need_dev
modprobe dm_flakey || skip "no dm_flakey module"

dm=smq-neg-flakey
cleanup() { dmsetup remove "$dm" >/dev/null 2>&1; }
trap cleanup EXIT

# Start from zeros, so no earlier run's data can pass for this run's writes.
blkdiscard -z "$DEV" 2>/dev/null ||
	dd if=/dev/zero of="$DEV" bs=1M count=$((DEV_SIZE_BYTES / 1048576)) conv=fsync 2>/dev/null ||
	fail "cannot zero $DEV"
sectors=$(blockdev --getsz "$DEV") || fail "blockdev --getsz $DEV"
# up 0 s, down 3600 s: always "down", and while down every write is dropped.
dmsetup create "$dm" --table "0 $sectors flakey $DEV 0 0 3600 1 drop_writes" ||
	fail "dmsetup create failed"
wait_until 10 test -b "/dev/mapper/$dm" || fail "no /dev/mapper/$dm"

fio_write_verify "/dev/mapper/$dm"
case $? in
0) fail "verify PASSED although every write was dropped: the verify test cannot see lost writes" ;;
1) say "expected: the verify pass caught the lost writes" ;;
*) fail "fio failed in another way (not a verify mismatch)" ;;
esac
