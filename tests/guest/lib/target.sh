# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Targets: the disk a test runs against. A target spec is
#   NAME[:VAR=VALUE[,VAR=VALUE...]]
# NAME selects targets/NAME.sh; each VAR=VALUE is exported as TARGET_VAR
# (e.g. scsi_debug:LBS=4096 sets TARGET_LBS=4096). A target file defines
#   target_up    load and configure, wait for the disk, export DEV=/dev/...,
#                DEV_SIZE_BYTES, DEV_LBS (logical block size), DEV_SCSI=1 if
#                the disk answers SCSI commands (SG_IO); return 77 if the
#                target cannot run in this guest (the test is skipped)
#   target_down  tear everything down again (also after a failed target_up)
# TARGET_BENCH=1 asks for the fastest configuration that still does I/O
# (no data kept: fake_rw, null backing), for benchmarks.

# target_load SPEC: parse SPEC, export its TARGET_* variables and source the
# target file. Sets TARGET_NAME.
target_load() {
	TARGET_NAME=${1%%:*}
	_tl_vars=
	case "$1" in *:*) _tl_vars=${1#*:} ;; esac
	_tl_file="$SMQ_GUEST_DIR/targets/$TARGET_NAME.sh"
	if [ ! -f "$_tl_file" ]; then
		say "unknown target '$TARGET_NAME' (no $_tl_file)" >&2
		return 1
	fi
	_tl_ifs=$IFS
	IFS=,
	for _tl_kv in $_tl_vars; do
		case "$_tl_kv" in
		[A-Za-z_]*=*) export "TARGET_${_tl_kv%%=*}=${_tl_kv#*=}" ;;
		*) IFS=$_tl_ifs; say "bad target parameter '$_tl_kv' in '$1'" >&2; return 1 ;;
		esac
	done
	IFS=$_tl_ifs
	export TARGET_NAME
	# shellcheck source=/dev/null
	. "$_tl_file"
}

# find_new_disk BEFORE: print the name of a disk in /sys/block not in BEFORE.
find_new_disk() {
	for _fd in /sys/block/*; do
		_fd=${_fd##*/}
		case " $1 " in *" $_fd "*) continue ;; esac
		say "$_fd"
		return 0
	done
	return 1
}

# wait_for_new_disk BEFORE SECS: wait for a new disk and its /dev node; sets DEV.
wait_for_new_disk() {
	_wd_n=$(($2 * 10))
	while :; do
		_wd_name=$(find_new_disk "$1") && [ -b "/dev/$_wd_name" ] && break
		_wd_n=$((_wd_n - 1))
		[ "$_wd_n" -gt 0 ] || return 1
		sleep 0.1
	done
	DEV=/dev/$_wd_name
	export DEV
}

list_disks() {
	for _ld in /sys/block/*; do
		printf '%s ' "${_ld##*/}"
	done
}

# wait_for_new_disks BEFORE N [SECS]: wait (30 s) until N disks not in BEFORE
# exist with their /dev nodes; sets DEV (the first found) and DEVS (all).
wait_for_new_disks() {
	wait_for_new_disk "$1" "${3:-30}" || return 1
	_wn_n=$((${3:-30} * 10))
	while :; do
		DEVS=
		for _wn_d in /sys/block/*; do
			_wn_d=${_wn_d##*/}
			case " $1 " in *" $_wn_d "*) continue ;; esac
			[ -b "/dev/$_wn_d" ] && DEVS="$DEVS /dev/$_wn_d"
		done
		[ "$(say "$DEVS" | wc -w)" -ge "$2" ] && break
		_wn_n=$((_wn_n - 1))
		[ "$_wn_n" -gt 0 ] || { say "only$DEVS of $2 disks appeared"; return 1; }
		sleep 0.1
	done
	export DEV DEVS
}

# --- smq's stack below a low-level driver (targets smq_sas, smq_iser) ---
# Spec variables: MQ (use_blk_mq of smq_scsi, Y), DISK_PREFIX (its
# disk_prefix, sd), SCHED (scheduler selected
# on every disk: none, mq-deadline; legacy: noop, deadline).

# smq_core_up: load smq_scsi (and smq_blk) on the path TARGET_MQ selects.
smq_core_up() {
	say "modprobe smq_scsi use_blk_mq=${TARGET_MQ:-Y} disk_prefix=${TARGET_DISK_PREFIX:-sd}"
	modprobe smq_scsi "use_blk_mq=${TARGET_MQ:-Y}" "disk_prefix=${TARGET_DISK_PREFIX:-sd}"
}

# smq_select_sched DISK...: select TARGET_SCHED (if set) on each disk; a
# modular scheduler's module is loaded by the selection.
smq_select_sched() {
	[ -n "${TARGET_SCHED:-}" ] || return 0
	for _ss_d in "$@"; do
		say "$TARGET_SCHED" >"/sys/block/${_ss_d##*/}/smq/scheduler" ||
			{ say "cannot select scheduler $TARGET_SCHED"; return 1; }
	done
}

# smq_core_down: unload smq_scsi, the scheduler modules and smq_blk (after
# the low-level driver).
smq_core_down() {
	unload_modules smq_scsi
	# Scheduler modules loaded on selection hold smq_blk.
	unload_modules smq_mq_deadline smq_deadline_iosched
	unload_modules smq_blk
}
