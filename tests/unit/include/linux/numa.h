/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/numa.h> for tests/unit. */
#ifndef _UK_LINUX_NUMA_H
#define _UK_LINUX_NUMA_H

#define NUMA_NO_NODE	(-1)

#endif
