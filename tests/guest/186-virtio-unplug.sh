#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-unplug
# timeout: 240
#
# The whole controller goes away under fio: QMP device_del of vs0 (PCI hot
# unplug through the guest's ACPI) while fio runs on smq's disk.  The
# driver's remove runs with the device still answering: commands in flight
# complete, fio ends (with errors) instead of hanging, the disk and host go,
# smq_virtio unloads.  Run with slub_debug poisoning (SLUB=FZPU).  Last in
# its line: the controller does not come back.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio
need_dev
if [ -z "${VS_SMQ:-}" ] || [ -z "${SMQ_CTL:-}" ]; then
	skip "needs target smq_virtio (QMP through the host)"
fi
h=$(vs_smq_host "$DEV")
fio --filename="$DEV" --ioengine=libaio --direct=1 --iodepth=32 --rw=randrw --bs=4k \
	--time_based --runtime=60 --name=load >"$SMQ_TEST_TMP/load.out" 2>&1 &
fpid=$!
io_flowing "$DEV" 30 || { cat "$SMQ_TEST_TMP/load.out"; fail "no I/O on $DEV 30 s after fio started"; }
sleep 2
kill -0 "$fpid" 2>/dev/null || { cat "$SMQ_TEST_TMP/load.out"; fail "fio ended early"; }
host_req qmp '{"execute":"device_del","arguments":{"id":"vs0"}}'
wait_until 60 sh -c "[ ! -e /sys/bus/virtio/devices/$VS_SMQ ]" ||
	skip "vs0 was not unplugged within 60 s (no PCI hot unplug in this guest)"
say "$VS_SMQ unplugged"
fio_must_end "$fpid" 60 "the controller's unplug"
tail -n 3 "$SMQ_TEST_TMP/load.out"
vs_wait_gone 0 0 || fail "the disk of the unplugged controller is still there"
[ ! -e "/sys/class/smq_host/host$h" ] || fail "host$h is still there"
unload_modules smq_virtio || fail "smq_virtio does not unload after the unplug"
modprobe smq_virtio || fail "smq_virtio does not load again"
exit 0
