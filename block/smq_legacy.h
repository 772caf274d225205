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
extern const struct smq_debugfs_attr smq_legacy_debugfs_attrs[];

int smq_legacy_init_queue(struct smq_queue *q);
void smq_legacy_exit_queue(struct smq_queue *q);
void smq_legacy_submit_bio(struct smq_queue *q, struct bio *bio);
void smq_legacy_issue_list(struct smq_queue *q, struct list_head *list,
			   bool from_schedule);
void smq_legacy_run_queue(struct smq_queue *q, bool async);
void smq_legacy_delay_run_queue(struct smq_queue *q, unsigned long msecs);
void smq_legacy_requeue(struct smq_request *rq);
void smq_legacy_insert(struct smq_request *rq);
struct smq_request *smq_legacy_get_request(struct smq_queue *q, blk_opf_t opf,
					   bool nowait);
void smq_legacy_free_request(struct smq_request *rq);
unsigned int smq_legacy_max_requests(struct smq_queue *q);
void smq_legacy_set_nr_requests(struct smq_queue *q, unsigned int nr);
void smq_legacy_wake_all(struct smq_queue *q);
ssize_t smq_legacy_sched_show(struct smq_queue *q, char *page);
int smq_legacy_sched_switch(struct smq_queue *q, const char *name);
void smq_legacy_busy_iter(struct smq_queue *q,
			  bool (*fn)(struct smq_request *rq, void *data),
			  void *data);

#endif /* _SMQ_LEGACY_H */
