#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest side of tools/bench/bench (busybox sh, run through tools/vm/run.sh).
# Runs the points of a plan written by the host ($BENCH_PLAN, one line each,
# fields separated by tabs):
#   setup <TAB> SID <TAB> TARGET-SPEC <TAB> DISKS <TAB> EXTRAS
#   point <TAB> PID <TAB> SID <TAB> JOBS <TAB> FIO-ARGS [<TAB> KIND]
# A setup brings a target up (tests/guest/targets, spec as in
# tests/guest/lib/target.sh), waits for DISKS new disks and applies EXTRAS
# (space separated): sched=NAME (smq/scheduler of an smq disk, else
# queue/scheduler), depth=N (device/queue_depth), mem=1 (snapshot
# /proc/meminfo and /proc/slabinfo before and after, caches dropped), poll=1
# (the points poll: every disk must have queue/io_poll 1, else the setup is
# skipped, status 77, "DISK has no polled I/O"). Its
# points follow it, after a discarded warm-up run of BENCH_WARMUP s (1) of
# the first one; a point runs fio BENCH_REPS times for BENCH_SECONDS s:
# BENCH_FIO (the common options: libaio, direct, group_reporting, JSON...),
# FIO-ARGS and, for every disk, a job section with JOBS jobs (one group). Smq's counters (smq/iosched/lock_stats,
# mq/N/{busy,dispatched,direct,queued,runs}, the disk's stat, smq_sas's
# reply_queues) are saved before and after each point. A point of KIND
# "recovery;..." is a fault-injection timeline instead (run_recovery).
#
# Output under /results/bench/: guest.info, setups/SID/ (status, why, up.log,
# params, disks, mem.before/after, dmesg), points/PID/ (fio.cmd, repN.json,
# repN.err, stat.N.before/after, counters.before/after). Progress goes to the
# console and, as "SMQ-OUT BENCH-POINT PID STATUS IOPS CPU%" and
# "SMQ-OUT BENCH-SETUP SID STATUS [WHY]" lines, to the control channel (WHY:
# a skipped target's last line, e.g. "smq_iser.ko missing").
# BENCH_PROFILE=1: "SMQ-OUT BENCH-RUN PID REP" and "BENCH-RUN-END PID REP"
# around every fio run (the host samples the vCPUs in between, see
# gdbsample.py), the kernel's text symbols in kallsyms.gz and each setup's
# module symbols in setups/SID/kallsyms.
# Each setup runs in its own process under a time limit; after one that hung
# or made the kernel report a lockup/BUG/Oops the rest are not run.
#   guest-points.sh                all setups of the plan
#   guest-points.sh --setup SID    one setup and its points (internal)

SMQ_GUEST_DIR=/smq/tests/guest
export SMQ_GUEST_DIR
. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"

: "${BENCH_SECONDS:=3}"
: "${BENCH_REPS:=3}"
: "${BENCH_WARMUP:=1}"
: "${BENCH_PROFILE:=0}"
: "${BENCH_FIO:=--ioengine=libaio --direct=1 --time_based --group_reporting --lat_percentiles=1 --percentile_list=50:90:99:99.9 --eta=never --output-format=json}"
out=/results/bench
plan=/tmp/bench.plan

# ctl LINE: progress to the console and the host (control channel).
ctl() {
	say "$*"
	[ -n "${SMQ_CTL:-}" ] && say "SMQ-OUT $*" >"$SMQ_CTL"
	return 0
}

# field LINE N: the Nth tab-separated field of LINE.
field() { say "$1" | cut -f "$2"; }

# fio_sum FILE KEY: sum of the JSON values "KEY" : V in fio's JSON output.
fio_sum() {
	awk -v k="\"$2\"" '$1 == k && $2 == ":" { sub(/,$/, "", $3); s += $3 }
		END { printf "%.2f\n", s }' "$1"
}

# median: of the numbers on stdin (mean of the middle two for an even count).
median() {
	sort -n | awk '{ v[NR] = $1 }
		END { if (!NR) print 0; else printf "%.1f\n", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'
}

# new_disks BEFORE: disks in /sys/block (with a /dev node) not in BEFORE.
new_disks() {
	for _nd in /sys/block/*; do
		_nd=${_nd##*/}
		case " $1 " in *" $_nd "*) continue ;; esac
		[ -b "/dev/$_nd" ] && printf '/dev/%s ' "$_nd"
	done
}

