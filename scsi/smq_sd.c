// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: the sd-style disk of a direct-access LUN.
 *
 * Probe: TEST UNIT READY, READ CAPACITY(16) (READ CAPACITY(10) when not
 * supported), the block limits VPD pages (0xB0 limits, 0xB1 rotation rate,
 * 0xB2 provisioning) and MODE SENSE of the caching page (WCE) with the
 * DPOFUA bit of the header.  Then a bio-based gendisk on the LUN's smq
 * queue, named <disk_prefix><a..z, aa..> with the first name that no block
 * device has yet, on a dynamic major with 16 minors per disk.
 *
 * Commands: READ/WRITE(10) or (16) by LBA and length (16 when the disk has
 * more than 2^32 blocks), SYNCHRONIZE CACHE(10) for flushes, FUA when the
 * device has DPOFUA, UNMAP or WRITE SAME(16) with UNMAP for discards and
 * WRITE SAME(16) for write zeroes when the VPD pages say so (an ILLEGAL
 * REQUEST for them disables the feature).
 *
 * /sys/block/<disk>/cache_type is sd's attribute of that name: writing it
 * changes the device's caching page with MODE SELECT (or, with the
 * "temporary " prefix, only what the disk assumes), then the block
 * queue's write cache and FUA follow.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/hdreg.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "smq_scsi_priv.h"
#include <smq/cdb.h>
#include <smq/sense.h>

#define SMQ_SD_MINORS		16
#define SMQ_SD_MAX_INDEX	((1U << MINORBITS) / SMQ_SD_MINORS - 1)
#define SMQ_SD_FLUSH_TIMEOUT_MULT 2
#define SMQ_SD_MAX_WS16_BLOCKS	0x7fffff
#define SMQ_RC16_LEN		32
#define SMQ_MODE_LEN		64

enum smq_sd_lbp {
	SMQ_LBP_DISABLE,	/* no discard */
	SMQ_LBP_UNMAP,		/* UNMAP */
	SMQ_LBP_WS16,		/* WRITE SAME(16) with UNMAP */
};

/**
 * struct smq_sd_disk - one disk (disk->private_data, sdev->disk)
 * @sdev: the LUN; a reference is held until the disk is freed
 * @disk: the gendisk
 * @index: name and minor index (smq_sd_index_ida)
 * @added: device_add_disk() succeeded
 * @capacity: logical blocks
 * @lbs: logical block size in bytes
 * @lbs_shift: log2(@lbs) - 9: LBA <-> 512 B sector shift
 * @phys_bs: physical block size in bytes
 * @use_16: READ/WRITE(16) for every command (more than 2^32 blocks)
 * @wce: write cache enabled (MODE SENSE caching page, or cache_type);
 *	written under smq_sd_cache_mutex after probe, read with READ_ONCE()
 * @rcd: read cache disabled (likewise)
 * @dpofua: DPO and FUA bits supported (MODE SENSE header)
 * @write_prot: write protected (MODE SENSE header)
 * @lbpme: logical block provisioning enabled (READ CAPACITY(16))
 * @lbprz: unmapped blocks read as zeroes (READ CAPACITY(16))
 * @max_xfer_blocks: VPD B0 maximum transfer length (0: none)
 * @opt_xfer_blocks: VPD B0 optimal transfer length
 * @opt_xfer_gran: VPD B0 optimal transfer length granularity
 * @max_unmap_blocks: VPD B0 maximum UNMAP LBA count
 * @max_unmap_desc: VPD B0 maximum UNMAP block descriptor count
 * @unmap_gran: VPD B0 optimal UNMAP granularity
 * @max_ws_blocks: VPD B0 maximum WRITE SAME length
 * @rotation_rate: VPD B1 medium rotation rate (1: non-rotating)
 * @lbpu: VPD B2: UNMAP supported
 * @lbpws: VPD B2: WRITE SAME(16) with UNMAP supported
 * @provisioning_mode: SMQ_LBP_*; lowered from completion context
 * @ws_zeroes: WRITE SAME(16) used for write zeroes; cleared from
 *	completion context
 */
struct smq_sd_disk {
	struct smq_scsi_device *sdev;
	struct gendisk *disk;
	int index;
	bool added;
	u64 capacity;
	unsigned int lbs;
	unsigned int lbs_shift;
	unsigned int phys_bs;
	bool use_16;
	bool wce;
	bool rcd;
	bool dpofua;
	bool write_prot;
	bool lbpme;
	bool lbprz;
	u32 max_xfer_blocks;
	u32 opt_xfer_blocks;
	u16 opt_xfer_gran;
	u32 max_unmap_blocks;
	u32 max_unmap_desc;
	u32 unmap_gran;
	u64 max_ws_blocks;
	u16 rotation_rate;
	bool lbpu;
	bool lbpws;
	int provisioning_mode;
	bool ws_zeroes;
};

static int smq_sd_major;
/* Disk indices: name suffix and minor range (the IDA locks itself). */
static DEFINE_IDA(smq_sd_index_ida);

/* ---- naming ------------------------------------------------------------ */

/*
 * <prefix> + bijective base 26: 0 -> a, 25 -> z, 26 -> aa, 701 -> zz,
 * 702 -> aaa, as Linux names sd disks.
 */
static int smq_sd_format_name(const char *prefix, unsigned int index,
			      char *buf, size_t len)
{
	char suffix[8];
	int pos = sizeof(suffix) - 1;
	long n = index;

	suffix[pos] = '\0';
	do {
		if (pos == 0)
			return -EINVAL;
		suffix[--pos] = 'a' + n % 26;
		n = n / 26 - 1;
	} while (n >= 0);
	if (snprintf(buf, len, "%s%s", prefix, &suffix[pos]) >= len)
		return -EINVAL;
	return 0;
}

static int smq_match_name(struct device *dev, const void *name)
{
	return !strcmp(dev_name(dev), name);
}

