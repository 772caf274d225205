/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/kernel.h> for tests/unit: what the kernel's
 * brings in that the pure-logic files use (container_of() comes from
 * <linux/container_of.h> there, ARRAY_SIZE() from <linux/array_size.h>,
 * both included by it).
 */
#ifndef _UK_LINUX_KERNEL_H
#define _UK_LINUX_KERNEL_H

#include <linux/array_size.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define round_up(x, y)	((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)

#endif
