// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas reply queues and completion modes.
 *
 * A host runs nr_queues reply queues (submit_queues at first, changed by
 * hostN/nr_hw_queues: smq_sas_change.c), one per smq hardware queue.  Each
 * is bound to a CPU mask computed like the affinity of a managed MSI-X
 * vector, and the CPU -> hardware queue map handed to the block layer is
 * derived from the same masks, so a command normally completes on a CPU
 * of the queue it was submitted on.
 *
 * Completion modes (irqmode):
 *   none    - smq_scsi_done() inside queuecommand
 *   softirq - the command goes on its reply queue's lock-free list and the
 *             queue's tasklet is raised on a CPU of the queue's mask: here
 *             when this CPU is in the mask, else through an IPI to one CPU
 *             of the mask, where the "interrupt" would arrive
 *   timer   - a per-command hrtimer fires after completion_nsec and
 *             completes in hardirq context
 *   irq_poll - the "device" posts the reply on its reply queue's ring (the
 *             same lock-free list) after completion_nsec (from the
 *             command's hrtimer, hardirq) or at once (0), and raises the
 *             queue's "interrupt" on a CPU of its mask like softirq mode.
 *             The interrupt only schedules the queue's irq_poll instance;
 *             the IRQ_POLL softirq then reaps at most poll_weight replies
 *             per pass and keeps the queue scheduled while replies remain,
 *             as mpt3sas and megaraid_sas do under high completion load.
 *
 * Poll queues (poll_queues, the last of the queues in use): whatever the
 * irqmode, a reply goes on the queue's ring (done_list) with no
 * "interrupt" (no IPI, tasklet or irq_poll), at once or, in irqmode 2 and
 * 3, after completion_nsec (the command's hrtimer only posts it); the
 * block layer sends only REQ_POLLED commands there, and their submitters
 * reap the ring through the template's mq_poll (smq_sas_mq_poll(), any
 * number of them at once: llist_del_all() hands each reply to one).  As a
 * last resort a timed-out command of a poll queue reaps its ring
 * (smq_sas_eh_timed_out()), for a poller gone with its disk.
 *
 * irq_poll ring: producers (any CPU, any context) push on done_list; the
 * only consumer is the poll function, which runs while it holds the
 * instance's IRQ_POLL_F_SCHED bit.  It moves done_list to its private
 * poll_list (oldest first) and reaps from there.  A producer raises the
 * interrupt only when its push found done_list empty: whoever made the list
 * non-empty is responsible for a poll to follow.  After irq_poll_complete()
 * the poll function looks at done_list once more and reschedules itself if
 * a push raced with the completion (the push's irq_poll_sched() found the
 * bit still set and did nothing).
 *
 * Timeouts and aborts: a command in emulation (on a timer, a done list or
 * the ring) is never given up: eh_timed_out asks for more time for it, so
 * a reply sitting in the ring is always reaped.  Only commands that fault
 * injection dropped (they never reach this file) go to error handling
 * (smq_sas_eh.c).  Should the midlayer claim a command in emulation
 * anyway, the block layer's claim (smq_rq_claim(), a cmpxchg of the
 * request state) makes the later smq_scsi_done() from the ring a no-op: a
 * command never completes twice.  Every completion path reads the
 * command's LUN data (c->sd) before smq_scsi_done() and ends with
 * smq_sas_sdev_exit(), which a reset waits for (smq_sas_sdev_quiesce()).
 *
 * Teardown: the midlayer drains all commands in smq_scsi_remove_host();
 * only then does smq_sas_queues_quiesce() wait for completion paths still
 * running (a tasklet between two smq_scsi_done() calls, a poll pass, an
 * IPI handler, an hrtimer callback returning), disable the irq_poll
 * instances and kill the tasklets.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_poll.h>
#include <linux/ktime.h>
#include <linux/bottom_half.h>
#include <linux/llist.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <smq/cpumap.h>
#include <smq/scsi.h>

