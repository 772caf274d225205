// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas: the emulated logical unit's side of the CDB: decoders of the
 * CDBs an initiator sends and builders of the response payloads of a
 * logical unit described by struct smq_lun_info (see smq_sas_emu.h).
 * Pure logic: kernel headers only, so tests/unit runs and fuzzes it in
 * userspace.  Layouts: SPC-4 and SBC-3.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <smq/unaligned.h>
#include <smq/cdb.h>
#include "smq_sas_emu.h"

/* ---- helpers ---- */

/* Copy up to @n characters of @s into @dst, blank padded. */
static void smq_put_padded(u8 *dst, const char *s, unsigned int n)
{
	unsigned int i = 0;

	for (; s && s[i] && i < n; i++)
		dst[i] = s[i];
	for (; i < n; i++)
		dst[i] = ' ';
}

static int smq_copy_out(u8 *buf, unsigned int len, const u8 *data,
			unsigned int data_len)
{
	unsigned int n = min(len, data_len);

	if (n)
		memcpy(buf, data, n);
	return n;
}

static void smq_put_be24(u32 v, u8 *p)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

/* ---- target: CDB decoders ---- */

/**
 * smq_cdb_len() - CDB length implied by an operation code
 * @opcode: first CDB byte.
 *
 * Return: 6, 10, 12 or 16, or -EINVAL for reserved, variable-length and
 * vendor-specific groups.
 */
int smq_cdb_len(u8 opcode)
{
	switch (opcode >> 5) {
	case 0:
		return 6;
	case 1:
	case 2:
		return 10;
	case 4:
		return 16;
	case 5:
		return 12;
	default:
		return -EINVAL;
	}
}

/* @cdb holds at least the length its opcode implies? */
static bool smq_cdb_complete(const u8 *cdb, unsigned int len)
{
	int need;

	if (!cdb || !len)
		return false;
	need = smq_cdb_len(cdb[0]);
	return need > 0 && len >= (unsigned int)need;
}

/**
 * smq_cdb_decode_rw() - decode READ/WRITE (6/10/12/16)
 * @cdb: received CDB.
 * @len: its length.
 * @rw: output.
 *
 * Return: 0, or -EINVAL if it is not a complete READ or WRITE.
 */
int smq_cdb_decode_rw(const u8 *cdb, unsigned int len,
		      struct smq_cdb_rw_info *rw)
{
	if (!smq_cdb_complete(cdb, len) || !rw)
		return -EINVAL;
	memset(rw, 0, sizeof(*rw));
	switch (cdb[0]) {
	case SMQ_OP_READ_6:
	case SMQ_OP_WRITE_6:
		rw->lba = (u32)(cdb[1] & 0x1f) << 16 | get_unaligned_be16(&cdb[2]);
		rw->nr_blocks = cdb[4] ? cdb[4] : 256;
		rw->write = cdb[0] == SMQ_OP_WRITE_6;
		return 0;
	case SMQ_OP_READ_10:
	case SMQ_OP_WRITE_10:
		rw->lba = get_unaligned_be32(&cdb[2]);
		rw->nr_blocks = get_unaligned_be16(&cdb[7]);
		rw->write = cdb[0] == SMQ_OP_WRITE_10;
		break;
	case SMQ_OP_READ_12:
	case SMQ_OP_WRITE_12:
		rw->lba = get_unaligned_be32(&cdb[2]);
		rw->nr_blocks = get_unaligned_be32(&cdb[6]);
		rw->write = cdb[0] == SMQ_OP_WRITE_12;
		break;
	case SMQ_OP_READ_16:
	case SMQ_OP_WRITE_16:
		rw->lba = get_unaligned_be64(&cdb[2]);
		rw->nr_blocks = get_unaligned_be32(&cdb[10]);
		rw->write = cdb[0] == SMQ_OP_WRITE_16;
		break;
	default:
		return -EINVAL;
	}
	rw->dpo = cdb[1] & 0x10;
	rw->fua = cdb[1] & 0x08;
	return 0;
}

/**
 * smq_cdb_decode_write_same() - decode WRITE SAME (10/16)
 * @cdb: received CDB.
 * @len: its length.
 * @ws: output.
 *
 * Return: 0, or -EINVAL if it is not a complete WRITE SAME.
 */
