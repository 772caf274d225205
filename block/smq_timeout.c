// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: request timeouts.  One timer per queue, armed for the earliest
 * deadline (rounded up to a second so the I/O path rarely touches it); the
 * scan runs in a work item and hands expired requests to ->timeout.
 */
#include <linux/module.h>
#include <linux/timer.h>
#include "smq_blk_int.h"
#include "smq_legacy.h"

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

static bool smq_check_expired(struct smq_request *rq, void *data)
{
	struct smq_timeout_scan *scan = data;
	const struct smq_mq_ops *ops = scan->q->tag_set->ops;

	if (rq->q != scan->q)
		return true;
	if (time_before(jiffies, READ_ONCE(rq->deadline))) {
		smq_scan_note_deadline(scan, rq->deadline);
		return true;
	}
	rq->rq_flags |= SMQ_RQF_TIMED_OUT;
	if (!ops->timeout || ops->timeout(rq) == SMQ_EH_RESET_TIMER) {
		WRITE_ONCE(rq->deadline, jiffies + rq->timeout);
		smq_scan_note_deadline(scan, rq->deadline);
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
	if (q->legacy)
		smq_legacy_busy_iter(q, smq_check_expired, &scan);
	else
		smq_tagset_busy_iter(q->tag_set, smq_check_expired, &scan);
	if (scan.have_next)
		mod_timer(&q->timeout_timer, round_jiffies_up(scan.next));
	smq_queue_exit(q);
}
