#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# shellcheck disable=SC2317 # OP_try, OP_check and OP_retry are called through sweep()
# name: failslab
# timeout: 1500
#
# Allocation-failure sweep, on kernels with fault injection (failslab and
# fail-nth, e.g. the debug kernel; SKIP elsewhere), against smq_sas.  For
# each operation, N = 1, 2, 3...: make the Nth fault-injection check of the
# task doing it fail (smq-helper failnth: slab and page allocations of every
# GFP mode count), check that everything is consistent and undo it, until an
# attempt makes fewer than N checks (consumed=0: every failure point has
# been hit once) or a cap is reached; then the operation must succeed
# without injection.  Operations: add a host (add_host), switch the
# scheduler, set nr_requests, change the host's nr_hw_queues (the
# rollback of smq_tag_set_update()), load smq_sas (finit_module; N steps by 1 up
# to 200, then by 5: the module loader's own allocations are many).  Last,
# kmemleak (where the kernel has it) must not report a leak, except the
# kernel's own error-path leaks listed in lib/dmesg.sh (KMEMLEAK_KERNEL_BUGS).
#
# Caps (a capped sweep is reported, not failed): MAX_NTH points per
# operation (400), MAX_NTH_LOAD for the load (1500), SWEEP_SECS seconds per
# operation (450), SWEEP_SECS_LOAD for the load (300).
# Reloads smq_sas with other parameters: run it last on its line.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/knobs.sh"

dbg=/sys/kernel/debug
[ -e /proc/self/fail-nth ] || skip "kernel without fault injection (no /proc/self/fail-nth)"
[ -d "$dbg/failslab" ] || skip "kernel without failslab (no $dbg/failslab)"
p=/sys/module/smq_sas/parameters
[ -e "$p/add_host" ] || skip "${DEV:-the target} is not an smq_sas disk (no $p/add_host)"
need_dev
command -v smq-helper >/dev/null 2>&1 ||
	fail "smq-helper is not on PATH (tools/vm/run.sh builds it into /smq/bin)"

