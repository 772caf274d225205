#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: cache-type
# timeout: 240
#
# The disk's cache_type attribute (sd's strings): write back -> write
# through -> write back, each change sent to the device with MODE SELECT
# (MODE SENSE of the caching page shows WCE following) and reflected in the
# block queue's write_cache; fio verifies the data in each state; fsync()
# sends a flush with write back and none with write through (LUN command
# counts).  "temporary " changes only the
# disk's view, a cache type the device cannot take (RCD is not changeable)
# and nonsense are refused.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/sg3.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd sg_raw sg_inq fio
need_scsi

disk=${DEV##*/}
ct=/sys/block/$disk/cache_type
[ -e "$ct" ] || skip "no $ct (not an smq disk)"
wc=/sys/block/$disk/queue/write_cache
: "${FIO_VERIFY_SIZE:=4194304}"
export FIO_VERIFY_SIZE

# flush_cmds: commands the LUN received (iorequest_cnt) for three fsync()s
# of the idle disk: each is one flush and nothing else, or nothing at all.
flush_cmds() {
	_fc_0=$(cat "/sys/block/$disk/device/iorequest_cnt")
	for _fc_i in 1 2 3; do
		dd if=/dev/zero of="$DEV" bs=4k count=0 conv=fsync 2>/dev/null ||
			fail "fsync of $DEV failed"
	done
	_fc_1=$(cat "/sys/block/$disk/device/iorequest_cnt")
	say $((_fc_1 - _fc_0))
}

# expect CACHE_TYPE WCE WRITE_CACHE: the attribute, the device's WCE and the
# queue's write_cache agree.
expect() {
	[ "$(cat "$ct")" = "$1" ] || fail "cache_type is '$(cat "$ct")', not '$1'"
	_ex_w=$(sg_wce "$DEV") || fail "MODE SENSE of the caching page failed"
	[ "$_ex_w" = "$2" ] || fail "device WCE is $_ex_w with cache_type '$1'"
	[ "$(cat "$wc")" = "$3" ] || fail "queue write_cache is '$(cat "$wc")', not '$3'"
	say "cache_type '$1': WCE $2, queue $3"
}

verify() {
	fio_write_verify "$DEV" || fail "fio verify failed ($(cat "$ct"))"
	# fsync after every write: flushes when the cache is write back
	fio --name=fsync --filename="$DEV" --rw=write --bs=4k --size=256k \
		--fsync=1 --direct=0 --output=/dev/null || fail "fio fsync job failed"
}

expect "write back" 1 "write back"
verify
n=$(flush_cmds)
[ "$n" -ge 3 ] || fail "write back: $n commands for 3 fsyncs (flushes lost)"
say "write back: 3 fsyncs, $n flushes reached the disk"

say "write through" >"$ct" || fail "cannot write 'write through'"
expect "write through" 0 "write through"
verify
n=$(flush_cmds)
[ "$n" = 0 ] || fail "write through: $n commands reached the disk for 3 fsyncs"
say "write through: 3 fsyncs, no flush reached the disk"

say "write back" >"$ct" || fail "cannot write 'write back'"
expect "write back" 1 "write back"
verify

say "temporary write through" >"$ct" || fail "cannot write 'temporary write through'"
expect "write through" 1 "write through"
say "write back" >"$ct" || fail "cannot write 'write back'"
expect "write back" 1 "write back"

refuse "$ct" "none"
refuse "$ct" "write back, no read (daft)"
refuse "$ct" "write sometimes"
expect "write back" 1 "write back"
