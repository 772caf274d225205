// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas LOG SENSE.
 *
 * Pages (SPC-4 / SBC-3):
 *   0x00        supported pages; subpage 0xff: supported pages and subpages
 *   0x02, 0x03, 0x05  write, read, verify error counters: parameters
 *               0000h-0006h, 8-byte counters; the emulated medium never
 *               errs, so all are 0 but TOTAL BYTES PROCESSED (0005h), the
 *               bytes the LUN wrote, read or verified since it was created
 *   0x06        non-medium error count: 0
 *   0x0d        temperature (38 C) and reference temperature (65 C)
 *   0x2f        informational exceptions: none (ASC 0), temperature 38 C
 *
 * Page control: cumulative values (01b) are the values above; threshold
 * (00b, 10b) and default cumulative (11b) values are 0, except that the
 * temperature page reports the same readings whatever the page control.
 * The PARAMETER POINTER returns parameters from that code on (a pointer
 * beyond the last code of the page is an invalid field).  SP (saving) is
 * not supported: an invalid field.  The allocation length truncates the
 * page, the PAGE LENGTH still counts all of it.
 */
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

#define SMQ_LOG_SUPPORTED	0x00
#define SMQ_LOG_WRITE_ERRORS	0x02
#define SMQ_LOG_READ_ERRORS	0x03
#define SMQ_LOG_VERIFY_ERRORS	0x05
#define SMQ_LOG_NON_MEDIUM	0x06
#define SMQ_LOG_TEMPERATURE	0x0d
#define SMQ_LOG_IE		0x2f

#define SMQ_LOG_PC_CUMULATIVE	1
#define SMQ_SAS_TEMPERATURE	38	/* degrees Celsius */
#define SMQ_SAS_REF_TEMPERATURE	65

/* Error counter pages: parameters 0000h..0006h, 0005h bytes processed. */
#define SMQ_LOG_NR_COUNTERS	7
#define SMQ_LOG_BYTES_PROCESSED	5

static const u8 smq_sas_log_pages[] = {
	SMQ_LOG_SUPPORTED, SMQ_LOG_WRITE_ERRORS, SMQ_LOG_READ_ERRORS,
	SMQ_LOG_VERIFY_ERRORS, SMQ_LOG_NON_MEDIUM, SMQ_LOG_TEMPERATURE,
	SMQ_LOG_IE,
};

/* A log parameter: code @code, control byte @ctl, @len value bytes. */
static u8 *smq_log_param(u8 *p, u16 code, u8 ctl, u8 len)
{
	put_unaligned_be16(code, p);
	p[2] = ctl;
	p[3] = len;
	memset(&p[4], 0, len);
	return &p[4];
}

/* A counter of @lun: the sum of its CPUs' counts. */
static u64 smq_sas_lun_stat(struct smq_sas_lun *lun, enum smq_sas_lun_stat stat)
{
	u64 sum = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(lun->stats, cpu)->count[stat]);
	return sum;
}

/*
 * Build page @page / @subpage of @lun in @d from parameter code @ppc on.
 * Return: the page's length with its header, or -EINVAL.
 */
static int smq_sas_log_page(struct smq_sas_lun *lun, u8 page, u8 subpage,
			    u8 pc, u16 ppc, u8 *d)
{
	bool cum = pc == SMQ_LOG_PC_CUMULATIVE;
	unsigned int i, n = 4, last;
	enum smq_sas_lun_stat bytes;

	d[0] = page;
	d[1] = subpage;
	if (subpage && !(page == SMQ_LOG_SUPPORTED && subpage == 0xff))
		return -EINVAL;
	switch (page) {
	case SMQ_LOG_SUPPORTED:
		if (ppc)
			return -EINVAL;
		if (subpage) {
			d[0] |= 0x40;		/* SPF */
			for (i = 0; i < ARRAY_SIZE(smq_sas_log_pages); i++) {
				d[n++] = smq_sas_log_pages[i];
				d[n++] = 0;
				if (!smq_sas_log_pages[i]) {
					d[n++] = 0;
					d[n++] = 0xff;
				}
			}
		} else {
			memcpy(&d[4], smq_sas_log_pages,
			       sizeof(smq_sas_log_pages));
			n += sizeof(smq_sas_log_pages);
		}
		break;
	case SMQ_LOG_WRITE_ERRORS:
	case SMQ_LOG_READ_ERRORS:
	case SMQ_LOG_VERIFY_ERRORS:
		bytes = page == SMQ_LOG_WRITE_ERRORS ? SMQ_SAS_BYTES_WRITTEN :
			page == SMQ_LOG_READ_ERRORS ? SMQ_SAS_BYTES_READ :
			SMQ_SAS_BYTES_VERIFIED;
		last = SMQ_LOG_NR_COUNTERS - 1;
		if (ppc > last)
			return -EINVAL;
		for (i = ppc; i <= last; i++) {
			u8 *v = smq_log_param(&d[n], i, 0x00, 8);

			if (cum && i == SMQ_LOG_BYTES_PROCESSED)
				put_unaligned_be64(smq_sas_lun_stat(lun, bytes), v);
			n += 12;
		}
		break;
	case SMQ_LOG_NON_MEDIUM:
		if (ppc)
			return -EINVAL;
		smq_log_param(&d[n], 0, 0x00, 8);
		n += 12;
		break;
	case SMQ_LOG_TEMPERATURE:
		if (ppc > 1)
			return -EINVAL;
		if (!ppc) {
			smq_log_param(&d[n], 0, 0x03, 2)[1] =
				SMQ_SAS_TEMPERATURE;
			n += 6;
		}
		smq_log_param(&d[n], 1, 0x03, 2)[1] = SMQ_SAS_REF_TEMPERATURE;
		n += 6;
		break;
	case SMQ_LOG_IE:
		if (ppc)
			return -EINVAL;
		/* IE ASC, IE ASCQ (none), most recent temperature */
		smq_log_param(&d[n], 0, 0x03, 3)[2] = SMQ_SAS_TEMPERATURE;
		n += 7;
		break;
	default:
		return -EINVAL;
	}
	put_unaligned_be16(n - 4, &d[2]);
	return n;
}

/**
 * smq_sas_log_sense - LOG SENSE
 * @lun: the LUN
 * @scmd: the command
 *
 * Return: 0.
 */
int smq_sas_log_sense(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd)
{
	const u8 *cdb = scmd->cmnd;
	int alloc = smq_cdb_alloc_len(cdb, scmd->cmd_len);
	u8 d[4 + SMQ_LOG_NR_COUNTERS * 12];
	int n;

	if (alloc < 0 || (cdb[1] & 0x01)) {	/* SP */
		smq_sas_invalid_field(scmd);
		return 0;
	}
	n = smq_sas_log_page(lun, cdb[2] & 0x3f, cdb[3], cdb[2] >> 6,
			     get_unaligned_be16(&cdb[5]), d);
	if (n < 0) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	smq_sas_data_in(scmd, d, min(n, alloc));
	return 0;
}
