// SPDX-License-Identifier: GPL-2.0
/*
 * smq_iser: iSCSI Basic Header Segments (RFC 7143 11), the iSER header and
 * RDMA CM private data (RFC 7145 9), serial number arithmetic (RFC 1982)
 * and the CmdSN window (RFC 7143 4.2.2.1).  See smq_iser_pdu.h.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <smq/unaligned.h>
#include "smq_iser_pdu.h"

/* BHS offsets common to all PDUs */
#define BHS_OPCODE	0
#define BHS_FLAGS	1
#define BHS_AHSLEN	4
#define BHS_DLEN	5
#define BHS_LUN		8
#define BHS_ITT		16
/* initiator PDUs */
#define BHS_TTT		20	/* NOP-Out, Text; RTT of TMF; EDTL of Cmd */
#define BHS_CMDSN	24
#define BHS_EXPSTATSN	28
/* target PDUs */
#define BHS_STATSN	24
#define BHS_EXPCMDSN	28
#define BHS_MAXCMDSN	32

/* iSER header offsets (RFC 7145 9.2) */
#define ISER_FLAGS	0
#define ISER_WSTAG	4
#define ISER_WVA	8
#define ISER_RSTAG	16
#define ISER_RVA	20

static void smq_bhs_put_dlen(u8 *bhs, u32 dlen)
{
	bhs[BHS_DLEN] = dlen >> 16;
	bhs[BHS_DLEN + 1] = dlen >> 8;
	bhs[BHS_DLEN + 2] = dlen;
}

static u32 smq_bhs_get_dlen(const u8 *bhs)
{
	return (u32)bhs[BHS_DLEN] << 16 | (u32)bhs[BHS_DLEN + 1] << 8 |
	       bhs[BHS_DLEN + 2];
}

/* Zero @bhs and write byte 0, ITT and the sequence numbers. */
static void smq_bhs_start(u8 *bhs, u8 opcode, bool immediate, u32 itt,
			  u32 cmdsn, u32 expstatsn)
{
	memset(bhs, 0, SMQ_ISCSI_BHS_LEN);
	bhs[BHS_OPCODE] = opcode | (immediate ? SMQ_ISCSI_OP_IMMEDIATE : 0);
	put_unaligned_be32(itt, &bhs[BHS_ITT]);
	put_unaligned_be32(cmdsn, &bhs[BHS_CMDSN]);
	put_unaligned_be32(expstatsn, &bhs[BHS_EXPSTATSN]);
}

/**
 * smq_iser_build_hdr() - build the iSER header of an iSCSI control PDU
 * @hdr: output, SMQ_ISER_HDR_LEN bytes.
 * @read_stag: STag (rkey) of the buffer the target writes read data to.
 * @read_va: its tagged offset (virtual address).
 * @rsv: @read_stag / @read_va are valid (RSV flag); else written as 0.
 * @write_stag: STag (rkey) of the buffer the target reads write data from.
 * @write_va: its tagged offset.
 * @wsv: @write_stag / @write_va are valid (WSV flag); else written as 0.
 */
void smq_iser_build_hdr(u8 *hdr, u32 read_stag, u64 read_va, bool rsv,
			u32 write_stag, u64 write_va, bool wsv)
{
	memset(hdr, 0, SMQ_ISER_HDR_LEN);
	hdr[ISER_FLAGS] = SMQ_ISER_ISCSI_CTRL;
	if (wsv) {
		hdr[ISER_FLAGS] |= SMQ_ISER_WSV;
		put_unaligned_be32(write_stag, &hdr[ISER_WSTAG]);
		put_unaligned_be64(write_va, &hdr[ISER_WVA]);
	}
	if (rsv) {
		hdr[ISER_FLAGS] |= SMQ_ISER_RSV;
		put_unaligned_be32(read_stag, &hdr[ISER_RSTAG]);
		put_unaligned_be64(read_va, &hdr[ISER_RVA]);
	}
}

/**
 * smq_iser_build_cm_hdr() - build the initiator's RDMA CM private data
 * @priv: output, SMQ_ISER_CM_HDR_LEN bytes.
 * @no_send_w_inv: the initiator cannot take Send with Invalidate.
 *
 * ZBVA_NOT_SUP is always set: the initiator advertises virtual
 * addresses, not zero-based offsets (as Linux's ib_iser does).
 */
