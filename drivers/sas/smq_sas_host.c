// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas hosts: the root device, adding and removing emulated HBAs, and
 * the host template.
 *
 * Device tree:
 *   /sys/devices/smq_sas                       root device
 *     smq_sas_adapterN                         one per host (struct device
 *                                              in struct smq_sas_host)
 *       hostH                                  the smq_scsi_host
 *         targetH:0:T / H:0:T:L                targets and LUNs
 *
 * Removal order: the midlayer drains the host (smq_scsi_remove_host()),
 * then the reply queues are quiesced, then the host is put (freeing the
 * commands), and last the adapter device goes, whose release frees the
 * LUN stores and the host structure.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "smq_sas.h"

static struct device *smq_sas_root;
static DEFINE_IDA(smq_sas_ida);		/* adapter numbers */

/*
 * smq_sas_hosts_lock serializes adding and removing hosts and protects
 * smq_sas_hosts (in order of addition) and smq_sas_nr_hosts.  A mutex:
 * adding a host scans it under the lock (scan_mutex and everything a
 * scan takes nest inside), and the add_host parameter's writes take it
 * inside kernel_param_lock.
 */
static DEFINE_MUTEX(smq_sas_hosts_lock);
static LIST_HEAD(smq_sas_hosts);
static unsigned int smq_sas_nr_hosts;

static const struct smq_host_template smq_sas_template = {
	.module = THIS_MODULE,
	.name = SMQ_SAS_NAME,
	.queuecommand = smq_sas_queuecommand,
	.map_queues = smq_sas_map_queues,
	.change_queues = smq_sas_change_queues,
	.mq_poll = smq_sas_mq_poll,
	.eh_timed_out = smq_sas_eh_timed_out,
	.eh_abort_handler = smq_sas_eh_abort,
	.eh_device_reset_handler = smq_sas_eh_device_reset,
	.eh_target_reset_handler = smq_sas_eh_target_reset,
	.eh_host_reset_handler = smq_sas_eh_host_reset,
	.slave_alloc = smq_sas_slave_alloc,
	.slave_configure = smq_sas_slave_configure,
	.slave_destroy = smq_sas_slave_destroy,
	.init_cmd_priv = smq_sas_init_cmd_priv,
	.exit_cmd_priv = smq_sas_exit_cmd_priv,
	.can_queue = 192,
	.cmd_per_lun = 192,
	.sg_tablesize = SMQ_SAS_SG_TABLESIZE,
	.max_sectors = SMQ_SAS_MAX_SECTORS,
	.max_segment_size = SMQ_SAS_MAX_SEGMENT,
	.cmd_size = sizeof(struct smq_sas_cmd),
	/* One reply queue per CPU at most (capped at nr_cpu_ids) */
	.max_hw_queues = NR_CPUS,
};

/**
 * smq_sas_root_init - register the "smq_sas" root device
 *
 * Return: 0 or a negative errno.
 */
int smq_sas_root_init(void)
{
	smq_sas_root = root_device_register(SMQ_SAS_NAME);
	if (IS_ERR(smq_sas_root)) {
		int ret = PTR_ERR(smq_sas_root);

		smq_sas_root = NULL;
		return ret;
	}
	return 0;
}

/**
 * smq_sas_root_exit - unregister the root device (all hosts are gone)
 */
void smq_sas_root_exit(void)
{
	if (smq_sas_root)
		root_device_unregister(smq_sas_root);
	smq_sas_root = NULL;
}

static void smq_sas_host_release(struct device *dev)
{
	struct smq_sas_host *host = container_of(dev, struct smq_sas_host, dev);

	smq_sas_luns_free(host);
	smq_sas_queues_free(host);
	ida_free(&smq_sas_ida, host->id);
	kfree(host);
}

/*
 * Undo the midlayer part of smq_sas_host_add(); the adapter device stays.
 * smq_sas_hosts_lock held (the host is already off the list).
 */
static void smq_sas_host_detach(struct smq_sas_host *host)
{
	lockdep_assert_held(&smq_sas_hosts_lock);
	debugfs_remove_recursive(host->debugfs);
	host->debugfs = NULL;
	smq_scsi_remove_host(host->shost);	/* drains all commands */
	smq_sas_queues_quiesce(host);
	smq_scsi_host_put(host->shost);
	host->shost = NULL;
}

