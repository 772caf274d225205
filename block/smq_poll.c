// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: polled completion.
 *
 * A tag set may reserve its last nr_poll_queues hardware queues as poll
 * queues (struct smq_tag_set): the driver raises no completion for them,
 * and the task that submitted a REQ_POLLED bio reaps it.  The disk is
 * bio-based to the kernel, so the kernel's bio_poll() calls the disk's
 * ->poll_bio, smq_poll_bio(), with the hardware queue the bio went to in
 * bio->bi_cookie (set at submission or merge, smq_submit.c); it asks the
 * driver's ->poll to reap that queue, and the requests it finds complete
 * in the polling task (smq_complete.c: no IPI, no softirq for REQ_POLLED).
 *
 * Which requests go to a poll queue: a REQ_POLLED bio allocates its
 * request on the poll queue of its CPU (ctx->poll_hctx, from the set's
 * poll_map); no other request does, and a polled and a non-polled bio
 * never share a request (smq_rq_mergeable()).  The kernel clears
 * REQ_POLLED of a bio it splits (bio_split_to_limits()), so a split bio's
 * parts complete by interrupt.  The legacy path never sets the disk's poll
 * feature: 6.1 clears REQ_POLLED there, 6.12 fails such bios with
 * EOPNOTSUPP, as for any disk that cannot poll.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"

/**
 * smq_poll_bio - ->poll_bio of every smq disk with poll queues
 * @bio: a bio submitted with REQ_POLLED, or one whose REQ_POLLED was
 *	cleared (its cookie is then BLK_QC_T_NONE); it may have completed
 *	meanwhile (then it has no bi_bdev)
 * @iob: the caller's completion batch, passed to the driver's ->poll
 * @flags: BLK_POLL_* (ignored: one pass over the queue each call)
 *
 * Enters the queue like the kernel's bio_poll(): with percpu_ref_tryget(),
 * which also succeeds while a freeze (a host removal, a scheduler switch)
 * waits for the queue to drain, since the requests it waits for complete
 * only by being polled; a queue already drained has nothing to reap.  The
 * hardware queue comes from the cookie, bounded by the queue's count and
 * required to be a poll queue.
 *
 * Return: the number of requests completed.
 */
int smq_poll_bio(struct bio *bio, struct io_comp_batch *iob,
		 unsigned int flags)
{
	blk_qc_t cookie = READ_ONCE(bio->bi_cookie);
	struct block_device *bdev = READ_ONCE(bio->bi_bdev);

	/*
	 * Another poller may have completed the bio since the kernel's
	 * bio_poll() looked at it: a polled bio back in the kernel's bio
	 * cache has no bi_bdev (iocb_bio_iopoll()'s RCU read-side section
	 * keeps its memory).  Read each field once.
	 */
	if (cookie == BLK_QC_T_NONE || !bdev ||
	    bdev->bd_disk->fops->poll_bio != smq_poll_bio)
		return 0;
	return smq_poll_queue(bdev->bd_disk->queue->queuedata, cookie, iob);
}
EXPORT_SYMBOL_GPL(smq_poll_bio);

/**
 * smq_poll_queue - reap one poll queue of a queue once
 * @q: the queue; its memory valid (the caller holds what keeps it, e.g.
 *	the disk, or the owner's lock against its destruction)
 * @cookie: the hardware queue's index, from smq_rq_poll_cookie() or a
 *	bio's bi_cookie; anything else (BLK_QC_T_NONE, a queue no longer
 *	there or not polled) reaps nothing
 * @iob: the caller's completion batch for the driver's ->poll, or NULL
 *
 * Enters the queue like the kernel's bio_poll(): with percpu_ref_tryget(),
 * which also succeeds while a freeze (a host removal, a scheduler switch)
 * waits for the queue to drain, since the requests it waits for complete
 * only by being polled; a queue already drained has nothing to reap.
 *
 * Return: the number of requests completed.
 */
int smq_poll_queue(struct smq_queue *q, blk_qc_t cookie,
		   struct io_comp_batch *iob)
{
	struct smq_hw_ctx *hctx;
	int ret = 0;

	if (cookie == BLK_QC_T_NONE ||
	    !percpu_ref_tryget(&q->q_usage_counter))
		return 0;
	rcu_read_lock();
	if (cookie < smq_nr_hctx(q)) {
		hctx = READ_ONCE(q->hctxs[cookie]);
		if (hctx->poll) {
			ret = q->tag_set->ops->poll(hctx, iob);
			smq_hctx_stat_inc(hctx, SMQ_HCTX_POLLS);
			if (ret > 0)
				smq_hctx_stat_add(hctx, SMQ_HCTX_POLLED, ret);
		}
	}
	rcu_read_unlock();
	percpu_ref_put(&q->q_usage_counter);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_poll_queue);

/**
 * smq_rq_poll_cookie - where a polled passthrough request is reaped
 * @rq: request allocated with REQ_POLLED, before it is issued
 *
 * Return: its hardware queue's index for smq_poll_queue(), or
 * BLK_QC_T_NONE when it went to an interrupt-driven queue (no poll
 * queues, or the legacy path).
 */
blk_qc_t smq_rq_poll_cookie(const struct smq_request *rq)
{
	if (!rq->hctx || !rq->hctx->poll)
		return BLK_QC_T_NONE;
	return smq_hctx_index(rq->hctx);
}
EXPORT_SYMBOL_GPL(smq_rq_poll_cookie);

/**
 * smq_poll_reap - poll every poll queue of a queue once
 * @q: multiqueue queue with poll queues, entered or being frozen (its
 *	in-flight requests hold usage references)
 *
 * For smq_freeze_queue(): the pollers of a deleted disk's requests can no
 * longer poll (the kernel's bio_poll() fails to enter the disk's queue),
 * so whoever drains the queue reaps them.
 */
void smq_poll_reap(struct smq_queue *q)
{
	unsigned int i, nr;

	rcu_read_lock();
	nr = smq_nr_hctx(q);
	for (i = 0; i < nr; i++) {
		struct smq_hw_ctx *hctx = READ_ONCE(q->hctxs[i]);
		int n;

		if (!hctx->poll)
			continue;
		n = q->tag_set->ops->poll(hctx, NULL);
		smq_hctx_stat_inc(hctx, SMQ_HCTX_POLLS);
		if (n > 0)
			smq_hctx_stat_add(hctx, SMQ_HCTX_POLLED, n);
	}
	rcu_read_unlock();
}
