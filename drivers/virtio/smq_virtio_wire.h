/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_virtio: the pure logic of the virtio-scsi wire (virtio 1.x spec,
 * section 5.6), kept apart from the virtqueues so that it also builds in
 * userspace (tests/unit): the LUN address of a request, the meaning of a
 * response, and what an event asks the driver to do.  Everything that comes
 * from the device is checked here.
 */
#ifndef _SMQ_VIRTIO_WIRE_H
#define _SMQ_VIRTIO_WIRE_H

#include <linux/types.h>

/* Request response codes (virtio_scsi_cmd_resp.response, TMF responses) */
#define SMQ_VIRTIO_S_OK			0
#define SMQ_VIRTIO_S_OVERRUN		1
#define SMQ_VIRTIO_S_ABORTED		2
#define SMQ_VIRTIO_S_BAD_TARGET		3
#define SMQ_VIRTIO_S_RESET		4
#define SMQ_VIRTIO_S_BUSY		5
#define SMQ_VIRTIO_S_TRANSPORT_FAILURE	6
#define SMQ_VIRTIO_S_TARGET_FAILURE	7
#define SMQ_VIRTIO_S_NEXUS_FAILURE	8
#define SMQ_VIRTIO_S_FAILURE		9
#define SMQ_VIRTIO_S_FUNCTION_SUCCEEDED	10
#define SMQ_VIRTIO_S_FUNCTION_REJECTED	11
#define SMQ_VIRTIO_S_INCORRECT_LUN	12
#define SMQ_VIRTIO_S_FUNCTION_COMPLETE	0

/* Event codes (virtio_scsi_event.event) and transport reset reasons */
#define SMQ_VIRTIO_T_NO_EVENT		0
#define SMQ_VIRTIO_T_TRANSPORT_RESET	1
#define SMQ_VIRTIO_T_ASYNC_NOTIFY	2
#define SMQ_VIRTIO_T_PARAM_CHANGE	3
#define SMQ_VIRTIO_T_EVENTS_MISSED	0x80000000u
#define SMQ_VIRTIO_EVT_RESET_HARD	0
#define SMQ_VIRTIO_EVT_RESET_RESCAN	1
#define SMQ_VIRTIO_EVT_RESET_REMOVED	2

/* Addressable by the single-level LUN format virtio-scsi uses */
#define SMQ_VIRTIO_MAX_TARGET		255
#define SMQ_VIRTIO_MAX_LUN		16383
#define SMQ_VIRTIO_LUN_BYTES		8

/**
 * struct smq_virtio_result - a request's outcome as the midlayer wants it
 * @host_byte: SMQ_DID_* (enum smq_host_byte)
 * @status: SAM status (0 unless @host_byte is SMQ_DID_OK)
 * @sense_len: sense bytes to copy (capped at the buffer)
 * @resid: bytes not transferred (capped at the transfer length)
 */
struct smq_virtio_result {
	u8 host_byte;
	u8 status;
	u32 sense_len;
	u32 resid;
};

/**
 * enum smq_virtio_action - what an event asks of the driver
 * @SMQ_VIRTIO_ACT_NONE: nothing (no event, unsupported, malformed)
 * @SMQ_VIRTIO_ACT_SCAN_HOST: events were lost: scan the whole host again
 * @SMQ_VIRTIO_ACT_ADD_LUN: probe the event's LUN (hot add)
 * @SMQ_VIRTIO_ACT_REMOVE_LUN: remove the event's LUN (hot remove)
 * @SMQ_VIRTIO_ACT_RESCAN_LUN: read the LUN's capacity again
 */
enum smq_virtio_action {
	SMQ_VIRTIO_ACT_NONE,
	SMQ_VIRTIO_ACT_SCAN_HOST,
	SMQ_VIRTIO_ACT_ADD_LUN,
	SMQ_VIRTIO_ACT_REMOVE_LUN,
	SMQ_VIRTIO_ACT_RESCAN_LUN,
};

/**
 * struct smq_virtio_event_action - a decoded event
 * @action: what to do
 * @target: target id of the LUN (not for SCAN_HOST / NONE)
 * @lun: the LUN
 */
struct smq_virtio_event_action {
	enum smq_virtio_action action;
	unsigned int target;
	unsigned int lun;
};

void smq_virtio_lun_encode(u8 *out, unsigned int target, unsigned int lun);
int smq_virtio_lun_decode(const u8 *in, unsigned int *target,
			  unsigned int *lun);
void smq_virtio_decode_resp(u8 response, u8 status, u32 sense_len, u32 resid,
			    u32 sense_max, u32 transfer_len,
			    struct smq_virtio_result *res);
bool smq_virtio_tmf_ok(u8 response);
void smq_virtio_decode_event(u32 event, u32 reason, const u8 *lun,
			     struct smq_virtio_event_action *act);
const char *smq_virtio_resp_name(u8 response);
const char *smq_virtio_tmf_resp_name(u8 response);

#endif /* _SMQ_VIRTIO_WIRE_H */
