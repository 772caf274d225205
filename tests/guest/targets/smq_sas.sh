# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target smq_sas: smq's own stack, smq_blk + smq_scsi + smq_sas (one host,
# one LUN unless told otherwise). Parameters (spec smq_sas:VAR=VALUE,...):
#   LBS          sector_size (512)           SIZE_MB   dev_size_mb (256)
#   QUEUES       submit_queues (2)           TAGSET    host_tagset 0/1 (0)
#   IRQMODE      0 none, 1 softirq, 2 timer, 3 irq_poll (1)
#   NSEC         completion_nsec for IRQMODE=2 and 3 (10000)
#   BACKING      ram or null (ram)           MQ        use_blk_mq Y/N (Y)
#   HOSTS        add_host (1)                TGTS      num_tgts (1)
#   LUNS         max_luns (1)                OPTS      more smq_sas parameters
#   POLL_QUEUES  poll_queues (0): of QUEUES, poll queues (io_uring hipri)
#   SCHED        scheduler to select on every disk (none, mq-deadline; legacy:
#                noop, deadline); selecting a modular one loads its module
# With several LUNs DEV is the first new disk and DEVS lists all of them.
# TARGET_BENCH=1: null backing and completion in the submitting context.

target_up() {
	_sm_lbs=${TARGET_LBS:-512}
	_sm_mb=${TARGET_SIZE_MB:-256}
	_sm_backing=${TARGET_BACKING:-ram}
	_sm_irq=${TARGET_IRQMODE:-1}
	if [ "${TARGET_BENCH:-0}" = 1 ]; then
		_sm_backing=null
		_sm_irq=0
	fi
	_sm_params="dev_size_mb=$_sm_mb sector_size=$_sm_lbs backing=$_sm_backing"
	_sm_params="$_sm_params submit_queues=${TARGET_QUEUES:-2} host_tagset=${TARGET_TAGSET:-0}"
	_sm_params="$_sm_params irqmode=$_sm_irq completion_nsec=${TARGET_NSEC:-10000}"
	_sm_params="$_sm_params add_host=${TARGET_HOSTS:-1} num_tgts=${TARGET_TGTS:-1}"
	_sm_params="$_sm_params max_luns=${TARGET_LUNS:-1}"
	_sm_params="$_sm_params poll_queues=${TARGET_POLL_QUEUES:-0}"
	_sm_before=$(list_disks)
	smq_core_up || return 1
	say "modprobe smq_sas $_sm_params ${TARGET_OPTS:-}"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	modprobe smq_sas $_sm_params ${TARGET_OPTS:-} || return 1
	_sm_want=$(( ${TARGET_HOSTS:-1} * ${TARGET_TGTS:-1} * ${TARGET_LUNS:-1} ))
	wait_for_new_disks "$_sm_before" "$_sm_want" 30 || { say "not all smq disks appeared"; return 1; }
	# shellcheck disable=SC2086 # the disk list
	smq_select_sched $DEVS || return 1
	DEV_SIZE_BYTES=$((_sm_mb * 1048576))
	DEV_LBS=$_sm_lbs
	DEV_SCSI=1
	export DEV DEVS DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	modprobe_r smq_sas
	smq_core_down
}
