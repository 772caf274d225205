#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-keepalive
# timeout: 300
#
# A target that goes silent without closing anything (the soft-RoCE netdev
# set down: no RDMA CM event, no completion error while the connection is
# idle, nothing answers any more) is found by the initiator's keepalive:
# NOP-Out pings after noop_out_interval seconds without a PDU, the
# connection declared lost when one goes noop_out_timeout seconds without
# an answer (open-iscsi's defaults: 5 and 5). The idle session must be seen
# failed within interval + timeout + a margin, must log in again once the
# peer is back (netdev up, soft-RoCE device made anew: LIO takes no logins
# after its port went down and up), and a write+verify must pass afterwards.
# smq_iser also: the log names the unanswered ping, and the negative
# control: with noop_out_interval=0 (no keepalive) the same silent, idle
# target goes unnoticed for the same time. The test runs on the kernel's
# ib_iser + open-iscsi as well (iscsid.conf of lib/iser.sh: 5 and 5), not in
# make check: there too the ping timeout comes after ~10 s, and then a
# kworker of the kernel's stack hangs (hung-task reports) on this fault.
# Not on 6.1 either: its rxe ends the connection at once when the netdev
# goes down (the target is not silent there).

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

if h=$(smq_iser_host_of 0); then
	kind=smq_iser
	hd=/sys/class/smq_host/host$h
	sess_state() { awk 'NR == 1 { print $2 }' "$hd/iser_sessions"; }
	up=up
	say 5 >"$hd/iser_noop_out_interval" || fail "cannot set iser_noop_out_interval"
	say 5 >"$hd/iser_noop_out_timeout" || fail "cannot set iser_noop_out_timeout"
else
	kind=ib_iser
	s=$(for _s in /sys/class/iscsi_session/session*; do say "$_s"; break; done)
	[ -r "$s/state" ] || skip "neither smq_iser nor an open-iscsi session"
	sess_state() { cat "$s/state"; }
	up=LOGGED_IN
fi
# shellcheck disable=SC2317 # run by the EXIT trap
restore() { iser_rxe_active || iser_netdev_up; }
trap restore EXIT
# shellcheck disable=SC2317 # called through wait_until
sess_up() { [ "$(sess_state)" = "$up" ]; }
show() {
	if [ "$kind" = smq_iser ]; then
		sed 's/^/    /' "$hd/iser_sessions"
	else
		say "    session state $(sess_state)"
	fi
}

FIO_VERIFY_SIZE=$((4 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed before the outage"
[ "$(sess_state)" = "$up" ] || fail "session not up before the outage: $(sess_state)"

# silent_for SECS: the netdev down for up to SECS seconds, or until the
# session leaves "up"; prints the seconds it took (or "never").
silent_for() {
	iser_netdev_down || fail "cannot set the netdev down"
	_sf_n=0
	while [ "$_sf_n" -lt $(($1 * 5)) ] && [ "$(sess_state)" = "$up" ]; do
		sleep 0.2
		_sf_n=$((_sf_n + 1))
	done
	if [ "$(sess_state)" = "$up" ]; then
		say never
	else
		say $((_sf_n / 5))
	fi
}

say "== $kind: an idle target goes silent (netdev down), keepalive 5 s / 5 s"
took=$(silent_for 40)
show
say "$kind: session left '$up' after $took s"
[ "$took" != never ] || fail "$kind: a silent target went unnoticed for 40 s"
# interval + timeout = 10 s, + 5 s of margin (the ping timer's phase, TCG)
[ "$took" -le 15 ] || fail "$kind: the silent target was found after $took s, not within 15 s"
if [ "$kind" = smq_iser ]; then
	dmesg | grep -q "host$h session 0: no answer to a NOP-Out ping" ||
		fail "the log does not say a ping went unanswered"
	grep -q 'ping_timeouts [1-9]' "$hd/iser_sessions" || fail "no ping timeout counted"
fi
# The peer back: the netdev up and the soft-RoCE device made anew (LIO's
# iSER target takes no logins again after its port went down and up).
iser_netdev_up || fail "cannot set the netdev up again"
{ iser_link_del && iser_link_add; } || fail "cannot make the soft-RoCE link anew"
wait_until 90 sess_up || { show; fail "$kind: the session did not come back within 90 s"; }
show
FIO_VERIFY_SIZE=$((4 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after the outage"

[ "$kind" = smq_iser ] || exit 0
say "== negative control: no keepalive (noop_out_interval=0), the same silence"
say 0 >"$hd/iser_noop_out_interval" || fail "cannot set iser_noop_out_interval to 0"
took=$(silent_for 15)
show
say "without keepalive: session left 'up' after: $took"
iser_netdev_up || fail "cannot set the netdev up again"
{ iser_link_del && iser_link_add; } || fail "cannot make the soft-RoCE link anew"
[ "$took" = never ] || fail "without keepalive the silent target was noticed ($took s): the test does not show the keepalive"
say 5 >"$hd/iser_noop_out_interval"
wait_until 60 sess_up || { show; fail "session not up after the negative control"; }
FIO_VERIFY_SIZE=$((4 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after the negative control"
say "== bad values"
for v in -1 3601 x; do
	if say "$v" >"$hd/iser_noop_out_interval" 2>/dev/null; then
		fail "iser_noop_out_interval took $v"
	fi
done
if say 0 >"$hd/iser_noop_out_timeout" 2>/dev/null; then
	fail "iser_noop_out_timeout took 0"
fi
exit 0
