// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: the command path between the block layer and the driver.
 *
 *   ->get_budget / ->put_budget  per-LUN limit: sdev->device_busy up to
 *                                sdev->queue_depth (lock-free)
 *   ->queue_rq                   state checks, one-time command setup
 *                                (SMQ_RQF_DONTPREP), ->queuecommand
 *   ->complete                   result and sense -> end, retry or fail
 *
 * The host limit: when the block layer's tags are the host's (the mq path,
 * smq_set_tags_shared()) the tag depth is can_queue, so a request that got
 * a tag has a host slot and a tag unique on its hardware queue.  When they
 * are per LUN queue (the legacy path) shost->host_busy is counted under
 * host_lock as the old midlayer did, and each slot carries a host-wide tag
 * (shost->host_tags, as the old shared host tag map did) for the driver.
 * LUNs refused for a host-wide reason (host busy, host in recovery) wait on
 * shost->starved_list and are rerun when a command of the host completes.
 *
 * Budget tokens belong to the block layer (see struct smq_mq_ops): the
 * midlayer never puts one itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "smq_scsi_priv.h"
#include <smq/sense.h>

static const char *const smq_sdev_state_names[] = {
	[SMQ_SDEV_CREATED] = "created",
	[SMQ_SDEV_RUNNING] = "running",
	[SMQ_SDEV_BLOCK] = "blocked",
	[SMQ_SDEV_OFFLINE] = "offline",
	[SMQ_SDEV_DEL] = "deleted",
	[SMQ_SDEV_CANCEL] = "cancel",
};

/**
 * smq_sdev_state_name - sysfs name of a LUN state
 * @state: SMQ_SDEV_*
 *
 * Return: the name, or "unknown".
 */
const char *smq_sdev_state_name(enum smq_sdev_state state)
{
	if (state < ARRAY_SIZE(smq_sdev_state_names) &&
	    smq_sdev_state_names[state])
		return smq_sdev_state_names[state];
	return "unknown";
}

/**
 * smq_scsi_device_set_state - change a LUN's state
 * @sdev: the LUN
 * @state: the new state
 *
 * Takes host_lock.  DEL is final; CANCEL only leads to DEL.
 *
 * Return: 0, or -EINVAL for a transition that is not allowed.
 */
int smq_scsi_device_set_state(struct smq_scsi_device *sdev,
			      enum smq_sdev_state state)
{
	struct smq_scsi_host *shost = sdev->host;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&shost->host_lock, flags);
	switch (sdev->sdev_state) {
	case SMQ_SDEV_DEL:
		ret = -EINVAL;
		break;
	case SMQ_SDEV_CANCEL:
		if (state != SMQ_SDEV_DEL)
			ret = -EINVAL;
		break;
	default:
		break;
	}
	if (!ret) {
		WRITE_ONCE(sdev->sdev_state, state);
		if (state == SMQ_SDEV_RUNNING)
			sdev->offline_logged = false;
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
	return ret;
}

/* ---- budgets ----------------------------------------------------------- */

/*
 * Take one of the LUN's queue_depth budgets.  device_busy only ever counts
 * budgets held: a refused attempt never raises it, not even for a moment
 * (an increment undone on failure would show depth + 1 in device_busy to a
 * reader while runs are refused, which happens at every run while the
 * budget is the limit).
 */
static int smq_scsi_get_budget(struct smq_queue *q)
{
	struct smq_scsi_device *sdev = smq_queue_data(q);
	int busy = atomic_read(&sdev->device_busy);

	do {
		if (unlikely(busy >= (int)READ_ONCE(sdev->queue_depth)))
			return -1;
	} while (!atomic_try_cmpxchg(&sdev->device_busy, &busy, busy + 1));
	return 0;
}

static void smq_scsi_put_budget(struct smq_queue *q, int budget_token)
{
	struct smq_scsi_device *sdev = smq_queue_data(q);

	atomic_dec(&sdev->device_busy);
}

/* ---- host limit and starved LUNs -------------------------------------- */

/*
 * Put @sdev on the host's starved list.  A LUN being deleted (state DEL,
 * set under host_lock before smq_sdev_destroy() takes it off the list) is
 * never put back: its queue may be gone by the time the list is run.
 */
static void smq_starve(struct smq_scsi_device *sdev)
	__must_hold(&sdev->host->host_lock)
{
	lockdep_assert_held(&sdev->host->host_lock);
	if (sdev->sdev_state == SMQ_SDEV_DEL)
		return;
	if (list_empty(&sdev->starved_entry))
		list_add_tail(&sdev->starved_entry, &sdev->host->starved_list);
}

static void smq_scsi_mark_starved(struct smq_scsi_device *sdev)
{
	struct smq_scsi_host *shost = sdev->host;
	unsigned long flags;

	spin_lock_irqsave(&shost->host_lock, flags);
	smq_starve(sdev);
	spin_unlock_irqrestore(&shost->host_lock, flags);
}

/* Whether the midlayer counts the host's commands (see the top). */
static bool smq_host_counts_busy(const struct smq_scsi_host *shost)
{
	return !smq_set_tags_shared(&shost->tag_set);
}

/*
 * A host that counts its commands: take a host slot and tag for @cmd.
 * Returns false (and queues @sdev on the starved list) when the host is
 * full.
 */
