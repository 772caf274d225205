/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_iser: an iSER initiator (iSCSI over RDMA, RFC 7143 + RFC 7145) as a
 * low-level driver of smq_scsi.
 *
 * One smq host per add_target: its hardware queues map 1:1 to iSCSI
 * sessions with the same target, each one RDMA connection (one RC QP and
 * one CQ), each with its own ISID and so its own CmdSN space and I_T
 * nexus.  Documentation/smq_iser.md describes the whole driver.
 *
 * Objects:
 *   struct smq_iser_host - one add_target: options, sessions, sysfs
 *   struct smq_iser_conn - one session + connection (a hardware queue)
 *   struct smq_iser_task - a command slot of a connection, per tag
 *   struct smq_iser_rx   - a posted receive buffer
 *   struct smq_iser_ctrl - a control PDU send buffer (login, TMF, NOP-Out)
 */
#ifndef _SMQ_ISER_H
#define _SMQ_ISER_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <smq/scsi.h>

#include "smq_iser_pdu.h"

#define SMQ_ISER_NAME		"smq_iser"
#define SMQ_ISER_PORT		3260
#define SMQ_ISER_NAME_MAX	224	/* iSCSI names: 223 bytes + NUL */

/* iSER header + BHS: what every PDU starts with */
#define SMQ_ISER_HDRS_LEN	(SMQ_ISER_HDR_LEN + SMQ_ISCSI_BHS_LEN)
/* Data we take in a full feature phase PDU (sense, reject, NOP-In data) */
#define SMQ_ISER_RX_DATA	1024
#define SMQ_ISER_RX_LEN		(SMQ_ISER_HDRS_LEN + SMQ_ISER_RX_DATA)
/* Login and text: InitiatorRecvDataSegmentLength / TargetRecv... */
#define SMQ_ISER_LOGIN_DATA	8192
#define SMQ_ISER_LOGIN_LEN	(SMQ_ISER_HDRS_LEN + SMQ_ISER_LOGIN_DATA)
/* Unsolicited PDUs a connection can take besides responses */
#define SMQ_ISER_RX_EXTRA	16
/* Control PDU buffers: [0] login/logout/TMF (mgmt_mutex), the rest NOP-Out */
#define SMQ_ISER_NR_CTRL	4

#define SMQ_ISER_MAX_SECTORS	1024		/* 512 KiB per command */
#define SMQ_ISER_SG_TABLESIZE	128
#define SMQ_ISER_MAX_QD		1024		/* tags per hardware queue */
#define SMQ_ISER_DEF_QD		128
#define SMQ_ISER_DEF_CMD_PER_LUN 32
#define SMQ_ISER_DEF_REPLACEMENT 120		/* seconds */
#define SMQ_ISER_DEF_NOOP_INTERVAL 5		/* seconds, as open-iscsi */
#define SMQ_ISER_DEF_NOOP_TIMEOUT 5		/* seconds, as open-iscsi */
#define SMQ_ISER_MAX_NOOP	3600		/* seconds */
#define SMQ_ISER_LATE_MS	5000		/* iser_late_responses' delay */

/* ITTs of control PDUs have bit 31 set; task ITTs: gen << 16 | tag */
#define SMQ_ISER_ITT_CTRL	0x80000000U

/**
 * struct smq_iser_opts - an add_target string, parsed
 * @dst: target portal address (IPv4 or IPv6, port)
 * @src: source address, or AF_UNSPEC
 * @target: TargetName
 * @initiator: InitiatorName
 * @queues: sessions = hardware queues
 * @queue_depth: commands per session (tags per hardware queue)
 * @cmd_per_lun: default LUN queue depth
 * @replacement_timeout: seconds a lost session may take to come back
 *	before its commands fail (-1: never fail)
 * @noop_out_interval: seconds without a PDU from the target after which a
 *	session pings it with a NOP-Out (0: no keepalive)
 * @noop_out_timeout: seconds a ping may go unanswered (with nothing else
 *	received) before the connection counts as lost
 * @username: CHAP name we log in with (one-way CHAP), "" for none
 * @password: its secret (write-only: never logged or shown)
 * @username_in: CHAP name the target must answer with (mutual), or ""
 * @password_in: the target's secret (write-only)
 * @discovery: a SendTargets discovery session (no TargetName)
 */
struct smq_iser_opts {
	struct sockaddr_storage dst;
	struct sockaddr_storage src;
	char target[SMQ_ISER_NAME_MAX];
	char initiator[SMQ_ISER_NAME_MAX];
	unsigned int queues;
	unsigned int queue_depth;
	unsigned int cmd_per_lun;
	int replacement_timeout;
	int noop_out_interval;
	int noop_out_timeout;
	char username[SMQ_CHAP_NAME_MAX + 1];
	char password[SMQ_CHAP_SECRET_MAX + 1];
	char username_in[SMQ_CHAP_NAME_MAX + 1];
	char password_in[SMQ_CHAP_SECRET_MAX + 1];
	bool discovery;
};

