/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk: I/O scheduler interface for the multiqueue path.
 *
 * A scheduler registers a struct smq_sched_ops by name with
 * smq_sched_register(), usually from the init function of its own module
 * (smq-mq-deadline.ko, smq-deadline-iosched.ko), as Linux's elevators do
 * with elv_register().  A multiqueue queue runs either no scheduler
 * ("none": software queues and direct issue, built into smq_blk) or one
 * registered multiqueue scheduler; a legacy queue runs the built-in "noop"
 * elevator or one registered legacy elevator (@legacy set).  Selecting a
 * name that is not registered asks for module "smq-<name>-iosched"
 * (request_module(), answered by the module's file name or its
 * MODULE_ALIAS()), and a queue holds a reference on the module of the
 * scheduler it runs until it switches away or dies.
 *
 * Requests hold their driver tag from allocation, as with none: the
 * scheduler orders what waits for the device (its per-LUN budget), and
 * the tag depth bounds what it holds (nr_requests).
 */
#ifndef _SMQ_SCHED_H
#define _SMQ_SCHED_H

#include "smq_blk_int.h"

/* Longest scheduler name, like Linux's ELV_NAME_MAX (with the NUL). */
#define SMQ_SCHED_NAME_MAX	16

/**
 * struct smq_legacy_elv - a legacy-path elevator's operations; every call
 *	under the legacy queue's queue_lock
 * @init: allocate the elevator's state for a queue (NULL: no memory)
 * @exit: free it (the queue is drained)
 * @add: queue a request
 * @next: remove and return the next request to dispatch, or NULL
 * @merge: merge a bio into a queued request; true when merged
 */
struct smq_legacy_elv {
	void *(*init)(struct smq_queue *q);
	void (*exit)(void *data);
	void (*add)(void *data, struct smq_request *rq);
	struct smq_request *(*next)(void *data);
	bool (*merge)(void *data, struct smq_queue *q, struct bio *bio,
		      unsigned int nr_segs);
};

/**
 * struct smq_sched_ops - an I/O scheduler (Linux's struct elevator_type)
 * @name: what the scheduler file shows and accepts (shorter than
 *	SMQ_SCHED_NAME_MAX); unique per path
 * @owner: module providing it (THIS_MODULE); a queue running the
 *	scheduler holds a reference on it
 * @list: entry in the registry (smq_sched_lock)
 * @legacy: for a legacy-path elevator (use_blk_mq=N; Linux 4.x's
 *	elevator_type without uses_mq), its operations; the multiqueue
 *	operations below are then unused.  NULL for a multiqueue scheduler,
 *	which must set at least @init_sched, @exit_sched, @insert_requests,
 *	@dispatch_request and @has_work.
 * @init_sched: set up q->sched_data
 * @exit_sched: free it
 * @bio_merge: try to merge a bio into a queued request
 * @insert_requests: take requests (list emptied)
 * @dispatch_request: next request for the driver, or NULL
 * @dispatch_batch: move up to @max requests, in dispatch order, onto the
 *	tail of @list under one hold of the scheduler's lock; returns how
 *	many (optional: queue runs call @dispatch_request once per request
 *	without it)
 * @nr_queued: how many requests the scheduler holds, at most (optional;
 *	with @dispatch_batch, sizes a queue run's rounds: the device budget
 *	for a round is taken before its requests)
 * @has_work: whether @dispatch_request would return one; false also lets
 *	a new request bypass the scheduler (direct issue to an idle
 *	hardware queue), so it must be true while the scheduler holds any
 *	request
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
	const struct smq_legacy_elv *legacy;
	int (*init_sched)(struct smq_queue *q);
	void (*exit_sched)(struct smq_queue *q);
	bool (*bio_merge)(struct smq_queue *q, struct bio *bio,
			  unsigned int nr_segs);
	void (*insert_requests)(struct smq_hw_ctx *hctx, struct list_head *list,
				bool at_head);
	struct smq_request *(*dispatch_request)(struct smq_hw_ctx *hctx);
	unsigned int (*dispatch_batch)(struct smq_hw_ctx *hctx,
				       struct list_head *list, unsigned int max);
	unsigned int (*nr_queued)(struct smq_hw_ctx *hctx);
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
const struct smq_sched_ops *smq_sched_get(const char *name, bool legacy);
void smq_sched_put(const struct smq_sched_ops *ops);
ssize_t smq_sched_list_show(char *page, ssize_t len,
			    const struct smq_sched_ops *cur, bool legacy);
void smq_sched_init_queue(struct smq_queue *q);
bool smq_sched_bio_merge(struct smq_queue *q, struct bio *bio,
			 unsigned int nr_segs);
void smq_sched_exit_queue(struct smq_queue *q);
const struct smq_sched_ops *smq_sched_detach(struct smq_queue *q);
void smq_sched_attach(struct smq_queue *q, const struct smq_sched_ops *ops);
void smq_sched_set_nr_requests(struct smq_queue *q, unsigned int nr);

#endif /* _SMQ_SCHED_H */
