// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: the iSCSI session over a connection: login (security stage
 * with CHAP or none, then operational negotiation), logout, task
 * management, answers to the target's NOP-In pings and our keepalive
 * pings.  One control request at a time per connection (mgmt_mutex), on
 * control buffer 0; NOP-Outs use the other buffers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "smq_iser.h"

#define SMQ_ISER_MGMT_TIMEOUT	(10 * HZ)
#define SMQ_ISER_LOGOUT_TIMEOUT	(3 * HZ)
#define SMQ_ISER_LOGIN_ROUNDS	8
/* Login text of one stage's response, continued (C bit) PDUs joined */
#define SMQ_ISER_LOGIN_JOIN	(4 * SMQ_ISER_LOGIN_DATA)

void smq_iser_ctrl_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct smq_iser_ctrl *c = container_of(wc->wr_cqe, struct smq_iser_ctrl,
					       cqe);
	struct smq_iser_conn *conn = c->conn;

	if (unlikely(wc->status != IB_WC_SUCCESS &&
		     wc->status != IB_WC_WR_FLUSH_ERR))
		smq_iser_conn_failure(conn, "control send");
	clear_bit(c->idx, &conn->ctrl_busy);
	wake_up_all(&conn->wait);
}

/* Post a control PDU whose BHS and data are in @c->buf; conn->lock held. */
static int smq_iser_post_ctrl(struct smq_iser_conn *conn,
			      struct smq_iser_ctrl *c, u32 dlen)
{
	struct ib_sge sge = {
		.addr = c->dma,
		.length = SMQ_ISER_HDRS_LEN + dlen,
		.lkey = conn->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &c->cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	lockdep_assert_held(&conn->lock);
	smq_iser_build_hdr(c->buf, 0, 0, false, 0, 0, false);
	ib_dma_sync_single_for_device(conn->cm_id->device, c->dma,
				      SMQ_ISER_HDRS_LEN + dlen, DMA_TO_DEVICE);
	return ib_post_send(conn->qp, &wr, NULL);
}

static u32 smq_iser_ctrl_itt(struct smq_iser_conn *conn)
{
	conn->ctrl_seq = (conn->ctrl_seq + 1) & 0x7fffffff;
	return SMQ_ISER_ITT_CTRL | conn->ctrl_seq;
}

/**
 * smq_iser_mgmt_answer - a login, text, TMF or logout response arrived
 * @conn: the connection
 * @p: the parsed PDU (pointing into @buf)
 * @buf: the received iSER PDU
 * @len: its length
 *
 * Hands it to the control request waiting for it, if any.
 */
void smq_iser_mgmt_answer(struct smq_iser_conn *conn,
			  const struct smq_iscsi_pdu *p, const u8 *buf,
			  unsigned int len)
{
	int rsp;

	switch (p->opcode) {
	case SMQ_ISCSI_OP_TMF_RSP:
		/* Injected loss: the TMF times out, error handling escalates. */
		if (unlikely(atomic_add_unless(&conn->ihost->drop_tmf, -1, 0)))
			return;
		rsp = p->u.tmf.response;
		break;
	case SMQ_ISCSI_OP_LOGOUT_RSP:
		rsp = p->u.logout.response;
		break;
	default:
		rsp = 0;
	}
	spin_lock_bh(&conn->lock);
	if (!conn->mgmt_itt || p->itt != conn->mgmt_itt) {
		spin_unlock_bh(&conn->lock);
		pr_debug("host%u: unexpected response opcode %#x ITT %#x\n",
			 conn->ihost->shost->host_no, p->opcode, p->itt);
		return;
	}
	conn->mgmt_itt = 0;
	len = min_t(unsigned int, len, SMQ_ISER_LOGIN_LEN);
	memcpy(conn->mgmt_buf, buf, len);
	conn->mgmt_len = len;
	conn->mgmt_rsp = rsp;
	spin_unlock_bh(&conn->lock);
	complete(&conn->mgmt_done);
}

/*
 * Send the control PDU built by @build in buffer 0 and wait for its
 * answer; mgmt_mutex held.  @itt: the request's ITT, 0 for a new one (the
 * requests of one login phase keep theirs).  Returns the answer's code
 * (>= 0) or an errno.
 */
static int smq_iser_mgmt_exchange(struct smq_iser_conn *conn,
				  void (*build)(struct smq_iser_conn *conn,
						u8 *bhs, u32 itt, void *arg),
				  void *arg, u32 dlen, unsigned long tmo,
				  u32 itt)
{
	struct smq_iser_ctrl *c = &conn->ctrl[0];
	int ret;

	lockdep_assert_held(&conn->mgmt_mutex);
	if (!wait_event_timeout(conn->wait, !test_bit(0, &conn->ctrl_busy), tmo))
		return -ETIMEDOUT;
	spin_lock_bh(&conn->lock);
	if (conn->state != SMQ_ISER_UP && conn->state != SMQ_ISER_LOGIN &&
	    conn->state != SMQ_ISER_LOGOUT) {
		spin_unlock_bh(&conn->lock);
		return -ENOTCONN;
	}
	if (!itt)
		itt = smq_iser_ctrl_itt(conn);
	build(conn, c->buf + SMQ_ISER_HDR_LEN, itt, arg);
	conn->mgmt_itt = itt;
	conn->mgmt_rsp = -ETIMEDOUT;
	reinit_completion(&conn->mgmt_done);
	set_bit(0, &conn->ctrl_busy);
	ret = smq_iser_post_ctrl(conn, c, dlen);
	if (ret) {
		clear_bit(0, &conn->ctrl_busy);
		conn->mgmt_itt = 0;
	}
	spin_unlock_bh(&conn->lock);
	if (ret)
		return -ENOTCONN;
	wait_for_completion_timeout(&conn->mgmt_done, tmo);
	spin_lock_bh(&conn->lock);
	conn->mgmt_itt = 0;
	ret = conn->mgmt_rsp;
	spin_unlock_bh(&conn->lock);
	return ret;
}

/* ---- login ------------------------------------------------------------ */

struct smq_iser_login_step {
	u8 csg, nsg;
	bool transit;
	u32 dlen;
	u32 itt;
};

static void smq_iser_build_login(struct smq_iser_conn *conn, u8 *bhs, u32 itt,
				 void *arg)
{
	const struct smq_iser_login_step *s = arg;
	struct smq_iscsi_login_args a = {
		.tsih = 0,	/* a new session, or the reinstatement of ours */
		.itt = itt,
		.cid = 0,
		.cmdsn = conn->cmdsn,
		.expstatsn = conn->expstatsn,
		.csg = s->csg,
		.nsg = s->nsg,
		.transit = s->transit,
		.dlen = s->dlen,
	};

	memcpy(a.isid, conn->isid, sizeof(a.isid));
	smq_iscsi_build_login(bhs, &a);
}

/* One login request with the text already in control buffer 0. */
static int smq_iser_login_round(struct smq_iser_conn *conn,
				struct smq_iser_login_step *s,
				struct smq_iscsi_pdu *rsp)
{
	unsigned int host_no = conn->ihost->shost->host_no;
	int ret;

