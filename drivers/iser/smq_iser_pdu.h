/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_iser: iSCSI PDUs (RFC 7143), the iSER header (RFC 7145) and login
 * text keys, as pure logic.
 *
 * smq_iser_pdu.c builds initiator-to-target Basic Header Segments (BHS),
 * the 28-byte iSER header and the RDMA CM private data, parses
 * target-to-initiator PDUs and does the CmdSN window arithmetic.
 * smq_iser_login.c builds and negotiates login text keys and parses
 * SendTargets answers.  Both include only kernel headers and
 * <smq/...> headers that do the same, so tests/unit compiles them
 * unchanged in userspace.
 *
 * Received data is untrusted: every parser takes the number of bytes
 * received and never reads beyond it.  Nothing here holds global state
 * or locks: the caller serializes access to the structures it passes in
 * (one connection's login, one session's CmdSN window).
 *
 * Multi-byte wire fields are big-endian; builders write them with
 * put_unaligned_be*(), so buffers need no alignment.
 */
#ifndef _SMQ_ISER_PDU_H
#define _SMQ_ISER_PDU_H

#include <linux/types.h>
#include <smq/cdb.h>

/* ---- sizes ---- */
#define SMQ_ISCSI_BHS_LEN		48	/* Basic Header Segment */
#define SMQ_ISER_HDR_LEN		28	/* iSER header before the BHS */
#define SMQ_ISER_CM_HDR_LEN		4	/* RDMA CM private data */
#define SMQ_ISCSI_CDB_MAX		16	/* CDB bytes in the BHS */
#define SMQ_ISCSI_ISID_LEN		6
#define SMQ_ISCSI_MAX_DLEN		0xffffff	/* 24-bit DataSegmentLength */
#define SMQ_ISCSI_RSVD_TAG		0xffffffffU	/* reserved ITT / TTT */

/* ---- opcodes (byte 0, bits 0-5) ---- */
#define SMQ_ISCSI_OP_MASK		0x3f
#define SMQ_ISCSI_OP_IMMEDIATE		0x40	/* I bit of byte 0 */
/* initiator opcodes */
#define SMQ_ISCSI_OP_NOOP_OUT		0x00
#define SMQ_ISCSI_OP_SCSI_CMD		0x01
#define SMQ_ISCSI_OP_TMF_REQ		0x02
#define SMQ_ISCSI_OP_LOGIN_REQ		0x03
#define SMQ_ISCSI_OP_TEXT_REQ		0x04
#define SMQ_ISCSI_OP_DATA_OUT		0x05
#define SMQ_ISCSI_OP_LOGOUT_REQ		0x06
/* target opcodes */
#define SMQ_ISCSI_OP_NOOP_IN		0x20
#define SMQ_ISCSI_OP_SCSI_RSP		0x21
#define SMQ_ISCSI_OP_TMF_RSP		0x22
#define SMQ_ISCSI_OP_LOGIN_RSP		0x23
#define SMQ_ISCSI_OP_TEXT_RSP		0x24
#define SMQ_ISCSI_OP_DATA_IN		0x25
#define SMQ_ISCSI_OP_LOGOUT_RSP		0x26
#define SMQ_ISCSI_OP_R2T		0x31
#define SMQ_ISCSI_OP_ASYNC		0x32
#define SMQ_ISCSI_OP_REJECT		0x3f

/* ---- byte 1 flags ---- */
#define SMQ_ISCSI_FLAG_FINAL		0x80	/* F (T for login) */
/* SCSI Command */
#define SMQ_ISCSI_CMD_READ		0x40
#define SMQ_ISCSI_CMD_WRITE		0x20
#define SMQ_ISCSI_CMD_ATTR_MASK		0x07
/* task attributes */
#define SMQ_ISCSI_ATTR_UNTAGGED		0
#define SMQ_ISCSI_ATTR_SIMPLE		1
#define SMQ_ISCSI_ATTR_ORDERED		2
#define SMQ_ISCSI_ATTR_HEAD_OF_QUEUE	3
#define SMQ_ISCSI_ATTR_ACA		4
/* SCSI Response residual bits */
#define SMQ_ISCSI_RSP_BIDI_OVERFLOW	0x10	/* o */
#define SMQ_ISCSI_RSP_BIDI_UNDERFLOW	0x08	/* u */
#define SMQ_ISCSI_RSP_OVERFLOW		0x04	/* O */
#define SMQ_ISCSI_RSP_UNDERFLOW		0x02	/* U */
/* Login / Text */
#define SMQ_ISCSI_LOGIN_TRANSIT		0x80	/* T */
#define SMQ_ISCSI_TEXT_CONTINUE		0x40	/* C */
#define SMQ_ISCSI_LOGIN_CSG_SHIFT	2
#define SMQ_ISCSI_LOGIN_STAGE_MASK	0x03

