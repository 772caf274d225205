// SPDX-License-Identifier: GPL-2.0
/* Fuzz target: standard INQUIRY data and the VPD page parsers. */
/* SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c */
#include "smq_fuzz.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

static void fuzz_vpd(const u8 *data, size_t size)
{
	unsigned int len = size, pos = 0, steps = 0;
	struct smq_designator d;
	struct smq_block_limits bl;
	struct smq_bdc bdc;
	struct smq_lbp lbp;
	char serial[80];
	u8 pages[300], *b;
	int n;

	b = fuzz_copy(data, size, SMQ_VPD_SUPPORTED_PAGES);
	n = smq_parse_vpd_supported(b, len, pages, size ? data[0] : 0);
	FUZZ_ASSERT(n < 0 || (n <= 255 && 4U + n <= len));
	smq_vpd_has_page(b, len, 0xb0);
	free(b);

	b = fuzz_copy(data, size, SMQ_VPD_UNIT_SERIAL);
	n = smq_parse_vpd_serial(b, len, serial, size ? 1 + data[0] % 80 : 1);
	FUZZ_ASSERT(n < 0 || (unsigned int)n < (size ? 1U + data[0] % 80 : 1U));
	if (n >= 0)
		FUZZ_ASSERT(strlen(serial) == (size_t)n);
	free(b);

	b = fuzz_copy(data, size, SMQ_VPD_DEVICE_ID);
	while (smq_vpd83_next(b, len, &pos, &d) == 1) {
		FUZZ_ASSERT(d.id >= b + 8 && d.id + d.len <= b + len);
		FUZZ_ASSERT(++steps <= len / 4);
		fuzz_touch(d.id, d.len);
	}
	if (!smq_vpd83_lun_id(b, len, &d))
		fuzz_touch(d.id, d.len);
	free(b);

	b = fuzz_copy(data, size, SMQ_VPD_BLOCK_LIMITS);
	smq_parse_vpd_b0(b, len, &bl);
	free(b);
	b = fuzz_copy(data, size, SMQ_VPD_BLOCK_DEV_CHARS);
	smq_parse_vpd_b1(b, len, &bdc);
	free(b);
	b = fuzz_copy(data, size, SMQ_VPD_LB_PROVISIONING);
	smq_parse_vpd_b2(b, len, &lbp);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_inquiry inq;

	if (size > 70000)
		return 0;
	if (!smq_parse_inquiry(data, size, &inq)) {
		FUZZ_ASSERT(inq.len <= size && strlen(inq.vendor) <= 8 &&
			    strlen(inq.model) <= 16 && strlen(inq.rev) <= 4);
	}
	fuzz_vpd(data, size);
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const struct smq_lun_info lu = {
		.vendor = "SMQ", .model = "Emulated SAS", .rev = "0.1",
		.serial = "  SMQ0001 ", .naa = 0x5000c50012345678ULL,
		.nr_blocks = 1 << 20, .block_size = 512, .unmap = true,
		.lbprz = true, .rotation_rate = 7200, .max_xfer_blocks = 2048,
		.max_unmap_blocks = 1 << 16, .max_unmap_descs = 1,
	};
	static const u8 pages[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };
	u8 b[256];
	unsigned int i;

	add(b, smq_emu_inquiry(&lu, b, sizeof(b)));
	for (i = 0; i < sizeof(pages); i++)
		add(b, smq_emu_vpd(&lu, pages[i], b, sizeof(b)));
}
