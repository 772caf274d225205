// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: queue lifetime, software and hardware queues, freeze and
 * quiesce.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

static void smq_usage_release(struct percpu_ref *ref)
{
	struct smq_queue *q = container_of(ref, struct smq_queue, q_usage_counter);

	wake_up_all(&q->freeze_wq);
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
	smq_hctx_kobj_init(hctx);
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

/**
 * smq_hctx_stat - a dispatch counter of a hardware queue
 * @hctx: hardware queue
 * @stat: which
 *
 * Return: the sum of the CPUs' counts, exact once the counting has stopped.
 */
unsigned long smq_hctx_stat(struct smq_hw_ctx *hctx, enum smq_hctx_stat stat)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(hctx->stats, cpu)->count[stat]);
	return sum;
}

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

static void smq_free_hctxs(struct smq_queue *q)
{
	unsigned int i;

	for (i = 0; i < q->nr_hw_queues; i++) {
		if (q->hctxs[i])
			kobject_put(&q->hctxs[i]->kobj);
	}
	kfree(q->hctxs);
}

/**
 * smq_hctx_release - free a hardware queue once its kobject goes
 * @hctx: the hardware queue
 */
void smq_hctx_release(struct smq_hw_ctx *hctx)
{
	smq_free_hctx(hctx);
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

/*
 * The multiqueue path: per-CPU software queues, hardware queues with
 * sbitmap tags, an optional scheduler (smq_sched.c).  The legacy path's
 * table is in smq_legacy.c.
 */
const struct smq_queue_ops smq_mq_queue_ops = {
	.name = "mq",
	.init_queue = smq_init_mq,
	.exit_queue = smq_exit_mq,
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
	if (q->hctxs)
		smq_free_hctxs(q);
	smq_free_plug_cache(q);
	free_percpu(q->queue_ctx);
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
	init_waitqueue_head(&q->freeze_wq);
	mutex_init(&q->freeze_lock);
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
	/* ALLOW_REINIT: a freeze kills it, an unfreeze resurrects it. */
	ret = percpu_ref_init(&q->q_usage_counter, smq_usage_release,
			      PERCPU_REF_ALLOW_REINIT, GFP_KERNEL);
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
