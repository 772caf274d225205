#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: ng-data
# timeout: 240
#
# Asynchronous SCSI passthrough (io_uring uring_cmd on /dev/smq-ng/H:C:T:L)
# carries data both ways, agreeing with the block path: a file written by
# passthrough WRITE(16) reads back identical through /dev/sdX (O_DIRECT),
# and one written through /dev/sdX reads back identical by passthrough
# READ(10), with plain buffers, one-element iovec arrays and registered
# (fixed) buffers.  Then a pattern written by passthrough at depth 32 is
# verified by random reads and rewrites from 2 jobs at once, interrupt
# driven and, where the disk has poll queues, polled (IORING_SETUP_IOPOLL);
# without poll queues a polled command is refused with EOPNOTSUPP.  The
# device node is a character device of mode 0600.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/ng.sh"
ng_setup

mode=$(stat -c %a "$NG")
[ "$mode" = 600 ] || fail "$NG has mode $mode, not 600"
say "$NG: character device, mode $mode"

T=$SMQ_TEST_TMP
dd if=/dev/urandom of="$T/a" bs=64k count=16 2>/dev/null
dd if=/dev/urandom of="$T/b" bs=64k count=16 2>/dev/null
mib=1048576

# passthrough -> block, block -> passthrough, for each way of passing memory
for how in plain vec fixed; do
	case $how in
	plain) opt= ;;
	vec) opt=--vec ;;
	fixed) opt=--fixed ;;
	esac
	# shellcheck disable=SC2086 # $opt: one option or none
	smq-ptio --mode write-file --file "$T/a" --offset $mib --bs 64k \
		--lbs "$NG_LBS" $opt "$NG" || fail "$how: passthrough WRITE failed"
	dd if="$DEV" of="$T/a.blk" bs=64k count=16 skip=16 iflag=direct 2>/dev/null ||
		fail "$how: block read failed"
	cmp "$T/a" "$T/a.blk" || fail "$how: block path reads other data than passthrough wrote"
	dd if="$T/b" of="$DEV" bs=64k seek=64 oflag=direct conv=notrunc 2>/dev/null ||
		fail "$how: block write failed"
	# shellcheck disable=SC2086
	smq-ptio --mode read-file --file "$T/b.pt" --size $mib --offset $((4 * mib)) \
		--bs 32k --cdb 10 --lbs "$NG_LBS" $opt "$NG" ||
		fail "$how: passthrough READ failed"
	cmp "$T/b" "$T/b.pt" || fail "$how: passthrough reads other data than the block path wrote"
	say "$how: both ways identical ($(md5sum <"$T/a" | cut -c1-8), $(md5sum <"$T/b" | cut -c1-8))"
done

# pattern: written sequentially at depth 32, then random verify and rewrite
size=$((8 * mib))
smq-ptio --rw write --bs 4k --iodepth 32 --size $size --offset $((8 * mib)) \
	--lbs "$NG_LBS" "$NG" || fail "pattern write failed"
smq-ptio --rw randverify --bs 4k --iodepth 32 --numjobs 2 --number_ios 4000 \
	--size $size --offset $((8 * mib)) --lbs "$NG_LBS" "$NG" ||
	fail "interrupt-driven verify failed"
if [ "$(cat "/sys/block/${DEV##*/}/queue/io_poll" 2>/dev/null)" = 1 ]; then
	smq-ptio --rw randverify --poll --fixed --bs 4k --iodepth 32 --numjobs 2 \
		--number_ios 4000 --size $size --offset $((8 * mib)) \
		--lbs "$NG_LBS" "$NG" || fail "polled verify failed"
else
	ng_expect_errno 95 "polled command without poll queues" --poll --raw 000000000000 --dir none
fi
smq-ptio --rw check --bs 64k --iodepth 8 --size $size --offset $((8 * mib)) \
	--lbs "$NG_LBS" "$NG" || fail "sequential check of the pattern failed"
# negative control: one 4 KiB block zeroed through the block path
dd if=/dev/zero of="$DEV" bs=4k count=1 seek=$((3 * mib / 4096 + 2048)) \
	oflag=direct conv=notrunc 2>/dev/null || fail "block write of zeros failed"
smq-ptio --quiet --rw check --bs 64k --iodepth 8 --size $size \
	--offset $((8 * mib)) --lbs "$NG_LBS" "$NG" &&
	fail "negative control: a zeroed block passed the check"
say "negative control: the zeroed block was found"
exit 0
