/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/version.h> for tests/unit: a 6.12 kernel. */
#ifndef _UK_LINUX_VERSION_H
#define _UK_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE	KERNEL_VERSION(6, 12, 0)

#endif
