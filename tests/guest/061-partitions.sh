#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: partitions
# timeout: 300
#
# The disk partitioned as a user would (an MBR with two partitions, then
# BLKRRPART): the partitions appear with the table's start and size; data
# written through the second partition and through a dm-linear device on
# it lands at the partition's offset of the disk; a random read and a
# random write pass of known size on the second partition move ITS
# /sys/block/<disk>/<part>/stat by exactly fio's counts, the whole disk's by
# the same, the first partition's not at all, and nothing stays in flight
# (as sd on blk-mq: statistics per partition and for the whole disk); fio
# write+verify and ext4 on the first partition; an empty table removes
# both partitions again.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio blockdev dmsetup sha256sum mkfs.ext4 e2fsck
need_dev

name=${DEV##*/}
lbs=${DEV_LBS:-512}
mib=1048576
dm=smq-part-lin
mnt=$SMQ_TEST_TMP/mnt
disk_mib=$((DEV_SIZE_BYTES / mib))
# Two partitions of the same size after 1 MiB, 1 MiB left free at the end.
part_mib=$(((disk_mib - 2) / 2))
[ "$part_mib" -ge 8 ] || skip "disk of $disk_mib MiB: too small for two partitions"
p1_start=$mib
p2_start=$((mib + part_mib * mib))
part_bytes=$((part_mib * mib))

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	umount "$mnt" 2>/dev/null
	dmsetup remove "$dm" >/dev/null 2>&1
	dd if=/dev/zero of="$DEV" bs="$lbs" count=1 conv=notrunc 2>/dev/null
	blockdev --flushbufs "$DEV" 2>/dev/null
	blockdev --rereadpt "$DEV" 2>/dev/null
}
trap cleanup EXIT

# oct BYTE: the printf escape of one byte.
oct() { printf '\\%03o' "$1"; }

# le32 N: the printf escapes of N as 4 little-endian bytes.
le32() {
	printf '%s%s%s%s' "$(oct $(($1 & 255)))" "$(oct $((($1 >> 8) & 255)))" \
		"$(oct $((($1 >> 16) & 255)))" "$(oct $((($1 >> 24) & 255)))"
}

# mbr_entry START_BYTES SIZE_BYTES: a primary Linux partition entry; MBR
# addresses and sizes count logical blocks.
mbr_entry() {
	printf '%s' "$(oct 0)$(oct 254)$(oct 255)$(oct 255)$(oct 131)"
	printf '%s' "$(oct 254)$(oct 255)$(oct 255)"
	le32 $(($1 / lbs))
	le32 $(($2 / lbs))
}

# write_mbr ENTRIES: sector 0 with up to four entries (escapes) and the
# signature; the rest of the first logical block zeroed.
write_mbr() {
	{
		head -c 446 /dev/zero
		# shellcheck disable=SC2059 # the entries are escapes on purpose
		printf "$1"
		head -c $((64 - $2 * 16)) /dev/zero
		printf '\125\252'
	} >"$SMQ_TEST_TMP/mbr"
	[ "$(wc -c <"$SMQ_TEST_TMP/mbr")" -eq 512 ] || fail "built an MBR of $(wc -c <"$SMQ_TEST_TMP/mbr") bytes"
	dd if=/dev/zero of="$DEV" bs="$lbs" count=1 conv=notrunc 2>/dev/null ||
		fail "zeroing the first block failed"
	dd if="$SMQ_TEST_TMP/mbr" of="$DEV" bs=512 count=1 conv=notrunc 2>/dev/null ||
		fail "writing the MBR failed"
	blockdev --flushbufs "$DEV" || fail "BLKFLSBUF failed"
	blockdev --rereadpt "$DEV" || fail "BLKRRPART failed"
}

