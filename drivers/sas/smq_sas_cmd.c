// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas command emulation: LUN identity, command dispatch and the
 * commands that do not touch the medium (INQUIRY, REPORT LUNS, READ
 * CAPACITY, REQUEST SENSE, TEST UNIT READY, START STOP UNIT, PREVENT
 * ALLOW MEDIUM REMOVAL).  The dispatch table is smq_sas_opcodes[]
 * (smq_sas_opcodes.c); media access commands are in smq_sas_rw.c, mode
 * pages in smq_sas_mode.c, log pages in smq_sas_log.c.
 *
 * CDB decoding and response payloads come from the shared helpers of
 * <smq/cdb.h>, sense data from <smq/sense.h>; this file decides what an
 * emulated LUN answers.
 *
 * Addressing, as a SAS target device would answer:
 *   channel 0, id < num_tgts, LUN < max_luns   the LUN
 *   LUN 0xc101 of such a target                REPORT LUNS well-known LUN
 *   any other LUN of such a target             absent LUN (SPC-4 "incorrect
 *                                              logical unit")
 *   any other channel or id                    no such target: DID_NO_CONNECT
 */
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

/* Largest response built on the stack: VPD 0x83 with a 64-byte serial. */
#define SMQ_SAS_RESP_MAX		128

/* ---- LUN identity ------------------------------------------------------ */

static void smq_sas_lun_info_init(const struct smq_sas_config *cfg,
				  struct smq_lun_info *lu, u8 device_type)
{
	unsigned int bs = smq_sas_block_size(cfg);

	lu->vendor = SMQ_SAS_VENDOR;
	lu->model = SMQ_SAS_MODEL;
	lu->rev = SMQ_SAS_REV;
	lu->device_type = device_type;
	lu->nr_blocks = cfg->nr_blocks;
	lu->block_size = bs;
	lu->lbppbe = 0;
	lu->unmap = true;
	/* With null backing reads return nothing in particular. */
	lu->lbprz = cfg->backing == SMQ_SAS_BACKING_RAM;
	lu->write_cache = true;
	lu->dpofua = true;
	lu->desc_sense = false;
	lu->rotation_rate = 1;
	lu->max_xfer_blocks = (SMQ_SAS_MAX_SECTORS << SECTOR_SHIFT) / bs;
	lu->opt_xfer_blocks = 0;
	lu->max_unmap_blocks = SMQ_SAS_MAX_UNMAP_BYTES / bs;
	lu->max_unmap_descs = SMQ_SAS_MAX_UNMAP_DESC;
	lu->unmap_granularity = max_t(unsigned int, PAGE_SIZE / bs, 1);
	lu->max_ws_blocks = SMQ_SAS_MAX_UNMAP_BYTES / bs;
}

/* Precompute the REPORT LUNS answers: LUNs, well-known LUNs, both. */
static int smq_sas_report_luns_init(struct smq_sas_host *host)
{
	unsigned int i, nr = host->cfg.max_luns, sel;
	u64 *luns;
	int ret = 0;

	luns = kcalloc(nr + 1, sizeof(*luns), GFP_KERNEL);
	if (!luns)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		luns[i] = smq_lun_flat(i);
	luns[nr] = SMQ_SAS_WLUN_REPORT_LUNS;

	for (sel = 0; sel < ARRAY_SIZE(host->report_luns); sel++) {
		struct smq_sas_report_luns *rl = &host->report_luns[sel];
		const u64 *first = sel == 1 ? &luns[nr] : luns;
		unsigned int count = sel == 0 ? nr : sel == 1 ? 1 : nr + 1;
		unsigned int len = 8 + 8 * count;
		int n;

		rl->buf = kzalloc(len, GFP_KERNEL);
		if (!rl->buf) {
			ret = -ENOMEM;
			break;
		}
		n = smq_emu_report_luns(first, count, rl->buf, len);
		if (n < 0) {
			ret = n;
			break;
		}
		rl->len = n;
	}
	kfree(luns);
	return ret;
}

/**
 * smq_sas_luns_init - create the LUNs of a host and what they report
 * @host: the host; host->cfg and host->id are set
 *
 * Return: 0 or -ENOMEM.  On failure smq_sas_luns_free() cleans up.
 */
int smq_sas_luns_init(struct smq_sas_host *host)
{
	const struct smq_sas_config *cfg = &host->cfg;
	unsigned int t, l;
	int ret = 0;

	host->luns = kvcalloc(cfg->num_tgts * cfg->max_luns,
			      sizeof(*host->luns), GFP_KERNEL);
	if (!host->luns)
		return -ENOMEM;

	for (t = 0; t < cfg->num_tgts; t++) {
		for (l = 0; l < cfg->max_luns; l++) {
			struct smq_sas_lun *lun;

			lun = &host->luns[t * cfg->max_luns + l];

			lun->host = host;
			lun->target = t;
			lun->lun = l;
			snprintf(lun->serial, sizeof(lun->serial),
				 "SMQSAS%03X%02X%02X", host->id, t, l);
			smq_sas_lun_info_init(cfg, &lun->info, 0);
			lun->info.serial = lun->serial;
			lun->info.tpgs = SMQ_SAS_TPGS_IMPLICIT;
			lun->info.tpg_id = SMQ_SAS_TPG_ID;
			lun->info.rel_port = SMQ_SAS_REL_PORT;
			lun->wce = lun->info.write_cache;
			/* NAA 5: company id, then 36 bits: host, target, LUN */
			lun->info.naa = (5ULL << 60) | (SMQ_SAS_NAA_CID << 36) |
					((u64)(host->id & 0xfff) << 24) |
					(t << 16) | l;
			smq_sas_store_init(&lun->store);
			/* Every LUN set up, so smq_sas_luns_free() works. */
			lun->stats = alloc_percpu(struct smq_sas_lun_stats);
			if (!lun->stats)
				ret = -ENOMEM;
		}
	}
	if (ret)
		return ret;

	smq_sas_lun_info_init(cfg, &host->wlun_info, 0x1e);
	smq_sas_lun_info_init(cfg, &host->nolun_info, 0x1f);
	return smq_sas_report_luns_init(host);
}

/**
 * smq_sas_luns_free - free the LUNs and their stores
 * @host: the host; no command can reach it any more
 */
void smq_sas_luns_free(struct smq_sas_host *host)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(host->report_luns); i++) {
		kfree(host->report_luns[i].buf);
		host->report_luns[i].buf = NULL;
	}
	if (!host->luns)
		return;
	for (i = 0; i < host->cfg.num_tgts * host->cfg.max_luns; i++) {
		smq_sas_store_destroy(&host->luns[i].store);
		free_percpu(host->luns[i].stats);
	}
	kvfree(host->luns);
	host->luns = NULL;
}

