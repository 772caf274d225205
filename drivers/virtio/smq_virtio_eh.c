// SPDX-License-Identifier: GPL-2.0
/*
 * smq_virtio: error handling through the control queue.  The midlayer's
 * error handler (process context, one action at a time per host) sends
 * ABORT TASK, LOGICAL UNIT RESET or I_T NEXUS RESET as a task management
 * function and waits for the device's answer.  A function that the device
 * reports done is a success for smq only once the device has also given
 * back the buffers of every command it covers: the commands it completed
 * before answering are reaped here, and if one is still held the step
 * fails and the error handler escalates.  SMQ_EH_SUCCESS therefore keeps
 * the midlayer's promise: the device will not write into those commands'
 * memory again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include "smq_virtio.h"

/* The device answered a TMF; ctrl_vq.lock held. */
static void smq_virtio_tmf_answered(void *buf, void *arg)
{
	struct smq_virtio_tmf *tmf = buf;

	tmf->in_device = false;
	complete(&tmf->done);
}

/**
 * smq_virtio_ctrl_done - used-buffer callback of the control queue
 * @vq: the virtqueue (interrupt context)
 */
void smq_virtio_ctrl_done(struct virtqueue *vq)
{
	struct smq_scsi_host *shost = vq->vdev->priv;
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);
	unsigned long flags;

	spin_lock_irqsave(&vh->ctrl_vq.lock, flags);
	smq_virtio_vq_drain(&vh->ctrl_vq, true, smq_virtio_tmf_answered, NULL);
	spin_unlock_irqrestore(&vh->ctrl_vq.lock, flags);
}

/* Send the TMF now in vh->tmf; 0 or a negative errno.  tmf_mutex held. */
static int smq_virtio_tmf_send(struct smq_virtio_host *vh)
{
	struct smq_virtio_tmf *tmf = &vh->tmf;
	struct scatterlist out, in, *sgs[2] = { &out, &in };
	unsigned long flags;
	bool kick = false;
	int ret;

	lockdep_assert_held(&vh->tmf_mutex);
	sg_init_one(&out, &tmf->req, sizeof(tmf->req));
	sg_init_one(&in, &tmf->resp, sizeof(tmf->resp));
	reinit_completion(&tmf->done);
	spin_lock_irqsave(&vh->ctrl_vq.lock, flags);
	ret = virtqueue_add_sgs(vh->ctrl_vq.vq, sgs, 1, 1, tmf, GFP_ATOMIC);
	if (!ret) {
		tmf->in_device = true;
		kick = virtqueue_kick_prepare(vh->ctrl_vq.vq);
	}
	spin_unlock_irqrestore(&vh->ctrl_vq.lock, flags);
	if (kick)
		virtqueue_notify(vh->ctrl_vq.vq);
	return ret;
}

/* The TMF buffer is still the device's (an earlier one never came back). */
static bool smq_virtio_tmf_busy(struct smq_virtio_host *vh)
{
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&vh->ctrl_vq.lock, flags);
	busy = vh->tmf.in_device;
	spin_unlock_irqrestore(&vh->ctrl_vq.lock, flags);
	return busy;
}

/*
 * Run task management function @subtype for @sdev (and @tag); true when
 * the device answered FUNCTION COMPLETE or SUCCEEDED in time.  Sleeps.
 */
static bool smq_virtio_tmf(struct smq_virtio_host *vh, u32 subtype,
			   struct smq_scsi_device *sdev, u32 tag)
{
	struct smq_virtio_tmf *tmf = &vh->tmf;
	bool ok = false;
	u8 response;

