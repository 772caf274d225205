/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk internals shared by the files of block/.
 */
#ifndef _SMQ_BLK_INT_H
#define _SMQ_BLK_INT_H

#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/kobject.h>
#include <linux/percpu-refcount.h>
#include <linux/workqueue.h>
#include <smq/blk.h>
#include <smq/sbitmap.h>

struct smq_sched_ops;
struct smq_legacy_queue;
struct seq_file;
struct dentry;

/* Queue limits before a disk sets its own */
#define SMQ_DEFAULT_MAX_SECTORS		1024
#define SMQ_DEFAULT_MAX_SEGMENTS	128
#define SMQ_DEFAULT_MAX_SEGMENT_SIZE	65536

/*
 * smq_request.state.  IN_FLIGHT -> COMPLETE is the driver's completion
 * (smq_rq_claim()); IN_FLIGHT -> TIMED_OUT is the timeout scan's claim,
 * during which a completion only marks TIMED_OUT -> TIMED_OUT_DONE and the
 * scan delivers it if the handler gives the request back.
 */
enum {
	SMQ_RQ_IDLE = 0,
	SMQ_RQ_IN_FLIGHT,
	SMQ_RQ_COMPLETE,
	SMQ_RQ_TIMED_OUT,
	SMQ_RQ_TIMED_OUT_DONE,
};

/**
 * struct smq_tags - one tag space and the requests preallocated for it
 * @nr_tags: tags in all, reserved ones included
 * @nr_reserved_tags: tags 0..nr_reserved_tags-1 are reserved
 * @bitmap_tags: normal tags (numbered from nr_reserved_tags)
 * @breserved_tags: reserved tags
 * @rqs: request currently holding each driver tag (NULL when free)
 * @static_rqs: the preallocated request of each tag
 * @rq_pages: the page chunks behind @static_rqs (smq_rqs_alloc())
 */
struct smq_tags {
	unsigned int nr_tags;
	unsigned int nr_reserved_tags;
	struct smq_sbitmap_queue bitmap_tags;
	struct smq_sbitmap_queue breserved_tags;
	struct smq_request **rqs;
	struct smq_request **static_rqs;
	struct list_head rq_pages;
};

/**
 * struct smq_ctx - software queue, one per possible CPU and queue
 * @lock: protects @rq_list
 * @rq_list: requests inserted on this CPU, not yet dispatched
 * @cpu: the CPU
 * @index_hw: bit of this context in its hctx's ctx_map
 * @hctx: hardware queue this CPU maps to
 * @poll_hctx: poll queue this CPU's REQ_POLLED requests go to (tag_set
 *	poll_map), or NULL without poll queues.  Poll queues take no
 *	requests through software queues: what cannot be issued at once goes
 *	to the poll queue's dispatch list (or the scheduler)
 * @q: queue
 */
struct smq_ctx {
	spinlock_t lock;		/* protects rq_list */
	struct list_head rq_list;
	unsigned int cpu;
	unsigned int index_hw;
	struct smq_hw_ctx *hctx;
	struct smq_hw_ctx *poll_hctx;
	struct smq_queue *q;
} ____cacheline_aligned_in_smp;

/* smq_hw_ctx.state bits */
enum {
	SMQ_S_STOPPED,		/* driver stopped it; no dispatch */
	SMQ_S_RESTART,		/* rerun when a request of this queue completes */
	SMQ_S_INACTIVE,		/* no online CPU: no new requests (smq_cpuhp.c) */
};

/**
 * enum smq_hctx_stat - dispatch counters of a hardware queue
 * @SMQ_HCTX_QUEUED: requests inserted (software queue, scheduler,
 *	dispatch list)
 * @SMQ_HCTX_DISPATCHED: requests ->queue_rq accepted
 * @SMQ_HCTX_DIRECT: issues straight from the submitter
 *	(smq_try_issue_direct())
 * @SMQ_HCTX_BUSY: dispatches that stopped on a BUSY or on the budget
 * @SMQ_HCTX_RUNS: runs of the hardware queue
 * @SMQ_HCTX_POLLS: ->poll calls (poll queues)
 * @SMQ_HCTX_POLLED: requests they completed
 * @SMQ_HCTX_BATCHED: requests ended by completion batches
 * @SMQ_HCTX_BATCH_RUNS: runs of this queue's requests they were ended in
 *	(smq_end_request_batch())
 * @SMQ_HCTX_NR_STATS: how many
 */