MAX_NTH=${MAX_NTH:-400}
MAX_NTH_LOAD=${MAX_NTH_LOAD:-1500}
SWEEP_SECS=${SWEEP_SECS:-450}
SWEEP_SECS_LOAD=${SWEEP_SECS_LOAD:-300}
LOAD_STEP_FROM=200 # the load sweep steps by 5 from here on
disk=${DEV##*/}
q=/sys/block/$disk

# The fault-injection settings: every GFP mode and order counts, no random
# failures, quiet; each file's old value is put back on exit (lib/knobs.sh).
trap restore_knobs EXIT
trap 'restore_knobs; exit 1' INT TERM
for _f in failslab fail_page_alloc; do
	knob "$dbg/$_f/ignore-gfp-wait" N
	knob "$dbg/$_f/probability" 0
	knob "$dbg/$_f/verbose" 0
done
knob "$dbg/fail_page_alloc/ignore-gfp-highmem" N
knob "$dbg/fail_page_alloc/min-order" 0

# dev_io: the disk still reads (16 x 4 KiB, O_DIRECT).
dev_io() {
	dd if="$DEV" of=/dev/null bs=4k count=16 iflag=direct 2>"$SMQ_TEST_TMP/dd.err" ||
		{ cat "$SMQ_TEST_TMP/dd.err"; return 1; }
}

disks_are() { [ "$(list_disks)" = "$1" ]; }

# attempt OP N: run OP_try N (smq-helper failnth N ...); sets ret, consumed.
attempt() {
	_at_out=$("$1"_try "$2") || fail "$1: N=$2: smq-helper failed"
	case $_at_out in
	"ret="*" consumed="[01]) ;;
	*) fail "$1: N=$2: unexpected smq-helper output '$_at_out'" ;;
	esac
	ret=${_at_out#ret=}
	ret=${ret%% *}
	consumed=${_at_out##*consumed=}
}

# sweep LABEL OP MAX SECS [STEP_FROM]: the sweep of one operation, made of
# OP_try N (prints smq-helper's line), OP_check (checks the state after an
# attempt, given $ret, and undoes the operation) and OP_retry (does it once
# without injection, checks and undoes it). From N = STEP_FROM on, N grows
# by 5.
sweep() {
	_sw_label=$1 _sw_op=$2 _sw_max=$3 _sw_from=${5:-0}
	_sw_end=$(($(date +%s) + $4))
	n=1 _sw_last=0 _sw_points=0 _sw_failed=0 _sw_state=
	while :; do
		if [ "$n" -gt "$_sw_max" ]; then
			_sw_state="capped at N=$_sw_last (limit $_sw_max)"
			break
		fi
		if [ "$(date +%s)" -ge "$_sw_end" ]; then
			_sw_state="capped at N=$_sw_last (time limit $4 s)"
			break
		fi
		_sw_last=$n
		attempt "$_sw_op" "$n"
		say "$_sw_label N=$n: ret=$ret consumed=$consumed"
		if [ "$consumed" = 0 ] && [ "$ret" -lt 0 ]; then
			fail "$_sw_label: failed ($ret) at N=$n although no failure was injected"
		fi
		"$_sw_op"_check
		if [ "$consumed" = 0 ]; then
			_sw_state=completed
			break
		fi
		_sw_points=$((_sw_points + 1))
		[ "$ret" -lt 0 ] && _sw_failed=$((_sw_failed + 1))
		if [ "$_sw_from" -gt 0 ] && [ "$n" -ge "$_sw_from" ]; then
			n=$((n + 5))
		else
			n=$((n + 1))
		fi
	done
	"$_sw_op"_retry
	say "$_sw_label: $_sw_points points, $_sw_state, retry ok" \
		"($_sw_failed failed the call, $((_sw_points - _sw_failed)) absorbed the failure)"
}

say "fault injection through fail-nth (failslab + fail_page_alloc, all GFP modes)"
say "caps: $MAX_NTH points / ${SWEEP_SECS}s per operation, load: $MAX_NTH_LOAD / ${SWEEP_SECS_LOAD}s"

# --- 1. add a host -----------------------------------------------------------
hosts0=$(cat "$p/add_host")
disks0=$(list_disks)
say "add-host: $hosts0 host(s), disks: $disks0"

addhost_try() { smq-helper failnth "$1" write "$p/add_host" 1; }
addhost_check() {
	_h=$(cat "$p/add_host")
	if [ "$ret" -lt 0 ] && [ "$_h" != "$hosts0" ]; then
		fail "adding a host failed ($ret) at N=$n but the host count went from $hosts0 to $_h"
	fi
	if [ "$ret" -ge 0 ] && [ "$_h" != $((hosts0 + 1)) ]; then
		fail "adding a host succeeded at N=$n but the host count went from $hosts0 to $_h"
	fi
	if [ "$_h" -gt "$hosts0" ]; then
		say "-$((_h - hosts0))" >"$p/add_host" || fail "cannot remove the host added at N=$n"
	fi
	_h=$(cat "$p/add_host")
	[ "$_h" = "$hosts0" ] || fail "$_h host(s) after N=$n, want $hosts0"
	wait_until 10 disks_are "$disks0" ||
		fail "disks after N=$n: $(list_disks), before: $disks0"
	dev_io || fail "$DEV does no I/O after N=$n of add-host"
}
addhost_retry() {
	say 1 >"$p/add_host" || fail "adding a host without injection failed"
	[ "$(cat "$p/add_host")" = $((hosts0 + 1)) ] ||
		fail "$(cat "$p/add_host") host(s) after adding one to $hosts0"
	wait_until 10 find_new_disk "$disks0" || fail "the host added without injection has no disk"
	say -1 >"$p/add_host" || fail "cannot remove the host added without injection"
	wait_until 10 disks_are "$disks0" || fail "disks now: $(list_disks), before: $disks0"
}
sweep add-host addhost "$MAX_NTH" "$SWEEP_SECS"

# --- 2. scheduler switch -----------------------------------------------------
sf=$q/smq/scheduler
sched_sel() { sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$sf"; }
# Exactly one [selected] scheduler.
sched_ok() { [ "$(tr -cd '[' <"$sf" | wc -c)" = 1 ] && [ "$(tr -cd ']' <"$sf" | wc -c)" = 1 ]; }
smq_files() { ls "$q/smq"; ls "$q/smq/iosched" 2>/dev/null; }
sched_set() { # NAME
	say "$1" >"$sf" || fail "cannot switch $disk to $1"
	[ "$(sched_sel)" = "$1" ] || fail "$sf reads '$(cat "$sf")' after switching to $1"
}

sched_try() { smq-helper failnth "$1" write "$sf" "$sched1"; }
sched_check() {
	sched_ok || fail "after the switch to $sched1 at N=$n ($ret) $sf reads '$(cat "$sf")'"
	_s=$(sched_sel)
	if [ "$ret" -ge 0 ] && [ "$_s" != "$sched1" ]; then
		fail "the switch to $sched1 succeeded at N=$n but $sf reads '$(cat "$sf")'"
	fi
	if [ "$ret" -lt 0 ] && [ "$_s" != "$sched0" ]; then
		say "  note: the failed switch left $_s selected (was $sched0)"
	fi
	dev_io || fail "$DEV does no I/O with $_s after N=$n of scheduler"
	[ "$_s" = "$sched0" ] || sched_set "$sched0"
	[ "$(smq_files)" = "$smq0" ] ||
		fail "smq/ of $disk after N=$n and back to $sched0: $(smq_files | tr '\n' ' '), before: $(say "$smq0" | tr '\n' ' ')"
	dev_io || fail "$DEV does no I/O after N=$n of scheduler"
}
sched_retry() {
	sched_set "$sched1"
	dev_io || fail "$DEV does no I/O with $sched1"
	sched_set "$sched0"
}

sched1=
if [ -w "$sf" ] && sched_ok; then
	sched0=$(sched_sel)
	names=$(tr -d '[]' <"$sf")
	case " $names " in
	*" mq-deadline "*) [ "$sched0" = mq-deadline ] || sched1=mq-deadline ;;
	esac
	if [ -z "$sched1" ]; then
		for _s in $names; do
			[ "$_s" = "$sched0" ] || { sched1=$_s; break; }
		done
	fi
fi
if [ -n "$sched1" ]; then
	smq0=$(smq_files)
	say "scheduler: $sched0 -> $sched1 ($sf: $(cat "$sf"))"
	sweep scheduler sched "$MAX_NTH" "$SWEEP_SECS"
else
	say "scheduler: not swept ($sf: $(cat "$sf" 2>/dev/null || say missing))"
fi

# --- 3. nr_requests ----------------------------------------------------------
nf=$q/smq/nr_requests
nrreq_try() { smq-helper failnth "$1" write "$nf" "$nr1"; }
nrreq_check() {
	_v=$(cat "$nf")
	if [ "$ret" -lt 0 ] && [ "$_v" != "$nr0" ]; then
		fail "nr_requests $nr1 failed ($ret) at N=$n but nr_requests reads $_v (was $nr0)"
	fi
	if [ "$ret" -ge 0 ] && [ "$_v" != "$nr1" ]; then
		fail "nr_requests $nr1 succeeded at N=$n but nr_requests reads $_v"
	fi
	dev_io || fail "$DEV does no I/O with nr_requests $_v after N=$n"
	say "$nr0" >"$nf" || fail "cannot restore nr_requests $nr0"
	[ "$(cat "$nf")" = "$nr0" ] || fail "nr_requests reads $(cat "$nf") after restoring $nr0"
}
nrreq_retry() {
	say "$nr1" >"$nf" || fail "nr_requests $nr1 failed without injection"
	[ "$(cat "$nf")" = "$nr1" ] || fail "nr_requests reads $(cat "$nf"), want $nr1"
	dev_io || fail "$DEV does no I/O with nr_requests $nr1"
	say "$nr0" >"$nf" || fail "cannot restore nr_requests $nr0"
}

nr1=
if [ -w "$nf" ]; then
	nr0=$(cat "$nf")
	if [ "$nr0" -gt 16 ]; then
		nr1=16
	elif [ "$nr0" -gt 1 ]; then
		nr1=$((nr0 - 1))
	fi
fi
if [ -n "$nr1" ]; then
	say "nr-requests: $nr0 -> $nr1"
	sweep nr-requests nrreq "$MAX_NTH" "$SWEEP_SECS"
else
	say "nr-requests: not swept ($nf: $(cat "$nf" 2>/dev/null || say missing))"
fi

# --- 3b. the host's nr_hw_queues (smq_tag_set_update() and its rollback) --
hq=
for _h in /sys/class/smq_host/host*; do
	[ -w "$_h/nr_hw_queues" ] && hq=$_h/nr_hw_queues
done
nhq_try() { smq-helper failnth "$1" write "$hq" "$nhq1"; }
nhq_check() {
	_v=$(cat "$hq")
	if [ "$ret" -lt 0 ] && [ "$_v" != "$nhq0" ]; then
		fail "nr_hw_queues $nhq1 failed ($ret) at N=$n but it reads $_v (was $nhq0)"
	fi
	if [ "$ret" -ge 0 ] && [ "$_v" != "$nhq1" ]; then
		fail "nr_hw_queues $nhq1 succeeded at N=$n but it reads $_v"
	fi
	[ "$(cat "$q/smq/nr_hw_queues")" = "$_v" ] ||
		fail "$disk: smq/nr_hw_queues $(cat "$q/smq/nr_hw_queues"), host $_v after N=$n"
	dev_io || fail "$DEV does no I/O with $_v hardware queues after N=$n"
	say "$nhq0" >"$hq" || fail "cannot restore nr_hw_queues $nhq0"
	dev_io || fail "$DEV does no I/O after restoring nr_hw_queues $nhq0"
}
nhq_retry() {
	say "$nhq1" >"$hq" || fail "nr_hw_queues $nhq1 failed without injection"
	dev_io || fail "$DEV does no I/O with nr_hw_queues $nhq1"
	say "$nhq0" >"$hq" || fail "cannot restore nr_hw_queues $nhq0"
}
if [ -n "$hq" ] && [ "$(cat "${hq%/*}/max_hw_queues")" -ge 2 ]; then
	# Growing allocates most (tags, hardware queues): sweep 1 -> 2.
	nhq_orig=$(cat "$hq")
	say 1 >"$hq" || fail "cannot set nr_hw_queues 1"
	nhq0=1
	nhq1=2
	say "nr_hw_queues: $nhq0 -> $nhq1"
	sweep nr-hw-queues nhq "$MAX_NTH" "$SWEEP_SECS"
	say "$nhq_orig" >"$hq" || fail "cannot restore nr_hw_queues $nhq_orig"
else
	say "nr_hw_queues: not swept (no writable nr_hw_queues or one CPU)"
fi

# --- 4. module load ----------------------------------------------------------
ko=/lib/modules/$(uname -r)/updates/smq/drivers/sas/smq_sas.ko
[ -f "$ko" ] || ko=$(find "/lib/modules/$(uname -r)" -name smq_sas.ko | head -n 1)
[ -f "$ko" ] || fail "no smq_sas.ko under /lib/modules/$(uname -r)"
_h=$(cat "$p/add_host")
[ "$_h" -le "$hosts0" ] || say "-$((_h - hosts0))" >"$p/add_host" || fail "cannot remove extra hosts"
unload_modules smq_sas || fail "cannot unload smq_sas"
dev_gone() { [ ! -e "$q" ]; }
wait_until 10 dev_gone || fail "$disk is still there after unloading smq_sas"
disksU=$(list_disks)
[ ! -e "$dbg/smq_sas" ] || fail "$dbg/smq_sas is still there after unloading smq_sas"
say "module-load: $ko add_host=1 dev_size_mb=16 (disks without it: $disksU)"

load_try() { smq-helper failnth "$1" finit "$ko" add_host=1 dev_size_mb=16; }
load_check() {
	if [ "$ret" -ge 0 ]; then
		[ -d /sys/module/smq_sas ] || fail "loading smq_sas succeeded at N=$n but it is not there"
		unload_modules smq_sas || fail "cannot unload smq_sas loaded at N=$n"
	elif [ -d /sys/module/smq_sas ]; then
		fail "loading smq_sas failed ($ret) at N=$n but the module is there"
	fi
	wait_until 10 disks_are "$disksU" ||
		fail "disks after N=$n of module-load: $(list_disks), before: $disksU"
	[ ! -e "$dbg/smq_sas" ] || fail "$dbg/smq_sas left behind after N=$n of module-load"
}
load_retry() {
	modprobe smq_sas add_host=1 dev_size_mb=16 || fail "loading smq_sas without injection failed"
	wait_for_new_disk "$disksU" 30 || fail "no disk after loading smq_sas without injection"
	dev_io || fail "$DEV (smq_sas loaded again) does no I/O"
	say "smq_sas loaded again: $DEV"
}
sweep module-load load "$MAX_NTH_LOAD" "$SWEEP_SECS_LOAD" "$LOAD_STEP_FROM"

# --- kmemleak ----------------------------------------------------------------
restore_knobs
if [ ! -w "$dbg/kmemleak" ]; then
	say "kmemleak: not in this kernel"
elif kmemleak_report >"$SMQ_TEST_TMP/leaks"; then
	cat "$SMQ_TEST_TMP/leaks"
	fail "kmemleak: $(grep -c '^unreferenced object' "$SMQ_TEST_TMP/leaks") unreferenced object(s) (the kernel's known error-path leaks left out, see lib/dmesg.sh)"
else
	say "kmemleak: no leak but the kernel's known error-path ones (lib/dmesg.sh)"
fi
exit 0
