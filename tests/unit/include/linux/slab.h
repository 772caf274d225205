/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/slab.h> for tests/unit: every allocation is
 * zeroed (a test never depends on garbage) and cache-line aligned, so
 * ____cacheline_aligned_in_smp members are honest; gfp flags and nodes are
 * ignored.
 */
#ifndef _UK_LINUX_SLAB_H
#define _UK_LINUX_SLAB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/cache.h>
#include <linux/gfp.h>
#include <linux/numa.h>

static inline void *uk_zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	if (posix_memalign(&p, SMP_CACHE_BYTES, bytes ? bytes : 1))
		return NULL;
	memset(p, 0, bytes);
	return p;
}

#define kmalloc(s, g)		((void)(g), uk_zalloc(1, s))
#define kzalloc(s, g)		((void)(g), uk_zalloc(1, s))
#define kzalloc_node(s, g, nd)	((void)(g), (void)(nd), uk_zalloc(1, s))
#define kcalloc(n, s, g)	((void)(g), uk_zalloc(n, s))
#define kmalloc_array(n, s, g)	((void)(g), uk_zalloc(n, s))
#define kcalloc_node(n, s, g, nd) \
	((void)(g), (void)(nd), uk_zalloc(n, s))
#define kvzalloc_node(s, g, nd)	((void)(g), (void)(nd), uk_zalloc(1, s))
#define kfree(p)			free((void *)(p))
#define kvfree(p)			free((void *)(p))

#endif