void smq_iser_build_cm_hdr(u8 *priv, bool no_send_w_inv)
{
	memset(priv, 0, SMQ_ISER_CM_HDR_LEN);
	priv[0] = SMQ_ISER_ZBVA_NOT_SUP;
	if (no_send_w_inv)
		priv[0] |= SMQ_ISER_SEND_W_INV_NOT_SUP;
}

/**
 * smq_iser_cm_send_w_inv() - may the target use Send with Invalidate?
 * @priv: the target's RDMA CM private data (accept), or NULL.
 * @len: its length.
 *
 * Return: true unless the target's flags say it will not use it; a
 * target sending no private data is taken as not using it.
 */
bool smq_iser_cm_send_w_inv(const u8 *priv, size_t len)
{
	if (!priv || len < 1)
		return false;
	return !(priv[0] & SMQ_ISER_SEND_W_INV_NOT_SUP);
}

/**
 * smq_iscsi_build_cmd() - build a SCSI Command BHS (RFC 7143 11.3)
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @a: the fields.
 *
 * The F bit is always set: an iSER initiator sends no Data-Out.  A CDB
 * shorter than 16 bytes is zero-padded.
 *
 * Return: 0, or -EINVAL (no CDB, longer than 16 bytes, an attribute
 * above 7 or a data segment length over 24 bits); @bhs is then zeroed.
 */
int smq_iscsi_build_cmd(u8 *bhs, const struct smq_iscsi_cmd_args *a)
{
	if (!a->cdb || !a->cdb_len || a->cdb_len > SMQ_ISCSI_CDB_MAX ||
	    a->attr > SMQ_ISCSI_CMD_ATTR_MASK || a->dlen > SMQ_ISCSI_MAX_DLEN) {
		memset(bhs, 0, SMQ_ISCSI_BHS_LEN);
		return -EINVAL;
	}
	smq_bhs_start(bhs, SMQ_ISCSI_OP_SCSI_CMD, a->immediate, a->itt,
		      a->cmdsn, a->expstatsn);
	bhs[BHS_FLAGS] = SMQ_ISCSI_FLAG_FINAL | a->attr |
			 (a->read ? SMQ_ISCSI_CMD_READ : 0) |
			 (a->write ? SMQ_ISCSI_CMD_WRITE : 0);
	smq_bhs_put_dlen(bhs, a->dlen);
	smq_iscsi_lun_encode(a->lun, &bhs[BHS_LUN]);
	put_unaligned_be32(a->edtl, &bhs[20]);
	memcpy(&bhs[32], a->cdb, a->cdb_len);
	return 0;
}

/**
 * smq_iscsi_build_tmf() - build a Task Management Function Request BHS
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @a: the fields; the function is masked to 7 bits.
 *
 * RFC 7143 11.5: always immediate (I bit set), F bit set.
 */
void smq_iscsi_build_tmf(u8 *bhs, const struct smq_iscsi_tmf_args *a)
{
	smq_bhs_start(bhs, SMQ_ISCSI_OP_TMF_REQ, true, a->itt, a->cmdsn,
		      a->expstatsn);
	bhs[BHS_FLAGS] = SMQ_ISCSI_FLAG_FINAL | (a->function & 0x7f);
	smq_iscsi_lun_encode(a->lun, &bhs[BHS_LUN]);
	put_unaligned_be32(a->rtt, &bhs[20]);
	put_unaligned_be32(a->refcmdsn, &bhs[32]);
}

/**
 * smq_iscsi_build_nop_out() - build a NOP-Out BHS (RFC 7143 11.18)
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @itt: SMQ_ISCSI_RSVD_TAG when answering a NOP-In, else a task tag
 *	(a ping the target answers).
 * @ttt: the NOP-In's TTT when answering one, else SMQ_ISCSI_RSVD_TAG.
 * @lun: the NOP-In's LUN when answering one, else 0.
 * @cmdsn: CmdSN.
 * @expstatsn: ExpStatSN.
 * @immediate: I bit (a reply to a NOP-In must be immediate).
 * @dlen: DataSegmentLength (ping data).
 *
 * Return: 0, or -EINVAL if @dlen exceeds 24 bits (@bhs zeroed).
 */
