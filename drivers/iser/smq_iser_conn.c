// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: one iSER connection: RDMA CM setup, the QP and CQ, receive and
 * control buffers, teardown, and recovery of a lost connection (relogin
 * with backoff; the replacement timeout turns waiting into failing).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <rdma/mr_pool.h>

#include "smq_iser.h"

#define SMQ_ISER_CM_TIMEOUT_MS		3000
#define SMQ_ISER_BACKOFF_MIN		(HZ / 4)
#define SMQ_ISER_BACKOFF_MAX		HZ

const char *smq_iser_state_name(enum smq_iser_conn_state s)
{
	switch (s) {
	case SMQ_ISER_DOWN:
		return "down";
	case SMQ_ISER_LOGIN:
		return "login";
	case SMQ_ISER_UP:
		return "up";
	case SMQ_ISER_FAILED:
		return "failed";
	case SMQ_ISER_LOGOUT:
		return "logout";
	}
	return "?";
}

/* Arm the replacement timeout of the outage that began at fail_time. */
static void smq_iser_arm_tmo(struct smq_iser_conn *conn)
{
	int tmo = READ_ONCE(conn->ihost->opts.replacement_timeout);
	unsigned long end;

	lockdep_assert_held(&conn->lock);
	if (!conn->fail_time || conn->failfast || tmo < 0) {
		cancel_delayed_work(&conn->tmo_work);
		return;
	}
	end = conn->fail_time + (unsigned long)tmo * HZ;
	mod_delayed_work(smq_iser_wq, &conn->tmo_work,
			 time_after(end, jiffies) ? end - jiffies : 0);
}

/* An outage begins (conn->lock held): block the host, arm the timeout. */
static void smq_iser_outage_start(struct smq_iser_conn *conn)
{
	struct smq_iser_host *ih = conn->ihost;

	lockdep_assert_held(&conn->lock);
	conn->ping_itt = 0;
	if (conn->fail_time)
		return;		/* one outage, one start */
	conn->fail_time = jiffies;
	if (!conn->blocked && !conn->failfast && !READ_ONCE(ih->removing)) {
		conn->blocked = true;
		smq_scsi_block_host(ih->shost);
	}
	smq_iser_arm_tmo(conn);
}

/**
 * smq_iser_conn_lost - a session that is down begins an outage
 * @conn: the connection (a login of the error handler failed)
 *
 * As a lost connection: the host is blocked until the session is back or
 * its replacement timeout expires.  Nothing happens when the outage has
 * begun already.
 */
void smq_iser_conn_lost(struct smq_iser_conn *conn)
{
	spin_lock_bh(&conn->lock);
	smq_iser_outage_start(conn);
	spin_unlock_bh(&conn->lock);
}

/**
 * smq_iser_conn_unblock - end the block this session holds on its host
 * @conn: the connection
 *
 * Process context.  The host's queues run again once no session blocks it.
 */
void smq_iser_conn_unblock(struct smq_iser_conn *conn)
{
	bool was;

	spin_lock_bh(&conn->lock);
	was = conn->blocked;
	conn->blocked = false;
	spin_unlock_bh(&conn->lock);
	if (was)
		smq_scsi_unblock_host(conn->ihost->shost);
}

/**
 * smq_iser_conn_up - a login succeeded: the outage, if any, is over
 * @conn: the connection, logged in (mgmt_mutex held)
 *
 * Commands flow again (the host unblocked, fail-fast off), the keepalive
 * starts, and the error handler waiting for the session is woken.
 */
void smq_iser_conn_up(struct smq_iser_conn *conn)
{
	lockdep_assert_held(&conn->mgmt_mutex);
	spin_lock_bh(&conn->lock);
	conn->fail_time = 0;
	conn->attempts = 0;
	WRITE_ONCE(conn->failfast, false);
	WRITE_ONCE(conn->last_rx, jiffies);
	conn->ping_itt = 0;
	cancel_delayed_work(&conn->tmo_work);
	spin_unlock_bh(&conn->lock);
	mod_delayed_work(smq_iser_wq, &conn->nop_work, 0);
	smq_iser_conn_unblock(conn);
	wake_up_all(&conn->wait);
}

