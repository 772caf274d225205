// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas mode parameters and target port groups: MODE SENSE (6/10),
 * MODE SELECT (6/10) and REPORT TARGET PORT GROUPS.
 *
 * The pages and the checking of a MODE SELECT parameter list are the
 * shared helpers of <smq/cdb.h> (smq_emu_mode_sense(),
 * smq_emu_mode_select()); this file keeps the one mode parameter a LUN
 * can change, the caching page's WCE (struct smq_sas_lun @wce), and
 * answers with what the LUN holds now.  Saved parameters are not
 * supported: MODE SENSE of saved values and MODE SELECT with SP set are
 * refused.
 */
#include <linux/scatterlist.h>
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

/* SAVING PARAMETERS NOT SUPPORTED, not named by <smq/sense.h> */
#define SMQ_SAS_ASC_SAVING_NOT_SUPP	0x3900

/*
 * Largest MODE SELECT parameter list taken: (10) header, long block
 * descriptor and every page MODE SENSE reports.
 */
#define SMQ_SAS_MODE_SELECT_MAX		96

/* What @lun reports now: its identity with the current WCE. */
static void smq_sas_lun_info_now(struct smq_sas_lun *lun,
				 struct smq_lun_info *lu)
{
	*lu = lun->info;
	lu->write_cache = READ_ONCE(lun->wce);
}

/**
 * smq_sas_mode_sense - MODE SENSE (6) and (10)
 * @lun: the LUN
 * @scmd: the command
 *
 * Return: 0.
 */
int smq_sas_mode_sense(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	struct smq_mode_sense_req req;
	struct smq_lun_info lu;
	u8 buf[96];
	int n;

	if (smq_cdb_decode_mode_sense(scmd->cmnd, scmd->cmd_len, &req)) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	if (req.pc == SMQ_MODE_PC_SAVED) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_SAS_ASC_SAVING_NOT_SUPP);
		return 0;
	}
	smq_sas_lun_info_now(lun, &lu);
	n = smq_emu_mode_sense(&lu, &req, buf,
			       min_t(unsigned int, req.alloc_len, sizeof(buf)));
	if (n < 0) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	smq_sas_data_in(scmd, buf, n);
	return 0;
}

/**
 * smq_sas_mode_select - MODE SELECT (6) and (10)
 * @lun: the LUN
 * @scmd: the command
 *
 * PF must be set and SP clear (INVALID FIELD IN CDB); a PARAMETER LIST
 * LENGTH of 0 changes nothing.  The list is checked whole by
 * smq_emu_mode_select() (PARAMETER LIST LENGTH ERROR, INVALID FIELD IN
 * PARAMETER LIST) before the caching page's WCE is applied; MODE SENSE
 * reports it from then on.  A list longer than every page together, or
 * a data-out buffer shorter than the list, is a PARAMETER LIST LENGTH
 * ERROR.
 *
 * Return: 0.
 */
int smq_sas_mode_select(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	struct smq_mode_select_req req;
	u8 buf[SMQ_SAS_MODE_SELECT_MAX];
	struct smq_lun_info lu;
	unsigned int len;
	bool wce;
	int ret;

	if (smq_cdb_decode_mode_select(scmd->cmnd, scmd->cmd_len, &req) ||
	    !req.pf || req.sp) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	if (!req.param_len) {
		smq_sas_good(scmd);
		return 0;
	}
	if (req.param_len > sizeof(buf) || scmd->transfer_len < req.param_len ||
	    !scmd->sgl || !scmd->sg_count) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_ASC_PARAM_LIST_LENGTH);
		return 0;
	}
	len = sg_copy_to_buffer(scmd->sgl, scmd->sg_count, buf, req.param_len);
	smq_sas_lun_info_now(lun, &lu);
	ret = smq_emu_mode_select(&lu, buf, len, req.ten, &wce);
	if (ret) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					ret == -EMSGSIZE ?
					SMQ_ASC_PARAM_LIST_LENGTH :
					SMQ_ASC_INVALID_FIELD_IN_PARAM);
		return 0;
	}
	WRITE_ONCE(lun->wce, wce);
	scmd->resid = scmd->transfer_len - len;
	smq_sas_good(scmd);
	return 0;
}

/**
 * smq_sas_report_tpgs - REPORT TARGET PORT GROUPS
 * @lun: the LUN
 * @scmd: the command
 *
 * One target port group (SMQ_SAS_TPG_ID), active/optimized, preferred,
 * holding the target's one port (SMQ_SAS_REL_PORT); only the
 * active/optimized state is supported.  PARAMETER DATA FORMAT 000b
 * (length only) or 001b (extended header, implicit transition time 0);
 * others are an invalid field.
 *
 * Return: 0.
 */
int smq_sas_report_tpgs(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	int alloc = smq_cdb_alloc_len(scmd->cmnd, scmd->cmd_len);
	unsigned int pdf = scmd->cmnd[1] >> 5, p = 4;
	u8 d[20] = { 0 };

	if (alloc < 0 || pdf > 1) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	if (pdf == 1) {
		d[4] = 0x10;		/* format 001b: extended header */
		d[5] = 0;		/* implicit transition time */
		p = 8;
	}
	d[p] = 0x80;			/* PREF, active/optimized */
	d[p + 1] = 0x01;		/* AO_SUP only */
	put_unaligned_be16(lun->info.tpg_id, &d[p + 2]);
	d[p + 5] = 0;			/* status: none available */
	d[p + 7] = 1;			/* one target port */
	put_unaligned_be16(lun->info.rel_port, &d[p + 10]);
	p += 12;
	put_unaligned_be32(p - 4, &d[0]);
	smq_sas_data_in(scmd, d, min_t(unsigned int, p, alloc));
	return 0;
}
