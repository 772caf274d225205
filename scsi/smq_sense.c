// SPDX-License-Identifier: GPL-2.0
/*
 * smq sense data: parsing, building and the completion disposition
 * (see include/smq/sense.h).  Layouts: SPC-4 4.5.
 */
#include <linux/array_size.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <smq/unaligned.h>
#include <smq/sense.h>

/* Commands whose rejection means "stop using this feature". */
#define SMQ_SENSE_OP_WRITE_SAME_10	0x41
#define SMQ_SENSE_OP_UNMAP		0x42
#define SMQ_SENSE_OP_WRITE_SAME_16	0x93

static u8 smq_sense_rc(const u8 *buf)
{
	return buf[0] & 0x7f;
}

/**
 * smq_sense_normalize() - decode the header of fixed or descriptor sense
 * @buf: sense data.
 * @len: valid bytes in @buf.
 * @hdr: output; zeroed first, fields beyond @len stay zero.
 *
 * Fixed format is also bounded by its ADDITIONAL SENSE LENGTH.
 *
 * Return: true if @buf holds sense data with response code 0x70-0x73.
 */
bool smq_sense_normalize(const u8 *buf, unsigned int len,
			 struct smq_sense_hdr *hdr)
{
	u8 rc;

	memset(hdr, 0, sizeof(*hdr));
	if (!buf || !len)
		return false;
	rc = smq_sense_rc(buf);
	if (rc < 0x70 || rc > 0x73)
		return false;
	hdr->response_code = rc;
	hdr->descriptor = rc >= 0x72;
	hdr->deferred = rc & 1;
	if (hdr->descriptor) {
		if (len > 1)
			hdr->sense_key = buf[1] & 0x0f;
		if (len > 2)
			hdr->asc = buf[2];
		if (len > 3)
			hdr->ascq = buf[3];
		if (len > 7)
			hdr->additional_length = buf[7];
		return true;
	}
	if (len > 2)
		hdr->sense_key = buf[2] & 0x0f;
	if (len > 7) {
		len = min(len, buf[7] + 8U);
		if (len > 12)
			hdr->asc = buf[12];
		if (len > 13)
			hdr->ascq = buf[13];
	}
	return true;
}
EXPORT_SYMBOL_GPL(smq_sense_normalize);

/**
 * smq_sense_find_desc() - find a descriptor in descriptor-format sense
 * @buf: sense data.
 * @len: valid bytes in @buf.
 * @type: descriptor type (SMQ_SENSE_DESC_*).
 * @desc_len: output (may be NULL): the descriptor's full length.
 *
 * Only descriptors lying wholly within @len and the ADDITIONAL SENSE
 * LENGTH are considered; a truncated one ends the search.
 *
 * Return: pointer to the descriptor inside @buf, or NULL.
 */
