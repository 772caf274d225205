// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: the SCSI generic character device of every LUN,
 * /dev/smq-ng/H:C:T:L (class smq_ng, device "ngH:C:T:L" under the LUN's
 * sysfs directory), named in the spirit of NVMe's /dev/ngXnY: any LUN
 * has one, disk or not, created when the LUN is added and deleted when it
 * is removed.  Mode 0600 (devtmpfs' default; udev rules may change it).
 *
 * It takes SCSI commands of any kind:
 *   - asynchronously through io_uring (IORING_OP_URING_CMD, smq_ng_io.c),
 *     the user ABI in include/uapi/smq/ng.h;
 *   - synchronously with the SG_IO ioctl and its companions, as the disk
 *     of a direct-access LUN takes them (smq_ioctl.c).
 * Both travel the LUN's queue (tags, budgets, timeouts, error handling)
 * like any other request.  What a caller without CAP_SYS_RAWIO may send
 * depends on whether it opened the device for writing, as for SG_IO on a
 * disk.
 *
 * Lifetime: an open file holds the character device, which holds its
 * struct device, which holds the LUN's; after the LUN's removal the
 * commands of such a file fail with ENXIO.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include "smq_scsi_priv.h"

#define SMQ_NG_MINORS	BIT(MINORBITS)

/* The region of the character devices and their minors (IDA: own lock). */
static dev_t smq_ng_devt;
static DEFINE_IDA(smq_ng_ida);

static char *smq_ng_devnode(smq_devnode_dev_t *dev, umode_t *mode)
{
	return kasprintf(GFP_KERNEL, "smq-ng/%s", dev_name(dev) + 2);
}

static struct class smq_ng_class = {
	.name = "smq_ng",
	.devnode = smq_ng_devnode,
};

static void smq_ng_release(struct device *dev)
{
	struct smq_ng *ng = container_of(dev, struct smq_ng, dev);

	ida_free(&smq_ng_ida, MINOR(dev->devt));
	put_device(&ng->sdev->sdev_gendev);
	kfree(ng);
}

static int smq_ng_open(struct inode *inode, struct file *file)
{
	struct smq_ng *ng = container_of(inode->i_cdev, struct smq_ng, cdev);

	file->private_data = ng;
	return 0;
}

/**
 * smq_ng_lun_enter - the LUN's queue for one command of a generic device
 * @ng: the device
 * @nowait: do not sleep for the LUN's lock (-EAGAIN instead)
 *
 * On success the caller holds the LUN's queue_rwsem for reading until
 * smq_ng_lun_exit(): the queue stays.
 *
 * Return: the LUN, or an ERR_PTR: -ENXIO (removed), -EAGAIN.
 */
struct smq_scsi_device *smq_ng_lun_enter(struct smq_ng *ng, bool nowait)
{
	struct smq_scsi_device *sdev = ng->sdev;

	if (nowait) {
		if (!down_read_trylock(&sdev->queue_rwsem))
			return ERR_PTR(-EAGAIN);
	} else {
		down_read(&sdev->queue_rwsem);
	}
	if (!sdev->queue || READ_ONCE(sdev->sdev_state) == SMQ_SDEV_DEL) {
		up_read(&sdev->queue_rwsem);
		return ERR_PTR(-ENXIO);
	}
	return sdev;
}

/**
 * smq_ng_lun_exit - end what smq_ng_lun_enter() began
 * @sdev: the LUN it returned
 */
void smq_ng_lun_exit(struct smq_scsi_device *sdev)
{
	up_read(&sdev->queue_rwsem);
}

static long smq_ng_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct smq_ng *ng = file->private_data;

	/* The LUN's memory lives as long as @ng; smq_ioctl.c checks its queue. */
	return smq_scsi_ioctl(ng->sdev, file->f_mode & FMODE_WRITE, cmd,
			      (void __user *)arg);
}

static const struct file_operations smq_ng_fops = {
	.owner = THIS_MODULE,
	.open = smq_ng_open,
	.unlocked_ioctl = smq_ng_ioctl,
	.uring_cmd = smq_ng_uring_cmd,
	.uring_cmd_iopoll = smq_ng_uring_cmd_iopoll,
	.llseek = noop_llseek,
};

/**
 * smq_ng_add - create a LUN's generic character device
 * @sdev: the LUN, just added to sysfs (scan_mutex held)
 *
 * A failure is logged; the LUN works without it.
 */
void smq_ng_add(struct smq_scsi_device *sdev)
{
	struct smq_ng *ng;
	int minor, ret;

	lockdep_assert_held(&sdev->host->scan_mutex);
	ng = kzalloc(sizeof(*ng), GFP_KERNEL);
	if (!ng)
		goto fail;
	minor = ida_alloc_max(&smq_ng_ida, SMQ_NG_MINORS - 1, GFP_KERNEL);
	if (minor < 0) {
		kfree(ng);
		goto fail;
	}
	ng->sdev = sdev;
	get_device(&sdev->sdev_gendev);
	device_initialize(&ng->dev);
	ng->dev.class = &smq_ng_class;
	ng->dev.parent = &sdev->sdev_gendev;
	ng->dev.devt = MKDEV(MAJOR(smq_ng_devt), minor);
	ng->dev.release = smq_ng_release;
	cdev_init(&ng->cdev, &smq_ng_fops);
	ng->cdev.owner = THIS_MODULE;
	ret = dev_set_name(&ng->dev, "ng%u:%u:%u:%llu", sdev->host->host_no,
			   sdev->channel, sdev->id, sdev->lun);
	if (!ret)
		ret = cdev_device_add(&ng->cdev, &ng->dev);
	if (ret) {
		put_device(&ng->dev);
		goto fail;
	}
	sdev->ng = ng;
	return;
fail:
	smq_dev_err(&sdev->sdev_gendev, "no generic device (smq-ng)\n");
}

/**
 * smq_ng_remove - delete a LUN's generic character device
 * @sdev: the LUN, being removed (scan_mutex held)
 *
 * Open files keep the device's memory; their commands fail with ENXIO
 * once the LUN's queue is gone.
 */
void smq_ng_remove(struct smq_scsi_device *sdev)
{
	struct smq_ng *ng = sdev->ng;

	lockdep_assert_held(&sdev->host->scan_mutex);
	if (!ng)
		return;
	sdev->ng = NULL;
	cdev_device_del(&ng->cdev, &ng->dev);
	put_device(&ng->dev);
}

/**
 * smq_ng_init - register the generic devices' class and region
 *
 * Return: 0 or a negative errno.
 */
int smq_ng_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&smq_ng_devt, 0, SMQ_NG_MINORS, "smq-ng");
	if (ret)
		return ret;
	ret = class_register(&smq_ng_class);
	if (ret)
		goto out_region;
	ret = smq_ng_io_init();
	if (ret)
		goto out_class;
	return 0;
out_class:
	class_unregister(&smq_ng_class);
out_region:
	unregister_chrdev_region(smq_ng_devt, SMQ_NG_MINORS);
	return ret;
}

/**
 * smq_ng_exit - undo smq_ng_init() (every LUN gone)
 */
void smq_ng_exit(void)
{
	smq_ng_io_exit();
	class_unregister(&smq_ng_class);
	unregister_chrdev_region(smq_ng_devt, SMQ_NG_MINORS);
}
