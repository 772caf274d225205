# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# One boot of the power-loss harness (run by tools/powerloss/powerloss.py
# through tools/vm/run.sh -s, disks from vscsi.py with KEEP=): controller vs0
# (smq_virtio) and vs1 (Linux's virtio_scsi + sd) with 4 LUNs each: l0 raw
# records with FUA writes, l1 raw records with write + flush, l2 ext4, l3 xfs
# (smq-plw's workloads; tags vsC-fua, vsC-flush, vsC-ext4, vsC-xfs).
#   1. If /smq/in/acks exists (the last boot's acknowledgements): check every
#      disk through Linux's virtio_scsi (a neutral reader): smq-plw check on
#      the raw disks; on the file systems mount (the journal replays), umount,
#      fsck (e2fsck -fn, xfs_repair -n), mount and smq-plw fscheck.
#   2. Unless PL_CHECK_ONLY=1: bind vs0 to smq_virtio (use_blk_mq=PL_MQ),
#      select PL_SCHED on both controllers' disks, cache_type "write through"
#      on all of them if PL_WCE=0, new file systems, start the 8 workloads,
#      and after PL_DELAY seconds send the dmesg gate (PLDMESG) and ask the
#      host for the power cut.  A check-only boot ends with the dmesg gate.
# Lines for the host (SMQ-OUT): PLCFG, PLRUN, PLACK (smq-plw), PLCHECK,
# PLFSCK TAG ok|fail|nomount, PLDMESG ok|bad LINE.
SMQ_GUEST_DIR=/smq/tests/guest
# shellcheck source=lib/common.sh
. "$SMQ_GUEST_DIR/lib/common.sh"
# shellcheck source=lib/virtio.sh
. "$SMQ_GUEST_DIR/lib/virtio.sh"
# shellcheck source=lib/target.sh
. "$SMQ_GUEST_DIR/lib/target.sh"
# shellcheck source=lib/dmesg.sh
. "$SMQ_GUEST_DIR/lib/dmesg.sh"

out() { printf 'SMQ-OUT %s\n' "$*" >"$SMQ_CTL"; }
KINDS="fua flush ext4 xfs"

lun_of() {
	case $1 in fua) say 0 ;; flush) say 1 ;; ext4) say 2 ;; xfs) say 3 ;; esac
}

fsck_cmd() {
	case $1 in ext4) say "e2fsck -fn" ;; xfs) say "xfs_repair -n" ;; esac
}

check_fs() { # TAG KIND DEV
	_cf_m=/tmp/m-$1
	mkdir -p "$_cf_m"
	if ! mount -t "$2" "$3" "$_cf_m"; then
		out "PLFSCK $1 nomount"
		return
	fi
	umount "$_cf_m"
	# shellcheck disable=SC2046 # the command line
	if $(fsck_cmd "$2") "$3" >"/tmp/fsck-$1" 2>&1; then
		out "PLFSCK $1 ok"
	else
		out "PLFSCK $1 fail"
		tail -n 20 "/tmp/fsck-$1"
	fi
	mount -t "$2" -o ro "$3" "$_cf_m" || { out "PLFSCK $1 nomount"; return; }
	out "$(smq-plw fscheck "$_cf_m" "$1" /smq/in/acks)"
	umount "$_cf_m"
}

check_all() {
	for _ca_c in 0 1; do
		for _ca_k in $KINDS; do
			_ca_d=$(vs_wait_disk "$_ca_c" "$(lun_of "$_ca_k")") ||
				{ out "PLFSCK vs$_ca_c-$_ca_k nodisk"; continue; }
			case $_ca_k in
			fua | flush) out "$(smq-plw check "$_ca_d" "vs$_ca_c-$_ca_k" /smq/in/acks)" ;;
			*) check_fs "vs$_ca_c-$_ca_k" "$_ca_k" "$_ca_d" ;;
			esac
		done
	done
}

