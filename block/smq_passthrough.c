// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: passthrough requests (SCSI commands built by the owner of the
 * queue: scan, SG_IO, internal commands).  They travel the same tags,
 * budgets and hardware queues as file I/O.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "smq_blk_int.h"

/**
 * smq_alloc_request - allocate a passthrough request
 * @q: queue
 * @opf: REQ_OP_DRV_IN or REQ_OP_DRV_OUT, plus flags
 * @flags: SMQ_REQ_NOWAIT, SMQ_REQ_RESERVED
 *
 * Return: the request, or an ERR_PTR (-ENODEV: queue dying; -EAGAIN: no
 * tag with SMQ_REQ_NOWAIT).
 */
struct smq_request *smq_alloc_request(struct smq_queue *q, blk_opf_t opf,
				      unsigned int flags)
{
	struct smq_request *rq;

	if (!smq_queue_enter(q, flags & SMQ_REQ_NOWAIT))
		return ERR_PTR(test_bit(SMQ_Q_DYING, &q->flags) ? -ENODEV : -EAGAIN);
	rq = q->ops->get_request(q, opf, flags);
	if (!rq) {
		smq_queue_exit(q);
		return ERR_PTR(test_bit(SMQ_Q_DYING, &q->flags) ? -ENODEV : -EAGAIN);
	}
	rq->rq_flags |= SMQ_RQF_PASSTHROUGH;
	return rq;
}
EXPORT_SYMBOL_GPL(smq_alloc_request);

static void smq_kern_bio_end(struct bio *bio)
{
	bio_uninit(bio);
	kfree(bio);
}

/**
 * smq_free_request - free a passthrough request
 * @rq: request from smq_alloc_request(), executed or not
 */
void smq_free_request(struct smq_request *rq)
{
	struct bio *bio = rq->bio;

	while (bio) {
		struct bio *next = bio->bi_next;

		bio->bi_next = NULL;
		bio_endio(bio);
		bio = next;
	}
	rq->bio = NULL;
	smq_free_request_tags(rq);
}
EXPORT_SYMBOL_GPL(smq_free_request);

/**
 * smq_rq_map_kern - attach a kernel buffer as a passthrough request's data
 * @rq: request from smq_alloc_request()
 * @buf: kmalloc or vmalloc memory; stays valid until the request is freed
 * @len: bytes
 * @gfp: allocation flags for the bio
 *
 * Return: 0 or -ENOMEM / -EINVAL.
 */
int smq_rq_map_kern(struct smq_request *rq, void *buf, unsigned int len,
		    gfp_t gfp)
{
	unsigned long off = offset_in_page(buf);
	unsigned int nr_pages = DIV_ROUND_UP(off + len, PAGE_SIZE);
	bool vmalloced = is_vmalloc_addr(buf);
	struct bio *bio;

	if (!len || rq->bio || nr_pages > BIO_MAX_VECS)
		return -EINVAL;
	bio = bio_kmalloc(nr_pages, gfp);
	if (!bio)
		return -ENOMEM;
	bio_init(bio, NULL, bio->bi_inline_vecs, nr_pages, rq->cmd_flags);
	bio->bi_end_io = smq_kern_bio_end;
	while (len) {
		unsigned int chunk = min_t(unsigned int, len, PAGE_SIZE - off);
		struct page *page = vmalloced ? vmalloc_to_page(buf) :
						virt_to_page(buf);

		if (bio_add_page(bio, page, chunk, off) != chunk) {
			smq_kern_bio_end(bio);
			return -EINVAL;
		}
		buf += chunk;
		len -= chunk;
		off = 0;
	}
	smq_rq_map_bio(rq, bio);
	return 0;
}
EXPORT_SYMBOL_GPL(smq_rq_map_kern);

/**
 * smq_rq_map_bio - attach a built bio as a passthrough request's data
 * @rq: request from smq_alloc_request(), with no data yet
 * @bio: the data (one bio, not chained); its owner keeps it: detach it
 *	with smq_rq_unmap_bio() before smq_free_request() unless its
 *	->bi_end_io is to run then
 *
 * Return: the request's segment count, for the caller's limit checks.
 */
unsigned int smq_rq_map_bio(struct smq_request *rq, struct bio *bio)
{
	rq->bio = bio;
	rq->biotail = bio;
	rq->data_len = bio->bi_iter.bi_size;
	rq->nr_phys_segments = smq_bio_segments(rq->q, bio);
	return rq->nr_phys_segments;
}
EXPORT_SYMBOL_GPL(smq_rq_map_bio);

/**
 * smq_rq_unmap_bio - take a passthrough request's data back
 * @rq: request mapped with smq_rq_map_bio(), ended or never issued
 *
 * Return: the bio, now the caller's alone (smq_free_request() will not
 * end it).
 */
struct bio *smq_rq_unmap_bio(struct smq_request *rq)
{
	struct bio *bio = rq->bio;

	rq->bio = NULL;
	rq->biotail = NULL;
	rq->data_len = 0;
	rq->nr_phys_segments = 0;
	return bio;
}
EXPORT_SYMBOL_GPL(smq_rq_unmap_bio);

struct smq_exec_wait {
	struct completion done;
	blk_status_t status;
};

static void smq_exec_end(struct smq_request *rq, blk_status_t status)
{
	struct smq_exec_wait *wait = rq->end_io_data;

	wait->status = status;
	complete(&wait->done);
}

/**
 * smq_execute_rq_nowait - issue a passthrough request, not waiting
 * @rq: request from smq_alloc_request()
 * @end_io: called once when it ends, in any context (a completion's
 *	softirq or interrupt, a poller, the error handler); it owns @rq and
 *	frees it with smq_free_request(), there or later
 * @data: for @end_io, in rq->end_io_data
 */
void smq_execute_rq_nowait(struct smq_request *rq,
			   void (*end_io)(struct smq_request *rq,
					  blk_status_t status),
			   void *data)
{
	rq->end_io = end_io;
	rq->end_io_data = data;
	rq->q->ops->insert_request(rq);
}
EXPORT_SYMBOL_GPL(smq_execute_rq_nowait);

/**
 * smq_execute_rq - issue a passthrough request and wait for it
 * @rq: request from smq_alloc_request(); free it with smq_free_request()
 *
 * Return: the block status the owner's ->complete gave it.
 */
blk_status_t smq_execute_rq(struct smq_request *rq)
{
	struct smq_exec_wait wait;

	init_completion(&wait.done);
	wait.status = BLK_STS_OK;
	smq_execute_rq_nowait(rq, smq_exec_end, &wait);
	wait_for_completion_io(&wait.done);
	return wait.status;
}
EXPORT_SYMBOL_GPL(smq_execute_rq);
