// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of scsi/smq_sense.c against hand-written sense data (SPC-4
 * 4.5.2 descriptor format, 4.5.3 fixed format), builder output vectors,
 * build/parse round trips and the disposition table.
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/sense.h>

#define V(...)	((const u8[]){ __VA_ARGS__ })
#define VLEN(...) sizeof((const u8[]){ __VA_ARGS__ })

static u8 *dup_exact(const u8 *src, unsigned int len)
{
	u8 *p = malloc(len ? len : 1);

	if (len)
		memcpy(p, src, len);
	return p;
}

/* Normalize a copy in an exact-size buffer. */
static bool norm(const u8 *src, unsigned int len, struct smq_sense_hdr *h)
{
	u8 *b = dup_exact(src, len);
	bool ok = smq_sense_normalize(b, len, h);

	free(b);
	return ok;
}

static bool info_of(const u8 *src, unsigned int len, u64 *info)
{
	u8 *b = dup_exact(src, len);
	bool ok = smq_sense_info(b, len, info);

	free(b);
	return ok;
}

#define NORM(h, ...)	norm(V(__VA_ARGS__), VLEN(__VA_ARGS__), h)
#define INFO(i, ...)	info_of(V(__VA_ARGS__), VLEN(__VA_ARGS__), i)

static void test_normalize_fixed(void)
{
	struct smq_sense_hdr h;

	/* 0x70, key at byte 2, add. length 10 at byte 7, ASC/ASCQ 12/13 */
	CHECK(NORM(&h, 0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0, 0, 0,
		   0, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00));
	CHECK(h.response_code == 0x70 && !h.descriptor && !h.deferred);
	CHECK(h.sense_key == SMQ_SK_ILLEGAL_REQUEST && h.asc == 0x24 &&
	      h.ascq == 0);
	CHECK_EQ(smq_sense_asc_ascq(&h), SMQ_ASC_INVALID_FIELD_IN_CDB);
	/* VALID bit set (0xf0), deferred 0x71 */
	CHECK(NORM(&h, 0xf1, 0x00, 0x03, 0x00, 0x12, 0x34, 0x56, 0x0a, 0, 0, 0,
		   0, 0x11, 0x00, 0, 0, 0, 0));
	CHECK(h.response_code == 0x71 && h.deferred && h.sense_key == 3 &&
	      h.asc == 0x11);
	/* add. length 4 covers bytes 8-11 only: no ASC/ASCQ */
	CHECK(NORM(&h, 0x70, 0x00, 0x06, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x29,
		   0x00, 0, 0, 0, 0));
	CHECK(h.sense_key == SMQ_SK_UNIT_ATTENTION && h.asc == 0);
	/* add. length 5: ASC but not ASCQ */
	CHECK(NORM(&h, 0x70, 0, 0x02, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0x04, 0x01));
	CHECK(h.asc == 0x04 && h.ascq == 0);
	/* 3 bytes only: the key, nothing else */
	CHECK(NORM(&h, 0x70, 0x00, 0x0b));
	CHECK(h.sense_key == SMQ_SK_ABORTED_COMMAND && h.asc == 0);
	CHECK(NORM(&h, 0x70));
	CHECK_EQ(h.sense_key, 0);
	/* not sense data */
	CHECK(!NORM(&h, 0x00, 0x00, 0x05));
	CHECK(!NORM(&h, 0x74, 0x05, 0x20, 0x00));
	CHECK(!NORM(&h, 0x7f, 0x05, 0x20, 0x00));
	CHECK(!smq_sense_normalize(NULL, 18, &h));
	CHECK(!smq_sense_normalize(V(0x70), 0, &h));
}

static void test_normalize_descriptor(void)
{
	struct smq_sense_hdr h;

	/* 0x72: key byte 1, ASC 2, ASCQ 3, add. length 7 */
	CHECK(NORM(&h, 0x72, 0x05, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00));
	CHECK(h.descriptor && !h.deferred && h.sense_key == 5 &&
	      h.asc == 0x20 && h.additional_length == 0);
	CHECK(NORM(&h, 0x73, 0x06, 0x29, 0x00));
	CHECK(h.deferred && h.sense_key == 6 && h.asc == 0x29);
	CHECK(NORM(&h, 0x72, 0x02, 0x04));
	CHECK(h.sense_key == 2 && h.asc == 4 && h.ascq == 0);
}

