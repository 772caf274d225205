// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: error handling.  Every hardware queue is its own iSCSI session
 * (I_T nexus), so a task lives on one session but a LUN on all of them:
 * ABORT TASK goes to the task's session, LOGICAL UNIT RESET to every
 * session (Documentation/smq_iser.md, "Multi-queue and SCSI semantics").
 * A target or host reset reinstates every session (logout is skipped, a
 * new login with the same ISID ends the old session at the target), which
 * drains each connection so nothing of the old tasks can reach memory.
 *
 * A session being recovered (connection lost, logging in again) is waited
 * for, as Linux's iSCSI error handler waits for its session: a command
 * that timed out just before the loss is then forgotten (the teardown
 * drained it), and the LUN is neither reset nor taken offline for a
 * network outage.  Once the replacement timeout expired the session
 * fails commands fast, and so does the error handler's TEST UNIT READY:
 * the midlayer then fails the command and keeps the LUN.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "smq_iser.h"

/**
 * smq_iser_eh_timed_out - a command's timer expired (->eh_timed_out)
 * @cmd: the command
 *
 * While its session is being recovered (and the replacement timeout has
 * not expired) the command waits like every other: no error handling.
 *
 * Return: SMQ_EH_RESET_TIMER or SMQ_EH_DONE.
 */
enum smq_eh_timer_return smq_iser_eh_timed_out(struct smq_scsi_cmnd *cmd)
{
	struct smq_iser_cmd *icmd = smq_scsi_cmd_priv(cmd);
	struct smq_iser_conn *conn = icmd->conn;

	if (conn && READ_ONCE(conn->state) != SMQ_ISER_UP &&
	    !READ_ONCE(conn->failfast) && !READ_ONCE(conn->ihost->removing))
		return SMQ_EH_RESET_TIMER;
	return SMQ_EH_DONE;
}

/* Up, or no longer waited for (replacement timeout expired, removal). */
static bool smq_iser_eh_settled(struct smq_iser_conn *conn)
{
	return READ_ONCE(conn->state) == SMQ_ISER_UP ||
	       READ_ONCE(conn->failfast) || READ_ONCE(conn->ihost->removing);
}

/*
 * Wait until a session being recovered is back or has given up waiting;
 * without mgmt_mutex, under which the recovery logs in.  TASK_IDLE: with
 * replacement_timeout -1 an outage may last any time.
 */
static void smq_iser_eh_wait(struct smq_iser_conn *conn)
{
	if (smq_iser_eh_settled(conn))
		return;
	pr_info("host%u session %u: error handling waits for the session to come back\n",
		conn->ihost->shost->host_no, conn->idx);
	wait_event_idle(conn->wait, smq_iser_eh_settled(conn));
}

/* A session that is not up: end its commands now, let recovery log in. */
static void smq_iser_eh_flush(struct smq_iser_conn *conn)
{
	lockdep_assert_held(&conn->mgmt_mutex);
	if (READ_ONCE(conn->state) == SMQ_ISER_UP)
		return;
	smq_iser_conn_stop(conn, SMQ_DID_REQUEUE, false);
	if (!READ_ONCE(conn->ihost->removing))
		mod_delayed_work(smq_iser_wq, &conn->recover_work, 0);
}

/**
 * smq_iser_eh_abort - abort one command (->eh_abort_handler)
 * @cmd: the timed-out command
 *
 * Return: SMQ_EH_SUCCESS when the driver has forgotten @cmd.
 */
int smq_iser_eh_abort(struct smq_scsi_cmnd *cmd)
{
	struct smq_iser_cmd *icmd = smq_scsi_cmd_priv(cmd);
	struct smq_iser_conn *conn = icmd->conn;
	struct smq_iser_task *t = icmd->task;
	int ret = SMQ_EH_SUCCESS, r;
	bool ours;

	if (!conn)
		return SMQ_EH_SUCCESS;
	smq_iser_eh_wait(conn);
	mutex_lock(&conn->mgmt_mutex);
	smq_iser_eh_flush(conn);
	spin_lock_bh(&conn->lock);
	ours = t->cmd == cmd;
	spin_unlock_bh(&conn->lock);
	if (ours) {
		r = smq_iser_tmf(conn, SMQ_ISCSI_TMF_ABORT_TASK,
				 cmd->device->lun, t);
		if ((r != SMQ_ISCSI_TMF_RSP_COMPLETE &&
		     r != SMQ_ISCSI_TMF_RSP_NO_TASK) ||
		    smq_iser_forget_task(conn, t, cmd))
			ret = SMQ_EH_FAILED;
	}
	mutex_unlock(&conn->mgmt_mutex);
	return ret;
}

