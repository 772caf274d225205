#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-suite.sh [-n] [-k KVER] [-M DIR|none] [-o DIR] SUITE: run a guest suite
# (tests/guest/suites/SUITE, or a file). Lines whose guests are booted alike
# (vCPUs, slub_debug, virtio-scsi hardware) share a boot, up to 2400 s of
# test timeouts a boot (SMQ_SUITE_SHARE_LIMIT); SMQ_SUITE_SHARE=0 boots
# each line on its own. A test whose kernel complained fails, and after a
# lockup, BUG or Oops the boot's remaining tests are reported SKIP (the
# guest's runner). Each boot's wall-clock limit is 120 s plus, per test, its
# "# timeout:" + 30 s. DIR/timing has each boot's seconds (and the sum of its
# tests'), DIR/timing-tests each test's verdict, seconds and the share of
# them the guest's CPUs were idle (waiting). -n lists the
# boots and their lines, and runs nothing. Streams the guests' consoles (with the runner's
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

spec="$SMQ_DEFAULT_KVER" mods="" out="" dry=0
while getopts ":k:M:o:n" opt; do
	case "$opt" in
	n) dry=1 ;;
	k) spec="$OPTARG" ;;
	M) mods="$OPTARG" ;;
	o) out="$OPTARG" ;;
	*) smq_die "usage: ${0##*/} [-n] [-k KVER] [-M DIR|none] [-o DIR] SUITE" ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 ]] || smq_die "usage: ${0##*/} [-n] [-k KVER] [-M DIR|none] [-o DIR] SUITE"
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


# Suite lines whose guests would be booted alike (vCPUs, kernel command line,
# virtio-scsi hardware) share one boot, in suite order: the guest's runner
# brings each test's target up and down anyway, and fails a test whose
# kernel complained.  A boot's lines add up to at most SHARE_LIMIT seconds
# of test timeouts, so a guest that hangs loses a bounded part of the
# suite; SMQ_SUITE_SHARE=0 boots every line on its own.
SHARE_LIMIT="${SMQ_SUITE_SHARE_LIMIT:-2400}"
SHARE="${SMQ_SUITE_SHARE:-1}"

# line_boot TARGET: set cpus, append and vspec of a line's guest.
line_boot() {
	local target="$1"
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
}

