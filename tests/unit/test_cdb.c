// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scsi/smq_cdb.c (initiator side) and
 * drivers/sas/smq_sas_emu.c (the emulated target's side).
 * SMQ_UNIT_SOURCES: smq_cdb.c smq_sas_emu.c
 * The byte vectors below were written by
 * hand from the SBC-3 / SPC-4 field layouts (offsets noted inline), not
 * produced by the code under test.  Parsers are also fed copies of the
 * vectors in exact-size heap buffers, truncated at every length, so
 * ASan catches any read past the data.
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/cdb.h>
#include "smq_sas_emu.h"

#define V(...)	((const u8[]){ __VA_ARGS__ })
#define VLEN(...) sizeof((const u8[]){ __VA_ARGS__ })
#define CHECK_CDB(ret, cdb, ...)					\
	do {								\
		CHECK_EQ(ret, VLEN(__VA_ARGS__));			\
		CHECK_MEM(cdb, V(__VA_ARGS__), VLEN(__VA_ARGS__));	\
	} while (0)

static u8 *dup_exact(const u8 *src, unsigned int len)
{
	u8 *p = malloc(len ? len : 1);

	if (len)
		memcpy(p, src, len);
	return p;
}

/* ---- CDB builders ---- */

static void test_cdb_rw(void)
{
	u8 c[SMQ_CDB_MAX];

	/* READ(10): op, flags, LBA[2..5], group, length[7..8], control */
	CHECK_CDB(smq_cdb_rw(c, false, 0x12345678, 0x0100, 0), c,
		  0x28, 0x00, 0x12, 0x34, 0x56, 0x78, 0x00, 0x01, 0x00, 0x00);
	/* WRITE(10) FUA: byte 1 bit 3 */
	CHECK_CDB(smq_cdb_rw(c, true, 0, 8, SMQ_CDB_FUA), c,
		  0x2a, 0x08, 0, 0, 0, 0, 0x00, 0x00, 0x08, 0x00);
	/* LBA needs 33 bits: WRITE(16) with FUA and DPO (bit 4) */
	CHECK_CDB(smq_cdb_rw(c, true, 0x100000000ULL, 1,
			     SMQ_CDB_FUA | SMQ_CDB_DPO), c,
		  0x8a, 0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		  0x00, 0x00, 0x00, 0x01, 0x00, 0x00);
	/* 65536 blocks do not fit 16 bits: READ(16) */
	CHECK_CDB(smq_cdb_rw(c, false, 5, 0x10000, 0), c,
		  0x88, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x05,
		  0x00, 0x01, 0x00, 0x00, 0x00, 0x00);
	/* the largest (10) */
	CHECK_CDB(smq_cdb_rw(c, false, 0xffffffff, 0xffff, 0), c,
		  0x28, 0x00, 0xff, 0xff, 0xff, 0xff, 0x00, 0xff, 0xff, 0x00);
	CHECK_CDB(smq_cdb_rw(c, false, 7, 2, SMQ_CDB_FORCE16), c,
		  0x88, 0x00, 0, 0, 0, 0, 0, 0, 0, 0x07, 0, 0, 0, 0x02, 0, 0);
	CHECK_EQ(smq_cdb_rw(c, false, 0, 0, 0), -EINVAL);
	CHECK_EQ(smq_cdb_rw(c, false, U64_MAX, 2, 0), -EINVAL);
	CHECK_EQ(smq_cdb_rw(c, false, U64_MAX, 1, 0), 16);
	CHECK_EQ(smq_cdb_rw(NULL, false, 0, 1, 0), -EINVAL);
}

static void test_cdb_misc(void)
{
	struct smq_unmap_desc d[2] = { { 0x1000, 0x80 },
				       { 0x123456789aULL, 0xffffffff } };
	struct smq_mode_sense_req ms = { .dbd = true, .pc = 0, .page = 0x08,
					 .alloc_len = 0xff };
	u8 c[SMQ_CDB_MAX], p[64];

	/* SYNCHRONIZE CACHE(10): IMMED is byte 1 bit 1 */
	CHECK_CDB(smq_cdb_sync_cache(c, 0, 0, 0), c,
		  0x35, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	CHECK_CDB(smq_cdb_sync_cache(c, 0x10, 0x20, SMQ_CDB_IMMED), c,
		  0x35, 0x02, 0, 0, 0, 0x10, 0, 0, 0x20, 0);
	CHECK_CDB(smq_cdb_sync_cache(c, 0x100000000ULL, 0, 0), c,
		  0x91, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	/* UNMAP: parameter list length in bytes 7-8 */
	CHECK_CDB(smq_cdb_unmap(c, 24), c, 0x42, 0, 0, 0, 0, 0, 0, 0, 0x18, 0);
	/*
	 * UNMAP parameter list: data length (n - 2), block descriptor
	 * data length, 4 reserved, then LBA[8], count[4], reserved[4].
	 */
	CHECK_EQ(smq_unmap_param_build(p, sizeof(p), d, 1), 24);
	CHECK_MEM(p, V(0x00, 0x16, 0x00, 0x10, 0, 0, 0, 0,
		       0, 0, 0, 0, 0, 0, 0x10, 0x00, 0, 0, 0, 0x80, 0, 0, 0, 0),
		  24);
	CHECK_EQ(smq_unmap_param_build(p, sizeof(p), d, 2), 40);
	CHECK_MEM(p, V(0x00, 0x26, 0x00, 0x20), 4);
	CHECK_MEM(p + 24, V(0, 0, 0, 0x12, 0x34, 0x56, 0x78, 0x9a,
			    0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0), 16);
	CHECK_EQ(smq_unmap_param_build(p, 39, d, 2), -EINVAL);
	CHECK_EQ(smq_unmap_param_build(p, sizeof(p), d, 0), -EINVAL);
	/* WRITE SAME(16) with UNMAP (byte 1 bit 3) */
	CHECK_CDB(smq_cdb_write_same(c, 0x20, 0x800, SMQ_CDB_UNMAP), c,
		  0x93, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x20,
		  0, 0, 0x08, 0x00, 0, 0);
	CHECK_CDB(smq_cdb_write_same(c, 0x20, 8, SMQ_CDB_UNMAP | SMQ_CDB_TEN),
		  c, 0x41, 0x08, 0, 0, 0, 0x20, 0, 0, 0x08, 0);
	CHECK_EQ(smq_cdb_write_same(c, 0, 0x10000, SMQ_CDB_TEN), -EINVAL);
	/* INQUIRY: EVPD byte 1 bit 0, page byte 2, allocation bytes 3-4 */
	CHECK_CDB(smq_cdb_inquiry(c, false, 0, 36), c, 0x12, 0, 0, 0, 36, 0);
	CHECK_CDB(smq_cdb_inquiry(c, true, 0x83, 0x200), c,
		  0x12, 0x01, 0x83, 0x02, 0x00, 0);
	CHECK_EQ(smq_cdb_inquiry(c, false, 0x80, 36), -EINVAL);
	/* REPORT LUNS: select byte 2, allocation bytes 6-9 */
	CHECK_CDB(smq_cdb_report_luns(c, 0, 0x1000), c,
		  0xa0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x10, 0x00, 0, 0);
	CHECK_EQ(smq_cdb_report_luns(c, 0, 15), -EINVAL);
	CHECK_CDB(smq_cdb_read_capacity10(c), c, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	/* SERVICE ACTION IN(16) / READ CAPACITY(16): allocation 10-13 */
	CHECK_CDB(smq_cdb_read_capacity16(c, 32), c,
		  0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0);
	/* MODE SENSE(6): DBD byte 1 bit 3, PC|page byte 2, alloc byte 4 */
	CHECK_CDB(smq_cdb_mode_sense(c, &ms), c, 0x1a, 0x08, 0x08, 0, 0xff, 0);
	ms = (struct smq_mode_sense_req){ .ten = true, .llbaa = true,
					  .pc = SMQ_MODE_PC_CHANGEABLE,
					  .page = 0x3f, .alloc_len = 0x200 };
	CHECK_CDB(smq_cdb_mode_sense(c, &ms), c,
		  0x5a, 0x10, 0x7f, 0, 0, 0, 0, 0x02, 0x00, 0);
	ms.ten = false;
	CHECK_EQ(smq_cdb_mode_sense(c, &ms), -EINVAL);
	CHECK_CDB(smq_cdb_test_unit_ready(c), c, 0, 0, 0, 0, 0, 0);
	CHECK_CDB(smq_cdb_request_sense(c, true, 252), c, 0x03, 0x01, 0, 0, 0xfc, 0);
}

/* ---- target-side decoders ---- */

static void test_decode_rw(void)
{
	struct smq_cdb_rw_info rw;
	u8 c[SMQ_CDB_MAX];
	u64 rnd = 3;
	unsigned int i;

	/* READ(6): 21-bit LBA in bytes 1-3, length 0 means 256 */
	CHECK_EQ(smq_cdb_decode_rw(V(0x08, 0x1f, 0xff, 0xff, 0x00, 0), 6, &rw), 0);
	CHECK(rw.lba == 0x1fffff && rw.nr_blocks == 256 && !rw.write);
	CHECK_EQ(smq_cdb_decode_rw(V(0x0a, 0xe1, 0x02, 0x03, 0x04, 0), 6, &rw), 0);
	CHECK(rw.lba == 0x010203 && rw.nr_blocks == 4 && rw.write && !rw.fua);
	/* READ(12) FUA: LBA 2-5, length 6-9 */
	CHECK_EQ(smq_cdb_decode_rw(V(0xa8, 0x08, 0, 0, 0, 0x10, 0, 0, 0x01, 0x00,
				     0, 0), 12, &rw), 0);
	CHECK(rw.lba == 16 && rw.nr_blocks == 256 && rw.fua && !rw.dpo);
	CHECK_EQ(smq_cdb_decode_rw(V(0xaa, 0x10, 0xff, 0xff, 0xff, 0xff, 0xff,
				     0xff, 0xff, 0xff, 0, 0), 12, &rw), 0);
	CHECK(rw.lba == 0xffffffff && rw.nr_blocks == 0xffffffff && rw.dpo &&
	      rw.write);
	/* truncated, wrong opcode, variable-length group */
	CHECK_EQ(smq_cdb_decode_rw(V(0x28, 0, 0, 0, 0, 0, 0, 0, 1), 9, &rw), -EINVAL);
	CHECK_EQ(smq_cdb_decode_rw(V(0, 0, 0, 0, 0, 0), 6, &rw), -EINVAL);
	CHECK_EQ(smq_cdb_decode_rw(V(0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0), 10, &rw),
		 -EINVAL);
	CHECK_EQ(smq_cdb_decode_rw(NULL, 0, &rw), -EINVAL);
	/* round trip with the initiator builder */
	for (i = 0; i < 2000; i++) {
		u64 lba = smq_t_rand(&rnd) >> (smq_t_rand(&rnd) % 64);
		u32 nr = 1 + (smq_t_rand(&rnd) >> (32 + smq_t_rand(&rnd) % 32));
		unsigned int flags = smq_t_rand(&rnd) & 7;
		bool write = i & 1;
		int len;

		if (lba > U64_MAX - (nr - 1))
			continue;
		len = smq_cdb_rw(c, write, lba, nr, flags);
		CHECK(len == 10 || len == 16);
		CHECK_EQ(smq_cdb_decode_rw(c, len, &rw), 0);
		CHECK(rw.lba == lba && rw.nr_blocks == nr && rw.write == write);
		CHECK(rw.fua == !!(flags & SMQ_CDB_FUA));
		CHECK(rw.dpo == !!(flags & SMQ_CDB_DPO));
		CHECK_EQ(len == 16, (flags & SMQ_CDB_FORCE16) || lba > U32_MAX ||
				    nr > U16_MAX);
	}
}

static void test_decode_other(void)
{
	struct smq_cdb_ws_info ws;
	struct smq_mode_sense_req req, back;
	struct smq_unmap_desc d[4], in[3] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
	u8 c[SMQ_CDB_MAX], p[64];
	u64 lba;
	u32 nr;
	bool immed;

	CHECK_EQ(smq_cdb_len(0x00), 6);
	CHECK_EQ(smq_cdb_len(0x28), 10);
	CHECK_EQ(smq_cdb_len(0x5a), 10);
	CHECK_EQ(smq_cdb_len(0x7f), -EINVAL);
	CHECK_EQ(smq_cdb_len(0x88), 16);
	CHECK_EQ(smq_cdb_len(0xa0), 12);
	CHECK_EQ(smq_cdb_len(0xc0), -EINVAL);
	CHECK_EQ(smq_cdb_decode_write_same(V(0x93, 0x19, 0, 0, 0, 0, 0, 0, 0, 0x20,
					     0, 0, 0x08, 0, 0, 0), 16, &ws), 0);
	CHECK(ws.lba == 0x20 && ws.nr_blocks == 0x800 && ws.unmap && ws.anchor &&
	      ws.ndob);
	CHECK_EQ(smq_cdb_decode_write_same(V(0x41, 0x08, 0, 0, 0, 0x20, 0, 0,
					     0x08, 0), 10, &ws), 0);
	CHECK(ws.lba == 0x20 && ws.nr_blocks == 8 && ws.unmap && !ws.ndob);
	CHECK_EQ(smq_cdb_decode_write_same(V(0x41, 0x08, 0), 3, &ws), -EINVAL);
	CHECK_EQ(smq_cdb_decode_sync_cache(V(0x35, 0x02, 0, 0, 0, 0x10, 0, 0,
					     0x20, 0), 10, &lba, &nr, &immed), 0);
	CHECK(lba == 0x10 && nr == 0x20 && immed);
	CHECK_EQ(smq_cdb_sync_cache(c, 0x123456789ULL, 7, 0), 16);
	CHECK_EQ(smq_cdb_decode_sync_cache(c, 16, &lba, &nr, &immed), 0);
	CHECK(lba == 0x123456789ULL && nr == 7 && !immed);
	/* MODE SENSE decode is the inverse of the builder */
	req = (struct smq_mode_sense_req){ .ten = true, .dbd = true,
					   .llbaa = true, .pc = 2,
					   .page = 0x0a, .subpage = 0,
					   .alloc_len = 0x1234 };
	CHECK_EQ(smq_cdb_mode_sense(c, &req), 10);
	CHECK_EQ(smq_cdb_decode_mode_sense(c, 10, &back), 0);
	CHECK_MEM(&back, &req, sizeof(req));
	CHECK_EQ(smq_cdb_alloc_len(c, 10), 0x1234);
	CHECK_EQ(smq_cdb_alloc_len(V(0x12, 1, 0x83, 0x01, 0x02, 0), 6), 0x102);
	CHECK_EQ(smq_cdb_alloc_len(V(0x12, 1, 0x83, 0x01, 0x02), 5), -EINVAL);
	CHECK_EQ(smq_cdb_alloc_len(V(0xa0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
				     0, 0), 12), INT_MAX);
	CHECK_EQ(smq_cdb_alloc_len(V(0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				     0x20, 0, 0), 16), 32);
	CHECK_EQ(smq_cdb_alloc_len(V(0x9e, 0x11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				     0x20, 0, 0), 16), -EINVAL);
	CHECK_EQ(smq_cdb_alloc_len(V(0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0), 10), 8);
	CHECK_EQ(smq_cdb_alloc_len(V(0x03, 1, 0, 0, 0xfc, 0), 6), 252);
	/* UNMAP parameter list round trip and bounds */
	CHECK_EQ(smq_unmap_param_build(p, sizeof(p), in, 3), 56);
	CHECK_EQ(smq_unmap_param_parse(p, 56, d, 4), 3);
	CHECK(d[2].lba == 5 && d[2].nr_blocks == 6 && d[0].lba == 1);
	CHECK_EQ(smq_unmap_param_parse(p, 56, d, 2), -E2BIG);
	CHECK_EQ(smq_unmap_param_parse(p, 40, d, 4), 2);	/* received */
	p[3] = 0x18;	/* block descriptor length 24: one and a half */
	CHECK_EQ(smq_unmap_param_parse(p, 56, d, 4), 1);
	CHECK_EQ(smq_unmap_param_parse(V(0, 5, 0, 0x10, 0, 0, 0, 0), 8, d, 4),
		 -EINVAL);
	CHECK_EQ(smq_unmap_param_parse(p, 7, d, 4), -EINVAL);
}

/* ---- parsers against hand-made device responses ---- */

static void test_parse_inquiry(void)
{
	static const u8 std[36] = {
		0x00, 0x00, 0x06, 0x12, 0x1f, 0x00, 0x00, 0x02,
		'A', 'T', 'A', ' ', ' ', ' ', ' ', ' ',
		'S', 'a', 'm', 's', 'u', 'n', 'g', ' ',
		'S', 'S', 'D', ' ', '8', '7', '0', ' ',
		'1', 'B', '6', 'Q',
	};
	struct smq_inquiry inq;
	unsigned int len;
	u8 *b;

	CHECK_EQ(smq_parse_inquiry(std, sizeof(std), &inq), 0);
	CHECK(inq.qualifier == 0 && inq.device_type == 0 && !inq.removable);
	CHECK(inq.version == 6 && inq.response_format == 2 && inq.hisup);
	CHECK(inq.cmdque && !inq.protect && inq.len == 36);
	CHECK_STR(inq.vendor, "ATA");
	CHECK_STR(inq.model, "Samsung SSD 870");
	CHECK_STR(inq.rev, "1B6Q");
	/* removable CD-ROM, qualifier 1 */
	CHECK_EQ(smq_parse_inquiry(V(0x25, 0x80, 0x05, 0x02, 0x00), 5, &inq), 0);
	CHECK(inq.qualifier == 1 && inq.device_type == 5 && inq.removable);
	CHECK_STR(inq.vendor, "");
	/* only 20 bytes received: model cut to "Sams" */
	b = dup_exact(std, 20);
	CHECK_EQ(smq_parse_inquiry(b, 20, &inq), 0);
	CHECK_STR(inq.vendor, "ATA");
	CHECK_STR(inq.model, "Sams");
	CHECK_STR(inq.rev, "");
	free(b);
	/* additional length 3 claims only 8 bytes although 36 arrived */
	b = dup_exact(std, 36);
	b[4] = 3;
	CHECK_EQ(smq_parse_inquiry(b, 36, &inq), 0);
	CHECK(inq.len == 8 && inq.cmdque);
	CHECK_STR(inq.vendor, "");
	/* unprintable bytes become blanks */
	b[4] = 31;
	b[9] = 0x00;
	b[10] = 0xff;
	CHECK_EQ(smq_parse_inquiry(b, 36, &inq), 0);
	CHECK_STR(inq.vendor, "A");
	b[11] = 'X';
	CHECK_EQ(smq_parse_inquiry(b, 36, &inq), 0);
	CHECK_STR(inq.vendor, "A  X");
	free(b);
	CHECK_EQ(smq_parse_inquiry(std, 4, &inq), -EINVAL);
	for (len = 0; len <= sizeof(std); len++) {
		b = dup_exact(std, len);
		CHECK_EQ(smq_parse_inquiry(b, len, &inq), len < 5 ? -EINVAL : 0);
		free(b);
	}
}

static const u8 vpd83[] = {
	0x00, 0x83, 0x00, 0x34,
	/* NAA 5, binary, logical unit */
	0x01, 0x03, 0x00, 0x08, 0x50, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
	/* T10 vendor id, ASCII, logical unit */
	0x02, 0x01, 0x00, 0x0c, 'S', 'A', 'M', 'S', 'U', 'N', 'G', ' ',
	'1', '2', '3', '4',
	/* SAS (6), PIV, target port (assoc 1), NAA */
	0x61, 0x93, 0x00, 0x08, 0x50, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xce,
	/* EUI-64, logical unit */
	0x01, 0x02, 0x00, 0x08, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
};

static void test_parse_vpd(void)
{
	static const u8 p00[] = { 0x00, 0x00, 0x00, 0x06,
				  0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };
	static const u8 p80[] = { 0x00, 0x80, 0x00, 0x0a, ' ', ' ', 'S', '3',
				  'Z', '1', 'N', 'B', '0', 'K' };
	struct smq_designator d;
	unsigned int pos = 0, n = 0;
	char serial[16];
	u8 pages[8], *b;

	CHECK_EQ(smq_vpd_page_len(p00, sizeof(p00), 0x00), 6);
	CHECK_EQ(smq_vpd_page_len(p00, sizeof(p00), 0x80), -EINVAL);
	CHECK_EQ(smq_vpd_page_len(p00, 3, 0x00), -EINVAL);
	CHECK_EQ(smq_parse_vpd_supported(p00, sizeof(p00), pages, 8), 6);
	CHECK_MEM(pages, p00 + 4, 6);
	CHECK_EQ(smq_parse_vpd_supported(p00, sizeof(p00), pages, 2), 2);
	CHECK(smq_vpd_has_page(p00, sizeof(p00), 0xb2));
	CHECK(!smq_vpd_has_page(p00, sizeof(p00), 0x89));
	/* page length beyond the received data: only what arrived counts */
	CHECK(!smq_vpd_has_page(p00, 7, 0xb0));
	CHECK(smq_vpd_has_page(p00, 7, 0x83));
	CHECK_EQ(smq_parse_vpd_serial(p80, sizeof(p80), serial, sizeof(serial)), 8);
	CHECK_STR(serial, "S3Z1NB0K");
	CHECK_EQ(smq_parse_vpd_serial(p80, sizeof(p80), serial, 5), 4);
	CHECK_STR(serial, "S3Z1");
	CHECK_EQ(smq_parse_vpd_serial(p80, 7, serial, sizeof(serial)), 1);
	CHECK_STR(serial, "S");
	/* designators, in order */
	while (smq_vpd83_next(vpd83, sizeof(vpd83), &pos, &d) == 1) {
		switch (n++) {
		case 0:
			CHECK(d.type == SMQ_DESIG_NAA && d.code_set == 1 &&
			      d.assoc == 0 && d.len == 8 && d.id[0] == 0x50);
			break;
		case 1:
			CHECK(d.type == SMQ_DESIG_T10 && d.code_set == 2 &&
			      d.len == 12 && !memcmp(d.id, "SAMSUNG 1234", 12));
			break;
		case 2:
			CHECK(d.proto == 6 && d.piv && d.assoc == 1 &&
			      d.type == SMQ_DESIG_NAA && d.id[7] == 0xce);
			break;
		case 3:
			CHECK(d.type == SMQ_DESIG_EUI64 && d.len == 8);
			break;
		}
	}
	CHECK_EQ(n, 4);
	CHECK_EQ(smq_vpd83_lun_id(vpd83, sizeof(vpd83), &d), 0);
	CHECK(d.type == SMQ_DESIG_NAA && d.assoc == 0 && d.id[7] == 0xcd);
	/* cut inside the second descriptor: the walk stops after one */
	b = dup_exact(vpd83, 26);
	pos = 0;
	CHECK_EQ(smq_vpd83_next(b, 26, &pos, &d), 1);
	CHECK_EQ(smq_vpd83_next(b, 26, &pos, &d), 0);
	free(b);
	/* without the NAA: EUI-64 beats the T10 vendor id */
	b = dup_exact(vpd83, sizeof(vpd83));
	b[5] = 0x00;	/* first designator now vendor specific */
	CHECK_EQ(smq_vpd83_lun_id(b, sizeof(vpd83), &d), 0);
	CHECK(d.type == SMQ_DESIG_EUI64);
	b[45] = 0x10 | SMQ_DESIG_EUI64;	/* EUI now names a target port */
	CHECK_EQ(smq_vpd83_lun_id(b, sizeof(vpd83), &d), 0);
	CHECK(d.type == SMQ_DESIG_T10);
	b[17] = 0x10 | SMQ_DESIG_T10;
	CHECK_EQ(smq_vpd83_lun_id(b, sizeof(vpd83), &d), -ENOENT);
	free(b);
}

static void test_parse_vpd_block(void)
{
	static const u8 b0[64] = {
		0x00, 0xb0, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x08,
		0x00, 0x00, 0x40, 0x00,		/* max transfer 16384 */
		0x00, 0x00, 0x01, 0x00,		/* optimal 256 */
		0x00, 0x00, 0x00, 0x00,		/* max prefetch */
		0x00, 0x40, 0x00, 0x00,		/* max unmap LBA count */
		0x00, 0x00, 0x00, 0x01,		/* max unmap descriptors */
		0x00, 0x00, 0x00, 0x08,		/* unmap granularity */
		0x80, 0x00, 0x00, 0x04,		/* UGAVALID, alignment 4 */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, /* max WS */
	};
	static const u8 b1[] = { 0x00, 0xb1, 0x00, 0x3c, 0x1c, 0x20, 0x00, 0x02,
				 0x10 };
	static const u8 b2[] = { 0x00, 0xb2, 0x00, 0x04, 0x00, 0xe4, 0x02, 0x00 };
	struct smq_block_limits bl;
	struct smq_bdc bdc;
	struct smq_lbp lbp;
	unsigned int len;
	u8 *b;

	CHECK_EQ(smq_parse_vpd_b0(b0, sizeof(b0), &bl), 0);
	CHECK(bl.opt_xfer_gran == 8 && bl.max_xfer == 16384 &&
	      bl.opt_xfer == 256);
	CHECK(bl.max_unmap_lba == 0x400000 && bl.max_unmap_desc == 1 &&
	      bl.unmap_gran == 8 && bl.unmap_align_valid &&
	      bl.unmap_align == 4 && bl.max_ws == 0x400000 && bl.has_unmap);
	/* an SBC-2 style short page: no unmap fields */
	b = dup_exact(b0, 20);
	b[3] = 0x10;
	CHECK_EQ(smq_parse_vpd_b0(b, 20, &bl), 0);
	CHECK(bl.max_xfer == 16384 && bl.opt_xfer == 256 && !bl.has_unmap &&
	      bl.max_unmap_lba == 0 && bl.max_ws == 0);
	free(b);
	for (len = 0; len <= sizeof(b0); len++) {
		b = dup_exact(b0, len);
		CHECK_EQ(smq_parse_vpd_b0(b, len, &bl), len < 4 ? -EINVAL : 0);
		CHECK_EQ(bl.max_ws, len >= 44 ? 0x400000 : 0);
		free(b);
	}
	/* 7200 rpm, 3.5" (form factor 2), host-aware zoned (1) */
	CHECK_EQ(smq_parse_vpd_b1(b1, sizeof(b1), &bdc), 0);
	CHECK(bdc.rotation_rate == 7200 && bdc.form_factor == 2 &&
	      bdc.zoned == 1);
	CHECK_EQ(smq_parse_vpd_b1(b1, 5, &bdc), 0);
	CHECK_EQ(bdc.rotation_rate, 0);
	/* LBPU, LBPWS, LBPWS10, LBPRZ; thin provisioned */
	CHECK_EQ(smq_parse_vpd_b2(b2, sizeof(b2), &lbp), 0);
	CHECK(lbp.lbpu && lbp.lbpws && lbp.lbpws10 && lbp.lbprz &&
	      !lbp.anc_sup && !lbp.dp && lbp.prov_type == 2);
	CHECK_EQ(smq_parse_vpd_b2(b0, sizeof(b0), &lbp), -EINVAL);
}

static void test_parse_capacity(void)
{
	static const u8 rc16[32] = {
		0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,	/* last LBA */
		0x00, 0x00, 0x10, 0x00,				/* 4096 */
		0x03,		/* P_TYPE 1, PROT_EN */
		0x13,		/* P_I_EXPONENT 1, LBPPBE 3 */
		0xc8, 0x08,	/* LBPME, LBPRZ, lowest aligned 0x0808 */
	};
	struct smq_capacity cap;
	u8 *b;

	CHECK_EQ(smq_parse_read_capacity10(V(0x00, 0x3f, 0xff, 0xff, 0x00, 0x00,
					     0x02, 0x00), 8, &cap), 0);
	CHECK(cap.last_lba == 0x3fffff && cap.block_size == 512 &&
	      !cap.need_rc16);
	CHECK_EQ(smq_parse_read_capacity10(V(0xff, 0xff, 0xff, 0xff, 0x00, 0x00,
					     0x02, 0x00), 8, &cap), 0);
	CHECK(cap.need_rc16);
	CHECK_EQ(smq_parse_read_capacity10(V(0, 0, 0, 0, 0, 0, 2), 7, &cap),
		 -EINVAL);
	CHECK_EQ(smq_parse_read_capacity16(rc16, sizeof(rc16), &cap), 0);
	CHECK(cap.last_lba == 0x100000000ULL && cap.block_size == 4096);
	CHECK(cap.prot_en && cap.p_type == 1 && cap.p_i_exp == 1 &&
	      cap.lbppbe == 3 && cap.lbpme && cap.lbprz &&
	      cap.lowest_aligned == 0x0808);
	b = dup_exact(rc16, 13);
	CHECK_EQ(smq_parse_read_capacity16(b, 13, &cap), 0);
	CHECK(cap.prot_en && cap.lbppbe == 0 && !cap.lbpme);
	free(b);
	b = dup_exact(rc16, 15);
	CHECK_EQ(smq_parse_read_capacity16(b, 15, &cap), 0);
	CHECK(cap.lbpme && cap.lowest_aligned == 0);
	free(b);
	CHECK_EQ(smq_parse_read_capacity16(rc16, 11, &cap), -EINVAL);
}

static void test_parse_report_luns(void)
{
	static const u8 rl[] = {
		0x00, 0x00, 0x00, 0x20, 0, 0, 0, 0,
		0x00, 0x00, 0, 0, 0, 0, 0, 0,		/* LUN 0 */
		0x00, 0x05, 0, 0, 0, 0, 0, 0,		/* peripheral 5 */
		0x41, 0x2c, 0, 0, 0, 0, 0, 0,		/* flat 300 */
		0x00, 0x01, 0x40, 0x02, 0, 0, 0, 0,	/* two levels */
	};
	u64 luns[8];
	unsigned int total = 0;
	u8 one[8], *b;
	u64 rnd = 5;
	unsigned int i;

	CHECK_EQ(smq_parse_report_luns(rl, sizeof(rl), luns, 8, &total), 4);
	CHECK_EQ(total, 4);
	CHECK(luns[0] == 0 && luns[1] == 5 && luns[2] == 0x412c);
	CHECK_EQ(luns[3], 0x40020001ULL);
	CHECK_EQ(smq_lun_flat(300), 0x412c);
	CHECK_EQ(smq_lun_flat(255), 255);
	/* received only 1.5 entries */
	b = dup_exact(rl, 20);
	CHECK_EQ(smq_parse_report_luns(b, 20, luns, 8, &total), 1);
	CHECK_EQ(total, 4);
	free(b);
	CHECK_EQ(smq_parse_report_luns(rl, sizeof(rl), luns, 2, NULL), 2);
	/* the list length claims fewer than arrived */
	b = dup_exact(rl, sizeof(rl));
	b[3] = 0x08;
	CHECK_EQ(smq_parse_report_luns(b, sizeof(rl), luns, 8, &total), 1);
	free(b);
	CHECK_EQ(smq_parse_report_luns(rl, 7, luns, 8, &total), -EINVAL);
	smq_int_to_scsilun(0x412c, one);
	CHECK_MEM(one, V(0x41, 0x2c, 0, 0, 0, 0, 0, 0), 8);
	for (i = 0; i < 1000; i++) {
		u64 lun = smq_t_rand(&rnd);

		smq_int_to_scsilun(lun, one);
		CHECK_EQ(smq_scsilun_to_int(one), lun);
	}
}

static void test_parse_mode_caching(void)
{
	/* MODE SENSE(6): header, 8-byte block descriptor, caching page */
	static const u8 ms6[32] = {
		0x1f, 0x00, 0x10, 0x08,
		0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
		0x08, 0x12, 0x04, 0x00,
	};
	/* no block descriptors; control page, a subpage page, caching */
	static const u8 ms6b[44] = {
		0x2b, 0x00, 0x00, 0x00,
		0x0a, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x4a, 0x01, 0x00, 0x04, 0x08, 0x12, 0x04, 0x00, /* subpage 0a/01 */
		0x08, 0x12, 0x05, 0x00,
	};
	/* MODE SENSE(10): WP and DPOFUA, caching page with WCE clear */
	static const u8 ms10[28] = {
		0x00, 0x1a, 0x00, 0x90, 0x00, 0x00, 0x00, 0x00,
		0x08, 0x12, 0x00, 0x00,
	};
	struct smq_caching c;
	unsigned int len;
	u8 *b;

	CHECK_EQ(smq_parse_mode_caching(ms6, sizeof(ms6), false, &c), 0);
	CHECK(c.wce && !c.rcd && c.dpofua && !c.wp);
	CHECK_EQ(smq_parse_mode_caching(ms6b, sizeof(ms6b), false, &c), 0);
	CHECK(c.wce && c.rcd && !c.dpofua);
	CHECK_EQ(smq_parse_mode_caching(ms10, sizeof(ms10), true, &c), 0);
	CHECK(!c.wce && c.dpofua && c.wp);
	/* as MODE SENSE(6) data the same bytes make no sense */
	CHECK(smq_parse_mode_caching(ms10, sizeof(ms10), false, &c) < 0);
	/* MODE DATA LENGTH ends inside the caching page header */
	CHECK_EQ(smq_parse_mode_caching(V(0x05, 0, 0, 0, 0x08, 0x12), 6, false,
					&c), -EINVAL);
	CHECK_EQ(smq_parse_mode_caching(V(0x0f, 0, 0, 0, 0x0a, 0x0a, 0, 0, 0, 0,
					  0, 0, 0, 0, 0, 0), 16, false, &c),
		 -ENOENT);
	/* every truncation: never a read past the data */
	for (len = 0; len <= sizeof(ms6b); len++) {
		int ret;

		b = dup_exact(ms6b, len);
		ret = smq_parse_mode_caching(b, len, false, &c);
		CHECK(ret == (len < 4 ? -EINVAL : len < 27 ? -ENOENT : 0) ||
		      (len == 26 && ret == -EINVAL));
		free(b);
	}
}

/* ---- emulated LU responses: hand vectors and parser round trips ---- */

static const struct smq_lun_info lu_thin = {
	.vendor = "SMQ", .model = "Emulated SAS", .rev = "0.1",
	.serial = "SMQ0001", .naa = 0x5000c50012345678ULL,
	.nr_blocks = 0x200000, .block_size = 512, .lbppbe = 3,
	.unmap = true, .lbprz = true, .write_cache = true, .dpofua = true,
	.rotation_rate = 1, .max_xfer_blocks = 2048, .opt_xfer_blocks = 256,
	.max_unmap_blocks = 0x10000, .max_unmap_descs = 16,
	.unmap_granularity = 8, .max_ws_blocks = 0x10000,
};

static void test_emu_vectors(void)
{
	struct smq_mode_sense_req ms = { .page = 0x08, .alloc_len = 255 };
	u8 b[128];

	CHECK_EQ(smq_emu_read_capacity16(&lu_thin, b, sizeof(b)), 32);
	CHECK_MEM(b, V(0x00, 0x00, 0x00, 0x00, 0x00, 0x1f, 0xff, 0xff,
		       0x00, 0x00, 0x02, 0x00, 0x00, 0x03, 0xc0, 0x00), 16);
	CHECK_EQ(smq_emu_read_capacity10(&lu_thin, b, sizeof(b)), 8);
	CHECK_MEM(b, V(0x00, 0x1f, 0xff, 0xff, 0x00, 0x00, 0x02, 0x00), 8);
	CHECK_EQ(smq_emu_inquiry(&lu_thin, b, sizeof(b)), 96);
	CHECK_MEM(b, V(0x00, 0x00, 0x06, 0x12, 0x5b, 0x00, 0x00, 0x02,
		       'S', 'M', 'Q', ' ', ' ', ' ', ' ', ' '), 16);
	CHECK_MEM(b + 32, V('0', '.', '1', ' '), 4);
	CHECK_EQ(smq_emu_inquiry(&lu_thin, b, 36), 36);
	CHECK_EQ(smq_emu_vpd(&lu_thin, 0xb2, b, sizeof(b)), 8);
	CHECK_MEM(b, V(0x00, 0xb2, 0x00, 0x04, 0x00, 0xe4, 0x02, 0x00), 8);
	CHECK_EQ(smq_emu_vpd(&lu_thin, 0x00, b, sizeof(b)), 10);
	CHECK_MEM(b, V(0x00, 0x00, 0x00, 0x06, 0x00, 0x80, 0x83, 0xb0, 0xb1,
		       0xb2), 10);
	CHECK_EQ(smq_emu_vpd(&lu_thin, 0x80, b, sizeof(b)), 11);
	CHECK_MEM(b, V(0x00, 0x80, 0x00, 0x07, 'S', 'M', 'Q', '0', '0', '0',
		       '1'), 11);
	CHECK_EQ(smq_emu_vpd(&lu_thin, 0x89, b, sizeof(b)), -EINVAL);
	CHECK_EQ(smq_emu_vpd(&lu_thin, 0x83, b, 16), 16);
	CHECK_MEM(b, V(0x00, 0x83, 0x00, 0x2f, 0x01, 0x03, 0x00, 0x08,
		       0x50, 0x00, 0xc5, 0x00, 0x12, 0x34, 0x56, 0x78), 16);
	/* MODE SENSE(6), caching page with block descriptor */
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 32);
	CHECK_MEM(b, V(0x1f, 0x00, 0x10, 0x08,
		       0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
		       0x08, 0x12, 0x04, 0x00), 16);
	/* MODE SENSE(10), LLBAA: 16-byte descriptor, LONGLBA set */
	ms = (struct smq_mode_sense_req){ .ten = true, .llbaa = true,
					  .page = 0x08, .alloc_len = 255 };
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 44);
	CHECK_MEM(b, V(0x00, 0x2a, 0x00, 0x10, 0x01, 0x00, 0x00, 0x10,
		       0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00,
		       0x08, 0x12, 0x04), 27);
	/* informational exceptions control: MRIE 6, nothing changeable */
	ms.page = 0x1c;
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 36);
	CHECK_MEM(b + 24, V(0x1c, 0x0a, 0x00, 0x06, 0, 0, 0, 0, 0, 0, 0, 0), 12);
	ms.pc = SMQ_MODE_PC_CHANGEABLE;
	ms.page = 0x01;
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 36);
	CHECK_MEM(b + 24, V(0x01, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 12);
	ms.pc = SMQ_MODE_PC_CURRENT;
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 36);
	CHECK_MEM(b + 24, V(0x01, 0x0a, 0xc0), 3);
	/* all pages, in page code order */
	ms = (struct smq_mode_sense_req){ .dbd = true, .page = 0x3f,
					  .alloc_len = 255 };
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), 4 + 56);
	CHECK_EQ(b[4], 0x01);
	CHECK_EQ(b[16], 0x08);
	CHECK_EQ(b[36], 0x0a);
	CHECK_EQ(b[48], 0x1c);
	ms.page = 0x19;
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), -EINVAL);
	ms.page = 0x08;
	ms.subpage = 1;
	CHECK_EQ(smq_emu_mode_sense(&lu_thin, &ms, b, sizeof(b)), -EINVAL);
}

