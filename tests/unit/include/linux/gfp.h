/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/gfp.h> for tests/unit: flags are ignored. */
#ifndef _UK_LINUX_GFP_H
#define _UK_LINUX_GFP_H

#include <linux/types.h>

#define GFP_KERNEL	0U
#define GFP_NOIO	0U
#define GFP_NOFS	0U
#define GFP_ATOMIC	0U
#define __GFP_ZERO	0U

#endif
