// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of drivers/iser/smq_iser_pdu.c: builders checked byte by
 * byte against the BHS layouts of RFC 7143 11 and the iSER header of
 * RFC 7145 9, the parser on hand-made target PDUs of every type (in
 * exact-size buffers, so ASan sees any over-read), every length error,
 * sense extraction, RFC 1982 arithmetic across the wrap and the CmdSN
 * window rules of RFC 7143 4.2.2.1.
 */
/* SMQ_UNIT_SOURCES: smq_iser_pdu.c smq_cdb.c */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include "smq_iser_pdu.h"

#define V(...)	((const u8[]){ __VA_ARGS__ })

static u8 *dup_exact(const u8 *src, size_t len)
{
	u8 *p = malloc(len ? len : 1);

	if (len)
		memcpy(p, src, len);
	return p;
}

static bool all_zero(const u8 *b, unsigned int from, unsigned int to)
{
	unsigned int i;

	for (i = from; i < to; i++)
		if (b[i])
			return false;
	return true;
}

static void test_iser_hdr(void)
{
	u8 h[SMQ_ISER_HDR_LEN], cm[SMQ_ISER_CM_HDR_LEN];

	CHECK_EQ(sizeof(struct smq_iser_cm_hdr), 4);
	memset(h, 0xee, sizeof(h));
	smq_iser_build_hdr(h, 0x11223344, 0x0102030405060708ULL, true,
			   0xaabbccdd, 0x1112131415161718ULL, true);
	CHECK_EQ(h[0], 0x10 | 0x08 | 0x04);
	CHECK(all_zero(h, 1, 4));
	CHECK_MEM(&h[4], V(0xaa, 0xbb, 0xcc, 0xdd), 4);	/* write STag */
	CHECK_MEM(&h[8], V(0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18), 8);
	CHECK_MEM(&h[16], V(0x11, 0x22, 0x33, 0x44), 4);	/* read STag */
	CHECK_MEM(&h[20], V(1, 2, 3, 4, 5, 6, 7, 8), 8);
	/* read only: write fields zero */
	memset(h, 0xee, sizeof(h));
	smq_iser_build_hdr(h, 7, 0x1000, true, 9, 0x2000, false);
	CHECK_EQ(h[0], SMQ_ISER_ISCSI_CTRL | SMQ_ISER_RSV);
	CHECK(all_zero(h, 1, 16));
	CHECK_EQ(get_unaligned_be32(&h[16]), 7);
	CHECK_EQ(get_unaligned_be64(&h[20]), 0x1000);
	/* write only */
	smq_iser_build_hdr(h, 7, 0x1000, false, 9, 0x2000, true);
	CHECK_EQ(h[0], SMQ_ISER_ISCSI_CTRL | SMQ_ISER_WSV);
	CHECK_EQ(get_unaligned_be32(&h[4]), 9);
	CHECK_EQ(get_unaligned_be64(&h[8]), 0x2000);
	CHECK(all_zero(h, 16, 28));
	/* neither */
	smq_iser_build_hdr(h, 7, 0x1000, false, 9, 0x2000, false);
	CHECK_EQ(h[0], 0x10);
	CHECK(all_zero(h, 1, 28));

	memset(cm, 0xee, sizeof(cm));
	smq_iser_build_cm_hdr(cm, false);
	CHECK_MEM(cm, V(0x80, 0, 0, 0), 4);
	smq_iser_build_cm_hdr(cm, true);
	CHECK_MEM(cm, V(0xc0, 0, 0, 0), 4);
	CHECK(smq_iser_cm_send_w_inv(V(0x80, 0, 0, 0), 4));
	CHECK(!smq_iser_cm_send_w_inv(V(0xc0, 0, 0, 0), 4));
	CHECK(!smq_iser_cm_send_w_inv(NULL, 0));
	CHECK(!smq_iser_cm_send_w_inv(V(0), 0));
}

static void test_lun(void)
{
	u8 l[8];

	smq_iscsi_lun_encode(5, l);
	CHECK_MEM(l, V(0, 5, 0, 0, 0, 0, 0, 0), 8);
	CHECK_EQ(smq_iscsi_lun_decode(l), 5);
	smq_iscsi_lun_encode(0x4000 | 300, l);	/* flat addressing */
	CHECK_MEM(l, V(0x41, 0x2c, 0, 0, 0, 0, 0, 0), 8);
	CHECK_EQ(smq_iscsi_lun_decode(l), 0x4000 | 300);
	smq_iscsi_lun_encode(0x0123456789abcdefULL, l);
	CHECK_EQ(smq_iscsi_lun_decode(l), 0x0123456789abcdefULL);
}

