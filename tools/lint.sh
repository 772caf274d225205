#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh: shellcheck every script of the tree: host-side bash scripts, and
# the busybox-sh guest scripts (checked as dash, the closest dialect).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v shellcheck >/dev/null || {
	echo "lint.sh: shellcheck missing (apt-get install shellcheck)" >&2
	exit 1
}
mapfile -t host < <(git ls-files -co --exclude-standard -- tools .ci |
	xargs grep -lE '^#!/usr/bin/env bash|^# shellcheck shell=bash' | grep -v '^tools/vm/guest/')
mapfile -t guest < <(git ls-files -co --exclude-standard -- tests/guest tools/vm/guest tools/bench |
	xargs grep -lE '^# shellcheck shell=dash')
rc=0
shellcheck -x "${host[@]}" || rc=1
shellcheck -x -s dash -P tests/guest "${guest[@]}" || rc=1
echo "lint: ${#host[@]} host scripts, ${#guest[@]} guest scripts: $( ((rc)) && echo FAIL || echo ok)"
exit "$rc"
