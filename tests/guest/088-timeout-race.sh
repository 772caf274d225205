#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: timeout-race
# timeout: 300
#
# Every request races its own timeout: the LUN's timeout is 1 s and the
# target completes each command after about 1 s (smq_sas irqmode=2,
# completion_nsec=1000000000: load the line with IRQMODE=2,NSEC=1000000000),
# so the timeout scan claims requests while their completions arrive.
# smq_sas asks for more time on every timeout, so nothing may fail: fio
# write+verify must pass (no completion lost while the scan held a request,
# none delivered twice, no request claimed after it was reused).  ROUNDS
# (target spec; default 1, 3 in make check-long) write+verify passes.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd fio
need_dev

p=/sys/module/smq_sas/parameters
[ -r "$p/completion_nsec" ] || skip "$DEV is not an smq_sas disk"
if [ "$(cat "$p/irqmode")" != 2 ] || [ "$(cat "$p/completion_nsec")" -lt 900000000 ]; then
	skip "needs irqmode=2 and completion_nsec >= 0.9 s"
fi
t=/sys/block/${DEV##*/}/device/timeout
old=$(cat "$t")
say 1 >"$t" || fail "cannot set $t to 1"
trap 'say "$old" >"$t"' EXIT

FIO_VERIFY_SIZE=2097152 FIO_VERIFY_BSSPLIT=4096/50:65536/50 FIO_VERIFY_DEPTH=8
export FIO_VERIFY_SIZE FIO_VERIFY_BSSPLIT FIO_VERIFY_DEPTH
rounds=${TARGET_ROUNDS:-1}
i=1
while [ "$i" -le "$rounds" ]; do
	fio_write_verify "$DEV" >"$SMQ_TEST_TMP/fio.log" 2>&1 ||
		{ cat "$SMQ_TEST_TMP/fio.log"; fail "write+verify failed with 1 s timeouts (round $i)"; }
	i=$((i + 1))
done
say "$rounds write+verify round(s) passed with every command near its 1 s timeout"
exit 0
