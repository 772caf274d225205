/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/cache.h> for tests/unit. */
#ifndef _UK_LINUX_CACHE_H
#define _UK_LINUX_CACHE_H

#define SMP_CACHE_BYTES	64
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))

#endif