static void test_build_cmd(void)
{
	static const u8 cdb[10] = { 0x28, 0, 0x12, 0x34, 0x56, 0x78, 0, 0, 8, 0 };
	struct smq_iscsi_cmd_args a = {
		.lun = 3, .itt = 0x01020304, .cmdsn = 0x10203040,
		.expstatsn = 0xa0b0c0d0, .edtl = 4096, .read = true,
		.attr = SMQ_ISCSI_ATTR_SIMPLE, .cdb = cdb, .cdb_len = 10,
	};
	u8 b[SMQ_ISCSI_BHS_LEN];

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), 0);
	CHECK_EQ(b[0], 0x01);
	CHECK_EQ(b[1], 0x80 | 0x40 | 0x01);	/* F, R, SIMPLE */
	CHECK(all_zero(b, 2, 8));		/* rsvd, AHS, DSL */
	CHECK_MEM(&b[8], V(0, 3, 0, 0, 0, 0, 0, 0), 8);
	CHECK_MEM(&b[16], V(1, 2, 3, 4), 4);
	CHECK_MEM(&b[20], V(0, 0, 0x10, 0), 4);	/* EDTL */
	CHECK_MEM(&b[24], V(0x10, 0x20, 0x30, 0x40), 4);
	CHECK_MEM(&b[28], V(0xa0, 0xb0, 0xc0, 0xd0), 4);
	CHECK_MEM(&b[32], cdb, 10);
	CHECK(all_zero(b, 42, 48));

	a.read = false;
	a.write = true;
	a.immediate = true;
	a.attr = SMQ_ISCSI_ATTR_ORDERED;
	a.dlen = 0x123456;
	a.cdb_len = 16;
	a.cdb = V(0x8a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), 0);
	CHECK_EQ(b[0], 0x41);
	CHECK_EQ(b[1], 0x80 | 0x20 | 0x02);
	CHECK_MEM(&b[4], V(0, 0x12, 0x34, 0x56), 4);
	CHECK_MEM(&b[32], a.cdb, 16);

	a.cdb_len = 17;
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), -EINVAL);
	CHECK(all_zero(b, 0, 48));
	a.cdb_len = 0;
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), -EINVAL);
	a.cdb_len = 6;
	a.cdb = NULL;
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), -EINVAL);
	a.cdb = cdb;
	a.attr = 8;
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), -EINVAL);
	a.attr = 0;
	a.dlen = 0x1000000;
	CHECK_EQ(smq_iscsi_build_cmd(b, &a), -EINVAL);
}

static void test_build_tmf(void)
{
	struct smq_iscsi_tmf_args a = {
		.function = SMQ_ISCSI_TMF_ABORT_TASK, .lun = 0x4000 | 257,
		.itt = 0x55, .rtt = 0x01020304, .cmdsn = 9, .expstatsn = 10,
		.refcmdsn = 0xfffffffe,
	};
	u8 b[SMQ_ISCSI_BHS_LEN];

	memset(b, 0xee, sizeof(b));
	smq_iscsi_build_tmf(b, &a);
	CHECK_EQ(b[0], 0x42);			/* immediate */
	CHECK_EQ(b[1], 0x81);
	CHECK(all_zero(b, 2, 8));
	CHECK_MEM(&b[8], V(0x41, 0x01, 0, 0, 0, 0, 0, 0), 8);
	CHECK_EQ(get_unaligned_be32(&b[16]), 0x55);
	CHECK_EQ(get_unaligned_be32(&b[20]), 0x01020304);
	CHECK_EQ(get_unaligned_be32(&b[24]), 9);
	CHECK_EQ(get_unaligned_be32(&b[28]), 10);
	CHECK_EQ(get_unaligned_be32(&b[32]), 0xfffffffe);
	CHECK(all_zero(b, 36, 48));		/* ExpDataSN, reserved */
	a.function = SMQ_ISCSI_TMF_LUN_RESET;
	a.rtt = SMQ_ISCSI_RSVD_TAG;
	smq_iscsi_build_tmf(b, &a);
	CHECK_EQ(b[1], 0x85);
	CHECK_MEM(&b[20], V(0xff, 0xff, 0xff, 0xff), 4);
	CHECK_EQ(SMQ_ISCSI_TMF_TARGET_COLD_RESET, 7);
}

