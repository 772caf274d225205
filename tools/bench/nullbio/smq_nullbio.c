// SPDX-License-Identifier: GPL-2.0
/*
 * smq_nullbio: the benchmark's ceiling for a block device, a bio-based disk
 * whose ->submit_bio ends every bio at once (no request, no tag, no queue,
 * no data touched).  It is not part of smq: tools/bench loads it beside
 * smq and the kernel's peers to measure what the block layer's entry and
 * fio cost on their own (Documentation/bench.md, the like-for-like point).
 *
 * One disk, /dev/smqnb0, of size_mb MiB with 512-byte logical blocks.
 * Locking: none; the disk pointer is set at load and cleared at unload.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/sizes.h>
#include <smq/compat.h>

#define SMQ_NULLBIO_MAX_MB	(1024U * 1024U)	/* MiB: 1 TiB */

static unsigned int size_mb = 1024;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "capacity in MiB (1..1048576, default 1024)");

static struct gendisk *smq_nullbio_disk;

static void smq_nullbio_submit_bio(struct bio *bio)
{
	bio_endio(bio);
}

static const struct block_device_operations smq_nullbio_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= smq_nullbio_submit_bio,
};

static int __init smq_nullbio_init(void)
{
	struct smq_disk_limits lim = {
		.logical_block_size = 512,
		.physical_block_size = 512,
		.max_hw_sectors = 2048,
		.max_segments = 128,
		.max_segment_size = SZ_1M,
	};
	struct gendisk *disk;
	int ret;

	if (!size_mb || size_mb > SMQ_NULLBIO_MAX_MB) {
		pr_err("size_mb=%u: must be 1..%u\n", size_mb, SMQ_NULLBIO_MAX_MB);
		return -EINVAL;
	}
	disk = smq_compat_alloc_disk(&lim, NUMA_NO_NODE, false);
	if (IS_ERR(disk))
		return PTR_ERR(disk);
	/* No major: add_disk() gives the disk a dynamic (extended) dev_t. */
	disk->fops = &smq_nullbio_fops;
	disk->flags |= GENHD_FL_NO_PART;
	snprintf(disk->disk_name, DISK_NAME_LEN, "smqnb0");
	set_capacity(disk, (sector_t)size_mb << (20 - SECTOR_SHIFT));
	ret = add_disk(disk);
	if (ret) {
		put_disk(disk);
		return ret;
	}
	smq_nullbio_disk = disk;
	return 0;
}

static void __exit smq_nullbio_exit(void)
{
	del_gendisk(smq_nullbio_disk);
	put_disk(smq_nullbio_disk);
}

module_init(smq_nullbio_init);
module_exit(smq_nullbio_exit);

MODULE_DESCRIPTION("bench ceiling: a bio-based disk that ends every bio at once");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
