// SPDX-License-Identifier: GPL-2.0
/*
 * smq_virtio: the event queue.  SMQ_VIRTIO_NR_EVENTS buffers stay posted;
 * the device fills one per event (a LUN added or removed, a parameter
 * change, or "events missed" when it had no buffer).  The callback hands
 * each filled buffer to a work item, which decodes it
 * (smq_virtio_decode_event()), acts through the midlayer's scan functions
 * and posts the buffer again.  Removal stops the reposting and waits for
 * the work items.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/workqueue.h>
#include "smq_virtio.h"

/* Post @e on the event queue unless events are stopped; lock held. */
static void smq_virtio_event_post_locked(struct smq_virtio_event *e)
{
	struct smq_virtio_host *vh = e->vh;
	struct scatterlist sg;

	lockdep_assert_held(&vh->event_vq.lock);
	if (vh->events_stopped)
		return;
	sg_init_one(&sg, &e->ev, sizeof(e->ev));
	if (virtqueue_add_inbuf(vh->event_vq.vq, &sg, 1, e, GFP_ATOMIC))
		dev_warn(&vh->vdev->dev, "cannot post an event buffer\n");
}

static void smq_virtio_event_post(struct smq_virtio_event *e)
{
	struct smq_virtio_host *vh = e->vh;
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&vh->event_vq.lock, flags);
	smq_virtio_event_post_locked(e);
	kick = virtqueue_kick_prepare(vh->event_vq.vq);
	spin_unlock_irqrestore(&vh->event_vq.lock, flags);
	if (kick)
		virtqueue_notify(vh->event_vq.vq);
}

/* Act on @act; process context. */
static void smq_virtio_event_act(struct smq_virtio_host *vh,
				 const struct smq_virtio_event_action *act)
{
	struct smq_scsi_host *shost = vh->shost;
	int ret = 0;

	switch (act->action) {
	case SMQ_VIRTIO_ACT_SCAN_HOST:
		dev_info(&vh->vdev->dev, "events missed or LUNs changed: rescanning\n");
		smq_scsi_scan_host(shost);
		break;
	case SMQ_VIRTIO_ACT_ADD_LUN:
		dev_info(&vh->vdev->dev, "LUN %u:%u added\n", act->target,
			 act->lun);
		ret = smq_scsi_add_lun(shost, 0, act->target, act->lun);
		break;
	case SMQ_VIRTIO_ACT_REMOVE_LUN:
		dev_info(&vh->vdev->dev, "LUN %u:%u removed\n", act->target,
			 act->lun);
		ret = smq_scsi_remove_lun(shost, 0, act->target, act->lun);
		break;
	case SMQ_VIRTIO_ACT_RESCAN_LUN:
		ret = smq_scsi_rescan_lun(shost, 0, act->target, act->lun);
		break;
	case SMQ_VIRTIO_ACT_NONE:
		break;
	}
	if (ret)
		dev_info(&vh->vdev->dev, "event for %u:%u: %d\n", act->target,
			 act->lun, ret);
}

static void smq_virtio_event_work(struct work_struct *work)
{
	struct smq_virtio_event *e = container_of(work, struct smq_virtio_event,
						  work);
	struct smq_virtio_host *vh = e->vh;
	struct smq_virtio_event_action act;
	u32 event = virtio32_to_cpu(vh->vdev, e->ev.event);
	u32 reason = virtio32_to_cpu(vh->vdev, e->ev.reason);

	smq_virtio_decode_event(event, reason, e->ev.lun, &act);
	if (act.action == SMQ_VIRTIO_ACT_NONE && event)
		dev_dbg(&vh->vdev->dev, "event %#x reason %#x ignored\n", event,
			reason);
	smq_virtio_event_act(vh, &act);
	smq_virtio_event_post(e);
}

/* The device filled event buffer @buf; event_vq.lock held. */
static void smq_virtio_event_filled(void *buf, void *arg)
{
	struct smq_virtio_event *e = buf;

	if (!e->vh->events_stopped)
		queue_work(system_freezable_wq, &e->work);
}

/**
 * smq_virtio_event_done - used-buffer callback of the event queue
 * @vq: the virtqueue (interrupt context)
 */
void smq_virtio_event_done(struct virtqueue *vq)
{
	struct smq_scsi_host *shost = vq->vdev->priv;
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);
	unsigned long flags;

	spin_lock_irqsave(&vh->event_vq.lock, flags);
	smq_virtio_vq_drain(&vh->event_vq, true, smq_virtio_event_filled, NULL);
	spin_unlock_irqrestore(&vh->event_vq.lock, flags);
}

/**
 * smq_virtio_events_start - post every event buffer (host scanned)
 * @vh: the host
 */
void smq_virtio_events_start(struct smq_virtio_host *vh)
{
	unsigned long flags;
	unsigned int i;
	bool kick;

	spin_lock_irqsave(&vh->event_vq.lock, flags);
	vh->events_stopped = false;
	for (i = 0; i < SMQ_VIRTIO_NR_EVENTS; i++) {
		vh->events[i].vh = vh;
		INIT_WORK(&vh->events[i].work, smq_virtio_event_work);
		smq_virtio_event_post_locked(&vh->events[i]);
	}
	kick = virtqueue_kick_prepare(vh->event_vq.vq);
	spin_unlock_irqrestore(&vh->event_vq.lock, flags);
	if (kick)
		virtqueue_notify(vh->event_vq.vq);
}

/**
 * smq_virtio_events_stop - stop handling events and wait for the handlers
 * @vh: the host
 *
 * After it returns no event work runs or is queued; the buffers may still
 * be on the queue until the device is reset.
 */
void smq_virtio_events_stop(struct smq_virtio_host *vh)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&vh->event_vq.lock, flags);
	vh->events_stopped = true;
	spin_unlock_irqrestore(&vh->event_vq.lock, flags);
	for (i = 0; i < SMQ_VIRTIO_NR_EVENTS; i++)
		cancel_work_sync(&vh->events[i].work);
}
