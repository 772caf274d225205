# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target smq_iser: smq's stack (smq_blk + smq_scsi) with smq_iser, smq's
# iSER initiator, logged in over soft-RoCE to LIO's iSER targets in the same
# guest (tests/guest/lib/iser.sh; the kernel's initiator on the same wire is
# target ib_iser). One smq host per LIO target, made by writing
#   dst=10.0.0.1:3260,target=iqn.2026-12.org.smq:tgtK,queues=Q,queue_depth=D,cmd_per_lun=C
# to /sys/class/smq_iser/ctl/add_target. Parameters (spec smq_iser:VAR=VALUE,...):
#   TARGETS  LIO targets = smq hosts (1)        LUNS     LUNs per target (1)
#   SIZE_MB  each LUN's size (256)              CMDSN    LIO default_cmdsn_depth (128)
#   QUEUES   queues= (1)     QD  queue_depth= (128)     CMD_PER_LUN  cmd_per_lun= (32)
#   MQ       use_blk_mq Y/N (Y)                 SCHED    scheduler on every disk
#   OPTS     smq_iser module parameters, space separated
# DEV is target 0's LUN 0, DEVS every disk, target by target, LUN by LUN.
# RAM backstores keep data; TARGET_BENCH=1: NULLIO backstores. SKIP (77)
# when smq_iser.ko was not built (no drivers/iser module in this boot) or the
# kernel has no soft-RoCE / LIO iSER target.

. "$SMQ_GUEST_DIR/lib/iser.sh"

target_up() {
	_si_n=${TARGET_TARGETS:-1}
	_si_m=${TARGET_LUNS:-1}
	_si_mb=${TARGET_SIZE_MB:-256}
	_si_mode=ram
	[ "${TARGET_BENCH:-0}" = 1 ] && _si_mode=null
	module_exists smq_iser || { say "no smq_iser.ko in this guest"; return 77; }
	iser_mods_present rdma_rxe || return 77
	_si_before=$(list_disks)
	smq_core_up || return 1
	say "modprobe smq_iser ${TARGET_OPTS:-}"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	modprobe smq_iser ${TARGET_OPTS:-} || return 1
	[ -w "$SMQ_ISER_CTL/add_target" ] || { say "no $SMQ_ISER_CTL/add_target"; return 1; }
	iser_wire_up || return 1
	lio_iser_up "$_si_n" "$_si_m" "$_si_mode" "$_si_mb" "${TARGET_CMDSN:-128}" || return 1
	_si_k=0
	while [ "$_si_k" -lt "$_si_n" ]; do
		_si_s=$(smq_iser_add_string "$_si_k" "${TARGET_QUEUES:-1}" \
			"${TARGET_QD:-128}" "${TARGET_CMD_PER_LUN:-32}")
		say "add_target $_si_s"
		say "$_si_s" >"$SMQ_ISER_CTL/add_target" || { say "add_target refused"; return 1; }
		_si_k=$((_si_k + 1))
	done
	wait_for_new_disks "$_si_before" $((_si_n * _si_m)) 60 ||
		{ say "not all smq_iser disks appeared"; return 1; }
	# Target by target, LUN by LUN.
	iser_target_devs "$_si_n" smq_iser_target_disks ||
		{ say "no smq host or disk for some target"; return 1; }
	# shellcheck disable=SC2086 # the disk list
	smq_select_sched $DEVS || return 1
	say "smq_iser: hosts $(smq_iser_hosts | tr '\n' ' '), disks $DEVS"
	DEV_SIZE_BYTES=$((_si_mb * 1048576))
	DEV_LBS=512
	DEV_SCSI=1
	export DEV DEVS DEV_SIZE_BYTES DEV_LBS DEV_SCSI
}

target_down() {
	_si_rc=0
	if [ -d /sys/module/smq_iser ]; then
		smq_iser_remove_all || _si_rc=1
		unload_modules smq_iser || _si_rc=1
	fi
	smq_core_down || _si_rc=1
	lio_down || _si_rc=1
	return "$_si_rc"
}