/* ---- results ----------------------------------------------------------- */

/**
 * smq_sas_good - finish a command with GOOD status
 * @scmd: the command
 */
void smq_sas_good(struct smq_scsi_cmnd *scmd)
{
	smq_scsi_set_result(scmd, SMQ_DID_OK, SMQ_SAM_STAT_GOOD);
	scmd->sense_len = 0;
}

/**
 * smq_sas_check_condition - finish a command with CHECK CONDITION
 * @scmd: the command
 * @key: sense key (SMQ_SK_*)
 * @asc_ascq: additional sense code and qualifier (SMQ_ASC_*)
 *
 * Fixed format sense, as the control mode page announces (D_SENSE=0).
 * No data was transferred.
 */
void smq_sas_check_condition(struct smq_scsi_cmnd *scmd, u8 key,
			     u16 asc_ascq)
{
	int n = smq_sense_build(scmd->sense_buffer, sizeof(scmd->sense_buffer),
				false, key, asc_ascq);

	scmd->sense_len = n > 0 ? n : 0;
	scmd->resid = scmd->transfer_len;
	smq_scsi_set_result(scmd, SMQ_DID_OK, SMQ_SAM_STAT_CHECK_CONDITION);
}

/**
 * smq_sas_invalid_field - finish a command with INVALID FIELD IN CDB
 * @scmd: the command
 */
void smq_sas_invalid_field(struct smq_scsi_cmnd *scmd)
{
	smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
				SMQ_ASC_INVALID_FIELD_IN_CDB);
}

/**
 * smq_sas_data_in - finish a command with GOOD and data-in
 * @scmd: the command
 * @buf: the data
 * @len: bytes of @buf to return (already limited to the allocation
 *	length); the command's buffer limits it further, resid says how much
 *	of that buffer was not filled
 */
void smq_sas_data_in(struct smq_scsi_cmnd *scmd, const void *buf,
		     unsigned int len)
{
	size_t n = 0;

	len = min(len, scmd->transfer_len);
	if (len && scmd->sgl && scmd->sg_count)
		n = sg_copy_from_buffer(scmd->sgl, scmd->sg_count, buf, len);
	scmd->resid = scmd->transfer_len - n;
	smq_sas_good(scmd);
}

