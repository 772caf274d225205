// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of block/smq_sbitmap.c: allocation, shallow depth, round
 * robin, resize, iteration, and multi-threaded stress of the bitmap
 * queue (no double allocation, no lost wake-up) in the shared-tags and
 * per-hctx shapes.  A watchdog fails a stress case that stops making
 * progress instead of letting it hang.
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/sbitmap.h>
#include <linux/sort.h>
#include <sched.h>
#include <time.h>

static unsigned int count_all(struct smq_sbitmap *sb, unsigned int *hint,
			      unsigned int shallow, unsigned long *seen,
			      unsigned int seen_bits, bool *dup)
{
	unsigned int n = 0;
	int nr;

	for (;;) {
		nr = shallow ? smq_sbitmap_get_shallow(sb, hint, shallow) :
			       smq_sbitmap_get(sb, hint);
		if (nr < 0)
			break;
		if ((unsigned int)nr >= seen_bits || test_bit(nr, seen))
			*dup = true;
		else
			__set_bit(nr, seen);
		n++;
		if (n > seen_bits)
			break;
	}
	return n;
}

/* ---- the userspace wait-queue shim (include/linux/wait.h) ---- */

struct wq_test {
	wait_queue_head_t wq;
	unsigned long queued, woken;
	int stop;
};

static void *wq_sleeper(void *arg)
{
	struct wq_test *t = arg;
	DEFINE_WAIT(wait);

	for (;;) {
		prepare_to_wait_exclusive(&t->wq, &wait, TASK_UNINTERRUPTIBLE);
		__atomic_add_fetch(&t->queued, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&t->stop, __ATOMIC_SEQ_CST))
			break;
		schedule();
		__atomic_add_fetch(&t->woken, 1, __ATOMIC_SEQ_CST);
		break;
	}
	finish_wait(&t->wq, &wait);
	return NULL;
}

static void wait_count(unsigned long *v, unsigned long want)
{
	struct timespec tick = { 0, 1000 * 1000 };
	unsigned int ms;

	for (ms = 0; __atomic_load_n(v, __ATOMIC_SEQ_CST) < want; ms++) {
		if (ms > 10000)
			smq_test_abort("wait queue emulation stuck");
		nanosleep(&tick, NULL);
	}
}

static void test_uk_wait_queue(void)
{
	struct wq_test t = { .queued = 0 };
	struct timespec settle = { 0, 20 * 1000 * 1000 };
	pthread_t th[4];
	unsigned int i;
	DEFINE_WAIT(self);

	init_waitqueue_head(&t.wq);
	CHECK(!waitqueue_active(&t.wq));
	/* a wake-up between prepare and schedule is not lost */
	prepare_to_wait_exclusive(&t.wq, &self, TASK_UNINTERRUPTIBLE);
	CHECK(waitqueue_active(&t.wq));
	CHECK_EQ(wake_up_nr(&t.wq, 1), 1);
	CHECK(!waitqueue_active(&t.wq));	/* autoremove */
	schedule();
	finish_wait(&t.wq, &self);
	CHECK_EQ(current->state, TASK_RUNNING);
	/* nobody sleeping: nothing woken */
	CHECK_EQ(wake_up_nr(&t.wq, 3), 0);
	/* exclusive waiters: wake_up_nr(2) wakes exactly two */
	for (i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, wq_sleeper, &t);
	wait_count(&t.queued, 4);
	CHECK_EQ(wake_up_nr(&t.wq, 2), 2);
	wait_count(&t.woken, 2);
	nanosleep(&settle, NULL);
	CHECK_EQ(__atomic_load_n(&t.woken, __ATOMIC_SEQ_CST), 2);
	CHECK(waitqueue_active(&t.wq));
	/* wake_up_all wakes the rest */
	wake_up_all(&t.wq);
	wait_count(&t.woken, 4);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	CHECK(!waitqueue_active(&t.wq));
	destroy_waitqueue_head(&t.wq);
}

static void test_alloc_all_free_all(void)
{
	static const int shifts[] = { -1, 0, 1, 3, 5, 6 };
	unsigned long seen[BITS_TO_LONGS(512)];
	u64 rnd = 1;
	unsigned int depth, s;

	for (depth = 0; depth <= 300; depth += 1 + depth / 16) {
		for (s = 0; s < ARRAY_SIZE(shifts); s++) {
			struct smq_sbitmap sb;
			unsigned int hint = smq_t_rand(&rnd) % (depth + 3);
			unsigned int i, n;
			bool dup = false;

			CHECK_EQ(smq_sbitmap_init(&sb, depth, shifts[s], false,
						  GFP_KERNEL, NUMA_NO_NODE), 0);
			bitmap_zero(seen, 512);
			n = count_all(&sb, &hint, 0, seen, 512, &dup);
			CHECK_EQ(n, depth);
			CHECK(!dup);
			CHECK_EQ(smq_sbitmap_weight(&sb), depth);
			CHECK_EQ(smq_sbitmap_any_bit_set(&sb), depth > 0);
			CHECK_EQ(find_next_bit(seen, 512, depth), 512);
			for (i = 0; i < depth; i++)
				smq_sbitmap_clear(&sb, i);
			CHECK_EQ(smq_sbitmap_weight(&sb), 0);
			CHECK(!smq_sbitmap_any_bit_set(&sb));
			/* Deferred clears are folded back on the next pass. */
			bitmap_zero(seen, 512);
			n = count_all(&sb, &hint, 0, seen, 512, &dup);
			CHECK_EQ(n, depth);
			CHECK(!dup);
			smq_sbitmap_free(&sb);
		}
	}
}

