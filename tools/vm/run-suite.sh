#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-suite.sh [-k KVER] [-M DIR|none] [-o DIR] SUITE: run a guest suite
# (tests/guest/suites/SUITE, or a file) with one guest boot per suite line,
# so that a target that breaks the kernel cannot take the other targets'
# results with it. Each boot's wall-clock limit is 120 s plus, per test, its
# "# timeout:" + 30 s. Streams the guests' consoles (with the runner's
# PASS/FAIL/SKIP lines) and prints, last, "N passed, N failed, N skipped"
# over all lines (a boot that did not finish counts as one more failure).
# A guest whose kernel dies before its init reports SMQ-BOOTED (nothing of
# smq loaded yet) is booted once more; its first output stays in DIR.no-boot.
# So is, once, a failed line whose console proves that the emulated CPU,
# not the guest, went wrong: an EFLAGS with reserved bits set in a register
# dump (no instruction can load them), or a #DB / int3 trap in kernel code
# with no debugger, or an Oops on an int3 left by a finished text patch
# (all seen here under TCG, at random points); its first
# output stays in DIR.tcg-trap and the retry is announced on the output.
# Exit status 1 if anything failed.
# Output: DIR (default results/suite/<time>-<release>), one subdirectory per line.
# SMQ_GUEST_APPEND in the environment: more kernel command-line arguments
# for every boot (e.g. kfence.sample_interval=10).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

GUEST_TESTS="$SMQ_TREE/tests/guest"

# tcg_broke CONSOLE: true when CONSOLE shows the emulator, not the guest, went
# wrong (tools/vm/tcg-broke.sh); TCG_WHY says how.
tcg_broke() {
	TCG_WHY=$("$SMQ_TREE/tools/vm/tcg-broke.sh" "$1")
}

spec="$SMQ_DEFAULT_KVER" mods="" out=""
while getopts ":k:M:o:" opt; do
	case "$opt" in
	k) spec="$OPTARG" ;;
	M) mods="$OPTARG" ;;
	o) out="$OPTARG" ;;
	*) smq_die "usage: ${0##*/} [-k KVER] [-M DIR|none] [-o DIR] SUITE" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || smq_die "usage: ${0##*/} [-k KVER] [-M DIR|none] [-o DIR] SUITE"
suite="$1"
[[ -f "$suite" ]] || suite="$GUEST_TESTS/suites/$1"
[[ -f "$suite" ]] || smq_die "no suite $1"
rel="$(smq_guest_release "$spec")" || smq_die "no guest kernel for '$spec'; run tools/vm/setup-host.sh"
out="${out:-$SMQ_RESULTS/suite/$(smq_timestamp)-$rel}"

# Test files a TEST word names (the rules of run-tests.sh).
test_files() {
	local t="$1" f
	if [[ "$t" == all ]]; then
		compgen -G "$GUEST_TESTS/[0-9][0-9][0-9]-*.sh" || true
		return
	fi
	for f in "$GUEST_TESTS/${t%.sh}.sh" "$GUEST_TESTS/$t"-*.sh \
		"$GUEST_TESTS"/[0-9][0-9][0-9]-"${t%.sh}".sh; do
		[[ -f "$f" ]] && { echo "$f"; return; }
	done
}

# boot_limit TEST...: the wall-clock limit of a boot running these tests.
boot_limit() {
	local t f s limit=120
	for t in "$@"; do
		while IFS= read -r f; do
			[[ -n "$f" ]] || continue
			s="$(sed -n 's/^# timeout:[[:space:]]*\([0-9]*\).*/\1/p' "$f" | head -n 1)"
			limit=$((limit + ${s:-60} + 30))
		done < <(test_files "$t")
	done
	echo "$limit"
}

# boot_line DIR: one guest for the current suite line (target, tests, cpus,
# append), output in DIR; run.sh's exit status.
boot_line() {
	"$SMQ_TOOLS/vm/run.sh" -k "$rel" -c "$cpus" ${mods:+-M "$mods"} -a "$append" \
		${vspec:+-V "$vspec"} \
		-t "$(boot_limit "${tests[@]}")" \
		-o "$1" -- sh tests/guest/run-tests.sh "$target" "${tests[@]}"
}

passed=0 failed=0 skipped=0 n=0
while read -r -a words; do
	[[ ${#words[@]} -gt 0 && "${words[0]}" != \#* ]] || continue
	n=$((n + 1))
	target="${words[0]}"
	tests=("${words[@]:1}")
	# QEMU option values cannot hold commas: keep them out of paths.
	dir="$out/$(printf %02d "$n")-${target//[^A-Za-z0-9_.=-]/_}"
	# VCPUS=N in the target spec boots this line's guest with N vCPUs.
	cpus=2
	[[ "$target" =~ (^|[:,])VCPUS=([0-9]+) ]] && cpus="${BASH_REMATCH[2]}"
	# SLUB=FLAGS boots it with slub_debug=FLAGS (e.g. FZP: poison freed
	# objects, so a use after free shows at once).
	append="${SMQ_GUEST_APPEND:-}"
	[[ "$target" =~ (^|[:,])SLUB=([A-Z]+) ]] && append+=" slub_debug=${BASH_REMATCH[2]}"
	# A target whose file says "# guest-hw: virtio-scsi" gets the
	# controllers and disks of tools/vm/vscsi.py, from its spec's variables.
	vspec=""
	if grep -qx '# guest-hw: virtio-scsi' "$GUEST_TESTS/targets/${target%%:*}.sh" 2>/dev/null; then
		vspec="${target#"${target%%:*}"}"
		vspec="${vspec#:}"
		vspec="${vspec:-CTRLS=2}"
	fi
	rc=0
	boot_line "$dir" || rc=$?
	if ((rc != 0)) && ! grep -q '^SMQ-BOOTED ' "$dir/ctl.log" 2>/dev/null; then
		# The kernel died before the guest's init ran (nothing of ours
		# loaded yet: e.g. a TCG flake in early boot): boot once more.
		mv "$dir" "$dir.no-boot"
		smq_log "suite line $n [$target]: the guest did not boot (status $rc; console:" \
			"$dir.no-boot/console.log): booting it again"
		rc=0
		boot_line "$dir" || rc=$?
	fi
	if ((rc != 0)) && tcg_broke "$dir/console.log"; then
		mv "$dir" "$dir.tcg-trap"
		echo "RETRY guest [$target]: the emulated CPU's state went wrong (TCG: $TCG_WHY;" \
			"see $dir.tcg-trap/console.log): booting the line again"
		rc=0
		boot_line "$dir" || rc=$?
	fi
	# The verdicts as streamed on the control channel (complete even if the
	# guest hung afterwards), else from the shipped results.
	res="$dir/output.txt"
	[[ -s "$res" ]] || res="$dir/results/guest-tests/results"
	line="$(grep -E '^[0-9]+ passed, ' "$res" 2>/dev/null | tail -n 1 || true)"
	[[ -n "$line" ]] || line="$(cat "$dir/results/guest-tests/summary" 2>/dev/null || true)"
	smq_log "suite line $n [$target]: ${line:-no result} (guest status $rc)"
	if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		skipped=$((skipped + BASH_REMATCH[3]))
		if ((rc > 1)); then
			failed=$((failed + 1))
			echo "FAIL guest [$target]: the guest ended with status $rc (see $dir/console.log)"
		fi
	else
		failed=$((failed + 1))
		echo "FAIL guest [$target]: the guest did not finish (status $rc; see $dir/console.log)"
	fi
done < <(sed 's/#.*//' "$suite")

echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