static void test_info_and_descriptors(void)
{
	static const u8 ks_then_info[] = {
		0x72, 0x05, 0x24, 0x00, 0x00, 0x00, 0x00, 0x14,
		/* sense key specific: SKSV, C/D, field pointer 2 */
		0x02, 0x06, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x00,
		/* information: VALID, 64-bit value */
		0x00, 0x0a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x2a,
	};
	unsigned int dlen = 0, len;
	const u8 *d;
	u64 info = 0;

	/* fixed: INFORMATION in bytes 3-6 when VALID */
	CHECK(INFO(&info, 0xf0, 0x00, 0x03, 0x00, 0x12, 0x34, 0x56, 0x0a, 0, 0,
		   0, 0, 0x11, 0x00, 0, 0, 0, 0));
	CHECK_EQ(info, 0x123456);
	CHECK(!INFO(&info, 0x70, 0x00, 0x03, 0x00, 0x12, 0x34, 0x56, 0x0a));
	CHECK(!INFO(&info, 0xf0, 0x00, 0x03, 0x00, 0x12, 0x34));
	/* descriptor: the information descriptor after another one */
	CHECK(info_of(ks_then_info, sizeof(ks_then_info), &info));
	CHECK_EQ(info, 0x2a);
	d = smq_sense_find_desc(ks_then_info, sizeof(ks_then_info),
				SMQ_SENSE_DESC_KEY_SPECIFIC, &dlen);
	CHECK(d == ks_then_info + 8 && dlen == 8);
	CHECK(!smq_sense_find_desc(ks_then_info, sizeof(ks_then_info), 0x05,
				   NULL));
	/* every truncation: found only when whole, never an overread */
	for (len = 0; len <= sizeof(ks_then_info); len++) {
		CHECK_EQ(info_of(ks_then_info, len, &info),
			 len == sizeof(ks_then_info));
	}
	/* ADDITIONAL SENSE LENGTH shorter than the data: not found */
	CHECK(!INFO(&info, 0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0x0b,
		    0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 1, 0, 0, 0, 0));
	/* information descriptor without VALID */
	CHECK(!INFO(&info, 0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0x0c,
		    0x00, 0x0a, 0x00, 0x00, 0, 0, 0, 1, 0, 0, 0, 0));
	CHECK(INFO(&info, 0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0x0c,
		   0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 1, 0, 0, 0, 0));
	CHECK_EQ(info, 0x100000000ULL);
	/* a zero-length descriptor is skipped, not looped on */
	CHECK(INFO(&info, 0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0x0e,
		   0x80, 0x00,
		   0x00, 0x0a, 0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 7));
	CHECK_EQ(info, 7);
	CHECK(!smq_sense_find_desc(V(0x70, 0, 5, 0, 0, 0, 0, 0x0a, 0, 0), 10, 0,
				   NULL));
}

static void test_build(void)
{
	u8 b[SMQ_SENSE_MAX];
	struct smq_sense_hdr h;
	u64 info;

	CHECK_EQ(smq_sense_build(b, sizeof(b), false, SMQ_SK_ILLEGAL_REQUEST,
				 SMQ_ASC_INVALID_OPCODE), 18);
	CHECK_MEM(b, V(0x70, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x00,
		       0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00), 18);
	CHECK_EQ(smq_sense_build(b, sizeof(b), true, SMQ_SK_UNIT_ATTENTION,
				 SMQ_ASC_POWER_ON_RESET), 8);
	CHECK_MEM(b, V(0x72, 0x06, 0x29, 0x00, 0x00, 0x00, 0x00, 0x00), 8);
	CHECK_EQ(smq_sense_build_info(b, sizeof(b), false, SMQ_SK_MEDIUM_ERROR,
				      SMQ_ASC_UNRECOVERED_READ, 0x1234), 18);
	CHECK_MEM(b, V(0xf0, 0x00, 0x03, 0x00, 0x00, 0x12, 0x34, 0x0a, 0x00,
		       0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00), 18);
	/* does not fit 32 bits: VALID stays clear */
	CHECK_EQ(smq_sense_build_info(b, sizeof(b), false, SMQ_SK_MEDIUM_ERROR,
				      SMQ_ASC_UNRECOVERED_READ,
				      0x100000000ULL), 18);
	CHECK_MEM(b, V(0x70, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x0a), 8);
	CHECK(!smq_sense_info(b, 18, &info));
	CHECK_EQ(smq_sense_build_info(b, sizeof(b), true, SMQ_SK_MEDIUM_ERROR,
				      SMQ_ASC_UNRECOVERED_READ,
				      0x123456789aULL), 20);
	CHECK_MEM(b, V(0x72, 0x03, 0x11, 0x00, 0x00, 0x00, 0x00, 0x0c,
		       0x00, 0x0a, 0x80, 0x00, 0x00, 0x00, 0x00, 0x12,
		       0x34, 0x56, 0x78, 0x9a), 20);
	CHECK(smq_sense_info(b, 20, &info) && info == 0x123456789aULL);
	CHECK(smq_sense_normalize(b, 20, &h) && h.additional_length == 12);
	CHECK_EQ(smq_sense_build(b, 17, false, 5, 0x2000), -EINVAL);
	CHECK_EQ(smq_sense_build(b, 7, true, 5, 0x2000), -EINVAL);
	CHECK_EQ(smq_sense_build_info(b, 19, true, 3, 0x1100, 1), -EINVAL);
}