int smq_iscsi_build_nop_out(u8 *bhs, u32 itt, u32 ttt, u64 lun, u32 cmdsn,
			    u32 expstatsn, bool immediate, u32 dlen)
{
	if (dlen > SMQ_ISCSI_MAX_DLEN) {
		memset(bhs, 0, SMQ_ISCSI_BHS_LEN);
		return -EINVAL;
	}
	smq_bhs_start(bhs, SMQ_ISCSI_OP_NOOP_OUT, immediate, itt, cmdsn,
		      expstatsn);
	bhs[BHS_FLAGS] = SMQ_ISCSI_FLAG_FINAL;
	smq_bhs_put_dlen(bhs, dlen);
	smq_iscsi_lun_encode(lun, &bhs[BHS_LUN]);
	put_unaligned_be32(ttt, &bhs[BHS_TTT]);
	return 0;
}

/**
 * smq_iscsi_build_logout() - build a Logout Request BHS (RFC 7143 11.14)
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @reason: SMQ_ISCSI_LOGOUT_* reason code (masked to 7 bits).
 * @itt: Initiator Task Tag.
 * @cid: CID of the connection to close (reasons 1 and 2).
 * @cmdsn: CmdSN.
 * @expstatsn: ExpStatSN.
 * @immediate: I bit.
 */
void smq_iscsi_build_logout(u8 *bhs, u8 reason, u32 itt, u16 cid, u32 cmdsn,
			    u32 expstatsn, bool immediate)
{
	smq_bhs_start(bhs, SMQ_ISCSI_OP_LOGOUT_REQ, immediate, itt, cmdsn,
		      expstatsn);
	bhs[BHS_FLAGS] = SMQ_ISCSI_FLAG_FINAL | (reason & 0x7f);
	put_unaligned_be16(cid, &bhs[20]);
}

/**
 * smq_iscsi_build_login() - build a Login Request BHS (RFC 7143 11.12)
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @a: the fields.
 *
 * Always immediate; Version-max and Version-min are 0.  NSG is written
 * only with the T bit (it is reserved without it).
 *
 * Return: 0, or -EINVAL (a stage above 3, stage 2, T and C together, or
 * a data segment length over 24 bits); @bhs is then zeroed.
 */
int smq_iscsi_build_login(u8 *bhs, const struct smq_iscsi_login_args *a)
{
	if (a->csg > SMQ_ISCSI_STAGE_FULL_FEATURE || a->csg == 2 ||
	    (a->transit && (a->nsg > SMQ_ISCSI_STAGE_FULL_FEATURE ||
			    a->nsg == 2 || a->cont)) ||
	    a->dlen > SMQ_ISCSI_MAX_DLEN) {
		memset(bhs, 0, SMQ_ISCSI_BHS_LEN);
		return -EINVAL;
	}
	smq_bhs_start(bhs, SMQ_ISCSI_OP_LOGIN_REQ, true, a->itt, a->cmdsn,
		      a->expstatsn);
	bhs[BHS_FLAGS] = a->csg << SMQ_ISCSI_LOGIN_CSG_SHIFT;
	if (a->transit)
		bhs[BHS_FLAGS] |= SMQ_ISCSI_LOGIN_TRANSIT | a->nsg;
	if (a->cont)
		bhs[BHS_FLAGS] |= SMQ_ISCSI_TEXT_CONTINUE;
	smq_bhs_put_dlen(bhs, a->dlen);
	memcpy(&bhs[8], a->isid, SMQ_ISCSI_ISID_LEN);
	put_unaligned_be16(a->tsih, &bhs[14]);
	put_unaligned_be16(a->cid, &bhs[20]);
	return 0;
}

