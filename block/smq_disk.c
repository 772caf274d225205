// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: the gendisk of a queue and its bio entry: what the kernel
 * hands smq (split to the disk's limits here), passed to the queue's path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/indirect_call_wrapper.h>
#include "smq_blk_int.h"

/* ---- the bio entry ------------------------------------------------ */

/*
 * Whether the kernel's bio_split_to_limits() may split @bio: an upper
 * bound from the kernel's own limits of the disk (max_sectors_kb can be
 * written there), counting segments as it does: at least one per bvec,
 * no merging across bvecs.
 */
static bool smq_bio_may_split(struct bio *bio)
{
	struct request_queue *rq_q = bio->bi_bdev->bd_disk->queue;
	unsigned int max_seg = queue_max_segment_size(rq_q);
	unsigned int segs = 0, nr_bvecs = 0;
	struct bvec_iter iter;
	struct bio_vec bv;

	/* Discard and write-zeroes bios have a size but no bvecs. */
	if (!bio_has_data(bio))
		return false;
	if (bio_sectors(bio) > queue_max_sectors(rq_q))
		return true;
	bio_for_each_bvec(bv, bio, iter) {
		segs += DIV_ROUND_UP(bv.bv_offset % max_seg + bv.bv_len,
				     max_seg);
		nr_bvecs++;
	}
	return segs >= queue_max_segments(rq_q) ||
	       (queue_virt_boundary(rq_q) && nr_bvecs > 1);
}

/*
 * On 6.1 (SMQ_POLLED_BIO_FORCED_NOWAIT) every asynchronous polled bio comes
 * with REQ_NOWAIT, also when io_uring's worker reissues it after -EAGAIN,
 * and the kernel fails a REQ_NOWAIT bio that needs a split with -EAGAIN:
 * an IOPOLL ring (fio --ioengine=io_uring --hipri) would resubmit 1 MiB of
 * scattered pages on a 128-segment disk forever, on either path (the
 * legacy disk sees REQ_POLLED already cleared by the kernel, so any
 * REQ_NOWAIT bio counts).  Such a bio goes on as an ordinary one: it may
 * wait, and its parts complete by interrupt (a split bio is not polled:
 * bio_split_to_limits() clears REQ_POLLED).  6.12 keeps the kernel's rule.
 */
static void smq_bio_nowait_split(struct bio *bio)
{
	if (!SMQ_POLLED_BIO_FORCED_NOWAIT ||
	    likely(!(bio->bi_opf & REQ_NOWAIT)))
		return;
	if (smq_bio_may_split(bio)) {
		bio_clear_polled(bio);
		bio->bi_opf &= ~REQ_NOWAIT;
	}
}

/**
 * smq_submit_bio - ->submit_bio of every smq disk
 * @bio: the bio
 *
 * The disk's request_queue->queuedata is the smq_queue (smq_alloc_disk()).
 * The queue's path takes it from here; the mq entry is called directly
 * where indirect calls are costly (retpolines).
 */
void smq_submit_bio(struct bio *bio)
{
	struct smq_queue *q = bio->bi_bdev->bd_disk->queue->queuedata;

	smq_bio_nowait_split(bio);
	bio = bio_split_to_limits(bio);
	if (!bio)
		return;
	INDIRECT_CALL_1(q->ops->submit_bio, smq_mq_submit_bio, q, bio);
}
EXPORT_SYMBOL_GPL(smq_submit_bio);

/* ---- the disk ----------------------------------------------------- */

/**
 * smq_alloc_disk - allocate the bio-based gendisk that feeds a queue
 * @q: queue
 * @lim: limits (the kernel splits bios to them before smq sees them)
 * @fops: the owner's block_device_operations; .submit_bio must be
 *	smq_submit_bio, and .poll_bio smq_poll_bio where the tag set has
 *	poll queues (the disk then supports polled I/O: io_uring IOPOLL)
 * @private_data: the owner's disk->private_data
 *
 * The caller names the disk, sets major/minors and capacity, then
 * device_add_disk() and smq_queue_register().
 *
 * Return: the disk or an ERR_PTR.
 */
struct gendisk *smq_alloc_disk(struct smq_queue *q,
			       const struct smq_disk_limits *lim,
			       const struct block_device_operations *fops,
			       void *private_data)
{
	struct gendisk *disk;

	if (!lim->logical_block_size || !lim->max_hw_sectors ||
	    !lim->max_segments || lim->max_segment_size < PAGE_SIZE) {
		pr_err("invalid disk limits (lbs %u, max_hw_sectors %u, max_segments %u, max_segment_size %u)\n",
		       lim->logical_block_size, lim->max_hw_sectors,
		       lim->max_segments, lim->max_segment_size);
		return ERR_PTR(-EINVAL);
	}
	/* Polled I/O: poll queues (never on a legacy set) and ->poll_bio. */
	disk = smq_compat_alloc_disk(lim, q->tag_set->numa_node,
				     q->tag_set->nr_poll_queues &&
				     smq_set_has_hw_queues(q->tag_set) &&
				     fops->poll_bio);
	if (IS_ERR(disk))
		return disk;
	disk->fops = fops;
	disk->private_data = private_data;
	disk->queue->queuedata = q;
	q->disk = disk;
	q->max_sectors = lim->max_hw_sectors;
	q->max_segments = lim->max_segments;
	q->max_segment_size = lim->max_segment_size;
	q->virt_boundary_mask = lim->virt_boundary_mask;
	q->write_cache = lim->write_cache;
	q->fua = lim->write_cache && lim->fua;
	return disk;
}
EXPORT_SYMBOL_GPL(smq_alloc_disk);

/**
 * smq_disk_set_write_cache - change a disk's volatile write cache and FUA
 * @q: queue with a disk (smq_alloc_disk())
 * @write_cache: the device now has a volatile write cache
 * @fua: it honours FUA (ignored without @write_cache)
 *
 * Like Linux's write cache queue features, changed at run time (sd's
 * cache_type): the kernel's queue of the disk first, so new bios keep or
 * lose REQ_PREFLUSH / REQ_FUA from then on, then smq's own flags, which
 * the flush sequencing reads per bio and request (a request already
 * prepared finishes the steps it was given: a flush sent to a device
 * that no longer caches is harmless).  Process context.
 *
 * Return: 0, or the error of the kernel queue's limits update (then
 * nothing changed).
 */
int smq_disk_set_write_cache(struct smq_queue *q, bool write_cache, bool fua)
{
	int ret;

	fua = write_cache && fua;
	ret = smq_compat_set_write_cache(q->disk, write_cache, fua);
	if (ret)
		return ret;
	WRITE_ONCE(q->write_cache, write_cache);
	WRITE_ONCE(q->fua, fua);
	return 0;
}
EXPORT_SYMBOL_GPL(smq_disk_set_write_cache);
