/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/string.h> for tests/unit. */
#ifndef _UK_LINUX_STRING_H
#define _UK_LINUX_STRING_H

#include <string.h>

#endif
