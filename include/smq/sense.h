/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq SCSI sense data, status and completion disposition.
 *
 * Parsing: fixed (0x70/0x71) and descriptor (0x72/0x73) sense are
 * normalized into struct smq_sense_hdr; every accessor takes the number
 * of valid bytes and never reads past it or past the ADDITIONAL SENSE
 * LENGTH.  Building: the emulated target produces either format.
 *
 * smq_scsi_decide() maps a completion (host byte, SAM status, sense) to
 * an enum smq_disposition.  Suggested blk_status_t mapping for the scsi
 * layer: OK -> BLK_STS_OK; RETRY -> retry while retries remain, then
 * BLK_STS_IOERR; REQUEUE -> requeue without using up a retry;
 * NOT_SUPPORTED -> BLK_STS_NOTSUPP (and stop issuing the command, e.g.
 * disable discard after a rejected UNMAP / WRITE SAME); INVALID ->
 * BLK_STS_TARGET; TARGET_ERROR -> BLK_STS_IOERR; MEDIUM_ERROR ->
 * BLK_STS_MEDIUM; NOSPC -> BLK_STS_NOSPC; PROTECTION ->
 * BLK_STS_PROTECTION; RESV_CONFLICT -> BLK_STS_RESV_CONFLICT
 * (BLK_STS_NEXUS on 6.1); TRANSPORT -> BLK_STS_TRANSPORT.
 *
 * Names are smq_-prefixed: the kernel's scsi headers define the plain ones.
 */
#ifndef _SMQ_SENSE_H
#define _SMQ_SENSE_H

#include <linux/types.h>

#define SMQ_SENSE_MAX			96
#define SMQ_SENSE_FIXED_LEN		18
#define SMQ_SENSE_DESC_LEN		8
#define SMQ_SENSE_DESC_INFO_LEN		20

/* SAM status codes */
#define SMQ_SAM_STAT_GOOD			0x00
#define SMQ_SAM_STAT_CHECK_CONDITION		0x02
#define SMQ_SAM_STAT_CONDITION_MET		0x04
#define SMQ_SAM_STAT_BUSY			0x08
#define SMQ_SAM_STAT_INTERMEDIATE		0x10
#define SMQ_SAM_STAT_INTERMEDIATE_CONDITION_MET	0x14
#define SMQ_SAM_STAT_RESERVATION_CONFLICT	0x18
#define SMQ_SAM_STAT_COMMAND_TERMINATED		0x22
#define SMQ_SAM_STAT_TASK_SET_FULL		0x28
#define SMQ_SAM_STAT_ACA_ACTIVE			0x30
#define SMQ_SAM_STAT_TASK_ABORTED		0x40

/* Host bytes (driver-reported transport outcome) */
#define SMQ_DID_OK			0x00
#define SMQ_DID_NO_CONNECT		0x01
#define SMQ_DID_BUS_BUSY		0x02
#define SMQ_DID_TIME_OUT		0x03
#define SMQ_DID_BAD_TARGET		0x04
#define SMQ_DID_ABORT			0x05
#define SMQ_DID_PARITY			0x06
#define SMQ_DID_ERROR			0x07
#define SMQ_DID_RESET			0x08
#define SMQ_DID_BAD_INTR		0x09
#define SMQ_DID_PASSTHROUGH		0x0a
#define SMQ_DID_SOFT_ERROR		0x0b
#define SMQ_DID_IMM_RETRY		0x0c
#define SMQ_DID_REQUEUE			0x0d
#define SMQ_DID_TRANSPORT_DISRUPTED	0x0e
#define SMQ_DID_TRANSPORT_FAILFAST	0x0f
#define SMQ_DID_TRANSPORT_MARGINAL	0x14

/* Sense keys */
#define SMQ_SK_NO_SENSE			0x0
#define SMQ_SK_RECOVERED_ERROR		0x1
#define SMQ_SK_NOT_READY		0x2
#define SMQ_SK_MEDIUM_ERROR		0x3
#define SMQ_SK_HARDWARE_ERROR		0x4
#define SMQ_SK_ILLEGAL_REQUEST		0x5
#define SMQ_SK_UNIT_ATTENTION		0x6
#define SMQ_SK_DATA_PROTECT		0x7
#define SMQ_SK_BLANK_CHECK		0x8
#define SMQ_SK_VENDOR_SPECIFIC		0x9
#define SMQ_SK_COPY_ABORTED		0xa
#define SMQ_SK_ABORTED_COMMAND		0xb
#define SMQ_SK_VOLUME_OVERFLOW		0xd
#define SMQ_SK_MISCOMPARE		0xe
#define SMQ_SK_COMPLETED		0xf

