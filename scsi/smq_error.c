// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: command timeouts and error handling.
 *
 * The block layer's timeout scan calls smq_scsi_timeout() for a request
 * whose deadline passed, with the request claimed (see smq_mq_ops.timeout:
 * the driver's completion cannot finish it meanwhile).  The driver may ask
 * for more time (->eh_timed_out).  Otherwise the error handler owns the
 * command from then on, and a late smq_scsi_done() for it is ignored.
 *
 * The error handler runs in process context on the host's ordered
 * workqueue, one timed-out command at a time.  For each it escalates
 *   abort -> LUN reset -> target reset -> host reset -> LUN offline
 * and stops at the first step that the driver reports as SMQ_EH_SUCCESS
 * and after which a TEST UNIT READY (sent with the timed-out command
 * itself, waited for at most the LUN's eh_timeout) passes.
 *
 * Scope (unlike Linux, whose error handler stops the whole host):
 *   - the LUN of the command is blocked (sdev->eh_blocked) for its whole
 *     recovery: abort, LUN reset and the TEST UNIT READY touch no other
 *     LUN, whose I/O goes on;
 *   - a target reset blocks the LUNs of that target while it runs;
 *   - only a host reset blocks the host (state recovery).
 * After blocking, synchronize_rcu() waits for dispatches that did not see
 * the block (->queue_rq runs under rcu_read_lock() on both queue paths),
 * so no command of the scope reaches the driver during the reset and the
 * reclaim below.
 *
 * A reset that succeeded killed every command of its scope that the
 * driver had not completed: the error handler reclaims each still in
 * flight (claimed with its generation, as the timeout scan claims) and
 * finishes it with DID_RESET, so it is retried per cmd->allowed.  Those
 * that had timed out already carry an older sdev->eh_reset_seq: their own
 * turn only finishes them the same way.
 *
 * The host's eh_deadline (seconds, -1 off) counts from the moment its
 * error handler went from idle to busy; past it, recovery skips to host
 * reset and then offline.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "smq_scsi_priv.h"
#include <smq/sense.h>

/* TEST UNIT READY tries after a step (a reset leaves a UNIT ATTENTION) */
#define SMQ_EH_TUR_TRIES	3

enum smq_eh_scope {
	SMQ_EH_SCOPE_LUN,
	SMQ_EH_SCOPE_TARGET,
	SMQ_EH_SCOPE_HOST,
};

/* What the TEST UNIT READY borrows from the timed-out command. */
struct smq_eh_saved {
	u8 cmnd[SMQ_MAX_CDB];
	unsigned short cmd_len;
	enum dma_data_direction dir;
	unsigned int sg_count;
	unsigned int transfer_len;
};

/**
 * smq_scsi_timeout - a request's deadline passed (smq_mq_ops.timeout)
 * @rq: the request
 *
 * Return: SMQ_EH_RESET_TIMER to wait another period, SMQ_EH_DONE when the
 * completion or the error handler will finish the request.
 */
enum smq_eh_timer_return smq_scsi_timeout(struct smq_request *rq)
{
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
	struct smq_scsi_host *shost;

	/* Started but refused by ->queuecommand: not with the driver. */
	if (!test_bit(SMQ_SCMD_STATE_INFLIGHT, &cmd->state))
		return SMQ_EH_RESET_TIMER;
	shost = cmd->device->host;
	if (shost->hostt->eh_timed_out &&
	    shost->hostt->eh_timed_out(cmd) == SMQ_EH_RESET_TIMER)
		return SMQ_EH_RESET_TIMER;
	cmd->eh_seq = READ_ONCE(cmd->device->eh_reset_seq);
	if (atomic_inc_return(&shost->eh_active) == 1)
		WRITE_ONCE(shost->eh_start, jiffies);
	atomic_inc(&shost->host_eh_scheduled);
	queue_work(shost->eh_wq, &cmd->eh_work);
	return SMQ_EH_DONE;
}

/**
 * smq_eh_cmd_done - smq_scsi_done() of the error handler's own command
 * @cmd: the command with SMQ_SCMD_STATE_EH set
 *
 * Return: true when the error handler was waiting for it (it is woken),
 * false when it gave up waiting already.
 */
bool smq_eh_cmd_done(struct smq_scsi_cmnd *cmd)
{
	if (!test_and_clear_bit(SMQ_SCMD_STATE_EH, &cmd->state))
		return false;
	complete(&cmd->device->host->eh_cmd_done);
	return true;
}

static bool smq_eh_past_deadline(struct smq_scsi_host *shost)
{
	int secs = READ_ONCE(shost->eh_deadline);

	if (secs < 0)
		return false;
	return !time_before(jiffies, READ_ONCE(shost->eh_start) +
			    (unsigned long)secs * HZ);
}

static int smq_eh_try(int (*fn)(struct smq_scsi_cmnd *cmd),
		      struct smq_scsi_cmnd *cmd)
{
	return fn ? fn(cmd) : SMQ_EH_FAILED;
}

static void smq_eh_save(struct smq_scsi_cmnd *cmd, struct smq_eh_saved *s)
{
	memcpy(s->cmnd, cmd->cmnd, sizeof(s->cmnd));
	s->cmd_len = cmd->cmd_len;
	s->dir = cmd->sc_data_direction;
	s->sg_count = cmd->sg_count;
	s->transfer_len = cmd->transfer_len;
}

static void smq_eh_restore(struct smq_scsi_cmnd *cmd,
			   const struct smq_eh_saved *s)
{
	memcpy(cmd->cmnd, s->cmnd, sizeof(s->cmnd));
	cmd->cmd_len = s->cmd_len;
	cmd->sc_data_direction = s->dir;
	cmd->sg_count = s->sg_count;
	cmd->transfer_len = s->transfer_len;
}

/*
 * One TEST UNIT READY through ->queuecommand with the (owned) timed-out
 * command.  SMQ_EH_SUCCESS for GOOD; a UNIT ATTENTION or NOT READY "in
 * progress" is asked again.  A TEST UNIT READY the driver did not answer
 * within eh_timeout stays with it: the next step's success covers it.
 */
static int smq_eh_tur(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_host *shost = sdev->host;
	unsigned long end = jiffies + READ_ONCE(sdev->eh_timeout);
	int i = 0;

	while (i < SMQ_EH_TUR_TRIES) {
		enum smq_disposition disp;

		memset(cmd->cmnd, 0, sizeof(cmd->cmnd));
		cmd->cmd_len = 6;		/* TEST UNIT READY: opcode 0 */
		cmd->sc_data_direction = DMA_NONE;
		cmd->sg_count = 0;
		cmd->transfer_len = 0;
		cmd->result = 0;
		cmd->resid = 0;
		cmd->sense_len = 0;
		reinit_completion(&shost->eh_cmd_done);
		set_bit(SMQ_SCMD_STATE_EH, &cmd->state);
		if (shost->hostt->queuecommand(shost, cmd)) {
			/* Busy (e.g. still settling after a reset): not a try. */
			clear_bit(SMQ_SCMD_STATE_EH, &cmd->state);
			if (time_after(jiffies, end))
				break;
			msleep(20);
			continue;
		}
		i++;
		if (!wait_for_completion_timeout(&shost->eh_cmd_done,
						 READ_ONCE(sdev->eh_timeout)) &&
		    test_and_clear_bit(SMQ_SCMD_STATE_EH, &cmd->state)) {
			smq_dev_warn(&sdev->sdev_gendev,
				     "TEST UNIT READY timed out\n");
			return SMQ_EH_FAILED;
		}
		if (!cmd->result)
			return SMQ_EH_SUCCESS;
		if (smq_host_byte(cmd->result) == SMQ_DID_TRANSPORT_FAILFAST)
			set_bit(SMQ_SCMD_STATE_TRANSPORT_DOWN, &cmd->state);
		disp = smq_scsi_decide(0, smq_host_byte(cmd->result),
				       smq_status_byte(cmd->result),
				       cmd->sense_buffer,
				       min_t(unsigned int, cmd->sense_len,
					     SMQ_SENSE_BUFFERSIZE));
		if (disp == SMQ_DISP_OK)
			return SMQ_EH_SUCCESS;
		if (disp != SMQ_DISP_RETRY && disp != SMQ_DISP_REQUEUE)
			break;
	}
	smq_dev_warn(&sdev->sdev_gendev,
		     "TEST UNIT READY failed (result 0x%x)\n", cmd->result);
	return SMQ_EH_FAILED;
}

static bool smq_eh_in_scope(struct smq_scsi_device *a,
			    struct smq_scsi_device *b, enum smq_eh_scope scope)
{
	switch (scope) {
	case SMQ_EH_SCOPE_LUN:
		return a == b;
	case SMQ_EH_SCOPE_TARGET:
		return a->channel == b->channel && a->id == b->id;
	default:
		return true;
	}
}

/*
 * The LUNs of a scope, each with a reference on its device; @sdev (whose
 * command the error handler owns) first.  *@nr = 1 and only @sdev when
 * memory is short: the others then recover when their commands time out.
 */
static struct smq_scsi_device **smq_eh_get_sdevs(struct smq_scsi_device *sdev,
						 enum smq_eh_scope scope,
						 unsigned int *nr)
{
	struct smq_scsi_host *shost = sdev->host;
	struct smq_scsi_device **v, *s;
	unsigned int n = 0, max = 1;
	unsigned long flags;

	spin_lock_irqsave(&shost->host_lock, flags);
	list_for_each_entry(s, &shost->__devices, siblings)
		max++;
	spin_unlock_irqrestore(&shost->host_lock, flags);
	v = kcalloc(max + 1, sizeof(*v), GFP_NOIO);
	get_device(&sdev->sdev_gendev);
	if (!v) {
		*nr = 1;
		return NULL;
	}
	v[n++] = sdev;
	spin_lock_irqsave(&shost->host_lock, flags);
	list_for_each_entry(s, &shost->__devices, siblings) {
		if (n == max)
			break;
		if (s != sdev && smq_eh_in_scope(sdev, s, scope) &&
		    get_device(&s->sdev_gendev))
			v[n++] = s;
	}
	spin_unlock_irqrestore(&shost->host_lock, flags);
	*nr = n;
	return v;
}

static void smq_eh_put_sdevs(struct smq_scsi_device *sdev,
			     struct smq_scsi_device **v, unsigned int nr)
{
	unsigned int i;

	if (!v) {
		put_device(&sdev->sdev_gendev);
		return;
	}
	for (i = 0; i < nr; i++)
		put_device(&v[i]->sdev_gendev);
	kfree(v);
}

struct smq_eh_reclaim {
	struct smq_queue *q;
	unsigned int count;
};

/* Claim one command a reset killed and finish it with DID_RESET. */
static bool smq_eh_reclaim_one(struct smq_request *rq, void *data)
{
	struct smq_eh_reclaim *r = data;
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
	u32 gen;

	/*
	 * The iterator saw it IN_FLIGHT: read gen after that state (pairs
	 * with the release in smq_start_request()), and the queue after gen.
	 * If the claim below keeps incarnation @gen, it was in flight all
	 * along, so the queue read belongs to it.
	 */
	smp_rmb();
	gen = READ_ONCE(rq->gen);
	smp_rmb();	/* gen before q, as above */
	if (READ_ONCE(rq->q) != r->q)
		return true;
	/* Kept only if incarnation @gen (of r->q, read after it) is in flight. */
	if (!smq_rq_claim_gen(rq, gen))
		return true;
	smq_scsi_set_result(cmd, SMQ_DID_RESET, SMQ_SAM_GOOD);
	cmd->sense_len = 0;
	cmd->resid = cmd->transfer_len;
	smq_scsi_finish_command(cmd);
	r->count++;
	return true;
}

/*
 * A reset of @scope succeeded: every command of its LUNs that the driver
 * had not completed is dead.  Mark the LUNs reset and reclaim those
 * commands.  The LUNs are blocked, so none is being dispatched.
 */
static void smq_eh_reclaim(struct smq_scsi_cmnd *cmd,
			   struct smq_scsi_device **v, unsigned int nr)
{
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_eh_reclaim r = { };
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct smq_scsi_device *s = v ? v[i] : sdev;

		WRITE_ONCE(s->eh_reset_seq, s->eh_reset_seq + 1);
		if (s == sdev) {
			/* Our own request keeps this queue alive. */
			r.q = smq_scsi_cmd_to_rq(cmd)->q;
			smq_queue_busy_iter(r.q, smq_eh_reclaim_one, &r);
			continue;
		}
		/* Removal holds it for writing while the queue goes away. */
		if (!down_read_trylock(&s->queue_rwsem))
			continue;
		r.q = s->queue;
		if (r.q)
			smq_queue_busy_iter(r.q, smq_eh_reclaim_one, &r);
		up_read(&s->queue_rwsem);
	}
	if (r.count)
		smq_dev_warn(&sdev->sdev_gendev,
			     "reclaimed %u command(s) killed by the reset\n",
			     r.count);
}

static void smq_eh_block(struct smq_scsi_device **v, unsigned int nr,
			 struct smq_scsi_device *sdev)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		atomic_inc(&(v ? v[i] : sdev)->eh_blocked);
	/* Dispatches that did not see the block are over after this. */
	synchronize_rcu();
}

