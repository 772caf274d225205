// SPDX-License-Identifier: GPL-2.0
/*
 * smq scalable bitmap and bitmap queue.
 *
 * Allocation: start in the word the caller's hint points at, take the
 * lowest free bit at or after the hint bit with an atomic test-and-set
 * (retrying with a fresh snapshot when another CPU wins the race), then
 * wrap inside the word, then walk the other words.  A word that looks
 * full gets its deferred clears folded back under its swap_lock; the
 * lock is only taken on that slow path.
 *
 * No lost wake-up.  A waiter W does, in order:
 *   (1) ws_active++ and queue itself on a wait queue, then a full barrier
 *       (set_current_state() inside prepare_to_wait_exclusive());
 *   (2) retry the allocation;
 *   (3) sleep until woken.
 * A freeing CPU F does: (a) set the bit in ->cleared, full barrier;
 * (b) read ws_active, count the free, and if a batch of wake_batch frees
 * is complete, claim it (fully ordered cmpxchg) and wake wake_batch
 * exclusive waiters, scanning every wait queue until that many woke.
 *
 * - (1)/(a) form the store-buffer pattern: if W's retry saw a bit still
 *   allocated, the free of that bit sees W's ws_active and queue entry.
 * - A failed retry is a real "full" verdict: each word is declared full
 *   only after a check under its swap_lock, and folding ->cleared into
 *   ->word happens entirely under that lock, so a freed bit is never
 *   invisible (in neither mask) to that check.  Round-robin searches
 *   revisit the low bits of the first word, shallow searches are bounded
 *   by exactly @shallow_depth bits, so a failed retry means that many
 *   bits (>= usable depth >= wake_batch) were held and will be freed,
 *   each free counted.
 * - Take the last wake-up batch E after the last failed retry of any
 *   waiter that sleeps forever.  E scans all queues, so it wakes either
 *   a forever-sleeper (contradiction) or wake_batch other waiters; each
 *   of those then holds a bit it will free (wake_batch counted frees,
 *   so another batch after E: contradiction) or fails a retry after E
 *   (contradiction with "last").  Hence no waiter sleeps forever while
 *   the holders of bits keep freeing them.
 */
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/numa.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <smq/sbitmap.h>

#define SMQ_SB_NO_SHALLOW	UINT_MAX

static inline unsigned int smq_sb_bpw(const struct smq_sbitmap *sb)
{
	return 1U << sb->shift;
}

static inline unsigned int smq_sb_words(unsigned int depth, unsigned int shift)
{
	return (depth >> shift) + !!(depth & ((1U << shift) - 1));
}

/* Bits [lo, hi) of a word; lo < hi <= BITS_PER_LONG. */
static inline unsigned long smq_sb_range(unsigned int lo, unsigned int hi)
{
	unsigned long m = hi >= BITS_PER_LONG ? ~0UL : BIT(hi) - 1;

	return m & ~(BIT(lo) - 1);
}

/*
 * Usable bits of word @idx.  A shallow limit is spread over the words so
 * that the per-word limits add up to exactly @shallow bits.
 */
static unsigned int smq_sb_word_depth(const struct smq_sbitmap *sb,
				      unsigned int idx, unsigned int depth,
				      unsigned int shallow)
{
	unsigned int start = idx << sb->shift;
	unsigned int wd = min(smq_sb_bpw(sb), depth - start);

	if (likely(shallow >= depth))
		return wd;
	return div_u64((u64)shallow * (start + wd), depth) -
	       div_u64((u64)shallow * start, depth);
}

/* Atomically take the lowest zero bit of @w within @range, or -1. */
static int smq_sb_take(struct smq_sbitmap_word *w, unsigned long range)
{
	for (;;) {
		unsigned long free = ~READ_ONCE(w->word) & range;
		unsigned int nr;

		if (!free)
			return -1;
		nr = __ffs(free);
		smq_race_window();
		if (!test_and_set_bit_lock(nr, &w->word))
			return nr;
	}
}

/*
 * Fold deferred clears into the word.  Returns true when the caller
 * should search again: bits were folded, or a bit of @scope is free.
 */
