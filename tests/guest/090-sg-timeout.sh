#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sg-timeout
# timeout: 60
#
# SG_SET_TIMEOUT sets the default timeout of every opener's SG_IO, so smq
# takes it only from an opener that may write: read-only gets EPERM and the
# value stays; read-write sets it (SG_GET_TIMEOUT reads it back); a negative
# value or one beyond an hour is EINVAL.  Linux's sd lets any opener set it,
# so the test is skipped on the kernel's own disks.

. "$SMQ_GUEST_DIR/lib/common.sh"
need_cmd smq-helper
need_scsi
[ -d /sys/module/smq_scsi ] || skip "not an smq disk (Linux's sd lets read-only openers set it)"

out=$(smq-helper sgtimeout "$DEV" ro 30) && fail "read-only opener set the SG timeout: $out"
say "read-only: $out"
say "$out" | grep -q 'set=-1 ' || fail "read-only: not EPERM: $out"
out=$(smq-helper sgtimeout "$DEV" rw 45) || fail "read-write opener could not set it: $out"
say "read-write: $out"
hz=$(say "$out" | sed -n 's/.*after=\([0-9]*\).*/\1/p')
[ "$hz" -gt 0 ] || fail "no value read back"
out=$(smq-helper sgtimeout "$DEV" rw 45)
say "$out" | grep -q "get=$hz " || fail "SG_GET_TIMEOUT does not return what was set: $out"
out=$(smq-helper sgtimeout "$DEV" rw -1) && fail "negative timeout accepted: $out"
say "$out" | grep -q 'set=-22 ' || fail "negative timeout: not EINVAL: $out"
out=$(smq-helper sgtimeout "$DEV" rw 7200) && fail "2 h timeout accepted: $out"
say "$out" | grep -q 'set=-22 ' || fail "2 h timeout: not EINVAL: $out"
exit 0
