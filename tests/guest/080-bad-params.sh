#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: bad-params
# timeout: 120
#
# Invalid module parameters fail the load with EINVAL and a kernel message
# naming the parameter; nothing is left loaded half-way.  Needs no disk.

. "$SMQ_GUEST_DIR/lib/common.sh"

dir=/lib/modules/$(uname -r)/updates/smq
[ -e "$dir/drivers/sas/smq_sas.ko" ] || [ -n "$(find "$dir" -name smq_sas.ko 2>/dev/null)" ] ||
	skip "smq_sas not built for $(uname -r)"
unload_modules smq_sas
modprobe smq_scsi || fail "cannot load smq_scsi"

# expect_refused PARAM=VALUE...: loading smq_sas with these must fail and log PARAM.
expect_refused() {
	_param=${1%%=*}
	dmesg -c >/dev/null
	if modprobe smq_sas "$@" 2>"$SMQ_TEST_TMP/err"; then
		unload_modules smq_sas
		fail "smq_sas loaded with $*"
	fi
	grep -q "$_param" "$SMQ_TEST_TMP/err" /dev/null && return 0
	dmesg | grep -q "$_param" || fail "no message names '$_param' for $*"
	[ ! -d /sys/module/smq_sas ] || fail "smq_sas left loaded after $*"
	say "refused: $*"
}

expect_refused submit_queues=0
expect_refused can_queue=0
expect_refused backing=floppy
expect_refused dev_size_mb=99999999
expect_refused sector_size=1000
expect_refused irqmode=7
expect_refused irqmode=4
expect_refused poll_weight=0
expect_refused poll_weight=257 irqmode=3
expect_refused num_tgts=0

unload_modules smq_scsi
if modprobe smq_scsi disk_prefix=SD9 2>/dev/null; then
	unload_modules smq_scsi
	fail "smq_scsi loaded with disk_prefix=SD9"
fi
say "refused: smq_scsi disk_prefix=SD9"
exit 0