/**
 * smq_iscsi_build_text() - build a Text Request BHS (RFC 7143 11.10)
 * @bhs: output, SMQ_ISCSI_BHS_LEN bytes.
 * @itt: Initiator Task Tag.
 * @ttt: SMQ_ISCSI_RSVD_TAG for a new exchange, else the TTT of the
 *	Text Response being continued.
 * @cmdsn: CmdSN.
 * @expstatsn: ExpStatSN.
 * @final: F bit.
 * @cont: C bit (more text follows; not with @final).
 * @dlen: DataSegmentLength.
 *
 * The LUN field is zero.
 *
 * Return: 0, or -EINVAL (@final with @cont, or @dlen over 24 bits);
 * @bhs is then zeroed.
 */
int smq_iscsi_build_text(u8 *bhs, u32 itt, u32 ttt, u32 cmdsn, u32 expstatsn,
			 bool final, bool cont, u32 dlen)
{
	if ((final && cont) || dlen > SMQ_ISCSI_MAX_DLEN) {
		memset(bhs, 0, SMQ_ISCSI_BHS_LEN);
		return -EINVAL;
	}
	smq_bhs_start(bhs, SMQ_ISCSI_OP_TEXT_REQ, false, itt, cmdsn, expstatsn);
	bhs[BHS_FLAGS] = (final ? SMQ_ISCSI_FLAG_FINAL : 0) |
			 (cont ? SMQ_ISCSI_TEXT_CONTINUE : 0);
	smq_bhs_put_dlen(bhs, dlen);
	put_unaligned_be32(ttt, &bhs[BHS_TTT]);
	return 0;
}

static int smq_parse_scsi_rsp(const u8 *b, struct smq_iscsi_pdu *p)
{
	u8 f = b[BHS_FLAGS];

	p->u.scsi.overflow = f & SMQ_ISCSI_RSP_OVERFLOW;
	p->u.scsi.underflow = f & SMQ_ISCSI_RSP_UNDERFLOW;
	p->u.scsi.bidi_overflow = f & SMQ_ISCSI_RSP_BIDI_OVERFLOW;
	p->u.scsi.bidi_underflow = f & SMQ_ISCSI_RSP_BIDI_UNDERFLOW;
	/* RFC 7143 11.4.5: O and U, o and u, are exclusive */
	if ((p->u.scsi.overflow && p->u.scsi.underflow) ||
	    (p->u.scsi.bidi_overflow && p->u.scsi.bidi_underflow))
		return -EPROTO;
	p->u.scsi.response = b[2];
	p->u.scsi.status = b[3];
	p->u.scsi.expdatasn = get_unaligned_be32(&b[36]);
	p->u.scsi.bidi_residual = get_unaligned_be32(&b[40]);
	p->u.scsi.residual = get_unaligned_be32(&b[44]);
	return 0;
}

static void smq_parse_login_rsp(const u8 *b, struct smq_iscsi_pdu *p)
{
	u8 f = b[BHS_FLAGS];

	p->u.login.transit = f & SMQ_ISCSI_LOGIN_TRANSIT;
	p->u.login.cont = f & SMQ_ISCSI_TEXT_CONTINUE;
	p->u.login.csg = (f >> SMQ_ISCSI_LOGIN_CSG_SHIFT) &
			 SMQ_ISCSI_LOGIN_STAGE_MASK;
	p->u.login.nsg = f & SMQ_ISCSI_LOGIN_STAGE_MASK;
	p->u.login.version_max = b[2];
	p->u.login.version_active = b[3];
	memcpy(p->u.login.isid, &b[8], SMQ_ISCSI_ISID_LEN);
	p->u.login.tsih = get_unaligned_be16(&b[14]);
	p->u.login.status_class = b[36];
	p->u.login.status_detail = b[37];
}

/**
 * smq_iscsi_parse_pdu() - parse a PDU from the target
 * @buf: the PDU as received after the iSER header: BHS, AHS, data.
 * @len: bytes received in @buf.
 * @p: output; zeroed first.  Its @data and @u.reject.hdr point into @buf.
 *
 * Only PDUs that can arrive over iSER are accepted: NOP-In, SCSI
 * Response, TMF Response, Login Response, Text Response, Logout
 * Response, Asynchronous Message and Reject.  Data-In and R2T are
 * replaced by RDMA operations (RFC 7145 7.3) and, like initiator or
 * unknown opcodes, rejected.  iSER carries no padding, so bytes after
 * the data segment are ignored.
 *
 * Return: 0; -EMSGSIZE if @len is shorter than the BHS or than the AHS
 * and data segment it announces; -EPROTO for an opcode that cannot
 * arrive here or contradictory flags.
 */
