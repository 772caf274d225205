#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: everything `make check` runs, in order:
#   setup     tools/vm/setup-host.sh (apt, guest kernels; fast when done)
#   unit      make -C tests/unit ("N passed, N failed")
#   lint      tools/lint.sh: checkpatch, kernel-doc, W=1 builds (6.12, 6.1),
#             sparse, shellcheck (one test per gate); the modules of its
#             W=1 builds (from scratch, no warning) are the ones the guests
#             load (a build step only where that gate failed)
#   vm        tools/vm/harness-check.sh: the guest bench itself (status, hung
#             guest killed at its limit, panic, runner verdicts, dmesg gate)
#   guest     tests/guest/suites/check on 6.12 (tools/vm/run-suite.sh: lines
#             booted alike share a guest)
#   bench     tools/bench/bench-check.sh: a two-point bench run on 6.12 (smq mq
#             and scsi_debug), its JSON, table, plot and compare checked
#   powerloss tools/powerloss/powerloss.py: 2 power cuts on 6.12 (smq mq
#             mq-deadline write back, smq legacy noop write through, Linux's
#             virtio_scsi beside it), nothing acknowledged may be lost; and
#             its negative control (flushes and FUA dropped) must lose
#   smoke     tests/guest/suites/smoke on 6.1 (lint's 6.1 W=1 modules)
# check.sh --long (make check-long): the long lane instead: setup, build,
#   the long suite on 6.12 (tests/guest/suites/long: the long versions of
#   cases make check runs short), power cuts over all 8 configurations
#   (SMQ_LONG_CUTS, default 8), build for 6.1, tests/guest/suites/long-6.1
# check.sh --debug (make check-debug): the debug-kernel lane instead:
#   kernel    tools/vm/debug-kernel.sh: build (or find cached) the 6.12 debug
#             kernel (KASAN, lockdep, kmemleak, fault injection, ...)
#   build     the modules against its tree (KDIR=)
#   harness   tools/vm/harness-check.sh --debug: a leak and a use after free on
#             purpose are caught by the runner's kmemleak scan and dmesg gate
#   guest     tests/guest/suites/debug on it (any KASAN, lockdep, kmemleak
#             or hung-task report fails the test or the boot)
# Every step counts its tests; the last line printed is
# "N passed, N failed, N skipped" and the exit status is 1 if anything failed.
# Logs: results/check/<time>/ (results/check-debug/<time>/ for --debug,
# results/check-long/<time>/ for --long;
# SMQ_RESULTS overrides results/).
set -uo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/lib/smq.sh"
SMQ_PROG=check

MAIN_KVER="${SMQ_CHECK_KVER:-6.12}"
OTHER_KVER="${SMQ_CHECK_OTHER_KVER:-6.1}"
mode=check
[[ "${1:-}" == --debug ]] && mode=check-debug
[[ "${1:-}" == --long ]] && mode=check-long
out="$SMQ_RESULTS/$mode/$(smq_timestamp)"
mkdir -p "$out"
passed=0 failed=0 skipped=0 last_failed=0 mods=none
summary=()

note() { # VERDICT TEXT
	summary+=("$(printf '%-5s %s' "$1" "$2")")
	smq_log "$1 $2"
}

# add_counts LABEL FILE: add the last "N passed, N failed[, N skipped]" of FILE.
# Returns 1 if FILE has none.
add_counts() {
	local line p f s
	line="$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$2" | tail -n 1)"
	[[ -n "$line" ]] || return 1
	read -r p _ f _ s _ <<<"${line//,/}"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
	last_failed=$f
	note "$( ((f)) && echo FAIL || echo ok)" "$1: $line"
}

# step NAME CMD...: run CMD, output to the terminal and $out/NAME.log.
step() {
	local name="$1" start=$SECONDS rc=0
	shift
	smq_log "=== $name: $*"
	"$@" 2>&1 | tee "$out/$name.log" || rc=$?
	smq_log "=== $name: status $rc ($((SECONDS - start))s)"
	return "$rc"
}

# one_test NAME CMD...: a step that counts as one test.
one_test() {
	if step "$@"; then
		passed=$((passed + 1))
		note PASS "$1"
	else
		failed=$((failed + 1))
		note FAIL "$1 (log: $out/$1.log)"
		return 1
	fi
}

# counted NAME CMD...: a step that prints "N passed, N failed[...]".
counted() {
	local name="$1" rc=0
	step "$@" || rc=$?
	if ! add_counts "$name" "$out/$name.log"; then
		failed=$((failed + 1))
		note FAIL "$name: no result line (status $rc; log: $out/$name.log)"
	elif ((rc && !last_failed)); then
		failed=$((failed + 1))
		note FAIL "$name: status $rc although no test failed"
	fi
}

# guest_suite NAME RELEASE SUITE MODULES: run a guest suite (one boot per
# suite line), count its results.
guest_suite() {
	counted "$1" "$SMQ_TOOLS/vm/run-suite.sh" -k "$2" -M "$4" -o "$out/$1" "$3"
}

# build_for NAME RELEASE: build; set mods to the module dir for the guest
# ("none" if the build failed, so that no stale modules are shipped).
build_for() {
	mods=none
	if one_test "$1" "$SMQ_TOOLS/build/build.sh" "$2"; then
		mods="$SMQ_TREE/build/$2"
	fi
}

