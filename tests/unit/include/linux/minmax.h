/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/minmax.h> for tests/unit.  Unlike the kernel's,
 * these evaluate their arguments more than once and do no type checks: the
 * kernel build does those.
 */
#ifndef _UK_LINUX_MINMAX_H
#define _UK_LINUX_MINMAX_H

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min3(a, b, c)	min(min(a, b), c)
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), v, lo, hi)
#define swap(a, b) \
	do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

#endif