static void test_init_errors(void)
{
	struct smq_sbitmap sb;
	unsigned int hint = 0;

	CHECK_EQ(smq_sbitmap_init(&sb, 10, ilog2(BITS_PER_LONG) + 1, false,
				  GFP_KERNEL, NUMA_NO_NODE), -EINVAL);
	CHECK_EQ(smq_sbitmap_init(&sb, 0x80000000u, -1, false, GFP_KERNEL,
				  NUMA_NO_NODE), -EINVAL);
	CHECK_EQ(smq_sbitmap_init(&sb, 0, -1, false, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), -1);
	CHECK_EQ(smq_sbitmap_weight(&sb), 0);
	smq_sbitmap_free(&sb);
	/* The default shift spreads small maps over at least 4 words. */
	CHECK_EQ(smq_sbitmap_init(&sb, 64, -1, false, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	CHECK_EQ(sb.map_nr, 4);
	smq_sbitmap_free(&sb);
	CHECK_EQ(smq_sbitmap_init(&sb, 1024, -1, false, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	CHECK_EQ(sb.shift, ilog2(BITS_PER_LONG));
	smq_sbitmap_free(&sb);
}

static void test_shallow_exact(void)
{
	unsigned long seen[BITS_TO_LONGS(512)];
	static const unsigned int depths[] = { 1, 3, 4, 7, 32, 63, 64, 65, 100,
					       128, 255, 256, 300 };
	unsigned int d, shallow;

	for (d = 0; d < ARRAY_SIZE(depths); d++) {
		unsigned int depth = depths[d];

		for (shallow = 1; shallow <= depth + 2;
		     shallow += 1 + shallow / 8) {
			struct smq_sbitmap sb;
			unsigned int hint = (shallow * 37) % depth, n;
			bool dup = false;

			CHECK_EQ(smq_sbitmap_init(&sb, depth, -1, false,
						  GFP_KERNEL, NUMA_NO_NODE), 0);
			bitmap_zero(seen, 512);
			n = count_all(&sb, &hint, shallow, seen, 512, &dup);
			CHECK_EQ(n, min(shallow, depth));
			CHECK(!dup);
			/* The rest is still reachable by a full get. */
			n += count_all(&sb, &hint, 0, seen, 512, &dup);
			CHECK_EQ(n, depth);
			CHECK(!dup);
			smq_sbitmap_free(&sb);
		}
	}
}

static void test_hint_reuse(void)
{
	struct smq_sbitmap sb;
	unsigned int hint = 5, i;

	CHECK_EQ(smq_sbitmap_init(&sb, 64, 4, false, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 5);
	CHECK_EQ(hint, 6);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 6);
	/* Non round-robin wraps inside the hinted word first. */
	hint = 15;
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 15);
	CHECK_EQ(hint, 16);
	for (i = 0; i < 13; i++)
		CHECK_EQ(smq_sbitmap_get(&sb, &hint), 16 + i);
	hint = 12;
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 12);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 13);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 14);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 0);
	/* A stale hint beyond the depth is folded back in range. */
	hint = 1000;
	CHECK(smq_sbitmap_get(&sb, &hint) >= 0);
	smq_sbitmap_free(&sb);
}