# part_stat PART N: field N of /sys/block/<disk>/<PART>/stat (PART may be
# the disk itself).
part_stat() {
	if [ "$1" = "$name" ]; then
		_ps_f=/sys/block/$name/stat
	else
		_ps_f=/sys/block/$name/$1/stat
	fi
	awk -v n="$2" '{ print $n }' "$_ps_f"
}

# stats PART: reads, read sectors, writes, write sectors, in flight.
stats() {
	say "$(part_stat "$1" 1) $(part_stat "$1" 3) $(part_stat "$1" 5) $(part_stat "$1" 7) $(part_stat "$1" 9)"
}

# region_sum FILE OFFSET_MIB: sha256 of 1 MiB of FILE at OFFSET_MIB.
region_sum() {
	dd if="$1" bs=$mib skip="$2" count=1 2>/dev/null | sha256sum | cut -d' ' -f1
}

# ---- the table ----------------------------------------------------------
entries="$(mbr_entry $p1_start $part_bytes)$(mbr_entry $p2_start $part_bytes)"
write_mbr "$entries" 2
p1=${name}1 p2=${name}2
case "$name" in *[0-9]) p1=${name}p1 p2=${name}p2 ;; esac
wait_until 10 sh -c "[ -b /dev/$p1 ] && [ -b /dev/$p2 ]" ||
	fail "no /dev/$p1 and /dev/$p2 after BLKRRPART ($(ls /sys/block/"$name"))"