#include "smq_sas.h"

/* Account for a completion handed to the midlayer on @rpq. */
static inline void smq_sas_rpq_done(struct smq_sas_reply_queue *rpq, long n)
{
	/* Pairs with the atomic_long_read()s in smq_sas_rpq_idle(). */
	smp_mb__before_atomic();
	atomic_long_add(n, &rpq->completed);
}

/* ---- softirq mode ------------------------------------------------------ */

/*
 * Complete the replies taken off @rpq's ring (@list, newest first) in
 * arrival order, as one completion batch.  Return: how many.
 */
static long smq_sas_rpq_complete_list(struct smq_sas_reply_queue *rpq,
				      struct llist_node *list)
{
	struct smq_comp_batch batch = { };
	struct smq_sas_cmd *c, *next;
	long n = 0;

	list = llist_reverse_order(list);
	/* _safe: once done, a command may be reused and queued again. */
	llist_for_each_entry_safe(c, next, list, node) {
		struct smq_sas_sdev *sd = c->sd;

		smq_scsi_done_batch(c->scmd, &batch);
		smq_sas_sdev_exit(sd);
		n++;
	}
	/* Before the pass counts as over (smq_sas_queues_quiesce()). */
	smq_comp_batch_flush(&batch);
	if (n)
		smq_sas_rpq_done(rpq, n);
	return n;
}

static void smq_sas_rpq_tasklet(struct tasklet_struct *t)
{
	struct smq_sas_reply_queue *rpq = from_tasklet(rpq, t, tasklet);

	smq_sas_rpq_complete_list(rpq, llist_del_all(&rpq->done_list));
}

/* ---- irq_poll mode ----------------------------------------------------- */

/*
 * Reap up to @budget replies of the reply queue.  Runs in the IRQ_POLL
 * softirq with the instance scheduled, so it is the ring's only consumer.
 */
static int smq_sas_rpq_poll(struct irq_poll *iop, int budget)
{
	struct smq_sas_reply_queue *rpq =
		container_of(iop, struct smq_sas_reply_queue, iop);
	struct llist_node *node = rpq->poll_list;
	struct smq_comp_batch batch = { };
	int n = 0;

	while (n < budget) {
		struct smq_sas_sdev *sd;
		struct smq_sas_cmd *c;

		if (!node) {
			node = llist_del_all(&rpq->done_list);
			if (!node)
				break;
			/* Reap in arrival order. */
			node = llist_reverse_order(node);
		}
		c = llist_entry(node, struct smq_sas_cmd, node);
		/* Before the command is done: it may be reused at once. */
		node = node->next;
		sd = c->sd;
		smq_scsi_done_batch(c->scmd, &batch);
		smq_sas_sdev_exit(sd);
		n++;
	}
	rpq->poll_list = node;
	smq_comp_batch_flush(&batch);
	if (n)
		smq_sas_rpq_done(rpq, n);
	atomic_long_inc(&rpq->polls);

	if (n == budget) {
		/* Weight used up: irq_poll keeps us scheduled for another pass. */
		atomic_long_inc(&rpq->rearms);
		return n;
	}
	/* The ring is empty ("unmask the interrupt")... */
	irq_poll_complete(iop);
	/*
	 * ...unless a reply was pushed after llist_del_all() and its poster's
	 * irq_poll_sched() found the instance still scheduled.  Pairs with
	 * the full barrier of llist_add() before the poster's
	 * irq_poll_sched().
	 */
	smp_mb();
	if (!llist_empty(&rpq->done_list))
		irq_poll_sched(iop);
	return n;
}

/* ---- the reply queue's "interrupt" (softirq and irq_poll modes) --------- */

/* Raise the queue's bottom half on this CPU: its tasklet or its poll. */
static void smq_sas_rpq_raise_here(struct smq_sas_reply_queue *rpq)
{
	if (rpq->host->cfg.irqmode == SMQ_SAS_IRQ_POLL)
		irq_poll_sched(&rpq->iop);
	else
		tasklet_schedule(&rpq->tasklet);
}

