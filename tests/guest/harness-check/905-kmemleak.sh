#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-kmemleak
# timeout: 30
# Debug-lane self-test (tools/vm/harness-check.sh --debug): loads the kernel's
# kmemleak sample module, which leaks on purpose, and passes (the module
# stays loaded, so the backtraces name it); the runner's
# scan after the last test must then report "FAIL kmemleak".
. "$SMQ_GUEST_DIR/lib/common.sh"
[ -w /sys/kernel/debug/kmemleak ] || fail "no kmemleak in this kernel"
modprobe kmemleak_test || fail "cannot load kmemleak_test"
exit 0
