/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq scalable bitmap and bitmap queue (tag allocator).
 *
 * A bitmap of @depth bits split into words of 2^@shift bits, each word on
 * its own cache line, so CPUs starting from different hints touch
 * different lines.  Frees are deferred: smq_sbitmap_clear() sets the bit
 * in the word's @cleared mask (another cache line) and allocators fold
 * @cleared back into @word only when the word looks full.
 *
 * The caller owns the allocation hint: every get/clear takes an
 * "unsigned int *hint", normally the current CPU's slot of a per-CPU
 * array (smq_sbq_cpu_hint()), in the tests a per-thread variable.
 * Hints are racy by design and only steer the search.
 *
 * The queue (struct smq_sbitmap_queue) adds wait queues: an allocator
 * that fails prepares to wait and retries before sleeping; every freed
 * bit is counted and each @wake_batch freed bits wake @wake_batch
 * waiters.  See block/smq_sbitmap.c for why no wake-up is lost.
 *
 * Get/clear are lock-free and allocation-free.  Init, free and resize
 * must not race with get on the same map (the block layer freezes the
 * queue first); clear may race with resize.
 */
#ifndef _SMQ_SBITMAP_H
#define _SMQ_SBITMAP_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

/*
 * smq_race_window() marks a race window in block/smq_sbitmap.c: nothing in
 * the kernel.  The unit tests define it before this header (their
 * force-included tests/unit/include/uk_hooks.h) to yield the CPU now and
 * then, so rare interleavings happen.
 */
#ifndef smq_race_window
#define smq_race_window()	do { } while (0)
#endif

/**
 * struct smq_sbitmap_word - one word of a &struct smq_sbitmap
 * @word: allocated bits.
 * @cleared: bits freed but not yet folded back into @word.
 * @swap_lock: serializes folding @cleared into @word, so that no
 *	allocator ever sees a freed bit in neither mask.
 */
struct smq_sbitmap_word {
	unsigned long word;
	unsigned long cleared ____cacheline_aligned_in_smp;
	raw_spinlock_t swap_lock;
} ____cacheline_aligned_in_smp;

/**
 * struct smq_sbitmap - scalable bitmap
 * @depth: number of usable bits.
 * @shift: log2 of the bits used per word.
 * @map_nr: number of words covering @depth.
 * @max_map_nr: number of words allocated (resize cannot exceed it).
 * @round_robin: allocate strictly in order instead of reusing freed bits.
 * @map: the words.
 */
struct smq_sbitmap {
	unsigned int depth;
	unsigned int shift;
	unsigned int map_nr;
	unsigned int max_map_nr;
	bool round_robin;
	struct smq_sbitmap_word *map;
};

#define SMQ_SBQ_WAIT_QUEUES	8
#define SMQ_SBQ_WAKE_BATCH	8

/**
 * struct smq_sbq_wait_state - one of the wait queues of a bitmap queue
 * @wait: the wait queue head.
 */
struct smq_sbq_wait_state {
	wait_queue_head_t wait;
} ____cacheline_aligned_in_smp;

/**
 * struct smq_sbitmap_queue - scalable bitmap with wait queues
 * @sb: the bitmap.
 * @hints: per-CPU allocation hints for callers without their own.
 * @wake_batch: freed bits per wake-up batch.
 * @min_shallow_depth: smallest shallow depth callers will use.
 * @wake_index: next wait queue to wake.
 * @ws_active: number of waiters prepared on any wait queue.
 * @completion_cnt: bits freed while waiters were active.
 * @wakeup_cnt: freed bits already turned into wake-ups.
 * @ws: the SMQ_SBQ_WAIT_QUEUES wait queues.
 */
struct smq_sbitmap_queue {
	struct smq_sbitmap sb;
	unsigned int __percpu *hints;
	unsigned int wake_batch;
	unsigned int min_shallow_depth;
	atomic_t wake_index;
	atomic_t ws_active;
	atomic_t completion_cnt;
	atomic_t wakeup_cnt;
	struct smq_sbq_wait_state *ws;
};

/**
 * struct smq_sbq_wait - a waiter on a bitmap queue
 * @sbq: the queue this waiter is counted in (NULL when not waiting).
 * @wait: the wait queue entry; its wake function counts wake-ups.
 */
struct smq_sbq_wait {
	struct smq_sbitmap_queue *sbq;
	struct wait_queue_entry wait;
};

int smq_sbq_wake_function(struct wait_queue_entry *wq_entry,
			  unsigned int mode, int flags, void *key);

/**
 * smq_sbq_wait_init() - set up a waiter for the current task
 * @w: the waiter, not yet on any wait queue.
 */
static inline void smq_sbq_wait_init(struct smq_sbq_wait *w)
{
	w->sbq = NULL;
	w->wait.flags = 0;
	w->wait.private = current;
	w->wait.func = smq_sbq_wake_function;
	INIT_LIST_HEAD(&w->wait.entry);
}

int smq_sbitmap_init(struct smq_sbitmap *sb, unsigned int depth, int shift,
		     bool round_robin, gfp_t gfp, int node);
