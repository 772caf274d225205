// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas GET LBA STATUS (SERVICE ACTION IN(16), SBC-3).
 *
 * The provisioning status comes from the RAM store: a block in a store
 * page is mapped, a block in a hole (never written, or unmapped) is
 * deallocated; extents therefore start and end on page boundaries (the
 * unmap granularity of the block limits page).  With null backing
 * nothing is stored and every block is reported mapped.
 */
#include <smq/scsi.h>
#include <smq/cdb.h>
#include <smq/sense.h>

#include "smq_sas.h"

/*
 * LBA status descriptors returned at most per command (a caller asks again
 * from the end of the last one, as SBC-3 intends).
 */
#define SMQ_SAS_LBA_DESCS	8

/**
 * smq_sas_get_lba_status - GET LBA STATUS
 * @lun: the LUN
 * @scmd: the command
 *
 * Descriptors from the STARTING LOGICAL BLOCK ADDRESS on, alternating
 * mapped (0) and deallocated (1) extents, at most SMQ_SAS_LBA_DESCS and
 * no more than the allocation length holds (at least one is built; the
 * allocation length truncates it).  A starting LBA beyond the last one
 * is LOGICAL BLOCK ADDRESS OUT OF RANGE.
 *
 * Return: 0.
 */
int smq_sas_get_lba_status(struct smq_sas_lun *lun,
			   struct smq_scsi_cmnd *scmd)
{
	unsigned int shift = lun->host->cfg.block_shift, n = 8, i, max;
	bool ram = lun->host->cfg.backing == SMQ_SAS_BACKING_RAM;
	int alloc = smq_cdb_alloc_len(scmd->cmnd, scmd->cmd_len);
	u64 cap = lun->info.nr_blocks, lba, end_idx;
	u8 d[8 + 16 * SMQ_SAS_LBA_DESCS];

	if (alloc < 0) {
		smq_sas_invalid_field(scmd);
		return 0;
	}
	lba = get_unaligned_be64(&scmd->cmnd[2]);
	if (lba >= cap) {
		smq_sas_check_condition(scmd, SMQ_SK_ILLEGAL_REQUEST,
					SMQ_ASC_LBA_OUT_OF_RANGE);
		return 0;
	}
	max = clamp_t(int, (alloc - 8) / 16, 1, SMQ_SAS_LBA_DESCS);
	end_idx = DIV_ROUND_UP(cap << shift, PAGE_SIZE);
	memset(d, 0, sizeof(d));
	for (i = 0; i < max && lba < cap; i++, n += 16) {
		u64 next = cap;
		bool mapped = true;

		if (ram) {
			unsigned long next_idx;

			mapped = smq_sas_store_mapped(&lun->store,
						      (lba << shift) >> PAGE_SHIFT,
						      end_idx, &next_idx);
			next = min_t(u64, cap,
				     ((u64)next_idx << PAGE_SHIFT) >> shift);
		}
		next = min_t(u64, next, lba + U32_MAX);
		put_unaligned_be64(lba, &d[n]);
		put_unaligned_be32(next - lba, &d[n + 8]);
		d[n + 12] = mapped ? 0 : 1;	/* PROVISIONING STATUS */
		lba = next;
	}
	put_unaligned_be32(n - 4, &d[0]);
	smq_sas_data_in(scmd, d, min_t(unsigned int, n, alloc));
	return 0;
}