/**
 * smq_iser_conn_rearm - apply changed timeouts to a running session
 * @conn: the connection
 *
 * The replacement timeout of an outage in progress counts from its start
 * with the new value (an expired one fails commands at once); the
 * keepalive looks at its interval again.
 */
void smq_iser_conn_rearm(struct smq_iser_conn *conn)
{
	spin_lock_bh(&conn->lock);
	if (conn->state != SMQ_ISER_UP)
		smq_iser_arm_tmo(conn);
	spin_unlock_bh(&conn->lock);
	mod_delayed_work(smq_iser_wq, &conn->nop_work, 0);
}

/* The replacement timeout expired: fail the commands instead of waiting. */
static void smq_iser_tmo_work(struct work_struct *work)
{
	struct smq_iser_conn *conn = container_of(to_delayed_work(work),
						  struct smq_iser_conn,
						  tmo_work);
	bool expired = false;

	spin_lock_bh(&conn->lock);
	if (conn->state != SMQ_ISER_UP && conn->fail_time && !conn->failfast) {
		WRITE_ONCE(conn->failfast, true);
		expired = true;
	}
	spin_unlock_bh(&conn->lock);
	if (!expired)
		return;
	pr_warn("host%u session %u: replacement_timeout %d s expired: failing I/O until the session is back\n",
		conn->ihost->shost->host_no, conn->idx,
		READ_ONCE(conn->ihost->opts.replacement_timeout));
	smq_iser_conn_unblock(conn);
	wake_up_all(&conn->wait);
}

/**
 * smq_iser_conn_failure - the connection is lost: stop issuing, recover
 * @conn: the connection
 * @why: what was seen, for the log
 *
 * Any context.  The host is blocked from now on (commands wait in their
 * queues, none reaches the driver), the replacement timeout starts, and
 * the recovery work tears the connection down, which requeues the
 * commands in flight, and logs in again.
 */
void smq_iser_conn_failure(struct smq_iser_conn *conn, const char *why)
{
	bool lost = false;

	spin_lock_bh(&conn->lock);
	if (conn->state == SMQ_ISER_UP || conn->state == SMQ_ISER_LOGIN) {
		/* A failing login is retried by whoever started it. */
		if (conn->state == SMQ_ISER_UP) {
			smq_iser_outage_start(conn);
			lost = true;
		}
		conn->state = SMQ_ISER_FAILED;
		/* A login or TMF waiting for an answer gives up now. */
		if (conn->mgmt_itt) {
			conn->mgmt_itt = 0;
			conn->mgmt_rsp = -ECONNRESET;
			complete(&conn->mgmt_done);
		}
	}
	spin_unlock_bh(&conn->lock);
	if (!lost)
		return;
	pr_info("host%u session %u: connection lost (%s)\n",
		conn->ihost->shost->host_no, conn->idx, why);
	mod_delayed_work(smq_iser_wq, &conn->recover_work, 0);
}

static int smq_iser_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct smq_iser_conn *conn = id->context;
	int err = 0;

	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
	case RDMA_CM_EVENT_ESTABLISHED:
		break;
	case RDMA_CM_EVENT_REJECTED:
		err = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		err = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		smq_iser_conn_failure(conn, rdma_event_msg(ev->event));
		err = -ECONNRESET;
		break;
	default:
		return 0;
	}
	conn->cm_event = ev->event;
	conn->cm_error = err;
	complete(&conn->cm_done);
	return 0;
}

/* Wait for the CM event that ends a setup step; anything else fails it. */
static int smq_iser_cm_wait(struct smq_iser_conn *conn, int event)
{
	if (!wait_for_completion_timeout(&conn->cm_done,
					 msecs_to_jiffies(SMQ_ISER_CM_TIMEOUT_MS + 1000)))
		return -ETIMEDOUT;
	if (conn->cm_error)
		return conn->cm_error;
	return conn->cm_event == event ? 0 : -ECONNRESET;
}

