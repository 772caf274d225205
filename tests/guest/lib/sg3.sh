# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# sg3_utils helpers shared by the guest tests of the emulated commands.

# sg_wce DEV: the WCE bit (0/1) of the caching mode page's current values,
# read with MODE SENSE(6), DBD, straight from the device (sg_raw). Asked
# twice at most: after a MODE SELECT scsi_debug reports a UNIT ATTENTION
# (MODE PARAMETERS CHANGED) first.
sg_wce() {
	for _sw_i in 1 2; do
		_sw_b=$(sg_raw -r 64 "$1" 1a 08 08 00 40 00 2>&1 |
			awk '$1 == "00" && NF > 8 { print $8; exit }')
		[ -n "$_sw_b" ] && break
	done
	[ -n "$_sw_b" ] || return 1
	say "$(((0x$_sw_b >> 2) & 1))"
}

# sg_vendor DEV: the INQUIRY vendor identification.
sg_vendor() {
	sg_inq "$1" 2>/dev/null |
		sed -n 's/^ *Vendor identification: *\([^ ]*\).*/\1/p'
}
