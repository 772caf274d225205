/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_blk public API: what the SCSI midlayer (and any other user of the
 * smq block layer) sees.  Internal structures live in block/smq_blk_int.h.
 *
 * Shape, borrowed from blk-mq:
 *   struct smq_tag_set   - one per host: hardware queue count, depth, tags,
 *                          preallocated requests, driver ops
 *   struct smq_queue     - one per LUN: software queues (one per CPU),
 *                          hardware queues, scheduler, freeze state
 *   struct smq_request   - one per tag, preallocated; driver data follows
 *
 * With SMQ_SET_LEGACY the set describes a legacy (single queue) host: each
 * queue created on it runs the single-queue, one-lock design instead.
 */
#ifndef _SMQ_BLK_H
#define _SMQ_BLK_H

#include <linux/bits.h>
#include <linux/blkdev.h>
#include <linux/blk_types.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/smp.h>
#include <smq/compat.h>
#include <smq/dl.h>

struct smq_queue;
struct smq_hw_ctx;
struct smq_tags;
struct smq_tag_set;
struct smq_cpu_topology;

/* Values of struct smq_tag_set.flags */
#define SMQ_SET_HOST_TAGSET	BIT(0)	/* one tag space shared by all hctxs */
#define SMQ_SET_LEGACY		BIT(1)	/* queues use the single-queue path */

/* Values of struct smq_request.rq_flags */
#define SMQ_RQF_STARTED		BIT(0)	/* handed to ->queue_rq */
#define SMQ_RQF_PASSTHROUGH	BIT(1)	/* REQ_OP_DRV_*; no bio accounting */
#define SMQ_RQF_RESERVED	BIT(2)	/* holds a reserved tag */
#define SMQ_RQF_ACCT		BIT(3)	/* disk statistics started */
#define SMQ_RQF_DONTPREP	BIT(7)	/* driver prepared it; keep on requeue */
#define SMQ_RQF_FLUSH_PRE	BIT(8)	/* flush sequence: a flush still precedes the data */
#define SMQ_RQF_FLUSH_POST	BIT(9)	/* flush sequence: a flush still follows the data */

/* Flags for smq_alloc_request() */
#define SMQ_REQ_NOWAIT		BIT(0)
#define SMQ_REQ_RESERVED	BIT(1)

/* Return of ->timeout */
enum smq_eh_timer_return {
	SMQ_EH_DONE,		/* driver completed or will complete it */
	SMQ_EH_RESET_TIMER,	/* give it another timeout period */
};

/**
 * struct smq_request - one block I/O request (preallocated per tag)
 * @q: queue it belongs to
 * @hctx: hardware queue it is dispatched on
 * @mq_ctx: software queue (per CPU) it was queued from
 * @tag: driver tag (on the legacy path: index in the queue's request pool);
 *	the request holds it from allocation to its end, with or without a
 *	scheduler
 * @cmd_flags: operation and flags (REQ_OP_* | REQ_*) as in a bio
 * @rq_flags: SMQ_RQF_* state bits
 * @state: SMQ_RQ_* (block/smq_blk_int.h): who owns the completion; changed
 *	only by cmpxchg once in flight
 * @sector: first sector (512 B units)
 * @data_len: bytes of data
 * @nr_phys_segments: data segments, for the driver's scatterlist
 * @bio: first bio of the request's data
 * @biotail: last bio
 * @queuelist: for software queue, dispatch and scheduler lists, and a
 *	completion batch (struct smq_comp_batch) once claimed
 * @submit_cpu: CPU that submitted it (for rq_affinity)
 * @part: the block device whose statistics count the request (with
 *	SMQ_RQF_ACCT): its bios' partition, or the whole disk
 * @acct_start: jiffies stamp of disk statistics (allocation time, then the
 *	value smq_compat_io_acct_start() returned)
 * @deadline: jiffies when it times out (the timeout's only: a scheduler's
 *	own times live in @elv or @dl_node)
 * @timeout: timeout in jiffies (0: queue default)
 * @dl_node: the request in a deadline scheduler (mq-deadline, legacy
 *	deadline)
 * @elv: owned by the queue's scheduler while the request is inserted in
 *	it and not yet dispatched (Linux's rq->elv and rq->fifo_time)
 * @elv.insert_time: jiffies when the scheduler took it (mq-deadline's FIFO
 *	expiry counts from there)
 * @elv.llist: the scheduler's lock-free insertion list (mq-deadline)
 * @ipi_node: remote completion list (smq_complete.c only)
 * @end_io: completion callback for passthrough requests
 * @end_io_data: its argument
 * @status: completion status
 * @budget_token: token from ->get_budget, -1 when none held
 * @gen: generation, bumped by every smq_start_request() before the request
 *	goes in flight: a completion or a claim that names an older
 *	generation is about an earlier incarnation and is ignored
 *	(smq_complete_request_gen(), smq_rq_claim_gen())
 *
 * Driver private data (tag_set.cmd_size bytes) follows the structure; see
 * smq_rq_to_pdu().
 */