int smq_cdb_decode_write_same(const u8 *cdb, unsigned int len,
			      struct smq_cdb_ws_info *ws)
{
	if (!smq_cdb_complete(cdb, len) || !ws)
		return -EINVAL;
	memset(ws, 0, sizeof(*ws));
	switch (cdb[0]) {
	case SMQ_OP_WRITE_SAME_10:
		ws->lba = get_unaligned_be32(&cdb[2]);
		ws->nr_blocks = get_unaligned_be16(&cdb[7]);
		break;
	case SMQ_OP_WRITE_SAME_16:
		ws->lba = get_unaligned_be64(&cdb[2]);
		ws->nr_blocks = get_unaligned_be32(&cdb[10]);
		ws->ndob = cdb[1] & 0x01;
		break;
	default:
		return -EINVAL;
	}
	ws->anchor = cdb[1] & 0x10;
	ws->unmap = cdb[1] & 0x08;
	return 0;
}

/**
 * smq_cdb_decode_sync_cache() - decode SYNCHRONIZE CACHE (10/16)
 * @cdb: received CDB.
 * @len: its length.
 * @lba: output, first block.
 * @nr_blocks: output, number of blocks (0: to the end).
 * @immed: output, IMMED bit.
 *
 * Return: 0, or -EINVAL if it is not a complete SYNCHRONIZE CACHE.
 */
int smq_cdb_decode_sync_cache(const u8 *cdb, unsigned int len, u64 *lba,
			      u32 *nr_blocks, bool *immed)
{
	if (!smq_cdb_complete(cdb, len) || !lba || !nr_blocks || !immed)
		return -EINVAL;
	switch (cdb[0]) {
	case SMQ_OP_SYNCHRONIZE_CACHE_10:
		*lba = get_unaligned_be32(&cdb[2]);
		*nr_blocks = get_unaligned_be16(&cdb[7]);
		break;
	case SMQ_OP_SYNCHRONIZE_CACHE_16:
		*lba = get_unaligned_be64(&cdb[2]);
		*nr_blocks = get_unaligned_be32(&cdb[10]);
		break;
	default:
		return -EINVAL;
	}
	*immed = cdb[1] & 0x02;
	return 0;
}

/**
 * smq_cdb_decode_mode_sense() - decode MODE SENSE (6/10)
 * @cdb: received CDB.
 * @len: its length.
 * @req: output.
 *
 * Return: 0, or -EINVAL if it is not a complete MODE SENSE.
 */
int smq_cdb_decode_mode_sense(const u8 *cdb, unsigned int len,
			      struct smq_mode_sense_req *req)
{
	if (!smq_cdb_complete(cdb, len) || !req)
		return -EINVAL;
	memset(req, 0, sizeof(*req));
	switch (cdb[0]) {
	case SMQ_OP_MODE_SENSE_6:
		req->alloc_len = cdb[4];
		break;
	case SMQ_OP_MODE_SENSE_10:
		req->ten = true;
		req->llbaa = cdb[1] & 0x10;
		req->alloc_len = get_unaligned_be16(&cdb[7]);
		break;
	default:
		return -EINVAL;
	}
	req->dbd = cdb[1] & 0x08;
	req->pc = cdb[2] >> 6;
	req->page = cdb[2] & 0x3f;
	req->subpage = cdb[3];
	return 0;
}

/**
 * smq_cdb_decode_mode_select() - decode MODE SELECT (6/10)
 * @cdb: received CDB.
 * @len: its length.
 * @req: output.
 *
 * Return: 0, or -EINVAL if it is not a complete MODE SELECT.
 */
int smq_cdb_decode_mode_select(const u8 *cdb, unsigned int len,
			       struct smq_mode_select_req *req)
{
	if (!smq_cdb_complete(cdb, len) || !req)
		return -EINVAL;
	memset(req, 0, sizeof(*req));
	switch (cdb[0]) {
	case SMQ_OP_MODE_SELECT_6:
		req->param_len = cdb[4];
		break;
	case SMQ_OP_MODE_SELECT_10:
		req->ten = true;
		req->param_len = get_unaligned_be16(&cdb[7]);
		break;
	default:
		return -EINVAL;
	}
	req->pf = cdb[1] & 0x10;
	req->sp = cdb[1] & 0x01;
	return 0;
}

