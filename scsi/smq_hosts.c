// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: host lifetime.
 *
 * A host has two devices:
 *   shost_gendev  "hostN" under the driver's parent device; parent of the
 *                 targets and LUNs.  Its release frees the host.
 *   shost_dev     "hostN" in the class smq_host (/sys/class/smq_host/hostN),
 *                 carrying the host attributes; holds a reference on
 *                 shost_gendev.
 * and one smq_tag_set shared by the queues of all its LUNs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/module.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "smq_scsi_priv.h"

/* Host numbers, unique while the module is loaded (the IDA locks itself). */
static DEFINE_IDA(smq_host_ida);

struct class smq_host_class = {
	.name = "smq_host",
	.dev_groups = smq_shost_groups,
};

static const char *const smq_host_state_names[] = {
	[SMQ_HOST_CREATED] = "created",
	[SMQ_HOST_RUNNING] = "running",
	[SMQ_HOST_RECOVERY] = "recovery",
	[SMQ_HOST_DEL] = "deleted",
	[SMQ_HOST_CANCEL] = "cancel",
};

/**
 * smq_host_state_name - sysfs name of a host state
 * @state: SMQ_HOST_*
 *
 * Return: the name, or "unknown".
 */
const char *smq_host_state_name(enum smq_host_state state)
{
	if (state < ARRAY_SIZE(smq_host_state_names) &&
	    smq_host_state_names[state])
		return smq_host_state_names[state];
	return "unknown";
}

/**
 * smq_host_set_state - change a host's state
 * @shost: the host
 * @state: the new state
 *
 * Takes host_lock.  DEL is final; CANCEL only leads to DEL.
 *
 * Return: 0, or -EINVAL for a transition that is not allowed.
 */
int smq_host_set_state(struct smq_scsi_host *shost, enum smq_host_state state)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&shost->host_lock, flags);
	switch (shost->shost_state) {
	case SMQ_HOST_DEL:
		ret = -EINVAL;
		break;
	case SMQ_HOST_CANCEL:
		if (state != SMQ_HOST_DEL)
			ret = -EINVAL;
		break;
	default:
		break;
	}
	if (!ret)
		WRITE_ONCE(shost->shost_state, state);
	spin_unlock_irqrestore(&shost->host_lock, flags);
	return ret;
}

static void smq_host_release(struct device *dev)
{
	struct smq_scsi_host *shost = smq_gendev_to_shost(dev);

	ida_free(&smq_host_ida, shost->host_no);
	bitmap_free(shost->host_tags);
	kfree(shost);
}

static const struct device_type smq_host_type = {
	.name = "smq_host",
	.release = smq_host_release,
};

static void smq_host_cls_release(struct device *dev)
{
	put_device(&smq_class_dev_to_shost(dev)->shost_gendev);
}

/**
 * smq_scsi_host_alloc - allocate a host for a driver
 * @t: the driver's template; must outlive the host
 * @privsize: bytes of driver data (smq_shost_priv())
 *
 * The driver may change can_queue, cmd_per_lun, sg_tablesize, max_sectors,
 * nr_hw_queues, host_tagset, max_channel, max_id, max_lun and this_id
 * before smq_scsi_add_host(), which chooses the mq or legacy path from the
 * use_blk_mq parameter.
 *
 * Return: the host (free it with smq_scsi_host_put()), or NULL.
 */
struct smq_scsi_host *smq_scsi_host_alloc(const struct smq_host_template *t,
					  int privsize)
{
	struct smq_scsi_host *shost;
	int id;

	if (!t || !t->queuecommand || privsize < 0) {
		pr_err("host template of %s: queuecommand missing or privsize %d\n",
		       t && t->name ? t->name : "?", privsize);
		return NULL;
	}
	shost = kzalloc(sizeof(*shost) + privsize, GFP_KERNEL);
	if (!shost)
		return NULL;
	id = ida_alloc(&smq_host_ida, GFP_KERNEL);
	if (id < 0) {
		kfree(shost);
		return NULL;
	}
	shost->host_no = id;
	shost->hostt = t;
	spin_lock_init(&shost->host_lock);
	INIT_LIST_HEAD(&shost->__devices);
	INIT_LIST_HEAD(&shost->starved_list);
	INIT_LIST_HEAD(&shost->targets);
	init_waitqueue_head(&shost->host_wait);
	mutex_init(&shost->scan_mutex);
	atomic_set(&shost->eh_active, 0);
	atomic_set(&shost->host_eh_scheduled, 0);
	shost->eh_deadline = -1;
	init_completion(&shost->eh_cmd_done);
	shost->shost_state = SMQ_HOST_CREATED;
	shost->can_queue = t->can_queue;
	shost->cmd_per_lun = t->cmd_per_lun;
	shost->sg_tablesize = t->sg_tablesize ?: SMQ_DEFAULT_SG_TABLESIZE;
	shost->max_sectors = t->max_sectors ?: SMQ_DEFAULT_MAX_SECTORS;
	shost->max_segment_size = t->max_segment_size ?: SMQ_DEFAULT_SEG_SIZE;
	shost->virt_boundary_mask = t->virt_boundary_mask;
	shost->nr_reserved_cmds = t->nr_reserved_cmds;
	shost->nr_hw_queues = 1;
	shost->max_channel = 0;
	shost->max_id = SMQ_DEFAULT_MAX_ID;
	shost->max_lun = SMQ_DEFAULT_MAX_LUN;
	shost->this_id = -1;

	device_initialize(&shost->shost_gendev);
	shost->shost_gendev.type = &smq_host_type;
	if (dev_set_name(&shost->shost_gendev, "host%u", shost->host_no)) {
		put_device(&shost->shost_gendev);
		return NULL;
	}
	return shost;
}
EXPORT_SYMBOL_GPL(smq_scsi_host_alloc);

