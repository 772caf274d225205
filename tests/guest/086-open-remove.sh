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
# back and must do I/O.  Leaves a different disk behind: run it last.

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
	fio --name=hold --filename="$DEV" --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=32 --time_based --runtime=60 \
		--output=/dev/null >/dev/null 2>&1 &
	fio=$!
	sleep 1
	say -1 >"$p/add_host" || fail "removing the host failed"
	[ "$(cat "$p/add_host")" = 0 ] || fail "hosts left: $(cat "$p/add_host")"
	say "host removed while $DEV is open"
	if rmmod smq_sas 2>/dev/null; then
		fail "smq_sas unloaded while its disk was open"
	fi
	: >"$go"
	wait "$sg"
	cat "$log"
	grep -q closed "$log" || fail "the SG_IO user did not finish"
	# After the removal each command fails (ret < 0 or a host status).
	sed -n '/waiting/,$p' "$log" | awk '
		/^(TUR|INQUIRY):/ && /ret=0 status=0x00 host=0x00/ { ok = 1 }
		END { exit ok }' || fail "a command succeeded on a removed host"
	kill "$fio" 2>/dev/null
	wait "$fio"
	# The last close has happened: the module is free to go, and comes back.
	before=$(list_disks)
	say 1 >"$p/add_host" || fail "adding a host back failed"
	wait_for_new_disk "$before" 30 || fail "no disk after adding a host"
	dd if="$DEV" of=/dev/null bs=4k count=256 iflag=direct 2>/dev/null ||
		fail "the new disk $DEV does no I/O"
	round=$((round + 1))
done
exit 0