static void test_build_round_trip(void)
{
	u64 rnd = 11;
	unsigned int i;

	for (i = 0; i < 5000; i++) {
		u8 b[SMQ_SENSE_MAX];
		struct smq_sense_hdr h;
		bool desc = i & 1, with_info = i & 2;
		u8 key = smq_t_rand(&rnd) & 0xf;
		u16 aa = smq_t_rand(&rnd);
		u64 info = smq_t_rand(&rnd) >> (smq_t_rand(&rnd) % 64), got;
		int n = with_info ?
			smq_sense_build_info(b, sizeof(b), desc, key, aa, info) :
			smq_sense_build(b, sizeof(b), desc, key, aa);

		CHECK(n > 0);
		CHECK(norm(b, n, &h));
		CHECK(h.sense_key == key && smq_sense_asc_ascq(&h) == aa);
		CHECK_EQ(h.descriptor, desc);
		if (!with_info)
			CHECK(!info_of(b, n, &got));
		else if (desc || info <= U32_MAX)
			CHECK(info_of(b, n, &got) && got == info);
	}
}

static u8 s_buf[SMQ_SENSE_MAX];

static const u8 *sense(bool desc, u8 key, u16 aa, unsigned int *len)
{
	*len = smq_sense_build(s_buf, sizeof(s_buf), desc, key, aa);
	return s_buf;
}

static enum smq_disposition decide_cc(u8 op, u8 key, u16 aa)
{
	unsigned int len;
	const u8 *s = sense(key & 0x10, key & 0xf, aa, &len);

	return smq_scsi_decide(op, SMQ_DID_OK, SMQ_SAM_STAT_CHECK_CONDITION,
			       s, len);
}

