#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest test runner (busybox sh).
#   run-tests.sh [-o DIR] [-v] -s SUITE-FILE
#   run-tests.sh [-o DIR] [-v] TARGET-SPEC TEST...
# A suite file has one line per target: "TARGET-SPEC TEST..." (# comments).
# TEST is a test file name with or without .sh (020-fio-verify), its number
# (020), its name without the number (fio-verify), or "all".
# Each test runs against a freshly brought-up target, under the timeout of
# its "# timeout:" header, and must not make the kernel complain (dmesg gate).
# After a lockup, BUG, Oops or hung task the remaining tests are not run
# (reported SKIP): the kernel can no longer be trusted.
# With kmemleak (the debug kernel) the runner forgets boot-time suspects
# first and, after the last test, scans once: a leak is one more failure,
# "FAIL kmemleak [TARGET-SPEC]", with the report in DIR/kmemleak.
# Prints "PASS|FAIL|SKIP name [target]" per test and, last,
# "N passed, N failed, N skipped"; results and logs go to DIR
# (default /results/guest-tests). Exit status 1 if anything failed.

SMQ_GUEST_DIR=$(cd "$(dirname "$0")" && pwd)
export SMQ_GUEST_DIR
. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"

out=/results/guest-tests
suite=
verbose=${SMQ_VERBOSE:-0}
while getopts "o:s:v" opt; do
	case $opt in
	o) out=$OPTARG ;;
	s) suite=$OPTARG ;;
	v) verbose=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

passed=0 failed=0 skipped=0 seq=0 _idle=
broken= # the test after which the kernel is no longer trustworthy

header() { sed -n "s/^# $1:[[:space:]]*//p" "$2" | head -n 1; }

# test_name FILE: the "# name:" header, else the file name without NNN-.
test_name() {
	_tn=$(header name "$1")
	[ -n "$_tn" ] || { _tn=${1##*/}; _tn=${_tn%.sh}; _tn=${_tn#[0-9][0-9][0-9]-}; }
	say "$_tn"
}

# resolve TEST: print the matching test file(s).
resolve() {
	case $1 in
	all) ls "$SMQ_GUEST_DIR"/[0-9][0-9][0-9]-*.sh ;;
	*)
		for _f in "$SMQ_GUEST_DIR/${1%.sh}.sh" "$SMQ_GUEST_DIR/$1"-*.sh \
			"$SMQ_GUEST_DIR"/[0-9][0-9][0-9]-"${1%.sh}".sh; do
			[ -f "$_f" ] && { say "$_f"; return 0; }
		done
		return 1
		;;
	esac
}

# out_line LINE: record a verdict line, also on the control channel (so the
# host has it even if the guest dies later).
out_line() {
	say "$1" >>"$out/results"
	[ -n "${SMQ_CTL:-}" ] && say "SMQ-OUT $1" >"$SMQ_CTL"
}

# report VERDICT NAME SPEC SECONDS [REASON]: print the verdict with the
# test's seconds and, where _idle is set, the share of CPU time the guest
# spent idle meanwhile (a test that mostly waits: sleeps, timeouts, outages).
report() {
	_line="$1 $2 [$3]"
	[ -n "${5:-}" ] && _line="$_line: $5"
	say "$_line (${4}s${_idle:+, idle ${_idle}%})"
	out_line "$_line"
	_idle=
}

# cpu_times: "TOTAL IDLE" jiffies of all CPUs so far (idle and iowait).
cpu_times() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t, $5 + $6; exit }' /proc/stat
}

