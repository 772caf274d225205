// SPDX-License-Identifier: GPL-2.0
/*
 * smq_virtio: the data path.  A command goes out on the request queue of
 * its hardware queue as one descriptor chain: request header and data-out
 * (device-readable), response and data-in (device-writable).  Completions
 * are reaped under the queue's lock into a chain, and completed after it is
 * dropped (completing may dispatch more commands to the same queue).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include "smq_virtio.h"

/* Fill the request header of @sc. */
static void smq_virtio_build_req(struct smq_virtio_host *vh,
				 struct smq_virtio_cmd *c,
				 struct smq_scsi_cmnd *sc)
{
	struct virtio_scsi_cmd_req *req = &c->req;

	smq_virtio_lun_encode(req->lun, sc->device->id, sc->device->lun);
	req->tag = cpu_to_virtio64(vh->vdev, smq_scsi_cmd_tag(sc));
	req->task_attr = 0;	/* SIMPLE */
	req->prio = 0;
	req->crn = 0;
	memcpy(req->cdb, sc->cmnd, min_t(unsigned int, sc->cmd_len,
					 VIRTIO_SCSI_CDB_SIZE));
	if (sc->cmd_len < VIRTIO_SCSI_CDB_SIZE)
		memset(req->cdb + sc->cmd_len, 0,
		       VIRTIO_SCSI_CDB_SIZE - sc->cmd_len);
}

/* Put @c on its request queue; 0 or the virtqueue's errno. */
static int smq_virtio_add_cmd(struct smq_virtio_cmd *c)
{
	struct smq_scsi_cmnd *sc = c->sc;
	struct scatterlist hdr, resp, *sgs[4];
	unsigned int out = 0, in = 0;
	unsigned long flags;
	bool kick = false;
	int ret;

	sg_init_one(&hdr, &c->req, sizeof(c->req));
	sgs[out++] = &hdr;
	if (sc->sg_count && sc->sc_data_direction == DMA_TO_DEVICE)
		sgs[out++] = sc->sgl;
	sg_init_one(&resp, &c->resp, sizeof(c->resp));
	sgs[out + in++] = &resp;
	if (sc->sg_count && sc->sc_data_direction == DMA_FROM_DEVICE)
		sgs[out + in++] = sc->sgl;

	spin_lock_irqsave(&c->rvq->lock, flags);
	ret = virtqueue_add_sgs(c->rvq->vq, sgs, out, in, c, GFP_ATOMIC);
	if (!ret) {
		c->in_device = true;
		atomic_inc(&c->vlun->in_device);
		kick = virtqueue_kick_prepare(c->rvq->vq);
	}
	spin_unlock_irqrestore(&c->rvq->lock, flags);
	if (kick)
		virtqueue_notify(c->rvq->vq);
	return ret;
}

/**
 * smq_virtio_queuecommand - send a command to the device (template hook)
 * @shost: the host
 * @sc: the command
 *
 * Return: 0, or SMQ_MLQUEUE_HOST_BUSY when its request queue is full.
 */
int smq_virtio_queuecommand(struct smq_scsi_host *shost,
			    struct smq_scsi_cmnd *sc)
{
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);
	struct smq_virtio_cmd *c = smq_scsi_cmd_priv(sc);
	int ret;

	c->rvq = &vh->req_vqs[smq_scsi_cmd_hwq(sc)];
	c->vlun = sc->device->hostdata;
	smq_virtio_build_req(vh, c, sc);
	ret = smq_virtio_add_cmd(c);
	if (likely(!ret))
		return 0;
	if (ret == -ENOSPC || ret == -ENOMEM)
		return SMQ_MLQUEUE_HOST_BUSY;
	/* A broken queue (device gone or failed): nothing will answer. */
	smq_scsi_set_result(sc, SMQ_DID_NO_CONNECT, 0);
	sc->resid = sc->transfer_len;
	smq_scsi_done(sc);
	return 0;
}

/* Turn the device's response into the command's result. */
static void smq_virtio_set_result(struct smq_virtio_host *vh,
				  struct smq_virtio_cmd *c)
{
	struct smq_scsi_cmnd *sc = c->sc;
	struct virtio_scsi_cmd_resp *resp = &c->resp;
	struct smq_virtio_result res;

	smq_virtio_decode_resp(resp->response, resp->status,
			       virtio32_to_cpu(vh->vdev, resp->sense_len),
			       virtio32_to_cpu(vh->vdev, resp->resid),
			       min_t(u32, sizeof(resp->sense),
				     SMQ_SENSE_BUFFERSIZE),
			       sc->transfer_len, &res);
	smq_scsi_set_result(sc, res.host_byte, res.status);
	sc->resid = res.resid;
	sc->sense_len = res.sense_len;
	if (res.sense_len)
		memcpy(sc->sense_buffer, resp->sense, res.sense_len);
	if (unlikely(res.host_byte != SMQ_DID_OK))
		dev_dbg(&vh->vdev->dev, "tag %u: response %s\n",
			smq_scsi_cmd_tag(sc),
			smq_virtio_resp_name(resp->response));
}

