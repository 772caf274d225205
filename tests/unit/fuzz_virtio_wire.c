// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: what a virtio-scsi device hands the driver, a response
 * (response code, status, sense_len, resid) and an event (event, reason,
 * LUN field): every length stays within its buffer, every event decodes
 * to an action whose LUN is addressable.
 */
#include "smq_fuzz.h"
#include <smq/sense.h>
#include "smq_virtio_wire.h"

static u32 get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smq_virtio_event_action a;
	struct smq_virtio_result r;
	u32 xfer;
	u8 l[8];

	if (size < 2 + 4 + 4 + 4 + 4 + 4 + 8)
		return 0;
	xfer = get32(data + 10);
	smq_virtio_decode_resp(data[0], data[1], get32(data + 2), get32(data + 6),
			       96, xfer, &r);
	FUZZ_ASSERT(r.sense_len <= 96 && r.resid <= xfer);
	FUZZ_ASSERT(r.host_byte == SMQ_DID_OK || (!r.status && !r.sense_len));
	FUZZ_ASSERT(smq_virtio_resp_name(data[0]) && smq_virtio_tmf_resp_name(data[0]));
	smq_virtio_decode_event(get32(data + 14), get32(data + 18), data + 22, &a);
	FUZZ_ASSERT(a.action <= SMQ_VIRTIO_ACT_RESCAN_LUN);
	if (a.action == SMQ_VIRTIO_ACT_ADD_LUN || a.action == SMQ_VIRTIO_ACT_REMOVE_LUN ||
	    a.action == SMQ_VIRTIO_ACT_RESCAN_LUN) {
		FUZZ_ASSERT(a.target <= SMQ_VIRTIO_MAX_TARGET && a.lun <= SMQ_VIRTIO_MAX_LUN);
		smq_virtio_lun_encode(l, a.target, a.lun);
		FUZZ_ASSERT(l[0] == 1 && l[1] == data[23] && l[3] == data[25]);
	}
	return 0;
}

void smq_fuzz_seeds(smq_fuzz_add_fn add)
{
	static const uint8_t ev[] = {
		0, 2, 18, 0, 0, 0, 0, 2, 0, 0, 0, 16, 0, 0,
		1, 0, 0, 0, 1, 0, 0, 0, 1, 3, 0x40, 5, 0, 0, 0, 0,
	};

	add(ev, sizeof(ev));
}