for p in "$p1:$p1_start" "$p2:$p2_start"; do
	pn=${p%%:*}
	start=$(cat "/sys/block/$name/$pn/start")
	size=$(cat "/sys/block/$name/$pn/size")
	[ "$start" -eq $((${p#*:} / 512)) ] ||
		fail "$pn starts at sector $start, the table says $((${p#*:} / 512))"
	[ "$size" -eq $((part_bytes / 512)) ] ||
		fail "$pn has $size sectors, the table says $((part_bytes / 512))"
done
say "partitions: $p1 and $p2 of $part_mib MiB at 1 MiB and $((1 + part_mib)) MiB"

# ---- data lands at the partition's offset -------------------------------
for f in a b; do
	head -c $mib /dev/urandom >"$SMQ_TEST_TMP/$f" || fail "no random data"
done
dd if="$SMQ_TEST_TMP/a" of="/dev/$p2" bs=$mib seek=1 conv=notrunc 2>/dev/null ||
	fail "write to /dev/$p2 failed"
blockdev --flushbufs "/dev/$p2" || fail "BLKFLSBUF $p2 failed"
sectors=$((part_bytes / 512))
modprobe dm_mod 2>/dev/null
dmsetup create "$dm" --table "0 $sectors linear /dev/$p2 0" || fail "dmsetup create failed"
wait_until 10 test -b "/dev/mapper/$dm" || fail "no /dev/mapper/$dm"
dd if="$SMQ_TEST_TMP/b" of="/dev/mapper/$dm" bs=$mib seek=3 conv=notrunc 2>/dev/null ||
	fail "write to /dev/mapper/$dm failed"
blockdev --flushbufs "/dev/mapper/$dm" || fail "BLKFLSBUF $dm failed"
dmsetup remove "$dm" || fail "dmsetup remove failed"
blockdev --flushbufs "$DEV"
echo 3 >/proc/sys/vm/drop_caches
p2_mib=$((p2_start / mib))
[ "$(region_sum "$DEV" $((p2_mib + 1)))" = "$(sha256sum <"$SMQ_TEST_TMP/a" | cut -d' ' -f1)" ] ||
	fail "1 MiB written at 1 MiB of $p2 is not at $((p2_mib + 1)) MiB of the disk"
[ "$(region_sum "$DEV" $((p2_mib + 3)))" = "$(sha256sum <"$SMQ_TEST_TMP/b" | cut -d' ' -f1)" ] ||
	fail "1 MiB written at 3 MiB of dm-linear on $p2 is not at $((p2_mib + 3)) MiB of the disk"
say "data written through $p2 and dm-linear on it is at the partition's offset"

# ---- statistics per partition -------------------------------------------
for f in /sys/block/"$name"/smq/nomerges /sys/block/"$name"/queue/nomerges; do
	[ -w "$f" ] && echo 2 >"$f"
done
ios=1024 bs=4096
d0=$(stats "$name") a0=$(stats "$p1") b0=$(stats "$p2")
fio --name=part-read --filename="/dev/$p2" --rw=randread --bs=$bs --direct=1 \
	--ioengine=libaio --iodepth=16 --size=$((ios * bs)) --randrepeat=1 \
	>/dev/null || fail "fio read pass on $p2 failed"
fio --name=part-write --filename="/dev/$p2" --rw=randwrite --bs=$bs --direct=1 \
	--ioengine=libaio --iodepth=16 --size=$((ios * bs)) --randrepeat=1 \
	>/dev/null || fail "fio write pass on $p2 failed"
d1=$(stats "$name") a1=$(stats "$p1") b1=$(stats "$p2")
say "stat (reads, sectors, writes, sectors, in flight): $name $d0 -> $d1; $p1 $a0 -> $a1; $p2 $b0 -> $b1"
want="$ios $((ios * bs / 512)) $ios $((ios * bs / 512))"
# delta BEFORE AFTER: the four counters' differences, then the in-flight gauge.
delta() {
	# shellcheck disable=SC2086 # two lines of numbers
	set -- $1 $2
	say "$(($6 - $1)) $(($7 - $2)) $(($8 - $3)) $(($9 - $4)) ${10}"
}
[ "$(delta "$b0" "$b1")" = "$want 0" ] ||
	fail "$p2 counted $(delta "$b0" "$b1") (reads sectors writes sectors in-flight), fio did $want"
[ "$(delta "$d0" "$d1")" = "$want 0" ] ||
	fail "$name counted $(delta "$d0" "$d1") for I/O on $p2, fio did $want"
[ "$(delta "$a0" "$a1")" = "0 0 0 0 0" ] ||
	fail "$p1 counted $(delta "$a0" "$a1") for I/O on $p2"
say "statistics: $p2 and $name counted fio's I/O exactly, $p1 nothing"

# ---- data and a filesystem on the first partition -----------------------
FIO_VERIFY_SIZE=$((4 * mib)) DEV_SIZE_BYTES=$part_bytes fio_write_verify "/dev/$p1" ||
	fail "fio write+verify on $p1 failed"
mkdir -p "$mnt"
if modprobe ext4 2>/dev/null || grep -q ext4 /proc/filesystems; then
	mkfs.ext4 -F -q "/dev/$p1" || fail "mkfs.ext4 on $p1 failed"
	mount -t ext4 "/dev/$p1" "$mnt" || fail "mount $p1 failed"
	head -c $((3 * mib)) /dev/urandom >"$mnt/f" || fail "write to ext4 on $p1 failed"
	sum=$(sha256sum <"$mnt/f")
	umount "$mnt" || fail "umount failed"
	echo 3 >/proc/sys/vm/drop_caches
	mount -t ext4 "/dev/$p1" "$mnt" || fail "remount $p1 failed"
	[ "$(sha256sum <"$mnt/f")" = "$sum" ] || fail "file on ext4 on $p1 changed across umount"
	umount "$mnt" || fail "second umount failed"
	e2fsck -fn "/dev/$p1" >/dev/null || fail "e2fsck -fn on $p1 reports problems"
	say "ext4 on $p1: file intact, e2fsck clean"
fi

# ---- an empty table removes the partitions ------------------------------
write_mbr "" 0
wait_until 10 sh -c "[ ! -e /sys/block/$name/$p1 ] && [ ! -e /sys/block/$name/$p2 ]" ||
	fail "partitions still there after BLKRRPART of an empty table"
say "empty table: $p1 and $p2 gone"
exit 0