# wait_disks BEFORE N: wait up to 60 s for N new disks; print them.
wait_disks() {
	_wd_n=600
	while :; do
		_wd_d=$(new_disks "$1")
		[ "$(say "$_wd_d" | wc -w)" -ge "$2" ] && break
		_wd_n=$((_wd_n - 1))
		[ "$_wd_n" -gt 0 ] || { say "only $_wd_d of $2 disks appeared" >&2; return 1; }
		sleep 0.1
	done
	say "$_wd_d"
}

# mem_snapshot FILE: meminfo and slabinfo after dropping caches.
mem_snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# Compaction also drains the per-CPU free page lists into the free count.
	[ -w /proc/sys/vm/compact_memory ] && echo 1 >/proc/sys/vm/compact_memory
	sleep 1
	{
		say "## meminfo"
		cat /proc/meminfo
		say "## slabinfo"
		cat /proc/slabinfo 2>/dev/null
	} >"$1"
}

# counters: smq's per-disk counters and smq_sas's reply queues, one per line.
counters() {
	for _c_dev in $DEVS; do
		_c_n=${_c_dev##*/}
		_c_b=/sys/block/$_c_n
		[ -r "$_c_b/smq/iosched/lock_stats" ] &&
			say "$_c_n lock_stats $(cat "$_c_b/smq/iosched/lock_stats")"
		for _c_q in "$_c_b"/mq/*; do
			[ -r "$_c_q/dispatched" ] || continue
			for _c_f in busy dispatched direct queued runs; do
				[ -r "$_c_q/$_c_f" ] && say "$_c_n mq/${_c_q##*/}/$_c_f $(cat "$_c_q/$_c_f")"
			done
		done
		say "$_c_n stat $(cat "$_c_b/stat")"
		[ -r "$_c_b/queue/io_poll" ] && say "$_c_n io_poll $(cat "$_c_b/queue/io_poll")"
	done
	# the guest's interrupts and softirqs so far (polled I/O takes none)
	awk '$1 == "intr" || $1 == "softirq" { print "sys", $1, $2 }' /proc/stat
	# scsi_debug: the completions its ->mq_poll reaped (polled I/O; needs
	# CONFIG_SCSI_PROC_FS, which Debian's kernels do not set)
	for _c_f in /proc/scsi/scsi_debug/*; do
		[ -r "$_c_f" ] || continue
		sed -n 's/.*mq_polls=\([0-9]*\).*/scsi_debug mq_polls \1/p' "$_c_f"
		break
	done
	for _c_f in /sys/kernel/debug/smq_sas/*/reply_queues; do
		[ -r "$_c_f" ] || continue
		_c_a=${_c_f%/reply_queues}
		sed 1d "$_c_f" | sed "s|^|${_c_a##*/} reply_queue |"
	done
	# soft-RoCE's port counters (packets, retries, RNR and sequence
	# errors): what the wire did for every iSER / NVMe-oF stack alike
	for _c_f in /sys/class/infiniband/*/ports/*/hw_counters/*; do
		[ -r "$_c_f" ] && say "rdma ${_c_f##*/} $(cat "$_c_f")"
	done
	# smq_iser's sessions: CmdSN (commands sent) and busy W/R/P each
	for _c_f in /sys/class/smq_host/host*/iser_sessions; do
		[ -r "$_c_f" ] || continue
		_c_h=${_c_f%/iser_sessions}
		sed "s|^|${_c_h##*/} iser_session |" "$_c_f"
	done
	return 0
}

