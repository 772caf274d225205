#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run unit test binaries: run_tests.sh DIR NAME...
# Prints one PASS/FAIL line per binary (with its log on failure) and, as
# the last line, "N passed, M failed" counting test cases.  A binary that
# dies before its "RESULT <passed> <failed>" line counts one failed case.
# Exit status 1 if anything failed.

dir=$1
shift
passed=0
failed=0
limit=${SMQ_TEST_TIMEOUT:-120}

for t in "$@"; do
	log="$dir/$t.log"
	if command -v timeout >/dev/null 2>&1; then
		timeout "$limit" "$dir/$t" >"$log" 2>&1
	else
		"$dir/$t" >"$log" 2>&1
	fi
	rc=$?
	res=$(grep '^RESULT ' "$log" | tail -n 1)
	if [ -n "$res" ]; then
		p=$(echo "$res" | cut -d' ' -f2)
		f=$(echo "$res" | cut -d' ' -f3)
	else
		p=0
		f=0
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -eq 0 ]; then
		echo "PASS $t ($p cases)"
	else
		echo "FAIL $t ($p passed, $f failed, exit $rc)"
		sed -e 's/^/    /' "$log" | tail -n 60
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
