// SPDX-License-Identifier: GPL-2.0
/*
 * smq-mq-deadline.ko: the mq-deadline scheduler of the multiqueue path.
 *
 * A module of its own, like Linux's mq-deadline.ko, with the alias
 * "smq-mq-deadline-iosched" (Linux's: "mq-deadline-iosched"), which smq_blk
 * asks for when "mq-deadline" is selected and not registered.  The "smq-"
 * prefix keeps its names apart from the kernel's own mq-deadline.
 *
 * The deadline rules live in the pure core (block/smq_dl.c).  This wrapper
 * is built so that submitters on many CPUs do not serialize on one lock
 * (the collapse of seed 001: shared host tags, many hardware queues,
 * mq-deadline spending most of its time in the spinlock slow path):
 *
 *  - insertion is lock-free: a request goes onto one lock-free list
 *    (llist, through rq->elv.llist) of the queue, stamped with its
 *    insertion time (rq->elv.insert_time), from which its FIFO expiry
 *    counts;
 *  - the CPU that dispatches takes dd->lock once, moves everything
 *    inserted meanwhile into the sorted trees and FIFOs, and picks the
 *    next request.  A dispatcher that finds the lock taken does not spin
 *    and does not punt to a worker: it flags SMQ_DD_RERUN and leaves.  The
 *    holder looks at the flag after unlocking (a store-buffer pairing of
 *    full barriers: either the dispatcher's second trylock finds the lock
 *    free, or the holder sees the flag): a dispatching holder simply goes
 *    on dispatching (it rechecks has_work), any other holder (a bio merge,
 *    an insertion at the head, a sysfs file) reruns the queue.
 *
 * Counters of how often a submitter or dispatcher found the lock busy are
 * in iosched/lock_stats.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/llist.h>
#include <linux/slab.h>
#include <linux/seq_file.h>
#include "smq_sched.h"

/**
 * struct smq_mq_dl - per-queue mq-deadline state
 * @lock: protects @dl (trees, FIFOs, batch state, tunables)
 * @dl: the deadline core
 * @inserted: requests inserted, not yet moved into @dl (lock-free)
 * @queued: requests in @inserted or @dl
 * @lock_acquired: times @lock was taken
 * @lock_busy: times a trylock found @lock taken
 * @merges: bios merged into queued requests
 * @batches: dispatches that took at least one request (one lock hold each)
 * @batched: requests those dispatches took
 * @async_depth: tags a write or an async read may choose from (under
 *	@lock when written; read without it)
 * @flags: SMQ_DD_RERUN: a dispatcher found @lock taken and left
 */
struct smq_mq_dl {
	spinlock_t lock;		/* protects dl */
	struct smq_dl dl;
	struct llist_head inserted;
	atomic_t queued;
	atomic_long_t lock_acquired;
	atomic_long_t lock_busy;
	atomic_long_t merges;
	atomic_long_t batches;
	atomic_long_t batched;
	unsigned int async_depth;
	unsigned long flags;
};

#define SMQ_DD_RERUN	0

static int smq_mq_dl_dir(const struct smq_request *rq)
{
	return op_is_write(smq_rq_op(rq)) ? SMQ_DL_WRITE : SMQ_DL_READ;
}

static struct smq_request *smq_mq_dl_to_rq(struct smq_dl_node *n)
{
	return n ? container_of(n, struct smq_request, dl_node) : NULL;
}

static int smq_mq_dl_init(struct smq_queue *q)
{
	struct smq_mq_dl *dd = kzalloc(sizeof(*dd), GFP_KERNEL);
	struct smq_dl_params p;

	if (!dd)
		return -ENOMEM;
	spin_lock_init(&dd->lock);
	smq_dl_params_default(&p, HZ);
	smq_dl_init(&dd->dl, &p);
	init_llist_head(&dd->inserted);
	dd->async_depth = q->nr_requests;
	q->sched_data = dd;
	return 0;
}

static void smq_mq_dl_exit(struct smq_queue *q)
{
	struct smq_mq_dl *dd = q->sched_data;

	WARN_ON_ONCE(atomic_read(&dd->queued));
	kfree(dd);
	q->sched_data = NULL;
}

/* Move lock-free insertions into the core, oldest first; dd->lock held. */
static void smq_mq_dl_drain(struct smq_mq_dl *dd)
	__must_hold(&dd->lock)
{
	struct llist_node *list;
	struct smq_request *rq, *next;

	lockdep_assert_held(&dd->lock);
	list = llist_reverse_order(llist_del_all(&dd->inserted));
	llist_for_each_entry_safe(rq, next, list, elv.llist) {
		smq_dl_node_init(&rq->dl_node, rq->sector, smq_rq_sectors(rq),
				 smq_mq_dl_dir(rq));
		smq_dl_insert(&dd->dl, &rq->dl_node, rq->elv.insert_time, false);
	}
}