enum smq_hctx_stat {
	SMQ_HCTX_QUEUED,
	SMQ_HCTX_DISPATCHED,
	SMQ_HCTX_DIRECT,
	SMQ_HCTX_BUSY,
	SMQ_HCTX_RUNS,
	SMQ_HCTX_POLLS,
	SMQ_HCTX_POLLED,
	SMQ_HCTX_BATCHED,
	SMQ_HCTX_BATCH_RUNS,
	SMQ_HCTX_NR_STATS
};

/**
 * struct smq_hctx_stats - one CPU's dispatch counters of a hardware queue
 * @count: indexed by enum smq_hctx_stat
 */
struct smq_hctx_stats {
	unsigned long count[SMQ_HCTX_NR_STATS];
};

/**
 * struct smq_hw_ctx - hardware dispatch queue
 * @lock: protects @dispatch
 * @dispatch: requests taken from software queues that the driver refused
 *	(BUSY) or that were requeued; served before anything else
 * @state: SMQ_S_* bits
 * @ctx_map: bit per software queue with requests pending
 * @ctxs: software queues mapped here
 * @nr_ctx: entries in @ctxs
 * @run_work: runs the queue from a CPU of @cpumask
 * @cpumask: CPUs mapped here
 * @next_cpu: round robin among @cpumask for @run_work
 * @q: queue
 * @queue_num: index in q->hctxs
 * @poll: a poll queue (queue_num >= smq_set_nr_irq_queues()): REQ_POLLED
 *	requests only, reaped by smq_poll_bio() through ->poll
 * @tags: driver tags (shared by all hctxs with SMQ_SET_HOST_TAGSET)
 * @wait_index: rotor over the tag wait queues
 * @dispatch_busy: recent BUSY returns and budget shortages, EWMA; direct
 *	issue backs off, software queues are dispatched one by one
 * @dispatch_from: software queue the next one-by-one dispatch starts at
 *	(a hint: concurrent runs may race on it)
 * @driver_data: from ops->init_hctx
 * @sched_data: scheduler's per-hctx data
 * @kobj: /sys/block/X/mq/<queue_num>
 * @cpuhp_node: instance of smq_blk's CPU hotplug state (smq_cpuhp.c)
 * @cpuhp_added: @cpuhp_node is registered
 * @stats: dispatch counters, per CPU (smq_hctx_stat_add(), smq_hctx_stat())
 */
struct smq_hw_ctx {
	spinlock_t lock;		/* protects dispatch */
	struct list_head dispatch;
	unsigned long state;
	unsigned long *ctx_map;
	struct smq_ctx **ctxs;
	unsigned int nr_ctx;
	struct delayed_work run_work;
	cpumask_var_t cpumask;
	int next_cpu;
	struct smq_queue *q;
	unsigned int queue_num;
	bool poll;
	struct smq_tags *tags;
	atomic_t wait_index;
	unsigned int dispatch_busy;
	unsigned int dispatch_from;
	void *driver_data;
	void *sched_data;
	struct kobject kobj;
	struct hlist_node cpuhp_node;
	bool cpuhp_added;
	struct smq_hctx_stats __percpu *stats;
};

/*
 * Count on a hardware queue's @stats.  Per CPU: the submitters and
 * completers of one hardware queue (several CPUs on one queue) never write
 * a shared cache line for them.  smq_hctx_stat() sums the CPUs' counts.
 */
static inline void smq_hctx_stat_add(struct smq_hw_ctx *hctx,
				     enum smq_hctx_stat stat, unsigned long n)
{
	this_cpu_add(hctx->stats->count[stat], n);
}