enum smq_iser_conn_state {
	SMQ_ISER_DOWN,		/* no QP: commands wait (or fail fast) */
	SMQ_ISER_LOGIN,		/* connected, login PDUs only */
	SMQ_ISER_UP,		/* full feature phase */
	SMQ_ISER_FAILED,	/* lost: commands wait, recovery queued */
	SMQ_ISER_LOGOUT,	/* logging out: no commands, the close expected */
};

/**
 * struct smq_iser_task - a command's slot on a connection (one per tag)
 * @send_cqe: completion of the SCSI Command's send
 * @reg_cqe: completion of the memory registration (errors only)
 * @inv_cqe: completion of the local invalidation
 * @conn: its connection
 * @hdr: iSER header + BHS, in @conn's header array
 * @hdr_dma: its DMA address
 * @cmd: the command, NULL while the slot is free (conn->lock)
 * @mr: its memory registration, or NULL
 * @nents: scatterlist entries DMA-mapped (0: none)
 * @ref: references: the send, the response, a local invalidation; the
 *	last put releases the slot
 * @itt: ITT of the command in flight
 * @cmdsn: its CmdSN (ABORT TASK's RefCmdSN)
 * @gen: bumped per use, part of @itt (a stale response does not match)
 * @cmd_gen: smq_scsi_cmd_gen() of @cmd when it was sent: its completion
 *	is ignored if the midlayer has reissued the command since
 * @rsp: the response arrived, or the driver stopped waiting for it
 *	(conn->lock)
 * @forgotten: the error handler took the command back: release it
 *	without completing it (conn->lock)
 * @remote_inv: the target invalidated @mr with its response (conn->lock)
 */
struct smq_iser_task {
	struct ib_cqe send_cqe;
	struct ib_cqe reg_cqe;
	struct ib_cqe inv_cqe;
	struct smq_iser_conn *conn;
	u8 *hdr;
	u64 hdr_dma;
	struct smq_scsi_cmnd *cmd;
	struct ib_mr *mr;
	int nents;
	atomic_t ref;
	u32 itt;
	u32 cmdsn;
	u16 gen;
	u32 cmd_gen;
	bool rsp;
	bool forgotten;
	bool remote_inv;
};

/**
 * struct smq_iser_rx - a receive buffer
 * @cqe: its completion
 * @conn: its connection
 * @buf: @len bytes
 * @dma: DMA address of @buf
 * @len: buffer size
 */
struct smq_iser_rx {
	struct ib_cqe cqe;
	struct smq_iser_conn *conn;
	u8 *buf;
	u64 dma;
	unsigned int len;
};

/**
 * struct smq_iser_ctrl - a control PDU send buffer
 * @cqe: its send completion
 * @conn: its connection
 * @buf: iSER header + BHS + SMQ_ISER_LOGIN_DATA bytes of data
 * @dma: DMA address of @buf
 * @idx: index in conn->ctrl (bit in conn->ctrl_busy)
 */
struct smq_iser_ctrl {
	struct ib_cqe cqe;
	struct smq_iser_conn *conn;
	u8 *buf;
	u64 dma;
	unsigned int idx;
};

