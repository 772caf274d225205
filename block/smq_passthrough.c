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
	rq->bio = bio;
	rq->biotail = bio;
	rq->data_len = bio->bi_iter.bi_size;
	rq->nr_phys_segments = smq_bio_segments(rq->q, bio);
	return 0;
}
EXPORT_SYMBOL_GPL(smq_rq_map_kern);

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
	rq->end_io = smq_exec_end;
	rq->end_io_data = &wait;
	rq->q->ops->insert_request(rq);
	wait_for_completion_io(&wait.done);
	return wait.status;
}
EXPORT_SYMBOL_GPL(smq_execute_rq);
