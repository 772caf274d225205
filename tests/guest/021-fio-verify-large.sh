#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: fio-verify-large
# timeout: 300
#
# Large blocks only: for each of 1 MiB, 384 KiB and 128 KiB, fio writes blocks
# of that size with crc32c headers (4 jobs on separate ranges of up to
# 24 MiB, iodepth 32),
# then a separate pass reads everything back and verifies it (one size per
# pass, so no block overwrites another and every block written is checked).
# With 4 KiB pages a request carries up to max_segments segments: smq's
# commands run on chained scatterlists from the sg pools rather than their
# few inline entries, and 1 MiB blocks are split at max_sectors.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

FIO_VERIFY_DEPTH=${FIO_VERIFY_DEPTH:-32}
# Sequential: fio's verify-only pass of a random write job reads back only
# part of it (~45 % here, on scsi_debug too); in order it reads it all.
FIO_VERIFY_RW="write"
# Per job: a quarter of the disk, at most 24 MiB, a multiple of 3 MiB and so
# of every block size below (each job fills its own range exactly).
_fl_mb3=$((3 * 1048576))
_fl_size=$((${DEV_SIZE_BYTES:?} / 4))
[ "$_fl_size" -gt $((8 * _fl_mb3)) ] && _fl_size=$((8 * _fl_mb3))
_fl_size=$((_fl_size - _fl_size % _fl_mb3))
[ "$_fl_size" -gt 0 ] || skip "disk too small for 4 x 3 MiB"
FIO_VERIFY_SIZE=${FIO_VERIFY_SIZE:-$_fl_size}
export FIO_VERIFY_DEPTH FIO_VERIFY_SIZE FIO_VERIFY_RW

for bs in 1048576 393216 131072; do
	FIO_VERIFY_BSSPLIT="$bs/100"
	export FIO_VERIFY_BSSPLIT
	say "block size $bs"
	fio_write_verify "$DEV"
	case $? in
	0) ;;
	1) fail "fio verify found corrupted data on $DEV (bs $bs)" ;;
	*) fail "fio failed on $DEV (bs $bs)" ;;
	esac
done
exit 0
