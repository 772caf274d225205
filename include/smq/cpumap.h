/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq CPU -> hardware queue mapping.
 *
 * Pure function of a CPU topology description: the kernel caller fills
 * struct smq_cpu_topology from cpu_possible_mask, topology_core_id() and
 * topology_physical_package_id() (or cpu_to_node()); tests build
 * arbitrary shapes.
 *
 * Rules (smq_cpumap_spread()):
 *  - CPUs that are not possible map to queue 0.
 *  - nr_queues >= possible CPUs: possible CPU number k (in id order)
 *    gets queue k; the remaining queues stay unmapped.
 *  - Otherwise CPUs are spread evenly: SMT siblings (same package and
 *    core id) form a group, and groups are never split while there are
 *    at least as many groups as queues; queue sizes then differ by at
 *    most the largest group.  When there are more queues than groups,
 *    the fewest groups needed are split so that every queue is used.
 *  - Each queue takes a contiguous run of groups sorted by (package,
 *    core, CPU id).  Queues are first divided among packages in
 *    proportion to their CPU counts, so no queue straddles two packages;
 *    if that is not balanced as above, the packages are spread as a
 *    whole; if groups are so irregular (holes, hybrid cores) that no
 *    contiguous cut is balanced, each group goes to the least loaded
 *    queue instead.
 */
#ifndef _SMQ_CPUMAP_H
#define _SMQ_CPUMAP_H

#include <linux/cpumask.h>
#include <linux/types.h>

/**
 * struct smq_cpu_topology - input of the CPU map
 * @nr_ids: number of CPU ids (nr_cpu_ids in the kernel): bits in
 *	@possible, entries in the arrays and in the output map.
 * @possible: bitmap of the possible CPUs (holes allowed).
 * @core_id: per-CPU core id; CPUs with the same package and core id are
 *	SMT siblings.  NULL: no SMT (every CPU its own core).
 * @pkg_id: per-CPU package or NUMA node id.  NULL: a single package.
 */
struct smq_cpu_topology {
	unsigned int nr_ids;
	const unsigned long *possible;
	const unsigned int *core_id;
	const unsigned int *pkg_id;
};

int smq_cpumap_spread(const struct smq_cpu_topology *topo,
		      unsigned int nr_queues, unsigned int *map);
int smq_cpumap_from_affinity(const struct smq_cpu_topology *topo,
			     unsigned int nr_queues,
			     const unsigned long *const *masks,
			     unsigned int *map);
int smq_cpumap_spread_masks(const struct smq_cpu_topology *topo,
			    unsigned int nr_queues, unsigned long **masks);

#endif /* _SMQ_CPUMAP_H */
