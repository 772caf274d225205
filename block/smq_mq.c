// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: the multiqueue path, use_blk_mq=Y.
 *
 * Per-CPU software queues (struct smq_ctx) mapped onto hardware queues
 * (struct smq_hw_ctx) with the tag set's sbitmap tags, an optional
 * scheduler (smq_sched.c).  This file owns what makes a queue an mq
 * queue: its hardware and software queues (set up, mapped, freed), its
 * bio entry (merge into this CPU's software queue or the scheduler, a
 * request per tag, plug or direct issue) and its run ops; the dispatch
 * engine they drive is smq_dispatch.c, the tags smq_tag.c.  The rest of
 * block/ reaches it only through smq_mq_queue_ops (at the end), which
 * smq_queue_create() gives a queue of a multiqueue tag set, as
 * smq_legacy.c's table serves the legacy path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"
#include "smq_sched.h"
#include "smq_flush.h"

/* ---- hardware and software queues ---------------------------------- */

static void smq_free_hctx(struct smq_hw_ctx *hctx)
{
	/* No hotplug callback can kick the run work after this. */
	smq_hctx_cpuhp_del(hctx);
	cancel_delayed_work_sync(&hctx->run_work);
	free_percpu(hctx->stats);
	bitmap_free(hctx->ctx_map);
	kfree(hctx->ctxs);
	free_cpumask_var(hctx->cpumask);
	kfree(hctx);
}

/* A hardware queue is freed when its kobject (mq/<n>/ in sysfs) goes. */
static void smq_hctx_kobj_release(struct kobject *kobj)
{
	smq_free_hctx(container_of(kobj, struct smq_hw_ctx, kobj));
}

static const struct kobj_type smq_hctx_ktype = {
	.sysfs_ops = &smq_hctx_sysfs_ops,
	.default_groups = smq_hctx_groups,
	.release = smq_hctx_kobj_release,
};

/**
 * smq_alloc_hctx - allocate hardware queue @idx of a queue
 * @q: multiqueue queue
 * @idx: its index; the tag set's tags[@idx] exist
 *
 * Stores it in q->hctxs[@idx].  No CPU is mapped to it yet.
 *
 * Return: 0 or -ENOMEM (nothing is left behind then).
 */
int smq_alloc_hctx(struct smq_queue *q, unsigned int idx)
{
	struct smq_tag_set *set = q->tag_set;
	struct smq_hw_ctx *hctx;
	int node = set->numa_node;

	hctx = kzalloc_node(sizeof(*hctx), GFP_KERNEL, node);
	if (!hctx)
		return -ENOMEM;
	if (!zalloc_cpumask_var_node(&hctx->cpumask, GFP_KERNEL, node))
		goto free_hctx;
	hctx->ctxs = kcalloc_node(nr_cpu_ids, sizeof(*hctx->ctxs), GFP_KERNEL,
				  node);
	hctx->ctx_map = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	hctx->stats = alloc_percpu(struct smq_hctx_stats);
	if (!hctx->ctxs || !hctx->ctx_map || !hctx->stats)
		goto free_maps;
	spin_lock_init(&hctx->lock);
	INIT_LIST_HEAD(&hctx->dispatch);
	INIT_DELAYED_WORK(&hctx->run_work, smq_run_work_fn);
	hctx->q = q;
	hctx->queue_num = idx;
	hctx->poll = idx >= smq_set_nr_irq_queues(set);
	hctx->tags = set->tags[idx];
	hctx->next_cpu = -1;
	hctx->driver_data = set->driver_data;
	if (smq_hctx_cpuhp_add(hctx))
		goto free_maps;
	kobject_init(&hctx->kobj, &smq_hctx_ktype);
	q->hctxs[idx] = hctx;
	if (set->ops->init_hctx &&
	    set->ops->init_hctx(hctx, set->driver_data, idx)) {
		q->hctxs[idx] = NULL;
		smq_hctx_cpuhp_del(hctx);
		goto free_maps;
	}
	return 0;

free_maps:
	free_percpu(hctx->stats);
	bitmap_free(hctx->ctx_map);
	kfree(hctx->ctxs);
	free_cpumask_var(hctx->cpumask);
free_hctx:
	kfree(hctx);
	return -ENOMEM;
}

/* Set up every possible CPU's software queue (once per queue). */
static void smq_init_ctxs(struct smq_queue *q)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct smq_ctx *ctx = per_cpu_ptr(q->queue_ctx, cpu);

		spin_lock_init(&ctx->lock);
		INIT_LIST_HEAD(&ctx->rq_list);
		ctx->cpu = cpu;
		ctx->q = q;
	}
}

