// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: MODE SENSE (6) and (10) data, caching page lookup. */
/* SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_caching c;

	if (size > 70000)
		return 0;
	smq_parse_mode_caching(data, size, false, &c);
	smq_parse_mode_caching(data, size, true, &c);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const struct smq_lun_info lu = {
		.nr_blocks = 1 << 20, .block_size = 512, .write_cache = true,
		.dpofua = true,
	};
	static const u8 subpage[] = {
		0x2b, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x4a, 0x01, 0x00, 0x04, 0x08, 0x12, 0x04, 0x00,
		0x08, 0x12, 0x05, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
	};
	struct smq_mode_sense_req req = { .page = 0x3f, .alloc_len = 255 };
	u8 b[64];

	add(b, smq_emu_mode_sense(&lu, &req, b, sizeof(b)));
	req.ten = true;
	req.llbaa = true;
	add(b, smq_emu_mode_sense(&lu, &req, b, sizeof(b)));
	req.dbd = true;
	req.page = 0x08;
	add(b, smq_emu_mode_sense(&lu, &req, b, sizeof(b)));
	add(subpage, sizeof(subpage));
}
