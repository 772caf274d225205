// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: queue lifetime, path-neutral: create and destroy; the path's
 * struct smq_queue_ops does the rest (smq_mq.c, smq_legacy.c).  Usage
 * references, freeze and quiesce are smq_freeze.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

static void smq_free_plug_cache(struct smq_queue *q)
{
	unsigned int cpu;

	if (!q->plug_cache)
		return;
	for_each_possible_cpu(cpu)
		kfree(*per_cpu_ptr(q->plug_cache, cpu));
	free_percpu(q->plug_cache);
}

static void smq_queue_free(struct smq_queue *q)
{
	if (q->ops->free_queue)
		q->ops->free_queue(q);
	smq_free_plug_cache(q);
	percpu_ref_exit(&q->q_usage_counter);
	kfree(q);
}

/**
 * smq_queue_create - create a request queue on a tag set
 * @set: initialised tag set (smq_tag_set_init())
 * @queuedata: owner's pointer, returned by smq_queue_data()
 *
 * Return: the queue or an ERR_PTR.
 */
struct smq_queue *smq_queue_create(struct smq_tag_set *set, void *queuedata)
{
	struct smq_queue *q;
	int ret;

	q = kzalloc_node(sizeof(*q), GFP_KERNEL, set->numa_node);
	if (!q)
		return ERR_PTR(-ENOMEM);
	/* The one place that chooses the path; everything else asks q->ops. */
	q->ops = set->flags & SMQ_SET_LEGACY ? &smq_legacy_queue_ops :
					       &smq_mq_queue_ops;
	q->tag_set = set;
	q->queuedata = queuedata;
	mutex_init(&q->sysfs_lock);
	spin_lock_init(&q->queue_lock);
	INIT_LIST_HEAD(&q->requeue_list);
	INIT_DELAYED_WORK(&q->requeue_work, smq_requeue_work);
	timer_setup(&q->timeout_timer, smq_timeout_timer, 0);
	INIT_WORK(&q->timeout_work, smq_timeout_work);
	q->rq_affinity = 1;
	q->nr_requests = set->queue_depth;
	/* Until the disk's limits arrive (passthrough during the scan). */
	q->max_sectors = SMQ_DEFAULT_MAX_SECTORS;
	q->max_segments = SMQ_DEFAULT_MAX_SEGMENTS;
	q->max_segment_size = SMQ_DEFAULT_MAX_SEGMENT_SIZE;
	ret = smq_queue_usage_init(q);
	if (ret) {
		kfree(q);
		return ERR_PTR(ret);
	}
	q->plug_cache = alloc_percpu(struct smq_plug_cb *);
	if (!q->plug_cache)
		ret = -ENOMEM;
	else
		ret = q->ops->init_queue(q);
	if (ret) {
		smq_queue_free(q);
		return ERR_PTR(ret);
	}
	smq_sched_init_queue(q);
	mutex_lock(&set->tag_list_lock);
	list_add_tail(&q->tag_set_list, &set->tag_list);
	mutex_unlock(&set->tag_list_lock);
	return q;
}
EXPORT_SYMBOL_GPL(smq_queue_create);

/**
 * smq_queue_destroy - drain and free a queue
 * @q: queue (its disk already deleted or never added)
 *
 * Requests still in flight finish first; new ones fail.
 */
void smq_queue_destroy(struct smq_queue *q)
{
	struct smq_tag_set *set = q->tag_set;

	smq_set_queue_dying(q);
	smq_freeze_queue(q);
	del_timer_sync(&q->timeout_timer);
	cancel_work_sync(&q->timeout_work);
	cancel_delayed_work_sync(&q->requeue_work);
	q->ops->exit_queue(q);
	mutex_lock(&set->tag_list_lock);
	list_del(&q->tag_set_list);
	mutex_unlock(&set->tag_list_lock);
	smq_queue_free(q);
}
EXPORT_SYMBOL_GPL(smq_queue_destroy);

/**
 * smq_queue_data - the owner's pointer given to smq_queue_create()
 * @q: queue
 *
 * Return: the pointer, or NULL if none was given.
 */
void *smq_queue_data(const struct smq_queue *q)
{
	return q->queuedata;
}
EXPORT_SYMBOL_GPL(smq_queue_data);

/**
 * smq_queue_tag_set - the tag set a queue allocates from
 * @q: queue
 *
 * Return: the tag set.
 */
struct smq_tag_set *smq_queue_tag_set(const struct smq_queue *q)
{
	return q->tag_set;
}
EXPORT_SYMBOL_GPL(smq_queue_tag_set);