/**
 * smq_cdb_alloc_len() - allocation length of a data-in command
 * @cdb: received CDB.
 * @len: its length.
 *
 * Knows INQUIRY, MODE SENSE (6/10), REQUEST SENSE, REPORT LUNS, LOG
 * SENSE, READ CAPACITY (10) (always 8), READ CAPACITY (16), GET LBA
 * STATUS, REPORT TARGET PORT GROUPS and REPORT SUPPORTED OPERATION CODES.
 *
 * Return: the allocation length (at most INT_MAX), or -EINVAL.
 */
int smq_cdb_alloc_len(const u8 *cdb, unsigned int len)
{
	if (!smq_cdb_complete(cdb, len))
		return -EINVAL;
	switch (cdb[0]) {
	case SMQ_OP_INQUIRY:
		return get_unaligned_be16(&cdb[3]);
	case SMQ_OP_MODE_SENSE_6:
	case SMQ_OP_REQUEST_SENSE:
		return cdb[4];
	case SMQ_OP_MODE_SENSE_10:
		return get_unaligned_be16(&cdb[7]);
	case SMQ_OP_READ_CAPACITY_10:
		return 8;
	case SMQ_OP_REPORT_LUNS:
		return min_t(u32, get_unaligned_be32(&cdb[6]), INT_MAX);
	case SMQ_OP_LOG_SENSE:
		return get_unaligned_be16(&cdb[7]);
	case SMQ_OP_SERVICE_ACTION_IN_16:
		if ((cdb[1] & 0x1f) != SMQ_SAI_READ_CAPACITY_16 &&
		    (cdb[1] & 0x1f) != SMQ_SAI_GET_LBA_STATUS)
			return -EINVAL;
		return min_t(u32, get_unaligned_be32(&cdb[10]), INT_MAX);
	case SMQ_OP_MAINTENANCE_IN:
		if ((cdb[1] & 0x1f) != SMQ_MI_REPORT_TPGS &&
		    (cdb[1] & 0x1f) != SMQ_MI_REPORT_OPCODES)
			return -EINVAL;
		return min_t(u32, get_unaligned_be32(&cdb[6]), INT_MAX);
	default:
		return -EINVAL;
	}
}

/**
 * smq_unmap_param_parse() - parse an UNMAP parameter list
 * @buf: received parameter list.
 * @len: bytes received.
 * @desc: output descriptors.
 * @max: room in @desc (the device's maximum descriptor count).
 *
 * Descriptors are bounded by both data length fields and by @len; a
 * trailing partial descriptor is ignored, as SBC-3 says.
 *
 * Return: the number of descriptors, -EINVAL for a list shorter than
 * its header, -E2BIG for more than @max descriptors.
 */
int smq_unmap_param_parse(const u8 *buf, unsigned int len,
			  struct smq_unmap_desc *desc, unsigned int max)
{
	unsigned int i, n, data_len;

	if (!buf || len < 8 || (max && !desc))
		return -EINVAL;
	data_len = get_unaligned_be16(&buf[0]) + 2U;
	if (data_len < 8)
		return -EINVAL;
	n = min3(data_len, len, get_unaligned_be16(&buf[2]) + 8U);
	n = (n - 8) / 16;
	if (n > max)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		desc[i].lba = get_unaligned_be64(&buf[8 + 16 * i]);
		desc[i].nr_blocks = get_unaligned_be32(&buf[16 + 16 * i]);
	}
	return n;
}

/* ---- target: emulated response payloads ---- */

/**
 * smq_emu_inquiry() - standard INQUIRY data of an emulated LU
 * @lu: the logical unit.
 * @buf: output.
 * @len: allocation length.
 *
 * 96 bytes: SPC-4, HISUP, CMDQUE, version descriptors SAM-5, SPC-4,
 * SBC-3.
 *
 * Return: the number of bytes written.
 */