static void test_build_nop_logout(void)
{
	u8 b[SMQ_ISCSI_BHS_LEN];

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smq_iscsi_build_nop_out(b, SMQ_ISCSI_RSVD_TAG, 0x77, 2, 5, 6,
					 true, 0), 0);
	CHECK_EQ(b[0], 0x40);
	CHECK_EQ(b[1], 0x80);
	CHECK(all_zero(b, 2, 8));
	CHECK_MEM(&b[8], V(0, 2, 0, 0, 0, 0, 0, 0), 8);
	CHECK_MEM(&b[16], V(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x77), 8);
	CHECK_EQ(get_unaligned_be32(&b[24]), 5);
	CHECK_EQ(get_unaligned_be32(&b[28]), 6);
	CHECK(all_zero(b, 32, 48));
	CHECK_EQ(smq_iscsi_build_nop_out(b, 1, SMQ_ISCSI_RSVD_TAG, 0, 5, 6,
					 false, 100), 0);
	CHECK_EQ(b[0], 0x00);
	CHECK_MEM(&b[4], V(0, 0, 0, 100), 4);
	CHECK_EQ(smq_iscsi_build_nop_out(b, 1, 2, 0, 5, 6, false, 1 << 24),
		 -EINVAL);

	memset(b, 0xee, sizeof(b));
	smq_iscsi_build_logout(b, SMQ_ISCSI_LOGOUT_CLOSE_CONN, 0x99, 0x1234,
			       7, 8, true);
	CHECK_EQ(b[0], 0x46);
	CHECK_EQ(b[1], 0x81);
	CHECK(all_zero(b, 2, 16));
	CHECK_EQ(get_unaligned_be32(&b[16]), 0x99);
	CHECK_MEM(&b[20], V(0x12, 0x34, 0, 0), 4);	/* CID, reserved */
	CHECK_EQ(get_unaligned_be32(&b[24]), 7);
	CHECK_EQ(get_unaligned_be32(&b[28]), 8);
	CHECK(all_zero(b, 32, 48));
	smq_iscsi_build_logout(b, SMQ_ISCSI_LOGOUT_CLOSE_SESSION, 1, 0, 7, 8,
			       false);
	CHECK_EQ(b[0], 0x06);
	CHECK_EQ(b[1], 0x80);
}

