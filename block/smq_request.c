// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: request allocation from tags, bio attachment, data segments and
 * scatterlist mapping.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/scatterlist.h>
#include "smq_blk_int.h"
#include "smq_sched.h"

/**
 * smq_rq_init - reset a request for a new use
 * @rq: request
 * @q: queue
 * @ctx: software queue it was allocated on (NULL on the legacy path)
 * @hctx: hardware queue (NULL on the legacy path)
 * @opf: operation and flags
 */
void smq_rq_init(struct smq_request *rq, struct smq_queue *q,
		 struct smq_ctx *ctx, struct smq_hw_ctx *hctx, blk_opf_t opf)
{
	rq->q = q;
	rq->mq_ctx = ctx;
	rq->hctx = hctx;
	rq->cmd_flags = opf;
	rq->rq_flags = 0;
	rq->state = SMQ_RQ_IDLE;
	rq->sector = 0;
	rq->data_len = 0;
	rq->nr_phys_segments = 0;
	rq->bio = NULL;
	rq->biotail = NULL;
	INIT_LIST_HEAD(&rq->queuelist);
	rq->dl_node.state = SMQ_DL_IDLE;
	rq->submit_cpu = ctx ? ctx->cpu : raw_smp_processor_id();
	rq->acct_start = jiffies;
	rq->timeout = 0;
	rq->end_io = NULL;
	rq->end_io_data = NULL;
	rq->status = BLK_STS_OK;
	rq->budget_token = -1;
}

/*
 * How many of the hardware queue's tags a new request may choose from:
 * the queue's nr_requests, and less for what the scheduler holds back.
 */
static unsigned int smq_rq_depth_limit(struct smq_queue *q, blk_opf_t opf)
{
	unsigned int depth = READ_ONCE(q->nr_requests);

	if (q->sched && q->sched->limit_depth)
		depth = min(depth, q->sched->limit_depth(q, opf));
	return depth;
}

/**
 * smq_get_request - allocate a request (and its tag) on the current CPU
 * @q: multiqueue queue, entered by the caller (smq_queue_enter())
 * @opf: operation and flags
 * @flags: SMQ_REQ_NOWAIT, SMQ_REQ_RESERVED
 *
 * Sleeps for a tag unless SMQ_REQ_NOWAIT.  The request holds its driver
 * tag from now on, also with a scheduler; it chooses from the first
 * nr_requests tags (fewer where the scheduler limits, e.g. async_depth).
 *
 * Return: the request, or NULL (no tag and NOWAIT, or the queue is dying).
 */
struct smq_request *smq_get_request(struct smq_queue *q, blk_opf_t opf,
				    unsigned int flags)
{
	bool reserved = flags & SMQ_REQ_RESERVED;
	bool nowait = flags & SMQ_REQ_NOWAIT;
	struct smq_hw_ctx *hctx;
	struct smq_request *rq;
	struct smq_tags *tags;
	struct smq_ctx *ctx;
	int tag;

retry:
	ctx = raw_cpu_ptr(q->queue_ctx);
	/* REQ_POLLED only reaches a queue with poll queues (disk feature). */
	hctx = unlikely(opf & REQ_POLLED) && ctx->poll_hctx ? ctx->poll_hctx :
							       ctx->hctx;
	tags = hctx->tags;
	tag = smq_get_tag(tags, reserved, nowait, hctx,
			  smq_rq_depth_limit(q, opf));
	if (tag < 0)
		return NULL;
	rq = tags->static_rqs[tag];
	smq_rq_init(rq, q, ctx, hctx, opf);
	if (reserved)
		rq->rq_flags |= SMQ_RQF_RESERVED;
	rq->tag = tag;
	tags->rqs[tag] = rq;
	/*
	 * The last CPU of the hardware queue went down (smq_cpuhp.c): either
	 * its callback sees this request and waits for it, or this sees the
	 * mark; pairs with smp_mb__after_atomic() in smq_hctx_cpu_offline().
	 * The task runs on an online CPU by now: retry from there.
	 */
	smp_mb();
	if (unlikely(test_bit(SMQ_S_INACTIVE, &hctx->state))) {
		WRITE_ONCE(tags->rqs[tag], NULL);
		smq_put_tag(tags, tag);
		if (nowait)
			return NULL;
		usleep_range(1000, 3000);
		goto retry;
	}
	if (q->sched && q->sched->prepare_request)
		q->sched->prepare_request(rq);
	return rq;
}

/**
 * smq_mq_release_request - what a multiqueue request does before its tag goes back
 * @rq: request of a multiqueue queue that is done
 *
 * The scheduler's finish, the request idle, and out of its tags' rqs[]:
 * the caller then frees the tag (alone, or with a completion batch).
 */
void smq_mq_release_request(struct smq_request *rq)
{
	struct smq_queue *q = rq->q;

	if (q->sched && q->sched->finish_request)
		q->sched->finish_request(rq);
	WRITE_ONCE(rq->state, SMQ_RQ_IDLE);
	rq->hctx->tags->rqs[rq->tag] = NULL;
}

