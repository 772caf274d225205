#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-conn-loss
# timeout: 420
#
# smq_iser only (target smq_iser, RAM backstores): the connection is lost
# under a fio write pass and comes back. Short outages (~5 s, well inside the
# host's iser_replacement_timeout): LIO's target portal group disabled (the
# target drops the session and refuses logins), then the rxe link deleted
# (the RDMA device goes away under the connection) and re-added; the driver
# logs in again, the write pass ends without an error and the separate
# verify pass finds every block. A long outage with iser_replacement_timeout
# set to 3: fio gets I/O errors within seconds (no hang) while the target is
# still away; after it is back the disk does I/O again and a write+verify
# passes.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev
h=$(smq_iser_host_of 0) || skip "not an smq_iser target"
rt=/sys/class/smq_host/host$h/iser_replacement_timeout
old_rt=$(cat "$rt")
# shellcheck disable=SC2317 # run by the EXIT trap
restore() {
	lio_tpg_enable 0 2>/dev/null
	iser_rxe_active || iser_link_add
	say "$old_rt" >"$rt"
}
trap restore EXIT
sessions() { sed 's/^/    /' "/sys/class/smq_host/host$h/iser_sessions"; }

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
	$2 || fail "$1: cannot take the target away ($2)"
	sleep 5
	sessions
	$3 || fail "$1: cannot bring the target back ($3)"
	wait "$_ow_fio"
	_ow_rc=$?
	cat "$SMQ_TEST_TMP/w.out"
	[ "$_ow_rc" = 0 ] || fail "$1: the write pass failed across a 5 s outage"
	sessions
	fio_verify_check "$DEV" || fail "$1: verify failed after the outage"
}

outage_under_write "tpg disabled" "lio_tpg_disable 0" "lio_tpg_enable 0"
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
# replacement timeout plus detection, well under 30 s.
n=0
while kill -0 "$fio" 2>/dev/null && [ "$n" -lt 300 ]; do
	sleep 0.1
	n=$((n + 1))
done
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
sessions
# A read while the target is away fails too, quickly.
if run_with_timeout 30 dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
	fail "a read succeeded while the target was away past the timeout"
fi
lio_tpg_enable 0 || fail "cannot re-enable the tpg"
say 60 >"$rt"
wait_until 60 dd if="$DEV" of=/dev/null bs=4k count=1 iflag=direct ||
	{ sessions; fail "no I/O 60 s after the target came back"; }
sessions
FIO_VERIFY_SIZE=$((4 * 1048576)) fio_write_verify "$DEV" || fail "write+verify failed after recovery"
exit 0