static void test_build_login_text(void)
{
	struct smq_iscsi_login_args a = {
		.isid = { 0x80, 0x12, 0x34, 0x56, 0x00, 0x01 }, .tsih = 0,
		.itt = 0, .cid = 1, .cmdsn = 1, .expstatsn = 0,
		.csg = SMQ_ISCSI_STAGE_SECURITY,
		.nsg = SMQ_ISCSI_STAGE_OPERATIONAL, .transit = true,
		.dlen = 300,
	};
	u8 b[SMQ_ISCSI_BHS_LEN];

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smq_iscsi_build_login(b, &a), 0);
	CHECK_EQ(b[0], 0x43);
	CHECK_EQ(b[1], 0x81);			/* T, CSG 0, NSG 1 */
	CHECK_MEM(&b[2], V(0, 0, 0, 0, 0x01, 0x2c), 6);	/* versions, DSL */
	CHECK_MEM(&b[8], a.isid, 6);
	CHECK_MEM(&b[14], V(0, 0), 2);
	CHECK_EQ(get_unaligned_be32(&b[16]), 0);
	CHECK_MEM(&b[20], V(0, 1, 0, 0), 4);
	CHECK_EQ(get_unaligned_be32(&b[24]), 1);
	CHECK(all_zero(b, 28, 48));
	a.csg = SMQ_ISCSI_STAGE_OPERATIONAL;
	a.nsg = SMQ_ISCSI_STAGE_FULL_FEATURE;
	a.tsih = 0xbeef;
	a.expstatsn = 0x11223344;
	CHECK_EQ(smq_iscsi_build_login(b, &a), 0);
	CHECK_EQ(b[1], 0x87);
	CHECK_MEM(&b[14], V(0xbe, 0xef), 2);
	CHECK_EQ(get_unaligned_be32(&b[28]), 0x11223344);
	a.transit = false;
	a.cont = true;
	CHECK_EQ(smq_iscsi_build_login(b, &a), 0);
	CHECK_EQ(b[1], 0x44);			/* C, CSG 1, no NSG */
	a.transit = true;
	CHECK_EQ(smq_iscsi_build_login(b, &a), -EINVAL);	/* T and C */
	CHECK(all_zero(b, 0, 48));
	a.cont = false;
	a.nsg = 2;
	CHECK_EQ(smq_iscsi_build_login(b, &a), -EINVAL);
	a.nsg = 3;
	a.csg = 4;
	CHECK_EQ(smq_iscsi_build_login(b, &a), -EINVAL);
	a.csg = 1;
	a.dlen = 1 << 24;
	CHECK_EQ(smq_iscsi_build_login(b, &a), -EINVAL);

	memset(b, 0xee, sizeof(b));
	CHECK_EQ(smq_iscsi_build_text(b, 0x21, SMQ_ISCSI_RSVD_TAG, 4, 5, true,
				      false, 16), 0);
	CHECK_EQ(b[0], 0x04);
	CHECK_EQ(b[1], 0x80);
	CHECK_MEM(&b[4], V(0, 0, 0, 16), 4);
	CHECK(all_zero(b, 8, 16));		/* LUN */
	CHECK_EQ(get_unaligned_be32(&b[16]), 0x21);
	CHECK_EQ(get_unaligned_be32(&b[20]), 0xffffffff);
	CHECK_EQ(get_unaligned_be32(&b[24]), 4);
	CHECK_EQ(get_unaligned_be32(&b[28]), 5);
	CHECK(all_zero(b, 32, 48));
	CHECK_EQ(smq_iscsi_build_text(b, 0x21, 9, 4, 5, false, true, 0), 0);
	CHECK_EQ(b[1], 0x40);
	CHECK_EQ(smq_iscsi_build_text(b, 1, 9, 4, 5, true, true, 0), -EINVAL);
	CHECK_EQ(smq_iscsi_build_text(b, 1, 9, 4, 5, true, false, 1 << 24),
		 -EINVAL);
}

/* A target BHS: opcode, flags, ITT, StatSN 100, ExpCmdSN 200, MaxCmdSN 231. */
static void tgt_bhs(u8 *b, u8 op, u8 flags, u32 itt, u32 dlen)
{
	memset(b, 0, SMQ_ISCSI_BHS_LEN);
	b[0] = op;
	b[1] = flags;
	b[5] = dlen >> 16;
	b[6] = dlen >> 8;
	b[7] = dlen;
	put_unaligned_be32(itt, &b[16]);
	put_unaligned_be32(100, &b[24]);
	put_unaligned_be32(200, &b[28]);
	put_unaligned_be32(231, &b[32]);
}

/* Parse a copy of @src in an exact-size buffer; data pointers rebased. */
static int parse(const u8 *src, size_t len, struct smq_iscsi_pdu *p,
		 u8 **keep)
{
	u8 *b = dup_exact(src, len);
	int ret = smq_iscsi_parse_pdu(b, len, p);

	*keep = b;
	return ret;
}