struct smq_request {
	struct smq_queue *q;
	struct smq_hw_ctx *hctx;
	struct smq_ctx *mq_ctx;
	int tag;
	blk_opf_t cmd_flags;
	unsigned int rq_flags;
	int state;
	sector_t sector;
	unsigned int data_len;
	unsigned short nr_phys_segments;
	struct bio *bio;
	struct bio *biotail;
	struct list_head queuelist;
	int submit_cpu;
	struct block_device *part;
	unsigned long acct_start;
	unsigned long deadline;
	unsigned int timeout;
	struct smq_dl_node dl_node;
	struct {
		unsigned long insert_time;
		struct llist_node llist;
	} elv;
	struct llist_node ipi_node;
	void (*end_io)(struct smq_request *rq, blk_status_t status);
	void *end_io_data;
	blk_status_t status;
	int budget_token;
	u32 gen;
};

/* Requests a completion batch ends together at most (then it is ended early) */
#define SMQ_COMP_BATCH_MAX	32

/**
 * struct smq_comp_batch - requests one completion pass ends together
 * @list: claimed requests whose completion runs in this context, linked
 *	by queuelist, in the order the driver reaped them (valid while @nr
 *	is not 0: the first request added initializes it)
 * @nr: requests on @list
 * @complete: the batch's end, set by the owner of the requests'
 *	completion (the tag set's driver; for SCSI the midlayer): does its
 *	per-request work, then smq_end_request_batch()
 *
 * smq's io_comp_batch.  A driver's completion pass (a reply queue's
 * softirq or irq_poll handler, a poll) declares one zeroed on its stack,
 * hands each request that ended well to smq_complete_request_batch() (or
 * through its owner, e.g. smq_scsi_done_batch()), and ends the pass with
 * smq_comp_batch_flush(): bios end, budgets and tags are given back and
 * hardware queues restarted for the whole batch at once.  On the stack;
 * never shared between contexts.
 */
struct smq_comp_batch {
	struct list_head list;
	unsigned int nr;
	void (*complete)(struct smq_comp_batch *b);
};

/**
 * struct smq_mq_ops - driver entry points of a tag set
 * @queue_rq: issue one request; BLK_STS_OK when accepted,
 *	BLK_STS_RESOURCE / BLK_STS_DEV_RESOURCE when busy (the block layer
 *	requeues it and reruns the queue), any other status fails it.
 *	@last is false when more requests follow in this batch; a batch cut
 *	short (BUSY, no budget) ends without a request marked @last.  There
 *	is no ->commit_rqs: a driver must not hold back work for @last.
 *	What the driver gets is the request alone, on both paths: rq->q is
 *	its queue; on the mq path rq->hctx is the hardware queue it is
 *	dispatched on (smq_hctx_index()), called from that queue's run with
 *	no lock held, in batches; on the legacy path (SMQ_SET_LEGACY)
 *	rq->hctx is NULL (there is one queue and no hardware context), @last
 *	is always true, and it is called from the queue's dispatch loop
 *	(Linux's request_fn) with the queue lock dropped around the call.
 *	It must not sleep: on both paths it runs under rcu_read_lock(),
 *	which is what smq_quiesce_queue() waits for (once that returns,
 *	no ->queue_rq of the queue runs until smq_unquiesce_queue()).
 * @get_budget: reserve a per-device slot; returns a token >= 0, or -1 when
 *	the device is busy.  The block layer owns the token: it keeps it in
 *	rq->budget_token and gives it back through @put_budget when the request
 *	ends, is requeued, or was not accepted by @queue_rq.  The driver never
 *	puts a budget itself; whoever frees a slot that others wait for reruns
 *	their queues (smq_run_hw_queues()).
 * @put_budget: release a slot obtained with @get_budget
 * @complete: finish a request the driver signalled with
 *	smq_complete_request(), in the completion context chosen by rq_affinity
 * @timeout: the request's deadline passed.  Called from the timeout work
 *	with the request claimed: neither the driver's completion nor the
 *	request's reuse can happen until it returns.  SMQ_EH_RESET_TIMER
 *	gives the request another @timeout period (a completion the driver
 *	signalled meanwhile is delivered then); SMQ_EH_DONE hands it to the
 *	handler, which must end or requeue it, and a late
 *	smq_complete_request() for it is ignored.
 * @init_request: one-time setup of a preallocated request
 * @exit_request: undo @init_request
 * @map_queues: fill set->map (CPU -> hardware queue); default: spread evenly
 * @init_hctx: per hardware queue setup (optional)
 * @update_hw_queues: smq_tag_set_update() asks the driver to run @nr
 *	hardware queues from now on, bound to the CPUs of @map (nr_cpu_ids
 *	entries, CPU -> queue) or, with @map NULL, as the driver chooses
 *	(its @map_queues follows).  Called with every queue of the set
 *	frozen and quiesced: no request is in flight.  Returns 0 or a
 *	negative errno, and on error must have changed nothing.  A return
 *	to the configuration it ran before the last successful call (the
 *	rollback of a failed update) must not fail.  NULL: the set's queue
 *	count cannot change.
 * @poll: reap the completions of poll queue @hctx (set->nr_poll_queues)
 *	from the polling task and complete them there
 *	(smq_complete_request() completes a REQ_POLLED request in the
 *	calling context: no IPI, no softirq); @iob may be NULL and may be
 *	left unused.  Called from smq_poll_bio() with a usage reference of
 *	the queue held, possibly while a freeze drains the queue, and
 *	concurrently for the same @hctx from several tasks.  Returns the
 *	number of requests it completed.  Required when the set has poll
 *	queues.
 */
