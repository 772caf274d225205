/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk: the single-queue (legacy) path, use_blk_mq=N.
 *
 * Not built yet: the seam the mq code calls through.  Tag sets asking for
 * it are refused with a clear error (smq_tag_set_init()).
 */
#ifndef _SMQ_LEGACY_H
#define _SMQ_LEGACY_H

#include "smq_blk_int.h"

static inline bool smq_legacy_available(void)
{
	return false;
}

static inline int smq_legacy_init_queue(struct smq_queue *q)
{
	return -EOPNOTSUPP;
}

static inline void smq_legacy_exit_queue(struct smq_queue *q)
{
}

static inline void smq_legacy_submit_bio(struct smq_queue *q, struct bio *bio)
{
	bio_io_error(bio);
}

static inline void smq_legacy_run_queue(struct smq_queue *q, bool async)
{
}

static inline void smq_legacy_delay_run_queue(struct smq_queue *q,
					      unsigned long msecs)
{
}

static inline void smq_legacy_requeue(struct smq_request *rq)
{
}

#endif /* _SMQ_LEGACY_H */
