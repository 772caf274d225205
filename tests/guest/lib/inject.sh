# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Fault injection shared by the error-handling tests (120-124), for both
# stacks: smq_sas and the kernel's scsi_debug take the same per-LUN rules
# (debugfs <driver>/<h:c:t:l>/error, scsi_debug 6.12's format) and the same
# every_nth / opts / medium_error_* module parameters.

# inject_drv: the driver under test (smq_sas or scsi_debug), else fails.
inject_drv() {
	for _ij_m in smq_sas scsi_debug; do
		[ -d "/sys/module/$_ij_m/parameters" ] && { say "$_ij_m"; return 0; }
	done
	return 1
}

# inject_hctl DEV: the H:C:T:L of a disk.
inject_hctl() {
	_ij_l=$(readlink -f "/sys/block/${1##*/}/device")
	say "${_ij_l##*/}"
}

# inject DEV RULE...: add a rule for DEV's LUN.
inject() {
	_ij_dev=$1
	shift
	_ij_f=/sys/kernel/debug/$(inject_drv)/$(inject_hctl "$_ij_dev")/error
	[ -w "$_ij_f" ] || { say "no rule file $_ij_f"; return 1; }
	say "inject: $* > $_ij_f"
	say "$*" >"$_ij_f"
}

# inject_clear DEV TYPE OPCODE: remove a rule.
inject_clear() {
	inject "$1" "- $2 $3"
}

# inject_param NAME VALUE: set a module parameter of the driver.
inject_param() {
	_ij_p=/sys/module/$(inject_drv)/parameters/$1
	[ -w "$_ij_p" ] || { say "no writable parameter $_ij_p"; return 1; }
	say "inject: $1=$2"
	say "$2" >"$_ij_p"
}

# inject_ready: skip the test unless the driver has rule files.
inject_ready() {
	inject_drv >/dev/null || skip "neither smq_sas nor scsi_debug is loaded"
	[ -d "/sys/kernel/debug/$(inject_drv)/$(inject_hctl "$DEV")" ] ||
		skip "$(inject_drv) has no error rules (debugfs) on this kernel"
}

# sdev_attr DEV NAME: path of a LUN attribute.
sdev_attr() {
	say "/sys/block/${1##*/}/device/$2"
}

# reads_done DEV: reads completed (first field of /sys/block/X/stat).
reads_done() {
	read -r _ij_r _ij_rest <"/sys/block/${1##*/}/stat"
	say "$_ij_r"
}
