// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: finding targets and LUNs, and removing them.
 *
 * For each channel and target id of a host, LUN 0 is probed with INQUIRY.
 * A target that answers is asked for REPORT LUNS (through LUN 0, even when
 * LUN 0 itself has no device); if the command is not supported, LUNs
 * 1..max_lun-1 are probed in order up to the first one that is absent, as
 * Linux does without BLIST_SPARSELUN.  Every probe command is a passthrough
 * request through the LUN's own queue: the same tags and budgets as file
 * I/O.
 *
 * Present LUNs get INQUIRY VPD pages 0x00, 0x80 and 0x83 here; disks get
 * their block limits pages from smq_sd.c.
 *
 * Locking: shost->scan_mutex serializes scans and removal and protects
 * shost->targets and target->nr_luns; shost->__devices is changed under
 * both scan_mutex and host_lock (readers take either).  Every function
 * here that touches them asserts scan_mutex (lockdep); host_lock is taken
 * inside it, never the other way round.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include "smq_scsi_priv.h"
#include <smq/cdb.h>

#define SMQ_INQ_LEN		96
#define SMQ_VPD_LEN		255
#define SMQ_VPD_MAX_LEN		4096
#define SMQ_REPORT_LUNS_MIN	(8 + 511 * 8)
#define SMQ_REPORT_LUNS_MAX	(8 + 16383 * 8)

enum smq_probe {
	SMQ_PROBE_PRESENT,	/* LUN with a device */
	SMQ_PROBE_ABSENT,	/* target answered, no device at this LUN */
	SMQ_PROBE_NO_TARGET,	/* nothing answered */
};

/* ---- targets ----------------------------------------------------------- */

/* A target holds its host: a LUN's device may outlive the host's removal. */
static void smq_target_release(struct device *dev)
{
	struct smq_scsi_target *t = smq_dev_to_target(dev);

	put_device(&t->host->shost_gendev);
	kfree(t);
}

const struct device_type smq_target_type = {
	.name = "smq_target",
	.release = smq_target_release,
};

/* The known target @channel:@id of @shost, or NULL; scan_mutex held. */
static struct smq_scsi_target *smq_target_find(struct smq_scsi_host *shost,
					       unsigned int channel,
					       unsigned int id)
{
	struct smq_scsi_target *t;

	lockdep_assert_held(&shost->scan_mutex);
	list_for_each_entry(t, &shost->targets, entry)
		if (t->channel == channel && t->id == id)
			return t;
	return NULL;
}

/* Find or add the target @channel:@id of @shost; scan_mutex held. */
static struct smq_scsi_target *smq_target_get(struct smq_scsi_host *shost,
					      unsigned int channel,
					      unsigned int id)
{
	struct smq_scsi_target *t;

	lockdep_assert_held(&shost->scan_mutex);
	t = smq_target_find(shost, channel, id);
	if (t)
		return t;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->host = shost;
	t->channel = channel;
	t->id = id;
	get_device(&shost->shost_gendev);	/* put by smq_target_release() */
	device_initialize(&t->dev);
	t->dev.parent = &shost->shost_gendev;
	t->dev.type = &smq_target_type;
	if (dev_set_name(&t->dev, "target%u:%u:%u", shost->host_no, channel,
			 id)) {
		put_device(&t->dev);
		return NULL;
	}
	list_add_tail(&t->entry, &shost->targets);
	return t;
}

/* Forget a target once no LUN is left under it (scan_mutex held). */
static void smq_target_reap(struct smq_scsi_target *t)
{
	lockdep_assert_held(&t->host->scan_mutex);
	if (t->nr_luns)
		return;
	list_del(&t->entry);
	if (t->added)
		device_del(&t->dev);
	put_device(&t->dev);
}

/* ---- LUN objects ------------------------------------------------------- */

/*
 * The last reference to a LUN is gone: often an open disk closed after its
 * host was removed.  The LUN holds its target, which holds the host, so
 * sdev->host stays valid for as long as anyone can reach the LUN.
 */