static void test_decide(void)
{
	static const struct {
		u8 op, key;
		u16 aa;
		enum smq_disposition want;
	} cc[] = {
		{ 0x28, SMQ_SK_RECOVERED_ERROR, 0x1701, SMQ_DISP_OK },
		{ 0x28, SMQ_SK_NO_SENSE, 0x0000, SMQ_DISP_OK },
		{ 0x28, SMQ_SK_UNIT_ATTENTION, SMQ_ASC_POWER_ON_RESET,
		  SMQ_DISP_RETRY },
		{ 0x28, SMQ_SK_UNIT_ATTENTION, SMQ_ASC_CAPACITY_CHANGED,
		  SMQ_DISP_RETRY },
		{ 0x28, SMQ_SK_NOT_READY, SMQ_ASC_LUN_BECOMING_READY,
		  SMQ_DISP_RETRY },
		{ 0x28, SMQ_SK_NOT_READY, 0x040a, SMQ_DISP_RETRY },
		{ 0x28, SMQ_SK_NOT_READY, SMQ_ASC_LUN_NEED_INIT_CMD,
		  SMQ_DISP_TARGET_ERROR },
		{ 0x28, SMQ_SK_NOT_READY, SMQ_ASC_MEDIUM_NOT_PRESENT,
		  SMQ_DISP_TARGET_ERROR },
		{ 0x28, SMQ_SK_MEDIUM_ERROR, SMQ_ASC_UNRECOVERED_READ,
		  SMQ_DISP_MEDIUM_ERROR },
		{ 0x2a, SMQ_SK_MEDIUM_ERROR, SMQ_ASC_WRITE_ERROR,
		  SMQ_DISP_MEDIUM_ERROR },
		{ 0x28, SMQ_SK_MEDIUM_ERROR, SMQ_ASC_GUARD_CHECK_FAILED,
		  SMQ_DISP_PROTECTION },
		{ 0x28, SMQ_SK_ABORTED_COMMAND, SMQ_ASC_GUARD_CHECK_FAILED,
		  SMQ_DISP_PROTECTION },
		{ 0x28, SMQ_SK_ABORTED_COMMAND, 0x4700, SMQ_DISP_RETRY },
		{ 0x28, SMQ_SK_HARDWARE_ERROR, SMQ_ASC_INTERNAL_TARGET_FAILURE,
		  SMQ_DISP_TARGET_ERROR },
		{ 0x28, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_LBA_OUT_OF_RANGE,
		  SMQ_DISP_INVALID },
		{ 0x28, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_FIELD_IN_CDB,
		  SMQ_DISP_INVALID },
		{ 0x35, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_OPCODE,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x42, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_OPCODE,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x42, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_FIELD_IN_CDB,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x93, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_FIELD_IN_CDB,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x41, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_FIELD_IN_PARAM,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x93, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_LBA_OUT_OF_RANGE,
		  SMQ_DISP_INVALID },
		{ 0x28, SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_GUARD_CHECK_FAILED,
		  SMQ_DISP_PROTECTION },
		{ 0x2a, SMQ_SK_DATA_PROTECT, SMQ_ASC_SPACE_ALLOC_FAILED,
		  SMQ_DISP_NOSPC },
		{ 0x2a, SMQ_SK_DATA_PROTECT, SMQ_ASC_WRITE_PROTECTED,
		  SMQ_DISP_TARGET_ERROR },
		{ 0x28, SMQ_SK_MISCOMPARE, 0x1d00, SMQ_DISP_TARGET_ERROR },
		{ 0x28, SMQ_SK_BLANK_CHECK, 0x0000, SMQ_DISP_TARGET_ERROR },
		/* descriptor format decides the same */
		{ 0x42, 0x10 | SMQ_SK_ILLEGAL_REQUEST, SMQ_ASC_INVALID_OPCODE,
		  SMQ_DISP_NOT_SUPPORTED },
		{ 0x28, 0x10 | SMQ_SK_UNIT_ATTENTION,
		  SMQ_ASC_REPORTED_LUNS_CHANGED, SMQ_DISP_RETRY },
		{ 0x2a, 0x10 | SMQ_SK_DATA_PROTECT, SMQ_ASC_SPACE_ALLOC_FAILED,
		  SMQ_DISP_NOSPC },
	};
	unsigned int i, len;

	for (i = 0; i < ARRAY_SIZE(cc); i++) {
		enum smq_disposition got = decide_cc(cc[i].op, cc[i].key,
						     cc[i].aa);

		if (got != cc[i].want)
			fprintf(stderr, "  case %u: got %s want %s\n", i,
				smq_disposition_name(got),
				smq_disposition_name(cc[i].want));
		CHECK_EQ(got, cc[i].want);
	}
	/* statuses */
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_GOOD, NULL, 0),
		 SMQ_DISP_OK);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_CONDITION_MET, NULL, 0),
		 SMQ_DISP_OK);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_BUSY, NULL, 0),
		 SMQ_DISP_REQUEUE);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_TASK_SET_FULL, NULL, 0),
		 SMQ_DISP_REQUEUE);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_TASK_ABORTED, NULL, 0),
		 SMQ_DISP_RETRY);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_RESERVATION_CONFLICT,
				 NULL, 0), SMQ_DISP_RESV_CONFLICT);
	CHECK_EQ(smq_scsi_decide(0x28, 0, 0x7e, NULL, 0), SMQ_DISP_TARGET_ERROR);
	/* CHECK CONDITION without usable sense */
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_CHECK_CONDITION, NULL, 0),
		 SMQ_DISP_TARGET_ERROR);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_CHECK_CONDITION,
				 V(0x00, 0x00, 0x06), 3), SMQ_DISP_TARGET_ERROR);
	/* deferred error: about an earlier command, retry this one */
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_CHECK_CONDITION,
				 V(0x73, 0x03, 0x11, 0x00), 4), SMQ_DISP_RETRY);
	/* host bytes win over status */
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_NO_CONNECT, 0, NULL, 0),
		 SMQ_DISP_TRANSPORT);
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_REQUEUE, 0, NULL, 0),
		 SMQ_DISP_REQUEUE);
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_TIME_OUT, 0, NULL, 0),
		 SMQ_DISP_RETRY);
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_TRANSPORT_DISRUPTED, 0, NULL, 0),
		 SMQ_DISP_RETRY);
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_IMM_RETRY, 0, NULL, 0),
		 SMQ_DISP_REQUEUE);
	CHECK_EQ(smq_scsi_decide(0x28, SMQ_DID_BAD_INTR, 0, NULL, 0),
		 SMQ_DISP_TARGET_ERROR);
	/* truncated sense: decided on what is there */
	sense(false, SMQ_SK_UNIT_ATTENTION, SMQ_ASC_POWER_ON_RESET, &len);
	CHECK_EQ(smq_scsi_decide(0x28, 0, SMQ_SAM_STAT_CHECK_CONDITION, s_buf, 3),
		 SMQ_DISP_RETRY);
	CHECK_STR(smq_disposition_name(SMQ_DISP_NOSPC), "nospc");
	CHECK_STR(smq_disposition_name((enum smq_disposition)99), "unknown");
}

