// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: the single-queue (legacy) path, use_blk_mq=N.
 *
 * The design Linux used before blk-mq, kept honest: one request queue per
 * LUN and one lock, queue_lock, that protects everything of it (request
 * pool, elevator, dispatch state).  Submission merges into queued requests
 * and allocates from the pool under queue_lock; a plugged task's requests
 * go into the elevator in one lock round at unplug.  The dispatch loop
 * (request_fn) pulls requests from the elevator under queue_lock, drops
 * the lock around the driver's ->queue_rq and takes it back.  Completion
 * returns the request to the pool and reruns the loop from the completion
 * context, as scsi_run_queue did.
 *
 * The rest of block/ reaches this file only through smq_legacy_queue_ops
 * (at the end), which smq_queue_create() gives a queue of a SMQ_SET_LEGACY
 * tag set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include "smq_blk_int.h"
#include "smq_sched.h"
#include "smq_flush.h"

#define SMQ_LEGACY_NR_REQUESTS	128	/* default pool size, like BLKDEV_MAX_RQ */

static void smq_legacy_run_queue(struct smq_queue *q, bool async);
static void smq_legacy_delay_run_queue(struct smq_queue *q,
				       unsigned long msecs);

/**
 * struct smq_legacy_queue - state of a single-queue request queue
 * @queue_lock: protects @free, @nr_free, @limit, @elv, @elv_data,
 *	@dispatch, @running, @rerun, the waiters' condition on @wait and the
 *	queued requests' queuelist; the other fields are set up once
 * @free: stack of free requests of the pool
 * @nr_free: entries on @free
 * @nr_requests: pool size
 * @limit: requests that may be allocated at once (sysfs nr_requests)
 * @rqs: the pool's requests (an entry is NULL when the pool's setup
 *	failed before ->init_request ran for it)
 * @rq_pages: the memory behind @rqs (smq_rqs_alloc())
 * @wait: tasks waiting for a free request
 * @elv: elevator (a reference on its module is held)
 * @elv_data: its state
 * @dispatch: requeued requests, served before the elevator
 * @running: the dispatch loop runs (it is not reentered)
 * @rerun: a run was asked for while @running
 * @run_work: runs the dispatch loop from process context
 * @q: the queue this state belongs to (for @run_work)
 */
struct smq_legacy_queue {
	spinlock_t queue_lock;		/* pool, elevator, dispatch state */
	struct smq_request **free;
	unsigned int nr_free;
	unsigned int nr_requests;
	unsigned int limit;
	struct smq_request **rqs;
	struct list_head rq_pages;
	wait_queue_head_t wait;
	const struct smq_sched_ops *elv;
	void *elv_data;
	struct list_head dispatch;
	bool running;
	bool rerun;
	struct delayed_work run_work;
	struct smq_queue *q;
};

/* ---- noop: one FIFO ------------------------------------------------- */

static void *smq_noop_init(struct smq_queue *q)
{
	struct list_head *fifo = kmalloc(sizeof(*fifo), GFP_KERNEL);

	if (fifo)
		INIT_LIST_HEAD(fifo);
	return fifo;
}

static void smq_noop_exit(void *data)
{
	kfree(data);
}

static void smq_noop_add(void *data, struct smq_request *rq)
{
	list_add_tail(&rq->queuelist, data);
}

static struct smq_request *smq_noop_next(void *data)
{
	struct smq_request *rq;

	rq = list_first_entry_or_null((struct list_head *)data,
				      struct smq_request, queuelist);
	if (rq)
		list_del_init(&rq->queuelist);
	return rq;
}

static bool smq_noop_merge(void *data, struct smq_queue *q, struct bio *bio,
			   unsigned int nr_segs)
{
	return smq_bio_merge_list(q, data, bio, nr_segs);
}

static const struct smq_legacy_elv smq_noop_ops = {
	.init = smq_noop_init,
	.exit = smq_noop_exit,
	.add = smq_noop_add,
	.next = smq_noop_next,
	.merge = smq_noop_merge,
};

