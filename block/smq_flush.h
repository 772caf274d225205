/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk: cache flush sequencing (PREFLUSH and FUA on a request).
 */
#ifndef _SMQ_FLUSH_H
#define _SMQ_FLUSH_H

#include "smq_blk_int.h"

bool smq_flush_prepare_bio(struct smq_queue *q, struct bio *bio);
void smq_flush_prepare_rq(struct smq_request *rq);
bool smq_flush_next_step(struct smq_request *rq);

#endif