/* ---- SCSI Response: Response field ---- */
#define SMQ_ISCSI_RSP_COMPLETED		0x00
#define SMQ_ISCSI_RSP_TARGET_FAILURE	0x01

/* ---- Task Management functions (byte 1, bits 0-6) ---- */
#define SMQ_ISCSI_TMF_ABORT_TASK	1
#define SMQ_ISCSI_TMF_ABORT_TASK_SET	2
#define SMQ_ISCSI_TMF_CLEAR_ACA		3
#define SMQ_ISCSI_TMF_CLEAR_TASK_SET	4
#define SMQ_ISCSI_TMF_LUN_RESET		5
#define SMQ_ISCSI_TMF_TARGET_WARM_RESET	6
#define SMQ_ISCSI_TMF_TARGET_COLD_RESET	7
/* TMF response codes */
#define SMQ_ISCSI_TMF_RSP_COMPLETE	0
#define SMQ_ISCSI_TMF_RSP_NO_TASK	1
#define SMQ_ISCSI_TMF_RSP_NO_LUN	2
#define SMQ_ISCSI_TMF_RSP_ALLEGIANT	3
#define SMQ_ISCSI_TMF_RSP_NO_REASSIGN	4
#define SMQ_ISCSI_TMF_RSP_NOT_SUPPORTED	5
#define SMQ_ISCSI_TMF_RSP_AUTH_FAILED	6
#define SMQ_ISCSI_TMF_RSP_REJECTED	255

/* ---- Logout reasons and responses ---- */
#define SMQ_ISCSI_LOGOUT_CLOSE_SESSION	0
#define SMQ_ISCSI_LOGOUT_CLOSE_CONN	1
#define SMQ_ISCSI_LOGOUT_RECOVERY	2
#define SMQ_ISCSI_LOGOUT_RSP_OK		0
#define SMQ_ISCSI_LOGOUT_RSP_NO_CID	1
#define SMQ_ISCSI_LOGOUT_RSP_NO_RECOVERY 2
#define SMQ_ISCSI_LOGOUT_RSP_FAILED	3

/* ---- Login stages and status classes ---- */
#define SMQ_ISCSI_STAGE_SECURITY	0
#define SMQ_ISCSI_STAGE_OPERATIONAL	1
#define SMQ_ISCSI_STAGE_FULL_FEATURE	3
#define SMQ_ISCSI_LOGIN_SUCCESS		0
#define SMQ_ISCSI_LOGIN_REDIRECT	1
#define SMQ_ISCSI_LOGIN_INITIATOR_ERR	2
#define SMQ_ISCSI_LOGIN_TARGET_ERR	3

/* ---- Asynchronous events ---- */
#define SMQ_ISCSI_ASYNC_SCSI		0
#define SMQ_ISCSI_ASYNC_LOGOUT_REQ	1
#define SMQ_ISCSI_ASYNC_DROP_CONN	2
#define SMQ_ISCSI_ASYNC_DROP_ALL	3
#define SMQ_ISCSI_ASYNC_NEGOTIATE	4
#define SMQ_ISCSI_ASYNC_TASK_TERM	5
#define SMQ_ISCSI_ASYNC_VENDOR		255

/* ---- iSER header (RFC 7145 9.2) and RDMA CM private data (9.1) ---- */
#define SMQ_ISER_ISCSI_CTRL		0x10	/* opcode: iSCSI control PDU */
#define SMQ_ISER_HELLO			0x20
#define SMQ_ISER_HELLORPLY		0x30
#define SMQ_ISER_OPCODE_MASK		0xf0
#define SMQ_ISER_WSV			0x08	/* write STag valid */
#define SMQ_ISER_RSV			0x04	/* read STag valid */
#define SMQ_ISER_ZBVA_NOT_SUP		0x80	/* CM hdr: no zero-based VA */
#define SMQ_ISER_SEND_W_INV_NOT_SUP	0x40	/* CM hdr: no Send w/ Invalidate */