/* Built in, like the multiqueue path's none: not registered, no module. */
static const struct smq_sched_ops smq_legacy_noop = {
	.name = "noop",
	.legacy = &smq_noop_ops,
};

/* ---- request pool --------------------------------------------------- */

static int smq_legacy_alloc_pool(struct smq_queue *q,
				 struct smq_legacy_queue *lq)
{
	struct smq_tag_set *set = q->tag_set;
	unsigned int i;

	INIT_LIST_HEAD(&lq->rq_pages);
	lq->nr_requests = set->nr_legacy_requests ?: SMQ_LEGACY_NR_REQUESTS;
	lq->rqs = kcalloc_node(lq->nr_requests, sizeof(*lq->rqs), GFP_KERNEL,
			       set->numa_node);
	lq->free = kcalloc_node(lq->nr_requests, sizeof(*lq->free), GFP_KERNEL,
				set->numa_node);
	if (!lq->rqs || !lq->free)
		return -ENOMEM;
	if (smq_rqs_alloc(&lq->rq_pages, lq->rqs, lq->nr_requests,
			  smq_rq_size(set), set->numa_node)) {
		memset(lq->rqs, 0, lq->nr_requests * sizeof(*lq->rqs));
		return -ENOMEM;
	}
	for (i = 0; i < lq->nr_requests; i++) {
		struct smq_request *rq = lq->rqs[i];

		rq->tag = i;
		rq->budget_token = -1;
		INIT_LIST_HEAD(&rq->queuelist);
		if (set->ops->init_request &&
		    set->ops->init_request(set, rq, 0, set->numa_node)) {
			/* Only the initialised ones get ->exit_request. */
			memset(&lq->rqs[i], 0,
			       (lq->nr_requests - i) * sizeof(*lq->rqs));
			return -ENOMEM;
		}
		lq->free[lq->nr_free++] = rq;
	}
	return 0;
}

static void smq_legacy_free_pool(struct smq_queue *q,
				 struct smq_legacy_queue *lq)
{
	struct smq_tag_set *set = q->tag_set;
	unsigned int i;

	for (i = 0; lq->rqs && i < lq->nr_requests; i++) {
		if (lq->rqs[i] && set->ops->exit_request)
			set->ops->exit_request(set, lq->rqs[i], 0);
	}
	smq_rqs_free(&lq->rq_pages);
	kfree(lq->rqs);
	kfree(lq->free);
}

/* Take a free request; queue_lock held, may drop it to sleep. */
static struct smq_request *smq_legacy_get_rq(struct smq_queue *q,
					     bool nowait)
	__must_hold(&q->legacy->queue_lock)
{
	struct smq_legacy_queue *lq = q->legacy;
	DEFINE_WAIT(wait);

	lockdep_assert_held(&lq->queue_lock);
	while (lq->nr_requests - lq->nr_free >= lq->limit) {
		if (nowait || test_bit(SMQ_Q_DYING, &q->flags))
			return NULL;
		prepare_to_wait_exclusive(&lq->wait, &wait, TASK_UNINTERRUPTIBLE);
		spin_unlock_irq(&lq->queue_lock);
		io_schedule();
		spin_lock_irq(&lq->queue_lock);
		finish_wait(&lq->wait, &wait);
	}
	return lq->free[--lq->nr_free];
}

/**
 * smq_legacy_get_request - allocate a legacy request (passthrough users)
 * @q: legacy queue, entered
 * @opf: operation and flags
 * @flags: SMQ_REQ_NOWAIT: fail instead of sleeping (SMQ_REQ_RESERVED
 *	means nothing here: the pool has no reserved requests)
 *
 * Return: the request or NULL.
 */
static struct smq_request *smq_legacy_get_request(struct smq_queue *q,
						  blk_opf_t opf,
						  unsigned int flags)
{
	struct smq_legacy_queue *lq = q->legacy;
	bool nowait = flags & SMQ_REQ_NOWAIT;
	struct smq_request *rq;

	spin_lock_irq(&lq->queue_lock);
	rq = smq_legacy_get_rq(q, nowait);
	spin_unlock_irq(&lq->queue_lock);
	if (rq)
		smq_rq_init(rq, q, NULL, NULL, opf);
	return rq;
}

