/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/sort.h> for tests/unit.  libc's qsort() is not
 * stable either; the kernel's sort() is a heapsort, so callers must not
 * depend on the order of equal elements in either.
 */
#ifndef _UK_LINUX_SORT_H
#define _UK_LINUX_SORT_H

#include <stddef.h>
#include <stdlib.h>

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap_fn)(void *, void *, int))
{
	(void)swap_fn;
	if (num)
		qsort(base, num, size, cmp);
}

#endif
