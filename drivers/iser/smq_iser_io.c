// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: the I/O path.  A command is one SCSI Command PDU sent with the
 * iSER header naming our registered buffer (the target moves the data by
 * RDMA Write for reads and RDMA Read for writes), and one SCSI Response
 * back.  Its slot on the connection is released by the last of: the send
 * completion, the response, the invalidation of the registration (done by
 * the target with Send with Invalidate, else by a local invalidate).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ratelimit.h>
#include <rdma/mr_pool.h>

#include "smq_iser.h"

#define SMQ_SAM_CHECK_CONDITION	0x02

static u32 smq_iser_task_itt(struct smq_iser_task *t)
{
	t->gen = (t->gen + 1) & 0x7fff;
	return ((u32)t->gen << 16) | (u32)(t - t->conn->tasks);
}

static struct smq_iser_task *smq_iser_find_task(struct smq_iser_conn *conn,
						u32 itt)
{
	u32 idx = itt & 0xffff;
	struct smq_iser_task *t;

	lockdep_assert_held(&conn->lock);
	if (itt & SMQ_ISER_ITT_CTRL || idx >= conn->nr_tasks)
		return NULL;
	t = &conn->tasks[idx];
	if (!t->cmd || t->itt != itt)
		return NULL;
	return t;
}

/* The last reference: give the buffer back and complete (or forget). */
static void smq_iser_task_release(struct smq_iser_task *t)
{
	struct smq_iser_conn *conn = t->conn;
	struct smq_scsi_cmnd *cmd = t->cmd;
	bool forgotten;

	if (t->mr) {
		ib_mr_pool_put(conn->qp, &conn->qp->rdma_mrs, t->mr);
		t->mr = NULL;
	}
	if (t->nents) {
		ib_dma_unmap_sg(conn->cm_id->device, cmd->sgl, cmd->sg_count,
				cmd->sc_data_direction);
		t->nents = 0;
	}
	spin_lock_bh(&conn->lock);
	forgotten = t->forgotten;
	WRITE_ONCE(t->cmd, NULL);
	spin_unlock_bh(&conn->lock);
	if (forgotten)
		wake_up_all(&conn->wait);
	else
		smq_scsi_done_gen(cmd, t->cmd_gen);
}

static void smq_iser_task_put(struct smq_iser_task *t)
{
	if (atomic_dec_and_test(&t->ref))
		smq_iser_task_release(t);
}

static void smq_iser_wc_error(struct smq_iser_conn *conn, struct ib_wc *wc,
			      const char *what)
{
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	pr_err_ratelimited("host%u session %u: %s failed: %s\n",
			   conn->ihost->shost->host_no, conn->idx, what,
			   ib_wc_status_msg(wc->status));
	smq_iser_conn_failure(conn, what);
}

void smq_iser_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smq_iser_task *t = container_of(wc->wr_cqe, struct smq_iser_task,
					       send_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS))
		smq_iser_wc_error(t->conn, wc, "send");
	smq_iser_task_put(t);
}

void smq_iser_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smq_iser_task *t = container_of(wc->wr_cqe, struct smq_iser_task,
					       reg_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS))
		smq_iser_wc_error(t->conn, wc, "memory registration");
}

void smq_iser_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smq_iser_task *t = container_of(wc->wr_cqe, struct smq_iser_task,
					       inv_cqe);

	if (unlikely(wc->status != IB_WC_SUCCESS))
		smq_iser_wc_error(t->conn, wc, "local invalidate");
	smq_iser_task_put(t);
}

/* Post a local invalidate of @t's registration, holding a reference. */
static void smq_iser_post_inv(struct smq_iser_conn *conn,
			      struct smq_iser_task *t)
{
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.wr_cqe = &t->inv_cqe,
		.send_flags = IB_SEND_SIGNALED,
		.ex.invalidate_rkey = t->mr->rkey,
	};

	lockdep_assert_held(&conn->lock);
	atomic_inc(&t->ref);
	if (ib_post_send(conn->qp, &wr, NULL)) {
		/* The QP is in error: the drain ends the connection. */
		atomic_dec(&t->ref);
		smq_iser_conn_failure(conn, "local invalidate");
	}
}

