// SPDX-License-Identifier: GPL-2.0
/*
 * smq CDB builders and response parsers: what an initiator needs (see
 * include/smq/cdb.h).  Layouts: SPC-4 and SBC-3.  The target side (CDB
 * decoders, emulated responses) is smq_sas's: drivers/sas/smq_sas_emu.c.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <smq/unaligned.h>
#include <smq/cdb.h>

/* ---- helpers ---- */

static bool smq_printable(u8 c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * Copy field [off, off + size) of the first @valid bytes of @buf into
 * @dst (size + 1 bytes) as a string: unprintable bytes become blanks,
 * trailing blanks are trimmed.
 */
static void smq_get_string(char *dst, const u8 *buf, unsigned int valid,
			   unsigned int off, unsigned int size)
{
	unsigned int i, n = valid > off ? min(valid - off, size) : 0;

	for (i = 0; i < n; i++)
		dst[i] = smq_printable(buf[off + i]) ? buf[off + i] : ' ';
	while (n && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

/* ---- initiator: CDB builders ---- */

/**
 * smq_cdb_rw() - build a READ or WRITE CDB, sd-style
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @write: WRITE rather than READ.
 * @lba: first logical block.
 * @nr_blocks: number of blocks, not 0.
 * @flags: SMQ_CDB_FUA, SMQ_CDB_DPO, SMQ_CDB_FORCE16.
 *
 * READ/WRITE(10) when @lba fits 32 bits and @nr_blocks 16 bits, else (16).
 *
 * Return: the CDB length (10 or 16), or -EINVAL.
 */
int smq_cdb_rw(u8 *cdb, bool write, u64 lba, u32 nr_blocks,
	       unsigned int flags)
{
	u8 b1 = (flags & SMQ_CDB_DPO ? 0x10 : 0) |
		(flags & SMQ_CDB_FUA ? 0x08 : 0);

	if (!cdb || !nr_blocks || lba > U64_MAX - (nr_blocks - 1))
		return -EINVAL;
	if (!(flags & SMQ_CDB_FORCE16) && lba <= U32_MAX &&
	    nr_blocks <= U16_MAX) {
		memset(cdb, 0, 10);
		cdb[0] = write ? SMQ_OP_WRITE_10 : SMQ_OP_READ_10;
		cdb[1] = b1;
		put_unaligned_be32((u32)lba, &cdb[2]);
		put_unaligned_be16((u16)nr_blocks, &cdb[7]);
		return 10;
	}
	memset(cdb, 0, 16);
	cdb[0] = write ? SMQ_OP_WRITE_16 : SMQ_OP_READ_16;
	cdb[1] = b1;
	put_unaligned_be64(lba, &cdb[2]);
	put_unaligned_be32(nr_blocks, &cdb[10]);
	return 16;
}
EXPORT_SYMBOL_GPL(smq_cdb_rw);

/**
 * smq_cdb_sync_cache() - build SYNCHRONIZE CACHE (10) or (16)
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @lba: first block to flush.
 * @nr_blocks: number of blocks, 0 for all from @lba on.
 * @flags: SMQ_CDB_IMMED, SMQ_CDB_FORCE16.
 *
 * Return: the CDB length (10 or 16), or -EINVAL.
 */
int smq_cdb_sync_cache(u8 *cdb, u64 lba, u32 nr_blocks, unsigned int flags)
{
	u8 b1 = flags & SMQ_CDB_IMMED ? 0x02 : 0;

	if (!cdb)
		return -EINVAL;
	if (!(flags & SMQ_CDB_FORCE16) && lba <= U32_MAX &&
	    nr_blocks <= U16_MAX) {
		memset(cdb, 0, 10);
		cdb[0] = SMQ_OP_SYNCHRONIZE_CACHE_10;
		cdb[1] = b1;
		put_unaligned_be32((u32)lba, &cdb[2]);
		put_unaligned_be16((u16)nr_blocks, &cdb[7]);
		return 10;
	}
	memset(cdb, 0, 16);
	cdb[0] = SMQ_OP_SYNCHRONIZE_CACHE_16;
	cdb[1] = b1;
	put_unaligned_be64(lba, &cdb[2]);
	put_unaligned_be32(nr_blocks, &cdb[10]);
	return 16;
}
EXPORT_SYMBOL_GPL(smq_cdb_sync_cache);

/**
 * smq_cdb_unmap() - build UNMAP
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @param_len: length of the parameter list (smq_unmap_param_build()).
 *
 * Return: 10, or -EINVAL.
 */
int smq_cdb_unmap(u8 *cdb, u16 param_len)
{
	if (!cdb)
		return -EINVAL;
	memset(cdb, 0, 10);
	cdb[0] = SMQ_OP_UNMAP;
	put_unaligned_be16(param_len, &cdb[7]);
	return 10;
}
EXPORT_SYMBOL_GPL(smq_cdb_unmap);

/**
 * smq_unmap_param_build() - build an UNMAP parameter list
 * @buf: output.
 * @len: size of @buf.
 * @desc: block descriptors.
 * @nr: number of descriptors, 1 to 4095.
 *
 * Return: the parameter list length (8 + 16 * @nr), or -EINVAL if it
 * does not fit.
 */
int smq_unmap_param_build(u8 *buf, unsigned int len,
			  const struct smq_unmap_desc *desc, unsigned int nr)
{
	unsigned int i, total = 8 + 16 * nr;

	if (!buf || !desc || !nr || nr > 4095 || len < total)
		return -EINVAL;
	memset(buf, 0, total);
	put_unaligned_be16(total - 2, &buf[0]);
	put_unaligned_be16(16 * nr, &buf[2]);
	for (i = 0; i < nr; i++) {
		put_unaligned_be64(desc[i].lba, &buf[8 + 16 * i]);
		put_unaligned_be32(desc[i].nr_blocks, &buf[16 + 16 * i]);
	}
	return total;
}
EXPORT_SYMBOL_GPL(smq_unmap_param_build);

/**
 * smq_cdb_write_same() - build WRITE SAME (16), or (10) on request
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @lba: first logical block.
 * @nr_blocks: number of blocks.
 * @flags: SMQ_CDB_UNMAP, SMQ_CDB_TEN.
 *
 * Return: the CDB length, or -EINVAL (e.g. a range too big for (10)).
 */
int smq_cdb_write_same(u8 *cdb, u64 lba, u32 nr_blocks, unsigned int flags)
{
	u8 b1 = flags & SMQ_CDB_UNMAP ? 0x08 : 0;

	if (!cdb)
		return -EINVAL;
	if (flags & SMQ_CDB_TEN) {
		if (lba > U32_MAX || nr_blocks > U16_MAX)
			return -EINVAL;
		memset(cdb, 0, 10);
		cdb[0] = SMQ_OP_WRITE_SAME_10;
		cdb[1] = b1;
		put_unaligned_be32((u32)lba, &cdb[2]);
		put_unaligned_be16((u16)nr_blocks, &cdb[7]);
		return 10;
	}
	memset(cdb, 0, 16);
	cdb[0] = SMQ_OP_WRITE_SAME_16;
	cdb[1] = b1;
	put_unaligned_be64(lba, &cdb[2]);
	put_unaligned_be32(nr_blocks, &cdb[10]);
	return 16;
}
EXPORT_SYMBOL_GPL(smq_cdb_write_same);

/**
 * smq_cdb_inquiry() - build INQUIRY
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @evpd: ask for the VPD page @page.
 * @page: VPD page code (must be 0 without @evpd).
 * @alloc_len: allocation length.
 *
 * Return: 6, or -EINVAL.
 */
int smq_cdb_inquiry(u8 *cdb, bool evpd, u8 page, u16 alloc_len)
{
	if (!cdb || (!evpd && page))
		return -EINVAL;
	memset(cdb, 0, 6);
	cdb[0] = SMQ_OP_INQUIRY;
	cdb[1] = evpd;
	cdb[2] = page;
	put_unaligned_be16(alloc_len, &cdb[3]);
	return 6;
}
EXPORT_SYMBOL_GPL(smq_cdb_inquiry);

/**
 * smq_cdb_report_luns() - build REPORT LUNS
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @select: SELECT REPORT field (0: all logical units).
 * @alloc_len: allocation length, at least 16.
 *
 * Return: 12, or -EINVAL.
 */
int smq_cdb_report_luns(u8 *cdb, u8 select, u32 alloc_len)
{
	if (!cdb || alloc_len < 16)
		return -EINVAL;
	memset(cdb, 0, 12);
	cdb[0] = SMQ_OP_REPORT_LUNS;
	cdb[2] = select;
	put_unaligned_be32(alloc_len, &cdb[6]);
	return 12;
}
EXPORT_SYMBOL_GPL(smq_cdb_report_luns);

/**
 * smq_cdb_read_capacity10() - build READ CAPACITY (10)
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 *
 * Return: 10, or -EINVAL.
 */
int smq_cdb_read_capacity10(u8 *cdb)
{
	if (!cdb)
		return -EINVAL;
	memset(cdb, 0, 10);
	cdb[0] = SMQ_OP_READ_CAPACITY_10;
	return 10;
}
EXPORT_SYMBOL_GPL(smq_cdb_read_capacity10);

/**
 * smq_cdb_read_capacity16() - build READ CAPACITY (16)
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @alloc_len: allocation length (32 for the whole reply).
 *
 * SERVICE ACTION IN (16) with service action 0x10.
 *
 * Return: 16, or -EINVAL.
 */
int smq_cdb_read_capacity16(u8 *cdb, u32 alloc_len)
{
	if (!cdb)
		return -EINVAL;
	memset(cdb, 0, 16);
	cdb[0] = SMQ_OP_SERVICE_ACTION_IN_16;
	cdb[1] = SMQ_SAI_READ_CAPACITY_16;
	put_unaligned_be32(alloc_len, &cdb[10]);
	return 16;
}
EXPORT_SYMBOL_GPL(smq_cdb_read_capacity16);

/**
 * smq_cdb_mode_sense() - build MODE SENSE (6) or (10)
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @req: what to ask: form, DBD, LLBAA, page control, page, subpage and
 *	allocation length (at most 255 for the 6-byte form).
 *
 * Return: the CDB length, or -EINVAL.
 */
int smq_cdb_mode_sense(u8 *cdb, const struct smq_mode_sense_req *req)
{
	if (!cdb || !req || req->pc > 3 || req->page > 0x3f)
		return -EINVAL;
	if (!req->ten) {
		if (req->alloc_len > 255 || req->llbaa)
			return -EINVAL;
		memset(cdb, 0, 6);
		cdb[0] = SMQ_OP_MODE_SENSE_6;
		cdb[1] = req->dbd ? 0x08 : 0;
		cdb[2] = req->pc << 6 | req->page;
		cdb[3] = req->subpage;
		cdb[4] = req->alloc_len;
		return 6;
	}
	memset(cdb, 0, 10);
	cdb[0] = SMQ_OP_MODE_SENSE_10;
	cdb[1] = (req->llbaa ? 0x10 : 0) | (req->dbd ? 0x08 : 0);
	cdb[2] = req->pc << 6 | req->page;
	cdb[3] = req->subpage;
	put_unaligned_be16(req->alloc_len, &cdb[7]);
	return 10;
}
EXPORT_SYMBOL_GPL(smq_cdb_mode_sense);

/**
 * smq_cdb_mode_select() - build MODE SELECT (6) or (10), page format
 * @cdb: output.
 * @ten: the 10-byte form.
 * @sp: save pages.
 * @param_len: parameter list length (at most 255 for the 6-byte form).
 *
 * Return: the CDB length, or -EINVAL.
 */
int smq_cdb_mode_select(u8 *cdb, bool ten, bool sp, u16 param_len)
{
	if (!cdb || (!ten && param_len > 0xff))
		return -EINVAL;
	memset(cdb, 0, SMQ_CDB_MAX);
	cdb[1] = 0x10 | (sp ? 0x01 : 0);	/* PF */
	if (ten) {
		cdb[0] = SMQ_OP_MODE_SELECT_10;
		put_unaligned_be16(param_len, &cdb[7]);
		return 10;
	}
	cdb[0] = SMQ_OP_MODE_SELECT_6;
	cdb[4] = param_len;
	return 6;
}
EXPORT_SYMBOL_GPL(smq_cdb_mode_select);

/**
 * smq_cdb_test_unit_ready() - build TEST UNIT READY
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 *
 * Return: 6, or -EINVAL.
 */
int smq_cdb_test_unit_ready(u8 *cdb)
{
	if (!cdb)
		return -EINVAL;
	memset(cdb, 0, 6);
	return 6;
}
EXPORT_SYMBOL_GPL(smq_cdb_test_unit_ready);

/**
 * smq_cdb_request_sense() - build REQUEST SENSE
 * @cdb: output, at least SMQ_CDB_MAX bytes.
 * @desc: ask for descriptor format sense.
 * @alloc_len: allocation length.
 *
 * Return: 6, or -EINVAL.
 */
int smq_cdb_request_sense(u8 *cdb, bool desc, u8 alloc_len)
{
	if (!cdb)
		return -EINVAL;
	memset(cdb, 0, 6);
	cdb[0] = SMQ_OP_REQUEST_SENSE;
	cdb[1] = desc;
	cdb[4] = alloc_len;
	return 6;
}
EXPORT_SYMBOL_GPL(smq_cdb_request_sense);

/* ---- initiator: response parsers ---- */

/**
 * smq_parse_inquiry() - parse standard INQUIRY data
 * @buf: received data.
 * @len: bytes received.
 * @inq: output.
 *
 * Only the bytes both received and covered by the ADDITIONAL LENGTH are
 * used; fields beyond them read as zero or empty strings.
 *
 * Return: 0, or -EINVAL if fewer than 5 bytes arrived.
 */
int smq_parse_inquiry(const u8 *buf, unsigned int len, struct smq_inquiry *inq)
{
	unsigned int n;

	if (!buf || !inq || len < 5)
		return -EINVAL;
	memset(inq, 0, sizeof(*inq));
	n = min(len, buf[4] + 5U);
	inq->len = n;
	inq->qualifier = buf[0] >> 5;
	inq->device_type = buf[0] & 0x1f;
	inq->removable = buf[1] & 0x80;
	inq->version = buf[2];
	inq->hisup = buf[3] & 0x10;
	inq->response_format = buf[3] & 0x0f;
	if (n > 5) {
		inq->tpgs = (buf[5] >> 4) & 3;
		inq->protect = buf[5] & 0x01;
	}
	if (n > 7)
		inq->cmdque = buf[7] & 0x02;
	smq_get_string(inq->vendor, buf, n, 8, 8);
	smq_get_string(inq->model, buf, n, 16, 16);
	smq_get_string(inq->rev, buf, n, 32, 4);
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_inquiry);

/**
 * smq_vpd_page_len() - check a VPD page header
 * @buf: received data.
 * @len: bytes received.
 * @page: the page code asked for.
 *
 * Return: the number of usable payload bytes after the 4-byte header
 * (PAGE LENGTH clamped to what was received), or -EINVAL if the header
 * is missing or names another page.
 */
int smq_vpd_page_len(const u8 *buf, unsigned int len, u8 page)
{
	if (!buf || len < 4 || buf[1] != page)
		return -EINVAL;
	return min(len - 4, (unsigned int)get_unaligned_be16(&buf[2]));
}
EXPORT_SYMBOL_GPL(smq_vpd_page_len);

/**
 * smq_parse_vpd_supported() - list of VPD page 0x00
 * @buf: received data.
 * @len: bytes received.
 * @pages: output, page codes.
 * @max: room in @pages.
 *
 * Return: the number of page codes stored, or -EINVAL.
 */
int smq_parse_vpd_supported(const u8 *buf, unsigned int len, u8 *pages,
			    unsigned int max)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_SUPPORTED_PAGES);

	if (n < 0 || (max && !pages))
		return -EINVAL;
	n = min_t(unsigned int, n, max);
	if (n)
		memcpy(pages, &buf[4], n);
	return n;
}
EXPORT_SYMBOL_GPL(smq_parse_vpd_supported);

/**
 * smq_vpd_has_page() - does VPD page 0x00 list @page?
 * @buf: received page 0x00.
 * @len: bytes received.
 * @page: page code.
 *
 * Return: true if listed.
 */
bool smq_vpd_has_page(const u8 *buf, unsigned int len, u8 page)
{
	int i, n = smq_vpd_page_len(buf, len, SMQ_VPD_SUPPORTED_PAGES);

	for (i = 0; i < n; i++)
		if (buf[4 + i] == page)
			return true;
	return false;
}
EXPORT_SYMBOL_GPL(smq_vpd_has_page);

/**
 * smq_parse_vpd_serial() - unit serial number of VPD page 0x80
 * @buf: received data.
 * @len: bytes received.
 * @out: output string.
 * @out_size: size of @out, at least 1.
 *
 * Unprintable bytes become blanks; leading and trailing blanks are
 * trimmed; the result is truncated to fit.
 *
 * Return: the string length, or -EINVAL.
 */
int smq_parse_vpd_serial(const u8 *buf, unsigned int len, char *out,
			 unsigned int out_size)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_UNIT_SERIAL);
	unsigned int start = 4, end;

	if (n < 0 || !out || !out_size)
		return -EINVAL;
	end = 4 + n;
	while (start < end && !(smq_printable(buf[start]) && buf[start] != ' '))
		start++;
	while (end > start && !(smq_printable(buf[end - 1]) &&
				buf[end - 1] != ' '))
		end--;
	end = min(end, start + out_size - 1);
	smq_get_string(out, buf, end, start, end - start);
	return strlen(out);
}
EXPORT_SYMBOL_GPL(smq_parse_vpd_serial);

