// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: MODE SELECT (6) and (10) CDBs and parameter lists. */
/* SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

static const struct smq_lun_info lu = {
	.nr_blocks = 1 << 20, .block_size = 512, .write_cache = true,
	.dpofua = true,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_mode_select_req req;
	bool wce;

	if (size > 70000)
		return 0;
	smq_cdb_decode_mode_select(data, size, &req);
	smq_emu_mode_select(&lu, data, size, false, &wce);
	smq_emu_mode_select(&lu, data, size, true, &wce);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	struct smq_mode_sense_req req = { .page = 0x3f, .alloc_len = 255 };
	u8 b[128];
	int n;

	n = smq_emu_mode_sense(&lu, &req, b, sizeof(b));
	b[0] = 0;
	add(b, n);
	req.ten = true;
	req.llbaa = true;
	n = smq_emu_mode_sense(&lu, &req, b, sizeof(b));
	b[0] = b[1] = 0;
	add(b, n);
	req.dbd = true;
	req.page = 0x08;
	n = smq_emu_mode_sense(&lu, &req, b, sizeof(b));
	b[0] = b[1] = 0;
	b[10] &= ~0x04;
	add(b, n);
}
