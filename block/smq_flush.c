// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: cache flush sequencing.
 *
 * A write with REQ_PREFLUSH runs as a flush, then as the write; a write
 * with REQ_FUA on a device without FUA runs as the write, then a flush.
 * One request (one tag) walks the steps: its op is switched between
 * REQ_OP_FLUSH and REQ_OP_WRITE and it is requeued after each step.
 * Without a volatile write cache both flags are dropped and empty flushes
 * complete at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "smq_flush.h"

static void smq_rq_set_op(struct smq_request *rq, enum req_op op)
{
	rq->cmd_flags = (rq->cmd_flags & ~REQ_OP_MASK) | op;
}

/**
 * smq_flush_prepare_bio - drop flush flags the device does not need
 * @q: queue
 * @bio: new bio
 *
 * Return: false if the bio was completed here (an empty flush without a
 * write cache).
 */
bool smq_flush_prepare_bio(struct smq_queue *q, struct bio *bio)
{
	if (!(bio->bi_opf & (REQ_PREFLUSH | REQ_FUA)))
		return true;
	if (!READ_ONCE(q->write_cache)) {
		bio->bi_opf &= ~(REQ_PREFLUSH | REQ_FUA);
		if (!bio_sectors(bio) && bio_op(bio) == REQ_OP_WRITE) {
			bio_endio(bio);
			return false;
		}
	}
	return true;
}

/**
 * smq_flush_prepare_rq - set up the flush steps of a new request
 * @rq: request with its bio attached
 */
void smq_flush_prepare_rq(struct smq_request *rq)
{
	blk_opf_t opf = rq->cmd_flags;

	if (!(opf & (REQ_PREFLUSH | REQ_FUA)))
		return;
	if (opf & REQ_PREFLUSH) {
		rq->cmd_flags &= ~REQ_PREFLUSH;
		if (rq->data_len)
			rq->rq_flags |= SMQ_RQF_FLUSH_PRE;
		smq_rq_set_op(rq, REQ_OP_FLUSH);
	}
	if ((opf & REQ_FUA) && !READ_ONCE(rq->q->fua)) {
		rq->cmd_flags &= ~REQ_FUA;
		if (rq->data_len)
			rq->rq_flags |= SMQ_RQF_FLUSH_POST;
	}
}

/**
 * smq_flush_next_step - move a request to its next flush step
 * @rq: request that completed one step successfully
 *
 * Return: true if it was requeued for another step.
 */
bool smq_flush_next_step(struct smq_request *rq)
{
	if (rq->rq_flags & SMQ_RQF_FLUSH_PRE) {
		rq->rq_flags &= ~SMQ_RQF_FLUSH_PRE;
		smq_rq_set_op(rq, REQ_OP_WRITE);
	} else if (rq->rq_flags & SMQ_RQF_FLUSH_POST) {
		rq->rq_flags &= ~SMQ_RQF_FLUSH_POST;
		smq_rq_set_op(rq, REQ_OP_FLUSH);
	} else {
		return false;
	}
	/* The driver must build the command for the new step. */
	rq->rq_flags &= ~SMQ_RQF_DONTPREP;
	smq_requeue_request(rq, true);
	return true;
}
