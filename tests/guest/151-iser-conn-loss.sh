#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-conn-loss
# timeout: 420
#
# smq_iser only (target smq_iser, RAM backstores): the connection is lost
# under a fio write pass and comes back. Short outages (~5 s, well inside the
# host's iser_replacement_timeout): LIO's target portal group disabled (the
# target drops the session and refuses logins), then (LONG=1) the rxe link deleted
# (the RDMA device goes away under the connection) and re-added. During the
# outage the LUN reads "blocked" and its hardware queues are not run (the
# host is blocked, not polled busy every few ms); the driver logs in again,
# every session that flapped counts a reconnect, the LUN is "running", the
# write pass ends without an error and the separate verify pass finds every
# block. A long outage with iser_replacement_timeout set to 3: fio gets
# I/O errors within the timeout plus a margin (no hang) while the target is
# still away, the LUN stays "running" (not offline); after the target is
# back the disk does I/O again without a rescan and a write+verify passes.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
iser_test_setup
rt=$hd/iser_replacement_timeout
old_rt=$(cat "$rt")
# shellcheck disable=SC2317 # run by the EXIT trap
restore() {
	lio_tpg_enable 0 2>/dev/null
	iser_rxe_active || iser_link_add
	say "$old_rt" >"$rt"
}
trap restore EXIT
sessions() { sed 's/^/    /' "/sys/class/smq_host/host$h/iser_sessions"; }
state=/sys/block/${DEV##*/}/device/state
# reconnects: the sessions' reconnect counts, one per line.
reconnects() {
	sed -n 's/.* reconnects \([0-9]*\).*/\1/p' "/sys/class/smq_host/host$h/iser_sessions"
}
# runs: hardware queue runs of the disk, summed (0 on the legacy path).
runs() {
	cat "/sys/block/${DEV##*/}"/mq/*/runs 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'
}

# The write pass must outlast an outage: 4 x 40 MiB.
export FIO_VERIFY_SIZE=$((40 * 1048576))

# outage_under_write NAME DOWN-CMD UP-CMD: the write pass runs while the
# target is away for 5 s; both passes must succeed.
outage_under_write() {
	say "== $1: 5 s outage under the write pass"
	say 60 >"$rt" || fail "cannot set $rt"
	fio_verify_write "$DEV" >"$SMQ_TEST_TMP/w.out" 2>&1 &
	_ow_fio=$!
	sleep 2
	kill -0 "$_ow_fio" 2>/dev/null || { cat "$SMQ_TEST_TMP/w.out"; fail "$1: the write pass ended before the outage"; }
	_ow_rc0=$(reconnects)
	$2 || fail "$1: cannot take the target away ($2)"
	sleep 1
	_ow_st=$(cat "$state")
	[ "$_ow_st" = blocked ] || { sessions; fail "$1: LUN state '$_ow_st' during the outage, not blocked"; }
	_ow_r=$(runs)
	sleep 3
	_ow_r=$(($(runs) - _ow_r))
	say "$1: LUN $_ow_st, $_ow_r hardware queue runs in 3 s of outage"
	# A busy host rerun every 3 ms makes ~1000 runs per queue in 3 s.
	[ "$_ow_r" -lt 100 ] || fail "$1: $_ow_r queue runs in 3 s of outage: polled busy, not blocked"
	sleep 1
	sessions
	$3 || fail "$1: cannot bring the target back ($3)"
	wait "$_ow_fio"
	_ow_rc=$?
	cat "$SMQ_TEST_TMP/w.out"
	[ "$_ow_rc" = 0 ] || fail "$1: the write pass failed across a 5 s outage"
	sessions
	_ow_st=$(cat "$state")
	[ "$_ow_st" = running ] || fail "$1: LUN state '$_ow_st' after the outage"
	_ow_rc1=$(reconnects)
	_ow_i=1
	for _ow_n in $_ow_rc1; do
		_ow_o=$(say "$_ow_rc0" | sed -n "${_ow_i}p")
		[ "$_ow_n" -gt "$_ow_o" ] || fail "$1: session $((_ow_i - 1)) did not reconnect ($_ow_o -> $_ow_n)"
		_ow_i=$((_ow_i + 1))
	done
	fio_verify_check "$DEV" || fail "$1: verify failed after the outage"
}

outage_under_write "tpg disabled" "lio_tpg_disable 0" "lio_tpg_enable 0"
long_case "the outage with the rxe link deleted" &&
	outage_under_write "rxe link deleted" iser_link_del iser_link_add

say "== outage longer than iser_replacement_timeout=3"
say 3 >"$rt" || fail "cannot set $rt to 3"
fio --name=lost --filename="$DEV" --ioengine=libaio --direct=1 --rw=randwrite \
	--bs=4k --iodepth=16 --size=64M --time_based --runtime=120 \
	--output="$SMQ_TEST_TMP/lost.out" >/dev/null 2>&1 &
fio=$!
sleep 2
lio_tpg_disable 0 || fail "cannot disable the tpg"
t0=$(date +%s)
# fio must end with an error while the target is still away: 3 s of
# replacement timeout (counted from the loss, which the target's disconnect
# makes known at once) plus a margin.
# Before the timeout the LUN must read blocked (after it, failing fast, it
# is running again). Watched by state, not by a fixed instant: on the debug
# kernel under TCG a loop of "0.1 s" steps takes far longer than 2 s.
n=0
blocked_at=
while kill -0 "$fio" 2>/dev/null && [ "$n" -lt 300 ]; do
	[ -z "$blocked_at" ] && [ "$(cat "$state")" = blocked ] &&
		blocked_at=$(($(date +%s) - t0))
	sleep 0.1
	n=$((n + 1))
done
[ -n "$blocked_at" ] || fail "LUN never blocked during the outage (state now $(cat "$state"))"
say "LUN blocked ${blocked_at} s into the outage"
if kill -0 "$fio" 2>/dev/null; then
	sessions
	kill -KILL "$fio"
	fail "fio still running 30 s into an outage with replacement_timeout 3 (hang?)"
fi
rc=0
wait "$fio" || rc=$?
secs=$(($(date +%s) - t0))
cat "$SMQ_TEST_TMP/lost.out"
[ "$rc" != 0 ] || fail "fio passed although the target was away for more than the timeout"
grep -Eq 'err=|error' "$SMQ_TEST_TMP/lost.out" || fail "fio failed without an I/O error"
say "fio got I/O errors ${secs} s into the outage"
[ "$secs" -le 9 ] || fail "fio got its errors ${secs} s into the outage: replacement_timeout is 3 s"
sessions
grep -q failfast "/sys/class/smq_host/host$h/iser_sessions" || fail "no session fails fast past the timeout"
st=$(cat "$state")
[ "$st" = running ] || fail "LUN state '$st' past the replacement timeout, not running"
# A read while the target is away fails too, quickly.
if run_with_timeout 30 dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
	fail "a read succeeded while the target was away past the timeout"
fi
lio_tpg_enable 0 || fail "cannot re-enable the tpg"
say 60 >"$rt"
wait_until 60 dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct ||
	{ sessions; fail "no I/O 60 s after the target came back"; }
# Each session logs in on its own backoff: wait for all before the verify.
# shellcheck disable=SC2317 # called through wait_until
all_up() { ! awk '$2 != "up"' "/sys/class/smq_host/host$h/iser_sessions" | grep -q .; }
wait_until 30 all_up || { sessions; fail "not every session came back within 30 s"; }
sessions
st=$(cat "$state")
[ "$st" = running ] || fail "LUN state '$st' after the target came back"
dmesg | grep -q 'taking the LUN offline' && fail "error handling took a LUN offline"
FIO_VERIFY_SIZE=$((4 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after recovery"
exit 0