/* Whether a block device of that name exists (in /sys/block or a partition). */
static bool smq_block_name_taken(struct gendisk *disk, const char *name)
{
	struct device *dev;

	dev = class_find_device(disk_to_dev(disk)->class, NULL, name,
				smq_match_name);
	if (!dev)
		return false;
	put_device(dev);
	return true;
}

/*
 * Give @disk the first <prefix><letters> name that neither another smq disk
 * (the IDA) nor any other block device (the block class) has.
 */
static int smq_sd_pick_name(struct gendisk *disk)
{
	const char *prefix = smq_param_disk_prefix();
	unsigned int min = 0;
	int index;

	for (;;) {
		index = ida_alloc_range(&smq_sd_index_ida, min, SMQ_SD_MAX_INDEX,
					GFP_KERNEL);
		if (index < 0)
			return index;
		if (smq_sd_format_name(prefix, index, disk->disk_name,
				       DISK_NAME_LEN)) {
			ida_free(&smq_sd_index_ida, index);
			return -ENOSPC;
		}
		if (!smq_block_name_taken(disk, disk->disk_name))
			return index;
		ida_free(&smq_sd_index_ida, index);
		min = index + 1;
	}
}

/* ---- probing ----------------------------------------------------------- */

static int smq_sd_exec(struct smq_sd_disk *sdkp, const u8 *cdb,
		       unsigned int cdb_len, void *buf, unsigned int len,
		       struct smq_exec_args *a, u8 *sense)
{
	memset(a, 0, sizeof(*a));
	a->cdb = cdb;
	a->cdb_len = cdb_len;
	a->dir = len ? DMA_FROM_DEVICE : DMA_NONE;
	a->buf = buf;
	a->buf_len = len;
	a->timeout = SMQ_SCAN_TIMEOUT;
	a->retries = SMQ_SCAN_RETRIES;
	a->sense = sense;
	return smq_scsi_execute(sdkp->sdev, a);
}

static bool smq_sd_illegal_request(const struct smq_exec_args *a)
{
	struct smq_sense_hdr h;

	return smq_status_byte(a->result) == SMQ_SAM_CHECK_CONDITION &&
	       smq_sense_normalize(a->sense, a->sense_len, &h) &&
	       h.sense_key == SMQ_SK_ILLEGAL_REQUEST;
}

static bool smq_sd_block_size_ok(unsigned int lbs)
{
	return lbs >= 512 && lbs <= PAGE_SIZE && is_power_of_2(lbs);
}

static void smq_sd_read_capacity(struct smq_sd_disk *sdkp, u8 *buf, u8 *sense)
{
	struct device *dev = &sdkp->sdev->sdev_gendev;
	struct smq_capacity cap;
	struct smq_exec_args a;
	u8 cdb[SMQ_MAX_CDB];
	int len;

	len = smq_cdb_read_capacity16(cdb, SMQ_RC16_LEN);
	memset(buf, 0, SMQ_RC16_LEN);
	if (len > 0 &&
	    !smq_sd_exec(sdkp, cdb, len, buf, SMQ_RC16_LEN, &a, sense) &&
	    !a.result &&
	    !smq_parse_read_capacity16(buf, SMQ_RC16_LEN - a.resid, &cap)) {
		sdkp->lbs = cap.block_size;
		sdkp->capacity = cap.last_lba + 1;
		sdkp->phys_bs = cap.lbppbe < 8 ? sdkp->lbs << cap.lbppbe :
						 sdkp->lbs;
		sdkp->lbpme = cap.lbpme;
		sdkp->lbprz = cap.lbprz;
		return;
	}
	if (len > 0 && a.result && !smq_sd_illegal_request(&a))
		smq_dev_info(dev, "READ CAPACITY(16) failed (result 0x%x): trying READ CAPACITY(10)\n",
			     a.result);

	len = smq_cdb_read_capacity10(cdb);
	memset(buf, 0, 8);
	if (len < 0 || smq_sd_exec(sdkp, cdb, len, buf, 8, &a, sense) ||
	    a.result || smq_parse_read_capacity10(buf, 8 - a.resid, &cap)) {
		smq_dev_err(dev, "READ CAPACITY failed (result 0x%x): capacity 0\n",
			    a.result);
		sdkp->capacity = 0;
		sdkp->lbs = 512;
		return;
	}
	sdkp->lbs = cap.block_size;
	sdkp->phys_bs = sdkp->lbs;
	if (cap.need_rc16) {
		smq_dev_err(dev, "more than 2^32 blocks but no READ CAPACITY(16): capacity limited\n");
		sdkp->capacity = U32_MAX;
	} else {
		sdkp->capacity = cap.last_lba + 1;
	}
}

static void smq_sd_read_block_limits(struct smq_sd_disk *sdkp)
{
	struct smq_scsi_device *sdev = sdkp->sdev;
	struct smq_block_limits bl;
	struct smq_bdc bdc;
	struct smq_lbp lbp;
	unsigned int len;
	u8 *pg;

	if (sdev->vpd_pages & SMQ_VPD_HAS_B0) {
		pg = smq_scsi_get_vpd(sdev, SMQ_VPD_BLOCK_LIMITS, &len);
		if (pg && !smq_parse_vpd_b0(pg, len, &bl)) {
			sdkp->opt_xfer_gran = bl.opt_xfer_gran;
			sdkp->max_xfer_blocks = bl.max_xfer;
			sdkp->opt_xfer_blocks = bl.opt_xfer;
			sdkp->max_unmap_blocks = bl.max_unmap_lba;
			sdkp->max_unmap_desc = bl.max_unmap_desc;
			sdkp->unmap_gran = bl.unmap_gran;
			sdkp->max_ws_blocks = bl.max_ws;
		}
		kfree(pg);
	}
	if (sdev->vpd_pages & SMQ_VPD_HAS_B1) {
		pg = smq_scsi_get_vpd(sdev, SMQ_VPD_BLOCK_DEV_CHARS, &len);
		if (pg && !smq_parse_vpd_b1(pg, len, &bdc))
			sdkp->rotation_rate = bdc.rotation_rate;
		kfree(pg);
	}
	if (sdev->vpd_pages & SMQ_VPD_HAS_B2) {
		pg = smq_scsi_get_vpd(sdev, SMQ_VPD_LB_PROVISIONING, &len);
		if (pg && !smq_parse_vpd_b2(pg, len, &lbp)) {
			sdkp->lbpu = lbp.lbpu;
			sdkp->lbpws = lbp.lbpws;
		}
		kfree(pg);
	}

	if (sdkp->lbpu && sdkp->max_unmap_blocks && sdkp->max_unmap_desc)
		sdkp->provisioning_mode = SMQ_LBP_UNMAP;
	else if (sdkp->lbpws)
		sdkp->provisioning_mode = SMQ_LBP_WS16;
	else
		sdkp->provisioning_mode = SMQ_LBP_DISABLE;
	sdkp->ws_zeroes = sdkp->max_ws_blocks || sdkp->lbpws;
}

