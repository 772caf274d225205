#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: xfs
# timeout: 240
#
# As 030-ext4 with xfs: mkfs.xfs, files written and read back across a
# remount, `xfs_repair -n` clean.  xfs needs a disk of 300 MiB or more
# (target VSIZE_MB=320 on virtio-scsi); a smaller one is skipped.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fs.sh"
need_cmd mkfs.xfs xfs_repair sha256sum
need_dev
modprobe xfs || skip "no xfs module"
[ "${DEV_SIZE_BYTES:-0}" -ge 314572800 ] || skip "xfs needs 300 MiB, $DEV has ${DEV_SIZE_BYTES:-0} bytes"
fs_roundtrip xfs "mkfs.xfs -f -q" "xfs_repair -n"
