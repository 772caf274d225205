#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-medium
# timeout: 180
#
# A MEDIUM ERROR fails exactly the I/O holding the bad block.  fio writes
# 64 KiB around block BAD (4 KiB verify blocks), then the driver reports
# MEDIUM ERROR for READs touching BAD (opts=2, medium_error_start=BAD,
# medium_error_count=1; INFORMATION = BAD).  fio reads the range back with
# 16 4 KiB reads submitted at once (merged into one request when they can
# be): exactly one read (the 4 KiB holding BAD) must fail, every other one
# must verify (the midlayer completes the blocks before BAD, fails the bio
# holding it and reissues the rest).  Negative control: fio must see the
# error.  Then each 4 KiB block is read alone: the bad one fails, its
# neighbours read fine.  On scsi_debug the count of failed batched reads
# is recorded, not judged: Linux failed the whole merged request here
# (blk_rq_err_bytes() without REQ_FAILFAST_*).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
need_cmd fio
need_scsi
inject_drv >/dev/null || skip "neither smq_sas nor scsi_debug"
[ -w "/sys/module/$(inject_drv)/parameters/medium_error_start" ] ||
	skip "no writable medium_error_start"

lbs=${DEV_LBS:-512}
spb=$((4096 / lbs))			# blocks per 4 KiB
bad=$((spb * 64 + spb / 2))		# inside the 4 KiB block at 256 KiB
off=$(((spb * 64 - 8 * spb) * lbs))	# 8 x 4 KiB before it
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	inject_param opts 0
	inject_param medium_error_count 0
}
trap cleanup EXIT

fio --name=medium-w --filename="$DEV" --rw=write --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=16 --offset="$off" --size=65536 \
	--verify=crc32c --do_verify=0 >"$SMQ_TEST_TMP/w.out" 2>&1 ||
	{ cat "$SMQ_TEST_TMP/w.out"; fail "writing the range failed"; }

mark=$(dmesg_mark)
inject_param medium_error_start "$bad" || fail "cannot set medium_error_start"
inject_param medium_error_count 1 || fail "cannot set medium_error_count"
inject_param opts 2 || fail "cannot set opts"

fio --name=medium-r --filename="$DEV" --rw=read --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=16 --iodepth_batch_submit=16 \
	--offset="$off" --size=65536 --verify=crc32c --verify_only \
	--continue_on_error=all >"$SMQ_TEST_TMP/r.out" 2>&1
rc=$?
cat "$SMQ_TEST_TMP/r.out"
dmesg_since "$mark" | grep -E 'FAILED|partial completion'
grep -Eq 'verify: bad|bad magic|verify failed|crc32c: verify' "$SMQ_TEST_TMP/r.out" &&
	fail "a block other than the bad one came back wrong"
nerr=$(grep -c 'io_u error on file' "$SMQ_TEST_TMP/r.out")
[ "$rc" != 0 ] || [ "$nerr" != 0 ] || fail "negative control: fio did not see the medium error"
if [ "$(inject_drv)" = smq_sas ]; then
	[ "$nerr" = 1 ] || fail "fio saw $nerr failed reads, want exactly 1 (the 4 KiB holding block $bad)"
	grep 'io_u error on file' "$SMQ_TEST_TMP/r.out" | grep -q "offset=$((spb * 64 * lbs))," ||
		fail "the failed read is not the one holding block $bad"
else
	say "scsi_debug: $nerr failed reads recorded, not judged (Linux failed the whole merged request here)"
fi

i=-2
while [ "$i" -le 2 ]; do
	blk=$((64 + i))
	if dd if="$DEV" of=/dev/null bs=4096 skip="$blk" count=1 iflag=direct 2>/dev/null; then
		[ "$i" != 0 ] || fail "4 KiB block $blk (holding bad block $bad) read fine"
	else
		[ "$i" = 0 ] || fail "4 KiB block $blk next to the bad one failed"
	fi
	i=$((i + 1))
done
exit 0
