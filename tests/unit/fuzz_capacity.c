// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: READ CAPACITY (10) and (16) data. */
/* SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_capacity cap;

	if (size > 4096)
		return 0;
	if (!smq_parse_read_capacity10(data, size, &cap))
		FUZZ_ASSERT(size >= 8 && cap.need_rc16 == (cap.last_lba == U32_MAX));
	if (!smq_parse_read_capacity16(data, size, &cap))
		FUZZ_ASSERT(size >= 12 && cap.p_type < 8 && cap.lbppbe < 16 &&
			    cap.lowest_aligned < 0x4000);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	struct smq_lun_info lu = { .nr_blocks = 0x123456789ULL,
				   .block_size = 4096, .lbppbe = 3,
				   .unmap = true, .lbprz = true };
	u8 b[32];

	add(b, smq_emu_read_capacity10(&lu, b, sizeof(b)));
	add(b, smq_emu_read_capacity16(&lu, b, sizeof(b)));
	lu.nr_blocks = 1000;
	add(b, smq_emu_read_capacity10(&lu, b, sizeof(b)));
}