/* What a parser should give back for string @s in a field of @n bytes. */
static const char *field(const char *s, unsigned int n)
{
	static char out[4][80];
	static unsigned int k;
	char *o = out[k++ % 4];
	unsigned int len = s ? strnlen(s, n) : 0;

	memcpy(o, s ? s : "", len);
	while (len && o[len - 1] == ' ')
		len--;
	o[len] = '\0';
	return o;
}

static void emu_round_trip(const struct smq_lun_info *lu)
{
	static const u8 want_pages[] = { 0x00, 0x80, 0x83, 0xb0, 0xb1, 0xb2 };
	u8 full[256], pages[16];
	struct smq_inquiry inq;
	struct smq_designator d;
	struct smq_block_limits bl;
	struct smq_bdc bdc;
	struct smq_lbp lbp;
	struct smq_capacity cap;
	struct smq_caching c;
	char serial[80];
	unsigned int pc, page, ten, dbd, llbaa, len;
	int n;

	n = smq_emu_inquiry(lu, full, sizeof(full));
	CHECK_EQ(smq_parse_inquiry(full, n, &inq), 0);
	CHECK_STR(inq.vendor, field(lu->vendor, 8));
	CHECK_STR(inq.model, field(lu->model, 16));
	CHECK_STR(inq.rev, field(lu->rev, 4));
	CHECK(inq.removable == lu->removable && inq.cmdque);
	n = smq_emu_vpd(lu, 0x00, full, sizeof(full));
	CHECK_EQ(smq_parse_vpd_supported(full, n, pages, sizeof(pages)), 6);
	CHECK_MEM(pages, want_pages, 6);
	n = smq_emu_vpd(lu, 0x80, full, sizeof(full));
	CHECK(smq_parse_vpd_serial(full, n, serial, sizeof(serial)) >= 0);
	CHECK_STR(serial, field(lu->serial, 64));
	n = smq_emu_vpd(lu, 0x83, full, sizeof(full));
	CHECK_EQ(smq_vpd83_lun_id(full, n, &d), 0);
	if (lu->naa)
		CHECK(d.type == SMQ_DESIG_NAA &&
		      get_unaligned_be64(d.id) == lu->naa);
	else
		CHECK(d.type == SMQ_DESIG_T10 &&
		      !memcmp(d.id, lu->vendor, strlen(field(lu->vendor, 8))));
	n = smq_emu_vpd(lu, 0xb0, full, sizeof(full));
	CHECK_EQ(smq_parse_vpd_b0(full, n, &bl), 0);
	CHECK(bl.max_xfer == lu->max_xfer_blocks &&
	      bl.opt_xfer == lu->opt_xfer_blocks && bl.has_unmap &&
	      bl.max_ws == lu->max_ws_blocks);
	CHECK_EQ(bl.max_unmap_lba, lu->unmap ? lu->max_unmap_blocks : 0);
	CHECK_EQ(bl.max_unmap_desc, lu->unmap ? lu->max_unmap_descs : 0);
	CHECK_EQ(bl.opt_xfer_gran, 1U << lu->lbppbe);
	n = smq_emu_vpd(lu, 0xb1, full, sizeof(full));
	CHECK_EQ(smq_parse_vpd_b1(full, n, &bdc), 0);
	CHECK_EQ(bdc.rotation_rate, lu->rotation_rate);
	n = smq_emu_vpd(lu, 0xb2, full, sizeof(full));
	CHECK_EQ(smq_parse_vpd_b2(full, n, &lbp), 0);
	CHECK(lbp.lbpu == lu->unmap && lbp.lbpws == lu->unmap &&
	      lbp.lbprz == lu->lbprz);
	n = smq_emu_read_capacity16(lu, full, 32);
	CHECK_EQ(smq_parse_read_capacity16(full, n, &cap), 0);
	CHECK(cap.last_lba + 1 == lu->nr_blocks &&
	      cap.block_size == lu->block_size && cap.lbppbe == lu->lbppbe &&
	      cap.lbpme == lu->unmap && cap.lbprz == lu->lbprz);
	n = smq_emu_read_capacity10(lu, full, 8);
	CHECK_EQ(smq_parse_read_capacity10(full, n, &cap), 0);
	CHECK_EQ(cap.need_rc16, lu->nr_blocks - 1 >= U32_MAX);
	if (!cap.need_rc16)
		CHECK_EQ(cap.last_lba + 1, lu->nr_blocks);
	/* MODE SENSE: every form, page control and page through the parser */
	for (ten = 0; ten < 2; ten++)
	for (dbd = 0; dbd < 2; dbd++)
	for (llbaa = 0; llbaa <= ten; llbaa++)
	for (pc = 0; pc < 4; pc++)
	for (page = 0; page < 3; page++) {
		struct smq_mode_sense_req req = {
			.ten = ten, .dbd = dbd, .llbaa = llbaa, .pc = pc,
			.page = page == 0 ? 0x08 : page == 1 ? 0x0a : 0x3f,
			.alloc_len = 255,
		};
		u8 cdb[SMQ_CDB_MAX];
		struct smq_mode_sense_req back;

		int full_n, ret;

		CHECK(smq_cdb_mode_sense(cdb, &req) > 0);
		CHECK_EQ(smq_cdb_decode_mode_sense(cdb, 10, &back), 0);
		full_n = smq_emu_mode_sense(lu, &back, full, back.alloc_len);
		CHECK(full_n > 0);
		n = smq_parse_mode_caching(full, full_n, ten, &c);
		if (req.page == 0x0a) {
			CHECK_EQ(n, -ENOENT);
			continue;
		}
		CHECK_EQ(n, 0);
		CHECK_EQ(c.wce, pc == SMQ_MODE_PC_CHANGEABLE || lu->write_cache);
		CHECK(c.dpofua == lu->dpofua && !c.rcd && !c.wp);
		/* truncated by a small allocation length: no overread */
		for (len = 0; len < 40; len++) {
			u8 *t = malloc(len ? len : 1);

			ret = smq_emu_mode_sense(lu, &back, t, len);
			CHECK_EQ(ret, min(len, (unsigned int)full_n));
			smq_parse_mode_caching(t, ret, ten, &c);
			free(t);
		}
	}
}

