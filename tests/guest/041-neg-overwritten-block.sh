#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: neg-overwritten-block
# timeout: 240
#
# Negative control of fio-verify: after the write pass, 1 MiB in the middle
# of the third job's range is overwritten with zeros behind fio's back. The
# verify pass of 020-fio-verify must then FAIL; this test passes only if it did.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

fio_verify_write "$DEV" || fail "write pass failed"
size=$(fio_verify_size "$DEV_SIZE_BYTES" "${DEV_LBS:-512}" "${FIO_VERIFY_JOBS:-4}")
mib=$(((2 * size + size / 2) / 1048576))
say "overwriting 1 MiB at $mib MiB of $DEV"
dd if=/dev/zero of="$DEV" bs=1M seek="$mib" count=1 conv=notrunc,fsync 2>/dev/null ||
	fail "dd failed"
blockdev --flushbufs "$DEV"

fio_verify_check "$DEV"
case $? in
0) fail "verify PASSED although 1 MiB was overwritten: the verify test cannot see corruption" ;;
1) say "expected: the verify pass caught the overwritten data" ;;
*) fail "fio failed in another way (not a verify mismatch)" ;;
esac