/* MODE SENSE of the caching page into @buf; the bytes valid, or -errno. */
static int smq_sd_sense_caching_raw(struct smq_sd_disk *sdkp, bool ten,
				    u8 *buf, u8 *sense)
{
	struct smq_mode_sense_req req = {
		.ten = ten, .dbd = true, .pc = SMQ_MODE_PC_CURRENT,
		.page = SMQ_MODE_PAGE_CACHING, .alloc_len = SMQ_MODE_LEN,
	};
	struct smq_exec_args a;
	u8 cdb[SMQ_MAX_CDB];
	int len;

	memset(buf, 0, SMQ_MODE_LEN);
	len = smq_cdb_mode_sense(cdb, &req);
	if (len < 0 || smq_sd_exec(sdkp, cdb, len, buf, SMQ_MODE_LEN, &a, sense))
		return -EIO;
	if (a.result)
		return smq_sd_illegal_request(&a) ? -EOPNOTSUPP : -EIO;
	return SMQ_MODE_LEN - a.resid;
}

/* MODE SENSE of the caching page, parsed; @ten: the 10-byte form. */
static int smq_sd_mode_caching(struct smq_sd_disk *sdkp, bool ten, u8 *buf,
			       u8 *sense, struct smq_caching *c)
{
	int len = smq_sd_sense_caching_raw(sdkp, ten, buf, sense);

	return len < 0 ? len : smq_parse_mode_caching(buf, len, ten, c);
}

static void smq_sd_read_cache_type(struct smq_sd_disk *sdkp, u8 *buf,
				   u8 *sense)
{
	struct smq_caching c;
	int ret;

	ret = smq_sd_mode_caching(sdkp, false, buf, sense, &c);
	if (ret == -EOPNOTSUPP || ret == -EINVAL)
		ret = smq_sd_mode_caching(sdkp, true, buf, sense, &c);
	if (ret == 0 || ret == -ENOENT) {
		/* The header's bits are valid without the page too. */
		sdkp->write_prot = c.wp;
		sdkp->dpofua = c.dpofua;
	}
	if (ret == 0) {
		WRITE_ONCE(sdkp->wce, c.wce);
		WRITE_ONCE(sdkp->rcd, c.rcd);
		return;
	}
	smq_dev_info(&sdkp->sdev->sdev_gendev,
		     "no caching mode page: assuming write through\n");
	WRITE_ONCE(sdkp->wce, false);
	WRITE_ONCE(sdkp->rcd, false);
}

static void smq_sd_revalidate(struct smq_sd_disk *sdkp)
{
	struct smq_exec_args a;
	u8 cdb[SMQ_MAX_CDB];
	u8 *buf, *sense;
	int len;

	buf = kzalloc(SMQ_MODE_LEN, GFP_KERNEL);
	sense = kzalloc(SMQ_SENSE_BUFFERSIZE, GFP_KERNEL);
	if (!buf || !sense) {
		sdkp->lbs = 512;
		goto out;
	}
	/* Consumes a pending UNIT ATTENTION; the outcome does not matter. */
	len = smq_cdb_test_unit_ready(cdb);
	if (len > 0)
		smq_sd_exec(sdkp, cdb, len, NULL, 0, &a, sense);

	smq_sd_read_capacity(sdkp, buf, sense);
	if (!smq_sd_block_size_ok(sdkp->lbs)) {
		smq_dev_err(&sdkp->sdev->sdev_gendev,
			    "unsupported logical block size %u: capacity 0\n",
			    sdkp->lbs);
		sdkp->lbs = 512;
		sdkp->capacity = 0;
	}
	if (!smq_sd_block_size_ok(sdkp->phys_bs) || sdkp->phys_bs < sdkp->lbs)
		sdkp->phys_bs = sdkp->lbs;
	sdkp->lbs_shift = ilog2(sdkp->lbs) - SECTOR_SHIFT;
	sdkp->use_16 = sdkp->capacity > 0xffffffffULL;
	smq_sd_read_block_limits(sdkp);
	smq_sd_read_cache_type(sdkp, buf, sense);
out:
	kfree(buf);
	kfree(sense);
}

static unsigned int smq_blocks_to_sectors(const struct smq_sd_disk *sdkp,
					  u64 blocks)
{
	u64 s = blocks << sdkp->lbs_shift;

	return min_t(u64, s, UINT_MAX >> SECTOR_SHIFT);
}

