#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: bad-sysfs
# timeout: 60
#
# Out-of-range and unknown values written to smq's sysfs files are refused
# with EINVAL and leave the old value; valid ones take effect.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_dev

q=/sys/block/${DEV##*/}
[ -d "$q/smq" ] || skip "$DEV is not an smq disk"

# accept FILE VALUE EXPECTED-READBACK
accept() {
	say "$2" >"$1" || fail "$1 refused '$2'"
	grep -q -- "$3" "$1" || fail "$1 reads '$(cat "$1")' after '$2'"
}

refuse "$q/smq/scheduler" bogus-sched
refuse "$q/smq/rq_affinity" 3
refuse "$q/smq/rq_affinity" -1
refuse "$q/smq/nomerges" 9
refuse "$q/device/queue_depth" 0
refuse "$q/device/queue_depth" 100000
refuse "$q/device/timeout" 0
accept "$q/smq/rq_affinity" 2 2
accept "$q/smq/rq_affinity" 1 1
accept "$q/device/queue_depth" 4 4
# The scheduler file lists only loaded schedulers: selecting mq-deadline
# loads smq-mq-deadline.ko (multiqueue queues only).
if [ "$(cat "$q/smq/queue_mode")" = mq ]; then
	accept "$q/smq/scheduler" mq-deadline '\[mq-deadline\]'
	refuse "$q/smq/iosched/fifo_batch" -5
	refuse "$q/smq/iosched/read_expire" notanumber
	accept "$q/smq/iosched/fifo_batch" 8 8
	accept "$q/smq/scheduler" none '\[none\]'
	[ ! -e "$q/smq/iosched" ] || fail "iosched/ left behind after switching to none"
fi
exit 0
