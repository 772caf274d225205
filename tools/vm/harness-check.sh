#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# harness-check.sh [KVER]: prove the guest bench itself works (three short boots):
#   status   a guest command's exit status comes back, and the guest test
#            runner reports PASS, SKIP, FAIL, a timed-out test and a test
#            that made the kernel log a WARNING (dmesg gate) as it should;
#   hang     a guest that hangs is killed at its wall-clock limit (20 s) and
#            reported as a failure (status 124), not waited on;
#   panic    a guest whose kernel panics is reported as a failure (125);
#   no-boot  run-suite.sh boots a suite line whose kernel dies before the
#            guest's init once more, and still counts it as a failure;
#   tcg-broke  tools/vm/tcg-broke.sh (run-suite.sh and the bench boot such a
#            guest again) tells emulator faults from the guest's own Oopses;
#   powerloss  tools/powerloss/selfcheck.py: powerloss.py's verdict on faked
#            boots (TCG retry, Oops, dmesg gate), no guest.
# harness-check.sh --debug RELEASE: the debug lane's own gate on the debug kernel
# (two boots): a leak on purpose (the kernel's kmemleak sample module) must
# make the runner report "FAIL kmemleak", and a use after free on purpose
# (LKDTM) must make the dmesg gate fail the test with KASAN's report (or
# KFENCE's, when the freed object was one of its samples).
# Prints "N passed, N failed" last; exit status 1 if anything failed.
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

debug=0
[[ "${1:-}" == --debug ]] && { debug=1; shift; }
spec="${1:-$SMQ_DEFAULT_KVER}"
out="${SMQ_HARNESS_CHECK_OUT:-$SMQ_RESULTS/harness-check/$(smq_timestamp)}"
passed=0 failed=0

verdict() { # OK NAME DETAIL...
	local ok="$1" name="$2"
	shift 2
	if [[ "$ok" == 1 ]]; then
		passed=$((passed + 1))
		echo "PASS harness-check-$name: $*"
	else
		failed=$((failed + 1))
		echo "FAIL harness-check-$name: $*"
	fi
}

# run NAME LIMIT COMMAND: boot, sets rc and secs.
run() {
	local name="$1" limit="$2" start=$SECONDS
	shift 2
	rc=0
	"$SMQ_TOOLS/vm/run.sh" -q -k "$spec" -M none -t "$limit" -o "$out/$name" -- "$@" || rc=$?
	secs=$((SECONDS - start))
}