/**
 * struct smq_iser_conn - one iSCSI session with one iSER connection
 * @ihost: its host
 * @idx: hardware queue index
 * @isid: ISID (fixed: a reconnect reinstates the session)
 * @tsih: TSIH the target gave at the last login
 * @cm_id: RDMA CM id, NULL while down
 * @pd: protection domain
 * @cq: completion queue (softirq polled)
 * @qp: RC queue pair
 * @lock: protects @state, @cmdsn, @expstatsn, @win, @blocked, @failfast
 *	(written), @ping_itt, @ping_sent, every task's @cmd, @rsp,
 *	@forgotten, and the order of posts on @qp
 * @state: SMQ_ISER_*
 * @cmdsn: next CmdSN
 * @expstatsn: next StatSN expected
 * @win: CmdSN window
 * @params: negotiated parameters of the last login
 * @tasks: @nr_tasks slots, by tag
 * @nr_tasks: host can_queue
 * @hdrs: the tasks' header array (@nr_tasks * SMQ_ISER_HDRS_LEN bytes)
 * @hdrs_dma: its DMA address
 * @rx: @nr_rx receive buffers
 * @nr_rx: tasks + SMQ_ISER_RX_EXTRA
 * @login_rx: the receive buffer of login and text responses
 * @ctrl: control PDU send buffers
 * @ctrl_busy: bit per @ctrl entry in use
 * @mgmt_mutex: serializes connect, login, logout, TMF and teardown
 * @mgmt_itt: ITT of the control request waiting for an answer
 * @mgmt_done: completed by that answer (or a connection failure)
 * @mgmt_rsp: its response code (TMF, logout) or login status
 * @mgmt_buf: copy of a login or text response (iSER header + PDU)
 * @mgmt_len: its length
 * @cm_done: completed by each RDMA CM event the setup waits for
 * @cm_event: the last such event
 * @cm_error: its status
 * @recover_work: tears a lost connection down and logs in again
 * @tmo_work: the replacement timeout of an outage: fails commands fast
 * @nop_work: keepalive: pings an idle target, notices an unanswered ping
 * @wait: woken when a forgotten task is released and when the session
 *	comes back or gives up waiting (@failfast)
 * @fail_time: jiffies when the connection was lost
 * @blocked: this session holds the host blocked (smq_scsi_block_host())
 *	while it is being recovered
 * @failfast: the replacement timeout expired: commands fail at once
 * @last_rx: jiffies of the last PDU received
 * @ping_itt: ITT of our NOP-Out waiting for its NOP-In, 0: none
 * @ping_sent: jiffies when it was sent
 * @pings: NOP-Outs sent as keepalive
 * @ping_timeouts: connections declared lost for an unanswered ping
 * @epoch: connections made (mgmt_mutex): a held response belongs to one
 * @stale_rsp: SCSI Responses that matched no command in flight (a late
 *	answer to a command taken back), dropped (conn->lock)
 * @late_work: delivers the held response (fault injection)
 * @late_buf: the held SCSI Response (SMQ_ISER_RX_LEN bytes)
 * @late_len: its length
 * @late_wc: what its work completion said about remote invalidation
 * @late_epoch: @epoch when it was received
 * @late_held: a response is held (conn->lock)
 * @reconnects: successful logins after the first
 * @attempts: failed logins since the connection was lost
 * @ctrl_seq: ITT sequence of control PDUs
 * @busy_window: commands sent back busy: CmdSN window closed or their
 *	slot still held (conn->lock)
 * @busy_reg: busy: no registration (mapping or MR pool) (conn->lock)
 * @busy_post: busy: the send queue refused the post (conn->lock)
 */
struct smq_iser_conn {
	struct smq_iser_host *ihost;
	unsigned int idx;
	u8 isid[SMQ_ISCSI_ISID_LEN];
	u16 tsih;
	struct rdma_cm_id *cm_id;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	spinlock_t lock;	/* state, SNs, window, task ownership, post order */
	enum smq_iser_conn_state state;
	u32 cmdsn;
	u32 expstatsn;
	struct smq_iscsi_window win;
	struct smq_iscsi_params params;
	struct smq_iser_task *tasks;
	unsigned int nr_tasks;
	u8 *hdrs;
	u64 hdrs_dma;
	struct smq_iser_rx *rx;
	unsigned int nr_rx;
	struct smq_iser_rx login_rx;
	struct smq_iser_ctrl ctrl[SMQ_ISER_NR_CTRL];
	unsigned long ctrl_busy;
	struct mutex mgmt_mutex;	/* connect, login, TMF, logout, teardown */
	u32 mgmt_itt;
	struct completion mgmt_done;
	int mgmt_rsp;
	u8 *mgmt_buf;
	unsigned int mgmt_len;
	struct completion cm_done;
	int cm_event;
	int cm_error;
	struct delayed_work recover_work;
	struct delayed_work tmo_work;
	struct delayed_work nop_work;
	wait_queue_head_t wait;
	unsigned long fail_time;
	bool blocked;
	bool failfast;
	unsigned long last_rx;
	u32 ping_itt;
	unsigned long ping_sent;
	unsigned long pings;
	unsigned int ping_timeouts;
	unsigned int epoch;
	unsigned long stale_rsp;
	struct delayed_work late_work;
	u8 *late_buf;
	unsigned int late_len;
	struct ib_wc late_wc;
	unsigned int late_epoch;
	bool late_held;
	unsigned int reconnects;
	unsigned int attempts;
	u32 ctrl_seq;
	unsigned long busy_window;
	unsigned long busy_reg;
	unsigned long busy_post;
};

/**
 * struct smq_iser_host - one add_target
 * @shost: the smq host
 * @opts: what add_target asked for
 * @conns: @opts.queues sessions
 * @entry: in the driver's host list
 * @removing: remove_target or rmmod started: no reconnect, commands fail
 * @drop_rsp: SCSI Responses still to drop as if lost (fault injection,
 *	hostN/iser_drop_responses): their commands time out
 * @late_rsp: SCSI Responses still to deliver SMQ_ISER_LATE_MS late (fault
 *	injection, hostN/iser_late_responses; one held per session at a time)
 * @drop_tmf: Task Management Function Responses still to drop (fault
 *	injection, hostN/iser_drop_tmf_responses): the TMF times out and
 *	error handling escalates
 */