# lint_mods GATE RELEASE NAME: the modules of lint's W=1 build GATE (built
# from scratch, every warning an error) serve the guests when that gate
# passed; else build them (build_for NAME). Sets mods.
lint_mods() {
	if grep -q "^lint: $1: ok" "$out/lint.log" 2>/dev/null &&
	   [[ -n "$(smq_built_modules "$SMQ_TREE/build/lint/$2")" ]]; then
		mods="$SMQ_TREE/build/lint/$2"
		smq_log "modules for $2: lint's $1 build ($mods)"
	else
		build_for "$3" "$2"
	fi
}

# Each lane's time budget on the 2-core machine (Documentation/testing.md).
declare -A BUDGET=([check]=2700 [check-long]=5400 [check-debug]=7200)

# lane_setup: the host setup every lane starts with; on failure the counts
# are printed and the lane stops.
lane_setup() {
	one_test setup "$SMQ_TOOLS/vm/setup-host.sh" && return 0
	echo "$passed passed, $failed failed, $skipped skipped"
	return 1
}

finish() {
	local secs=$((SECONDS - $1)) budget=${BUDGET[$mode]}
	{
		echo
		echo "$mode summary (${secs}s of a ${budget}s budget, logs in $out):"
		((secs <= budget)) ||
			echo "  OVER BUDGET: $mode took ${secs}s, its budget is ${budget}s (see $out/*/timing)"
		printf '  %s\n' "${summary[@]}"
		echo "$passed passed, $failed failed, $skipped skipped"
	} | tee "$out/summary"
	((failed == 0))
}

main_debug() {
	local start=$SECONDS rel tree
	lane_setup || return 1
	if ! one_test debug-kernel "$SMQ_TOOLS/vm/debug-kernel.sh"; then
		echo "$passed passed, $failed failed, $skipped skipped"
		return 1
	fi
	read -r rel tree < <("$SMQ_TOOLS/vm/debug-kernel.sh" --print)
	smq_log "debug kernel $rel, tree $tree"
	mods=none
	if KDIR="$tree" one_test "build-debug" "$SMQ_TOOLS/build/build.sh" "$rel"; then
		mods="$SMQ_TREE/build/$rel"
	fi
	SMQ_HARNESS_CHECK_OUT="$out/harness-check-debug" counted harness-check-debug \
		"$SMQ_TOOLS/vm/harness-check.sh" --debug "$rel"
	guest_suite "guest-debug" "$rel" debug "$mods"
	finish "$start"
}

main() {
	local start=$SECONDS rel
	lane_setup || return 1
	rel="$("$SMQ_TOOLS/build/kver.sh" "$MAIN_KVER")"
	if [[ -f "$SMQ_TREE/tests/unit/Makefile" ]]; then
		counted unit make -C "$SMQ_TREE/tests/unit"
	else
		note SKIP "unit: no tests/unit/Makefile"
	fi
	# Its W=1 builds (both kernels) are the modules the guests load.
	counted lint "$SMQ_TOOLS/lint.sh"
	lint_mods "w1-$MAIN_KVER" "$rel" "build-$MAIN_KVER"
	counted harness-check "$SMQ_TOOLS/vm/harness-check.sh" "$rel"
	guest_suite "guest-$MAIN_KVER" "$rel" check "$mods"
	counted bench-check "$SMQ_TOOLS/bench/bench-check.sh" "$rel" "$mods" "$out/bench-check"
	one_test powerloss "$SMQ_TOOLS/powerloss/powerloss.py" -n 2 -k "$rel" -M "$mods" \
		--configs Y:mq-deadline:1,N:none:0 --delay 2,5 -o "$out/powerloss"
	one_test powerloss-negative "$SMQ_TOOLS/powerloss/powerloss.py" -n 1 -k "$rel" \
		-M "$mods" --negative --configs Y:none:1 --delay 2,4 -o "$out/powerloss-negative"

	rel="$("$SMQ_TOOLS/build/kver.sh" "$OTHER_KVER")"
	lint_mods "w1-$OTHER_KVER" "$rel" "build-$OTHER_KVER"
	guest_suite "smoke-$OTHER_KVER" "$rel" smoke "$mods"
	finish "$start"
}

# The long lane: what does not fit make check's budget (each case keeps a
# short version there): the long suite on the main kernel, more power cuts
# over every configuration, and the main kernel's check suite on the other.
main_long() {
	local start=$SECONDS rel
	lane_setup || return 1
	rel="$("$SMQ_TOOLS/build/kver.sh" "$MAIN_KVER")"
	build_for "build-$MAIN_KVER" "$rel"
	guest_suite "long-$MAIN_KVER" "$rel" long "$mods"
	one_test powerloss "$SMQ_TOOLS/powerloss/powerloss.py" -n "${SMQ_LONG_CUTS:-8}" \
		-k "$rel" -M "$mods" -o "$out/powerloss"

	rel="$("$SMQ_TOOLS/build/kver.sh" "$OTHER_KVER")"
	build_for "build-$OTHER_KVER" "$rel"
	guest_suite "long-$OTHER_KVER" "$rel" long-6.1 "$mods"
	finish "$start"
}

case "$mode" in
check-debug) main_debug ;;
check-long) main_long ;;
*) main ;;
esac