static inline void smq_hctx_stat_inc(struct smq_hw_ctx *hctx,
				     enum smq_hctx_stat stat)
{
	this_cpu_inc(hctx->stats->count[stat]);
}

unsigned long smq_hctx_stat(struct smq_hw_ctx *hctx, enum smq_hctx_stat stat);

/**
 * struct smq_queue_ops - one way of running a queue: mq or legacy
 * @name: smq/queue_mode and the debugfs state file's mode=
 * @init_queue: set up the path's state of a new queue (its tag set, limits
 *	and common fields are set); on failure it may leave what it
 *	allocated in the mq fields of @q, which smq_queue_create() frees
 * @exit_queue: tear down a frozen, dying queue's path state (its work
 *	items included); the common fields go afterwards
 * @legacy_elevators: the queue's schedulers are legacy elevators
 *	(struct smq_sched_ops.legacy, default: legacy_scheduler), not
 *	multiqueue schedulers (default: mq_scheduler)
 * @free_queue: free what @init_queue allocated, also after it failed part
 *	way; last, before the queue's memory (optional)
 * @mark_dying: wake tasks waiting to allocate a request (SMQ_Q_DYING set)
 * @submit_bio: bio entry (split to the limits); a hot path
 * @issue_list: issue a flushed plug batch of requests of this queue; a hot
 *	path
 * @get_request: allocate a request of an entered queue (passthrough)
 * @free_request: give back a finished request and its queue reference,
 *	and rerun what waits for it; a hot path
 * @insert_request: queue a passthrough request and run the queue
 * @requeue: put back a request from the requeue list, without running
 *	the queue
 * @run_queues: dispatch what the queue holds (@async: from a work item,
 *	required from atomic context)
 * @delay_run_queues: dispatch after @msecs
 * @busy_iter: call @fn for every in-flight request of the queue (the
 *	timeout scan); @fn may race with completion and must claim
 * @sched_show: smq/scheduler's text
 * @sched_switch: smq/scheduler written (sysfs_lock held)
 * @max_requests: the largest value smq/nr_requests takes
 * @set_nr_requests: smq/nr_requests written (sysfs_lock held)
 * @sysfs_register: add the path's own sysfs directories under the disk
 *	@parent (optional)
 * @sysfs_unregister: remove them (optional)
 * @debugfs_register: add the path's files under the queue's debugfs @dir
 *	(sysfs_lock held)
 * @debugfs_state: append the path's lines to debugfs state (optional)
 *
 * Chosen once, in smq_queue_create(): &smq_mq_queue_ops (smq_mq.c) or
 * &smq_legacy_queue_ops (smq_legacy.c).  Everything else of block/ is
 * common to both.
 */
struct smq_queue_ops {
	const char *name;
	bool legacy_elevators;
	int (*init_queue)(struct smq_queue *q);
	void (*exit_queue)(struct smq_queue *q);
	void (*free_queue)(struct smq_queue *q);
	void (*mark_dying)(struct smq_queue *q);
	void (*submit_bio)(struct smq_queue *q, struct bio *bio);
	void (*issue_list)(struct smq_queue *q, struct list_head *list,
			   bool from_schedule);
	struct smq_request *(*get_request)(struct smq_queue *q, blk_opf_t opf,
					   unsigned int flags);
	void (*free_request)(struct smq_request *rq);
	void (*insert_request)(struct smq_request *rq);
	void (*requeue)(struct smq_request *rq);
	void (*run_queues)(struct smq_queue *q, bool async);
	void (*delay_run_queues)(struct smq_queue *q, unsigned long msecs);
	void (*busy_iter)(struct smq_queue *q,
			  bool (*fn)(struct smq_request *rq, void *data),
			  void *data);
	ssize_t (*sched_show)(struct smq_queue *q, char *page);
	int (*sched_switch)(struct smq_queue *q, const char *name);
	unsigned int (*max_requests)(struct smq_queue *q);
	void (*set_nr_requests)(struct smq_queue *q, unsigned int nr);
	int (*sysfs_register)(struct smq_queue *q, struct kobject *parent);
	void (*sysfs_unregister)(struct smq_queue *q);
	void (*debugfs_register)(struct smq_queue *q, struct dentry *dir);
	void (*debugfs_state)(struct smq_queue *q, struct seq_file *m);
};