/**
 * smq_legacy_max_requests - the largest nr_requests a legacy queue takes
 * @q: legacy queue
 *
 * Return: its pool size.
 */
static unsigned int smq_legacy_max_requests(struct smq_queue *q)
{
	return q->legacy->nr_requests;
}

/**
 * smq_legacy_set_nr_requests - limit the requests allocated at once
 * @q: legacy queue, its sysfs_lock held (the smq/nr_requests file)
 * @nr: 1 .. smq_legacy_max_requests()
 *
 * Lowering it lets the requests out now finish; new ones wait until
 * fewer than @nr are out.
 */
static void smq_legacy_set_nr_requests(struct smq_queue *q, unsigned int nr)
{
	struct smq_legacy_queue *lq = q->legacy;

	lockdep_assert_held(&q->sysfs_lock);
	spin_lock_irq(&lq->queue_lock);
	lq->limit = nr;
	WRITE_ONCE(q->nr_requests, nr);
	wake_up_all(&lq->wait);
	spin_unlock_irq(&lq->queue_lock);
}

/**
 * smq_legacy_free_request - return a finished request to the pool
 * @rq: request
 *
 * Any context.  Reruns the dispatch loop: a request slot and a device
 * slot just freed.
 */
static void smq_legacy_free_request(struct smq_request *rq)
{
	struct smq_queue *q = rq->q;
	struct smq_legacy_queue *lq = q->legacy;
	unsigned long flags;

	spin_lock_irqsave(&lq->queue_lock, flags);
	WRITE_ONCE(rq->state, SMQ_RQ_IDLE);
	lq->free[lq->nr_free++] = rq;
	/*
	 * No barrier needed for the lockless peek: a waiter tests the free
	 * count and queues itself (prepare_to_wait_exclusive() in
	 * smq_legacy_get_rq()) under queue_lock, which we hold.
	 */
	if (waitqueue_active(&lq->wait))
		wake_up(&lq->wait);
	spin_unlock_irqrestore(&lq->queue_lock, flags);
	/* The request's usage reference keeps @q alive until the run is kicked. */
	smq_legacy_run_queue(q, in_hardirq() || irqs_disabled());
	smq_queue_exit(q);
}

/* ---- dispatch ------------------------------------------------------- */

/* The next request to dispatch: requeued ones first; queue_lock held. */
static struct smq_request *smq_legacy_next(struct smq_legacy_queue *lq)
	__must_hold(&lq->queue_lock)
{
	struct smq_request *rq;

	lockdep_assert_held(&lq->queue_lock);
	rq = list_first_entry_or_null(&lq->dispatch, struct smq_request,
				      queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		return rq;
	}
	return lq->elv->legacy->next(lq->elv_data);
}

/* Put back a request the driver did not take, in front; queue_lock held. */
static void smq_legacy_putback(struct smq_legacy_queue *lq,
			       struct smq_request *rq)
	__must_hold(&lq->queue_lock)
{
	lockdep_assert_held(&lq->queue_lock);
	list_add(&rq->queuelist, &lq->dispatch);
}

/*
 * The request_fn: queue_lock held with interrupts off on entry and exit;
 * dropped around each ->queue_rq.
 *
 * Quiesce: each request is taken, and the queue's quiesced state tested,
 * inside an RCU read-side section that lasts until its ->queue_rq has
 * returned, as the mq dispatch does.  smq_quiesce_queue() raises the
 * depth and then waits for a grace period, so once it returns no
 * ->queue_rq of this loop runs and no later pass starts one (it stops at
 * the test).  smq_unquiesce_queue() reruns the queue.
 */
