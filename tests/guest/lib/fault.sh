# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Fault injection recipes shared by smq_sas and the kernel's scsi_debug: the
# same every_nth / opts / medium_error_* parameters and the same per-LUN
# debugfs "error" rules (scsi_debug 6.12's format). Source after common.sh
# and knobs.sh.
#   fault_setup        find the driver of DEV; sets FAULT_DRV (smq_sas or
#                      scsi_debug), FAULT_ERR (the LUN's debugfs error file,
#                      empty if the kernel has none), FAULT_NTH, FAULT_OPTS,
#                      FAULT_MES, FAULT_MEC (parameter files); skips other disks
#   fault_rule LINE    write LINE to the LUN's error file
#   fault_rules_clear  remove every rule of the LUN
#   fault_opts NTH OPTS  set every_nth and opts (scsi_debug: through its
#                      driver attributes, which turn statistics on and round
#                      the command count as smq_sas does)
#   fault_eh KEY       smq_sas: a counter of debugfs smq_sas/adapterN/eh
#                      (summed over hosts); scsi_debug: 0

fault_setup() {
	_fs_d=${DEV##*/}
	FAULT_HCTL=$(basename "$(readlink "/sys/block/$_fs_d/device")")
	if [ -d /sys/module/smq_sas ] && [ -d "/sys/block/$_fs_d/smq" ]; then
		FAULT_DRV=smq_sas
		_fs_p=/sys/module/smq_sas/parameters
		FAULT_NTH=$_fs_p/every_nth
		FAULT_OPTS=$_fs_p/opts
	elif [ -d /sys/module/scsi_debug ]; then
		FAULT_DRV=scsi_debug
		_fs_p=/sys/module/scsi_debug/parameters
		FAULT_NTH=/sys/bus/pseudo/drivers/scsi_debug/every_nth
		FAULT_OPTS=/sys/bus/pseudo/drivers/scsi_debug/opts
	else
		skip "$DEV is neither an smq_sas nor a scsi_debug disk"
	fi
	FAULT_MES=$_fs_p/medium_error_start
	FAULT_MEC=$_fs_p/medium_error_count
	FAULT_ERR=/sys/kernel/debug/$FAULT_DRV/$FAULT_HCTL/error
	[ -e "$FAULT_ERR" ] || FAULT_ERR=
	if [ ! -w "$FAULT_NTH" ] || [ ! -w "$FAULT_OPTS" ]; then
		skip "$FAULT_DRV has no writable every_nth / opts"
	fi
	say "driver $FAULT_DRV, LUN $FAULT_HCTL, rules: ${FAULT_ERR:-none}"
	export FAULT_DRV FAULT_HCTL FAULT_ERR FAULT_NTH FAULT_OPTS FAULT_MES FAULT_MEC
}

fault_rule() {
	[ -n "$FAULT_ERR" ] || fail "no debugfs error file"
	say "rule: $1"
	say "$1" >"$FAULT_ERR" || fail "$FAULT_ERR refused '$1'"
}

fault_rules_clear() {
	[ -n "$FAULT_ERR" ] || return 0
	tail -n +2 "$FAULT_ERR" | while read -r _fr_t _fr_c _fr_o _fr_rest; do
		say "- $_fr_t $_fr_o" >"$FAULT_ERR"
	done
}

fault_opts() {
	say "every_nth=$1 opts=$2"
	say "$1" >"$FAULT_NTH" || fail "cannot set every_nth $1"
	say "$2" >"$FAULT_OPTS" || fail "cannot set opts $2"
}

fault_eh() {
	if [ "$FAULT_DRV" != smq_sas ]; then
		say 0
		return
	fi
	cat /sys/kernel/debug/smq_sas/adapter*/eh 2>/dev/null |
		awk -v k="$1" '$1 == k { n += $2 } END { print n + 0 }'
}
