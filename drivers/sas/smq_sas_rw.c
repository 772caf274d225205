// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas media access commands: READ/WRITE (6/10/12/16), VERIFY (10/16),
 * SYNCHRONIZE CACHE (10/16), UNMAP and WRITE SAME (10/16).
 *
 * Every command is checked against the capacity first (LOGICAL BLOCK
 * ADDRESS OUT OF RANGE, with the LBA in INFORMATION) and against the
 * limits of the block limits VPD page (INVALID FIELD IN CDB / IN
 * PARAMETER LIST).  With RAM backing data moves between the command's
 * scatterlist and the LUN's page store; with null backing nothing moves.
 *
 * The write cache is reported enabled but writes are durable at once, so
 * FUA and SYNCHRONIZE CACHE have nothing to do.
 *
 * The RAM store is thin: a page is allocated on its first write, without
 * sleeping.  When that fails the write fails at once as a thin-provisioned
 * LUN out of space does (DATA PROTECT, SPACE ALLOCATION FAILED WRITE
 * PROTECT: -ENOSPC for the writer), never by asking to be retried.
 */
#include <linux/scatterlist.h>
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

static bool smq_sas_ram(const struct smq_sas_lun *lun)
{
	return lun->host->cfg.backing == SMQ_SAS_BACKING_RAM;
}

static unsigned int smq_sas_shift(const struct smq_sas_lun *lun)
{
	return lun->host->cfg.block_shift;
}

/*
 * Is [lba, lba + nr) on the medium?  If not, finish the command with
 * LOGICAL BLOCK ADDRESS OUT OF RANGE.
 */
static bool smq_sas_range_ok(const struct smq_sas_lun *lun,
			     struct smq_scsi_cmnd *scmd, u64 lba, u64 nr)
{
	u64 cap = lun->info.nr_blocks;
	int n;

	if (lba <= cap && nr <= cap - lba)
		return true;

	n = smq_sense_build_info(scmd->sense_buffer,
				 sizeof(scmd->sense_buffer), false,
				 SMQ_SK_ILLEGAL_REQUEST,
				 SMQ_ASC_LBA_OUT_OF_RANGE, lba);
	scmd->sense_len = n > 0 ? n : 0;
	scmd->resid = scmd->transfer_len;
	smq_scsi_set_result(scmd, SMQ_DID_OK, SMQ_SAM_STAT_CHECK_CONDITION);
	return false;
}

static void smq_sas_invalid(struct smq_scsi_cmnd *scmd, u16 asc_ascq)
{
	smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST, asc_ascq);
}

/* The store found no memory for a new page. */
static void smq_sas_no_space(struct smq_scsi_cmnd *scmd)
{
	smq_sas_check_condition(scmd, SMQ_SK_DATA_PROTECT,
				SMQ_ASC_SPACE_ALLOC_FAILED);
}

/**
 * smq_sas_rw - READ or WRITE (6/10/12/16)
 * @lun: the LUN
 * @scmd: the command
 *
 * A WRITE whose data-out buffer is shorter than its blocks transfers
 * nothing and ends with ABORTED COMMAND, DATA PHASE ERROR (the target asked
 * for more data than the initiator had); a READ into a shorter buffer
 * fills it.  At most the command's xfer_limit bytes move (fault injection:
 * the blocks before a medium error, a short transfer); resid says so.
 *
 * Return: 0 (result set).
 */