static void smq_legacy_request_fn(struct smq_queue *q)
	__must_hold(&q->legacy->queue_lock)
{
	struct smq_legacy_queue *lq = q->legacy;
	const struct smq_mq_ops *ops = q->tag_set->ops;
	struct smq_request *rq;
	blk_status_t ret;

	lockdep_assert_held(&lq->queue_lock);
	if (lq->running) {
		lq->rerun = true;
		return;
	}
	lq->running = true;
	do {
		lq->rerun = false;
		for (;;) {
			rcu_read_lock();
			rq = smq_queue_quiesced(q) ? NULL : smq_legacy_next(lq);
			if (!rq) {
				rcu_read_unlock();
				break;
			}
			if (ops->get_budget) {
				int token = ops->get_budget(q);

				if (token < 0) {
					rcu_read_unlock();
					smq_legacy_putback(lq, rq);
					set_bit(SMQ_Q_BUDGET_WAIT, &q->flags);
					break;
				}
				rq->budget_token = token;
			}
			spin_unlock_irq(&lq->queue_lock);
			ret = ops->queue_rq(rq, true);
			rcu_read_unlock();
			spin_lock_irq(&lq->queue_lock);
			if (ret == BLK_STS_OK)
				continue;
			if (ret == BLK_STS_RESOURCE || ret == BLK_STS_DEV_RESOURCE) {
				WRITE_ONCE(rq->state, SMQ_RQ_IDLE);
				spin_unlock_irq(&lq->queue_lock);
				smq_put_budget(rq);
				spin_lock_irq(&lq->queue_lock);
				smq_legacy_putback(lq, rq);
				if (ret == BLK_STS_RESOURCE)
					smq_legacy_delay_run_queue(q, 3);
				break;
			}
			spin_unlock_irq(&lq->queue_lock);
			smq_end_request(rq, ret);
			spin_lock_irq(&lq->queue_lock);
		}
	} while (lq->rerun);
	lq->running = false;
}

static void smq_legacy_run_locked(struct smq_queue *q)
{
	struct smq_legacy_queue *lq = q->legacy;

	spin_lock_irq(&lq->queue_lock);
	smq_legacy_request_fn(q);
	spin_unlock_irq(&lq->queue_lock);
}

static void smq_legacy_run_work(struct work_struct *work)
{
	struct smq_legacy_queue *lq = container_of(work, struct smq_legacy_queue,
						   run_work.work);

	smq_legacy_run_locked(lq->q);
}

/**
 * smq_legacy_run_queue - run the dispatch loop
 * @q: legacy queue
 * @async: from the work item (required where interrupts are off)
 */
static void smq_legacy_run_queue(struct smq_queue *q, bool async)
{
	if (async) {
		mod_delayed_work(smq_wq, &q->legacy->run_work, 0);
		return;
	}
	smq_legacy_run_locked(q);
}

/**
 * smq_legacy_delay_run_queue - run the dispatch loop after a delay
 * @q: legacy queue
 * @msecs: delay
 */
static void smq_legacy_delay_run_queue(struct smq_queue *q,
				       unsigned long msecs)
{
	mod_delayed_work(smq_wq, &q->legacy->run_work, msecs_to_jiffies(msecs));
}

/**
 * smq_legacy_requeue - put a requeued request back in front
 * @rq: request from the requeue list
 */
static void smq_legacy_requeue(struct smq_request *rq)
{
	struct smq_legacy_queue *lq = rq->q->legacy;

	spin_lock_irq(&lq->queue_lock);
	list_add_tail(&rq->queuelist, &lq->dispatch);
	spin_unlock_irq(&lq->queue_lock);
}

/**
 * smq_legacy_insert - add a request to the elevator and run the queue
 * @rq: request (passthrough and flush steps go in front of the elevator)
 */
static void smq_legacy_insert(struct smq_request *rq)
{
	struct smq_queue *q = rq->q;
	struct smq_legacy_queue *lq = q->legacy;

	spin_lock_irq(&lq->queue_lock);
	if (rq->rq_flags & (SMQ_RQF_PASSTHROUGH | SMQ_RQF_STARTED))
		list_add_tail(&rq->queuelist, &lq->dispatch);
	else
		lq->elv->legacy->add(lq->elv_data, rq);
	smq_legacy_request_fn(q);
	spin_unlock_irq(&lq->queue_lock);
}