extern const struct smq_queue_ops smq_mq_queue_ops;
extern const struct smq_queue_ops smq_legacy_queue_ops;

/* smq_queue.flags bits */
enum {
	SMQ_Q_DYING,		/* no new requests; fail entry */
	SMQ_Q_REGISTERED,	/* sysfs present */
	SMQ_Q_BUDGET_WAIT,	/* a dispatch failed for budget; rerun on put */
};

/**
 * struct smq_queue - one request queue (one per LUN)
 * @ops: the path it runs (mq or legacy), fixed at creation
 * @tag_set: the set it allocates from
 * @tag_set_list: entry in tag_set->tag_list
 * @queuedata: the owner's pointer (the SCSI device)
 * @nr_hw_queues: hardware queues in use: the first entries of @hctxs
 * @hctxs: hardware queues, nr_cpu_ids entries.  smq_tag_set_update()
 *	changes @nr_hw_queues and the entries with the queue frozen and
 *	quiesced, and frees a removed hardware queue (past the new count)
 *	only after an RCU grace period: code that holds no usage reference of the queue (the
 *	queue runs, mark_dying) walks them with smq_nr_hctx() under
 *	rcu_read_lock()
 * @queue_ctx: per-CPU software queues
 * @disk: the gendisk, once allocated
 * @flags: SMQ_Q_* bits
 * @q_usage_counter: requests and entries in progress; killed to freeze
 * @freeze_wq: waiters for a freeze to end or to drain
 * @freeze_lock: protects @freeze_depth (a mutex; nothing is taken under it)
 * @freeze_depth: nested freezes
 * @queue_lock: protects @quiesce_depth and @requeue_list, and orders
 *	writes of @sched against readers outside the data path; irq-safe,
 *	innermost (nothing is taken under it)
 * @quiesce_depth: nested quiesces; dispatch stops while > 0
 * @requeue_list: requests handed back by the driver for a later dispatch
 * @requeue_work: moves @requeue_list back into the queue
 * @sched: scheduler ops, NULL for none; written (smq_sched_set()) under
 *	@sysfs_lock and @queue_lock with the queue frozen and quiesced, read
 *	by the data path without a lock, by debugfs under @queue_lock
 * @sched_data: scheduler's per-queue data
 * @nr_requests: scheduler depth
 * @sysfs_lock: serializes sysfs writes that change the queue shape (a
 *	scheduler switch among them), the removal of @iosched_kobj, and
 *	@debugfs_dir and @sched_debugfs_dir; outermost of the queue's locks
 *	(see Documentation/layout.md, "Locks and their order")
 * @rq_affinity: completion CPU policy (0, 1, 2 as in Linux)
 * @nomerges: 0 merge, 1 simple merges only, 2 never merge
 * @timeout_timer: scans in-flight requests for expired deadlines
 * @timeout_work: runs the scan in process context
 * @smq_kobj: /sys/block/X/smq
 * @mq_kobj: /sys/block/X/mq
 * @iosched_kobj: /sys/block/X/smq/iosched, while a scheduler has files
 * @iosched_group: the files in it, NULL when it does not exist
 * @legacy: the legacy path's state (smq_legacy.c only), else NULL
 * @max_sectors: limit on merged requests
 * @max_segments: limit on merged requests
 * @max_segment_size: largest segment
 * @virt_boundary_mask: no merge leaves a gap inside this boundary (0: none)
 * @write_cache: the device has a volatile write cache (flushes matter);
 *	changed at run time by smq_disk_set_write_cache() (WRITE_ONCE), read
 *	per bio with READ_ONCE()
 * @fua: the device honours FUA; likewise
 * @plug_cache: per CPU, one plug batch kept for reuse (smq_get_plug()), so
 *	the block core's per-bio plug costs no allocation; taken and put back
 *	with this_cpu_xchg()/this_cpu_cmpxchg(), no lock
 * @debugfs_dir: /sys/kernel/debug/smq/<disk> while registered, else NULL
 * @sched_debugfs_dir: its sched/ while the scheduler has debugfs files
 */