	ret = smq_iser_mgmt_exchange(conn, smq_iser_build_login, s, s->dlen,
				     SMQ_ISER_MGMT_TIMEOUT, s->itt);
	if (ret < 0) {
		/* A close in the security stage is a refusal: the caller logs */
		if (ret == -ECONNRESET && s->csg == SMQ_ISCSI_STAGE_SECURITY)
			return ret;
		if (smq_iser_conn_log_ok(conn))
			pr_err("host%u session %u: no answer to the login request of stage %u (%d)\n",
			       host_no, conn->idx, s->csg, ret);
		return ret;
	}
	ret = smq_iscsi_parse_pdu(conn->mgmt_buf + SMQ_ISER_HDR_LEN,
				  conn->mgmt_len - SMQ_ISER_HDR_LEN, rsp);
	if (ret || rsp->opcode != SMQ_ISCSI_OP_LOGIN_RSP) {
		pr_err("host%u session %u: bad login response\n", host_no,
		       conn->idx);
		return -EPROTO;
	}
	if (rsp->u.login.status_class != SMQ_ISCSI_LOGIN_SUCCESS) {
		const struct smq_iser_opts *o = &conn->ihost->opts;
		bool auth = rsp->u.login.status_class ==
			    SMQ_ISCSI_LOGIN_INITIATOR_ERR &&
			    (rsp->u.login.status_detail == 1 ||
			     rsp->u.login.status_detail == 2);

		if (smq_iser_conn_log_ok(conn))
			pr_err("host%u session %u: %s %pISpc: login refused: %s (status class %u detail %u)\n",
			       host_no, conn->idx,
			       o->discovery ? "discovery" : o->target, &o->dst,
			       !auth ? "by the target" : o->username[0] ?
			       "CHAP authentication failed (username/password)" :
			       "authentication required (no username/password)",
			       rsp->u.login.status_class,
			       rsp->u.login.status_detail);
		return rsp->u.login.status_class == SMQ_ISCSI_LOGIN_INITIATOR_ERR ?
		       -EACCES : -EAGAIN;
	}
	spin_lock_bh(&conn->lock);
	conn->expstatsn = rsp->statsn + 1;
	smq_iscsi_window_update(&conn->win, rsp->expcmdsn, rsp->maxcmdsn);
	spin_unlock_bh(&conn->lock);
	return 0;
}

static int smq_iser_post_ffp_recv(struct smq_iser_conn *conn)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < conn->nr_rx; i++)
		ret = smq_iser_post_recv(conn, &conn->rx[i]);
	return ret;
}

