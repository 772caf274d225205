// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: debugfs, in the manner of blk-mq's /sys/kernel/debug/block.
 *
 *   /sys/kernel/debug/smq/<disk>/          one per registered queue
 *       state, requeue_list                the queue
 *       hctx<N>/                           multiqueue: each hardware queue
 *           state, tags, dispatch, busy, ctx_map, cpus, stats
 *           cpu<N>/rq_list                 each of its software queues
 *       sched/                             the scheduler's files, if any
 *       legacy/                            use_blk_mq=N: the legacy queue
 *
 * Every file is read-only and printed in one go (single_open()); each
 * show function takes the locks its data needs, written next to it.  A
 * file's data is what its directory stands for: the directory inode's
 * i_private, as blk-mq does, so one file_operations serves them all.
 *
 * Lifetime: the queue's directory is created by smq_queue_register() and
 * removed by smq_queue_unregister(), sched/ around each scheduler switch,
 * all under q->sysfs_lock.  debugfs removal waits for readers inside a
 * show function and fails later reads of files still open, so no show
 * function runs once its directory is gone.  debugfs is optional: every
 * error is ignored (a NULL or error dentry is simply not used), as the
 * kernel's block layer does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/jiffies.h>
#include "smq_blk_int.h"
#include "smq_sched.h"
#include "smq_flush.h"

/* /sys/kernel/debug/smq; an error pointer when debugfs is unavailable. */
static struct dentry *smq_debugfs_root;

/* ---- plumbing ------------------------------------------------------ */

static int smq_debugfs_show(struct seq_file *m, void *v)
{
	const struct smq_debugfs_attr *attr = m->private;
	void *data = d_inode(m->file->f_path.dentry->d_parent)->i_private;

	return attr->show(data, m);
}

static int smq_debugfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, smq_debugfs_show, inode->i_private);
}

static const struct file_operations smq_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = smq_debugfs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * smq_debugfs_create_files - fill a directory with read-only files
 * @dir: the directory; nothing happens if NULL or an error pointer
 * @data: what @dir stands for, handed to each file's ->show
 * @attrs: the files, ended by an entry without a name
 */
void smq_debugfs_create_files(struct dentry *dir, void *data,
			      const struct smq_debugfs_attr *attrs)
{
	if (IS_ERR_OR_NULL(dir))
		return;
	d_inode(dir)->i_private = data;
	for (; attrs && attrs->name; attrs++)
		debugfs_create_file(attrs->name, 0400, dir, (void *)attrs,
				    &smq_debugfs_fops);
}

/**
 * struct smq_debugfs_name - the name of a flag bit
 * @mask: the bit
 * @name: its name
 */
struct smq_debugfs_name {
	unsigned long mask;
	const char *name;
};

/* Names of the bits of @flags joined by '|', unnamed bits in hex, "0" if none. */
static void smq_debugfs_flags(struct seq_file *m, unsigned long flags,
			      const struct smq_debugfs_name *names,
			      unsigned int nr)
{
	const char *sep = "";
	unsigned int i;

	if (!flags) {
		seq_putc(m, '0');
		return;
	}
	for (i = 0; i < nr; i++) {
		if (!(flags & names[i].mask))
			continue;
		seq_printf(m, "%s%s", sep, names[i].name);
		sep = "|";
		flags &= ~names[i].mask;
	}
	if (flags)
		seq_printf(m, "%s0x%lx", sep, flags);
}

/*
 * A bitmap as blk-mq's tags_bitmap and ctx_map show it: bytes in hex,
 * bit 0 of the map in the low bit of the first byte, 16 bytes per line
 * after the offset of the first, a space before every second byte.
 */
struct smq_debugfs_bits {
	struct seq_file *m;
	unsigned int offset;	/* bytes printed */
	unsigned int nbits;	/* bits in @byte */
	u8 byte;
};

static void smq_debugfs_bits_byte(struct smq_debugfs_bits *b)
{
	if (!(b->offset & 0xf))
		seq_printf(b->m, "%s%08x:", b->offset ? "\n" : "", b->offset);
	if (!(b->offset & 0x1))
		seq_putc(b->m, ' ');
	seq_printf(b->m, "%02x", b->byte);
	b->offset++;
	b->byte = 0;
	b->nbits = 0;
}