/* ---- commands ---------------------------------------------------------- */

/**
 * smq_sas_inquiry - INQUIRY, of any LUN address
 * @host: the host
 * @lu: what the addressed LUN reports
 * @absent: no LUN at this address (peripheral qualifier 3)
 * @scmd: the command
 */
void smq_sas_inquiry(struct smq_sas_host *host, const struct smq_lun_info *lu,
		     bool absent, struct smq_scsi_cmnd *scmd)
{
	const u8 *cdb = scmd->cmnd;
	u8 buf[SMQ_SAS_RESP_MAX];
	int alloc, n;

	alloc = smq_cdb_alloc_len(cdb, scmd->cmd_len);
	if (alloc < 0 || (cdb[1] & 0x02) ||		/* CMDDT */
	    (!(cdb[1] & 0x01) && cdb[2])) {	/* page code without EVPD */
		smq_sas_invalid_field(scmd);
		return;
	}
	alloc = min_t(int, alloc, sizeof(buf));
	if (cdb[1] & 0x01)
		n = smq_emu_vpd(lu, cdb[2], buf, alloc);
	else
		n = smq_emu_inquiry(lu, buf, alloc);
	if (n < 0) {
		smq_sas_invalid_field(scmd);
		return;
	}
	if (absent && n > 0)
		buf[0] = 0x7f;	/* qualifier 3 (no LU here), type 0x1f */
	smq_sas_data_in(scmd, buf, n);
}

/**
 * smq_sas_report_luns - REPORT LUNS, of any LUN address
 * @host: the host
 * @lu: unused (every address reports the host's LUNs)
 * @absent: unused
 * @scmd: the command
 */
void smq_sas_report_luns(struct smq_sas_host *host,
			 const struct smq_lun_info *lu, bool absent,
			 struct smq_scsi_cmnd *scmd)
{
	int alloc = smq_cdb_alloc_len(scmd->cmnd, scmd->cmd_len);
	u8 select = scmd->cmnd[2];
	const struct smq_sas_report_luns *rl;

	if (alloc < 4 || select >= ARRAY_SIZE(host->report_luns)) {
		smq_sas_invalid_field(scmd);
		return;
	}
	rl = &host->report_luns[select];
	smq_sas_data_in(scmd, rl->buf, min_t(unsigned int, alloc, rl->len));
}

/**
 * smq_sas_read_capacity - READ CAPACITY (10) and (16)
 * @lun: the LUN
 * @scmd: the command
 *
 * Return: 0.
 */
int smq_sas_read_capacity(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	const struct smq_lun_info *lu = &lun->info;
	int alloc = smq_cdb_alloc_len(scmd->cmnd, scmd->cmd_len);
	u8 buf[32];
	int n;

	if (alloc < 0) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	alloc = min_t(int, alloc, sizeof(buf));
	if (scmd->cmnd[0] == SMQ_OP_READ_CAPACITY_10)
		n = smq_emu_read_capacity10(lu, buf, alloc);
	else
		n = smq_emu_read_capacity16(lu, buf, alloc);
	smq_sas_data_in(scmd, buf, n);
	return 0;
}

/**
 * smq_sas_cmd_good - a command with nothing to do: GOOD
 * @lun: the LUN
 * @scmd: the command
 *
 * TEST UNIT READY, START STOP UNIT (the medium never stops), PREVENT
 * ALLOW MEDIUM REMOVAL (nothing to remove); the CDB was checked against
 * its usage data.
 *
 * Return: 0.
 */
int smq_sas_cmd_good(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	smq_sas_good(scmd);
	return 0;
}

/**
 * smq_sas_request_sense - REQUEST SENSE, of any LUN address
 * @host: the host
 * @lu: unused
 * @absent: no LUN at this address: LOGICAL UNIT NOT SUPPORTED
 * @scmd: the command
 */
void smq_sas_request_sense(struct smq_sas_host *host,
			   const struct smq_lun_info *lu, bool absent,
			   struct smq_scsi_cmnd *scmd)
{
	int alloc = smq_cdb_alloc_len(scmd->cmnd, scmd->cmd_len);
	bool desc = scmd->cmnd[1] & 0x01;
	u8 buf[SMQ_SENSE_FIXED_LEN];
	int n;

	if (alloc < 0) {
		smq_sas_invalid_field(scmd);
		return;
	}
	if (absent)
		n = smq_sense_build(buf, sizeof(buf), desc,
				    SMQ_SK_ILLEGAL_REQUEST,
				    SMQ_ASC_LUN_NOT_SUPPORTED);
	else
		n = smq_sense_build(buf, sizeof(buf), desc, SMQ_SK_NO_SENSE,
				    SMQ_ASC_NO_ADDITIONAL_INFO);
	smq_sas_data_in(scmd, buf, min(alloc, max(n, 0)));
}

