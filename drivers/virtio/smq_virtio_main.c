// SPDX-License-Identifier: GPL-2.0
/*
 * smq_virtio: virtio-scsi (virtio device id 8) on smq's midlayer.
 *
 * One smq host per controller: its hardware queues are the controller's
 * request virtqueues (the config's num_queues, at most one per CPU), each
 * with its own tags (as many as the virtqueue has entries), mapped to CPUs
 * by the affinity of their interrupt vectors.  The config's seg_max,
 * max_sectors, cmd_per_lun, max_target and max_lun set the host's limits;
 * LUNs are found by smq's scan (REPORT LUNS).  The control queue carries
 * task management for the error handler, the event queue hot plug and
 * capacity changes.  It binds to every virtio-scsi device not bound
 * already, as Linux's virtio_scsi does; the two can share a machine and
 * devices move between them through the virtio bus's bind/unbind files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <smq/compat.h>
#include "smq_virtio.h"

static unsigned int smq_virtio_poll_queues;
module_param_named(poll_queues, smq_virtio_poll_queues, uint, 0444);
MODULE_PARM_DESC(poll_queues,
		 "of each controller's request queues, the last N are polled (io_uring hipri), no interrupt (default 0)");

/* A 32-bit field of the device's struct virtio_scsi_config. */
#define smq_virtio_cfg32(vdev, fld)					\
	virtio_cread32(vdev, offsetof(struct virtio_scsi_config, fld))

static int smq_virtio_slave_alloc(struct smq_scsi_device *sdev)
{
	struct smq_virtio_lun *vlun = kzalloc(sizeof(*vlun), GFP_KERNEL);

	if (!vlun)
		return -ENOMEM;
	atomic_set(&vlun->in_device, 0);
	sdev->hostdata = vlun;
	return 0;
}

static void smq_virtio_slave_destroy(struct smq_scsi_device *sdev)
{
	kfree(sdev->hostdata);
	sdev->hostdata = NULL;
}

static const struct smq_host_template smq_virtio_template = {
	.module = THIS_MODULE,
	.name = SMQ_VIRTIO_NAME,
	.queuecommand = smq_virtio_queuecommand,
	.map_queues = smq_virtio_map_queues,
	.mq_poll = smq_virtio_mq_poll,
	.eh_abort_handler = smq_virtio_eh_abort,
	.eh_device_reset_handler = smq_virtio_eh_device_reset,
	.eh_target_reset_handler = smq_virtio_eh_target_reset,
	.slave_alloc = smq_virtio_slave_alloc,
	.slave_destroy = smq_virtio_slave_destroy,
	.init_cmd_priv = smq_virtio_init_cmd_priv,
	.can_queue = 1024,	/* replaced by the virtqueue size */
	.cmd_per_lun = 1024,
	.sg_tablesize = 128,	/* replaced by the config's seg_max */
	.max_sectors = 0xFFFF,
	.max_segment_size = UINT_MAX,
	.cmd_size = sizeof(struct smq_virtio_cmd),
};

/* Find the control, event and request queues. */
static int smq_virtio_find_vqs(struct smq_virtio_host *vh)
{
	unsigned int i, nvqs = SMQ_VIRTIO_VQ_BASE + vh->nr_req_vqs;
	unsigned int first_poll = nvqs - vh->nr_poll_vqs;
	struct irq_affinity desc = { .pre_vectors = SMQ_VIRTIO_VQ_BASE };
	struct virtqueue **vqs;
	vq_callback_t **callbacks;
	const char **names;
	int ret = -ENOMEM;

	vqs = kcalloc(nvqs, sizeof(*vqs), GFP_KERNEL);
	callbacks = kcalloc(nvqs, sizeof(*callbacks), GFP_KERNEL);
	names = kcalloc(nvqs, sizeof(*names), GFP_KERNEL);
	if (!vqs || !callbacks || !names)
		goto out;
	callbacks[SMQ_VIRTIO_VQ_CTRL] = smq_virtio_ctrl_done;
	names[SMQ_VIRTIO_VQ_CTRL] = "control";
	callbacks[SMQ_VIRTIO_VQ_EVENT] = smq_virtio_event_done;
	names[SMQ_VIRTIO_VQ_EVENT] = "event";
	for (i = SMQ_VIRTIO_VQ_BASE; i < nvqs; i++) {
		struct smq_virtio_vq *rvq = &vh->req_vqs[i - SMQ_VIRTIO_VQ_BASE];

		callbacks[i] = i < first_poll ? smq_virtio_req_done : NULL;
		snprintf(rvq->name, sizeof(rvq->name), "%s.%u",
			 i < first_poll ? "request" : "request_poll",
			 i - SMQ_VIRTIO_VQ_BASE);
		names[i] = rvq->name;
	}
	ret = smq_compat_find_vqs(vh->vdev, nvqs, vqs, callbacks, names, &desc);
	if (ret)
		goto out;
	vh->ctrl_vq.vq = vqs[SMQ_VIRTIO_VQ_CTRL];
	vh->event_vq.vq = vqs[SMQ_VIRTIO_VQ_EVENT];
	for (i = 0; i < vh->nr_req_vqs; i++)
		vh->req_vqs[i].vq = vqs[SMQ_VIRTIO_VQ_BASE + i];
out:
	kfree(names);
	kfree(callbacks);
	kfree(vqs);
	return ret;
}