/**
 * struct smq_iser_cm_hdr - iSER RDMA CM private data (RFC 7145 9.1)
 * @flags: SMQ_ISER_ZBVA_NOT_SUP, SMQ_ISER_SEND_W_INV_NOT_SUP.
 * @rsvd: zero.
 */
struct smq_iser_cm_hdr {
	u8 flags;
	u8 rsvd[3];
};

/**
 * struct smq_iscsi_cmd_args - fields of a SCSI Command BHS
 * @lun: Linux integer LUN (see smq_iscsi_lun_encode()).
 * @itt: Initiator Task Tag.
 * @cmdsn: CmdSN.
 * @expstatsn: ExpStatSN.
 * @edtl: Expected Data Transfer Length.
 * @read: R bit (data from the target).
 * @write: W bit (data to the target).
 * @attr: task attribute, SMQ_ISCSI_ATTR_*.
 * @immediate: I bit (immediate delivery).
 * @cdb: the CDB.
 * @cdb_len: bytes in @cdb, 1 to SMQ_ISCSI_CDB_MAX.
 * @dlen: DataSegmentLength (immediate data; 0 for an iSER initiator).
 */
struct smq_iscsi_cmd_args {
	u64 lun;
	u32 itt, cmdsn, expstatsn, edtl;
	bool read, write;
	u8 attr;
	bool immediate;
	const u8 *cdb;
	unsigned int cdb_len;
	u32 dlen;
};

/**
 * struct smq_iscsi_tmf_args - fields of a Task Management Function Request
 * @function: SMQ_ISCSI_TMF_*.
 * @lun: Linux integer LUN.
 * @itt: Initiator Task Tag of this request.
 * @rtt: Referenced Task Tag (ABORT TASK; else SMQ_ISCSI_RSVD_TAG).
 * @cmdsn: CmdSN (not advanced: the request is immediate).
 * @expstatsn: ExpStatSN.
 * @refcmdsn: RefCmdSN (CmdSN of the task to abort, ABORT TASK).
 */
struct smq_iscsi_tmf_args {
	u8 function;
	u64 lun;
	u32 itt, rtt, cmdsn, expstatsn, refcmdsn;
};

/**
 * struct smq_iscsi_login_args - fields of a Login Request
 * @isid: Initiator Session ID.
 * @tsih: Target Session Identifying Handle (0 for a new session).
 * @itt: Initiator Task Tag.
 * @cid: connection ID.
 * @cmdsn: CmdSN.
 * @expstatsn: ExpStatSN.
 * @csg: current stage, SMQ_ISCSI_STAGE_*.
 * @nsg: next stage (written only if @transit).
 * @transit: T bit.
 * @cont: C bit (more text follows in the next request).
 * @dlen: DataSegmentLength (login text).
 */
struct smq_iscsi_login_args {
	u8 isid[SMQ_ISCSI_ISID_LEN];
	u16 tsih;
	u32 itt;
	u16 cid;
	u32 cmdsn, expstatsn;
	u8 csg, nsg;
	bool transit, cont;
	u32 dlen;
};

/**
 * struct smq_iscsi_pdu - a parsed target-to-initiator PDU
 * @opcode: SMQ_ISCSI_OP_* (without the I bit).
 * @flags: byte 1.
 * @ahs_len: TotalAHSLength in bytes (the AHS follow the BHS).
 * @dlen: DataSegmentLength.
 * @data: the data segment (@dlen bytes, inside the parsed buffer), or
 *	NULL if @dlen is 0.
 * @lun: LUN field as a Linux integer LUN (NOP-In, Async, Text rsp).
 * @itt: Initiator Task Tag.
 * @ttt: Target Transfer Tag (NOP-In, Text rsp; else SMQ_ISCSI_RSVD_TAG).
 * @statsn: StatSN.
 * @expcmdsn: ExpCmdSN.
 * @maxcmdsn: MaxCmdSN.
 * @u: per-opcode fields, the member named after @opcode.
 * @u.scsi: SCSI Response: @response, @status, @flags' residual bits in
 *	@overflow / @underflow / @bidi_overflow / @bidi_underflow,
 *	@residual and @bidi_residual counts, @expdatasn.
 * @u.tmf: TMF Response: @response.
 * @u.login: Login Response: @status_class, @status_detail, @tsih, @csg,
 *	@nsg (valid if @transit), @transit, @cont, @isid, @version_max,
 *	@version_active.
 * @u.text: Text Response: @final, @cont.
 * @u.logout: Logout Response: @response, @time2wait, @time2retain.
 * @u.async: Asynchronous Message: @event, @vcode, @param1-3.
 * @u.reject: Reject: @reason, @hdr (the rejected BHS inside the data
 *	segment if it holds at least SMQ_ISCSI_BHS_LEN bytes, else NULL).
 */