static int smq_iser_security_keys(struct smq_iser_conn *conn, char *buf,
				  size_t *off)
{
	struct smq_iser_opts *o = &conn->ihost->opts;
	int ret;

	ret = smq_iscsi_text_add(buf, SMQ_ISER_LOGIN_DATA, off, "InitiatorName",
				 o->initiator);
	if (!ret)
		ret = smq_iscsi_text_add(buf, SMQ_ISER_LOGIN_DATA, off,
					 "SessionType",
					 o->discovery ? "Discovery" : "Normal");
	if (!ret && !o->discovery)
		ret = smq_iscsi_text_add(buf, SMQ_ISER_LOGIN_DATA, off,
					 "TargetName", o->target);
	return ret;
}

/*
 * One login request (text in control buffer 0) and its response's text
 * in @join: while the target sets C (more text follows), answer with empty
 * requests (T clear) and join the pieces (RFC 7143 11.13.3).
 */
static int smq_iser_login_text(struct smq_iser_conn *conn,
			       struct smq_iser_login_step *s,
			       struct smq_iscsi_pdu *rsp, char *join,
			       size_t *jlen)
{
	unsigned int n;
	int ret;

	*jlen = 0;
	for (n = 0; ; n++) {
		ret = smq_iser_login_round(conn, s, rsp);
		if (ret)
			return ret;
		if (rsp->data && rsp->dlen) {
			if (rsp->dlen > SMQ_ISER_LOGIN_JOIN - *jlen) {
				pr_err("host%u session %u: login: text of more than %u bytes\n",
				       conn->ihost->shost->host_no, conn->idx,
				       SMQ_ISER_LOGIN_JOIN);
				return -EPROTO;
			}
			memcpy(join + *jlen, rsp->data, rsp->dlen);
			*jlen += rsp->dlen;
		}
		if (!rsp->u.login.cont)
			return 0;
		if (n >= SMQ_ISER_LOGIN_ROUNDS || rsp->u.login.transit)
			return -EPROTO;
		s->dlen = 0;
		s->transit = false;
	}
}

/*
 * Security stage: InitiatorName, SessionType, TargetName and AuthMethod,
 * then CHAP if the target chose it (smq_iscsi_security_step()), until the
 * target moves on to the operational stage.  Every failure is logged
 * once, with the target's name and the reason (never a secret).
 */
