#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: ext4
# timeout: 240
#
# mkfs.ext4, mount, write files of several sizes (recording their sha256),
# umount, drop caches, mount again and check every file, umount, and
# `e2fsck -fn` must find the filesystem clean (lib/fs.sh).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fs.sh"
need_cmd mkfs.ext4 e2fsck sha256sum
need_dev
modprobe ext4 || skip "no ext4 module"
fs_roundtrip ext4 "mkfs.ext4 -F -q -b 4096" "e2fsck -fn"