/* Map and register @cmd's data; fill the iSER header's STag and VA. */
static int smq_iser_reg_data(struct smq_iser_conn *conn,
			     struct smq_iser_task *t,
			     struct smq_scsi_cmnd *cmd, struct ib_reg_wr *reg)
{
	struct ib_device *dev = conn->cm_id->device;
	struct ib_mr *mr;
	int n;

	n = ib_dma_map_sg(dev, cmd->sgl, cmd->sg_count, cmd->sc_data_direction);
	if (!n)
		return -ENOMEM;
	t->nents = n;
	mr = ib_mr_pool_get(conn->qp, &conn->qp->rdma_mrs);
	if (!mr)
		goto unmap;
	if (ib_map_mr_sg(mr, cmd->sgl, n, NULL, PAGE_SIZE) != n) {
		pr_err_ratelimited("host%u: data of %u bytes in %d segments does not register\n",
				   conn->ihost->shost->host_no,
				   cmd->transfer_len, n);
		ib_mr_pool_put(conn->qp, &conn->qp->rdma_mrs, mr);
		goto unmap;
	}
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	t->mr = mr;
	memset(reg, 0, sizeof(*reg));
	reg->wr.opcode = IB_WR_REG_MR;
	reg->wr.wr_cqe = &t->reg_cqe;
	reg->mr = mr;
	reg->key = mr->rkey;
	reg->access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
		      IB_ACCESS_REMOTE_WRITE;
	return 0;
unmap:
	ib_dma_unmap_sg(dev, cmd->sgl, cmd->sg_count, cmd->sc_data_direction);
	t->nents = 0;
	return -ENOMEM;
}

static void smq_iser_build_cmd_pdu(struct smq_iser_conn *conn,
				   struct smq_iser_task *t,
				   struct smq_scsi_cmnd *cmd)
{
	bool rd = cmd->sc_data_direction == DMA_FROM_DEVICE;
	bool wr = cmd->sc_data_direction == DMA_TO_DEVICE;
	struct smq_iscsi_cmd_args a = {
		.lun = cmd->device->lun,
		.itt = t->itt,
		.cmdsn = t->cmdsn,
		.expstatsn = conn->expstatsn,
		.edtl = cmd->transfer_len,
		.read = rd && cmd->transfer_len,
		.write = wr && cmd->transfer_len,
		.attr = SMQ_ISCSI_ATTR_SIMPLE,
		.cdb = cmd->cmnd,
		.cdb_len = cmd->cmd_len,
	};
	u32 stag = t->mr ? t->mr->rkey : 0;
	u64 va = t->mr ? t->mr->iova : 0;

	lockdep_assert_held(&conn->lock);
	smq_iser_build_hdr(t->hdr, stag, va, a.read, stag, va, a.write);
	smq_iscsi_build_cmd(t->hdr + SMQ_ISER_HDR_LEN, &a);
}

/*
 * What a command meets on a connection that is not up: a transport error
 * once the replacement timeout expired, no connection while the host goes
 * away, else busy (it passed the host's block just before the loss; the
 * retry waits behind the block).
 */
static int smq_iser_not_up(struct smq_iser_conn *conn,
			   struct smq_scsi_cmnd *cmd)
{
	u8 host_byte;

	if (READ_ONCE(conn->ihost->removing))
		host_byte = SMQ_DID_NO_CONNECT;
	else if (READ_ONCE(conn->failfast))
		host_byte = SMQ_DID_TRANSPORT_FAILFAST;
	else
		return SMQ_MLQUEUE_HOST_BUSY;
	smq_scsi_set_result(cmd, host_byte, 0);
	cmd->resid = cmd->transfer_len;
	smq_scsi_done(cmd);
	return 0;
}

/**
 * smq_iser_queuecommand - send one SCSI command (->queuecommand)
 * @shost: the host
 * @cmd: the command
 *
 * Runs on the session of the command's hardware queue.  A closed CmdSN
 * window or a connection being recovered is a busy host: the midlayer
 * retries.  Does not sleep, allocates nothing.
 *
 * Return: 0 or SMQ_MLQUEUE_HOST_BUSY.
 */