static void test_sbq_hint_reuse(void)
{
	struct smq_sbitmap_queue sbq;
	unsigned int hint = 0;
	int a, b;

	CHECK_EQ(smq_sbq_init(&sbq, 128, -1, false, GFP_KERNEL,
			      NUMA_NO_NODE), 0);
	hint = 70;
	a = smq_sbq_get(&sbq, &hint);
	b = smq_sbq_get(&sbq, &hint);
	CHECK_EQ(a, 70);
	CHECK_EQ(b, 71);
	/* The freeing CPU goes back to the cache-hot word of the freed bit. */
	hint = 3;
	smq_sbq_clear(&sbq, a, &hint);
	CHECK_EQ(hint, a);
	CHECK_EQ(smq_sbq_get(&sbq, &hint), 72);
	CHECK(*smq_sbq_cpu_hint(&sbq) < 128);
	smq_sbq_free(&sbq);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * A completion pass frees its tags together: every bit of the batch is
 * free afterwards (and only those), whatever the words and the order, and
 * the waiters' accounting counts the whole batch.
 */
static void test_clear_batch(void)
{
	static const int shifts[] = { 0, 2, 5, 6 };
	unsigned long seen[BITS_TO_LONGS(512)];
	unsigned int perm[300], hint = 0;
	u64 rnd = 7;
	unsigned int s;

	for (s = 0; s < ARRAY_SIZE(shifts); s++) {
		unsigned int depth = 300, i, done, n;
		struct smq_sbitmap sb;
		bool dup = false;

		CHECK_EQ(smq_sbitmap_init(&sb, depth, shifts[s], false,
					  GFP_KERNEL, NUMA_NO_NODE), 0);
		bitmap_zero(seen, 512);
		CHECK_EQ(count_all(&sb, &hint, 0, seen, 512, &dup), depth);
		for (i = 0; i < depth; i++)
			perm[i] = i;
		for (i = depth - 1; i > 0; i--) {
			unsigned int j = smq_t_rand(&rnd) % (i + 1);
			unsigned int t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		/* Free the first 200 in batches of 1..32, partly sorted. */
		for (done = 0; done < 200; done += n) {
			n = 1 + (unsigned int)(smq_t_rand(&rnd) % 32);
			n = min(n, 200 - done);
			if (n > 4)
				sort(&perm[done], n / 2, sizeof(perm[0]),
				     cmp_uint, NULL);
			smq_sbitmap_clear_batch(&sb, &perm[done], n);
			CHECK_EQ(smq_sbitmap_weight(&sb), depth - done - n);
		}
		/* Exactly the freed bits come back. */
		bitmap_zero(seen, 512);
		CHECK_EQ(count_all(&sb, &hint, 0, seen, 512, &dup), 200);
		CHECK(!dup);
		for (i = 0; i < 200; i++)
			CHECK(test_bit(perm[i], seen));
		for (i = 200; i < depth; i++)
			CHECK(!test_bit(perm[i], seen));
		smq_sbitmap_free(&sb);
	}
}

static void test_sbq_clear_batch(void)
{
	struct smq_sbitmap_queue sbq;
	unsigned int nrs[8], hint = 0, i;

	CHECK_EQ(smq_sbq_init(&sbq, 64, -1, false, GFP_KERNEL,
			      NUMA_NO_NODE), 0);
	for (i = 0; i < 8; i++)
		nrs[i] = smq_sbq_get(&sbq, &hint);
	/* With a waiter registered the whole batch is accounted. */
	atomic_set(&sbq.ws_active, 1);
	smq_sbq_clear_batch(&sbq, nrs, 8, &hint);
	CHECK_EQ((unsigned int)atomic_read(&sbq.completion_cnt), 8);
	CHECK_EQ(hint, nrs[7]);
	CHECK_EQ(smq_sbitmap_weight(&sbq.sb), 0);
	smq_sbq_clear_batch(&sbq, nrs, 0, &hint);
	CHECK_EQ((unsigned int)atomic_read(&sbq.completion_cnt), 8);
	atomic_set(&sbq.ws_active, 0);
	smq_sbq_free(&sbq);
}

static void test_round_robin(void)
{
	struct smq_sbitmap sb;
	unsigned int hint = 0, i;

	CHECK_EQ(smq_sbitmap_init(&sb, 16, 2, true, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	for (i = 0; i < 10; i++)
		CHECK_EQ(smq_sbitmap_get(&sb, &hint), i);
	smq_sbitmap_clear(&sb, 2);
	smq_sbitmap_clear(&sb, 7);
	/* Strict order: 10..15 first, then wrap to the freed 2 and 7. */
	for (i = 10; i < 16; i++)
		CHECK_EQ(smq_sbitmap_get(&sb, &hint), i);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 2);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 7);
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), -1);
	/* No false failure: only a bit below the hint in its word is free. */
	smq_sbitmap_clear(&sb, 12);
	hint = 14;
	CHECK_EQ(smq_sbitmap_get(&sb, &hint), 12);
	CHECK_EQ(hint, 13);
	smq_sbitmap_free(&sb);
}

static void test_resize(void)
{
	struct smq_sbitmap sb;
	unsigned int hint = 0, i, n = 0;
	int nr;

	CHECK_EQ(smq_sbitmap_init(&sb, 64, 3, false, GFP_KERNEL,
				  NUMA_NO_NODE), 0);
	for (i = 0; i < 64; i++)
		CHECK(smq_sbitmap_get(&sb, &hint) >= 0);
	for (i = 0; i < 64; i += 2)
		smq_sbitmap_clear(&sb, i);
	CHECK_EQ(smq_sbitmap_resize(&sb, 20), 0);
	CHECK_EQ(smq_sbitmap_depth(&sb), 20);
	CHECK_EQ(sb.map_nr, 3);
	CHECK_EQ(smq_sbitmap_weight(&sb), 10);
	while ((nr = smq_sbitmap_get(&sb, &hint)) >= 0) {
		CHECK(nr < 20 && nr % 2 == 0);
		n++;
	}
	CHECK_EQ(n, 10);
	/* Bits above the new depth held before the resize can be freed. */
	smq_sbitmap_clear(&sb, 63);
	CHECK_EQ(smq_sbitmap_resize(&sb, 65), -EINVAL);
	CHECK_EQ(smq_sbitmap_resize(&sb, 64), 0);
	n = 0;
	while ((nr = smq_sbitmap_get(&sb, &hint)) >= 0) {
		CHECK(nr >= 20 && (nr % 2 == 0 || nr == 63));
		n++;
	}
	CHECK_EQ(n, 23);
	smq_sbitmap_free(&sb);
}

struct walk {
	unsigned int bits[512];
	unsigned int n, stop_after;
};

static bool walk_fn(struct smq_sbitmap *sb, unsigned int bitnr, void *data)
{
	struct walk *w = data;

	(void)sb;
	w->bits[w->n++] = bitnr;
	return w->n != w->stop_after;
}