/**
 * smq_vpd83_next() - iterate the designation descriptors of VPD page 0x83
 * @buf: received data.
 * @len: bytes received.
 * @pos: iterator, 0 to start; advanced past the returned descriptor.
 * @d: output; @d->id points into @buf.
 *
 * A descriptor running past the page or the received data ends the walk.
 *
 * Return: 1 with a descriptor, 0 at the end, -EINVAL for a bad header.
 */
int smq_vpd83_next(const u8 *buf, unsigned int len, unsigned int *pos,
		   struct smq_designator *d)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_DEVICE_ID);
	unsigned int p, end;

	if (n < 0 || !pos || !d)
		return -EINVAL;
	end = 4 + n;
	p = max(*pos, 4U);
	if (p > end || end - p < 4 || end - p - 4 < buf[p + 3])
		return 0;
	d->proto = buf[p] >> 4;
	d->code_set = buf[p] & 0x0f;
	d->piv = buf[p + 1] & 0x80;
	d->assoc = (buf[p + 1] >> 4) & 3;
	d->type = buf[p + 1] & 0x0f;
	d->len = buf[p + 3];
	d->id = &buf[p + 4];
	*pos = p + 4 + d->len;
	return 1;
}
EXPORT_SYMBOL_GPL(smq_vpd83_next);