/* IPI handler: the reply queue's "interrupt" arrived on a CPU of its mask. */
static void smq_sas_rpq_ipi(void *data)
{
	struct smq_sas_reply_queue *rpq = data;

	clear_bit(0, &rpq->ipi_armed);
	/*
	 * Disarm before raising the bottom half: a CPU that found the IPI
	 * armed relies on it being raised after its llist_add().  Pairs
	 * with the full ordering of llist_add() and test_and_set_bit() in
	 * smq_sas_rpq_kick(): either that CPU sees the IPI disarmed and
	 * sends another, or the bottom half raised here finds its reply
	 * on the done list.
	 */
	smp_mb__after_atomic();
	smq_sas_rpq_raise_here(rpq);
	/* Pairs with smp_rmb() in smq_sas_rpq_idle(): raised, then counted. */
	smp_mb__before_atomic();
	atomic_dec(&rpq->ipi_inflight);
}

/*
 * Raise @rpq's bottom half on this CPU.  From task context, do it with
 * bottom halves disabled so that re-enabling them runs it right here, as
 * the exit of an interrupt would, instead of waking ksoftirqd.
 */
static void smq_sas_rpq_raise(struct smq_sas_reply_queue *rpq)
{
	if (in_hardirq() || irqs_disabled()) {
		smq_sas_rpq_raise_here(rpq);
		return;
	}
	local_bh_disable();
	smq_sas_rpq_raise_here(rpq);
	local_bh_enable();
}

/*
 * Raise @rpq's bottom half on a CPU of its mask; the done list became
 * non-empty.
 */
static void smq_sas_rpq_kick(struct smq_sas_reply_queue *rpq)
{
	int cpu = get_cpu();
	int target;

	if (cpumask_test_cpu(cpu, rpq->mask))
		goto local;

	/* An armed IPI has not raised the tasklet yet: it sees our entry. */
	if (test_and_set_bit(0, &rpq->ipi_armed))
		goto out;

	target = cpumask_first_and(rpq->mask, cpu_online_mask);
	if (target < nr_cpu_ids) {
		atomic_inc(&rpq->ipi_inflight);
		if (!smp_call_function_single_async(target, &rpq->csd)) {
			atomic_long_inc(&rpq->ipis);
			goto out;
		}
		atomic_dec(&rpq->ipi_inflight);
	}
	/* No CPU of the mask online: complete here. */
	clear_bit(0, &rpq->ipi_armed);
local:
	smq_sas_rpq_raise(rpq);
out:
	put_cpu();
}

/*
 * irq_poll mode: the "device" writes @c's reply into @rpq's ring and raises
 * the queue's interrupt if the ring was empty.  @c may be reaped, completed
 * and reused by another CPU as soon as it is on the ring; @posting tells
 * smq_sas_queues_quiesce() that this CPU still touches @rpq.
 */
static void smq_sas_rpq_post(struct smq_sas_reply_queue *rpq,
			     struct smq_sas_cmd *c)
{
	atomic_inc(&rpq->posting);
	/* llist_add() is a full barrier: @posting is seen before the entry. */
	if (llist_add(&c->node, &rpq->done_list))
		smq_sas_rpq_kick(rpq);
	/* Pairs with smp_rmb() in smq_sas_rpq_idle(). */
	smp_mb__before_atomic();
	atomic_dec(&rpq->posting);
}

/* ---- timer mode -------------------------------------------------------- */

static enum hrtimer_restart smq_sas_cmd_timer(struct hrtimer *timer)
{
	struct smq_sas_cmd *c = container_of(timer, struct smq_sas_cmd, timer);
	/* Read before the command is completed and reused. */
	struct smq_sas_reply_queue *rpq = c->rpq;
	struct smq_sas_sdev *sd = c->sd;