static void test_for_each_set(void)
{
	u64 rnd = 42;
	unsigned int round;

	for (round = 0; round < 200; round++) {
		unsigned int depth = 1 + smq_t_rand(&rnd) % 300;
		unsigned int start = smq_t_rand(&rnd) % (depth + 5);
		unsigned long want[BITS_TO_LONGS(512)];
		struct smq_sbitmap sb;
		struct walk w = { .n = 0, .stop_after = 0 };
		unsigned int i, k = 0, first;

		CHECK_EQ(smq_sbitmap_init(&sb, depth, smq_t_rand(&rnd) % 7,
					  false, GFP_KERNEL, NUMA_NO_NODE), 0);
		bitmap_zero(want, 512);
		for (i = 0; i < depth; i++) {
			if (smq_t_rand(&rnd) % 3 == 0) {
				smq_sbitmap_set_bit(&sb, i);
				__set_bit(i, want);
			}
		}
		/* A pending deferred clear is not reported as busy. */
		if (depth > 1 && test_bit(1, want)) {
			smq_sbitmap_clear(&sb, 1);
			__clear_bit(1, want);
		}
		CHECK_EQ(smq_sbitmap_weight(&sb), bitmap_weight(want, depth));
		for (i = 0; i < depth; i++)
			CHECK_EQ(smq_sbitmap_test_bit(&sb, i), test_bit(i, want));
		smq_sbitmap_walk_set(&sb, start, walk_fn, &w);
		CHECK_EQ(w.n, bitmap_weight(want, depth));
		/* Order: from @start up, then wrapping from 0. */
		first = start < depth ? start : 0;
		for (i = first; i < depth; i++)
			if (test_bit(i, want) && k < w.n)
				CHECK_EQ(w.bits[k++], i);
		for (i = 0; i < first; i++)
			if (test_bit(i, want) && k < w.n)
				CHECK_EQ(w.bits[k++], i);
		CHECK_EQ(k, w.n);
		/* Early stop. */
		if (w.n > 2) {
			struct walk s = { .n = 0, .stop_after = 2 };

			smq_sbitmap_walk_set(&sb, start, walk_fn, &s);
			CHECK_EQ(s.n, 2);
		}
		for (i = 0; i < depth; i++)
			smq_sbitmap_clear_bit(&sb, i);
		CHECK(!smq_sbitmap_any_bit_set(&sb));
		smq_sbitmap_free(&sb);
	}
}

struct word_walk {
	unsigned long got[BITS_TO_LONGS(512)];
	unsigned int bits;
	unsigned int words;
};

static void word_fn(unsigned long busy, unsigned int nbits, void *data)
{
	struct word_walk *w = data;
	unsigned int i;

	w->words++;
	for (i = 0; i < nbits && w->bits < 512; i++, w->bits++)
		if (busy & BIT(i))
			__set_bit(w->bits, w->got);
	/* Nothing reported past the word's usable bits. */
	if (nbits < BITS_PER_LONG && (busy >> nbits))
		w->bits = 1000;
}

static void test_for_each_word(void)
{
	u64 rnd = 7;
	unsigned int round;

	for (round = 0; round < 200; round++) {
		unsigned int depth = 1 + smq_t_rand(&rnd) % 300;
		unsigned int shift = smq_t_rand(&rnd) % 7;
		unsigned long want[BITS_TO_LONGS(512)];
		struct word_walk w = { .bits = 0 };
		struct smq_sbitmap sb;
		unsigned int i;

		CHECK_EQ(smq_sbitmap_init(&sb, depth, shift, false, GFP_KERNEL,
					  NUMA_NO_NODE), 0);
		bitmap_zero(want, 512);
		for (i = 0; i < depth; i++) {
			if (smq_t_rand(&rnd) % 3 == 0) {
				smq_sbitmap_set_bit(&sb, i);
				__set_bit(i, want);
			}
		}
		/* A pending deferred clear is not in use. */
		if (test_bit(depth - 1, want)) {
			smq_sbitmap_clear(&sb, depth - 1);
			__clear_bit(depth - 1, want);
		}
		smq_sbitmap_walk_words(&sb, word_fn, &w);
		CHECK_EQ(w.bits, depth);
		CHECK_EQ(w.words, sb.map_nr);
		CHECK_MEM(w.got, want, sizeof(want));
		smq_sbitmap_free(&sb);
	}
}