static int smq_iser_security(struct smq_iser_conn *conn, u32 itt,
			     char *join)
{
	char *text = (char *)conn->ctrl[0].buf + SMQ_ISER_HDRS_LEN;
	const struct smq_iser_opts *o = &conn->ihost->opts;
	struct smq_iser_login_step s;
	struct smq_iscsi_chap *chap;
	struct smq_iscsi_pdu rsp;
	char why[SMQ_ISCSI_WHY_LEN];
	bool transit, tt;
	size_t off = 0, jlen;
	int ret, round;

	chap = smq_iser_chap_alloc(o);
	if (!chap)
		return -ENOMEM;
	why[0] = '\0';
	ret = smq_iser_security_keys(conn, text, &off);
	if (!ret)
		ret = smq_iscsi_security_offer(chap, text, SMQ_ISER_LOGIN_DATA,
					       &off, &transit);
	for (round = 0; !ret; round++) {
		if (round >= SMQ_ISER_LOGIN_ROUNDS) {
			ret = -EPROTO;
			break;
		}
		s = (struct smq_iser_login_step){ SMQ_ISCSI_STAGE_SECURITY,
			SMQ_ISCSI_STAGE_OPERATIONAL, transit, off, itt };
		ret = smq_iser_login_text(conn, &s, &rsp, join, &jlen);
		if (ret == -ECONNRESET) {
			/*
			 * LIO refuses AuthMethod=None where CHAP is required,
			 * and a failed CHAP, by closing the connection; its
			 * status 2/1 response, if any, may come after the close.
			 */
			strscpy(why, chap->name ?
				"the target closed the connection (CHAP refused?)" :
				"the target closed the connection (CHAP required? no username given)",
				sizeof(why));
			ret = -EACCES;
		}
		if (ret == -EACCES && why[0]) {
			if (smq_iser_conn_log_ok(conn))
				pr_err("host%u session %u: %s %pISpc: login refused: %s\n",
				       conn->ihost->shost->host_no, conn->idx,
				       o->discovery ? "discovery" : o->target,
				       &o->dst, why);
			break;
		}
		if (ret)
			break;
		tt = rsp.u.login.transit;
		if (rsp.u.login.csg != SMQ_ISCSI_STAGE_SECURITY ||
		    (tt && rsp.u.login.nsg != SMQ_ISCSI_STAGE_OPERATIONAL)) {
			strscpy(why, "response to the security stage in another stage",
				sizeof(why));
			ret = -EPROTO;
		} else {
			off = 0;
			ret = smq_iscsi_security_step(chap, join, jlen, tt, text,
						      SMQ_ISER_LOGIN_DATA, &off,
						      &transit, why, sizeof(why));
		}
		if (ret == -EACCES || ret == -EPROTO) {
			if (smq_iser_conn_log_ok(conn))
				pr_err("host%u session %u: %s %pISpc: login: %s%s\n",
				       conn->ihost->shost->host_no, conn->idx,
				       o->discovery ? "discovery" : o->target,
				       &o->dst, ret == -EACCES ?
				       "authentication failed: " : "", why);
			break;
		}
		if (ret || tt)
			break;
	}
	smq_iser_chap_free(chap);
	return ret;
}

/**
 * smq_iser_login - log a connected session in
 * @conn: connection in SMQ_ISER_LOGIN (mgmt_mutex held)
 *
 * Security stage (AuthMethod=None, or CHAP with the host's username and
 * password, mutual with username_in and password_in), then the
 * operational stage (smq_iscsi_login_keys()) until the target moves to
 * full feature phase; the receive buffers of that phase are posted before
 * the final request, as RFC 7145 asks.  Text continued with the C bit is
 * joined.  An authentication failure (ours or the target's) is -EACCES
 * and logged once, here.
 *
 * Return: 0 (the session is up) or a negative errno.
 */
