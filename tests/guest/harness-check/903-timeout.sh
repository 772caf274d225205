#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: harness-timeout
# timeout: 3
# Runner self-test (tools/vm/harness-check.sh): hangs (with a child), must be
# killed after 3 s and reported FAIL.
sleep 600 &
sleep 600