/* Commands any LUN address of an existing target answers. */
static bool smq_sas_any_lun_cmd(struct smq_sas_host *host,
				struct smq_scsi_cmnd *scmd,
				const struct smq_lun_info *lu, bool absent)
{
	const struct smq_sas_opcode *op;
	u16 asc;

	op = smq_sas_opcode_find(scmd->cmnd, scmd->cmd_len, &asc);
	if (!op || !op->any_fn)
		return false;
	if (asc)
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST, asc);
	else
		op->any_fn(host, lu, absent, scmd);
	return true;
}

/*
 * A command to an existing LUN; its result is set.  One look-up in the
 * command table serves both kinds of handler (an unknown opcode or a bad
 * field always comes with its additional sense).
 */
static void smq_sas_lun_cmd(struct smq_sas_host *host, struct smq_sas_lun *lun,
			    struct smq_scsi_cmnd *scmd)
{
	const struct smq_sas_opcode *op;
	u16 asc;

	op = smq_sas_opcode_find(scmd->cmnd, scmd->cmd_len, &asc);
	if (unlikely(asc)) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST, asc);
		return;
	}
	if (op->any_fn) {
		op->any_fn(host, &lun->info, false, scmd);
		return;
	}
	if (unlikely(!op->lun_fn)) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_ASC_INVALID_OPCODE);
		return;
	}
	op->lun_fn(lun, scmd);
}

/**
 * smq_sas_execute - emulate a command
 * @host: the host
 * @scmd: the command
 *
 * Every command ends with a result, none is refused.
 */
void smq_sas_execute(struct smq_sas_host *host, struct smq_scsi_cmnd *scmd)
{
	const struct smq_sas_config *cfg = &host->cfg;
	struct smq_scsi_device *sdev = scmd->device;
	u64 l = sdev->lun;

	scmd->resid = 0;
	scmd->sense_len = 0;

	if (sdev->channel != 0 || sdev->id >= cfg->num_tgts) {
		smq_scsi_set_result(scmd, SMQ_DID_NO_CONNECT, 0);
		scmd->resid = scmd->transfer_len;
		return;
	}
	if (!scmd->cmd_len) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_ASC_INVALID_OPCODE);
		return;
	}

	if (l < cfg->max_luns) {
		struct smq_sas_lun *lun;

		lun = &host->luns[sdev->id * cfg->max_luns + l];
		smq_sas_lun_cmd(host, lun, scmd);
		return;
	}

	if (l == SMQ_SAS_WLUN_REPORT_LUNS) {
		if (smq_sas_any_lun_cmd(host, scmd, &host->wlun_info, false))
			return;
		if (scmd->cmnd[0] == SMQ_OP_TEST_UNIT_READY)
			smq_sas_good(scmd);
		else
			smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
						SMQ_ASC_INVALID_OPCODE);
		return;
	}

	if (!smq_sas_any_lun_cmd(host, scmd, &host->nolun_info, true))
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_ASC_LUN_NOT_SUPPORTED);
}

/**
 * smq_sas_queuecommand - the host template's queuecommand
 * @shost: the host
 * @scmd: the command
 *
 * Emulates the command at once, then completes it the way irqmode says.
 * With fault injection armed (smq_sas_fault.c) the command may instead be
 * refused, dropped or failed.
 *
 * Return: 0, or SMQ_MLQUEUE_DEVICE_BUSY while a reset of the LUN drains
 * it, or what an injected fault returns.
 */
int smq_sas_queuecommand(struct smq_scsi_host *shost,
			 struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(shost);
	struct smq_sas_sdev *sd = scmd->device->hostdata;
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	int ret;

	ret = smq_sas_sdev_enter(sd);
	if (unlikely(ret))
		return ret;
	/* The midlayer gave up on it while it was dropped: unlink it. */
	if (unlikely(READ_ONCE(c->state) == SMQ_SAS_CMD_DROPPED))
		smq_sas_undrop(c);
	c->sd = sd;
	c->state = SMQ_SAS_CMD_EMULATED;
	if (unlikely(smq_sas_fault_armed(sd)))
		return smq_sas_fault_queuecommand(host, sd, scmd);
	smq_sas_execute(host, scmd);
	smq_sas_complete(host, scmd);
	return 0;
}