static bool smq_sb_fold(struct smq_sbitmap_word *w, unsigned long scope)
{
	unsigned long flags, mask = 0;
	bool again;

	raw_spin_lock_irqsave(&w->swap_lock, flags);
	if (READ_ONCE(w->cleared))
		mask = xchg(&w->cleared, 0);
	if (mask) {
		smq_race_window();
		atomic_long_andnot(mask, (atomic_long_t *)&w->word);
		again = true;
	} else {
		again = (READ_ONCE(w->word) & scope) != scope;
	}
	raw_spin_unlock_irqrestore(&w->swap_lock, flags);
	return again;
}

/* Take a bit of word @idx from @bit on, wrapping inside the word if @wrap. */
static int smq_sb_word_get(struct smq_sbitmap *sb, unsigned int idx,
			   unsigned int depth, unsigned int shallow,
			   unsigned int bit, bool wrap)
{
	struct smq_sbitmap_word *w = &sb->map[idx];
	unsigned int wd = smq_sb_word_depth(sb, idx, depth, shallow);
	unsigned long upper, all;
	int nr;

	if (!wd)
		return -1;
	if (bit >= wd)
		bit = 0;
	upper = smq_sb_range(bit, wd);
	all = smq_sb_range(0, wd);
	do {
		nr = smq_sb_take(w, upper);
		if (nr < 0 && wrap && bit)
			nr = smq_sb_take(w, all);
		if (nr >= 0)
			return (idx << sb->shift) + nr;
	} while (smq_sb_fold(w, wrap ? all : upper));
	return -1;
}

static int smq_sb_find(struct smq_sbitmap *sb, unsigned int depth,
		       unsigned int hint, unsigned int shallow)
{
	unsigned int map_nr = smq_sb_words(depth, sb->shift);
	unsigned int idx = hint >> sb->shift;
	unsigned int bit = hint & (smq_sb_bpw(sb) - 1);
	unsigned int first_bit = bit;
	bool rr = sb->round_robin;
	unsigned int i;
	int nr;

	for (i = 0; i < map_nr; i++) {
		nr = smq_sb_word_get(sb, idx, depth, shallow, bit, !rr);
		if (nr >= 0)
			return nr;
		bit = 0;
		if (++idx >= map_nr)
			idx = 0;
	}
	/* Round robin skipped the bits below the hint in the first word. */
	if (rr && first_bit)
		return smq_sb_word_get(sb, idx, depth, shallow, 0, false);
	return -1;
}

static int smq_sb_get(struct smq_sbitmap *sb, unsigned int *hint,
		      unsigned int shallow)
{
	unsigned int depth = READ_ONCE(sb->depth);
	unsigned int h, next;
	int nr;

	if (unlikely(!depth || !shallow))
		return -1;
	h = READ_ONCE(*hint);
	if (unlikely(h >= depth))
		h %= depth;
	nr = smq_sb_find(sb, depth, h, shallow);
	if (nr >= 0 && ((unsigned int)nr == h || sb->round_robin)) {
		next = nr + 1;
		WRITE_ONCE(*hint, next >= depth ? 0 : next);
	}
	return nr;
}

/**
 * smq_sbitmap_init() - set up a scalable bitmap
 * @sb: bitmap to initialize.
 * @depth: number of bits (at most INT_MAX).
 * @shift: log2 of the bits per word, or -1 to spread small maps over at
 *	least four words.
 * @round_robin: hand out bits in strict order (SCSI hosts that need it).
 * @gfp: allocation flags.
 * @node: NUMA node of the words, or NUMA_NO_NODE.
 *
 * Return: 0, -EINVAL for a bad @depth or @shift, -ENOMEM.
 */
int smq_sbitmap_init(struct smq_sbitmap *sb, unsigned int depth, int shift,
		     bool round_robin, gfp_t gfp, int node)
{
	unsigned int i;

	if (depth > INT_MAX || shift > ilog2(BITS_PER_LONG))
		return -EINVAL;
	if (shift < 0) {
		shift = ilog2(BITS_PER_LONG);
		if (depth >= 4)
			while ((4U << shift) > depth)
				shift--;
	}
	sb->shift = shift;
	sb->depth = depth;
	sb->map_nr = smq_sb_words(depth, shift);
	sb->max_map_nr = sb->map_nr;
	sb->round_robin = round_robin;
	sb->map = NULL;
	if (!depth)
		return 0;
	sb->map = kcalloc_node(sb->map_nr, sizeof(*sb->map), gfp, node);
	if (!sb->map)
		return -ENOMEM;
	for (i = 0; i < sb->map_nr; i++)
		raw_spin_lock_init(&sb->map[i].swap_lock);
	return 0;
}

