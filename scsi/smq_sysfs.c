// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: sysfs attributes of LUNs (the disk's device/ directory) and of
 * hosts (/sys/class/smq_host/hostN/).  Documentation/scsi.md lists them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "smq_scsi_priv.h"

/* ---- LUN --------------------------------------------------------------- */

static ssize_t queue_depth_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(smq_dev_to_sdev(dev)->queue_depth));
}

static ssize_t queue_depth_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	int depth, ret;

	ret = kstrtoint(buf, 0, &depth);
	if (ret)
		return -EINVAL;
	ret = smq_scsi_change_queue_depth(sdev, depth);
	return ret < 0 ? ret : count;
}
static DEVICE_ATTR_RW(queue_depth);

static ssize_t vendor_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%.8s\n", smq_dev_to_sdev(dev)->vendor);
}
static DEVICE_ATTR_RO(vendor);

static ssize_t model_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%.16s\n", smq_dev_to_sdev(dev)->model);
}
static DEVICE_ATTR_RO(model);

static ssize_t rev_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%.4s\n", smq_dev_to_sdev(dev)->rev);
}
static DEVICE_ATTR_RO(rev);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	enum smq_sdev_state state = READ_ONCE(sdev->sdev_state);

	/*
	 * A running LUN under recovery (its own or its target's) or whose
	 * host's transport is down waits.
	 */
	if (state == SMQ_SDEV_RUNNING &&
	    (atomic_read(&sdev->eh_blocked) ||
	     atomic_read(&sdev->host->transport_blocked)))
		state = SMQ_SDEV_BLOCK;
	return sysfs_emit(buf, "%s\n", smq_sdev_state_name(state));
}

static ssize_t state_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	enum smq_sdev_state state;

	if (sysfs_streq(buf, "running"))
		state = SMQ_SDEV_RUNNING;
	else if (sysfs_streq(buf, "offline"))
		state = SMQ_SDEV_OFFLINE;
	else
		return -EINVAL;
	switch (READ_ONCE(sdev->sdev_state)) {
	case SMQ_SDEV_RUNNING:
	case SMQ_SDEV_OFFLINE:
	case SMQ_SDEV_BLOCK:
		break;
	default:
		return -EINVAL;
	}
	if (smq_scsi_device_set_state(sdev, state))
		return -EINVAL;
	if (state == SMQ_SDEV_RUNNING && sdev->queue)
		smq_run_hw_queues(sdev->queue, true);
	return count;
}
static DEVICE_ATTR_RW(state);

static ssize_t timeout_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(sdev->timeout) / HZ);
}

/* A store of seconds (1..SMQ_MAX_TIMEOUT_SECS) into @field, in jiffies. */
static ssize_t smq_sdev_store_secs(struct device *dev, const char *name,
				   const char *buf, size_t count,
				   unsigned int *field)
{
	unsigned int secs;

	if (kstrtouint(buf, 0, &secs) || secs < 1 ||
	    secs > SMQ_MAX_TIMEOUT_SECS) {
		smq_dev_err(dev, "%s: invalid value '%.*s' (1..%d)\n", name,
			    (int)min_t(size_t, strcspn(buf, "\n"), 32), buf,
			    SMQ_MAX_TIMEOUT_SECS);
		return -EINVAL;
	}
	WRITE_ONCE(*field, secs * HZ);
	return count;
}

static ssize_t timeout_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	return smq_sdev_store_secs(dev, "timeout", buf, count,
				   &smq_dev_to_sdev(dev)->timeout);
}
static DEVICE_ATTR_RW(timeout);

static ssize_t eh_timeout_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(sdev->eh_timeout) / HZ);
}

static ssize_t eh_timeout_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	return smq_sdev_store_secs(dev, "eh_timeout", buf, count,
				   &smq_dev_to_sdev(dev)->eh_timeout);
}
static DEVICE_ATTR_RW(eh_timeout);

static ssize_t queue_ramp_up_period_show(struct device *dev,
					 struct device_attribute *attr,
					 char *buf)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);

	return sysfs_emit(buf, "%u\n",
			  jiffies_to_msecs(READ_ONCE(sdev->queue_ramp_up_period)));
}

