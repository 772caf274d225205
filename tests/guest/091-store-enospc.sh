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
need_dev
f=/sys/kernel/debug/fail_page_alloc
[ -w "$f/probability" ] || skip "no fail_page_alloc (not the debug kernel)"
p=/sys/module/smq_sas/parameters
[ -r "$p/backing" ] || skip "$DEV is not an smq_sas disk"
[ "$(cat "$p/backing")" = ram ] || skip "null backing has no store"
[ "$(cat "$p/irqmode")" = 0 ] || skip "needs irqmode=0 (issue in the submitter's context)"

for a in probability interval times space verbose task-filter ignore-gfp-wait min-order; do
	eval "old_$(say "$a" | tr - _)=\$(cat \$f/\$a)"
done
restore() {
	say 0 >"$f/probability"
	for a in interval times space verbose task-filter ignore-gfp-wait min-order; do
		eval "say \"\$old_$(say "$a" | tr - _)\"" >"$f/$a"
	done
}
trap restore EXIT
say Y >"$f/task-filter"
say Y >"$f/ignore-gfp-wait"	# only non-sleeping allocations fail
say 0 >"$f/min-order"
say 1 >"$f/interval"
say -1 >"$f/times"
say 0 >"$f/space"
say 0 >"$f/verbose"
say 100 >"$f/probability"

lbs=${DEV_LBS:-512}
blk=$(( (DEV_SIZE_BYTES - 1048576) / 4096 ))	# a 4 KiB page never written
head -c 4096 /dev/urandom >"$SMQ_TEST_TMP/data"
sh -c 'echo 1 >/proc/self/make-it-fail; exec dd if="$1" of="$2" bs=4096 seek="$3" count=1 oflag=direct conv=notrunc' \
	sh "$SMQ_TEST_TMP/data" "$DEV" "$blk" >"$SMQ_TEST_TMP/dd" 2>&1 &
pid=$!
n=0
while kill -0 "$pid" 2>/dev/null; do
	n=$((n + 1))
	[ "$n" -le 300 ] || { kill "$pid"; restore; fail "the write did not end within 30 s (retried forever?)"; }
	sleep 0.1
done
rc=0
wait "$pid" || rc=$?
cat "$SMQ_TEST_TMP/dd"
[ "$rc" != 0 ] || fail "the write succeeded although its page allocation was to fail"
grep -qi "no space" "$SMQ_TEST_TMP/dd" || fail "the write failed, but not with ENOSPC"
say "failed write ended in $((n / 10)) s with ENOSPC"

restore
trap - EXIT
dd if="$SMQ_TEST_TMP/data" of="$DEV" bs=4096 seek="$blk" count=1 oflag=direct conv=notrunc 2>/dev/null ||
	fail "the write failed without fault injection"
dd if="$DEV" of="$SMQ_TEST_TMP/back" bs=4096 skip="$blk" count=1 iflag=direct 2>/dev/null ||
	fail "reading back failed"
cmp "$SMQ_TEST_TMP/data" "$SMQ_TEST_TMP/back" || fail "read back differs"
[ "$lbs" -le 4096 ] || fail "unexpected LBS $lbs"
exit 0