static void test_parse_scsi_rsp(void)
{
	u8 pdu[48 + 2 + 18 + 4], *k;
	struct smq_iscsi_pdu p;
	const u8 *sense;
	unsigned int slen;

	tgt_bhs(pdu, 0x21, 0x80 | 0x02, 0x1234, 2 + 18 + 4);
	pdu[2] = 0;
	pdu[3] = 0x02;				/* CHECK CONDITION */
	put_unaligned_be32(0xaabbccdd, &pdu[20]);	/* SNACK tag */
	put_unaligned_be32(7, &pdu[36]);
	put_unaligned_be32(11, &pdu[40]);
	put_unaligned_be32(512, &pdu[44]);
	put_unaligned_be16(18, &pdu[48]);
	memset(&pdu[50], 0x70, 18);
	memset(&pdu[68], 0x99, 4);		/* response data */
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_SCSI_RSP);
	CHECK_EQ(p.itt, 0x1234);
	CHECK_EQ(p.ttt, SMQ_ISCSI_RSVD_TAG);
	CHECK_EQ(p.statsn, 100);
	CHECK_EQ(p.expcmdsn, 200);
	CHECK_EQ(p.maxcmdsn, 231);
	CHECK_EQ(p.dlen, 24);
	CHECK_EQ(p.ahs_len, 0);
	CHECK(p.data == k + 48);
	CHECK_EQ(p.u.scsi.response, 0);
	CHECK_EQ(p.u.scsi.status, 2);
	CHECK(p.u.scsi.underflow && !p.u.scsi.overflow);
	CHECK(!p.u.scsi.bidi_overflow && !p.u.scsi.bidi_underflow);
	CHECK_EQ(p.u.scsi.expdatasn, 7);
	CHECK_EQ(p.u.scsi.bidi_residual, 11);
	CHECK_EQ(p.u.scsi.residual, 512);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), 0);
	CHECK(sense == k + 50);
	CHECK_EQ(slen, 18);
	free(k);

	/* SenseLength beyond the segment */
	put_unaligned_be16(23, &pdu[48]);
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), -EPROTO);
	CHECK(!sense && !slen);
	free(k);
	put_unaligned_be16(22, &pdu[48]);	/* exactly fills it */
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), 0);
	CHECK_EQ(slen, 22);
	free(k);
	/* SenseLength 0, and a 1-byte segment */
	put_unaligned_be16(0, &pdu[48]);
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), 0);
	CHECK(!sense && !slen);
	free(k);
	pdu[7] = 1;
	CHECK_EQ(parse(pdu, 49, &p, &k), 0);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), -EPROTO);
	free(k);
	/* no data: GOOD, no sense; O and U together are a protocol error */
	tgt_bhs(pdu, 0x21, 0x80 | 0x04, 1, 0);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK(p.u.scsi.overflow && !p.data);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), 0);
	CHECK(!sense && !slen);
	free(k);
	pdu[1] = 0x80 | 0x06;
	CHECK_EQ(parse(pdu, 48, &p, &k), -EPROTO);
	free(k);
	pdu[1] = 0x80 | 0x18;
	CHECK_EQ(parse(pdu, 48, &p, &k), -EPROTO);
	free(k);
	pdu[1] = 0x80 | 0x10;
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK(p.u.scsi.bidi_overflow);
	free(k);
	/* sense of another PDU type */
	tgt_bhs(pdu, 0x22, 0x80, 1, 0);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(smq_iscsi_rsp_sense(&p, &sense, &slen), -EINVAL);
	free(k);
}