static void smq_iser_qp_event(struct ib_event *ev, void *ctx)
{
	struct smq_iser_conn *conn = ctx;

	if (ev->event == IB_EVENT_COMM_EST)
		return;
	smq_iser_conn_failure(conn, ib_event_msg(ev->event));
}

static int smq_iser_map(struct ib_device *dev, void *buf, size_t len,
			enum dma_data_direction dir, u64 *dma)
{
	*dma = ib_dma_map_single(dev, buf, len, dir);
	if (ib_dma_mapping_error(dev, *dma)) {
		*dma = 0;
		return -ENOMEM;
	}
	return 0;
}

static void smq_iser_unmap(struct ib_device *dev, u64 *dma, size_t len,
			   enum dma_data_direction dir)
{
	if (*dma)
		ib_dma_unmap_single(dev, *dma, len, dir);
	*dma = 0;
}

static void smq_iser_unmap_bufs(struct smq_iser_conn *conn,
				struct ib_device *dev)
{
	unsigned int i;

	smq_iser_unmap(dev, &conn->hdrs_dma,
		       (size_t)conn->nr_tasks * SMQ_ISER_HDRS_LEN, DMA_TO_DEVICE);
	for (i = 0; i < conn->nr_rx; i++)
		smq_iser_unmap(dev, &conn->rx[i].dma, conn->rx[i].len,
			       DMA_FROM_DEVICE);
	smq_iser_unmap(dev, &conn->login_rx.dma, conn->login_rx.len,
		       DMA_FROM_DEVICE);
	for (i = 0; i < SMQ_ISER_NR_CTRL; i++)
		smq_iser_unmap(dev, &conn->ctrl[i].dma, SMQ_ISER_LOGIN_LEN,
			       DMA_TO_DEVICE);
}

static int smq_iser_map_bufs(struct smq_iser_conn *conn, struct ib_device *dev)
{
	unsigned int i;
	int ret;

	ret = smq_iser_map(dev, conn->hdrs,
			   (size_t)conn->nr_tasks * SMQ_ISER_HDRS_LEN,
			   DMA_TO_DEVICE, &conn->hdrs_dma);
	for (i = 0; !ret && i < conn->nr_tasks; i++)
		conn->tasks[i].hdr_dma = conn->hdrs_dma +
					 (u64)i * SMQ_ISER_HDRS_LEN;
	for (i = 0; !ret && i < conn->nr_rx; i++)
		ret = smq_iser_map(dev, conn->rx[i].buf, conn->rx[i].len,
				   DMA_FROM_DEVICE, &conn->rx[i].dma);
	if (!ret)
		ret = smq_iser_map(dev, conn->login_rx.buf, conn->login_rx.len,
				   DMA_FROM_DEVICE, &conn->login_rx.dma);
	for (i = 0; !ret && i < SMQ_ISER_NR_CTRL; i++)
		ret = smq_iser_map(dev, conn->ctrl[i].buf, SMQ_ISER_LOGIN_LEN,
				   DMA_TO_DEVICE, &conn->ctrl[i].dma);
	if (ret)
		smq_iser_unmap_bufs(conn, dev);
	return ret;
}

/* PD, CQ, QP, MR pool and the buffers' mappings on the resolved device. */
static int smq_iser_create_qp(struct smq_iser_conn *conn)
{
	struct rdma_cm_id *id = conn->cm_id;
	struct ib_device *dev = id->device;
	struct ib_qp_init_attr attr = {};
	unsigned int nr_send = conn->nr_tasks * 3 + SMQ_ISER_NR_CTRL + 1;
	unsigned int nr_recv = conn->nr_rx + 2;
	int ret;

	conn->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(conn->pd)) {
		ret = PTR_ERR(conn->pd);
		conn->pd = NULL;
		return ret;
	}
	conn->cq = ib_alloc_cq(dev, conn, nr_send + nr_recv,
			       conn->idx % dev->num_comp_vectors,
			       IB_POLL_SOFTIRQ);
	if (IS_ERR(conn->cq)) {
		ret = PTR_ERR(conn->cq);
		conn->cq = NULL;
		return ret;
	}
	attr.event_handler = smq_iser_qp_event;
	attr.qp_context = conn;
	attr.send_cq = conn->cq;
	attr.recv_cq = conn->cq;
	attr.cap.max_send_wr = nr_send;
	attr.cap.max_recv_wr = nr_recv;
	attr.cap.max_send_sge = 1;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	ret = rdma_create_qp(id, conn->pd, &attr);
	if (ret)
		return ret;
	conn->qp = id->qp;
	ret = ib_mr_pool_init(conn->qp, &conn->qp->rdma_mrs, conn->nr_tasks,
			      IB_MR_TYPE_MEM_REG, SMQ_ISER_SG_TABLESIZE + 1, 0);
	if (ret)
		return ret;
	return smq_iser_map_bufs(conn, dev);
}