/**
 * smq_sbitmap_free() - release the words of a bitmap
 * @sb: bitmap set up by smq_sbitmap_init().
 */
void smq_sbitmap_free(struct smq_sbitmap *sb)
{
	kfree(sb->map);
	sb->map = NULL;
}

/**
 * smq_sbitmap_resize() - change the usable depth
 * @sb: bitmap.
 * @depth: new depth, at most what the allocated words can hold.
 *
 * Folds all deferred clears.  Bits at or above the new depth that are
 * still held stay valid for smq_sbitmap_clear().  Must not race with
 * allocation.
 *
 * Return: 0, or -EINVAL if @depth does not fit.
 */
int smq_sbitmap_resize(struct smq_sbitmap *sb, unsigned int depth)
{
	unsigned int i;

	if (depth > (sb->max_map_nr << sb->shift))
		return -EINVAL;
	for (i = 0; i < sb->max_map_nr; i++)
		smq_sb_fold(&sb->map[i], 0);
	WRITE_ONCE(sb->depth, depth);
	WRITE_ONCE(sb->map_nr, smq_sb_words(depth, sb->shift));
	return 0;
}

/**
 * smq_sbitmap_get() - allocate a free bit
 * @sb: bitmap.
 * @hint: the caller's allocation hint (per CPU); updated.
 *
 * Lock-free unless a word looks full.  Acquire semantics: accesses to
 * what the bit protects are ordered after taking it.
 *
 * Return: the bit number, or -1 if every bit is in use.
 */
int smq_sbitmap_get(struct smq_sbitmap *sb, unsigned int *hint)
{
	return smq_sb_get(sb, hint, SMQ_SB_NO_SHALLOW);
}

/**
 * smq_sbitmap_get_shallow() - allocate a bit from a limited share
 * @sb: bitmap.
 * @hint: the caller's allocation hint; updated.
 * @shallow_depth: at most this many bits in total are reachable; the
 *	share is spread evenly over the words (scheduler async_depth).
 *
 * Return: the bit number, or -1 if every reachable bit is in use.
 */
int smq_sbitmap_get_shallow(struct smq_sbitmap *sb, unsigned int *hint,
			    unsigned int shallow_depth)
{
	return smq_sb_get(sb, hint, shallow_depth);
}

/**
 * smq_sbitmap_clear() - free a bit taken by smq_sbitmap_get()
 * @sb: bitmap.
 * @nr: the bit.
 *
 * Deferred: only marks the bit in its word's cleared mask.  Release
 * semantics: the caller's accesses to what the bit protects are ordered
 * before the bit can be handed out again.
 */
void smq_sbitmap_clear(struct smq_sbitmap *sb, unsigned int nr)
{
	unsigned int idx = nr >> sb->shift;

	if (WARN_ON_ONCE(idx >= sb->max_map_nr))
		return;
	/* Release: pairs with the acquire of test_and_set_bit_lock(). */
	smp_mb__before_atomic();
	set_bit(nr & (smq_sb_bpw(sb) - 1), &sb->map[idx].cleared);
}

/**
 * smq_sbitmap_clear_batch() - free several bits taken by smq_sbitmap_get()
 * @sb: bitmap.
 * @nrs: the bits, each once, in any order.
 * @n: entries in @nrs.
 *
 * As smq_sbitmap_clear() for each, with one atomic OR per run of bits in
 * the same word and one release barrier for all.
 */
