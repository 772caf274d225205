#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Guest side of `make bench` (busybox sh, run by tools/bench/bench.sh through
# tools/vm/run.sh). For each target of BENCH_TARGETS (target specs, see
# tests/guest/lib/target.sh; brought up with TARGET_BENCH=1), runs fio random
# reads for each job count of BENCH_JOBS, BENCH_REPS times, and records the
# median IOPS. Output: /results/bench/results.tsv with lines
#   target <TAB> jobs <TAB> median IOPS <TAB> samples <TAB> status
# status: ok; skipped (target unavailable); failed; timeout; dmesg (the
# kernel complained); not-run (an earlier target broke the kernel). fio's own
# output is under /results/bench/fio/. Each target runs under a time limit.
#   guest-bench.sh                 all targets
#   guest-bench.sh --target SPEC   one target (internal)

SMQ_GUEST_DIR=/smq/tests/guest
export SMQ_GUEST_DIR
. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"

: "${BENCH_TARGETS:=scsi_debug null_blk}"
: "${BENCH_JOBS:=1 2}"
: "${BENCH_REPS:=3}"
: "${BENCH_RUNTIME:=4}"
: "${BENCH_BS:=1k}"
: "${BENCH_DEPTH:=128}"
out=/results/bench
mkdir -p "$out/fio"

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print 0 }'; }

# fio_iops FILE: read IOPS from fio's terse (v3) output.
fio_iops() { awk -F';' '$1 == 3 { printf "%d\n", $8 }' "$1" | head -n 1; }

tag_of() { say "$1" | tr -c 'A-Za-z0-9_.=-\n' _; }

# one_target SPEC: up, all fio runs, down; rows go to $out/TAG.partial.
# Exit status: 0 ok, 77 target unavailable, other: failure.
one_target() {
	_spec=$1
	_tag=$(tag_of "$_spec")
	export TARGET_BENCH=1
	target_load "$_spec" || exit 1
	_rc=0
	target_up >"$out/fio/$_tag.up.log" 2>&1 || _rc=$?
	[ "$_rc" = 0 ] || { target_down >/dev/null 2>&1; exit "$_rc"; }
	say "== $_spec: $DEV"
	for _jobs in $BENCH_JOBS; do
		_r=1
		_samples=
		while [ "$_r" -le "$BENCH_REPS" ]; do
			_f="$out/fio/$_tag.j$_jobs.r$_r.terse"
			fio --name=bench --filename="$DEV" --rw=randread --bs="$BENCH_BS" \
				--iodepth="$BENCH_DEPTH" --ioengine=libaio --direct=1 \
				--numjobs="$_jobs" --time_based --runtime="$BENCH_RUNTIME" \
				--group_reporting --output-format=terse --terse-version=3 \
				>"$_f" 2>&1 || { cat "$_f"; target_down; exit 1; }
			_samples="$_samples${_samples:+,}$(fio_iops "$_f")"
			_r=$((_r + 1))
		done
		_med=$(say "$_samples" | tr , '\n' | median)
		say "$_spec, $_jobs job(s): median $_med IOPS (samples $_samples)"
		printf '%s\t%s\t%s\t%s\n' "$_spec" "$_jobs" "$_med" "$_samples" >>"$out/$_tag.partial"
	done
	target_down || exit 1
}

# row SPEC STATUS: append the target's rows (or empty ones) to results.tsv.
rows() {
	_tag=$(tag_of "$1")
	[ -f "$out/$_tag.partial" ] && sed "s/\$/	$2/" "$out/$_tag.partial" >>"$out/results.tsv"
	for _jobs in $BENCH_JOBS; do
		grep -q "^$1	$_jobs	" "$out/results.tsv" ||
			printf '%s\t%s\t-\t-\t%s\n' "$1" "$_jobs" "$2" >>"$out/results.tsv"
	done
	rm -f "$out/$_tag.partial"
}

if [ "${1:-}" = --target ]; then
	one_target "$2"
	exit
fi

: >"$out/results.tsv"
say "bench: randread bs=$BENCH_BS iodepth=$BENCH_DEPTH libaio direct, jobs: $BENCH_JOBS, median of $BENCH_REPS x ${BENCH_RUNTIME}s"
limit=$((90 + $(say "$BENCH_JOBS" | wc -w) * BENCH_REPS * (BENCH_RUNTIME + 10)))
rc=0 broken=
for t in $BENCH_TARGETS; do
	if [ -n "$broken" ]; then
		rows "$t" not-run
		say "== $t: not run (the kernel is unreliable since $broken)"
		continue
	fi
	mark=$(dmesg_mark)
	st=0
	run_with_timeout "$limit" sh "$0" --target "$t" || st=$?
	case $st in
	0) status=ok ;;
	77) status=skipped ;;
	124) status=timeout ;;
	*) status=failed ;;
	esac
	tag=$(tag_of "$t")
	dmesg_since "$mark" | cap_lines 2000 >"$out/fio/$tag.dmesg"
	if dmesg_bad "$out/fio/$tag.dmesg" | cap_lines 200 >"$out/fio/$tag.dmesg-bad" &&
		[ -s "$out/fio/$tag.dmesg-bad" ]; then
		status=dmesg
		sed 's/^/    ! /' "$out/fio/$tag.dmesg-bad" | head -n 20
		grep -Eq "$DMESG_FATAL" "$out/fio/$tag.dmesg-bad" && broken=$t
	fi
	[ "$status" = timeout ] && broken=$t
	rows "$t" "$status"
	say "== $t: $status"
	case $status in ok | skipped) ;; *) rc=1 ;; esac
done
exit "$rc"