# prepare C: scheduler, cache type and file systems on vsC's disks.
prepare() {
	_pr_sched=$PL_SCHED
	if [ "$1" = 0 ] && [ "$PL_MQ" = N ]; then
		case $PL_SCHED in none) _pr_sched=noop ;; mq-deadline) _pr_sched=deadline ;; esac
	fi
	for _pr_k in $KINDS; do
		_pr_d=$(vs_wait_disk "$1" "$(lun_of "$_pr_k")") || fail "no disk vs$1 $_pr_k"
		_pr_b=${_pr_d##*/}
		if [ "$1" = 0 ]; then
			say "$_pr_sched" >"/sys/block/$_pr_b/smq/scheduler" || fail "scheduler $_pr_sched"
		else
			say "$_pr_sched" >"/sys/block/$_pr_b/queue/scheduler" || fail "scheduler $_pr_sched"
		fi
		# smq's disk has it in its block directory, sd in its scsi_disk.
		_pr_ct=/sys/block/$_pr_b/cache_type
		[ "$1" = 0 ] || _pr_ct=$(echo "/sys/block/$_pr_b/device/scsi_disk/"*/cache_type)
		[ "$PL_WCE" = 1 ] || say "write through" >"$_pr_ct" ||
			fail "cache_type write through on $_pr_b"
		say "vs$1 $_pr_k: $_pr_d, cache_type $(cat "$_pr_ct")"
		case $_pr_k in
		ext4) mkfs.ext4 -q -F "$_pr_d" || fail "mkfs.ext4" ;;
		xfs) mkfs.xfs -q -f "$_pr_d" || fail "mkfs.xfs" ;;
		esac
	done
}

# dmesg_gate: tell the host whether the kernel reported a problem in this
# boot (the workload boot is killed, so this is its only dmesg check).
dmesg_gate() {
	dmesg >/tmp/pl-dmesg
	if dmesg_bad /tmp/pl-dmesg >/tmp/pl-bad; then
		out "PLDMESG bad $(head -n 1 /tmp/pl-bad)"
	else
		out "PLDMESG ok"
	fi
}

start_workloads() { # C
	for _sw_k in $KINDS; do
		_sw_d=$(vs_find_disk "$1" "$(lun_of "$_sw_k")")
		_sw_t=vs$1-$_sw_k
		case $_sw_k in
		fua | flush)
			smq-plw write "$_sw_d" "$_sw_t" "$PL_RUN" "$_sw_k" 2 8 >"$SMQ_CTL" &
			;;
		*)
			mkdir -p "/tmp/w-$_sw_t"
			mount -t "$_sw_k" "$_sw_d" "/tmp/w-$_sw_t" || fail "mount $_sw_d"
			smq-plw fs "/tmp/w-$_sw_t" "$_sw_t" "$PL_RUN" >"$SMQ_CTL" &
			;;
		esac
	done
}

vs_linux_up "" || fail "no virtio-scsi"
vs_wait_luns 0 4 || fail "no disks on vs0"
vs_wait_luns 1 4 || fail "no disks on vs1"
[ ! -f /smq/in/acks ] || check_all
if [ "${PL_CHECK_ONLY:-0}" = 1 ]; then
	dmesg_gate
	exit 0
fi

vs=$(vs_virtio_of 0)
vs_unbind "$vs" || fail "unbind $vs"
vs_wait_gone 0 0 || fail "vs0's disks stay"
TARGET_MQ=$PL_MQ smq_core_up || fail "smq_scsi"
modprobe smq_virtio || fail "smq_virtio"
[ "$(vs_driver_of "$vs")" = smq_virtio ] || fail "smq_virtio did not bind $vs"
vs_wait_luns 0 4 || fail "no smq disks on vs0"
prepare 0
prepare 1
out "PLCFG mq=$PL_MQ sched=$PL_SCHED wce=$PL_WCE delay=$PL_DELAY run=$PL_RUN"
start_workloads 0
start_workloads 1
sleep "$PL_DELAY"
dmesg_gate
host_req power-cut
sleep 60
fail "no power cut within 60 s"