const u8 *smq_sense_find_desc(const u8 *buf, unsigned int len, u8 type,
			      unsigned int *desc_len)
{
	unsigned int p, end;

	if (!buf || len < 8)
		return NULL;
	if (smq_sense_rc(buf) != 0x72 && smq_sense_rc(buf) != 0x73)
		return NULL;
	end = min(len, buf[7] + 8U);
	for (p = 8; p + 2 <= end; p += 2 + buf[p + 1]) {
		if (p + 2 + buf[p + 1] > end)
			return NULL;
		if (buf[p] == type) {
			if (desc_len)
				*desc_len = 2 + buf[p + 1];
			return &buf[p];
		}
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(smq_sense_find_desc);

/**
 * smq_sense_info() - the INFORMATION field (e.g. the failing LBA)
 * @buf: sense data.
 * @len: valid bytes in @buf.
 * @info: output.
 *
 * Fixed format: bytes 3-6 when VALID is set.  Descriptor format: the
 * information descriptor (type 0, length 0x0a) with VALID set.
 *
 * Return: true if a valid INFORMATION field was found.
 */
bool smq_sense_info(const u8 *buf, unsigned int len, u64 *info)
{
	struct smq_sense_hdr hdr;
	unsigned int dlen;
	const u8 *d;

	if (!smq_sense_normalize(buf, len, &hdr))
		return false;
	if (!hdr.descriptor) {
		if (!(buf[0] & 0x80) || len < 7)
			return false;
		*info = get_unaligned_be32(&buf[3]);
		return true;
	}
	d = smq_sense_find_desc(buf, len, SMQ_SENSE_DESC_INFORMATION, &dlen);
	if (!d || dlen < 12 || !(d[2] & 0x80))
		return false;
	*info = get_unaligned_be64(&d[4]);
	return true;
}
EXPORT_SYMBOL_GPL(smq_sense_info);

/**
 * smq_sense_good_blocks() - blocks a failed READ/WRITE moved before its error
 * @buf: sense data of the failed command.
 * @len: valid bytes in @buf.
 * @lba: first block of the command.
 * @nr_blocks: blocks of the command.
 * @good: output: blocks from @lba before the failing one.
 *
 * A MEDIUM ERROR, or a HARDWARE ERROR with a valid INFORMATION field,
 * names the first failing block in INFORMATION (SBC-4 4.18); the blocks
 * before it were transferred.  Deferred errors are about another
 * command and give nothing.
 *
 * Return: true when @buf is such an error with INFORMATION in
 * [@lba, @lba + @nr_blocks); false otherwise (@good untouched).
 */
bool smq_sense_good_blocks(const u8 *buf, unsigned int len, u64 lba,
			   u32 nr_blocks, u32 *good)
{
	struct smq_sense_hdr hdr;
	u64 info;

	if (!smq_sense_normalize(buf, len, &hdr) || hdr.deferred)
		return false;
	if (hdr.sense_key != SMQ_SK_MEDIUM_ERROR &&
	    hdr.sense_key != SMQ_SK_HARDWARE_ERROR)
		return false;
	if (!smq_sense_info(buf, len, &info))
		return false;
	if (info < lba || info - lba >= nr_blocks)
		return false;
	*good = (u32)(info - lba);
	return true;
}
EXPORT_SYMBOL_GPL(smq_sense_good_blocks);

/**
 * smq_sense_build() - build current sense data
 * @buf: output.
 * @len: room in @buf.
 * @desc: descriptor format (0x72) rather than fixed (0x70).
 * @key: sense key.
 * @asc_ascq: SMQ_ASC_* (ASC << 8 | ASCQ).
 *
 * Return: the sense length (18 fixed, 8 descriptor), or -EINVAL if
 * @len is too small.
 */
int smq_sense_build(u8 *buf, unsigned int len, bool desc, u8 key,
		    u16 asc_ascq)
{
	unsigned int n = desc ? SMQ_SENSE_DESC_LEN : SMQ_SENSE_FIXED_LEN;

	if (!buf || len < n)
		return -EINVAL;
	memset(buf, 0, n);
	if (desc) {
		buf[0] = 0x72;
		buf[1] = key & 0x0f;
		buf[2] = asc_ascq >> 8;
		buf[3] = asc_ascq & 0xff;
	} else {
		buf[0] = 0x70;
		buf[2] = key & 0x0f;
		buf[7] = n - 8;
		buf[12] = asc_ascq >> 8;
		buf[13] = asc_ascq & 0xff;
	}
	return n;
}
EXPORT_SYMBOL_GPL(smq_sense_build);

/**
 * smq_sense_build_info() - build current sense data with INFORMATION
 * @buf: output.
 * @len: room in @buf.
 * @desc: descriptor format rather than fixed.
 * @key: sense key.
 * @asc_ascq: SMQ_ASC_*.
 * @info: INFORMATION (e.g. the first failing LBA).
 *
 * Fixed format can only carry 32 bits: a larger @info leaves VALID
 * clear.  Descriptor format adds an information descriptor.
 *
 * Return: the sense length (18 or 20), or -EINVAL if @len is too small.
 */
int smq_sense_build_info(u8 *buf, unsigned int len, bool desc, u8 key,
			 u16 asc_ascq, u64 info)
{
	int n;

	if (desc && len < SMQ_SENSE_DESC_INFO_LEN)
		return -EINVAL;
	n = smq_sense_build(buf, len, desc, key, asc_ascq);
	if (n < 0)
		return n;
	if (!desc) {
		if (info <= U32_MAX) {
			buf[0] |= 0x80;
			put_unaligned_be32((u32)info, &buf[3]);
		}
		return n;
	}
	buf[7] = 12;
	buf[8] = SMQ_SENSE_DESC_INFORMATION;
	buf[9] = 0x0a;
	buf[10] = 0x80;			/* VALID */
	buf[11] = 0;
	put_unaligned_be64(info, &buf[12]);
	return SMQ_SENSE_DESC_INFO_LEN;
}
EXPORT_SYMBOL_GPL(smq_sense_build_info);

static enum smq_disposition smq_decide_host(u8 host_byte)
{
	switch (host_byte) {
	case SMQ_DID_REQUEUE:
	case SMQ_DID_IMM_RETRY:
		return SMQ_DISP_REQUEUE;
	/* A disrupted transport uses up retries, as in Linux. */
	case SMQ_DID_TRANSPORT_DISRUPTED:
	case SMQ_DID_BUS_BUSY:
	case SMQ_DID_TIME_OUT:
	case SMQ_DID_ABORT:
	case SMQ_DID_PARITY:
	case SMQ_DID_ERROR:
	case SMQ_DID_RESET:
	case SMQ_DID_SOFT_ERROR:
		return SMQ_DISP_RETRY;
	case SMQ_DID_NO_CONNECT:
	case SMQ_DID_BAD_TARGET:
	case SMQ_DID_TRANSPORT_FAILFAST:
	case SMQ_DID_TRANSPORT_MARGINAL:
		return SMQ_DISP_TRANSPORT;
	default:
		return SMQ_DISP_TARGET_ERROR;
	}
}

/* NOT READY that goes away by itself (SBC/SPC "in progress" states). */
static bool smq_not_ready_transient(const struct smq_sense_hdr *h)
{
	if (h->asc != 0x04)
		return false;
	switch (h->ascq) {
	case 0x01:	/* becoming ready */
	case 0x04:	/* format in progress */
	case 0x05:	/* rebuild in progress */
	case 0x06:	/* recalculation in progress */
	case 0x07:	/* operation in progress */
	case 0x08:	/* long write in progress */
	case 0x09:	/* self-test in progress */
	case 0x0a:	/* asymmetric access state transition */
	case 0x11:	/* notify (enable spinup) required */
	case 0x14:	/* space allocation in progress */
	case 0x1a:	/* start stop unit in progress */
	case 0x1b:	/* sanitize in progress */
	case 0x1d:	/* configuration in progress */
	case 0x24:	/* depopulation in progress */
	case 0x25:	/* depopulation restore in progress */
		return true;
	default:
		return false;
	}
}

static enum smq_disposition smq_decide_illegal(u8 opcode,
					       const struct smq_sense_hdr *h)
{
	bool feature = opcode == SMQ_SENSE_OP_UNMAP ||
		       opcode == SMQ_SENSE_OP_WRITE_SAME_10 ||
		       opcode == SMQ_SENSE_OP_WRITE_SAME_16;

	if (h->asc == 0x10)
		return SMQ_DISP_PROTECTION;
	if (h->asc == 0x20)
		return SMQ_DISP_NOT_SUPPORTED;
	if (feature && (h->asc == 0x24 || h->asc == 0x26))
		return SMQ_DISP_NOT_SUPPORTED;
	return SMQ_DISP_INVALID;
}

static enum smq_disposition smq_decide_sense(u8 opcode, const u8 *sense,
					     unsigned int sense_len)
{
	struct smq_sense_hdr h;

	if (!smq_sense_normalize(sense, sense_len, &h))
		return SMQ_DISP_TARGET_ERROR;
	if (h.deferred)
		return SMQ_DISP_RETRY;
	switch (h.sense_key) {
	case SMQ_SK_NO_SENSE:
	case SMQ_SK_RECOVERED_ERROR:
		return SMQ_DISP_OK;
	case SMQ_SK_NOT_READY:
		return smq_not_ready_transient(&h) ? SMQ_DISP_RETRY :
						     SMQ_DISP_TARGET_ERROR;
	case SMQ_SK_MEDIUM_ERROR:
		return h.asc == 0x10 ? SMQ_DISP_PROTECTION :
				       SMQ_DISP_MEDIUM_ERROR;
	case SMQ_SK_ILLEGAL_REQUEST:
		return smq_decide_illegal(opcode, &h);
	case SMQ_SK_UNIT_ATTENTION:
		return SMQ_DISP_RETRY;
	case SMQ_SK_DATA_PROTECT:
		return smq_sense_asc_ascq(&h) == SMQ_ASC_SPACE_ALLOC_FAILED ?
		       SMQ_DISP_NOSPC : SMQ_DISP_TARGET_ERROR;
	case SMQ_SK_ABORTED_COMMAND:
		return h.asc == 0x10 ? SMQ_DISP_PROTECTION : SMQ_DISP_RETRY;
	default:
		return SMQ_DISP_TARGET_ERROR;
	}
}

/**
 * smq_scsi_decide() - disposition of a completed command
 * @opcode: the command's operation code (first CDB byte).
 * @host_byte: SMQ_DID_* reported by the host driver.
 * @status: SAM status byte.
 * @sense: sense data for CHECK CONDITION (may be NULL).
 * @sense_len: valid bytes in @sense.
 *
 * Return: what the caller should do; see include/smq/sense.h.
 */
enum smq_disposition smq_scsi_decide(u8 opcode, u8 host_byte, u8 status,
				     const u8 *sense, unsigned int sense_len)
{
	if (host_byte != SMQ_DID_OK)
		return smq_decide_host(host_byte);
	switch (status) {
	case SMQ_SAM_STAT_GOOD:
	case SMQ_SAM_STAT_CONDITION_MET:
	case SMQ_SAM_STAT_INTERMEDIATE:
	case SMQ_SAM_STAT_INTERMEDIATE_CONDITION_MET:
		return SMQ_DISP_OK;
	case SMQ_SAM_STAT_BUSY:
	case SMQ_SAM_STAT_TASK_SET_FULL:
		return SMQ_DISP_REQUEUE;
	case SMQ_SAM_STAT_ACA_ACTIVE:
	case SMQ_SAM_STAT_TASK_ABORTED:
		return SMQ_DISP_RETRY;
	case SMQ_SAM_STAT_RESERVATION_CONFLICT:
		return SMQ_DISP_RESV_CONFLICT;
	case SMQ_SAM_STAT_CHECK_CONDITION:
	case SMQ_SAM_STAT_COMMAND_TERMINATED:
		return smq_decide_sense(opcode, sense, sense_len);
	default:
		return SMQ_DISP_TARGET_ERROR;
	}
}
EXPORT_SYMBOL_GPL(smq_scsi_decide);

/**
 * smq_disposition_name() - name of a disposition, for logs
 * @disp: the disposition.
 *
 * Return: a constant string.
 */
const char *smq_disposition_name(enum smq_disposition disp)
{
	static const char *const names[] = {
		[SMQ_DISP_OK] = "ok",
		[SMQ_DISP_RETRY] = "retry",
		[SMQ_DISP_REQUEUE] = "requeue",
		[SMQ_DISP_NOT_SUPPORTED] = "not-supported",
		[SMQ_DISP_INVALID] = "invalid",
		[SMQ_DISP_TARGET_ERROR] = "target-error",
		[SMQ_DISP_MEDIUM_ERROR] = "medium-error",
		[SMQ_DISP_NOSPC] = "nospc",
		[SMQ_DISP_PROTECTION] = "protection",
		[SMQ_DISP_RESV_CONFLICT] = "reservation-conflict",
		[SMQ_DISP_TRANSPORT] = "transport",
	};

	if ((unsigned int)disp >= ARRAY_SIZE(names) || !names[disp])
		return "unknown";
	return names[disp];
}
EXPORT_SYMBOL_GPL(smq_disposition_name);
