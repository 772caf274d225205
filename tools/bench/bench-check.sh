#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-check.sh RELEASE [MODULES-DIR|none] [OUT]: the bench's quick test (part
# of `make check`, ~1 min): runs the two-point `selftest` experiment (smq mq
# and scsi_debug, one LUN, 2 interleaved rounds of one 1 s run) in one guest,
# profiled (--profile), then `bench validate`: the JSON has the configuration
# and every figure of every run of both rounds, every setup and point
# finished, each point's samples resolve to the kernel (and smq's points to
# smq's modules), table.txt renders without holes,
# plot.png exists (when gnuplot is installed) and `bench compare` of the run
# with itself gives ratios of 1.00. Prints "N passed, N failed" last (a
# skip when MODULES-DIR is none: the build failed, which counts already).
set -uo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

rel="${1:-$SMQ_DEFAULT_KVER}"
mods="${2:-$SMQ_TREE/build/$rel}"
out="${3:-$SMQ_RESULTS/bench-check/$(smq_timestamp)}"
rc=0
if [[ "$mods" == none ]]; then
	echo "SKIP bench-check: no smq modules (the build failed)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
"$SMQ_TOOLS/bench/bench" selftest -k "$rel" -M "$mods" --no-setup --profile -o "$out" || rc=$?
if [[ ! -f "$out/results.json" ]]; then
	echo "FAIL bench-check: no results.json (bench status $rc; see $out/guest/console.log)"
	echo "0 passed, 1 failed"
	exit 1
fi
"$SMQ_TOOLS/bench/bench" validate "$out"