struct smq_mq_ops {
	blk_status_t (*queue_rq)(struct smq_request *rq, bool last);
	int (*get_budget)(struct smq_queue *q);
	void (*put_budget)(struct smq_queue *q, int budget_token);
	void (*complete)(struct smq_request *rq);
	enum smq_eh_timer_return (*timeout)(struct smq_request *rq);
	int (*init_request)(struct smq_tag_set *set, struct smq_request *rq,
			    unsigned int hctx_idx, int node);
	void (*exit_request)(struct smq_tag_set *set, struct smq_request *rq,
			     unsigned int hctx_idx);
	void (*map_queues)(struct smq_tag_set *set);
	int (*init_hctx)(struct smq_hw_ctx *hctx, void *driver_data,
			 unsigned int hctx_idx);
	int (*update_hw_queues)(struct smq_tag_set *set, unsigned int nr,
				const unsigned int *map);
	int (*poll)(struct smq_hw_ctx *hctx, struct io_comp_batch *iob);
};

/**
 * struct smq_tag_set - tags and requests shared by the queues of one host
 * @ops: driver operations
 * @nr_hw_queues: hardware queues (>= 1), poll queues included; changed
 *	only by smq_tag_set_update(), with every queue of the set frozen
 * @nr_poll_queues: of @nr_hw_queues, the last ones are poll queues
 *	(0..@nr_hw_queues - 1; mq only, needs ->poll): they serve only
 *	REQ_POLLED bios, whose submitters reap them (smq_poll_bio()).  A
 *	set with poll queues cannot change its queues at runtime
 *	(smq_tag_set_update() refuses)
 * @queue_depth: tags per hardware queue, or in all with SMQ_SET_HOST_TAGSET
 * @reserved_tags: tags kept back for internal commands (of @queue_depth)
 * @cmd_size: driver private bytes per request
 * @numa_node: where to allocate
 * @timeout: default request timeout in jiffies
 * @flags: SMQ_SET_*
 * @driver_data: the driver's pointer (passed to ->init_hctx)
 * @map: CPU -> hardware queue index, nr_cpu_ids entries (->map_queues
 *	fills); it names the interrupt-driven queues only, 0..
 *	smq_set_nr_irq_queues() - 1
 * @poll_map: CPU -> poll queue index (smq_set_nr_irq_queues()..
 *	@nr_hw_queues - 1), nr_cpu_ids entries, spread by the block layer;
 *	NULL without poll queues
 * @user_map: @map was written by the user (smq_tag_set_update() with a
 *	map), not computed by ->map_queues
 * @tags: per hardware queue tags, nr_cpu_ids entries of which the first
 *	@nr_hw_queues are used (all point to @shared_tags with
 *	SMQ_SET_HOST_TAGSET); entries past them are NULL
 * @shared_tags: the host-wide tags, or NULL
 * @tag_list_lock: protects @tag_list
 * @tag_list: queues using this set
 * @depth_lock: serializes lowering the tag spaces' min_shallow_depth
 *	(smq_queue_limit_depth(): nr_requests and async_depth stores of any
 *	queue of the set)
 * @nr_legacy_requests: request pool size per legacy queue
 */
