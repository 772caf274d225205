// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: CPU hotplug, as blk-mq's hctx offline/online handling.
 *
 * Every hardware queue is an instance of one dynamic multi-instance
 * hotplug state (CPUHP_AP_ONLINE_DYN, set up at module load).  When the
 * last online CPU of a hardware queue's CPU mask goes down (the teardown
 * callback, on that CPU, after the scheduler moved ordinary tasks off it),
 * the hardware queue is marked SMQ_S_INACTIVE: request allocation on it
 * gives the tag back and retries on the CPU the task runs on now (another
 * hardware queue).  The callback then runs the queue and waits until every
 * request allocated on it has ended, so no request is left on a hardware
 * queue no online CPU submits to, while its reply queue's completions
 * (smq_sas: the mask's interrupt falls back to the completing CPU) still
 * arrive.  Bringing one of its CPUs up clears the mark.
 *
 * A CPU that goes down while its hardware queue keeps other online CPUs
 * needs nothing: its software queue's requests are dispatched by runs of
 * the hardware queue, which go to an online CPU of the mask (the run kicked
 * here re-routes them at once).  New submissions come from other CPUs.
 *
 * Allocation and the teardown order with full barriers (Dekker): the
 * allocator publishes the request in tags->rqs, then tests the mark; the
 * callback sets the mark, then looks for requests of the hardware queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/module.h>
#include "smq_blk_int.h"

static enum cpuhp_state smq_cpuhp_state = CPUHP_INVALID;

/* Whether a request allocated on @hctx has not ended yet. */
static bool smq_hctx_busy(struct smq_hw_ctx *hctx)
{
	struct smq_tags *tags = hctx->tags;
	unsigned int tag;

	for (tag = 0; tag < tags->nr_tags; tag++) {
		struct smq_request *rq = READ_ONCE(tags->rqs[tag]);

		if (rq && READ_ONCE(rq->hctx) == hctx)
			return true;
	}
	return false;
}

/*
 * Whether @hctx is in use: one that smq_tag_set_update() is adding or has
 * removed (past the queue's count) has no CPU and must not be run.
 */
static bool smq_hctx_in_use(struct smq_hw_ctx *hctx)
{
	return hctx->queue_num < READ_ONCE(hctx->q->nr_hw_queues);
}

/* Whether a CPU of @hctx other than @cpu is online. */
static bool smq_hctx_other_online(struct smq_hw_ctx *hctx, unsigned int cpu)
{
	unsigned int c;

	for_each_cpu_and(c, hctx->cpumask, cpu_online_mask) {
		if (c != cpu)
			return true;
	}
	return false;
}

static int smq_hctx_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct smq_hw_ctx *hctx = hlist_entry_safe(node, struct smq_hw_ctx,
						   cpuhp_node);

	if (!smq_hctx_in_use(hctx) || !cpumask_test_cpu(cpu, hctx->cpumask))
		return 0;
	if (smq_hctx_other_online(hctx, cpu)) {
		/* Its software queue's requests go to another CPU's run. */
		smq_run_hw_queue(hctx, true);
		return 0;
	}
	set_bit(SMQ_S_INACTIVE, &hctx->state);
	/* Pairs with smp_mb() in smq_get_request(). */
	smp_mb__after_atomic();
	smq_run_hw_queue(hctx, true);
	while (smq_hctx_busy(hctx))
		usleep_range(2000, 5000);
	return 0;
}

static int smq_hctx_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct smq_hw_ctx *hctx = hlist_entry_safe(node, struct smq_hw_ctx,
						   cpuhp_node);

	if (smq_hctx_in_use(hctx) && cpumask_test_cpu(cpu, hctx->cpumask))
		clear_bit(SMQ_S_INACTIVE, &hctx->state);
	return 0;
}

/**
 * smq_hctx_update_active - mark hardware queues without an online CPU
 * @q: multiqueue queue whose CPU map was just (re)built, no request
 *	allocated (new, or frozen)
 *
 * Called with cpus_read_lock() held (smq_map_swqueues()), so no hotplug
 * callback runs at once (lockdep_assert_cpus_held() is not exported to
 * modules).
 */
void smq_hctx_update_active(struct smq_queue *q)
{
	unsigned int i;

	for (i = 0; i < q->nr_hw_queues; i++) {
		struct smq_hw_ctx *hctx = q->hctxs[i];

		if (cpumask_intersects(hctx->cpumask, cpu_online_mask))
			clear_bit(SMQ_S_INACTIVE, &hctx->state);
		else
			set_bit(SMQ_S_INACTIVE, &hctx->state);
	}
}

/**
 * smq_hctx_cpuhp_add - make a new hardware queue an instance of the state
 * @hctx: hardware queue (its CPU mask may still be empty)
 *
 * Return: 0 or a negative errno.
 */
int smq_hctx_cpuhp_add(struct smq_hw_ctx *hctx)
{
	int ret;

	ret = cpuhp_state_add_instance_nocalls(smq_cpuhp_state,
					       &hctx->cpuhp_node);
	if (!ret)
		hctx->cpuhp_added = true;
	return ret;
}

/**
 * smq_hctx_cpuhp_del - remove a hardware queue from the state
 * @hctx: hardware queue being freed
 *
 * Waits for a callback running on it.
 */
void smq_hctx_cpuhp_del(struct smq_hw_ctx *hctx)
{
	if (hctx->cpuhp_added)
		cpuhp_state_remove_instance_nocalls(smq_cpuhp_state,
						    &hctx->cpuhp_node);
	hctx->cpuhp_added = false;
}

/**
 * smq_cpuhp_init - set up the hotplug state (module load)
 *
 * Return: 0 or a negative errno.
 */
int smq_cpuhp_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "smq/hctx:online",
				      smq_hctx_cpu_online,
				      smq_hctx_cpu_offline);
	if (ret < 0)
		return ret;
	smq_cpuhp_state = ret;
	return 0;
}

/**
 * smq_cpuhp_exit - remove the hotplug state (module unload, no queue left)
 */
void smq_cpuhp_exit(void)
{
	cpuhp_remove_multi_state(smq_cpuhp_state);
}