struct smq_iscsi_pdu {
	u8 opcode, flags;
	unsigned int ahs_len;
	u32 dlen;
	const u8 *data;
	u64 lun;
	u32 itt, ttt, statsn, expcmdsn, maxcmdsn;
	union {
		struct {
			u8 response, status;
			bool overflow, underflow;
			bool bidi_overflow, bidi_underflow;
			u32 residual, bidi_residual, expdatasn;
		} scsi;
		struct {
			u8 response;
		} tmf;
		struct {
			u8 status_class, status_detail;
			u16 tsih;
			u8 csg, nsg;
			bool transit, cont;
			u8 isid[SMQ_ISCSI_ISID_LEN];
			u8 version_max, version_active;
		} login;
		struct {
			bool final, cont;
		} text;
		struct {
			u8 response;
			u16 time2wait, time2retain;
		} logout;
		struct {
			u8 event, vcode;
			u16 param1, param2, param3;
		} async;
		struct {
			u8 reason;
			const u8 *hdr;
		} reject;
	} u;
};

/**
 * struct smq_iscsi_window - a session's CmdSN window (RFC 7143 4.2.2.1)
 * @expcmdsn: last accepted ExpCmdSN.
 * @maxcmdsn: last accepted MaxCmdSN.
 * @valid: a first pair was accepted; until then the window is closed.
 *
 * Zero-initialize, then feed every ExpCmdSN / MaxCmdSN pair received to
 * smq_iscsi_window_update().  The caller serializes (session lock).
 */
struct smq_iscsi_window {
	u32 expcmdsn, maxcmdsn;
	bool valid;
};

/* ---- LUN field (SAM-5 4.6, Linux int_to_scsilun() byte order) ---- */

/**
 * smq_iscsi_lun_encode() - Linux integer LUN to the 8-byte LUN field
 * @lun: integer LUN (peripheral: 0-255; flat: 0x4000 | n).
 * @out: 8 bytes.
 */
static inline void smq_iscsi_lun_encode(u64 lun, u8 out[8])
{
	smq_int_to_scsilun(lun, out);
}

/**
 * smq_iscsi_lun_decode() - 8-byte LUN field to a Linux integer LUN
 * @in: 8 bytes.
 *
 * Return: the integer LUN; exact inverse of smq_iscsi_lun_encode().
 */
static inline u64 smq_iscsi_lun_decode(const u8 in[8])
{
	return smq_scsilun_to_int(in);
}

/* ---- iSER (smq_iser_pdu.c) ---- */
void smq_iser_build_hdr(u8 *hdr, u32 read_stag, u64 read_va, bool rsv,
			u32 write_stag, u64 write_va, bool wsv);
void smq_iser_build_cm_hdr(u8 *priv, bool no_send_w_inv);
bool smq_iser_cm_send_w_inv(const u8 *priv, size_t len);

/* ---- BHS builders: each fills SMQ_ISCSI_BHS_LEN bytes ---- */
int smq_iscsi_build_cmd(u8 *bhs, const struct smq_iscsi_cmd_args *a);
void smq_iscsi_build_tmf(u8 *bhs, const struct smq_iscsi_tmf_args *a);
int smq_iscsi_build_nop_out(u8 *bhs, u32 itt, u32 ttt, u64 lun, u32 cmdsn,
			    u32 expstatsn, bool immediate, u32 dlen);
void smq_iscsi_build_logout(u8 *bhs, u8 reason, u32 itt, u16 cid, u32 cmdsn,
			    u32 expstatsn, bool immediate);
int smq_iscsi_build_login(u8 *bhs, const struct smq_iscsi_login_args *a);
int smq_iscsi_build_text(u8 *bhs, u32 itt, u32 ttt, u32 cmdsn, u32 expstatsn,
			 bool final, bool cont, u32 dlen);