/* Take dd->lock outside dispatch (merges, head insertion, sysfs). */
static void smq_mq_dl_lock(struct smq_mq_dl *dd)
	__acquires(&dd->lock)
{
	if (!spin_trylock(&dd->lock)) {
		atomic_long_inc(&dd->lock_busy);
		spin_lock(&dd->lock);
	}
	atomic_long_inc(&dd->lock_acquired);
}

/*
 * Drop dd->lock.  Returns true when a dispatcher gave up on the lock while
 * it was held: the caller must see that the queue is dispatched.
 */
static bool smq_mq_dl_unlock_rerun(struct smq_mq_dl *dd)
	__releases(&dd->lock)
{
	spin_unlock(&dd->lock);
	/* Pairs with smp_mb() in smq_mq_dl_dispatch_request(). */
	smp_mb();
	return test_bit(SMQ_DD_RERUN, &dd->flags) &&
	       test_and_clear_bit(SMQ_DD_RERUN, &dd->flags);
}

/* Drop dd->lock taken by smq_mq_dl_lock(); run the queue if a dispatcher left. */
static void smq_mq_dl_unlock(struct smq_mq_dl *dd, struct smq_queue *q)
	__releases(&dd->lock)
{
	if (smq_mq_dl_unlock_rerun(dd))
		smq_run_hw_queues(q, true);
}

static void smq_mq_dl_insert_requests(struct smq_hw_ctx *hctx,
				      struct list_head *list, bool at_head)
{
	struct smq_mq_dl *dd = hctx->q->sched_data;
	struct smq_request *rq, *next;

	list_for_each_entry_safe(rq, next, list, queuelist) {
		list_del_init(&rq->queuelist);
		atomic_inc(&dd->queued);
		if (at_head) {
			smq_mq_dl_lock(dd);
			smq_dl_node_init(&rq->dl_node, rq->sector,
					 smq_rq_sectors(rq), smq_mq_dl_dir(rq));
			smq_dl_insert(&dd->dl, &rq->dl_node, jiffies, true);
			smq_mq_dl_unlock(dd, hctx->q);
			continue;
		}
		rq->elv.insert_time = jiffies;
		llist_add(&rq->elv.llist, &dd->inserted);
	}
}

/*
 * Move up to @max requests, in the core's dispatch order, onto @list under
 * one hold of dd->lock: the lock is taken once per queue run's batch, not
 * once per request.
 */
static unsigned int smq_mq_dl_dispatch_batch(struct smq_hw_ctx *hctx,
					     struct list_head *list,
					  unsigned int max)
{
	struct smq_mq_dl *dd = hctx->q->sched_data;
	unsigned long now = jiffies;
	unsigned int n = 0;

	if (!spin_trylock(&dd->lock)) {
		atomic_long_inc(&dd->lock_busy);
		set_bit(SMQ_DD_RERUN, &dd->flags);
		/* Pairs with smp_mb() in smq_mq_dl_unlock_rerun(). */
		smp_mb__after_atomic();
		if (!spin_trylock(&dd->lock))
			return 0;	/* the holder sees SMQ_DD_RERUN */
	}
	atomic_long_inc(&dd->lock_acquired);
	smq_mq_dl_drain(dd);
	while (n < max) {
		struct smq_request *rq;

		rq = smq_mq_dl_to_rq(smq_dl_dispatch(&dd->dl, now));
		if (!rq)
			break;
		list_add_tail(&rq->queuelist, list);
		n++;
	}
	/* A flagged dispatcher is served by our caller's has_work loop. */
	smq_mq_dl_unlock_rerun(dd);
	if (n) {
		atomic_sub(n, &dd->queued);
		atomic_long_inc(&dd->batches);
		atomic_long_add(n, &dd->batched);
	}
	return n;
}

static struct smq_request *smq_mq_dl_dispatch_request(struct smq_hw_ctx *hctx)
{
	LIST_HEAD(list);

	if (!smq_mq_dl_dispatch_batch(hctx, &list, 1))
		return NULL;
	return list_first_entry(&list, struct smq_request, queuelist);
}