static void test_emu_round_trips(void)
{
	struct smq_lun_info lu = lu_thin;

	emu_round_trip(&lu);
	lu = (struct smq_lun_info){ .vendor = "LONGVENDORNAME", .model = "M",
				    .rev = "", .serial = NULL,
				    .nr_blocks = 0x100000000ULL + 5,
				    .block_size = 4096, .rotation_rate = 7200,
				    .removable = true, .desc_sense = true };
	emu_round_trip(&lu);
	lu.nr_blocks = 0xffffffffULL;	/* last LBA 0xfffffffe still fits */
	lu.vendor = "V";
	lu.serial = "0123456789012345678901234567890123456789012345678901234567890123";
	emu_round_trip(&lu);
}

static void test_emu_report_luns(void)
{
	u64 in[300], out[300];
	unsigned int i, total, len;
	u8 buf[8 + 8 * 300], *b;

	for (i = 0; i < 300; i++)
		in[i] = smq_lun_flat(i * 50);
	CHECK_EQ(smq_emu_report_luns(in, 300, buf, sizeof(buf)), sizeof(buf));
	CHECK_MEM(buf, V(0x00, 0x00, 0x09, 0x60), 4);
	CHECK_EQ(smq_parse_report_luns(buf, sizeof(buf), out, 300, &total), 300);
	CHECK_EQ(total, 300);
	CHECK_MEM(out, in, sizeof(in));
	/* small allocation: the list length still covers every LUN */
	for (len = 0; len < 40; len++) {
		b = malloc(len ? len : 1);
		CHECK_EQ(smq_emu_report_luns(in, 300, b, len), len);
		if (len >= 8) {
			CHECK_EQ(smq_parse_report_luns(b, len, out, 300, &total),
				 (len - 8) / 8);
			CHECK_EQ(total, 300);
		}
		free(b);
	}
	CHECK_EQ(smq_emu_report_luns(in, 0, buf, sizeof(buf)), 8);
	CHECK_MEM(buf, V(0, 0, 0, 0, 0, 0, 0, 0), 8);
}