/* ---- bio entry ------------------------------------------------------ */

/**
 * smq_legacy_submit_bio - bio entry of a legacy queue
 * @q: legacy queue
 * @bio: bio, split to the limits
 */
static void smq_legacy_submit_bio(struct smq_queue *q, struct bio *bio)
{
	struct smq_legacy_queue *lq = q->legacy;
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	struct smq_plug_cb *plug;
	struct smq_request *rq;
	unsigned int nr_segs;

	if (!smq_bio_enter(q, bio, &nr_segs, &plug))
		return;
	spin_lock_irq(&lq->queue_lock);
	if (smq_may_merge(q, bio) &&
	    lq->elv->legacy->merge(lq->elv_data, q, bio, nr_segs)) {
		spin_unlock_irq(&lq->queue_lock);
		smq_queue_exit(q);
		return;
	}
	rq = smq_legacy_get_rq(q, nowait);
	if (!rq) {
		spin_unlock_irq(&lq->queue_lock);
		smq_queue_exit(q);
		smq_fail_bio(q, bio);
		return;
	}
	smq_rq_init(rq, q, NULL, NULL, bio->bi_opf);
	smq_rq_init_bio(rq, bio, nr_segs);
	/* Sleeping for a request flushed (and freed) the plug batch. */
	plug = smq_get_plug(q);
	smq_flush_prepare_rq(rq);
	if (plug) {
		spin_unlock_irq(&lq->queue_lock);
		smq_plug_add(q, plug, rq);
		return;
	}
	lq->elv->legacy->add(lq->elv_data, rq);
	smq_legacy_request_fn(q);
	spin_unlock_irq(&lq->queue_lock);
}

/**
 * smq_legacy_issue_list - insert a flushed plug's requests, one lock round
 * @q: legacy queue
 * @list: requests; emptied
 * @from_schedule: the task is about to sleep: run from the work item
 */
static void smq_legacy_issue_list(struct smq_queue *q, struct list_head *list,
				  bool from_schedule)
{
	struct smq_legacy_queue *lq = q->legacy;
	struct smq_request *rq, *next;

	spin_lock_irq(&lq->queue_lock);
	list_for_each_entry_safe(rq, next, list, queuelist) {
		list_del_init(&rq->queuelist);
		lq->elv->legacy->add(lq->elv_data, rq);
	}
	if (!from_schedule)
		smq_legacy_request_fn(q);
	spin_unlock_irq(&lq->queue_lock);
	if (from_schedule)
		smq_legacy_run_queue(q, true);
}

/* ---- elevator switching and lifetime ------------------------------- */

/* @name's elevator with a module reference (smq_sched_put()), or NULL. */
static const struct smq_sched_ops *smq_legacy_get_elv(const char *name)
{
	if (sysfs_streq(name, smq_legacy_noop.name))
		return &smq_legacy_noop;
	return smq_sched_get(name, true);
}

/**
 * smq_legacy_sched_show - the scheduler file of a legacy queue
 * @q: legacy queue
 * @page: sysfs buffer
 *
 * Return: the length of the text written to @page.
 */