/* Writes and async reads leave room for sync reads (iosched/async_depth). */
static unsigned int smq_mq_dl_limit_depth(struct smq_queue *q, blk_opf_t opf)
{
	struct smq_mq_dl *dd = q->sched_data;

	if (op_is_sync(opf) && !op_is_write(opf))
		return UINT_MAX;
	return READ_ONCE(dd->async_depth);
}

/* nr_requests changed (frozen queue): async requests may use all of it. */
static void smq_mq_dl_depth_updated(struct smq_queue *q)
{
	struct smq_mq_dl *dd = q->sched_data;

	smq_mq_dl_lock(dd);
	WRITE_ONCE(dd->async_depth, q->nr_requests);
	smq_mq_dl_unlock(dd, q);
}

static bool smq_mq_dl_has_work(struct smq_hw_ctx *hctx)
{
	struct smq_mq_dl *dd = hctx->q->sched_data;

	return atomic_read(&dd->queued) > 0;
}

/* Requests queued: an upper bound of what the next dispatch returns. */
static unsigned int smq_mq_dl_nr_queued(struct smq_hw_ctx *hctx)
{
	struct smq_mq_dl *dd = hctx->q->sched_data;

	return max(atomic_read(&dd->queued), 0);
}

static bool smq_mq_dl_bio_merge(struct smq_queue *q, struct bio *bio,
				unsigned int nr_segs)
{
	struct smq_mq_dl *dd = q->sched_data;
	bool merged;

	if (!atomic_read(&dd->queued))
		return false;
	smq_mq_dl_lock(dd);
	smq_mq_dl_drain(dd);
	merged = smq_bio_merge_dl(q, &dd->dl, bio, nr_segs);
	if (merged)
		atomic_long_inc(&dd->merges);
	smq_mq_dl_unlock(dd, q);
	return merged;
}

/* ---- iosched/ files: Linux's names and units --------------------- */

static int smq_mq_dl_parse(const char *page, u64 min, u64 max, const char *name,
			   u64 *v)
{
	if (kstrtou64(page, 0, v) || *v < min || *v > max) {
		pr_err("iosched/%s: invalid value '%.*s' (%llu..%llu)\n",
		       name, (int)strcspn(page, "\n"), page, min, max);
		return -EINVAL;
	}
	return 0;
}

/*
 * The core's tunables, iosched/<_n>: SMQ_DD_SHOW() and SMQ_DD_STORE()
 * define the file's show and store functions (_ms: shown and set in ms,
 * kept in jiffies; _max: the largest value accepted), SMQ_DD_ATTR() the
 * attribute.
 */
#define SMQ_DD_SHOW(_n, _ms)							\
static ssize_t smq_mq_dl_##_n##_show(struct smq_queue *q, char *page)		\
{										\
	struct smq_mq_dl *dd = q->sched_data;					\
	u64 v;									\
										\
	smq_mq_dl_lock(dd);							\
	v = dd->dl.params._n;							\
	smq_mq_dl_unlock(dd, q);							\
	return sysfs_emit(page, "%llu\n", _ms ? jiffies_to_msecs(v) : v);	\
}