/* The host's limits from the device's config space. */
static void smq_virtio_set_limits(struct smq_virtio_host *vh)
{
	struct virtio_device *vdev = vh->vdev;
	struct smq_scsi_host *shost = vh->shost;
	u32 seg_max = smq_virtio_cfg32(vdev, seg_max);
	u32 max_sectors = smq_virtio_cfg32(vdev, max_sectors);
	u32 cmd_per_lun = smq_virtio_cfg32(vdev, cmd_per_lun);
	u32 max_target = virtio_cread16(vdev, offsetof(struct virtio_scsi_config,
						       max_target));
	u32 max_lun = smq_virtio_cfg32(vdev, max_lun);

	/* The sizes the request and response headers are laid out for. */
	virtio_cwrite32(vdev, offsetof(struct virtio_scsi_config, cdb_size),
			VIRTIO_SCSI_CDB_SIZE);
	virtio_cwrite32(vdev, offsetof(struct virtio_scsi_config, sense_size),
			VIRTIO_SCSI_SENSE_SIZE);

	shost->can_queue = virtqueue_get_vring_size(vh->req_vqs[0].vq);
	shost->sg_tablesize = clamp_t(u32, seg_max, 1, USHRT_MAX);
	shost->max_sectors = clamp_t(u32, max_sectors ?: 0xFFFF,
				     PAGE_SIZE >> SECTOR_SHIFT, 0xFFFF);
	shost->cmd_per_lun = clamp_t(u32, cmd_per_lun, 1,
				     min_t(u32, shost->can_queue, USHRT_MAX));
	shost->max_channel = 0;
	shost->max_id = min_t(u32, max_target, SMQ_VIRTIO_MAX_TARGET) + 1;
	shost->max_lun = min_t(u32, max_lun, SMQ_VIRTIO_MAX_LUN) + 1;
	shost->this_id = -1;
	shost->nr_hw_queues = vh->nr_req_vqs;
	shost->nr_poll_queues = vh->nr_poll_vqs;
}

/* Request queues of @vdev, and how many of them are polled. */
static unsigned int smq_virtio_nr_queues(struct virtio_device *vdev,
					 unsigned int *nr_poll)
{
	u32 nr = smq_virtio_cfg32(vdev, num_queues) ?: 1;

	nr = min_t(u32, nr, nr_cpu_ids);
	*nr_poll = min(smq_virtio_poll_queues, nr - 1);
	if (*nr_poll < smq_virtio_poll_queues)
		dev_warn(&vdev->dev, "poll_queues=%u: only %u of %u request queues can be polled\n",
			 smq_virtio_poll_queues, *nr_poll, nr);
	return nr;
}

static int smq_virtio_probe(struct virtio_device *vdev)
{
	struct smq_scsi_host *shost;
	struct smq_virtio_host *vh;
	unsigned int nr, nr_poll, i;
	int ret;

	if (!vdev->config->get) {
		dev_err(&vdev->dev, "no config space access\n");
		return -EINVAL;
	}
	nr = smq_virtio_nr_queues(vdev, &nr_poll);
	shost = smq_scsi_host_alloc(&smq_virtio_template,
				    struct_size(vh, req_vqs, nr));
	if (!shost)
		return -ENOMEM;
	vh = smq_virtio_shost_to_host(shost);
	vh->vdev = vdev;
	vh->shost = shost;
	vh->nr_req_vqs = nr;
	vh->nr_poll_vqs = nr_poll;
	mutex_init(&vh->tmf_mutex);
	init_completion(&vh->tmf.done);
	spin_lock_init(&vh->ctrl_vq.lock);
	spin_lock_init(&vh->event_vq.lock);
	for (i = 0; i < nr; i++)
		spin_lock_init(&vh->req_vqs[i].lock);
	vh->events_stopped = true;
	vdev->priv = shost;

	ret = smq_virtio_find_vqs(vh);
	if (ret) {
		dev_err(&vdev->dev, "finding %u virtqueues: %d\n",
			SMQ_VIRTIO_VQ_BASE + nr, ret);
		goto put;
	}
	smq_virtio_set_limits(vh);
	virtio_device_ready(vdev);
	ret = smq_scsi_add_host(shost, &vdev->dev);
	if (ret)
		goto reset;
	if (virtio_has_feature(vdev, VIRTIO_SCSI_F_HOTPLUG) ||
	    virtio_has_feature(vdev, VIRTIO_SCSI_F_CHANGE))
		smq_virtio_events_start(vh);
	dev_info(&vdev->dev, "host%u: %u request queues (%u polled), can_queue %d, cmd_per_lun %u, sg %u, max_sectors %u\n",
		 shost->host_no, nr, nr_poll, shost->can_queue,
		 shost->cmd_per_lun, shost->sg_tablesize, shost->max_sectors);
	smq_scsi_scan_host(shost);
	return 0;

reset:
	virtio_reset_device(vdev);
	vdev->config->del_vqs(vdev);
put:
	vdev->priv = NULL;
	smq_scsi_host_put(shost);
	return ret;
}