static void smq_sd_limits(struct smq_sd_disk *sdkp, struct smq_disk_limits *lim)
{
	struct smq_scsi_host *shost = sdkp->sdev->host;
	unsigned int max_hw = shost->max_sectors;
	u64 n;

	memset(lim, 0, sizeof(*lim));
	lim->logical_block_size = sdkp->lbs;
	lim->physical_block_size = sdkp->phys_bs;
	if (sdkp->max_xfer_blocks) {
		unsigned int dev_max = smq_blocks_to_sectors(sdkp,
							     sdkp->max_xfer_blocks);

		if (dev_max >= PAGE_SIZE >> SECTOR_SHIFT)
			max_hw = min(max_hw, dev_max);
	}
	/* Whole logical blocks only. */
	max_hw = round_down(max_hw, 1U << sdkp->lbs_shift);
	lim->max_hw_sectors = max_hw;
	lim->max_segments = shost->sg_tablesize;
	lim->max_segment_size = shost->max_segment_size;
	lim->virt_boundary_mask = shost->virt_boundary_mask;
	if (sdkp->opt_xfer_gran > 1)
		lim->io_min = sdkp->opt_xfer_gran * sdkp->lbs;
	if (sdkp->opt_xfer_blocks &&
	    smq_blocks_to_sectors(sdkp, sdkp->opt_xfer_blocks) <= max_hw)
		lim->io_opt = sdkp->opt_xfer_blocks * sdkp->lbs;

	switch (sdkp->provisioning_mode) {
	case SMQ_LBP_UNMAP:
		n = min_t(u64, sdkp->max_unmap_blocks, U32_MAX);
		break;
	case SMQ_LBP_WS16:
		n = sdkp->max_ws_blocks ?: SMQ_SD_MAX_WS16_BLOCKS;
		n = min_t(u64, n, U32_MAX);
		break;
	default:
		n = 0;
		break;
	}
	if (n) {
		lim->max_discard_sectors = smq_blocks_to_sectors(sdkp, n);
		lim->discard_granularity = max(sdkp->unmap_gran, 1U) * sdkp->lbs;
	}
	if (sdkp->ws_zeroes) {
		n = sdkp->max_ws_blocks ?: SMQ_SD_MAX_WS16_BLOCKS;
		n = min_t(u64, n, U32_MAX);
		lim->max_write_zeroes_sectors = smq_blocks_to_sectors(sdkp, n);
	}
	lim->write_cache = sdkp->wce;
	lim->fua = sdkp->wce && sdkp->dpofua;
	lim->rotational = sdkp->rotation_rate != 1;
}

/* ---- block_device_operations ------------------------------------------- */

static int smq_sd_open(smq_bdops_open_t *o, smq_blk_mode_t mode)
{
	struct smq_sd_disk *sdkp = smq_compat_open_disk(o)->private_data;
	struct smq_scsi_device *sdev = sdkp->sdev;

	switch (READ_ONCE(sdev->sdev_state)) {
	case SMQ_SDEV_RUNNING:
	case SMQ_SDEV_BLOCK:
		break;
	default:
		return -ENXIO;
	}
	/* The driver cannot go away while its disk is open. */
	if (!try_module_get(sdev->host->hostt->module))
		return -ENXIO;
	return 0;
}

static void smq_sd_release(struct gendisk *disk)
{
	struct smq_sd_disk *sdkp = disk->private_data;

	module_put(sdkp->sdev->host->hostt->module);
}

#ifdef SMQ_BDOPS_RELEASE_HAS_MODE
/* ->release before 6.5 also got the open mode, which smq does not need. */
static void smq_sd_release_mode(struct gendisk *disk, fmode_t mode)
{
	smq_sd_release(disk);
}
#endif

static int smq_sd_ioctl(struct block_device *bdev, smq_blk_mode_t mode,
			unsigned int cmd, unsigned long arg)
{
	struct smq_sd_disk *sdkp = bdev->bd_disk->private_data;

	return smq_scsi_ioctl(sdkp->sdev, smq_compat_mode_write(mode), cmd,
			      (void __user *)arg);
}

static int smq_sd_getgeo(struct block_device *bdev, struct hd_geometry *geo)
{
	sector_t sectors = get_capacity(bdev->bd_disk);

	geo->heads = 64;
	geo->sectors = 32;
	geo->cylinders = min_t(sector_t, sectors >> 11, U16_MAX);
	return 0;
}

/* The last reference to the disk is gone (it was added). */
static void smq_sd_free_disk(struct gendisk *disk)
{
	struct smq_sd_disk *sdkp = disk->private_data;

	ida_free(&smq_sd_index_ida, sdkp->index);
	put_device(&sdkp->sdev->sdev_gendev);
	kfree(sdkp);
}

/* ---- cache_type -------------------------------------------------------- */

/* sd's names, indexed by WCE << 1 | RCD */
static const char * const smq_sd_cache_types[] = {
	"write through", "none", "write back", "write back, no read (daft)",
};

/*
 * Serializes cache_type stores of all disks: the MODE SENSE / MODE SELECT
 * round trip, the re-read of the caching page and the queue's flags.
 * Taken in a sysfs store (process context); nothing else nests in it but
 * the commands' own I/O path.
 */
static DEFINE_MUTEX(smq_sd_cache_mutex);

/*
 * Set the caching page's WCE and RCD with MODE SELECT, sd's way: read the
 * page, change the two bits, send it back without block descriptors and
 * with the header's device-specific parameter cleared (SP as the page's
 * PS bit says).  Then re-read the cache type.
 */
