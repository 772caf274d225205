// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: CPU -> hardware queue maps for tag sets, from the running
 * system's topology (the mapping rules live in smq_cpumap.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <smq/cpumap.h>
#include "smq_blk_int.h"

/**
 * smq_topology_alloc - describe the possible CPUs of this system
 *
 * Return: a topology for the smq_cpumap_*() functions, or NULL; free it
 * with smq_topology_free().
 */
struct smq_cpu_topology *smq_topology_alloc(void)
{
	struct smq_cpu_topology *topo;
	unsigned int *core, *pkg;
	unsigned int cpu;

	topo = kzalloc(sizeof(*topo), GFP_KERNEL);
	core = kcalloc(nr_cpu_ids, sizeof(*core), GFP_KERNEL);
	pkg = kcalloc(nr_cpu_ids, sizeof(*pkg), GFP_KERNEL);
	if (!topo || !core || !pkg) {
		kfree(topo);
		kfree(core);
		kfree(pkg);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		core[cpu] = topology_core_id(cpu);
		pkg[cpu] = topology_physical_package_id(cpu);
	}
	topo->nr_ids = nr_cpu_ids;
	topo->possible = cpumask_bits(cpu_possible_mask);
	topo->core_id = core;
	topo->pkg_id = pkg;
	return topo;
}
EXPORT_SYMBOL_GPL(smq_topology_alloc);

/**
 * smq_topology_free - free what smq_topology_alloc() returned
 * @topo: topology or NULL
 */
void smq_topology_free(struct smq_cpu_topology *topo)
{
	if (!topo)
		return;
	kfree(topo->core_id);
	kfree(topo->pkg_id);
	kfree(topo);
}
EXPORT_SYMBOL_GPL(smq_topology_free);

/**
 * smq_map_queues_spread - spread CPUs evenly over a set's hardware queues
 * @set: tag set with set->map allocated
 *
 * SMT siblings stay on one queue; queues do not straddle packages where
 * that keeps them balanced.
 *
 * Return: 0 or a negative errno.
 */
int smq_map_queues_spread(struct smq_tag_set *set)
{
	struct smq_cpu_topology *topo = smq_topology_alloc();
	int ret;

	if (!topo)
		return -ENOMEM;
	ret = smq_cpumap_spread(topo, set->nr_hw_queues, set->map);
	smq_topology_free(topo);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_GPL(smq_map_queues_spread);

/**
 * smq_map_queues_affinity - map CPUs by the driver's reply-queue affinity
 * @set: tag set with set->map allocated
 * @masks: nr_hw_queues CPU masks, e.g. of the queues' interrupt vectors
 *
 * CPUs in no mask are spread evenly.
 *
 * Return: 0 or a negative errno.
 */
int smq_map_queues_affinity(struct smq_tag_set *set,
			    const struct cpumask *const *masks)
{
	struct smq_cpu_topology *topo = smq_topology_alloc();
	const unsigned long **bits;
	unsigned int i;
	int ret = -ENOMEM;

	bits = kcalloc(set->nr_hw_queues, sizeof(*bits), GFP_KERNEL);
	if (topo && bits) {
		for (i = 0; i < set->nr_hw_queues; i++)
			bits[i] = cpumask_bits(masks[i]);
		ret = smq_cpumap_from_affinity(topo, set->nr_hw_queues,
					       (const unsigned long *const *)bits,
					       set->map);
	}
	kfree(bits);
	smq_topology_free(topo);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_GPL(smq_map_queues_affinity);

/**
 * smq_map_queues_default - the map of a set whose driver has no opinion
 * @set: tag set
 *
 * Return: 0 or a negative errno (see smq_map_queues_spread()).
 */
int smq_map_queues_default(struct smq_tag_set *set)
{
	return smq_map_queues_spread(set);
}