static void smq_virtio_remove(struct virtio_device *vdev)
{
	struct smq_scsi_host *shost = vdev->priv;
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);

	smq_virtio_events_stop(vh);
	smq_scsi_remove_host(shost);	/* every command completes */
	virtio_reset_device(vdev);	/* the device lets go of all buffers */
	vdev->config->del_vqs(vdev);
	vdev->priv = NULL;
	smq_scsi_host_put(shost);
}

static const struct virtio_device_id smq_virtio_id_table[] = {
	{ VIRTIO_ID_SCSI, VIRTIO_DEV_ANY_ID },
	{ 0 },
};
MODULE_DEVICE_TABLE(virtio, smq_virtio_id_table);

static unsigned int smq_virtio_features[] = {
	VIRTIO_SCSI_F_HOTPLUG,
	VIRTIO_SCSI_F_CHANGE,
};

static struct virtio_driver smq_virtio_driver = {
	.feature_table = smq_virtio_features,
	.feature_table_size = ARRAY_SIZE(smq_virtio_features),
	.driver.name = SMQ_VIRTIO_NAME,
	.driver.owner = THIS_MODULE,
	.id_table = smq_virtio_id_table,
	.probe = smq_virtio_probe,
	.remove = smq_virtio_remove,
};

static int __init smq_virtio_init(void)
{
	/* The wire header's codes are the spec's, as the kernel names them. */
	BUILD_BUG_ON(SMQ_VIRTIO_S_INCORRECT_LUN != VIRTIO_SCSI_S_INCORRECT_LUN);
	BUILD_BUG_ON(SMQ_VIRTIO_S_FUNCTION_SUCCEEDED !=
		     VIRTIO_SCSI_S_FUNCTION_SUCCEEDED);
	BUILD_BUG_ON(SMQ_VIRTIO_T_EVENTS_MISSED != VIRTIO_SCSI_T_EVENTS_MISSED);
	BUILD_BUG_ON(SMQ_VIRTIO_T_PARAM_CHANGE != VIRTIO_SCSI_T_PARAM_CHANGE);
	BUILD_BUG_ON(SMQ_VIRTIO_T_TRANSPORT_RESET !=
		     VIRTIO_SCSI_T_TRANSPORT_RESET);
	BUILD_BUG_ON(SMQ_VIRTIO_EVT_RESET_RESCAN != VIRTIO_SCSI_EVT_RESET_RESCAN);
	BUILD_BUG_ON(SMQ_VIRTIO_EVT_RESET_REMOVED !=
		     VIRTIO_SCSI_EVT_RESET_REMOVED);
	BUILD_BUG_ON(SMQ_VIRTIO_S_BUSY != VIRTIO_SCSI_S_BUSY);

	BUILD_BUG_ON(VIRTIO_SCSI_SENSE_SIZE > SMQ_SENSE_BUFFERSIZE);

	if (smq_virtio_poll_queues >= nr_cpu_ids) {
		pr_err("poll_queues=%u: must be below the CPU count %u (one queue raises interrupts)\n",
		       smq_virtio_poll_queues, nr_cpu_ids);
		return -EINVAL;
	}
	return register_virtio_driver(&smq_virtio_driver);
}

static void __exit smq_virtio_exit(void)
{
	unregister_virtio_driver(&smq_virtio_driver);
}

module_init(smq_virtio_init);
module_exit(smq_virtio_exit);

MODULE_DESCRIPTION("smq virtio-scsi driver");
MODULE_AUTHOR("smq developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