void smq_sbitmap_clear_batch(struct smq_sbitmap *sb, const unsigned int *nrs,
			     unsigned int n)
{
	unsigned int mask_bits = smq_sb_bpw(sb) - 1;
	unsigned long mask = 0;
	unsigned int idx = 0, i;

	/* Release: pairs with the acquire of test_and_set_bit_lock(). */
	smp_mb__before_atomic();
	for (i = 0; i < n; i++) {
		unsigned int w = nrs[i] >> sb->shift;

		if (WARN_ON_ONCE(w >= sb->max_map_nr))
			continue;
		if (mask && w != idx) {
			atomic_long_or(mask, (atomic_long_t *)&sb->map[idx].cleared);
			mask = 0;
		}
		idx = w;
		mask |= BIT(nrs[i] & mask_bits);
	}
	if (mask)
		atomic_long_or(mask, (atomic_long_t *)&sb->map[idx].cleared);
}

/**
 * smq_sbitmap_set_bit() - set a bit directly (bitmap used as a set)
 * @sb: bitmap.
 * @nr: bit below the depth.
 */
void smq_sbitmap_set_bit(struct smq_sbitmap *sb, unsigned int nr)
{
	set_bit(nr & (smq_sb_bpw(sb) - 1), &sb->map[nr >> sb->shift].word);
}

/**
 * smq_sbitmap_clear_bit() - clear a bit directly (bitmap used as a set)
 * @sb: bitmap.
 * @nr: bit below the depth.
 *
 * Not for bits handed out by smq_sbitmap_get(); use smq_sbitmap_clear().
 */
void smq_sbitmap_clear_bit(struct smq_sbitmap *sb, unsigned int nr)
{
	clear_bit(nr & (smq_sb_bpw(sb) - 1), &sb->map[nr >> sb->shift].word);
}

/**
 * smq_sbitmap_test_bit() - test a bit
 * @sb: bitmap.
 * @nr: bit below the depth.
 *
 * Return: true if the bit is set and not pending a deferred clear.
 */
bool smq_sbitmap_test_bit(const struct smq_sbitmap *sb, unsigned int nr)
{
	const struct smq_sbitmap_word *w = &sb->map[nr >> sb->shift];
	unsigned long m = BIT(nr & (smq_sb_bpw(sb) - 1));

	return (READ_ONCE(w->word) & ~READ_ONCE(w->cleared)) & m;
}

/* Bits of word @i in use: set and not pending a deferred clear. */
static unsigned long smq_sb_busy(const struct smq_sbitmap *sb, unsigned int i,
				 unsigned int depth)
{
	const struct smq_sbitmap_word *w = &sb->map[i];
	unsigned int wd = smq_sb_word_depth(sb, i, depth, SMQ_SB_NO_SHALLOW);

	return READ_ONCE(w->word) & ~READ_ONCE(w->cleared) &
	       smq_sb_range(0, wd);
}

/**
 * smq_sbitmap_weight() - count the bits in use
 * @sb: bitmap.
 *
 * Return: a snapshot of the number of set bits below the depth.
 */
unsigned int smq_sbitmap_weight(const struct smq_sbitmap *sb)
{
	unsigned int depth = READ_ONCE(sb->depth);
	unsigned int i, n = smq_sb_words(depth, sb->shift), weight = 0;

	for (i = 0; i < n; i++)
		weight += hweight_long(smq_sb_busy(sb, i, depth));
	return weight;
}

/**
 * smq_sbitmap_any_bit_set() - is any bit in use?
 * @sb: bitmap.
 *
 * Return: true if a bit below the depth is set (snapshot).
 */
bool smq_sbitmap_any_bit_set(const struct smq_sbitmap *sb)
{
	unsigned int depth = READ_ONCE(sb->depth);
	unsigned int i, n = smq_sb_words(depth, sb->shift);

	for (i = 0; i < n; i++)
		if (smq_sb_busy(sb, i, depth))
			return true;
	return false;
}

/**
 * smq_sbitmap_walk_set() - call @fn for every bit in use
 * @sb: bitmap.
 * @start: first bit to visit; the walk wraps around to cover all bits.
 * @fn: callback; returning false stops the walk.
 * @data: passed to @fn.
 *
 * Each word is read once, so bits set or cleared during the walk may or
 * may not be reported.
 */