	if (rpq->poll) {
		/* Ring only: @c may be reaped and reused from here on. */
		llist_add(&c->node, &rpq->done_list);
		return HRTIMER_NORESTART;
	}
	if (rpq->host->cfg.irqmode == SMQ_SAS_IRQ_POLL) {
		smq_sas_rpq_post(rpq, c);
		return HRTIMER_NORESTART;
	}
	smq_scsi_done(c->scmd);
	smq_sas_sdev_exit(sd);
	smq_sas_rpq_done(rpq, 1);
	return HRTIMER_NORESTART;
}

/* ---- poll queues ------------------------------------------------------- */

/**
 * smq_sas_rpq_reap - complete every reply on a poll queue's ring
 * @rpq: a poll queue
 *
 * Any context that may complete commands; several reapers may run at once
 * (llist_del_all() gives each reply to one of them).
 *
 * Return: the commands completed.
 */
int smq_sas_rpq_reap(struct smq_sas_reply_queue *rpq)
{
	long n = smq_sas_rpq_complete_list(rpq, llist_del_all(&rpq->done_list));

	if (n)
		atomic_long_add(n, &rpq->mq_reaped);
	return n;
}

/**
 * smq_sas_mq_poll - reap a poll queue from the polling task (template hook)
 * @shost: the host
 * @queue_num: the hardware queue, one of the host's poll queues
 *
 * Return: the commands completed here.
 */
int smq_sas_mq_poll(struct smq_scsi_host *shost, unsigned int queue_num)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(shost);
	struct smq_sas_reply_queue *rpq;

	if (WARN_ON_ONCE(queue_num >= host->nr_queues))
		return 0;
	rpq = &host->reply_queues[queue_num];
	if (WARN_ON_ONCE(!rpq->poll))
		return 0;
	atomic_long_inc(&rpq->mq_polls);
	return smq_sas_rpq_reap(rpq);
}

/* ---- submission side --------------------------------------------------- */

/**
 * smq_sas_complete - hand a finished command to its reply queue
 * @host: the host
 * @scmd: the command; result, sense and resid are set
 *
 * Called from queuecommand once the command has been emulated.  Completes
 * it according to the host's irqmode.
 */
void smq_sas_complete(struct smq_sas_host *host, struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	unsigned int hwq = smq_scsi_cmd_hwq(scmd);
	struct smq_sas_reply_queue *rpq;
	struct smq_sas_sdev *sd;

	if (WARN_ON_ONCE(hwq >= host->nr_queues))
		hwq = 0;
	rpq = &host->reply_queues[hwq];
	c->rpq = rpq;
	atomic_long_inc(&rpq->queued);

	if (rpq->poll) {
		if (host->cfg.completion_nsec &&
		    (host->cfg.irqmode == SMQ_SAS_IRQ_TIMER ||
		     host->cfg.irqmode == SMQ_SAS_IRQ_POLL))
			hrtimer_start(&c->timer,
				      ns_to_ktime(host->cfg.completion_nsec),
				      HRTIMER_MODE_REL_HARD);
		else
			llist_add(&c->node, &rpq->done_list);
		return;
	}

	switch (host->cfg.irqmode) {
	case SMQ_SAS_IRQ_NONE:
		sd = c->sd;	/* @scmd may be reused once done */
		smq_scsi_done(scmd);
		smq_sas_sdev_exit(sd);
		smq_sas_rpq_done(rpq, 1);
		break;
	case SMQ_SAS_IRQ_SOFTIRQ:
		if (llist_add(&c->node, &rpq->done_list))
			smq_sas_rpq_kick(rpq);
		break;
	case SMQ_SAS_IRQ_TIMER:
		hrtimer_start(&c->timer, ns_to_ktime(host->cfg.completion_nsec),
			      HRTIMER_MODE_REL_HARD);
		break;
	case SMQ_SAS_IRQ_POLL:
		if (host->cfg.completion_nsec)
			hrtimer_start(&c->timer,
				      ns_to_ktime(host->cfg.completion_nsec),
				      HRTIMER_MODE_REL_HARD);
		else
			smq_sas_rpq_post(rpq, c);
		break;
	}
}

