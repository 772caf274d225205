# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Target none: no disk, for tests that bring their own (e.g. module load tests).

target_up() { :; }
target_down() { :; }