# describe_disks: what the target gave, per disk.
describe_disks() {
	for _dd in $DEVS; do
		_dd_n=${_dd##*/}
		_dd_b=/sys/block/$_dd_n
		say "disk $_dd_n size_sectors $(cat "$_dd_b/size")"
		for _dd_f in smq/scheduler smq/queue_mode smq/nr_hw_queues smq/nr_requests \
			smq/host_tagset smq/rq_affinity smq/nomerges queue/scheduler \
			queue/nr_requests queue/rq_affinity queue/nomerges queue/io_poll \
			device/queue_depth; do
			[ -r "$_dd_b/$_dd_f" ] && say "disk $_dd_n $_dd_f $(cat "$_dd_b/$_dd_f" 2>/dev/null)"
		done
		_dd_q=0
		for _dd_m in "$_dd_b"/mq/*; do [ -d "$_dd_m" ] && _dd_q=$((_dd_q + 1)); done
		say "disk $_dd_n hw_queues $_dd_q"
		# The SCSI host's geometry (the kernel's or smq's host class, in
		# the device's nearest ancestor that has one: an iSCSI session
		# sits between host and target), an NVMe controller's queues.
		_dd_h=$(readlink -f "$_dd_b/device")
		while [ "${#_dd_h}" -gt 4 ]; do
			ls -d "$_dd_h"/scsi_host/host* >/dev/null 2>&1 && break
			ls -d "$_dd_h"/smq_host/host* >/dev/null 2>&1 && break
			_dd_h=${_dd_h%/*}
		done
		for _dd_f in "$_dd_h"/scsi_host/host*/* "$_dd_h"/smq_host/host*/*; do
			case ${_dd_f##*/} in
			can_queue | cmd_per_lun | nr_hw_queues | max_hw_queues | proc_name)
				say "disk $_dd_n host/${_dd_f##*/} $(cat "$_dd_f" 2>/dev/null)" ;;
			esac
		done
		# (a multipath head's device is the subsystem: its first controller)
		for _dd_f in queue_count sqsize transport; do
			for _dd_c in "$_dd_b/device/$_dd_f" "$_dd_b"/device/nvme*/"$_dd_f"; do
				[ -r "$_dd_c" ] || continue
				say "disk $_dd_n nvme/$_dd_f $(cat "$_dd_c" 2>/dev/null)"
				break
			done
		done
	done
}

# module_params: parameters of the modules under test that are loaded.
module_params() {
	for _mp in smq_blk smq_scsi smq_sas smq_iser scsi_debug null_blk smq_nullbio \
		ib_iser libiscsi nvme_rdma nvme_core rdma_rxe; do
		[ -d "/sys/module/$_mp/parameters" ] || continue
		for _mp_f in /sys/module/"$_mp"/parameters/*; do
			[ -r "$_mp_f" ] && say "$_mp ${_mp_f##*/} $(cat "$_mp_f" 2>/dev/null)"
		done
	done
	return 0
}

# apply_extras EXTRAS: sched=, depth= on every disk (mem= is handled apart).
apply_extras() {
	for _ae in $1; do
		case $_ae in
		sched=*)
			for _ae_d in $DEVS; do
				_ae_b=/sys/block/${_ae_d##*/}
				_ae_f=$_ae_b/queue/scheduler
				[ -e "$_ae_b/smq/scheduler" ] && _ae_f=$_ae_b/smq/scheduler
				say "${_ae#sched=}" >"$_ae_f" ||
					{ say "cannot select scheduler ${_ae#sched=} in $_ae_f"; return 1; }
			done ;;
		depth=*)
			for _ae_d in $DEVS; do
				say "${_ae#depth=}" >"/sys/block/${_ae_d##*/}/device/queue_depth" ||
					{ say "cannot set queue_depth ${_ae#depth=} on $_ae_d"; return 1; }
			done ;;
		mem=* | poll=*) ;;
		*) say "unknown setup extra '$_ae'"; return 1 ;;
		esac
	done
}

# fio_sections JOBS: a job section of JOBS jobs for every disk of DEVS.
fio_sections() {
	_fs_i=0
	for _fs_dev in $DEVS; do
		printf ' --name=d%s --filename=%s --numjobs=%s' "$_fs_i" "$_fs_dev" "$1"
		_fs_i=$((_fs_i + 1))
	done
}

# ng_of DEV: smq's generic character device of DEV's LUN.
ng_of() {
	say "/dev/smq-ng/$(hctl_of "$1")"
}

# sg_of DEV...: the sg driver's nodes of the disks (loads sg).
sg_of() {
	modprobe sg 2>/dev/null
	for _so in "$@"; do
		_so_g=$(ls "/sys/block/${_so##*/}/device/scsi_generic" 2>/dev/null)
		say "/dev/${_so_g:-no-sg-node}"
	done
}

