/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/bitmap.h> for tests/unit. */
#ifndef _UK_LINUX_BITMAP_H
#define _UK_LINUX_BITMAP_H

#include <string.h>
#include <linux/bitops.h>

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		w += hweight_long(src[i]);
	if (nbits % BITS_PER_LONG)
		w += hweight_long(src[i] & (BIT(nbits % BITS_PER_LONG) - 1));
	return w;
}

#endif