int smq_iscsi_parse_pdu(const u8 *buf, size_t len, struct smq_iscsi_pdu *p)
{
	size_t need;

	memset(p, 0, sizeof(*p));
	if (!buf || len < SMQ_ISCSI_BHS_LEN)
		return -EMSGSIZE;
	p->opcode = buf[BHS_OPCODE] & SMQ_ISCSI_OP_MASK;
	switch (p->opcode) {
	case SMQ_ISCSI_OP_NOOP_IN:
	case SMQ_ISCSI_OP_SCSI_RSP:
	case SMQ_ISCSI_OP_TMF_RSP:
	case SMQ_ISCSI_OP_LOGIN_RSP:
	case SMQ_ISCSI_OP_TEXT_RSP:
	case SMQ_ISCSI_OP_LOGOUT_RSP:
	case SMQ_ISCSI_OP_ASYNC:
	case SMQ_ISCSI_OP_REJECT:
		break;
	default:
		return -EPROTO;
	}
	p->flags = buf[BHS_FLAGS];
	p->ahs_len = buf[BHS_AHSLEN] * 4;
	p->dlen = smq_bhs_get_dlen(buf);
	need = (size_t)SMQ_ISCSI_BHS_LEN + p->ahs_len + p->dlen;
	if (need > len)
		return -EMSGSIZE;
	if (p->dlen)
		p->data = buf + SMQ_ISCSI_BHS_LEN + p->ahs_len;
	p->itt = get_unaligned_be32(&buf[BHS_ITT]);
	p->ttt = SMQ_ISCSI_RSVD_TAG;
	p->statsn = get_unaligned_be32(&buf[BHS_STATSN]);
	p->expcmdsn = get_unaligned_be32(&buf[BHS_EXPCMDSN]);
	p->maxcmdsn = get_unaligned_be32(&buf[BHS_MAXCMDSN]);

	switch (p->opcode) {
	case SMQ_ISCSI_OP_NOOP_IN:
		p->lun = smq_iscsi_lun_decode(&buf[BHS_LUN]);
		p->ttt = get_unaligned_be32(&buf[BHS_TTT]);
		break;
	case SMQ_ISCSI_OP_SCSI_RSP:
		return smq_parse_scsi_rsp(buf, p);
	case SMQ_ISCSI_OP_TMF_RSP:
		p->u.tmf.response = buf[2];
		break;
	case SMQ_ISCSI_OP_LOGIN_RSP:
		smq_parse_login_rsp(buf, p);
		break;
	case SMQ_ISCSI_OP_TEXT_RSP:
		p->lun = smq_iscsi_lun_decode(&buf[BHS_LUN]);
		p->ttt = get_unaligned_be32(&buf[BHS_TTT]);
		p->u.text.final = p->flags & SMQ_ISCSI_FLAG_FINAL;
		p->u.text.cont = p->flags & SMQ_ISCSI_TEXT_CONTINUE;
		if (p->u.text.final && p->u.text.cont)
			return -EPROTO;
		break;
	case SMQ_ISCSI_OP_LOGOUT_RSP:
		p->u.logout.response = buf[2];
		p->u.logout.time2wait = get_unaligned_be16(&buf[40]);
		p->u.logout.time2retain = get_unaligned_be16(&buf[42]);
		break;
	case SMQ_ISCSI_OP_ASYNC:
		p->lun = smq_iscsi_lun_decode(&buf[BHS_LUN]);
		p->u.async.event = buf[36];
		p->u.async.vcode = buf[37];
		p->u.async.param1 = get_unaligned_be16(&buf[38]);
		p->u.async.param2 = get_unaligned_be16(&buf[40]);
		p->u.async.param3 = get_unaligned_be16(&buf[42]);
		break;
	case SMQ_ISCSI_OP_REJECT:
		p->u.reject.reason = buf[2];
		if (p->dlen >= SMQ_ISCSI_BHS_LEN)
			p->u.reject.hdr = p->data;
		break;
	}
	return 0;
}

