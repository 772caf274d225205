// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: changing a tag set's hardware queues at runtime, their count
 * (nr_hw_queues) or the CPU -> hardware queue map, as Linux's
 * blk_mq_update_nr_hw_queues() does for a whole tag set.
 *
 * smq_tag_set_update():
 *   1. freeze every queue of the set (drain: no request is in flight,
 *      none can be allocated) and quiesce it (no queue run dispatches);
 *   2. allocate what a larger count needs: the tag spaces of the new
 *      hardware queues (unless the host's tags are shared) and the new
 *      hardware queues of every queue.  They are stored past the used
 *      count, where nothing looks;
 *   3. ask the driver to switch (->update_hw_queues: reply queues and
 *      their CPU masks), then compute the map (->map_queues, or copy the
 *      user's map) and check it.  A failure up to here undoes what was
 *      done, the driver's switch included, and leaves the old count;
 *   4. per queue, under its sysfs_lock: remove the hardware queues'
 *      sysfs and debugfs files, end the scheduler, publish the new count,
 *      rebuild the software -> hardware queue links from the map, start
 *      the scheduler again, add the files back;
 *   5. after an RCU grace period, free what a smaller count left over
 *      (queue runs that hold no usage reference walk the hardware queues
 *      under rcu_read_lock(): smq_nr_hctx());
 *   6. unquiesce and unfreeze.
 *
 * Hardware queues and tag spaces below the smaller of the two counts are
 * kept (their counters too), as Linux keeps its hctxs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

/**
 * struct smq_update - one smq_tag_set_update() in progress
 * @set: the tag set
 * @old_nr: its hardware queues before
 * @nr: after
 * @old_map: a copy of its map before
 * @old_user_map: whether that map was the user's
 */
struct smq_update {
	struct smq_tag_set *set;
	unsigned int old_nr;
	unsigned int nr;
	unsigned int *old_map;
	bool old_user_map;
};

static void smq_update_stop(struct smq_tag_set *set)
{
	struct smq_queue *q;

	list_for_each_entry(q, &set->tag_list, tag_set_list)
		smq_freeze_queue(q);
	list_for_each_entry(q, &set->tag_list, tag_set_list)
		smq_quiesce_queue(q);
}

static void smq_update_restart(struct smq_tag_set *set)
{
	struct smq_queue *q;

	list_for_each_entry(q, &set->tag_list, tag_set_list)
		smq_unquiesce_queue(q);
	list_for_each_entry(q, &set->tag_list, tag_set_list)
		smq_unfreeze_queue(q);
}

/* Free the hardware queues @from..@to-1 of @q that were never published. */
static void smq_update_free_hctxs(struct smq_queue *q, unsigned int from,
				  unsigned int to)
{
	unsigned int i;

	for (i = from; i < to; i++) {
		if (q->hctxs[i]) {
			kobject_put(&q->hctxs[i]->kobj);
			q->hctxs[i] = NULL;
		}
	}
}

/* Free the tag spaces @from..@to-1 of the set (none with shared tags). */
static void smq_update_free_tags(struct smq_tag_set *set, unsigned int from,
				 unsigned int to)
{
	unsigned int i;

	for (i = from; i < to; i++) {
		if (!set->shared_tags)
			smq_tags_free(set, set->tags[i], i);
		set->tags[i] = NULL;
	}
}

/* Undo smq_update_alloc(). */
static void smq_update_unalloc(struct smq_update *u)
{
	struct smq_queue *q;

	if (u->nr <= u->old_nr)
		return;
	list_for_each_entry(q, &u->set->tag_list, tag_set_list)
		smq_update_free_hctxs(q, u->old_nr, u->nr);
	smq_update_free_tags(u->set, u->old_nr, u->nr);
}

/* Step 2: what a larger count needs, stored past the used entries. */
static int smq_update_alloc(struct smq_update *u)
{
	struct smq_tag_set *set = u->set;
	struct smq_queue *q;
	unsigned int i;

	for (i = u->old_nr; i < u->nr; i++) {
		set->tags[i] = set->shared_tags ?:
			       smq_tag_set_alloc_one(set, i);
		if (!set->tags[i])
			goto fail;
	}
	list_for_each_entry(q, &set->tag_list, tag_set_list) {
		for (i = u->old_nr; i < u->nr; i++) {
			if (smq_alloc_hctx(q, i))
				goto fail;
		}
	}
	return 0;

fail:
	smq_update_unalloc(u);
	return -ENOMEM;
}

/* Step 3 after the driver switched: the new map, checked. */
static int smq_update_map(struct smq_update *u, const unsigned int *map)
{
	struct smq_tag_set *set = u->set;
	int ret = 0;

	/*
	 * ->map_queues computes for set->nr_hw_queues; new tag spaces before
	 * the count that covers them (smq_tagset_busy_iter()).
	 */
	smp_store_release(&set->nr_hw_queues, u->nr);
	if (map)
		memcpy(set->map, map, nr_cpu_ids * sizeof(*set->map));
	else if (set->ops->map_queues)
		set->ops->map_queues(set);
	else
		ret = smq_map_queues_default(set);
	if (!ret)
		ret = smq_map_check(set, u->nr, set->map);
	if (ret) {
		WRITE_ONCE(set->nr_hw_queues, u->old_nr);
		memcpy(set->map, u->old_map, nr_cpu_ids * sizeof(*set->map));
		return ret;
	}
	set->user_map = !!map;
	return 0;
}

/* Step 4 for one queue. */
static void smq_update_queue(struct smq_update *u, struct smq_queue *q)
{
	bool registered = test_bit(SMQ_Q_REGISTERED, &q->flags);
	const struct smq_sched_ops *sched;
	unsigned int i;

	lockdep_assert_held(&q->sysfs_lock);
	if (registered) {
		smq_iosched_sysfs_del(q);
		smq_debugfs_unregister(q);
		for (i = u->nr; i < u->old_nr; i++)
			smq_hctx_kobj_del(q->hctxs[i]);
	}
	/* Removed hardware queues keep no CPU (hotplug callbacks skip them). */
	for (i = u->nr; i < u->old_nr; i++) {
		cpumask_clear(q->hctxs[i]->cpumask);
		q->hctxs[i]->nr_ctx = 0;
	}
	sched = smq_sched_detach(q);

	/* New entries before the count that covers them (smq_nr_hctx()). */
	smp_store_release(&q->nr_hw_queues, u->nr);
	smq_map_swqueues(q);

	smq_sched_attach(q, sched);
	/* New tag spaces learn the queue's share (smq/nr_requests). */
	smq_queue_limit_depth(q, q->nr_requests);
	if (registered) {
		for (i = u->old_nr; i < u->nr; i++) {
			if (kobject_add(&q->hctxs[i]->kobj, &q->mq_kobj, "%u", i))
				pr_warn("%s: no sysfs mq/%u\n",
					q->disk->disk_name, i);
		}
		if (q->sched && q->sched->attrs)
			smq_iosched_sysfs_add(q, q->sched->attrs);
		smq_debugfs_register(q);
	}
}

/*
 * Step 5: free the hardware queues and tags a smaller count left over.
 * They stayed in place past the new count: a queue run (or
 * smq_tagset_busy_iter()) that read the old count still finds them valid
 * until the grace period ends.
 */
static void smq_update_release(struct smq_update *u)
{
	struct smq_tag_set *set = u->set;
	struct smq_queue *q;

	if (u->nr >= u->old_nr)
		return;
	synchronize_rcu();
	/* smq_free_hctx() cancels their run work. */
	list_for_each_entry(q, &set->tag_list, tag_set_list)
		smq_update_free_hctxs(q, u->nr, u->old_nr);
	smq_update_free_tags(set, u->nr, u->old_nr);
}

/**
 * smq_tag_set_update - change a tag set's hardware queues at runtime
 * @set: multiqueue tag set whose driver has ->update_hw_queues
 * @nr: hardware queues from now on, 1..nr_cpu_ids
 * @map: the CPU -> queue map to use (nr_cpu_ids entries, every possible
 *	CPU on a queue below @nr), or NULL for the driver's (->map_queues)
 *
 * Drains every queue of the set and rebuilds hardware queues, tags, the
 * CPU map and the software queue links, and restarts each queue's
 * scheduler (with fresh data; a scheduler that cannot restart leaves its
 * queue on none).  The caller keeps queues from being created or
 * destroyed on the set meanwhile (the SCSI midlayer holds the host's
 * scan_mutex).  Sleeps.
 *
 * Return: 0; -EINVAL for a legacy set, a set whose driver cannot change,
 * a set with poll queues (their count and map are fixed at init), a bad
 * @nr or a map the driver gets wrong; -ENOMEM; or the driver's
 * error.  On error the set runs as before.
 */
int smq_tag_set_update(struct smq_tag_set *set, unsigned int nr,
		       const unsigned int *map)
{
	struct smq_update u = {
		.set = set,
		.old_nr = set->nr_hw_queues,
		.nr = nr,
		.old_user_map = set->user_map,
	};
	struct smq_queue *q;
	int ret;

	if ((set->flags & SMQ_SET_LEGACY) || !set->ops->update_hw_queues ||
	    !nr || nr > nr_cpu_ids)
		return -EINVAL;
	if (set->nr_poll_queues) {
		pr_err("tag set with %u poll queue(s): its hardware queues are fixed\n",
		       set->nr_poll_queues);
		return -EINVAL;
	}
	if (map) {
		ret = smq_map_check(set, nr, map);
		if (ret)
			return ret;
	}
	u.old_map = kmemdup(set->map, nr_cpu_ids * sizeof(*set->map),
			    GFP_KERNEL);
	if (!u.old_map)
		return -ENOMEM;

	mutex_lock(&set->tag_list_lock);
	smq_update_stop(set);
	ret = smq_update_alloc(&u);
	if (ret)
		goto restart;
	ret = set->ops->update_hw_queues(set, nr, map);
	if (ret)
		goto unalloc;
	ret = smq_update_map(&u, map);
	if (ret) {
		/* The driver goes back to what it ran; that cannot fail. */
		WARN_ON_ONCE(set->ops->update_hw_queues(set, u.old_nr,
							u.old_user_map ?
							u.old_map : NULL));
		goto unalloc;
	}
	list_for_each_entry(q, &set->tag_list, tag_set_list) {
		mutex_lock(&q->sysfs_lock);
		smq_update_queue(&u, q);
		mutex_unlock(&q->sysfs_lock);
	}
	smq_update_release(&u);
	goto restart;

unalloc:
	smq_update_unalloc(&u);
restart:
	smq_update_restart(set);
	mutex_unlock(&set->tag_list_lock);
	kfree(u.old_map);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_tag_set_update);
