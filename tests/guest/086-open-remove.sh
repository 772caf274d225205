#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: open-remove
# timeout: 240
#
# A disk that is open when its host goes away keeps working until it is
# closed: fio and an SG_IO user hold the disk open, the host is removed
# (writing -1 to smq_sas's add_host), then the SG_IO user sends TEST UNIT
# READY and INQUIRY again on its open descriptor (they must fail cleanly,
# not touch freed memory), smq_sas cannot be unloaded while the disk is
# open, and the last close frees the LUN, its target and its host.  Run it
# with slub_debug poisoning (SLUB=FZPU) or on the debug kernel: without
# poisoning a use after free passes.  Three rounds, then a host is added
# back and must do I/O.  Also: on a descriptor the shell holds open, a read
# gives end-of-file or an error and a write fails (neither hangs); rmmod is refused because the module is in use (busybox's rmmod
# asks without waiting: the kernel answers EWOULDBLOCK, "Resource
# temporarily unavailable"; kmod's says "in use") and its refcnt is not 0.
# Leaves a different disk behind: run it last.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
need_cmd fio smq-helper
need_scsi

p=/sys/module/smq_sas/parameters
[ -w "$p/add_host" ] || skip "$DEV is not an smq_sas disk"

round=1
while [ "$round" -le 3 ]; do
	say "round $round on $DEV"
	go=$SMQ_TEST_TMP/go.$round
	log=$SMQ_TEST_TMP/sgio.$round
	smq-helper sgio "$DEV" --wait "$go" >"$log" 2>&1 &
	sg=$!
	wait_until 20 grep -q waiting "$log" || { cat "$log"; fail "SG_IO user did not get going"; }
	flog=$SMQ_TEST_TMP/fio.$round
	fio --name=hold --filename="$DEV" --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=32 --time_based --runtime=60 \
		--output="$flog" >/dev/null 2>&1 &
	fio=$!
	exec 3<>"$DEV"
	sleep 1
	say -1 >"$p/add_host" || fail "removing the host failed"
	[ "$(cat "$p/add_host")" = 0 ] || fail "hosts left: $(cat "$p/add_host")"
	say "host removed while $DEV is open"
	if rmmod smq_sas 2>"$SMQ_TEST_TMP/rmmod"; then
		fail "smq_sas unloaded while its disk was open"
	fi
	cat "$SMQ_TEST_TMP/rmmod"
	grep -Eqi 'temporarily unavailable|in use|busy' "$SMQ_TEST_TMP/rmmod" ||
		fail "rmmod smq_sas failed for another reason"
	[ "$(cat /sys/module/smq_sas/refcnt)" -ge 1 ] || fail "smq_sas refcnt 0 with its disk open"
	# The shell's descriptor: a read gives end-of-file or an error, a write
	# an error (the dead disk's capacity is 0), and it closes.
	run_with_timeout 30 sh -c 'dd bs=4k count=1 of=/dev/null <&3' ||
		say "read on the open descriptor: error (status $?)"
	if run_with_timeout 30 sh -c 'dd if=/dev/zero bs=4k count=1 >&3'; then
		fail "a write on the open descriptor of the removed disk succeeded"
	fi
	exec 3<&-
	: >"$go"
	wait "$sg"
	cat "$log"
	grep -q closed "$log" || fail "the SG_IO user did not finish"
	# After the removal each command fails (ret < 0 or a host status).
	sed -n '/waiting/,$p' "$log" | awk '
		/^(TUR|INQUIRY):/ && /ret=0 status=0x00 host=0x00/ { ok = 1 }
		END { exit ok }' || fail "a command succeeded on a removed host"
	# fio's reads of the dead disk return 0 bytes, which fio reissues until
	# its runtime ends: stop it; it must not hang.
	kill "$fio" 2>/dev/null
	run_with_timeout 60 sh -c "while kill -0 $fio 2>/dev/null; do sleep 0.2; done" ||
		fail "fio on the removed disk did not end"
	wait "$fio"
	grep -E 'err=' "$flog" | head -n 3
	# The last close has happened: the module is free to go, and comes back.
	before=$(list_disks)
	say 1 >"$p/add_host" || fail "adding a host back failed"
	wait_for_new_disk "$before" 30 || fail "no disk after adding a host"
	dd if="$DEV" of=/dev/null bs=4k count=256 iflag=direct 2>/dev/null ||
		fail "the new disk $DEV does no I/O"
	round=$((round + 1))
done
exit 0
