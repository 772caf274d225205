// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas command table: every command the emulated LUNs execute, with
 * its CDB usage data, and REPORT SUPPORTED OPERATION CODES built from it.
 *
 * smq_sas_opcode_find() is the dispatcher's only way to a handler, and
 * REPORT SUPPORTED OPERATION CODES walks the same array, so the list of
 * supported commands cannot drift from what is executed.  The usage data
 * is enforced: a CDB bit set where the usage data has a zero (a reserved
 * field, or one the emulation does not implement: protection, NACA) ends
 * the command with INVALID FIELD IN CDB before its handler runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/scatterlist.h>
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

/* Recommended command timeout reported in timeouts descriptors, seconds */
#define SMQ_SAS_CMD_TIMEOUT	30

#define LUN(op_, len_, fn_, ...) \
	{ .opcode = op_, .cdb_len = len_, .lun_fn = fn_, \
	  .usage = { __VA_ARGS__ } }
#define LUN_SA(op_, sa_, len_, fn_, ...) \
	{ .opcode = op_, .sa = sa_, .has_sa = true, .cdb_len = len_, \
	  .lun_fn = fn_, .usage = { __VA_ARGS__ } }
#define ANY(op_, len_, fn_, ...) \
	{ .opcode = op_, .cdb_len = len_, .any_fn = fn_, \
	  .usage = { __VA_ARGS__ } }

/* Sorted by operation code, then service action (the order reported). */
static const struct smq_sas_opcode smq_sas_opcodes[] = {
	LUN(SMQ_OP_TEST_UNIT_READY, 6, smq_sas_cmd_good, 0, 0, 0, 0, 0),
	ANY(SMQ_OP_REQUEST_SENSE, 6, smq_sas_request_sense,
	    0x01, 0, 0, 0xff, 0),
	LUN(SMQ_OP_READ_6, 6, smq_sas_rw, 0x1f, 0xff, 0xff, 0xff, 0),
	LUN(SMQ_OP_WRITE_6, 6, smq_sas_rw, 0x1f, 0xff, 0xff, 0xff, 0),
	ANY(SMQ_OP_INQUIRY, 6, smq_sas_inquiry, 0x01, 0xff, 0xff, 0xff, 0),
	LUN(SMQ_OP_MODE_SELECT_6, 6, smq_sas_mode_select,
	    0x11, 0, 0, 0xff, 0),
	LUN(SMQ_OP_MODE_SENSE_6, 6, smq_sas_mode_sense,
	    0x08, 0xff, 0xff, 0xff, 0),
	LUN(SMQ_OP_START_STOP_UNIT, 6, smq_sas_cmd_good,
	    0x01, 0, 0x0f, 0xf7, 0),
	LUN(SMQ_OP_PREVENT_ALLOW, 6, smq_sas_cmd_good, 0, 0, 0, 0x03, 0),
	LUN(SMQ_OP_READ_CAPACITY_10, 10, smq_sas_read_capacity,
	    0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0x01, 0),
	LUN(SMQ_OP_READ_10, 10, smq_sas_rw,
	    0x1c, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_OP_WRITE_10, 10, smq_sas_rw,
	    0x18, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_SAS_OP_VERIFY_10, 10, smq_sas_verify,
	    0x16, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_OP_SYNCHRONIZE_CACHE_10, 10, smq_sas_sync_cache,
	    0x02, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_OP_WRITE_SAME_10, 10, smq_sas_write_same,
	    0x18, 0xff, 0xff, 0xff, 0xff, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_OP_UNMAP, 10, smq_sas_unmap,
	    0x01, 0, 0, 0, 0, 0x1f, 0xff, 0xff, 0),
	LUN(SMQ_OP_LOG_SENSE, 10, smq_sas_log_sense,
	    0x01, 0xff, 0xff, 0, 0xff, 0xff, 0xff, 0xff, 0),
	LUN(SMQ_OP_MODE_SELECT_10, 10, smq_sas_mode_select,
	    0x11, 0, 0, 0, 0, 0, 0xff, 0xff, 0),
	LUN(SMQ_OP_MODE_SENSE_10, 10, smq_sas_mode_sense,
	    0x18, 0xff, 0xff, 0, 0, 0, 0xff, 0xff, 0),
	LUN(SMQ_OP_READ_16, 16, smq_sas_rw, 0x1c, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0),
	LUN(SMQ_OP_WRITE_16, 16, smq_sas_rw, 0x18, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0),
	LUN(SMQ_SAS_OP_VERIFY_16, 16, smq_sas_verify, 0x16, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0),
	LUN(SMQ_OP_SYNCHRONIZE_CACHE_16, 16, smq_sas_sync_cache, 0x02, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0x1f, 0),
	LUN(SMQ_OP_WRITE_SAME_16, 16, smq_sas_write_same, 0x19, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f,
	    0),
	LUN_SA(SMQ_OP_SERVICE_ACTION_IN_16, SMQ_SAI_READ_CAPACITY_16, 16,
	       smq_sas_read_capacity, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0),
	LUN_SA(SMQ_OP_SERVICE_ACTION_IN_16, SMQ_SAI_GET_LBA_STATUS, 16,
	       smq_sas_get_lba_status, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0),
	ANY(SMQ_OP_REPORT_LUNS, 12, smq_sas_report_luns,
	    0, 0xff, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0),
	LUN_SA(SMQ_OP_MAINTENANCE_IN, SMQ_MI_REPORT_TPGS, 12,
	       smq_sas_report_tpgs, 0xe0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
	       0, 0),
	LUN_SA(SMQ_OP_MAINTENANCE_IN, SMQ_MI_REPORT_OPCODES, 12,
	       smq_sas_report_opcodes, 0, 0x87, 0xff, 0xff, 0xff, 0xff, 0xff,
	       0xff, 0xff, 0, 0),
	LUN(SMQ_OP_READ_12, 12, smq_sas_rw, 0x1c, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, 0),
	LUN(SMQ_OP_WRITE_12, 12, smq_sas_rw, 0x18, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0x1f, 0),
};