int smq_emu_inquiry(const struct smq_lun_info *lu, u8 *buf, unsigned int len)
{
	u8 d[96] = { 0 };

	d[0] = lu->device_type & 0x1f;
	d[1] = lu->removable ? 0x80 : 0;
	d[2] = 0x06;			/* SPC-4 */
	d[3] = 0x10 | 0x02;		/* HISUP, response data format 2 */
	d[4] = sizeof(d) - 5;
	d[5] = (lu->tpgs & 3) << 4;	/* TPGS */
	d[7] = 0x02;			/* CMDQUE */
	smq_put_padded(&d[8], lu->vendor, 8);
	smq_put_padded(&d[16], lu->model, 16);
	smq_put_padded(&d[32], lu->rev, 4);
	put_unaligned_be16(0x00a0, &d[58]);	/* SAM-5 */
	put_unaligned_be16(0x0460, &d[60]);	/* SPC-4 */
	put_unaligned_be16(0x04c0, &d[62]);	/* SBC-3 */
	return smq_copy_out(buf, len, d, sizeof(d));
}

static unsigned int smq_emu_vpd83(const struct smq_lun_info *lu, u8 *p)
{
	unsigned int n = 0, slen = lu->serial ? strnlen(lu->serial, 64) : 0;

	if (lu->naa) {
		p[0] = 0x01;		/* binary */
		p[1] = SMQ_DESIG_NAA;	/* associated with the LU */
		p[3] = 8;
		put_unaligned_be64(lu->naa, &p[4]);
		n = 12;
	}
	p[n] = 0x02;			/* ASCII */
	p[n + 1] = SMQ_DESIG_T10;
	p[n + 3] = 8 + 16 + slen;
	smq_put_padded(&p[n + 4], lu->vendor, 8);
	smq_put_padded(&p[n + 12], lu->model, 16);
	if (slen)
		memcpy(&p[n + 28], lu->serial, slen);
	n += 28 + slen;
	if (lu->tpgs) {
		/* SAS, binary, PIV, associated with the target port */
		p[n] = 0x61;
		p[n + 1] = 0x90 | SMQ_DESIG_REL_PORT;
		p[n + 3] = 4;
		put_unaligned_be16(lu->rel_port, &p[n + 6]);
		n += 8;
		p[n] = 0x61;
		p[n + 1] = 0x90 | SMQ_DESIG_TPG;
		p[n + 3] = 4;
		put_unaligned_be16(lu->tpg_id, &p[n + 6]);
		n += 8;
	}
	return n;
}

/**
 * smq_emu_vpd() - a VPD page of an emulated LU
 * @lu: the logical unit.
 * @page: 0x00, 0x80, 0x83, 0xb0, 0xb1 or 0xb2.
 * @buf: output.
 * @len: allocation length.
 *
 * Return: the number of bytes written, or -EINVAL for a page not
 * supported (the caller answers INVALID FIELD IN CDB).
 */
int smq_emu_vpd(const struct smq_lun_info *lu, u8 page, u8 *buf,
		unsigned int len)
{
	static const u8 pages[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };
	u8 d[128] = { 0 };
	unsigned int n;

	d[0] = lu->device_type & 0x1f;
	d[1] = page;
	switch (page) {
	case SMQ_VPD_SUPPORTED_PAGES:
		n = sizeof(pages);
		memcpy(&d[4], pages, n);
		break;
	case SMQ_VPD_UNIT_SERIAL:
		n = lu->serial ? strnlen(lu->serial, 64) : 0;
		if (n)
			memcpy(&d[4], lu->serial, n);
		break;
	case SMQ_VPD_DEVICE_ID:
		n = smq_emu_vpd83(lu, &d[4]);
		break;
	case SMQ_VPD_BLOCK_LIMITS:
		n = 0x3c;
		put_unaligned_be16(1U << (lu->lbppbe & 15), &d[6]);
		put_unaligned_be32(lu->max_xfer_blocks, &d[8]);
		put_unaligned_be32(lu->opt_xfer_blocks, &d[12]);
		if (lu->unmap) {
			put_unaligned_be32(lu->max_unmap_blocks, &d[20]);
			put_unaligned_be32(lu->max_unmap_descs, &d[24]);
			put_unaligned_be32(lu->unmap_granularity, &d[28]);
		}
		put_unaligned_be64(lu->max_ws_blocks, &d[36]);
		break;
	case SMQ_VPD_BLOCK_DEV_CHARS:
		n = 0x3c;
		put_unaligned_be16(lu->rotation_rate, &d[4]);
		break;
	case SMQ_VPD_LB_PROVISIONING:
		n = 4;
		d[5] = (lu->unmap ? 0x80 | 0x40 | 0x20 : 0) |
		       (lu->lbprz ? 0x04 : 0);
		d[6] = lu->unmap ? 2 : 0;	/* thin : full */
		break;
	default:
		return -EINVAL;
	}
	put_unaligned_be16(n, &d[2]);
	return smq_copy_out(buf, len, d, 4 + n);
}

