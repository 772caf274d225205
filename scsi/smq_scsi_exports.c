// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: exports of the shared pure-logic SCSI helpers.
 *
 * scsi/smq_cdb.c (CDB builders, response parsers, target-side decoders and
 * emulated responses) is written to build unchanged in userspace for
 * tests/unit/, so it cannot export anything itself.  It is linked into
 * smq_scsi.ko and exported here for drivers (smq_sas uses the target side).
 * Likewise scsi/smq_sense.c (sense parsing and building, the completion
 * disposition).
 */
#include <linux/export.h>
#include <smq/cdb.h>
#include <smq/sense.h>

/* CDB builders (initiator) */
EXPORT_SYMBOL_GPL(smq_cdb_rw);
EXPORT_SYMBOL_GPL(smq_cdb_sync_cache);
EXPORT_SYMBOL_GPL(smq_cdb_unmap);
EXPORT_SYMBOL_GPL(smq_unmap_param_build);
EXPORT_SYMBOL_GPL(smq_cdb_write_same);
EXPORT_SYMBOL_GPL(smq_cdb_inquiry);
EXPORT_SYMBOL_GPL(smq_cdb_report_luns);
EXPORT_SYMBOL_GPL(smq_cdb_read_capacity10);
EXPORT_SYMBOL_GPL(smq_cdb_read_capacity16);
EXPORT_SYMBOL_GPL(smq_cdb_mode_sense);
EXPORT_SYMBOL_GPL(smq_cdb_test_unit_ready);
EXPORT_SYMBOL_GPL(smq_cdb_request_sense);

/* Response parsers (initiator) */
EXPORT_SYMBOL_GPL(smq_parse_inquiry);
EXPORT_SYMBOL_GPL(smq_vpd_page_len);
EXPORT_SYMBOL_GPL(smq_parse_vpd_supported);
EXPORT_SYMBOL_GPL(smq_vpd_has_page);
EXPORT_SYMBOL_GPL(smq_parse_vpd_serial);
EXPORT_SYMBOL_GPL(smq_vpd83_next);
EXPORT_SYMBOL_GPL(smq_vpd83_lun_id);
EXPORT_SYMBOL_GPL(smq_parse_vpd_b0);
EXPORT_SYMBOL_GPL(smq_parse_vpd_b1);
EXPORT_SYMBOL_GPL(smq_parse_vpd_b2);
EXPORT_SYMBOL_GPL(smq_parse_read_capacity10);
EXPORT_SYMBOL_GPL(smq_parse_read_capacity16);
EXPORT_SYMBOL_GPL(smq_parse_report_luns);
EXPORT_SYMBOL_GPL(smq_parse_mode_caching);
EXPORT_SYMBOL_GPL(smq_scsilun_to_int);
EXPORT_SYMBOL_GPL(smq_int_to_scsilun);

/* CDB decoders (target) */
EXPORT_SYMBOL_GPL(smq_cdb_len);
EXPORT_SYMBOL_GPL(smq_cdb_decode_rw);
EXPORT_SYMBOL_GPL(smq_cdb_decode_write_same);
EXPORT_SYMBOL_GPL(smq_cdb_decode_sync_cache);
EXPORT_SYMBOL_GPL(smq_cdb_decode_mode_sense);
EXPORT_SYMBOL_GPL(smq_cdb_alloc_len);
EXPORT_SYMBOL_GPL(smq_unmap_param_parse);

/* Emulated responses (target) */
EXPORT_SYMBOL_GPL(smq_emu_inquiry);
EXPORT_SYMBOL_GPL(smq_emu_vpd);
EXPORT_SYMBOL_GPL(smq_emu_read_capacity10);
EXPORT_SYMBOL_GPL(smq_emu_read_capacity16);
EXPORT_SYMBOL_GPL(smq_emu_report_luns);
EXPORT_SYMBOL_GPL(smq_emu_mode_sense);

/* Sense data and completion disposition */
EXPORT_SYMBOL_GPL(smq_sense_normalize);
EXPORT_SYMBOL_GPL(smq_sense_find_desc);
EXPORT_SYMBOL_GPL(smq_sense_info);
EXPORT_SYMBOL_GPL(smq_sense_build);
EXPORT_SYMBOL_GPL(smq_sense_build_info);
EXPORT_SYMBOL_GPL(smq_scsi_decide);
EXPORT_SYMBOL_GPL(smq_disposition_name);
