// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of drivers/virtio/smq_virtio_wire.c: the LUN address of the
 * virtio-scsi spec (5.6.6.1), response decoding and its caps, and what each
 * event asks for, with the values the spec gives (checked against the
 * kernel's <uapi/linux/virtio_scsi.h> by smq_virtio's BUILD_BUG_ONs).
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/sense.h>
#include "smq_virtio_wire.h"

#define V(...)	((const u8[]){ __VA_ARGS__ })

static void test_lun_encode(void)
{
	u8 l[8];

	smq_virtio_lun_encode(l, 0, 0);
	CHECK_MEM(l, V(1, 0, 0x40, 0, 0, 0, 0, 0), 8);
	smq_virtio_lun_encode(l, 3, 5);
	CHECK_MEM(l, V(1, 3, 0x40, 5, 0, 0, 0, 0), 8);
	smq_virtio_lun_encode(l, 255, 16383);
	CHECK_MEM(l, V(1, 255, 0x7f, 0xff, 0, 0, 0, 0), 8);
	smq_virtio_lun_encode(l, 1, 0x1234);
	CHECK_MEM(l, V(1, 1, 0x52, 0x34, 0, 0, 0, 0), 8);
}

static void test_lun_decode(void)
{
	unsigned int t, lun, i, j;
	u8 l[8];

	CHECK_EQ(smq_virtio_lun_decode(V(1, 2, 0x40, 7, 0, 0, 0, 0), &t, &lun), 0);
	CHECK_EQ(t, 2);
	CHECK_EQ(lun, 7);
	/* Peripheral format (0x00) for LUNs below 256 */
	CHECK_EQ(smq_virtio_lun_decode(V(1, 0, 0, 9, 0, 0, 0, 0), &t, &lun), 0);
	CHECK_EQ(lun, 9);
	CHECK_EQ(smq_virtio_lun_decode(V(0, 0, 0x40, 0, 0, 0, 0, 0), &t, &lun), -EINVAL);
	CHECK_EQ(smq_virtio_lun_decode(V(2, 0, 0x40, 0, 0, 0, 0, 0), &t, &lun), -EINVAL);
	CHECK_EQ(smq_virtio_lun_decode(V(1, 0, 0x80, 0, 0, 0, 0, 0), &t, &lun), -EINVAL);
	CHECK_EQ(smq_virtio_lun_decode(V(1, 0, 0xc0, 0, 0, 0, 0, 0), &t, &lun), -EINVAL);
	CHECK_EQ(smq_virtio_lun_decode(V(1, 0, 0x40, 0, 0, 1, 0, 0), &t, &lun), -EINVAL);
	CHECK_EQ(smq_virtio_lun_decode(V(1, 0, 0x40, 0, 0, 0, 0, 1), &t, &lun), -EINVAL);
	/* Round trip over the whole space (sampled) */
	for (i = 0; i <= 255; i += 17)
		for (j = 0; j <= 16383; j += 257) {
			smq_virtio_lun_encode(l, i, j);
			CHECK_EQ(smq_virtio_lun_decode(l, &t, &lun), 0);
			CHECK_EQ(t, i);
			CHECK_EQ(lun, j);
		}
}

static void test_resp_ok(void)
{
	struct smq_virtio_result r;

	smq_virtio_decode_resp(SMQ_VIRTIO_S_OK, 0, 0, 0, 96, 4096, &r);
	CHECK_EQ(r.host_byte, SMQ_DID_OK);
	CHECK_EQ(r.status, 0);
	CHECK_EQ(r.sense_len, 0);
	CHECK_EQ(r.resid, 0);
	/* CHECK CONDITION: sense kept, capped at the buffer */
	smq_virtio_decode_resp(SMQ_VIRTIO_S_OK, SMQ_SAM_STAT_CHECK_CONDITION, 18, 512,
			       96, 4096, &r);
	CHECK_EQ(r.status, SMQ_SAM_STAT_CHECK_CONDITION);
	CHECK_EQ(r.sense_len, 18);
	CHECK_EQ(r.resid, 512);
	smq_virtio_decode_resp(SMQ_VIRTIO_S_OK, SMQ_SAM_STAT_CHECK_CONDITION,
			       0xffffffff, 0xffffffff, 96, 4096, &r);
	CHECK_EQ(r.sense_len, 96);
	CHECK_EQ(r.resid, 4096);
	/* Sense without a status means nothing */
	smq_virtio_decode_resp(SMQ_VIRTIO_S_OK, 0, 18, 0, 96, 4096, &r);
	CHECK_EQ(r.sense_len, 0);
}