# run_point PLAN-LINE: fio BENCH_REPS times, counters around, progress line;
# a point of kind "ptio;ARGS" runs smq-ptio ARGS on the first disk's
# generic device instead, "ptio-blk;ARGS" on the first disk (the block path),
# one of kind "sg;" fio on the disks' sg nodes.
run_point() {
	_p_id=$(field "$1" 2)
	_p_jobs=$(field "$1" 4)
	_p_args=$(field "$1" 5)
	_p_d=$out/points/$_p_id
	mkdir -p "$_p_d"
	_p_njobs=$((_p_jobs * $(say "$DEVS" | wc -w)))
	_p_cmd="fio $BENCH_FIO --runtime=$BENCH_SECONDS $_p_args$(fio_sections "$_p_jobs")"
	_p_kind=$(field "$1" 6)
	case $_p_kind in
	ptio*\;*)
		# smq-ptio on the first disk itself (ptio-blk;: the block path,
		# same client) or on its generic device (ptio;), fio-shaped JSON
		# (DEVS may start with a blank: its first word)
		_p_njobs=$_p_jobs
		# shellcheck disable=SC2086 # DEVS is a list of words
		_p_dev=$(say $DEVS | cut -d' ' -f1)
		[ "${_p_kind%%;*}" = ptio ] && _p_dev=$(ng_of "$_p_dev")
		_p_cmd="smq-ptio --fio-json --runtime $BENCH_SECONDS --numjobs $_p_jobs ${_p_kind#*;} $_p_dev" ;;
	sg\;*)
		# fio on the disks' sg nodes (the sg driver's own interface)
		# shellcheck disable=SC2086 # DEVS is a list of words
		_p_cmd="fio $BENCH_FIO --runtime=$BENCH_SECONDS $_p_args$(DEVS=$(sg_of $DEVS) fio_sections "$_p_jobs")" ;;
	esac
	say "$_p_cmd" >"$_p_d/fio.cmd"
	say "$_p_njobs" >"$_p_d/jobs"
	counters >"$_p_d/counters.before"
	_p_st=ok
	_p_iops=''
	_p_cpu=''
	_p_r=1
	while [ "$_p_r" -le "$BENCH_REPS" ]; do
		head -n 1 /proc/stat >"$_p_d/stat.$_p_r.before"
		[ "$BENCH_PROFILE" = 1 ] && ctl "BENCH-RUN $_p_id $_p_r"
		# shellcheck disable=SC2086 # word splitting of the fio arguments
		case $_p_kind in
		ptio*\;*) $_p_cmd >"$_p_d/rep$_p_r.json" 2>"$_p_d/rep$_p_r.err" ;;
		*) $_p_cmd --output="$_p_d/rep$_p_r.json" >"$_p_d/rep$_p_r.err" 2>&1 ;;
		esac || {
			_p_st=failed
			cat "$_p_d/rep$_p_r.err"
		}
		[ "$BENCH_PROFILE" = 1 ] && ctl "BENCH-RUN-END $_p_id $_p_r"
		head -n 1 /proc/stat >"$_p_d/stat.$_p_r.after"
		if [ "$_p_st" = ok ]; then
			_p_iops="$_p_iops $(fio_sum "$_p_d/rep$_p_r.json" iops)"
			_p_cpu="$_p_cpu $(awk -v u="$(fio_sum "$_p_d/rep$_p_r.json" usr_cpu)" \
				-v s="$(fio_sum "$_p_d/rep$_p_r.json" sys_cpu)" -v j="$_p_njobs" \
				-v c="$(nproc)" 'BEGIN { printf "%.1f\n", (u + s) * j / c }')"
		fi
		_p_r=$((_p_r + 1))
	done
	counters >"$_p_d/counters.after"
	_p_mi=$(say "$_p_iops" | tr ' ' '\n' | grep . | median)
	_p_mc=$(say "$_p_cpu" | tr ' ' '\n' | grep . | median)
	say "$_p_st" >"$_p_d/status"
	ctl "BENCH-POINT $_p_id $_p_st $_p_mi $_p_mc"
	[ "$_p_st" = ok ]
}