struct smq_queue {
	const struct smq_queue_ops *ops;
	struct smq_tag_set *tag_set;
	struct list_head tag_set_list;
	void *queuedata;
	unsigned int nr_hw_queues;
	struct smq_hw_ctx **hctxs;
	struct smq_ctx __percpu *queue_ctx;
	struct gendisk *disk;
	unsigned long flags;
	struct percpu_ref q_usage_counter;
	wait_queue_head_t freeze_wq;
	struct mutex freeze_lock;	/* protects freeze_depth */
	int freeze_depth;
	spinlock_t queue_lock;		/* quiesce_depth, requeue_list */
	int quiesce_depth;
	struct list_head requeue_list;
	struct delayed_work requeue_work;
	const struct smq_sched_ops *sched;
	void *sched_data;
	unsigned int nr_requests;
	struct mutex sysfs_lock;	/* serializes shape changes */
	unsigned int rq_affinity;
	unsigned int nomerges;
	struct timer_list timeout_timer;
	struct work_struct timeout_work;
	struct kobject smq_kobj;
	struct kobject mq_kobj;
	struct kobject iosched_kobj;
	const struct attribute_group *iosched_group;
	struct smq_legacy_queue *legacy;
	unsigned int max_sectors;
	unsigned short max_segments;
	unsigned int max_segment_size;
	unsigned long virt_boundary_mask;
	bool write_cache;
	bool fua;
	struct smq_plug_cb * __percpu *plug_cache;
	struct dentry *debugfs_dir;
	struct dentry *sched_debugfs_dir;
};

/**
 * struct smq_queue_attr - a sysfs file of a queue (smq/ and smq/iosched/)
 * @attr: the attribute
 * @show: read it
 * @store: write it (NULL: read-only)
 */
struct smq_queue_attr {
	struct attribute attr;
	ssize_t (*show)(struct smq_queue *q, char *page);
	ssize_t (*store)(struct smq_queue *q, const char *page, size_t count);
};

/**
 * struct smq_debugfs_attr - a read-only file under /sys/kernel/debug/smq
 * @name: file name; an entry without one ends a table of files
 * @show: print the file's text; @data is what the file's directory
 *	stands for (a queue, a hardware queue, a software queue).  Takes
 *	the locks its data needs and no others: never q->sysfs_lock, under
 *	which the files are removed (removal waits for running readers).
 */
struct smq_debugfs_attr {
	const char *name;
	int (*show)(void *data, struct seq_file *m);
};

extern struct workqueue_struct *smq_wq;

/* smq_tag.c */
struct smq_tags *smq_tags_alloc(struct smq_tag_set *set, unsigned int depth,
				unsigned int reserved, int node);
void smq_tags_free(struct smq_tag_set *set, struct smq_tags *tags,
		   unsigned int hctx_idx);
struct smq_tags *smq_tag_set_alloc_one(struct smq_tag_set *set,
				       unsigned int hctx_idx);
size_t smq_rq_size(const struct smq_tag_set *set);
int smq_rqs_alloc(struct list_head *pages, struct smq_request **rqs,
		  unsigned int nr, size_t rq_size, int node);
void smq_rqs_free(struct list_head *pages);
int smq_tags_alloc_rqs(struct smq_tag_set *set, struct smq_tags *tags,
		       unsigned int hctx_idx);
int smq_get_tag(struct smq_tags *tags, bool reserved, bool nowait,
		struct smq_hw_ctx *hctx, unsigned int shallow);
void smq_queue_limit_depth(struct smq_queue *q, unsigned int depth);
void smq_put_tag(struct smq_tags *tags, unsigned int tag);
void smq_put_tags(struct smq_tags *tags, const unsigned int *tag,
		  unsigned int n);
unsigned int smq_tags_busy(struct smq_tags *tags);
void smq_mq_busy_iter(struct smq_queue *q,
		      bool (*fn)(struct smq_request *rq, void *data),
		      void *data);