static void test_parse_others(void)
{
	u8 pdu[48 + 64], *k;
	struct smq_iscsi_pdu p;

	/* NOP-In with ping data: TTT and LUN */
	tgt_bhs(pdu, 0x20, 0x80, SMQ_ISCSI_RSVD_TAG, 5);
	pdu[9] = 4;
	put_unaligned_be32(0x42, &pdu[20]);
	memcpy(&pdu[48], "hello", 5);
	CHECK_EQ(parse(pdu, 53, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_NOOP_IN);
	CHECK_EQ(p.ttt, 0x42);
	CHECK_EQ(p.lun, 4);
	CHECK_EQ(p.itt, SMQ_ISCSI_RSVD_TAG);
	CHECK(p.data == k + 48 && p.dlen == 5);
	free(k);

	/* TMF response */
	tgt_bhs(pdu, 0x22, 0x80, 0x66, 0);
	pdu[2] = SMQ_ISCSI_TMF_RSP_NO_TASK;
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_TMF_RSP);
	CHECK_EQ(p.u.tmf.response, 1);
	CHECK_EQ(p.itt, 0x66);
	free(k);

	/* Login response: T, CSG 1, NSG 3, TSIH, status */
	tgt_bhs(pdu, 0x23, 0x80 | 0x04 | 0x03, 0, 0);
	pdu[2] = 0;
	pdu[3] = 0;
	memcpy(&pdu[8], V(0x80, 1, 2, 3, 4, 5), 6);
	put_unaligned_be16(0x0102, &pdu[14]);
	pdu[36] = 0;
	pdu[37] = 0;
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_LOGIN_RSP);
	CHECK(p.u.login.transit && !p.u.login.cont);
	CHECK_EQ(p.u.login.csg, 1);
	CHECK_EQ(p.u.login.nsg, 3);
	CHECK_EQ(p.u.login.tsih, 0x0102);
	CHECK_MEM(p.u.login.isid, V(0x80, 1, 2, 3, 4, 5), 6);
	CHECK_EQ(p.u.login.status_class, 0);
	free(k);
	pdu[1] = 0x40;				/* C, CSG 0 */
	pdu[2] = 0;
	pdu[36] = SMQ_ISCSI_LOGIN_INITIATOR_ERR;
	pdu[37] = 0x01;
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK(!p.u.login.transit && p.u.login.cont);
	CHECK_EQ(p.u.login.csg, 0);
	CHECK_EQ(p.u.login.status_class, 2);
	CHECK_EQ(p.u.login.status_detail, 1);
	free(k);
	pdu[2] = 0x01;
	pdu[3] = 0x00;
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.u.login.version_max, 1);
	CHECK_EQ(p.u.login.version_active, 0);
	free(k);

	/* Text response, F and C */
	tgt_bhs(pdu, 0x24, 0x80, 0x31, 0);
	put_unaligned_be32(SMQ_ISCSI_RSVD_TAG, &pdu[20]);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK(p.u.text.final && !p.u.text.cont);
	CHECK_EQ(p.ttt, SMQ_ISCSI_RSVD_TAG);
	free(k);
	pdu[1] = 0x40;
	put_unaligned_be32(0x10, &pdu[20]);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK(!p.u.text.final && p.u.text.cont && p.ttt == 0x10);
	free(k);
	pdu[1] = 0xc0;
	CHECK_EQ(parse(pdu, 48, &p, &k), -EPROTO);
	free(k);

	/* Logout response */
	tgt_bhs(pdu, 0x26, 0x80, 0x77, 0);
	pdu[2] = SMQ_ISCSI_LOGOUT_RSP_NO_CID;
	put_unaligned_be16(2, &pdu[40]);
	put_unaligned_be16(20, &pdu[42]);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.u.logout.response, 1);
	CHECK_EQ(p.u.logout.time2wait, 2);
	CHECK_EQ(p.u.logout.time2retain, 20);
	free(k);

	/* Async message: logout requested, with a SCSI-event LUN */
	tgt_bhs(pdu, 0x32, 0x80, SMQ_ISCSI_RSVD_TAG, 0);
	pdu[9] = 1;
	pdu[36] = SMQ_ISCSI_ASYNC_LOGOUT_REQ;
	pdu[37] = 0;
	put_unaligned_be16(3, &pdu[38]);
	put_unaligned_be16(4, &pdu[40]);
	put_unaligned_be16(5, &pdu[42]);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_ASYNC);
	CHECK_EQ(p.u.async.event, 1);
	CHECK_EQ(p.u.async.param1, 3);
	CHECK_EQ(p.u.async.param2, 4);
	CHECK_EQ(p.u.async.param3, 5);
	CHECK_EQ(p.lun, 1);
	free(k);

	/* Reject carrying the rejected header; and a short one */
	tgt_bhs(pdu, 0x3f, 0x80, SMQ_ISCSI_RSVD_TAG, 48);
	pdu[2] = 0x04;				/* protocol error */
	memset(&pdu[48], 0, 48);
	pdu[48] = 0x01;
	CHECK_EQ(parse(pdu, 96, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_REJECT);
	CHECK_EQ(p.u.reject.reason, 4);
	CHECK(p.u.reject.hdr == k + 48 && p.u.reject.hdr[0] == 1);
	free(k);
	pdu[7] = 47;
	CHECK_EQ(parse(pdu, 95, &p, &k), 0);
	CHECK(!p.u.reject.hdr);
	free(k);

	/* the I bit and bit 7 of byte 0 are not part of the opcode */
	tgt_bhs(pdu, 0x40 | 0x22, 0x80, 1, 0);
	CHECK_EQ(parse(pdu, 48, &p, &k), 0);
	CHECK_EQ(p.opcode, SMQ_ISCSI_OP_TMF_RSP);
	free(k);
}