int smq_iser_queuecommand(struct smq_scsi_host *shost,
			  struct smq_scsi_cmnd *cmd)
{
	struct smq_iser_host *ih = smq_iser_host(shost);
	struct smq_iser_cmd *icmd = smq_scsi_cmd_priv(cmd);
	u32 tag = smq_scsi_cmd_queue_tag(cmd);
	unsigned int q = smq_scsi_cmd_hwq(cmd);
	struct smq_iser_conn *conn;
	struct smq_iser_task *t;
	struct ib_reg_wr reg;
	struct ib_sge sge;
	struct ib_send_wr send = {}, *first = &send;
	int ret;

	/*
	 * Fewer hardware queues than sessions (a legacy host has one):
	 * spread by the submitting CPU.  The tag is unique on the hardware
	 * queue, hence on every session it feeds.
	 */
	if (smq_scsi_host_hw_queues(shost) < ih->opts.queues)
		q = raw_smp_processor_id();
	conn = &ih->conns[q % ih->opts.queues];
	if (unlikely(tag >= conn->nr_tasks ||
		     cmd->cmd_len > SMQ_ISCSI_CDB_MAX)) {
		smq_scsi_set_result(cmd, SMQ_DID_ERROR, 0);
		smq_scsi_done(cmd);
		return 0;
	}
	t = &conn->tasks[tag];

	spin_lock_bh(&conn->lock);
	if (unlikely(conn->state != SMQ_ISER_UP)) {
		spin_unlock_bh(&conn->lock);
		return smq_iser_not_up(conn, cmd);
	}
	if (unlikely(!smq_iscsi_window_open(&conn->win, conn->cmdsn) ||
		     t->cmd)) {
		conn->busy_window++;
		spin_unlock_bh(&conn->lock);
		return SMQ_MLQUEUE_HOST_BUSY;
	}
	if (cmd->transfer_len && cmd->sc_data_direction != DMA_NONE) {
		if (smq_iser_reg_data(conn, t, cmd, &reg)) {
			conn->busy_reg++;
			spin_unlock_bh(&conn->lock);
			return SMQ_MLQUEUE_HOST_BUSY;
		}
		reg.wr.next = &send;
		first = &reg.wr;
	}
	t->cmd = cmd;
	t->rsp = false;
	t->forgotten = false;
	t->remote_inv = false;
	t->itt = smq_iser_task_itt(t);
	t->cmd_gen = smq_scsi_cmd_gen(cmd);
	t->cmdsn = conn->cmdsn;
	atomic_set(&t->ref, 2);
	smq_iser_build_cmd_pdu(conn, t, cmd);
	ib_dma_sync_single_for_device(conn->cm_id->device, t->hdr_dma,
				      SMQ_ISER_HDRS_LEN, DMA_TO_DEVICE);
	sge.addr = t->hdr_dma;
	sge.length = SMQ_ISER_HDRS_LEN;
	sge.lkey = conn->pd->local_dma_lkey;
	send.wr_cqe = &t->send_cqe;
	send.sg_list = &sge;
	send.num_sge = 1;
	send.opcode = IB_WR_SEND;
	send.send_flags = IB_SEND_SIGNALED;
	icmd->conn = conn;
	icmd->task = t;
	ret = ib_post_send(conn->qp, first, NULL);
	if (unlikely(ret)) {
		t->cmd = NULL;
		conn->busy_post++;
		spin_unlock_bh(&conn->lock);
		if (t->mr) {
			ib_mr_pool_put(conn->qp, &conn->qp->rdma_mrs, t->mr);
			t->mr = NULL;
		}
		if (t->nents)
			ib_dma_unmap_sg(conn->cm_id->device, cmd->sgl,
					cmd->sg_count, cmd->sc_data_direction);
		t->nents = 0;
		return SMQ_MLQUEUE_HOST_BUSY;
	}
	conn->cmdsn++;
	spin_unlock_bh(&conn->lock);
	return 0;
}

