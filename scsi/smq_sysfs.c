// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: sysfs attributes of LUNs (the disk's device/ directory) and of
 * hosts (/sys/class/smq_host/hostN/).  Documentation/scsi.md lists them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/device.h>
#include <linux/kernel.h>
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

	return sysfs_emit(buf, "%s\n",
			  smq_sdev_state_name(READ_ONCE(sdev->sdev_state)));
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

static ssize_t timeout_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct smq_scsi_device *sdev = smq_dev_to_sdev(dev);
	unsigned int secs;

	if (kstrtouint(buf, 0, &secs) || secs < 1 ||
	    secs > SMQ_MAX_TIMEOUT_SECS)
		return -EINVAL;
	WRITE_ONCE(sdev->timeout, secs * HZ);
	return count;
}
static DEVICE_ATTR_RW(timeout);

static ssize_t smq_sdev_counter_show(char *buf, atomic_t *counter)
{
	return sysfs_emit(buf, "0x%x\n", atomic_read(counter));
}

static ssize_t iorequest_cnt_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(buf, &smq_dev_to_sdev(dev)->iorequest_cnt);
}
static DEVICE_ATTR_RO(iorequest_cnt);

static ssize_t iodone_cnt_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(buf, &smq_dev_to_sdev(dev)->iodone_cnt);
}
static DEVICE_ATTR_RO(iodone_cnt);

static ssize_t ioerr_cnt_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return smq_sdev_counter_show(buf, &smq_dev_to_sdev(dev)->ioerr_cnt);
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

static struct attribute *smq_sdev_attrs[] = {
	&dev_attr_queue_depth.attr,
	&dev_attr_vendor.attr,
	&dev_attr_model.attr,
	&dev_attr_rev.attr,
	&dev_attr_state.attr,
	&dev_attr_timeout.attr,
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
SMQ_SHOST_SHOW(nr_hw_queues, "%u", shost->tag_set.nr_hw_queues);
SMQ_SHOST_SHOW(host_busy, "%u", smq_scsi_host_busy(shost));
SMQ_SHOST_SHOW(host_tagset, "%d", shost->host_tagset ? 1 : 0);
SMQ_SHOST_SHOW(use_blk_mq, "%d", shost->use_blk_mq ? 1 : 0);
SMQ_SHOST_SHOW(state, "%s",
	       smq_host_state_name(READ_ONCE(shost->shost_state)));
SMQ_SHOST_SHOW(proc_name, "%s", shost->hostt->name ?: "");
SMQ_SHOST_SHOW(sg_tablesize, "%u", shost->sg_tablesize);
SMQ_SHOST_SHOW(max_sectors, "%u", shost->max_sectors);
SMQ_SHOST_SHOW(eh_count, "%d", atomic_read(&shost->host_eh_scheduled));

static struct attribute *smq_shost_attrs[] = {
	&dev_attr_shost_can_queue.attr,
	&dev_attr_shost_cmd_per_lun.attr,
	&dev_attr_shost_nr_hw_queues.attr,
	&dev_attr_shost_host_busy.attr,
	&dev_attr_shost_host_tagset.attr,
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
