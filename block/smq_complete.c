// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: starting and completing requests.
 *
 * The driver signals completion with smq_complete_request() from its reply
 * queue's context.  rq_affinity decides where the owner's ->complete runs:
 *   0  right there;
 *   1  there if that CPU shares a package (last-level cache domain) with
 *      the submitter, else on the submitting CPU;
 *   2  always on the submitting CPU.
 * A REQ_POLLED request (a poll queue's) always completes where its
 * poller reaped it: no IPI, no softirq.
 * Remote completions are batched per CPU: one IPI drains a lock-free list.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/llist.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include "smq_blk_int.h"
#include "smq_flush.h"

static DEFINE_PER_CPU(struct llist_head, smq_done_list);
static DEFINE_PER_CPU(call_single_data_t, smq_done_csd);

static void smq_done_ipi(void *unused)
{
	struct llist_node *node = llist_del_all(this_cpu_ptr(&smq_done_list));
	struct smq_request *rq, *next;

	node = llist_reverse_order(node);
	llist_for_each_entry_safe(rq, next, node, ipi_node)
		rq->q->tag_set->ops->complete(rq);
}

static bool smq_cpus_share_cache(int a, int b)
{
	return topology_physical_package_id(a) == topology_physical_package_id(b);
}

static bool smq_complete_remote(struct smq_request *rq)
{
	int cpu = raw_smp_processor_id();
	int target = rq->submit_cpu;

	/* Reaped by its poller (->poll): complete right here, as Linux does. */
	if (rq->cmd_flags & REQ_POLLED)
		return false;
	switch (READ_ONCE(rq->q->rq_affinity)) {
	case 0:
		return false;
	case 1:
		if (smq_cpus_share_cache(cpu, target))
			return false;
		break;
	default:
		break;
	}
	if (cpu == target || !cpu_online(target))
		return false;
	if (llist_add(&rq->ipi_node, &per_cpu(smq_done_list, target)))
		smp_call_function_single_async(target,
					       &per_cpu(smq_done_csd, target));
	return true;
}

/**
 * smq_complete_request - the driver finished a request
 * @rq: request handed to ->queue_rq
 *
 * Any context.  Runs the owner's ->complete where rq_affinity says.  A
 * request already claimed (smq_rq_claim()) is left alone.
 */
void smq_complete_request(struct smq_request *rq)
{
	if (!smq_rq_claim(rq))
		return;
	if (!smq_complete_remote(rq))
		rq->q->tag_set->ops->complete(rq);
}
EXPORT_SYMBOL_GPL(smq_complete_request);

/**
 * smq_complete_request_gen - the driver finished one incarnation of a request
 * @rq: request handed to ->queue_rq
 * @gen: rq->gen the driver read when it took the request
 *
 * As smq_complete_request(), but a completion for an earlier incarnation
 * (the request was claimed by the timeout handling, finished and started
 * again since) is ignored instead of finishing the new one.  The
 * generation is checked before and after the claim: a claim that turns
 * out to name a newer incarnation (it was restarted in between) is given
 * back, and a completion of that incarnation which came meanwhile is
 * delivered then.
 */
void smq_complete_request_gen(struct smq_request *rq, u32 gen)
{
	if (READ_ONCE(rq->gen) != gen || !smq_rq_claim_gen(rq, gen))
		return;
	/* Owned as a timeout claim: make it an ordinary completion. */
	WRITE_ONCE(rq->state, SMQ_RQ_COMPLETE);
	if (!smq_complete_remote(rq))
		rq->q->tag_set->ops->complete(rq);
}
EXPORT_SYMBOL_GPL(smq_complete_request_gen);

/**
 * smq_rq_claim - take ownership of an in-flight request's completion
 * @rq: request
 *
 * Exactly one of the driver's completion and the timeout handling wins.
 * While the timeout scan holds the request (->timeout running) the
 * completion is recorded instead, and delivered by the scan if the
 * handler gives the request another period.
 *
 * Return: true for the winner, which must end or requeue the request.
 */
bool smq_rq_claim(struct smq_request *rq)
{
	int old = READ_ONCE(rq->state);

	for (;;) {
		switch (old) {
		case SMQ_RQ_IN_FLIGHT:
			if (try_cmpxchg(&rq->state, &old, SMQ_RQ_COMPLETE))
				return true;
			break;
		case SMQ_RQ_TIMED_OUT:
			if (try_cmpxchg(&rq->state, &old, SMQ_RQ_TIMED_OUT_DONE))
				return false;
			break;
		default:
			return false;
		}
	}
}
EXPORT_SYMBOL_GPL(smq_rq_claim);

/*
 * Disk statistics, as sd's on blk-mq: a request counts on its partition
 * (rq->part), whose counts the kernel adds to the whole disk's too
 * (part_stat_add()); the in-flight gauge stays per block device.
 */
static void smq_acct_start(struct smq_request *rq)
{
	rq->acct_start = smq_compat_io_acct_start(rq->part, smq_rq_op(rq),
						  smq_rq_sectors(rq),
						  rq->acct_start);
}

static void smq_acct_end(struct smq_request *rq)
{
	smq_compat_io_acct_end(rq->part, smq_rq_op(rq), smq_rq_sectors(rq),
			       rq->acct_start);
}

/**
 * smq_start_request - the driver takes a request
 * @rq: request in ->queue_rq
 *
 * Starts its timeout and its disk statistics.
 */
void smq_start_request(struct smq_request *rq)
{
	struct smq_queue *q = rq->q;

	if (!rq->timeout)
		rq->timeout = q->tag_set->timeout;
	if (!(rq->rq_flags & SMQ_RQF_STARTED)) {
		rq->rq_flags |= SMQ_RQF_STARTED;
		if (rq->rq_flags & SMQ_RQF_ACCT)
			smq_acct_start(rq);
	}
	rq->deadline = jiffies + rq->timeout;
	/* A new incarnation: visible before IN_FLIGHT (smq_rq_claim_gen()). */
	WRITE_ONCE(rq->gen, rq->gen + 1);
	/* The timeout scan reads the deadline of an IN_FLIGHT request. */
	smp_store_release(&rq->state, SMQ_RQ_IN_FLIGHT);
	smq_add_timer(rq);
}
EXPORT_SYMBOL_GPL(smq_start_request);

static void smq_end_bios(struct smq_request *rq, blk_status_t status)
{
	struct bio *bio = rq->bio;

	while (bio) {
		struct bio *next = bio->bi_next;

		bio->bi_next = NULL;
		if (status)
			bio->bi_status = status;
		bio_endio(bio);
		bio = next;
	}
	rq->bio = NULL;
	rq->biotail = NULL;
}

/**
 * smq_update_request - complete the first bytes of a request
 * @rq: claimed file I/O request (not passthrough), not yet ended
 * @status: outcome of those bytes: BLK_STS_OK, or an error that every bio
 *	(or part of one) they touch fails with
 * @nr_bytes: bytes from the request's start, at most its length
 *
 * The partial completion of Linux's blk_update_request(): bios wholly
 * within @nr_bytes end (with @status); a bio that @nr_bytes ends inside
 * is advanced past them and carries @status into its own end.  The
 * request then starts at the first byte not completed, with its segment
 * count recomputed, ready to be prepared again and requeued.  Only the
 * error paths use it: smq_end_request() stays the fast path.  Both queue
 * paths (mq and legacy) keep a request's data as the same bio chain, so
 * this is common to them.  Disk statistics count the request's remaining
 * sectors when it ends.  Any context.
 *
 * Return: true when bytes remain (the caller requeues or ends @rq), false
 * when every bio has ended (the caller ends @rq, which finds no bio left).
 */
bool smq_update_request(struct smq_request *rq, blk_status_t status,
			unsigned int nr_bytes)
{
	unsigned int segs = 0;
	struct bio *bio;

	if (WARN_ON_ONCE(rq->rq_flags & SMQ_RQF_PASSTHROUGH))
		return true;
	nr_bytes = min(nr_bytes, rq->data_len);
	while ((bio = rq->bio)) {
		unsigned int n = min(nr_bytes, bio->bi_iter.bi_size);

		if (!n && bio->bi_iter.bi_size)
			break;
		if (status)
			bio->bi_status = status;
		bio_advance(bio, n);
		nr_bytes -= n;
		rq->data_len -= n;
		rq->sector += n >> SECTOR_SHIFT;
		if (bio->bi_iter.bi_size)
			break;
		rq->bio = bio->bi_next;
		bio->bi_next = NULL;
		bio_endio(bio);
	}
	if (!rq->bio) {
		rq->biotail = NULL;
		rq->data_len = 0;
		return false;
	}
	for (bio = rq->bio; bio; bio = bio->bi_next)
		segs += smq_bio_segments(rq->q, bio);
	rq->nr_phys_segments = segs;
	return true;
}
EXPORT_SYMBOL_GPL(smq_update_request);

/* Disk statistics and the bios of a request that ends with @status. */
static void smq_end_data(struct smq_request *rq, blk_status_t status)
{
	if ((rq->rq_flags & (SMQ_RQF_ACCT | SMQ_RQF_STARTED)) ==
	    (SMQ_RQF_ACCT | SMQ_RQF_STARTED))
		smq_acct_end(rq);
	rq->status = status;
	if (!(rq->rq_flags & SMQ_RQF_PASSTHROUGH))
		smq_end_bios(rq, status);
}

/**
 * smq_end_request - finish a request
 * @rq: request (claimed: from ->complete, or after smq_rq_claim())
 * @status: its outcome
 *
 * Ends its bios, statistics and budget, then frees it, or for passthrough
 * requests calls rq->end_io, whose owner frees it.  Any context.
 */
void smq_end_request(struct smq_request *rq, blk_status_t status)
{
	if (status == BLK_STS_OK && smq_flush_next_step(rq))
		return;
	smq_put_budget(rq);
	smq_end_data(rq, status);
	if (rq->end_io) {
		rq->end_io(rq, status);
		return;
	}
	smq_free_request_tags(rq);
}
EXPORT_SYMBOL_GPL(smq_end_request);

/*
 * May @rq end in a completion batch?  File I/O of a multiqueue queue
 * only: no flush step follows it, nobody waits on ->end_io, and its tag
 * goes back to a hardware queue's tags (the legacy path has a pool).
 */
static bool smq_rq_batchable(const struct smq_request *rq)
{
	return rq->hctx && !rq->end_io &&
	       !(rq->rq_flags & (SMQ_RQF_PASSTHROUGH | SMQ_RQF_FLUSH_PRE |
				 SMQ_RQF_FLUSH_POST));
}

/**
 * smq_complete_request_batch - the driver finished a request, in a pass
 * @rq: request handed to ->queue_rq, that ended well
 * @b: the pass's batch
 * @complete: how the batch ends (the owner's per-request work, then
 *	smq_end_request_batch()); a batch holds requests of one owner
 *
 * As smq_complete_request(), but a request whose completion runs here
 * (rq_affinity) is added to @b instead of completed at once; one that
 * cannot be batched (a flush step, passthrough, the legacy path) is
 * completed at once through ->complete.  A full batch is ended early.
 */
void smq_complete_request_batch(struct smq_request *rq,
				struct smq_comp_batch *b,
				void (*complete)(struct smq_comp_batch *b))
{
	if (!smq_rq_claim(rq) || smq_complete_remote(rq))
		return;
	if (!smq_rq_batchable(rq)) {
		rq->q->tag_set->ops->complete(rq);
		return;
	}
	if (b->complete != complete) {
		smq_comp_batch_flush(b);
		b->complete = complete;
	}
	if (!b->nr)
		INIT_LIST_HEAD(&b->list);
	list_add_tail(&rq->queuelist, &b->list);
	if (++b->nr >= SMQ_COMP_BATCH_MAX)
		smq_comp_batch_flush(b);
}
EXPORT_SYMBOL_GPL(smq_complete_request_batch);

/**
 * smq_comp_batch_flush - end the requests a completion pass collected
 * @b: the batch; empty afterwards, ready for more
 */
void smq_comp_batch_flush(struct smq_comp_batch *b)
{
	if (!b->nr)
		return;
	b->complete(b);
	b->nr = 0;
}
EXPORT_SYMBOL_GPL(smq_comp_batch_flush);

/* What a run of one hardware queue's requests of a batch gives back. */
struct smq_batch_free {
	struct smq_hw_ctx *hctx;
	unsigned int nr;
	unsigned int tag[SMQ_COMP_BATCH_MAX];
};

/* Tags, restart and queue references of one hardware queue's run. */
static void smq_batch_free_flush(struct smq_batch_free *f)
{
	struct smq_hw_ctx *hctx = f->hctx;

	if (!f->nr)
		return;
	smq_hctx_stat_add(hctx, SMQ_HCTX_BATCHED, f->nr);
	smq_hctx_stat_inc(hctx, SMQ_HCTX_BATCH_RUNS);
	smq_put_tags(hctx->tags, f->tag, f->nr);
	smq_hctx_restart(hctx);
	smq_queue_exit_many(hctx->q, f->nr);
	f->nr = 0;
}

/**
 * smq_end_request_batch - end every request of a completion batch
 * @b: the batch (from its ->complete), every request claimed, batchable
 *	and ended well by its owner
 *
 * smq_end_request(rq, BLK_STS_OK) for each, with the shared work done
 * once: budget waiters are checked once per run of requests of a queue,
 * tags go back per hardware queue with one atomic operation per bitmap
 * word (smq_put_tags()), each hardware queue is restarted and its queue's
 * references dropped once.  @b's list is left to smq_comp_batch_flush():
 * a request must not be touched once its tag is free.
 */
void smq_end_request_batch(struct smq_comp_batch *b)
{
	struct smq_batch_free f = { .nr = 0 };
	struct smq_request *rq, *next;
	struct smq_queue *q = NULL;

	list_for_each_entry(rq, &b->list, queuelist) {
		if (smq_put_rq_budget_nowake(rq) && rq->q != q) {
			if (q)
				smq_budget_waiters_run(q);
			q = rq->q;
		}
		smq_end_data(rq, BLK_STS_OK);
	}
	if (q)
		smq_budget_waiters_run(q);

	list_for_each_entry_safe(rq, next, &b->list, queuelist) {
		if (rq->hctx != f.hctx) {
			smq_batch_free_flush(&f);
			f.hctx = rq->hctx;
		}
		f.tag[f.nr++] = rq->tag;
		smq_mq_release_request(rq);
	}
	smq_batch_free_flush(&f);
}
EXPORT_SYMBOL_GPL(smq_end_request_batch);

/**
 * smq_complete_init - set up the per-CPU remote completion state
 *
 * Return: 0.
 */
int smq_complete_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		init_llist_head(&per_cpu(smq_done_list, cpu));
		INIT_CSD(&per_cpu(smq_done_csd, cpu), smq_done_ipi, NULL);
	}
	return 0;
}

/**
 * smq_complete_exit - wait for remote completions in flight
 */
void smq_complete_exit(void)
{
	synchronize_rcu();
}
