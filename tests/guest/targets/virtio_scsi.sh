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
	modprobe virtio_pci 2>/dev/null
	modprobe sd_mod || return 1
	_vl_opt=
	[ -z "${TARGET_POLL_QUEUES:-}" ] || _vl_opt="virtscsi_poll_queues=$TARGET_POLL_QUEUES"
	# shellcheck disable=SC2086 # the optional parameter
	modprobe virtio_scsi $_vl_opt || return 77
	vs_virtio_of 0 >/dev/null || { say "no virtio-scsi controller vs0"; return 77; }
	DEVS=
	_vl_l=0
	while [ "$_vl_l" -lt "${TARGET_VLUNS:-1}" ]; do
		_vl_d=$(vs_wait_disk 0 "$_vl_l") || { say "no disk for vs0 LUN $_vl_l"; return 1; }
		DEVS="$DEVS $_vl_d"
		_vl_l=$((_vl_l + 1))
	done
	DEV=${DEVS# }
	DEV=${DEV%% *}
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
	unload_modules virtio_scsi
}
