#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: store-enospc
# timeout: 120
#
# smq_sas's RAM store allocates a page on the first write to it, without
# sleeping.  When that allocation fails the write must fail at once (DATA
# PROTECT, SPACE ALLOCATION FAILED: ENOSPC for the writer, as a thin LUN out
# of space), not be retried forever.  Needs the debug kernel's page
# allocation fault injection (fail_page_alloc, task-filtered: only the
# writing dd's non-sleeping allocations fail; the target must issue in the
# submitter's context: IRQMODE=0, no scheduler).  Afterwards the same write
# without injection succeeds and reads back.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/knobs.sh"
need_dev
f=/sys/kernel/debug/fail_page_alloc
[ -w "$f/probability" ] || skip "no fail_page_alloc (not the debug kernel)"
p=/sys/module/smq_sas/parameters
[ -r "$p/backing" ] || skip "$DEV is not an smq_sas disk"
[ "$(cat "$p/backing")" = ram ] || skip "null backing has no store"
[ "$(cat "$p/irqmode")" = 0 ] || skip "needs irqmode=0 (issue in the submitter's context)"

# Probability last, so restore_knobs (last changed first) undoes it first.
trap restore_knobs EXIT
knob "$f/task-filter" Y
knob "$f/ignore-gfp-wait" Y	# only non-sleeping allocations fail
knob "$f/min-order" 0
knob "$f/interval" 1
knob "$f/times" -1
knob "$f/space" 0
knob "$f/verbose" 0
knob "$f/probability" 100

lbs=${DEV_LBS:-512}
blk=$(( (DEV_SIZE_BYTES - 1048576) / 4096 ))	# a 4 KiB page never written
head -c 4096 /dev/urandom >"$SMQ_TEST_TMP/data"
sh -c 'echo 1 >/proc/self/make-it-fail; exec dd if="$1" of="$2" bs=4096 seek="$3" count=1 oflag=direct conv=notrunc' \
	sh "$SMQ_TEST_TMP/data" "$DEV" "$blk" >"$SMQ_TEST_TMP/dd" 2>&1 &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 300 ] || { kill "$pid"; restore_knobs; fail "the write did not end within 30 s (retried forever?)"; }
	sleep 0.1
done
rc=0
wait "$pid" || rc=$?
cat "$SMQ_TEST_TMP/dd"
[ "$rc" != 0 ] || fail "the write succeeded although its page allocation was to fail"
grep -qi "no space" "$SMQ_TEST_TMP/dd" || fail "the write failed, but not with ENOSPC"
say "failed write ended in $((n / 10)) s with ENOSPC"

restore_knobs
dd if="$SMQ_TEST_TMP/data" of="$DEV" bs=4096 seek="$blk" count=1 oflag=direct conv=notrunc 2>/dev/null ||
	fail "the write failed without fault injection"
dd if="$DEV" of="$SMQ_TEST_TMP/back" bs=4096 skip="$blk" count=1 iflag=direct 2>/dev/null ||
	fail "reading back failed"
cmp "$SMQ_TEST_TMP/data" "$SMQ_TEST_TMP/back" || fail "read back differs"
[ "$lbs" -le 4096 ] || fail "unexpected LBS $lbs"
exit 0