/* Preference of a logical unit designator; 0: not usable. */
static int smq_designator_prio(const struct smq_designator *d)
{
	if (d->assoc != 0 || !d->len)
		return 0;
	switch (d->type) {
	case SMQ_DESIG_NAA:
		return d->len == 16 ? 8 : d->len == 8 ? 7 : 0;
	case SMQ_DESIG_EUI64:
		return d->len == 16 ? 6 : d->len == 12 ? 5 : d->len == 8 ? 4 : 0;
	case SMQ_DESIG_NAME:
		return d->code_set == 3 ? 3 : 0;
	case SMQ_DESIG_T10:
		return 2;
	default:
		return 0;
	}
}

/**
 * smq_vpd83_lun_id() - pick the best logical unit designator
 * @buf: received VPD page 0x83.
 * @len: bytes received.
 * @d: output.
 *
 * Prefers NAA (16 then 8 bytes), then EUI-64 (16, 12, 8), then a UTF-8
 * SCSI name string, then a T10 vendor id; first one wins a tie.  Only
 * designators of the logical unit itself count.
 *
 * Return: 0, -ENOENT if none qualifies, -EINVAL for a bad page.
 */
int smq_vpd83_lun_id(const u8 *buf, unsigned int len,
		     struct smq_designator *d)
{
	struct smq_designator cur;
	unsigned int pos = 0;
	int ret, best = 0;

