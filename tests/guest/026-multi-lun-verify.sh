#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: multi-lun-verify
# timeout: 240
#
# Every LUN of one host at once (needs 2: LUNS=2, scsi_debug
# OPTS=max_luns=2): one fio job per LUN writes with crc32c headers at
# iodepth 32, all jobs together, so that the LUNs' commands are in flight
# on the host side by side (the same tags on each LUN's queue, the same
# session or reply queue); then a separate pass reads every LUN back and
# verifies.  A driver that keeps per-command state by a tag that is only
# unique per LUN mixes the LUNs' commands up here.  Each LUN writes its own
# range (offset LUN index x size), so LUNs that share a store (scsi_debug)
# do not overwrite each other.  On smq_iser (default CmdSN window, 128, above
# the 2 x 32 commands in flight) no command may come back busy for a closed
# window (busy W of iser_sessions): a task slot taken by another LUN's
# command with the same tag counts there.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/lun.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
need_cmd fio
need_dev

if [ "$(say "${DEVS:-}" | wc -w)" -lt 2 ]; then
	# scsi_debug's target lists one disk: take the LUNs of DEV's target.
	t=$(lun_of "$DEV")
	t=${t%:*}
	DEVS=
	for l in $(target_luns "$t"); do
		d=$(disk_of_lun "$t:$l") && DEVS="$DEVS /dev/$d"
	done
fi
# shellcheck disable=SC2086 # DEVS is a word list
set -- $DEVS
[ $# -ge 2 ] || skip "needs 2 LUNs (LUNS=2)"
say "LUNs: $*"

lbs=${DEV_LBS:-512}
# Per LUN: an eighth of the smallest disk, at most 16 MiB.
size=$(awk -v d="${DEV_SIZE_BYTES:?}" -v n="$#" 'BEGIN {
	s = int(d / (2 * n)); if (s > 16 * 1048576) s = 16 * 1048576
	print s - s % 1048576 }')
[ "$size" -ge 1048576 ] || skip "disks too small ($DEV_SIZE_BYTES bytes)"
common="--ioengine=libaio --direct=1 --iodepth=32 --rw=randwrite
	--bssplit=$(fio_bssplit "$lbs") --blockalign=$lbs --size=$size
	--verify=crc32c --randrepeat=1"
jobs=
i=0
for d in "$@"; do
	jobs="$jobs --name=lun$i --filename=$d --offset=$((i * size))"
	i=$((i + 1))
done

# busy_w: the smq_iser host's commands sent back busy for a closed window
# (W of every session's "busy W/R/P").
busy_w() {
	iser_session_field "$hd" busy | awk -F/ '{ s += $1 } END { print s + 0 }'
}
sessions=
if h=$(smq_iser_host_of 0 2>/dev/null); then
	hd=/sys/class/smq_host/host$h
	sessions=$hd/iser_sessions
	w0=$(busy_w)
fi

say "write pass: $# LUNs x $size bytes, all at once"
# shellcheck disable=SC2086 # word lists
fio $common --do_verify=0 $jobs >"$SMQ_TEST_TMP/write.out" 2>&1
rc=$?
cat "$SMQ_TEST_TMP/write.out"
[ "$rc" = 0 ] || fail "fio write pass failed (status $rc)"
if [ -n "$sessions" ]; then
	sed 's/^/    /' "$sessions"
	w=$(($(busy_w) - w0))
	say "smq_iser: $w commands sent back busy for a closed window"
	[ "$w" = 0 ] || fail "$w commands refused as busy with the CmdSN window open (task slots shared across LUNs?)"
fi

say "verify pass"
# shellcheck disable=SC2086 # word lists
fio $common --verify_only $jobs >"$SMQ_TEST_TMP/verify.out" 2>&1
rc=$?
cat "$SMQ_TEST_TMP/verify.out"
fio_verify_classify "$SMQ_TEST_TMP/verify.out" "$rc"
case $? in
0) say "every LUN verified" ;;
1) fail "data mismatch across the LUNs of one host" ;;
*) fail "fio verify pass failed (status $rc)" ;;
esac