void smq_sbitmap_walk_set(struct smq_sbitmap *sb, unsigned int start,
			  smq_sb_for_each_fn fn, void *data)
{
	unsigned int depth = READ_ONCE(sb->depth);
	unsigned int n = smq_sb_words(depth, sb->shift);
	unsigned int idx, i;
	unsigned long busy, low = 0;

	if (!depth)
		return;
	if (start >= depth)
		start = 0;
	idx = start >> sb->shift;
	/* Step 0 is the first word from @start, step n its bits below. */
	for (i = 0; i <= n; i++) {
		if (i == n) {
			busy = low;
		} else {
			busy = smq_sb_busy(sb, idx, depth);
			if (i == 0) {
				low = busy &
				      (BIT(start & (smq_sb_bpw(sb) - 1)) - 1);
				busy &= ~low;
			}
		}
		while (busy) {
			unsigned int bit = __ffs(busy);

			busy &= busy - 1;
			if (!fn(sb, (idx << sb->shift) + bit, data))
				return;
		}
		if (i < n && ++idx >= n)
			idx = 0;
	}
}

/**
 * smq_sbitmap_walk_words() - walk the words of a bitmap in order
 * @sb: bitmap.
 * @fn: called once per word below the depth, first word first.
 * @data: passed to @fn.
 *
 * For showing the bitmap (debugfs): @fn gets each word's bits in use (as
 * smq_sbitmap_weight() counts them: set and not pending a deferred
 * clear) and its usable width, so that the concatenation of the words is
 * the bitmap of depth bits.  Each word is read once, against one snapshot
 * of the depth.
 */
void smq_sbitmap_walk_words(const struct smq_sbitmap *sb,
			    smq_sb_word_fn fn, void *data)
{
	unsigned int depth = READ_ONCE(sb->depth);
	unsigned int i, n = smq_sb_words(depth, sb->shift);

	for (i = 0; i < n; i++)
		fn(smq_sb_busy(sb, i, depth),
		   smq_sb_word_depth(sb, i, depth, SMQ_SB_NO_SHALLOW), data);
}

/* ---- bitmap queue ---- */

static unsigned int smq_sbq_calc_wake_batch(struct smq_sbitmap_queue *sbq,
					    unsigned int depth)
{
	unsigned int usable = min(depth, sbq->min_shallow_depth);

	return clamp_t(unsigned int, usable / SMQ_SBQ_WAIT_QUEUES, 1,
		       SMQ_SBQ_WAKE_BATCH);
}

/**
 * smq_sbq_init() - set up a bitmap queue
 * @sbq: queue to initialize.
 * @depth: number of bits.
 * @shift: log2 of the bits per word, or -1 for the default.
 * @round_robin: hand out bits in strict order.
 * @gfp: allocation flags.
 * @node: NUMA node, or NUMA_NO_NODE.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int smq_sbq_init(struct smq_sbitmap_queue *sbq, unsigned int depth, int shift,
		 bool round_robin, gfp_t gfp, int node)
{
	unsigned int i;
	int cpu, ret;

	ret = smq_sbitmap_init(&sbq->sb, depth, shift, round_robin, gfp, node);
	if (ret)
		return ret;
	sbq->hints = alloc_percpu_gfp(unsigned int, gfp);
	sbq->ws = kcalloc_node(SMQ_SBQ_WAIT_QUEUES, sizeof(*sbq->ws), gfp, node);
	if (!sbq->hints || !sbq->ws) {
		smq_sbq_free(sbq);
		return -ENOMEM;
	}
	/* Spread the CPUs' starting points evenly over the map. */
	for_each_possible_cpu(cpu) {
		unsigned int *hint = per_cpu_ptr(sbq->hints, cpu);

		*hint = round_robin ? 0 : div_u64((u64)cpu * depth, nr_cpu_ids);
	}
	sbq->min_shallow_depth = UINT_MAX;
	sbq->wake_batch = smq_sbq_calc_wake_batch(sbq, depth);
	atomic_set(&sbq->wake_index, 0);
	atomic_set(&sbq->ws_active, 0);
	atomic_set(&sbq->completion_cnt, 0);
	atomic_set(&sbq->wakeup_cnt, 0);
	for (i = 0; i < SMQ_SBQ_WAIT_QUEUES; i++)
		init_waitqueue_head(&sbq->ws[i].wait);
	return 0;
}

