/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk: I/O scheduler interface for the multiqueue path.
 *
 * A scheduler registers a struct smq_sched_ops by name; a queue runs
 * either no scheduler ("none": software queues and direct issue) or one
 * of them.  Requests hold their driver tag from allocation, as with none:
 * the scheduler orders what waits for the device (its per-LUN budget),
 * and the tag depth bounds what it holds (nr_requests).
 */
#ifndef _SMQ_SCHED_H
#define _SMQ_SCHED_H

#include "smq_blk_int.h"

/**
 * struct smq_sched_ops - an I/O scheduler
 * @name: what the scheduler file shows and accepts
 * @owner: module providing it
 * @list: entry in the registry
 * @init_sched: set up q->sched_data
 * @exit_sched: free it
 * @bio_merge: try to merge a bio into a queued request
 * @insert_requests: take requests (list emptied)
 * @dispatch_request: next request for the driver, or NULL
 * @has_work: whether @dispatch_request would return one
 * @limit_depth: tags a new request of @opf may choose from (optional)
 * @depth_updated: the queue's nr_requests changed (frozen queue; optional)
 * @prepare_request: a request was allocated
 * @finish_request: a request is freed
 * @attrs: files under /sys/block/X/smq/iosched
 * @debugfs_attrs: files under /sys/kernel/debug/smq/<disk>/sched/ (their
 *	data is the queue; the table ends with an entry without a name), or
 *	NULL.  The directory exists while the scheduler runs the queue: it is
 *	removed (waiting for readers) before @exit_sched.
 */
struct smq_sched_ops {
	const char *name;
	struct module *owner;
	struct list_head list;
	int (*init_sched)(struct smq_queue *q);
	void (*exit_sched)(struct smq_queue *q);
	bool (*bio_merge)(struct smq_queue *q, struct bio *bio,
			  unsigned int nr_segs);
	void (*insert_requests)(struct smq_hw_ctx *hctx, struct list_head *list,
				bool at_head);
	struct smq_request *(*dispatch_request)(struct smq_hw_ctx *hctx);
	bool (*has_work)(struct smq_hw_ctx *hctx);
	unsigned int (*limit_depth)(struct smq_queue *q, blk_opf_t opf);
	void (*depth_updated)(struct smq_queue *q);
	void (*prepare_request)(struct smq_request *rq);
	void (*finish_request)(struct smq_request *rq);
	const struct attribute_group *attrs;
	const struct smq_debugfs_attr *debugfs_attrs;
};

int smq_sched_register(struct smq_sched_ops *ops);
void smq_sched_unregister(struct smq_sched_ops *ops);
bool smq_sched_bio_merge(struct smq_queue *q, struct bio *bio,
			 unsigned int nr_segs);
void smq_sched_exit_queue(struct smq_queue *q);
void smq_sched_set_nr_requests(struct smq_queue *q, unsigned int nr);

#endif /* _SMQ_SCHED_H */