#undef LUN
#undef LUN_SA
#undef ANY

/*
 * The entry for @opcode (and @sa when the opcode has service actions): a
 * binary search for the table's first entry of @opcode (the table is
 * sorted, smq_sas_opcodes_check()), then its service actions in order.
 */
static const struct smq_sas_opcode *smq_sas_opcode_lookup(u8 opcode, u8 sa,
							  bool *known)
{
	unsigned int lo = 0, hi = ARRAY_SIZE(smq_sas_opcodes);

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (smq_sas_opcodes[mid].opcode < opcode)
			lo = mid + 1;
		else
			hi = mid;
	}
	*known = lo < ARRAY_SIZE(smq_sas_opcodes) &&
		 smq_sas_opcodes[lo].opcode == opcode;
	for (; lo < ARRAY_SIZE(smq_sas_opcodes); lo++) {
		const struct smq_sas_opcode *op = &smq_sas_opcodes[lo];

		if (op->opcode != opcode)
			break;
		if (!op->has_sa || op->sa == sa)
			return op;
	}
	return NULL;
}

/**
 * smq_sas_opcodes_check - is the command table sorted as the look-up needs?
 *
 * Return: 0, or -EINVAL (with a pr_err naming the first entry out of order).
 */
int smq_sas_opcodes_check(void)
{
	unsigned int i;

	for (i = 1; i < ARRAY_SIZE(smq_sas_opcodes); i++) {
		const struct smq_sas_opcode *a = &smq_sas_opcodes[i - 1];
		const struct smq_sas_opcode *b = &smq_sas_opcodes[i];

		if (a->opcode < b->opcode ||
		    (a->opcode == b->opcode && a->has_sa && b->has_sa &&
		     a->sa < b->sa))
			continue;
		pr_err("command table: entry %u (opcode 0x%02x sa 0x%02x) out of order\n",
		       i, b->opcode, b->sa);
		return -EINVAL;
	}
	return 0;
}

/* Does @cdb set only bits its usage data allows? */
static bool smq_sas_cdb_usage_ok(const struct smq_sas_opcode *op,
				 const u8 *cdb)
{
	unsigned int i;

	for (i = 1; i < op->cdb_len; i++) {
		u8 allowed = op->usage[i - 1];

		if (i == 1 && op->has_sa)
			allowed |= 0x1f;
		if (cdb[i] & ~allowed)
			return false;
	}
	return true;
}

/**
 * smq_sas_opcode_find - the table entry that executes a CDB
 * @cdb: the CDB
 * @len: its length
 * @asc_ascq: output: 0 when the CDB may run; else the ILLEGAL REQUEST
 *	additional sense: INVALID COMMAND OPERATION CODE (unknown opcode),
 *	INVALID FIELD IN CDB (unknown service action, a CDB shorter than the
 *	command's, a bit outside the usage data)
 *
 * Return: the entry (also when the CDB has an invalid field), or NULL
 * when the opcode or service action is not emulated.
 */
const struct smq_sas_opcode *smq_sas_opcode_find(const u8 *cdb,
						 unsigned int len,
						 u16 *asc_ascq)
{
	const struct smq_sas_opcode *op;
	bool known;

	op = smq_sas_opcode_lookup(cdb[0], len > 1 ? cdb[1] & 0x1f : 0,
				   &known);
	if (!op) {
		*asc_ascq = known ? SMQ_ASC_INVALID_FIELD_IN_CDB :
				    SMQ_ASC_INVALID_OPCODE;
		return NULL;
	}
	*asc_ascq = len < op->cdb_len || !smq_sas_cdb_usage_ok(op, cdb) ?
		    SMQ_ASC_INVALID_FIELD_IN_CDB : 0;
	return op;
}