/* Forget every command of @sdev on @conn after its LUN reset. */
static int smq_iser_forget_lun(struct smq_iser_conn *conn,
			       struct smq_scsi_device *sdev)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < conn->nr_tasks; i++) {
		struct smq_iser_task *t = &conn->tasks[i];
		struct smq_scsi_cmnd *cmd;

		spin_lock_bh(&conn->lock);
		cmd = t->cmd;
		spin_unlock_bh(&conn->lock);
		if (cmd && cmd->device == sdev &&
		    smq_iser_forget_task(conn, t, cmd))
			ret = -ETIMEDOUT;
	}
	return ret;
}

/**
 * smq_iser_eh_device_reset - reset a LUN on every session
 * @cmd: a command of the LUN
 *
 * Return: SMQ_EH_SUCCESS when every session reset the LUN (or was down,
 * its commands ended) and the driver forgot the LUN's commands.
 */
int smq_iser_eh_device_reset(struct smq_scsi_cmnd *cmd)
{
	struct smq_iser_host *ih = smq_iser_host(cmd->device->host);
	int ret = SMQ_EH_SUCCESS;
	unsigned int i;

	for (i = 0; i < ih->opts.queues; i++) {
		struct smq_iser_conn *conn = &ih->conns[i];
		int r;

		smq_iser_eh_wait(conn);
		mutex_lock(&conn->mgmt_mutex);
		smq_iser_eh_flush(conn);
		if (READ_ONCE(conn->state) == SMQ_ISER_UP) {
			r = smq_iser_tmf(conn, SMQ_ISCSI_TMF_LUN_RESET,
					 cmd->device->lun, NULL);
			if (r != SMQ_ISCSI_TMF_RSP_COMPLETE ||
			    smq_iser_forget_lun(conn, cmd->device))
				ret = SMQ_EH_FAILED;
		}
		mutex_unlock(&conn->mgmt_mutex);
	}
	return ret;
}

/**
 * smq_iser_eh_host_reset - reinstate every session of the host
 * @cmd: a command of the host
 *
 * Also the target reset: a host is one target.  Each connection is torn
 * down (its commands forgotten: the midlayer reclaims them) and logs in
 * again; one that cannot is left to the recovery work.
 *
 * Return: SMQ_EH_SUCCESS when every session is up again.
 */
int smq_iser_eh_host_reset(struct smq_scsi_cmnd *cmd)
{
	struct smq_iser_host *ih = smq_iser_host(cmd->device->host);
	int ret = SMQ_EH_SUCCESS;
	unsigned int i;

	for (i = 0; i < ih->opts.queues; i++) {
		struct smq_iser_conn *conn = &ih->conns[i];

		mutex_lock(&conn->mgmt_mutex);
		smq_iser_conn_stop(conn, SMQ_DID_RESET, true);
		if (READ_ONCE(ih->removing) || smq_iser_conn_start(conn)) {
			smq_iser_conn_stop(conn, SMQ_DID_RESET, true);
			if (!READ_ONCE(ih->removing)) {
				/* An outage: the recovery logs in later. */
				smq_iser_conn_lost(conn);
				mod_delayed_work(smq_iser_wq,
						 &conn->recover_work, 0);
			}
			ret = SMQ_EH_FAILED;
		} else {
			smq_iser_conn_up(conn);
		}
		mutex_unlock(&conn->mgmt_mutex);
	}
	pr_info("host%u: sessions reinstated by reset: %s\n",
		ih->shost->host_no, ret == SMQ_EH_SUCCESS ? "all up" : "not all");
	return ret;
}

/**
 * smq_iser_eh_target_reset - reset the host's one target
 * @cmd: a command of the target
 *
 * Return: as smq_iser_eh_host_reset().
 */
int smq_iser_eh_target_reset(struct smq_scsi_cmnd *cmd)
{
	return smq_iser_eh_host_reset(cmd);
}
