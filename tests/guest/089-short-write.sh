#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: short-write
# timeout: 60
#
# smq_sas's emulated disk and a WRITE whose data-out buffer is shorter than
# its blocks (SG_IO: WRITE(10) of 2 blocks with 1 block of data): the target
# must not report GOOD with nothing missing; it ends the command with CHECK
# CONDITION (ABORTED COMMAND, DATA PHASE ERROR) and writes nothing.  The
# kernel's scsi_debug reports GOOD for this (it is skipped there).

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd sg_raw
need_scsi
[ -d /sys/module/smq_sas ] || skip "not an smq_sas disk (scsi_debug takes short writes as GOOD)"

lbs=${DEV_LBS:-512}
lba=64
# Known contents in blocks lba, lba+1.
dd if=/dev/urandom of="$SMQ_TEST_TMP/before" bs="$lbs" count=2 2>/dev/null
dd if="$SMQ_TEST_TMP/before" of="$DEV" bs="$lbs" seek="$lba" count=2 oflag=direct conv=notrunc 2>/dev/null ||
	fail "writing the known blocks failed"
head -c "$lbs" /dev/zero >"$SMQ_TEST_TMP/one"
sg_raw -v -s "$lbs" -i "$SMQ_TEST_TMP/one" "$DEV" 2a 00 00 00 00 "$(printf %02x "$lba")" 00 00 02 00 \
	>"$SMQ_TEST_TMP/sg_raw" 2>&1
cat "$SMQ_TEST_TMP/sg_raw"
grep -qi "check condition" "$SMQ_TEST_TMP/sg_raw" ||
	fail "a WRITE of 2 blocks with 1 block of data was not refused"
grep -qi "aborted command" "$SMQ_TEST_TMP/sg_raw" ||
	fail "the refusal is not ABORTED COMMAND"
dd if="$DEV" of="$SMQ_TEST_TMP/after" bs="$lbs" skip="$lba" count=2 iflag=direct 2>/dev/null ||
	fail "reading back failed"
cmp "$SMQ_TEST_TMP/before" "$SMQ_TEST_TMP/after" || fail "the refused WRITE changed the medium"
exit 0
