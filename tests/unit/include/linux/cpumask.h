/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/cpumask.h> for tests/unit: UK_NR_CPUS possible
 * CPUs; each thread is one of them (uk_cpu(), handed out round robin).
 */
#ifndef _UK_LINUX_CPUMASK_H
#define _UK_LINUX_CPUMASK_H

#define UK_NR_CPUS	64
#define nr_cpu_ids	((unsigned int)UK_NR_CPUS)
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)

int uk_cpu(void);

#endif