/**
 * smq_sbq_free() - release a bitmap queue
 * @sbq: queue with no waiters left.
 */
void smq_sbq_free(struct smq_sbitmap_queue *sbq)
{
	kfree(sbq->ws);
	sbq->ws = NULL;
	free_percpu(sbq->hints);
	sbq->hints = NULL;
	smq_sbitmap_free(&sbq->sb);
}

/**
 * smq_sbq_resize() - change the depth of a bitmap queue
 * @sbq: queue; allocation must be quiesced.
 * @depth: new depth, at most the initial one.
 *
 * Wakes all waiters so they retry against the new depth.
 *
 * Return: 0, or -EINVAL if @depth does not fit.
 */
int smq_sbq_resize(struct smq_sbitmap_queue *sbq, unsigned int depth)
{
	unsigned int batch = smq_sbq_calc_wake_batch(sbq, depth);
	int ret;

	/* A smaller batch is always safe, so lower it before shrinking. */
	if (batch < READ_ONCE(sbq->wake_batch))
		WRITE_ONCE(sbq->wake_batch, batch);
	ret = smq_sbitmap_resize(&sbq->sb, depth);
	WRITE_ONCE(sbq->wake_batch,
		   smq_sbq_calc_wake_batch(sbq, READ_ONCE(sbq->sb.depth)));
	smq_sbq_wake_all(sbq);
	return ret;
}

/**
 * smq_sbq_min_shallow_depth() - declare the smallest shallow depth used
 * @sbq: queue.
 * @min_shallow_depth: smallest @shallow_depth that will be passed to
 *	smq_sbq_get_shallow(); the wake batch is sized so that shallow
 *	waiters are always woken.
 */
void smq_sbq_min_shallow_depth(struct smq_sbitmap_queue *sbq,
			       unsigned int min_shallow_depth)
{
	sbq->min_shallow_depth = min_shallow_depth;
	WRITE_ONCE(sbq->wake_batch,
		   smq_sbq_calc_wake_batch(sbq, READ_ONCE(sbq->sb.depth)));
}

/**
 * smq_sbq_get() - allocate a bit without sleeping
 * @sbq: queue.
 * @hint: allocation hint slot, e.g. smq_sbq_cpu_hint(@sbq).
 *
 * Return: the bit, or -1 if none is free.
 */
int smq_sbq_get(struct smq_sbitmap_queue *sbq, unsigned int *hint)
{
	return smq_sb_get(&sbq->sb, hint, SMQ_SB_NO_SHALLOW);
}

/**
 * smq_sbq_get_shallow() - allocate a bit from a limited share
 * @sbq: queue.
 * @hint: allocation hint slot.
 * @shallow_depth: total bits reachable; must not be below the value
 *	given to smq_sbq_min_shallow_depth(), which must be called first
 *	(otherwise a shallow waiter could miss its wake-up batch).
 *
 * Return: the bit, or -1 if none of the share is free.
 */
int smq_sbq_get_shallow(struct smq_sbitmap_queue *sbq, unsigned int *hint,
			unsigned int shallow_depth)
{
	WARN_ON_ONCE(shallow_depth < sbq->min_shallow_depth);
	return smq_sb_get(&sbq->sb, hint, shallow_depth);
}

/**
 * smq_sbq_wake_function() - wake function of smq_sbq_wait entries
 * @wq_entry: the waiter's entry.
 * @mode: task states to wake.
 * @flags: wake flags.
 * @key: NULL, or an unsigned int counting the waiters woken.
 *
 * Return: nonzero if the waiter was woken (it is then dequeued).
 */
int smq_sbq_wake_function(struct wait_queue_entry *wq_entry,
			  unsigned int mode, int flags, void *key)
{
	int ret = autoremove_wake_function(wq_entry, mode, flags, NULL);

	if (ret && key)
		(*(unsigned int *)key)++;
	return ret;
}