/**
 * smq_map_swqueues - attach every software queue to the hctx the map names
 * @q: multiqueue queue, new or frozen and quiesced (its software queues
 *	are empty)
 *
 * Rebuilds each hardware queue's CPU mask and software queue table from
 * the tag set's map (poll queues: their CPU mask from the poll map; they
 * have no software queue), and marks the hardware queues without an online CPU
 * inactive.  Takes cpus_read_lock(): no CPU hotplug callback reads the
 * masks meanwhile.
 */
void smq_map_swqueues(struct smq_queue *q)
{
	unsigned int cpu, i;

	cpus_read_lock();
	for (i = 0; i < q->nr_hw_queues; i++) {
		struct smq_hw_ctx *hctx = q->hctxs[i];

		cpumask_clear(hctx->cpumask);
		bitmap_zero(hctx->ctx_map, nr_cpu_ids);
		hctx->nr_ctx = 0;
		hctx->next_cpu = -1;
	}
	for_each_possible_cpu(cpu) {
		struct smq_ctx *ctx = per_cpu_ptr(q->queue_ctx, cpu);
		struct smq_hw_ctx *hctx = smq_map_cpu(q, cpu);

		WARN_ON_ONCE(!list_empty(&ctx->rq_list));
		ctx->hctx = hctx;
		ctx->index_hw = hctx->nr_ctx;
		hctx->ctxs[hctx->nr_ctx++] = ctx;
		cpumask_set_cpu(cpu, hctx->cpumask);
		/*
		 * The CPU's poll queue: its mask says where it runs and when
		 * it goes inactive (smq_cpuhp.c); no software queue feeds it.
		 */
		ctx->poll_hctx = NULL;
		if (q->tag_set->poll_map) {
			hctx = q->hctxs[q->tag_set->poll_map[cpu]];
			ctx->poll_hctx = hctx;
			cpumask_set_cpu(cpu, hctx->cpumask);
		}
	}
	smq_hctx_update_active(q);
	cpus_read_unlock();
}

/* ->free_queue: the hardware and software queues, also half made. */
static void smq_mq_free_queue(struct smq_queue *q)
{
	unsigned int i;

	for (i = 0; q->hctxs && i < q->nr_hw_queues; i++) {
		if (q->hctxs[i])
			kobject_put(&q->hctxs[i]->kobj);
	}
	kfree(q->hctxs);
	free_percpu(q->queue_ctx);
}

/* Wake the tasks sleeping for a tag of one of @q's hardware queues. */
static void smq_mq_mark_dying(struct smq_queue *q)
{
	unsigned int i, nr;

	rcu_read_lock();
	nr = smq_nr_hctx(q);
	for (i = 0; i < nr; i++) {
		struct smq_tags *tags = READ_ONCE(q->hctxs[i])->tags;

		smq_sbq_wake_all(&tags->bitmap_tags);
		smq_sbq_wake_all(&tags->breserved_tags);
	}
	rcu_read_unlock();
}

static int smq_init_mq(struct smq_queue *q)
{
	unsigned int i;
	int ret;

	q->nr_hw_queues = q->tag_set->nr_hw_queues;
	/* Room for every count smq_tag_set_update() may switch to. */
	q->hctxs = kcalloc_node(nr_cpu_ids, sizeof(*q->hctxs), GFP_KERNEL,
				q->tag_set->numa_node);
	q->queue_ctx = alloc_percpu(struct smq_ctx);
	if (!q->hctxs || !q->queue_ctx)
		return -ENOMEM;
	for (i = 0; i < q->nr_hw_queues; i++) {
		ret = smq_alloc_hctx(q, i);
		if (ret)
			return ret;
	}
	smq_init_ctxs(q);
	smq_map_swqueues(q);
	return 0;
}

/* A drained queue: stop its hardware queues' runs, end its scheduler. */
static void smq_exit_mq(struct smq_queue *q)
{
	unsigned int i;

	for (i = 0; i < q->nr_hw_queues; i++)
		cancel_delayed_work_sync(&q->hctxs[i]->run_work);
	smq_sched_exit_queue(q);
}

/* ---- bio entry ----------------------------------------------------- */

/**
 * smq_attempt_ctx_merge - merge a bio into a request in this CPU's queue
 * @q: queue
 * @bio: the bio
 * @nr_segs: its segments
 *
 * Return: true if the bio now rides on a queued request.
 */