static void test_parse_errors(void)
{
	static const u8 bad_ops[] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x1c, 0x1d, 0x1e,
		0x25, 0x31, 0x27, 0x30, 0x33, 0x3c, 0x3d, 0x3e, 0x10,
	};
	u8 pdu[48 + 8 + 16], *k;
	struct smq_iscsi_pdu p;
	unsigned int i;
	size_t n;

	for (i = 0; i < ARRAY_SIZE(bad_ops); i++) {
		tgt_bhs(pdu, bad_ops[i], 0x80, 1, 0);
		CHECK_EQ(parse(pdu, 48, &p, &k), -EPROTO);
		free(k);
	}
	/* shorter than a BHS */
	tgt_bhs(pdu, 0x20, 0x80, 1, 0);
	for (n = 0; n < 48; n++) {
		CHECK_EQ(parse(pdu, n, &p, &k), -EMSGSIZE);
		free(k);
	}
	CHECK_EQ(smq_iscsi_parse_pdu(NULL, 48, &p), -EMSGSIZE);
	/* AHS of 8 bytes then 16 bytes of data: every short length fails */
	tgt_bhs(pdu, 0x20, 0x80, 1, 16);
	pdu[4] = 2;
	for (n = 48; n < sizeof(pdu); n++) {
		CHECK_EQ(parse(pdu, n, &p, &k), -EMSGSIZE);
		free(k);
	}
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(p.ahs_len, 8);
	CHECK(p.data == k + 56);
	free(k);
	/* trailing bytes after the segment are ignored (no padding rule) */
	tgt_bhs(pdu, 0x20, 0x80, 1, 3);
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), 0);
	CHECK_EQ(p.dlen, 3);
	free(k);
	/* a 24-bit DataSegmentLength far beyond the buffer */
	tgt_bhs(pdu, 0x21, 0x80, 1, 0xffffff);
	pdu[4] = 0xff;
	CHECK_EQ(parse(pdu, sizeof(pdu), &p, &k), -EMSGSIZE);
	free(k);
}

static void test_serial(void)
{
	CHECK(smq_iscsi_sn_lt(1, 2));
	CHECK(!smq_iscsi_sn_lt(2, 1));
	CHECK(!smq_iscsi_sn_lt(5, 5));
	CHECK(smq_iscsi_sn_lte(5, 5));
	/* across the wrap */
	CHECK(smq_iscsi_sn_lt(0xffffffff, 0));
	CHECK(smq_iscsi_sn_lt(0xfffffff0, 0x10));
	CHECK(!smq_iscsi_sn_lt(0x10, 0xfffffff0));
	CHECK(smq_iscsi_sn_lte(0xffffffff, 0));
	CHECK(!smq_iscsi_sn_lte(0, 0xffffffff));
	/* the farthest defined distance, 2^31 - 1, and the undefined 2^31 */
	CHECK(smq_iscsi_sn_lt(0, 0x7fffffff));
	CHECK(!smq_iscsi_sn_lt(0x7fffffff, 0));
	CHECK(!smq_iscsi_sn_lt(0, 0x80000000));
	CHECK(!smq_iscsi_sn_lt(0x80000000, 0));
	CHECK(smq_iscsi_sn_lt(0x80000000, 0xffffffff));
	CHECK(smq_iscsi_sn_lt(0xc0000000, 0x3fffffff));
}