static bool smq_host_slot_get(struct smq_scsi_host *shost,
			      struct smq_scsi_device *sdev,
			      struct smq_scsi_cmnd *cmd)
{
	unsigned long flags;
	bool ready = false;

	spin_lock_irqsave(&shost->host_lock, flags);
	if (shost->host_busy < shost->can_queue) {
		/* host_busy bits are set: one of can_queue is free. */
		cmd->host_tag = find_first_zero_bit(shost->host_tags,
						    shost->can_queue);
		__set_bit(cmd->host_tag, shost->host_tags);
		shost->host_busy++;
		if (!list_empty(&sdev->starved_entry))
			list_del_init(&sdev->starved_entry);
		ready = true;
	} else {
		smq_starve(sdev);
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
	return ready;
}

static void smq_host_slot_put(struct smq_scsi_host *shost,
			      struct smq_scsi_cmnd *cmd)
{
	unsigned long flags;

	spin_lock_irqsave(&shost->host_lock, flags);
	__clear_bit(cmd->host_tag, shost->host_tags);
	shost->host_busy--;
	spin_unlock_irqrestore(&shost->host_lock, flags);
}

/*
 * Rerun the LUNs that waited for a host slot.  The runs are asynchronous;
 * a LUN is removed from the list under host_lock before its queue goes
 * away, so every queue run here is alive.
 */
static void smq_scsi_run_starved(struct smq_scsi_host *shost)
{
	struct smq_scsi_device *sdev, *next;
	unsigned long flags;

	if (list_empty(&shost->starved_list))
		return;
	spin_lock_irqsave(&shost->host_lock, flags);
	list_for_each_entry_safe(sdev, next, &shost->starved_list,
				 starved_entry) {
		list_del_init(&sdev->starved_entry);
		if (sdev->queue)
			smq_run_hw_queues(sdev->queue, true);
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
}

/**
 * smq_scsi_run_host_queues - rerun every LUN queue of a host
 * @shost: the host (after recovery)
 */
void smq_scsi_run_host_queues(struct smq_scsi_host *shost)
{
	struct smq_scsi_device *sdev;
	unsigned long flags;

	spin_lock_irqsave(&shost->host_lock, flags);
	list_for_each_entry(sdev, &shost->__devices, siblings) {
		if (!list_empty(&sdev->starved_entry))
			list_del_init(&sdev->starved_entry);
		if (sdev->queue)
			smq_run_hw_queues(sdev->queue, true);
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
}

/**
 * smq_scsi_block_host - hold a host's commands back: its transport is down
 * @shost: the host
 *
 * Any context; nests (each call is ended by one smq_scsi_unblock_host()).
 * From now on no command is dispatched to ->queuecommand: they wait in
 * their queues, with no timer running and no retry used up, and no queue
 * polls the driver until the block ends.  A dispatch that passed the check
 * just before still reaches the driver, which answers it busy or fails it.
 * The LUNs read "blocked".  Linux: iscsi_block_session() blocking the
 * session's target (scsi_target_block()).
 */
void smq_scsi_block_host(struct smq_scsi_host *shost)
{
	atomic_inc(&shost->transport_blocked);
}
EXPORT_SYMBOL_GPL(smq_scsi_block_host);

/**
 * smq_scsi_unblock_host - end one smq_scsi_block_host()
 * @shost: the host
 *
 * Process context.  When the last block ends, every LUN queue of the host
 * runs again, also the requests a dispatch put back while it saw the
 * block: ->queue_rq and the putting back run in one RCU read-side section
 * on the mq path (the legacy loop reruns itself under its queue lock), so
 * a grace period after the count drops they are on the queues.
 */
void smq_scsi_unblock_host(struct smq_scsi_host *shost)
{
	might_sleep();
	if (WARN_ON_ONCE(atomic_read(&shost->transport_blocked) <= 0))
		return;
	if (!atomic_dec_and_test(&shost->transport_blocked))
		return;
	synchronize_rcu();
	smq_scsi_run_host_queues(shost);
}
EXPORT_SYMBOL_GPL(smq_scsi_unblock_host);

/* ---- command setup ----------------------------------------------------- */

/**
 * smq_scsi_map_data - point a command's scatterlist at its request's data
 * @cmd: command of a request with data (rq->nr_phys_segments set)
 *
 * Up to SMQ_INLINE_SG_CNT segments use the entries inside the command, so
 * the common small I/O allocates nothing.  More take a chained table from
 * the kernel's scatterlist pools (mempools with a reserve, as scsi-mq's
 * sg_alloc_table_chained() use) until the request ends.  The allocation
 * cannot sleep here; when it fails the request waits (BLK_STS_RESOURCE)
 * and is dispatched again: never failed for lack of memory.
 *
 * Return: BLK_STS_OK, BLK_STS_RESOURCE, or BLK_STS_IOERR for data the host
 * cannot take.
 */
blk_status_t smq_scsi_map_data(struct smq_scsi_cmnd *cmd)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	unsigned int nents = rq->nr_phys_segments;
	struct sg_table sgt = { .sgl = cmd->inline_sgl };

	if (unlikely(!nents || nents > cmd->device->host->sg_tablesize))
		return BLK_STS_IOERR;
	if (unlikely(sg_alloc_table_chained(&sgt, nents, cmd->inline_sgl,
					    SMQ_INLINE_SG_CNT)))
		return BLK_STS_RESOURCE;
	cmd->sgl = sgt.sgl;
	cmd->sg_nents = nents;
	cmd->sg_count = smq_rq_map_sg(rq, cmd->sgl, nents);
	if (unlikely(!cmd->sg_count)) {
		smq_scsi_free_sgl(cmd);
		return BLK_STS_IOERR;
	}
	return BLK_STS_OK;
}

/**
 * smq_scsi_free_sgl - give back a command's chained scatterlist
 * @cmd: the command; its request ends or is prepared afresh
 *
 * Idempotent; @cmd->sgl points at the inline entries afterwards.
 */
void smq_scsi_free_sgl(struct smq_scsi_cmnd *cmd)
{
	if (cmd->sg_nents > SMQ_INLINE_SG_CNT) {
		struct sg_table sgt = {
			.sgl = cmd->sgl,
			.nents = cmd->sg_nents,
			.orig_nents = cmd->sg_nents,
		};

		sg_free_table_chained(&sgt, SMQ_INLINE_SG_CNT);
	}
	cmd->sg_nents = 0;
	cmd->sg_count = 0;
	cmd->sgl = cmd->inline_sgl;
}

/*
 * Whether @rq may go to @sdev in its state.  A LUN being removed (CANCEL)
 * takes only the midlayer's and users' passthrough commands (the
 * SYNCHRONIZE CACHE of the disk's removal): its disk's reads and writes
 * fail at once with BLK_STS_OFFLINE (ENODEV), as Linux's SCSI does in
 * SDEV_CANCEL, instead of feeding a device whose host is going away.
 */
static blk_status_t smq_state_check(struct smq_scsi_device *sdev,
				    struct smq_request *rq)
{
	switch (READ_ONCE(sdev->sdev_state)) {
	case SMQ_SDEV_RUNNING:
	case SMQ_SDEV_CREATED:
		return BLK_STS_OK;
	case SMQ_SDEV_CANCEL:
		return smq_rq_is_passthrough(rq) ? BLK_STS_OK : BLK_STS_OFFLINE;
	case SMQ_SDEV_BLOCK:
		return BLK_STS_RESOURCE;
	case SMQ_SDEV_OFFLINE:
		if (!READ_ONCE(sdev->offline_logged)) {
			WRITE_ONCE(sdev->offline_logged, true);
			smq_dev_err(&sdev->sdev_gendev,
				    "rejecting I/O to offline device\n");
		}
		return BLK_STS_IOERR;
	default:
		return BLK_STS_IOERR;
	}
}

/* A passthrough request carries its CDB, allowed and timeout already. */
static blk_status_t smq_setup_passthrough(struct smq_scsi_device *sdev,
					  struct smq_request *rq,
					  struct smq_scsi_cmnd *cmd)
{
	blk_status_t ret;

	cmd->transfer_len = smq_rq_bytes(rq);
	if (!cmd->transfer_len) {
		cmd->sc_data_direction = DMA_NONE;
	} else {
		cmd->sc_data_direction = smq_rq_op(rq) == REQ_OP_DRV_OUT ?
					 DMA_TO_DEVICE : DMA_FROM_DEVICE;
		ret = smq_scsi_map_data(cmd);
		if (ret != BLK_STS_OK)
			return ret;
	}
	if (!rq->timeout)
		rq->timeout = READ_ONCE(sdev->timeout);
	return BLK_STS_OK;
}

static blk_status_t smq_prep_cmd(struct smq_scsi_device *sdev,
				 struct smq_request *rq,
				 struct smq_scsi_cmnd *cmd)
{
	cmd->device = sdev;
	cmd->retries = 0;
	cmd->jiffies_at_alloc = jiffies;
	cmd->result = 0;
	cmd->resid = 0;
	cmd->sense_len = 0;
	smq_scsi_free_sgl(cmd);
	if (smq_rq_is_passthrough(rq))
		return smq_setup_passthrough(sdev, rq, cmd);
	cmd->allowed = SMQ_DISK_RETRIES;
	return smq_sd_init_command(cmd);
}

/* ---- dispatch ---------------------------------------------------------- */

static blk_status_t smq_scsi_queue_rq(struct smq_request *rq, bool last)
{
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
	struct smq_scsi_device *sdev = smq_queue_data(rq->q);
	struct smq_scsi_host *shost = sdev->host;
	bool counted = smq_host_counts_busy(shost);
	blk_status_t ret;
	int rtn;

	ret = smq_state_check(sdev, rq);
	if (unlikely(ret != BLK_STS_OK))
		goto out_fail;
	/*
	 * The transport is down: wait, with no delayed rerun;
	 * smq_scsi_unblock_host() runs the queue again.
	 */
	if (unlikely(atomic_read(&shost->transport_blocked)))
		return BLK_STS_DEV_RESOURCE;
	if (unlikely(READ_ONCE(shost->shost_state) == SMQ_HOST_RECOVERY)) {
		smq_scsi_mark_starved(sdev);
		return BLK_STS_RESOURCE;
	}
	/*
	 * The LUN (or its target) is under recovery: only it waits.  The
	 * error handler reruns the queue when it unblocks, and waits for
	 * this RCU read side (synchronize_rcu()) after blocking.
	 */
	if (unlikely(atomic_read(&sdev->eh_blocked)))
		return BLK_STS_RESOURCE;
	if (counted && !smq_host_slot_get(shost, sdev, cmd))
		return BLK_STS_RESOURCE;

	if (!(rq->rq_flags & SMQ_RQF_DONTPREP)) {
		ret = smq_prep_cmd(sdev, rq, cmd);
		if (unlikely(ret != BLK_STS_OK)) {
			if (counted)
				smq_host_slot_put(shost, cmd);
			goto out_fail;
		}
		rq->rq_flags |= SMQ_RQF_DONTPREP;
	} else {
		/* A retry: same CDB and data, fresh outcome. */
		cmd->result = 0;
		cmd->resid = 0;
		cmd->sense_len = 0;
	}

	set_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state);
	smq_start_request(rq);
	this_cpu_inc(sdev->io_counts->count[SMQ_SDEV_IOREQUEST]);
	/* The driver may complete (and the request be reused) in here. */
	rtn = shost->hostt->queuecommand(shost, cmd);
	if (likely(!rtn))
		return BLK_STS_OK;

	clear_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state);
	if (counted)
		smq_host_slot_put(shost, cmd);
	if (rtn == SMQ_MLQUEUE_DEVICE_BUSY) {
		/* Our budget is still counted: others in flight rerun us. */
		return atomic_read(&sdev->device_busy) > 1 ?
		       BLK_STS_DEV_RESOURCE : BLK_STS_RESOURCE;
	}
	smq_scsi_mark_starved(sdev);
	return BLK_STS_RESOURCE;

out_fail:
	if (ret == BLK_STS_RESOURCE || ret == BLK_STS_DEV_RESOURCE)
		return ret;
	/* The block layer ends the request: give its resources back. */
	smq_scsi_free_sgl(cmd);
	rq->rq_flags &= ~SMQ_RQF_DONTPREP;
	/* Passthrough callers read the outcome from the command. */
	smq_scsi_set_result(cmd, SMQ_DID_NO_CONNECT, SMQ_SAM_GOOD);
	cmd->sense_len = 0;
	cmd->resid = smq_rq_bytes(rq);
	return ret;
}