static void test_emu_tpgs(void)
{
	struct smq_lun_info lu = lu_thin;
	struct smq_inquiry inq;
	struct smq_designator d;
	unsigned int pos = 0, n_port = 0;
	u8 b[128];
	int n;

	lu.tpgs = 1;
	lu.tpg_id = 1;
	lu.rel_port = 1;
	CHECK_EQ(smq_emu_inquiry(&lu, b, sizeof(b)), 96);
	CHECK_EQ(smq_parse_inquiry(b, 96, &inq), 0);
	CHECK_EQ(inq.tpgs, 1);
	n = smq_emu_vpd(&lu, 0x83, b, sizeof(b));
	CHECK_EQ(n, smq_emu_vpd(&lu_thin, 0x83, b, sizeof(b)) + 16);
	n = smq_emu_vpd(&lu, 0x83, b, sizeof(b));
	while (smq_vpd83_next(b, n, &pos, &d) == 1) {
		if (d.assoc != 1)
			continue;
		CHECK(d.type == SMQ_DESIG_REL_PORT || d.type == SMQ_DESIG_TPG);
		CHECK(d.piv);
		CHECK_EQ(d.len, 4);
		CHECK_EQ(get_unaligned_be16(&d.id[2]), 1);
		n_port++;
	}
	CHECK_EQ(n_port, 2);
	/* the LU designator is still the NAA one */
	CHECK_EQ(smq_vpd83_lun_id(b, n, &d), 0);
	CHECK_EQ(d.type, SMQ_DESIG_NAA);
}

