# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# virtio-scsi in the guest (tools/vm/vscsi.py's controllers): controller vsC
# sits at PCI slot 0x10 + C, its disks have serial vsC-lL; the host carries
# out "SMQ-HOST ..." requests on the control channel (QMP, nbdkit faults).

# vs_virtio_of C: the virtio device (virtioN) of controller vsC.
vs_virtio_of() {
	_vv_slot=$(printf '%02x' $((0x10 + $1)))
	for _vv in /sys/bus/virtio/devices/virtio*; do
		[ -e "$_vv" ] || continue
		case "$(readlink -f "$_vv")" in
		*/0000:00:$_vv_slot.0/virtio*) say "${_vv##*/}"; return 0 ;;
		esac
	done
	return 1
}

# vs_driver_of VIRTIO: the driver VIRTIO is bound to (empty: none).
vs_driver_of() {
	[ -e "/sys/bus/virtio/devices/$1/driver" ] || return 0
	_vd=$(readlink -f "/sys/bus/virtio/devices/$1/driver")
	say "${_vd##*/}"
}

# vs_bind VIRTIO DRIVER / vs_unbind VIRTIO: move a controller between drivers.
vs_unbind() {
	_vu=$(vs_driver_of "$1")
	[ -z "$_vu" ] || say "$1" >"/sys/bus/virtio/drivers/$_vu/unbind"
}
vs_bind() {
	say "$1" >"/sys/bus/virtio/drivers/$2/bind"
}

# vs_serial DISK: the serial (VPD page 0x80) of /sys/block/DISK, or nothing.
vs_serial() {
	[ -r "/sys/block/$1/device/vpd_pg80" ] || return 0
	tail -c +5 "/sys/block/$1/device/vpd_pg80" 2>/dev/null | tr -d '\000 '
}

# vs_find_disk C L: print /dev/sdX of LUN L of controller vsC, if present.
vs_find_disk() {
	for _vf in /sys/block/*; do
		_vf=${_vf##*/}
		[ "$(vs_serial "$_vf")" = "vs$1-l$2" ] || continue
		[ -b "/dev/$_vf" ] || continue
		say "/dev/$_vf"
		return 0
	done
	return 1
}

# vs_wait_disk C L [SECS]: wait (30 s) for that disk; prints it.
vs_wait_disk() {
	_vw_n=$((${3:-30} * 10))
	while ! vs_find_disk "$1" "$2"; do
		_vw_n=$((_vw_n - 1))
		[ "$_vw_n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# vs_wait_gone C L [SECS]: wait (30 s) until that disk is gone.
vs_wait_gone() {
	_vg_n=$((${3:-30} * 10))
	while vs_find_disk "$1" "$2" >/dev/null; do
		_vg_n=$((_vg_n - 1))
		[ "$_vg_n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# vs_linux_up [POLL-QUEUES]: load the transport and Linux's virtio_scsi + sd
# (virtscsi_poll_queues=POLL-QUEUES if given), which bind every controller;
# 77 without virtio_scsi or without controller vs0 (the test is skipped).
vs_linux_up() {
	modprobe virtio_pci 2>/dev/null
	modprobe sd_mod || return 1
	if [ -n "${1:-}" ]; then
		modprobe virtio_scsi "virtscsi_poll_queues=$1" || return 77
	else
		modprobe virtio_scsi || return 77
	fi
	vs_virtio_of 0 >/dev/null || { say "no virtio-scsi controller vs0"; return 77; }
}

# vs_wait_luns C N: wait for LUNs 0..N-1 of controller vsC; sets DEVS (all)
# and DEV (LUN 0).
vs_wait_luns() {
	DEVS=
	_vl=0
	while [ "$_vl" -lt "$2" ]; do
		_vd=$(vs_wait_disk "$1" "$_vl") || { say "no disk for vs$1 LUN $_vl"; return 1; }
		DEVS="$DEVS $_vd"
		_vl=$((_vl + 1))
	done
	DEV=${DEVS# }
	DEV=${DEV%% *}
}

# io_flowing DEV SECS: wait (SECS) until DEV has completed 64 more reads and
# writes than when called: the load really runs on the disk (fio's jobs
# take a while to start under TCG); false if it does not.
io_flowing() {
	_if_s=/sys/block/${1##*/}/stat
	_if_0=$(awk '{ print $1 + $5 }' "$_if_s" 2>/dev/null) || return 1
	_if_n=$(($2 * 10))
	while [ "$(awk '{ print $1 + $5 }' "$_if_s" 2>/dev/null || echo 0)" -lt $((_if_0 + 64)) ]; do
		_if_n=$((_if_n - 1))
		[ "$_if_n" -gt 0 ] || return 1
		sleep 0.1
	done
}

# fio_must_end PID SECS WHAT: wait SECS for fio PID to end (its disk went
# away: it must fail, not hang); fail the test otherwise.  Prints how.
fio_must_end() {
	_fe_n=$(($2 * 10))
	while kill -0 "$1" 2>/dev/null; do
		_fe_n=$((_fe_n - 1))
		[ "$_fe_n" -gt 0 ] || { kill -9 "$1"; fail "fio hung after $3"; }
		sleep 0.1
	done
	if wait "$1"; then
		say "fio ended without an error after $3"
	else
		say "fio ended with an error after $3, as expected"
	fi
}

# host_req WORDS...: ask the host (tools/vm/vscsi.py host); it is carried
# out within about a second, asynchronously: wait for its effect.
host_req() {
	[ -n "${SMQ_CTL:-}" ] || { say "no control channel for host requests" >&2; return 1; }
	say "host request: $*"
	printf 'SMQ-HOST %s\n' "$*" >"$SMQ_CTL"
}

# vs_smq_host DEV: the smq host number (N of hostN) of smq disk DEV.
vs_smq_host() {
	_vh=$(readlink -f "/sys/block/${1##*/}/device")
	_vh=${_vh##*/}
	say "${_vh%%:*}"
}
