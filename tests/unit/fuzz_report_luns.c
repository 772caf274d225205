// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: REPORT LUNS data. */
/* SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int max = size ? data[size - 1] % 40 : 0, total = 0, i;
	u64 *luns = malloc((max ? max : 1) * sizeof(*luns));
	u8 back[8];
	int n;

	if (!luns)
		abort();
	n = smq_parse_report_luns(data, size, luns, max, &total);
	if (n >= 0) {
		FUZZ_ASSERT((unsigned int)n <= max && (unsigned int)n <= total &&
			    8 + 8 * (size_t)n <= size);
		for (i = 0; i < (unsigned int)n; i++) {
			smq_int_to_scsilun(luns[i], back);
			FUZZ_ASSERT(!memcmp(back, &data[8 + 8 * i], 8));
		}
	}
	free(luns);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	u64 luns[6] = { 0, 1, 5, 0x412c, 0x40020001ULL, smq_lun_flat(1000) };
	u8 b[8 + 8 * 6];

	add(b, smq_emu_report_luns(luns, 6, b, sizeof(b)));
	add(b, smq_emu_report_luns(luns, 6, b, 20));
}
