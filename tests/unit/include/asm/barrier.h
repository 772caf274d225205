/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <asm/barrier.h> for tests/unit, and the memory
 * ordering of every shim, built on the compiler's __atomic builtins (the
 * C11 memory model).  It is not "everything sequentially consistent".
 * Each operation is at least as ordered as the kernel's counterpart
 * (Documentation/memory-barriers.txt, Documentation/atomic_t.txt):
 *
 * - READ_ONCE(), atomic_read(), atomic_long_read(), test_bit(): acquire
 *   loads.  The kernel's are unordered but keep address, data and control
 *   dependencies (LKMM) to later accesses; a C11 relaxed load does not
 *   promise that, an acquire load orders everything after it.
 * - WRITE_ONCE(), atomic_set(), atomic_long_set(): relaxed atomic stores;
 *   the kernel's are unordered too (single-copy atomic, not torn).
 * - Atomic RMW operations that return nothing (atomic_add/inc/dec/or/
 *   andnot, set_bit(), clear_bit()): seq_cst RMWs.  The kernel's are
 *   unordered.
 * - Value-returning RMW operations (xchg(), cmpxchg(), try_cmpxchg(),
 *   atomic_*_return(), atomic_*xchg(), test_and_set_bit() and
 *   test_and_clear_bit()): the kernel's are fully ordered, as if smp_mb()
 *   ran before and after; here a seq_cst fence, the seq_cst RMW, and a
 *   seq_cst fence.  A seq_cst RMW alone would be weaker: in C11 it is an
 *   acquire-release operation in the total order of seq_cst operations,
 *   and does not keep a relaxed store before it from being reordered with
 *   a relaxed load after it (the store-buffer pattern), which smp_mb()
 *   and a fully ordered RMW forbid.  A failed cmpxchg, unordered in the
 *   kernel, is fenced as well.
 * - test_and_set_bit_lock() (acquire in the kernel) is the fully ordered
 *   test_and_set_bit(); clear_bit_unlock() (release) is a seq_cst fence
 *   and a seq_cst clear_bit().
 * - smp_mb(), smp_rmb(), smp_wmb(), smp_mb__before_atomic(),
 *   smp_mb__after_atomic(): seq_cst fences, which order all earlier
 *   loads and stores against all later ones, store->load included (C11
 *   forbids the store-buffer outcome between seq_cst fences); the kernel's
 *   smp_mb() gives exactly that, the others less.
 * - smp_load_acquire(), smp_store_release(): acquire loads and release
 *   stores, as in the kernel.
 * - Spinlocks are pthread mutexes: lock acquires, unlock releases, like
 *   spin_lock() and spin_unlock().  set_current_state() is a seq_cst store
 *   and smp_mb(); waking a task runs smp_mb() before it reads the task's
 *   state, like try_to_wake_up().
 *
 * Plain C accesses stay plain: a data race the kernel code has on a plain
 * access is a data race here too (ThreadSanitizer, `make -C tests/unit
 * tsan`, reports it).
 */
#ifndef _UK_ASM_BARRIER_H
#define _UK_ASM_BARRIER_H

#include <linux/compiler.h>

#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		smp_mb()
#define smp_wmb()		smp_mb()
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

#endif
