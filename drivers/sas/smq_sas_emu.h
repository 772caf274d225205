/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_sas's emulated logical unit: CDB decoders and response payload
 * builders (smq_sas_emu.c).  Builders write at most @len bytes (the
 * allocation length) and return how many they wrote.  The types are
 * <smq/cdb.h>'s, shared with the initiator side.
 */
#ifndef _SMQ_SAS_EMU_H
#define _SMQ_SAS_EMU_H

#include <smq/cdb.h>

/* ---- target: CDB decoders ---- */
int smq_cdb_len(u8 opcode);
int smq_cdb_decode_rw(const u8 *cdb, unsigned int len,
		      struct smq_cdb_rw_info *rw);
int smq_cdb_decode_write_same(const u8 *cdb, unsigned int len,
			      struct smq_cdb_ws_info *ws);
int smq_cdb_decode_sync_cache(const u8 *cdb, unsigned int len, u64 *lba,
			      u32 *nr_blocks, bool *immed);
int smq_cdb_decode_mode_sense(const u8 *cdb, unsigned int len,
			      struct smq_mode_sense_req *req);
int smq_cdb_decode_mode_select(const u8 *cdb, unsigned int len,
			       struct smq_mode_select_req *req);
int smq_cdb_alloc_len(const u8 *cdb, unsigned int len);
int smq_unmap_param_parse(const u8 *buf, unsigned int len,
			  struct smq_unmap_desc *desc, unsigned int max);

/* ---- target: emulated response payloads ---- */
int smq_emu_inquiry(const struct smq_lun_info *lu, u8 *buf, unsigned int len);
int smq_emu_vpd(const struct smq_lun_info *lu, u8 page, u8 *buf,
		unsigned int len);
int smq_emu_read_capacity10(const struct smq_lun_info *lu, u8 *buf,
			    unsigned int len);
int smq_emu_read_capacity16(const struct smq_lun_info *lu, u8 *buf,
			    unsigned int len);
int smq_emu_report_luns(const u64 *luns, unsigned int nr, u8 *buf,
			unsigned int len);
int smq_emu_mode_sense(const struct smq_lun_info *lu,
		       const struct smq_mode_sense_req *req, u8 *buf,
		       unsigned int len);
int smq_emu_mode_select(const struct smq_lun_info *lu, const u8 *buf,
			unsigned int len, bool ten, bool *wce);

#endif /* _SMQ_SAS_EMU_H */
