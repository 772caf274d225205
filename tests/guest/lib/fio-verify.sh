# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The data-integrity check shared by the positive test (020-fio-verify) and
# the negative controls (040-, 041-): the same fio job writes with crc32c
# verify headers, then a separate fio pass reads everything back and checks.
#
# Job: 4 jobs, each on its own non-overlapping range (offset_increment), random
# writes of mixed block sizes from 512 B to 1 MiB (only multiples of the
# logical block size), libaio, O_DIRECT, iodepth 16.
#
# Settings (environment): FIO_VERIFY_SIZE bytes per job (default: a quarter of
# the device, at most 16 MiB); where the suite line's target spec sets
# VERIFY_MB=N (slow kernels: the debug lane) at most N MiB either way, also
# when a test asks for more; FIO_VERIFY_JOBS (4); FIO_VERIFY_DEPTH (16);
# FIO_VERIFY_BSSPLIT (fio's bssplit; default the 512 B..1 MiB mix above);
# FIO_VERIFY_RW (randwrite; write: sequential, so that the verify pass
# reads back every block written); FIO_VERIFY_OFFSET (0): bytes before the
# first job's range (for LUNs that share a store, as scsi_debug's do).

# fio_bssplit LBS: bssplit of 512 B..1 MiB, sizes below LBS folded into LBS.
fio_bssplit() {
	awk -v lbs="$1" 'BEGIN {
		n = split("512:8 1024:8 4096:24 8192:10 16384:10 65536:10 131072:10 262144:10 1048576:10", e, " ")
		for (i = 1; i <= n; i++) {
			split(e[i], f, ":"); bs = f[1] + 0; w = f[2] + 0
			if (bs < lbs) { carry += w; continue }
			if (bs % lbs) continue
			out = out sep bs "/" (w + carry); sep = ":"; carry = 0
		}
		print out
	}'
}

# fio_verify_size DEV_SIZE_BYTES LBS JOBS: bytes per job.
fio_verify_size() {
	if [ -n "${FIO_VERIFY_SIZE:-}" ]; then
		_fv_cap=$((${TARGET_VERIFY_MB:-0} * 1048576))
		if [ "$_fv_cap" -gt 0 ] && [ "$FIO_VERIFY_SIZE" -gt "$_fv_cap" ]; then
			say "$_fv_cap"
		else
			say "$FIO_VERIFY_SIZE"
		fi
		return
	fi
	awk -v d="$1" -v l="$2" -v j="$3" -v mb="${TARGET_VERIFY_MB:-16}" 'BEGIN {
		s = int(d / j); m = mb * 1048576; if (s > m) s = m
		s -= s % 1048576; if (s < 1048576) s = s - s % l
		print s }'
}

# fio_verify_args DEV [OPTION...]: the job, as fio command-line arguments:
# global options (with OPTIONs: on fio's command line an option after a
# --name applies to that job only), then one job section per range (job i
# covers [i*size, (i+1)*size)).
fio_verify_args() {
	_fv_dev=$1
	shift
	_fv_lbs=${DEV_LBS:-512}
	_fv_jobs=${FIO_VERIFY_JOBS:-4}
	_fv_size=$(fio_verify_size "${DEV_SIZE_BYTES:?}" "$_fv_lbs" "$_fv_jobs")
	say "--filename=$_fv_dev --ioengine=libaio --direct=1" \
		"--iodepth=${FIO_VERIFY_DEPTH:-16} --rw=${FIO_VERIFY_RW:-randwrite}" \
		"--bssplit=${FIO_VERIFY_BSSPLIT:-$(fio_bssplit "$_fv_lbs")}" \
		"--blockalign=$_fv_lbs" \
		"--size=$_fv_size --verify=crc32c --randrepeat=1 --group_reporting" "$@"
	_fv_i=0
	while [ "$_fv_i" -lt "$_fv_jobs" ]; do
		say "--name=smq-verify-$_fv_i --offset=$((${FIO_VERIFY_OFFSET:-0} + _fv_i * _fv_size))"
		_fv_i=$((_fv_i + 1))
	done
}