	if (!d)
		return -EINVAL;
	while ((ret = smq_vpd83_next(buf, len, &pos, &cur)) > 0) {
		int prio = smq_designator_prio(&cur);

		if (prio > best) {
			best = prio;
			*d = cur;
		}
	}
	if (ret < 0)
		return ret;
	return best ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(smq_vpd83_lun_id);

/* Bytes [0, end) of a VPD page with @n payload bytes are valid. */
static bool smq_vpd_has(int n, unsigned int end)
{
	return 4 + (unsigned int)n >= end;
}

/**
 * smq_parse_vpd_b0() - parse VPD page 0xb0 (block limits)
 * @buf: received data.
 * @len: bytes received.
 * @bl: output; fields not received read as zero.
 *
 * Return: 0, or -EINVAL for a bad header.
 */
int smq_parse_vpd_b0(const u8 *buf, unsigned int len,
		     struct smq_block_limits *bl)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_BLOCK_LIMITS);

	if (n < 0 || !bl)
		return -EINVAL;
	memset(bl, 0, sizeof(*bl));
	if (smq_vpd_has(n, 8))
		bl->opt_xfer_gran = get_unaligned_be16(&buf[6]);
	if (smq_vpd_has(n, 12))
		bl->max_xfer = get_unaligned_be32(&buf[8]);
	if (smq_vpd_has(n, 16))
		bl->opt_xfer = get_unaligned_be32(&buf[12]);
	if (smq_vpd_has(n, 24))
		bl->max_unmap_lba = get_unaligned_be32(&buf[20]);
	if (smq_vpd_has(n, 28))
		bl->max_unmap_desc = get_unaligned_be32(&buf[24]);
	if (smq_vpd_has(n, 32))
		bl->unmap_gran = get_unaligned_be32(&buf[28]);
	if (smq_vpd_has(n, 36)) {
		bl->unmap_align_valid = buf[32] & 0x80;
		bl->unmap_align = get_unaligned_be32(&buf[32]) & 0x7fffffff;
	}
	if (smq_vpd_has(n, 44))
		bl->max_ws = get_unaligned_be64(&buf[36]);
	bl->has_unmap = n >= 0x3c;
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_vpd_b0);