int smq_sas_rw(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	const struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	unsigned int shift = smq_sas_shift(lun);
	struct smq_cdb_rw_info rw;
	size_t len, done;

	if (smq_cdb_decode_rw(scmd->cmnd, scmd->cmd_len, &rw)) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}
	if (!smq_sas_range_ok(lun, scmd, rw.lba, rw.nr_blocks))
		return 0;
	if (rw.nr_blocks > lun->info.max_xfer_blocks) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}

	len = (size_t)rw.nr_blocks << shift;
	if (rw.write && scmd->transfer_len < len) {
		smq_sas_check_condition(scmd, SMQ_SK_ABORTED_COMMAND,
					SMQ_ASC_DATA_PHASE_ERROR);
		return 0;
	}
	len = min_t(size_t, len, scmd->transfer_len);
	/* Fault injection: a medium error or short transfer ends it early. */
	len = min_t(size_t, len, c->xfer_limit);
	done = len;
	if (len && smq_sas_ram(lun)) {
		ssize_t ret = smq_sas_store_xfer(&lun->store, rw.lba << shift,
						 scmd->sgl, scmd->sg_count,
						 len, rw.write);

		if (ret < 0) {
			smq_sas_no_space(scmd);
			return 0;
		}
		done = ret;
	}
	smq_sas_lun_stat_add(lun, rw.write ? SMQ_SAS_BYTES_WRITTEN :
					     SMQ_SAS_BYTES_READ, done);
	scmd->resid = scmd->transfer_len - done;
	smq_sas_good(scmd);
	return 0;
}

/**
 * smq_sas_verify - VERIFY (10/16): range checked, nothing to compare
 * @lun: the LUN
 * @scmd: the command
 *
 * With BYTCHK the initiator's data is accepted without comparing it.
 *
 * Return: 0.
 */
int smq_sas_verify(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	const u8 *cdb = scmd->cmnd;
	u64 lba;
	u32 nr;

	if (cdb[0] == SMQ_SAS_OP_VERIFY_16) {
		if (scmd->cmd_len < 16)
			goto invalid;
		lba = get_unaligned_be64(&cdb[2]);
		nr = get_unaligned_be32(&cdb[10]);
	} else {
		if (scmd->cmd_len < 10)
			goto invalid;
		lba = get_unaligned_be32(&cdb[2]);
		nr = get_unaligned_be16(&cdb[7]);
	}
	if (smq_sas_range_ok(lun, scmd, lba, nr)) {
		smq_sas_lun_stat_add(lun, SMQ_SAS_BYTES_VERIFIED,
				     (u64)nr << smq_sas_shift(lun));
		smq_sas_good(scmd);
	}
	return 0;

invalid:
	smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
	return 0;
}

/**
 * smq_sas_sync_cache - SYNCHRONIZE CACHE (10/16): range checked, no-op
 * @lun: the LUN
 * @scmd: the command
 *
 * Return: 0.
 */
int smq_sas_sync_cache(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	bool immed;
	u64 lba;
	u32 nr;

	if (smq_cdb_decode_sync_cache(scmd->cmnd, scmd->cmd_len, &lba, &nr,
				      &immed)) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}
	/* NUMBER OF LOGICAL BLOCKS 0: from @lba to the end of the medium. */
	if (smq_sas_range_ok(lun, scmd, lba, nr))
		smq_sas_good(scmd);
	return 0;
}

/**
 * smq_sas_unmap - UNMAP
 * @lun: the LUN
 * @scmd: the command
 *
 * The whole parameter list is checked before anything is unmapped:
 * PARAMETER LIST LENGTH ERROR for a list shorter than its header, INVALID
 * FIELD IN PARAMETER LIST for more descriptors or blocks than the block
 * limits page allows, LOGICAL BLOCK ADDRESS OUT OF RANGE for a range
 * beyond the capacity.
 *
 * Return: 0.
 */
