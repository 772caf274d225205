// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: sense data parsing and the completion disposition. */
/* SMQ_UNIT_SOURCES: smq_sense.c */
#include "smq_fuzz.h"
#include <smq/sense.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int len = size, dlen, t;
	struct smq_sense_hdr h;
	const u8 *d;
	u64 info;
	enum smq_disposition disp;

	if (size > 4096)
		return 0;
	if (smq_sense_normalize(data, len, &h))
		FUZZ_ASSERT(h.response_code >= 0x70 && h.response_code <= 0x73 &&
			    h.sense_key < 16);
	smq_sense_info(data, len, &info);
	for (t = 0; t < 4; t++) {
		d = smq_sense_find_desc(data, len, t, &dlen);
		if (d) {
			FUZZ_ASSERT(d >= data + 8 && d + dlen <= data + len);
			FUZZ_ASSERT(d[0] == t && dlen == 2U + d[1]);
			fuzz_touch(d, dlen);
		}
	}
	if (size >= 2) {
		disp = smq_scsi_decide(data[0], 0, SMQ_SAM_STAT_CHECK_CONDITION,
				       data + 1, len - 1);
		FUZZ_ASSERT(disp <= SMQ_DISP_TRANSPORT);
		disp = smq_scsi_decide(0x28, data[0] & 0x1f, data[1],
				       data + 2, len - 2);
		FUZZ_ASSERT(strcmp(smq_disposition_name(disp), "unknown"));
	}
	if (size >= 12) {
		/* builders with fuzzed arguments, into exact-size buffers */
		unsigned int room = data[0] % 24;
		u8 *b = malloc(room ? room : 1);
		int n = smq_sense_build_info(b, room, data[1] & 1, data[2],
					     get_unaligned_be16(&data[2]),
					     get_unaligned_be64(&data[4]));

		FUZZ_ASSERT(n < 0 || (unsigned int)n <= room);
		if (n > 0)
			FUZZ_ASSERT(smq_sense_normalize(b, n, &h));
		free(b);
	}
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const u8 ks_info[] = {
		0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x14,
		0x02, 0x06, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x00,
		0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x2a,
	};
	u8 b[SMQ_SENSE_MAX];

	add(b, smq_sense_build(b, sizeof(b), false, 5, SMQ_ASC_INVALID_OPCODE));
	add(b, smq_sense_build(b, sizeof(b), true, 6, SMQ_ASC_POWER_ON_RESET));
	add(b, smq_sense_build_info(b, sizeof(b), false, 3, 0x1100, 0x1234));
	add(b, smq_sense_build_info(b, sizeof(b), true, 3, 0x1100, 1ULL << 40));
	add(ks_info, sizeof(ks_info));
}