static void smq_sdev_release(struct device *dev)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);

	put_device(&sdev->sdev_target->dev);
	kfree(sdev->inquiry);
	kfree(sdev->vpd_pg80);
	kfree(sdev->vpd_pg83);
	free_percpu(sdev->io_counts);
	kfree(sdev);
}

const struct device_type smq_sdev_type = {
	.name = "smq_scsi_device",
	.groups = smq_sdev_groups,
	.release = smq_sdev_release,
};

/* The LUN @channel:@id:@lun of @shost, or NULL; scan_mutex held. */
static struct smq_scsi_device *smq_sdev_find(struct smq_scsi_host *shost,
					     unsigned int channel,
					     unsigned int id, u64 lun)
{
	struct smq_scsi_device *sdev;

	lockdep_assert_held(&shost->scan_mutex);
	list_for_each_entry(sdev, &shost->__devices, siblings)
		if (sdev->channel == channel && sdev->id == id &&
		    sdev->lun == lun)
			return sdev;
	return NULL;
}

/*
 * A new LUN with its queue, on the host's device list (changed under both
 * scan_mutex, held, and host_lock); not visible yet.
 */
static struct smq_scsi_device *smq_sdev_alloc(struct smq_scsi_target *t,
					      u64 lun)
{
	struct smq_scsi_host *shost = t->host;
	struct smq_scsi_device *sdev;
	struct smq_queue *q;
	int ret;

	lockdep_assert_held(&shost->scan_mutex);
	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return ERR_PTR(-ENOMEM);
	sdev->io_counts = alloc_percpu(struct smq_sdev_io_counts);
	if (!sdev->io_counts) {
		kfree(sdev);
		return ERR_PTR(-ENOMEM);
	}
	sdev->host = shost;
	sdev->channel = t->channel;
	sdev->id = t->id;
	sdev->lun = lun;
	sdev->sdev_target = t;
	get_device(&t->dev);	/* put by smq_sdev_release() */
	INIT_LIST_HEAD(&sdev->siblings);
	INIT_LIST_HEAD(&sdev->starved_entry);
	atomic_set(&sdev->device_busy, 0);
	sdev->queue_depth = shost->cmd_per_lun;
	sdev->max_queue_depth = shost->cmd_per_lun;
	sdev->queue_ramp_up_period = msecs_to_jiffies(SMQ_DEFAULT_RAMP_UP_MS);
	sdev->last_queue_full_time = jiffies;
	sdev->last_queue_ramp_up = jiffies;
	sdev->eh_timeout = SMQ_DEFAULT_EH_TIMEOUT;
	atomic_set(&sdev->eh_blocked, 0);
	sdev->sdev_state = SMQ_SDEV_CREATED;
	sdev->timeout = smq_param_cmd_timeout() * HZ;
	sdev->sg_timeout = SMQ_SG_DEFAULT_TIMEOUT;
	init_rwsem(&sdev->queue_rwsem);
	device_initialize(&sdev->sdev_gendev);
	sdev->sdev_gendev.parent = &t->dev;
	sdev->sdev_gendev.type = &smq_sdev_type;
	sdev->sdev_gendev.groups = shost->hostt->sdev_groups;
	ret = dev_set_name(&sdev->sdev_gendev, "%u:%u:%u:%llu", shost->host_no,
			   t->channel, t->id, lun);
	if (ret)
		goto put;

	q = smq_queue_create(&shost->tag_set, sdev);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		pr_err("%s: request queue: %d\n", dev_name(&sdev->sdev_gendev),
		       ret);
		goto put;
	}
	sdev->queue = q;
	if (shost->hostt->slave_alloc) {
		ret = shost->hostt->slave_alloc(sdev);
		if (ret) {
			smq_queue_destroy(q);
			sdev->queue = NULL;
			goto put;
		}
	}
	spin_lock_irq(&shost->host_lock);
	list_add_tail(&sdev->siblings, &shost->__devices);
	spin_unlock_irq(&shost->host_lock);
	return sdev;

