#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-kasan
# timeout: 30
# Debug-lane self-test (tools/vm/harness-check.sh --debug): a use after free by
# the kernel's LKDTM; passes itself, so KASAN's report must make the dmesg
# gate fail it.
. "$SMQ_GUEST_DIR/lib/common.sh"
modprobe lkdtm || fail "cannot load lkdtm"
echo READ_AFTER_FREE >/sys/kernel/debug/provoke-crash/DIRECT
exit 0