/* ---- completion -------------------------------------------------------- */

/* Block status of a command that failed for good. */
static blk_status_t smq_disp_status(enum smq_disposition disp, int result)
{
	switch (disp) {
	case SMQ_DISP_OK:
		return BLK_STS_OK;
	case SMQ_DISP_NOT_SUPPORTED:
		return BLK_STS_NOTSUPP;
	case SMQ_DISP_INVALID:
		return BLK_STS_TARGET;
	case SMQ_DISP_MEDIUM_ERROR:
		return BLK_STS_MEDIUM;
	case SMQ_DISP_NOSPC:
		return BLK_STS_NOSPC;
	case SMQ_DISP_PROTECTION:
		return BLK_STS_PROTECTION;
	case SMQ_DISP_RESV_CONFLICT:
		return SMQ_BLK_STS_RESV_CONFLICT;
	case SMQ_DISP_TRANSPORT:
		return BLK_STS_TRANSPORT;
	default:
		return smq_host_byte(result) == SMQ_DID_TIME_OUT ?
		       BLK_STS_TIMEOUT : BLK_STS_IOERR;
	}
}

/* One line per failed file I/O command, like sd's "FAILED Result:". */
static void smq_log_failure(struct smq_scsi_cmnd *cmd,
			    enum smq_disposition disp, blk_status_t status)
{
	unsigned int slen = min_t(unsigned int, cmd->sense_len, 18);

