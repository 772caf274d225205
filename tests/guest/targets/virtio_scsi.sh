# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# guest-hw: virtio-scsi
#
# Target virtio_scsi: Linux's own virtio_scsi + sd on QEMU's virtio-scsi
# controller vs0, the peer of smq_virtio (same controllers, same disks).
# Parameters as smq_virtio's (VQUEUES, VLUNS, VSIZE_MB, NBD, NBD_FUA), and
#   POLL_QUEUES  virtio_scsi's virtscsi_poll_queues (6.12; 0)
#   SCHED        scheduler on its disks (default the kernel's, mq-deadline)
. "$SMQ_GUEST_DIR/lib/virtio.sh"

target_up() {
	vs_linux_up "${TARGET_POLL_QUEUES:-}" || return
	vs_wait_luns 0 "${TARGET_VLUNS:-1}" || return 1
	if [ -n "${TARGET_SCHED:-}" ]; then
		for _vl_d in $DEVS; do
			say "$TARGET_SCHED" >"/sys/block/${_vl_d##*/}/queue/scheduler" || return 1
		done
	fi
	DEV_SIZE_BYTES=$((${TARGET_VSIZE_MB:-256} * 1048576))
	DEV_LBS=512
	DEV_SCSI=1
	export DEV DEVS DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	# Built in (the debug kernel): nothing to unload.
	[ -e /sys/module/virtio_scsi/initstate ] || return 0
	unload_modules virtio_scsi
}