/* Status, residual and sense of a SCSI Response into the command. */
static void smq_iser_set_result(struct smq_scsi_cmnd *cmd,
				const struct smq_iscsi_pdu *p)
{
	const u8 *sense;
	unsigned int slen;

	if (p->u.scsi.response != SMQ_ISCSI_RSP_COMPLETED) {
		smq_scsi_set_result(cmd, SMQ_DID_ERROR, 0);
		cmd->resid = cmd->transfer_len;
		return;
	}
	smq_scsi_set_result(cmd, SMQ_DID_OK, p->u.scsi.status);
	cmd->resid = 0;
	if (p->u.scsi.underflow)
		cmd->resid = min(p->u.scsi.residual, cmd->transfer_len);
	cmd->sense_len = 0;
	if (p->u.scsi.status == SMQ_SAM_CHECK_CONDITION &&
	    !smq_iscsi_rsp_sense(p, &sense, &slen) && slen) {
		slen = min_t(unsigned int, slen, SMQ_SENSE_BUFFERSIZE);
		memcpy(cmd->sense_buffer, sense, slen);
		cmd->sense_len = slen;
	}
}

static void smq_iser_scsi_rsp(struct smq_iser_conn *conn,
			      const struct smq_iscsi_pdu *p, struct ib_wc *wc)
{
	struct smq_iser_task *t;

	spin_lock_bh(&conn->lock);
	t = smq_iser_find_task(conn, p->itt);
	if (!t || t->rsp || t->forgotten) {
		conn->stale_rsp++;
		spin_unlock_bh(&conn->lock);
		pr_debug("host%u: response for unknown ITT %#x dropped\n",
			 conn->ihost->shost->host_no, p->itt);
		return;
	}
	t->remote_inv = t->mr && (wc->wc_flags & IB_WC_WITH_INVALIDATE) &&
			wc->ex.invalidate_rkey == t->mr->rkey;
	if (unlikely(atomic_add_unless(&conn->ihost->drop_rsp, -1, 0))) {
		/* Injected loss: the command times out, the EH takes over. */
		spin_unlock_bh(&conn->lock);
		return;
	}
	t->rsp = true;
	/* Not into a reissue the error handler made meanwhile. */
	if (smq_scsi_cmd_gen(t->cmd) == t->cmd_gen)
		smq_iser_set_result(t->cmd, p);
	if (t->mr && !t->remote_inv)
		smq_iser_post_inv(conn, t);
	spin_unlock_bh(&conn->lock);
	smq_iser_task_put(t);
}

/**
 * smq_iser_window_rx - take ExpStatSN and the CmdSN window from a PDU
 * @conn: its connection
 * @p: the parsed PDU
 */
void smq_iser_window_rx(struct smq_iser_conn *conn,
			const struct smq_iscsi_pdu *p)
{
	spin_lock_bh(&conn->lock);
	smq_iscsi_window_update(&conn->win, p->expcmdsn, p->maxcmdsn);
	/* A NOP-In that is not an answer carries no new StatSN. */
	if (p->opcode != SMQ_ISCSI_OP_NOOP_IN || p->itt != SMQ_ISCSI_RSVD_TAG) {
		if (p->opcode != SMQ_ISCSI_OP_REJECT &&
		    !smq_iscsi_sn_lt(p->statsn + 1, conn->expstatsn))
			conn->expstatsn = p->statsn + 1;
	}
	spin_unlock_bh(&conn->lock);
}

static void smq_iser_async(struct smq_iser_conn *conn,
			   const struct smq_iscsi_pdu *p)
{
	switch (p->u.async.event) {
	case SMQ_ISCSI_ASYNC_SCSI:
		pr_info_ratelimited("host%u: asynchronous SCSI event on LUN %llu\n",
				    conn->ihost->shost->host_no, p->lun);
		break;
	case SMQ_ISCSI_ASYNC_LOGOUT_REQ:
	case SMQ_ISCSI_ASYNC_DROP_CONN:
	case SMQ_ISCSI_ASYNC_DROP_ALL:
		smq_iser_conn_failure(conn, "target asked to log out");
		break;
	default:
		pr_info_ratelimited("host%u: asynchronous event %u ignored\n",
				    conn->ihost->shost->host_no,
				    p->u.async.event);
	}
}

/*
 * Fault injection (hostN/iser_late_responses): keep this SCSI Response and
 * deliver it SMQ_ISER_LATE_MS later, as a target or fabric that answers
 * after the initiator gave up would.  True when it was held.
 */
static bool smq_iser_hold_late(struct smq_iser_conn *conn,
			       struct smq_iser_rx *rx, struct ib_wc *wc)
{
	bool held = false;

