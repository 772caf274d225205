#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: lun-delete
# timeout: 420
#
# LUNs deleted and found again at run time, as Linux's sysfs does it: the
# LUN's device/delete and the host's scan ("C T L", numbers or "-").  Needs
# a target with at least 2 LUNs (smq_sas LUNS=4, scsi_debug
# OPTS=max_luns=4).  fio write+verify runs on the other LUNs throughout
# while the lowest LUN is deleted and scanned back, four rounds: each time
# fio runs on the deleted LUN itself (it must end with errors, not hang)
# and, in round 2, an SG_IO user holds it open across the delete (its
# commands must fail cleanly); scans alternate "C T L" and "- - -"; in
# round 3 a "- - -" scan races the delete, in round 4 two deletes race.
# Bad scan input is refused with EINVAL; device/rescan keeps the size.
# Last, a delete races the host's removal (its add_host knob) and a host
# is added back.  Run with slub_debug poisoning (SLUB=FZPU) or on the
# debug kernel.  Leaves a different disk behind: run it last.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/lun.sh"
need_cmd fio smq-helper
need_scsi

# The background jobs must not outlive the test (they hold disks open).
bg=
trap 'kill $bg 2>/dev/null' EXIT

# ios_of DISK: reads + writes completed so far.
ios_of() {
	awk '{ print $1 + $5 }' "/sys/block/$1/stat"
}

# stuck PID WHAT: report what PID (and the kernel's blocked tasks) wait on.
stuck() {
	for _t in /proc/"$1"/task/*; do
		say "task ${_t##*/}: $(cat "$_t/wchan" 2>/dev/null)"
		cat "$_t/stack" 2>/dev/null
	done
	[ -w /proc/sysrq-trigger ] && say w >/proc/sysrq-trigger
	fail "$2"
}

