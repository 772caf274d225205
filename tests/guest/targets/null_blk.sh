# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target null_blk: the kernel's null_blk (blk-mq by default), for benchmarks
# and for data tests with MEMORY=1. Parameters:
#   QUEUE_MODE  0 bio, 1 legacy (6.1 only: none), 2 blk-mq (2)
#   IRQMODE     0 none, 1 softirq, 2 timer (0)
#   QUEUES      submit_queues (2)       LBS  block size (512)
#   SIZE_GB     capacity in GiB (1)     MEMORY  1 = memory_backed (0)
#   POLL_QUEUES poll_queues: polled hardware queues besides the QUEUES
#               submit queues (unset: null_blk's default)
#   OPTS        more null_blk parameters, space separated (a parameter given
#               twice: the later one counts, e.g. OPTS=nr_devices=4)
# Not a SCSI disk (DEV_SCSI=0).

target_up() {
	_nb_lbs=${TARGET_LBS:-512}
	_nb_gb=${TARGET_SIZE_GB:-1}
	_nb_params="nr_devices=1 queue_mode=${TARGET_QUEUE_MODE:-2} irqmode=${TARGET_IRQMODE:-0}"
	_nb_params="$_nb_params submit_queues=${TARGET_QUEUES:-2} bs=$_nb_lbs gb=$_nb_gb"
	[ "${TARGET_MEMORY:-0}" = 1 ] && _nb_params="$_nb_params memory_backed=1"
	[ -n "${TARGET_POLL_QUEUES:-}" ] && _nb_params="$_nb_params poll_queues=$TARGET_POLL_QUEUES"
	_nb_before=$(list_disks)
	say "modprobe null_blk $_nb_params ${TARGET_OPTS:-}"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	modprobe null_blk $_nb_params ${TARGET_OPTS:-} || return 77
	wait_for_new_disk "$_nb_before" 30 || { say "no null_blk disk appeared"; return 1; }
	DEV_SIZE_BYTES=$((_nb_gb * 1073741824))
	DEV_LBS=$_nb_lbs
	DEV_SCSI=0
	export DEV DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	unload_modules null_blk
}
