# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# guest-hw: virtio-scsi
#
# Target smq_virtio: smq's stack on QEMU's virtio-scsi controller vs0
# (smq_blk + smq_scsi + smq_virtio), with Linux's virtio_scsi + sd on vs1 in
# the same boot as the peer (PEER_DEV). Linux's driver binds both
# controllers first; vs0 is then unbound from it and smq_virtio binds it.
# Parameters (spec smq_virtio:VAR=VALUE,...):
#   VQUEUES      num_queues of each controller (the vCPUs)
#   VLUNS        LUNs per controller (1)     VSIZE_MB  disk size (256)
#   NBD          1: disks served by nbdkit (fault filters, volatile cache)
#   NBD_FUA      discard: flushes and FUA dropped (negative control)
#   POLL_QUEUES  smq_virtio poll_queues (0)  MQ        use_blk_mq Y/N (Y)
#   PEER_POLL_QUEUES  Linux's virtscsi_poll_queues (6.12)
#   DISK_PREFIX  smq_scsi disk_prefix (sd)
#   SCHED        scheduler on every smq disk; PEER_SCHED on Linux's
#                (default: the kernel's, mq-deadline)
# Exports DEV (vs0 LUN 0), DEVS (vs0's LUNs), PEER_DEV (vs1 LUN 0), VS_SMQ
# and VS_LINUX (the virtio devices of vs0 and vs1).
. "$SMQ_GUEST_DIR/lib/virtio.sh"

target_up() {
	vs_linux_up "${TARGET_PEER_POLL_QUEUES:-}" || return
	VS_SMQ=$(vs_virtio_of 0)
	VS_LINUX=$(vs_virtio_of 1) || VS_LINUX=
	vs_wait_disk 0 0 >/dev/null || { say "Linux's virtio_scsi found no disk on vs0"; return 1; }
	vs_unbind "$VS_SMQ" || return 1
	vs_wait_gone 0 0 || return 1
	smq_core_up || return 1
	say "modprobe smq_virtio poll_queues=${TARGET_POLL_QUEUES:-0} (binds $VS_SMQ)"
	modprobe smq_virtio "poll_queues=${TARGET_POLL_QUEUES:-0}" || return 1
	[ "$(vs_driver_of "$VS_SMQ")" = smq_virtio ] || { say "smq_virtio did not bind $VS_SMQ"; return 1; }
	vs_wait_luns 0 "${TARGET_VLUNS:-1}" || return 1
	PEER_DEV=
	[ -z "$VS_LINUX" ] || PEER_DEV=$(vs_wait_disk 1 0) || { say "no Linux disk on vs1"; return 1; }
	# shellcheck disable=SC2086 # the disk list
	smq_select_sched $DEVS || return 1
	if [ -n "${TARGET_PEER_SCHED:-}" ] && [ -n "$PEER_DEV" ]; then
		say "$TARGET_PEER_SCHED" >"/sys/block/${PEER_DEV##*/}/queue/scheduler" || return 1
	fi
	say "smq disk $DEV on $VS_SMQ, Linux disk ${PEER_DEV:-none} on ${VS_LINUX:-none}"
	DEV_SIZE_BYTES=$((${TARGET_VSIZE_MB:-256} * 1048576))
	DEV_LBS=512
	DEV_SCSI=1
	export DEV DEVS PEER_DEV VS_SMQ VS_LINUX DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

# Back to the boot's state: Linux's virtio_scsi unloaded, or, where it is
# built in (the debug kernel), bound to vs0 again.
target_down() {
	unload_modules smq_virtio || return 1
	smq_core_down || return 1
	if [ -e /sys/module/virtio_scsi/initstate ]; then
		unload_modules virtio_scsi
	elif [ -n "${VS_SMQ:-}" ] && [ -z "$(vs_driver_of "$VS_SMQ")" ]; then
		vs_bind "$VS_SMQ" virtio_scsi
	fi
}
