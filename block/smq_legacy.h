/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk: the single-queue (legacy) path, use_blk_mq=N.
 */
#ifndef _SMQ_LEGACY_H
#define _SMQ_LEGACY_H

#include "smq_blk_int.h"

/**
 * struct smq_legacy_elv - a legacy elevator; every call under queue_lock
 * @name: what the scheduler file shows and accepts
 * @init: allocate the elevator's state for a queue (NULL: no memory)
 * @exit: free it (the queue is drained)
 * @add: queue a request
 * @next: remove and return the next request to dispatch, or NULL
 * @merge: merge a bio into a queued request; true when merged
 */
struct smq_legacy_elv {
	const char *name;
	void *(*init)(struct smq_queue *q);
	void (*exit)(void *data);
	void (*add)(void *data, struct smq_request *rq);
	struct smq_request *(*next)(void *data);
	bool (*merge)(void *data, struct smq_queue *q, struct bio *bio,
		      unsigned int nr_segs);
};

extern const struct smq_legacy_elv smq_legacy_deadline;

#endif /* _SMQ_LEGACY_H */