put:
	put_device(&sdev->sdev_gendev);
	return ERR_PTR(ret);
}

/*
 * Remove a LUN: its disk first (users drained, cache flushed while the LUN
 * still takes commands), then its sysfs device, then its queue (in-flight
 * commands finish; new ones fail).  scan_mutex held; the caller reaps the
 * target.
 */
static void smq_sdev_destroy(struct smq_scsi_device *sdev)
{
	struct smq_scsi_host *shost = sdev->host;
	struct smq_scsi_target *t = sdev->sdev_target;
	struct smq_queue *q;

	lockdep_assert_held(&shost->scan_mutex);
	if (sdev->is_visible) {
		smq_scsi_device_set_state(sdev, SMQ_SDEV_CANCEL);
		if (sdev->disk)
			smq_sd_remove(sdev);
		smq_ng_remove(sdev);
		device_del(&sdev->sdev_gendev);
		t->nr_luns--;
	}
	smq_scsi_device_set_state(sdev, SMQ_SDEV_DEL);

	spin_lock_irq(&shost->host_lock);
	list_del_init(&sdev->siblings);
	list_del_init(&sdev->starved_entry);
	spin_unlock_irq(&shost->host_lock);

	down_write(&sdev->queue_rwsem);
	q = sdev->queue;
	smq_queue_destroy(q);
	sdev->queue = NULL;
	up_write(&sdev->queue_rwsem);
	/* The disk outlives the queue: accounting of ending I/O uses it. */
	smq_sd_put(sdev);

	if (shost->hostt->slave_destroy)
		shost->hostt->slave_destroy(sdev);
	put_device(&sdev->sdev_gendev);
}

/* ---- probing ----------------------------------------------------------- */

/**
 * smq_scsi_get_vpd - read one INQUIRY VPD page
 * @sdev: the LUN
 * @page: page code
 * @len: out: the page's length in bytes (header included)
 *
 * Return: the page (kfree() it), or NULL when the LUN does not return it.
 */
u8 *smq_scsi_get_vpd(struct smq_scsi_device *sdev, u8 page, unsigned int *len)
{
	unsigned int alloc = SMQ_VPD_LEN, got, want;
	u8 cdb[SMQ_MAX_CDB];
	struct smq_exec_args a = {
		.cdb = cdb,
		.dir = DMA_FROM_DEVICE,
		.timeout = SMQ_SCAN_TIMEOUT,
		.retries = SMQ_SCAN_RETRIES,
	};
	int n, cdb_len;
	u8 *buf;

	for (;;) {
		cdb_len = smq_cdb_inquiry(cdb, true, page, alloc);
		if (cdb_len < 0)
			return NULL;
		buf = kzalloc(alloc, GFP_KERNEL);
		if (!buf)
			return NULL;
		a.cdb_len = cdb_len;
		a.buf = buf;
		a.buf_len = alloc;
		if (smq_scsi_execute(sdev, &a) || a.result)
			goto fail;
		got = a.buf_len - a.resid;
		n = smq_vpd_page_len(buf, got, page);
		if (n < 0)
			goto fail;
		/* The page says how long it is; ask again if it did not fit. */
		want = 4 + get_unaligned_be16(&buf[2]);
		if (want <= alloc || alloc >= SMQ_VPD_MAX_LEN)
			break;
		kfree(buf);
		alloc = min_t(unsigned int, want, SMQ_VPD_MAX_LEN);
	}
	*len = 4 + n;
	return buf;

fail:
	kfree(buf);
	return NULL;
}

static void smq_copy_inq_string(char *dst, const u8 *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : ' ';
	dst[n] = '\0';
}

