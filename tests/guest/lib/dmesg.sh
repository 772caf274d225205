# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The dmesg gate: a test fails if the kernel reported a problem while it or
# its target ran. The runner writes a unique mark into the kernel log before
# the target comes up and checks every line after it when the target is down.

# Kernel messages that fail a test (extended regular expressions).
# On the debug kernel also KASAN, lockdep (its reports start "WARNING:" or
# "BUG:", plus the INFO/DEBUG_LOCKS lines below) and debug objects. Leaks are
# judged from kmemleak's own report (kmemleak_report below), not from its
# "N new suspected memory leaks" line, which cannot tell whose leak it is.
DMESG_BAD='WARNING:|BUG:|kernel BUG|Oops|general protection fault|soft lockup|hung task|blocked for more than|RCU stall|rcu_sched self-detected|rcu_preempt self-detected|detected stalls on CPU|Kernel panic|UBSAN:|KFENCE:|KASAN:|list_add corruption|list_del corruption|ODEBUG:|DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key'

# The subset after which the kernel cannot be trusted to run further tests
# (a CPU or task is stuck, memory may be corrupt): the runner stops there.
# shellcheck disable=SC2034 # used by run-tests.sh
DMESG_FATAL='BUG:|kernel BUG|Oops|general protection fault|soft lockup|hung task|blocked for more than|RCU stall|self-detected|detected stalls on CPU|Kernel panic'

# dmesg_mark: write a fresh mark into the kernel log and print it.
dmesg_mark() {
	_dm_mark="smq-mark-$(date +%s)-$$-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
	echo "$_dm_mark" >/dev/kmsg
	say "$_dm_mark"
}

# dmesg_since MARK is lib/common.sh's.

# Warnings that are the kernel's own bugs on the guest's iSER wire, not
# smq's (extended regex, matched against the WARNING line; nothing else):
#   ib_cq_pool_cleanup: drivers/infiniband/core/cq.c warns when an RDMA
#     device (the guest's rxe) is deleted while a ULP still holds a CQ of
#     the device's shared CQ pool. Only the kernel's ULPs take pool CQs
#     (ib_cq_pool_get) here: LIO's ib_isert, whose DEVICE_REMOVAL handler
#     lets the rdma_cm id go before its release work has put the CQ back
#     (met in 151 when the link is deleted as a relogin is being answered),
#     and the kernel's ib_iser. smq_iser allocates its own CQ (ib_alloc_cq),
#     which is never on a pool list, so this warning cannot be smq's.
DMESG_KERNEL_BUGS='WARNING: .* at drivers/infiniband/core/cq\.c:[0-9]+ ib_cq_pool_cleanup\+'

# dmesg_bad FILE: print the lines of FILE that fail the gate (those of
# DMESG_KERNEL_BUGS excepted); true if any.
dmesg_bad() {
	grep -E "$DMESG_BAD" "$1" | grep -vE "$DMESG_KERNEL_BUGS"
}

KMEMLEAK=/sys/kernel/debug/kmemleak

# Leaks in the kernel's own error paths, which failing an allocation under
# smq's calls provokes and smq cannot avoid: a report with a backtrace frame
# matching this (extended) regex is the kernel's, and is not held against smq.
#   sysfs_slab_add: mm/slub.c (6.12) does not put the kobject when
#     kobject_init_and_add() fails, so the name it set leaks (hit through
#     __alloc_disk_node -> bioset_init -> kmem_cache_create in 087-failslab).
KMEMLEAK_KERNEL_BUGS='[[:space:]]sysfs_slab_add\+'

# kmemleak_filter FILE: the reports of FILE (kmemleak's format) that no
# KMEMLEAK_KERNEL_BUGS frame explains.
kmemleak_filter() {
	awk -v known="$KMEMLEAK_KERNEL_BUGS" '
		function flush() { if (rec != "" && !kernel) printf "%s", rec }
		/^unreferenced object/ { flush(); rec = ""; kernel = 0 }
		{ rec = rec $0 "\n" }
		$0 ~ known { kernel = 1 }
		END { flush() }' "$1"
}

# kmemleak_clear: forget what kmemleak suspects so far (boot-time objects);
# no-op without kmemleak.
kmemleak_clear() {
	[ -w "$KMEMLEAK" ] && echo clear >"$KMEMLEAK"
	return 0
}

# kmemleak_report: scan now and print every suspected leak that is not one
# of KMEMLEAK_KERNEL_BUGS; true if any. An object counts once it is older
# than kmemleak's 5 s minimum age, hence the wait. No-op (false) without
# kmemleak.
kmemleak_report() {
	[ -w "$KMEMLEAK" ] || return 1
	sleep 6
	echo scan >"$KMEMLEAK" 2>/dev/null || return 1
	echo scan >"$KMEMLEAK" 2>/dev/null
	_kr=$(mktemp /tmp/smq-kmemleak.XXXXXX)
	cat "$KMEMLEAK" >"$_kr"
	kmemleak_filter "$_kr" >"$_kr.left"
	rm -f "$_kr"
	if [ -s "$_kr.left" ]; then
		cat "$_kr.left"
		rm -f "$_kr.left"
		return 0
	fi
	rm -f "$_kr.left"
	return 1
}