static u64 smq_emu_last_lba(const struct smq_lun_info *lu)
{
	return lu->nr_blocks ? lu->nr_blocks - 1 : 0;
}

/**
 * smq_emu_read_capacity10() - READ CAPACITY (10) data of an emulated LU
 * @lu: the logical unit.
 * @buf: output.
 * @len: room in @buf (8 for the whole reply).
 *
 * A last LBA beyond 32 bits is reported as 0xffffffff.
 *
 * Return: the number of bytes written.
 */
int smq_emu_read_capacity10(const struct smq_lun_info *lu, u8 *buf,
			    unsigned int len)
{
	u8 d[8];

	put_unaligned_be32(min_t(u64, smq_emu_last_lba(lu), U32_MAX), &d[0]);
	put_unaligned_be32(lu->block_size, &d[4]);
	return smq_copy_out(buf, len, d, sizeof(d));
}

/**
 * smq_emu_read_capacity16() - READ CAPACITY (16) data of an emulated LU
 * @lu: the logical unit.
 * @buf: output.
 * @len: allocation length (32 for the whole reply).
 *
 * Return: the number of bytes written.
 */
int smq_emu_read_capacity16(const struct smq_lun_info *lu, u8 *buf,
			    unsigned int len)
{
	u8 d[32] = { 0 };

	put_unaligned_be64(smq_emu_last_lba(lu), &d[0]);
	put_unaligned_be32(lu->block_size, &d[8]);
	d[13] = lu->lbppbe & 0x0f;
	d[14] = (lu->unmap ? 0x80 : 0) | (lu->lbprz ? 0x40 : 0);
	return smq_copy_out(buf, len, d, sizeof(d));
}

/**
 * smq_emu_report_luns() - REPORT LUNS data
 * @luns: integer LUNs (see smq_lun_flat()).
 * @nr: number of LUNs.
 * @buf: output.
 * @len: allocation length.
 *
 * The LUN LIST LENGTH always covers all @nr LUNs, even when @len
 * truncates the list.
 *
 * Return: the number of bytes written, or -EINVAL for too many LUNs.
 */
int smq_emu_report_luns(const u64 *luns, unsigned int nr, u8 *buf,
			unsigned int len)
{
	unsigned int i, off, done;
	u8 d[8] = { 0 };

	if (nr > (U32_MAX - 8) / 8 || (nr && !luns))
		return -EINVAL;
	put_unaligned_be32(nr * 8, &d[0]);
	done = smq_copy_out(buf, len, d, 8);
	for (i = 0; i < nr && done < len; i++) {
		off = 8 + 8 * i;
		smq_int_to_scsilun(luns[i], d);
		done += smq_copy_out(buf + off, len - off, d, 8);
	}
	return done;
}

/**
 * smq_emu_mode_sense() - MODE SENSE (6/10) data of an emulated LU
 * @lu: the logical unit.
 * @req: the decoded request (smq_cdb_decode_mode_sense()).
 * @buf: output.
 * @len: room in @buf (normally the allocation length).
 *
 * Pages: read-write error recovery (0x01), caching (0x08), control
 * (0x0a), informational exceptions control (0x1c), all (0x3f, subpage 0
 * or 0xff).  A short block descriptor (a long one for MODE SENSE(10)
 * with LLBAA) unless DBD.  The changeable values show WCE only.
 *
 * Return: the number of bytes written, or -EINVAL for a page not
 * supported (the caller answers INVALID FIELD IN CDB).
 */
