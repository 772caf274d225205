// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: the iSCSI target PDU parser and SCSI Response sense. */
/* SMQ_UNIT_SOURCES: smq_iser_pdu.c smq_cdb.c */
#include "smq_fuzz.h"
#include "smq_iser_pdu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_iscsi_window w = { 0 };
	struct smq_iscsi_pdu p;
	const u8 *sense;
	unsigned int slen;
	int ret;

	if (size > 4096)
		return 0;
	ret = smq_iscsi_parse_pdu(data, size, &p);
	FUZZ_ASSERT(ret == 0 || ret == -EPROTO || ret == -EMSGSIZE);
	if (ret)
		return 0;
	FUZZ_ASSERT(size >= SMQ_ISCSI_BHS_LEN + p.ahs_len + (size_t)p.dlen);
	FUZZ_ASSERT(p.opcode != SMQ_ISCSI_OP_DATA_IN &&
		    p.opcode != SMQ_ISCSI_OP_R2T && (p.opcode & 0x20));
	if (p.dlen) {
		FUZZ_ASSERT(p.data == data + SMQ_ISCSI_BHS_LEN + p.ahs_len);
		fuzz_touch(p.data, p.dlen);
	} else {
		FUZZ_ASSERT(!p.data);
	}
	if (p.opcode == SMQ_ISCSI_OP_REJECT && p.u.reject.hdr)
		fuzz_touch(p.u.reject.hdr, SMQ_ISCSI_BHS_LEN);
	ret = smq_iscsi_rsp_sense(&p, &sense, &slen);
	if (p.opcode != SMQ_ISCSI_OP_SCSI_RSP) {
		FUZZ_ASSERT(ret == -EINVAL);
	} else if (!ret && slen) {
		FUZZ_ASSERT(sense == p.data + 2 && slen + 2 <= p.dlen);
		fuzz_touch(sense, slen);
	}
	/* the window never opens beyond an accepted MaxCmdSN */
	if (smq_iscsi_window_update(&w, p.expcmdsn, p.maxcmdsn)) {
		FUZZ_ASSERT(smq_iscsi_window_open(&w, p.expcmdsn) ==
			    (p.maxcmdsn != p.expcmdsn - 1));
		FUZZ_ASSERT(!smq_iscsi_window_open(&w, p.maxcmdsn + 1) ||
			    p.maxcmdsn + 1 == p.expcmdsn);
	}
	return 0;
}

static void seed_bhs(u8 *b, u8 op, u8 flags, u32 dlen)
{
	memset(b, 0, SMQ_ISCSI_BHS_LEN);
	b[0] = op;
	b[1] = flags;
	b[5] = dlen >> 16;
	b[6] = dlen >> 8;
	b[7] = dlen;
	put_unaligned_be32(1, &b[24]);
	put_unaligned_be32(2, &b[28]);
	put_unaligned_be32(33, &b[32]);
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const u8 ops[] = { 0x20, 0x22, 0x23, 0x24, 0x26, 0x32 };
	u8 b[SMQ_ISCSI_BHS_LEN + 64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		seed_bhs(b, ops[i], 0x80, 0);
		add(b, SMQ_ISCSI_BHS_LEN);
	}
	seed_bhs(b, 0x21, 0x82, 20);
	put_unaligned_be16(18, &b[48]);
	memset(&b[50], 0x70, 18);
	add(b, SMQ_ISCSI_BHS_LEN + 20);
	seed_bhs(b, 0x3f, 0x80, 48);
	memset(&b[48], 0, 48);
	b[48] = 0x01;
	add(b, SMQ_ISCSI_BHS_LEN + 48);
	seed_bhs(b, 0x23, 0x87, 16);
	memcpy(&b[48], "TargetAlias=x\0\0", 16);
	b[4] = 1;
	add(b, SMQ_ISCSI_BHS_LEN + 20);
}