	pr_err_ratelimited("%s: tag#%u FAILED (%s, %d) result: hostbyte=0x%02x status=0x%02x retries=%d/%d cdb: %*ph sense: %*ph\n",
			   dev_name(&cmd->device->sdev_gendev),
			   smq_scsi_cmd_tag(cmd), smq_disposition_name(disp),
			   blk_status_to_errno(status),
			   smq_host_byte(cmd->result),
			   smq_status_byte(cmd->result), cmd->retries,
			   cmd->allowed, min_t(int, cmd->cmd_len, 16), cmd->cmnd,
			   slen, cmd->sense_buffer);
}

/* Retries of any kind stop after (allowed + 1) timeouts' worth of time. */
static bool smq_retry_time_left(struct smq_scsi_cmnd *cmd,
				struct smq_request *rq)
{
	unsigned long limit = (unsigned long)(cmd->allowed + 1) *
			      (rq->timeout ?: HZ);

	return time_before(jiffies, cmd->jiffies_at_alloc + limit);
}

/*
 * TASK SET FULL: the LUN holds fewer commands than its depth.  Ramp the
 * depth down to what is outstanding besides this command (at least 1),
 * as Linux's scsi_track_queue_full(); the ramp up starts counting again.
 */
static void smq_scsi_queue_full(struct smq_scsi_device *sdev)
{
	int depth = max(atomic_read(&sdev->device_busy) - 1, 1);

	WRITE_ONCE(sdev->last_queue_full_time, jiffies);
	WRITE_ONCE(sdev->last_queue_ramp_up, jiffies);
	if (depth >= (int)READ_ONCE(sdev->queue_depth))
		return;
	WRITE_ONCE(sdev->queue_depth, depth);
	pr_info_ratelimited("%s: TASK SET FULL: queue depth now %d\n",
			    dev_name(&sdev->sdev_gendev), depth);
}