static void smq_scan_vpd(struct smq_scsi_device *sdev)
{
	static const struct {
		u8 page;
		unsigned int flag;
	} pages[] = {
		{ SMQ_VPD_UNIT_SERIAL, SMQ_VPD_HAS_80 },
		{ SMQ_VPD_DEVICE_ID, SMQ_VPD_HAS_83 },
		{ SMQ_VPD_BLOCK_LIMITS, SMQ_VPD_HAS_B0 },
		{ SMQ_VPD_BLOCK_DEV_CHARS, SMQ_VPD_HAS_B1 },
		{ SMQ_VPD_LB_PROVISIONING, SMQ_VPD_HAS_B2 },
	};
	unsigned int len, i;
	u8 *pg0;

	pg0 = smq_scsi_get_vpd(sdev, SMQ_VPD_SUPPORTED_PAGES, &len);
	if (!pg0)
		return;
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		if (smq_vpd_has_page(pg0, len, pages[i].page))
			sdev->vpd_pages |= pages[i].flag;
	kfree(pg0);
	if (sdev->vpd_pages & SMQ_VPD_HAS_80)
		sdev->vpd_pg80 = smq_scsi_get_vpd(sdev, SMQ_VPD_UNIT_SERIAL,
						  &sdev->vpd_pg80_len);
	if (sdev->vpd_pages & SMQ_VPD_HAS_83)
		sdev->vpd_pg83 = smq_scsi_get_vpd(sdev, SMQ_VPD_DEVICE_ID,
						  &sdev->vpd_pg83_len);
}

/* Standard INQUIRY: is there a device at this LUN, and what is it. */
static enum smq_probe smq_probe_lun(struct smq_scsi_device *sdev)
{
	u8 cdb[SMQ_MAX_CDB];
	struct smq_exec_args a = {
		.cdb = cdb,
		.dir = DMA_FROM_DEVICE,
		.buf_len = SMQ_INQ_LEN,
		.timeout = SMQ_SCAN_TIMEOUT,
		.retries = SMQ_SCAN_RETRIES,
	};
	enum smq_probe ret = SMQ_PROBE_ABSENT;
	struct smq_inquiry inq;
	int cdb_len;
	u8 *buf;

	cdb_len = smq_cdb_inquiry(cdb, false, 0, SMQ_INQ_LEN);
	buf = kzalloc(SMQ_INQ_LEN, GFP_KERNEL);
	if (!buf || cdb_len < 0) {
		kfree(buf);
		return SMQ_PROBE_NO_TARGET;
	}
	a.buf = buf;
	a.cdb_len = cdb_len;
	if (smq_scsi_execute(sdev, &a) || smq_host_byte(a.result) != SMQ_DID_OK) {
		ret = SMQ_PROBE_NO_TARGET;
		goto out;
	}
	if (smq_status_byte(a.result) != SMQ_SAM_GOOD ||
	    smq_parse_inquiry(buf, a.buf_len - a.resid, &inq))
		goto out;
	if (inq.len < 36) {
		smq_dev_info(&sdev->sdev_gendev, "INQUIRY data too short (%u bytes)\n",
			     inq.len);
		goto out;
	}
	/* Peripheral qualifier 0: a device is connected at this LUN. */
	if (inq.qualifier)
		goto out;

	sdev->type = inq.device_type;
	/* Blank padded, as Linux shows them in sysfs. */
	smq_copy_inq_string(sdev->vendor, &buf[8], 8);
	smq_copy_inq_string(sdev->model, &buf[16], 16);
	smq_copy_inq_string(sdev->rev, &buf[32], 4);
	/* As Linux counts: VERSION + 1 for SCSI-2 and later (SPC-4: 7). */
	sdev->scsi_level = inq.version & 0x0f;
	if (sdev->scsi_level >= 2 ||
	    (sdev->scsi_level == 1 && inq.response_format == 1))
		sdev->scsi_level++;
	kfree(sdev->inquiry);
	sdev->inquiry = kmemdup(buf, inq.len, GFP_KERNEL);
	sdev->inquiry_len = sdev->inquiry ? inq.len : 0;
	ret = SMQ_PROBE_PRESENT;
out:
	kfree(buf);
	return ret;
}

