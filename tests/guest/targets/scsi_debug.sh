# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target scsi_debug: the kernel's own SCSI stack, scsi_debug (RAM backed) +
# sd_mod. Parameters (spec scsi_debug:VAR=VALUE,...):
#   LBS      logical block size (512)       SIZE_MB  capacity in MiB (256)
#   QUEUES   submit_queues (2)              NDELAY   completion delay in ns,
#            via hrtimer (10000; 0 = complete in the submitting context)
#   POLL_QUEUES  poll_queues: how many of the QUEUES are polled (needs
#            QUEUES >= 2; with delay=0 a polled command completes inline)
#   OPTS     more scsi_debug parameters, space separated
# TARGET_BENCH=1: fake_rw=1 (no data kept) and immediate completion, as in
# the peer figures of Documentation (delay=0 fake_rw=1 submit_queues=2).

target_up() {
	_sd_lbs=${TARGET_LBS:-512}
	_sd_mb=${TARGET_SIZE_MB:-256}
	_sd_params="dev_size_mb=$_sd_mb sector_size=$_sd_lbs submit_queues=${TARGET_QUEUES:-2}"
	if [ "${TARGET_BENCH:-0}" = 1 ]; then
		_sd_params="$_sd_params delay=0 fake_rw=1"
	elif [ "${TARGET_NDELAY:-10000}" = 0 ]; then
		_sd_params="$_sd_params delay=0"
	else
		_sd_params="$_sd_params ndelay=${TARGET_NDELAY:-10000}"
	fi
	[ -n "${TARGET_POLL_QUEUES:-}" ] && _sd_params="$_sd_params poll_queues=$TARGET_POLL_QUEUES"
	modprobe sd_mod || return 77
	_sd_before=$(list_disks)
	say "modprobe scsi_debug $_sd_params ${TARGET_OPTS:-}"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	modprobe scsi_debug $_sd_params ${TARGET_OPTS:-} || return 1
	wait_for_new_disk "$_sd_before" 30 || { say "no scsi_debug disk appeared"; return 1; }
	DEV_SIZE_BYTES=$((_sd_mb * 1048576))
	DEV_LBS=$_sd_lbs
	DEV_SCSI=1
	export DEV DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	unload_modules scsi_debug
}
