# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Polled I/O (io_uring / pvsync2 --hipri) helpers of tests 160-164.

# poll_setup: what every polled test needs first: fio with its io_uring
# engine and the disk under test (skip or fail otherwise); POLL_SMQ=1 when
# the disk is smq_sas's (its poll counters can be read), else 0.
poll_setup() {
	need_cmd fio
	need_dev
	fio --enghelp=io_uring >/dev/null 2>&1 || skip "fio has no io_uring engine"
	# shellcheck disable=SC2034 # read by the tests
	POLL_SMQ=0
	if poll_is_smq_sas; then
		# shellcheck disable=SC2034
		POLL_SMQ=1
	fi
}

# poll_capable DEV: whether the kernel lets polled bios into DEV's disk
# (queue/io_poll: 6.1 QUEUE_FLAG_POLL, 6.12 BLK_FEAT_POLL).
poll_capable() {
	[ "$(cat "/sys/block/${1##*/}/queue/io_poll" 2>/dev/null)" = 1 ]
}

# poll_is_smq_sas: the disk under test comes from smq_sas (its counters exist).
poll_is_smq_sas() {
	[ -d /sys/module/smq_sas ] || return 1
	[ -d /sys/kernel/debug/smq_sas ] ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	ls /sys/kernel/debug/smq_sas/*/reply_queues >/dev/null 2>&1
}

# poll_totals DEV: one line of counters summed over smq_sas's reply queues
# and DEV's smq hardware queues:
#   pq_queued pq_completed pq_ipis pq_irqpolls pq_mqpolls pq_reaped
#   iq_queued iq_completed blk_polls blk_polled
# pq_*: poll queues (reply_queues type "poll"), iq_*: the others;
# blk_*: smq_blk's mq/N/polls and polled of DEV's poll queues.
poll_totals() {
	_pt_b=0 _pt_d=0
	for _pt_q in /sys/block/"${1##*/}"/mq/*; do
		[ "$(cat "$_pt_q/type" 2>/dev/null)" = poll ] || continue
		_pt_b=$((_pt_b + $(cat "$_pt_q/polls")))
		_pt_d=$((_pt_d + $(cat "$_pt_q/polled")))
	done
	# shellcheck disable=SC2016 # awk program
	cat /sys/kernel/debug/smq_sas/*/reply_queues | awk -v b="$_pt_b" -v d="$_pt_d" '
		$1 == "queue" { next }
		$9 == "poll" { pq += $2; pc += $3; pi += $4; pp += $5; pm += $7; pr += $8; next }
		{ iq += $2; ic += $3 }
		END { printf "%d %d %d %d %d %d %d %d %d %d\n", pq, pc, pi, pp, pm, pr, iq, ic, b, d }'
}

# poll_delta BEFORE AFTER: the difference, field by field, named:
# sets pd_pq_queued pd_pq_completed ... pd_blk_polled (shell variables).
poll_delta() {
	# shellcheck disable=SC2086 # two lines of numbers
	set -- $1 $2
	pd_pq_queued=$((${11} - $1)) pd_pq_completed=$((${12} - $2))
	pd_pq_ipis=$((${13} - $3)) pd_pq_irqpolls=$((${14} - $4))
	pd_pq_mqpolls=$((${15} - $5)) pd_pq_reaped=$((${16} - $6))
	pd_iq_queued=$((${17} - $7)) pd_iq_completed=$((${18} - $8))
	pd_blk_polls=$((${19} - $9)) pd_blk_polled=$((${20} - ${10}))
	say "poll queues: queued +$pd_pq_queued completed +$pd_pq_completed" \
		"ipis +$pd_pq_ipis irq_poll passes +$pd_pq_irqpolls" \
		"mq_poll calls +$pd_pq_mqpolls reaped +$pd_pq_reaped;" \
		"interrupt queues: queued +$pd_iq_queued completed +$pd_iq_completed;" \
		"smq_blk poll queues: polls +$pd_blk_polls polled +$pd_blk_polled"
}

# poll_check_polled: after poll_delta, fail unless the poll queues took
# commands and every one of them completed by mq_poll (no interrupt path).
poll_check_polled() {
	[ "$pd_pq_queued" -gt 0 ] || fail "no command went to a poll queue"
	[ "$pd_pq_completed" = "$pd_pq_queued" ] ||
		fail "poll queues: completed $pd_pq_completed of $pd_pq_queued"
	[ "$pd_pq_reaped" = "$pd_pq_completed" ] ||
		fail "poll queues: $pd_pq_completed completed, only $pd_pq_reaped by mq_poll"
	if [ "$pd_pq_ipis" != 0 ] || [ "$pd_pq_irqpolls" != 0 ]; then
		fail "poll queues used the interrupt path (ipis $pd_pq_ipis, irq_poll $pd_pq_irqpolls)"
	fi
	[ "$pd_blk_polled" -gt 0 ] || fail "smq_blk counted no request completed by ->poll"
	[ "$pd_blk_polled" -le "$pd_pq_reaped" ] ||
		fail "smq_blk polled $pd_blk_polled > reaped $pd_pq_reaped"
}

# poll_fio_verify DEV ENGINE-OPTION...: write pass then verify pass of
# lib/fio-verify.sh's job with the given engine options (they override its
# libaio).  0 verified, 1 mismatch, 2 fio failed.  fio's output of the
# last pass: POLL_FIO_OUT (default $SMQ_TEST_TMP/fio-poll.out).
poll_fio_verify() {
	_pf_dev=$1
	shift
	_pf_out=${POLL_FIO_OUT:-${SMQ_TEST_TMP:-/tmp}/fio-poll.out}
	say "fio write pass on $_pf_dev: $*"
	# shellcheck disable=SC2046 # the job is a word list
	fio $(fio_verify_args "$_pf_dev" "$@" --do_verify=0) >"$_pf_out" 2>&1
	_pf_rc=$?
	cat "$_pf_out"
	[ "$_pf_rc" = 0 ] || { say "write pass failed ($_pf_rc)"; return 2; }
	say "fio verify pass on $_pf_dev: $*"
	# shellcheck disable=SC2046 # the job is a word list
	fio $(fio_verify_args "$_pf_dev" "$@" --verify_only) >"$_pf_out" 2>&1
	_pf_rc=$?
	cat "$_pf_out"
	fio_verify_classify "$_pf_out" "$_pf_rc"
}

# poll_fio_verify_split DEV KB ENGINE-OPTION...: poll_fio_verify with DEV's
# queue/max_sectors_kb at KB for the two passes (bios above it must be split),
# put back after.  Same return values.
poll_fio_verify_split() {
	_ps_dev=$1 _ps_kb=$2
	shift 2
	_ps_q=/sys/block/${_ps_dev##*/}/queue
	_ps_old=$(cat "$_ps_q/max_sectors_kb")
	echo "$_ps_kb" >"$_ps_q/max_sectors_kb" || fail "cannot set max_sectors_kb $_ps_kb"
	say "${_ps_dev##*/}: max_sectors_kb $_ps_kb for these passes (was $_ps_old)"
	poll_fio_verify "$_ps_dev" "$@"
	_ps_rc=$?
	echo "$_ps_old" >"$_ps_q/max_sectors_kb"
	return "$_ps_rc"
}