static void smq_eh_unblock_one(struct smq_scsi_device *s)
{
	if (!atomic_dec_and_test(&s->eh_blocked))
		return;
	if (down_read_trylock(&s->queue_rwsem)) {
		if (s->queue)
			smq_run_hw_queues(s->queue, true);
		up_read(&s->queue_rwsem);
	}
}

/* After a reset step that succeeded: reclaim, then TEST UNIT READY. */
static int smq_eh_after_reset(struct smq_scsi_cmnd *cmd, int rtn,
			      struct smq_scsi_device **v, unsigned int nr)
{
	if (rtn != SMQ_EH_SUCCESS)
		return rtn;
	smq_eh_reclaim(cmd, v, nr);
	return smq_eh_tur(cmd);
}

static int smq_eh_lun_reset(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_device *sdev = cmd->device;
	int rtn;

	smq_dev_warn(&sdev->sdev_gendev, "resetting the LUN\n");
	rtn = smq_eh_try(sdev->host->hostt->eh_device_reset_handler, cmd);
	return smq_eh_after_reset(cmd, rtn, NULL, 1);
}

static int smq_eh_target_reset(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_device **v;
	unsigned int nr, i;
	int rtn;

	if (!sdev->host->hostt->eh_target_reset_handler)
		return SMQ_EH_FAILED;
	smq_dev_warn(&sdev->sdev_gendev, "resetting target %u:%u:%u\n",
		     sdev->host->host_no, sdev->channel, sdev->id);
	v = smq_eh_get_sdevs(sdev, SMQ_EH_SCOPE_TARGET, &nr);
	smq_eh_block(v, nr, sdev);
	rtn = sdev->host->hostt->eh_target_reset_handler(cmd);
	if (rtn == SMQ_EH_SUCCESS)
		smq_eh_reclaim(cmd, v, nr);
	for (i = 0; i < nr; i++)
		smq_eh_unblock_one(v ? v[i] : sdev);
	smq_eh_put_sdevs(sdev, v, nr);
	return rtn == SMQ_EH_SUCCESS ? smq_eh_tur(cmd) : rtn;
}

