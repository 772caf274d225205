/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/compiler.h> for tests/unit: attributes, and
 * READ_ONCE()/WRITE_ONCE() (the kernel has them in <asm/rwonce.h>, which
 * <linux/compiler.h> includes).  Their memory ordering is explained in
 * <asm/barrier.h>.
 */
#ifndef _UK_LINUX_COMPILER_H
#define _UK_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __maybe_unused	__attribute__((__unused__))
#define __must_check	__attribute__((__warn_unused_result__))
#define fallthrough	__attribute__((__fallthrough__))
#define __percpu

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define data_race(expr)		(expr)

#endif
