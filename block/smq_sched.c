// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: scheduler registry (the plug-in interface of the multiqueue
 * schedulers and legacy elevators), module loading and refcounting, and
 * runtime switching of the multiqueue path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "smq_sched.h"

/* Protects smq_sched_list and the list linkage of its entries. */
static DEFINE_SPINLOCK(smq_sched_lock);
static LIST_HEAD(smq_sched_list);

/*
 * The scheduler a new queue starts with (smq_sched_init_queue()), read
 * once per queue; a name that is not registered loads its module.
 */
static char smq_mq_sched[SMQ_SCHED_NAME_MAX] = "none";
module_param_string(mq_scheduler, smq_mq_sched, sizeof(smq_mq_sched), 0444);
MODULE_PARM_DESC(mq_scheduler,
		 "scheduler of new multiqueue queues: none (default), mq-deadline, ...");
static char smq_legacy_sched[SMQ_SCHED_NAME_MAX] = "noop";
module_param_string(legacy_scheduler, smq_legacy_sched,
		    sizeof(smq_legacy_sched), 0444);
MODULE_PARM_DESC(legacy_scheduler,
		 "elevator of new legacy (use_blk_mq=N) queues: noop (default), deadline, ...");

/* A registered scheduler of that name and path; smq_sched_lock held. */
static struct smq_sched_ops *smq_sched_find(const char *name, bool legacy)
{
	struct smq_sched_ops *ops;

	lockdep_assert_held(&smq_sched_lock);
	list_for_each_entry(ops, &smq_sched_list, list) {
		if (!!ops->legacy == legacy && !strcmp(ops->name, name))
			return ops;
	}
	return NULL;
}

/**
 * smq_sched_register - make a scheduler selectable
 * @ops: the scheduler, with @ops->owner set to THIS_MODULE; it stays
 *	registered until smq_sched_unregister(), normally from the init and
 *	exit functions of the module that holds it
 *
 * Like Linux's elv_register(): the name must be unique among the
 * schedulers of its path (multiqueue or legacy), and a multiqueue
 * scheduler must provide its mandatory operations.
 *
 * Return: 0, -EINVAL for an incomplete @ops or an overlong name, -EBUSY
 * when a scheduler of that name is registered already.
 */
int smq_sched_register(struct smq_sched_ops *ops)
{
	int ret = 0;

	if (!ops->name || strlen(ops->name) >= SMQ_SCHED_NAME_MAX)
		return -EINVAL;
	if (!ops->legacy && (!ops->init_sched || !ops->exit_sched ||
			     !ops->insert_requests || !ops->dispatch_request ||
			     !ops->has_work))
		return -EINVAL;
	if (ops->legacy && (!ops->legacy->init || !ops->legacy->exit ||
			    !ops->legacy->add || !ops->legacy->next ||
			    !ops->legacy->merge))
		return -EINVAL;
	spin_lock(&smq_sched_lock);
	if (smq_sched_find(ops->name, ops->legacy))
		ret = -EBUSY;
	else
		list_add_tail(&ops->list, &smq_sched_list);
	spin_unlock(&smq_sched_lock);
	if (ret)
		pr_err("scheduler %s is registered already\n", ops->name);
	else
		pr_info("%s scheduler %s registered\n",
			ops->legacy ? "legacy" : "multiqueue", ops->name);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_sched_register);

/**
 * smq_sched_unregister - make a scheduler unselectable again
 * @ops: a scheduler registered with smq_sched_register()
 *
 * No queue uses @ops by then: each holds a reference on @ops->owner, so
 * the owner's exit function, which calls this, cannot run before the last
 * queue has switched away or died.
 */
void smq_sched_unregister(struct smq_sched_ops *ops)
{
	spin_lock(&smq_sched_lock);
	list_del_init(&ops->list);
	spin_unlock(&smq_sched_lock);
}
EXPORT_SYMBOL_GPL(smq_sched_unregister);

/* The registered scheduler @name, with a reference on its module. */
static const struct smq_sched_ops *smq_sched_find_get(const char *name,
						      bool legacy)
{
	struct smq_sched_ops *ops;

	spin_lock(&smq_sched_lock);
	ops = smq_sched_find(name, legacy);
	/* A module on its way out still sits in the list: not selectable. */
	if (ops && !try_module_get(ops->owner))
		ops = NULL;
	spin_unlock(&smq_sched_lock);
	return ops;
}