# uptime_ms: milliseconds since boot (10 ms resolution).
uptime_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# hctl_of DEV: the H:C:T:L of a SCSI disk (smq's or the kernel's).
hctl_of() {
	_ho=$(readlink -f "/sys/block/${1##*/}/device")
	say "${_ho##*/}"
}

# error_file HCTL: the LUN's fault-injection rules in debugfs, in
# scsi_debug 6.12's format: scsi_debug's own or smq_sas's.
error_file() {
	for _ef in "/sys/kernel/debug/scsi_debug/$1/error" "/sys/kernel/debug/smq_sas/$1/error"; do
		[ -w "$_ef" ] && { say "$_ef"; return 0; }
	done
	return 1
}

# host_state_file H: the state of SCSI host H (the kernel's or smq's).
host_state_file() {
	for _hs in "/sys/class/scsi_host/host$1/state" "/sys/class/smq_host/host$1/state"; do
		[ -r "$_hs" ] && { say "$_hs"; return 0; }
	done
	say /dev/null
}

# run_recovery PLAN-LINE: the point kind "recovery;AT;TIMEOUT;EH_TIMEOUT;RULES"
# (RULES: error lines separated by commas). One fio run on every disk (one
# job each, per-job IOPS logged every 100 ms: lun_iops.N.log); AT s into it
# LUN 0 of the first host gets device/timeout TIMEOUT, device/eh_timeout
# EH_TIMEOUT and the error RULES, in order; until fio ends, LUN 0's state
# and its host's are sampled every 100 ms (recovery.states "MS LUN HOST").
# recovery.events: "job N DEV HCTL" per fio job, "inject MS". Times in ms
# from fio's start. LUN 0's fio job may end with an error (its LUN may go
# offline): the point is ok when fio wrote its JSON.
run_recovery() {
	_r_id=$(field "$1" 2)
	_r_args=$(field "$1" 5)
	_r_d=$out/points/$_r_id
	mkdir -p "$_r_d"
	_r_old_ifs=$IFS
	IFS=';'
	# shellcheck disable=SC2046 # split the kind on ";"
	set -- $(field "$1" 6)
	IFS=$_r_old_ifs
	_r_at=$2 _r_tmo=$3 _r_eht=$4 _r_rules=$5
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug
	_r_lun0='' _r_i=1
	: >"$_r_d/recovery.events"
	for _r_dev in $DEVS; do
		_r_h=$(hctl_of "$_r_dev")
		say "job $_r_i ${_r_dev##*/} $_r_h" >>"$_r_d/recovery.events"
		[ -z "$_r_lun0" ] && [ "${_r_h##*:}" = 0 ] && _r_lun0=$_r_dev _r_hctl=$_r_h
		_r_i=$((_r_i + 1))
	done
	[ -n "$_r_lun0" ] || { say "no LUN 0 among $DEVS"; return 1; }
	_r_err=$(error_file "$_r_hctl") || { say "no debugfs error file for $_r_hctl"; return 1; }
	_r_sdev=/sys/block/${_r_lun0##*/}/device
	_r_hstate=$(host_state_file "${_r_hctl%%:*}")
	_r_cmd="fio $BENCH_FIO --runtime=$BENCH_SECONDS $_r_args --write_iops_log=$_r_d/lun --log_avg_msec=100$(fio_sections 1)"
	say "$_r_cmd" >"$_r_d/fio.cmd"
	say "$(say "$DEVS" | wc -w)" >"$_r_d/jobs"
	counters >"$_r_d/counters.before"
	head -n 1 /proc/stat >"$_r_d/stat.1.before"
	_r_t0=$(uptime_ms)
	# shellcheck disable=SC2086 # word splitting of the fio arguments
	$_r_cmd --output="$_r_d/rep1.json" >"$_r_d/rep1.err" 2>&1 </dev/null &
	_r_pid=$!
	sleep "$_r_at"
	say "$_r_tmo" >"$_r_sdev/timeout"
	[ -w "$_r_sdev/eh_timeout" ] && say "$_r_eht" >"$_r_sdev/eh_timeout"
	say "inject $(($(uptime_ms) - _r_t0))" >>"$_r_d/recovery.events"
	say "$_r_rules" | tr ',' '\n' | while IFS= read -r _r_rule; do
		say "$_r_rule" >"$_r_err" || say "cannot write '$_r_rule' to $_r_err"
	done
	: >"$_r_d/recovery.states"
	while kill -0 "$_r_pid" 2>/dev/null; do
		say "$(($(uptime_ms) - _r_t0)) $(cat "$_r_sdev/state" 2>/dev/null || say gone) $(cat "$_r_hstate" 2>/dev/null || say -)" \
			>>"$_r_d/recovery.states"
		sleep 0.1
	done
	wait "$_r_pid"
	head -n 1 /proc/stat >"$_r_d/stat.1.after"
	cat "$_r_err" >"$_r_d/recovery.rules" 2>/dev/null
	counters >"$_r_d/counters.after"
	_r_st=ok
	[ -s "$_r_d/rep1.json" ] || { _r_st=failed; cat "$_r_d/rep1.err"; }
	say "$_r_st" >"$_r_d/status"
	ctl "BENCH-POINT $_r_id $_r_st $(fio_sum "$_r_d/rep1.json" iops) 0"
	[ "$_r_st" = ok ]
}

# warm_up PLAN-LINE DIR: one short discarded fio run of the setup's first
# point, so that the first measured run does not pay for TCG translating the
# code paths and for fio's first start on these disks.
warm_up() {
	[ -n "$1" ] && [ "$BENCH_WARMUP" -gt 0 ] || return 0
	_w_args="$(field "$1" 5)$(fio_sections "$(field "$1" 4)")"
	# shellcheck disable=SC2086 # word splitting of the fio arguments
	fio $BENCH_FIO --runtime="$BENCH_WARMUP" $_w_args --output="$2/warmup.json" \
		>"$2/warmup.err" 2>&1 </dev/null
	return 0
}

# run_setup SID: bring the target up, run its points, bring it down.
# Exit status: 0 ok, 77 target unavailable, other: failure.
run_setup() {
	_s_line=$(awk -F'\t' -v s="$1" '$1 == "setup" && $2 == s' "$plan")
	[ -n "$_s_line" ] || { say "no setup $1 in the plan"; exit 1; }
	_s_spec=$(field "$_s_line" 3)
	_s_disks=$(field "$_s_line" 4)
	_s_extras=$(field "$_s_line" 5)
	_s_d=$out/setups/$1
	_s_mem=0
	case " $_s_extras " in *" mem=1 "*) _s_mem=1 ;; esac
	[ "$_s_mem" = 1 ] && mem_snapshot "$_s_d/mem.before"
	_s_before=$(list_disks)
	target_load "$_s_spec" || exit 1
	_s_rc=0
	DEVS=
	target_up >"$_s_d/up.log" 2>&1 || _s_rc=$?
	# The disks the target names (DEVS) when it names them all: a target
	# may make other disks of its own (e.g. nvme_rdma's null_blk backing);
	# else every new disk.
	if [ "$_s_rc" = 0 ] && [ "$(say "$DEVS" | wc -w)" != "$_s_disks" ]; then
		DEVS=$(wait_disks "$_s_before" "$_s_disks" 2>>"$_s_d/up.log") || _s_rc=1
	fi
	[ "$_s_rc" = 0 ] && { apply_extras "$_s_extras" >>"$_s_d/up.log" 2>&1 || _s_rc=1; }
	# poll=1: the points poll (fio --hipri); a disk without polled I/O
	# (queue/io_poll 0, e.g. smq_sas before poll_queues) cannot run them.
	case " $_s_extras " in *" poll=1 "*)
		for _s_dev in $DEVS; do
			[ "$_s_rc" = 0 ] || break
			_s_ip=$(cat "/sys/block/${_s_dev##*/}/queue/io_poll" 2>/dev/null || say 0)
			[ "$_s_ip" = 1 ] && continue
			say "${_s_dev##*/} has no polled I/O (queue/io_poll $_s_ip)" >>"$_s_d/up.log"
			_s_rc=77
		done ;;
	esac
	if [ "$_s_rc" != 0 ]; then
		cat "$_s_d/up.log"
		# A target that cannot run here (77) says why on its last line.
		[ "$_s_rc" = 77 ] && grep . "$_s_d/up.log" | tail -n 1 >"$_s_d/why"
		target_down >>"$_s_d/up.log" 2>&1
		exit "$_s_rc"
	fi
	export DEVS
	say "== setup $1: $_s_spec ($_s_extras): $DEVS"
	[ "$_s_mem" = 1 ] && mem_snapshot "$_s_d/mem.after"
	module_params >"$_s_d/params"
	# The modules' text symbols where this setup loaded them (profiling).
	[ "$BENCH_PROFILE" = 1 ] && grep -E '^[0-9a-f]+ [tT] .*\[' /proc/kallsyms >"$_s_d/kallsyms"
	describe_disks >"$_s_d/disks"
	_s_st=0
	awk -F'\t' -v s="$1" '$1 == "point" && $3 == s' "$plan" >"$_s_d/points"
	warm_up "$(head -n 1 "$_s_d/points")" "$_s_d"
	while IFS= read -r _s_p; do
		case $(field "$_s_p" 6) in
		recovery\;*) run_recovery "$_s_p" </dev/null || _s_st=1 ;;
		*) run_point "$_s_p" </dev/null || _s_st=1 ;;
		esac
	done <"$_s_d/points"
	target_down >"$_s_d/down.log" 2>&1 || { cat "$_s_d/down.log"; exit 1; }
	exit "$_s_st"
}