/* The adapter device of a new host; smq_sas_hosts_lock held. */
static struct smq_sas_host *
smq_sas_host_create(const struct smq_sas_config *cfg)
{
	struct smq_sas_host *host;
	int id, ret;

	lockdep_assert_held(&smq_sas_hosts_lock);
	id = ida_alloc_max(&smq_sas_ida, SMQ_SAS_MAX_HOSTS * 16, GFP_KERNEL);
	if (id < 0)
		return ERR_PTR(id);
	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host) {
		ida_free(&smq_sas_ida, id);
		return ERR_PTR(-ENOMEM);
	}
	host->id = id;
	host->cfg = *cfg;
	INIT_LIST_HEAD(&host->entry);
	smq_sas_eh_init(host);

	/* From here on put_device() frees everything through the release. */
	device_initialize(&host->dev);
	host->dev.parent = smq_sas_root;
	host->dev.release = smq_sas_host_release;
	ret = dev_set_name(&host->dev, SMQ_SAS_NAME "_adapter%d", id);
	if (!ret)
		ret = smq_sas_luns_init(host);
	if (!ret)
		ret = smq_sas_queues_init(host);
	if (!ret)
		ret = device_add(&host->dev);
	if (ret) {
		put_device(&host->dev);
		return ERR_PTR(ret);
	}
	return host;
}

/**
 * smq_sas_host_add - create one emulated HBA and scan it
 * @cfg: the validated parameters
 *
 * Return: 0 or a negative errno.
 */
int smq_sas_host_add(const struct smq_sas_config *cfg)
{
	struct smq_scsi_host *shost;
	struct smq_sas_host *host;
	int ret;

	mutex_lock(&smq_sas_hosts_lock);
	host = smq_sas_host_create(cfg);
	if (IS_ERR(host)) {
		ret = PTR_ERR(host);
		goto unlock;
	}

	shost = smq_scsi_host_alloc(&smq_sas_template, sizeof(host));
	if (!shost) {
		ret = shost ? PTR_ERR(shost) : -ENOMEM;
		goto del_dev;
	}
	*(struct smq_sas_host **)smq_shost_priv(shost) = host;
	host->shost = shost;

	shost->can_queue = cfg->can_queue;
	shost->cmd_per_lun = cfg->cmd_per_lun;
	shost->sg_tablesize = SMQ_SAS_SG_TABLESIZE;
	shost->max_sectors = SMQ_SAS_MAX_SECTORS;
	shost->nr_hw_queues = cfg->submit_queues;
	shost->nr_poll_queues = cfg->poll_queues;
	shost->host_tagset = cfg->host_tagset;
	shost->max_channel = 0;
	shost->max_id = cfg->num_tgts;
	shost->max_lun = cfg->max_luns;
	shost->this_id = -1;

	ret = smq_scsi_add_host(shost, &host->dev);
	if (ret) {
		smq_scsi_host_put(shost);
		host->shost = NULL;
		goto del_dev;
	}
	smq_sas_debugfs_add(host);
	smq_sas_eh_debugfs(host);
	list_add_tail(&host->entry, &smq_sas_hosts);
	smq_sas_nr_hosts++;
	/* Scan under the lock, so the host cannot be removed meanwhile. */
	smq_scsi_scan_host(shost);
	mutex_unlock(&smq_sas_hosts_lock);
	return 0;

del_dev:
	device_del(&host->dev);
	put_device(&host->dev);
unlock:
	mutex_unlock(&smq_sas_hosts_lock);
	pr_err("adding a host failed: %d\n", ret);
	return ret;
}

/**
 * smq_sas_host_remove_last - remove the most recently added host
 *
 * Return: true if a host was removed, false if there was none.
 */
bool smq_sas_host_remove_last(void)
{
	struct smq_sas_host *host;

	mutex_lock(&smq_sas_hosts_lock);
	if (list_empty(&smq_sas_hosts)) {
		mutex_unlock(&smq_sas_hosts_lock);
		return false;
	}
	host = list_last_entry(&smq_sas_hosts, struct smq_sas_host, entry);
	list_del_init(&host->entry);
	smq_sas_nr_hosts--;

	smq_sas_host_detach(host);
	device_del(&host->dev);
	put_device(&host->dev);
	mutex_unlock(&smq_sas_hosts_lock);
	return true;
}

/**
 * smq_sas_host_count - number of hosts present
 *
 * Return: the count.
 */
unsigned int smq_sas_host_count(void)
{
	unsigned int n;

	mutex_lock(&smq_sas_hosts_lock);
	n = smq_sas_nr_hosts;
	mutex_unlock(&smq_sas_hosts_lock);
	return n;
}