/* A MODE SELECT list built from MODE SENSE: header, @bd, caching page. */
static unsigned int ms_list(const struct smq_lun_info *lu, bool ten, bool bd,
			    u8 *b)
{
	struct smq_mode_sense_req ms = { .ten = ten, .dbd = !bd,
					 .page = 0x08, .alloc_len = 255 };
	int n = smq_emu_mode_sense(lu, &ms, b, 128);

	CHECK(n > 0);
	if (ten) {
		b[0] = b[1] = 0;
		b[3] = 0;
	} else {
		b[0] = 0;
		b[2] = 0;
	}
	return n;
}

static void test_emu_mode_select(void)
{
	struct smq_mode_select_req req;
	struct smq_lun_info lu = lu_thin;
	unsigned int n, pg;
	bool wce = true;
	u8 c[16] = { 0x15, 0x10, 0, 0, 24, 0 };
	u8 b[128];

	CHECK_EQ(smq_cdb_decode_mode_select(c, 6, &req), 0);
	CHECK(!req.ten && req.pf && !req.sp && req.param_len == 24);
	c[0] = 0x55;
	c[1] = 0x11;
	put_unaligned_be16(300, &c[7]);
	CHECK_EQ(smq_cdb_decode_mode_select(c, 10, &req), 0);
	CHECK(req.ten && req.pf && req.sp && req.param_len == 300);
	CHECK_EQ(smq_cdb_decode_mode_select(c, 9, &req), -EINVAL);
	/* the builder round-trips */
	CHECK_EQ(smq_cdb_mode_select(c, false, false, 28), 6);
	CHECK_EQ(smq_cdb_decode_mode_select(c, 6, &req), 0);
	CHECK(!req.ten && req.pf && !req.sp && req.param_len == 28);
	CHECK_EQ(smq_cdb_mode_select(c, true, true, 300), 10);
	CHECK_EQ(smq_cdb_decode_mode_select(c, 10, &req), 0);
	CHECK(req.ten && req.pf && req.sp && req.param_len == 300);
	CHECK_EQ(smq_cdb_mode_select(c, false, false, 256), -EINVAL);
	c[0] = 0x55;
	c[0] = 0x1a;
	CHECK_EQ(smq_cdb_decode_mode_select(c, 6, &req), -EINVAL);

	/* clear WCE, (6), with and without block descriptor */
	n = ms_list(&lu, false, false, b);
	pg = 4;
	b[pg + 2] &= ~0x04;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	CHECK(!wce);
	n = ms_list(&lu, false, true, b);
	pg = 12;
	b[pg + 2] &= ~0x04;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	CHECK(!wce);
	/* set it again, (10), long block descriptor */
	lu.write_cache = false;
	{
		struct smq_mode_sense_req ms = { .ten = true, .llbaa = true,
						 .page = 0x08,
						 .alloc_len = 255 };

		n = smq_emu_mode_sense(&lu, &ms, b, sizeof(b));
		b[0] = b[1] = b[3] = 0;
	}
	CHECK_EQ(n, 44);
	b[24 + 2] |= 0x04;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, true, &wce), 0);
	CHECK(wce);
	/* truncated anywhere: parameter list length error */
	CHECK_EQ(smq_emu_mode_select(&lu, b, 7, true, &wce), -EMSGSIZE);
	CHECK_EQ(smq_emu_mode_select(&lu, b, 20, true, &wce), -EMSGSIZE);
	CHECK_EQ(smq_emu_mode_select(&lu, b, 25, true, &wce), -EMSGSIZE);
	CHECK_EQ(smq_emu_mode_select(&lu, b, 43, true, &wce), -EMSGSIZE);
	/* header only: fine, nothing changes */
	wce = true;
	b[7] = 0;
	CHECK_EQ(smq_emu_mode_select(&lu, b, 8, true, &wce), 0);
	CHECK(!wce);

	lu.write_cache = true;
	n = ms_list(&lu, false, true, b);
	/* RCD is not changeable */
	b[12 + 2] |= 0x01;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[12 + 2] &= ~0x01;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	/* mode data length, medium type, WP, block length, capacity */
	b[0] = 0x1f;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[0] = 0;
	b[1] = 1;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[1] = 0;
	b[2] = 0x80;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[2] = 0x10;		/* DPOFUA: ignored */
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	b[10] = 0x10;		/* 4096-byte blocks */
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[10] = 0x02;
	b[7] = 1;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	memset(&b[4], 0, 4);	/* 0 blocks: no change */
	b[9] = 0;
	b[10] = 0x02;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	b[3] = 16;		/* no long descriptors in (6) */
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[3] = 8;
	/* PS, SPF, page length, unknown page */
	b[12] |= 0x80;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[12] = 0x48;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[12] = 0x08;
	b[13] = 0x10;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[13] = 0x12;
	b[12] = 0x19;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	b[12] = 0x08;
	/* the control page unchanged is accepted, D_SENSE changed is not */
	{
		struct smq_mode_sense_req ms = { .dbd = true, .page = 0x0a,
						 .alloc_len = 255 };

		n = smq_emu_mode_sense(&lu, &ms, b, sizeof(b));
		b[0] = b[2] = 0;
	}
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), 0);
	b[4 + 2] |= 0x04;
	CHECK_EQ(smq_emu_mode_select(&lu, b, n, false, &wce), -EINVAL);
	CHECK_EQ(smq_emu_mode_select(&lu, NULL, 0, false, &wce), -EMSGSIZE);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_cdb_rw),
	SMQ_TEST(test_cdb_misc),
	SMQ_TEST(test_decode_rw),
	SMQ_TEST(test_decode_other),
	SMQ_TEST(test_parse_inquiry),
	SMQ_TEST(test_parse_vpd),
	SMQ_TEST(test_parse_vpd_block),
	SMQ_TEST(test_parse_capacity),
	SMQ_TEST(test_parse_report_luns),
	SMQ_TEST(test_parse_mode_caching),
	SMQ_TEST(test_emu_vectors),
	SMQ_TEST(test_emu_round_trips),
	SMQ_TEST(test_emu_report_luns),
	SMQ_TEST(test_emu_tpgs),
	SMQ_TEST(test_emu_mode_select),
};

int main(void)
{
	return smq_test_main("test_cdb", tests, ARRAY_SIZE(tests));
}