# fio_verify_classify OUTPUT-FILE STATUS: 0 ok, 1 data mismatch, 2 other error.
fio_verify_classify() {
	if grep -Eq 'verify: bad|bad magic header|verify failed|err=84|crc32c: verify' "$1"; then
		return 1
	fi
	[ "$2" = 0 ] && return 0
	return 2
}

# fio_verify_write DEV: the write pass. 0 ok, 2 error.
fio_verify_write() {
	_fv_out=${SMQ_TEST_TMP:-/tmp}/fio-write.out
	say "fio write pass on $1: fio $(fio_verify_args "$1" --do_verify=0 | tr '\n' ' ')"
	# shellcheck disable=SC2046 # the job is a word list
	fio $(fio_verify_args "$1" --do_verify=0) >"$_fv_out" 2>&1
	_fv_rc=$?
	cat "$_fv_out"
	[ "$_fv_rc" = 0 ] && return 0
	say "fio write pass failed (status $_fv_rc)"
	return 2
}

# fio_verify_check DEV: the separate verify pass.
# 0 data verified, 1 data mismatch found, 2 fio failed otherwise.
fio_verify_check() {
	_fv_out=${SMQ_TEST_TMP:-/tmp}/fio-verify.out
	say "fio verify pass on $1"
	# shellcheck disable=SC2046 # the job is a word list
	fio $(fio_verify_args "$1" --verify_only) >"$_fv_out" 2>&1
	_fv_rc=$?
	cat "$_fv_out"
	fio_verify_classify "$_fv_out" "$_fv_rc"
	_fv_rc=$?
	case $_fv_rc in
	0) say "verify pass: data verified" ;;
	1) say "verify pass: DATA MISMATCH detected" ;;
	*) say "verify pass: fio failed" ;;
	esac
	return "$_fv_rc"
}

# fio_write_verify DEV: write pass, then verify pass (codes of fio_verify_check).
fio_write_verify() {
	fio_verify_write "$1" || return 2
	fio_verify_check "$1"
}

# Write+verify passes under a change made meanwhile (tests 140-142): start
# them, keep changing while fio_bg_busy, then fio_bg_judge.
# fio_bg_start DISK...: fio_write_verify on each disk (sda, not /dev/sda)
# in the background, its output and status under $SMQ_TEST_TMP/DISK/.
fio_bg_start() {
	FIO_BG_PIDS=
	FIO_BG_DISKS="$*"
	for _fb_d in "$@"; do
		mkdir -p "$SMQ_TEST_TMP/$_fb_d"
		(
			SMQ_TEST_TMP=$SMQ_TEST_TMP/$_fb_d fio_write_verify "/dev/$_fb_d" \
				>"$SMQ_TEST_TMP/$_fb_d/log" 2>&1
			say "$?" >"$SMQ_TEST_TMP/$_fb_d/rc"
		) &
		FIO_BG_PIDS="$FIO_BG_PIDS $!"
	done
}

# fio_bg_busy: true while one of fio_bg_start's passes runs.
fio_bg_busy() {
	for _fb_p in $FIO_BG_PIDS; do
		kill -0 "$_fb_p" 2>/dev/null && return 0
	done
	return 1
}

# fio_bg_judge: wait for the passes, print each disk's log; fail the test
# on corrupt data or any fio error.
fio_bg_judge() {
	wait
	for _fb_d in $FIO_BG_DISKS; do
		cat "$SMQ_TEST_TMP/$_fb_d/log"
		case $(cat "$SMQ_TEST_TMP/$_fb_d/rc" 2>/dev/null) in
		0) say "$_fb_d: data verified" ;;
		1) fail "$_fb_d: fio verify found corrupted data" ;;
		*) fail "$_fb_d: fio failed" ;;
		esac
	done
}