/* Append @nbits bits of @word (low bit first); an smq_sb_word_fn. */
static void smq_debugfs_bits_word(unsigned long word, unsigned int nbits,
				  void *data)
{
	struct smq_debugfs_bits *b = data;

	while (nbits) {
		unsigned int n = min(8 - b->nbits, nbits);

		b->byte |= (word & (BIT(n) - 1)) << b->nbits;
		b->nbits += n;
		if (b->nbits == 8)
			smq_debugfs_bits_byte(b);
		word >>= n;
		nbits -= n;
	}
}

static void smq_debugfs_bits_end(struct smq_debugfs_bits *b)
{
	if (b->nbits)
		smq_debugfs_bits_byte(b);
	if (b->offset)
		seq_putc(b->m, '\n');
}

/* ---- requests ------------------------------------------------------ */

static const struct smq_debugfs_name smq_rqf_names[] = {
	{ SMQ_RQF_STARTED, "STARTED" },
	{ SMQ_RQF_PASSTHROUGH, "PASSTHROUGH" },
	{ SMQ_RQF_RESERVED, "RESERVED" },
	{ SMQ_RQF_ACCT, "ACCT" },
	{ SMQ_RQF_DONTPREP, "DONTPREP" },
	{ SMQ_RQF_FLUSH_PRE, "FLUSH_PRE" },
	{ SMQ_RQF_FLUSH_POST, "FLUSH_POST" },
};

static const char *smq_rq_state_name(int state)
{
	switch (state) {
	case SMQ_RQ_IDLE:
		return "idle";
	case SMQ_RQ_IN_FLIGHT:
		return "in_flight";
	case SMQ_RQ_COMPLETE:
		return "complete";
	case SMQ_RQ_TIMED_OUT:
		return "timed_out";
	case SMQ_RQ_TIMED_OUT_DONE:
		return "timed_out_done";
	}
	return "?";
}

/**
 * smq_debugfs_rq_show - one line describing a request
 * @m: the file
 * @rq: the request
 *
 * "tag=T op=OP sector=S bytes=B rq_flags=F state=ST".  The caller keeps
 * @rq's memory valid (a lock over the list it is on, or a preallocated
 * request); each field is read once, so the line of a request that is
 * being reused may mix its old and new use.
 */
void smq_debugfs_rq_show(struct seq_file *m, struct smq_request *rq)
{
	blk_opf_t opf = READ_ONCE(rq->cmd_flags);

	seq_printf(m, "tag=%d op=%s sector=%llu bytes=%u rq_flags=",
		   READ_ONCE(rq->tag),
		   blk_op_str((__force enum req_op)(opf & REQ_OP_MASK)),
		   (unsigned long long)READ_ONCE(rq->sector),
		   READ_ONCE(rq->data_len));
	smq_debugfs_flags(m, READ_ONCE(rq->rq_flags), smq_rqf_names,
			  ARRAY_SIZE(smq_rqf_names));
	seq_printf(m, " state=%s\n", smq_rq_state_name(READ_ONCE(rq->state)));
}

/**
 * smq_debugfs_rq_list_show - one line per request of a list
 * @m: the file
 * @list: requests linked by their queuelist; the caller holds the lock
 *	that protects it
 */
void smq_debugfs_rq_list_show(struct seq_file *m, struct list_head *list)
{
	struct smq_request *rq;

	list_for_each_entry(rq, list, queuelist)
		smq_debugfs_rq_show(m, rq);
}

/* ---- the queue ----------------------------------------------------- */

static const struct smq_debugfs_name smq_queue_flag_names[] = {
	{ BIT(SMQ_Q_DYING), "DYING" },
	{ BIT(SMQ_Q_REGISTERED), "REGISTERED" },
	{ BIT(SMQ_Q_BUDGET_WAIT), "BUDGET_WAIT" },
};

/**
 * smq_mq_debugfs_state - the mq lines of the queue's state file
 * @q: multiqueue queue
 * @m: the file
 *
 * The scheduler's name is copied under queue_lock, under which a switch
 * publishes q->sched before it drops the old scheduler's module
 * reference (smq_sched_set()): once switched away from, a scheduler's
 * module (and the name in it) may go at any time.  Not q->sysfs_lock,
 * which debugfs files never take (see struct smq_debugfs_attr).
 */