static ssize_t queue_ramp_up_period_store(struct device *dev,
					  struct device_attribute *attr,
					  const char *buf, size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	unsigned int ms;

	if (kstrtouint(buf, 0, &ms) || ms < 1 ||
	    ms > SMQ_MAX_TIMEOUT_SECS * MSEC_PER_SEC)
		return -EINVAL;
	WRITE_ONCE(sdev->queue_ramp_up_period, msecs_to_jiffies(ms));
	return count;
}
static DEVICE_ATTR_RW(queue_ramp_up_period);

/* A command count of a LUN: the sum of its CPUs' counts. */
static ssize_t smq_sdev_counter_show(struct device *dev, char *buf,
				     enum smq_sdev_io_count which)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	unsigned int sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(sdev->io_counts, cpu)->count[which]);
	return sysfs_emit(buf, "0x%x\n", sum);
}

static ssize_t iorequest_cnt_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(dev, buf, SMQ_SDEV_IOREQUEST);
}
static DEVICE_ATTR_RO(iorequest_cnt);

static ssize_t iodone_cnt_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(dev, buf, SMQ_SDEV_IODONE);
}
static DEVICE_ATTR_RO(iodone_cnt);

static ssize_t ioerr_cnt_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(dev, buf, SMQ_SDEV_IOERR);
}
static DEVICE_ATTR_RO(ioerr_cnt);

static ssize_t device_busy_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&smq_dev_to_sdev(dev)->device_busy));
}
static DEVICE_ATTR_RO(device_busy);

static ssize_t scsi_level_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", smq_dev_to_sdev(dev)->scsi_level);
}
static DEVICE_ATTR_RO(scsi_level);

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", smq_dev_to_sdev(dev)->type);
}
static DEVICE_ATTR_RO(type);

/*
 * Run @fn on the LUN of @dev from a store of its own attribute @attr, as
 * Linux's sdev_store_delete() does.  @fn takes scan_mutex, under which LUN
 * removal (host removal, another "delete") deletes the LUN's sysfs device
 * and so waits for this store to return: the store first steps out of its
 * kernfs active reference (sysfs_break_active_protection()), holding the
 * LUN's device (its memory) and the driver module (the host's template,
 * and smq_scsi through it) instead.  With @remove_attr the attribute is
 * removed first, so that no later write starts.
 */
static ssize_t smq_sdev_store_unprotected(struct device *dev,
					  struct device_attribute *attr,
					  size_t count, bool remove_attr,
					  void (*fn)(struct smq_scsi_device *))
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	struct kernfs_node *kn;
	struct module *owner;

	switch (READ_ONCE(sdev->sdev_state)) {
	case SMQ_SDEV_CANCEL:
	case SMQ_SDEV_DEL:
		return -ENODEV;
	default:
		break;
	}
	/* The host is alive while this store holds its active reference. */
	owner = sdev->host->hostt->module;
	if (!try_module_get(owner))
		return -ENODEV;
	get_device(dev);
	kn = sysfs_break_active_protection(&dev->kobj, &attr->attr);
	if (remove_attr)
		device_remove_file(dev, attr);
	fn(sdev);
	if (kn)
		sysfs_unbreak_active_protection(kn);
	put_device(dev);
	module_put(owner);
	return count;
}

/* Any write deletes the LUN, as Linux's "delete" does. */
static ssize_t delete_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	return smq_sdev_store_unprotected(dev, attr, count, true,
					  smq_scsi_remove_device);
}
static DEVICE_ATTR_WO(delete);

/* Any write reads the capacity again, as Linux's "rescan" does. */
static ssize_t rescan_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	return smq_sdev_store_unprotected(dev, attr, count, false,
					  smq_scsi_rescan_device);
}
static DEVICE_ATTR_WO(rescan);

static struct attribute *smq_sdev_attrs[] = {
	&dev_attr_delete.attr,
	&dev_attr_rescan.attr,
	&dev_attr_queue_depth.attr,
	&dev_attr_vendor.attr,
	&dev_attr_model.attr,
	&dev_attr_rev.attr,
	&dev_attr_state.attr,
	&dev_attr_timeout.attr,
	&dev_attr_eh_timeout.attr,
	&dev_attr_queue_ramp_up_period.attr,
	&dev_attr_iorequest_cnt.attr,
	&dev_attr_iodone_cnt.attr,
	&dev_attr_ioerr_cnt.attr,
	&dev_attr_device_busy.attr,
	&dev_attr_scsi_level.attr,
	&dev_attr_type.attr,
	NULL,
};

