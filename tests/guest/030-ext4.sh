#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: ext4
# timeout: 240
#
# mkfs.ext4, mount, write files of several sizes (recording their sha256),
# umount, drop caches, mount again and check every file, umount, and
# `e2fsck -fn` must find the filesystem clean.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd mkfs.ext4 e2fsck sha256sum
need_dev
modprobe ext4 || skip "no ext4 module"

mnt=$SMQ_TEST_TMP/mnt
sums=$SMQ_TEST_TMP/sha256
mkdir -p "$mnt"
cleanup() { umount "$mnt" 2>/dev/null; }
trap cleanup EXIT

mkfs.ext4 -F -q -b 4096 "$DEV" || fail "mkfs.ext4 failed"
mount -t ext4 "$DEV" "$mnt" || fail "mount failed"

# Files: empty, sub-block, block-sized, odd sizes, a few MiB, many small ones.
mkdir -p "$mnt/d/small"
for spec in empty:0 one:1 lbs:512 odd:4095 page:4096 odd2:65537 big:1048576 bigger:6291456; do
	n=${spec#*:}
	head -c "$n" /dev/urandom >"$mnt/d/${spec%%:*}" || fail "write ${spec%%:*}"
done
i=0
while [ $i -lt 64 ]; do
	head -c $((i * 97 + 1)) /dev/urandom >"$mnt/d/small/f$i" || fail "write small/f$i"
	i=$((i + 1))
done
(cd "$mnt" && find d -type f | sort | xargs sha256sum) >"$sums" || fail "sha256sum"
say "wrote $(wc -l <"$sums") files"
sync
umount "$mnt" || fail "umount failed"

echo 3 >/proc/sys/vm/drop_caches
blockdev --flushbufs "$DEV"
mount -t ext4 "$DEV" "$mnt" || fail "remount failed"
(cd "$mnt" && sha256sum -c -s "$sums") || fail "file contents changed across umount/mount"
say "all files read back intact"
umount "$mnt" || fail "second umount failed"

e2fsck -fn "$DEV" || fail "e2fsck -fn reports problems (status $?)"
say "e2fsck: clean"
