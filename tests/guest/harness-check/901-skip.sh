#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-skip
# timeout: 20
# Runner self-test (tools/vm/harness-check.sh): must be reported SKIP.
. "$SMQ_GUEST_DIR/lib/common.sh"
skip "skipping on purpose"
