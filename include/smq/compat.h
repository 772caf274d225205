/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shims for kernel API differences between the kernels smq supports
 * (Debian 6.1 and 6.12).  Every difference lives here, named after the API
 * it wraps and commented with the release that changed it, so the rest of
 * the tree has no version checks.
 */
#ifndef _SMQ_COMPAT_H
#define _SMQ_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/err.h>
#include <linux/uio.h>
#include <linux/slab.h>
#include <linux/virtio_config.h>

/* SMQ_KERNEL_AT_LEAST(a, b, c): building for kernel release a.b.c or later. */
#define SMQ_KERNEL_AT_LEAST(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/* get_unaligned_be16/32/64(): 6.12 moved <asm/unaligned.h> (smq/unaligned.h). */
#include <smq/unaligned.h>

/**
 * struct smq_disk_limits - the queue limits smq sets on its gendisks
 * @logical_block_size: logical block size in bytes
 * @physical_block_size: physical block size in bytes
 * @max_hw_sectors: largest request, in 512-byte sectors
 * @max_segments: most segments of a request
 * @max_segment_size: largest segment in bytes
 * @virt_boundary_mask: a segment may end, and the next start, only on this
 *	boundary (mask + 1 bytes), as RDMA page-list registration needs; the
 *	kernel splits bios with gaps, smq does not merge across one (0: none)
 * @io_min: minimum I/O size in bytes (0: not set)
 * @io_opt: optimal I/O size in bytes (0: not set)
 * @max_discard_sectors: largest discard in sectors (0: no discard)
 * @discard_granularity: discard granularity in bytes
 * @max_write_zeroes_sectors: largest WRITE ZEROES in sectors (0: none)
 * @write_cache: the device has a volatile write cache
 * @fua: it honours FUA (only with @write_cache)
 * @rotational: it is a rotational disk
 *
 * A version-neutral subset of struct queue_limits: 6.9 started passing the
 * limits to blk_alloc_disk(), 6.1 sets them one by one on the queue.
 */
struct smq_disk_limits {
	unsigned int logical_block_size;
	unsigned int physical_block_size;
	unsigned int max_hw_sectors;
	unsigned short max_segments;
	unsigned int max_segment_size;
	unsigned long virt_boundary_mask;
	unsigned int io_min;
	unsigned int io_opt;
	unsigned int max_discard_sectors;
	unsigned int discard_granularity;
	unsigned int max_write_zeroes_sectors;
	bool write_cache;
	bool fua;
	bool rotational;
};

/*
 * blk_mode_t: 6.5 replaced fmode_t in block_device_operations with
 * blk_mode_t.
 */
#if !SMQ_KERNEL_AT_LEAST(6, 5, 0)
typedef fmode_t smq_blk_mode_t;
#else
typedef blk_mode_t smq_blk_mode_t;
#endif

/*
 * block_device_operations ->open/->release: 6.5 changed open to take the
 * gendisk (was: the block_device) and a blk_mode_t, and dropped the mode
 * from release.  A driver's handlers are written once:
 *   static int x_open(smq_bdops_open_t *o, smq_blk_mode_t mode)
 *	{ struct gendisk *disk = smq_compat_open_disk(o); ... }
 *   static void x_release(struct gendisk *disk) { ... }
 * and, where SMQ_BDOPS_RELEASE_HAS_MODE (before 6.5), an adapter taking the
 * mode too for ->release.
 */
#if !SMQ_KERNEL_AT_LEAST(6, 5, 0)
typedef struct block_device smq_bdops_open_t;
#define SMQ_BDOPS_RELEASE_HAS_MODE	1

static inline struct gendisk *smq_compat_open_disk(struct block_device *bdev)
{
	return bdev->bd_disk;
}
#else
typedef struct gendisk smq_bdops_open_t;

static inline struct gendisk *smq_compat_open_disk(struct gendisk *disk)
{
	return disk;
}
#endif

/**
 * smq_compat_alloc_disk - allocate a bio-based gendisk with limits
 * @lim: limits to apply
 * @node: NUMA node
 * @poll: the disk supports polled I/O (its fops have ->poll_bio)
 *
 * blk_alloc_disk(): 6.9 added the queue_limits argument and an ERR_PTR
 * return; 6.1 returns NULL on failure and takes setters afterwards.
 * 6.10 turned queue flags such as write cache, FUA, rotational and I/O
 * statistics into limit features; polling too (6.1: QUEUE_FLAG_POLL, 6.12:
 * BLK_FEAT_POLL), which lets REQ_POLLED bios in and bio_poll() call the
 * disk's ->poll_bio (6.1 clears REQ_POLLED of bios to a queue without it,
 * 6.12 fails them with BLK_STS_NOTSUPP).
 *
 * Return: the disk or an ERR_PTR.
 */
