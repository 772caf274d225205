#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: sched-modules
# timeout: 120
#
# The schedulers beyond none (mq) and noop (legacy) are modules loaded on
# first selection (block/smq_sched.h): smq-mq-deadline.ko for mq-deadline,
# smq-deadline-iosched.ko for the legacy deadline.  On the disk's path:
# the module is not loaded after boot and the scheduler file does not list
# its scheduler; selecting it through smq/scheduler loads it (request_module
# "smq-<name>-iosched", modprobe) and the queue holds a reference on it;
# rmmod fails while it is selected and succeeds once the queue is back on
# none / noop; a second selection loads it again.  Unknown names, and the
# other path's scheduler, are refused with EINVAL.  Run it on a line
# without SCHED= (the target must not have selected the scheduler).

. "$SMQ_GUEST_DIR/lib/common.sh"
need_dev

q=/sys/block/${DEV##*/}
sf=$q/smq/scheduler
[ -w "$sf" ] || skip "$DEV is not an smq disk"
case $(cat "$q/smq/queue_mode") in
mq)	name=mq-deadline builtin=none mod=smq_mq_deadline other=deadline ;;
*)	name=deadline builtin=noop mod=smq_deadline_iosched other=mq-deadline ;;
esac
say "$DEV: $(cat "$sf") ($name from $mod)"

selected() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$sf"; }
# listed NAME: the scheduler file names NAME (selected or not).
listed() { tr -d '[]' <"$sf" | tr ' ' '\n' | grep -qx "$1"; }
refcnt() { cat "/sys/module/$mod/refcnt"; }
loaded() { [ -d "/sys/module/$mod" ]; }
# choose NAME: write NAME to the scheduler file; it must be selected then.
choose() {
	say "$1" >"$sf" || fail "selecting $1 failed"
	[ "$(selected)" = "$1" ] || fail "$sf reads '$(cat "$sf")' after selecting $1"
}
# refused_einval NAME: writing NAME fails with EINVAL, the selection stays.
refused_einval() {
	_re_old=$(selected)
	_re_out=$(smq-helper write "$sf" "$1") && fail "$sf accepted '$1'"
	[ "$_re_out" = "ret=-22" ] ||
		fail "writing '$1' to $sf: $_re_out, not EINVAL (-22)"
	[ "$(selected)" = "$_re_old" ] || fail "$sf reads '$(cat "$sf")' after refusing '$1'"
	say "refused with EINVAL: $1"
}
io() { dd if="$DEV" of=/dev/null bs=4096 count=256 2>/dev/null || fail "read of $DEV failed with $(selected)"; }

[ "$(selected)" = "$builtin" ] || skip "$DEV runs $(selected), not $builtin (a line with SCHED=?)"
! loaded || fail "$mod is loaded before anything selected $name"
! listed "$name" || fail "$sf lists $name before its module is loaded: $(cat "$sf")"

choose "$name"
loaded || fail "selecting $name did not load $mod"
lsmod | grep "^$mod " || true
[ "$(refcnt)" = 1 ] || fail "$mod refcnt $(refcnt) with one queue running $name, not 1"
io
if rmmod "$mod" 2>/dev/null; then
	fail "rmmod $mod succeeded while $DEV runs $name"
fi
loaded || fail "$mod is gone while $DEV runs $name"
[ "$(selected)" = "$name" ] || fail "$sf reads '$(cat "$sf")' after the refused rmmod"
io
say "rmmod $mod refused while selected (refcnt $(refcnt))"

choose "$builtin"
[ "$(refcnt)" = 0 ] || fail "$mod refcnt $(refcnt) after switching to $builtin, not 0"
listed "$name" || fail "$sf does not list the loaded $name: $(cat "$sf")"
rmmod "$mod" || fail "rmmod $mod failed after switching to $builtin"
! loaded || fail "$mod still loaded after rmmod"
! listed "$name" || fail "$sf lists $name after its module was removed: $(cat "$sf")"
io
say "rmmod $mod succeeded on $builtin"

# Selected again: loaded again.
choose "$name"
loaded || fail "selecting $name again did not load $mod"
io
choose "$builtin"

refused_einval bogus-sched
refused_einval "$other"
[ "$(selected)" = "$builtin" ] || fail "$sf reads '$(cat "$sf")' at the end"
exit 0
