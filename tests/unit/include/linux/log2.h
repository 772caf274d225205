/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/log2.h> for tests/unit. */
#ifndef _UK_LINUX_LOG2_H
#define _UK_LINUX_LOG2_H

#include <linux/bitops.h>

#define ilog2(n)	((int)(sizeof(n) <= 4 ? fls((u32)(n)) - 1 : fls64(n) - 1))
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))

#endif