struct smq_tag_set {
	const struct smq_mq_ops *ops;
	unsigned int nr_hw_queues;
	unsigned int nr_poll_queues;
	unsigned int queue_depth;
	unsigned int reserved_tags;
	unsigned int cmd_size;
	int numa_node;
	unsigned int timeout;
	unsigned int flags;
	void *driver_data;
	unsigned int *map;
	unsigned int *poll_map;
	bool user_map;
	struct smq_tags **tags;
	struct smq_tags *shared_tags;
	struct mutex tag_list_lock;	/* protects tag_list */
	struct list_head tag_list;
	struct mutex depth_lock;	/* see smq_queue_limit_depth() */
	unsigned int nr_legacy_requests;
};

/**
 * smq_set_nr_irq_queues - the interrupt-driven hardware queues of a set
 * @set: tag set
 *
 * Return: the hardware queues that are not poll queues (the first ones),
 * the queues set->map names.
 */
static inline unsigned int smq_set_nr_irq_queues(const struct smq_tag_set *set)
{
	return set->nr_hw_queues - set->nr_poll_queues;
}

/**
 * smq_set_tags_shared - whether a set's queues share its request tags
 * @set: tag set
 *
 * On a multiqueue set the tags are the set's: they bound the requests of
 * all its queues together, and a tag is unique among those in flight on
 * its hardware queue (set-wide with SMQ_SET_HOST_TAGSET).  A legacy set's
 * queues each have their own request pool: a tag is unique in its queue
 * only, and nothing in the block layer bounds the set's requests in
 * flight; a user that needs that (a host's can_queue) counts them.
 *
 * Return: true when the tags are the set's.
 */
static inline bool smq_set_tags_shared(const struct smq_tag_set *set)
{
	return !(set->flags & SMQ_SET_LEGACY);
}

/**
 * smq_set_has_hw_queues - whether a set dispatches through hardware queues
 * @set: tag set
 *
 * A multiqueue set maps CPUs onto hardware queues: their count and map
 * may change (smq_tag_set_update()) and some may be poll queues.  A legacy
 * set's queues dispatch from one context each: the set runs one hardware
 * queue index (0) whatever @set->nr_hw_queues asked, with no CPU map to
 * compute or change.
 *
 * Return: true for a multiqueue set.
 */
static inline bool smq_set_has_hw_queues(const struct smq_tag_set *set)
{
	return !(set->flags & SMQ_SET_LEGACY);
}

/**
 * smq_rq_to_pdu - driver private data of a request
 * @rq: the request
 *
 * Return: the tag set's cmd_size bytes that follow @rq.
 */
static inline void *smq_rq_to_pdu(struct smq_request *rq)
{
	return rq + 1;
}

/**
 * smq_rq_from_pdu - the request that holds driver private data @pdu
 * @pdu: pointer returned by smq_rq_to_pdu()
 *
 * Return: the request.
 */
static inline struct smq_request *smq_rq_from_pdu(void *pdu)
{
	return (struct smq_request *)pdu - 1;
}

static inline enum req_op smq_rq_op(const struct smq_request *rq)
{
	return rq->cmd_flags & REQ_OP_MASK;
}

static inline sector_t smq_rq_pos(const struct smq_request *rq)
{
	return rq->sector;
}

static inline unsigned int smq_rq_bytes(const struct smq_request *rq)
{
	return rq->data_len;
}

static inline unsigned int smq_rq_sectors(const struct smq_request *rq)
{
	return rq->data_len >> SECTOR_SHIFT;
}

static inline bool smq_rq_is_passthrough(const struct smq_request *rq)
{
	return rq->rq_flags & SMQ_RQF_PASSTHROUGH;
}

/* Tag sets */
int smq_tag_set_init(struct smq_tag_set *set);
void smq_tag_set_free(struct smq_tag_set *set);
unsigned int smq_hctx_index(const struct smq_hw_ctx *hctx);
bool smq_hctx_is_poll(const struct smq_hw_ctx *hctx);
void *smq_hctx_driver_data(const struct smq_hw_ctx *hctx);
void smq_tagset_busy_iter(struct smq_tag_set *set,
			  bool (*fn)(struct smq_request *rq, void *data),
			  void *data);
