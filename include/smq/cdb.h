/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq SCSI command descriptor blocks and response payloads.
 *
 * Initiator side (smq_scsi): CDB builders, sd-style, and parsers of
 * device responses.  Device data is untrusted: every parser takes the
 * number of bytes actually received and never reads beyond it (nor
 * beyond the length the data itself claims).
 *
 * The target side (smq_sas, the emulated HBA: CDB decoders and builders
 * of the response payloads of an emulated logical unit described by
 * struct smq_lun_info) is declared in drivers/sas/smq_sas_emu.h; the
 * types both sides share are here.
 *
 * Field layouts follow SPC-4 / SBC-3.  Builders need a CDB buffer of at
 * least SMQ_CDB_MAX bytes and return the CDB length, or -EINVAL.
 */
#ifndef _SMQ_CDB_H
#define _SMQ_CDB_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define SMQ_CDB_MAX			16

/* Operation codes (prefixed: the kernel's scsi_proto.h has the names). */
#define SMQ_OP_TEST_UNIT_READY		0x00
#define SMQ_OP_REQUEST_SENSE		0x03
#define SMQ_OP_MODE_SELECT_6		0x15
#define SMQ_OP_READ_6			0x08
#define SMQ_OP_WRITE_6			0x0a
#define SMQ_OP_INQUIRY			0x12
#define SMQ_OP_MODE_SENSE_6		0x1a
#define SMQ_OP_START_STOP_UNIT		0x1b
#define SMQ_OP_PREVENT_ALLOW		0x1e
#define SMQ_OP_READ_CAPACITY_10		0x25
#define SMQ_OP_READ_10			0x28
#define SMQ_OP_WRITE_10			0x2a
#define SMQ_OP_SYNCHRONIZE_CACHE_10	0x35
#define SMQ_OP_WRITE_SAME_10		0x41
#define SMQ_OP_UNMAP			0x42
#define SMQ_OP_LOG_SENSE		0x4d
#define SMQ_OP_MODE_SELECT_10		0x55
#define SMQ_OP_MODE_SENSE_10		0x5a
#define SMQ_OP_READ_16			0x88
#define SMQ_OP_WRITE_16			0x8a
#define SMQ_OP_SYNCHRONIZE_CACHE_16	0x91
#define SMQ_OP_WRITE_SAME_16		0x93
#define SMQ_OP_SERVICE_ACTION_IN_16	0x9e
#define SMQ_OP_REPORT_LUNS		0xa0
#define SMQ_OP_MAINTENANCE_IN		0xa3
#define SMQ_OP_READ_12			0xa8
#define SMQ_OP_WRITE_12			0xaa
#define SMQ_SAI_READ_CAPACITY_16	0x10
#define SMQ_SAI_GET_LBA_STATUS		0x12
#define SMQ_MI_REPORT_TPGS		0x0a	/* MAINTENANCE IN actions */
#define SMQ_MI_REPORT_OPCODES		0x0c

/* VPD pages */
#define SMQ_VPD_SUPPORTED_PAGES		0x00
#define SMQ_VPD_UNIT_SERIAL		0x80
#define SMQ_VPD_DEVICE_ID		0x83
#define SMQ_VPD_BLOCK_LIMITS		0xb0
#define SMQ_VPD_BLOCK_DEV_CHARS		0xb1
#define SMQ_VPD_LB_PROVISIONING		0xb2

/* Mode pages and page controls */
#define SMQ_MODE_PAGE_RW_RECOVERY	0x01
#define SMQ_MODE_PAGE_CACHING		0x08
#define SMQ_MODE_PAGE_CONTROL		0x0a
#define SMQ_MODE_PAGE_IEC		0x1c	/* informational exceptions */
#define SMQ_MODE_PAGE_ALL		0x3f
#define SMQ_MODE_PC_CURRENT		0
#define SMQ_MODE_PC_CHANGEABLE		1
#define SMQ_MODE_PC_DEFAULT		2
#define SMQ_MODE_PC_SAVED		3

/* Flags of the CDB builders */
#define SMQ_CDB_FUA		BIT(0)	/* force unit access */
#define SMQ_CDB_DPO		BIT(1)	/* disable page out */
#define SMQ_CDB_FORCE16		BIT(2)	/* use the 16-byte form */
#define SMQ_CDB_IMMED		BIT(3)	/* SYNCHRONIZE CACHE: return at once */
#define SMQ_CDB_UNMAP		BIT(4)	/* WRITE SAME: unmap the blocks */
#define SMQ_CDB_TEN		BIT(5)	/* WRITE SAME: use the 10-byte form */