/*
 * A command succeeded on a LUN whose depth was ramped down: one more
 * after queue_ramp_up_period without TASK SET FULL, up to the depth the
 * driver or user set (Linux's scsi_handle_queue_ramp_up()).
 */
static void smq_scsi_ramp_up_slow(struct smq_scsi_device *sdev,
				  struct smq_queue *q)
{
	unsigned long period = READ_ONCE(sdev->queue_ramp_up_period);
	unsigned long now = jiffies;
	unsigned int depth = READ_ONCE(sdev->queue_depth);

	if (time_before(now, READ_ONCE(sdev->last_queue_ramp_up) + period) ||
	    time_before(now, READ_ONCE(sdev->last_queue_full_time) + period))
		return;
	WRITE_ONCE(sdev->last_queue_ramp_up, now);
	if (depth < READ_ONCE(sdev->max_queue_depth)) {
		WRITE_ONCE(sdev->queue_depth, depth + 1);
		smq_run_hw_queues(q, true);
	}
}

/* A command succeeded: raise a lowered LUN depth again, now and then. */
static inline void smq_scsi_ramp_up(struct smq_scsi_device *sdev,
				    struct smq_queue *q)
{
	if (unlikely(READ_ONCE(sdev->queue_depth) <
		     READ_ONCE(sdev->max_queue_depth)))
		smq_scsi_ramp_up_slow(sdev, q);
}

/*
 * Partial completion (smq_sd_done()): @good bytes went fine; with an
 * error the bio holding the failing block fails.  Whatever remains is
 * prepared afresh (new CDB for the rest) and reissued, not counted as a
 * retry.  Return: true when the request has ended.
 */
static bool smq_scsi_partial(struct smq_scsi_cmnd *cmd,
			     enum smq_disposition disp, blk_status_t status,
			     unsigned int good)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	bool more = smq_update_request(rq, BLK_STS_OK, good);

	if (more && status != BLK_STS_OK) {
		unsigned int bad = rq->bio->bi_iter.bi_size;

		smq_log_failure(cmd, disp, status);
		more = smq_update_request(rq, status, bad);
		pr_info_ratelimited("%s: partial completion: %u bytes done, %u failed, %u reissued\n",
				    dev_name(&cmd->device->sdev_gendev), good,
				    bad, more ? smq_rq_bytes(rq) : 0);
	}
	rq->rq_flags &= ~SMQ_RQF_DONTPREP;
	smq_scsi_free_sgl(cmd);
	smq_scsi_run_starved(cmd->device->host);
	if (!more) {
		smq_end_request(rq, BLK_STS_OK);
		return true;
	}
	smq_requeue_request(rq, true);
	return false;
}

/*
 * The end every command that ends for good shares: the command is kept
 * only across our own retries (the block layer may run the request again
 * as another step: a flush sequence switches its operation, which needs a
 * fresh command), host slots freed rerun LUNs that waited for one.
 */
static void smq_scsi_end_cmd(struct smq_scsi_cmnd *cmd, blk_status_t status)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);

	smq_scsi_run_starved(cmd->device->host);
	rq->rq_flags &= ~SMQ_RQF_DONTPREP;
	smq_scsi_free_sgl(cmd);
	smq_end_request(rq, status);
}

/*
 * GOOD with every byte transferred (host byte DID_OK, SAM status GOOD, no
 * residual): the disposition is SMQ_DISP_OK and the disk has nothing to
 * decide, so none of that is looked at.
 */
static bool smq_scsi_cmd_good(const struct smq_scsi_cmnd *cmd, bool passthrough)
{
	return !cmd->result && (!cmd->resid || passthrough);
}

/* The slow path of smq_scsi_finish_command(): anything but plain GOOD. */
static void smq_scsi_finish_error(struct smq_scsi_cmnd *cmd, bool passthrough)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	struct smq_scsi_device *sdev = cmd->device;
	unsigned int good = UINT_MAX;
	enum smq_disposition disp;
	blk_status_t status;

	disp = smq_scsi_decide(cmd->cmnd[0], smq_host_byte(cmd->result),
			       smq_status_byte(cmd->result), cmd->sense_buffer,
			       min_t(unsigned int, cmd->sense_len,
				     SMQ_SENSE_BUFFERSIZE));
	status = smq_disp_status(disp, cmd->result);
	if (!passthrough && disp != SMQ_DISP_RETRY &&
	    disp != SMQ_DISP_REQUEUE) {
		/* The disk decides on partial transfers and feature errors. */
		status = smq_sd_done(cmd, status, &good);
		if (status == BLK_STS_AGAIN) {
			disp = SMQ_DISP_RETRY;
			status = BLK_STS_IOERR;
		} else if (unlikely(good != UINT_MAX)) {
			smq_scsi_partial(cmd, disp, status, good);
			return;
		}
	}

	switch (disp) {
	case SMQ_DISP_OK:
		smq_scsi_ramp_up(sdev, rq->q);
		break;
	case SMQ_DISP_RETRY:
		if (cmd->retries < cmd->allowed &&
		    smq_retry_time_left(cmd, rq)) {
			cmd->retries++;
			goto requeue;
		}
		break;
	case SMQ_DISP_REQUEUE:
		if (smq_retry_time_left(cmd, rq)) {
			u8 sam = smq_status_byte(cmd->result);

			if (smq_host_byte(cmd->result) != SMQ_DID_OK ||
			    (sam != SMQ_SAM_STAT_BUSY &&
			     sam != SMQ_SAM_STAT_TASK_SET_FULL))
				goto requeue;
			if (sam == SMQ_SAM_STAT_TASK_SET_FULL)
				smq_scsi_queue_full(sdev);
			/* The LUN is busy: try again a little later. */
			smq_scsi_run_starved(sdev->host);
			smq_requeue_request(rq, false);
			smq_kick_requeue_list(rq->q, SMQ_QUEUE_BUSY_DELAY_MS);
			return;
		}
		break;
	default:
		break;
	}
	if (status != BLK_STS_OK && !passthrough)
		smq_log_failure(cmd, disp, status);
	smq_scsi_end_cmd(cmd, status);
	return;