/* smq_set_map.c */
int smq_map_queues_default(struct smq_tag_set *set);
int smq_map_check(const struct smq_tag_set *set, unsigned int nr,
		  const unsigned int *map);
int smq_map_poll_queues(struct smq_tag_set *set);

/* smq_mq.c */
int smq_alloc_hctx(struct smq_queue *q, unsigned int idx);
void smq_map_swqueues(struct smq_queue *q);
void smq_mq_submit_bio(struct smq_queue *q, struct bio *bio);

/* smq_freeze.c */
int smq_queue_usage_init(struct smq_queue *q);
bool smq_queue_enter(struct smq_queue *q, bool nowait);
void smq_queue_exit(struct smq_queue *q);
void smq_queue_exit_many(struct smq_queue *q, unsigned int n);
bool smq_queue_quiesced(struct smq_queue *q);

/* smq_request.c */
struct smq_request *smq_get_request(struct smq_queue *q, blk_opf_t opf,
				    unsigned int flags);
void smq_free_request_tags(struct smq_request *rq);
void smq_mq_release_request(struct smq_request *rq);
void smq_rq_init(struct smq_request *rq, struct smq_queue *q,
		 struct smq_ctx *ctx, struct smq_hw_ctx *hctx, blk_opf_t opf);
void smq_rq_init_bio(struct smq_request *rq, struct bio *bio,
		     unsigned int nr_segs);
void smq_mq_free_request(struct smq_request *rq);
unsigned int smq_bio_segments(struct smq_queue *q, struct bio *bio);

/**
 * struct smq_plug_cb - requests batched by one task's blk_plug for a queue
 * @cb: the block core's plug callback (must be first)
 * @list: requests in submission order
 * @count: entries in @list
 */
struct smq_plug_cb {
	struct blk_plug_cb cb;
	struct list_head list;
	unsigned int count;
};

/* smq_submit.c */
/* Queued requests a list merge looks at (smq_bio_merge_list()) */
#define SMQ_MERGE_SCAN		8

bool smq_rq_try_merge(struct smq_queue *q, struct smq_request *rq,
		      struct bio *bio, unsigned int nr_segs);
bool smq_bio_merge_list(struct smq_queue *q, struct list_head *list,
			struct bio *bio, unsigned int nr_segs);
struct smq_request *smq_bio_merge_dl(struct smq_queue *q, struct smq_dl *dl,
				     struct bio *bio, unsigned int nr_segs);
struct smq_plug_cb *smq_get_plug(struct smq_queue *q);
bool smq_plug_merge(struct smq_queue *q, struct smq_plug_cb *plug,
		    struct bio *bio, unsigned int nr_segs);
void smq_plug_add(struct smq_queue *q, struct smq_plug_cb *plug,
		  struct smq_request *rq);
void smq_fail_bio(struct smq_queue *q, struct bio *bio);
bool smq_bio_enter(struct smq_queue *q, struct bio *bio,
		   unsigned int *nr_segs, struct smq_plug_cb **plug);

/*
 * A REQ_POLLED bio now rides on @rq: tell its poller which hardware queue
 * to reap (smq_poll_bio()).  Others keep BLK_QC_T_NONE (bio_init()), for
 * which the kernel's bio_poll() returns at once.
 */
static inline void smq_bio_set_cookie(struct smq_request *rq,
				      struct bio *bio)
{
	/* rq->hctx: NULL on the legacy path, which the kernel never polls. */
	if (unlikely(bio->bi_opf & REQ_POLLED) && rq->hctx)
		WRITE_ONCE(bio->bi_cookie, rq->hctx->queue_num);
}

static inline bool smq_may_merge(const struct smq_queue *q,
				 struct bio *bio)
{
	return q->nomerges < 2 && bio_has_data(bio);
}

/* smq_dispatch.c */
void smq_run_work_fn(struct work_struct *work);
void smq_put_budget(struct smq_request *rq);
bool smq_put_rq_budget_nowake(struct smq_request *rq);
void smq_budget_waiters_run(struct smq_queue *q);
void smq_run_hw_queue(struct smq_hw_ctx *hctx, bool async);
void smq_insert_request(struct smq_request *rq, bool at_head, bool run,
			bool async);
