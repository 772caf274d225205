# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# A file system round trip on DEV (tests 030-ext4, 031-xfs).

# fs_roundtrip FSTYPE MKFS FSCK: MKFS (a command line, DEV appended) makes
# FSTYPE on DEV; mount, write files of several sizes (recording their
# sha256), umount, drop caches, mount again and check every file, umount,
# and FSCK (DEV appended) must find the file system clean.
fs_roundtrip() {
	_fs_type=$1 _fs_mkfs=$2 _fs_fsck=$3
	_fs_mnt=$SMQ_TEST_TMP/mnt
	_fs_sums=$SMQ_TEST_TMP/sha256
	mkdir -p "$_fs_mnt"
	trap 'umount "$_fs_mnt" 2>/dev/null' EXIT

	# shellcheck disable=SC2086 # the command line
	$_fs_mkfs "$DEV" || fail "$_fs_mkfs failed"
	mount -t "$_fs_type" "$DEV" "$_fs_mnt" || fail "mount failed"

	# Files: empty, sub-block, block-sized, odd sizes, a few MiB, many small ones.
	mkdir -p "$_fs_mnt/d/small"
	for _fs_spec in empty:0 one:1 lbs:512 odd:4095 page:4096 odd2:65537 big:1048576 bigger:6291456; do
		head -c "${_fs_spec#*:}" /dev/urandom >"$_fs_mnt/d/${_fs_spec%%:*}" ||
			fail "write ${_fs_spec%%:*}"
	done
	_fs_i=0
	while [ $_fs_i -lt 64 ]; do
		head -c $((_fs_i * 97 + 1)) /dev/urandom >"$_fs_mnt/d/small/f$_fs_i" ||
			fail "write small/f$_fs_i"
		_fs_i=$((_fs_i + 1))
	done
	(cd "$_fs_mnt" && find d -type f | sort | xargs sha256sum) >"$_fs_sums" || fail "sha256sum"
	say "wrote $(wc -l <"$_fs_sums") files"
	sync
	umount "$_fs_mnt" || fail "umount failed"

	echo 3 >/proc/sys/vm/drop_caches
	blockdev --flushbufs "$DEV"
	mount -t "$_fs_type" "$DEV" "$_fs_mnt" || fail "remount failed"
	(cd "$_fs_mnt" && sha256sum -c -s "$_fs_sums") || fail "file contents changed across umount/mount"
	say "all files read back intact"
	umount "$_fs_mnt" || fail "second umount failed"

	# shellcheck disable=SC2086 # the command line
	$_fs_fsck "$DEV" || fail "$_fs_fsck reports problems (status $?)"
	say "$_fs_fsck: clean"
}