# The debug kernel's detectors, as the runner and its gate see them.
harness_check_debug() {
	local got
	run kmemleak 240 'sh tests/guest/run-tests.sh none harness-check/905-kmemleak'
	got="$(cat "$out/kmemleak/results/guest-tests/results" 2>/dev/null || true)"
	if [[ "$got" == "PASS harness-kmemleak [none]"$'\n'"FAIL kmemleak [none]: suspected leaks (kmemleak):" ]] &&
		grep -q kmemleak_test "$out/kmemleak/results/guest-tests/kmemleak"; then
		verdict 1 kmemleak "a leak on purpose is reported by the runner's kmemleak scan"
	else
		verdict 0 kmemleak "unexpected verdicts:"$'\n'"$got"
	fi
	run kasan 240 'sh tests/guest/run-tests.sh none harness-check/906-kasan'
	got="$(cat "$out/kasan/results/guest-tests/results" 2>/dev/null || true)"
	if [[ "$got" == "FAIL harness-kasan [none]: kernel complained in dmesg (was: PASS)" ]] &&
		grep -Eq 'KASAN: slab-use-after-free|KFENCE: use-after-free' \
			"$out"/kasan/results/guest-tests/*/dmesg-bad; then
		# KFENCE reports instead of KASAN when the object came from its pool.
		verdict 1 kasan "a use after free on purpose fails the test through KASAN's (or KFENCE's) report"
	else
		verdict 0 kasan "unexpected verdicts:"$'\n'"$got"
	fi
	echo "$passed passed, $failed failed"
	((failed == 0))
}
if ((debug)); then
	harness_check_debug
	exit
fi

# 1. Exit status and the guest runner's verdicts.
expected="PASS harness-pass [none]
SKIP harness-skip [none]: skipping on purpose
FAIL harness-fail [none]: exit status 1
FAIL harness-timeout [none]: timed out after 3s
FAIL harness-dmesg-gate [none]: kernel complained in dmesg (was: PASS)"
run status 180 'sh tests/guest/run-tests.sh none harness-check/900-pass harness-check/901-skip \
	harness-check/902-fail harness-check/903-timeout harness-check/904-dmesg-gate; exit 7'
verdict "$((rc == 7))" exit-status "guest command's status 7 came back as $rc"
got="$(cat "$out/status/results/guest-tests/results" 2>/dev/null || true)"
if [[ "$got" == "$expected" ]] &&
	grep -qx '1 passed, 3 failed, 1 skipped' "$out/status/results/guest-tests/summary"; then
	verdict 1 runner "PASS, SKIP, FAIL, timeout and dmesg gate reported as expected"
else
	verdict 0 runner "unexpected runner verdicts:"$'\n'"$got"
fi

# 2. A hung guest is killed at the limit and reported.
run hang 20 'echo "hanging on purpose"; sleep 100000'
verdict "$((rc == 124 && secs < 45))" hang "hung guest: status $rc after ${secs}s (want 124 within the 20s limit)"

# 3. A kernel panic is reported, not mistaken for success.
run panic 120 'echo c >/proc/sysrq-trigger; sleep 100'
verdict "$((rc == 125))" panic "panicking guest: status $rc (want 125)"

# 4. A suite line whose guest never boots is booted again, then failed.
suite="$out/no-boot.suite"
mkdir -p "$out"
echo "none 001-smq-modules" >"$suite"
rc=0
SMQ_GUEST_APPEND="rdinit=/nonexistent" "$SMQ_TOOLS/vm/run-suite.sh" -k "$spec" -M none \
	-o "$out/no-boot" "$suite" >"$out/no-boot.log" 2>&1 || rc=$?
ok=0
if ((rc == 1)) && [[ -d "$out/no-boot/01-none.no-boot" && -d "$out/no-boot/01-none" ]] &&
	grep -q 'did not boot .*booting it again' "$out/no-boot.log" &&
	grep -qx '0 passed, 1 failed, 0 skipped' "$out/no-boot.log"; then
	ok=1
fi
verdict "$ok" no-boot "suite line whose kernel died in early boot: booted twice, counted" \
	"failed (status $rc; see $out/no-boot.log)"

# 5. tcg-broke.sh tells the emulator's faults (booted again) from the
# guest's own (failed): consoles from CI and bench runs, and ordinary Oopses.
tcg_case() { # WANT(0 broke, 1 not) NAME CONSOLE-TEXT
	local f="$out/tcg-$2.console" got=0
	printf '%s\n' "$3" >"$f"
	"$SMQ_TOOLS/vm/tcg-broke.sh" "$f" >/dev/null || got=1
	[[ "$got" == "$1" ]] || { echo "tcg-broke.sh: $2: exit $got, want $1" >&2; return 1; }
}
ok=1
tcg_case 0 eflags "RSP: 0018:ff6488da80d3f740 EFLAGS: 89ea17c2" || ok=0
tcg_case 0 int3 "Oops: int3: 0000 [#1] PREEMPT SMP NOPTI" || ok=0
tcg_case 0 db "WARNING: CPU: 1 PID: 9 at arch/x86/kernel/traps.c:1134 exc_debug_kernel+0x1/0x2" || ok=0
tcg_case 1 gpf "Oops: general protection fault, probably for non-canonical address
RSP: 0018:ffffb3c0c04b3d10 EFLAGS: 00010246" || ok=0
tcg_case 1 bug "kernel BUG at block/smq_tag.c:100!
RSP: 0018:ffffb3c0c04b3d10 EFLAGS: 00000282" || ok=0
verdict "$ok" tcg-broke "emulator faults told from the guest's (3 + 2 consoles)"

ok=1
"$SMQ_TOOLS/powerloss/selfcheck.py" "$out/powerloss" >"$out/powerloss.log" 2>&1 || ok=0
verdict "$ok" powerloss "powerloss.py reboots a TCG trap before the workloads only," \
	"fails Oopses and the dmesg gate ($(tail -n 1 "$out/powerloss.log"))"

echo "$passed passed, $failed failed"
((failed == 0))