#define SMQ_DD_STORE(_n, _max, _ms)						\
static ssize_t smq_mq_dl_##_n##_store(struct smq_queue *q, const char *page,	\
				   size_t count)				\
{										\
	struct smq_mq_dl *dd = q->sched_data;					\
	u64 v;									\
										\
	if (smq_mq_dl_parse(page, 0, _max, #_n, &v))				\
		return -EINVAL;							\
	if (_ms)								\
		v = msecs_to_jiffies(v);					\
	smq_mq_dl_lock(dd);							\
	dd->dl.params._n = v;							\
	smq_mq_dl_unlock(dd, q);							\
	return count;								\
}

#define SMQ_DD_ATTR(_n)								\
static struct smq_queue_attr smq_mq_dl_attr_##_n = {				\
	.attr = { .name = #_n, .mode = 0644 },					\
	.show = smq_mq_dl_##_n##_show,						\
	.store = smq_mq_dl_##_n##_store,						\
}

SMQ_DD_SHOW(read_expire, true)
SMQ_DD_STORE(read_expire, 3600000, true)
SMQ_DD_ATTR(read_expire);
SMQ_DD_SHOW(write_expire, true)
SMQ_DD_STORE(write_expire, 3600000, true)
SMQ_DD_ATTR(write_expire);
SMQ_DD_SHOW(writes_starved, false)
SMQ_DD_STORE(writes_starved, 1024, false)
SMQ_DD_ATTR(writes_starved);
SMQ_DD_SHOW(fifo_batch, false)
SMQ_DD_STORE(fifo_batch, 1024, false)
SMQ_DD_ATTR(fifo_batch);
SMQ_DD_SHOW(front_merges, false)
SMQ_DD_STORE(front_merges, 1, false)
SMQ_DD_ATTR(front_merges);

static ssize_t smq_mq_dl_async_depth_show(struct smq_queue *q, char *page)
{
	struct smq_mq_dl *dd = q->sched_data;

	return sysfs_emit(page, "%u\n", READ_ONCE(dd->async_depth));
}

static ssize_t smq_mq_dl_async_depth_store(struct smq_queue *q, const char *page,
					   size_t count)
{
	struct smq_mq_dl *dd = q->sched_data;
	unsigned int max = READ_ONCE(q->nr_requests);
	u64 v;

	if (smq_mq_dl_parse(page, 1, max, "async_depth", &v))
		return -EINVAL;
	/* Waiters limited to v tags must be woken: prepare the tags first. */
	smq_queue_limit_depth(q, v);
	smq_mq_dl_lock(dd);
	WRITE_ONCE(dd->async_depth, v);
	smq_mq_dl_unlock(dd, q);
	return count;
}

static struct smq_queue_attr smq_mq_dl_attr_async_depth = {
	.attr = { .name = "async_depth", .mode = 0644 },
	.show = smq_mq_dl_async_depth_show,
	.store = smq_mq_dl_async_depth_store,
};

static ssize_t smq_mq_dl_lock_stats_show(struct smq_queue *q, char *page)
{
	struct smq_mq_dl *dd = q->sched_data;

	return sysfs_emit(page,
			  "acquired %ld busy %ld merges %ld batches %ld batched %ld\n",
			  atomic_long_read(&dd->lock_acquired),
			  atomic_long_read(&dd->lock_busy),
			  atomic_long_read(&dd->merges),
			  atomic_long_read(&dd->batches),
			  atomic_long_read(&dd->batched));
}

static struct smq_queue_attr smq_mq_dl_attr_lock_stats = {
	.attr = { .name = "lock_stats", .mode = 0444 },
	.show = smq_mq_dl_lock_stats_show,
};

static struct attribute *smq_mq_dl_attrs[] = {
	&smq_mq_dl_attr_read_expire.attr,
	&smq_mq_dl_attr_write_expire.attr,
	&smq_mq_dl_attr_writes_starved.attr,
	&smq_mq_dl_attr_fifo_batch.attr,
	&smq_mq_dl_attr_front_merges.attr,
	&smq_mq_dl_attr_async_depth.attr,
	&smq_mq_dl_attr_lock_stats.attr,
	NULL,
};

static const struct attribute_group smq_mq_dl_attr_group = {
	.attrs = smq_mq_dl_attrs,
};

/* ---- debugfs: /sys/kernel/debug/smq/<disk>/sched/ ------------------ */

/* Milliseconds from now until @t (jiffies), negative when @t has passed. */
static long long smq_mq_dl_ms_from_now(u64 t)
{
	s64 d = (s64)(t - (u64)jiffies);

	return d >= 0 ? (long long)jiffies_to_msecs(d) :
			-(long long)jiffies_to_msecs(-d);
}

/* One line per request of a FIFO (or the at-head list); dd->lock held. */
static void smq_mq_dl_fifo_show(struct seq_file *m, struct smq_mq_dl *dd,
				struct list_head *fifo, const char *time)
	__must_hold(&dd->lock)
{
	struct smq_dl_node *n;

	lockdep_assert_held(&dd->lock);
	list_for_each_entry(n, fifo, fifo) {
		struct smq_request *rq = smq_mq_dl_to_rq(n);

		seq_printf(m, "tag=%d sector=%llu bytes=%u %s=%lld\n",
			   rq->tag, n->sector, smq_rq_bytes(rq), time,
			   smq_mq_dl_ms_from_now(n->fifo_time));
	}
}

/*
 * {read,write}_fifo_list: the sorted requests of a direction in FIFO
 * order with the ms left until each expires (negative: expired), under
 * dd->lock.  Requests inserted since the last dispatch wait on the
 * lock-free list and are not in a FIFO yet (see "queued").
 */
#define SMQ_DD_FIFO_SHOW(_name, _dir)					\
static int smq_mq_dl_##_name##_fifo_show(void *data, struct seq_file *m)	\
{									\
	struct smq_queue *q = data;					\
	struct smq_mq_dl *dd = q->sched_data;				\
									\
	smq_mq_dl_lock(dd);						\
	smq_mq_dl_fifo_show(m, dd, &dd->dl.fifo[_dir], "expires_ms");	\
	smq_mq_dl_unlock(dd, q);						\
	return 0;							\
}

SMQ_DD_FIFO_SHOW(read, SMQ_DL_READ)
SMQ_DD_FIFO_SHOW(write, SMQ_DL_WRITE)

/*
 * dispatch: requests inserted at the head (requeues), dispatched before
 * anything else, most recent first, with the ms since each was inserted
 * (negative), under dd->lock.
 */
static int smq_mq_dl_dispatch_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_mq_dl *dd = q->sched_data;

	smq_mq_dl_lock(dd);
	smq_mq_dl_fifo_show(m, dd, &dd->dl.at_head, "inserted_ms");
	smq_mq_dl_unlock(dd, q);
	return 0;
}

/*
 * batch: the state that decides the next dispatch, under dd->lock:
 * requests dispatched in the current batch, batches that preferred reads
 * over waiting writes, the current batch's direction, and per direction
 * the sector the next batch continues from.
 */
static int smq_mq_dl_batch_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_mq_dl *dd = q->sched_data;
	unsigned int batching, starved;
	u64 pos[SMQ_DL_NR_DIRS];
	int dir;

	smq_mq_dl_lock(dd);
	batching = dd->dl.batching;
	starved = dd->dl.starved;
	dir = dd->dl.last_dir;
	pos[SMQ_DL_READ] = dd->dl.latest_pos[SMQ_DL_READ];
	pos[SMQ_DL_WRITE] = dd->dl.latest_pos[SMQ_DL_WRITE];
	smq_mq_dl_unlock(dd, q);

	seq_printf(m, "batching=%u\nstarved=%u\nlast_dir=%s\nread_latest_pos=%llu\nwrite_latest_pos=%llu\n",
		   batching, starved, dir == SMQ_DL_READ ? "read" : "write",
		   pos[SMQ_DL_READ], pos[SMQ_DL_WRITE]);
	return 0;
}