static bool smq_attempt_ctx_merge(struct smq_queue *q, struct bio *bio,
				  unsigned int nr_segs)
{
	struct smq_ctx *ctx = raw_cpu_ptr(q->queue_ctx);
	bool merged;

	if (list_empty_careful(&ctx->rq_list))
		return false;
	spin_lock(&ctx->lock);
	merged = smq_bio_merge_list(q, &ctx->rq_list, bio, nr_segs);
	spin_unlock(&ctx->lock);
	return merged;
}

/**
 * smq_mq_submit_bio - bio entry of a multiqueue queue
 * @q: queue
 * @bio: bio, split to the limits
 */
void smq_mq_submit_bio(struct smq_queue *q, struct bio *bio)
{
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	struct smq_plug_cb *plug;
	struct smq_request *rq;
	unsigned int nr_segs;

	if (!smq_bio_enter(q, bio, &nr_segs, &plug))
		return;
	if (smq_may_merge(q, bio) &&
	    (q->sched ? smq_sched_bio_merge(q, bio, nr_segs) :
			smq_attempt_ctx_merge(q, bio, nr_segs))) {
		smq_queue_exit(q);
		return;
	}
	rq = smq_get_request(q, bio->bi_opf, nowait ? SMQ_REQ_NOWAIT : 0);
	if (!rq) {
		smq_queue_exit(q);
		smq_fail_bio(q, bio);
		return;
	}
	smq_rq_init_bio(rq, bio, nr_segs);
	smq_bio_set_cookie(rq, bio);
	/* Sleeping for a request flushed (and freed) the plug batch. */
	plug = smq_get_plug(q);
	smq_flush_prepare_rq(rq);
	if (plug)
		smq_plug_add(q, plug, rq);
	else
		smq_issue_direct(rq);
}

/* ---- runs and inserts ---------------------------------------------- */

/**
 * smq_mq_run_queues - run every hardware queue of a queue
 * @q: multiqueue queue
 * @async: from work items (required from atomic context)
 */
static void smq_mq_run_queues(struct smq_queue *q, bool async)
{
	unsigned int i, nr;

	/* Callers need no queue reference: see smq_nr_hctx(). */
	rcu_read_lock();
	nr = smq_nr_hctx(q);
	for (i = 0; i < nr; i++)
		smq_run_hw_queue(READ_ONCE(q->hctxs[i]), async);
	rcu_read_unlock();
}

/**
 * smq_mq_delay_run_queues - run every hardware queue after a delay
 * @q: multiqueue queue
 * @msecs: delay
 */
static void smq_mq_delay_run_queues(struct smq_queue *q, unsigned long msecs)
{
	unsigned int i, nr;

	rcu_read_lock();
	nr = smq_nr_hctx(q);
	for (i = 0; i < nr; i++)
		smq_delay_run_hw_queue(READ_ONCE(q->hctxs[i]), msecs);
	rcu_read_unlock();
}

/**
 * smq_mq_insert_request - queue a passthrough request and run its hctx
 * @rq: request
 */
static void smq_mq_insert_request(struct smq_request *rq)
{
	smq_insert_request(rq, false, true, false);
}

/**
 * smq_mq_requeue - put a requeued request back on its dispatch list
 * @rq: request from the requeue list; the caller runs the queue
 */
static void smq_mq_requeue(struct smq_request *rq)
{
	smq_insert_request(rq, false, false, false);
}

/*
 * The multiqueue path: per-CPU software queues, hardware queues with
 * sbitmap tags, an optional scheduler (smq_sched.c).  The legacy path's
 * table is in smq_legacy.c.
 */
const struct smq_queue_ops smq_mq_queue_ops = {
	.name = "mq",
	.init_queue = smq_init_mq,
	.exit_queue = smq_exit_mq,
	.free_queue = smq_mq_free_queue,
	.mark_dying = smq_mq_mark_dying,
	.submit_bio = smq_mq_submit_bio,
	.issue_list = smq_issue_list,
	.get_request = smq_get_request,
	.free_request = smq_mq_free_request,
	.insert_request = smq_mq_insert_request,
	.requeue = smq_mq_requeue,
	.run_queues = smq_mq_run_queues,
	.delay_run_queues = smq_mq_delay_run_queues,
	.busy_iter = smq_mq_busy_iter,
	.sched_show = smq_sched_show,
	.sched_switch = smq_sched_switch,
	.max_requests = smq_mq_max_requests,
	.set_nr_requests = smq_sched_set_nr_requests,
	.sysfs_register = smq_mq_sysfs_register,
	.sysfs_unregister = smq_mq_sysfs_unregister,
	.debugfs_register = smq_mq_debugfs_register,
	.debugfs_state = smq_mq_debugfs_state,
};