int smq_emu_mode_sense(const struct smq_lun_info *lu,
		       const struct smq_mode_sense_req *req, u8 *buf,
		       unsigned int len)
{
	bool all = req->page == SMQ_MODE_PAGE_ALL;
	bool chg = req->pc == SMQ_MODE_PC_CHANGEABLE;
	unsigned int p = req->ten ? 8 : 4, bdl = 0;
	u8 d[96] = { 0 };

	if (req->subpage && !(all && req->subpage == 0xff))
		return -EINVAL;
	if (!all && req->page != SMQ_MODE_PAGE_RW_RECOVERY &&
	    req->page != SMQ_MODE_PAGE_CACHING &&
	    req->page != SMQ_MODE_PAGE_CONTROL &&
	    req->page != SMQ_MODE_PAGE_IEC)
		return -EINVAL;
	if (!req->dbd && req->ten && req->llbaa) {
		bdl = 16;
		put_unaligned_be64(lu->nr_blocks, &d[p]);
		put_unaligned_be32(lu->block_size, &d[p + 12]);
		d[4] = 0x01;		/* LONGLBA */
	} else if (!req->dbd) {
		bdl = 8;
		put_unaligned_be32(min_t(u64, lu->nr_blocks, U32_MAX), &d[p]);
		smq_put_be24(lu->block_size, &d[p + 5]);
	}
	p += bdl;
	if (all || req->page == SMQ_MODE_PAGE_RW_RECOVERY) {
		d[p] = SMQ_MODE_PAGE_RW_RECOVERY;
		d[p + 1] = 0x0a;
		if (!chg)
			d[p + 2] = 0xc0;	/* AWRE, ARRE; no retries */
		p += 12;
	}
	if (all || req->page == SMQ_MODE_PAGE_CACHING) {
		d[p] = SMQ_MODE_PAGE_CACHING;
		d[p + 1] = 0x12;
		d[p + 2] = chg || lu->write_cache ? 0x04 : 0;	/* WCE */
		p += 20;
	}
	if (all || req->page == SMQ_MODE_PAGE_CONTROL) {
		d[p] = SMQ_MODE_PAGE_CONTROL;
		d[p + 1] = 0x0a;
		if (!chg) {
			d[p + 2] = lu->desc_sense ? 0x04 : 0;	/* D_SENSE */
			d[p + 3] = 0x10;	/* unrestricted reordering */
		}
		p += 12;
	}
	if (all || req->page == SMQ_MODE_PAGE_IEC) {
		d[p] = SMQ_MODE_PAGE_IEC;
		d[p + 1] = 0x0a;
		if (!chg)
			d[p + 3] = 0x06;	/* MRIE: report on request */
		p += 12;
	}
	if (req->ten) {
		put_unaligned_be16(p - 2, &d[0]);
		d[3] = lu->dpofua ? 0x10 : 0;
		put_unaligned_be16(bdl, &d[6]);
	} else {
		d[0] = p - 1;
		d[2] = lu->dpofua ? 0x10 : 0;
		d[3] = bdl;
	}
	return smq_copy_out(buf, len, d, p);
}

/* The page @code of @lu (no header) in @pg; its length, or -EINVAL. */
static int smq_emu_mode_page(const struct smq_lun_info *lu, u8 code, u8 pc,
			     u8 *pg, unsigned int room)
{
	struct smq_mode_sense_req req = {
		.dbd = true, .pc = pc, .page = code, .alloc_len = 255,
	};
	u8 d[64];
	int ret = smq_emu_mode_sense(lu, &req, d, sizeof(d));
	unsigned int n;

	if (ret < 6 || code == SMQ_MODE_PAGE_ALL)
		return -EINVAL;
	n = min_t(unsigned int, d[5] + 2U, ret - 4U);
	if (n > room)
		return -EINVAL;
	memcpy(pg, &d[4], n);
	return n;
}

