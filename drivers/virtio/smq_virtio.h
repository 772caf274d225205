/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_virtio: a virtio-scsi driver (virtio device id 8) plugged into smq's
 * midlayer through struct smq_host_template, beside Linux's virtio_scsi.
 *
 * Virtqueues: 0 control (task management), 1 event (hot plug, parameter
 * changes), 2.. one request queue per hardware queue of the host.  The
 * interrupt-driven request queues come first; with poll_queues the last
 * ones raise no interrupt and are reaped by ->mq_poll.
 *
 * Every command carries its request header and response in its
 * preallocated driver data (struct smq_virtio_cmd): the data path
 * allocates nothing of its own.
 */
#ifndef _SMQ_VIRTIO_H
#define _SMQ_VIRTIO_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/virtio.h>
#include <linux/workqueue.h>
#include <uapi/linux/virtio_scsi.h>
#include <smq/scsi.h>
#include "smq_virtio_wire.h"

#define SMQ_VIRTIO_NAME		"smq_virtio"
#define SMQ_VIRTIO_VQ_CTRL	0
#define SMQ_VIRTIO_VQ_EVENT	1
#define SMQ_VIRTIO_VQ_BASE	2	/* first request queue */
#define SMQ_VIRTIO_NR_EVENTS	8	/* event buffers kept posted */
/* How long a task management function may take before EH escalates */
#define SMQ_VIRTIO_TMF_TIMEOUT	(60 * HZ)

/**
 * struct smq_virtio_vq - one virtqueue and its lock
 * @lock: protects the virtqueue's rings (adding, kicking, reaping) and
 *	the @in_device flags of the buffers on it
 * @vq: the virtqueue
 * @name: its name ("request.N"; the interrupt is "virtioM-request.N")
 */
struct smq_virtio_vq {
	spinlock_t lock;	/* the rings, buffers' in_device */
	struct virtqueue *vq;
	char name[24];
} ____cacheline_aligned_in_smp;

/**
 * struct smq_virtio_lun - per-LUN data (sdev->hostdata)
 * @in_device: its commands whose buffers the device holds; a reset is
 *	done only when the device has given every one back
 */
struct smq_virtio_lun {
	atomic_t in_device;
};

/**
 * struct smq_virtio_cmd - driver data of a command (template cmd_size)
 * @req: the request header the device reads
 * @resp: the response the device writes
 * @sc: the command
 * @vlun: its LUN's data, while on a request queue
 * @rvq: the request queue it went to
 * @next: chain of the commands one reaping pass took off @rvq
 * @in_device: the device holds its buffers (under @rvq->lock)
 */
struct smq_virtio_cmd {
	struct virtio_scsi_cmd_req req;
	struct virtio_scsi_cmd_resp resp;
	struct smq_scsi_cmnd *sc;
	struct smq_virtio_lun *vlun;
	struct smq_virtio_vq *rvq;
	struct smq_virtio_cmd *next;
	bool in_device;
};

/**
 * struct smq_virtio_tmf - the host's one task management buffer
 * @req: the request the device reads
 * @resp: the response it writes
 * @done: completed when the device answers
 * @in_device: the device holds it (under ctrl_vq.lock); a TMF that timed
 *	out leaves it set, and no other may be sent until it comes back
 */
struct smq_virtio_tmf {
	struct virtio_scsi_ctrl_tmf_req req;
	struct virtio_scsi_ctrl_tmf_resp resp;
	struct completion done;
	bool in_device;
};

struct smq_virtio_host;

/**
 * struct smq_virtio_event - one event buffer posted on the event queue
 * @ev: what the device writes
 * @work: handles it in process context, then posts it again
 * @vh: its host
 */
struct smq_virtio_event {
	struct virtio_scsi_event ev;
	struct work_struct work;
	struct smq_virtio_host *vh;
};

/**
 * struct smq_virtio_host - one virtio-scsi controller (shost->hostdata)
 * @vdev: the virtio device
 * @shost: its host
 * @nr_req_vqs: request queues (the config's num_queues, capped)
 * @nr_poll_vqs: of those, the last ones are polled (no interrupt)
 * @tmf_mutex: serializes task management: protects @tmf's use
 * @tmf: the task management buffer
 * @events_stopped: no event buffer is posted again (removal; under
 *	event_vq.lock)
 * @events: the event buffers
 * @ctrl_vq: the control queue
 * @event_vq: the event queue
 * @req_vqs: @nr_req_vqs request queues, hardware queue i on req_vqs[i]
 */
struct smq_virtio_host {
	struct virtio_device *vdev;
	struct smq_scsi_host *shost;
	unsigned int nr_req_vqs;
	unsigned int nr_poll_vqs;
	struct mutex tmf_mutex;		/* one TMF at a time: @tmf */
	struct smq_virtio_tmf tmf;
	bool events_stopped;
	struct smq_virtio_event events[SMQ_VIRTIO_NR_EVENTS];
	struct smq_virtio_vq ctrl_vq;
	struct smq_virtio_vq event_vq;
	struct smq_virtio_vq req_vqs[];
};

static inline struct smq_virtio_host *
smq_virtio_shost_to_host(struct smq_scsi_host *shost)
{
	return smq_shost_priv(shost);
}

/**
 * smq_virtio_vq_drain - take every used buffer off a virtqueue
 * @v: the virtqueue; its lock held
 * @irq: it raises interrupts: they are off while draining and re-armed
 *	after, draining again if buffers came meanwhile
 * @fn: called with each buffer's token and @arg, under the lock
 * @arg: for @fn
 *
 * Stops at a broken virtqueue (device gone), whose buffers never come.
 * Inline, so that @fn is a direct call in each of its users.
 */
static inline void smq_virtio_vq_drain(struct smq_virtio_vq *v, bool irq,
				       void (*fn)(void *buf, void *arg),
				       void *arg)
{
	unsigned int len;
	void *buf;

	lockdep_assert_held(&v->lock);
	do {
		if (irq)
			virtqueue_disable_cb(v->vq);
		while ((buf = virtqueue_get_buf(v->vq, &len)))
			fn(buf, arg);
		if (unlikely(virtqueue_is_broken(v->vq)))
			break;
	} while (irq && !virtqueue_enable_cb(v->vq));
}

/* smq_virtio_io.c */
int smq_virtio_queuecommand(struct smq_scsi_host *shost,
			    struct smq_scsi_cmnd *sc);
void smq_virtio_req_done(struct virtqueue *vq);
int smq_virtio_mq_poll(struct smq_scsi_host *shost, unsigned int queue_num);
void smq_virtio_reap_all(struct smq_virtio_host *vh);
int smq_virtio_init_cmd_priv(struct smq_scsi_host *shost,
			     struct smq_scsi_cmnd *sc);
void smq_virtio_map_queues(struct smq_scsi_host *shost);

/* smq_virtio_eh.c */
void smq_virtio_ctrl_done(struct virtqueue *vq);
int smq_virtio_eh_abort(struct smq_scsi_cmnd *sc);
int smq_virtio_eh_device_reset(struct smq_scsi_cmnd *sc);
int smq_virtio_eh_target_reset(struct smq_scsi_cmnd *sc);

/* smq_virtio_event.c */
void smq_virtio_event_done(struct virtqueue *vq);
void smq_virtio_events_start(struct smq_virtio_host *vh);
void smq_virtio_events_stop(struct smq_virtio_host *vh);

#endif /* _SMQ_VIRTIO_H */