/* Designator types (VPD page 0x83) */
#define SMQ_DESIG_VENDOR	0x0
#define SMQ_DESIG_T10		0x1
#define SMQ_DESIG_EUI64		0x2
#define SMQ_DESIG_NAA		0x3
#define SMQ_DESIG_REL_PORT	0x4
#define SMQ_DESIG_TPG		0x5
#define SMQ_DESIG_NAME		0x8

/**
 * struct smq_unmap_desc - one UNMAP block descriptor
 * @lba: first logical block.
 * @nr_blocks: number of logical blocks.
 */
struct smq_unmap_desc {
	u64 lba;
	u32 nr_blocks;
};

/**
 * struct smq_cdb_rw_info - a decoded READ or WRITE (6/10/12/16)
 * @lba: first logical block.
 * @nr_blocks: transfer length in blocks (READ/WRITE(6): 0 means 256).
 * @write: WRITE rather than READ.
 * @fua: force unit access.
 * @dpo: disable page out.
 */
struct smq_cdb_rw_info {
	u64 lba;
	u32 nr_blocks;
	bool write, fua, dpo;
};

/**
 * struct smq_cdb_ws_info - a decoded WRITE SAME (10/16)
 * @lba: first logical block.
 * @nr_blocks: number of blocks (0: to the end of the medium).
 * @unmap: UNMAP bit.
 * @anchor: ANCHOR bit.
 * @ndob: no data-out buffer (16 only).
 */
struct smq_cdb_ws_info {
	u64 lba;
	u32 nr_blocks;
	bool unmap, anchor, ndob;
};

/**
 * struct smq_mode_sense_req - a decoded MODE SENSE (6/10)
 * @ten: MODE SENSE(10).
 * @dbd: disable block descriptors.
 * @llbaa: long LBA block descriptor accepted (10 only).
 * @pc: page control (SMQ_MODE_PC_*).
 * @page: page code.
 * @subpage: subpage code.
 * @alloc_len: allocation length.
 */
struct smq_mode_sense_req {
	bool ten, dbd, llbaa;
	u8 pc, page, subpage;
	u16 alloc_len;
};

/**
 * struct smq_mode_select_req - a decoded MODE SELECT (6/10)
 * @ten: MODE SELECT(10).
 * @pf: page format (the pages are SPC ones).
 * @sp: save pages.
 * @param_len: parameter list length.
 */
struct smq_mode_select_req {
	bool ten, pf, sp;
	u16 param_len;
};

/**
 * struct smq_lun_info - what an emulated logical unit reports
 * @vendor: T10 vendor id (up to 8 characters).
 * @model: product id (up to 16).
 * @rev: product revision (up to 4).
 * @serial: unit serial number (up to 64).
 * @naa: NAA designator (top nibble 5 or 6), 0 for none.
 * @nr_blocks: capacity in logical blocks.
 * @block_size: logical block length in bytes.
 * @lbppbe: log2 of logical blocks per physical block.
 * @device_type: peripheral device type (0: direct access).
 * @removable: removable medium.
 * @unmap: thin provisioned: UNMAP and WRITE SAME with UNMAP work.
 * @lbprz: unmapped blocks read as zeros.
 * @write_cache: volatile write cache enabled (WCE).
 * @dpofua: DPO and FUA supported.
 * @desc_sense: descriptor sense by default (control page D_SENSE).
 * @rotation_rate: medium rotation rate (1: non-rotating, 0: unknown).
 * @max_xfer_blocks: maximum transfer length (0: no limit).
 * @opt_xfer_blocks: optimal transfer length (0: none).
 * @max_unmap_blocks: maximum UNMAP LBA count.
 * @max_unmap_descs: maximum UNMAP block descriptor count.
 * @unmap_granularity: optimal unmap granularity.
 * @max_ws_blocks: maximum WRITE SAME length.
 * @tpgs: INQUIRY TPGS field (1: implicit ALUA), 0 for none.
 * @tpg_id: target port group of the port the LU is seen through (VPD
 *	0x83 designator, reported with @tpgs only).
 * @rel_port: relative target port identifier (likewise).
 */