/* Wake @nr exclusive waiters, scanning every queue if needed. */
static void smq_sbq_wake_waiters(struct smq_sbitmap_queue *sbq,
				 unsigned int nr)
{
	unsigned int idx = atomic_read(&sbq->wake_index), i;

	for (i = 0; i < SMQ_SBQ_WAIT_QUEUES && nr; i++) {
		struct smq_sbq_wait_state *ws = &sbq->ws[idx];
		unsigned int woken = 0;

		idx = (idx + 1) % SMQ_SBQ_WAIT_QUEUES;
		/*
		 * Lockless peek: ordered after the freed bit by the barrier
		 * in smq_sbq_clear() and the claim's cmpxchg, against the
		 * waiter's queueing and set_current_state().
		 */
		if (!waitqueue_active(&ws->wait))
			continue;
		__wake_up(&ws->wait, TASK_NORMAL, nr, &woken);
		nr -= min(woken, nr);
	}
	atomic_set(&sbq->wake_index, idx);
}

/**
 * smq_sbq_wake_up() - account freed bits and wake waiters in batches
 * @sbq: queue.
 * @nr: number of bits just freed (after a full barrier).
 *
 * Every wake_batch freed bits counted while waiters exist wake
 * wake_batch waiters.
 */
void smq_sbq_wake_up(struct smq_sbitmap_queue *sbq, unsigned int nr)
{
	unsigned int batch;
	int done;

	if (!atomic_read(&sbq->ws_active))
		return;
	batch = READ_ONCE(sbq->wake_batch);
	atomic_add(nr, &sbq->completion_cnt);
	done = atomic_read(&sbq->wakeup_cnt);
	while ((unsigned int)atomic_read(&sbq->completion_cnt) -
	       (unsigned int)done >= batch) {
		int next = (int)((unsigned int)done + batch);

		if (atomic_try_cmpxchg(&sbq->wakeup_cnt, &done, next)) {
			smq_sbq_wake_waiters(sbq, batch);
			done = next;
		}
	}
}

/**
 * smq_sbq_clear() - free a bit and wake waiters
 * @sbq: queue.
 * @nr: bit returned by smq_sbq_get() or smq_sbq_get_shallow().
 * @hint: the freeing CPU's hint slot (reuse the cache-hot bit next), or
 *	NULL.
 */
void smq_sbq_clear(struct smq_sbitmap_queue *sbq, unsigned int nr,
		   unsigned int *hint)
{
	smq_sbitmap_clear(&sbq->sb, nr);
	/* Pairs with set_current_state() in smq_sbq_prepare_to_wait(). */
	smp_mb__after_atomic();
	smq_race_window();
	smq_sbq_wake_up(sbq, 1);
	if (hint && likely(!sbq->sb.round_robin) &&
	    nr < READ_ONCE(sbq->sb.depth))
		WRITE_ONCE(*hint, nr);
}

/**
 * smq_sbq_clear_batch() - free several bits and wake waiters once
 * @sbq: queue.
 * @nrs: bits returned by smq_sbq_get() or smq_sbq_get_shallow(), each once.
 * @n: entries in @nrs.
 * @hint: the freeing CPU's hint slot (set to the last bit), or NULL.
 *
 * What a completion pass does instead of @n calls of smq_sbq_clear(): the
 * bits of a word are freed with one atomic operation, and the waiters are
 * accounted and woken once for all of them.
 */
void smq_sbq_clear_batch(struct smq_sbitmap_queue *sbq, const unsigned int *nrs,
			 unsigned int n, unsigned int *hint)
{
	if (!n)
		return;
	smq_sbitmap_clear_batch(&sbq->sb, nrs, n);
	/* Pairs with set_current_state() in smq_sbq_prepare_to_wait(). */
	smp_mb__after_atomic();
	smq_race_window();
	smq_sbq_wake_up(sbq, n);
	if (hint && likely(!sbq->sb.round_robin) &&
	    nrs[n - 1] < READ_ONCE(sbq->sb.depth))
		WRITE_ONCE(*hint, nrs[n - 1]);
}

/**
 * smq_sbq_wake_all() - wake every waiter
 * @sbq: queue (frozen, resized or being torn down).
 */