static ssize_t smq_bin_read(const u8 *data, unsigned int len, char *buf,
			    loff_t off, size_t count)
{
	if (!data)
		return -EINVAL;
	return memory_read_from_buffer(buf, count, &off, data, len);
}

static ssize_t inquiry_read(struct file *filp, struct kobject *kobj,
			    struct bin_attribute *attr, char *buf, loff_t off,
			    size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(kobj_to_dev(kobj));

	return smq_bin_read(sdev->inquiry, sdev->inquiry_len, buf, off, count);
}
static BIN_ATTR_RO(inquiry, 0);

static ssize_t vpd_pg80_read(struct file *filp, struct kobject *kobj,
			     struct bin_attribute *attr, char *buf, loff_t off,
			     size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(kobj_to_dev(kobj));

	return smq_bin_read(sdev->vpd_pg80, sdev->vpd_pg80_len, buf, off, count);
}
static BIN_ATTR_RO(vpd_pg80, 0);

static ssize_t vpd_pg83_read(struct file *filp, struct kobject *kobj,
			     struct bin_attribute *attr, char *buf, loff_t off,
			     size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(kobj_to_dev(kobj));

	return smq_bin_read(sdev->vpd_pg83, sdev->vpd_pg83_len, buf, off, count);
}
static BIN_ATTR_RO(vpd_pg83, 0);

static umode_t smq_sdev_bin_visible(struct kobject *kobj,
				    struct bin_attribute *attr, int i)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(kobj_to_dev(kobj));

	if (attr == &bin_attr_vpd_pg80 && !sdev->vpd_pg80)
		return 0;
	if (attr == &bin_attr_vpd_pg83 && !sdev->vpd_pg83)
		return 0;
	if (attr == &bin_attr_inquiry && !sdev->inquiry)
		return 0;
	return attr->attr.mode;
}

static struct bin_attribute *smq_sdev_bin_attrs[] = {
	&bin_attr_inquiry,
	&bin_attr_vpd_pg80,
	&bin_attr_vpd_pg83,
	NULL,
};

static const struct attribute_group smq_sdev_group = {
	.attrs = smq_sdev_attrs,
	.bin_attrs = smq_sdev_bin_attrs,
	.is_bin_visible = smq_sdev_bin_visible,
};

const struct attribute_group *smq_sdev_groups[] = {
	&smq_sdev_group,
	NULL,
};

/* ---- host -------------------------------------------------------------- */