/* Make a probed LUN visible: sysfs, then its disk; scan_mutex held. */
static void smq_sdev_add(struct smq_scsi_device *sdev)
{
	struct smq_scsi_target *t = sdev->sdev_target;
	struct smq_scsi_host *shost = sdev->host;
	int ret;

	lockdep_assert_held(&shost->scan_mutex);
	smq_scan_vpd(sdev);
	if (shost->hostt->slave_configure) {
		ret = shost->hostt->slave_configure(sdev);
		if (ret) {
			smq_dev_err(&sdev->sdev_gendev, "slave_configure: %d\n", ret);
			smq_sdev_destroy(sdev);
			return;
		}
	}
	if (!t->added) {
		ret = device_add(&t->dev);
		if (ret) {
			smq_dev_err(&t->dev, "adding the target: %d\n", ret);
			smq_sdev_destroy(sdev);
			return;
		}
		t->added = true;
	}
	smq_scsi_device_set_state(sdev, SMQ_SDEV_RUNNING);
	ret = device_add(&sdev->sdev_gendev);
	if (ret) {
		smq_dev_err(&sdev->sdev_gendev, "adding the LUN: %d\n", ret);
		smq_sdev_destroy(sdev);
		return;
	}
	sdev->is_visible = true;
	t->nr_luns++;
	smq_dev_info(&sdev->sdev_gendev, "%s %.8s %.16s %.4s PQ: 0 ANSI: %u\n",
		     sdev->type == 0 ? "Direct-Access    " : "Other            ",
		     sdev->vendor, sdev->model, sdev->rev,
		     sdev->scsi_level - (sdev->scsi_level > 1));
	smq_ng_add(sdev);
	if (sdev->type == 0x00 || sdev->type == 0x0e)
		smq_sd_probe(sdev);
}

/*
 * Probe one LUN; add it if present, drop it otherwise (scan_mutex held:
 * the LUN functions it calls assert it).
 * Returns the probe result; *keep gets the LUN when it stays allocated.
 */
static enum smq_probe smq_scan_lun(struct smq_scsi_target *t, u64 lun,
				   struct smq_scsi_device **keep)
{
	struct smq_scsi_device *sdev;
	enum smq_probe res;

	if (keep)
		*keep = NULL;
	sdev = smq_sdev_find(t->host, t->channel, t->id, lun);
	if (sdev) {
		if (keep)
			*keep = sdev;
		return SMQ_PROBE_PRESENT;	/* already known */
	}
	sdev = smq_sdev_alloc(t, lun);
	if (IS_ERR(sdev))
		return SMQ_PROBE_NO_TARGET;
	res = smq_probe_lun(sdev);
	if (res == SMQ_PROBE_PRESENT) {
		smq_sdev_add(sdev);
		/* smq_sdev_add() may have dropped it on an error. */
		sdev = smq_sdev_find(t->host, t->channel, t->id, lun);
	} else if (!keep || res == SMQ_PROBE_NO_TARGET) {
		smq_sdev_destroy(sdev);
		sdev = NULL;
	}
	if (keep)
		*keep = sdev;
	return res;
}

