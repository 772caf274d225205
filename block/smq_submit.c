// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: bio entry.  The gendisk is bio-based to the kernel; here a bio
 * becomes a request: split to the queue's limits, merged into a request
 * still queued where allowed, batched by the task's plug, and issued.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/indirect_call_wrapper.h>
#include <linux/slab.h>
#include "smq_blk_int.h"
#include "smq_sched.h"
#include "smq_flush.h"

/* Requests a plug holds before it is flushed early */
#define SMQ_PLUG_MAX		32

static bool smq_rq_mergeable(struct smq_request *rq, struct bio *bio)
{
	blk_opf_t nomerge = REQ_NOMERGE_FLAGS | REQ_FUA;

	if (rq->rq_flags & (SMQ_RQF_PASSTHROUGH | SMQ_RQF_STARTED))
		return false;
	if (smq_rq_op(rq) != bio_op(bio))
		return false;
	if (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE)
		return false;
	if ((rq->cmd_flags | bio->bi_opf) & nomerge)
		return false;
	/* Each partition counts its own I/O (rq->part). */
	if (rq->bio->bi_bdev != bio->bi_bdev)
		return false;
	/* A polled request is on a poll queue, others never are. */
	if ((rq->cmd_flags ^ bio->bi_opf) & REQ_POLLED)
		return false;
	return true;
}

/* Where a bio's data ends, as an offset within its last page. */
static unsigned int smq_bio_end_offset(struct bio *bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	unsigned int end = 0;

	bio_for_each_bvec(bv, bio, iter)
		end = bv.bv_offset + bv.bv_len;
	return end;
}

/*
 * @front then @back would leave a gap inside the queue's virtual boundary:
 * @front's data must end on it and @back's start on it.
 */
static bool smq_bios_gap(const struct smq_queue *q, struct bio *front,
			 struct bio *back)
{
	unsigned long mask = q->virt_boundary_mask;

	if (!mask || !bio_has_data(front))
		return false;
	return (bio_iter_iovec(back, back->bi_iter).bv_offset & mask) ||
	       (smq_bio_end_offset(front) & mask);
}

/**
 * smq_rq_try_merge - merge a bio into a queued request if contiguous
 * @q: queue (limits)
 * @rq: queued request, not started
 * @bio: the bio
 * @nr_segs: its segments
 *
 * Return: true when the bio now belongs to @rq (back or front merge).
 */
bool smq_rq_try_merge(struct smq_queue *q, struct smq_request *rq,
		      struct bio *bio, unsigned int nr_segs)
{
	sector_t bio_sector = bio->bi_iter.bi_sector;
	unsigned int bytes = bio->bi_iter.bi_size;

	if (!smq_rq_mergeable(rq, bio))
		return 0;
	if (((rq->data_len + bytes) >> SECTOR_SHIFT) > q->max_sectors ||
	    rq->nr_phys_segments + nr_segs > q->max_segments)
		return 0;
	if (rq->sector + smq_rq_sectors(rq) == bio_sector) {
		if (smq_bios_gap(q, rq->biotail, bio))
			return 0;
		rq->biotail->bi_next = bio;
		rq->biotail = bio;
		bio->bi_next = NULL;
	} else if (q->nomerges < 1 && bio_sector + (bytes >> SECTOR_SHIFT) ==
		   rq->sector) {
		if (smq_bios_gap(q, bio, rq->bio))
			return 0;
		bio->bi_next = rq->bio;
		rq->bio = bio;
		rq->sector = bio_sector;
	} else {
		return 0;
	}
	rq->data_len += bytes;
	rq->nr_phys_segments += nr_segs;
	smq_bio_set_cookie(rq, bio);
	return 1;
}

/**
 * smq_bio_merge_list - merge a bio into a request of a list, newest first
 * @q: queue (limits)
 * @list: requests not started, linked by queuelist, oldest first (a
 *	software queue, a plug batch, the legacy noop FIFO); the caller
 *	holds whatever protects it
 * @bio: the bio
 * @nr_segs: its segments
 *
 * Looks at the last SMQ_MERGE_SCAN requests of @q on @list only: merges
 * are most likely with what was queued last, and the scan stays short.
 *
 * Return: true if the bio now rides on a request of @list.
 */
bool smq_bio_merge_list(struct smq_queue *q, struct list_head *list,
			struct bio *bio, unsigned int nr_segs)
{
	struct smq_request *rq;
	int scanned = 0;

	list_for_each_entry_reverse(rq, list, queuelist) {
		if (rq->q == q && smq_rq_try_merge(q, rq, bio, nr_segs))
			return true;
		if (++scanned >= SMQ_MERGE_SCAN)
			break;
	}
	return false;
}
EXPORT_SYMBOL_GPL(smq_bio_merge_list);

/**
 * smq_bio_merge_dl - merge a bio into a request held by a deadline core
 * @q: queue (limits)
 * @dl: the scheduler's deadline core (struct smq_dl), under the
 *	scheduler's lock; its nodes are the requests' dl_node
 * @bio: the bio
 * @nr_segs: its segments
 *
 * The merge of mq-deadline and of the legacy deadline elevator: a back
 * merge with the queued request of the bio's direction that ends where
 * the bio starts, else a front merge with the one that starts where it
 * ends (if the core's front_merges allows), and the core is told of the
 * request's new extent.
 *
 * Return: the request the bio now rides on, or NULL.
 */
struct smq_request *smq_bio_merge_dl(struct smq_queue *q, struct smq_dl *dl,
				     struct bio *bio, unsigned int nr_segs)
{
	int dir = op_is_write(bio_op(bio)) ? SMQ_DL_WRITE : SMQ_DL_READ;
	struct smq_dl_node *n;
	struct smq_request *rq;

