#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: poll-bad-params
# timeout: 180
#
# smq_sas poll_queues: bad values fail the load with EINVAL and a message
# naming poll_queues (negative, not below submit_queues, any poll queue on
# the legacy path), nothing left loaded.  Then a good host (submit_queues=2
# poll_queues=1): hostN/nr_poll_queues says 1, queue_map shows both queues,
# and the hardware queues of a host with poll queues cannot change
# (nr_hw_queues and queue_map writes refused, the queues as they were).
# Needs no disk of the target.

. "$SMQ_GUEST_DIR/lib/common.sh"

[ -n "$(find "/lib/modules/$(uname -r)" -name smq_sas.ko 2>/dev/null)" ] ||
	skip "smq_sas not built for $(uname -r)"
unload_modules smq_sas smq_scsi

# expect_einval PARAM...: loading smq_sas must fail with EINVAL and a
# kernel message naming poll_queues.
expect_einval() {
	dmesg -c >/dev/null
	if modprobe smq_sas "$@" 2>"$SMQ_TEST_TMP/err"; then
		unload_modules smq_sas
		fail "smq_sas loaded with $*"
	fi
	cat "$SMQ_TEST_TMP/err"
	grep -q "Invalid argument" "$SMQ_TEST_TMP/err" ||
		fail "loading with $* did not fail with EINVAL"
	dmesg | grep "poll_queues" || fail "no message names poll_queues for $*"
	[ ! -d /sys/module/smq_sas ] || fail "smq_sas left loaded after $*"
	say "refused: $*"
}

modprobe smq_scsi || fail "cannot load smq_scsi"
expect_einval submit_queues=2 poll_queues=-1
expect_einval submit_queues=2 poll_queues=2
expect_einval submit_queues=1 poll_queues=1
expect_einval submit_queues=2 poll_queues=5
unload_modules smq_scsi
modprobe smq_scsi use_blk_mq=N || fail "cannot load smq_scsi use_blk_mq=N"
expect_einval submit_queues=2 poll_queues=1
unload_modules smq_scsi

# A good host: its queues are fixed.
modprobe smq_scsi || fail "cannot load smq_scsi"
modprobe smq_sas submit_queues=2 poll_queues=1 dev_size_mb=16 ||
	fail "smq_sas did not load with submit_queues=2 poll_queues=1"
h=
for h in /sys/class/smq_host/host*; do
	break
done
[ -d "$h" ] || fail "no smq host"
[ "$(cat "$h/nr_poll_queues")" = 1 ] || fail "$h/nr_poll_queues: $(cat "$h/nr_poll_queues")"
[ "$(cat "$h/nr_hw_queues")" = 2 ] || fail "$h/nr_hw_queues: $(cat "$h/nr_hw_queues")"
say "$h/queue_map:"
cat "$h/queue_map"
[ "$(grep -c '^[01]: [0-9]' "$h/queue_map")" = 2 ] ||
	fail "queue_map does not map CPUs to both queues"
map=$(cat "$h/queue_map")
dmesg -c >/dev/null
refuse "$h/nr_hw_queues" 1
dmesg | grep -q "poll queue" || fail "no message says why nr_hw_queues was refused"
refuse "$h/queue_map" "0: 0-$(($(nproc) - 1))"
[ "$(cat "$h/queue_map")" = "$map" ] || fail "queue_map changed"
unload_modules smq_sas smq_scsi
exit 0
