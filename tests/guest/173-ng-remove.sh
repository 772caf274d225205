#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: ng-remove
# timeout: 180
#
# A LUN removed (device/delete) with passthrough commands in flight: two
# jobs at depth 32 issue random reads and writes through io_uring, polled
# where the disk has poll queues, while the LUN is deleted.  The tool must
# end by itself (its commands fail with ENXIO or a host byte; no hang),
# its generic device must go with the LUN and a file kept open on it gets
# ENXIO; a scan brings the LUN back with a new generic device that
# verifies.  Run with freed memory poisoned (SLUB=FZPU) and on the debug
# kernel: a command outliving its request or LUN shows as a use after
# free or a leak (kmemleak).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/lun.sh"
. "$SMQ_GUEST_DIR/lib/ng.sh"
ng_setup

h=${NG_HCTL%%:*}
ctl=${NG_HCTL#*:}
hd=$(host_dir "$h") || skip "no host directory for host$h"
[ -w "$hd/scan" ] || skip "$hd has no scan file"
poll=
[ "$(cat "/sys/block/${DEV##*/}/queue/io_poll" 2>/dev/null)" = 1 ] && poll=--poll
mib=1048576

round=1
while [ $round -le 2 ]; do
	smq-ptio --rw write --bs 64k --iodepth 8 --size $((4 * mib)) \
		--lbs "$NG_LBS" "$NG" || fail "round $round: pattern write failed"
	# shellcheck disable=SC2086 # $poll: one option or none
	smq-ptio --quiet --rw randverify $poll --bs 4k --iodepth 32 --numjobs 2 \
		--runtime 30 --size $((4 * mib)) --lbs "$NG_LBS" "$NG" \
		>"$SMQ_TEST_TMP/load" 2>&1 &
	load=$!
	# a file open across the removal, for a command after it
	exec 7<"$NG"
	sleep 2
	kill -0 $load 2>/dev/null || { cat "$SMQ_TEST_TMP/load"; fail "round $round: the load ended early"; }
	say "round $round: deleting $NG_HCTL under ${poll:-interrupt-driven} passthrough load"
	say 1 >"/sys/block/${DEV##*/}/device/delete" || fail "delete failed"
	[ -e "$NG" ] && fail "$NG still exists after its LUN's removal"
	waited=0
	while kill -0 $load 2>/dev/null; do
		[ $waited -lt 20 ] || fail "round $round: the tool hangs after the removal"
		sleep 1
		waited=$((waited + 1))
	done
	wait $load
	rc=$?
	cat "$SMQ_TEST_TMP/load"
	[ $rc = 1 ] || [ $rc = 2 ] || fail "round $round: the tool exited $rc"
	out=$(smq-ptio --mode cmd --raw 000000000000 --dir none /proc/self/fd/7)
	say "command on the open file after removal: $out"
	case "$out" in
	"errno=6 "*) ;;
	*) fail "not ENXIO after the removal: $out" ;;
	esac
	exec 7<&-
	say "$ctl" | tr ':' ' ' >"$hd/scan" || fail "scan failed"
	wait_until 10 test -c "$NG" || fail "$NG did not come back with its LUN"
	DEV=/dev/$(disk_of_lun "$NG_HCTL") || fail "no disk after the scan"
	smq-ptio --rw randverify --bs 4k --iodepth 16 --number_ios 2000 \
		--size $((4 * mib)) --lbs "$NG_LBS" "$NG" ||
		fail "round $round: the new device does not verify"
	say "round $round: $NG back ($DEV)"
	round=$((round + 1))
done
exit 0