	if (likely(!atomic_read(&conn->ihost->late_rsp)))
		return false;
	spin_lock_bh(&conn->lock);
	if (!conn->late_held && wc->byte_len <= SMQ_ISER_RX_LEN &&
	    atomic_add_unless(&conn->ihost->late_rsp, -1, 0)) {
		memcpy(conn->late_buf, rx->buf, wc->byte_len);
		conn->late_len = wc->byte_len;
		conn->late_wc.wc_flags = wc->wc_flags;
		conn->late_wc.ex.invalidate_rkey = wc->ex.invalidate_rkey;
		conn->late_epoch = READ_ONCE(conn->epoch);
		conn->late_held = true;
		held = true;
	}
	spin_unlock_bh(&conn->lock);
	if (held)
		queue_delayed_work(smq_iser_wq, &conn->late_work,
				   msecs_to_jiffies(SMQ_ISER_LATE_MS));
	return held;
}

/**
 * smq_iser_late_work - deliver a held SCSI Response (conn->late_work)
 * @work: the work item
 *
 * Under mgmt_mutex, so the connection it arrived on cannot be torn down
 * meanwhile; dropped if that connection is gone.  Its command has usually
 * timed out and been taken back by then: the response must match nothing.
 */
void smq_iser_late_work(struct work_struct *work)
{
	struct smq_iser_conn *conn = container_of(to_delayed_work(work),
						  struct smq_iser_conn,
						  late_work);
	struct smq_iscsi_pdu p;

	mutex_lock(&conn->mgmt_mutex);
	if (READ_ONCE(conn->state) == SMQ_ISER_UP &&
	    conn->late_epoch == conn->epoch &&
	    !smq_iscsi_parse_pdu(conn->late_buf + SMQ_ISER_HDR_LEN,
				 conn->late_len - SMQ_ISER_HDR_LEN, &p))
		smq_iser_scsi_rsp(conn, &p, &conn->late_wc);
	spin_lock_bh(&conn->lock);
	conn->late_held = false;
	spin_unlock_bh(&conn->lock);
	mutex_unlock(&conn->mgmt_mutex);
}

/* One PDU from the target; false: the connection must go. */
static bool smq_iser_rx_pdu(struct smq_iser_conn *conn, struct smq_iser_rx *rx,
			    struct ib_wc *wc)
{
	struct smq_iscsi_pdu p;
	unsigned int len = wc->byte_len;
	int ret;

	if (len < SMQ_ISER_HDRS_LEN ||
	    (rx->buf[0] & SMQ_ISER_OPCODE_MASK) != SMQ_ISER_ISCSI_CTRL) {
		pr_err_ratelimited("host%u: malformed iSER PDU (%u bytes, flags %#x)\n",
				   conn->ihost->shost->host_no, len, rx->buf[0]);
		return false;
	}
	ret = smq_iscsi_parse_pdu(rx->buf + SMQ_ISER_HDR_LEN,
				  len - SMQ_ISER_HDR_LEN, &p);
	if (ret) {
		pr_err_ratelimited("host%u: malformed iSCSI PDU, opcode %#x (%d)\n",
				   conn->ihost->shost->host_no,
				   rx->buf[SMQ_ISER_HDR_LEN] & SMQ_ISCSI_OP_MASK, ret);
		return false;
	}
	if (p.opcode != SMQ_ISCSI_OP_LOGIN_RSP)
		smq_iser_window_rx(conn, &p);
	switch (p.opcode) {
	case SMQ_ISCSI_OP_SCSI_RSP:
		if (!smq_iser_hold_late(conn, rx, wc))
			smq_iser_scsi_rsp(conn, &p, wc);
		break;
	case SMQ_ISCSI_OP_NOOP_IN:
		if (p.itt != SMQ_ISCSI_RSVD_TAG)
			smq_iser_nop_in(conn, &p);
		if (p.ttt != SMQ_ISCSI_RSVD_TAG)
			smq_iser_nop_reply(conn, &p);
		break;
	case SMQ_ISCSI_OP_ASYNC:
		smq_iser_async(conn, &p);
		break;
	case SMQ_ISCSI_OP_REJECT:
		pr_err_ratelimited("host%u session %u: target rejected a PDU (reason %#x)\n",
				   conn->ihost->shost->host_no, conn->idx,
				   p.u.reject.reason);
		return false;
	default:
		/* Login, text, TMF and logout responses */
		smq_iser_mgmt_answer(conn, &p, rx->buf, len);
		break;
	}
	return true;
}