requeue:
	smq_scsi_run_starved(sdev->host);
	smq_requeue_request(rq, true);
}

/**
 * smq_scsi_finish_command - end, retry or fail a finished command
 * @cmd: command whose request this context owns (claimed by completion or
 *	by the error handler), with result, resid and sense set
 *
 * Any context.  A command that ended GOOD with all its data ends here at
 * once; anything else is decided by smq_scsi_finish_error().
 */
void smq_scsi_finish_command(struct smq_scsi_cmnd *cmd)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_host *shost = sdev->host;
	bool passthrough = smq_rq_is_passthrough(rq);

	clear_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state);
	this_cpu_inc(sdev->io_counts->count[SMQ_SDEV_IODONE]);
	if (cmd->result)
		this_cpu_inc(sdev->io_counts->count[SMQ_SDEV_IOERR]);
	if (smq_host_counts_busy(shost))
		smq_host_slot_put(shost, cmd);

	if (unlikely(!smq_scsi_cmd_good(cmd, passthrough))) {
		smq_scsi_finish_error(cmd, passthrough);
		return;
	}
	smq_scsi_ramp_up(sdev, rq->q);
	smq_scsi_end_cmd(cmd, BLK_STS_OK);
}

static void smq_scsi_complete(struct smq_request *rq)
{
	smq_scsi_finish_command(smq_rq_to_pdu(rq));
}

/**
 * smq_scsi_done - the driver finished a command
 * @cmd: a command ->queuecommand accepted, with result (and resid, sense)
 *
 * Any context, exactly once per accepted command.  Ignored when the
 * command's timeout already won (the error handler owns it then).
 */
void smq_scsi_done(struct smq_scsi_cmnd *cmd)
{
	if (unlikely(test_bit(SMQ_SCMD_STATE_EH, &cmd->state)) &&
	    smq_eh_cmd_done(cmd))
		return;
	smq_complete_request(smq_scsi_cmd_to_rq(cmd));
}
EXPORT_SYMBOL_GPL(smq_scsi_done);

/*
 * The end of a completion batch of commands that ended GOOD with all their
 * data (smq_scsi_done_batch()): what smq_scsi_finish_command() does for
 * each, with the host's starved LUNs run once per host, then the block
 * layer ends the requests together.
 */
static void smq_scsi_complete_batch(struct smq_comp_batch *b)
{
	struct smq_scsi_host *shost = NULL;
	struct smq_request *rq;

	list_for_each_entry(rq, &b->list, queuelist) {
		struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
		struct smq_scsi_device *sdev = cmd->device;

		clear_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state);
		this_cpu_inc(sdev->io_counts->count[SMQ_SDEV_IODONE]);
		smq_scsi_ramp_up(sdev, rq->q);
		rq->rq_flags &= ~SMQ_RQF_DONTPREP;
		smq_scsi_free_sgl(cmd);
		if (sdev->host != shost) {
			if (shost)
				smq_scsi_run_starved(shost);
			shost = sdev->host;
		}
	}
	if (shost)
		smq_scsi_run_starved(shost);
	smq_end_request_batch(b);
}

/**
 * smq_scsi_done_batch - the driver finished a command, in a completion pass
 * @cmd: a command ->queuecommand accepted, with result (and resid, sense)
 * @b: the pass's batch, ended with smq_comp_batch_flush()
 *
 * As smq_scsi_done(), but a command that ended GOOD with all its data
 * ends with the rest of the batch where the block layer batches its
 * request; any other outcome is finished at once.
 */
void smq_scsi_done_batch(struct smq_scsi_cmnd *cmd, struct smq_comp_batch *b)
{
	if (unlikely(test_bit(SMQ_SCMD_STATE_EH, &cmd->state)) ||
	    !smq_scsi_cmd_good(cmd, false)) {
		smq_scsi_done(cmd);
		return;
	}
	smq_complete_request_batch(smq_scsi_cmd_to_rq(cmd), b,
				   smq_scsi_complete_batch);
}
EXPORT_SYMBOL_GPL(smq_scsi_done_batch);

