/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/bug.h> for tests/unit.  A warning is an API
 * misuse: the unit tests treat WARN_ON() like BUG_ON(), as fatal.
 */
#ifndef _UK_LINUX_BUG_H
#define _UK_LINUX_BUG_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/compiler.h>

#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#define BUG_ON(c) \
	do { if (unlikely(c)) { uk_bug(__FILE__, __LINE__, #c); } } while (0)
#define WARN_ON(c) \
	({ bool __c = !!(c); if (unlikely(__c)) uk_bug(__FILE__, __LINE__, #c); __c; })
#define WARN_ON_ONCE(c)	WARN_ON(c)

static inline void uk_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "uk: %s:%d: WARN/BUG: %s\n", file, line, what);
	abort();
}

#endif