/* Host reset: the host is in recovery (no dispatch) while it runs. */
static int smq_eh_host_reset(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_host *shost = sdev->host;
	struct smq_scsi_device **v;
	bool recovering;
	unsigned int nr;
	int rtn;

	if (!shost->hostt->eh_host_reset_handler)
		return SMQ_EH_FAILED;
	smq_dev_warn(&sdev->sdev_gendev, "resetting host%u\n", shost->host_no);
	v = smq_eh_get_sdevs(sdev, SMQ_EH_SCOPE_HOST, &nr);
	recovering = !smq_host_set_state(shost, SMQ_HOST_RECOVERY);
	synchronize_rcu();
	rtn = shost->hostt->eh_host_reset_handler(cmd);
	if (rtn == SMQ_EH_SUCCESS)
		smq_eh_reclaim(cmd, v, nr);
	if (recovering) {
		smq_host_set_state(shost, SMQ_HOST_RUNNING);
		wake_up_all(&shost->host_wait);
		smq_scsi_run_host_queues(shost);
	}
	smq_eh_put_sdevs(sdev, v, nr);
	return rtn == SMQ_EH_SUCCESS ? smq_eh_tur(cmd) : rtn;
}

/* Run the escalation for an owned, timed-out command; its LUN is blocked. */
static int smq_eh_escalate(struct smq_scsi_cmnd *cmd)
{
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_host *shost = sdev->host;
	struct device *dev = &sdev->sdev_gendev;
	int rtn = SMQ_EH_FAILED;

	if (smq_eh_past_deadline(shost))
		goto host;
	smq_dev_warn(dev, "command 0x%02x timed out (tag %u, retries %d/%d): aborting\n",
		     cmd->cmnd[0], smq_scsi_cmd_tag(cmd), cmd->retries,
		     cmd->allowed);
	rtn = smq_eh_try(shost->hostt->eh_abort_handler, cmd);
	if (rtn == SMQ_EH_SUCCESS)
		rtn = smq_eh_tur(cmd);
	if (rtn == SMQ_EH_SUCCESS)
		return rtn;
	if (smq_eh_past_deadline(shost))
		goto host;
	if (smq_eh_lun_reset(cmd) == SMQ_EH_SUCCESS)
		return SMQ_EH_SUCCESS;
	if (smq_eh_past_deadline(shost))
		goto host;
	if (smq_eh_target_reset(cmd) == SMQ_EH_SUCCESS)
		return SMQ_EH_SUCCESS;
host:
	if (smq_eh_past_deadline(shost))
		smq_dev_warn(dev, "eh_deadline passed: skipping to host reset\n");
	return smq_eh_host_reset(cmd);
}