int smq_tag_set_update(struct smq_tag_set *set, unsigned int nr,
		       const unsigned int *map);
ssize_t smq_tag_set_map_show(struct smq_tag_set *set, char *buf);
int smq_tag_set_map_parse(struct smq_tag_set *set, const char *buf,
			  unsigned int *map);
int smq_map_queues_spread(struct smq_tag_set *set);
int smq_map_queues_affinity(struct smq_tag_set *set,
			    const struct cpumask *const *masks);
struct smq_cpu_topology *smq_topology_alloc(void);
void smq_topology_free(struct smq_cpu_topology *topo);

/* Queues and disks */
struct smq_queue *smq_queue_create(struct smq_tag_set *set, void *queuedata);
void smq_queue_destroy(struct smq_queue *q);
void *smq_queue_data(const struct smq_queue *q);
struct smq_tag_set *smq_queue_tag_set(const struct smq_queue *q);
struct gendisk *smq_alloc_disk(struct smq_queue *q,
			       const struct smq_disk_limits *lim,
			       const struct block_device_operations *fops,
			       void *private_data);
int smq_queue_register(struct smq_queue *q, struct gendisk *disk);
void smq_queue_unregister(struct smq_queue *q);
void smq_submit_bio(struct bio *bio);
int smq_poll_bio(struct bio *bio, struct io_comp_batch *iob,
		 unsigned int flags);
int smq_poll_queue(struct smq_queue *q, blk_qc_t cookie,
		   struct io_comp_batch *iob);
blk_qc_t smq_rq_poll_cookie(const struct smq_request *rq);

/* Freeze (drain and block entry) and quiesce (stop dispatch) */
void smq_freeze_queue(struct smq_queue *q);
int smq_disk_set_write_cache(struct smq_queue *q, bool write_cache, bool fua);
void smq_unfreeze_queue(struct smq_queue *q);
void smq_quiesce_queue(struct smq_queue *q);
void smq_unquiesce_queue(struct smq_queue *q);
void smq_set_queue_dying(struct smq_queue *q);

/* Running hardware queues */
void smq_run_hw_queues(struct smq_queue *q, bool async);
void smq_delay_run_hw_queues(struct smq_queue *q, unsigned long msecs);

/* Driver side of a request */
void smq_start_request(struct smq_request *rq);
void smq_complete_request(struct smq_request *rq);
void smq_complete_request_gen(struct smq_request *rq, u32 gen);
bool smq_rq_claim(struct smq_request *rq);
bool smq_rq_claim_gen(struct smq_request *rq, u32 gen);
void smq_abort_request(struct smq_request *rq);
void smq_end_request(struct smq_request *rq, blk_status_t status);
void smq_complete_request_batch(struct smq_request *rq,
				struct smq_comp_batch *b,
				void (*complete)(struct smq_comp_batch *b));
void smq_comp_batch_flush(struct smq_comp_batch *b);
void smq_end_request_batch(struct smq_comp_batch *b);
bool smq_update_request(struct smq_request *rq, blk_status_t status,
			unsigned int nr_bytes);
void smq_queue_busy_iter(struct smq_queue *q,
			 bool (*fn)(struct smq_request *rq, void *data),
			 void *data);
void smq_requeue_request(struct smq_request *rq, bool kick);
void smq_kick_requeue_list(struct smq_queue *q, unsigned long msecs);
unsigned int smq_rq_map_sg(struct smq_request *rq, struct scatterlist *sgl,
			   unsigned int max_ents);

/* Passthrough requests (SG_IO, scan, internal commands) */
struct smq_request *smq_alloc_request(struct smq_queue *q, blk_opf_t opf,
				      unsigned int flags);
void smq_free_request(struct smq_request *rq);
int smq_rq_map_kern(struct smq_request *rq, void *buf, unsigned int len,
		    gfp_t gfp);
unsigned int smq_rq_map_bio(struct smq_request *rq, struct bio *bio);
struct bio *smq_rq_unmap_bio(struct smq_request *rq);
void smq_execute_rq_nowait(struct smq_request *rq,
			   void (*end_io)(struct smq_request *rq,
					  blk_status_t status),
			   void *data);
blk_status_t smq_execute_rq(struct smq_request *rq);

#endif /* _SMQ_BLK_H */
