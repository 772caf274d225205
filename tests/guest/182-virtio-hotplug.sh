#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-hotplug
# timeout: 360
#
# LUNs come and go while the guest runs, through QEMU's monitor (QMP, from
# the host): a scsi-hd is hot-added as LUN 5 of vs0 (smq_virtio) and of vs1
# (Linux's virtio_scsi), and each driver must find it from the event queue
# (transport reset, reason rescan) without a manual scan; fio write+verify
# runs on smq's new disk; the image is grown with block_resize and both
# disks must show the new size (parameter change event, capacity data has
# changed); then the LUN is hot-removed under fio, which must end, not
# hang, and both disks go.  The original LUN 0 keeps verifying throughout.
# Run it with DISK_PREFIX=smq: Linux's sd names a new disk by the lowest
# index it has free, not looking at other drivers' disks, so a LUN it
# finds after smq took a freed sdX name would clash with it (its probe
# fails with EEXIST).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio
need_dev
if [ -z "${VS_SMQ:-}" ] || [ -z "${SMQ_CTL:-}" ]; then
	skip "needs target smq_virtio (QMP through the host)"
fi
ctrls=0
[ -n "${PEER_DEV:-}" ] && ctrls="0 1"
case ${DEV##*/} in sd*) [ "$ctrls" = 0 ] || skip "smq's disks must not be named sdX here (DISK_PREFIX=smq)" ;; esac

# LUN 0 of smq's controller verifies in the background all along.
mkdir -p "$SMQ_TEST_TMP/l0"
(SMQ_TEST_TMP=$SMQ_TEST_TMP/l0 FIO_VERIFY_JOBS=2 fio_write_verify "$DEV" >"$SMQ_TEST_TMP/l0/log" 2>&1
 say "$?" >"$SMQ_TEST_TMP/l0/rc") &
bg=$!

for c in $ctrls; do
	host_req qmp '{"execute":"blockdev-add","arguments":{"driver":"raw","node-name":"vs'"$c"'-spare","file":{"driver":"file","filename":"@WORK@/vs'"$c"'-spare.raw"}}}'
	sleep 1
	host_req qmp '{"execute":"device_add","arguments":{"driver":"scsi-hd","id":"vs'"$c"'-l5","bus":"vs'"$c"'.0","channel":0,"scsi-id":0,"lun":5,"drive":"vs'"$c"'-spare","serial":"vs'"$c"'-l5"}}'
done
for c in $ctrls; do
	d=$(vs_wait_disk "$c" 5 30) || fail "hot-added LUN 5 of vs$c did not appear"
	say "vs$c LUN 5: $d"
done
new=$(vs_find_disk 0 5)
FIO_VERIFY_JOBS=2 fio_write_verify "$new" || fail "fio write+verify failed on hot-added $new"

# size_is DISK SECTORS: DISK's size is SECTORS now.
# shellcheck disable=SC2317 # called through wait_until
size_is() {
	[ "$(cat "/sys/block/${1##*/}/size")" = "$2" ]
}
size=$(cat "/sys/block/${new##*/}/size")
for c in $ctrls; do
	host_req qmp '{"execute":"block_resize","arguments":{"node-name":"vs'"$c"'-spare","size":'$((DEV_SIZE_BYTES * 2))'}}'
done
for c in $ctrls; do
	d=$(vs_find_disk "$c" 5)
	wait_until 30 size_is "$d" $((size * 2)) ||
		fail "vs$c LUN 5 ($d): size $(cat "/sys/block/${d##*/}/size") after block_resize, want $((size * 2))"
	say "vs$c LUN 5 ($d): grew to $((size * 2)) sectors"
done

fio --filename="$new" --ioengine=libaio --direct=1 --iodepth=16 --rw=randrw --bs=4k \
	--time_based --runtime=60 --name=load >"$SMQ_TEST_TMP/load.out" 2>&1 &
fpid=$!
io_flowing "$new" 30 || { cat "$SMQ_TEST_TMP/load.out"; fail "no I/O on $new 30 s after fio started"; }
sleep 2
for c in $ctrls; do
	host_req qmp '{"execute":"device_del","arguments":{"id":"vs'"$c"'-l5"}}'
done
for c in $ctrls; do
	vs_wait_gone "$c" 5 30 || fail "hot-removed LUN 5 of vs$c is still there"
	say "vs$c LUN 5: gone"
done
fio_must_end "$fpid" 30 "the hot remove"
tail -n 3 "$SMQ_TEST_TMP/load.out"

wait "$bg"
cap_lines 60 <"$SMQ_TEST_TMP/l0/log"
[ "$(cat "$SMQ_TEST_TMP/l0/rc")" = 0 ] || fail "LUN 0 ($DEV) did not verify during the hot plug"
exit 0