static ssize_t smq_legacy_sched_show(struct smq_queue *q, char *page)
{
	/*
	 * Compared, never dereferenced: the names printed are the built-in
	 * noop's and the registry's (under smq_sched_lock), so an elevator
	 * switched away from and unloaded meanwhile is never touched.
	 */
	const struct smq_sched_ops *cur = READ_ONCE(q->legacy->elv);
	ssize_t len;

	len = sysfs_emit(page, cur == &smq_legacy_noop ? "[noop]" : "noop");
	len = smq_sched_list_show(page, len, cur, true);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

/**
 * smq_legacy_sched_switch - change the elevator of a legacy queue
 * @q: legacy queue, its sysfs_lock held (the smq/scheduler file, or
 *	smq_sched_init_queue())
 * @name: "noop" or a legacy elevator, loaded (smq_sched_get()) if need be
 *
 * Drains the queue (freeze), switches under queue_lock, and lets I/O in
 * again.
 *
 * Return: 0 or -EINVAL for an unknown name, -ENOMEM.
 */
static int smq_legacy_sched_switch(struct smq_queue *q, const char *name)
{
	struct smq_legacy_queue *lq = q->legacy;
	const struct smq_sched_ops *e, *old;
	void *old_data, *data;

	lockdep_assert_held(&q->sysfs_lock);
	e = smq_legacy_get_elv(name);
	if (!e) {
		pr_err("unknown elevator '%.*s'\n",
		       (int)strcspn(name, "\n"), name);
		return -EINVAL;
	}
	if (e == lq->elv) {
		smq_sched_put(e);
		return 0;
	}
	data = e->legacy->init(q);
	if (!data) {
		smq_sched_put(e);
		return -ENOMEM;
	}
	smq_freeze_queue(q);
	spin_lock_irq(&lq->queue_lock);
	old = lq->elv;
	old_data = lq->elv_data;
	WRITE_ONCE(lq->elv, e);
	lq->elv_data = data;
	spin_unlock_irq(&lq->queue_lock);
	old->legacy->exit(old_data);
	smq_sched_put(old);
	smq_unfreeze_queue(q);
	return 0;
}

/**
 * smq_legacy_init_queue - make @q a single-queue request queue
 * @q: new queue on a SMQ_SET_LEGACY tag set
 *
 * Return: 0, or -ENOMEM.
 */
static int smq_legacy_init_queue(struct smq_queue *q)
{
	struct smq_legacy_queue *lq;
	int ret;

	lq = kzalloc_node(sizeof(*lq), GFP_KERNEL, q->tag_set->numa_node);
	if (!lq)
		return -ENOMEM;
	q->legacy = lq;
	spin_lock_init(&lq->queue_lock);
	init_waitqueue_head(&lq->wait);
	INIT_LIST_HEAD(&lq->dispatch);
	INIT_DELAYED_WORK(&lq->run_work, smq_legacy_run_work);
	lq->q = q;
	lq->elv = &smq_legacy_noop;
	ret = smq_legacy_alloc_pool(q, lq);
	if (!ret) {
		lq->elv_data = lq->elv->legacy->init(q);
		if (!lq->elv_data)
			ret = -ENOMEM;
	}
	if (ret) {
		smq_legacy_free_pool(q, lq);
		kfree(lq);
		q->legacy = NULL;
		return ret;
	}
	lq->limit = lq->nr_requests;
	q->nr_requests = lq->nr_requests;
	pr_info("queue uses the legacy single-queue path (elevator %s, %u requests)\n",
		lq->elv->name, lq->nr_requests);
	return 0;
}

/**
 * smq_legacy_exit_queue - free a drained legacy queue's state
 * @q: queue
 */
static void smq_legacy_exit_queue(struct smq_queue *q)
{
	struct smq_legacy_queue *lq = q->legacy;

	cancel_delayed_work_sync(&lq->run_work);
	lq->elv->legacy->exit(lq->elv_data);
	smq_sched_put(lq->elv);
	smq_legacy_free_pool(q, lq);
	kfree(lq);
	q->legacy = NULL;
}

/**
 * smq_legacy_busy_iter - call @fn for every in-flight request of a queue
 * @q: legacy queue
 * @fn: callback; false stops
 * @data: its cookie
 */
static void smq_legacy_busy_iter(struct smq_queue *q,
				 bool (*fn)(struct smq_request *rq, void *data),
				 void *data)
{
	struct smq_legacy_queue *lq = q->legacy;
	unsigned int i;

	for (i = 0; i < lq->nr_requests; i++) {
		struct smq_request *rq = lq->rqs[i];

		if (READ_ONCE(rq->state) == SMQ_RQ_IN_FLIGHT && !fn(rq, data))
			return;
	}
}

/* ---- debugfs: /sys/kernel/debug/smq/<disk>/legacy/ ------------------ */

/* state: the pool, the elevator and the dispatch loop, under queue_lock. */
static int smq_legacy_state_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_legacy_queue *lq = q->legacy;
	unsigned int nr, limit, nr_free;
	bool running, rerun, waiters;
	char elv[SMQ_SCHED_NAME_MAX];

	spin_lock_irq(&lq->queue_lock);
	nr = lq->nr_requests;
	limit = lq->limit;
	nr_free = lq->nr_free;
	/* Copied: once switched away from, its module may go. */
	strscpy(elv, lq->elv->name, sizeof(elv));
	running = lq->running;
	rerun = lq->rerun;
	waiters = waitqueue_active(&lq->wait);	/* for display only */
	spin_unlock_irq(&lq->queue_lock);

	seq_printf(m, "elevator=%s\nnr_requests=%u\nlimit=%u\nfree=%u\nallocated=%u\nwaiters=%d\nrunning=%d\nrerun=%d\n",
		   elv, nr, limit, nr_free, nr - nr_free, waiters, running,
		   rerun);
	return 0;
}

