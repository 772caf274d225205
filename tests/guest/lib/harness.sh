# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# harness.sh TARGET-SPEC TEST-FILE TIMEOUT RESULT-DIR: run one test against
# one target (run-tests.sh starts it in a session of its own). Brings the
# target up, runs the test under TIMEOUT, brings the target down, and writes
# RESULT-DIR/status ("PASS", "SKIP reason" or "FAIL reason"); the output of
# all three steps goes to RESULT-DIR/log.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"

spec=$1 test=$2 limit=$3 res=$4
log=$res/log
status=

set_status() { [ -n "$status" ] || status=$*; }

# shellcheck disable=SC2094 # the SKIP reason is read from the finished test's log
{
	say "== target $spec: up"
	if ! target_load "$spec"; then
		set_status "FAIL cannot load target '$spec'"
	else
		rc=0
		target_up || rc=$?
		if [ "$rc" = 77 ]; then
			set_status "SKIP target $spec unavailable in this guest"
		elif [ "$rc" != 0 ]; then
			set_status "FAIL target_up failed (status $rc)"
		else
			say "DEV=${DEV:-} DEV_SIZE_BYTES=${DEV_SIZE_BYTES:-} DEV_LBS=${DEV_LBS:-} DEV_SCSI=${DEV_SCSI:-}"
			SMQ_TEST_TMP=$(mktemp -d /tmp/smq-test.XXXXXX)
			export SMQ_TEST_TMP
			say "== test $test (limit ${limit}s)"
			rc=0
			(cd "$SMQ_TEST_TMP" && run_with_timeout "$limit" sh "$test") || rc=$?
			# shellcheck disable=SC2094
			case $rc in
			0) set_status PASS ;;
			77) set_status "SKIP $(sed -n 's/^SKIP: //p' "$log" | tail -n 1)" ;;
			124) set_status "FAIL timed out after ${limit}s" ;;
			*) set_status "FAIL exit status $rc" ;;
			esac
			rm -rf "$SMQ_TEST_TMP"
		fi
		say "== target $spec: down"
		if ! target_down; then
			case $status in
			PASS | SKIP*) status="FAIL target_down failed" ;;
			esac
		fi
	fi
} >"$log" 2>&1 </dev/null

printf '%s\n' "$status" >"$res/status"
