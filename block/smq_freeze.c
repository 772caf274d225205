// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: a queue's state, path-neutral: usage references (enter/exit),
 * freeze, quiesce, dying, and the run entry points, which go through the
 * path's struct smq_queue_ops.  A leaf of block/: it calls no other file
 * of it, so everything may use it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"

static void smq_usage_release(struct percpu_ref *ref)
{
	struct smq_queue *q = container_of(ref, struct smq_queue, q_usage_counter);

	wake_up_all(&q->freeze_wq);
}

/**
 * smq_queue_usage_init - set up a new queue's usage references
 * @q: queue being created
 *
 * Return: 0 or -ENOMEM.
 */
int smq_queue_usage_init(struct smq_queue *q)
{
	init_waitqueue_head(&q->freeze_wq);
	mutex_init(&q->freeze_lock);
	/* ALLOW_REINIT: a freeze kills it, an unfreeze resurrects it. */
	return percpu_ref_init(&q->q_usage_counter, smq_usage_release,
			       PERCPU_REF_ALLOW_REINIT, GFP_KERNEL);
}

/**
 * smq_queue_enter - take a usage reference, waiting out a freeze
 * @q: queue
 * @nowait: fail instead of waiting
 *
 * Return: true with a reference held, false if the queue is dying (or
 * frozen and @nowait).
 */
bool smq_queue_enter(struct smq_queue *q, bool nowait)
{
	for (;;) {
		if (percpu_ref_tryget_live(&q->q_usage_counter))
			return true;
		if (nowait || test_bit(SMQ_Q_DYING, &q->flags))
			return false;
		wait_event(q->freeze_wq, !READ_ONCE(q->freeze_depth) ||
			   test_bit(SMQ_Q_DYING, &q->flags));
	}
}

void smq_queue_exit(struct smq_queue *q)
{
	percpu_ref_put(&q->q_usage_counter);
}

/* smq_queue_exit() @n times (the requests of a completion batch). */
void smq_queue_exit_many(struct smq_queue *q, unsigned int n)
{
	percpu_ref_put_many(&q->q_usage_counter, n);
}

/**
 * smq_freeze_queue - block new entries and wait until none is in progress
 * @q: queue
 *
 * Freezes nest; each needs a smq_unfreeze_queue().  With poll queues the
 * freezing task reaps them every jiffy while it waits (smq_poll_reap()).
 */
void smq_freeze_queue(struct smq_queue *q)
{
	mutex_lock(&q->freeze_lock);
	if (++q->freeze_depth == 1) {
		percpu_ref_kill(&q->q_usage_counter);
		mutex_unlock(&q->freeze_lock);
		smq_run_hw_queues(q, false);
	} else {
		mutex_unlock(&q->freeze_lock);
	}
	/*
	 * Requests of the poll queues complete only by being polled, and
	 * their pollers may be gone (the kernel stops bio_poll() on a deleted
	 * disk): reap the poll queues while waiting.
	 */
	if (q->tag_set->nr_poll_queues) {
		while (!wait_event_timeout(q->freeze_wq,
					   percpu_ref_is_zero(&q->q_usage_counter),
					   1))
			smq_poll_reap(q);
		return;
	}
	wait_event(q->freeze_wq, percpu_ref_is_zero(&q->q_usage_counter));
}
EXPORT_SYMBOL_GPL(smq_freeze_queue);

/**
 * smq_unfreeze_queue - end one smq_freeze_queue()
 * @q: queue
 */
void smq_unfreeze_queue(struct smq_queue *q)
{
	mutex_lock(&q->freeze_lock);
	if (!WARN_ON_ONCE(q->freeze_depth <= 0) && --q->freeze_depth == 0) {
		percpu_ref_resurrect(&q->q_usage_counter);
		wake_up_all(&q->freeze_wq);
	}
	mutex_unlock(&q->freeze_lock);
}
EXPORT_SYMBOL_GPL(smq_unfreeze_queue);

bool smq_queue_quiesced(struct smq_queue *q)
{
	return READ_ONCE(q->quiesce_depth) > 0;
}

/**
 * smq_quiesce_queue - stop dispatching to the driver
 * @q: queue
 *
 * On return no ->queue_rq of this queue runs, and none starts until
 * smq_unquiesce_queue().  Requests keep queueing.  Both paths call
 * ->queue_rq inside an RCU read-side section that tested the quiesced
 * state first (the mq dispatch and direct issue; the legacy dispatch
 * loop, per request, across the dropped queue lock), so raising the
 * depth and waiting for a grace period is enough.  Sleeps; nests.
 */
void smq_quiesce_queue(struct smq_queue *q)
{
	spin_lock_irq(&q->queue_lock);
	q->quiesce_depth++;
	spin_unlock_irq(&q->queue_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(smq_quiesce_queue);

/**
 * smq_unquiesce_queue - end one smq_quiesce_queue() and restart dispatch
 * @q: queue
 */
void smq_unquiesce_queue(struct smq_queue *q)
{
	bool run = false;

	spin_lock_irq(&q->queue_lock);
	if (!WARN_ON_ONCE(q->quiesce_depth <= 0) && --q->quiesce_depth == 0)
		run = true;
	spin_unlock_irq(&q->queue_lock);
	if (run)
		smq_run_hw_queues(q, true);
}
EXPORT_SYMBOL_GPL(smq_unquiesce_queue);

/**
 * smq_set_queue_dying - fail all new entries and wake everybody waiting
 * @q: queue
 */
void smq_set_queue_dying(struct smq_queue *q)
{
	set_bit(SMQ_Q_DYING, &q->flags);
	wake_up_all(&q->freeze_wq);
	q->ops->mark_dying(q);
	if (q->disk)
		blk_mark_disk_dead(q->disk);
}
EXPORT_SYMBOL_GPL(smq_set_queue_dying);

/**
 * smq_run_hw_queues - run a queue (every hardware queue of it)
 * @q: queue
 * @async: from work items (required from atomic context)
 */
void smq_run_hw_queues(struct smq_queue *q, bool async)
{
	q->ops->run_queues(q, async);
}
EXPORT_SYMBOL_GPL(smq_run_hw_queues);

/**
 * smq_delay_run_hw_queues - run a queue after a delay
 * @q: queue
 * @msecs: delay
 */
void smq_delay_run_hw_queues(struct smq_queue *q, unsigned long msecs)
{
	q->ops->delay_run_queues(q, msecs);
}
EXPORT_SYMBOL_GPL(smq_delay_run_hw_queues);
