// SPDX-License-Identifier: GPL-2.0
/*
 * smq_virtio: the virtio-scsi wire's pure logic (see smq_virtio_wire.h).
 * Kernel headers and smq headers only: tests/unit builds it in userspace.
 *
 * LUN addressing: virtio-scsi names a LUN with 8 bytes, byte 0 = 1, byte 1
 * the target, bytes 2-3 the LUN in SAM's flat space format (0x40 | high 6
 * bits, low 8 bits), the rest zero.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/kernel.h>
#include <smq/sense.h>
#include "smq_virtio_wire.h"

/**
 * smq_virtio_lun_encode - the 8-byte LUN field of a request or TMF
 * @out: SMQ_VIRTIO_LUN_BYTES bytes
 * @target: target id, at most SMQ_VIRTIO_MAX_TARGET
 * @lun: LUN, at most SMQ_VIRTIO_MAX_LUN
 */
void smq_virtio_lun_encode(u8 *out, unsigned int target, unsigned int lun)
{
	memset(out, 0, SMQ_VIRTIO_LUN_BYTES);
	out[0] = 1;
	out[1] = target & 0xff;
	out[2] = 0x40 | ((lun >> 8) & 0x3f);
	out[3] = lun & 0xff;
}

/**
 * smq_virtio_lun_decode - target and LUN of an event's LUN field
 * @in: SMQ_VIRTIO_LUN_BYTES bytes from the device
 * @target: set to the target id
 * @lun: set to the LUN
 *
 * Accepts the flat space format (0x40) and peripheral format (0x00) of
 * bytes 2-3, as devices send either for LUNs below 256.
 *
 * Return: 0, or -EINVAL when byte 0 is not 1 or the address is not a
 * single-level LUN.
 */
int smq_virtio_lun_decode(const u8 *in, unsigned int *target,
			  unsigned int *lun)
{
	unsigned int i, fmt = in[2] & 0xc0;

	if (in[0] != 1 || (fmt != 0x40 && fmt != 0x00))
		return -EINVAL;
	for (i = 4; i < SMQ_VIRTIO_LUN_BYTES; i++)
		if (in[i])
			return -EINVAL;
	*target = in[1];
	*lun = ((in[2] & 0x3f) << 8) | in[3];
	return 0;
}

/* The host byte of a response code other than OK. */
static u8 smq_virtio_resp_host_byte(u8 response)
{
	switch (response) {
	case SMQ_VIRTIO_S_ABORTED:
		return SMQ_DID_ABORT;
	case SMQ_VIRTIO_S_BAD_TARGET:
	case SMQ_VIRTIO_S_INCORRECT_LUN:
	/* No other path helps: fail without retries, as Linux does. */
	case SMQ_VIRTIO_S_TARGET_FAILURE:
	case SMQ_VIRTIO_S_NEXUS_FAILURE:
		return SMQ_DID_BAD_TARGET;
	case SMQ_VIRTIO_S_RESET:
		return SMQ_DID_RESET;
	case SMQ_VIRTIO_S_BUSY:
		return SMQ_DID_BUS_BUSY;
	case SMQ_VIRTIO_S_TRANSPORT_FAILURE:
		return SMQ_DID_TRANSPORT_DISRUPTED;
	case SMQ_VIRTIO_S_OVERRUN:
	case SMQ_VIRTIO_S_FAILURE:
	default:
		return SMQ_DID_ERROR;
	}
}

/**
 * smq_virtio_decode_resp - the outcome of a request's response
 * @response: virtio_scsi_cmd_resp.response
 * @status: its SAM status
 * @sense_len: its sense_len (device-endian already converted)
 * @resid: its resid
 * @sense_max: sense bytes the response can hold
 * @transfer_len: bytes the command asked to move
 * @res: filled in
 *
 * Only an OK response carries a status and sense; every length from the
 * device is capped, so a lying device cannot make the driver copy past the
 * sense buffer or report more residue than was asked.
 */
void smq_virtio_decode_resp(u8 response, u8 status, u32 sense_len, u32 resid,
			    u32 sense_max, u32 transfer_len,
			    struct smq_virtio_result *res)
{
	memset(res, 0, sizeof(*res));
	if (response != SMQ_VIRTIO_S_OK) {
		res->host_byte = smq_virtio_resp_host_byte(response);
		/* Nothing is known to have moved. */
		res->resid = transfer_len;
		return;
	}
	res->host_byte = SMQ_DID_OK;
	res->status = status;
	res->sense_len = status ? min(sense_len, sense_max) : 0;
	res->resid = min(resid, transfer_len);
}

/**
 * smq_virtio_tmf_ok - whether a task management response means done
 * @response: virtio_scsi_ctrl_tmf_resp.response
 *
 * Return: true for FUNCTION COMPLETE and FUNCTION SUCCEEDED.
 */