void smq_sbq_wake_all(struct smq_sbitmap_queue *sbq)
{
	unsigned int i;

	/*
	 * Pairs with set_current_state() like smq_sbq_clear(), so the
	 * lockless waitqueue_active() peek sees every queued waiter.
	 */
	smp_mb();
	for (i = 0; i < SMQ_SBQ_WAIT_QUEUES; i++) {
		/* lockless peek, ordered by the smp_mb() above */
		if (waitqueue_active(&sbq->ws[i].wait))
			wake_up_all(&sbq->ws[i].wait);
	}
}

/**
 * smq_sbq_wait_ptr() - pick the wait queue for the next waiter
 * @sbq: queue.
 * @wait_index: the caller's rotating index (e.g. per hardware queue).
 *
 * Return: the wait queue to pass to smq_sbq_prepare_to_wait().
 */
struct smq_sbq_wait_state *smq_sbq_wait_ptr(struct smq_sbitmap_queue *sbq,
					    atomic_t *wait_index)
{
	unsigned int idx = (unsigned int)atomic_inc_return(wait_index);

	return &sbq->ws[idx % SMQ_SBQ_WAIT_QUEUES];
}

/**
 * smq_sbq_prepare_to_wait() - queue a waiter before its final retry
 * @sbq: queue.
 * @ws: wait queue from smq_sbq_wait_ptr().
 * @sbq_wait: waiter set up by smq_sbq_wait_init().
 * @state: task state to sleep in.
 *
 * The caller must retry the allocation after this and before sleeping.
 */
void smq_sbq_prepare_to_wait(struct smq_sbitmap_queue *sbq,
			     struct smq_sbq_wait_state *ws,
			     struct smq_sbq_wait *sbq_wait, int state)
{
	if (!sbq_wait->sbq) {
		atomic_inc(&sbq->ws_active);
		sbq_wait->sbq = sbq;
	}
	prepare_to_wait_exclusive(&ws->wait, &sbq_wait->wait, state);
}

/**
 * smq_sbq_finish_wait() - dequeue a waiter
 * @sbq: queue.
 * @ws: the wait queue passed to smq_sbq_prepare_to_wait().
 * @sbq_wait: the waiter.
 *
 * Safe to call whether or not the waiter was woken or queued.
 */
void smq_sbq_finish_wait(struct smq_sbitmap_queue *sbq,
			 struct smq_sbq_wait_state *ws,
			 struct smq_sbq_wait *sbq_wait)
{
	finish_wait(&ws->wait, &sbq_wait->wait);
	if (sbq_wait->sbq) {
		atomic_dec(&sbq->ws_active);
		sbq_wait->sbq = NULL;
	}
}

/**
 * smq_sbq_add_wait_queue() - park a persistent waiter on a wait queue
 * @sbq: queue.
 * @ws: wait queue from smq_sbq_wait_ptr().
 * @sbq_wait: waiter; its wake function may be replaced by the caller's
 *	(e.g. to restart dispatch rather than wake a task).
 *
 * A non-exclusive waiter counted in ws_active, so freed bits wake it.
 * With a wake function that does not dequeue it, it stays queued until
 * smq_sbq_del_wait_queue(), which must be called in any case.  Adding
 * it twice is a no-op.
 */
void smq_sbq_add_wait_queue(struct smq_sbitmap_queue *sbq,
			    struct smq_sbq_wait_state *ws,
			    struct smq_sbq_wait *sbq_wait)
{
	if (!sbq_wait->sbq) {
		sbq_wait->sbq = sbq;
		atomic_inc(&sbq->ws_active);
		add_wait_queue(&ws->wait, &sbq_wait->wait);
	}
}

/**
 * smq_sbq_del_wait_queue() - remove a waiter added by smq_sbq_add_wait_queue()
 * @ws: the wait queue it was added to.
 * @sbq_wait: the waiter.
 */
void smq_sbq_del_wait_queue(struct smq_sbq_wait_state *ws,
			    struct smq_sbq_wait *sbq_wait)
{
	if (sbq_wait->sbq) {
		remove_wait_queue(&ws->wait, &sbq_wait->wait);
		atomic_dec(&sbq_wait->sbq->ws_active);
		sbq_wait->sbq = NULL;
	}
}
