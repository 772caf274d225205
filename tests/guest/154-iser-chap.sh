#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: iser-chap
# timeout: 300
#
# smq_iser only (target smq_iser; other targets skip): CHAP in the login's
# security stage against a second LIO target with authentication=1 and an
# ACL for our initiator name. Bad CHAP key combinations are EINVAL (with no
# secret in the log); no username, a wrong password, mutual CHAP with a
# wrong password_in or username_in (LONG=1 only: each costs LIO's 15 s
# login timeout), and mutual CHAP against a target that only does
# one-way are each EACCES with exactly one smq_iser log line and no host
# left; one-way CHAP logs in and passes fio write+verify; mutual CHAP logs
# in and its disk reads back what was written; no secret ever shows in the
# kernel log or in smq_iser's sysfs files.

. "$SMQ_GUEST_DIR/lib/common.sh"
. "$SMQ_GUEST_DIR/lib/target.sh"
. "$SMQ_GUEST_DIR/lib/iser.sh"
. "$SMQ_GUEST_DIR/lib/dmesg.sh"
. "$SMQ_GUEST_DIR/lib/fio-verify.sh"
need_cmd smq-helper
need_cmd fio
[ -w "$SMQ_ISER_CTL/add_target" ] || skip "not an smq_iser target (CHAP of ib_iser is open-iscsi's)"

tiqn=iqn.2026-12.org.smq:chap0
ini=iqn.2026-12.org.smq:chap-initiator
user=smq-chap-user
pass=OneWaySecret-1234
muser=lio-chap-target
mpass=MutualSecret-5678
base="dst=$ISER_IP:$ISER_PORT,target=$tiqn,initiator=$ini"
add=$SMQ_ISER_CTL/add_target
mark=$(dmesg_mark)

lio_chap_target "$tiqn" "$ini" 64 "$user" "$pass" || fail "cannot make the CHAP target"

chap_host() {
	for _ch in $(smq_iser_hosts); do
		[ "$(cat "/sys/class/smq_host/host$_ch/iser_target")" = "$tiqn" ] &&
			{ say "$_ch"; return 0; }
	done
	return 1
}

# refused ERRNO WHAT STRING [LINES]: add_target STRING fails with -ERRNO, no
# host for the CHAP target, and exactly LINES (1) new smq_iser log lines.
refused() {
	_rf_m=$(dmesg_mark)
	_rf_out=$(smq-helper write "$add" "$3") && fail "$2: add_target accepted"
	[ "$_rf_out" = "ret=-$1" ] || fail "$2: $_rf_out, not -$1"
	chap_host >/dev/null && fail "$2: a host was left"
	_rf_log=$(dmesg_since "$_rf_m" | grep -E '(^|\] )smq_iser: ')
	_rf_n=$(say "$_rf_log" | grep -c .)
	[ "$_rf_n" = "${4:-1}" ] || fail "$2: $_rf_n log lines, not ${4:-1}: $_rf_log"
	say "refused (-$1): $2: $_rf_log"
}

# Bad combinations: EINVAL before any login.
long=$(head -c 256 /dev/zero | tr '\0' x)
refused 22 "password without username" "$base,password=$pass"
refused 22 "username without password" "$base,username=$user"
refused 22 "mutual without one-way" "$base,username_in=$muser,password_in=$mpass"
refused 22 "username_in without password_in" "$base,username=$user,password=$pass,username_in=$muser"
refused 22 "a 256-byte password" "$base,username=$user,password=$long"
refused 22 "the same secret both ways" "$base,username=$user,password=$pass,username_in=$muser,password_in=$pass"
refused 22 "an empty password" "$base,username=$user,password="

# Authentication failures: EACCES, one line.
refused 13 "no CHAP against a CHAP target" "$base"
refused 13 "a wrong password" "$base,username=$user,password=$pass-wrong"
refused 13 "a wrong username" "$base,username=$user-x,password=$pass"

# One-way CHAP: logs in, fio write+verify.
before=$(list_disks)
out=$(smq-helper write "$add" "$base,username=$user,password=$pass") ||
	fail "one-way CHAP: add_target failed: $out"