/**
 * smq_parse_vpd_b1() - parse VPD page 0xb1 (block device characteristics)
 * @buf: received data.
 * @len: bytes received.
 * @bdc: output; fields not received read as zero.
 *
 * Return: 0, or -EINVAL for a bad header.
 */
int smq_parse_vpd_b1(const u8 *buf, unsigned int len, struct smq_bdc *bdc)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_BLOCK_DEV_CHARS);

	if (n < 0 || !bdc)
		return -EINVAL;
	memset(bdc, 0, sizeof(*bdc));
	if (smq_vpd_has(n, 6))
		bdc->rotation_rate = get_unaligned_be16(&buf[4]);
	if (smq_vpd_has(n, 7))
		bdc->product_type = buf[6];
	if (smq_vpd_has(n, 8))
		bdc->form_factor = buf[7] & 0x0f;
	if (smq_vpd_has(n, 9))
		bdc->zoned = (buf[8] >> 4) & 3;
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_vpd_b1);

/**
 * smq_parse_vpd_b2() - parse VPD page 0xb2 (logical block provisioning)
 * @buf: received data.
 * @len: bytes received.
 * @lbp: output; fields not received read as zero.
 *
 * Return: 0, or -EINVAL for a bad header.
 */
int smq_parse_vpd_b2(const u8 *buf, unsigned int len, struct smq_lbp *lbp)
{
	int n = smq_vpd_page_len(buf, len, SMQ_VPD_LB_PROVISIONING);

	if (n < 0 || !lbp)
		return -EINVAL;
	memset(lbp, 0, sizeof(*lbp));
	if (smq_vpd_has(n, 5))
		lbp->threshold_exp = buf[4];
	if (smq_vpd_has(n, 6)) {
		lbp->lbpu = buf[5] & 0x80;
		lbp->lbpws = buf[5] & 0x40;
		lbp->lbpws10 = buf[5] & 0x20;
		lbp->lbprz = buf[5] & 0x04;
		lbp->anc_sup = buf[5] & 0x02;
		lbp->dp = buf[5] & 0x01;
	}
	if (smq_vpd_has(n, 7))
		lbp->prov_type = buf[6] & 0x07;
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_vpd_b2);

