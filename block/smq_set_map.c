// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: CPU -> hardware queue maps for tag sets, from the running
 * system's topology (the mapping rules live in smq_cpumap.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/string.h>
#include <linux/sysfs.h>
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
 * that keeps them balanced.  Only the interrupt-driven queues
 * (smq_set_nr_irq_queues()): the poll queues have their own map.
 *
 * Return: 0 or a negative errno.
 */
int smq_map_queues_spread(struct smq_tag_set *set)
{
	struct smq_cpu_topology *topo = smq_topology_alloc();
	int ret;

	if (!topo)
		return -ENOMEM;
	ret = smq_cpumap_spread(topo, smq_set_nr_irq_queues(set), set->map);
	smq_topology_free(topo);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_GPL(smq_map_queues_spread);

/**
 * smq_map_poll_queues - spread every possible CPU over a set's poll queues
 * @set: tag set with set->nr_poll_queues > 0, at init
 *
 * Allocates set->poll_map: CPU -> poll queue, the indexes following the
 * interrupt-driven queues, spread as smq_map_queues_spread() does.
 *
 * Return: 0 or -ENOMEM.
 */
int smq_map_poll_queues(struct smq_tag_set *set)
{
	unsigned int first = smq_set_nr_irq_queues(set);
	struct smq_cpu_topology *topo;
	unsigned int cpu;
	int ret = -ENOMEM;

	set->poll_map = kcalloc(nr_cpu_ids, sizeof(*set->poll_map),
				GFP_KERNEL);
	topo = smq_topology_alloc();
	if (set->poll_map && topo)
		ret = smq_cpumap_spread(topo, set->nr_poll_queues,
					set->poll_map);
	smq_topology_free(topo);
	if (ret < 0)
		return ret;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		set->poll_map[cpu] += first;
	return 0;
}

/**
 * smq_map_queues_affinity - map CPUs by the driver's reply-queue affinity
 * @set: tag set with set->map allocated
 * @masks: a CPU mask per interrupt-driven hardware queue
 *	(smq_set_nr_irq_queues()), e.g. of the queues' interrupt vectors
 *
 * CPUs in no mask are spread evenly.
 *
 * Return: 0 or a negative errno.
 */
int smq_map_queues_affinity(struct smq_tag_set *set,
			    const struct cpumask *const *masks)
{
	unsigned int nr = smq_set_nr_irq_queues(set);
	struct smq_cpu_topology *topo = smq_topology_alloc();
	const unsigned long **bits;
	unsigned int i;
	int ret = -ENOMEM;

	bits = kcalloc(nr, sizeof(*bits), GFP_KERNEL);
	if (topo && bits) {
		for (i = 0; i < nr; i++)
			bits[i] = cpumask_bits(masks[i]);
		ret = smq_cpumap_from_affinity(topo, nr,
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

/**
 * smq_map_check - whether a CPU map names only existing hardware queues
 * @set: tag set (for the message)
 * @nr: hardware queues
 * @map: nr_cpu_ids entries, CPU -> queue
 *
 * Return: 0, or -EINVAL with a message naming the first bad entry.
 */
int smq_map_check(const struct smq_tag_set *set, unsigned int nr,
		  const unsigned int *map)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (map[cpu] >= nr) {
			pr_err("CPU %u mapped to queue %u of %u\n", cpu,
			       map[cpu], nr);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * smq_tag_set_map_show - print a set's CPU map, one line per queue
 * @set: multiqueue tag set; the caller keeps smq_tag_set_update() away
 * @buf: a sysfs page
 *
 * Each line is "Q: cpu-list" (the CPU list as in cpulist_parse(), empty
 * for a queue no CPU maps to), queues in order; the lines of poll queues
 * (the last set->nr_poll_queues) give their CPUs from set->poll_map.
 *
 * Return: the bytes written, or -ENOMEM.
 */
ssize_t smq_tag_set_map_show(struct smq_tag_set *set, char *buf)
{
	cpumask_var_t mask;
	unsigned int cpu, i;
	ssize_t len = 0;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; i < set->nr_hw_queues; i++) {
		const unsigned int *map = i < smq_set_nr_irq_queues(set) ?
					  set->map : set->poll_map;

		cpumask_clear(mask);
		for_each_possible_cpu(cpu)
			if (map[cpu] == i)
				cpumask_set_cpu(cpu, mask);
		len += sysfs_emit_at(buf, len, "%u: %*pbl\n", i,
				     cpumask_pr_args(mask));
	}
	free_cpumask_var(mask);
	return len;
}
EXPORT_SYMBOL_GPL(smq_tag_set_map_show);

/* Parse one "Q: cpu-list" line of @len bytes into @map; @seen: CPUs so far. */
static int smq_map_parse_line(struct smq_tag_set *set, const char *line,
			      size_t len, unsigned int *map,
			      struct cpumask *seen, struct cpumask *mask,
			      unsigned long *queues)
{
	char *str = kstrndup(line, len, GFP_KERNEL);
	char *colon;
	unsigned int q, cpu;
	int ret = -EINVAL;

	if (!str)
		return -ENOMEM;
	colon = strchr(str, ':');
	if (!colon) {
		pr_err("queue_map: '%s': not 'queue: cpu-list'\n", str);
		goto out;
	}
	*colon = '\0';
	if (kstrtouint(strim(str), 10, &q) || q >= set->nr_hw_queues) {
		pr_err("queue_map: queue '%s' not in 0..%u\n", strim(str),
		       set->nr_hw_queues - 1);
		goto out;
	}
	if (test_and_set_bit(q, queues)) {
		pr_err("queue_map: queue %u given twice\n", q);
		goto out;
	}
	if (cpulist_parse(strim(colon + 1), mask)) {
		pr_err("queue_map: queue %u: bad CPU list '%s'\n", q,
		       strim(colon + 1));
		goto out;
	}
	for_each_cpu(cpu, mask) {
		if (!cpu_possible(cpu)) {
			pr_err("queue_map: CPU %u is not possible\n", cpu);
			goto out;
		}
		if (cpumask_test_and_set_cpu(cpu, seen)) {
			pr_err("queue_map: CPU %u given twice\n", cpu);
			goto out;
		}
		map[cpu] = q;
	}
	ret = 0;
out:
	kfree(str);
	return ret;
}

/**
 * smq_tag_set_map_parse - parse a CPU map written by the user
 * @set: multiqueue tag set (its current queue count bounds the queues)
 * @buf: lines "Q: cpu-list", NUL-terminated; empty lines are ignored
 * @map: nr_cpu_ids entries to fill, CPU -> queue
 *
 * Every possible CPU must be named exactly once; a queue may be left out
 * or have an empty list (no CPU submits to it).
 *
 * Return: 0, -EINVAL with one message naming what is wrong, or -ENOMEM.
 */
int smq_tag_set_map_parse(struct smq_tag_set *set, const char *buf,
			  unsigned int *map)
{
	cpumask_var_t seen, mask;
	unsigned long *queues;
	unsigned int cpu;
	int ret = -ENOMEM;

	queues = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!queues)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		goto free_queues;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		goto free_seen;
	ret = 0;
	while (*buf && !ret) {
		size_t len = strcspn(buf, "\n");

		if (len && strspn(buf, " \t") < len)
			ret = smq_map_parse_line(set, buf, len, map, seen, mask,
						 queues);
		buf += len;
		if (*buf)
			buf++;
	}
	if (!ret) {
		for_each_possible_cpu(cpu) {
			if (!cpumask_test_cpu(cpu, seen)) {
				pr_err("queue_map: CPU %u not mapped\n", cpu);
				ret = -EINVAL;
				break;
			}
		}
	}
	free_cpumask_var(mask);
free_seen:
	free_cpumask_var(seen);
free_queues:
	bitmap_free(queues);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_tag_set_map_parse);
