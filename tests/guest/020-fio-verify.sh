#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: fio-verify
# timeout: 240
#
# fio writes with crc32c headers (4 jobs on separate ranges, 512 B..1 MiB
# blocks), then a separate pass reads everything back and verifies it.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

fio_write_verify "$DEV"
case $? in
0) exit 0 ;;
1) fail "fio verify found corrupted data on $DEV" ;;
*) fail "fio failed on $DEV" ;;
esac