/**
 * smq_parse_read_capacity10() - parse READ CAPACITY (10) data
 * @buf: received data.
 * @len: bytes received, at least 8.
 * @cap: output; @cap->need_rc16 is set when the device asks for (16).
 *
 * Return: 0, or -EINVAL.
 */
int smq_parse_read_capacity10(const u8 *buf, unsigned int len,
			      struct smq_capacity *cap)
{
	if (!buf || !cap || len < 8)
		return -EINVAL;
	memset(cap, 0, sizeof(*cap));
	cap->last_lba = get_unaligned_be32(&buf[0]);
	cap->block_size = get_unaligned_be32(&buf[4]);
	cap->need_rc16 = cap->last_lba == U32_MAX;
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_read_capacity10);

/**
 * smq_parse_read_capacity16() - parse READ CAPACITY (16) data
 * @buf: received data.
 * @len: bytes received, at least 12.
 * @cap: output; protection and provisioning fields not received read
 *	as zero.
 *
 * Return: 0, or -EINVAL.
 */
int smq_parse_read_capacity16(const u8 *buf, unsigned int len,
			      struct smq_capacity *cap)
{
	if (!buf || !cap || len < 12)
		return -EINVAL;
	memset(cap, 0, sizeof(*cap));
	cap->last_lba = get_unaligned_be64(&buf[0]);
	cap->block_size = get_unaligned_be32(&buf[8]);
	if (len > 12) {
		cap->prot_en = buf[12] & 0x01;
		cap->p_type = (buf[12] >> 1) & 0x07;
	}
	if (len > 13) {
		cap->p_i_exp = buf[13] >> 4;
		cap->lbppbe = buf[13] & 0x0f;
	}
	if (len > 14) {
		cap->lbpme = buf[14] & 0x80;
		cap->lbprz = buf[14] & 0x40;
	}
	if (len > 15)
		cap->lowest_aligned = get_unaligned_be16(&buf[14]) & 0x3fff;
	return 0;
}
EXPORT_SYMBOL_GPL(smq_parse_read_capacity16);