/* A command timeouts descriptor (SPC-4 6.33.4): 12 bytes. */
static void smq_sas_timeouts_desc(u8 *p)
{
	memset(p, 0, 12);
	put_unaligned_be16(10, &p[0]);
	put_unaligned_be32(SMQ_SAS_CMD_TIMEOUT, &p[8]);
}

/* Copy @len bytes to offset @off of the data-in, below @limit. */
static unsigned int smq_sas_put_at(struct smq_scsi_cmnd *scmd,
				   unsigned int off, const void *buf,
				   unsigned int len, unsigned int limit)
{
	if (off >= limit)
		return 0;
	len = min(len, limit - off);
	if (!scmd->sgl || !scmd->sg_count)
		return 0;
	return sg_pcopy_from_buffer(scmd->sgl, scmd->sg_count, buf, len, off);
}

/* Reporting options 0: every command, with timeouts descriptors if @rctd. */
static void smq_sas_report_all(struct smq_scsi_cmnd *scmd, bool rctd,
			       unsigned int limit)
{
	unsigned int i, off = 4, done = 0, dlen = rctd ? 20 : 8;
	u8 d[20];

	put_unaligned_be32(ARRAY_SIZE(smq_sas_opcodes) * dlen, d);
	done += smq_sas_put_at(scmd, 0, d, 4, limit);
	for (i = 0; i < ARRAY_SIZE(smq_sas_opcodes) && off < limit; i++) {
		const struct smq_sas_opcode *op = &smq_sas_opcodes[i];

		memset(d, 0, 8);
		d[0] = op->opcode;
		put_unaligned_be16(op->has_sa ? op->sa : 0, &d[2]);
		d[5] = (rctd ? 0x02 : 0) | (op->has_sa ? 0x01 : 0);
		put_unaligned_be16(op->cdb_len, &d[6]);
		if (rctd)
			smq_sas_timeouts_desc(&d[8]);
		done += smq_sas_put_at(scmd, off, d, dlen, limit);
		off += dlen;
	}
	scmd->resid = scmd->transfer_len - done;
	smq_sas_good(scmd);
}

/**
 * smq_sas_report_opcodes - REPORT SUPPORTED OPERATION CODES
 * @lun: the LUN
 * @scmd: the command
 *
 * Reporting options 0 (all commands), 1 (an operation code without
 * service actions; one with them is an invalid field), 2 (an operation
 * code and service action; an operation code without them is an invalid
 * field) and 3 (either); RCTD adds command timeouts descriptors.  A
 * command not emulated is reported with SUPPORT 001b (not supported).
 *
 * Return: 0.
 */
int smq_sas_report_opcodes(struct smq_sas_lun *lun,
			   struct smq_scsi_cmnd *scmd)
{
	const u8 *cdb = scmd->cmnd;
	bool rctd = cdb[2] & 0x80;
	unsigned int ro = cdb[2] & 0x07, n = 4;
	u16 req_sa = get_unaligned_be16(&cdb[4]);
	const struct smq_sas_opcode *op = NULL;
	int alloc = smq_cdb_alloc_len(cdb, scmd->cmd_len);
	bool known, has_sa;
	u8 d[4 + 16 + 12] = { 0 };

	if (alloc < 0 || ro > 3) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	if (ro == 0) {
		smq_sas_report_all(scmd, rctd, alloc);
		return 0;
	}
	/* Service action 0 finds an opcode without service actions too. */
	op = smq_sas_opcode_lookup(cdb[3], 0, &known);
	has_sa = known && (!op || op->has_sa);
	if ((ro == 1 && has_sa) || (ro == 2 && known && !has_sa)) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	if (has_sa)
		op = req_sa <= 0x1f ?
		     smq_sas_opcode_lookup(cdb[3], req_sa, &known) : NULL;
	if (op) {
		d[1] = (rctd ? 0x80 : 0) | 0x03;	/* supported, standard */
		put_unaligned_be16(op->cdb_len, &d[2]);
		d[4] = op->opcode;
		memcpy(&d[5], op->usage, op->cdb_len - 1);
		if (op->has_sa)
			d[5] |= op->sa;
		n = 4 + op->cdb_len;
		if (rctd) {
			smq_sas_timeouts_desc(&d[n]);
			n += 12;
		}
	} else {
		d[1] = 0x01;				/* not supported */
	}
	smq_sas_data_in(scmd, d, min_t(unsigned int, n, alloc));
	return 0;
}
