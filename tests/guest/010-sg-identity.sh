#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sg-identity
# timeout: 60
#
# SCSI identity of the disk: sg_inq answers (a disk), TEST UNIT READY
# passes, and READ CAPACITY(10) and (16) report the configured size and
# logical block size, as do the block layer and sysfs.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd sg_inq sg_readcap sg_turs blockdev
need_scsi

lbs=${DEV_LBS:?} size=${DEV_SIZE_BYTES:?}
blocks=$((size / lbs))
disk=${DEV##*/}

sg_inq "$DEV" >inq.out 2>&1 || { cat inq.out; fail "sg_inq $DEV failed"; }
cat inq.out
grep -q 'Peripheral device type: disk' inq.out || fail "sg_inq: not a disk"
grep -q 'Vendor identification:' inq.out || fail "sg_inq: no vendor identification"

sg_turs "$DEV" || fail "TEST UNIT READY failed"

# check_readcap LABEL SG_READCAP-ARGS...
check_readcap() {
	_label=$1
	shift
	sg_readcap "$@" "$DEV" >cap.out 2>&1 || { cat cap.out; fail "sg_readcap $* failed"; }
	cat cap.out
	_n=$(sed -n 's/.*Number of logical blocks=\([0-9]*\).*/\1/p' cap.out)
	_l=$(sed -n 's/.*Logical block length=\([0-9]*\) bytes.*/\1/p' cap.out)
	[ "$_n" = "$blocks" ] || fail "$_label: $_n logical blocks, configured $blocks"
	[ "$_l" = "$lbs" ] || fail "$_label: block length $_l, configured $lbs"
	say "$_label: $_n blocks of $_l bytes: as configured"
}
check_readcap "READ CAPACITY(10)"
check_readcap "READ CAPACITY(16)" --16

[ "$(blockdev --getsize64 "$DEV")" = "$size" ] || fail "blockdev --getsize64 != $size"
[ "$(blockdev --getss "$DEV")" = "$lbs" ] || fail "blockdev --getss != $lbs"
[ "$(cat "/sys/block/$disk/queue/logical_block_size")" = "$lbs" ] ||
	fail "sysfs logical_block_size != $lbs"
[ "$(($(cat "/sys/block/$disk/size") * 512))" = "$size" ] || fail "sysfs size != $size"
say "block layer and sysfs agree: $size bytes, $lbs-byte blocks"
