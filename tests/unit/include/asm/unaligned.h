/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <asm/unaligned.h> (before 6.12) for tests/unit. */
#include <linux/unaligned.h>
