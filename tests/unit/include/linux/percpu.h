/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of <linux/percpu.h> for tests/unit: one slot per CPU. */
#ifndef _UK_LINUX_PERCPU_H
#define _UK_LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/slab.h>

#define alloc_percpu_gfp(type, gfp) \
	((void)(gfp), (type *)uk_zalloc(UK_NR_CPUS, sizeof(type)))
#define alloc_percpu(type)	alloc_percpu_gfp(type, GFP_KERNEL)
#define free_percpu(p)		free(p)
#define per_cpu_ptr(p, cpu)	(&(p)[(cpu)])
#define raw_cpu_ptr(p)		(&(p)[uk_cpu()])
#define this_cpu_ptr(p)		raw_cpu_ptr(p)

#endif
