#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-unload
# timeout: 300
#
# smq_iser only (target smq_iser; run with SLUB=FZPU or on the debug kernel):
# with fio running on the disk and a descriptor held open, `rmmod smq_iser`
# is refused (busybox: EWOULDBLOCK) and the host stays; once fio ended and
# the descriptor is closed, rmmod logs out and removes the host. Loaded
# again with a new host: remove_target while fio writes completes (no hang),
# fio ends with errors, and rmmod smq_iser then works. The same during an
# outage (LIO's tpg disabled, the host blocked with fio's commands held):
# remove_target ends (the held commands fail), and rmmod of an idle host whose
# session is being recovered works.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
iser_test_setup
# shellcheck disable=SC2317 # run by the EXIT trap
restore() { lio_tpg_enable 0 2>/dev/null; }
trap restore EXIT

start_fio() { # NAME
	fio --name="$1" --filename="$DEV" --ioengine=libaio --direct=1 --rw=randrw \
		--bs=4k --iodepth=16 --time_based --runtime=60 \
		--output="$SMQ_TEST_TMP/$1.out" >/dev/null 2>&1 &
	fio=$!
	sleep 2
	kill -0 "$fio" 2>/dev/null || { cat "$SMQ_TEST_TMP/$1.out"; fail "fio $1 did not get going"; }
}

# fio_ends SECS: fio must end by itself within SECS.
fio_ends() {
	_fe_n=$(($1 * 10))
	while kill -0 "$fio" 2>/dev/null && [ "$_fe_n" -gt 0 ]; do
		sleep 0.1
		_fe_n=$((_fe_n - 1))
	done
	if kill -0 "$fio" 2>/dev/null; then
		kill -KILL "$fio"
		fail "fio did not end within $1 s (hang?)"
	fi
	_fe_rc=0
	wait "$fio" || _fe_rc=$?
	return "$_fe_rc"
}

say "== rmmod smq_iser with $DEV open and fio running"
start_fio busy
exec 3<"$DEV"
if rmmod smq_iser 2>"$SMQ_TEST_TMP/rmmod"; then
	fail "smq_iser unloaded while its disk was open"
fi
cat "$SMQ_TEST_TMP/rmmod"
grep -Eqi 'temporarily unavailable|in use|busy' "$SMQ_TEST_TMP/rmmod" ||
	fail "rmmod smq_iser failed for another reason"
[ -e "/sys/class/smq_host/host$h" ] || fail "host$h gone after a refused rmmod"
kill "$fio" 2>/dev/null
fio_ends 30 || say "fio stopped (status $?)"
exec 3<&-
run_with_timeout 60 sh -c 'while ! rmmod smq_iser 2>/dev/null; do sleep 0.2; done' ||
	fail "rmmod smq_iser failed after the disk was closed"
[ ! -d /sys/module/smq_iser ] || fail "smq_iser still loaded"
[ -z "$(smq_iser_hosts)" ] || fail "hosts left after rmmod: $(smq_iser_hosts)"
say "rmmod smq_iser: done"

say "== remove_target with fio running"
modprobe smq_iser || fail "cannot load smq_iser again"
before=$(list_disks)
say "$(smq_iser_add_string 0)" >"$SMQ_ISER_CTL/add_target" || fail "add_target failed"
wait_for_new_disk "$before" 60 || fail "no disk after add_target"
h=$(smq_iser_host_of 0) || fail "no host after add_target"
start_fio removed
run_with_timeout 60 sh -c "echo $h >$SMQ_ISER_CTL/remove_target" ||
	fail "remove_target $h failed or hung (status $?)"
say "remove_target $h: done"
rc=0
fio_ends 60 || rc=$?
cat "$SMQ_TEST_TMP/removed.out"
[ "$rc" != 0 ] || fail "fio passed although its host was removed under it"
say "fio ended with status $rc"
run_with_timeout 60 sh -c 'while ! rmmod smq_iser 2>/dev/null; do sleep 0.2; done' ||
	fail "rmmod smq_iser failed after remove_target"
say "rmmod smq_iser: done"

# add_host: load smq_iser if needed, add target 0, wait for its disk.
add_host() {
	[ -d /sys/module/smq_iser ] || modprobe smq_iser || fail "cannot load smq_iser"
	_ah_before=$(list_disks)
	say "$(smq_iser_add_string 0)" >"$SMQ_ISER_CTL/add_target" || fail "add_target failed"
	wait_for_new_disk "$_ah_before" 60 || fail "no disk after add_target"
	h=$(smq_iser_host_of 0) || fail "no host after add_target"
}

say "== remove_target during an outage, fio's commands held"
add_host
start_fio outage
lio_tpg_disable 0 || fail "cannot disable the tpg"
sleep 2
st=$(cat "/sys/block/${DEV##*/}/device/state")
[ "$st" = blocked ] || fail "LUN state '$st' during the outage, not blocked"
run_with_timeout 60 sh -c "echo $h >$SMQ_ISER_CTL/remove_target" ||
	fail "remove_target $h during an outage failed or hung (status $?)"
rc=0
fio_ends 60 || rc=$?
[ "$rc" != 0 ] || fail "fio passed although its host was removed during an outage"
say "remove_target during the outage: done, fio ended with status $rc"
lio_tpg_enable 0 || fail "cannot re-enable the tpg"

say "== rmmod smq_iser during an outage"
add_host
lio_tpg_disable 0 || fail "cannot disable the tpg"
sleep 2
run_with_timeout 60 sh -c 'while ! rmmod smq_iser 2>/dev/null; do sleep 0.2; done' ||
	fail "rmmod smq_iser during an outage failed or hung"
[ ! -d /sys/module/smq_iser ] || fail "smq_iser still loaded"
lio_tpg_enable 0 || fail "cannot re-enable the tpg"
say "rmmod smq_iser during the outage: done"
exit 0