# Read the suite: line i has spec[i], its tests tests_of[i] (one string),
# and the key of its guest; boots[] lists, per boot, its line numbers.
declare -a spec=() tests_of=() boots=() boot_key=() boot_limit_sum=()
while read -r -a words; do
	[[ ${#words[@]} -gt 0 && "${words[0]}" != \#* ]] || continue
	i=${#spec[@]}
	spec+=("${words[0]}")
	tests_of+=("${words[*]:1}")
	line_boot "${words[0]}"
	key="$cpus|$append|$vspec"
	# shellcheck disable=SC2086 # a word list
	lim=$(($(boot_limit ${tests_of[i]}) - 120))
	b=-1
	if [[ "$SHARE" != 0 ]]; then
		for j in "${!boots[@]}"; do
			if [[ "${boot_key[j]}" == "$key" ]] &&
			   ((boot_limit_sum[j] + lim <= SHARE_LIMIT)); then
				b=$j
			fi
		done
	fi
	if ((b < 0)); then
		b=${#boots[@]}
		boots+=("")
		boot_key+=("$key")
		boot_limit_sum+=(0)
	fi
	boots[b]+=" $i"
	boot_limit_sum[b]=$((boot_limit_sum[b] + lim))
done < <(sed 's/#.*//' "$suite")

# boot_line DIR: one guest for the lines of the current boot (cpus, append,
# vspec, lines), output in DIR; run.sh's exit status.
boot_line() {
	local i t all=() indir=""
	for i in $lines; do
		# shellcheck disable=SC2206 # a word list
		t=(${tests_of[i]})
		all+=("${t[@]}")
	done
	if [[ "$lines" == *" "* ]]; then
		# Several lines: the guest's runner takes them as a suite file.
		indir="$out/.in-$(basename "$1")"
		mkdir -p "$indir"
		for i in $lines; do
			printf '%s %s\n' "${spec[i]}" "${tests_of[i]}"
		done >"$indir/suite"
		set -- "$1" -s /smq/in/suite
	else
		# shellcheck disable=SC2086 # a word list
		set -- "$1" "${spec[lines]}" ${tests_of[lines]}
	fi
	"$SMQ_TOOLS/vm/run.sh" -k "$rel" -c "$cpus" ${mods:+-M "$mods"} -a "$append" \
		${vspec:+-V "$vspec"} ${indir:+-I "$indir"} \
		-t "$(boot_limit "${all[@]}")" \
		-o "$1" -- sh tests/guest/run-tests.sh "${@:2}"
}

# -n: only list the boots.
if ((dry)); then
	n=0
	for lines in "${boots[@]}"; do
		n=$((n + 1))
		printf 'boot %d (%s, %ss of test timeouts):\n' "$n" "${boot_key[n - 1]}" \
			"${boot_limit_sum[n - 1]}"
		for i in $lines; do printf '  %s %s\n' "${spec[i]}" "${tests_of[i]}"; done
	done
	exit 0
fi

# The base image once, before any boot: a lane that cannot build it fails
# here, loudly, rather than in every line.
if ! "$SMQ_TOOLS/vm/mkimage.sh" "$rel" >/dev/null; then
	echo "FAIL guest image: tools/vm/mkimage.sh $rel failed (see above); no guest was booted"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi

mkdir -p "$out"
timing="$out/timing"
timing_tests="$out/timing-tests"
printf 'boot\tseconds\ttests_seconds\ttargets\n' >"$timing"
printf 'boot\tverdict\tseconds\tidle_pct\ttest [target]\n' >"$timing_tests"
passed=0 failed=0 skipped=0 n=0
for lines in "${boots[@]}"; do
	lines="${lines# }"
	n=$((n + 1))
	first="${lines%% *}"
	target="${spec[first]}"
	line_boot "$target"
	names=""
	for i in $lines; do names+=" ${spec[i]}"; done
	names="${names# }"
	# QEMU option values cannot hold commas: keep them out of paths.
	dir="$out/$(printf %02d "$n")-${target//[^A-Za-z0-9_.=-]/_}"
	t0=$SECONDS
	rc=0
	boot_line "$dir" || rc=$?
	if ((rc != 0)) && ! grep -q '^SMQ-BOOTED ' "$dir/ctl.log" 2>/dev/null; then
		# The kernel died before the guest's init ran (nothing of ours
		# loaded yet: e.g. a TCG flake in early boot): boot once more.
		mv "$dir" "$dir.no-boot"
		smq_log "boot $n [$names]: the guest did not boot (status $rc; console:" \
			"$dir.no-boot/console.log): booting it again"
		rc=0
		boot_line "$dir" || rc=$?
	fi
	if ((rc != 0)) && tcg_broke "$dir/console.log"; then
		mv "$dir" "$dir.tcg-trap"
		echo "RETRY guest [$names]: the emulated CPU's state went wrong (TCG: $TCG_WHY;" \
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
	# Each test's verdict and seconds, as the guest's runner printed them.
	tr -d '\r' <"$dir/console.log" 2>/dev/null |
		sed -nE 's/^(PASS|FAIL|SKIP) (.*) \(([0-9]+)s(, idle ([0-9]+)%)?\)$/\1\t\3\t\5\t\2/p' |
		sed "s/^/$n\t/" >>"$timing_tests"
	tsum=$(awk -F'\t' -v b="$n" '$1 == b { s += $3 } END { print s + 0 }' "$timing_tests")
	printf '%d\t%d\t%d\t%s\n' "$n" $((SECONDS - t0)) "$tsum" "$names" >>"$timing"
	smq_log "boot $n [$names]: ${line:-no result} (guest status $rc, $((SECONDS - t0))s)"
	if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		skipped=$((skipped + BASH_REMATCH[3]))
		if ((rc > 1)); then
			failed=$((failed + 1))
			echo "FAIL guest [$names]: the guest ended with status $rc (see $dir/console.log)"
		fi
	else
		failed=$((failed + 1))
		echo "FAIL guest [$names]: the guest did not finish (status $rc; see $dir/console.log)"
	fi
done

echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