static int smq_sd_select_caching(struct smq_sd_disk *sdkp, bool wce, bool rcd)
{
	unsigned int hlen, bdl, p, plen, n;
	struct smq_exec_args a;
	u8 cdb[SMQ_MAX_CDB];
	u8 *buf, *out, *sense;
	bool ten = false;
	int ret;

	buf = kzalloc(SMQ_MODE_LEN, GFP_KERNEL);
	out = kzalloc(SMQ_MODE_LEN, GFP_KERNEL);
	sense = kzalloc(SMQ_SENSE_BUFFERSIZE, GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf || !out || !sense)
		goto out;

	ret = smq_sd_sense_caching_raw(sdkp, false, buf, sense);
	if (ret == -EOPNOTSUPP) {
		ten = true;
		ret = smq_sd_sense_caching_raw(sdkp, true, buf, sense);
	}
	if (ret < 0)
		goto out;
	n = ret;
	hlen = ten ? 8 : 4;
	ret = -EINVAL;
	if (n < hlen)
		goto out;
	n = min(n, ten ? get_unaligned_be16(&buf[0]) + 2U : buf[0] + 1U);
	bdl = ten ? get_unaligned_be16(&buf[6]) : buf[3];
	p = hlen + bdl;
	if (p >= n || n - p < 3 || (buf[p] & 0x3f) != SMQ_MODE_PAGE_CACHING)
		goto out;
	plen = min(buf[p + 1] + 2U, n - p);

	/* Header: mode data length 0, the medium type, nothing else. */
	out[ten ? 2 : 1] = buf[ten ? 2 : 1];
	memcpy(&out[hlen], &buf[p], plen);
	out[hlen] &= ~0x80;				/* PS */
	out[hlen + 2] &= ~0x05;
	out[hlen + 2] |= (wce ? 0x04 : 0) | (rcd ? 0x01 : 0);

	ret = smq_cdb_mode_select(cdb, ten, buf[p] & 0x80, hlen + plen);
	if (ret < 0)
		goto out;
	memset(&a, 0, sizeof(a));
	a.cdb = cdb;
	a.cdb_len = ret;
	a.dir = DMA_TO_DEVICE;
	a.buf = out;
	a.buf_len = hlen + plen;
	a.timeout = SMQ_SCAN_TIMEOUT;
	a.retries = SMQ_SCAN_RETRIES;
	a.sense = sense;
	ret = smq_scsi_execute(sdkp->sdev, &a);
	if (!ret && a.result) {
		struct smq_sense_hdr h;

		if (smq_sense_normalize(a.sense, a.sense_len, &h))
			smq_dev_warn(&sdkp->sdev->sdev_gendev,
				     "%s: MODE SELECT of the caching page: sense key 0x%x, asc/ascq 0x%02x/0x%02x\n",
				     sdkp->disk->disk_name, h.sense_key,
				     h.asc, h.ascq);
		ret = -EINVAL;
	}
	if (!ret)
		smq_sd_read_cache_type(sdkp, buf, sense);
out:
	kfree(buf);
	kfree(out);
	kfree(sense);
	return ret;
}

static ssize_t cache_type_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct smq_sd_disk *sdkp = dev_to_disk(dev)->private_data;
	unsigned int ct = READ_ONCE(sdkp->wce) << 1 | READ_ONCE(sdkp->rcd);

	return sysfs_emit(buf, "%s\n", smq_sd_cache_types[ct]);
}

static ssize_t cache_type_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	static const char temp[] = "temporary ";
	struct smq_sd_disk *sdkp = dev_to_disk(dev)->private_data;
	bool temporary = false, wce, rcd;
	int ct, ret = 0;

	if (!strncmp(buf, temp, sizeof(temp) - 1)) {
		buf += sizeof(temp) - 1;
		temporary = true;
	}
	ct = sysfs_match_string(smq_sd_cache_types, buf);
	if (ct < 0)
		return -EINVAL;
	rcd = ct & 0x01;
	wce = (ct & 0x02) && !sdkp->write_prot;

	mutex_lock(&smq_sd_cache_mutex);
	if (temporary) {
		WRITE_ONCE(sdkp->wce, wce);
		WRITE_ONCE(sdkp->rcd, rcd);
	} else {
		ret = smq_sd_select_caching(sdkp, wce, rcd);
	}
	if (!ret)
		ret = smq_disk_set_write_cache(sdkp->sdev->queue, sdkp->wce,
					       sdkp->dpofua);
	mutex_unlock(&smq_sd_cache_mutex);
	return ret ?: count;
}
static DEVICE_ATTR_RW(cache_type);

static struct attribute *smq_sd_disk_attrs[] = {
	&dev_attr_cache_type.attr,
	NULL,
};

static const struct attribute_group smq_sd_disk_group = {
	.attrs = smq_sd_disk_attrs,
};

static const struct attribute_group *smq_sd_disk_groups[] = {
	&smq_sd_disk_group,
	NULL,
};

static const struct block_device_operations smq_sd_fops = {
	.owner = THIS_MODULE,
	.submit_bio = smq_submit_bio,
	.poll_bio = smq_poll_bio,
	.open = smq_sd_open,
#ifdef SMQ_BDOPS_RELEASE_HAS_MODE
	.release = smq_sd_release_mode,
#else
	.release = smq_sd_release,
#endif
	.ioctl = smq_sd_ioctl,
	.getgeo = smq_sd_getgeo,
	.free_disk = smq_sd_free_disk,
};

/* ---- probe and remove -------------------------------------------------- */

/**
 * smq_sd_probe - create the disk of a direct-access LUN
 * @sdev: the LUN, visible, state RUNNING
 *
 * Errors are logged; the LUN then stays without a disk.
 */