mkdir -p "$out/setups" "$out/points"
if [ "${1:-}" = --setup ]; then
	run_setup "$2"
fi

say "$BENCH_PLAN" >"$plan"
cp "$plan" "$out/plan"
{
	say "release $(uname -r)"
	say "cpus $(nproc)"
	say "memtotal_kib $(awk '/^MemTotal/ { print $2 }' /proc/meminfo)"
	say "fio $(fio --version)"
	# io_uring: fio's engine and the kernel's switch (6.6+: 0 allowed)
	if fio --enghelp=io_uring >/dev/null 2>&1; then say "fio_io_uring yes"; else say "fio_io_uring no"; fi
	say "io_uring_disabled $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || say none)"
	say "cpu_model $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	say "cmdline $(cat /proc/cmdline)"
} >"$out/guest.info"
# The kernel's own text symbols (profiling: the host samples the vCPUs).
[ "$BENCH_PROFILE" = 1 ] && grep -E '^[0-9a-f]+ [tT] [^[]*$' /proc/kallsyms | gzip -c >"$out/kallsyms.gz"
rc=0 broken=
# shellcheck disable=SC2013 # setup ids are single words
for sid in $(awk -F'\t' '$1 == "setup" { print $2 }' "$plan"); do
	sd=$out/setups/$sid
	mkdir -p "$sd"
	if [ -n "$broken" ]; then
		say not-run >"$sd/status"
		ctl "BENCH-SETUP $sid not-run"
		continue
	fi
	np=$(awk -F'\t' -v s="$sid" '$1 == "point" && $3 == s' "$plan" | wc -l)
	limit=$((90 + np * BENCH_REPS * (BENCH_SECONDS + 30)))
	mark=$(dmesg_mark)
	st=0
	run_with_timeout "$limit" sh "$0" --setup "$sid" || st=$?
	case $st in
	0) status=ok ;;
	77) status=skipped ;;
	124) status=timeout ;;
	*) status=failed ;;
	esac
	dmesg_since "$mark" | cap_lines 2000 >"$sd/dmesg"
	if dmesg_bad "$sd/dmesg" | cap_lines 200 >"$sd/dmesg-bad" && [ -s "$sd/dmesg-bad" ]; then
		status=dmesg
		sed 's/^/    ! /' "$sd/dmesg-bad" | head -n 20
		grep -Eq "$DMESG_FATAL" "$sd/dmesg-bad" && broken=$sid
	fi
	[ "$status" = timeout ] && broken=$sid
	say "$status" >"$sd/status"
	why=
	[ "$status" = skipped ] && why=$(cat "$sd/why" 2>/dev/null)
	ctl "BENCH-SETUP $sid $status${why:+ $why}"
	case $status in ok | skipped) ;; *) rc=1 ;; esac
done
exit "$rc"