struct smq_iser_host {
	struct smq_scsi_host *shost;
	struct smq_iser_opts opts;
	struct smq_iser_conn *conns;
	struct list_head entry;
	bool removing;
	atomic_t drop_rsp;
	atomic_t late_rsp;
	atomic_t drop_tmf;
};

/**
 * struct smq_iser_cmd - driver data of a command
 * @conn: connection it was sent on (set by ->queuecommand)
 * @task: its slot there
 */
struct smq_iser_cmd {
	struct smq_iser_conn *conn;
	struct smq_iser_task *task;
};

/* Log a failed login now: the first of a recovery and every 16th after. */
static inline bool smq_iser_conn_log_ok(const struct smq_iser_conn *conn)
{
	return !(conn->attempts % 16);
}

static inline struct smq_iser_host *smq_iser_host(struct smq_scsi_host *shost)
{
	return *(struct smq_iser_host **)smq_shost_priv(shost);
}

/* smq_iser_main.c */
extern struct workqueue_struct *smq_iser_wq;
int smq_iser_parse_opts(const char *buf, struct smq_iser_opts *o);
void smq_iser_opts_wipe(struct smq_iser_opts *o);

/* smq_iser_chap.c */
struct smq_iscsi_chap *smq_iser_chap_alloc(const struct smq_iser_opts *o);
void smq_iser_chap_free(struct smq_iscsi_chap *c);

/* smq_iser_conn.c */
int smq_iser_conn_init(struct smq_iser_conn *conn, struct smq_iser_host *ih,
		       unsigned int idx);
void smq_iser_conn_exit(struct smq_iser_conn *conn);
int smq_iser_conn_start(struct smq_iser_conn *conn);
void smq_iser_conn_stop(struct smq_iser_conn *conn, u8 host_byte,
			bool forget);
void smq_iser_conn_failure(struct smq_iser_conn *conn, const char *why);
void smq_iser_conn_up(struct smq_iser_conn *conn);
void smq_iser_conn_lost(struct smq_iser_conn *conn);
void smq_iser_conn_unblock(struct smq_iser_conn *conn);
void smq_iser_conn_rearm(struct smq_iser_conn *conn);
const char *smq_iser_state_name(enum smq_iser_conn_state s);

/* smq_iser_session.c */
int smq_iser_login(struct smq_iser_conn *conn);
void smq_iser_logout(struct smq_iser_conn *conn);
int smq_iser_sendtargets(struct smq_iser_conn *conn, char *out, size_t size);
int smq_iser_tmf(struct smq_iser_conn *conn, u8 function, u64 lun,
		 struct smq_iser_task *task);
void smq_iser_nop_reply(struct smq_iser_conn *conn,
			const struct smq_iscsi_pdu *p);
void smq_iser_nop_in(struct smq_iser_conn *conn, const struct smq_iscsi_pdu *p);
void smq_iser_nop_work(struct work_struct *work);
void smq_iser_mgmt_answer(struct smq_iser_conn *conn,
			  const struct smq_iscsi_pdu *p, const u8 *buf,
			  unsigned int len);
void smq_iser_ctrl_done(struct ib_cq *cq, struct ib_wc *wc);
void smq_iser_default_initiator(char *buf);

/* smq_iser_io.c */
int smq_iser_queuecommand(struct smq_scsi_host *shost,
			  struct smq_scsi_cmnd *cmd);
void smq_iser_recv_done(struct ib_cq *cq, struct ib_wc *wc);
void smq_iser_send_done(struct ib_cq *cq, struct ib_wc *wc);
void smq_iser_reg_done(struct ib_cq *cq, struct ib_wc *wc);
void smq_iser_inv_done(struct ib_cq *cq, struct ib_wc *wc);
int smq_iser_post_recv(struct smq_iser_conn *conn, struct smq_iser_rx *rx);
void smq_iser_reap_tasks(struct smq_iser_conn *conn, u8 host_byte,
			 bool forget);
int smq_iser_forget_task(struct smq_iser_conn *conn,
			 struct smq_iser_task *task,
			 struct smq_scsi_cmnd *cmd);
void smq_iser_window_rx(struct smq_iser_conn *conn,
			const struct smq_iscsi_pdu *p);
void smq_iser_late_work(struct work_struct *work);

/* smq_iser_eh.c */
enum smq_eh_timer_return smq_iser_eh_timed_out(struct smq_scsi_cmnd *cmd);
int smq_iser_eh_abort(struct smq_scsi_cmnd *cmd);
int smq_iser_eh_device_reset(struct smq_scsi_cmnd *cmd);
int smq_iser_eh_target_reset(struct smq_scsi_cmnd *cmd);
int smq_iser_eh_host_reset(struct smq_scsi_cmnd *cmd);

#endif /* _SMQ_ISER_H */
