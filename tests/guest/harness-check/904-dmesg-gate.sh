#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-dmesg-gate
# timeout: 20
# Runner self-test (tools/vm/harness-check.sh): exits 0 but the kernel log gets a
# WARNING line meanwhile: the dmesg gate must report FAIL.
echo "WARNING: CPU: 0 PID: $$ at smq-harness-check (injected by 904-dmesg-gate)" >/dev/kmsg
exit 0
