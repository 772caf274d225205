// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: scheduler registry and runtime switching.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "smq_sched.h"

/* Protects smq_sched_list. */
static DEFINE_SPINLOCK(smq_sched_lock);
static LIST_HEAD(smq_sched_list);

/**
 * smq_sched_register - make a scheduler selectable
 * @ops: the scheduler
 *
 * Return: 0.
 */
int smq_sched_register(struct smq_sched_ops *ops)
{
	spin_lock(&smq_sched_lock);
	list_add_tail(&ops->list, &smq_sched_list);
	spin_unlock(&smq_sched_lock);
	return 0;
}

/**
 * smq_sched_unregister - remove a scheduler (no queue may use it)
 * @ops: the scheduler
 */
void smq_sched_unregister(struct smq_sched_ops *ops)
{
	spin_lock(&smq_sched_lock);
	list_del(&ops->list);
	spin_unlock(&smq_sched_lock);
}

/*
 * Drain the queue (freeze) and stop dispatch (quiesce), swap schedulers,
 * let I/O in again.  The old scheduler is empty once the queue is frozen.
 */
static int smq_sched_change(struct smq_queue *q, struct smq_sched_ops *ops)
{
	int ret = 0;

	lockdep_assert_held(&q->sysfs_lock);
	if (ops && !try_module_get(ops->owner))
		return -EINVAL;
	smq_freeze_queue(q);
	smq_quiesce_queue(q);
	if (q->sched) {
		smq_iosched_sysfs_del(q);
		smq_debugfs_unregister_sched(q);
		q->sched->exit_sched(q);
		module_put(q->sched->owner);
		q->sched = NULL;
	}
	if (ops) {
		ret = ops->init_sched(q);
		if (ret) {
			module_put(ops->owner);
		} else {
			q->sched = ops;
			if (ops->attrs && test_bit(SMQ_Q_REGISTERED, &q->flags))
				smq_iosched_sysfs_add(q, ops->attrs);
			smq_debugfs_register_sched(q);
		}
	}
	smq_unquiesce_queue(q);
	smq_unfreeze_queue(q);
	return ret;
}

static struct smq_sched_ops *smq_sched_find(const char *name)
{
	struct smq_sched_ops *ops;

	list_for_each_entry(ops, &smq_sched_list, list) {
		if (sysfs_streq(ops->name, name))
			return ops;
	}
	return NULL;
}

/**
 * smq_sched_show - the scheduler file's text: "[none] mq-deadline"
 * @q: queue
 * @page: sysfs buffer
 *
 * Return: the length of the text written to @page.
 */
ssize_t smq_sched_show(struct smq_queue *q, char *page)
{
	struct smq_sched_ops *ops;
	ssize_t len;

	len = sysfs_emit(page, q->sched ? "none" : "[none]");
	spin_lock(&smq_sched_lock);
	list_for_each_entry(ops, &smq_sched_list, list) {
		len += sysfs_emit_at(page, len, q->sched == ops ? " [%s]" : " %s",
				     ops->name);
	}
	spin_unlock(&smq_sched_lock);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

/**
 * smq_sched_switch - change a queue's scheduler
 * @q: queue, its sysfs_lock held (the smq/scheduler file)
 * @name: "none" or a registered scheduler
 *
 * Freezes (drains) and quiesces the queue around the change.
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int smq_sched_switch(struct smq_queue *q, const char *name)
{
	struct smq_sched_ops *ops = NULL;

	if (!sysfs_streq(name, "none")) {
		spin_lock(&smq_sched_lock);
		ops = smq_sched_find(name);
		spin_unlock(&smq_sched_lock);
		if (!ops) {
			pr_err("unknown scheduler '%s'\n", strim((char *)name));
			return -EINVAL;
		}
	}
	if (ops == q->sched)
		return 0;
	return smq_sched_change(q, ops);
}

/**
 * smq_sched_set_nr_requests - change how many requests a queue may hold
 * @q: multiqueue queue
 * @nr: 1 .. the tag set's queue_depth (checked by the caller)
 *
 * New requests choose from the first @nr tags of their hardware queue's
 * tag space (of the host's with shared tags: a per-LUN share).  The queue
 * is drained around the change, as a scheduler switch is, and the
 * scheduler's own depths (async_depth) follow.
 */
void smq_sched_set_nr_requests(struct smq_queue *q, unsigned int nr)
{
	smq_freeze_queue(q);
	smq_queue_limit_depth(q, nr);
	WRITE_ONCE(q->nr_requests, nr);
	if (q->sched && q->sched->depth_updated)
		q->sched->depth_updated(q);
	smq_unfreeze_queue(q);
}

/**
 * smq_sched_bio_merge - let the scheduler merge a bio
 * @q: queue with a scheduler
 * @bio: the bio
 * @nr_segs: its segments
 *
 * Return: true if the bio now rides on a queued request.
 */
bool smq_sched_bio_merge(struct smq_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	return q->sched->bio_merge && q->sched->bio_merge(q, bio, nr_segs);
}

/**
 * smq_sched_exit_queue - drop a dying queue's scheduler
 * @q: frozen queue, unregistered (no sysfs or debugfs files left)
 */
void smq_sched_exit_queue(struct smq_queue *q)
{
	if (!q->sched)
		return;
	q->sched->exit_sched(q);
	module_put(q->sched->owner);
	q->sched = NULL;
}
