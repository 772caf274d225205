/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/bitops.h> for tests/unit: atomic and
 * non-atomic bit operations on unsigned long words (ordering: see
 * <asm/barrier.h>), bit searches, and the find_*_bit() family the kernel
 * has in <linux/find.h>.
 */
#ifndef _UK_LINUX_BITOPS_H
#define _UK_LINUX_BITOPS_H

#include <stdbool.h>
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/minmax.h>
#include <linux/types.h>

static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST);
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline bool test_and_set_bit(unsigned long nr,
				    volatile unsigned long *addr)
{
	unsigned long m = BIT_MASK(nr);

	return uk_full(__atomic_fetch_or(&addr[BIT_WORD(nr)], m,
					 __ATOMIC_SEQ_CST)) & m;
}

static inline bool test_and_clear_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	unsigned long m = BIT_MASK(nr);

	return uk_full(__atomic_fetch_and(&addr[BIT_WORD(nr)], ~m,
					  __ATOMIC_SEQ_CST)) & m;
}

#define test_and_set_bit_lock(nr, addr)	test_and_set_bit(nr, addr)
#define clear_bit_unlock(nr, addr) \
	do { smp_mb(); clear_bit(nr, addr); } while (0)

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_ACQUIRE) >>
		(nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* __ffs/__fls: undefined for 0, like the kernel's. */
static inline unsigned long __ffs(unsigned long w)
{
	return __builtin_ctzl(w);
}

static inline unsigned long __fls(unsigned long w)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(w);
}

#define ffz(w)	__ffs(~(w))

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

#define hweight32(w)	((unsigned int)__builtin_popcount((u32)(w)))
#define hweight64(w)	((unsigned int)__builtin_popcountll((u64)(w)))

static inline unsigned long uk_find_bit(const unsigned long *addr,
					unsigned long size,
					unsigned long start, bool zero)
{
	while (start < size) {
		unsigned long w = addr[BIT_WORD(start)];

		if (zero)
			w = ~w;
		w &= ~0UL << (start % BITS_PER_LONG);
		if (w) {
			start = (start & ~(BITS_PER_LONG - 1UL)) + __ffs(w);
			return min(start, size);
		}
		start = (start | (BITS_PER_LONG - 1UL)) + 1;
	}
	return size;
}

#define find_next_bit(a, s, o)		uk_find_bit(a, s, o, false)
#define find_next_zero_bit(a, s, o)	uk_find_bit(a, s, o, true)
#define find_first_bit(a, s)		uk_find_bit(a, s, 0, false)
#define find_first_zero_bit(a, s)	uk_find_bit(a, s, 0, true)
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit(addr, size); (bit) < (size);	\
	     (bit) = find_next_bit(addr, size, (bit) + 1))

#endif