#define SMQ_SHOST_SHOW(name, fmt, expr)					\
static ssize_t shost_##name##_show(struct device *dev,			\
				   struct device_attribute *attr,	\
				   char *buf)				\
{									\
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);	\
									\
	return sysfs_emit(buf, fmt "\n", expr);				\
}									\
static struct device_attribute dev_attr_shost_##name =			\
	__ATTR(name, 0444, shost_##name##_show, NULL)

SMQ_SHOST_SHOW(can_queue, "%d", shost->can_queue);
SMQ_SHOST_SHOW(cmd_per_lun, "%u", shost->cmd_per_lun);
SMQ_SHOST_SHOW(max_hw_queues, "%u", smq_scsi_host_max_hw_queues(shost));
SMQ_SHOST_SHOW(host_busy, "%u", smq_scsi_host_busy(shost));
SMQ_SHOST_SHOW(host_tagset, "%d", shost->host_tagset ? 1 : 0);
SMQ_SHOST_SHOW(nr_poll_queues, "%u", shost->tag_set.nr_poll_queues);
SMQ_SHOST_SHOW(use_blk_mq, "%d", smq_set_has_hw_queues(&shost->tag_set) ? 1 : 0);
SMQ_SHOST_SHOW(state, "%s",
	       smq_host_state_name(READ_ONCE(shost->shost_state)));
SMQ_SHOST_SHOW(proc_name, "%s", shost->hostt->name ?: "");
SMQ_SHOST_SHOW(sg_tablesize, "%u", shost->sg_tablesize);
SMQ_SHOST_SHOW(max_sectors, "%u", shost->max_sectors);
SMQ_SHOST_SHOW(eh_count, "%d", atomic_read(&shost->host_eh_scheduled));

/* One field of "scan": a number, or "-" for all. */
static int smq_scan_field(const char *s, u64 *val)
{
	if (!strcmp(s, "-")) {
		*val = SMQ_SCAN_WILD_CARD;
		return 0;
	}
	if (kstrtou64(s, 0, val) || *val == SMQ_SCAN_WILD_CARD)
		return -EINVAL;
	return 0;
}

/*
 * "C T L": channel, target id and LUN, each a number or "-" (all), as
 * Linux's scan attribute takes them.  Synchronous.
 */
static ssize_t shost_scan_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	char f[3][21];
	u64 v[3];
	int i, ret, len;
	char junk;

	len = min_t(int, strcspn(buf, "\n"), 64);
	if (sscanf(buf, "%20s %20s %20s %c", f[0], f[1], f[2], &junk) != 3)
		goto bad;
	for (i = 0; i < 3; i++)
		if (smq_scan_field(f[i], &v[i]))
			goto bad;
	ret = smq_scsi_scan_host_selected(shost, v[0], v[1], v[2]);
	if (ret == -EINVAL)
		pr_err("host%u: scan '%.*s': out of range (channel 0..%u, id 0..%u, lun 0..%llu)\n",
		       shost->host_no, len, buf, shost->max_channel,
		       shost->max_id ? shost->max_id - 1 : 0,
		       shost->max_lun ? shost->max_lun - 1 : 0);
	return ret ?: count;
bad:
	pr_err("host%u: scan '%.*s': want \"C T L\", each a number or '-'\n",
	       shost->host_no, len, buf);
	return -EINVAL;
}

static struct device_attribute dev_attr_shost_scan =
	__ATTR(scan, 0200, NULL, shost_scan_store);

static ssize_t eh_deadline_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	int secs = READ_ONCE(shost->eh_deadline);

	return secs < 0 ? sysfs_emit(buf, "off\n") :
			  sysfs_emit(buf, "%d\n", secs);
}

/* Seconds, or -1 / "off" (no deadline), as Linux's eh_deadline. */
static ssize_t eh_deadline_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	int secs;

	if (sysfs_streq(buf, "off")) {
		secs = -1;
	} else if (kstrtoint(buf, 0, &secs) || secs < -1 ||
		   secs > SMQ_MAX_TIMEOUT_SECS) {
		pr_err("host%u: eh_deadline: invalid value '%.*s' (-1, off or 0..%d)\n",
		       shost->host_no, (int)min_t(size_t, strcspn(buf, "\n"), 32),
		       buf, SMQ_MAX_TIMEOUT_SECS);
		return -EINVAL;
	}
	WRITE_ONCE(shost->eh_deadline, secs);
	return count;
}

static struct device_attribute dev_attr_shost_eh_deadline =
	__ATTR(eh_deadline, 0644, eh_deadline_show, eh_deadline_store);

static struct attribute *smq_shost_attrs[] = {
	&dev_attr_shost_scan.attr,
	&dev_attr_shost_eh_deadline.attr,
	&dev_attr_shost_can_queue.attr,
	&dev_attr_shost_cmd_per_lun.attr,
	&dev_attr_shost_nr_hw_queues.attr,
	&dev_attr_shost_max_hw_queues.attr,
	&dev_attr_shost_queue_map.attr,
	&dev_attr_shost_host_busy.attr,
	&dev_attr_shost_host_tagset.attr,
	&dev_attr_shost_nr_poll_queues.attr,
	&dev_attr_shost_use_blk_mq.attr,
	&dev_attr_shost_state.attr,
	&dev_attr_shost_proc_name.attr,
	&dev_attr_shost_sg_tablesize.attr,
	&dev_attr_shost_max_sectors.attr,
	&dev_attr_shost_eh_count.attr,
	NULL,
};

static const struct attribute_group smq_shost_group = {
	.attrs = smq_shost_attrs,
};

const struct attribute_group *smq_shost_groups[] = {
	&smq_shost_group,
	NULL,
};