	mutex_lock(&vh->tmf_mutex);
	if (smq_virtio_tmf_busy(vh)) {
		dev_warn(&vh->vdev->dev, "TMF %u: the previous one never completed\n",
			 subtype);
		goto out;
	}
	memset(&tmf->req, 0, sizeof(tmf->req));
	tmf->req.type = cpu_to_virtio32(vh->vdev, VIRTIO_SCSI_T_TMF);
	tmf->req.subtype = cpu_to_virtio32(vh->vdev, subtype);
	smq_virtio_lun_encode(tmf->req.lun, sdev->id, sdev->lun);
	tmf->req.tag = cpu_to_virtio64(vh->vdev, tag);
	tmf->resp.response = SMQ_VIRTIO_S_FAILURE;
	if (smq_virtio_tmf_send(vh)) {
		dev_warn(&vh->vdev->dev, "TMF %u: control queue full or broken\n",
			 subtype);
		goto out;
	}
	if (!wait_for_completion_timeout(&tmf->done, SMQ_VIRTIO_TMF_TIMEOUT)) {
		dev_warn(&vh->vdev->dev, "TMF %u to %u:%llu: no answer in %u s\n",
			 subtype, sdev->id, sdev->lun,
			 SMQ_VIRTIO_TMF_TIMEOUT / HZ);
		goto out;
	}
	response = READ_ONCE(tmf->resp.response);
	ok = smq_virtio_tmf_ok(response);
	dev_info(&vh->vdev->dev, "TMF %u to %u:%llu: %s\n", subtype, sdev->id,
		 sdev->lun, smq_virtio_tmf_resp_name(response));
out:
	mutex_unlock(&vh->tmf_mutex);
	return ok;
}

/* Whether the device still holds @c's buffers. */
static bool smq_virtio_cmd_in_device(struct smq_virtio_cmd *c)
{
	unsigned long flags;
	bool held;

	if (!c->rvq)
		return false;
	spin_lock_irqsave(&c->rvq->lock, flags);
	held = c->in_device;
	spin_unlock_irqrestore(&c->rvq->lock, flags);
	return held;
}

/**
 * smq_virtio_eh_abort - ABORT TASK for a timed-out command (template hook)
 * @sc: the command
 *
 * Return: SMQ_EH_SUCCESS when the device aborted it and gave it back.
 */
int smq_virtio_eh_abort(struct smq_scsi_cmnd *sc)
{
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(sc->device->host);
	struct smq_virtio_cmd *c = smq_scsi_cmd_priv(sc);

	if (!smq_virtio_tmf(vh, VIRTIO_SCSI_T_TMF_ABORT_TASK, sc->device,
			    smq_scsi_cmd_tag(sc)))
		return SMQ_EH_FAILED;
	smq_virtio_reap_all(vh);
	return smq_virtio_cmd_in_device(c) ? SMQ_EH_FAILED : SMQ_EH_SUCCESS;
}

/* Whether the device holds no command of @sdev (@target: of its target). */
static bool smq_virtio_idle(struct smq_scsi_device *sdev, bool target)
{
	struct smq_scsi_host *shost = sdev->host;
	struct smq_scsi_device *d;
	struct smq_virtio_lun *vlun;
	unsigned long flags;
	bool idle = true;

	spin_lock_irqsave(&shost->host_lock, flags);
	list_for_each_entry(d, &shost->__devices, siblings) {
		if (d != sdev && (!target || d->channel != sdev->channel ||
				  d->id != sdev->id))
			continue;
		vlun = d->hostdata;
		if (vlun && atomic_read(&vlun->in_device))
			idle = false;
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
	return idle;
}

/* A reset TMF and the check that it gave everything back. */
static int smq_virtio_reset(struct smq_scsi_cmnd *sc, u32 subtype,
			    bool target)
{
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(sc->device->host);

	if (!smq_virtio_tmf(vh, subtype, sc->device, 0))
		return SMQ_EH_FAILED;
	smq_virtio_reap_all(vh);
	return smq_virtio_idle(sc->device, target) ? SMQ_EH_SUCCESS :
						      SMQ_EH_FAILED;
}

/**
 * smq_virtio_eh_device_reset - LOGICAL UNIT RESET (template hook)
 * @sc: a command of the LUN
 *
 * Return: SMQ_EH_SUCCESS when the device reset the LUN and holds none of
 * its commands.
 */
int smq_virtio_eh_device_reset(struct smq_scsi_cmnd *sc)
{
	return smq_virtio_reset(sc, VIRTIO_SCSI_T_TMF_LOGICAL_UNIT_RESET,
				false);
}

/**
 * smq_virtio_eh_target_reset - I_T NEXUS RESET (template hook)
 * @sc: a command of the target
 *
 * Return: SMQ_EH_SUCCESS when the device reset the nexus and holds no
 * command of the target's LUNs.
 */
int smq_virtio_eh_target_reset(struct smq_scsi_cmnd *sc)
{
	return smq_virtio_reset(sc, VIRTIO_SCSI_T_TMF_I_T_NEXUS_RESET, true);
}