/**
 * smq_scsilun_to_int() - 8-byte LUN to a Linux integer LUN
 * @scsilun: the 8 bytes, as in REPORT LUNS.
 *
 * Byte pairs are swapped into the integer the way Linux does it, so
 * peripheral addressing (00 nn) gives nn and flat addressing (4h hh ll)
 * gives 0x4000 | LUN; all eight bytes are kept.
 *
 * Return: the integer LUN.
 */
u64 smq_scsilun_to_int(const u8 *scsilun)
{
	u64 lun = 0;
	unsigned int i;

	for (i = 0; i < 8; i += 2)
		lun |= ((u64)scsilun[i] << ((i + 1) * 8)) |
		       ((u64)scsilun[i + 1] << (i * 8));
	return lun;
}
EXPORT_SYMBOL_GPL(smq_scsilun_to_int);

/**
 * smq_int_to_scsilun() - Linux integer LUN to its 8 bytes
 * @lun: integer LUN.
 * @scsilun: output, 8 bytes.
 *
 * Exact inverse of smq_scsilun_to_int().
 */
void smq_int_to_scsilun(u64 lun, u8 *scsilun)
{
	unsigned int i;

	for (i = 0; i < 8; i += 2) {
		scsilun[i] = (lun >> 8) & 0xff;
		scsilun[i + 1] = lun & 0xff;
		lun >>= 16;
	}
}
EXPORT_SYMBOL_GPL(smq_int_to_scsilun);