/*
 * queued: requests in the scheduler, under dd->lock: per direction in
 * the core (sorted and at head), and those still on the lock-free
 * insertion list (only emptied under dd->lock, so it can be walked).
 */
static int smq_mq_dl_queued_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	struct smq_mq_dl *dd = q->sched_data;
	unsigned int reads, writes, inserted = 0;
	struct llist_node *node;

	smq_mq_dl_lock(dd);
	reads = smq_dl_count(&dd->dl, SMQ_DL_READ);
	writes = smq_dl_count(&dd->dl, SMQ_DL_WRITE);
	llist_for_each(node, READ_ONCE(dd->inserted.first))
		inserted++;
	smq_mq_dl_unlock(dd, q);

	seq_printf(m, "reads=%u\nwrites=%u\ninserted=%u\ntotal=%d\n", reads,
		   writes, inserted, atomic_read(&dd->queued));
	return 0;
}

static const struct smq_debugfs_attr smq_mq_dl_debugfs_attrs[] = {
	{ "read_fifo_list", smq_mq_dl_read_fifo_show },
	{ "write_fifo_list", smq_mq_dl_write_fifo_show },
	{ "dispatch", smq_mq_dl_dispatch_show },
	{ "batch", smq_mq_dl_batch_show },
	{ "queued", smq_mq_dl_queued_show },
	{ },
};

static struct smq_sched_ops smq_mq_deadline = {
	.name = "mq-deadline",
	.owner = THIS_MODULE,
	.init_sched = smq_mq_dl_init,
	.exit_sched = smq_mq_dl_exit,
	.bio_merge = smq_mq_dl_bio_merge,
	.insert_requests = smq_mq_dl_insert_requests,
	.dispatch_request = smq_mq_dl_dispatch_request,
	.dispatch_batch = smq_mq_dl_dispatch_batch,
	.nr_queued = smq_mq_dl_nr_queued,
	.has_work = smq_mq_dl_has_work,
	.limit_depth = smq_mq_dl_limit_depth,
	.depth_updated = smq_mq_dl_depth_updated,
	.attrs = &smq_mq_dl_attr_group,
	.debugfs_attrs = smq_mq_dl_debugfs_attrs,
};

static int __init smq_mq_dl_module_init(void)
{
	return smq_sched_register(&smq_mq_deadline);
}

static void __exit smq_mq_dl_module_exit(void)
{
	smq_sched_unregister(&smq_mq_deadline);
}

module_init(smq_mq_dl_module_init);
module_exit(smq_mq_dl_module_exit);
MODULE_ALIAS("smq-mq-deadline-iosched");
MODULE_DESCRIPTION("smq mq-deadline I/O scheduler");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