void smq_sd_probe(struct smq_scsi_device *sdev)
{
	struct smq_disk_limits lim;
	struct smq_sd_disk *sdkp;
	struct gendisk *disk;
	int index, ret;

	sdkp = kzalloc(sizeof(*sdkp), GFP_KERNEL);
	if (!sdkp)
		return;
	sdkp->sdev = sdev;
	sdkp->index = -1;
	smq_sd_revalidate(sdkp);
	smq_sd_limits(sdkp, &lim);

	disk = smq_alloc_disk(sdev->queue, &lim, &smq_sd_fops, sdkp);
	if (IS_ERR(disk)) {
		smq_dev_err(&sdev->sdev_gendev, "allocating the disk: %ld\n",
			    PTR_ERR(disk));
		kfree(sdkp);
		return;
	}
	sdkp->disk = disk;
	/* From here on the disk is freed after the queue (smq_sd_put()). */
	get_device(&sdev->sdev_gendev);
	sdev->disk = sdkp;

	index = smq_sd_pick_name(disk);
	if (index < 0) {
		smq_dev_err(&sdev->sdev_gendev, "no free disk name: %d\n", index);
		return;
	}
	sdkp->index = index;
	disk->major = smq_sd_major;
	disk->first_minor = index * SMQ_SD_MINORS;
	disk->minors = SMQ_SD_MINORS;
	set_capacity(disk, sdkp->capacity << sdkp->lbs_shift);
	set_disk_ro(disk, sdkp->write_prot);

	ret = device_add_disk(&sdev->sdev_gendev, disk, smq_sd_disk_groups);
	if (ret) {
		smq_dev_err(&sdev->sdev_gendev, "adding disk %s: %d\n",
			    disk->disk_name, ret);
		return;
	}
	sdkp->added = true;
	ret = smq_queue_register(sdev->queue, disk);
	if (ret)
		smq_dev_warn(&sdev->sdev_gendev, "%s: queue sysfs: %d\n",
			     disk->disk_name, ret);

	smq_dev_info(&sdev->sdev_gendev,
		     "[%s] %llu %u-byte logical blocks (%llu MB)%s, write cache %s, %s DPO and FUA, discard %s, write zeroes %s\n",
		     disk->disk_name, sdkp->capacity, sdkp->lbs,
		     (sdkp->capacity * sdkp->lbs) / 1000000,
		     sdkp->write_prot ? " write protected" : "",
		     sdkp->wce ? "enabled" : "disabled",
		     sdkp->dpofua ? "supports" : "doesn't support",
		     sdkp->provisioning_mode == SMQ_LBP_UNMAP ? "UNMAP" :
		     sdkp->provisioning_mode == SMQ_LBP_WS16 ? "WRITE SAME(16)" :
		     "off", sdkp->ws_zeroes ? "WRITE SAME(16)" : "off");
}

/**
 * smq_sd_remove - take a LUN's disk away (LUN state CANCEL)
 * @sdev: the LUN, its queue still alive
 *
 * Deletes the disk (new I/O fails, users are told) and flushes the
 * device's write cache.  The gendisk itself is put by smq_sd_put() once
 * the queue is destroyed.
 */
void smq_sd_remove(struct smq_scsi_device *sdev)
{
	struct smq_sd_disk *sdkp = sdev->disk;
	struct smq_exec_args a = { };
	u8 cdb[SMQ_MAX_CDB];

	if (!sdkp->added)
		return;
	smq_queue_unregister(sdev->queue);
	del_gendisk(sdkp->disk);
	if (READ_ONCE(sdkp->wce)) {
		a.cdb = cdb;
		a.cdb_len = smq_cdb_sync_cache(cdb, 0, 0, 0);
		a.dir = DMA_NONE;
		a.timeout = READ_ONCE(sdev->timeout) * SMQ_SD_FLUSH_TIMEOUT_MULT;
		a.retries = SMQ_SCAN_RETRIES;
		if (smq_scsi_execute(sdev, &a) || a.result)
			smq_dev_warn(&sdev->sdev_gendev,
				     "%s: SYNCHRONIZE CACHE failed (result 0x%x)\n",
				     sdkp->disk->disk_name, a.result);
	}
}

/**
 * smq_sd_put - drop the disk of a LUN whose queue is destroyed
 * @sdev: the LUN
 */
void smq_sd_put(struct smq_scsi_device *sdev)
{
	struct smq_sd_disk *sdkp = sdev->disk;

	if (!sdkp)
		return;
	sdev->disk = NULL;
	if (sdkp->added) {
		put_disk(sdkp->disk);	/* ->free_disk frees the rest */
		return;
	}
	put_disk(sdkp->disk);
	if (sdkp->index >= 0)
		ida_free(&smq_sd_index_ida, sdkp->index);
	put_device(&sdev->sdev_gendev);
	kfree(sdkp);
}

/**
 * smq_sd_rescan - read the capacity of a LUN's disk again
 * @sdev: the LUN, state RUNNING; scan_mutex held
 *
 * A new capacity (same logical block size) resizes the disk and tells its
 * users (a change uevent).  A READ CAPACITY that fails, or a new logical
 * block size, leaves the disk as it is (the latter needs the LUN deleted
 * and scanned again).
 */
void smq_sd_rescan(struct smq_scsi_device *sdev)
{
	struct smq_sd_disk *sdkp = sdev->disk;
	struct smq_sd_disk fresh = { .sdev = sdev };
	u8 *buf, *sense;

	lockdep_assert_held(&sdev->host->scan_mutex);
	if (!sdkp || !sdkp->added)
		return;
	buf = kzalloc(SMQ_MODE_LEN, GFP_KERNEL);
	sense = kzalloc(SMQ_SENSE_BUFFERSIZE, GFP_KERNEL);
	if (!buf || !sense)
		goto out;
	smq_sd_read_capacity(&fresh, buf, sense);
	if (!fresh.capacity) {
		smq_dev_warn(&sdev->sdev_gendev, "%s: rescan: no capacity read: size kept\n",
			     sdkp->disk->disk_name);
		goto out;
	}
	if (fresh.lbs != sdkp->lbs) {
		smq_dev_warn(&sdev->sdev_gendev,
			     "%s: rescan: logical block size %u -> %u: size kept (delete and scan the LUN)\n",
			     sdkp->disk->disk_name, sdkp->lbs, fresh.lbs);
		goto out;
	}
	if (fresh.capacity == sdkp->capacity)
		goto out;
	smq_dev_info(&sdev->sdev_gendev, "%s: rescan: %llu -> %llu logical blocks\n",
		     sdkp->disk->disk_name, sdkp->capacity, fresh.capacity);
	WRITE_ONCE(sdkp->capacity, fresh.capacity);
	WRITE_ONCE(sdkp->use_16, fresh.capacity > 0xffffffffULL);
	set_capacity_and_notify(sdkp->disk, fresh.capacity << sdkp->lbs_shift);
out:
	kfree(buf);
	kfree(sense);
}