void smq_mq_debugfs_state(struct smq_queue *q, struct seq_file *m)
{
	const struct smq_sched_ops *sched;
	char name[SMQ_SCHED_NAME_MAX];

	spin_lock_irq(&q->queue_lock);
	sched = q->sched;
	strscpy(name, sched ? sched->name : "none", sizeof(name));
	spin_unlock_irq(&q->queue_lock);
	seq_printf(m, "scheduler=%s\n", name);
}

/*
 * state: flags (atomic bits), freeze_depth (under freeze_lock),
 * quiesce_depth (under queue_lock), then the path's lines (mq: the
 * scheduler's name, copied under queue_lock).
 */
static int smq_queue_state_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;
	int freeze, quiesce;

	mutex_lock(&q->freeze_lock);
	freeze = q->freeze_depth;
	mutex_unlock(&q->freeze_lock);
	spin_lock_irq(&q->queue_lock);
	quiesce = q->quiesce_depth;
	spin_unlock_irq(&q->queue_lock);

	seq_puts(m, "flags=");
	smq_debugfs_flags(m, READ_ONCE(q->flags), smq_queue_flag_names,
			  ARRAY_SIZE(smq_queue_flag_names));
	seq_printf(m, "\nmode=%s\nfreeze_depth=%d\nquiesce_depth=%d\n",
		   q->ops->name, freeze, quiesce);
	if (q->ops->debugfs_state)
		q->ops->debugfs_state(q, m);
	seq_printf(m, "nr_requests=%u\n", READ_ONCE(q->nr_requests));
	return 0;
}

/* requeue_list: under queue_lock (taken from any context: irqs off). */
static int smq_queue_requeue_list_show(void *data, struct seq_file *m)
{
	struct smq_queue *q = data;

	spin_lock_irq(&q->queue_lock);
	smq_debugfs_rq_list_show(m, &q->requeue_list);
	spin_unlock_irq(&q->queue_lock);
	return 0;
}

static const struct smq_debugfs_attr smq_queue_debugfs_attrs[] = {
	{ "state", smq_queue_state_show },
	{ "requeue_list", smq_queue_requeue_list_show },
	{ },
};

/* ---- hardware queues ----------------------------------------------- */

static const struct smq_debugfs_name smq_hctx_state_names[] = {
	{ BIT(SMQ_S_STOPPED), "STOPPED" },
	{ BIT(SMQ_S_RESTART), "RESTART" },
	{ BIT(SMQ_S_INACTIVE), "INACTIVE" },
};

/* state: atomic bits, no lock. */
static int smq_hctx_state_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;

	smq_debugfs_flags(m, READ_ONCE(hctx->state), smq_hctx_state_names,
			  ARRAY_SIZE(smq_hctx_state_names));
	seq_putc(m, '\n');
	return 0;
}

static void smq_debugfs_sbq_show(struct seq_file *m, const char *name,
				 struct smq_sbitmap_queue *sbq)
{
	struct smq_debugfs_bits b = { .m = m };

	seq_printf(m, "%s: depth=%u busy=%u wake_batch=%u min_shallow_depth=%u waiters=%d\n",
		   name, smq_sbitmap_depth(&sbq->sb),
		   smq_sbitmap_weight(&sbq->sb), READ_ONCE(sbq->wake_batch),
		   READ_ONCE(sbq->min_shallow_depth),
		   atomic_read(&sbq->ws_active));
	smq_sbitmap_walk_words(&sbq->sb, smq_debugfs_bits_word, &b);
	smq_debugfs_bits_end(&b);
}

/*
 * tags: the tag space lives as long as the tag set, which outlives the
 * queue; its bitmaps are read lock-free (a snapshot, word by word).
 */
static int smq_hctx_tags_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;
	struct smq_tags *tags = hctx->tags;

	seq_printf(m, "nr_tags=%u\nnr_reserved_tags=%u\nhost_tagset=%d\nbusy=%u\n",
		   tags->nr_tags, tags->nr_reserved_tags,
		   !!(hctx->q->tag_set->flags & SMQ_SET_HOST_TAGSET),
		   smq_tags_busy(tags));
	smq_debugfs_sbq_show(m, "bitmap_tags", &tags->bitmap_tags);
	smq_debugfs_sbq_show(m, "breserved_tags", &tags->breserved_tags);
	return 0;
}

