// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: dispatch.  Requests reach the driver from four places: direct
 * issue by the submitting task when its hardware queue is idle, a flushed
 * plug, a run of the hardware queue (software queues or the scheduler),
 * and the hardware queue's dispatch list of requests the driver refused or
 * handed back.
 *
 * Locking: ctx->lock and hctx->lock are taken in process context only
 * (submission, queue runs, work items); completion paths never take them,
 * they only kick asynchronous runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

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

/* Rerun delay after a BUSY that carries no restart guarantee */
#define SMQ_RESOURCE_DELAY_MS	3

static int smq_hctx_next_cpu(struct smq_hw_ctx *hctx)
{
	int cpu = cpumask_next_and(hctx->next_cpu, hctx->cpumask,
				   cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first_and(hctx->cpumask, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return WORK_CPU_UNBOUND;
	WRITE_ONCE(hctx->next_cpu, cpu);
	return cpu;
}

/**
 * smq_delay_run_hw_queue - run a hardware queue from its work after a delay
 * @hctx: hardware queue
 * @msecs: delay
 */
void smq_delay_run_hw_queue(struct smq_hw_ctx *hctx, unsigned long msecs)
{
	mod_delayed_work_on(smq_hctx_next_cpu(hctx), smq_wq, &hctx->run_work,
			    msecs_to_jiffies(msecs));
}

/*
 * Take a device budget token of @q into *@token (-1 when the driver keeps
 * no budget).  Returns false when the device has none to give: a budget
 * given back then reruns the queue.
 */
static bool smq_get_budget_token(struct smq_queue *q, int *token)
{
	const struct smq_mq_ops *ops = q->tag_set->ops;

	*token = -1;
	if (!ops->get_budget)
		return true;
	*token = ops->get_budget(q);
	if (*token < 0) {
		set_bit(SMQ_Q_BUDGET_WAIT, &q->flags);
		/*
		 * Order the flag before trying again; pairs with smp_mb() in
		 * smq_put_budget_token(): a budget given back between the
		 * failure and the flag is either seen by this second try, or
		 * its smq_put_budget_token() sees the flag and reruns the
		 * queue.
		 */
		smp_mb__after_atomic();
		*token = ops->get_budget(q);
		if (*token < 0)
			return false;
	}
	return true;
}

/* Give back a budget token of @q; rerun the queue if a dispatch waits. */
static void smq_put_budget_token(struct smq_queue *q, int token)
{
	if (token < 0)
		return;
	q->tag_set->ops->put_budget(q, token);
	smq_budget_waiters_run(q);
}

/**
 * smq_budget_waiters_run - rerun a queue that waits for a budget
 * @q: queue some of whose budgets were just given back
 */
void smq_budget_waiters_run(struct smq_queue *q)
{
	/*
	 * Order the budget given back before the test of the flag; pairs
	 * with smp_mb__after_atomic() in smq_get_budget_token(): either this
	 * sees SMQ_Q_BUDGET_WAIT and reruns the queue, or that second
	 * ->get_budget() sees the budget given back.  A full barrier:
	 * test_bit() is no atomic read-modify-write that
	 * smp_mb__before_atomic() would order.
	 */
	smp_mb();
	if (test_bit(SMQ_Q_BUDGET_WAIT, &q->flags) &&
	    test_and_clear_bit(SMQ_Q_BUDGET_WAIT, &q->flags))
		smq_run_hw_queues(q, true);
}

static bool smq_get_budget(struct smq_request *rq)
{
	int token;

	if (rq->budget_token >= 0)
		return true;
	if (!smq_get_budget_token(rq->q, &token))
		return false;
	rq->budget_token = token;
	return true;
}

/**
 * smq_put_budget - give back a request's device budget
 * @rq: request
 *
 * Reruns the queue's hardware queues if a dispatch waits for budget.
 */
void smq_put_budget(struct smq_request *rq)
{
	int token = rq->budget_token;

	if (token < 0)
		return;
	rq->budget_token = -1;
	smq_put_budget_token(rq->q, token);
}

/**
 * smq_put_rq_budget_nowake - give back a request's budget, if it holds one
 * @rq: request
 *
 * Without the check for a dispatch waiting for budget: the caller calls
 * smq_budget_waiters_run() for the queue afterwards (once for several
 * requests of the queue, in a completion batch).
 *
 * Return: true if a budget was given back.
 */
bool smq_put_rq_budget_nowake(struct smq_request *rq)
{
	int token = rq->budget_token;

	if (token < 0)
		return false;
	rq->budget_token = -1;
	rq->q->tag_set->ops->put_budget(rq->q, token);
	return true;
}

/*
 * Hand the requests on @list to the driver in order.  Returns true when
 * the list was emptied; otherwise the rest went to the dispatch list and a
 * rerun is arranged.
 */
static bool smq_dispatch_list(struct smq_hw_ctx *hctx, struct list_head *list)
{
	struct smq_queue *q = hctx->q;
	const struct smq_mq_ops *ops = q->tag_set->ops;
	blk_status_t ret = BLK_STS_OK;
	bool no_budget = false;
	unsigned int queued = 0;
	struct smq_request *rq;

	while (!list_empty(list)) {
		rq = list_first_entry(list, struct smq_request, queuelist);
		if (!smq_get_budget(rq)) {
			no_budget = true;
			break;
		}
		list_del_init(&rq->queuelist);
		ret = ops->queue_rq(rq, list_empty(list));
		if (likely(ret == BLK_STS_OK)) {
			queued++;
			continue;
		}
		if (ret == BLK_STS_RESOURCE || ret == BLK_STS_DEV_RESOURCE) {
			/* Not the driver's: no timeout while it waits here. */
			WRITE_ONCE(rq->state, SMQ_RQ_IDLE);
			smq_put_budget(rq);
			list_add(&rq->queuelist, list);
			break;
		}
		smq_end_request(rq, ret);
	}
	smq_hctx_stat_add(hctx, SMQ_HCTX_DISPATCHED, queued);
	if (list_empty(list)) {
		if (hctx->dispatch_busy)
			WRITE_ONCE(hctx->dispatch_busy, hctx->dispatch_busy / 2);
		return true;
	}

	smq_hctx_stat_inc(hctx, SMQ_HCTX_BUSY);
	WRITE_ONCE(hctx->dispatch_busy, min(hctx->dispatch_busy + 4, 16U));
	/* Requests not tried give back the budget a scheduler run took. */
	list_for_each_entry(rq, list, queuelist)
		smq_put_budget(rq);
	spin_lock(&hctx->lock);
	list_splice_init(list, &hctx->dispatch);
	spin_unlock(&hctx->lock);
	/*
	 * Rerun when one of ours completes ...  Order the requests put on
	 * hctx->dispatch before the flag; pairs with the fully ordered
	 * test_and_clear_bit() in smq_hctx_restart(), after which
	 * smq_run_hw_queue() looks at hctx->dispatch without the lock.
	 */
	smp_mb__before_atomic();
	set_bit(SMQ_S_RESTART, &hctx->state);
	/* ... and after a delay where no completion is promised. */
	if (ret == BLK_STS_RESOURCE || no_budget)
		smq_delay_run_hw_queue(hctx, SMQ_RESOURCE_DELAY_MS);
	return false;
}

/*
 * Take the first request of the next software queue with requests, from
 * hctx->dispatch_from on (round robin), or NULL.
 */
static struct smq_request *smq_dequeue_from_ctx(struct smq_hw_ctx *hctx)
{
	unsigned int start = READ_ONCE(hctx->dispatch_from);
	unsigned int i;

	if (start >= hctx->nr_ctx)
		start = 0;
	i = find_next_bit(hctx->ctx_map, hctx->nr_ctx, start);
	if (i >= hctx->nr_ctx)
		i = find_first_bit(hctx->ctx_map, hctx->nr_ctx);
	while (i < hctx->nr_ctx) {
		struct smq_ctx *ctx = hctx->ctxs[i];
		struct smq_request *rq;

		spin_lock(&ctx->lock);
		rq = list_first_entry_or_null(&ctx->rq_list,
					      struct smq_request, queuelist);
		if (rq)
			list_del_init(&rq->queuelist);
		/* An inserter sets the bit after its unlock: never lost. */
		if (list_empty(&ctx->rq_list))
			clear_bit(i, hctx->ctx_map);
		spin_unlock(&ctx->lock);
		if (rq) {
			WRITE_ONCE(hctx->dispatch_from, i + 1);
			return rq;
		}
		i = find_first_bit(hctx->ctx_map, hctx->nr_ctx);
	}
	return NULL;
}

/*
 * While the device is the limit (a recent BUSY or budget shortage): one
 * request at a time, each on a device budget taken before it leaves its
 * software queue.  What the device cannot take yet stays there, instead of
 * going to the dispatch list and being walked and put back by every run; a
 * budget given back reruns the queue (smq_get_budget_token()).
 */
static void smq_dispatch_ctxs_one_by_one(struct smq_hw_ctx *hctx)
{
	struct smq_queue *q = hctx->q;

	while (!bitmap_empty(hctx->ctx_map, hctx->nr_ctx)) {
		struct smq_request *rq;
		LIST_HEAD(list);
		int token;

		if (!smq_get_budget_token(q, &token)) {
			smq_hctx_stat_inc(hctx, SMQ_HCTX_BUSY);
			WRITE_ONCE(hctx->dispatch_busy,
				   min(hctx->dispatch_busy + 4, 16U));
			return;
		}
		rq = smq_dequeue_from_ctx(hctx);
		if (!rq) {
			smq_put_budget_token(q, token);
			return;
		}
		rq->budget_token = token;
		list_add(&rq->queuelist, &list);
		if (!smq_dispatch_list(hctx, &list))
			return;
	}
}

/*
 * Collect every software queue's requests, in CPU order, and dispatch;
 * one by one while the device is the limit.
 */
static void smq_dispatch_ctxs(struct smq_hw_ctx *hctx)
{
	LIST_HEAD(list);
	unsigned int i;

	if (READ_ONCE(hctx->dispatch_busy) && hctx->q->tag_set->ops->get_budget) {
		smq_dispatch_ctxs_one_by_one(hctx);
		return;
	}

	for_each_set_bit(i, hctx->ctx_map, hctx->nr_ctx) {
		struct smq_ctx *ctx = hctx->ctxs[i];

		clear_bit(i, hctx->ctx_map);
		spin_lock(&ctx->lock);
		list_splice_tail_init(&ctx->rq_list, &list);
		spin_unlock(&ctx->lock);
	}
	if (!list_empty(&list))
		smq_dispatch_list(hctx, &list);
}

/* Requests a queue run takes from a scheduler under one lock hold */
#define SMQ_SCHED_BATCH		16

/*
 * Dispatch @list (requests taken from the scheduler, possibly of several
 * hardware queues of the queue) in order, each run of requests of one
 * hardware queue as one driver batch.  Returns true when every request
 * reached the driver; otherwise what was refused went to its dispatch
 * list and a rerun is arranged.
 */
static bool smq_dispatch_sched_list(struct list_head *list)
{
	bool all = true;

	while (!list_empty(list)) {
		struct smq_request *rq = list_first_entry(list,
							  struct smq_request,
							  queuelist);
		struct smq_hw_ctx *hctx = rq->hctx;
		LIST_HEAD(batch);

		list_for_each_entry_from(rq, list, queuelist) {
			if (rq->hctx != hctx)
				break;
		}
		list_cut_before(&batch, list, &rq->queuelist);
		if (!smq_dispatch_list(hctx, &batch))
			all = false;
	}
	return all;
}

/*
 * Take up to @max device budget tokens of @q into @tokens; returns how
 * many.  None: the device has none to give, and a budget given back
 * reruns the queue (smq_get_budget_token()).
 */
static unsigned int smq_get_budgets(struct smq_queue *q, int *tokens,
				    unsigned int max)
{
	const struct smq_mq_ops *ops = q->tag_set->ops;
	unsigned int n = 1;

	if (!smq_get_budget_token(q, &tokens[0]))
		return 0;
	for (; n < max; n++) {
		/* -1 without budgets: nothing to give back either. */
		tokens[n] = ops->get_budget ? ops->get_budget(q) : -1;
		if (tokens[n] < 0 && ops->get_budget)
			break;
	}
	return n;
}

/*
 * Dispatch from the scheduler while it has work, in rounds: take the
 * device budget for up to SMQ_SCHED_BATCH requests (no more than the
 * scheduler holds, ->nr_queued; one while the hardware queue has recently
 * been busy), then that many requests from the scheduler under one hold
 * of its lock (->dispatch_batch; one request without it), then hand them
 * to the driver.  Taking the budget first leaves requests that the device
 * cannot take yet in the scheduler, where they keep their place in its
 * order (deadlines, merges), instead of on the dispatch list.
 */
static void smq_dispatch_sched(struct smq_hw_ctx *hctx)
{
	struct smq_queue *q = hctx->q;
	const struct smq_sched_ops *sched = q->sched;
	int tokens[SMQ_SCHED_BATCH];

	while (sched->has_work(hctx)) {
		unsigned int max = 1, nr_budget, n = 0;
		struct smq_request *rq;
		LIST_HEAD(list);

		if (sched->dispatch_batch && sched->nr_queued &&
		    !READ_ONCE(hctx->dispatch_busy))
			max = clamp(sched->nr_queued(hctx), 1U,
				    (unsigned int)SMQ_SCHED_BATCH);
		nr_budget = smq_get_budgets(q, tokens, max);
		if (!nr_budget)
			break;	/* a budget given back reruns the queue */
		if (sched->dispatch_batch) {
			sched->dispatch_batch(hctx, &list, nr_budget);
		} else {
			rq = sched->dispatch_request(hctx);
			if (rq)
				list_add(&rq->queuelist, &list);
		}
		/* Each request dispatches on one of the tokens taken above. */
		list_for_each_entry(rq, &list, queuelist)
			rq->budget_token = tokens[n++];
		while (nr_budget > n)
			smq_put_budget_token(q, tokens[--nr_budget]);
		if (!n || !smq_dispatch_sched_list(&list))
			break;
	}
}

static bool smq_hctx_has_work(struct smq_hw_ctx *hctx)
{
	struct smq_queue *q = hctx->q;

	if (!list_empty_careful(&hctx->dispatch))
		return true;
	if (q->sched)
		return q->sched->has_work(hctx);
	return !bitmap_empty(hctx->ctx_map, hctx->nr_ctx);
}

static void __smq_run_hw_queue(struct smq_hw_ctx *hctx)
{
	struct smq_queue *q = hctx->q;

	rcu_read_lock();
	if (smq_queue_quiesced(q) || smq_hctx_stopped(hctx))
		goto out;
	smq_hctx_stat_inc(hctx, SMQ_HCTX_RUNS);
	if (!list_empty_careful(&hctx->dispatch)) {
		LIST_HEAD(list);

		spin_lock(&hctx->lock);
		list_splice_init(&hctx->dispatch, &list);
		spin_unlock(&hctx->lock);
		if (!smq_dispatch_list(hctx, &list))
			goto out;
	}
	if (q->sched)
		smq_dispatch_sched(hctx);
	else
		smq_dispatch_ctxs(hctx);
out:
	rcu_read_unlock();
}

/**
 * smq_run_work_fn - work item that runs a hardware queue
 * @work: hctx->run_work
 */
void smq_run_work_fn(struct work_struct *work)
{
	struct smq_hw_ctx *hctx = container_of(work, struct smq_hw_ctx,
					       run_work.work);

	__smq_run_hw_queue(hctx);
}

/**
 * smq_run_hw_queue - dispatch what a hardware queue holds
 * @hctx: hardware queue
 * @async: run from the queue's work item (required from atomic context)
 *
 * Runs inline only in process context on a CPU mapped to @hctx.
 */
void smq_run_hw_queue(struct smq_hw_ctx *hctx, bool async)
{
	bool need_run;

	/*
	 * A scheduler switch frees the scheduler's data after quiescing,
	 * which waits for RCU readers: look at it only inside one, and not
	 * at all once quiesced (unquiescing runs the queue again).
	 */
	rcu_read_lock();
	need_run = !smq_queue_quiesced(hctx->q) && smq_hctx_has_work(hctx);
	rcu_read_unlock();
	if (!need_run)
		return;
	if (async || !cpumask_test_cpu(raw_smp_processor_id(), hctx->cpumask)) {
		mod_delayed_work_on(smq_hctx_next_cpu(hctx), smq_wq,
				    &hctx->run_work, 0);
		return;
	}
	__smq_run_hw_queue(hctx);
}

/**
 * smq_hctx_restart - rerun a hardware queue that asked for it
 * @hctx: hardware queue one of whose requests just finished
 */
void smq_hctx_restart(struct smq_hw_ctx *hctx)
{
	if (test_bit(SMQ_S_RESTART, &hctx->state) &&
	    test_and_clear_bit(SMQ_S_RESTART, &hctx->state))
		smq_run_hw_queue(hctx, true);
}

/**
 * smq_insert_request - queue a request for a later run of its hctx
 * @rq: request
 * @at_head: in front of everything queued
 * @run: run the hardware queue afterwards
 * @async: run it from its work item
 *
 * Started (requeued) and passthrough requests go to the dispatch list;
 * others to the scheduler or this request's software queue (a poll
 * queue's requests without a scheduler: the dispatch list).
 */
void smq_insert_request(struct smq_request *rq, bool at_head, bool run,
			bool async)
{
	struct smq_hw_ctx *hctx = rq->hctx;
	struct smq_queue *q = rq->q;

	smq_hctx_stat_inc(hctx, SMQ_HCTX_QUEUED);
	/* A poll queue has no software queue (smq_map_swqueues()). */
	if (at_head || (rq->rq_flags & (SMQ_RQF_STARTED | SMQ_RQF_PASSTHROUGH)) ||
	    (hctx->poll && !q->sched)) {
		spin_lock(&hctx->lock);
		if (at_head)
			list_add(&rq->queuelist, &hctx->dispatch);
		else
			list_add_tail(&rq->queuelist, &hctx->dispatch);
		spin_unlock(&hctx->lock);
	} else if (q->sched) {
		LIST_HEAD(list);

		list_add(&rq->queuelist, &list);
		q->sched->insert_requests(hctx, &list, false);
	} else {
		struct smq_ctx *ctx = rq->mq_ctx;

		spin_lock(&ctx->lock);
		list_add_tail(&rq->queuelist, &ctx->rq_list);
		spin_unlock(&ctx->lock);
		set_bit(ctx->index_hw, hctx->ctx_map);
	}
	if (run)
		smq_run_hw_queue(hctx, async);
}

/*
 * Whether a new request may go from its submitter straight to the driver:
 * the hardware queue is idle (nothing on its dispatch list, no recent
 * BUSY, not stopped, the queue not quiesced) and the queue's scheduler, if
 * it runs one, holds no request (->has_work false).  That is the bypass of
 * the scheduler: what it holds is dispatched first and may be merged into,
 * so a request never overtakes one the scheduler holds, and when nothing
 * waits there is nothing to sort or to hold back.  Inside rcu_read_lock()
 * (q->sched_data is freed after a quiesce).
 */
static bool smq_can_issue_direct(struct smq_hw_ctx *hctx)
{
	struct smq_queue *q = hctx->q;
	const struct smq_sched_ops *sched;

	if (READ_ONCE(hctx->dispatch_busy) ||
	    !list_empty_careful(&hctx->dispatch))
		return false;
	if (smq_queue_quiesced(q) || smq_hctx_stopped(hctx))
		return false;
	sched = q->sched;
	return !sched || !sched->has_work(hctx);
}

/*
 * Issue @list (requests of @hctx) from the submitter if the hardware queue
 * is idle; false when the caller must queue them instead.  With a
 * scheduler only a single request bypasses it, and only once it holds its
 * device budget: a request that cannot have one waits in the scheduler,
 * where it keeps its place in the deadline order.  Inside rcu_read_lock().
 */
static bool smq_try_issue_direct(struct smq_hw_ctx *hctx,
				 struct list_head *list)
{
	if (!smq_can_issue_direct(hctx))
		return false;
	if (hctx->q->sched &&
	    (!list_is_singular(list) ||
	     !smq_get_budget(list_first_entry(list, struct smq_request,
					      queuelist))))
		return false;
	smq_hctx_stat_inc(hctx, SMQ_HCTX_DIRECT);
	smq_dispatch_list(hctx, list);
	return true;
}

/**
 * smq_issue_direct - hand a new request to the driver from the submitter
 * @rq: request
 *
 * Falls back to queueing (software queue or scheduler, then a run) when
 * the hardware queue is busy, stopped or quiesced, or its scheduler holds
 * requests.
 */
void smq_issue_direct(struct smq_request *rq)
{
	struct smq_hw_ctx *hctx = rq->hctx;
	LIST_HEAD(list);
	bool issued;

	list_add(&rq->queuelist, &list);
	rcu_read_lock();
	issued = smq_try_issue_direct(hctx, &list);
	rcu_read_unlock();
	if (!issued) {
		list_del_init(&rq->queuelist);
		smq_insert_request(rq, false, true, false);
	}
}

/* Move the leading requests of @list that share @hctx onto @batch. */
static void smq_take_batch(struct list_head *list, struct smq_hw_ctx *hctx,
			   struct list_head *batch)
{
	struct smq_request *rq, *next;

	list_for_each_entry_safe(rq, next, list, queuelist) {
		if (rq->hctx != hctx)
			continue;
		list_move_tail(&rq->queuelist, batch);
	}
}

/**
 * smq_issue_list - issue a flushed plug's requests
 * @q: queue
 * @list: requests of @q in submission order; emptied
 * @from_schedule: the task is about to sleep: only queue, run async
 */
void smq_issue_list(struct smq_queue *q, struct list_head *list,
		    bool from_schedule)
{
	while (!list_empty(list)) {
		struct smq_request *rq = list_first_entry(list, struct smq_request,
							  queuelist);
		struct smq_hw_ctx *hctx = rq->hctx;
		LIST_HEAD(batch);

		smq_take_batch(list, hctx, &batch);
		if (!from_schedule) {
			bool issued;

			rcu_read_lock();
			issued = smq_try_issue_direct(hctx, &batch);
			rcu_read_unlock();
			if (issued)
				continue;
		}
		while (!list_empty(&batch)) {
			rq = list_first_entry(&batch, struct smq_request, queuelist);
			list_del_init(&rq->queuelist);
			smq_insert_request(rq, false, false, false);
		}
		smq_run_hw_queue(hctx, from_schedule);
	}
}

/**
 * smq_requeue_request - hand a request back for a later dispatch
 * @rq: request the driver accepted but cannot finish now
 * @kick: schedule the requeue work now (else at the next kick)
 *
 * Any context.  The budget goes back now; the tags stay with the request.
 */
void smq_requeue_request(struct smq_request *rq, bool kick)
{
	struct smq_queue *q = rq->q;
	unsigned long flags;

	smq_put_budget(rq);
	WRITE_ONCE(rq->state, SMQ_RQ_IDLE);
	spin_lock_irqsave(&q->queue_lock, flags);
	list_add_tail(&rq->queuelist, &q->requeue_list);
	spin_unlock_irqrestore(&q->queue_lock, flags);
	if (kick)
		mod_delayed_work(smq_wq, &q->requeue_work, 0);
}
EXPORT_SYMBOL_GPL(smq_requeue_request);

/**
 * smq_kick_requeue_list - put requeued requests back after a delay
 * @q: queue
 * @msecs: delay; a kick already pending keeps its own time
 *
 * For requests requeued without a kick (smq_requeue_request(rq, false))
 * because the device is busy for a moment.  Any context.
 */
void smq_kick_requeue_list(struct smq_queue *q, unsigned long msecs)
{
	queue_delayed_work(smq_wq, &q->requeue_work, msecs_to_jiffies(msecs));
}
EXPORT_SYMBOL_GPL(smq_kick_requeue_list);

/**
 * smq_requeue_work - put requeued requests back on their dispatch lists
 * @work: q->requeue_work
 */
void smq_requeue_work(struct work_struct *work)
{
	struct smq_queue *q = container_of(work, struct smq_queue,
					   requeue_work.work);
	struct smq_request *rq, *next;
	LIST_HEAD(list);

	spin_lock_irq(&q->queue_lock);
	list_splice_init(&q->requeue_list, &list);
	spin_unlock_irq(&q->queue_lock);
	list_for_each_entry_safe(rq, next, &list, queuelist) {
		list_del_init(&rq->queuelist);
		q->ops->requeue(rq);
	}
	smq_run_hw_queues(q, false);
}