/* REPORT LUNS through @sdev.  Returns the LUN count, or < 0 if unsupported. */
static int smq_report_luns(struct smq_scsi_device *sdev, u64 **out)
{
	unsigned int alloc = SMQ_REPORT_LUNS_MIN, total, got;
	u8 cdb[SMQ_MAX_CDB];
	struct smq_exec_args a = {
		.cdb = cdb,
		.dir = DMA_FROM_DEVICE,
		.timeout = SMQ_SCAN_TIMEOUT,
		.retries = SMQ_SCAN_RETRIES,
	};
	int cdb_len, n;
	u64 *luns;
	u8 *buf;

	for (;;) {
		cdb_len = smq_cdb_report_luns(cdb, 0, alloc);
		if (cdb_len < 0)
			return -EINVAL;
		buf = kvzalloc(alloc, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		a.cdb_len = cdb_len;
		a.buf = buf;
		a.buf_len = alloc;
		if (smq_scsi_execute(sdev, &a) || a.result ||
		    a.buf_len - a.resid < 8) {
			kvfree(buf);
			return -EOPNOTSUPP;
		}
		got = a.buf_len - a.resid;
		if (smq_parse_report_luns(buf, got, NULL, 0, &total) < 0) {
			kvfree(buf);
			return -EOPNOTSUPP;
		}
		if (8 + (u64)total * 8 <= alloc || alloc >= SMQ_REPORT_LUNS_MAX)
			break;
		kvfree(buf);
		alloc = min_t(u64, 8 + (u64)total * 8, SMQ_REPORT_LUNS_MAX);
	}
	total = min(total, (got - 8) / 8);
	luns = kcalloc(max(total, 1U), sizeof(*luns), GFP_KERNEL);
	if (!luns) {
		kvfree(buf);
		return -ENOMEM;
	}
	n = smq_parse_report_luns(buf, got, luns, total, NULL);
	kvfree(buf);
	if (n < 0) {
		kfree(luns);
		return -EOPNOTSUPP;
	}
	*out = luns;
	return n;
}

/* Probe (or rescan) target @channel:@id of @shost; scan_mutex held. */
static void smq_scan_target(struct smq_scsi_host *shost, unsigned int channel,
			    unsigned int id)
{
	struct smq_scsi_device *sdev0;
	struct smq_scsi_target *t;
	enum smq_probe res;
	u64 *luns = NULL;
	int n, i;
	u64 lun;

	lockdep_assert_held(&shost->scan_mutex);
	t = smq_target_get(shost, channel, id);
	if (!t)
		return;
	res = smq_scan_lun(t, 0, &sdev0);
	if (res == SMQ_PROBE_NO_TARGET || !sdev0)
		goto reap;

	n = smq_report_luns(sdev0, &luns);
	if (n >= 0) {
		for (i = 0; i < n; i++) {
			if (luns[i] == 0)
				continue;
			if (luns[i] >= shost->max_lun) {
				smq_dev_info(&t->dev, "LUN %llu beyond max_lun %llu: skipped\n",
					     luns[i], shost->max_lun);
				continue;
			}
			smq_scan_lun(t, luns[i], NULL);
		}
		kfree(luns);
	} else {
		/* Sequential scan: stop at the first absent LUN. */
		u64 max = min_t(u64, shost->max_lun, SMQ_SEQ_SCAN_MAX_LUNS);

		for (lun = 1; lun < max; lun++)
			if (smq_scan_lun(t, lun, NULL) != SMQ_PROBE_PRESENT)
				break;
	}
	/* LUN 0 without a device only served REPORT LUNS. */
	if (!sdev0->is_visible)
		smq_sdev_destroy(sdev0);
reap:
	smq_target_reap(t);
}

/* Probe the single LUN @channel:@id:@lun of @shost; scan_mutex held. */
static void smq_scan_one_lun(struct smq_scsi_host *shost, unsigned int channel,
			     unsigned int id, u64 lun)
{
	struct smq_scsi_target *t;

	lockdep_assert_held(&shost->scan_mutex);
	t = smq_target_get(shost, channel, id);
	if (!t)
		return;
	smq_scan_lun(t, lun, NULL);
	smq_target_reap(t);
}

/**
 * smq_scsi_scan_host_selected - scan some channels, targets or LUNs of a host
 * @shost: a running host
 * @channel: channel number, or SMQ_SCAN_WILD_CARD for 0..max_channel
 * @id: target id, or SMQ_SCAN_WILD_CARD for 0..max_id-1 (this_id is never
 *	scanned)
 * @lun: LUN, or SMQ_SCAN_WILD_CARD for every LUN of each target (REPORT
 *	LUNS or the sequential scan); a given LUN is probed alone
 *
 * Synchronous, under scan_mutex: new LUNs and their disks are there when it
 * returns; LUNs already known are kept as they are.  Host removal sets the
 * host's state under scan_mutex, so a scan either finishes before removal
 * starts forgetting the LUNs or does nothing.
 *
 * Return: 0; -EINVAL when a number is out of the host's range; -ENODEV when
 * the host is not running (being added, in recovery, being removed).
 */
int smq_scsi_scan_host_selected(struct smq_scsi_host *shost, u64 channel,
				u64 id, u64 lun)
{
	unsigned int c, c_last, i, i_first, i_last;
	int ret = 0;

	if ((channel != SMQ_SCAN_WILD_CARD && channel > shost->max_channel) ||
	    (id != SMQ_SCAN_WILD_CARD && id >= shost->max_id) ||
	    (lun != SMQ_SCAN_WILD_CARD && lun >= shost->max_lun))
		return -EINVAL;
	if (!shost->max_id)
		return 0;
	c = channel == SMQ_SCAN_WILD_CARD ? 0 : channel;
	c_last = channel == SMQ_SCAN_WILD_CARD ? shost->max_channel : channel;
	i_first = id == SMQ_SCAN_WILD_CARD ? 0 : id;
	i_last = id == SMQ_SCAN_WILD_CARD ? shost->max_id - 1 : id;

	mutex_lock(&shost->scan_mutex);
	if (READ_ONCE(shost->shost_state) != SMQ_HOST_RUNNING) {
		ret = -ENODEV;
		goto out;
	}
	for (; c <= c_last; c++) {
		for (i = i_first; i <= i_last; i++) {
			if ((int)i == shost->this_id)
				continue;
			if (lun == SMQ_SCAN_WILD_CARD)
				smq_scan_target(shost, c, i);
			else
				smq_scan_one_lun(shost, c, i, lun);
		}
	}
out:
	mutex_unlock(&shost->scan_mutex);
	return ret;
}

/**
 * smq_scsi_scan_host - find the targets and LUNs of a host
 * @shost: host added with smq_scsi_add_host()
 *
 * Scans channels 0..max_channel, target ids 0..max_id-1 (but this_id) and
 * LUNs as described at the top of this file, synchronously; disks appear
 * before it returns.  Already known LUNs are kept, so it also rescans.
 */
void smq_scsi_scan_host(struct smq_scsi_host *shost)
{
	smq_scsi_scan_host_selected(shost, SMQ_SCAN_WILD_CARD,
				    SMQ_SCAN_WILD_CARD, SMQ_SCAN_WILD_CARD);
}
EXPORT_SYMBOL_GPL(smq_scsi_scan_host);

/**
 * smq_scsi_remove_device - remove one LUN at run time (sysfs "delete")
 * @sdev: the LUN; the caller holds a reference to its device
 *
 * Takes scan_mutex and removes the LUN as host removal does: its disk
 * (users are told, the write cache is flushed), its sysfs device, then its
 * queue (commands in flight finish, later ones fail); the target goes with
 * its last LUN.  A disk still open keeps its memory until the last close;
 * its I/O fails.  A LUN already being removed (state CANCEL or DEL, e.g. by
 * its host's removal or another delete) is left alone.
 */
void smq_scsi_remove_device(struct smq_scsi_device *sdev)
{
	struct smq_scsi_host *shost = sdev->host;
	struct smq_scsi_target *t = sdev->sdev_target;

	mutex_lock(&shost->scan_mutex);
	switch (READ_ONCE(sdev->sdev_state)) {
	case SMQ_SDEV_CANCEL:
	case SMQ_SDEV_DEL:
		break;
	default:
		smq_dev_info(&sdev->sdev_gendev, "deleting the LUN\n");
		smq_sdev_destroy(sdev);
		/* @sdev's reference keeps @t's memory; it may leave the list. */
		smq_target_reap(t);
		break;
	}
	mutex_unlock(&shost->scan_mutex);
}

/**
 * smq_scsi_rescan_device - read a LUN's capacity again (sysfs "rescan")
 * @sdev: the LUN; the caller holds a reference to its device
 *
 * Under scan_mutex, for a running LUN with a disk only: the disk's size
 * follows a changed capacity (smq_sd_rescan()).
 */
void smq_scsi_rescan_device(struct smq_scsi_device *sdev)
{
	struct smq_scsi_host *shost = sdev->host;

	mutex_lock(&shost->scan_mutex);
	if (READ_ONCE(sdev->sdev_state) == SMQ_SDEV_RUNNING && sdev->disk)
		smq_sd_rescan(sdev);
	mutex_unlock(&shost->scan_mutex);
}

/*
 * Call @fn (which takes scan_mutex itself) on the LUN @channel:@id:@lun of
 * @shost, holding a reference on it; -ENODEV when there is none.
 */
static int smq_sdev_apply(struct smq_scsi_host *shost, unsigned int channel,
			  unsigned int id, u64 lun,
			  void (*fn)(struct smq_scsi_device *sdev))
{
	struct smq_scsi_device *sdev;

	mutex_lock(&shost->scan_mutex);
	sdev = smq_sdev_find(shost, channel, id, lun);
	if (sdev)
		get_device(&sdev->sdev_gendev);
	mutex_unlock(&shost->scan_mutex);
	if (!sdev)
		return -ENODEV;
	fn(sdev);
	put_device(&sdev->sdev_gendev);
	return 0;
}

/**
 * smq_scsi_add_lun - probe one LUN the transport reported added (hot plug)
 * @shost: a running host
 * @channel: its channel
 * @id: its target id
 * @lun: the LUN
 *
 * As sysfs "scan" with one LUN: synchronous, a LUN already known is kept.
 * Process context; takes scan_mutex.
 *
 * Return: 0, -EINVAL (out of the host's range) or -ENODEV (host not
 * running).
 */
int smq_scsi_add_lun(struct smq_scsi_host *shost, unsigned int channel,
		     unsigned int id, u64 lun)
{
	return smq_scsi_scan_host_selected(shost, channel, id, lun);
}
EXPORT_SYMBOL_GPL(smq_scsi_add_lun);

/**
 * smq_scsi_remove_lun - remove one LUN the transport reported gone
 * @shost: the host
 * @channel: its channel
 * @id: its target id
 * @lun: the LUN
 *
 * As sysfs "delete" (smq_scsi_remove_device()).  Process context.
 *
 * Return: 0, or -ENODEV when the host has no such LUN.
 */
int smq_scsi_remove_lun(struct smq_scsi_host *shost, unsigned int channel,
			unsigned int id, u64 lun)
{
	return smq_sdev_apply(shost, channel, id, lun, smq_scsi_remove_device);
}
EXPORT_SYMBOL_GPL(smq_scsi_remove_lun);

/**
 * smq_scsi_rescan_lun - read one LUN's capacity again (capacity changed)
 * @shost: the host
 * @channel: its channel
 * @id: its target id
 * @lun: the LUN
 *
 * As sysfs "rescan" (smq_scsi_rescan_device()).  Process context.
 *
 * Return: 0, or -ENODEV when the host has no such LUN.
 */
int smq_scsi_rescan_lun(struct smq_scsi_host *shost, unsigned int channel,
			unsigned int id, u64 lun)
{
	return smq_sdev_apply(shost, channel, id, lun, smq_scsi_rescan_device);
}
EXPORT_SYMBOL_GPL(smq_scsi_rescan_lun);

/**
 * smq_scsi_forget_host - remove every LUN and target of a host
 * @shost: host being removed (state CANCEL)
 */
void smq_scsi_forget_host(struct smq_scsi_host *shost)
{
	struct smq_scsi_target *t, *next;

	mutex_lock(&shost->scan_mutex);
	while (!list_empty(&shost->__devices))
		smq_sdev_destroy(list_last_entry(&shost->__devices,
						 struct smq_scsi_device,
						 siblings));
	list_for_each_entry_safe(t, next, &shost->targets, entry)
		smq_target_reap(t);
	mutex_unlock(&shost->scan_mutex);
}