/* The block descriptor at @bd (@bdl bytes) describes @lu as it is? */
static bool smq_emu_block_desc_ok(const struct smq_lun_info *lu,
				  const u8 *bd, unsigned int bdl)
{
	u64 nr;

	if (bdl == 16) {
		nr = get_unaligned_be64(&bd[0]);
		if (get_unaligned_be32(&bd[8]) ||
		    get_unaligned_be32(&bd[12]) != lu->block_size)
			return false;
		return !nr || nr == lu->nr_blocks;
	}
	/* Short: NUMBER OF BLOCKS, density code, BLOCK LENGTH (24 bits). */
	nr = get_unaligned_be32(&bd[0]);
	if (bd[4] || (get_unaligned_be32(&bd[4]) & 0xffffff) != lu->block_size)
		return false;
	return !nr || nr == min_t(u64, lu->nr_blocks, U32_MAX);
}

/**
 * smq_emu_mode_select() - check a MODE SELECT parameter list
 * @lu: the logical unit, as it is now (its current and changeable
 *	values are those of smq_emu_mode_sense()).
 * @buf: the parameter list received.
 * @len: its length (the PARAMETER LIST LENGTH, or less if less came).
 * @ten: MODE SELECT(10) header.
 * @wce: output: the WCE bit the list asks for (@lu's when it has no
 *	caching page).  Written only on success.
 *
 * The header's mode data length and medium type must be 0 and WP clear
 * (DPOFUA, reserved in MODE SELECT, is ignored); a block descriptor (8
 * bytes, or 16 with LONGLBA) must describe the LU as it is (0 blocks:
 * no change).  Each page must be one MODE SENSE reports, with PS and SPF
 * clear, its own page length, and every bit that is not changeable equal
 * to the current value.  Nothing is applied unless the whole list is
 * valid.
 *
 * Return: 0, -EMSGSIZE for a list that ends inside its header, block
 * descriptor or a page (PARAMETER LIST LENGTH ERROR), -EINVAL for an
 * invalid field (INVALID FIELD IN PARAMETER LIST).
 */
int smq_emu_mode_select(const struct smq_lun_info *lu, const u8 *buf,
			unsigned int len, bool ten, bool *wce)
{
	unsigned int hlen = ten ? 8 : 4, bdl, p;
	bool new_wce = lu->write_cache;
	u8 cur[32], chg[32];

	if (!buf || len < hlen)
		return -EMSGSIZE;
	if (ten) {
		if (get_unaligned_be16(&buf[0]) || buf[2] || (buf[3] & 0x80) ||
		    (buf[4] & ~0x01) || buf[5])
			return -EINVAL;
		bdl = get_unaligned_be16(&buf[6]);
		if (bdl && bdl != ((buf[4] & 0x01) ? 16U : 8U))
			return -EINVAL;
	} else {
		if (buf[0] || buf[1] || (buf[2] & 0x80))
			return -EINVAL;
		bdl = buf[3];
		if (bdl && bdl != 8)
			return -EINVAL;
	}
	if (len - hlen < bdl)
		return -EMSGSIZE;
	if (bdl && !smq_emu_block_desc_ok(lu, &buf[hlen], bdl))
		return -EINVAL;

	for (p = hlen + bdl; p < len;) {
		unsigned int plen, i;
		int n;

		if (len - p < 2)
			return -EMSGSIZE;
		plen = buf[p + 1] + 2U;
		if (len - p < plen)
			return -EMSGSIZE;
		if (buf[p] & 0xc0)		/* PS, SPF */
			return -EINVAL;
		n = smq_emu_mode_page(lu, buf[p] & 0x3f, SMQ_MODE_PC_CURRENT,
				      cur, sizeof(cur));
		if (n < 0 || (unsigned int)n != plen ||
		    smq_emu_mode_page(lu, buf[p] & 0x3f,
				      SMQ_MODE_PC_CHANGEABLE, chg,
				      sizeof(chg)) != n)
			return -EINVAL;
		for (i = 2; i < plen; i++)
			if ((buf[p + i] ^ cur[i]) & ~chg[i])
				return -EINVAL;
		if ((buf[p] & 0x3f) == SMQ_MODE_PAGE_CACHING)
			new_wce = buf[p + 2] & 0x04;
		p += plen;
	}
	if (wce)
		*wce = new_wce;
	return 0;
}