static inline struct gendisk *
smq_compat_alloc_disk(const struct smq_disk_limits *lim, int node, bool poll)
{
#if !SMQ_KERNEL_AT_LEAST(6, 9, 0)
	struct gendisk *disk = blk_alloc_disk(node);
	struct request_queue *q;

	if (!disk)
		return ERR_PTR(-ENOMEM);
	q = disk->queue;
	blk_queue_logical_block_size(q, lim->logical_block_size);
	blk_queue_physical_block_size(q, lim->physical_block_size);
	blk_queue_max_hw_sectors(q, lim->max_hw_sectors);
	blk_queue_max_segments(q, lim->max_segments);
	/* 6.1 warns on a segment size set after a virtual boundary. */
	if (lim->virt_boundary_mask)
		blk_queue_virt_boundary(q, lim->virt_boundary_mask);
	else
		blk_queue_max_segment_size(q, lim->max_segment_size);
	if (lim->io_min)
		blk_queue_io_min(q, lim->io_min);
	if (lim->io_opt)
		blk_queue_io_opt(q, lim->io_opt);
	if (lim->max_discard_sectors) {
		blk_queue_max_discard_sectors(q, lim->max_discard_sectors);
		q->limits.discard_granularity = lim->discard_granularity;
	}
	blk_queue_max_write_zeroes_sectors(q, lim->max_write_zeroes_sectors);
	blk_queue_write_cache(q, lim->write_cache, lim->fua);
	if (lim->rotational)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_IO_STAT, q);
	blk_queue_flag_set(QUEUE_FLAG_NOWAIT, q);
	if (poll)
		blk_queue_flag_set(QUEUE_FLAG_POLL, q);
	return disk;
#else
	struct queue_limits ql = {
		.logical_block_size = lim->logical_block_size,
		.physical_block_size = lim->physical_block_size,
		.max_hw_sectors = lim->max_hw_sectors,
		.max_segments = lim->max_segments,
		.max_segment_size = lim->virt_boundary_mask ? UINT_MAX :
				    lim->max_segment_size,
		.virt_boundary_mask = lim->virt_boundary_mask,
		.io_min = lim->io_min,
		.io_opt = lim->io_opt,
		.max_hw_discard_sectors = lim->max_discard_sectors,
		.discard_granularity = lim->discard_granularity,
		.max_write_zeroes_sectors = lim->max_write_zeroes_sectors,
		.features = BLK_FEAT_IO_STAT | BLK_FEAT_NOWAIT,
	};

	if (lim->write_cache)
		ql.features |= BLK_FEAT_WRITE_CACHE;
	if (lim->write_cache && lim->fua)
		ql.features |= BLK_FEAT_FUA;
	if (lim->rotational)
		ql.features |= BLK_FEAT_ROTATIONAL;
	if (poll)
		ql.features |= BLK_FEAT_POLL;
	return blk_alloc_disk(&ql, node);
#endif
}

/**
 * smq_compat_set_write_cache - change a live disk's write cache and FUA
 * @disk: the disk
 * @write_cache: volatile write cache present
 * @fua: FUA honoured (only with @write_cache)
 *
 * blk_queue_write_cache() until 6.10; from 6.10 they are limit features,
 * changed by a limits update with the queue frozen.
 *
 * Return: 0 or a negative errno.
 */
static inline int smq_compat_set_write_cache(struct gendisk *disk,
					     bool write_cache, bool fua)
{
#if !SMQ_KERNEL_AT_LEAST(6, 10, 0)
	blk_queue_write_cache(disk->queue, write_cache, fua);
	return 0;
#else
	struct queue_limits lim = queue_limits_start_update(disk->queue);

	lim.features &= ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA);
	if (write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE;
	if (write_cache && fua)
		lim.features |= BLK_FEAT_FUA;
	return queue_limits_commit_update_frozen(disk->queue, &lim);
#endif
}

/*
 * SMQ_POLLED_BIO_FORCED_NOWAIT: the kernel's block-device direct I/O marks
 * every asynchronous polled bio REQ_NOWAIT, also when io_uring reissues it
 * blocking from its worker (6.1's __blkdev_direct_IO_async(); 6.12 sets
 * REQ_NOWAIT only for IOCB_NOWAIT).  With a kernel that also fails a
 * REQ_NOWAIT bio needing a split with EAGAIN, an IOPOLL ring resubmits such
 * a bio forever (smq_submit.c).
 */
#define SMQ_POLLED_BIO_FORCED_NOWAIT	(!SMQ_KERNEL_AT_LEAST(6, 12, 0))

/**
 * smq_compat_io_acct_start - start block I/O statistics for a request
 * @bdev: the block device that counts it (a partition or the whole disk)
 * @op: operation
 * @sectors: size in sectors
 * @start: jiffies when the request was created
 *
 * bdev_start_io_acct(): 6.3 (bdev_*) moved the sector count from start to
 * end.
 *
 * Return: the start time in jiffies, to hand to smq_compat_io_acct_end().
 */
static inline unsigned long smq_compat_io_acct_start(struct block_device *bdev,
						     enum req_op op,
						     unsigned int sectors,
						     unsigned long start)
{
#if !SMQ_KERNEL_AT_LEAST(6, 3, 0)
	return bdev_start_io_acct(bdev, sectors, op, start);
#else
	return bdev_start_io_acct(bdev, op, start);
#endif
}