int smq_sas_unmap(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	struct smq_unmap_desc desc[SMQ_SAS_MAX_UNMAP_DESC];
	u8 buf[8 + 16 * SMQ_SAS_MAX_UNMAP_DESC];
	unsigned int shift = smq_sas_shift(lun);
	unsigned int param_len, len, i;
	u64 total = 0;
	int n;

	if (scmd->cmd_len < 10 || (scmd->cmnd[1] & 0x01)) {	/* ANCHOR */
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}
	param_len = get_unaligned_be16(&scmd->cmnd[7]);
	if (!param_len) {		/* nothing to do, not an error */
		smq_sas_good(scmd);
		return 0;
	}

	len = min3(param_len, scmd->transfer_len, (unsigned int)sizeof(buf));
	if (len && scmd->sgl && scmd->sg_count)
		len = sg_copy_to_buffer(scmd->sgl, scmd->sg_count, buf, len);
	else
		len = 0;
	if (len < 8) {
		smq_sas_invalid(scmd, SMQ_ASC_PARAM_LIST_LENGTH);
		return 0;
	}
	/* Judge the descriptor count on the header: @buf may hold fewer. */
	if (get_unaligned_be16(&buf[2]) / 16 > SMQ_SAS_MAX_UNMAP_DESC) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_PARAM);
		return 0;
	}
	n = smq_unmap_param_parse(buf, len, desc, ARRAY_SIZE(desc));
	if (n < 0) {
		smq_sas_invalid(scmd, n == -E2BIG ?
				SMQ_ASC_INVALID_FIELD_IN_PARAM :
				SMQ_ASC_PARAM_LIST_LENGTH);
		return 0;
	}

	for (i = 0; i < n; i++) {
		if (!smq_sas_range_ok(lun, scmd, desc[i].lba,
				      desc[i].nr_blocks))
			return 0;
		total += desc[i].nr_blocks;
	}
	if (total > lun->info.max_unmap_blocks) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_PARAM);
		return 0;
	}

	if (smq_sas_ram(lun))
		for (i = 0; i < n; i++)
			smq_sas_store_discard(&lun->store, desc[i].lba << shift,
					      (u64)desc[i].nr_blocks << shift);
	scmd->resid = scmd->transfer_len - min(param_len, scmd->transfer_len);
	smq_sas_good(scmd);
	return 0;
}

/**
 * smq_sas_write_same - WRITE SAME (10/16)
 * @lun: the LUN
 * @scmd: the command
 *
 * NUMBER OF LOGICAL BLOCKS 0 means up to the end of the medium (WSNZ is
 * 0); more than the maximum write same length is an invalid field.  An
 * all-zero block, NDOB, or UNMAP with a zero block deallocate the range
 * (reads return zeros: LBPRZ); any other block is written to every LBA,
 * with or without UNMAP, so reads return what was written.
 *
 * Return: 0 (result set).
 */
int smq_sas_write_same(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	unsigned int shift = smq_sas_shift(lun);
	u64 cap = lun->info.nr_blocks, nr;
	struct smq_cdb_ws_info ws;

	if (smq_cdb_decode_write_same(scmd->cmnd, scmd->cmd_len, &ws) ||
	    ws.anchor) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}
	if (!smq_sas_range_ok(lun, scmd, ws.lba, ws.nr_blocks))
		return 0;
	nr = ws.nr_blocks ? ws.nr_blocks : cap - ws.lba;
	if (nr > lun->info.max_ws_blocks ||
	    (!ws.ndob && scmd->transfer_len < (1U << shift))) {
		smq_sas_invalid(scmd, SMQ_ASC_INVALID_FIELD_IN_CDB);
		return 0;
	}

	if (smq_sas_ram(lun)) {
		u64 pos = ws.lba << shift;

		if (ws.ndob) {
			smq_sas_store_discard(&lun->store, pos, nr << shift);
		} else if (smq_sas_store_fill(&lun->store, pos, nr, scmd->sgl,
					      scmd->sg_count, 1U << shift)) {
			smq_sas_no_space(scmd);
			return 0;
		}
	}
	smq_sas_lun_stat_add(lun, SMQ_SAS_BYTES_WRITTEN, (u64)nr << shift);
	scmd->resid = ws.ndob ? scmd->transfer_len :
		      scmd->transfer_len - (1U << shift);
	smq_sas_good(scmd);
	return 0;
}