/* dispatch: requeued requests served before the elevator, under queue_lock. */
static int smq_legacy_dispatch_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_legacy_queue *lq = q->legacy;

	spin_lock_irq(&lq->queue_lock);
	smq_debugfs_rq_list_show(m, &lq->dispatch);
	spin_unlock_irq(&lq->queue_lock);
	return 0;
}

/*
 * busy: started requests that have not ended, read lock-free like the
 * timeout scan (the pool is preallocated and lives as long as the queue).
 */
static int smq_legacy_busy_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_legacy_queue *lq = q->legacy;
	unsigned int i;

	for (i = 0; i < lq->nr_requests; i++) {
		struct smq_request *rq = lq->rqs[i];

		if (READ_ONCE(rq->state) != SMQ_RQ_IDLE)
			smq_debugfs_rq_show(m, rq);
	}
	return 0;
}

/* The files of legacy/; their data is the queue. */
static const struct smq_debugfs_attr smq_legacy_debugfs_attrs[] = {
	{ "state", smq_legacy_state_show },
	{ "dispatch", smq_legacy_dispatch_show },
	{ "busy", smq_legacy_busy_show },
	{ },
};

/**
 * smq_legacy_debugfs_register - create legacy/ under the queue's directory
 * @q: legacy queue being registered, its sysfs_lock held
 * @dir: the queue's debugfs directory
 */
static void smq_legacy_debugfs_register(struct smq_queue *q,
					struct dentry *dir)
{
	lockdep_assert_held(&q->sysfs_lock);
	smq_debugfs_create_files(debugfs_create_dir("legacy", dir), q,
				 smq_legacy_debugfs_attrs);
}

/**
 * smq_legacy_wake_all - wake every task waiting for a request (dying queue)
 * @q: legacy queue
 */
static void smq_legacy_wake_all(struct smq_queue *q)
{
	wake_up_all(&q->legacy->wait);
}

/* ---- the queue ops of the legacy path ------------------------------- */

/*
 * No sysfs_register (a legacy disk has no mq/ directory) and no
 * debugfs_state (legacy/state has the elevator and the pool).
 */
const struct smq_queue_ops smq_legacy_queue_ops = {
	.name = "legacy",
	.legacy_elevators = true,
	.init_queue = smq_legacy_init_queue,
	.exit_queue = smq_legacy_exit_queue,
	.mark_dying = smq_legacy_wake_all,
	.submit_bio = smq_legacy_submit_bio,
	.issue_list = smq_legacy_issue_list,
	.get_request = smq_legacy_get_request,
	.free_request = smq_legacy_free_request,
	.insert_request = smq_legacy_insert,
	.requeue = smq_legacy_requeue,
	.run_queues = smq_legacy_run_queue,
	.delay_run_queues = smq_legacy_delay_run_queue,
	.busy_iter = smq_legacy_busy_iter,
	.sched_show = smq_legacy_sched_show,
	.sched_switch = smq_legacy_sched_switch,
	.max_requests = smq_legacy_max_requests,
	.set_nr_requests = smq_legacy_set_nr_requests,
	.debugfs_register = smq_legacy_debugfs_register,
};