	n = smq_dl_find_back_merge(dl, dir, bio->bi_iter.bi_sector);
	if (!n)
		n = smq_dl_find_front_merge(dl, dir, bio_end_sector(bio));
	if (!n)
		return NULL;
	rq = container_of(n, struct smq_request, dl_node);
	if (!smq_rq_try_merge(q, rq, bio, nr_segs))
		return NULL;
	smq_dl_resized(dl, n, rq->sector, smq_rq_sectors(rq));
	return rq;
}
EXPORT_SYMBOL_GPL(smq_bio_merge_dl);

/*
 * Keep @plug for the next plug on this CPU, or free it when one is kept
 * already.  The caller still holds a queue reference (a request of the
 * batch, or the bio being submitted).
 */
static void smq_put_plug(struct smq_queue *q, struct smq_plug_cb *plug)
{
	if (this_cpu_cmpxchg(*q->plug_cache, NULL, plug))
		kfree(plug);
}

static void smq_unplug(struct blk_plug_cb *cb, bool from_schedule)
{
	struct smq_plug_cb *plug = container_of(cb, struct smq_plug_cb, cb);
	struct smq_queue *q = cb->data;
	LIST_HEAD(list);

	if (!plug->count) {
		/* Nothing queued, so maybe no queue reference either: no q. */
		kfree(plug);
		return;
	}
	/* Back to the cache first: once issued, the requests may complete. */
	list_splice_init(&plug->list, &list);
	smq_put_plug(q, plug);
	INDIRECT_CALL_1(q->ops->issue_list, smq_issue_list, q, &list,
			from_schedule);
}

/**
 * smq_get_plug - the current task's plug batch for @q, if it plugs
 * @q: queue, entered by the caller
 *
 * Like blk_check_plugged(), but a new batch comes from @q's per-CPU cache
 * when it can: the block core plugs every bio it submits (__submit_bio())
 * when the task does not plug already, so this runs once per I/O.
 *
 * Return: the batch, or NULL when the task does not plug (or no memory).
 */
struct smq_plug_cb *smq_get_plug(struct smq_queue *q)
{
	struct blk_plug *bplug = current->plug;
	struct smq_plug_cb *plug;
	struct blk_plug_cb *cb;

	if (!bplug)
		return NULL;
	list_for_each_entry(cb, &bplug->cb_list, list) {
		if (cb->callback == smq_unplug && cb->data == q)
			return container_of(cb, struct smq_plug_cb, cb);
	}
	plug = this_cpu_xchg(*q->plug_cache, NULL);
	if (!plug) {
		plug = kmalloc(sizeof(*plug), GFP_NOWAIT | __GFP_NOWARN);
		if (!plug)
			return NULL;
	}
	plug->cb.callback = smq_unplug;
	plug->cb.data = q;
	INIT_LIST_HEAD(&plug->list);
	plug->count = 0;
	list_add(&plug->cb.list, &bplug->cb_list);
	return plug;
}

/**
 * smq_plug_merge - merge a bio into a request the task has plugged
 * @q: queue
 * @plug: the task's batch for @q
 * @bio: the bio
 * @nr_segs: its segments
 *
 * Return: true if the bio now rides on a plugged request.
 */
bool smq_plug_merge(struct smq_queue *q, struct smq_plug_cb *plug,
		    struct bio *bio, unsigned int nr_segs)
{
	return smq_bio_merge_list(q, &plug->list, bio, nr_segs);
}

/**
 * smq_plug_add - add a new request to the task's plug batch
 * @q: queue
 * @plug: the batch
 * @rq: request
 *
 * A full batch is issued at once.
 */
void smq_plug_add(struct smq_queue *q, struct smq_plug_cb *plug,
		  struct smq_request *rq)
{
	list_add_tail(&rq->queuelist, &plug->list);
	if (++plug->count < SMQ_PLUG_MAX)
		return;
	INDIRECT_CALL_1(q->ops->issue_list, smq_issue_list, q, &plug->list,
			false);
	plug->count = 0;
}

/**
 * smq_fail_bio - fail a bio that cannot enter the queue
 * @q: queue
 * @bio: the bio
 */
void smq_fail_bio(struct smq_queue *q, struct bio *bio)
{
	if ((bio->bi_opf & REQ_NOWAIT) && !test_bit(SMQ_Q_DYING, &q->flags))
		bio_wouldblock_error(bio);
	else
		bio_io_error(bio);
}

/**
 * smq_bio_enter - the common start of the mq and legacy bio entries
 * @q: queue
 * @bio: bio split to the limits
 * @nr_segs: out: its segments
 * @plug: out: the task's plug batch for @q, or NULL
 *
 * Drops flush flags the device does not need, enters the queue and tries
 * a merge into the task's plugged requests.
 *
 * Return: true when the caller goes on with the bio (holding a queue
 * reference); false when it was completed, failed or merged here.
 */
bool smq_bio_enter(struct smq_queue *q, struct bio *bio,
		   unsigned int *nr_segs, struct smq_plug_cb **plug)
{
	if (!smq_flush_prepare_bio(q, bio))
		return false;
	*nr_segs = smq_bio_segments(q, bio);
	if (!smq_queue_enter(q, bio->bi_opf & REQ_NOWAIT)) {
		smq_fail_bio(q, bio);
		return false;
	}
	*plug = smq_get_plug(q);
	if (*plug && smq_may_merge(q, bio) &&
	    smq_plug_merge(q, *plug, bio, *nr_segs)) {
		smq_queue_exit(q);
		return false;
	}
	return true;
}