/**
 * smq_eh_work - recover one timed-out command (cmd->eh_work)
 * @work: the command's eh_work
 */
void smq_eh_work(struct work_struct *work)
{
	struct smq_scsi_cmnd *cmd = container_of(work, struct smq_scsi_cmnd,
						 eh_work);
	struct smq_scsi_device *sdev = cmd->device;
	struct smq_scsi_host *shost = sdev->host;
	struct smq_request *rq = smq_scsi_cmd_to_rq(cmd);
	struct smq_eh_saved saved;
	u8 host_byte = SMQ_DID_RESET;
	int rtn = SMQ_EH_SUCCESS;

	smq_eh_block(NULL, 1, sdev);
	clear_bit(SMQ_SCMD_STATE_TRANSPORT_DOWN, &cmd->state);
	/* Else a reset since its timeout killed it and recovered the LUN. */
	if (cmd->eh_seq == READ_ONCE(sdev->eh_reset_seq)) {
		smq_eh_save(cmd, &saved);
		rtn = smq_eh_escalate(cmd);
		smq_eh_restore(cmd, &saved);
		host_byte = SMQ_DID_TIME_OUT;
	}

	if (rtn == SMQ_EH_SUCCESS) {
		smq_scsi_set_result(cmd, host_byte, SMQ_SAM_GOOD);
	} else if (test_bit(SMQ_SCMD_STATE_TRANSPORT_DOWN, &cmd->state)) {
		/*
		 * The driver fails commands fast: its transport is gone for
		 * longer than it waits.  Not the LUN's fault: it stays
		 * running and works again with the transport (Linux keeps
		 * such a LUN transport-offline, not offline).
		 */
		smq_dev_err(&sdev->sdev_gendev,
			    "error recovery failed: transport down, LUN kept\n");
		smq_scsi_set_result(cmd, SMQ_DID_TRANSPORT_FAILFAST,
				    SMQ_SAM_GOOD);
	} else {
		smq_dev_err(&sdev->sdev_gendev,
			    "error recovery failed: taking the LUN offline\n");
		smq_scsi_device_set_state(sdev, SMQ_SDEV_OFFLINE);
		smq_scsi_set_result(cmd, SMQ_DID_NO_CONNECT, SMQ_SAM_GOOD);
	}
	cmd->sense_len = 0;
	cmd->resid = cmd->transfer_len;
	/* Unblock while the command still holds the queue alive. */
	if (atomic_dec_and_test(&sdev->eh_blocked))
		smq_run_hw_queues(rq->q, true);
	smq_scsi_finish_command(cmd);
	atomic_dec(&shost->eh_active);
}