int smq_iser_login(struct smq_iser_conn *conn)
{
	char *text = (char *)conn->ctrl[0].buf + SMQ_ISER_HDRS_LEN;
	struct smq_iser_login_step s = {};
	unsigned int host_no = conn->ihost->shost->host_no;
	struct smq_iscsi_pdu rsp;
	char why[SMQ_ISCSI_WHY_LEN];
	bool posted = false;
	size_t off, jlen;
	char *join;
	int ret, round;
	u32 itt;

	lockdep_assert_held(&conn->mgmt_mutex);
	smq_iscsi_params_default(&conn->params);
	conn->params.discovery = conn->ihost->opts.discovery;
	itt = smq_iser_ctrl_itt(conn);	/* one ITT for the whole login phase */
	join = kmalloc(SMQ_ISER_LOGIN_JOIN, GFP_KERNEL);
	if (!join)
		return -ENOMEM;

	ret = smq_iser_security(conn, itt, join);
	if (ret)
		goto out;

	/* Operational stage: propose, answer what the target offers. */
	off = 0;
	ret = smq_iscsi_login_keys(&conn->params, text, SMQ_ISER_LOGIN_DATA, &off);
	for (round = 0; !ret; round++) {
		if (round >= SMQ_ISER_LOGIN_ROUNDS) {
			ret = -EPROTO;
			goto out;
		}
		if (!posted) {
			ret = smq_iser_post_ffp_recv(conn);
			if (ret)
				goto out;
			posted = true;
		}
		s = (struct smq_iser_login_step){ SMQ_ISCSI_STAGE_OPERATIONAL,
			SMQ_ISCSI_STAGE_FULL_FEATURE, true, off, itt };
		ret = smq_iser_login_text(conn, &s, &rsp, join, &jlen);
		if (ret)
			goto out;
		ret = smq_iscsi_login_negotiate(&conn->params, join, jlen, why,
						sizeof(why));
		if (ret) {
			pr_err("host%u session %u: login: %s\n", host_no,
			       conn->idx, why);
			goto out;
		}
		if (rsp.u.login.transit &&
		    rsp.u.login.nsg == SMQ_ISCSI_STAGE_FULL_FEATURE)
			break;
		off = 0;
		ret = smq_iscsi_login_reply_keys(&conn->params, text,
						 SMQ_ISER_LOGIN_DATA, &off);
	}
	if (ret)
		goto out;
	ret = smq_iscsi_login_check(&conn->params, why, sizeof(why));
	if (ret) {
		pr_err("host%u session %u: login: %s\n", host_no, conn->idx, why);
		goto out;
	}
	conn->tsih = rsp.u.login.tsih;
	spin_lock_bh(&conn->lock);
	if (conn->state == SMQ_ISER_LOGIN)
		conn->state = SMQ_ISER_UP;
	else
		ret = -ECONNRESET;
	spin_unlock_bh(&conn->lock);
out:
	kfree(join);
	return ret;
}

/* ---- SendTargets ------------------------------------------------------- */

#define SMQ_ISER_SENDTARGETS_MAX	65536	/* text of all responses joined */
#define SMQ_ISER_TEXT_ROUNDS		64

struct smq_iser_text_arg {
	u32 ttt;
	u32 dlen;
};

static void smq_iser_build_text(struct smq_iser_conn *conn, u8 *bhs, u32 itt,
				void *arg)
{
	const struct smq_iser_text_arg *a = arg;

	lockdep_assert_held(&conn->lock);
	smq_iscsi_build_text(bhs, itt, a->ttt, conn->cmdsn, conn->expstatsn,
			     true, false, a->dlen);
	conn->cmdsn++;		/* not immediate: it takes a CmdSN */
}

struct smq_iser_st_out {
	char *buf;
	size_t size, len;
	const struct sockaddr_storage *portal;
	int lines;
};

/* One target portal, as iscsiadm prints it: "address,tpgt name". */
static int smq_iser_st_line(void *ctx, const char *target, const char *addr)
{
	struct smq_iser_st_out *o = ctx;
	int n;

	if (addr)
		n = snprintf(o->buf + o->len, o->size - o->len, "%s %s\n", addr,
			     target);
	else	/* no TargetAddress: the portal we asked, its group unknown */
		n = snprintf(o->buf + o->len, o->size - o->len, "%pISpc,-1 %s\n",
			     o->portal, target);
	if (n < 0 || (size_t)n >= o->size - o->len)
		return -E2BIG;
	o->len += n;
	o->lines++;
	return 0;
}

