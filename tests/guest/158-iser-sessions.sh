#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-sessions
# timeout: 240
#
# smq_iser only: what each iSCSI session of a host carries. With queues=N
# (target spec QUEUES) and fio jobs on every CPU, every session carries I/O:
# its CmdSN (hostN/iser_sessions, one command each) advances by at least 200
# over 5 s of random reads (mq: the session of the submitting CPU's hardware
# queue; legacy: CPU modulo queues). Where LIO's CmdSN window
# (default_cmdsn_depth, target spec CMDSN) is smaller than what the host
# keeps in flight, the window closes: commands are sent back busy and
# retried (busy W of iser_sessions grows) and a write+verify at a queue
# depth above the window passes without an error.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
iser_test_setup
sf=$hd/iser_sessions
# field NAME: the value after NAME on each session's line.
field() { iser_session_field "$hd" "$1"; }
sed 's/^/    /' "$sf"
nq=$(wc -l <"$sf")
ncpu=$(nproc)

say "== $nq session(s), fio on $ncpu CPU(s)"
before=$(field cmdsn | tr '\n' ' ')
fio --name=spread --filename="$DEV" --ioengine=libaio --direct=1 --rw=randread \
	--bs=4k --iodepth=16 --numjobs="$ncpu" --cpus_allowed="0-$((ncpu - 1))" \
	--cpus_allowed_policy=split --time_based --runtime=5 --group_reporting \
	--output="$SMQ_TEST_TMP/spread.out" || { cat "$SMQ_TEST_TMP/spread.out"; fail "fio failed"; }
grep -q 'err= 0' "$SMQ_TEST_TMP/spread.out" || { cat "$SMQ_TEST_TMP/spread.out"; fail "fio reported an error"; }
after=$(field cmdsn | tr '\n' ' ')
sed 's/^/    /' "$sf"
grep -q 'reconnects [1-9]' "$sf" && fail "a session reconnected (CmdSN restarted)"
i=1
for a in $after; do
	b=$(say "$before" | cut -d' ' -f"$i")
	n=$((a - b))
	say "session $((i - 1)): $n commands"
	if [ "$ncpu" -ge "$nq" ] && [ "$n" -lt 200 ]; then
		fail "session $((i - 1)) carried $n commands in 5 s of fio on every CPU"
	fi
	i=$((i + 1))
done

depth=$(cat "$LIO/iscsi/${ISER_IQN}0/tpgt_1/attrib/default_cmdsn_depth")
say "== LIO default_cmdsn_depth $depth"
[ "$depth" -lt 32 ] || exit 0
busy0=$(field busy | cut -d/ -f1 | awk '{ s += $1 } END { print s + 0 }')
FIO_VERIFY_SIZE=$((16 * 1048576)) fio_write_verify "$DEV" ||
	fail "write+verify failed with a CmdSN window of $depth"
busy=$(($(field busy | cut -d/ -f1 | awk '{ s += $1 } END { print s + 0 }') - busy0))
sed 's/^/    /' "$sf"
say "window closed $busy time(s) under 4 jobs x iodepth 16"
[ "$busy" -gt 0 ] || fail "the CmdSN window of $depth never closed under 64 commands in flight"
exit 0