static void test_wake_batch_calc(void)
{
	static const unsigned int cases[][3] = {
		/* depth, min shallow (0: none), wake_batch */
		{ 1, 0, 1 }, { 4, 0, 1 }, { 16, 0, 2 }, { 63, 0, 7 },
		{ 64, 0, 8 }, { 1024, 0, 8 }, { 64, 12, 1 }, { 64, 40, 5 },
		{ 256, 100, 8 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct smq_sbitmap_queue sbq;

		CHECK_EQ(smq_sbq_init(&sbq, cases[i][0], -1, false, GFP_KERNEL,
				      NUMA_NO_NODE), 0);
		if (cases[i][1])
			smq_sbq_min_shallow_depth(&sbq, cases[i][1]);
		CHECK_EQ(sbq.wake_batch, cases[i][2]);
		smq_sbq_free(&sbq);
	}
}

/* White box: wake_batch frees wake exactly one batch of waiters. */
static void test_wake_batch_single(void)
{
	struct smq_sbitmap_queue sbq;
	struct smq_sbq_wait_state *ws;
	atomic_t wait_index = ATOMIC_INIT(0);
	unsigned int hint = 0, i;
	struct smq_sbq_wait wait;

	smq_sbq_wait_init(&wait);
	CHECK_EQ(smq_sbq_init(&sbq, 64, -1, false, GFP_KERNEL,
			      NUMA_NO_NODE), 0);
	CHECK_EQ(sbq.wake_batch, 8);
	for (i = 0; i < 64; i++)
		CHECK(smq_sbq_get(&sbq, &hint) >= 0);
	ws = smq_sbq_wait_ptr(&sbq, &wait_index);
	smq_sbq_prepare_to_wait(&sbq, ws, &wait, TASK_UNINTERRUPTIBLE);
	CHECK_EQ(atomic_read(&sbq.ws_active), 1);
	CHECK(smq_sbq_get(&sbq, &hint) < 0);
	for (i = 0; i < 7; i++)
		smq_sbq_clear(&sbq, i, &hint);
	CHECK(!list_empty(&wait.wait.entry));
	CHECK_EQ(current->state, TASK_UNINTERRUPTIBLE);
	smq_sbq_clear(&sbq, 7, &hint);
	CHECK(list_empty(&wait.wait.entry));
	CHECK_EQ(current->state, TASK_RUNNING);
	schedule();	/* already woken: returns at once */
	smq_sbq_finish_wait(&sbq, ws, &wait);
	CHECK_EQ(atomic_read(&sbq.ws_active), 0);
	/* Without waiters, frees are not counted. */
	for (i = 8; i < 20; i++)
		smq_sbq_clear(&sbq, i, &hint);
	CHECK_EQ(atomic_read(&sbq.completion_cnt), 8);
	/* finish_wait is safe on a waiter that never waited. */
	smq_sbq_finish_wait(&sbq, ws, &wait);
	CHECK_EQ(atomic_read(&sbq.ws_active), 0);
	smq_sbq_free(&sbq);
}

static unsigned int persistent_calls;

static int persistent_wake(struct wait_queue_entry *e, unsigned int mode,
			   int flags, void *key)
{
	(void)e;
	(void)mode;
	(void)flags;
	(void)key;
	persistent_calls++;
	return 1;
}

/* A persistent (dispatch-restart style) waiter sees every batch. */
static void test_persistent_waiter(void)
{
	struct smq_sbitmap_queue sbq;
	atomic_t wait_index = ATOMIC_INIT(0);
	struct smq_sbq_wait_state *ws;
	unsigned int hint = 0, i;
	struct smq_sbq_wait wait;

	smq_sbq_wait_init(&wait);
	wait.wait.func = persistent_wake;
	CHECK_EQ(smq_sbq_init(&sbq, 16, -1, false, GFP_KERNEL,
			      NUMA_NO_NODE), 0);
	CHECK_EQ(sbq.wake_batch, 2);
	for (i = 0; i < 16; i++)
		CHECK(smq_sbq_get(&sbq, &hint) >= 0);
	ws = smq_sbq_wait_ptr(&sbq, &wait_index);
	smq_sbq_add_wait_queue(&sbq, ws, &wait);
	smq_sbq_add_wait_queue(&sbq, ws, &wait);
	CHECK_EQ(atomic_read(&sbq.ws_active), 1);
	for (i = 0; i < 6; i++)
		smq_sbq_clear(&sbq, i, &hint);
	CHECK_EQ(persistent_calls, 3);
	CHECK(!list_empty(&wait.wait.entry));
	smq_sbq_wake_all(&sbq);
	CHECK_EQ(persistent_calls, 4);
	smq_sbq_del_wait_queue(ws, &wait);
	CHECK(list_empty(&wait.wait.entry));
	CHECK_EQ(atomic_read(&sbq.ws_active), 0);
	smq_sbq_del_wait_queue(ws, &wait);
	smq_sbq_clear(&sbq, 6, &hint);
	smq_sbq_clear(&sbq, 7, &hint);
	CHECK_EQ(persistent_calls, 4);
	smq_sbq_free(&sbq);
}

/* ---- multi-threaded stress ---- */

struct stress {
	const char *name;
	unsigned int nr_sbq;		/* 1: shared tags; >1: per hctx */
	unsigned int nr_hctx;
	unsigned int depth;
	int shift;
	bool round_robin;
	unsigned int min_shallow;	/* odd threads allocate shallow */
	unsigned int nr_threads;
	unsigned int iters;
	unsigned int long_hold;		/* yield this often holding a bit */
	unsigned int force_wait;	/* yield up to this often for a waiter */
	bool rounds;			/* one get/free per thread per round */
	pthread_barrier_t barrier;
	/* filled in by run_stress() */
	struct smq_sbitmap_queue sbq[8];
	atomic_t wait_index[8];
	int *owner[8];
	int *payload[8];		/* plain data guarded by the bit */
	unsigned long progress;
	unsigned long sleeps;
	unsigned long errors;
	unsigned int shallow_held;	/* shallow bits held right now */
	unsigned long over_shallow;	/* times that exceeded min_shallow */
};

struct worker {
	struct stress *s;
	unsigned int id;
	pthread_t thread;
};

static int stress_try(struct stress *s, struct smq_sbitmap_queue *sbq,
		      unsigned int *hint, bool shallow)
{
	if (shallow)
		return smq_sbq_get_shallow(sbq, hint, s->min_shallow);
	return smq_sbq_get(sbq, hint);
}

/* The blocking allocation, shaped like the block layer's tag getter. */
static int stress_get(struct stress *s, unsigned int hctx, unsigned int *hint,
		      bool shallow)
{
	struct smq_sbitmap_queue *sbq = &s->sbq[hctx % s->nr_sbq];
	atomic_t *wait_index = &s->wait_index[hctx];
	struct smq_sbq_wait_state *ws;
	struct smq_sbq_wait wait;
	int nr;

	smq_sbq_wait_init(&wait);
	nr = stress_try(s, sbq, hint, shallow);
	if (nr >= 0)
		return nr;
	/* Widen the window in which every holder may free its bit. */
	if (uk_cpu() & 1)
		sched_yield();
	ws = smq_sbq_wait_ptr(sbq, wait_index);
	for (;;) {
		smq_sbq_prepare_to_wait(sbq, ws, &wait, TASK_UNINTERRUPTIBLE);
		nr = stress_try(s, sbq, hint, shallow);
		if (nr >= 0)
			break;
		io_schedule();
		__atomic_add_fetch(&s->sleeps, 1, __ATOMIC_RELAXED);
		smq_sbq_finish_wait(sbq, ws, &wait);
		nr = stress_try(s, sbq, hint, shallow);
		if (nr >= 0)
			return nr;
		ws = smq_sbq_wait_ptr(sbq, wait_index);
	}
	smq_sbq_finish_wait(sbq, ws, &wait);
	return nr;
}

static void *stress_worker(void *arg)
{
	struct worker *w = arg;
	struct stress *s = w->s;
	unsigned int hctx = w->id % s->nr_hctx;
	struct smq_sbitmap_queue *sbq = &s->sbq[hctx % s->nr_sbq];
	int *owner = s->owner[hctx % s->nr_sbq];
	int *payload = s->payload[hctx % s->nr_sbq];
	bool shallow = s->min_shallow && (w->id & 1);
	unsigned int hint = w->id * 7919, i;
	u64 rnd = w->id + 1;

	for (i = 0; i < s->iters; i++) {
		int nr = stress_get(s, hctx, &hint, shallow);
		unsigned int spin;

		if (__atomic_exchange_n(&owner[nr], (int)w->id + 1,
					__ATOMIC_SEQ_CST) != 0)
			__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
		if (shallow && __atomic_add_fetch(&s->shallow_held, 1,
						  __ATOMIC_SEQ_CST) >
			       s->min_shallow)
			__atomic_add_fetch(&s->over_shallow, 1, __ATOMIC_RELAXED);
		/* Non-atomic: get/clear must order it (TSan checks). */
		payload[nr] = w->id;
		/*
		 * Hold on until someone sleeps for a bit, to exercise the
		 * wake-ups; in rounds only every other time, to leave the
		 * windows a lost wake-up would need.
		 */
		if (!s->rounds || (smq_t_rand(&rnd) & 1))
			for (spin = 0; spin < s->force_wait &&
			     !atomic_read(&sbq->ws_active); spin++)
				sched_yield();
		switch (smq_t_rand(&rnd) % 8) {
		case 0:
			sched_yield();
			break;
		case 2 ... 7:
			for (spin = 0; spin < s->long_hold; spin++)
				sched_yield();
			break;
		case 1:
			for (spin = 0; spin < 200; spin++)
				barrier();
			break;
		default:
			break;
		}
		if (payload[nr] != (int)w->id)
			__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
		if (shallow)
			__atomic_sub_fetch(&s->shallow_held, 1, __ATOMIC_SEQ_CST);
		if (__atomic_exchange_n(&owner[nr], 0, __ATOMIC_SEQ_CST) !=
		    (int)w->id + 1)
			__atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
		smq_sbq_clear(sbq, nr, &hint);
		__atomic_add_fetch(&s->progress, 1, __ATOMIC_RELAXED);
		/*
		 * Rounds end with every bit freed: a waiter whose wake-up
		 * was lost then sleeps forever and the watchdog fires.
		 */
		if (s->rounds)
			pthread_barrier_wait(&s->barrier);
	}
	return NULL;
}

static void stress_dump(struct stress *s)
{
	unsigned int q, i;

	for (q = 0; q < s->nr_sbq; q++) {
		struct smq_sbitmap_queue *sbq = &s->sbq[q];

		fprintf(stderr, "  sbq %u: weight %u ws_active %d completion %d wakeup %d batch %u queues",
			q, smq_sbitmap_weight(&sbq->sb),
			atomic_read(&sbq->ws_active),
			atomic_read(&sbq->completion_cnt),
			atomic_read(&sbq->wakeup_cnt), sbq->wake_batch);
		for (i = 0; i < SMQ_SBQ_WAIT_QUEUES; i++)
			fprintf(stderr, " %d", waitqueue_active(&sbq->ws[i].wait));
		fputc('\n', stderr);
	}
}

static void run_stress(struct stress *s)
{
	struct worker *w = calloc(s->nr_threads, sizeof(*w));
	unsigned long last = 0, total = (unsigned long)s->nr_threads * s->iters;
	unsigned int q, i, idle_ms = 0;
	struct timespec tick = { 0, 5 * 1000 * 1000 };

	CHECK(w != NULL);
	if (!w)
		return;
	for (q = 0; q < s->nr_sbq; q++) {
		CHECK_EQ(smq_sbq_init(&s->sbq[q], s->depth, s->shift,
				      s->round_robin, GFP_KERNEL,
				      NUMA_NO_NODE), 0);
		if (s->min_shallow)
			smq_sbq_min_shallow_depth(&s->sbq[q], s->min_shallow);
		s->owner[q] = calloc(s->depth, sizeof(int));
		s->payload[q] = calloc(s->depth, sizeof(int));
	}
	for (i = 0; i < s->nr_hctx; i++)
		atomic_set(&s->wait_index[i], 0);
	if (s->rounds)
		pthread_barrier_init(&s->barrier, NULL, s->nr_threads);
	uk_race_windows = 1;
	for (i = 0; i < s->nr_threads; i++) {
		w[i].s = s;
		w[i].id = i;
		CHECK_EQ(pthread_create(&w[i].thread, NULL, stress_worker,
					&w[i]), 0);
	}
	/* Watchdog: fail, don't hang, if nothing moves for 10 seconds. */
	while (__atomic_load_n(&s->progress, __ATOMIC_RELAXED) < total) {
		unsigned long now;

		nanosleep(&tick, NULL);
		now = __atomic_load_n(&s->progress, __ATOMIC_RELAXED);
		idle_ms = now == last ? idle_ms + 5 : 0;
		last = now;
		if (idle_ms >= 10000) {
			fprintf(stderr, "  %s: no progress at %lu/%lu\n",
				s->name, now, total);
			stress_dump(s);
			smq_test_abort("watchdog: lost wake-up");
		}
	}
	for (i = 0; i < s->nr_threads; i++)
		pthread_join(w[i].thread, NULL);
	uk_race_windows = 0;
	if (s->rounds)
		pthread_barrier_destroy(&s->barrier);
	CHECK_EQ(s->errors, 0);
	CHECK_EQ(s->over_shallow, 0);
	for (q = 0; q < s->nr_sbq; q++) {
		CHECK_EQ(smq_sbitmap_weight(&s->sbq[q].sb), 0);
		CHECK_EQ(atomic_read(&s->sbq[q].ws_active), 0);
		smq_sbq_free(&s->sbq[q]);
		free(s->owner[q]);
		free(s->payload[q]);
	}
	printf("  %s: %lu allocations, %lu sleeps\n", s->name, total, s->sleeps);
	free(w);
}

static void test_stress_bitmap_no_double_alloc(void)
{
	struct stress s = { .name = "bitmap", .nr_sbq = 1, .nr_hctx = 1,
			    .depth = 100, .shift = 2, .nr_threads = 8,
			    .iters = 20000 };

	run_stress(&s);
}

static void test_stress_no_lost_wakeup_depth4(void)
{
	struct stress s = { .name = "depth4", .nr_sbq = 1, .nr_hctx = 1,
			    .depth = 4, .shift = -1, .nr_threads = 16,
			    .iters = 3000,
			    .long_hold = 1,
			    .force_wait = 50 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_stress_no_lost_wakeup_batch8(void)
{
	/* depth 64: wake_batch 8, many sleepers across the 8 queues */
	struct stress s = { .name = "batch8", .nr_sbq = 1, .nr_hctx = 4,
			    .depth = 64, .shift = 4, .nr_threads = 80,
			    .iters = 600, .long_hold = 4,
			    .force_wait = 50 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_stress_round_robin(void)
{
	struct stress s = { .name = "round-robin", .nr_sbq = 1, .nr_hctx = 2,
			    .depth = 8, .shift = 1, .round_robin = true,
			    .nr_threads = 12, .iters = 2000,
			    .long_hold = 1 };

	run_stress(&s);
}

static void test_stress_shallow(void)
{
	/* odd threads limited to 6 of 32 bits, mixed in the same queues */
	struct stress s = { .name = "shallow", .nr_sbq = 1, .nr_hctx = 2,
			    .depth = 32, .shift = 3, .min_shallow = 6,
			    .nr_threads = 16, .iters = 2000,
			    .long_hold = 1,
			    .force_wait = 50 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_stress_shared_tags(void)
{
	/* one host-wide map, 8 hctxs each with its own wait index */
	struct stress s = { .name = "shared-tags", .nr_sbq = 1, .nr_hctx = 8,
			    .depth = 16, .shift = -1, .nr_threads = 24,
			    .iters = 1500,
			    .long_hold = 1,
			    .force_wait = 50 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_stress_per_hctx(void)
{
	/* one map per hctx, 3 threads on each */
	struct stress s = { .name = "per-hctx", .nr_sbq = 8, .nr_hctx = 8,
			    .depth = 2, .shift = -1, .nr_threads = 24,
			    .iters = 1500,
			    .long_hold = 1,
			    .force_wait = 50 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_rounds_depth1(void)
{
	struct stress s = { .name = "rounds-depth1", .nr_sbq = 1,
			    .nr_hctx = 2, .depth = 1, .shift = -1,
			    .nr_threads = 4, .iters = 3000, .rounds = true,
			    .long_hold = 1,
			    .force_wait = 5 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_rounds_one_word(void)
{
	/* one 8-bit word: every miss goes through the deferred-clear fold */
	struct stress s = { .name = "rounds-word", .nr_sbq = 1, .nr_hctx = 3,
			    .depth = 8, .shift = 3, .nr_threads = 14,
			    .iters = 1500, .rounds = true,
			    .long_hold = 1,
			    .force_wait = 5 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_rounds_batch8(void)
{
	struct stress s = { .name = "rounds-batch8", .nr_sbq = 1,
			    .nr_hctx = 4, .depth = 64, .shift = 6,
			    .nr_threads = 96, .iters = 150, .long_hold = 4,
			    .rounds = true,
			    .force_wait = 5 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

static void test_rounds_shallow(void)
{
	struct stress s = { .name = "rounds-shallow", .nr_sbq = 1,
			    .nr_hctx = 2, .depth = 24, .shift = 3,
			    .min_shallow = 5, .nr_threads = 16, .iters = 1000,
			    .rounds = true,
			    .long_hold = 1,
			    .force_wait = 5 };

	run_stress(&s);
	CHECK(s.sleeps > 0);
}

/* ---- wake_all and resize with sleepers ---- */

struct sleeper {
	struct smq_sbitmap_queue *sbq;
	atomic_t *wait_index;
	int stop;
	unsigned long got, stopped, sleeps;
	pthread_t thread;
};

static void *sleeper_fn(void *arg)
{
	struct sleeper *sl = arg;
	struct smq_sbitmap_queue *sbq = sl->sbq;
	struct smq_sbq_wait_state *ws = smq_sbq_wait_ptr(sbq, sl->wait_index);
	unsigned int hint = 0;
	struct smq_sbq_wait wait;
	int nr;

	smq_sbq_wait_init(&wait);
	for (;;) {
		smq_sbq_prepare_to_wait(sbq, ws, &wait, TASK_UNINTERRUPTIBLE);
		nr = smq_sbq_get(sbq, &hint);
		if (nr >= 0) {
			__atomic_add_fetch(&sl->got, 1, __ATOMIC_SEQ_CST);
			break;
		}
		if (__atomic_load_n(&sl->stop, __ATOMIC_SEQ_CST)) {
			__atomic_add_fetch(&sl->stopped, 1, __ATOMIC_SEQ_CST);
			break;
		}
		io_schedule();
		__atomic_add_fetch(&sl->sleeps, 1, __ATOMIC_SEQ_CST);
	}
	smq_sbq_finish_wait(sbq, ws, &wait);
	return NULL;
}

static void wait_for(unsigned long *v, unsigned long want, const char *what)
{
	struct timespec tick = { 0, 1000 * 1000 };
	unsigned int ms;

	for (ms = 0; __atomic_load_n(v, __ATOMIC_SEQ_CST) < want; ms++) {
		if (ms > 10000)
			smq_test_abort(what);
		nanosleep(&tick, NULL);
	}
}

static void wait_active(struct smq_sbitmap_queue *sbq, int n)
{
	struct timespec tick = { 0, 1000 * 1000 };
	unsigned int ms;

	for (ms = 0; atomic_read(&sbq->ws_active) < n; ms++) {
		if (ms > 10000)
			smq_test_abort("waiters never queued");
		nanosleep(&tick, NULL);
	}
}

static void test_wake_all_and_resize(void)
{
	struct smq_sbitmap_queue sbq;
	atomic_t wait_index = ATOMIC_INIT(0);
	struct sleeper sl = { .sbq = &sbq, .wait_index = &wait_index };
	pthread_t th[6];
	unsigned int hint = 0, i;

	CHECK_EQ(smq_sbq_init(&sbq, 16, -1, false, GFP_KERNEL,
			      NUMA_NO_NODE), 0);
	CHECK_EQ(smq_sbq_resize(&sbq, 4), 0);
	CHECK_EQ(sbq.wake_batch, 1);
	for (i = 0; i < 4; i++)
		CHECK(smq_sbq_get(&sbq, &hint) >= 0);
	for (i = 0; i < 6; i++)
		pthread_create(&th[i], NULL, sleeper_fn, &sl);
	wait_active(&sbq, 6);
	/* Growing the depth wakes the sleepers, which find the new bits. */
	CHECK_EQ(smq_sbq_resize(&sbq, 8), 0);
	wait_for(&sl.got, 4, "resize did not wake the waiters");
	CHECK_EQ(sl.got, 4);
	wait_active(&sbq, 2);
	/* Teardown: wake_all wakes every remaining waiter. */
	__atomic_store_n(&sl.stop, 1, __ATOMIC_SEQ_CST);
	smq_sbq_wake_all(&sbq);
	wait_for(&sl.stopped, 2, "wake_all did not wake the waiters");
	for (i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ(atomic_read(&sbq.ws_active), 0);
	CHECK_EQ(smq_sbq_resize(&sbq, 17), -EINVAL);
	smq_sbq_free(&sbq);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_uk_wait_queue),
	SMQ_TEST(test_alloc_all_free_all),
	SMQ_TEST(test_init_errors),
	SMQ_TEST(test_shallow_exact),
	SMQ_TEST(test_hint_reuse),
	SMQ_TEST(test_sbq_hint_reuse),
	SMQ_TEST(test_clear_batch),
	SMQ_TEST(test_sbq_clear_batch),
	SMQ_TEST(test_round_robin),
	SMQ_TEST(test_resize),
	SMQ_TEST(test_for_each_set),
	SMQ_TEST(test_for_each_word),
	SMQ_TEST(test_wake_batch_calc),
	SMQ_TEST(test_wake_batch_single),
	SMQ_TEST(test_wake_all_and_resize),
	SMQ_TEST(test_persistent_waiter),
	SMQ_TEST(test_stress_bitmap_no_double_alloc),
	SMQ_TEST(test_stress_no_lost_wakeup_depth4),
	SMQ_TEST(test_stress_no_lost_wakeup_batch8),
	SMQ_TEST(test_stress_round_robin),
	SMQ_TEST(test_stress_shallow),
	SMQ_TEST(test_stress_shared_tags),
	SMQ_TEST(test_stress_per_hctx),
	SMQ_TEST(test_rounds_depth1),
	SMQ_TEST(test_rounds_one_word),
	SMQ_TEST(test_rounds_batch8),
	SMQ_TEST(test_rounds_shallow),
};

int main(void)
{
	return smq_test_main("test_sbitmap", tests, ARRAY_SIZE(tests));
}
