/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/limits.h> for tests/unit.  libc's <limits.h>
 * includes the uapi <linux/limits.h> itself, so that comes first.
 */
#ifndef _UK_LINUX_LIMITS_H
#define _UK_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <limits.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#endif