/* Additional sense code and qualifier, as (ASC << 8 | ASCQ) */
#define SMQ_ASC_NO_ADDITIONAL_INFO	0x0000
#define SMQ_ASC_LUN_BECOMING_READY	0x0401
#define SMQ_ASC_LUN_NEED_INIT_CMD	0x0402
#define SMQ_ASC_LUN_NEED_MANUAL		0x0403
#define SMQ_ASC_WRITE_ERROR		0x0c00
#define SMQ_ASC_GUARD_CHECK_FAILED	0x1001
#define SMQ_ASC_UNRECOVERED_READ	0x1100
#define SMQ_ASC_PARAM_LIST_LENGTH	0x1a00
#define SMQ_ASC_INVALID_OPCODE		0x2000
#define SMQ_ASC_LBA_OUT_OF_RANGE	0x2100
#define SMQ_ASC_INVALID_FIELD_IN_CDB	0x2400
#define SMQ_ASC_LUN_NOT_SUPPORTED	0x2500
#define SMQ_ASC_INVALID_FIELD_IN_PARAM	0x2600
#define SMQ_ASC_WRITE_PROTECTED		0x2700
#define SMQ_ASC_SPACE_ALLOC_FAILED	0x2707
#define SMQ_ASC_POWER_ON_RESET		0x2900
#define SMQ_ASC_MODE_PARAMS_CHANGED	0x2a01
#define SMQ_ASC_CAPACITY_CHANGED	0x2a09
#define SMQ_ASC_MEDIUM_NOT_PRESENT	0x3a00
#define SMQ_ASC_REPORTED_LUNS_CHANGED	0x3f0e
#define SMQ_ASC_INTERNAL_TARGET_FAILURE	0x4400
#define SMQ_ASC_DATA_PHASE_ERROR	0x4b00

/* Sense descriptor types */
#define SMQ_SENSE_DESC_INFORMATION	0x00
#define SMQ_SENSE_DESC_CMD_SPECIFIC	0x01
#define SMQ_SENSE_DESC_KEY_SPECIFIC	0x02

/**
 * struct smq_sense_hdr - sense data normalized from either format
 * @response_code: 0x70..0x73.
 * @sense_key: sense key.
 * @asc: additional sense code.
 * @ascq: additional sense code qualifier.
 * @additional_length: ADDITIONAL SENSE LENGTH (descriptor format only).
 * @descriptor: descriptor format (0x72/0x73).
 * @deferred: deferred error (0x71/0x73): about an earlier command.
 */
struct smq_sense_hdr {
	u8 response_code, sense_key, asc, ascq, additional_length;
	bool descriptor, deferred;
};

/**
 * enum smq_disposition - what to do with a completed command
 * @SMQ_DISP_OK: success.
 * @SMQ_DISP_RETRY: transient failure, retry (bounded).
 * @SMQ_DISP_REQUEUE: busy, requeue without using up a retry.
 * @SMQ_DISP_NOT_SUPPORTED: the device does not support the command.
 * @SMQ_DISP_INVALID: the device rejected the request as invalid.
 * @SMQ_DISP_TARGET_ERROR: the device failed it (hardware, not ready...).
 * @SMQ_DISP_MEDIUM_ERROR: unrecoverable medium error.
 * @SMQ_DISP_NOSPC: out of space (thin provisioning).
 * @SMQ_DISP_PROTECTION: protection information check failed.
 * @SMQ_DISP_RESV_CONFLICT: reservation conflict.
 * @SMQ_DISP_TRANSPORT: the target cannot be reached.
 */
enum smq_disposition {
	SMQ_DISP_OK,
	SMQ_DISP_RETRY,
	SMQ_DISP_REQUEUE,
	SMQ_DISP_NOT_SUPPORTED,
	SMQ_DISP_INVALID,
	SMQ_DISP_TARGET_ERROR,
	SMQ_DISP_MEDIUM_ERROR,
	SMQ_DISP_NOSPC,
	SMQ_DISP_PROTECTION,
	SMQ_DISP_RESV_CONFLICT,
	SMQ_DISP_TRANSPORT,
};

bool smq_sense_normalize(const u8 *buf, unsigned int len,
			 struct smq_sense_hdr *hdr);
const u8 *smq_sense_find_desc(const u8 *buf, unsigned int len, u8 type,
			      unsigned int *desc_len);
bool smq_sense_info(const u8 *buf, unsigned int len, u64 *info);
bool smq_sense_good_blocks(const u8 *buf, unsigned int len, u64 lba,
			   u32 nr_blocks, u32 *good);
int smq_sense_build(u8 *buf, unsigned int len, bool desc, u8 key,
		    u16 asc_ascq);
int smq_sense_build_info(u8 *buf, unsigned int len, bool desc, u8 key,
			 u16 asc_ascq, u64 info);
enum smq_disposition smq_scsi_decide(u8 opcode, u8 host_byte, u8 status,
				     const u8 *sense, unsigned int sense_len);
const char *smq_disposition_name(enum smq_disposition disp);

/**
 * smq_sense_asc_ascq() - ASC and ASCQ of a header as one value
 * @hdr: normalized sense.
 *
 * Return: ASC << 8 | ASCQ, comparable with SMQ_ASC_*.
 */
static inline u16 smq_sense_asc_ascq(const struct smq_sense_hdr *hdr)
{
	return hdr->asc << 8 | hdr->ascq;
}

#endif /* _SMQ_SENSE_H */
