// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: request timeouts.  One timer per queue, armed for the earliest
 * deadline (rounded up to a second so the I/O path rarely touches it); the
 * scan runs in a work item and hands expired requests to ->timeout.
 *
 * Claims and generations: the scan looks at a request without holding
 * it, so between its look and its claim the request may end, be freed
 * and be started again (for another queue, too).  Every start bumps
 * rq->gen before the request goes IN_FLIGHT; smq_rq_claim_gen() claims
 * (IN_FLIGHT -> TIMED_OUT, fully ordered) and then compares the
 * generation it saw with the claimed one, giving back a claim on a newer
 * incarnation.  The error handler reclaims the commands a reset killed
 * the same way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/timer.h>
#include "smq_blk_int.h"

/**
 * smq_add_timer - make sure the queue's timer covers a request's deadline
 * @rq: request just started
 */
void smq_add_timer(struct smq_request *rq)
{
	struct timer_list *timer = &rq->q->timeout_timer;
	unsigned long expiry = round_jiffies_up(rq->deadline);

	if (!timer_pending(timer) || time_before(expiry, READ_ONCE(timer->expires)))
		mod_timer(timer, expiry);
}

/**
 * smq_timeout_timer - the queue's timer fired
 * @t: q->timeout_timer
 */
void smq_timeout_timer(struct timer_list *t)
{
	struct smq_queue *q = from_timer(q, t, timeout_timer);

	queue_work(smq_wq, &q->timeout_work);
}

struct smq_timeout_scan {
	struct smq_queue *q;
	unsigned long next;
	bool have_next;
};

static void smq_scan_note_deadline(struct smq_timeout_scan *scan,
				   unsigned long deadline)
{
	if (!scan->have_next || time_before(deadline, scan->next)) {
		scan->next = deadline;
		scan->have_next = true;
	}
}

/* Whether the request seen in flight by the scan is past its deadline. */
static bool smq_rq_expired(struct smq_request *rq, struct smq_timeout_scan *scan,
			   u32 *gen)
{
	unsigned long deadline;

	if (READ_ONCE(rq->q) != scan->q)
		return false;
	/* Pairs with the release in smq_start_request(). */
	if (smp_load_acquire(&rq->state) != SMQ_RQ_IN_FLIGHT)
		return false;
	*gen = READ_ONCE(rq->gen);
	deadline = READ_ONCE(rq->deadline);
	if (time_before(jiffies, deadline)) {
		smq_scan_note_deadline(scan, deadline);
		return false;
	}
	return true;
}

/*
 * Give a claimed request back to its driver.  A completion that came while
 * the scan held it is delivered here, in the scan's context.
 */
static void smq_rq_unclaim(struct smq_request *rq)
{
	int old = cmpxchg(&rq->state, SMQ_RQ_TIMED_OUT, SMQ_RQ_IN_FLIGHT);

	if (old == SMQ_RQ_TIMED_OUT_DONE &&
	    cmpxchg(&rq->state, SMQ_RQ_TIMED_OUT_DONE, SMQ_RQ_COMPLETE) ==
	    SMQ_RQ_TIMED_OUT_DONE)
		rq->q->tag_set->ops->complete(rq);
}

/**
 * smq_rq_claim_gen - claim one incarnation of an in-flight request
 * @rq: request seen IN_FLIGHT with generation @gen
 * @gen: rq->gen read after that look
 *
 * Claims as the timeout scan does (IN_FLIGHT -> TIMED_OUT): the driver's
 * completion cannot finish the request meanwhile, it is recorded and
 * delivered if the claim is given back.  The claim is kept only if the
 * request is still incarnation @gen; otherwise (it ended and was started
 * again since the look) it is given back at once.
 *
 * Return: true when the caller owns incarnation @gen and must end or
 * requeue it; false when it is not in flight any more or is another
 * incarnation.
 */
bool smq_rq_claim_gen(struct smq_request *rq, u32 gen)
{
	if (cmpxchg(&rq->state, SMQ_RQ_IN_FLIGHT, SMQ_RQ_TIMED_OUT) !=
	    SMQ_RQ_IN_FLIGHT)
		return false;
	/* The cmpxchg orders this after the start that set IN_FLIGHT. */
	if (READ_ONCE(rq->gen) == gen)
		return true;
	smq_rq_unclaim(rq);
	return false;
}
EXPORT_SYMBOL_GPL(smq_rq_claim_gen);

static bool smq_check_expired(struct smq_request *rq, void *data)
{
	struct smq_timeout_scan *scan = data;
	const struct smq_mq_ops *ops = scan->q->tag_set->ops;
	u32 gen;

	if (!smq_rq_expired(rq, scan, &gen))
		return true;
	/*
	 * Claim it, so that it can neither complete nor be freed and reused
	 * under ->timeout; the claim holds only for the incarnation seen.
	 * Then look again: the deadline may have moved with a restart.
	 */
	if (!smq_rq_claim_gen(rq, gen))
		return true;
	if (rq->q != scan->q || time_before(jiffies, rq->deadline)) {
		if (rq->q == scan->q)
			smq_scan_note_deadline(scan, rq->deadline);
		smq_rq_unclaim(rq);
		return true;
	}
	if (!ops->timeout || ops->timeout(rq) == SMQ_EH_RESET_TIMER) {
		rq->deadline = jiffies + rq->timeout;
		smq_scan_note_deadline(scan, rq->deadline);
		smq_rq_unclaim(rq);
	}
	return true;
}

/**
 * smq_timeout_work - find expired requests of a queue
 * @work: q->timeout_work
 */
void smq_timeout_work(struct work_struct *work)
{
	struct smq_queue *q = container_of(work, struct smq_queue, timeout_work);
	struct smq_timeout_scan scan = { .q = q };

	/* Not _live: a frozen queue drains, and its stuck requests must expire. */
	if (!percpu_ref_tryget(&q->q_usage_counter))
		return;
	q->ops->busy_iter(q, smq_check_expired, &scan);
	if (scan.have_next)
		mod_timer(&q->timeout_timer, round_jiffies_up(scan.next));
	smq_queue_exit(q);
}

/**
 * smq_queue_busy_iter - call @fn for every in-flight request of a queue
 * @q: the queue (alive: the caller holds a request of it, or keeps it from
 *	being destroyed)
 * @fn: callback; return false to stop
 * @data: its cookie
 *
 * On the mq path the whole tag set is walked, so @fn must check rq->q.
 * @fn races with completion and reuse: it reads rq->gen and claims with
 * smq_rq_claim_gen() before acting.  Process context.
 */
void smq_queue_busy_iter(struct smq_queue *q,
			 bool (*fn)(struct smq_request *rq, void *data),
			 void *data)
{
	q->ops->busy_iter(q, fn, data);
}
EXPORT_SYMBOL_GPL(smq_queue_busy_iter);

/**
 * smq_abort_request - time a request out now
 * @rq: a started request its driver holds
 *
 * Like Linux's blk_abort_request(): the request's deadline becomes now and
 * the queue's timeout scan is started, which hands the request to
 * ->timeout as if it had expired (->timeout may still give it more time).
 * A request that is no longer in flight is left alone by the scan.  Any
 * context.
 */
void smq_abort_request(struct smq_request *rq)
{
	WRITE_ONCE(rq->deadline, jiffies);
	queue_work(smq_wq, &rq->q->timeout_work);
}
EXPORT_SYMBOL_GPL(smq_abort_request);