/**
 * smq_scsi_done_gen - the driver finished one incarnation of a command
 * @cmd: a command ->queuecommand accepted
 * @gen: smq_scsi_cmd_gen(cmd) read in that ->queuecommand
 *
 * As smq_scsi_done(), but ignored when the command has been started
 * again since (its timeout won, the error handler finished it and it was
 * reissued): a late completion never finishes the reissue.
 */
void smq_scsi_done_gen(struct smq_scsi_cmnd *cmd, u32 gen)
{
	if (unlikely(test_bit(SMQ_SCMD_STATE_EH, &cmd->state)) &&
	    READ_ONCE(smq_scsi_cmd_to_rq(cmd)->gen) == gen &&
	    smq_eh_cmd_done(cmd))
		return;
	smq_complete_request_gen(smq_scsi_cmd_to_rq(cmd), gen);
}
EXPORT_SYMBOL_GPL(smq_scsi_done_gen);

/* ---- per request setup ------------------------------------------------- */

static int smq_scsi_init_request(struct smq_tag_set *set,
				 struct smq_request *rq,
				 unsigned int hctx_idx, int node)
{
	struct smq_scsi_host *shost = smq_set_to_shost(set);
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
	int ret;

	/*
	 * Everything a command needs is inside the request (the memory is
	 * zeroed): larger scatterlists come from the sg pools per request.
	 */
	memset(cmd, 0, sizeof(*cmd));
	INIT_WORK(&cmd->eh_work, smq_eh_work);
	sg_init_table(cmd->inline_sgl, SMQ_INLINE_SG_CNT);
	if (shost->hostt->init_cmd_priv) {
		ret = shost->hostt->init_cmd_priv(shost, cmd);
		if (ret)
			return ret;
	}
	cmd->sgl = cmd->inline_sgl;	/* initialised: ->exit_request runs */
	return 0;
}

static void smq_scsi_exit_request(struct smq_tag_set *set,
				  struct smq_request *rq,
				  unsigned int hctx_idx)
{
	struct smq_scsi_host *shost = smq_set_to_shost(set);
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);

	if (!cmd->sgl)
		return;
	if (shost->hostt->exit_cmd_priv)
		shost->hostt->exit_cmd_priv(shost, cmd);
	smq_scsi_free_sgl(cmd);
	cmd->sgl = NULL;
}

static void smq_scsi_map_queues(struct smq_tag_set *set)
{
	struct smq_scsi_host *shost = smq_set_to_shost(set);

	if (shost->hostt->map_queues)
		shost->hostt->map_queues(shost);
	else
		smq_map_queues_spread(set);
}

/* ->poll: a poll queue's replies, reaped by the driver's mq_poll. */
static int smq_scsi_poll(struct smq_hw_ctx *hctx, struct io_comp_batch *iob)
{
	struct smq_scsi_host *shost = smq_hctx_driver_data(hctx);

	return shost->hostt->mq_poll(shost, smq_hctx_index(hctx));
}

const struct smq_mq_ops smq_scsi_mq_ops = {
	.queue_rq = smq_scsi_queue_rq,
	.get_budget = smq_scsi_get_budget,
	.put_budget = smq_scsi_put_budget,
	.complete = smq_scsi_complete,
	.timeout = smq_scsi_timeout,
	.init_request = smq_scsi_init_request,
	.exit_request = smq_scsi_exit_request,
	.map_queues = smq_scsi_map_queues,
	.update_hw_queues = smq_scsi_update_hw_queues,
	.poll = smq_scsi_poll,
};

/* ---- helpers for drivers ----------------------------------------------- */

/**
 * smq_scsi_cmd_hwq - hardware queue a command was dispatched on
 * @cmd: the command
 *
 * Return: the hardware queue index (0 on the legacy path).
 */
u16 smq_scsi_cmd_hwq(struct smq_scsi_cmnd *cmd)
{
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);

	return rq->hctx ? smq_hctx_index(rq->hctx) : 0;
}
EXPORT_SYMBOL_GPL(smq_scsi_cmd_hwq);

/**
 * smq_scsi_cmd_tag - the command's unique tag within its host
 * @cmd: the command
 *
 * With host_tagset, or where the midlayer gives host-wide tags (the
 * legacy path), smq_scsi_cmd_queue_tag() is unique host-wide already;
 * otherwise the hardware queue index is folded in (hwq << 16 | tag).
 *
 * Return: the tag.
 */
u32 smq_scsi_cmd_tag(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_host *shost = cmd->device->host;
	u32 tag = smq_scsi_cmd_queue_tag(cmd);

	if (shost->host_tagset || smq_host_counts_busy(shost))
		return tag;
	return ((u32)smq_scsi_cmd_hwq(cmd) << 16) | (tag & 0xffff);
}
EXPORT_SYMBOL_GPL(smq_scsi_cmd_tag);

/**
 * smq_scsi_cmd_queue_tag - the command's tag on its hardware queue
 * @cmd: a command ->queuecommand was given, until it is done
 *
 * The block layer's tag where its tags are the host's; the host-wide tag
 * of the command's host slot where they are per LUN queue (the legacy
 * path: there a block tag repeats across LUNs).
 *
 * Return: the tag, below can_queue + nr_reserved_cmds.
 */