/**
 * smq_compat_io_acct_end - end block I/O statistics for a request
 * @bdev: the block device smq_compat_io_acct_start() was given
 * @op: operation
 * @sectors: size in sectors
 * @start: value returned by smq_compat_io_acct_start()
 */
static inline void smq_compat_io_acct_end(struct block_device *bdev,
					  enum req_op op, unsigned int sectors,
					  unsigned long start)
{
#if !SMQ_KERNEL_AT_LEAST(6, 3, 0)
	bdev_end_io_acct(bdev, op, start);
#else
	bdev_end_io_acct(bdev, op, sectors, start);
#endif
}

/*
 * disk->part0: 6.1 and 6.12 both have it; kept as a helper so a later
 * change has one place to go.
 */
static inline struct block_device *smq_compat_disk_bdev(struct gendisk *disk)
{
	return disk->part0;
}

/*
 * BLK_STS_RESV_CONFLICT: 6.5 renamed BLK_STS_NEXUS (a SCSI reservation
 * conflict) to BLK_STS_RESV_CONFLICT; same value.
 */
#if !SMQ_KERNEL_AT_LEAST(6, 5, 0)
#define SMQ_BLK_STS_RESV_CONFLICT	BLK_STS_NEXUS
#else
#define SMQ_BLK_STS_RESV_CONFLICT	BLK_STS_RESV_CONFLICT
#endif

/**
 * smq_compat_mode_write - whether a block device was opened for writing
 * @mode: the mode block_device_operations ->ioctl got
 *
 * blk_mode_t: 6.5 replaced FMODE_WRITE with BLK_OPEN_WRITE.
 *
 * Return: true if @mode allows writing.
 */
static inline bool smq_compat_mode_write(smq_blk_mode_t mode)
{
#if !SMQ_KERNEL_AT_LEAST(6, 5, 0)
	return mode & FMODE_WRITE;
#else
	return mode & BLK_OPEN_WRITE;
#endif
}

/*
 * io_uring commands (IORING_OP_URING_CMD): 6.7 moved struct io_uring_cmd
 * to <linux/io_uring/cmd.h> and replaced its ->cmd (the SQE's command
 * area) with ->sqe.
 */
#if !SMQ_KERNEL_AT_LEAST(6, 7, 0)
#include <linux/io_uring.h>
#define smq_compat_uring_cmd_area(ioucmd)	((ioucmd)->cmd)
#else
#include <linux/io_uring/cmd.h>
#define smq_compat_uring_cmd_area(ioucmd)	io_uring_sqe_cmd((ioucmd)->sqe)
#endif

/**
 * smq_compat_import_ubuf - an iov_iter over one user buffer
 * @rw: ITER_SOURCE (data to the device) or ITER_DEST (from it)
 * @buf: user address
 * @len: bytes
 * @iov: storage the iterator may point to (6.1); keep it while the
 *	iterator is used
 * @iter: out: the iterator
 *
 * 6.4 added ITER_UBUF's import_ubuf(); 6.1 has import_single_range(),
 * which needs an iovec.
 *
 * Return: 0 or -EFAULT.
 */
static inline int smq_compat_import_ubuf(int rw, void __user *buf, size_t len,
					 struct iovec *iov,
					 struct iov_iter *iter)
{
#if !SMQ_KERNEL_AT_LEAST(6, 4, 0)
	return import_single_range(rw, buf, len, iov, iter);
#else
	return import_ubuf(rw, buf, len, iter);
#endif
}

/*
 * struct class ->devnode: 6.2 made the device argument const.
 */
#if !SMQ_KERNEL_AT_LEAST(6, 2, 0)
#define smq_devnode_dev_t	struct device
#else
#define smq_devnode_dev_t	const struct device
#endif

/**
 * smq_compat_find_vqs - find a virtio device's virtqueues
 * @vdev: the device
 * @nvqs: how many
 * @vqs: out: @nvqs virtqueues
 * @callbacks: @nvqs used-buffer callbacks (NULL: the queue raises none,
 *	it is polled)
 * @names: @nvqs names
 * @desc: interrupt affinity of the vectors (pre_vectors skip spreading)
 *
 * 6.11 replaced virtio_find_vqs()'s callback and name arrays with one
 * array of struct virtqueue_info.  Probe time only: it may allocate.
 *
 * Return: 0 or a negative errno.
 */
static inline int smq_compat_find_vqs(struct virtio_device *vdev,
				      unsigned int nvqs, struct virtqueue *vqs[],
				      vq_callback_t *callbacks[],
				      const char *const names[],
				      struct irq_affinity *desc)
{
#if !SMQ_KERNEL_AT_LEAST(6, 11, 0)
	return virtio_find_vqs(vdev, nvqs, vqs, callbacks, names, desc);
#else
	struct virtqueue_info *info;
	unsigned int i;
	int ret;

	info = kcalloc(nvqs, sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	for (i = 0; i < nvqs; i++) {
		info[i].name = names[i];
		info[i].callback = callbacks[i];
	}
	ret = virtio_find_vqs(vdev, nvqs, vqs, info, desc);
	kfree(info);
	return ret;
#endif
}

#endif /* _SMQ_COMPAT_H */