/* ---- parser ---- */
int smq_iscsi_parse_pdu(const u8 *buf, size_t len, struct smq_iscsi_pdu *p);
int smq_iscsi_rsp_sense(const struct smq_iscsi_pdu *p, const u8 **sense,
			unsigned int *len);

/* ---- serial number arithmetic and the CmdSN window ---- */
bool smq_iscsi_sn_lt(u32 a, u32 b);
bool smq_iscsi_sn_lte(u32 a, u32 b);
bool smq_iscsi_window_update(struct smq_iscsi_window *w, u32 expcmdsn,
			     u32 maxcmdsn);
bool smq_iscsi_window_open(const struct smq_iscsi_window *w, u32 cmdsn);

/* ---- login text keys (smq_iser_login.c) ---- */
#define SMQ_ISCSI_KEY_MAX		63	/* bytes in a key name */
#define SMQ_ISCSI_VALUE_MAX		255	/* bytes in a value */
#define SMQ_ISCSI_WHY_LEN		128	/* enough for any @why */

/**
 * struct smq_iscsi_params - operational parameters of a session/connection
 * @initiator_recv_dsl: InitiatorRecvDataSegmentLength (RFC 7145), what
 *	we can receive in a control PDU.
 * @target_recv_dsl: TargetRecvDataSegmentLength (RFC 7145), what we may
 *	send in a control PDU.
 * @max_recv_dsl: MaxRecvDataSegmentLength (not negotiated over iSER;
 *	kept at the RFC default unless the target declares it).
 * @max_burst: MaxBurstLength.
 * @first_burst: FirstBurstLength.
 * @max_r2t: MaxOutstandingR2T.
 * @max_unexpected: MaxOutstandingUnexpectedPDUs (0: no limit).
 * @max_conns: MaxConnections.
 * @time2wait: DefaultTime2Wait.
 * @time2retain: DefaultTime2Retain.
 * @erl: ErrorRecoveryLevel.
 * @immediate_data: ImmediateData.
 * @initial_r2t: InitialR2T.
 * @data_pdu_in_order: DataPDUInOrder.
 * @data_seq_in_order: DataSequenceInOrder.
 * @rdma_ext: RDMAExtensions.
 * @header_digest: HeaderDigest is CRC32C (always false for iSER).
 * @data_digest: DataDigest is CRC32C (always false for iSER).
 * @discovery: a Discovery session: only digests and the iSER keys are
 *	proposed, Irrelevant answers and RDMAExtensions=No are accepted.
 * @proposed: internal: keys sent by smq_iscsi_login_keys().
 * @answered: internal: keys the target answered or offered so far.
 * @offered: internal: keys the target offered that need our answer
 *	(smq_iscsi_login_reply_keys()).
 */
struct smq_iscsi_params {
	u32 initiator_recv_dsl, target_recv_dsl, max_recv_dsl;
	u32 max_burst, first_burst, max_r2t, max_unexpected, max_conns;
	u32 time2wait, time2retain, erl;
	bool immediate_data, initial_r2t;
	bool data_pdu_in_order, data_seq_in_order;
	bool rdma_ext, header_digest, data_digest;
	bool discovery;
	u32 proposed, answered, offered;
};

int smq_iscsi_text_add(char *buf, size_t size, size_t *off, const char *key,
		       const char *val);
int smq_iscsi_text_add_u32(char *buf, size_t size, size_t *off,
			   const char *key, u32 val);
void smq_iscsi_params_default(struct smq_iscsi_params *p);
int smq_iscsi_login_keys(struct smq_iscsi_params *p, char *buf, size_t size,
			 size_t *off);
int smq_iscsi_login_negotiate(struct smq_iscsi_params *p, const char *data,
			      size_t len, char *why, size_t whylen);
int smq_iscsi_login_reply_keys(struct smq_iscsi_params *p, char *buf,
			       size_t size, size_t *off);
int smq_iscsi_login_check(const struct smq_iscsi_params *p, char *why,
			  size_t whylen);

int smq_iscsi_sendtargets_parse(const char *data, size_t len,
				int (*fn)(void *ctx, const char *target,
					  const char *addr),
				void *ctx);

