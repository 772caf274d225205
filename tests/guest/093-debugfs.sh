#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: debugfs
# timeout: 180
#
# smq_blk's debugfs tree, /sys/kernel/debug/smq/<disk>/ (Documentation/
# block.md, "debugfs"): it exists for the smq disk with the files of its
# path (hctx<N>/ per hardware queue on mq, legacy/ with use_blk_mq=N);
# every file reads without error, idle and under fio; request lines have
# the documented format; hctx<N>/busy (legacy/busy) shows requests while
# fio runs; on mq, the per-CPU counters sum up (as many commands
# dispatched as done over fio's two jobs); sched/ appears when mq-deadline
# is selected and goes when none is; and when the hosts are removed
# (add_host=-N) the disk's directory goes, and a file held open across the
# removal reads as an error instead of reaching freed memory.  A host is
# added back at the end.  Leaves a different disk behind: run it last on
# its line.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

p=/sys/module/smq_sas/parameters
[ -w "$p/add_host" ] || skip "$DEV is not an smq_sas disk"
disk=${DEV##*/}
sq=/sys/block/$disk/smq
[ -d "$sq" ] || skip "$DEV is not an smq disk"
top=/sys/kernel/debug/smq
if [ ! -d "$top" ]; then
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug || skip "no debugfs"
fi
[ -d "$top" ] || fail "no $top with smq_blk loaded"
d=$top/$disk
[ -d "$d" ] || { ls -l "$top"; fail "no $d"; }
mode=$(cat "$sq/queue_mode")
say "$d ($mode):"
(cd "$d" && find . | sort | cap_lines 40)

# need_file PATH...: each must be a regular file.
need_file() {
	for _nf in "$@"; do
		[ -f "$_nf" ] || fail "missing $_nf"
	done
}

# read_all DIR: read every file under DIR; fail on the first error.
read_all() {
	_ra_n=0
	find "$1" -type f >"$SMQ_TEST_TMP/files"
	while read -r _ra_f; do
		cat "$_ra_f" >/dev/null || fail "reading $_ra_f failed"
		_ra_n=$((_ra_n + 1))
	done <"$SMQ_TEST_TMP/files"
	[ "$_ra_n" -gt 0 ] || fail "no files under $1"
	say "read $_ra_n files under $1"
}

# check_rq_lines FILE...: every line is a documented request line.
check_rq_lines() {
	cat "$@" | awk '
		!/^tag=-?[0-9]+ op=[A-Z_]+ sector=[0-9]+ bytes=[0-9]+ rq_flags=[A-Za-z0-9_|]+ state=[a-z_]+$/ {
			print "bad request line: " $0; bad = 1 }
		END { exit bad }' || fail "request lines of $* not as documented"
}

# busy_lines: request lines in the busy files of the disk, now.
busy_lines() {
	if [ "$mode" = legacy ]; then
		cat "$d/legacy/busy"
	else
		cat "$d"/hctx*/busy
	fi | wc -l
}

# ---- the tree ------------------------------------------------------------
need_file "$d/state" "$d/requeue_list"
grep -q "^mode=$mode\$" "$d/state" || { cat "$d/state"; fail "state: mode is not $mode"; }
grep -q '^flags=.*REGISTERED' "$d/state" || { cat "$d/state"; fail "state: not REGISTERED"; }
if [ "$mode" = legacy ]; then
	need_file "$d/legacy/state" "$d/legacy/dispatch" "$d/legacy/busy"
	[ ! -e "$d/hctx0" ] || fail "a legacy disk has hctx directories"
	elv=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sq/scheduler")
	grep -q "^elevator=$elv\$" "$d/legacy/state" ||
		{ cat "$d/legacy/state"; fail "legacy/state does not name elevator $elv"; }
	grep -q '^free=[0-9][0-9]*$' "$d/legacy/state" || fail "legacy/state: no free count"
else
	[ ! -e "$d/legacy" ] || fail "an mq disk has legacy/"
	nr=$(cat "$sq/nr_hw_queues")
	n=$(find "$d" -maxdepth 1 -name 'hctx*' -type d | wc -l)
	[ "$n" = "$nr" ] || fail "$n hctx directories for $nr hardware queues"
	i=0
	while [ "$i" -lt "$nr" ]; do
		h=$d/hctx$i
		need_file "$h/state" "$h/tags" "$h/dispatch" "$h/busy" "$h/ctx_map" \
			"$h/cpus" "$h/stats"
		[ "$(cpu_set "$(cat "$h/cpus")")" = "$(cpu_set "$(cat "/sys/block/$disk/mq/$i/cpu_list")")" ] ||
			fail "$h/cpus '$(cat "$h/cpus")' != mq/$i/cpu_list"
		grep -q "^nr_tags=$(cat "/sys/block/$disk/mq/$i/nr_tags")\$" "$h/tags" ||
			{ cat "$h/tags"; fail "$h/tags: nr_tags differs from mq/$i/nr_tags"; }
		grep -q '^bitmap_tags: depth=' "$h/tags" || fail "$h/tags: no bitmap_tags"
		grep -q '^runs=[0-9][0-9]*$' "$h/stats" || fail "$h/stats: no runs counter"
		ctxs=$(find "$h" -mindepth 1 -maxdepth 1 -name 'cpu*' -type d | wc -l)
		[ "$ctxs" -ge 1 ] || fail "$h has no cpu<N> directory"
		need_file "$(find "$h" -mindepth 2 -name rq_list | head -n 1)"
		i=$((i + 1))
	done
fi
read_all "$d"

# ---- under I/O -----------------------------------------------------------
# Counters kept per CPU (hctx stats, the LUN's iodone_cnt) are read as sums:
# over fio's two jobs, each command the driver accepted is one dispatched
# and one done, whichever CPUs counted them.
sum_dispatched() {
	cat "$d"/hctx*/stats | awk -F= '$1 == "dispatched" { s += $2 } END { print s + 0 }'
}
iodone() {
	say $(($(cat "/sys/block/$disk/device/iodone_cnt")))
}
if [ "$mode" != legacy ]; then
	disp0=$(sum_dispatched)
	done0=$(iodone)
fi
# Two jobs for the per-CPU sums (mq).  The legacy path checks no sums: one
# job leaves a CPU to this sampler, which with both CPUs busy runs only
# when a job is preempted, and a job is preempted only after its softirq
# completed what it had in flight (irqmode 1: nothing is ever seen busy).
jobs=2
[ "$mode" = legacy ] && jobs=1
fio --name=dbg --filename="$DEV" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --iodepth=128 --numjobs=$jobs --time_based --runtime=8 \
	--group_reporting --output=/dev/null >/dev/null 2>&1 &
fpid=$!
sleep 1
busy_max=0
tries=0
while [ "$tries" -lt 100 ] && kill -0 "$fpid" 2>/dev/null; do
	b=$(busy_lines)
	[ "$b" -gt "$busy_max" ] && busy_max=$b
	if [ "$b" -gt 0 ]; then
		if [ "$mode" = legacy ]; then
			check_rq_lines "$d/legacy/busy"
		else
			check_rq_lines "$d"/hctx*/busy
		fi
		break
	fi
	tries=$((tries + 1))
	usleep 50000
done
read_all "$d"
wait "$fpid" || fail "fio randread failed"
say "busy: up to $busy_max requests seen in flight"
[ "$busy_max" -gt 0 ] || fail "busy showed no request while fio ran"
if [ "$mode" = legacy ]; then
	check_rq_lines "$d/legacy/dispatch" "$d/requeue_list"
else
	check_rq_lines "$d"/hctx*/dispatch "$d"/hctx*/cpu*/rq_list "$d/requeue_list"
	usleep 200000	# queue runs of work items end their counting
	disp=$(($(sum_dispatched) - disp0))
	ndone=$(($(iodone) - done0))
	say "fio: $disp commands dispatched (hctx stats), $ndone done (iodone_cnt)"
	[ "$disp" -gt 0 ] || fail "stats: nothing dispatched after fio"
	[ "$disp" -eq "$ndone" ] ||
		fail "per-CPU counters disagree: $disp dispatched, $ndone done"
fi

# ---- the scheduler -------------------------------------------------------
sched_old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$sq/scheduler")
if [ "$mode" = legacy ]; then
	for e in deadline noop; do
		say "$e" >"$sq/scheduler" || fail "selecting elevator $e failed"
		grep -q "^elevator=$e\$" "$d/legacy/state" ||
			{ cat "$d/legacy/state"; fail "legacy/state does not follow the switch to $e"; }
		[ ! -e "$d/sched" ] || fail "a legacy disk has sched/"
	done
else
	say none >"$sq/scheduler" || fail "selecting none failed"
	[ ! -e "$d/sched" ] || fail "sched/ with scheduler none"
	say mq-deadline >"$sq/scheduler" || fail "selecting mq-deadline failed"
	grep -q '^scheduler=mq-deadline$' "$d/state" || fail "state does not name mq-deadline"
	need_file "$d/sched/read_fifo_list" "$d/sched/write_fifo_list" \
		"$d/sched/dispatch" "$d/sched/batch" "$d/sched/queued"
	grep -Eq '^last_dir=(read|write)$' "$d/sched/batch" ||
		{ cat "$d/sched/batch"; fail "sched/batch: no last_dir"; }
	fio --name=dbgw --filename="$DEV" --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=64 --numjobs=2 --time_based \
		--runtime=4 --group_reporting --output=/dev/null >/dev/null 2>&1 &
	fpid=$!
	n=0
	while kill -0 "$fpid" 2>/dev/null; do
		read_all "$d/sched" >/dev/null
		cat "$d/sched/read_fifo_list" "$d/sched/write_fifo_list" | awk '
			!/^tag=[0-9]+ sector=[0-9]+ bytes=[0-9]+ expires_ms=-?[0-9]+$/ {
				print "bad FIFO line: " $0; bad = 1 }
			END { exit bad }' || fail "sched/ FIFO lines not as documented"
		n=$((n + 1))
		usleep 100000
	done
	wait "$fpid" || fail "fio randrw under mq-deadline failed"
	say "read sched/ $n times under fio"
	cat "$d/sched/batch" "$d/sched/queued"
	say none >"$sq/scheduler" || fail "selecting none failed"
	[ ! -e "$d/sched" ] || fail "sched/ still there after selecting none"
	say "sched/ came with mq-deadline and went with none"
fi
say "$sched_old" >"$sq/scheduler" || fail "restoring scheduler $sched_old failed"
read_all "$d"

# ---- host removal --------------------------------------------------------
hosts=$(cat "$p/add_host")
f=$(find "$d" -name stats -o -name state | head -n 1)
exec 3<"$f"
say "-$hosts" >"$p/add_host" || fail "removing the hosts failed"
[ "$(cat "$p/add_host")" = 0 ] || fail "hosts left: $(cat "$p/add_host")"
wait_until 10 test ! -e "/sys/block/$disk" || fail "$disk still in /sys/block"
wait_until 10 test ! -e "$d" || fail "$d still there after its host was removed"
left=$(ls "$top")
[ -z "$left" ] || fail "debugfs directories left without smq disks: $left"
if cat <&3 >/dev/null 2>&1; then
	fail "$f, held open, read after its disk was removed"
fi
exec 3<&-
say "$d went with its host; the open file reads as an error"
say 1 >"$p/add_host" || fail "adding a host back failed"
wait_until 30 sh -c "ls $top/* >/dev/null 2>&1" ||
	fail "no debugfs directory for the new host's disk"
say "new disk: $(ls "$top")"
exit 0