/* A used command leaves the device and goes on the chain's tail @arg. */
static void smq_virtio_reap_one(void *buf, void *arg)
{
	struct smq_virtio_cmd *c = buf, ***tail = arg;

	c->in_device = false;
	atomic_dec(&c->vlun->in_device);
	c->next = NULL;
	**tail = c;
	*tail = &c->next;
}

/*
 * Take every used buffer off @rvq: they leave the device (in_device false,
 * under the lock) and are returned as a chain, oldest first.
 */
static struct smq_virtio_cmd *smq_virtio_reap(struct smq_virtio_vq *rvq,
					      bool irq)
{
	struct smq_virtio_cmd *head = NULL, **tail = &head;

	smq_virtio_vq_drain(rvq, irq, smq_virtio_reap_one, &tail);
	return head;
}

/* Complete a chain from smq_virtio_reap(), no lock held; how many. */
static int smq_virtio_complete_chain(struct smq_virtio_host *vh,
				     struct smq_virtio_cmd *c)
{
	struct smq_comp_batch b = { };
	struct smq_virtio_cmd *next;
	int n = 0;

	for (; c; c = next, n++) {
		next = c->next;
		smq_virtio_set_result(vh, c);
		smq_scsi_done_batch(c->sc, &b);
	}
	smq_comp_batch_flush(&b);
	return n;
}

/* Reap and complete @rvq; @irq: it raises interrupts (re-armed here). */
static int smq_virtio_drain(struct smq_virtio_host *vh,
			    struct smq_virtio_vq *rvq, bool irq)
{
	struct smq_virtio_cmd *chain;
	unsigned long flags;

	spin_lock_irqsave(&rvq->lock, flags);
	chain = smq_virtio_reap(rvq, irq);
	spin_unlock_irqrestore(&rvq->lock, flags);
	return smq_virtio_complete_chain(vh, chain);
}

static bool smq_virtio_vq_is_polled(struct smq_virtio_host *vh,
				    unsigned int i)
{
	return i >= vh->nr_req_vqs - vh->nr_poll_vqs;
}

/**
 * smq_virtio_req_done - used-buffer callback of a request queue
 * @vq: the virtqueue (interrupt context)
 */
void smq_virtio_req_done(struct virtqueue *vq)
{
	struct smq_scsi_host *shost = vq->vdev->priv;
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);

	smq_virtio_drain(vh, &vh->req_vqs[vq->index - SMQ_VIRTIO_VQ_BASE],
			 true);
}

/**
 * smq_virtio_mq_poll - reap a poll queue (template hook)
 * @shost: the host
 * @queue_num: one of its poll queues
 *
 * Return: commands completed.
 */
int smq_virtio_mq_poll(struct smq_scsi_host *shost, unsigned int queue_num)
{
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);

	if (WARN_ON_ONCE(queue_num >= vh->nr_req_vqs))
		return 0;
	return smq_virtio_drain(vh, &vh->req_vqs[queue_num], false);
}

/**
 * smq_virtio_reap_all - complete whatever the device has given back
 * @vh: the host
 *
 * The error handler calls it after a task management function, so that
 * the commands the device completed before answering have left it, even
 * if their interrupt has not been handled yet.
 */
void smq_virtio_reap_all(struct smq_virtio_host *vh)
{
	unsigned int i;

	for (i = 0; i < vh->nr_req_vqs; i++)
		smq_virtio_drain(vh, &vh->req_vqs[i],
				 !smq_virtio_vq_is_polled(vh, i));
}

/**
 * smq_virtio_init_cmd_priv - set up a preallocated command (template hook)
 * @shost: the host
 * @sc: the command
 *
 * Return: 0.
 */
int smq_virtio_init_cmd_priv(struct smq_scsi_host *shost,
			     struct smq_scsi_cmnd *sc)
{
	struct smq_virtio_cmd *c = smq_scsi_cmd_priv(sc);

	memset(c, 0, sizeof(*c));
	c->sc = sc;
	return 0;
}

/**
 * smq_virtio_map_queues - CPU -> hardware queue map (template hook)
 * @shost: the host
 *
 * Each CPU goes to the request queue whose interrupt's affinity holds it
 * (the transport's managed vectors); without affinity, evenly.
 */
void smq_virtio_map_queues(struct smq_scsi_host *shost)
{
	struct smq_virtio_host *vh = smq_virtio_shost_to_host(shost);
	unsigned int i, nr = vh->nr_req_vqs - vh->nr_poll_vqs;
	const struct cpumask **masks;
	bool ok = true;

	masks = kcalloc(nr, sizeof(*masks), GFP_KERNEL);
	for (i = 0; masks && i < nr; i++) {
		if (vh->vdev->config->get_vq_affinity)
			masks[i] = vh->vdev->config->get_vq_affinity(vh->vdev,
						SMQ_VIRTIO_VQ_BASE + i);
		if (!masks[i])
			ok = false;
	}
	if (!masks || !ok || smq_map_queues_affinity(&shost->tag_set, masks))
		smq_map_queues_spread(&shost->tag_set);
	kfree(masks);
}