static int smq_iser_connect(struct smq_iser_conn *conn)
{
	struct rdma_conn_param param = {};
	struct smq_iser_cm_hdr hdr;
	struct ib_device *dev = conn->cm_id->device;

	/* Remote invalidation: the target ends our registration itself. */
	smq_iser_build_cm_hdr((u8 *)&hdr, false);
	param.private_data = &hdr;
	param.private_data_len = sizeof(hdr);
	param.responder_resources = dev->attrs.max_qp_rd_atom;
	param.initiator_depth = 1;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	reinit_completion(&conn->cm_done);
	if (rdma_connect(conn->cm_id, &param))
		return -EHOSTUNREACH;
	return smq_iser_cm_wait(conn, RDMA_CM_EVENT_ESTABLISHED);
}

/**
 * smq_iser_conn_start - connect and log in
 * @conn: a connection that is down (mgmt_mutex held)
 *
 * Resolves the portal, creates the QP, connects with the iSER private
 * data and logs in (a reconnect reinstates the session: same ISID).
 * On failure the caller tears down with smq_iser_conn_stop().
 *
 * Return: 0 (the connection is up) or a negative errno.
 */
int smq_iser_conn_start(struct smq_iser_conn *conn)
{
	struct smq_iser_opts *o = &conn->ihost->opts;
	struct sockaddr *src = NULL;
	struct rdma_cm_id *id;
	const char *step;
	int ret;

	lockdep_assert_held(&conn->mgmt_mutex);
	WRITE_ONCE(conn->epoch, conn->epoch + 1);
	id = rdma_create_id(&init_net, smq_iser_cm_handler, conn, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	conn->cm_id = id;
	if (o->src.ss_family != AF_UNSPEC)
		src = (struct sockaddr *)&o->src;
	step = "address resolution";
	reinit_completion(&conn->cm_done);
	ret = rdma_resolve_addr(id, src, (struct sockaddr *)&o->dst,
				SMQ_ISER_CM_TIMEOUT_MS);
	if (!ret)
		ret = smq_iser_cm_wait(conn, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ret)
		goto fail;
	step = "route resolution";
	reinit_completion(&conn->cm_done);
	ret = rdma_resolve_route(id, SMQ_ISER_CM_TIMEOUT_MS);
	if (!ret)
		ret = smq_iser_cm_wait(conn, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ret)
		goto fail;
	step = "QP creation";
	ret = smq_iser_create_qp(conn);
	if (ret)
		goto fail;

	spin_lock_bh(&conn->lock);
	conn->state = SMQ_ISER_LOGIN;
	conn->cmdsn = 1;
	conn->expstatsn = 0;
	memset(&conn->win, 0, sizeof(conn->win));
	spin_unlock_bh(&conn->lock);

	/* Login responses land here; login posts the others before its end. */
	step = "connection";
	ret = smq_iser_post_recv(conn, &conn->login_rx);
	if (!ret)
		ret = smq_iser_connect(conn);
	if (ret)
		goto fail;
	step = "login";
	ret = smq_iser_login(conn);
	if (!ret)
		return 0;
fail:
	/* An authentication failure was logged once, with why, by login. */
	if (smq_iser_conn_log_ok(conn) && ret != -EACCES)
		pr_err("host%u session %u: %pISpc: %s failed (%d)\n",
		       conn->ihost->shost->host_no, conn->idx, &o->dst, step,
		       ret);
	return ret;
}

/**
 * smq_iser_conn_stop - tear a connection down
 * @conn: the connection (mgmt_mutex held)
 * @host_byte: result of the commands it had in flight
 * @forget: do not complete them: the error handler takes them back
 *
 * Disconnects, drains the QP (every completion has run afterwards, the
 * target can no longer reach our memory), ends the commands in flight and
 * frees the RDMA resources.  The connection is down afterwards.
 */
void smq_iser_conn_stop(struct smq_iser_conn *conn, u8 host_byte, bool forget)
{
	struct ib_device *dev = conn->cm_id ? conn->cm_id->device : NULL;

	lockdep_assert_held(&conn->mgmt_mutex);
	spin_lock_bh(&conn->lock);
	conn->state = SMQ_ISER_DOWN;
	spin_unlock_bh(&conn->lock);
	if (!conn->cm_id)
		return;

	if (conn->qp) {
		rdma_disconnect(conn->cm_id);
		ib_drain_qp(conn->qp);
	}
	smq_iser_reap_tasks(conn, host_byte, forget);
	if (conn->qp) {
		ib_mr_pool_destroy(conn->qp, &conn->qp->rdma_mrs);
		rdma_destroy_qp(conn->cm_id);
		conn->qp = NULL;
	}
	if (dev)
		smq_iser_unmap_bufs(conn, dev);
	if (conn->cq)
		ib_free_cq(conn->cq);
	conn->cq = NULL;
	if (conn->pd)
		ib_dealloc_pd(conn->pd);
	conn->pd = NULL;
	rdma_destroy_id(conn->cm_id);
	conn->cm_id = NULL;
	conn->ctrl_busy = 0;
}

static unsigned long smq_iser_backoff(unsigned int attempt)
{
	unsigned long d = SMQ_ISER_BACKOFF_MIN << min(attempt, 5U);

	return min_t(unsigned long, d, SMQ_ISER_BACKOFF_MAX);
}

static void smq_iser_recover_work(struct work_struct *work)
{
	struct smq_iser_conn *conn = container_of(to_delayed_work(work),
						  struct smq_iser_conn,
						  recover_work);
	struct smq_iser_host *ih = conn->ihost;
	unsigned long secs;
	int ret;

	mutex_lock(&conn->mgmt_mutex);
	if (READ_ONCE(ih->removing)) {
		/* No relogin: end what the lost connection had. */
		smq_iser_conn_stop(conn, SMQ_DID_NO_CONNECT, false);
		goto out;
	}
	if (READ_ONCE(conn->state) == SMQ_ISER_UP)
		goto out;
	smq_iser_conn_lost(conn);
	smq_iser_conn_stop(conn, SMQ_DID_REQUEUE, false);
	ret = smq_iser_conn_start(conn);
	if (!ret) {
		conn->reconnects++;
		secs = (jiffies - conn->fail_time) / HZ;
		smq_iser_conn_up(conn);
		pr_info("host%u session %u: logged in again after %lu s (reconnect %u)\n",
			ih->shost->host_no, conn->idx, secs, conn->reconnects);
		goto out;
	}
	smq_iser_conn_stop(conn, SMQ_DID_REQUEUE, false);
	if (smq_iser_conn_log_ok(conn))
		pr_info("host%u session %u: login failed (%d), retrying\n",
			ih->shost->host_no, conn->idx, ret);
	if (!READ_ONCE(ih->removing))
		queue_delayed_work(smq_iser_wq, &conn->recover_work,
				   smq_iser_backoff(conn->attempts++));
out:
	mutex_unlock(&conn->mgmt_mutex);
}

/**
 * smq_iser_conn_init - set up a connection's memory (no device yet)
 * @conn: zeroed connection
 * @ih: its host (opts and shost set)
 * @idx: hardware queue index
 *
 * Return: 0 or -ENOMEM (then smq_iser_conn_exit() frees what was made).
 */
int smq_iser_conn_init(struct smq_iser_conn *conn, struct smq_iser_host *ih,
		       unsigned int idx)
{
	unsigned int i;

	conn->ihost = ih;
	conn->idx = idx;
	spin_lock_init(&conn->lock);
	mutex_init(&conn->mgmt_mutex);
	init_completion(&conn->mgmt_done);
	init_completion(&conn->cm_done);
	init_waitqueue_head(&conn->wait);
	INIT_DELAYED_WORK(&conn->recover_work, smq_iser_recover_work);
	INIT_DELAYED_WORK(&conn->tmo_work, smq_iser_tmo_work);
	INIT_DELAYED_WORK(&conn->nop_work, smq_iser_nop_work);
	INIT_DELAYED_WORK(&conn->late_work, smq_iser_late_work);
	conn->state = SMQ_ISER_DOWN;
	/* ISID type 2 (random): a per-host value, the queue in the last byte */
	conn->isid[0] = 0x80;
	get_random_bytes(&conn->isid[1], 4);
	conn->isid[5] = idx;

	conn->nr_tasks = ih->shost->can_queue;
	conn->nr_rx = conn->nr_tasks + SMQ_ISER_RX_EXTRA;
	conn->tasks = kcalloc(conn->nr_tasks, sizeof(*conn->tasks), GFP_KERNEL);
	conn->hdrs = kcalloc(conn->nr_tasks, SMQ_ISER_HDRS_LEN, GFP_KERNEL);
	conn->rx = kcalloc(conn->nr_rx, sizeof(*conn->rx), GFP_KERNEL);
	conn->mgmt_buf = kzalloc(SMQ_ISER_LOGIN_LEN, GFP_KERNEL);
	conn->login_rx.buf = kzalloc(SMQ_ISER_LOGIN_LEN, GFP_KERNEL);
	conn->late_buf = kzalloc(SMQ_ISER_RX_LEN, GFP_KERNEL);
	if (!conn->tasks || !conn->hdrs || !conn->rx || !conn->mgmt_buf ||
	    !conn->login_rx.buf || !conn->late_buf)
		return -ENOMEM;
	conn->login_rx.conn = conn;
	conn->login_rx.len = SMQ_ISER_LOGIN_LEN;
	conn->login_rx.cqe.done = smq_iser_recv_done;
	for (i = 0; i < conn->nr_tasks; i++) {
		struct smq_iser_task *t = &conn->tasks[i];

		t->conn = conn;
		t->hdr = conn->hdrs + (size_t)i * SMQ_ISER_HDRS_LEN;
		t->send_cqe.done = smq_iser_send_done;
		t->reg_cqe.done = smq_iser_reg_done;
		t->inv_cqe.done = smq_iser_inv_done;
	}
	for (i = 0; i < conn->nr_rx; i++) {
		struct smq_iser_rx *rx = &conn->rx[i];

		rx->conn = conn;
		/* A discovery session receives text, up to a login's size. */
		rx->len = ih->opts.discovery ? SMQ_ISER_LOGIN_LEN : SMQ_ISER_RX_LEN;
		rx->cqe.done = smq_iser_recv_done;
		rx->buf = kzalloc(rx->len, GFP_KERNEL);
		if (!rx->buf)
			return -ENOMEM;
	}
	for (i = 0; i < SMQ_ISER_NR_CTRL; i++) {
		struct smq_iser_ctrl *c = &conn->ctrl[i];

		c->conn = conn;
		c->idx = i;
		c->cqe.done = smq_iser_ctrl_done;
		c->buf = kzalloc(SMQ_ISER_LOGIN_LEN, GFP_KERNEL);
		if (!c->buf)
			return -ENOMEM;
	}
	return 0;
}

/**
 * smq_iser_conn_exit - free a connection's memory
 * @conn: a connection that is down, its recovery cancelled
 */
void smq_iser_conn_exit(struct smq_iser_conn *conn)
{
	unsigned int i;

	for (i = 0; i < SMQ_ISER_NR_CTRL; i++)
		kfree(conn->ctrl[i].buf);
	for (i = 0; conn->rx && i < conn->nr_rx; i++)
		kfree(conn->rx[i].buf);
	kfree(conn->login_rx.buf);
	kfree(conn->late_buf);
	kfree(conn->mgmt_buf);
	kfree(conn->rx);
	kfree(conn->hdrs);
	kfree(conn->tasks);
}