void smq_iser_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smq_iser_rx *rx = container_of(wc->wr_cqe, struct smq_iser_rx,
					      cqe);
	struct smq_iser_conn *conn = rx->conn;
	struct ib_device *dev = conn->cm_id->device;

	if (unlikely(wc->status != IB_WC_SUCCESS)) {
		smq_iser_wc_error(conn, wc, "receive");
		return;
	}
	ib_dma_sync_single_for_cpu(dev, rx->dma, rx->len, DMA_FROM_DEVICE);
	WRITE_ONCE(conn->last_rx, jiffies);	/* the keepalive's clock */
	if (!smq_iser_rx_pdu(conn, rx, wc)) {
		smq_iser_conn_failure(conn, "protocol error");
		return;
	}
	ib_dma_sync_single_for_device(dev, rx->dma, rx->len, DMA_FROM_DEVICE);
	if (smq_iser_post_recv(conn, rx))
		smq_iser_conn_failure(conn, "receive post");
}

/**
 * smq_iser_post_recv - post a receive buffer
 * @conn: the connection
 * @rx: one of its buffers
 *
 * Return: 0 or the post's error (the QP is in error).
 */
int smq_iser_post_recv(struct smq_iser_conn *conn, struct smq_iser_rx *rx)
{
	struct ib_sge sge = {
		.addr = rx->dma,
		.length = rx->len,
		.lkey = conn->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &rx->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	return ib_post_recv(conn->qp, &wr, NULL);
}

/**
 * smq_iser_reap_tasks - end every command a drained connection had
 * @conn: the connection, its QP drained (no completion runs any more)
 * @host_byte: result of each command
 * @forget: release without completing (the error handler reclaims them)
 */
void smq_iser_reap_tasks(struct smq_iser_conn *conn, u8 host_byte,
			 bool forget)
{
	unsigned int i;

	for (i = 0; i < conn->nr_tasks; i++) {
		struct smq_iser_task *t = &conn->tasks[i];
		bool drop;

		spin_lock_bh(&conn->lock);
		if (!t->cmd) {
			spin_unlock_bh(&conn->lock);
			continue;
		}
		drop = !t->rsp;
		t->rsp = true;
		if (forget)
			t->forgotten = true;
		if (drop && !t->forgotten &&
		    smq_scsi_cmd_gen(t->cmd) == t->cmd_gen) {
			smq_scsi_set_result(t->cmd, host_byte, 0);
			t->cmd->resid = t->cmd->transfer_len;
		}
		spin_unlock_bh(&conn->lock);
		/* Only the response's reference can be left after a drain. */
		if (drop)
			smq_iser_task_put(t);
		WARN_ON_ONCE(READ_ONCE(t->cmd));
	}
}

/**
 * smq_iser_forget_task - take a command back from a live connection
 * @conn: its connection (mgmt_mutex held)
 * @task: its slot
 * @cmd: the command
 *
 * After a TMF that ended the task at the target: stop waiting for its
 * response, invalidate its registration, and wait until the slot is free.
 *
 * Return: 0 (the driver no longer touches @cmd) or -ETIMEDOUT.
 */
int smq_iser_forget_task(struct smq_iser_conn *conn,
			 struct smq_iser_task *task,
			 struct smq_scsi_cmnd *cmd)
{
	bool drop = false;

	lockdep_assert_held(&conn->mgmt_mutex);
	spin_lock_bh(&conn->lock);
	if (task->cmd != cmd) {
		spin_unlock_bh(&conn->lock);
		return 0;
	}
	task->forgotten = true;
	if (!task->rsp) {
		task->rsp = true;
		drop = true;
		if (task->mr && !task->remote_inv &&
		    conn->state == SMQ_ISER_UP)
			smq_iser_post_inv(conn, task);
	}
	spin_unlock_bh(&conn->lock);
	if (drop)
		smq_iser_task_put(task);
	if (!wait_event_timeout(conn->wait, READ_ONCE(task->cmd) != cmd,
				10 * HZ))
		return -ETIMEDOUT;
	return 0;
}