/**
 * smq_sas_init_cmd_priv - set up the private data of a preallocated command
 * @shost: the host
 * @scmd: the command
 *
 * Return: 0.
 */
int smq_sas_init_cmd_priv(struct smq_scsi_host *shost,
			  struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);

	c->scmd = scmd;
	c->rpq = NULL;
	c->sd = NULL;
	INIT_LIST_HEAD(&c->drop_entry);
	c->state = SMQ_SAS_CMD_EMULATED;
	c->xfer_limit = U32_MAX;
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	c->timer.function = smq_sas_cmd_timer;
	return 0;
}

/**
 * smq_sas_exit_cmd_priv - undo smq_sas_init_cmd_priv()
 * @shost: the host
 * @scmd: the command
 *
 * Waits for a timer callback that may still be returning; unlinks a
 * command still on its LUN's dropped list.
 */
void smq_sas_exit_cmd_priv(struct smq_scsi_host *shost,
			   struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);

	hrtimer_cancel(&c->timer);
	/* Given up by the midlayer while dropped (its LUN is still here). */
	if (c->state == SMQ_SAS_CMD_DROPPED)
		smq_sas_undrop(c);
}

/* ---- queue mapping ----------------------------------------------------- */

/**
 * smq_sas_map_queues - fill the CPU -> hardware queue map (template hook)
 * @shost: the host
 *
 * Each CPU goes to the reply queue whose mask holds it, as for a driver
 * with managed MSI-X vectors.
 */
void smq_sas_map_queues(struct smq_scsi_host *shost)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(shost);

	if (smq_map_queues_affinity(&shost->tag_set, host->mask_ptrs))
		smq_map_queues_spread(&shost->tag_set);
}

/* ---- setup and teardown ------------------------------------------------ */

/**
 * smq_sas_spread_masks - spread the possible CPUs over @nr reply queues
 * @nr: reply queues
 * @masks: @nr CPU masks to fill
 *
 * With the shared CPU map helper, from the live topology (possible CPUs,
 * SMT siblings, packages), as managed MSI-X vectors are spread.
 *
 * Return: 0 or -ENOMEM.
 */
int smq_sas_spread_masks(unsigned int nr, cpumask_var_t *masks)
{
	struct smq_cpu_topology *topo;
	unsigned long **bits;
	unsigned int i;
	int ret = -ENOMEM;

	topo = smq_topology_alloc();
	bits = kcalloc(nr, sizeof(*bits), GFP_KERNEL);
	if (topo && bits) {
		for (i = 0; i < nr; i++)
			bits[i] = cpumask_bits(masks[i]);
		ret = smq_cpumap_spread_masks(topo, nr, bits);
	}
	kfree(bits);
	smq_topology_free(topo);
	return ret < 0 ? ret : 0;
}

/* Allocate @nr empty CPU masks; NULL when out of memory. */
static cpumask_var_t *smq_sas_masks_alloc(unsigned int nr)
{
	cpumask_var_t *masks = kcalloc(nr, sizeof(*masks), GFP_KERNEL);
	unsigned int i;

	if (!masks)
		return NULL;
	for (i = 0; i < nr; i++) {
		if (!zalloc_cpumask_var(&masks[i], GFP_KERNEL)) {
			smq_sas_masks_free(masks, i);
			return NULL;
		}
	}
	return masks;
}

/**
 * smq_sas_masks_free - free what smq_sas_masks_alloc() returned
 * @masks: the masks, or NULL
 * @nr: how many
 */
void smq_sas_masks_free(cpumask_var_t *masks, unsigned int nr)
{
	unsigned int i;

	if (!masks)
		return;
	for (i = 0; i < nr; i++)
		free_cpumask_var(masks[i]);
	kfree(masks);
}

