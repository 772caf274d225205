/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/errno.h> for tests/unit: the uapi header of the
 * same name (which libc's <errno.h> includes too) has the kernel's values.
 */
#ifndef _UK_LINUX_ERRNO_H
#define _UK_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
