#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# name: smq-modules
# timeout: 120
#
# Every smq module built for this kernel (shipped under updates/smq) loads
# with default parameters and unloads again, without kernel complaints.
# Skipped when none was built.

. "$SMQ_GUEST_DIR/lib/common.sh"

dir=/lib/modules/$(uname -r)/updates/smq
# Module names as /sys/module has them (smq-mq-deadline.ko is smq_mq_deadline).
mods=$(find "$dir" -name '*.ko' 2>/dev/null | sed 's|.*/||; s|\.ko$||' | tr - _ | sort)
[ -n "$mods" ] || skip "no smq modules built for $(uname -r)"

loaded=
for m in $mods; do
	modprobe "$m" || fail "modprobe $m failed"
	say "loaded $m"
	loaded="$m $loaded"
done
lsmod
# Unload users before what they use: each pass removes the modules nothing
# holds any more.
for _ in 1 2 3 4; do
	for m in $loaded; do
		[ -d "/sys/module/$m" ] || continue
		[ "$(cat "/sys/module/$m/refcnt" 2>/dev/null || echo 0)" = 0 ] || continue
		unload_modules "$m" || fail "cannot unload $m"
		say "unloaded $m"
	done
done
for m in $loaded; do
	[ ! -d "/sys/module/$m" ] || fail "$m still loaded (refcnt $(cat "/sys/module/$m/refcnt"))"
done