/**
 * smq_sched_get - look up a scheduler by name, loading its module if needed
 * @name: what was written to the scheduler file (trailing whitespace is
 *	ignored); not the built-in "none" or "noop"
 * @legacy: a legacy-path elevator rather than a multiqueue scheduler
 *
 * Like Linux's elevator_find_get() and elevator_change(): a name that is
 * not registered asks for module "smq-<name>-iosched" (the legacy
 * elevator modules are named so, the multiqueue ones answer to it with
 * MODULE_ALIAS()) and looks again.  May sleep: call it before freezing
 * the queue, since loading the module may need I/O.
 *
 * Return: the scheduler with a reference on its module (smq_sched_put()),
 * or NULL when there is no such scheduler for this path.
 */
const struct smq_sched_ops *smq_sched_get(const char *name, bool legacy)
{
	char buf[SMQ_SCHED_NAME_MAX];
	const struct smq_sched_ops *ops;

	if (strscpy(buf, name, sizeof(buf)) < 0)
		return NULL;
	strim(buf);
	if (!buf[0])
		return NULL;
	ops = smq_sched_find_get(buf, legacy);
	if (!ops && !request_module("smq-%s-iosched", buf))
		ops = smq_sched_find_get(buf, legacy);
	return ops;
}

/**
 * smq_sched_put - drop the module reference of smq_sched_get()
 * @ops: the scheduler (NULL: none)
 */
void smq_sched_put(const struct smq_sched_ops *ops)
{
	if (ops)
		module_put(ops->owner);
}

/**
 * smq_sched_list_show - append the registered schedulers of a path
 * @page: sysfs buffer holding @len bytes of text already
 * @len: where to append
 * @cur: the queue's scheduler, shown in brackets
 * @legacy: list legacy elevators rather than multiqueue schedulers
 *
 * Like Linux's scheduler file: only registered (loaded) schedulers.
 *
 * Return: the new length of the text in @page.
 */
ssize_t smq_sched_list_show(char *page, ssize_t len,
			    const struct smq_sched_ops *cur, bool legacy)
{
	struct smq_sched_ops *ops;

	spin_lock(&smq_sched_lock);
	list_for_each_entry(ops, &smq_sched_list, list) {
		if (!!ops->legacy != legacy)
			continue;
		len += sysfs_emit_at(page, len, cur == ops ? " [%s]" : " %s",
				     ops->name);
	}
	spin_unlock(&smq_sched_lock);
	return len;
}

/*
 * Publish @ops as the queue's scheduler.  The data path reads q->sched
 * without a lock (a switch freezes and quiesces the queue around the
 * change); readers outside it (debugfs state) copy what they need of the
 * ops under queue_lock, which is taken here, before the caller drops the
 * old scheduler's module reference: such a reader either sees the new
 * value or finishes with the old ops while its module is still pinned.
 */
static void smq_sched_set(struct smq_queue *q, const struct smq_sched_ops *ops)
{
	spin_lock_irq(&q->queue_lock);
	WRITE_ONCE(q->sched, ops);
	spin_unlock_irq(&q->queue_lock);
}

/*
 * Drain the queue (freeze) and stop dispatch (quiesce), swap schedulers,
 * let I/O in again.  The old scheduler is empty once the queue is frozen.
 * @ops (NULL: none) comes with a module reference, which the queue keeps
 * or which is dropped when it fails; the old scheduler's is dropped.
 */