static void test_resp_errors(void)
{
	static const struct { u8 resp, host; } map[] = {
		{ SMQ_VIRTIO_S_OVERRUN, SMQ_DID_ERROR },
		{ SMQ_VIRTIO_S_ABORTED, SMQ_DID_ABORT },
		{ SMQ_VIRTIO_S_BAD_TARGET, SMQ_DID_BAD_TARGET },
		{ SMQ_VIRTIO_S_RESET, SMQ_DID_RESET },
		{ SMQ_VIRTIO_S_BUSY, SMQ_DID_BUS_BUSY },
		{ SMQ_VIRTIO_S_TRANSPORT_FAILURE, SMQ_DID_TRANSPORT_DISRUPTED },
		{ SMQ_VIRTIO_S_TARGET_FAILURE, SMQ_DID_BAD_TARGET },
		{ SMQ_VIRTIO_S_NEXUS_FAILURE, SMQ_DID_BAD_TARGET },
		{ SMQ_VIRTIO_S_FAILURE, SMQ_DID_ERROR },
		{ SMQ_VIRTIO_S_INCORRECT_LUN, SMQ_DID_BAD_TARGET },
		{ 200, SMQ_DID_ERROR },
	};
	struct smq_virtio_result r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		smq_virtio_decode_resp(map[i].resp, SMQ_SAM_STAT_CHECK_CONDITION, 18, 7,
				       96, 4096, &r);
		CHECK_EQ(r.host_byte, map[i].host);
		/* Not OK: no status, no sense, nothing known to have moved */
		CHECK_EQ(r.status, 0);
		CHECK_EQ(r.sense_len, 0);
		CHECK_EQ(r.resid, 4096);
	}
	CHECK(smq_virtio_tmf_ok(SMQ_VIRTIO_S_FUNCTION_COMPLETE));
	CHECK(smq_virtio_tmf_ok(SMQ_VIRTIO_S_FUNCTION_SUCCEEDED));
	CHECK(!smq_virtio_tmf_ok(SMQ_VIRTIO_S_FUNCTION_REJECTED));
	CHECK(!smq_virtio_tmf_ok(SMQ_VIRTIO_S_BAD_TARGET));
	CHECK_STR(smq_virtio_tmf_resp_name(0), "FUNCTION_COMPLETE");
	CHECK_STR(smq_virtio_resp_name(0), "OK");
	CHECK_STR(smq_virtio_resp_name(12), "INCORRECT_LUN");
	CHECK_STR(smq_virtio_resp_name(13), "unknown");
}

static void test_events(void)
{
	const u8 *l = V(1, 4, 0x40, 9, 0, 0, 0, 0);
	struct smq_virtio_event_action a;

	smq_virtio_decode_event(SMQ_VIRTIO_T_TRANSPORT_RESET,
				SMQ_VIRTIO_EVT_RESET_RESCAN, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_ADD_LUN);
	CHECK_EQ(a.target, 4);
	CHECK_EQ(a.lun, 9);
	smq_virtio_decode_event(SMQ_VIRTIO_T_TRANSPORT_RESET,
				SMQ_VIRTIO_EVT_RESET_REMOVED, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_REMOVE_LUN);
	smq_virtio_decode_event(SMQ_VIRTIO_T_TRANSPORT_RESET,
				SMQ_VIRTIO_EVT_RESET_HARD, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
	/* CAPACITY DATA HAS CHANGED: ASC 0x2a ASCQ 0x09 */
	smq_virtio_decode_event(SMQ_VIRTIO_T_PARAM_CHANGE, 0x2a | 0x09 << 8, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_RESCAN_LUN);
	CHECK_EQ(a.lun, 9);
	/* REPORTED LUNS DATA HAS CHANGED */
	smq_virtio_decode_event(SMQ_VIRTIO_T_PARAM_CHANGE, 0x3f | 0x0e << 8, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_SCAN_HOST);
	smq_virtio_decode_event(SMQ_VIRTIO_T_PARAM_CHANGE, 0x29, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
	/* Lost events: whatever else the word says, scan everything */
	smq_virtio_decode_event(SMQ_VIRTIO_T_EVENTS_MISSED | SMQ_VIRTIO_T_TRANSPORT_RESET,
				SMQ_VIRTIO_EVT_RESET_REMOVED, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_SCAN_HOST);
	smq_virtio_decode_event(SMQ_VIRTIO_T_NO_EVENT, 0, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
	smq_virtio_decode_event(SMQ_VIRTIO_T_ASYNC_NOTIFY, 0, l, &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
	/* A LUN field that does not parse: nothing is added or removed */
	smq_virtio_decode_event(SMQ_VIRTIO_T_TRANSPORT_RESET, SMQ_VIRTIO_EVT_RESET_RESCAN,
				V(0, 4, 0x40, 9, 0, 0, 0, 0), &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
	smq_virtio_decode_event(SMQ_VIRTIO_T_TRANSPORT_RESET, SMQ_VIRTIO_EVT_RESET_REMOVED,
				V(1, 4, 0x40, 9, 1, 0, 0, 0), &a);
	CHECK_EQ(a.action, SMQ_VIRTIO_ACT_NONE);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_lun_encode),
	SMQ_TEST(test_lun_decode),
	SMQ_TEST(test_resp_ok),
	SMQ_TEST(test_resp_errors),
	SMQ_TEST(test_events),
};

int main(void)
{
	return smq_test_main("test_virtio_wire", tests, ARRAY_SIZE(tests));
}