static void test_good_blocks(void)
{
	u8 b[SMQ_SENSE_MAX];
	u32 good = 77;
	int n;

	/* fixed MEDIUM ERROR at 105 for a command at 100 of 16 blocks */
	n = smq_sense_build_info(b, sizeof(b), false, SMQ_SK_MEDIUM_ERROR,
				 SMQ_ASC_UNRECOVERED_READ, 105);
	CHECK(smq_sense_good_blocks(b, n, 100, 16, &good));
	CHECK_EQ(good, 5);
	/* first block bad: nothing good, but still a named block */
	CHECK(smq_sense_good_blocks(b, n, 105, 1, &good));
	CHECK_EQ(good, 0);
	/* outside the command: not ours */
	good = 77;
	CHECK(!smq_sense_good_blocks(b, n, 106, 16, &good));
	CHECK(!smq_sense_good_blocks(b, n, 90, 15, &good));
	CHECK_EQ(good, 77);
	/* descriptor format, 64-bit LBA, HARDWARE ERROR */
	n = smq_sense_build_info(b, sizeof(b), true, SMQ_SK_HARDWARE_ERROR,
				 SMQ_ASC_INTERNAL_TARGET_FAILURE,
				 0x100000010ULL);
	CHECK(smq_sense_good_blocks(b, n, 0x100000000ULL, 32, &good));
	CHECK_EQ(good, 16);
	/* truncated before INFORMATION: no */
	CHECK(!smq_sense_good_blocks(b, 10, 0x100000000ULL, 32, &good));
	/* no VALID bit: no */
	n = smq_sense_build(b, sizeof(b), false, SMQ_SK_MEDIUM_ERROR,
			    SMQ_ASC_UNRECOVERED_READ);
	CHECK(!smq_sense_good_blocks(b, n, 0, 16, &good));
	/* other sense keys and deferred errors: no */
	n = smq_sense_build_info(b, sizeof(b), false, SMQ_SK_ABORTED_COMMAND,
				 0, 3);
	CHECK(!smq_sense_good_blocks(b, n, 0, 16, &good));
	n = smq_sense_build_info(b, sizeof(b), false, SMQ_SK_MEDIUM_ERROR,
				 SMQ_ASC_UNRECOVERED_READ, 3);
	b[0] = (b[0] & 0x80) | 0x71;
	CHECK(!smq_sense_good_blocks(b, n, 0, 16, &good));
	CHECK(!smq_sense_good_blocks(NULL, 0, 0, 16, &good));
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_normalize_fixed),
	SMQ_TEST(test_normalize_descriptor),
	SMQ_TEST(test_info_and_descriptors),
	SMQ_TEST(test_build),
	SMQ_TEST(test_build_round_trip),
	SMQ_TEST(test_decide),
	SMQ_TEST(test_good_blocks),
};

int main(void)
{
	return smq_test_main("test_sense", tests, ARRAY_SIZE(tests));
}
