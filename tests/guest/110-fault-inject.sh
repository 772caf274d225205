#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: fault-inject
# timeout: 400
#
# Fault injection recipes that run unchanged on smq_sas and scsi_debug: the
# every_nth / opts / medium_error_* parameters and the LUN's debugfs "error"
# rules (scsi_debug 6.12's format; skipped where the kernel has none).
# Transient faults must be invisible to the user: fio write+verify passes
# with every 20th command failing with RECOVERED ERROR, a transport error,
# host busy, a short transfer, an abort, and one dropped (timed-out)
# WRITE; a dropped WRITE and READ are recovered with their data (dd +
# cmp). Hard
# faults hit exactly the injected I/O: in a medium error range direct reads
# fail from its first bad block on and nowhere else; rule 2 gives SG_IO the
# status and sense it names (CHECK CONDITION, BUSY, host
# byte DID_NO_CONNECT). smq_sas only: rule 5 (medium error range with the
# bad LBA in the sense INFORMATION field), rule 6 (short transfer: resid),
# per-rule injected counters, every_nth / opts validation.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/knobs.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/fault.sh"
need_cmd fio sg_raw sg_turs
need_scsi
fault_setup

lbs=${DEV_LBS:-512}
tmo=/sys/block/${DEV##*/}/device/timeout
trap 'fault_opts 0 0 >/dev/null; fault_rules_clear; restore_knobs' EXIT
knob "$tmo" 2
knob "$FAULT_MES" 2000
knob "$FAULT_MEC" 8

# Sequential writes: none overlaps another (fio_verify_args' blockalign
# turns fio's random map off, so random writes may hit a block twice; a
# fault that retries the first reorders them, and fio's verify, expecting
# the later one, reports a mismatch on any disk, scsi_debug's too).
FIO_VERIFY_SIZE=1048576 FIO_VERIFY_BSSPLIT=4096/50:65536/50 FIO_VERIFY_DEPTH=8 FIO_VERIFY_RW=write
export FIO_VERIFY_SIZE FIO_VERIFY_BSSPLIT FIO_VERIFY_DEPTH FIO_VERIFY_RW

# verify_under WHAT: fio write+verify must pass with the current faults.
verify_under() {
	fio_write_verify "$DEV" >"$SMQ_TEST_TMP/fio.log" 2>&1 ||
		{ cat "$SMQ_TEST_TMP/fio.log"; fail "write+verify failed under $1"; }
	say "write+verify passed under $1"
}

# ---- transient faults: the user sees nothing --------------------------------
for o in 0x8:recovered-error 0x10:transport-error 0x8000:host-busy \
	0x100:short-transfer 0x10000:command-abort; do
	fault_opts 20 "${o%%:*}"
	verify_under "${o#*:} (every_nth=20 opts=${o%%:*})"
done
fault_opts 0 0

if [ -n "$FAULT_ERR" ]; then
	fault_rule "0 -1 0x2a"
	verify_under "one dropped WRITE(10) (rule 0)"
	fault_rules_clear
	# A dropped WRITE(10), then a dropped READ(10) of the same 64 KiB.
	dd if=/dev/urandom of="$SMQ_TEST_TMP/data" bs=4096 count=16 2>/dev/null
	fault_rule "0 -1 0x2a"
	dd if="$SMQ_TEST_TMP/data" of="$DEV" bs=65536 seek=64 count=1 oflag=direct conv=notrunc 2>/dev/null ||
		fail "the dropped WRITE(10) of 64 KiB at 4 MiB was not recovered"
	awk '$1 == 0 && $3 == "0x2a" && $2 != 0 { bad = 1 } END { exit bad }' "$FAULT_ERR" ||
		fail "the WRITE(10) was not dropped"
	fault_rule "0 -1 0x28"
	dd if="$DEV" of="$SMQ_TEST_TMP/back" bs=65536 skip=64 count=1 iflag=direct 2>/dev/null ||
		fail "the dropped READ(10) was not recovered"
	cmp "$SMQ_TEST_TMP/data" "$SMQ_TEST_TMP/back" || fail "the recovered READ(10) returned other data"
	awk '$1 == 0 && $3 == "0x28" && $2 != 0 { bad = 1 } END { exit bad }' "$FAULT_ERR" ||
		fail "the READ(10) was not dropped"
	fault_rules_clear
	say "a dropped WRITE(10) and READ(10) were recovered with their data"
fi

# ---- medium error range (opts 2): the first bad block fails, nothing else ----
fault_opts 0 2
dd if="$DEV" of=/dev/null bs="$lbs" skip=1990 count=10 iflag=direct 2>"$SMQ_TEST_TMP/dd" ||
	{ cat "$SMQ_TEST_TMP/dd"; fail "reading blocks 1990..1999 before the bad range failed"; }
dd if="$DEV" of=/dev/null bs="$lbs" skip=2008 count=10 iflag=direct 2>"$SMQ_TEST_TMP/dd" ||
	{ cat "$SMQ_TEST_TMP/dd"; fail "reading blocks 2008..2017 after the bad range failed"; }
# first_bad FIRST LAST: the first block of FIRST..LAST a direct read fails
# (bad ranges here start on a 4 KiB boundary: see rule 5 below).
first_bad() {
	_fb=$1
	while [ "$_fb" -le "$2" ]; do
		dd if="$DEV" of=/dev/null bs="$lbs" skip="$_fb" count=1 iflag=direct 2>/dev/null ||
			{ say "$_fb"; return; }
		_fb=$((_fb + 1))
	done
	say none
}
b=$(first_bad 1996 2003)
[ "$b" = 2000 ] || fail "the first block failing in 1996..2003 is $b, not 2000"
if dd if="$DEV" of=/dev/null bs="$lbs" skip=1996 count=8 iflag=direct 2>/dev/null; then
	fail "reading blocks 1996..2003 across the medium error did not fail"
fi
if dd if="$DEV" of=/dev/null bs=$((lbs * 8)) skip=$((2000 / 8)) count=1 iflag=direct 2>/dev/null; then
	fail "an 8-block read of the bad range did not fail"
fi
sg_raw -v -r "$lbs" "$DEV" 28 00 00 00 07 d3 00 00 01 00 >"$SMQ_TEST_TMP/sg" 2>&1
grep -qi "medium error" "$SMQ_TEST_TMP/sg" || { cat "$SMQ_TEST_TMP/sg"; fail "READ(10) of block 2003 is not a MEDIUM ERROR"; }
fault_opts 0 0
dd if="$DEV" of=/dev/null bs="$lbs" skip=1996 count=8 iflag=direct 2>/dev/null ||
	fail "blocks 1996..2003 still fail after opts=0"
say "medium error range: the first bad block fails, nothing else"

[ -n "$FAULT_ERR" ] || { say "no debugfs error file: rules not tested"; exit 0; }

# ---- rule 2: status, sense and host byte as given ---------------------------
fault_rule "2 -1 0x28 0 0 0x2 0x3 0x11 0x0"
sg_raw -v -r "$lbs" "$DEV" 28 00 00 00 00 10 00 00 01 00 >"$SMQ_TEST_TMP/sg" 2>&1
grep -qi "medium error" "$SMQ_TEST_TMP/sg" || { cat "$SMQ_TEST_TMP/sg"; fail "rule 2: no MEDIUM ERROR"; }
sg_raw -r "$lbs" "$DEV" 28 00 00 00 00 10 00 00 01 00 >"$SMQ_TEST_TMP/sg" 2>&1 ||
	{ cat "$SMQ_TEST_TMP/sg"; fail "rule 2 with count -1 failed a second READ"; }
# BUSY is transient: the midlayer may hand it to SG_IO or retry it.
fault_rule "2 -1 0x0 0 0 0x8 0 0 0"
sg_turs "$DEV" >"$SMQ_TEST_TMP/sg" 2>&1
cat "$SMQ_TEST_TMP/sg"
awk '$1 == 2 && $3 == "0x0" && $2 != 0 { bad = 1 } END { exit bad }' "$FAULT_ERR" ||
	{ cat "$FAULT_ERR"; fail "rule 2: BUSY for TEST UNIT READY was not injected"; }
# sg_turs (sg3_utils 1.46) reports a transport error but exits 0.
fault_rule "2 -1 0x0 0x1 0 0 0 0 0"
sg_turs -vv "$DEV" >"$SMQ_TEST_TMP/sg" 2>&1
cat "$SMQ_TEST_TMP/sg"
grep -q "DID_NO_CONNECT" "$SMQ_TEST_TMP/sg" ||
	fail "rule 2: TEST UNIT READY did not fail with DID_NO_CONNECT"
sg_turs "$DEV" || fail "TEST UNIT READY fails after the rules were used up"
fault_rules_clear
say "rule 2: status, sense and host byte as given"

[ "$FAULT_DRV" = smq_sas ] || exit 0

# ---- smq_sas's own rules ----------------------------------------------------
fault_rule "5 -1 0x28 100 4"
sg_raw -v -r $((lbs * 8)) "$DEV" 28 00 00 00 00 62 00 00 08 00 >"$SMQ_TEST_TMP/sg" 2>&1
cat "$SMQ_TEST_TMP/sg"
grep -qi "medium error" "$SMQ_TEST_TMP/sg" || fail "rule 5: no MEDIUM ERROR"
grep -qi "info fld=0x64" "$SMQ_TEST_TMP/sg" || fail "rule 5: INFORMATION is not the first bad block 100"
grep -q "injected=1" "$FAULT_ERR" || { cat "$FAULT_ERR"; fail "rule 5: no injected=1"; }
sg_raw -r $((lbs * 8)) "$DEV" 28 00 00 00 00 62 00 00 08 00 >/dev/null 2>&1 ||
	fail "rule 5 with count -1 failed twice"
# The used-up rule for 0x28 would still decide for READ(10): remove it.
fault_rules_clear
# Page aligned (busybox dd may read through the page cache, a page at a time).
fault_rule "5 1 0xff 104 4"
b=$(first_bad 96 111)
[ "$b" = 104 ] || fail "rule 5: the first block failing in 96..111 is $b, not 104"
fault_rules_clear

fault_rule "6 -1 0x28 3"
sg_raw -v -r $((lbs * 8)) "$DEV" 28 00 00 00 00 00 00 00 08 00 >"$SMQ_TEST_TMP/sg" 2>&1
cat "$SMQ_TEST_TMP/sg"
grep -qi "resid=$((lbs * 3))\|received $((lbs * 5)) bytes" "$SMQ_TEST_TMP/sg" ||
	fail "rule 6: the residual is not 3 blocks"
fault_rule "6 -1 0x28 1"
verify_under "a short READ(10) (rule 6)"
fault_rules_clear

refuse "$FAULT_NTH" abc
refuse "$FAULT_OPTS" 0x20000
refuse "$FAULT_MEC" -1
if say "9 1 0x28" >"$FAULT_ERR" 2>/dev/null; then
	fail "$FAULT_ERR accepted an unknown rule type"
fi
say "all fault kinds behaved"
exit 0