hctl=$(lun_of "$DEV") || skip "$DEV has no SCSI device"
h=${hctl%%:*}
hct=${hctl%:*}
ct=${hct#*:}
hd=$(host_dir "$h") || skip "no host directory for host$h"
[ -w "$hd/scan" ] || skip "$hd has no scan file"
luns=$(target_luns "$hct")
[ "$(say "$luns" | wc -w)" -ge 2 ] || skip "needs a target with 2 LUNs or more (has: $luns)"
nluns=$(say "$luns" | wc -w)
region=$((DEV_SIZE_BYTES / nluns))
[ "$region" -le 33554432 ] || region=33554432
region=$((region - region % 1048576))
[ "$region" -ge 8388608 ] || skip "needs 8 MiB per LUN"
vl=$(say "$luns" | head -n 1)
victim=$hct:$vl
say "host $hd, target $hct, LUNs: $(say "$luns" | tr '\n' ' '), deleting $victim"

# Bad input: EINVAL, and (smq) one kernel log line naming it.
for bad in "0 0" "x - -" "- - - -" "0 -1 0" "5 0 0" "0 99999 0"; do
	if say "$bad" >"$hd/scan" 2>/dev/null; then
		fail "scan accepted '$bad'"
	fi
	say "refused: scan '$bad'"
done
if [ -d /sys/class/smq_host ]; then
	dmesg | grep -q "scan 'x - -': want" || fail "no log line for the bad scan input"
	dmesg | grep -q "scan '0 99999 0': out of range" || fail "no log line for the out-of-range scan"
fi

# rescan keeps the size (the capacity did not change)
size=$(blockdev --getsize64 "$DEV")
say 1 >"/sys/block/${DEV##*/}/device/rescan" || fail "rescan failed"
[ "$(blockdev --getsize64 "$DEV")" = "$size" ] || fail "rescan changed the size of $DEV"

# fio write+verify on the other LUNs until told to stop; each pass must
# verify.  Every LUN's fio has a range of its own (region bytes at region
# x its place, region at most 32 MiB): scsi_debug's LUNs share one store.
tmp=$SMQ_TEST_TMP
stop=$tmp/stop
: >"$tmp/survivors"
pids=
k=0
for l in $luns; do
	[ "$l" = "$vl" ] && continue
	k=$((k + 1))
	d=$(disk_of_lun "$hct:$l") || fail "no disk for $hct:$l"
	say "/dev/$d" >>"$tmp/survivors"
	mkdir -p "$tmp/$d"
	(
		# shellcheck disable=SC2030 # fio-verify.sh's scratch, per disk
		SMQ_TEST_TMP=$tmp/$d
		FIO_VERIFY_JOBS=2
		FIO_VERIFY_SIZE=4194304
		FIO_VERIFY_OFFSET=$((k * region))
		export FIO_VERIFY_JOBS FIO_VERIFY_SIZE FIO_VERIFY_OFFSET
		n=0
		while [ "$n" = 0 ] || [ ! -e "$stop" ]; do
			fio_write_verify "/dev/$d" >"$SMQ_TEST_TMP/log" 2>&1 ||
				{ say "pass $n on /dev/$d: $?" >"$SMQ_TEST_TMP/bad"; exit 1; }
			n=$((n + 1))
		done
		say "$n" >"$SMQ_TEST_TMP/passes"
	) &
	pids="$pids $!"
	bg="$bg $!"
done

round=1
while [ "$round" -le 4 ]; do
	vd=$(disk_of_lun "$victim") || fail "no disk for $victim (round $round)"
	say "round $round: deleting $victim (/dev/$vd) under fio"
	# Writes: a deleted disk has capacity 0; fio fails on a write there, but
	# keeps reissuing reads that return 0 bytes until its runtime ends.
	flog=$tmp/victim-fio.$round
	fio --name=victim --filename="/dev/$vd" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=32 --time_based --runtime=60 \
		--size="$region" --output="$flog" >/dev/null 2>&1 &
	vfio=$!
	bg="$bg $vfio"
	# Delete under I/O: wait for fio's first completions.
	ios=$(ios_of "$vd")
	wait_until 30 sh -c "[ \$(awk '{ print \$1 + \$5 }' /sys/block/$vd/stat) -gt $((ios + 64)) ]" ||
		{ cat "$flog"; fail "fio on /dev/$vd did not start"; }
	sg=
	if [ "$round" = 2 ]; then
		go=$tmp/go
		sglog=$tmp/sgio
		smq-helper sgio "/dev/$vd" --wait "$go" >"$sglog" 2>&1 &
		sg=$!
		bg="$bg $sg"
		wait_until 20 grep -q waiting "$sglog" || { cat "$sglog"; fail "SG_IO user did not get going"; }
	fi
	sleep 1
	racer=
	if [ "$round" = 3 ]; then
		say "- - -" >"$hd/scan" &
		racer=$!
	fi
	if [ "$round" = 4 ]; then
		# Two deletes at once: one removes the LUN, the other finds it
		# gone (ENODEV, or no file); both end.
		# (Linux's second writer may fail to open the file: EACCES.)
		(say 1 >"/sys/block/$vd/device/delete") 2>/dev/null &
		del2=$!
		(say 1 >"/sys/block/$vd/device/delete") 2>/dev/null
		wait "$del2"
		[ ! -e "/sys/block/$vd" ] || fail "/dev/$vd still there after two deletes"
	else
		say 1 >"/sys/block/$vd/device/delete" ||
			fail "delete of $victim failed (round $round)"
	fi
	if [ -n "$racer" ]; then
		# The scan may have found the LUN again, under the same name.
		wait "$racer" || fail "the racing scan failed"
	else
		[ ! -e "/sys/block/$vd" ] || fail "/dev/$vd still there after delete"
	fi
	# fio on the deleted LUN ends, with errors.
	run_with_timeout 60 sh -c "while kill -0 $vfio 2>/dev/null; do sleep 0.2; done" ||
		{ cat "$flog"; stuck "$vfio" "fio on the deleted $victim did not end (round $round)"; }
	if wait "$vfio"; then
		cat "$flog"
		fail "fio on the deleted $victim reported no error (round $round)"
	fi
	grep -E 'err=' "$flog" | head -n 3 | grep . || tail -n 20 "$flog"
	if [ -n "$sg" ]; then
		: >"$go"
		wait "$sg"
		cat "$sglog"
		grep -q closed "$sglog" || fail "the SG_IO user did not finish"
		sed -n '/waiting/,$p' "$sglog" | awk '
			/^(TUR|INQUIRY):/ && /ret=0 status=0x00 host=0x00/ { ok = 1 }
			END { exit ok }' || fail "a command succeeded on a deleted LUN"
	fi
	# Scan it back: a new disk.
	before=$(list_disks)
	if [ $((round % 2)) = 1 ]; then
		spec="${ct%%:*} ${ct#*:} $vl"
	else
		spec="- - -"
	fi
	say "$spec" >"$hd/scan" || fail "scan '$spec' failed (round $round)"
	wait_until 30 disk_of_lun "$victim" || fail "$victim did not come back after scan '$spec'"
	nd=$(disk_of_lun "$victim")
	wait_until 10 test -b "/dev/$nd" || fail "no /dev/$nd"
	dd if="/dev/$nd" of=/dev/null bs=4k count=256 iflag=direct 2>/dev/null ||
		fail "the new disk /dev/$nd of $victim does no I/O"
	say "round $round: $victim back as /dev/$nd (scan '$spec'), disks before: $before"
	round=$((round + 1))
done

: >"$stop"
for pid in $pids; do
	run_with_timeout 240 sh -c "while kill -0 $pid 2>/dev/null; do sleep 0.5; done" ||
		fail "fio write+verify on a surviving LUN did not end"
	wait "$pid" || true
done
while read -r s; do
	d=${s##*/}
	if [ -e "$tmp/$d/bad" ] || [ ! -e "$tmp/$d/passes" ]; then
		tail -n 40 "$tmp/$d/log"
		fail "write+verify on $s failed: $(cat "$tmp/$d/bad" 2>/dev/null)"
	fi
	say "$s: $(cat "$tmp/$d/passes") write+verify passes verified"
done <"$tmp/survivors"

# A delete racing the removal of its host; then a host comes back.
knob=$(host_knob) || exit 0
vd=$(disk_of_lun "$victim") || fail "no disk for $victim"
say "deleting $victim while its host is removed"
say -1 >"$knob" &
rm_host=$!
if (say 1 >"/sys/block/$vd/device/delete") 2>/dev/null; then
	say "delete done (first, or it found the LUN being removed)"
else
	say "delete lost the race with the host's removal"
fi
wait "$rm_host" || fail "removing the host failed"
wait_until 30 sh -c "[ ! -e /sys/block/$vd ]" || fail "/dev/$vd still there"
before=$(list_disks)
say 1 >"$knob" || fail "adding a host back failed"
wait_for_new_disk "$before" 30 || fail "no disk after adding a host back"
dd if="$DEV" of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null ||
	fail "the new disk $DEV does no I/O"
exit 0
