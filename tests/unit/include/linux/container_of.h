/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/container_of.h> for tests/unit. */
#ifndef _UK_LINUX_CONTAINER_OF_H
#define _UK_LINUX_CONTAINER_OF_H

#include <linux/kernel.h>

#endif