/* dispatch: hctx->lock protects the list (taken in process context only). */
static int smq_hctx_dispatch_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;

	spin_lock(&hctx->lock);
	smq_debugfs_rq_list_show(m, &hctx->dispatch);
	spin_unlock(&hctx->lock);
	return 0;
}

/*
 * busy: the requests of this hardware queue that were started and have
 * not ended, found through the driver tags like the timeout scan does:
 * lock-free and claim-free.  A request is preallocated per tag and lives
 * as long as the tag set, so reading one is safe; it may be ending or
 * being reused meanwhile, which makes a line a snapshot, nothing worse.
 * With shared tags the space holds other queues' requests: only this
 * hctx's are shown.
 */
static int smq_hctx_busy_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;
	struct smq_tags *tags = hctx->tags;
	unsigned int tag;

	for (tag = 0; tag < tags->nr_tags; tag++) {
		struct smq_request *rq = READ_ONCE(tags->rqs[tag]);

		if (!rq || READ_ONCE(rq->hctx) != hctx ||
		    READ_ONCE(rq->state) == SMQ_RQ_IDLE)
			continue;
		smq_debugfs_rq_show(m, rq);
	}
	return 0;
}

/* ctx_map: bits set and cleared atomically; read word by word, no lock. */
static int smq_hctx_ctx_map_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;
	struct smq_debugfs_bits b = { .m = m };
	unsigned int i;

	for (i = 0; i < hctx->nr_ctx; i += BITS_PER_LONG)
		smq_debugfs_bits_word(READ_ONCE(hctx->ctx_map[BIT_WORD(i)]),
				      min_t(unsigned int, BITS_PER_LONG,
					    hctx->nr_ctx - i), &b);
	smq_debugfs_bits_end(&b);
	return 0;
}

/* cpus: fixed when the queue is created. */
static int smq_hctx_cpus_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;

	seq_printf(m, "%*pbl\n", cpumask_pr_args(hctx->cpumask));
	return 0;
}

/* stats: per-CPU counters summed (and one EWMA read once), no lock. */
static int smq_hctx_stats_show(void *data, struct seq_file *m)
{
	struct smq_hw_ctx *hctx = data;

	seq_printf(m, "queued=%lu\ndispatched=%lu\ndirect=%lu\nbusy=%lu\nruns=%lu\ndispatch_busy=%u\npolls=%lu\npolled=%lu\n",
		   smq_hctx_stat(hctx, SMQ_HCTX_QUEUED),
		   smq_hctx_stat(hctx, SMQ_HCTX_DISPATCHED),
		   smq_hctx_stat(hctx, SMQ_HCTX_DIRECT),
		   smq_hctx_stat(hctx, SMQ_HCTX_BUSY),
		   smq_hctx_stat(hctx, SMQ_HCTX_RUNS),
		   READ_ONCE(hctx->dispatch_busy),
		   smq_hctx_stat(hctx, SMQ_HCTX_POLLS),
		   smq_hctx_stat(hctx, SMQ_HCTX_POLLED));
	seq_printf(m, "batched=%lu\nbatch_runs=%lu\n",
		   smq_hctx_stat(hctx, SMQ_HCTX_BATCHED),
		   smq_hctx_stat(hctx, SMQ_HCTX_BATCH_RUNS));
	return 0;
}

static const struct smq_debugfs_attr smq_hctx_debugfs_attrs[] = {
	{ "state", smq_hctx_state_show },
	{ "tags", smq_hctx_tags_show },
	{ "dispatch", smq_hctx_dispatch_show },
	{ "busy", smq_hctx_busy_show },
	{ "ctx_map", smq_hctx_ctx_map_show },
	{ "cpus", smq_hctx_cpus_show },
	{ "stats", smq_hctx_stats_show },
	{ },
};

/* ---- software queues ----------------------------------------------- */

/* rq_list: ctx->lock protects it (taken in process context only). */
static int smq_ctx_rq_list_show(void *data, struct seq_file *m)
{
	struct smq_ctx *ctx = data;

	spin_lock(&ctx->lock);
	smq_debugfs_rq_list_show(m, &ctx->rq_list);
	spin_unlock(&ctx->lock);
	return 0;
}

static const struct smq_debugfs_attr smq_ctx_debugfs_attrs[] = {
	{ "rq_list", smq_ctx_rq_list_show },
	{ },
};

static void smq_debugfs_register_hctx(struct dentry *parent,
				      struct smq_hw_ctx *hctx)
{
	struct dentry *dir;
	char name[24];
	unsigned int i;