/**
 * smq_iscsi_rsp_sense() - the sense data of a parsed SCSI Response
 * @p: a PDU parsed by smq_iscsi_parse_pdu().
 * @sense: output, the sense bytes (inside the parsed buffer), or NULL.
 * @len: output, their number (0: no sense data).
 *
 * The data segment starts with a 2-byte SenseLength (RFC 7143 11.4.7);
 * response data may follow the sense data and is not returned.
 *
 * Return: 0 (also for an empty data segment: no sense); -EINVAL if @p
 * is no SCSI Response; -EPROTO if the segment is shorter than 2 bytes or
 * than the SenseLength it announces.
 */
int smq_iscsi_rsp_sense(const struct smq_iscsi_pdu *p, const u8 **sense,
			unsigned int *len)
{
	unsigned int slen;

	*sense = NULL;
	*len = 0;
	if (p->opcode != SMQ_ISCSI_OP_SCSI_RSP)
		return -EINVAL;
	if (!p->dlen)
		return 0;
	if (p->dlen < 2 || !p->data)
		return -EPROTO;
	slen = get_unaligned_be16(p->data);
	if (slen > p->dlen - 2)
		return -EPROTO;
	if (slen) {
		*sense = p->data + 2;
		*len = slen;
	}
	return 0;
}

/**
 * smq_iscsi_sn_lt() - RFC 1982 "less than" of 32-bit serial numbers
 * @a: serial number.
 * @b: serial number.
 *
 * Return: true if @a precedes @b; false if equal, if @b precedes @a or
 * if they are exactly 2^31 apart (undefined by RFC 1982).
 */
bool smq_iscsi_sn_lt(u32 a, u32 b)
{
	u32 d = b - a;

	return d && d < 0x80000000U;
}

/**
 * smq_iscsi_sn_lte() - RFC 1982 "less than or equal" of serial numbers
 * @a: serial number.
 * @b: serial number.
 *
 * Return: @a == @b or smq_iscsi_sn_lt(@a, @b).
 */
bool smq_iscsi_sn_lte(u32 a, u32 b)
{
	return a == b || smq_iscsi_sn_lt(a, b);
}

/**
 * smq_iscsi_window_update() - take ExpCmdSN / MaxCmdSN from a target PDU
 * @w: the session's window; the caller serializes.
 * @expcmdsn: ExpCmdSN received.
 * @maxcmdsn: MaxCmdSN received.
 *
 * RFC 7143 4.2.2.1: a pair with MaxCmdSN < ExpCmdSN - 1 (serial) is
 * ignored entirely; otherwise each number is taken only if it moves
 * forward.  The first valid pair (the login response's) is taken as is.
 *
 * Return: true if the pair was accepted (even if nothing moved).
 */
bool smq_iscsi_window_update(struct smq_iscsi_window *w, u32 expcmdsn,
			     u32 maxcmdsn)
{
	if (smq_iscsi_sn_lt(maxcmdsn, expcmdsn - 1))
		return false;
	if (!w->valid) {
		w->expcmdsn = expcmdsn;
		w->maxcmdsn = maxcmdsn;
		w->valid = true;
		return true;
	}
	if (smq_iscsi_sn_lt(w->expcmdsn, expcmdsn))
		w->expcmdsn = expcmdsn;
	if (smq_iscsi_sn_lt(w->maxcmdsn, maxcmdsn))
		w->maxcmdsn = maxcmdsn;
	return true;
}

/**
 * smq_iscsi_window_open() - may a non-immediate command with @cmdsn go?
 * @w: the session's window; the caller serializes.
 * @cmdsn: the CmdSN the command would carry.
 *
 * Immediate PDUs do not consume CmdSN and are not limited by the window.
 *
 * Return: true if ExpCmdSN <= @cmdsn <= MaxCmdSN (serial arithmetic);
 * false before the first valid update and when the window is closed
 * (MaxCmdSN == ExpCmdSN - 1).
 */
bool smq_iscsi_window_open(const struct smq_iscsi_window *w, u32 cmdsn)
{
	return w->valid && smq_iscsi_sn_lte(w->expcmdsn, cmdsn) &&
	       smq_iscsi_sn_lte(cmdsn, w->maxcmdsn);
}
