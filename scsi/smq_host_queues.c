// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: changing a running host's hardware queues, the writable host
 * attributes nr_hw_queues and queue_map (/sys/class/smq_host/hostN/).
 *
 * A driver that can change its reply queues at runtime sets the template's
 * max_hw_queues and change_queues; the block layer's smq_tag_set_update()
 * drains every LUN of the host, calls change_queues through the tag set's
 * ->update_hw_queues and rebuilds hardware queues, tags and CPU map.  The
 * host's scan_mutex is held throughout: no LUN appears or goes meanwhile,
 * and a host being removed refuses the change.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/slab.h>
#include <smq/blk.h>
#include "smq_scsi_priv.h"

/**
 * smq_scsi_update_hw_queues - the tag set's ->update_hw_queues
 * @set: the host's tag set, every LUN queue frozen and quiesced
 * @nr: reply queues from now on
 * @map: CPU -> queue map to bind them to, or NULL for the driver's choice
 *
 * Return: the driver's change_queues result.
 */
int smq_scsi_update_hw_queues(struct smq_tag_set *set, unsigned int nr,
			      const unsigned int *map)
{
	struct smq_scsi_host *shost = smq_set_to_shost(set);
	int ret;

	ret = shost->hostt->change_queues(shost, nr, map);
	if (!ret)
		shost->nr_hw_queues = nr;
	return ret;
}

/* Whether @shost's hardware queues may change now; scan_mutex held. */
static int smq_host_queues_check(struct smq_scsi_host *shost,
				 const char *what)
{
	lockdep_assert_held(&shost->scan_mutex);
	if (!smq_set_has_hw_queues(&shost->tag_set)) {
		pr_err("host%u: %s: the legacy path has no hardware queues\n",
		       shost->host_no, what);
		return -EINVAL;
	}
	if (!shost->hostt->change_queues || !shost->hostt->max_hw_queues) {
		pr_err("host%u: %s: driver %s cannot change its queues\n",
		       shost->host_no, what, shost->hostt->name ?: "?");
		return -EINVAL;
	}
	if (shost->shost_state != SMQ_HOST_RUNNING &&
	    shost->shost_state != SMQ_HOST_RECOVERY)
		return -ENODEV;
	return 0;
}

/**
 * smq_scsi_host_max_hw_queues - the most hardware queues a host may run
 * @shost: the host
 *
 * Return: the template's max_hw_queues (at most nr_cpu_ids), or the
 * current count when the driver cannot change it.
 */
unsigned int smq_scsi_host_max_hw_queues(struct smq_scsi_host *shost)
{
	if (!smq_set_has_hw_queues(&shost->tag_set) ||
	    !shost->hostt->change_queues ||
	    !shost->hostt->max_hw_queues)
		return shost->tag_set.nr_hw_queues;
	return min(shost->hostt->max_hw_queues, nr_cpu_ids);
}

static ssize_t nr_hw_queues_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(shost->tag_set.nr_hw_queues));
}

static ssize_t nr_hw_queues_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	unsigned int nr, max;
	int ret;

	max = smq_scsi_host_max_hw_queues(shost);
	if (kstrtouint(buf, 0, &nr) || nr < 1 || nr > max) {
		pr_err("host%u: nr_hw_queues: invalid value '%.*s' (1..%u)\n",
		       shost->host_no, (int)strcspn(buf, "\n"), buf, max);
		return -EINVAL;
	}
	mutex_lock(&shost->scan_mutex);
	ret = smq_host_queues_check(shost, "nr_hw_queues");
	if (!ret && nr != shost->tag_set.nr_hw_queues) {
		ret = smq_tag_set_update(&shost->tag_set, nr, NULL);
		if (!ret)
			pr_info("host%u: %u hardware queue(s)\n",
				shost->host_no, nr);
	}
	mutex_unlock(&shost->scan_mutex);
	return ret ?: count;
}

/** dev_attr_shost_nr_hw_queues - hostN/nr_hw_queues (rw) */
struct device_attribute dev_attr_shost_nr_hw_queues =
	__ATTR(nr_hw_queues, 0644, nr_hw_queues_show, nr_hw_queues_store);

static ssize_t queue_map_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	ssize_t ret;

	/* The map and the count change together under scan_mutex. */
	mutex_lock(&shost->scan_mutex);
	if (shost->shost_state == SMQ_HOST_CREATED ||
	    shost->shost_state == SMQ_HOST_DEL || !shost->tag_set.map)
		ret = -ENODEV;
	else
		ret = smq_tag_set_map_show(&shost->tag_set, buf);
	mutex_unlock(&shost->scan_mutex);
	return ret;
}

static ssize_t queue_map_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct smq_scsi_host *shost = smq_class_dev_to_shost(dev);
	unsigned int *map;
	int ret;

	map = kcalloc(nr_cpu_ids, sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	mutex_lock(&shost->scan_mutex);
	ret = smq_host_queues_check(shost, "queue_map");
	if (!ret)
		ret = smq_tag_set_map_parse(&shost->tag_set, buf, map);
	if (!ret)
		ret = smq_tag_set_update(&shost->tag_set,
					 shost->tag_set.nr_hw_queues, map);
	mutex_unlock(&shost->scan_mutex);
	kfree(map);
	return ret ?: count;
}

/** dev_attr_shost_queue_map - hostN/queue_map (rw) */
struct device_attribute dev_attr_shost_queue_map =
	__ATTR(queue_map, 0644, queue_map_show, queue_map_store);
