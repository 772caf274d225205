#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: selftest-skip
# timeout: 20
# Runner self-test (tools/vm/selftest.sh): must be reported SKIP.
. "$SMQ_GUEST_DIR/lib/common.sh"
skip "skipping on purpose"