void smq_sbitmap_free(struct smq_sbitmap *sb);
int smq_sbitmap_resize(struct smq_sbitmap *sb, unsigned int depth);
int smq_sbitmap_get(struct smq_sbitmap *sb, unsigned int *hint);
int smq_sbitmap_get_shallow(struct smq_sbitmap *sb, unsigned int *hint,
			    unsigned int shallow_depth);
void smq_sbitmap_clear(struct smq_sbitmap *sb, unsigned int nr);
void smq_sbitmap_clear_batch(struct smq_sbitmap *sb, const unsigned int *nrs,
			     unsigned int n);
void smq_sbitmap_set_bit(struct smq_sbitmap *sb, unsigned int nr);
void smq_sbitmap_clear_bit(struct smq_sbitmap *sb, unsigned int nr);
bool smq_sbitmap_test_bit(const struct smq_sbitmap *sb, unsigned int nr);
unsigned int smq_sbitmap_weight(const struct smq_sbitmap *sb);
bool smq_sbitmap_any_bit_set(const struct smq_sbitmap *sb);

/**
 * typedef smq_sb_for_each_fn - callback of smq_sbitmap_walk_set()
 * @sb: the bitmap being walked.
 * @bitnr: a set bit.
 * @data: the caller's cookie.
 *
 * Return: true to continue the walk, false to stop it.
 */
typedef bool (*smq_sb_for_each_fn)(struct smq_sbitmap *sb,
				   unsigned int bitnr, void *data);
void smq_sbitmap_walk_set(struct smq_sbitmap *sb, unsigned int start,
			  smq_sb_for_each_fn fn, void *data);

/**
 * typedef smq_sb_word_fn - callback of smq_sbitmap_walk_words()
 * @busy: the bits of the word in use (bit 0 is the word's first bit).
 * @nbits: usable bits of the word (the last word may be short).
 * @data: the caller's cookie.
 */
typedef void (*smq_sb_word_fn)(unsigned long busy, unsigned int nbits,
			       void *data);
void smq_sbitmap_walk_words(const struct smq_sbitmap *sb,
			    smq_sb_word_fn fn, void *data);

int smq_sbq_init(struct smq_sbitmap_queue *sbq, unsigned int depth, int shift,
		 bool round_robin, gfp_t gfp, int node);
void smq_sbq_free(struct smq_sbitmap_queue *sbq);
int smq_sbq_resize(struct smq_sbitmap_queue *sbq, unsigned int depth);
void smq_sbq_min_shallow_depth(struct smq_sbitmap_queue *sbq,
			       unsigned int min_shallow_depth);
int smq_sbq_get(struct smq_sbitmap_queue *sbq, unsigned int *hint);
int smq_sbq_get_shallow(struct smq_sbitmap_queue *sbq, unsigned int *hint,
			unsigned int shallow_depth);
void smq_sbq_clear(struct smq_sbitmap_queue *sbq, unsigned int nr,
		   unsigned int *hint);
void smq_sbq_clear_batch(struct smq_sbitmap_queue *sbq, const unsigned int *nrs,
			 unsigned int n, unsigned int *hint);
void smq_sbq_wake_up(struct smq_sbitmap_queue *sbq, unsigned int nr);
void smq_sbq_wake_all(struct smq_sbitmap_queue *sbq);
struct smq_sbq_wait_state *smq_sbq_wait_ptr(struct smq_sbitmap_queue *sbq,
					    atomic_t *wait_index);
void smq_sbq_prepare_to_wait(struct smq_sbitmap_queue *sbq,
			     struct smq_sbq_wait_state *ws,
			     struct smq_sbq_wait *sbq_wait, int state);
void smq_sbq_finish_wait(struct smq_sbitmap_queue *sbq,
			 struct smq_sbq_wait_state *ws,
			 struct smq_sbq_wait *sbq_wait);
void smq_sbq_add_wait_queue(struct smq_sbitmap_queue *sbq,
			    struct smq_sbq_wait_state *ws,
			    struct smq_sbq_wait *sbq_wait);
void smq_sbq_del_wait_queue(struct smq_sbq_wait_state *ws,
			    struct smq_sbq_wait *sbq_wait);

/**
 * smq_sbq_cpu_hint() - the current CPU's allocation hint of a queue
 * @sbq: bitmap queue.
 *
 * Preemption may move the caller to another CPU right after; that only
 * makes the hint less useful, never wrong.
 *
 * Return: pointer to pass as @hint to smq_sbq_get() and smq_sbq_clear().
 */
static inline unsigned int *smq_sbq_cpu_hint(struct smq_sbitmap_queue *sbq)
{
	return raw_cpu_ptr(sbq->hints);
}

/**
 * smq_sbitmap_depth() - number of usable bits
 * @sb: bitmap.
 *
 * Return: the current depth.
 */
static inline unsigned int smq_sbitmap_depth(const struct smq_sbitmap *sb)
{
	return READ_ONCE(sb->depth);
}

#endif /* _SMQ_SBITMAP_H */