static int smq_host_check(struct smq_scsi_host *shost)
{
	const char *name = shost->hostt->name ?: "?";

	if (shost->can_queue < 1) {
		pr_err("%s: can_queue=%d: must be >= 1\n", name, shost->can_queue);
		return -EINVAL;
	}
	if (shost->nr_hw_queues < 1 || shost->nr_hw_queues > nr_cpu_ids) {
		pr_err("%s: nr_hw_queues=%u: must be 1..%u\n", name,
		       shost->nr_hw_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (shost->nr_poll_queues >= shost->nr_hw_queues &&
	    shost->nr_poll_queues) {
		pr_err("%s: nr_poll_queues=%u: must be below nr_hw_queues=%u\n",
		       name, shost->nr_poll_queues, shost->nr_hw_queues);
		return -EINVAL;
	}
	if (shost->nr_poll_queues && !shost->hostt->mq_poll) {
		pr_err("%s: nr_poll_queues=%u: driver has no mq_poll\n",
		       name, shost->nr_poll_queues);
		return -EINVAL;
	}
	if (shost->sg_tablesize < 1) {
		pr_err("%s: sg_tablesize=%u: must be >= 1\n", name,
		       shost->sg_tablesize);
		return -EINVAL;
	}
	if (shost->max_sectors < PAGE_SIZE >> SECTOR_SHIFT) {
		pr_err("%s: max_sectors=%u: must be >= %lu\n", name,
		       shost->max_sectors, PAGE_SIZE >> SECTOR_SHIFT);
		return -EINVAL;
	}
	if (shost->max_segment_size < PAGE_SIZE) {
		pr_err("%s: max_segment_size=%u: must be >= %lu\n", name,
		       shost->max_segment_size, PAGE_SIZE);
		return -EINVAL;
	}
	if (shost->max_id < 1 || shost->max_lun < 1) {
		pr_err("%s: max_id=%u max_lun=%llu: must be >= 1\n", name,
		       shost->max_id, shost->max_lun);
		return -EINVAL;
	}
	if (shost->cmd_per_lun < 1)
		shost->cmd_per_lun = min(shost->can_queue, 32);
	if (shost->cmd_per_lun > shost->can_queue)
		shost->cmd_per_lun = shost->can_queue;
	return 0;
}

static int smq_host_setup_tags(struct smq_scsi_host *shost)
{
	struct smq_tag_set *set = &shost->tag_set;
	int ret;

	memset(set, 0, sizeof(*set));
	set->ops = &smq_scsi_mq_ops;
	set->nr_hw_queues = shost->nr_hw_queues;
	set->nr_poll_queues = shost->nr_poll_queues;
	set->queue_depth = shost->can_queue + shost->nr_reserved_cmds;
	set->reserved_tags = shost->nr_reserved_cmds;
	set->cmd_size = sizeof(struct smq_scsi_cmnd) + shost->hostt->cmd_size;
	set->numa_node = NUMA_NO_NODE;
	set->timeout = smq_param_cmd_timeout() * HZ;
	if (shost->host_tagset)
		set->flags |= SMQ_SET_HOST_TAGSET;
	/* The path, from the parameter; block/ answers for it from here on. */
	if (!smq_param_use_blk_mq()) {
		set->flags |= SMQ_SET_LEGACY;
		set->nr_legacy_requests = shost->can_queue;
	}
	set->driver_data = shost;
	ret = smq_tag_set_init(set);
	if (ret) {
		pr_err("host%u: tag set (%s path): %d\n", shost->host_no,
		       smq_set_has_hw_queues(set) ? "multiqueue" : "legacy", ret);
		return ret;
	}
	/* Tags per LUN queue: the host-wide ones are the midlayer's. */
	if (!smq_set_tags_shared(set)) {
		shost->host_tags = bitmap_zalloc(shost->can_queue, GFP_KERNEL);
		if (!shost->host_tags) {
			smq_tag_set_free(set);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * smq_scsi_add_host - make a host live
 * @shost: host from smq_scsi_host_alloc()
 * @parent: parent device (the HBA), or NULL
 *
 * Sets up the tag set (the mq or legacy path) and the sysfs devices.  LUNs
 * appear with smq_scsi_scan_host().
 *
 * Return: 0 or a negative errno (the host is then still to be put).
 */
int smq_scsi_add_host(struct smq_scsi_host *shost, struct device *parent)
{
	int ret;

	ret = smq_host_check(shost);
	if (ret)
		return ret;
	ret = smq_host_setup_tags(shost);
	if (ret)
		return ret;
	shost->eh_wq = alloc_ordered_workqueue("smq_eh_%u", WQ_MEM_RECLAIM,
					       shost->host_no);
	if (!shost->eh_wq) {
		ret = -ENOMEM;
		goto free_tags;
	}
	shost->shost_gendev.parent = parent;
	ret = device_add(&shost->shost_gendev);
	if (ret)
		goto free_wq;

	device_initialize(&shost->shost_dev);
	shost->shost_dev.class = &smq_host_class;
	shost->shost_dev.parent = &shost->shost_gendev;
	shost->shost_dev.groups = shost->hostt->shost_groups;
	shost->shost_dev.release = smq_host_cls_release;
	get_device(&shost->shost_gendev);
	ret = dev_set_name(&shost->shost_dev, "host%u", shost->host_no);
	if (!ret)
		ret = device_add(&shost->shost_dev);
	if (ret) {
		put_device(&shost->shost_dev);
		goto del_gendev;
	}
	smq_host_set_state(shost, SMQ_HOST_RUNNING);
	pr_info("host%u: %s: %s path, %u hardware queue(s) (%u poll), can_queue %d%s, cmd_per_lun %u, sg_tablesize %u, max_sectors %u\n",
		shost->host_no, shost->hostt->name ?: "?",
		smq_set_has_hw_queues(&shost->tag_set) ? "multiqueue" :
							 "legacy single-queue",
		shost->tag_set.nr_hw_queues, shost->tag_set.nr_poll_queues,
		shost->can_queue,
		shost->host_tagset ? " host-wide tags" : " per queue",
		shost->cmd_per_lun, shost->sg_tablesize, shost->max_sectors);
	return 0;

del_gendev:
	device_del(&shost->shost_gendev);
free_wq:
	destroy_workqueue(shost->eh_wq);
	shost->eh_wq = NULL;
free_tags:
	smq_tag_set_free(&shost->tag_set);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_scsi_add_host);

/**
 * smq_scsi_remove_host - remove a host and all its LUNs
 * @shost: host added with smq_scsi_add_host()
 *
 * Disks go away first (their users drained), then every LUN's queue is
 * drained and destroyed: when this returns, every command the driver took
 * has been completed through smq_scsi_done() and none will be issued.
 * The driver still has to call smq_scsi_host_put().
 */
void smq_scsi_remove_host(struct smq_scsi_host *shost)
{
	mutex_lock(&shost->scan_mutex);
	/* Only a host that smq_scsi_add_host() made live, and only once. */
	if (shost->shost_state == SMQ_HOST_CREATED ||
	    smq_host_set_state(shost, SMQ_HOST_CANCEL)) {
		mutex_unlock(&shost->scan_mutex);
		return;
	}
	mutex_unlock(&shost->scan_mutex);

	smq_scsi_forget_host(shost);
	drain_workqueue(shost->eh_wq);
	smq_host_set_state(shost, SMQ_HOST_DEL);

	device_unregister(&shost->shost_dev);
	device_del(&shost->shost_gendev);
	destroy_workqueue(shost->eh_wq);
	shost->eh_wq = NULL;
	smq_tag_set_free(&shost->tag_set);
	pr_info("host%u: removed\n", shost->host_no);
}
EXPORT_SYMBOL_GPL(smq_scsi_remove_host);

/**
 * smq_scsi_host_put - drop the driver's reference to a host
 * @shost: host from smq_scsi_host_alloc() (removed, or never added)
 */
void smq_scsi_host_put(struct smq_scsi_host *shost)
{
	if (shost)
		put_device(&shost->shost_gendev);
}
EXPORT_SYMBOL_GPL(smq_scsi_host_put);

/**
 * smq_hosts_init - register the host class
 *
 * Return: 0 or a negative errno from class_register().
 */
int smq_hosts_init(void)
{
	return class_register(&smq_host_class);
}

/**
 * smq_hosts_exit - unregister the host class (all hosts are gone)
 */
void smq_hosts_exit(void)
{
	class_unregister(&smq_host_class);
	ida_destroy(&smq_host_ida);
}
