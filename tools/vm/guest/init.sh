#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the smq guest (busybox sh). run.sh puts it, with /smq/cmd (the
# command to run), /smq/env, the tests and smq's modules, into the per-boot
# archive appended to the base image.
#
# Protocol with run.sh on the second serial port (/dev/ttyS1, never used by
# the kernel; $SMQ_CTL for guest programs):
#   SMQ-BOOTED <release>
#   SMQ-OUT <line>          any number, from guest programs (run.sh saves them
#                           in output.txt as they come, e.g. test verdicts)
#   SMQ-STATUS <status of /smq/cmd>   as soon as it ended
#   SMQ-RESULTS-BEGIN / base64 of a tar.gz of /results / SMQ-RESULTS-END
#   SMQ-EXIT <status>
# The console (ttyS0) only carries human-readable output.

# /smq/bin: smq-helper (tests/guest/helpers/), compiled by run.sh.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/smq/bin HOME=/root
mount -t devtmpfs devtmpfs /dev 2>/dev/null
[ -c /dev/console ] && exec </dev/console >/dev/console 2>&1

ctl() { printf '%s\n' "$*" >/dev/ttyS1; }

setup() {
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t debugfs debugfs /sys/kernel/debug
	mount -t tmpfs tmpfs /tmp
	mount -t tmpfs tmpfs /run
	mkdir -p /dev/pts /dev/shm /results
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	ln -sf /proc/self/fd /dev/fd 2>/dev/null

	# The kernel's request_module() runs this; busybox modprobe reads the
	# modules.dep the image carries.
	ln -sf /bin/busybox /sbin/modprobe
	echo /sbin/modprobe >/proc/sys/kernel/modprobe
	# smq's modules arrive in updates/ with this boot's archive.
	[ -d "/lib/modules/$(uname -r)/updates" ] && depmod -a
	modprobe configfs 2>/dev/null && mount -t configfs configfs /sys/kernel/config

	hostname smq-guest
	# Report hung tasks well inside the tests' timeouts.
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	# No udev in the guest: dmsetup must not wait for it.
	export DM_DISABLE_UDEV=1
	export SMQ_CTL=/dev/ttyS1
	[ -f /smq/env ] && . /smq/env
}

ship_results() {
	[ -n "$(ls -A /results 2>/dev/null)" ] || return 0
	{
		echo SMQ-RESULTS-BEGIN
		tar -C /results -cf - . | gzip -c | base64
		echo SMQ-RESULTS-END
	} >/dev/ttyS1
}

setup
ctl "SMQ-BOOTED $(uname -r)"
echo "smq guest: $(uname -r), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MiB"
rc=127
cd /smq && { sh /smq/cmd; rc=$?; }
ctl "SMQ-STATUS $rc"
ship_results
ctl "SMQ-EXIT $rc"
sync
# Closing the last console descriptors waits for the serial port to drain.
exec </dev/null >/dev/null 2>&1
poweroff -f
reboot -f
