# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# LUNs and hosts by their sysfs files, the same on smq and on the kernel's
# SCSI stack (scsi_debug): a LUN is H:C:T:L, its directory the disk's
# device/ (smq: .../targetH:C:T/H:C:T:L, Linux: the same and
# /sys/class/scsi_device/H:C:T:L/device), its host's scan file
# /sys/class/smq_host/hostH/scan (smq) or /sys/class/scsi_host/hostH/scan.

# lun_of DISK: the H:C:T:L of DISK (sda or /dev/sda).
lun_of() {
	_lo=$(readlink -f "/sys/block/${1##*/}/device") || return 1
	say "${_lo##*/}"
}

# disk_of_lun H:C:T:L: the name of that LUN's disk; false if it has none.
disk_of_lun() {
	for _dl in /sys/block/*; do
		[ -e "$_dl/device" ] || continue
		[ "$(lun_of "${_dl##*/}")" = "$1" ] || continue
		say "${_dl##*/}"
		return 0
	done
	return 1
}

# target_luns H:C:T: the LUN numbers of the target's disks, ascending.
target_luns() {
	for _tl in /sys/block/*; do
		[ -e "$_tl/device" ] || continue
		_tl=$(lun_of "${_tl##*/}")
		case "$_tl" in "$1":*) say "${_tl##*:}" ;; esac
	done | sort -n
}

# host_dir H: the host's class directory (smq_host or scsi_host).
host_dir() {
	for _hd in /sys/class/smq_host/host$1 /sys/class/scsi_host/host$1; do
		[ -d "$_hd" ] && { say "$_hd"; return 0; }
	done
	return 1
}

# host_knob DEV: the file that adds (1) and removes (-1) hosts of DEV's
# driver: smq_sas's add_host parameter or scsi_debug's add_host; false if
# there is none.
host_knob() {
	for _hk in /sys/module/smq_sas/parameters/add_host \
		/sys/bus/pseudo/drivers/scsi_debug/add_host; do
		[ -w "$_hk" ] && { say "$_hk"; return 0; }
	done
	return 1
}