void smq_issue_direct(struct smq_request *rq);
void smq_issue_list(struct smq_queue *q, struct list_head *list,
		    bool from_schedule);
void smq_hctx_restart(struct smq_hw_ctx *hctx);
void smq_requeue_work(struct work_struct *work);
void smq_delay_run_hw_queue(struct smq_hw_ctx *hctx, unsigned long msecs);

/* smq_poll.c */
void smq_poll_reap(struct smq_queue *q);

/* smq_complete.c */
int smq_complete_init(void);
void smq_complete_exit(void);

/* smq_timeout.c */
void smq_timeout_timer(struct timer_list *t);
void smq_timeout_work(struct work_struct *work);
void smq_add_timer(struct smq_request *rq);

/* smq_sysfs.c */
int smq_sysfs_register(struct smq_queue *q);
void smq_sysfs_unregister(struct smq_queue *q);
extern const struct attribute_group *smq_hctx_groups[];
extern const struct sysfs_ops smq_hctx_sysfs_ops;
void smq_hctx_kobj_del(struct smq_hw_ctx *hctx);
unsigned int smq_mq_max_requests(struct smq_queue *q);
int smq_mq_sysfs_register(struct smq_queue *q, struct kobject *parent);
void smq_mq_sysfs_unregister(struct smq_queue *q);

/* smq_cpuhp.c */
int smq_cpuhp_init(void);
void smq_cpuhp_exit(void);
int smq_hctx_cpuhp_add(struct smq_hw_ctx *hctx);
void smq_hctx_cpuhp_del(struct smq_hw_ctx *hctx);
void smq_hctx_update_active(struct smq_queue *q);

/* smq_debugfs.c */
void smq_debugfs_init(void);
void smq_debugfs_exit(void);
void smq_debugfs_register(struct smq_queue *q);
void smq_debugfs_unregister(struct smq_queue *q);
void smq_debugfs_register_sched(struct smq_queue *q);
void smq_debugfs_unregister_sched(struct smq_queue *q);
void smq_debugfs_rq_show(struct seq_file *m, struct smq_request *rq);
void smq_debugfs_rq_list_show(struct seq_file *m, struct list_head *list);
void smq_debugfs_create_files(struct dentry *dir, void *data,
			      const struct smq_debugfs_attr *attrs);
void smq_mq_debugfs_register(struct smq_queue *q, struct dentry *dir);
void smq_mq_debugfs_state(struct smq_queue *q, struct seq_file *m);

/* smq_sched.c */
int smq_sched_switch(struct smq_queue *q, const char *name);
int smq_iosched_sysfs_add(struct smq_queue *q,
			  const struct attribute_group *group);
void smq_iosched_sysfs_del(struct smq_queue *q);

ssize_t smq_sched_show(struct smq_queue *q, char *page);

static inline struct smq_hw_ctx *smq_map_cpu(struct smq_queue *q,
					     unsigned int cpu)
{
	return q->hctxs[q->tag_set->map[cpu]];
}

/**
 * smq_nr_hctx - hardware queues of a queue, for a walk without its usage
 *	reference (queue runs, mark_dying), under rcu_read_lock()
 * @q: multiqueue queue
 *
 * Entries of q->hctxs below the count returned are valid until the read
 * side section ends: smq_tag_set_update() fills new entries before it
 * raises the count and frees removed ones a grace period after it lowered
 * it.  Read each entry with READ_ONCE().
 *
 * Return: the count.
 */
static inline unsigned int smq_nr_hctx(struct smq_queue *q)
{
	/* Pairs with smp_store_release() in smq_update_queue(). */
	return smp_load_acquire(&q->nr_hw_queues);
}

static inline bool smq_hctx_stopped(struct smq_hw_ctx *hctx)
{
	return test_bit(SMQ_S_STOPPED, &hctx->state);
}

#endif /* _SMQ_BLK_INT_H */
