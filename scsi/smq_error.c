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
 * workqueue, one command at a time:
 *   abort -> LUN reset -> host reset -> LUN offline
 * stopping at the first step the driver reports as SMQ_EH_SUCCESS.  A
 * command whose recovery succeeded is finished with DID_TIME_OUT, which
 * retries it while cmd->retries < cmd->allowed and fails it with
 * BLK_STS_TIMEOUT afterwards.  When every step fails the LUN goes offline
 * and the command fails with DID_NO_CONNECT.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/workqueue.h>
#include "smq_scsi_priv.h"

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
	atomic_inc(&shost->eh_active);
	atomic_inc(&shost->host_eh_scheduled);
	queue_work(shost->eh_wq, &cmd->eh_work);
	return SMQ_EH_DONE;
}

static int smq_eh_try(int (*fn)(struct smq_scsi_cmnd *cmd),
		      struct smq_scsi_cmnd *cmd)
{
	return fn ? fn(cmd) : SMQ_EH_FAILED;
}

/* Host reset: the host is in recovery (no dispatch) while it runs. */
static int smq_eh_host_reset(struct smq_scsi_host *shost,
			     struct smq_scsi_cmnd *cmd)
{
	bool recovering;
	int rtn;

	if (!shost->hostt->eh_host_reset_handler)
		return SMQ_EH_FAILED;
	recovering = !smq_host_set_state(shost, SMQ_HOST_RECOVERY);
	rtn = shost->hostt->eh_host_reset_handler(cmd);
	if (recovering) {
		smq_host_set_state(shost, SMQ_HOST_RUNNING);
		wake_up_all(&shost->host_wait);
		smq_scsi_run_host_queues(shost);
	}
	return rtn;
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
	const struct smq_host_template *t = shost->hostt;
	struct device *dev = &sdev->sdev_gendev;
	int rtn;

	smq_dev_warn(dev, "command 0x%02x timed out (tag %u, retries %d/%d): aborting\n",
		     cmd->cmnd[0], smq_scsi_cmd_tag(cmd), cmd->retries,
		     cmd->allowed);
	rtn = smq_eh_try(t->eh_abort_handler, cmd);
	if (rtn != SMQ_EH_SUCCESS) {
		smq_dev_warn(dev, "abort failed: resetting the LUN\n");
		rtn = smq_eh_try(t->eh_device_reset_handler, cmd);
	}
	if (rtn != SMQ_EH_SUCCESS) {
		smq_dev_warn(dev, "LUN reset failed: resetting host%u\n",
			     shost->host_no);
		rtn = smq_eh_host_reset(shost, cmd);
	}

	if (rtn == SMQ_EH_SUCCESS) {
		smq_scsi_set_result(cmd, SMQ_DID_TIME_OUT, SMQ_SAM_GOOD);
	} else {
		smq_dev_err(dev, "error recovery failed: taking the LUN offline\n");
		smq_scsi_device_set_state(sdev, SMQ_SDEV_OFFLINE);
		smq_scsi_set_result(cmd, SMQ_DID_NO_CONNECT, SMQ_SAM_GOOD);
	}
	cmd->sense_len = 0;
	cmd->resid = cmd->transfer_len;
	smq_scsi_finish_command(cmd);
	atomic_dec(&shost->eh_active);
}
