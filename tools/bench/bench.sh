#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: the main job. Prepares the host (setup-host.sh), builds smq for
# the kernel KVER names (default 6.12), boots ONE guest and, in that boot,
# runs fio random reads (1 KiB, iodepth 128, libaio, O_DIRECT; 1 and 2 jobs;
# median of BENCH_REPS runs of BENCH_RUNTIME s) on each target: the kernel's
# own stack (scsi_debug delay=0 fake_rw=1 + sd_mod, null_blk) and every smq
# target that exists (tests/guest/targets/smq*.sh). Prints a table; results
# go to results/bench/<time>-<release>/ (SMQ_RESULTS overrides results/).
#
# Environment: KVER, BENCH_TARGETS (target specs; default: see above),
# BENCH_JOBS ("1 2"), BENCH_REPS (3), BENCH_RUNTIME (4), BENCH_CPUS (2),
# BENCH_MEM (2048).
set -euo pipefail
# shellcheck source=tools/lib/smq.sh
. "$(dirname "$0")/../lib/smq.sh"

kver="${KVER:-$SMQ_DEFAULT_KVER}"
jobs="${BENCH_JOBS:-1 2}"
reps="${BENCH_REPS:-3}"
runtime="${BENCH_RUNTIME:-4}"

default_targets() {
	local t f
	t="scsi_debug null_blk:IRQMODE=0"
	for f in "$SMQ_TREE"/tests/guest/targets/smq*.sh; do
		[[ -f "$f" ]] || continue
		f="${f##*/}"
		t+=" ${f%.sh}"
	done
	printf '%s\n' "$t"
}

# Other QEMU guests running now (they take CPU from ours: numbers drop).
other_guests() { grep -lx 'qemu-system-x86' /proc/[0-9]*/comm 2>/dev/null | wc -l; }

# print_table TSV: one row per target, one column per job count.
print_table() {
	awk -F'\t' -v jobs="$jobs" '
		function k(v) { return v == "-" ? "-" : sprintf("%.1fk", v / 1000) }
		BEGIN { nj = split(jobs, J, " ") }
		{
			if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
			v[$1, $2] = $3; st[$1] = st[$1] == "" || st[$1] == "ok" ? $5 : st[$1]
		}
		END {
			printf "%-34s", "target"
			for (j = 1; j <= nj; j++) printf " %10s", J[j] (J[j] == 1 ? " job" : " jobs")
			printf "  %s\n", "status"
			for (i = 1; i <= n; i++) {
				t = order[i]; printf "%-34s", t
				for (j = 1; j <= nj; j++) printf " %10s", k(v[t, J[j]] == "" ? "-" : v[t, J[j]])
				printf "  %s\n", st[t]
			}
		}' "$1"
}

main() {
	local rel out targets limit ntargets rc=0 grc=0
	local mods=""
	"$SMQ_TOOLS/vm/setup-host.sh"
	rel="$("$SMQ_TOOLS/build/kver.sh" "$kver")"
	out="$SMQ_RESULTS/bench/$(smq_timestamp)-$rel"
	targets="${BENCH_TARGETS:-$(default_targets)}"
	if ! "$SMQ_TOOLS/build/build.sh" "$rel"; then
		smq_log "WARNING: the build failed: benchmarking the kernel's own stack only"
		targets="$(tr ' ' '\n' <<<"$targets" | grep -v '^smq' | tr '\n' ' ')"
		mods=none
		rc=1
	fi
	ntargets=$(wc -w <<<"$targets")
	local others load
	others="$(other_guests)"
	load="$(cut -d' ' -f1-3 /proc/loadavg)"
	((others == 0)) || smq_log "WARNING: $others other QEMU guest(s) running: the numbers will be low"
	limit=$((180 + ntargets * $(wc -w <<<"$jobs") * reps * (runtime + 15)))

	"$SMQ_TOOLS/vm/run.sh" -k "$rel" -c "${BENCH_CPUS:-2}" -m "${BENCH_MEM:-2048}" \
		-t "$limit" -o "$out/guest" ${mods:+-M "$mods"} \
		-e "BENCH_TARGETS=$targets" -e "BENCH_JOBS=$jobs" \
		-e "BENCH_REPS=$reps" -e "BENCH_RUNTIME=$runtime" \
		-- 'sh tools/bench/guest-bench.sh' || grc=$?
	((grc == 0)) || rc=$grc

	local tsv="$out/guest/results/bench/results.tsv"
	[[ -s "$tsv" ]] || smq_die "no bench results (guest status $grc); see $out/guest/console.log"
	cp "$tsv" "$out/results.tsv"
	{
		echo "smq bench: fio randread bs=1k iodepth=128 libaio direct, median of $reps x ${runtime}s (IOPS)"
		echo "kernel $rel, ${BENCH_CPUS:-2} vCPUs (QEMU TCG), $(date -u '+%Y-%m-%d %H:%M UTC')," \
			"tree $(git -C "$SMQ_TREE" describe --always --dirty 2>/dev/null || echo unknown)"
		echo "host: $(nproc) CPUs, load average at start $load, other QEMU guests at start: $others"
		echo
		print_table "$tsv"
		[[ "$mods" != none ]] || echo "(smq not benchmarked: the build failed)"
	} >"$out/table.txt"
	echo
	cat "$out/table.txt"
	echo
	smq_log "results: $out"
	return "$rc"
}

main "$@"