struct smq_lun_info {
	const char *vendor, *model, *rev, *serial;
	u64 naa;
	u64 nr_blocks;
	u32 block_size;
	u8 lbppbe;
	u8 device_type;
	bool removable, unmap, lbprz, write_cache, dpofua, desc_sense;
	u16 rotation_rate;
	u32 max_xfer_blocks, opt_xfer_blocks;
	u32 max_unmap_blocks, max_unmap_descs, unmap_granularity;
	u64 max_ws_blocks;
	u8 tpgs;
	u16 tpg_id, rel_port;
};

/* ---- parsed responses ---- */

/**
 * struct smq_inquiry - standard INQUIRY data
 * @qualifier: peripheral qualifier (0: LU connected).
 * @device_type: peripheral device type.
 * @removable: RMB.
 * @version: VERSION (SPC level).
 * @response_format: response data format (2).
 * @hisup: hierarchical LUN support.
 * @tpgs: target port group support (ALUA).
 * @protect: protection information supported.
 * @cmdque: command queueing supported.
 * @vendor: T10 vendor id, NUL-terminated, trailing blanks trimmed.
 * @model: product id, likewise.
 * @rev: product revision, likewise.
 * @len: bytes of valid data (received and claimed).
 */
struct smq_inquiry {
	u8 qualifier, device_type;
	bool removable;
	u8 version, response_format;
	bool hisup;
	u8 tpgs;
	bool protect, cmdque;
	char vendor[9], model[17], rev[5];
	unsigned int len;
};

/**
 * struct smq_designator - one designation descriptor of VPD page 0x83
 * @proto: protocol identifier.
 * @code_set: 1 binary, 2 ASCII, 3 UTF-8.
 * @piv: protocol identifier valid.
 * @assoc: association: 0 logical unit, 1 target port, 2 target device.
 * @type: designator type (SMQ_DESIG_*).
 * @len: designator length.
 * @id: the designator bytes, inside the caller's buffer.
 */
struct smq_designator {
	u8 proto, code_set;
	bool piv;
	u8 assoc, type, len;
	const u8 *id;
};

/**
 * struct smq_block_limits - VPD page 0xb0
 * @max_xfer: maximum transfer length (blocks, 0: none reported).
 * @opt_xfer: optimal transfer length.
 * @opt_xfer_gran: optimal transfer length granularity.
 * @max_unmap_lba: maximum UNMAP LBA count.
 * @max_unmap_desc: maximum UNMAP block descriptor count.
 * @unmap_gran: optimal unmap granularity.
 * @unmap_align: unmap granularity alignment (valid if @unmap_align_valid).
 * @unmap_align_valid: UGAVALID.
 * @max_ws: maximum WRITE SAME length.
 * @has_unmap: the page is long enough to hold the unmap fields.
 */
struct smq_block_limits {
	u32 max_xfer, opt_xfer;
	u16 opt_xfer_gran;
	u32 max_unmap_lba, max_unmap_desc, unmap_gran, unmap_align;
	bool unmap_align_valid;
	u64 max_ws;
	bool has_unmap;
};

/**
 * struct smq_bdc - VPD page 0xb1 (block device characteristics)
 * @rotation_rate: 0 not reported, 1 non-rotating, else rpm.
 * @product_type: product type.
 * @form_factor: nominal form factor.
 * @zoned: ZONED field.
 */
struct smq_bdc {
	u16 rotation_rate;
	u8 product_type, form_factor, zoned;
};

/**
 * struct smq_lbp - VPD page 0xb2 (logical block provisioning)
 * @lbpu: UNMAP supported.
 * @lbpws: WRITE SAME(16) with UNMAP supported.
 * @lbpws10: WRITE SAME(10) with UNMAP supported.
 * @lbprz: unmapped blocks read as zeros.
 * @anc_sup: anchor supported.
 * @dp: descriptor present.
 * @threshold_exp: threshold exponent.
 * @prov_type: provisioning type (0 full, 1 resource, 2 thin).
 */
struct smq_lbp {
	bool lbpu, lbpws, lbpws10, lbprz, anc_sup, dp;
	u8 threshold_exp, prov_type;
};

/**
 * struct smq_capacity - READ CAPACITY (10) or (16) data
 * @last_lba: last logical block address.
 * @block_size: logical block length.
 * @need_rc16: READ CAPACITY(10) said the LBA does not fit: ask (16).
 * @prot_en: protection enabled.
 * @p_type: protection type (valid with @prot_en).
 * @p_i_exp: protection information intervals exponent.
 * @lbppbe: logical blocks per physical block exponent.
 * @lbpme: logical block provisioning management enabled.
 * @lbprz: unmapped blocks read as zeros.
 * @lowest_aligned: lowest aligned LBA.
 */
