/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/export.h> for tests/unit. */
#ifndef _UK_LINUX_EXPORT_H
#define _UK_LINUX_EXPORT_H

/*
 * Exports mean nothing outside the kernel; redeclaring the symbol keeps the
 * macro a declaration (no stray ';' at file scope) and checks that it exists.
 */
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym

#endif