/* ---- commands ---------------------------------------------------------- */

static blk_status_t smq_sd_setup_rw(struct smq_sd_disk *sdkp,
				    struct smq_request *rq,
				    struct smq_scsi_cmnd *cmd)
{
	sector_t sector = smq_rq_pos(rq);
	unsigned int bytes = smq_rq_bytes(rq);
	bool write = smq_rq_op(rq) == REQ_OP_WRITE;
	u64 lba = sector >> sdkp->lbs_shift;
	u32 nblocks = bytes >> (sdkp->lbs_shift + SECTOR_SHIFT);
	unsigned int flags = 0;
	int len;

	if (unlikely((sector & ((1U << sdkp->lbs_shift) - 1)) ||
		     (bytes & (sdkp->lbs - 1)) || !nblocks ||
		     lba + nblocks > sdkp->capacity))
		return BLK_STS_IOERR;
	if ((rq->cmd_flags & REQ_FUA) && sdkp->dpofua)
		flags |= SMQ_CDB_FUA;
	if (sdkp->use_16)
		flags |= SMQ_CDB_FORCE16;
	len = smq_cdb_rw(cmd->cmnd, write, lba, nblocks, flags);
	if (unlikely(len < 0))
		return BLK_STS_IOERR;
	cmd->cmd_len = len;
	cmd->sc_data_direction = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	cmd->transfer_len = bytes;
	return smq_scsi_map_data(cmd);
}

static void smq_sd_one_sg(struct smq_scsi_cmnd *cmd, struct page *page,
			  unsigned int len, unsigned int off)
{
	sg_init_table(cmd->sgl, 1);
	sg_set_page(cmd->sgl, page, len, off);
	cmd->sg_count = 1;
	cmd->transfer_len = len;
	cmd->sc_data_direction = DMA_TO_DEVICE;
}

static blk_status_t smq_sd_setup_discard(struct smq_sd_disk *sdkp,
					 struct smq_request *rq,
					 struct smq_scsi_cmnd *cmd)
{
	u64 lba = smq_rq_pos(rq) >> sdkp->lbs_shift;
	u64 nblocks = smq_rq_bytes(rq) >> (sdkp->lbs_shift + SECTOR_SHIFT);
	struct smq_unmap_desc desc = { .lba = lba, .nr_blocks = nblocks };
	int plen, len;

	if (!nblocks || nblocks > U32_MAX || lba + nblocks > sdkp->capacity)
		return BLK_STS_IOERR;
	switch (READ_ONCE(sdkp->provisioning_mode)) {
	case SMQ_LBP_UNMAP:
		plen = smq_unmap_param_build(cmd->payload, SMQ_PAYLOAD_BYTES,
					     &desc, 1);
		len = plen < 0 ? plen : smq_cdb_unmap(cmd->cmnd, plen);
		if (len < 0)
			return BLK_STS_IOERR;
		cmd->cmd_len = len;
		smq_sd_one_sg(cmd, virt_to_page(cmd->payload), plen,
			      offset_in_page(cmd->payload));
		return BLK_STS_OK;
	case SMQ_LBP_WS16:
		len = smq_cdb_write_same(cmd->cmnd, lba, nblocks, SMQ_CDB_UNMAP);
		if (len < 0)
			return BLK_STS_IOERR;
		cmd->cmd_len = len;
		smq_sd_one_sg(cmd, ZERO_PAGE(0), sdkp->lbs, 0);
		return BLK_STS_OK;
	default:
		return BLK_STS_NOTSUPP;
	}
}

static blk_status_t smq_sd_setup_write_zeroes(struct smq_sd_disk *sdkp,
					      struct smq_request *rq,
					      struct smq_scsi_cmnd *cmd)
{
	u64 lba = smq_rq_pos(rq) >> sdkp->lbs_shift;
	u64 nblocks = smq_rq_bytes(rq) >> (sdkp->lbs_shift + SECTOR_SHIFT);
	unsigned int flags = 0;
	int len;

	if (!READ_ONCE(sdkp->ws_zeroes))
		return BLK_STS_NOTSUPP;
	if (!nblocks || nblocks > U32_MAX || lba + nblocks > sdkp->capacity)
		return BLK_STS_IOERR;
	if (!(rq->cmd_flags & REQ_NOUNMAP) && sdkp->lbprz &&
	    READ_ONCE(sdkp->provisioning_mode) == SMQ_LBP_WS16)
		flags |= SMQ_CDB_UNMAP;
	len = smq_cdb_write_same(cmd->cmnd, lba, nblocks, flags);
	if (len < 0)
		return BLK_STS_IOERR;
	cmd->cmd_len = len;
	smq_sd_one_sg(cmd, ZERO_PAGE(0), sdkp->lbs, 0);
	return BLK_STS_OK;
}

/**
 * smq_sd_init_command - build the SCSI command of a file I/O request
 * @cmd: command of a non-passthrough request, once per request
 *
 * Return: BLK_STS_OK, or the status to fail the request with.
 */
blk_status_t smq_sd_init_command(struct smq_scsi_cmnd *cmd)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_sd_disk *sdkp = sdev->disk;
	unsigned int timeout = READ_ONCE(sdev->timeout);

	if (unlikely(!sdkp))
		return BLK_STS_IOERR;
	cmd->sg_count = 0;
	cmd->transfer_len = 0;
	cmd->sc_data_direction = DMA_NONE;
	rq->timeout = timeout;
	switch (smq_rq_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		return smq_sd_setup_rw(sdkp, rq, cmd);
	case REQ_OP_FLUSH:
		cmd->cmd_len = smq_cdb_sync_cache(cmd->cmnd, 0, 0, 0);
		rq->timeout = timeout * SMQ_SD_FLUSH_TIMEOUT_MULT;
		return BLK_STS_OK;
	case REQ_OP_DISCARD:
		return smq_sd_setup_discard(sdkp, rq, cmd);
	case REQ_OP_WRITE_ZEROES:
		return smq_sd_setup_write_zeroes(sdkp, rq, cmd);
	default:
		return BLK_STS_NOTSUPP;
	}
}

