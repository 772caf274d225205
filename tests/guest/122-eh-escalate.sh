#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: eh-escalate
# timeout: 180
#
# Escalation: one READ is dropped (it times out after 3 s) and the abort of
# it fails, so the error handler resets the LUN, reclaims what the reset
# killed and sends TEST UNIT READY (answered with the UNIT ATTENTION the
# reset armed, then GOOD) before the LUN takes I/O again.  fio verify must
# pass (the READ is retried), the LUN must stay running, and the kernel
# log must show abort -> LUN reset.  Then eh_deadline=0 on the host: the
# next timeout skips straight to host reset.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/inject.sh"
need_cmd fio
need_scsi
inject_ready

t=$(sdev_attr "$DEV" timeout)
old=$(cat "$t")
say 3 >"$t" || fail "cannot set $t"
say 3 >"$(sdev_attr "$DEV" eh_timeout)" 2>/dev/null || true
trap 'say "$old" >"$t"' EXIT

FIO_VERIFY_SIZE=2097152 FIO_VERIFY_BSSPLIT=4096/50:65536/50 FIO_VERIFY_DEPTH=8
export FIO_VERIFY_SIZE FIO_VERIFY_BSSPLIT FIO_VERIFY_DEPTH
fio_verify_write "$DEV" >"$SMQ_TEST_TMP/w.log" 2>&1 ||
	{ cat "$SMQ_TEST_TMP/w.log"; fail "write pass failed"; }

mark=$(dmesg_mark)
inject "$DEV" 3 -1 0x28 || fail "cannot make the abort fail"
inject "$DEV" 0 -1 0x28 || fail "cannot drop a READ"
fio_verify_check "$DEV" >"$SMQ_TEST_TMP/v.log" 2>&1 ||
	{ cat "$SMQ_TEST_TMP/v.log"; fail "verify failed across abort -> LUN reset"; }
dmesg_since "$mark" >"$SMQ_TEST_TMP/dmesg"
cat "$SMQ_TEST_TMP/dmesg"
grep -Eqi 'abort' "$SMQ_TEST_TMP/dmesg" || fail "no abort logged"
grep -Eqi 'resetting the LUN|device reset|LUN reset' "$SMQ_TEST_TMP/dmesg" ||
	fail "no LUN reset after the failed abort"
grep -q running "$(sdev_attr "$DEV" state)" || fail "LUN not running after recovery"

# eh_deadline 0: recovery goes to host reset at once (smq only: the file
# is the class attribute of smq hosts).
h=$(inject_hctl "$DEV")
dl=/sys/class/smq_host/host${h%%:*}/eh_deadline
if [ -w "$dl" ]; then
	say 0 >"$dl" || fail "cannot set $dl"
	mark=$(dmesg_mark)
	inject "$DEV" 0 -1 0x28 || fail "cannot drop a READ"
	fio_verify_check "$DEV" >"$SMQ_TEST_TMP/v2.log" 2>&1 ||
		{ cat "$SMQ_TEST_TMP/v2.log"; fail "verify failed across host reset"; }
	say -1 >"$dl"
	dmesg_since "$mark" >"$SMQ_TEST_TMP/dmesg2"
	cat "$SMQ_TEST_TMP/dmesg2"
	grep -q 'eh_deadline passed' "$SMQ_TEST_TMP/dmesg2" || fail "eh_deadline 0 did not skip to host reset"
	grep -q 'aborting' "$SMQ_TEST_TMP/dmesg2" && fail "eh_deadline 0 still tried an abort"
	[ "$(cat "$dl")" = off ] || fail "eh_deadline -1 does not read back as off"
fi
exit 0
