// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: request timeouts.  One timer per queue, armed for the earliest
 * deadline (rounded up to a second so the I/O path rarely touches it); the
 * scan runs in a work item and hands expired requests to ->timeout.
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
static bool smq_rq_expired(struct smq_request *rq, struct smq_timeout_scan *scan)
{
	unsigned long deadline;

	if (READ_ONCE(rq->q) != scan->q)
		return false;
	/* Pairs with the release in smq_start_request(). */
	if (smp_load_acquire(&rq->state) != SMQ_RQ_IN_FLIGHT)
		return false;
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

static bool smq_check_expired(struct smq_request *rq, void *data)
{
	struct smq_timeout_scan *scan = data;
	const struct smq_mq_ops *ops = scan->q->tag_set->ops;

	if (!smq_rq_expired(rq, scan))
		return true;
	/*
	 * Claim it, so that it can neither complete nor be freed and reused
	 * under ->timeout; then look again: between the first look and the
	 * claim it may have ended and been started afresh (or elsewhere).
	 */
	if (cmpxchg(&rq->state, SMQ_RQ_IN_FLIGHT, SMQ_RQ_TIMED_OUT) !=
	    SMQ_RQ_IN_FLIGHT)
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
