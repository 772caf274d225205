#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: virtio-side
# timeout: 300
#
# smq_virtio on controller vs0 beside Linux's virtio_scsi on vs1, same
# QEMU device model and geometry, in one boot.  The two disks must agree on
# what comes from the device: capacity, write cache, hardware queues (one
# per request virtqueue), each queue's CPUs (the vectors' managed
# affinity: Linux's mq/<n>/cpu_list), queue_depth (the config's
# cmd_per_lun) and max_hw_sectors_kb (max_sectors).  Then fio write+verify
# runs on both at once, one job pinned to each CPU: no error, no corrupt
# block, and on the mq path every request virtqueue of smq's controller
# raised interrupts (/proc/interrupts virtioN-request.Q).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
. "$SMQ_GUEST_DIR/lib/virtio.sh"
need_cmd fio taskset
need_dev
if [ -z "${PEER_DEV:-}" ] || [ -z "${VS_SMQ:-}" ]; then
	skip "needs target smq_virtio with two controllers"
fi
s=${DEV##*/}
p=${PEER_DEV##*/}

same() { # WHAT SMQ-VALUE LINUX-VALUE
	say "$1: smq $2, Linux $3"
	[ "$2" = "$3" ] || fail "$1 differs: smq '$2', Linux '$3'"
}
# both FILE: the value of /sys/block/<disk>/FILE for smq's and Linux's disk.
both() {
	same "$1" "$(cat "/sys/block/$s/$1")" "$(cat "/sys/block/$p/$1")"
}
both size
both queue/write_cache
both device/queue_depth
both queue/max_hw_sectors_kb
h=$(vs_smq_host "$DEV")
mq=$(cat "/sys/class/smq_host/host$h/use_blk_mq")
nq=$(cat "/sys/class/smq_host/host$h/nr_hw_queues")
lq=0
for d in "/sys/block/$p"/mq/*; do
	lq=$((lq + 1))
done
if [ "$mq" = 1 ]; then
	same "hardware queues" "$nq" "$lq"
	for d in "/sys/block/$p"/mq/*; do
		q=${d##*/}
		same "queue $q CPUs" "$(cat "/sys/block/$s/mq/$q/cpu_list")" "$(cat "$d/cpu_list")"
	done
else
	same "hardware queues (legacy: one)" "$nq" 1
fi

# irqs VIRTIO Q: interrupts of request virtqueue Q of VIRTIO, all CPUs.
irqs() {
	awk -v n="$1-request.$2" '$NF == n { s = 0; for (i = 2; i < NF; i++)
		if ($i ~ /^[0-9]+$/) s += $i; print s; f = 1 } END { if (!f) print 0 }' /proc/interrupts
}
# The interrupt counts before fio, one word per request queue.
before=
q=0
while [ "$q" -lt "$lq" ]; do
	before="$before $(irqs "$VS_SMQ" "$q")"
	q=$((q + 1))
done

ncpu=$(nproc)
for d in "$s" "$p"; do
	mkdir -p "$SMQ_TEST_TMP/$d"
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		(
			FIO_VERIFY_JOBS=1 FIO_VERIFY_OFFSET=$((c * 33554432)) \
				SMQ_TEST_TMP=$SMQ_TEST_TMP/$d taskset -c "$c" \
				sh -c ". $SMQ_GUEST_DIR/lib/common.sh; . $SMQ_GUEST_DIR/lib/fio-verify.sh;
					mkdir -p \$SMQ_TEST_TMP/c$c; SMQ_TEST_TMP=\$SMQ_TEST_TMP/c$c fio_write_verify /dev/$d" \
				>"$SMQ_TEST_TMP/$d/log$c" 2>&1
			say "$?" >"$SMQ_TEST_TMP/$d/rc$c"
		) &
		c=$((c + 1))
	done
done
wait
for d in "$s" "$p"; do
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		cap_lines 40 <"$SMQ_TEST_TMP/$d/log$c"
		case $(cat "$SMQ_TEST_TMP/$d/rc$c") in
		0) say "$d CPU $c: data verified" ;;
		1) fail "$d CPU $c: fio verify found corrupted data" ;;
		*) fail "$d CPU $c: fio failed" ;;
		esac
		c=$((c + 1))
	done
done

if [ "$mq" = 1 ]; then
	q=0
	for b in $before; do
		a=$(irqs "$VS_SMQ" "$q")
		say "$VS_SMQ request queue $q: $((a - b)) interrupts during fio"
		[ "$a" -gt "$b" ] || fail "request queue $q of $VS_SMQ raised no interrupt"
		q=$((q + 1))
	done
fi
exit 0