/**
 * smq_parse_report_luns() - parse REPORT LUNS data
 * @buf: received data.
 * @len: bytes received, at least 8.
 * @luns: output, integer LUNs.
 * @max: room in @luns.
 * @total: output, number of LUNs the device has (from LUN LIST LENGTH);
 *	more than returned means a bigger allocation length is needed.
 *
 * Return: the number of LUNs stored, or -EINVAL.
 */
int smq_parse_report_luns(const u8 *buf, unsigned int len, u64 *luns,
			  unsigned int max, unsigned int *total)
{
	unsigned int i, n;

	if (!buf || len < 8 || (max && !luns))
		return -EINVAL;
	n = get_unaligned_be32(&buf[0]) / 8;
	if (total)
		*total = n;
	n = min3(n, (len - 8) / 8, max);
	for (i = 0; i < n; i++)
		luns[i] = smq_scsilun_to_int(&buf[8 + 8 * i]);
	return n;
}
EXPORT_SYMBOL_GPL(smq_parse_report_luns);

/**
 * smq_parse_mode_caching() - find the caching page in MODE SENSE data
 * @buf: received data.
 * @len: bytes received.
 * @ten: reply to MODE SENSE(10) (8-byte header) rather than (6).
 * @c: output.
 *
 * Skips the block descriptors and walks the pages (subpage format
 * included) within the MODE DATA LENGTH.
 *
 * Return: 0, -ENOENT if there is no caching page, -EINVAL for a
 * malformed header or caching page.
 */
int smq_parse_mode_caching(const u8 *buf, unsigned int len, bool ten,
			   struct smq_caching *c)
{
	unsigned int hdr = ten ? 8 : 4, end, p, plen;
	u8 devspec;

	if (!buf || !c || len < hdr)
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	end = ten ? get_unaligned_be16(&buf[0]) + 2U : buf[0] + 1U;
	end = min(end, len);
	if (end < hdr)
		return -EINVAL;
	devspec = ten ? buf[3] : buf[2];
	c->wp = devspec & 0x80;
	c->dpofua = devspec & 0x10;
	p = hdr + (ten ? get_unaligned_be16(&buf[6]) : buf[3]);
	while (p + 2 <= end) {
		bool spf = buf[p] & 0x40;

		if (spf) {
			if (p + 4 > end)
				break;
			plen = 4 + get_unaligned_be16(&buf[p + 2]);
		} else {
			plen = 2 + buf[p + 1];
		}
		if (!spf && (buf[p] & 0x3f) == SMQ_MODE_PAGE_CACHING) {
			if (plen < 3 || p + 3 > end)
				return -EINVAL;
			c->wce = buf[p + 2] & 0x04;
			c->rcd = buf[p + 2] & 0x01;
			return 0;
		}
		p += plen;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(smq_parse_mode_caching);
