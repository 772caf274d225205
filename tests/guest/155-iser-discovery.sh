#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-discovery
# timeout: 240
#
# smq_iser only: SendTargets discovery from the kernel. Writing
# "dst=PORTAL" to /sys/class/smq_iser/ctl/discover (root only, mode 0600)
# logs a Discovery session in over iSER, asks SendTargets=All and logs out;
# reading the file lists every LIO target of the guest, one line per portal
# in iscsiadm's format ("10.0.0.1:3260,1 iqn..."), the same list as
# open-iscsi's `iscsiadm -m discovery -t st` where iscsid runs (over TCP
# on the same portal: LIO answers SendTargets per transport, and an iSER
# discovery that times out can crash iscsiadm and leave its kernel session
# pinning ib_iser; see iscsi_peer_login). A portal
# nobody answers fails (EHOSTUNREACH / ETIMEDOUT) and clears the list; keys
# a discovery does not take (target, queues) and a missing dst are EINVAL.
# The host of target 0 is then removed and added back with the name and
# portal the discovery listed: its disk reads. No session is left behind.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
need_cmd smq-helper
need_dev
[ -w "$SMQ_ISER_CTL/add_target" ] || skip "not an smq_iser target"
disc=$SMQ_ISER_CTL/discover
[ -e "$disc" ] || fail "no $disc"
[ "$(stat -c %a "$disc")" = 600 ] || fail "$disc is mode $(stat -c %a "$disc"), not 600"
hosts() { smq_iser_hosts | tr '\n' ' '; }
hosts0=$(hosts)

say "== discover $ISER_IP:$ISER_PORT"
out=$(smq-helper write "$disc" "dst=$ISER_IP:$ISER_PORT") || fail "discover failed: $out"
cat "$disc" >"$SMQ_TEST_TMP/list"
sed 's/^/    /' "$SMQ_TEST_TMP/list"
n=0
for t in "$LIO"/iscsi/iqn.*; do
	[ -d "$t" ] || continue
	n=$((n + 1))
	grep -qx "$ISER_IP:$ISER_PORT,1 ${t##*/}" "$SMQ_TEST_TMP/list" ||
		fail "target ${t##*/} not listed as $ISER_IP:$ISER_PORT,1"
done
[ "$n" -ge 1 ] || fail "the guest has no LIO target"
lines=$(grep -c . "$SMQ_TEST_TMP/list")
[ "$lines" = "$n" ] || fail "$lines lines for $n targets"
say "discovery listed the $n target(s) LIO has"
[ "$(hosts)" = "$hosts0" ] || fail "hosts changed by a discovery: $hosts0 -> $(hosts)"
# open-iscsi's answer on the same portal (its iscsid started for it), over
# TCP: iscsiadm does that discovery in user space, no kernel session.
if command -v iscsiadm >/dev/null && iser_mods_present ib_iser; then
	started=0
	if ! iscsid_ready; then
		iscsi_peer_up || fail "cannot start open-iscsi"
		started=1
	fi
	k=0
	until iscsiadm -m discovery -t st -p "$ISER_IP:$ISER_PORT" >"$SMQ_TEST_TMP/ia"; do
		k=$((k + 1))
		[ "$k" -lt 3 ] || fail "iscsiadm's discovery failed 3 times"
		sleep 1
	done
	sort "$SMQ_TEST_TMP/ia" >"$SMQ_TEST_TMP/iscsiadm"
	if [ "$started" = 1 ]; then
		iscsi_peer_down || fail "cannot stop open-iscsi"
	fi
	sort "$SMQ_TEST_TMP/list" | cmp -s - "$SMQ_TEST_TMP/iscsiadm" ||
		{ cat "$SMQ_TEST_TMP/iscsiadm"; fail "iscsiadm lists otherwise"; }
	say "iscsiadm -m discovery lists the same"
fi

say "== errors"
out=$(run_with_timeout 60 smq-helper write "$disc" "dst=10.0.0.77:3260") &&
	fail "discovery of a portal nobody answers succeeded"
case $out in
ret=-113 | ret=-110) ;;
*) fail "discovery of 10.0.0.77: '$out', not EHOSTUNREACH or ETIMEDOUT" ;;
esac
[ -z "$(cat "$disc")" ] || fail "a failed discovery left the old list"
say "unreachable portal: $out, list cleared"
for bad in "target=${ISER_IQN}0" "dst=$ISER_IP:$ISER_PORT,target=${ISER_IQN}0" \
	"dst=$ISER_IP:$ISER_PORT,queues=2" "dst=$ISER_IP:$ISER_PORT,bogus=1"; do
	out=$(smq-helper write "$disc" "$bad") && fail "discover accepted '$bad'"
	[ "$out" = "ret=-22" ] || fail "discover '$bad': $out, not EINVAL"
done
say "bad strings: EINVAL"

say "== add_target with what the discovery listed"
out=$(smq-helper write "$disc" "dst=$ISER_IP:$ISER_PORT") || fail "discover failed: $out"
line=$(grep " ${ISER_IQN}0\$" "$disc") || fail "target 0 not listed"
portal=${line%%,*}
name=${line#* }
h=$(smq_iser_host_of 0) || fail "no host of target 0"
say "$h" >"$SMQ_ISER_CTL/remove_target" || fail "remove_target $h"
wait_until 30 sh -c "[ ! -e /sys/class/smq_host/host$h ]" || fail "host$h still there"
before=$(list_disks)
out=$(smq-helper write "$SMQ_ISER_CTL/add_target" "dst=$portal,target=$name") ||
	fail "add_target dst=$portal,target=$name: $out"
wait_for_new_disk "$before" 30 || fail "no disk after add_target of the discovered target"
dd if="$DEV" of=/dev/null bs=4096 count=64 iflag=direct 2>/dev/null || fail "$DEV does no I/O"
say "added $name at $portal: $DEV reads"
exit 0
