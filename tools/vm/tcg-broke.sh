#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tcg-broke.sh CONSOLE: exit 0 and print why when the guest console CONSOLE
# shows that the emulated CPU, not the guest, went wrong (QEMU TCG); exit 1
# otherwise. Used by run-suite.sh and the bench to boot such a guest again.
# The signatures, all seen here at random points:
# - a register dump whose EFLAGS has reserved bits (22-31) set, which no
#   x86 instruction can load (IRET and POPF mask them; seen in CI: the low
#   half of a kernel pointer in EFLAGS, TF among its bits; in the bench: a
#   double fault in kmem_cache_alloc with EFLAGS 89ea17c2);
# - a #DB / int3 trap in kernel code with no debugger;
# - an Oops on an int3 the kernel's text-patching handler did not claim: a
#   vCPU still ran the breakpoint byte after the patch completed (seen in
#   CI at 6 s, in sched_clock_cpu, while a kworker flipped the sched-clock
#   static key, before any smq I/O).
set -uo pipefail

console=${1:?usage: tcg-broke.sh CONSOLE}
while read -r v; do
	if (((16#$v & 16#ffc00000) != 0)); then
		echo "EFLAGS $v has reserved bits set"
		exit 0
	fi
done < <(grep -oE 'EFLAGS: [0-9a-f]{1,16}' "$console" 2>/dev/null | cut -d' ' -f2)
if grep -Eq 'WARNING: .* at arch/x86/kernel/traps\.c:[0-9]+ (exc_debug_kernel|do_int3|exc_int3)' \
	"$console" 2>/dev/null; then
	echo "debug trap in kernel code"
	exit 0
fi
if grep -Eq 'Oops: int3: ' "$console" 2>/dev/null; then
	echo "stale int3 of a finished text patch"
	exit 0
fi
exit 1