static int smq_sched_change(struct smq_queue *q,
			    const struct smq_sched_ops *ops)
{
	int ret = 0;

	lockdep_assert_held(&q->sysfs_lock);
	smq_freeze_queue(q);
	smq_quiesce_queue(q);
	if (q->sched) {
		const struct smq_sched_ops *old = q->sched;

		smq_iosched_sysfs_del(q);
		smq_debugfs_unregister_sched(q);
		old->exit_sched(q);
		smq_sched_set(q, NULL);
		smq_sched_put(old);
	}
	if (ops) {
		ret = ops->init_sched(q);
		if (ret) {
			smq_sched_put(ops);
		} else {
			smq_sched_set(q, ops);
			if (ops->attrs && test_bit(SMQ_Q_REGISTERED, &q->flags))
				smq_iosched_sysfs_add(q, ops->attrs);
			smq_debugfs_register_sched(q);
		}
	}
	smq_unquiesce_queue(q);
	smq_unfreeze_queue(q);
	return ret;
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
	/*
	 * Compared, never dereferenced: the names printed come from the
	 * registry under smq_sched_lock, so a scheduler switched away from
	 * and unloaded meanwhile is never touched.
	 */
	const struct smq_sched_ops *cur = READ_ONCE(q->sched);
	ssize_t len;

	len = sysfs_emit(page, cur ? "none" : "[none]");
	len = smq_sched_list_show(page, len, cur, false);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

/**
 * smq_sched_switch - change a queue's scheduler
 * @q: queue, its sysfs_lock held (the smq/scheduler file)
 * @name: "none" or a scheduler, loaded (smq_sched_get()) if need be
 *
 * Freezes (drains) and quiesces the queue around the change.
 *
 * Return: 0, -EINVAL for an unknown name, or the scheduler's init error.
 */
int smq_sched_switch(struct smq_queue *q, const char *name)
{
	const struct smq_sched_ops *ops = NULL;

	lockdep_assert_held(&q->sysfs_lock);
	if (!sysfs_streq(name, "none")) {
		ops = smq_sched_get(name, false);
		if (!ops) {
			pr_err("unknown scheduler '%.*s'\n",
			       (int)strcspn(name, "\n"), name);
			return -EINVAL;
		}
	}
	if (ops == q->sched) {
		smq_sched_put(ops);
		return 0;
	}
	return smq_sched_change(q, ops);
}

/**
 * smq_sched_init_queue - give a new queue its default scheduler
 * @q: queue just set up by smq_queue_create(), not registered yet
 *
 * The smq_blk parameters mq_scheduler and legacy_scheduler name it; the
 * built-in none and noop need nothing.  A scheduler that cannot be had
 * (unknown name, no module, no memory) leaves the built-in one, with a
 * warning: the queue works without it.
 */
void smq_sched_init_queue(struct smq_queue *q)
{
	bool legacy = q->ops->legacy_elevators;
	const char *name = legacy ? smq_legacy_sched : smq_mq_sched;
	int ret;

	if (sysfs_streq(name, legacy ? "noop" : "none"))
		return;
	mutex_lock(&q->sysfs_lock);
	ret = q->ops->sched_switch(q, name);
	mutex_unlock(&q->sysfs_lock);
	if (ret)
		pr_warn("default scheduler %s not available (%d), using %s\n",
			name, ret, legacy ? "noop" : "none");
}

/**
 * smq_sched_set_nr_requests - change how many requests a queue may hold
 * @q: multiqueue queue, its sysfs_lock held (the smq/nr_requests file)
 * @nr: 1 .. the tag set's queue_depth (checked by the caller)
 *
 * New requests choose from the first @nr tags of their hardware queue's
 * tag space (of the host's with shared tags: a per-LUN share).  The queue
 * is drained around the change, as a scheduler switch is, and the
 * scheduler's own depths (async_depth) follow.
 */
void smq_sched_set_nr_requests(struct smq_queue *q, unsigned int nr)
{
	lockdep_assert_held(&q->sysfs_lock);
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
 * smq_sched_detach - end a queue's scheduler, keeping its module reference
 * @q: multiqueue queue, frozen and quiesced, its sysfs_lock held; its
 *	smq/iosched/ and debugfs sched/ already removed
 *
 * The first half of rebuilding the scheduler around a change of the
 * queue's hardware queues (smq_tag_set_update()); smq_sched_attach()
 * is the second.
 *
 * Return: the scheduler that ran the queue, or NULL (none).
 */
const struct smq_sched_ops *smq_sched_detach(struct smq_queue *q)
{
	const struct smq_sched_ops *ops = q->sched;

	lockdep_assert_held(&q->sysfs_lock);
	if (ops) {
		ops->exit_sched(q);
		smq_sched_set(q, NULL);
	}
	return ops;
}

/**
 * smq_sched_attach - start a scheduler that smq_sched_detach() ended
 * @q: the queue, still frozen and quiesced, its sysfs_lock held
 * @ops: what smq_sched_detach() returned (with its module reference)
 *
 * Fresh scheduler data (its tunables back to their defaults, as after a
 * switch).  If it cannot start (no memory) the queue runs none, as Linux
 * leaves a queue whose elevator fails to come back after a change of
 * nr_hw_queues, and a warning says so.  smq/iosched/ and debugfs sched/
 * are the caller's to add.
 */
void smq_sched_attach(struct smq_queue *q, const struct smq_sched_ops *ops)
{
	int ret;

	lockdep_assert_held(&q->sysfs_lock);
	if (!ops)
		return;
	ret = ops->init_sched(q);
	if (ret) {
		pr_warn("%s: scheduler %s not restarted (%d), using none\n",
			q->disk ? q->disk->disk_name : "?", ops->name, ret);
		smq_sched_put(ops);
		return;
	}
	smq_sched_set(q, ops);
}

/**
 * smq_sched_exit_queue - drop a dying queue's scheduler
 * @q: frozen queue, unregistered (no sysfs or debugfs files left)
 */
void smq_sched_exit_queue(struct smq_queue *q)
{
	const struct smq_sched_ops *old = q->sched;

	if (!old)
		return;
	old->exit_sched(q);
	smq_sched_set(q, NULL);
	smq_sched_put(old);
}