static void test_window(void)
{
	struct smq_iscsi_window w = { 0 };

	CHECK(!smq_iscsi_window_open(&w, 0));	/* nothing accepted yet */
	/* first pair taken as is, even "backwards" from zero */
	CHECK(smq_iscsi_window_update(&w, 0xfffffff0, 0xfffffff8));
	CHECK(w.valid && w.expcmdsn == 0xfffffff0 && w.maxcmdsn == 0xfffffff8);
	CHECK(smq_iscsi_window_open(&w, 0xfffffff0));
	CHECK(smq_iscsi_window_open(&w, 0xfffffff8));
	CHECK(!smq_iscsi_window_open(&w, 0xfffffff9));
	CHECK(!smq_iscsi_window_open(&w, 0xffffffef));
	/* moves forward across the wrap */
	CHECK(smq_iscsi_window_update(&w, 0xfffffffc, 0x00000010));
	CHECK_EQ(w.expcmdsn, 0xfffffffc);
	CHECK_EQ(w.maxcmdsn, 0x10);
	CHECK(smq_iscsi_window_open(&w, 0));
	CHECK(smq_iscsi_window_open(&w, 0x10));
	CHECK(!smq_iscsi_window_open(&w, 0x11));
	/* an older pair (a PDU overtaken) does not move it back */
	CHECK(smq_iscsi_window_update(&w, 0xfffffff8, 0x00000008));
	CHECK_EQ(w.expcmdsn, 0xfffffffc);
	CHECK_EQ(w.maxcmdsn, 0x10);
	/* each number moves on its own */
	CHECK(smq_iscsi_window_update(&w, 0x2, 0x8));
	CHECK_EQ(w.expcmdsn, 2);
	CHECK_EQ(w.maxcmdsn, 0x10);
	/* MaxCmdSN == ExpCmdSN - 1: valid, the window is closed */
	CHECK(smq_iscsi_window_update(&w, 0x11, 0x10));
	CHECK_EQ(w.expcmdsn, 0x11);
	CHECK(!smq_iscsi_window_open(&w, 0x11));
	CHECK(!smq_iscsi_window_open(&w, 0x10));
	/* MaxCmdSN < ExpCmdSN - 1: ignored entirely */
	CHECK(!smq_iscsi_window_update(&w, 0x20, 0x1e));
	CHECK_EQ(w.expcmdsn, 0x11);
	CHECK_EQ(w.maxcmdsn, 0x10);
	CHECK(!smq_iscsi_window_update(&w, 0, 0xfffffffd));
	CHECK_EQ(w.expcmdsn, 0x11);
	/* reopens */
	CHECK(smq_iscsi_window_update(&w, 0x11, 0x30));
	CHECK(smq_iscsi_window_open(&w, 0x11) && smq_iscsi_window_open(&w, 0x30));
	/* an invalid first pair leaves it closed */
	memset(&w, 0, sizeof(w));
	CHECK(!smq_iscsi_window_update(&w, 10, 5));
	CHECK(!w.valid && !smq_iscsi_window_open(&w, 10));
	/* ExpCmdSN 0 with MaxCmdSN 0xffffffff (closed, at the wrap) */
	CHECK(smq_iscsi_window_update(&w, 0, 0xffffffff));
	CHECK(!smq_iscsi_window_open(&w, 0));
	CHECK(!smq_iscsi_window_open(&w, 0xffffffff));
}

/* Builders round-trip through a target-shaped echo of their fields. */
static void test_round_trip(void)
{
	u64 rnd = 7;
	unsigned int i;

	for (i = 0; i < 2000; i++) {
		u8 b[SMQ_ISCSI_BHS_LEN + 8], *k;
		struct smq_iscsi_pdu p;
		u32 itt = smq_t_rand(&rnd), ttt = smq_t_rand(&rnd);
		u64 lun = smq_t_rand(&rnd);
		u32 dlen = smq_t_rand(&rnd) % 9;

		/* a NOP-Out turned into a NOP-In by its opcode */
		CHECK_EQ(smq_iscsi_build_nop_out(b, itt, ttt, lun, 1, 2, false,
						 dlen), 0);
		b[0] = SMQ_ISCSI_OP_NOOP_IN;
		memset(&b[48], 0x5a, 8);
		CHECK_EQ(parse(b, 48 + dlen, &p, &k), 0);
		CHECK(p.itt == itt && p.ttt == ttt && p.lun == lun &&
		      p.dlen == dlen);
		CHECK(dlen ? p.data == k + 48 : !p.data);
		free(k);
		if (dlen) {
			CHECK_EQ(parse(b, 47 + dlen, &p, &k), -EMSGSIZE);
			free(k);
		}
	}
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_iser_hdr),
	SMQ_TEST(test_lun),
	SMQ_TEST(test_build_cmd),
	SMQ_TEST(test_build_tmf),
	SMQ_TEST(test_build_nop_logout),
	SMQ_TEST(test_build_login_text),
	SMQ_TEST(test_parse_scsi_rsp),
	SMQ_TEST(test_parse_others),
	SMQ_TEST(test_parse_errors),
	SMQ_TEST(test_serial),
	SMQ_TEST(test_window),
	SMQ_TEST(test_round_trip),
};

int main(void)
{
	return smq_test_main("test_iser_pdu", tests, ARRAY_SIZE(tests));
}