	snprintf(name, sizeof(name), "hctx%u", hctx->queue_num);
	dir = debugfs_create_dir(name, parent);
	if (IS_ERR_OR_NULL(dir))
		return;
	smq_debugfs_create_files(dir, hctx, smq_hctx_debugfs_attrs);
	for (i = 0; i < hctx->nr_ctx; i++) {
		struct smq_ctx *ctx = hctx->ctxs[i];

		snprintf(name, sizeof(name), "cpu%u", ctx->cpu);
		smq_debugfs_create_files(debugfs_create_dir(name, dir), ctx,
					 smq_ctx_debugfs_attrs);
	}
}

/* ---- registration -------------------------------------------------- */

/**
 * smq_debugfs_register_sched - add sched/ with the scheduler's files
 * @q: queue, its sysfs_lock held
 *
 * Nothing when the queue has no debugfs directory or its scheduler no
 * debugfs files.
 */
void smq_debugfs_register_sched(struct smq_queue *q)
{
	struct dentry *dir;

	lockdep_assert_held(&q->sysfs_lock);
	if (!q->debugfs_dir || !q->sched || !q->sched->debugfs_attrs ||
	    q->sched_debugfs_dir)
		return;
	dir = debugfs_create_dir("sched", q->debugfs_dir);
	if (IS_ERR_OR_NULL(dir))
		return;
	q->sched_debugfs_dir = dir;
	smq_debugfs_create_files(dir, q, q->sched->debugfs_attrs);
}

/**
 * smq_debugfs_unregister_sched - remove sched/ (before the scheduler exits)
 * @q: queue, its sysfs_lock held
 *
 * Waits for readers of its files to leave them.
 */
void smq_debugfs_unregister_sched(struct smq_queue *q)
{
	lockdep_assert_held(&q->sysfs_lock);
	debugfs_remove_recursive(q->sched_debugfs_dir);
	q->sched_debugfs_dir = NULL;
}

/**
 * smq_mq_debugfs_register - the hctx<N>/ directories and sched/
 * @q: multiqueue queue being registered, its sysfs_lock held
 * @dir: the queue's directory
 */
void smq_mq_debugfs_register(struct smq_queue *q, struct dentry *dir)
{
	unsigned int i;

	lockdep_assert_held(&q->sysfs_lock);
	for (i = 0; i < q->nr_hw_queues; i++)
		smq_debugfs_register_hctx(dir, q->hctxs[i]);
	smq_debugfs_register_sched(q);
}

/**
 * smq_debugfs_register - create /sys/kernel/debug/smq/<disk>/
 * @q: queue with a disk, being registered, its sysfs_lock held
 */
void smq_debugfs_register(struct smq_queue *q)
{
	struct dentry *dir;

	lockdep_assert_held(&q->sysfs_lock);
	if (IS_ERR_OR_NULL(smq_debugfs_root) || !q->disk || q->debugfs_dir)
		return;
	dir = debugfs_create_dir(q->disk->disk_name, smq_debugfs_root);
	if (IS_ERR_OR_NULL(dir))
		return;
	q->debugfs_dir = dir;
	smq_debugfs_create_files(dir, q, smq_queue_debugfs_attrs);
	q->ops->debugfs_register(q, dir);
}

/**
 * smq_debugfs_unregister - remove /sys/kernel/debug/smq/<disk>/
 * @q: queue being unregistered, its sysfs_lock held
 *
 * Waits for readers inside a show function; files still open read as
 * errors from now on.
 */
void smq_debugfs_unregister(struct smq_queue *q)
{
	lockdep_assert_held(&q->sysfs_lock);
	debugfs_remove_recursive(q->debugfs_dir);
	q->debugfs_dir = NULL;
	q->sched_debugfs_dir = NULL;
}

/**
 * smq_debugfs_init - create /sys/kernel/debug/smq (module load)
 *
 * A failure only leaves smq without debugfs files.
 */
void smq_debugfs_init(void)
{
	smq_debugfs_root = debugfs_create_dir("smq", NULL);
}

/**
 * smq_debugfs_exit - remove /sys/kernel/debug/smq (module unload)
 */
void smq_debugfs_exit(void)
{
	debugfs_remove_recursive(smq_debugfs_root);
	smq_debugfs_root = NULL;
}
