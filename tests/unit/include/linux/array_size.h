/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/array_size.h> for tests/unit. */
#ifndef _UK_LINUX_ARRAY_SIZE_H
#define _UK_LINUX_ARRAY_SIZE_H

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif
