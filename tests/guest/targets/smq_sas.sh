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
	_sm_before=$(list_disks)
	say "modprobe smq_scsi use_blk_mq=${TARGET_MQ:-Y}"
	modprobe smq_scsi "use_blk_mq=${TARGET_MQ:-Y}" || return 1
	say "modprobe smq_sas $_sm_params ${TARGET_OPTS:-}"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	modprobe smq_sas $_sm_params ${TARGET_OPTS:-} || return 1
	_sm_want=$(( ${TARGET_HOSTS:-1} * ${TARGET_TGTS:-1} * ${TARGET_LUNS:-1} ))
	wait_for_new_disk "$_sm_before" 30 || { say "no smq disk appeared"; return 1; }
	_sm_n=300
	while :; do
		DEVS=
		for _sm_d in /sys/block/*; do
			_sm_d=${_sm_d##*/}
			case " $_sm_before " in *" $_sm_d "*) continue ;; esac
			[ -b "/dev/$_sm_d" ] && DEVS="$DEVS /dev/$_sm_d"
		done
		[ "$(say "$DEVS" | wc -w)" -ge "$_sm_want" ] && break
		_sm_n=$((_sm_n - 1))
		[ "$_sm_n" -gt 0 ] || { say "only$DEVS of $_sm_want smq disks appeared"; return 1; }
		sleep 0.1
	done
	if [ -n "${TARGET_SCHED:-}" ]; then
		for _sm_d in $DEVS; do
			say "$TARGET_SCHED" >"/sys/block/${_sm_d##*/}/smq/scheduler" ||
				{ say "cannot select scheduler $TARGET_SCHED"; return 1; }
		done
	fi
	DEV_SIZE_BYTES=$((_sm_mb * 1048576))
	DEV_LBS=$_sm_lbs
	DEV_SCSI=1
	export DEV DEVS DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	modprobe_r smq_sas
	modprobe_r smq_scsi
	# Scheduler modules loaded on selection hold smq_blk.
	modprobe_r smq_mq_deadline smq_deadline_iosched
	modprobe_r smq_blk
}