struct smq_capacity {
	u64 last_lba;
	u32 block_size;
	bool need_rc16, prot_en;
	u8 p_type, p_i_exp, lbppbe;
	bool lbpme, lbprz;
	u16 lowest_aligned;
};

/**
 * struct smq_caching - caching mode page and header bits
 * @wce: write cache enabled.
 * @rcd: read cache disabled.
 * @dpofua: device-specific parameter: DPO and FUA supported.
 * @wp: device-specific parameter: write protected.
 */
struct smq_caching {
	bool wce, rcd, dpofua, wp;
};

/* ---- initiator: CDB builders ---- */
int smq_cdb_rw(u8 *cdb, bool write, u64 lba, u32 nr_blocks,
	       unsigned int flags);
int smq_cdb_sync_cache(u8 *cdb, u64 lba, u32 nr_blocks, unsigned int flags);
int smq_cdb_unmap(u8 *cdb, u16 param_len);
int smq_unmap_param_build(u8 *buf, unsigned int len,
			  const struct smq_unmap_desc *desc, unsigned int nr);
int smq_cdb_write_same(u8 *cdb, u64 lba, u32 nr_blocks, unsigned int flags);
int smq_cdb_inquiry(u8 *cdb, bool evpd, u8 page, u16 alloc_len);
int smq_cdb_report_luns(u8 *cdb, u8 select, u32 alloc_len);
int smq_cdb_read_capacity10(u8 *cdb);
int smq_cdb_read_capacity16(u8 *cdb, u32 alloc_len);
int smq_cdb_mode_sense(u8 *cdb, const struct smq_mode_sense_req *req);
int smq_cdb_mode_select(u8 *cdb, bool ten, bool sp, u16 param_len);
int smq_cdb_test_unit_ready(u8 *cdb);
int smq_cdb_request_sense(u8 *cdb, bool desc, u8 alloc_len);

/* ---- initiator: response parsers ---- */
int smq_parse_inquiry(const u8 *buf, unsigned int len, struct smq_inquiry *inq);
int smq_vpd_page_len(const u8 *buf, unsigned int len, u8 page);
int smq_parse_vpd_supported(const u8 *buf, unsigned int len, u8 *pages,
			    unsigned int max);
bool smq_vpd_has_page(const u8 *buf, unsigned int len, u8 page);
int smq_parse_vpd_serial(const u8 *buf, unsigned int len, char *out,
			 unsigned int out_size);
int smq_vpd83_next(const u8 *buf, unsigned int len, unsigned int *pos,
		   struct smq_designator *d);
int smq_vpd83_lun_id(const u8 *buf, unsigned int len,
		     struct smq_designator *d);
int smq_parse_vpd_b0(const u8 *buf, unsigned int len,
		     struct smq_block_limits *bl);
int smq_parse_vpd_b1(const u8 *buf, unsigned int len, struct smq_bdc *bdc);
int smq_parse_vpd_b2(const u8 *buf, unsigned int len, struct smq_lbp *lbp);
int smq_parse_read_capacity10(const u8 *buf, unsigned int len,
			      struct smq_capacity *cap);
int smq_parse_read_capacity16(const u8 *buf, unsigned int len,
			      struct smq_capacity *cap);
int smq_parse_report_luns(const u8 *buf, unsigned int len, u64 *luns,
			  unsigned int max, unsigned int *total);
int smq_parse_mode_caching(const u8 *buf, unsigned int len, bool ten,
			   struct smq_caching *c);
u64 smq_scsilun_to_int(const u8 *scsilun);
void smq_int_to_scsilun(u64 lun, u8 *scsilun);

/**
 * smq_lun_flat() - Linux LUN number of logical unit @n
 * @n: logical unit number, below 16384.
 *
 * LUNs below 256 use peripheral addressing, larger ones flat addressing
 * (0x4000 | n), as Linux numbers them.
 *
 * Return: the integer LUN for smq_int_to_scsilun().
 */
static inline u64 smq_lun_flat(unsigned int n)
{
	return n < 256 ? n : 0x4000 | (n & 0x3fff);
}

#endif /* _SMQ_CDB_H */