/* Text Requests until the final Text Response; the data joined in @all. */
static int smq_iser_text_all(struct smq_iser_conn *conn, char *all,
			     size_t *len)
{
	static const char key[] = "SendTargets=All";
	struct smq_iser_text_arg a = { SMQ_ISCSI_RSVD_TAG, sizeof(key) };
	struct smq_iscsi_pdu rsp;
	u32 itt = 0;
	int ret, round;

	memcpy(conn->ctrl[0].buf + SMQ_ISER_HDRS_LEN, key, sizeof(key));
	*len = 0;
	for (round = 0; round < SMQ_ISER_TEXT_ROUNDS; round++) {
		ret = smq_iser_mgmt_exchange(conn, smq_iser_build_text, &a,
					     a.dlen, SMQ_ISER_MGMT_TIMEOUT, itt);
		if (ret < 0)
			return ret;
		if (smq_iscsi_parse_pdu(conn->mgmt_buf + SMQ_ISER_HDR_LEN,
					conn->mgmt_len - SMQ_ISER_HDR_LEN, &rsp) ||
		    rsp.opcode != SMQ_ISCSI_OP_TEXT_RSP)
			return -EPROTO;
		if (rsp.data && rsp.dlen) {
			if (*len + rsp.dlen > SMQ_ISER_SENDTARGETS_MAX)
				return -E2BIG;
			memcpy(all + *len, rsp.data, rsp.dlen);
			*len += rsp.dlen;
		}
		if (rsp.u.text.final)
			return 0;
		/* More to come: ask again with its TTT, the same ITT, no text. */
		itt = rsp.itt;
		a.ttt = rsp.ttt;
		a.dlen = 0;
	}
	return -EPROTO;
}

/**
 * smq_iser_sendtargets - ask a discovery session for the targets it knows
 * @conn: a discovery session, logged in (mgmt_mutex held)
 * @out: receives one line per target portal, "address:port,tpgt name"
 *	(iscsiadm's format), NUL-terminated
 * @size: size of @out
 *
 * Sends SendTargets=All in a Text Request and follows the target's
 * continuations (C bit) to the final response.
 *
 * Return: the number of lines, or a negative errno (-E2BIG: more than
 * fits, -EPROTO: a malformed answer).
 */
