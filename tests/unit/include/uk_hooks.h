/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test hooks of the production code, force-included (-include) into every
 * unit-test compilation.  The production headers define each hook as a
 * no-op unless it is already defined:
 *
 * smq_race_window() (include/smq/sbitmap.h) marks a race window in
 * block/smq_sbitmap.c.  Here, when a test sets uk_race_windows, every
 * marked window yields the CPU now and then, so rare interleavings happen.
 */
#ifndef _UK_HOOKS_H
#define _UK_HOOKS_H

extern int uk_race_windows;
void uk_race_yield(void);
#define smq_race_window()						\
	do {								\
		if (__builtin_expect(__atomic_load_n(&uk_race_windows,	\
						     __ATOMIC_RELAXED), 0)) \
			uk_race_yield();				\
	} while (0)

#endif