/**
 * smq_mq_free_request - give back a request's tags and queue reference
 * @rq: request of a multiqueue queue that is done
 */
void smq_mq_free_request(struct smq_request *rq)
{
	struct smq_hw_ctx *hctx = rq->hctx;
	struct smq_queue *q = rq->q;

	smq_mq_release_request(rq);
	smq_put_tag(hctx->tags, rq->tag);
	smq_hctx_restart(hctx);
	smq_queue_exit(q);
}

/**
 * smq_free_request_tags - give back a request's tags and queue reference
 * @rq: request that is done
 *
 * Its queue's path does it; the mq one is called directly where indirect
 * calls are costly (retpolines).
 */
void smq_free_request_tags(struct smq_request *rq)
{
	INDIRECT_CALL_1(rq->q->ops->free_request, smq_mq_free_request, rq);
}

/*
 * Walk the data of a bio in segments as the scatterlist will hold them:
 * physically contiguous pieces merge up to max_segment_size.
 */
struct smq_seg_walk {
	phys_addr_t end;	/* physical end of the current segment */
	unsigned int len;	/* bytes in the current segment */
	unsigned int nsegs;
};

static bool smq_seg_add(struct smq_seg_walk *w, phys_addr_t start,
			unsigned int len, unsigned int max_seg)
{
	if (w->nsegs && w->end == start && w->len + len <= max_seg) {
		w->len += len;
		w->end += len;
		return false;
	}
	w->nsegs++;
	w->len = len;
	w->end = start + len;
	return true;
}

/**
 * smq_bio_segments - segments a bio adds to a request
 * @q: queue (for the segment size limit)
 * @bio: the bio
 *
 * Return: the number of segments (0 for a bio without data).
 */
unsigned int smq_bio_segments(struct smq_queue *q, struct bio *bio)
{
	struct smq_seg_walk w = { 0 };
	struct bvec_iter iter;
	struct bio_vec bv;

	if (!bio_has_data(bio))
		return 0;
	bio_for_each_bvec(bv, bio, iter) {
		phys_addr_t pa = page_to_phys(bv.bv_page) + bv.bv_offset;
		unsigned int left = bv.bv_len;

		while (left) {
			unsigned int len = min(left, q->max_segment_size);

			smq_seg_add(&w, pa, len, q->max_segment_size);
			pa += len;
			left -= len;
		}
	}
	return w.nsegs;
}

/**
 * smq_rq_map_sg - fill a scatterlist with a request's data
 * @rq: the request
 * @sgl: a scatterlist of at least @max_ents entries, initialised
 *	(sg_init_table()) and possibly chained (sg_alloc_table_chained())
 * @max_ents: entries in @sgl (rq->nr_phys_segments is enough)
 *
 * The entries are reached with sg_next(), so a chained list works.
 *
 * Return: entries used (the last one is marked as the end), 0 for no data.
 */
unsigned int smq_rq_map_sg(struct smq_request *rq, struct scatterlist *sgl,
			   unsigned int max_ents)
{
	unsigned int max_seg = rq->q->max_segment_size;
	struct smq_seg_walk w = { 0 };
	struct scatterlist *sg = NULL;
	struct bio *bio;

	for (bio = rq->bio; bio; bio = bio->bi_next) {
		struct bvec_iter iter;
		struct bio_vec bv;

		if (!bio_has_data(bio))
			continue;
		bio_for_each_bvec(bv, bio, iter) {
			struct page *page = bv.bv_page;
			unsigned int off = bv.bv_offset;
			unsigned int left = bv.bv_len;

			while (left) {
				unsigned int len = min(left, max_seg);
				phys_addr_t pa = page_to_phys(page) + off;

				if (smq_seg_add(&w, pa, len, max_seg)) {
					if (WARN_ON_ONCE(w.nsegs > max_ents))
						return 0;
					sg = sg ? sg_next(sg) : sgl;
					sg_unmark_end(sg);
					sg_set_page(sg, nth_page(page, off >> PAGE_SHIFT),
						    len, off & ~PAGE_MASK);
				} else {
					sg->length += len;
				}
				off += len;
				left -= len;
			}
		}
	}
	if (sg)
		sg_mark_end(sg);
	return w.nsegs;
}
EXPORT_SYMBOL_GPL(smq_rq_map_sg);

/**
 * smq_rq_init_bio - attach the first bio to a new request
 * @rq: request from smq_get_request()
 * @bio: bio
 * @nr_segs: its segments (smq_bio_segments())
 */
void smq_rq_init_bio(struct smq_request *rq, struct bio *bio,
		     unsigned int nr_segs)
{
	rq->bio = bio;
	rq->biotail = bio;
	bio->bi_next = NULL;
	rq->sector = bio->bi_iter.bi_sector;
	rq->data_len = bio->bi_iter.bi_size;
	rq->nr_phys_segments = nr_segs;
	if (rq->q->disk) {
		/* The partition (bios of a partition never merge with others'). */
		rq->part = bio->bi_bdev;
		rq->rq_flags |= SMQ_RQF_ACCT;
	}
}