u32 smq_scsi_cmd_queue_tag(struct smq_scsi_cmnd *cmd)
{
	if (smq_host_counts_busy(cmd->device->host))
		return cmd->host_tag;
	return (u32)smq_scsi_cmd_to_rq(cmd)->tag;
}
EXPORT_SYMBOL_GPL(smq_scsi_cmd_queue_tag);

/**
 * smq_scsi_change_queue_depth - set a LUN's queue depth
 * @sdev: the LUN
 * @depth: 1..can_queue
 *
 * Takes effect for the next dispatch; commands already in flight finish.
 *
 * Return: the new depth, or -EINVAL.
 */
int smq_scsi_change_queue_depth(struct smq_scsi_device *sdev, int depth)
{
	if (depth < 1 || depth > sdev->host->can_queue)
		return -EINVAL;
	/* The depth set: TASK SET FULL ramps below it, and back up to it. */
	WRITE_ONCE(sdev->max_queue_depth, depth);
	WRITE_ONCE(sdev->queue_depth, depth);
	/* A larger depth may let waiting requests go now. */
	if (sdev->queue)
		smq_run_hw_queues(sdev->queue, true);
	return depth;
}
EXPORT_SYMBOL_GPL(smq_scsi_change_queue_depth);

struct smq_busy_count {
	struct smq_scsi_host *shost;
	unsigned int count;
};

static bool smq_count_inflight(struct smq_request *rq, void *data)
{
	struct smq_busy_count *c = data;
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);

	if (test_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state))
		c->count++;
	return true;
}

/**
 * smq_scsi_host_busy - commands the driver holds now
 * @shost: the host
 *
 * Where the block layer's tags are the host's (mq) the in-flight commands
 * are counted over the busy tags; else (legacy) host_busy is read.
 *
 * Return: the count (a snapshot).
 */
unsigned int smq_scsi_host_busy(struct smq_scsi_host *shost)
{
	struct smq_busy_count c = { .shost = shost };

	if (smq_host_counts_busy(shost))
		return READ_ONCE(shost->host_busy);
	if (READ_ONCE(shost->shost_state) == SMQ_HOST_CREATED ||
	    READ_ONCE(shost->shost_state) == SMQ_HOST_DEL)
		return 0;
	smq_tagset_busy_iter(&shost->tag_set, smq_count_inflight, &c);
	return c.count;
}
EXPORT_SYMBOL_GPL(smq_scsi_host_busy);

/* ---- internal commands ------------------------------------------------- */

/**
 * smq_scsi_init_passthrough - a passthrough request's SCSI command
 * @rq: request from smq_alloc_request() on a LUN's queue
 * @cdb: the CDB
 * @cdb_len: its length (6..SMQ_MAX_CDB, checked by the caller)
 * @timeout: jiffies (0: the LUN's timeout)
 * @retries: retries allowed
 */
void smq_scsi_init_passthrough(struct smq_request *rq, const u8 *cdb,
			       unsigned int cdb_len, unsigned int timeout,
			       int retries)
{
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);

	memset(cmd->cmnd, 0, sizeof(cmd->cmnd));
	memcpy(cmd->cmnd, cdb, cdb_len);
	cmd->cmd_len = cdb_len;
	cmd->allowed = retries;
	rq->timeout = timeout;
}

/**
 * smq_scsi_execute - issue a SCSI command on a LUN's queue and wait
 * @sdev: the LUN (its queue alive: scan, disk probe, ioctl under
 *	queue_rwsem)
 * @a: the command; the outcome is stored back into it
 *
 * The command travels the same tags, budgets and hardware queues as file
 * I/O.  Sleeps.
 *
 * Return: 0 when the command was issued (its outcome in @a->result,
 * @a->sense, @a->resid), or a negative errno when it could not be.
 */
int smq_scsi_execute(struct smq_scsi_device *sdev, struct smq_exec_args *a)
{
	struct smq_scsi_cmnd *cmd;
	struct smq_request *rq;
	int ret;

	a->result = -1;
	a->sense_len = 0;
	a->resid = a->buf_len;
	a->status = BLK_STS_IOERR;
	if (a->cdb_len < 6 || a->cdb_len > SMQ_MAX_CDB ||
	    (a->buf_len && !a->buf))
		return -EINVAL;
	rq = smq_alloc_request(sdev->queue, a->dir == DMA_TO_DEVICE ?
			       REQ_OP_DRV_OUT : REQ_OP_DRV_IN, 0);
	if (IS_ERR(rq))
		return PTR_ERR(rq);
	cmd = smq_rq_to_pdu(rq);
	smq_scsi_init_passthrough(rq, a->cdb, a->cdb_len, a->timeout,
				  a->retries);
	if (a->buf_len) {
		ret = smq_rq_map_kern(rq, a->buf, a->buf_len, GFP_KERNEL);
		if (ret) {
			smq_free_request(rq);
			return ret;
		}
	}
	a->status = smq_execute_rq(rq);
	a->result = cmd->result;
	a->resid = min(cmd->resid, a->buf_len);
	if (a->sense) {
		a->sense_len = min_t(unsigned int, cmd->sense_len,
				     SMQ_SENSE_BUFFERSIZE);
		memcpy(a->sense, cmd->sense_buffer, a->sense_len);
	}
	smq_free_request(rq);
	return 0;
}