/**
 * smq_sas_queues_init - create the reply queues of a host
 * @host: the host; host->cfg is set
 *
 * Every reply queue the host may ever run (nr_alloc, one per possible CPU
 * id, as an HBA has its MSI-X vectors) is set up now, so that
 * smq_sas_change_queues() allocates none and a command's reply queue
 * never goes away under a completion; cfg.submit_queues of them run.
 *
 * Return: 0 or a negative errno.
 */
int smq_sas_queues_init(struct smq_sas_host *host)
{
	unsigned int i, nr = nr_cpu_ids;
	int ret;

	host->nr_alloc = nr;
	host->nr_queues = host->cfg.submit_queues;
	host->masks = smq_sas_masks_alloc(nr);
	host->new_masks = smq_sas_masks_alloc(nr);
	host->prev_masks = smq_sas_masks_alloc(nr);
	host->mask_ptrs = kcalloc(nr, sizeof(*host->mask_ptrs), GFP_KERNEL);
	host->reply_queues = kcalloc(nr, sizeof(*host->reply_queues),
				     GFP_KERNEL);
	if (!host->masks || !host->new_masks || !host->prev_masks ||
	    !host->mask_ptrs || !host->reply_queues)
		goto nomem;

	/*
	 * Interrupt-driven and poll queues each spread over every CPU, as
	 * their two CPU maps (the block layer's poll map spreads alike).
	 */
	ret = smq_sas_spread_masks(host->nr_queues - host->cfg.poll_queues,
				   host->masks);
	if (!ret && host->cfg.poll_queues)
		ret = smq_sas_spread_masks(host->cfg.poll_queues,
					   host->masks + host->nr_queues -
					   host->cfg.poll_queues);
	if (ret)
		goto fail;
	host->prev_nr = 0;
	host->spread = true;

	for (i = 0; i < nr; i++) {
		struct smq_sas_reply_queue *rpq = &host->reply_queues[i];

		host->mask_ptrs[i] = host->masks[i];
		rpq->host = host;
		rpq->index = i;
		rpq->mask = host->masks[i];
		/* Fixed: the block layer refuses queue changes then. */
		rpq->poll = i >= host->nr_queues - host->cfg.poll_queues &&
			    i < host->nr_queues;
		init_llist_head(&rpq->done_list);
		tasklet_setup(&rpq->tasklet, smq_sas_rpq_tasklet);
		irq_poll_init(&rpq->iop, host->cfg.poll_weight,
			      smq_sas_rpq_poll);
		rpq->poll_list = NULL;
		INIT_CSD(&rpq->csd, smq_sas_rpq_ipi, rpq);
		atomic_set(&rpq->ipi_inflight, 0);
		atomic_set(&rpq->posting, 0);
		atomic_long_set(&rpq->queued, 0);
		atomic_long_set(&rpq->completed, 0);
		atomic_long_set(&rpq->ipis, 0);
		atomic_long_set(&rpq->polls, 0);
		atomic_long_set(&rpq->rearms, 0);
		atomic_long_set(&rpq->mq_polls, 0);
		atomic_long_set(&rpq->mq_reaped, 0);
	}
	return 0;

nomem:
	ret = -ENOMEM;
fail:
	smq_sas_queues_free(host);
	return ret;
}

/**
 * smq_sas_rpq_idle - whether no completion path touches a reply queue
 * @rpq: the reply queue
 *
 * Return: true when every accepted command was handed to smq_scsi_done()
 * and no poster or IPI of the queue is still running.
 */
bool smq_sas_rpq_idle(struct smq_sas_reply_queue *rpq)
{
	if (atomic_long_read(&rpq->completed) != atomic_long_read(&rpq->queued))
		return false;
	/* A poster still raising the interrupt of a reply already reaped. */
	smp_rmb();
	if (atomic_read(&rpq->posting))
		return false;
	/* Its IPI was counted before it left. */
	smp_rmb();
	return !atomic_read(&rpq->ipi_inflight);
}