int smq_iser_sendtargets(struct smq_iser_conn *conn, char *out, size_t size)
{
	struct smq_iser_st_out o = { out, size, 0, &conn->ihost->opts.dst, 0 };
	size_t len;
	char *all;
	int ret;

	lockdep_assert_held(&conn->mgmt_mutex);
	if (!size)
		return -E2BIG;
	out[0] = '\0';
	all = kmalloc(SMQ_ISER_SENDTARGETS_MAX, GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	ret = smq_iser_text_all(conn, all, &len);
	if (!ret)
		ret = smq_iscsi_sendtargets_parse(all, len, smq_iser_st_line, &o);
	kfree(all);
	if (ret < 0) {
		pr_err("discover: %pISpc: SendTargets failed (%d)\n",
		       &conn->ihost->opts.dst, ret);
		return ret;
	}
	return o.lines;
}

/* ---- logout, TMF, NOP ---------------------------------------------------- */

static void smq_iser_build_logout(struct smq_iser_conn *conn, u8 *bhs, u32 itt,
				  void *arg)
{
	smq_iscsi_build_logout(bhs, SMQ_ISCSI_LOGOUT_CLOSE_SESSION, itt, 0,
			       conn->cmdsn, conn->expstatsn, true);
}

/**
 * smq_iser_logout - close the session politely
 * @conn: the connection (mgmt_mutex held); nothing happens unless it is up
 *
 * Sends a Logout (close the session) and waits a few seconds at most for
 * the answer and for the target to close the connection, as RFC 7143 has
 * it: tearing down before the target's own close races LIO's logout
 * handling.  The caller tears the connection down afterwards either way.
 */
void smq_iser_logout(struct smq_iser_conn *conn)
{
	int ret;

	lockdep_assert_held(&conn->mgmt_mutex);
	spin_lock_bh(&conn->lock);
	if (conn->state != SMQ_ISER_UP) {
		spin_unlock_bh(&conn->lock);
		return;
	}
	/* From now on a close is expected, not a loss to recover from. */
	conn->state = SMQ_ISER_LOGOUT;
	spin_unlock_bh(&conn->lock);
	reinit_completion(&conn->cm_done);
	ret = smq_iser_mgmt_exchange(conn, smq_iser_build_logout, NULL, 0,
				     SMQ_ISER_LOGOUT_TIMEOUT, 0);
	if (ret == SMQ_ISCSI_LOGOUT_RSP_OK)
		wait_for_completion_timeout(&conn->cm_done,
					    SMQ_ISER_LOGOUT_TIMEOUT);
}

struct smq_iser_tmf_arg {
	u8 function;
	u64 lun;
	struct smq_iser_task *task;
};

static void smq_iser_build_tmf(struct smq_iser_conn *conn, u8 *bhs, u32 itt,
			       void *arg)
{
	const struct smq_iser_tmf_arg *t = arg;
	struct smq_iscsi_tmf_args a = {
		.function = t->function,
		.lun = t->lun,
		.itt = itt,
		.rtt = t->task ? t->task->itt : SMQ_ISCSI_RSVD_TAG,
		.cmdsn = conn->cmdsn,
		.expstatsn = conn->expstatsn,
		.refcmdsn = t->task ? t->task->cmdsn : conn->cmdsn,
	};

	smq_iscsi_build_tmf(bhs, &a);
}

/**
 * smq_iser_tmf - send a task management request and wait for its answer
 * @conn: the session (mgmt_mutex held)
 * @function: SMQ_ISCSI_TMF_*
 * @lun: the LUN
 * @task: the task of ABORT TASK, else NULL
 *
 * Return: the TMF response code (SMQ_ISCSI_TMF_RSP_*) or a negative errno
 * (not connected, no answer in time).
 */
int smq_iser_tmf(struct smq_iser_conn *conn, u8 function, u64 lun,
		 struct smq_iser_task *task)
{
	struct smq_iser_tmf_arg a = { function, lun, task };

	lockdep_assert_held(&conn->mgmt_mutex);
	if (READ_ONCE(conn->state) != SMQ_ISER_UP)
		return -ENOTCONN;
	return smq_iser_mgmt_exchange(conn, smq_iser_build_tmf, &a, 0,
				      SMQ_ISER_MGMT_TIMEOUT, 0);
}

/* A free NOP-Out buffer (1..SMQ_ISER_NR_CTRL-1), or NULL. */
static struct smq_iser_ctrl *smq_iser_get_nop_ctrl(struct smq_iser_conn *conn)
{
	unsigned int i;

	for (i = 1; i < SMQ_ISER_NR_CTRL; i++)
		if (!test_and_set_bit(i, &conn->ctrl_busy))
			return &conn->ctrl[i];
	return NULL;
}

/**
 * smq_iser_nop_reply - answer a NOP-In that asks for one (softirq)
 * @conn: the connection
 * @p: the NOP-In (its Target Transfer Tag, LUN and ping data are echoed)
 */
void smq_iser_nop_reply(struct smq_iser_conn *conn,
			const struct smq_iscsi_pdu *p)
{
	struct smq_iser_ctrl *c = smq_iser_get_nop_ctrl(conn);
	u32 dlen = p->data ? min_t(u32, p->dlen, SMQ_ISER_LOGIN_DATA) : 0;

	if (!c) {
		pr_warn_ratelimited("host%u session %u: no buffer to answer a NOP-In\n",
				    conn->ihost->shost->host_no, conn->idx);
		return;
	}
	memcpy(c->buf + SMQ_ISER_HDRS_LEN, p->data, dlen);
	spin_lock_bh(&conn->lock);
	if (conn->state == SMQ_ISER_UP) {
		smq_iscsi_build_nop_out(c->buf + SMQ_ISER_HDR_LEN,
					SMQ_ISCSI_RSVD_TAG, p->ttt, p->lun,
					conn->cmdsn, conn->expstatsn, true, dlen);
		if (!smq_iser_post_ctrl(conn, c, dlen))
			c = NULL;
	}
	spin_unlock_bh(&conn->lock);
	if (c)
		clear_bit(c->idx, &conn->ctrl_busy);
}

/**
 * smq_iser_nop_in - a NOP-In answering a NOP-Out arrived (softirq)
 * @conn: the connection
 * @p: the NOP-In; its ITT names our ping
 */
void smq_iser_nop_in(struct smq_iser_conn *conn, const struct smq_iscsi_pdu *p)
{
	spin_lock_bh(&conn->lock);
	if (conn->ping_itt && p->itt == conn->ping_itt)
		conn->ping_itt = 0;
	spin_unlock_bh(&conn->lock);
}

/* Send a keepalive NOP-Out (a ping the target answers); conn->lock held. */
static void smq_iser_ping(struct smq_iser_conn *conn, unsigned long now)
{
	struct smq_iser_ctrl *c = smq_iser_get_nop_ctrl(conn);
	u32 itt;

	lockdep_assert_held(&conn->lock);
	if (!c)
		return;		/* the next pass tries again */
	itt = smq_iser_ctrl_itt(conn);
	smq_iscsi_build_nop_out(c->buf + SMQ_ISER_HDR_LEN, itt,
				SMQ_ISCSI_RSVD_TAG, 0, conn->cmdsn,
				conn->expstatsn, true, 0);
	if (smq_iser_post_ctrl(conn, c, 0)) {
		clear_bit(c->idx, &conn->ctrl_busy);
		return;
	}
	conn->ping_itt = itt;
	conn->ping_sent = now;
	conn->pings++;
}

/*
 * One keepalive pass (conn->lock held): true when the ping went
 * unanswered for noop_out_timeout with nothing else received since it
 * was sent; else *@next is when to look again.
 */
static bool smq_iser_nop_check(struct smq_iser_conn *conn, unsigned long now,
			       unsigned long interval, unsigned long tmo,
			       unsigned long *next)
{
	unsigned long last_rx = READ_ONCE(conn->last_rx);

	lockdep_assert_held(&conn->lock);
	if (conn->ping_itt) {
		if (time_before(now, conn->ping_sent + tmo)) {
			*next = conn->ping_sent + tmo;
			return false;
		}
		if (!time_after(last_rx, conn->ping_sent))
			return true;
		/* The target talks, only the answer is missing: ping again. */
		conn->ping_itt = 0;
	}
	if (time_before(now, last_rx + interval)) {
		*next = last_rx + interval;
		return false;
	}
	smq_iser_ping(conn, now);
	*next = now + (conn->ping_itt ? tmo : HZ);
	return false;
}

/**
 * smq_iser_nop_work - keepalive of an up session (conn->nop_work)
 * @work: the work item
 *
 * open-iscsi's rule: after noop_out_interval seconds with no PDU from the
 * target, send a NOP-Out ping; if neither its answer nor any other PDU
 * comes within noop_out_timeout seconds, the connection is lost (a target
 * that died silently, a path that drops everything).  Stops while the
 * session is not up; a login or a changed setting starts it again.
 */
void smq_iser_nop_work(struct work_struct *work)
{
	struct smq_iser_conn *conn = container_of(to_delayed_work(work),
						  struct smq_iser_conn,
						  nop_work);
	struct smq_iser_opts *o = &conn->ihost->opts;
	unsigned long interval = READ_ONCE(o->noop_out_interval) * HZ;
	unsigned long tmo = READ_ONCE(o->noop_out_timeout) * HZ;
	unsigned long now = jiffies, next = now;
	bool dead = false;

	if (!interval)
		return;
	spin_lock_bh(&conn->lock);
	if (conn->state == SMQ_ISER_UP)
		dead = smq_iser_nop_check(conn, now, interval, max(tmo, 1UL),
					  &next);
	else
		next = 0;
	spin_unlock_bh(&conn->lock);
	if (dead) {
		conn->ping_timeouts++;
		pr_warn("host%u session %u: no answer to a NOP-Out ping in %d s (noop_out_timeout)\n",
			conn->ihost->shost->host_no, conn->idx,
			READ_ONCE(o->noop_out_timeout));
		smq_iser_conn_failure(conn, "ping timeout");
		return;
	}
	if (next)
		queue_delayed_work(smq_iser_wq, &conn->nop_work,
				   time_after(next, now) ? next - now : 1);
}

/**
 * smq_iser_default_initiator - the InitiatorName used without initiator=
 * @buf: SMQ_ISER_NAME_MAX bytes
 */
void smq_iser_default_initiator(char *buf)
{
	snprintf(buf, SMQ_ISER_NAME_MAX, "iqn.2026-12.org.smq:%s",
		 utsname()->nodename);
}