run_one() { # SPEC TEST-FILE
	_spec=$1 _file=$2
	_base=${_file##*/}
	_base=${_base%.sh}
	_name=$(test_name "$_file")
	_limit=$(header timeout "$_file")
	[ -n "$_limit" ] || _limit=60
	seq=$((seq + 1))
	_res="$out/$(printf %03d "$seq")-$_base@$(say "$_spec" | tr -c 'A-Za-z0-9_.,=@:\n-' _)"
	mkdir -p "$_res"

	_mark=$(dmesg_mark)
	# The test's own kernel log starts here (dmesg in lib/common.sh).
	SMQ_DMESG_MARK=$_mark
	export SMQ_DMESG_MARK
	_ct0=$(cpu_times)
	_t0=$(date +%s)
	run_with_timeout $((_limit + 120)) sh "$SMQ_GUEST_DIR/lib/harness.sh" \
		"$_spec" "$_file" "$_limit" "$_res"
	_rc=$?
	_secs=$(($(date +%s) - _t0))
	_idle=$(say "$_ct0 $(cpu_times)" |
		awk '{ d = $3 - $1; print (d > 0 ? int(100 * ($4 - $2) / d + 0.5) : 0) }')
	if [ -s "$_res/status" ]; then
		_status=$(cat "$_res/status")
	elif [ "$_rc" = 124 ]; then
		_status="FAIL target setup or teardown hung (killed after $((_limit + 120))s)"
	else
		_status="FAIL harness died (status $_rc)"
	fi
	# A regular file at the top of /dev is a device node gone and written
	# as a file (e.g. by a tool that creates what it does not find): it
	# would shadow the node of the next disk of that name.
	_devfiles=$(find /dev -maxdepth 1 -type f 2>/dev/null | tr '\n' ' ')
	if [ -n "$_devfiles" ]; then
		# shellcheck disable=SC2086 # paths of /dev, a word list
		rm -f $_devfiles
		case $_status in
		FAIL*) ;;
		*) _status="FAIL left regular files in /dev (removed): $_devfiles" ;;
		esac
	fi
	dmesg_since "$_mark" | cap_lines 2000 >"$_res/dmesg"
	if dmesg_bad "$_res/dmesg" | cap_lines 200 >"$_res/dmesg-bad" && [ -s "$_res/dmesg-bad" ]; then
		_status="FAIL kernel complained in dmesg (was: $_status)"
		grep -Eq "$DMESG_FATAL" "$_res/dmesg-bad" && broken="$_name [$_spec]"
	fi

	[ "$verbose" = 1 ] && sed 's/^/    | /' "$_res/log"
	case $_status in
	PASS)
		passed=$((passed + 1))
		report PASS "$_name" "$_spec" "$_secs"
		;;
	SKIP*)
		skipped=$((skipped + 1))
		report SKIP "$_name" "$_spec" "$_secs" "${_status#SKIP }"
		;;
	*)
		failed=$((failed + 1))
		report FAIL "$_name" "$_spec" "$_secs" "${_status#FAIL }"
		if [ "$verbose" != 1 ]; then
			say "    --- last lines of $_res/log:"
			tail -n 40 "$_res/log" | sed 's/^/    | /'
		fi
		if [ -s "$_res/dmesg-bad" ]; then
			say "    --- offending kernel messages:"
			sed 's/^/    ! /' "$_res/dmesg-bad"
		fi
		;;
	esac
}

run_line() { # SPEC TEST...
	_rl_spec=$1
	shift
	for _t in "$@"; do
		_files=$(resolve "$_t") || {
			failed=$((failed + 1))
			report FAIL "$_t" "$_rl_spec" 0 "no such test"
			continue
		}
		for _f in $_files; do
			if [ -n "$broken" ]; then
				skipped=$((skipped + 1))
				report SKIP "$(test_name "$_f")" "$_rl_spec" 0 \
					"not run: the kernel is unreliable since $broken failed"
				continue
			fi
			run_one "$_rl_spec" "$_f"
		done
	done
}

if [ -z "$suite" ] && [ $# -lt 2 ]; then
	sed -n '5,17s/^# \{0,1\}//p' "$0"
	exit 2
fi
[ -z "$suite" ] || [ -f "$suite" ] || { say "no suite file $suite"; exit 2; }
mkdir -p "$out"
: >"$out/results"
kmemleak_clear

if [ -n "$suite" ]; then
	while read -r _line; do
		set -f
		# shellcheck disable=SC2086 # a suite line is a word list
		set -- ${_line%%#*}
		set +f
		[ $# -gt 0 ] && run_line "$@"
	done <<EOS
$(cat "$suite")
EOS
else
	run_line "$@"
fi

if [ -z "$broken" ] && kmemleak_report >"$out/kmemleak"; then
	failed=$((failed + 1))
	report FAIL kmemleak "${suite:-$1}" 0 "suspected leaks (kmemleak):"
	cap_lines 120 <"$out/kmemleak" | sed 's/^/    ! /'
fi

say "$passed passed, $failed failed, $skipped skipped" | tee "$out/summary"
[ -n "${SMQ_CTL:-}" ] && say "SMQ-OUT $(cat "$out/summary")" >"$SMQ_CTL"
[ "$failed" = 0 ]
