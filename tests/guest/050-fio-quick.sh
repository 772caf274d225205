#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: fio-quick
# timeout: 90
#
# Smoke: a few seconds of mixed random I/O with inline crc32c verify.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd fio
need_dev

fio --name=smq-quick --filename="$DEV" --ioengine=libaio --direct=1 \
	--iodepth=32 --numjobs=2 --rw=randwrite --bs=4k --size=8m \
	--offset_increment=8m --verify=crc32c --group_reporting ||
	fail "fio write/verify failed"
fio --name=smq-quick-read --filename="$DEV" --ioengine=libaio --direct=1 \
	--iodepth=32 --numjobs=2 --rw=randread --bs=4k --size=16m \
	--time_based --runtime=3 --group_reporting ||
	fail "fio randread failed"
