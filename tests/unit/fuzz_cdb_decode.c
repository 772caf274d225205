// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the target-side decoders of the emulated HBA (CDBs and the
 * UNMAP parameter list), and the emulated responses built from what they
 * decoded, into buffers of exactly the allocation length.
 *
 * SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c
 */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

static const struct smq_lun_info lu = {
	.vendor = "SMQ", .model = "Emulated SAS", .rev = "0.1",
	.serial = "SMQ0001", .naa = 0x5000c50012345678ULL,
	.nr_blocks = 1 << 20, .block_size = 512, .unmap = true,
	.write_cache = true, .dpofua = true, .max_unmap_descs = 8,
};

static void respond(const u8 *cdb, unsigned int len)
{
	struct smq_mode_sense_req req;
	int alloc = smq_cdb_alloc_len(cdb, len);
	u8 *b;
	int n = 0;

	if (alloc < 0)
		return;
	alloc = min(alloc, 4096);
	b = malloc(alloc ? alloc : 1);
	if (cdb[0] == SMQ_OP_INQUIRY)
		n = cdb[1] & 1 ? smq_emu_vpd(&lu, cdb[2], b, alloc) :
				 smq_emu_inquiry(&lu, b, alloc);
	else if (!smq_cdb_decode_mode_sense(cdb, len, &req))
		n = smq_emu_mode_sense(&lu, &req, b, alloc);
	else if (cdb[0] == SMQ_OP_READ_CAPACITY_10)
		n = smq_emu_read_capacity10(&lu, b, alloc);
	else if (cdb[0] == SMQ_OP_SERVICE_ACTION_IN_16)
		n = smq_emu_read_capacity16(&lu, b, alloc);
	FUZZ_ASSERT(n <= alloc);
	if (n > 0)
		fuzz_touch(b, n);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int len = size;
	struct smq_cdb_rw_info rw;
	struct smq_cdb_ws_info ws;
	struct smq_unmap_desc desc[8];
	u64 lba;
	u32 nr;
	bool immed;
	int n;

	if (size > 4096)
		return 0;
	if (!smq_cdb_decode_rw(data, len, &rw))
		FUZZ_ASSERT(rw.nr_blocks || data[0] >= 0x20);
	smq_cdb_decode_write_same(data, len, &ws);
	smq_cdb_decode_sync_cache(data, len, &lba, &nr, &immed);
	if (size)
		smq_cdb_len(data[0]);
	if (size && smq_cdb_len(data[0]) > 0 &&
	    len >= (unsigned int)smq_cdb_len(data[0]))
		respond(data, len);
	n = smq_unmap_param_parse(data, len, desc, size ? data[0] % 9 : 0);
	FUZZ_ASSERT(n < 0 || (n <= 8 && 8 + 16 * (size_t)n <= size));
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	struct smq_unmap_desc d[2] = { { 8, 16 }, { 1 << 20, 1 } };
	struct smq_mode_sense_req req = { .ten = true, .page = 0x3f,
					  .alloc_len = 200 };
	u8 c[64];

	add(c, smq_cdb_rw(c, false, 0x1234, 8, SMQ_CDB_FUA));
	add(c, smq_cdb_rw(c, true, 1ULL << 40, 8, SMQ_CDB_DPO));
	add((const u8[]){ 0x08, 0x01, 0x02, 0x03, 0x00, 0x00 }, 6);
	add((const u8[]){ 0xaa, 0x08, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0 }, 12);
	add(c, smq_cdb_write_same(c, 16, 8, SMQ_CDB_UNMAP));
	add(c, smq_cdb_write_same(c, 16, 8, SMQ_CDB_UNMAP | SMQ_CDB_TEN));
	add(c, smq_cdb_sync_cache(c, 0, 0, SMQ_CDB_IMMED));
	add(c, smq_cdb_sync_cache(c, 0, 0, SMQ_CDB_FORCE16));
	add(c, smq_cdb_inquiry(c, true, 0x83, 255));
	add(c, smq_cdb_inquiry(c, false, 0, 96));
	add(c, smq_cdb_mode_sense(c, &req));
	add(c, smq_cdb_read_capacity16(c, 32));
	add(c, smq_cdb_read_capacity10(c));
	add(c, smq_cdb_report_luns(c, 0, 4096));
	add(c, smq_unmap_param_build(c, sizeof(c), d, 2));
}