bool smq_virtio_tmf_ok(u8 response)
{
	return response == SMQ_VIRTIO_S_FUNCTION_COMPLETE ||
	       response == SMQ_VIRTIO_S_FUNCTION_SUCCEEDED;
}

/* PARAM CHANGE: the reason is the unit attention's ASC | ASCQ << 8. */
static enum smq_virtio_action smq_virtio_param_action(u32 reason)
{
	u8 asc = reason & 0xff, ascq = (reason >> 8) & 0xff;

	/* CAPACITY DATA HAS CHANGED, and the MODE/ LOG PARAMETERS changes
	 * of ASC 0x2a that may concern the capacity, as Linux rescans.
	 */
	if (asc == 0x2a && (ascq == 0x00 || ascq == 0x01 || ascq == 0x09))
		return SMQ_VIRTIO_ACT_RESCAN_LUN;
	/* REPORTED LUNS DATA HAS CHANGED */
	if (asc == 0x3f && ascq == 0x0e)
		return SMQ_VIRTIO_ACT_SCAN_HOST;
	return SMQ_VIRTIO_ACT_NONE;
}

/**
 * smq_virtio_decode_event - what an event from the event queue asks for
 * @event: virtio_scsi_event.event
 * @reason: its reason
 * @lun: its SMQ_VIRTIO_LUN_BYTES LUN field
 * @act: filled in
 *
 * Lost events (EVENTS_MISSED, whatever else is set) ask for a full scan; a
 * transport reset with reason RESCAN adds a LUN, REMOVED removes it; a
 * parameter change rescans capacity or the LUN list.  Anything else, or a
 * LUN field that does not parse, is SMQ_VIRTIO_ACT_NONE.
 */
void smq_virtio_decode_event(u32 event, u32 reason, const u8 *lun,
			     struct smq_virtio_event_action *act)
{
	enum smq_virtio_action a = SMQ_VIRTIO_ACT_NONE;

	memset(act, 0, sizeof(*act));
	if (event & SMQ_VIRTIO_T_EVENTS_MISSED) {
		act->action = SMQ_VIRTIO_ACT_SCAN_HOST;
		return;
	}
	switch (event) {
	case SMQ_VIRTIO_T_TRANSPORT_RESET:
		if (reason == SMQ_VIRTIO_EVT_RESET_RESCAN)
			a = SMQ_VIRTIO_ACT_ADD_LUN;
		else if (reason == SMQ_VIRTIO_EVT_RESET_REMOVED)
			a = SMQ_VIRTIO_ACT_REMOVE_LUN;
		break;
	case SMQ_VIRTIO_T_PARAM_CHANGE:
		a = smq_virtio_param_action(reason);
		break;
	default:
		break;
	}
	if (a == SMQ_VIRTIO_ACT_NONE || a == SMQ_VIRTIO_ACT_SCAN_HOST) {
		act->action = a;
		return;
	}
	if (smq_virtio_lun_decode(lun, &act->target, &act->lun))
		return;
	act->action = a;
}

/**
 * smq_virtio_tmf_resp_name - a task management response's name
 * @response: the code (0 is FUNCTION COMPLETE here, not OK)
 *
 * Return: a constant string.
 */
const char *smq_virtio_tmf_resp_name(u8 response)
{
	if (response == SMQ_VIRTIO_S_FUNCTION_COMPLETE)
		return "FUNCTION_COMPLETE";
	return smq_virtio_resp_name(response);
}

/**
 * smq_virtio_resp_name - a response code's name for messages
 * @response: the code
 *
 * Return: a constant string.
 */
const char *smq_virtio_resp_name(u8 response)
{
	static const char *const names[] = {
		[SMQ_VIRTIO_S_OK] = "OK",
		[SMQ_VIRTIO_S_OVERRUN] = "OVERRUN",
		[SMQ_VIRTIO_S_ABORTED] = "ABORTED",
		[SMQ_VIRTIO_S_BAD_TARGET] = "BAD_TARGET",
		[SMQ_VIRTIO_S_RESET] = "RESET",
		[SMQ_VIRTIO_S_BUSY] = "BUSY",
		[SMQ_VIRTIO_S_TRANSPORT_FAILURE] = "TRANSPORT_FAILURE",
		[SMQ_VIRTIO_S_TARGET_FAILURE] = "TARGET_FAILURE",
		[SMQ_VIRTIO_S_NEXUS_FAILURE] = "NEXUS_FAILURE",
		[SMQ_VIRTIO_S_FAILURE] = "FAILURE",
		[SMQ_VIRTIO_S_FUNCTION_SUCCEEDED] = "FUNCTION_SUCCEEDED",
		[SMQ_VIRTIO_S_FUNCTION_REJECTED] = "FUNCTION_REJECTED",
		[SMQ_VIRTIO_S_INCORRECT_LUN] = "INCORRECT_LUN",
	};

	return response < ARRAY_SIZE(names) ? names[response] : "unknown";
}