/**
 * smq_sas_queues_quiesce - wait until no completion path touches the host
 * @host: the host, already drained by smq_scsi_remove_host()
 *
 * Every accepted command has been handed to smq_scsi_done() by now; what
 * may still run is the tail of a completion path.  Wait for those, then
 * make sure no tasklet is scheduled or running.
 */
void smq_sas_queues_quiesce(struct smq_sas_host *host)
{
	unsigned int i;

	if (!host->reply_queues)
		return;
	for (i = 0; i < host->nr_alloc; i++) {
		struct smq_sas_reply_queue *rpq = &host->reply_queues[i];

		while (!smq_sas_rpq_idle(rpq))
			usleep_range(50, 100);
		/* Waits for a pass still scheduled; later schedules are no-ops. */
		irq_poll_disable(&rpq->iop);
		tasklet_kill(&rpq->tasklet);
		WARN_ON_ONCE(!llist_empty(&rpq->done_list) || rpq->poll_list);
	}
	/*
	 * A poll pass may still be returning from irq_poll_complete() (its
	 * recheck of the ring); softirq handlers are RCU read-side sections.
	 */
	if (host->cfg.irqmode == SMQ_SAS_IRQ_POLL)
		synchronize_rcu();
}

/**
 * smq_sas_queues_free - free what smq_sas_queues_init() allocated
 * @host: the host, quiesced (or never started)
 */
void smq_sas_queues_free(struct smq_sas_host *host)
{
	kfree(host->reply_queues);
	host->reply_queues = NULL;
	kfree(host->mask_ptrs);
	host->mask_ptrs = NULL;
	smq_sas_masks_free(host->masks, host->nr_alloc);
	host->masks = NULL;
	smq_sas_masks_free(host->new_masks, host->nr_alloc);
	host->new_masks = NULL;
	smq_sas_masks_free(host->prev_masks, host->nr_alloc);
	host->prev_masks = NULL;
}

/* ---- debugfs ----------------------------------------------------------- */

static int smq_sas_rpq_stats_show(struct seq_file *m, void *v)
{
	struct smq_sas_host *host = m->private;
	unsigned int i;

	seq_puts(m, "queue queued completed ipis polls rearms mq_polls mq_reaped type cpus\n");
	/* Queues past the count in use show while they were used last. */
	for (i = 0; i < READ_ONCE(host->nr_queues); i++) {
		struct smq_sas_reply_queue *rpq = &host->reply_queues[i];

		seq_printf(m, "%u %ld %ld %ld %ld %ld %ld %ld %s %*pbl\n", i,
			   atomic_long_read(&rpq->queued),
			   atomic_long_read(&rpq->completed),
			   atomic_long_read(&rpq->ipis),
			   atomic_long_read(&rpq->polls),
			   atomic_long_read(&rpq->rearms),
			   atomic_long_read(&rpq->mq_polls),
			   atomic_long_read(&rpq->mq_reaped),
			   rpq->poll ? "poll" : "irq",
			   cpumask_pr_args(rpq->mask));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smq_sas_rpq_stats);

/**
 * smq_sas_debugfs_add - create debugfs/smq_sas/adapterN/reply_queues
 * @host: the host, its reply queues set up
 *
 * Failures are ignored (debugfs is optional).  The directory is removed in
 * the host's teardown.
 */
void smq_sas_debugfs_add(struct smq_sas_host *host)
{
	char name[32];

	if (IS_ERR_OR_NULL(smq_sas_debugfs_root))
		return;
	snprintf(name, sizeof(name), "adapter%d", host->id);
	host->debugfs = debugfs_create_dir(name, smq_sas_debugfs_root);
	debugfs_create_file("reply_queues", 0444, host->debugfs, host,
			    &smq_sas_rpq_stats_fops);
}
