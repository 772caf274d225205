#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-fail
# timeout: 20
# Runner self-test (tools/vm/harness-check.sh): must be reported FAIL.
. "$SMQ_GUEST_DIR/lib/common.sh"
fail "failing on purpose"
