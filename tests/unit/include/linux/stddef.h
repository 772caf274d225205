/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/stddef.h> for tests/unit: offsetof(), NULL. */
#ifndef _UK_LINUX_STDDEF_H
#define _UK_LINUX_STDDEF_H

#include <stddef.h>

#endif
