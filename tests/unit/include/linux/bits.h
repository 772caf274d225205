/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/bits.h> for tests/unit. */
#ifndef _UK_LINUX_BITS_H
#define _UK_LINUX_BITS_H

#define BITS_PER_LONG	(__SIZEOF_LONG__ * 8)
#define BITS_PER_BYTE	8
#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))
#define BIT_WORD(nr)	((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)	(1UL << ((nr) % BITS_PER_LONG))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

#endif
