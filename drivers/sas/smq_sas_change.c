// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas: changing the reply queues of a running host (the template's
 * change_queues, reached through /sys/class/smq_host/hostN/nr_hw_queues
 * and queue_map).
 *
 * Every reply queue a host may run is allocated with the host
 * (smq_sas_queues_init()), so a change only moves the count in use and
 * the queues' CPU masks: a real HBA reprograms the affinity of vectors it
 * already has.  The new masks are computed into scratch masks first (the
 * only step that allocates, and only for a spread), then copied in; the
 * masks they replace are kept, so that the rollback of a change the block
 * layer cannot complete returns to them without allocating.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include "smq_sas.h"

/* Build the masks of @nr queues for @map (or a spread) in host->new_masks. */
static int smq_sas_build_masks(struct smq_sas_host *host, unsigned int nr,
			       const unsigned int *map)
{
	unsigned int cpu, i;

	for (i = 0; i < host->nr_alloc; i++)
		cpumask_clear(host->new_masks[i]);
	if (map) {
		for_each_possible_cpu(cpu)
			cpumask_set_cpu(cpu, host->new_masks[map[cpu]]);
		return 0;
	}
	if (!smq_sas_spread_masks(nr, host->new_masks))
		return 0;
	/*
	 * No memory for a spread.  A rollback asks for the spread of the
	 * count it returns to, which is what prev_masks hold.
	 */
	if (nr != host->prev_nr || !host->prev_spread)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		cpumask_copy(host->new_masks[i], host->prev_masks[i]);
	return 0;
}

/**
 * smq_sas_change_queues - run @nr reply queues (template hook)
 * @shost: the host; every LUN queue is drained and stopped
 * @nr: reply queues, 1..nr_alloc
 * @map: CPU -> queue map whose CPUs each queue's "vector" is bound to, or
 *	NULL to spread the CPUs as at host creation
 *
 * Waits for the tails of completion paths still running (a tasklet after
 * its last smq_scsi_done(), an IPI handler), then rebinds.
 *
 * Return: 0, -EINVAL for a bad @nr, or -ENOMEM (nothing changed).
 */
int smq_sas_change_queues(struct smq_scsi_host *shost, unsigned int nr,
			  const unsigned int *map)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(shost);
	unsigned int i;
	int ret;

	if (!nr || nr > host->nr_alloc) {
		pr_err("adapter%d: %u reply queues: must be 1..%u\n", host->id,
		       nr, host->nr_alloc);
		return -EINVAL;
	}
	ret = smq_sas_build_masks(host, nr, map);
	if (ret)
		return ret;
	for (i = 0; i < host->nr_queues; i++) {
		while (!smq_sas_rpq_idle(&host->reply_queues[i]))
			usleep_range(50, 100);
	}
	for (i = 0; i < host->nr_alloc; i++) {
		cpumask_copy(host->prev_masks[i], host->masks[i]);
		cpumask_copy(host->masks[i], host->new_masks[i]);
	}
	host->prev_nr = host->nr_queues;
	host->prev_spread = host->spread;
	host->spread = !map;
	WRITE_ONCE(host->nr_queues, nr);
	return 0;
}