h=$(chap_host) || fail "one-way CHAP: no host"
wait_for_new_disk "$before" 30 || fail "one-way CHAP: no disk on host$h"
say "one-way CHAP: host$h, $DEV"
# No secret under smq_iser's sysfs while a CHAP host is up.
if grep -rsl -e "$pass" -e "$mpass" /sys/class/smq_iser/ /sys/class/smq_host/host"$h"/ \
	/sys/module/smq_iser/ 2>/dev/null; then
	fail "a secret shows under /sys"
fi
FIO_VERIFY_SIZE=$((4 * 1048576)) DEV_SIZE_BYTES=$((64 * 1048576)) DEV_LBS=512
export FIO_VERIFY_SIZE DEV_SIZE_BYTES DEV_LBS
fio_write_verify "$DEV" || fail "one-way CHAP: fio verify failed on $DEV"
say "$h" >"$SMQ_ISER_CTL/remove_target" || fail "remove_target $h"
wait_until 30 sh -c "[ ! -e /sys/class/smq_host/host$h ]" || fail "host$h still there"

# Mutual CHAP.
lio_chap_auth "$tiqn" "$ini" "$user" "$pass" "$muser" "$mpass" || fail "cannot set mutual CHAP"
# lio_login_settle: after we dropped a login that LIO had accepted (our
# check of the target failed), LIO's login thread waits for that login's next
# PDU until its own login timeout (~15 s), refusing every other login.
lio_login_settle() { sleep 16; }
if long_case "mutual CHAP with a wrong password_in or username_in"; then
	refused 13 "mutual CHAP, a wrong password_in" \
		"$base,username=$user,password=$pass,username_in=$muser,password_in=$mpass-wrong"
	lio_login_settle
	refused 13 "mutual CHAP, a wrong username_in" \
		"$base,username=$user,password=$pass,username_in=$muser-x,password_in=$mpass"
	lio_login_settle
fi
# One-way CHAP against an ACL with mutual credentials: LIO asks nothing of
# the target's side unless the initiator asks (open-iscsi logs in too).
out=$(smq-helper write "$add" "$base,username=$user,password=$pass") ||
	fail "one-way CHAP against a mutual ACL: $out"
h=$(chap_host) || fail "one-way CHAP against a mutual ACL: no host"
say "$h" >"$SMQ_ISER_CTL/remove_target" || fail "remove_target $h"
wait_until 30 sh -c "[ ! -e /sys/class/smq_host/host$h ]" || fail "host$h still there"
before=$(list_disks)
out=$(smq-helper write "$add" "$base,username=$user,password=$pass,username_in=$muser,password_in=$mpass") ||
	fail "mutual CHAP: add_target failed: $out"
h=$(chap_host) || fail "mutual CHAP: no host"
wait_for_new_disk "$before" 30 || fail "mutual CHAP: no disk on host$h"
say "mutual CHAP: host$h, $DEV"
dd if="$DEV" of=/dev/null bs=1M count=8 iflag=direct 2>/dev/null || fail "mutual CHAP: $DEV does not read"
fio_verify_check "$DEV" || fail "mutual CHAP: the data of the one-way session does not verify"
say "$h" >"$SMQ_ISER_CTL/remove_target" || fail "remove_target $h"
wait_until 30 sh -c "[ ! -e /sys/class/smq_host/host$h ]" || fail "host$h still there"

# Last: LIO accepts our one-way response and moves on; we then drop the
# connection mid-login, and LIO's login thread waits for the next login PDU
# until its own login timeout (~15 s), refusing every other login meanwhile.
lio_chap_auth "$tiqn" "$ini" "$user" "$pass" || fail "cannot set one-way CHAP"
refused 13 "mutual CHAP, the target does only one-way" \
	"$base,username=$user,password=$pass,username_in=$muser,password_in=$mpass"

# No secret in the kernel log (LIO's own lines included).
if dmesg_since "$mark" | grep -e "$pass" -e "$mpass"; then
	fail "a secret shows in the kernel log"
fi
say "no secret in dmesg or smq_iser's sysfs"
exit 0
