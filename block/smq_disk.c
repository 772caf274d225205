// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: the gendisk of a queue.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "smq_blk_int.h"

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
	/* Polled I/O: mq with poll queues (never legacy) and ->poll_bio. */
	disk = smq_compat_alloc_disk(lim, q->tag_set->numa_node,
				     q->tag_set->nr_poll_queues &&
				     !smq_queue_is_legacy(q) && fops->poll_bio);
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