/* ---- CHAP in the security stage (smq_iser_login.c) ---- */
#define SMQ_CHAP_MD5			5	/* CHAP_A: RFC 1994 MD5 */
#define SMQ_CHAP_SHA256			7	/* CHAP_A: SHA-256 (RFC 7143) */
#define SMQ_CHAP_DIGEST_MAX		32	/* SHA-256 */
#define SMQ_CHAP_NAME_MAX		255	/* CHAP_N, a value */
#define SMQ_CHAP_SECRET_MAX		255	/* bytes of a secret */
#define SMQ_CHAP_CHALLENGE_MAX		1024	/* RFC 7143 12.1.3 */
/* CHAP_C / CHAP_R may be longer than other values: 0x + 2 digits a byte */
#define SMQ_CHAP_VALUE_MAX		(2 + 2 * SMQ_CHAP_CHALLENGE_MAX)

/**
 * typedef smq_chap_hash_fn - compute H(id || secret || challenge)
 * @ctx: smq_iscsi_chap.hash_ctx.
 * @alg: SMQ_CHAP_MD5 or SMQ_CHAP_SHA256.
 * @id: the CHAP identifier byte.
 * @secret: the secret.
 * @secret_len: its length.
 * @chal: the challenge.
 * @chal_len: its length.
 * @out: the digest (16 or 32 bytes).
 *
 * Return: 0 or a negative errno.  The kernel uses the crypto API
 * (smq_iser_chap.c), the unit tests their own MD5 and SHA-256.
 */
typedef int (*smq_chap_hash_fn)(void *ctx, u8 alg, u8 id, const u8 *secret,
				size_t secret_len, const u8 *chal,
				size_t chal_len, u8 *out);

/**
 * struct smq_iscsi_chap - the CHAP exchange of one login
 * @name: our CHAP_N (one-way: the target authenticates us), or NULL:
 *	no CHAP, AuthMethod=None only.
 * @secret: our secret.
 * @secret_len: its length, 1..SMQ_CHAP_SECRET_MAX.
 * @name_in: the CHAP_N the target must answer (mutual), or NULL.
 * @secret_in: the target's secret.
 * @secret_in_len: its length.
 * @hash: computes the digests.
 * @hash_ctx: passed to @hash.
 * @id: our CHAP_I (mutual; random, set by the caller).
 * @challenge: our CHAP_C (mutual; random, set by the caller); the first
 *	digest-size bytes are sent.
 * @state: internal, SMQ_CHAP_ST_*.
 * @alg: internal, the CHAP_A the target chose.
 * @dlen: internal, its digest size.
 * @resp: internal, the CHAP_R we sent (reflection check).
 * @peer_chal: internal, the target's challenge.
 * @peer_chal_len: internal, its length.
 * @scratch: internal, a digest being checked.
 */
struct smq_iscsi_chap {
	const char *name;
	const u8 *secret;
	size_t secret_len;
	const char *name_in;
	const u8 *secret_in;
	size_t secret_in_len;
	smq_chap_hash_fn hash;
	void *hash_ctx;
	u8 id;
	u8 challenge[SMQ_CHAP_DIGEST_MAX];
	u8 state, alg, dlen;
	u8 resp[SMQ_CHAP_DIGEST_MAX];
	u8 peer_chal[SMQ_CHAP_CHALLENGE_MAX];
	size_t peer_chal_len;
	u8 scratch[SMQ_CHAP_DIGEST_MAX];
};

/* smq_iscsi_chap.state */
enum {
	SMQ_CHAP_ST_START,	/* nothing sent yet */
	SMQ_CHAP_ST_OFFERED,	/* AuthMethod sent */
	SMQ_CHAP_ST_ALG,	/* CHAP_A sent */
	SMQ_CHAP_ST_RESPONSE,	/* CHAP_N/CHAP_R (and ours CHAP_I/C) sent */
	SMQ_CHAP_ST_DONE,	/* authenticated (or AuthMethod=None) */
};

int smq_iscsi_security_offer(struct smq_iscsi_chap *c, char *buf,
			     size_t size, size_t *off, bool *transit);
int smq_iscsi_security_step(struct smq_iscsi_chap *c, const char *data,
			    size_t len, bool target_transit, char *buf,
			    size_t size, size_t *off, bool *transit, char *why,
			    size_t whylen);
int smq_chap_hex_decode(const char *s, size_t n, u8 *out, size_t max);

#endif /* _SMQ_ISER_PDU_H */