static void smq_sd_disable_discard(struct smq_sd_disk *sdkp)
{
	WRITE_ONCE(sdkp->provisioning_mode, SMQ_LBP_DISABLE);
	sdkp->disk->queue->limits.max_discard_sectors = 0;
	smq_dev_info(&sdkp->sdev->sdev_gendev, "%s: discard not supported: disabled\n",
		     sdkp->disk->disk_name);
}

static void smq_sd_disable_write_zeroes(struct smq_sd_disk *sdkp)
{
	WRITE_ONCE(sdkp->ws_zeroes, false);
	sdkp->disk->queue->limits.max_write_zeroes_sectors = 0;
	smq_dev_info(&sdkp->sdev->sdev_gendev, "%s: WRITE SAME not supported: write zeroes disabled\n",
		     sdkp->disk->disk_name);
}

static bool smq_sd_is_rw(u8 op)
{
	return op == SMQ_OP_READ_10 || op == SMQ_OP_READ_16 ||
	       op == SMQ_OP_WRITE_10 || op == SMQ_OP_WRITE_16;
}

/*
 * A READ/WRITE that failed on the medium (or the hardware, naming the
 * block): the blocks before the one in INFORMATION were transferred.
 * Return: whether the sense names a block of the command (*@good_bytes
 * set); a MEDIUM ERROR without one still fails only its first bio.
 */
static bool smq_sd_error_good_bytes(struct smq_sd_disk *sdkp,
				    struct smq_scsi_cmnd *cmd,
				    unsigned int *good_bytes)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	unsigned int shift = sdkp->lbs_shift + SECTOR_SHIFT;
	u64 lba = smq_rq_pos(rq) >> sdkp->lbs_shift;
	u32 good = 0;

	if (!smq_sense_good_blocks(cmd->sense_buffer,
				   min_t(unsigned int, cmd->sense_len,
					 SMQ_SENSE_BUFFERSIZE),
				   lba, cmd->transfer_len >> shift, &good))
		return false;
	*good_bytes = good << shift;
	return true;
}

/**
 * smq_sd_done - disk-specific outcome of a file I/O command
 * @cmd: the finished command
 * @status: the midlayer's verdict (BLK_STS_OK or an error)
 * @good_bytes: output: UINT_MAX when the whole request ends (or is retried)
 *	with the returned status; otherwise a partial completion: that many
 *	bytes from the start completed fine, then (for an error) the bio
 *	holding the failing block fails with the returned status, and the
 *	rest of the request is prepared again and reissued
 *
 * A READ/WRITE that transferred less than asked completes the whole
 * blocks it moved and reissues the rest (all of it, counted as a retry,
 * when not one block moved).  A READ/WRITE that failed with MEDIUM ERROR,
 * or HARDWARE ERROR naming the block in INFORMATION, completes the blocks
 * before that block, fails the bio holding it and reissues the bios after
 * it, as Linux's sd and scsi_io_completion() do.  An unsupported UNMAP /
 * WRITE SAME turns the feature off.  Any context.
 *
 * Return: the status to end the request with, or BLK_STS_AGAIN to retry
 * it (subject to its retry limit).
 */
blk_status_t smq_sd_done(struct smq_scsi_cmnd *cmd, blk_status_t status,
			 unsigned int *good_bytes)
{
	struct smq_sd_disk *sdkp = cmd->device->disk;
	u8 op = cmd->cmnd[0];

	*good_bytes = UINT_MAX;
	if (status == BLK_STS_OK) {
		if (cmd->resid && cmd->transfer_len && smq_sd_is_rw(op)) {
			unsigned int good;

			if (cmd->resid > cmd->transfer_len || !sdkp)
				return BLK_STS_IOERR;
			good = cmd->transfer_len - cmd->resid;
			good = round_down(good, sdkp->lbs);
			if (!good)
				return BLK_STS_AGAIN;
			*good_bytes = good;
		}
		return BLK_STS_OK;
	}
	if (sdkp && smq_sd_is_rw(op) && cmd->transfer_len &&
	    (status == BLK_STS_MEDIUM || status == BLK_STS_IOERR)) {
		if (!smq_sd_error_good_bytes(sdkp, cmd, good_bytes) &&
		    status == BLK_STS_MEDIUM)
			*good_bytes = 0;
		return status;
	}
	if (status == BLK_STS_NOTSUPP && sdkp) {
		if (op == SMQ_OP_UNMAP ||
		    (op == SMQ_OP_WRITE_SAME_16 &&
		     smq_rq_op(smq_scsi_cmd_to_rq(cmd)) == REQ_OP_DISCARD))
			smq_sd_disable_discard(sdkp);
		else if (op == SMQ_OP_WRITE_SAME_16)
			smq_sd_disable_write_zeroes(sdkp);
	}
	return status;
}

/**
 * smq_sd_init - register the disks' major
 *
 * Return: 0 or the negative errno of register_blkdev().
 */
int smq_sd_init(void)
{
	smq_sd_major = register_blkdev(0, "smq_sd");
	if (smq_sd_major < 0) {
		pr_err("register_blkdev: %d\n", smq_sd_major);
		return smq_sd_major;
	}
	return 0;
}

/**
 * smq_sd_exit - unregister the disks' major (all disks are gone)
 */
void smq_sd_exit(void)
{
	unregister_blkdev(smq_sd_major, "smq_sd");
	ida_destroy(&smq_sd_index_ida);
}
