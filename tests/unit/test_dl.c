// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of block/smq_dl.c, the deadline scheduling core: hand-checked
 * scenarios on a fake clock (one tick = 1 ms unless a test says
 * otherwise), then a randomized stress against a brute-force reference
 * model (arrays and linear scans, no trees) that also checks the
 * structural invariants after every operation, that every queued node
 * leaves exactly once, and the starvation bounds.
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/dl.h>

#define R	SMQ_DL_READ
#define W	SMQ_DL_WRITE

/* ---------------------------------------------------------------------- */
/* Structural validation (white box).                                     */

struct vstate {
	const struct smq_dl_node *pool;
	unsigned int pool_n;
	unsigned char *mark;	/* per pool node: bit0 sort, bit1 end, bit2 fifo/head */
	bool ok;
	const char *why;
	const struct smq_dl_node *prev;
	unsigned int cnt;
};

static void vfail(struct vstate *v, const char *why)
{
	if (v->ok) {
		v->ok = false;
		v->why = why;
	}
}

static const struct smq_dl_node *vnode(const struct rb_node *x, bool end)
{
	return end ? rb_entry(x, struct smq_dl_node, end_rb) :
		     rb_entry(x, struct smq_dl_node, sort_rb);
}

static u64 vkey(const struct smq_dl_node *n, bool end)
{
	return end ? n->sector + n->nr_sectors : n->sector;
}

static void vmark(struct vstate *v, const struct smq_dl_node *n, int bit)
{
	long i;

	if (!v->pool)
		return;
	i = n - v->pool;
	if (i < 0 || (unsigned long)i >= v->pool_n) {
		vfail(v, "node outside the pool");
		return;
	}
	if (v->mark[i] & (1 << bit))
		vfail(v, "node linked twice");
	v->mark[i] |= 1 << bit;
}

/*
 * In-order walk of the subtree at @x: parent links, (key, seq) order,
 * state and direction of every node.  The red-black rules themselves are
 * the shim's (uk_rb_check(), tests/unit/lib/rbtree.c).
 */
static void vrb(struct vstate *v, const struct rb_node *x,
		const struct rb_node *parent, bool end, int dir, int depth)
{
	const struct smq_dl_node *n;

	if (!x)
		return;
	if (depth > 128) {
		vfail(v, "tree too deep (cycle?)");
		return;
	}
	if (rb_parent(x) != parent)
		vfail(v, "bad parent link");
	vrb(v, x->rb_left, x, end, dir, depth + 1);
	n = vnode(x, end);
	if (n->state != SMQ_DL_SORTED)
		vfail(v, "tree node not in SORTED state");
	if (n->dir != dir)
		vfail(v, "tree node in the wrong direction");
	if (v->prev) {
		u64 pk = vkey(v->prev, end), k = vkey(n, end);

		if (pk > k || (pk == k && v->prev->seq >= n->seq))
			vfail(v, "tree out of (key, seq) order");
	}
	v->prev = n;
	v->cnt++;
	vmark(v, n, end ? 1 : 0);
	vrb(v, x->rb_right, x, end, dir, depth + 1);
}

/*
 * Check every invariant of @dl.  With a pool, also that each pool node is
 * linked in exactly the structures its state says.  @fifo_sorted: FIFO
 * expiries must be non-decreasing (fixed expire times, monotonic clock).
 */
static bool dl_validate(const struct smq_dl *dl, const struct smq_dl_node *pool,
			unsigned int pool_n, bool fifo_sorted, const char **why)
{
	static unsigned char mark[1 << 16];
	struct vstate v = { .pool = pool, .pool_n = pool_n, .mark = mark,
			    .ok = true };
	unsigned int head_cnt[2] = { 0, 0 };
	const struct list_head *pos;
	unsigned int i;
	int dir;

	if (pool)
		memset(mark, 0, pool_n);
	for (dir = 0; dir < 2; dir++) {
		unsigned int sort_cnt, fifo_cnt = 0;
		const struct smq_dl_node *prev = NULL;

		const char *rb_why = NULL;

		if (uk_rb_check(&dl->sort_root[dir], &rb_why) < 0 ||
		    uk_rb_check(&dl->end_root[dir], &rb_why) < 0)
			vfail(&v, rb_why);
		v.prev = NULL;
		v.cnt = 0;
		vrb(&v, dl->sort_root[dir].rb_node, NULL, false, dir, 0);
		sort_cnt = v.cnt;
		v.prev = NULL;
		v.cnt = 0;
		vrb(&v, dl->end_root[dir].rb_node, NULL, true, dir, 0);
		if (v.cnt != sort_cnt)
			vfail(&v, "sort and end trees differ in size");
		for (pos = dl->fifo[dir].next; pos != &dl->fifo[dir];
		     pos = pos->next) {
			const struct smq_dl_node *n =
				list_entry(pos, struct smq_dl_node, fifo);

			if (pos->next->prev != pos)
				vfail(&v, "broken FIFO links");
			if (n->state != SMQ_DL_SORTED || n->dir != dir)
				vfail(&v, "FIFO node in wrong state/dir");
			if (fifo_sorted && prev &&
			    (s64)(n->fifo_time - prev->fifo_time) < 0)
				vfail(&v, "FIFO out of expiry order");
			prev = n;
			vmark(&v, n, 2);
			if (++fifo_cnt > (1U << 20))
				break;
		}
		if (fifo_cnt != sort_cnt)
			vfail(&v, "FIFO and tree differ in size");
		if (!fifo_cnt != list_empty(&dl->fifo[dir]))
			vfail(&v, "list_empty disagrees");
		head_cnt[dir] = sort_cnt;
	}
	for (pos = dl->at_head.next; pos != &dl->at_head; pos = pos->next) {
		const struct smq_dl_node *n =
			list_entry(pos, struct smq_dl_node, fifo);

		if (n->state != SMQ_DL_AT_HEAD || n->dir > 1)
			vfail(&v, "at-head node in wrong state");
		else
			head_cnt[n->dir]++;
		vmark(&v, n, 2);
	}
	for (dir = 0; dir < 2; dir++)
		if (head_cnt[dir] != dl->count[dir] ||
		    smq_dl_count(dl, dir) != dl->count[dir])
			vfail(&v, "count mismatch");
	if (smq_dl_has_work(dl) != (dl->count[0] + dl->count[1] > 0))
		vfail(&v, "has_work mismatch");
	for (i = 0; pool && i < pool_n; i++) {
		unsigned char want = pool[i].state == SMQ_DL_SORTED ? 7 :
				     pool[i].state == SMQ_DL_AT_HEAD ? 4 : 0;

		if (mark[i] != want)
			vfail(&v, "node linkage disagrees with its state");
	}
	if (why)
		*why = v.why;
	return v.ok;
}

#define VALIDATE(dl, pool, n)						\
	do {								\
		const char *__why = NULL;				\
		if (!dl_validate(dl, pool, n, true, &__why))		\
			smq_t_fail(__FILE__, __LINE__, "invariant: %s", __why); \
	} while (0)

/* ---------------------------------------------------------------------- */
/* Hand-checked scenarios.                                                */

static struct smq_dl_params params(u64 rexp, u64 wexp, unsigned int ws,
				   unsigned int batch, bool front)
{
	struct smq_dl_params p = {
		.read_expire = rexp, .write_expire = wexp,
		.writes_starved = ws, .fifo_batch = batch,
		.front_merges = front,
	};
	return p;
}

/* A small pool of nodes: slot i. */
#define HN	64
static struct smq_dl_node hn[HN];

static struct smq_dl_node *ins(struct smq_dl *dl, int i, int dir, u64 sector,
			       u32 nr, u64 now)
{
	smq_dl_node_init(&hn[i], sector, nr, dir);
	smq_dl_insert(dl, &hn[i], now, false);
	return &hn[i];
}

/* A fresh scheduler and an all-idle pool. */
static void setup(struct smq_dl *dl, const struct smq_dl_params *p)
{
	int i;

	for (i = 0; i < HN; i++)
		smq_dl_node_init(&hn[i], 0, 0, R);
	smq_dl_init(dl, p);
}

/* Sector of the next dispatch, or -1 for NULL. */
static long long dsp(struct smq_dl *dl, u64 now)
{
	struct smq_dl_node *n = smq_dl_dispatch(dl, now);

	if (n && n->state != SMQ_DL_IDLE)
		smq_t_fail(__FILE__, __LINE__, "dispatched node not idle");
	return n ? (long long)n->sector : -1;
}

static void test_defaults(void)
{
	struct smq_dl_params p;
	struct smq_dl dl;

	smq_dl_params_default(&p, 1000);
	CHECK_EQ(p.read_expire, 500);
	CHECK_EQ(p.write_expire, 5000);
	CHECK_EQ(p.writes_starved, 2);
	CHECK_EQ(p.fifo_batch, 16);
	CHECK(p.front_merges);
	smq_dl_params_default(&p, 250);
	CHECK_EQ(p.read_expire, 125);
	CHECK_EQ(p.write_expire, 1250);
	setup(&dl, &p);
	CHECK(!smq_dl_has_work(&dl));
	CHECK_EQ(smq_dl_count(&dl, R), 0);
	CHECK_EQ(smq_dl_count(&dl, W), 0);
	CHECK_EQ(smq_dl_count(&dl, 7), 0);
	CHECK(smq_dl_dispatch(&dl, 0) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, R, 0) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, W, 0) == NULL);
	/* Linux starts "in a write batch" of zero requests. */
	CHECK_EQ(dl.last_dir, W);
	CHECK_EQ(dl.batching, 0);
	VALIDATE(&dl, hn, HN);
}

/*
 * Sorted order inside a batch; later arrivals above the position join it;
 * no wrap-around: a lower sector waits for the FIFO restart.
 */
static void test_sector_order(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl dl;

	setup(&dl, &p);
	ins(&dl, 0, R, 50, 8, 0);
	ins(&dl, 1, R, 10, 8, 0);
	ins(&dl, 2, R, 30, 8, 0);
	ins(&dl, 3, R, 20, 8, 0);
	ins(&dl, 4, R, 40, 8, 0);
	CHECK_EQ(smq_dl_count(&dl, R), 5);
	VALIDATE(&dl, hn, HN);
	CHECK_EQ(dsp(&dl, 1), 10);
	CHECK_EQ(dl.last_dir, R);
	CHECK_EQ(dl.batching, 1);
	CHECK_EQ(dsp(&dl, 1), 20);
	ins(&dl, 5, R, 5, 8, 2);
	ins(&dl, 6, R, 25, 8, 2);
	ins(&dl, 7, R, 20, 8, 2);	/* == latest position: still "next" */
	VALIDATE(&dl, hn, HN);
	CHECK_EQ(dsp(&dl, 3), 20);
	CHECK_EQ(dsp(&dl, 3), 25);
	CHECK_EQ(dsp(&dl, 3), 30);
	CHECK_EQ(dsp(&dl, 3), 40);
	CHECK_EQ(dsp(&dl, 3), 50);
	CHECK_EQ(dl.batching, 7);
	/* Nothing at or above 50: new batch from the FIFO head (sector 5). */
	CHECK_EQ(dsp(&dl, 3), 5);
	CHECK_EQ(dl.batching, 1);
	CHECK_EQ(dsp(&dl, 3), -1);
	CHECK(!smq_dl_has_work(&dl));
	VALIDATE(&dl, hn, HN);
}

/* Equal start sectors go out in the order they were inserted. */
static void test_equal_sectors(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl dl;
	int i;

	setup(&dl, &p);
	for (i = 0; i < 6; i++)
		ins(&dl, i, W, 100 + (i & 1) * 100, 8, i);
	VALIDATE(&dl, hn, HN);
	/* Initial write batch: 100 (slots 0, 2, 4), then 200 (1, 3, 5). */
	for (i = 0; i < 6; i++) {
		struct smq_dl_node *n = smq_dl_dispatch(&dl, 10);

		CHECK(n == &hn[(i < 3) ? 2 * i : 2 * (i - 3) + 1]);
	}
}

/* The very first dispatch continues Linux's initial (empty) write batch. */
static void test_initial_write_batch(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl dl;

	setup(&dl, &p);
	ins(&dl, 0, R, 10, 8, 0);
	ins(&dl, 1, R, 20, 8, 0);
	ins(&dl, 2, W, 2000, 8, 0);
	ins(&dl, 3, W, 1000, 8, 0);
	CHECK_EQ(dsp(&dl, 1), 1000);
	CHECK_EQ(dsp(&dl, 1), 2000);
	CHECK_EQ(dl.batching, 2);
	/* No write above 2000: new batch, reads (no writes wait). */
	CHECK_EQ(dsp(&dl, 1), 10);
	CHECK_EQ(dl.starved, 0);
	CHECK_EQ(dsp(&dl, 1), 20);
	CHECK_EQ(dsp(&dl, 1), -1);
}

static void test_fifo_batch(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 4, true);
	static const long long want[] = { 20, 30, 40, 50, 60, 70, 80,
					  1000, 1010 };
	static const unsigned int bat[] = { 2, 3, 4, 1, 2, 3, 4, 1, 2 };
	struct smq_dl dl;
	unsigned int i;

	setup(&dl, &p);
	for (i = 0; i < 8; i++)
		ins(&dl, i, R, 10 * (i + 1), 8, 0);
	CHECK_EQ(dsp(&dl, 1), 10);		/* read batch starts */
	ins(&dl, 8, W, 1000, 8, 1);
	ins(&dl, 9, W, 1010, 8, 1);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		CHECK_EQ(dsp(&dl, 2), want[i]);
		CHECK_EQ(dl.batching, bat[i]);
		CHECK_EQ(dl.last_dir, i < 7 ? R : W);
	}
	/* The batch at 50 started over a waiting write: starved once. */
	CHECK_EQ(dl.starved, 0);
	CHECK_EQ(dsp(&dl, 2), -1);

	/* fifo_batch 0 behaves like 1: every dispatch starts a batch. */
	p = params(500, 5000, 2, 0, true);
	setup(&dl, &p);
	ins(&dl, 0, R, 10, 8, 0);
	ins(&dl, 1, R, 20, 8, 0);
	ins(&dl, 2, W, 5, 8, 0);
	CHECK_EQ(dsp(&dl, 1), 10);	/* initial write batch is already full */
	CHECK_EQ(dl.starved, 1);
	CHECK_EQ(dsp(&dl, 1), 20);
	CHECK_EQ(dl.starved, 2);
	CHECK_EQ(dsp(&dl, 1), 5);
	CHECK_EQ(dl.starved, 0);
}

/* A batch start jumps to the FIFO head once it has expired (now >= expiry). */
static void expiry_case(u64 t, const long long *want, unsigned int nw)
{
	struct smq_dl_params p = params(500, 5000, 2, 4, true);
	struct smq_dl dl;
	unsigned int i;

	setup(&dl, &p);
	ins(&dl, 0, R, 300, 8, 0);
	CHECK_EQ(dsp(&dl, 0), 300);
	ins(&dl, 1, R, 50, 8, 10);		/* expires at 510 */
	for (i = 0; i < 6; i++)
		ins(&dl, 2 + i, R, 400 + 100 * i, 8, 20);
	CHECK_EQ(hn[1].fifo_time, 510);
	CHECK_EQ(hn[2].fifo_time, 520);
	CHECK_EQ(dsp(&dl, 30), 400);
	CHECK_EQ(dsp(&dl, 30), 500);
	CHECK_EQ(dsp(&dl, 30), 600);
	for (i = 0; i < nw; i++)
		CHECK_EQ(dsp(&dl, t), want[i]);
	CHECK_EQ(dsp(&dl, t), -1);
}

static void test_expiry(void)
{
	/*
	 * 509: not expired, the new batch continues in sector order and
	 * only the end of the sorted run brings the FIFO head.
	 */
	static const long long w509[] = { 700, 800, 900, 50 };
	/* 510: expired, the new batch starts at 50 and continues up. */
	static const long long w510[] = { 50, 700, 800, 900 };

	expiry_case(509, w509, ARRAY_SIZE(w509));
	expiry_case(510, w510, ARRAY_SIZE(w510));
}

/* Expiry comparisons survive clock wrap-around. */
static void test_clock_wrap(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 4, true);
	u64 t0 = U64_MAX - 200;
	struct smq_dl dl;

	setup(&dl, &p);
	ins(&dl, 0, R, 300, 8, t0);
	CHECK_EQ(dsp(&dl, t0), 300);
	ins(&dl, 1, R, 50, 8, t0);		/* expires at t0 + 500 (wrapped) */
	ins(&dl, 2, R, 400, 8, t0);
	ins(&dl, 3, R, 500, 8, t0);
	ins(&dl, 4, R, 600, 8, t0);
	ins(&dl, 5, R, 700, 8, t0);
	CHECK(hn[1].fifo_time < t0);
	CHECK_EQ(dsp(&dl, t0), 400);
	CHECK_EQ(dsp(&dl, t0), 500);
	CHECK_EQ(dsp(&dl, t0), 600);
	CHECK_EQ(dsp(&dl, t0 + 500), 50);	/* expired across the wrap */
	CHECK_EQ(dsp(&dl, t0 + 500), 700);
	VALIDATE(&dl, hn, HN);
}

static void test_reads_preferred(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 1, true);
	struct smq_dl dl;

	setup(&dl, &p);
	ins(&dl, 0, R, 1, 8, 0);
	CHECK_EQ(dsp(&dl, 0), 1);		/* leave the initial write batch */
	ins(&dl, 1, W, 500, 8, 1);		/* older write */
	ins(&dl, 2, R, 10, 8, 2);
	CHECK_EQ(dsp(&dl, 3), 10);		/* read wins over the older write */
	CHECK_EQ(dl.starved, 1);
	CHECK_EQ(dsp(&dl, 3), 500);
	CHECK_EQ(dl.starved, 0);		/* a write batch resets it */
	CHECK_EQ(dsp(&dl, 3), -1);
}

static void test_writes_starved(void)
{
	static const long long want[] = { 10, 20, 30, 40, 50, 900, 60, 70,
					  80 };
	static const unsigned int starved[] = { 0, 1, 1, 2, 2, 0, 0, 0, 0 };
	struct smq_dl_params p = params(500, 5000, 2, 2, true);
	struct smq_dl dl;
	unsigned int i;

	setup(&dl, &p);
	ins(&dl, 20, R, 1, 8, 0);
	CHECK_EQ(dsp(&dl, 0), 1);
	ins(&dl, 0, W, 900, 8, 1);
	for (i = 0; i < 8; i++)
		ins(&dl, 1 + i, R, 10 * (i + 1), 8, 2);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		CHECK_EQ(dsp(&dl, 3), want[i]);
		CHECK_EQ(dl.starved, starved[i]);
	}

	/* writes_starved 0: a waiting write takes every new batch. */
	p = params(500, 5000, 0, 2, true);
	setup(&dl, &p);
	ins(&dl, 20, R, 1, 8, 0);
	CHECK_EQ(dsp(&dl, 0), 1);
	ins(&dl, 0, W, 900, 8, 1);
	ins(&dl, 1, W, 950, 8, 1);
	ins(&dl, 2, W, 990, 8, 1);
	ins(&dl, 3, R, 10, 8, 2);
	ins(&dl, 4, R, 20, 8, 2);
	CHECK_EQ(dsp(&dl, 3), 10);	/* batch continues */
	CHECK_EQ(dsp(&dl, 3), 900);
	CHECK_EQ(dsp(&dl, 3), 950);
	CHECK_EQ(dsp(&dl, 3), 990);	/* new batch: writes again */
	CHECK_EQ(dsp(&dl, 3), 20);
}

/*
 * A stream of writes, one inserted and one dispatched per tick: a read
 * waits at most for the write batch in progress.  Hand-checked for the
 * first read: write batches are ticks 0-15, 16-31, 32-47, 48-63; the read
 * inserted at tick 50 goes at tick 64.
 */
static void test_read_latency_write_stream(void)
{
	struct smq_dl_params p;
	static struct smq_dl_node ws[2000], rd[20];
	unsigned int nr = 0, next_r = 0;
	u64 rd_at[20], t;
	struct smq_dl dl;
	unsigned int worst = 0;

	smq_dl_params_default(&p, 1000);
	setup(&dl, &p);
	for (t = 0; t < 2000; t++) {
		struct smq_dl_node *n;

		smq_dl_node_init(&ws[t], 1000 + 8 * t, 8, W);
		smq_dl_insert(&dl, &ws[t], t, false);
		if (t == 50 || (t > 50 && t % 97 == 0 && next_r < 20)) {
			smq_dl_node_init(&rd[next_r], 7 * next_r, 8, R);
			smq_dl_insert(&dl, &rd[next_r], t, false);
			rd_at[next_r++] = t;
		}
		n = smq_dl_dispatch(&dl, t);
		CHECK(n != NULL);
		if (n && n->dir == R) {
			unsigned int i = n - rd;

			if (i == 0)
				CHECK_EQ(t, 64);
			worst = max(worst, (unsigned int)(t - rd_at[i]));
			nr++;
		}
	}
	CHECK_EQ(nr, next_r);
	CHECK(worst <= p.fifo_batch);
	CHECK(worst <= p.read_expire + p.fifo_batch);
}

/*
 * Reads at rising sectors and writes, two arrivals and one dispatch per
 * tick, plus one early read at a low sector that sorted order never
 * reaches: it must go once expired, within two batches.
 */
static void test_read_latency_expiry(void)
{
	struct smq_dl_params p = params(100, 1000, 2, 4, true);
	static struct smq_dl_node ws[600], rs[600], low;
	struct smq_dl dl;
	u64 t, got = 0;

	setup(&dl, &p);
	smq_dl_node_init(&rs[0], 100, 8, R);
	smq_dl_insert(&dl, &rs[0], 0, false);
	CHECK(smq_dl_dispatch(&dl, 0) == &rs[0]);
	smq_dl_node_init(&low, 0, 8, R);
	smq_dl_insert(&dl, &low, 0, false);	/* expires at 100 */
	for (t = 1; t < 600; t++) {
		struct smq_dl_node *n;

		smq_dl_node_init(&ws[t], 100000 + 8 * t, 8, W);
		smq_dl_insert(&dl, &ws[t], t, false);
		smq_dl_node_init(&rs[t], 100 + 8 * t, 8, R);
		smq_dl_insert(&dl, &rs[t], t, false);
		n = smq_dl_dispatch(&dl, t);
		if (n == &low)
			got = t;
	}
	CHECK(got >= 100);
	CHECK(got <= 100 + 2 * p.fifo_batch);
}

static void test_at_head(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl dl;
	unsigned int batching;

	setup(&dl, &p);
	ins(&dl, 0, R, 10, 8, 0);
	ins(&dl, 1, R, 20, 8, 0);
	CHECK_EQ(dsp(&dl, 1), 10);
	batching = dl.batching;
	smq_dl_node_init(&hn[2], 5000, 8, W);
	smq_dl_insert(&dl, &hn[2], 2, true);
	smq_dl_node_init(&hn[3], 7, 8, R);
	smq_dl_insert(&dl, &hn[3], 3, true);
	CHECK_EQ(hn[3].fifo_time, 3);
	CHECK_EQ(smq_dl_count(&dl, R), 2);
	CHECK_EQ(smq_dl_count(&dl, W), 1);
	/* Not merge candidates. */
	CHECK(smq_dl_find_back_merge(&dl, W, 5008) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, R, 7) == NULL);
	CHECK(smq_dl_former(&hn[3]) == NULL);
	VALIDATE(&dl, hn, HN);
	/* Most recent at-head first, before the running batch. */
	CHECK_EQ(dsp(&dl, 4), 7);
	CHECK_EQ(dsp(&dl, 4), 5000);
	CHECK_EQ(dl.batching, batching);
	CHECK_EQ(dl.latest_pos[R], 7);
	CHECK_EQ(dl.latest_pos[W], 5000);
	CHECK_EQ(dsp(&dl, 4), 20);
	CHECK_EQ(dsp(&dl, 4), -1);

	/* Only at-head work; removal of an at-head node. */
	smq_dl_node_init(&hn[4], 1, 8, R);
	smq_dl_insert(&dl, &hn[4], 5, true);
	smq_dl_node_init(&hn[5], 2, 8, R);
	smq_dl_insert(&dl, &hn[5], 5, true);
	CHECK(smq_dl_has_work(&dl));
	smq_dl_remove(&dl, &hn[5]);
	CHECK(!smq_dl_queued(&hn[5]));
	CHECK_EQ(smq_dl_count(&dl, R), 1);
	VALIDATE(&dl, hn, HN);
	CHECK(smq_dl_dispatch(&dl, 6) == &hn[4]);
	CHECK(!smq_dl_has_work(&dl));
}

static void test_merge_lookups(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl_node *a, *b, *c, *d, *e, *f;
	struct smq_dl dl;

	setup(&dl, &p);
	a = ins(&dl, 0, R, 100, 8, 0);
	b = ins(&dl, 1, R, 200, 8, 0);
	c = ins(&dl, 2, W, 108, 8, 0);
	d = ins(&dl, 3, R, 50, 50, 0);
	e = ins(&dl, 4, R, 292, 8, 0);
	f = ins(&dl, 5, R, 296, 4, 0);
	VALIDATE(&dl, hn, HN);
	CHECK(smq_dl_find_back_merge(&dl, R, 108) == a);
	CHECK(smq_dl_find_back_merge(&dl, R, 100) == d);
	CHECK(smq_dl_find_back_merge(&dl, W, 108) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, W, 116) == c);
	CHECK(smq_dl_find_back_merge(&dl, R, 116) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, R, 300) == e);	/* first in */
	CHECK(smq_dl_find_back_merge(&dl, 2, 300) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, R, 100) == a);
	CHECK(smq_dl_find_front_merge(&dl, R, 200) == b);
	CHECK(smq_dl_find_front_merge(&dl, R, 150) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, W, 108) == c);
	CHECK(smq_dl_find_front_merge(&dl, R, 108) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, R, 1000) == NULL);
	CHECK(smq_dl_latter(d) == a);
	CHECK(smq_dl_former(a) == d);
	CHECK(smq_dl_former(d) == NULL);
	CHECK(smq_dl_latter(b) == e);
	CHECK(smq_dl_latter(f) == NULL);
	CHECK(smq_dl_latter(c) == NULL);

	/* front_merges off: no front candidates, back merges unaffected. */
	dl.params.front_merges = false;
	CHECK(smq_dl_find_front_merge(&dl, R, 100) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, W, 108) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, R, 108) == a);

	/* Removal takes a node out of every lookup. */
	smq_dl_remove(&dl, e);
	CHECK(smq_dl_find_back_merge(&dl, R, 300) == f);
	CHECK(smq_dl_latter(b) == f);
	CHECK(smq_dl_latter(e) == NULL);
	VALIDATE(&dl, hn, HN);

	p = params(500, 5000, 2, 16, false);
	setup(&dl, &p);
	a = ins(&dl, 0, R, 100, 8, 0);
	CHECK(smq_dl_find_front_merge(&dl, R, 100) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, R, 108) == a);
}

static void test_resized(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl_node *a, *b, *c;
	struct smq_dl dl;

	setup(&dl, &p);
	a = ins(&dl, 0, R, 100, 8, 0);
	b = ins(&dl, 1, R, 92, 4, 0);
	c = ins(&dl, 2, R, 120, 8, 0);

	/* Back merge: end moves, start and order stay. */
	smq_dl_resized(&dl, a, 100, 16);
	VALIDATE(&dl, hn, HN);
	CHECK(smq_dl_find_back_merge(&dl, R, 108) == NULL);
	CHECK(smq_dl_find_back_merge(&dl, R, 116) == a);
	CHECK(smq_dl_find_front_merge(&dl, R, 100) == a);

	/* Front merge down to 92: after b, which already starts there. */
	smq_dl_resized(&dl, a, 92, 24);
	VALIDATE(&dl, hn, HN);
	CHECK(smq_dl_find_front_merge(&dl, R, 100) == NULL);
	CHECK(smq_dl_find_front_merge(&dl, R, 92) == b);
	CHECK(smq_dl_find_back_merge(&dl, R, 116) == a);
	CHECK(smq_dl_latter(b) == a);
	CHECK(smq_dl_latter(a) == c);
	CHECK_EQ(a->fifo_time, 500);

	/* Same end, new length: nothing moves. */
	smq_dl_resized(&dl, c, 120, 8);
	VALIDATE(&dl, hn, HN);

	/* Up past c. */
	smq_dl_resized(&dl, b, 200, 4);
	VALIDATE(&dl, hn, HN);
	CHECK(smq_dl_latter(c) == b);
	CHECK_EQ(dsp(&dl, 1), 92);
	CHECK_EQ(dsp(&dl, 1), 120);
	CHECK_EQ(dsp(&dl, 1), 200);

	/* Idle node: fields only. */
	smq_dl_resized(&dl, a, 1, 2);
	CHECK_EQ(a->sector, 1);
	CHECK_EQ(a->nr_sectors, 2);
	VALIDATE(&dl, hn, HN);
}

static void test_merged(void)
{
	struct smq_dl_params p = params(500, 5000, 2, 16, true);
	struct smq_dl_node *a, *b, *c, *x, *y;
	struct smq_dl dl;

	setup(&dl, &p);
	a = ins(&dl, 0, R, 100, 8, 0);		/* 500 */
	y = ins(&dl, 4, R, 308, 8, 1);		/* 501 */
	b = ins(&dl, 1, R, 108, 8, 10);		/* 510 */
	c = ins(&dl, 2, R, 50, 8, 20);		/* 520 */
	x = ins(&dl, 3, R, 300, 8, 40);		/* 540 */

	/* b into a: a is older, FIFO keeps a in front. */
	smq_dl_resized(&dl, a, 100, 16);
	smq_dl_merged(&dl, a, b);
	CHECK(!smq_dl_queued(b));
	CHECK_EQ(a->fifo_time, 500);
	CHECK_EQ(smq_dl_count(&dl, R), 4);
	CHECK(smq_dl_find_front_merge(&dl, R, 108) == NULL);
	VALIDATE(&dl, hn, HN);

	/* y (older) into x: x takes y's FIFO place and expiry. */
	smq_dl_merged(&dl, x, y);
	smq_dl_resized(&dl, x, 300, 16);
	CHECK_EQ(x->fifo_time, 501);
	CHECK(list_entry(dl.fifo[R].next, struct smq_dl_node, fifo) == a);
	CHECK(list_entry(dl.fifo[R].next->next, struct smq_dl_node,
			 fifo) == x);
	CHECK(list_entry(dl.fifo[R].prev, struct smq_dl_node, fifo) == c);
	CHECK(smq_dl_find_back_merge(&dl, R, 316) == x);
	VALIDATE(&dl, hn, HN);

	/* An insert merge: the gone side was never queued. */
	smq_dl_node_init(&hn[5], 316, 8, R);
	smq_dl_merged(&dl, x, &hn[5]);
	CHECK_EQ(smq_dl_count(&dl, R), 3);
	VALIDATE(&dl, hn, HN);

	/* A read batch from sector 0 (the initial write batch is empty). */
	CHECK_EQ(dsp(&dl, 2), 50);
	CHECK_EQ(dsp(&dl, 2), 100);
	CHECK_EQ(dsp(&dl, 2), 300);
	CHECK_EQ(dsp(&dl, 2), -1);

	/* The FIFO jump uses the inherited expiry. */
	setup(&dl, &p);
	ins(&dl, 9, R, 1, 8, 0);
	CHECK_EQ(dsp(&dl, 0), 1);
	a = ins(&dl, 0, R, 900, 8, 0);		/* 500 */
	b = ins(&dl, 1, R, 10, 8, 5);		/* 505 */
	c = ins(&dl, 2, R, 20, 8, 6);		/* 506 */
	x = ins(&dl, 3, R, 18, 2, 7);		/* 507 */
	smq_dl_merged(&dl, c, a);		/* c: FIFO head, expires at 500 */
	CHECK_EQ(c->fifo_time, 500);
	CHECK(list_entry(dl.fifo[R].next, struct smq_dl_node, fifo) == c);
	VALIDATE(&dl, hn, HN);
	dl.batching = p.fifo_batch;		/* end the running batch */
	CHECK_EQ(dsp(&dl, 500), 20);		/* expired head, not 10 */
	CHECK_EQ(dsp(&dl, 500), 10);		/* nothing >= 20: FIFO head */
	CHECK_EQ(dsp(&dl, 500), 18);
	CHECK_EQ(dsp(&dl, 500), -1);
}

/* ---------------------------------------------------------------------- */
/* Randomized stress against a brute-force reference model.               */

#define SN	1024

struct model_node {
	u8 state;	/* SMQ_DL_* */
	u8 dir;
	u64 sector;
	u32 nr;
	u64 seq;
	u64 fifo_time;
	u64 fifo_rank;	/* order in the FIFO (ties impossible) */
	u64 head_rank;	/* at-head: larger goes first */
};

struct model {
	struct model_node n[SN];
	int q[SN];		/* indices of the queued nodes */
	int qpos[SN];
	int nq;
	u64 latest_pos[2];
	int last_dir;
	unsigned int batching, starved;
	u64 seq, fifo_rank, head_rank;
	struct smq_dl_params p;
};

static void m_add(struct model *m, int i)
{
	m->qpos[i] = m->nq;
	m->q[m->nq++] = i;
}

static void m_del(struct model *m, int i)
{
	int last = m->q[--m->nq];

	m->q[m->qpos[i]] = last;
	m->qpos[last] = m->qpos[i];
	m->n[i].state = SMQ_DL_IDLE;
}

static bool m_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static int m_fifo_head(const struct model *m, int dir)
{
	int j, best = -1;

	for (j = 0; j < m->nq; j++) {
		int i = m->q[j];

		if (m->n[i].state == SMQ_DL_SORTED && m->n[i].dir == dir &&
		    (best < 0 || m->n[i].fifo_rank < m->n[best].fifo_rank))
			best = i;
	}
	return best;
}

/* Lowest (sector, seq) of @dir at or above @pos. */
static int m_lower(const struct model *m, int dir, u64 pos, bool end)
{
	int j, best = -1;

	for (j = 0; j < m->nq; j++) {
		int i = m->q[j];
		const struct model_node *x = &m->n[i];
		u64 k = end ? x->sector + x->nr : x->sector;
		u64 bk;

		if (x->state != SMQ_DL_SORTED || x->dir != dir || k < pos)
			continue;
		if (best >= 0) {
			bk = end ? m->n[best].sector + m->n[best].nr :
				   m->n[best].sector;
			if (k > bk || (k == bk && x->seq > m->n[best].seq))
				continue;
		}
		best = i;
	}
	return best;
}

static void m_insert(struct model *m, int i, int dir, u64 sector, u32 nr,
		     u64 now, bool at_head)
{
	struct model_node *x = &m->n[i];

	m_add(m, i);
	x->dir = dir;
	x->sector = sector;
	x->nr = nr;
	if (at_head) {
		x->state = SMQ_DL_AT_HEAD;
		x->head_rank = ++m->head_rank;
		x->fifo_time = now;
		return;
	}
	x->state = SMQ_DL_SORTED;
	x->seq = m->seq++;
	x->fifo_rank = ++m->fifo_rank;
	x->fifo_time = now + (dir ? m->p.write_expire : m->p.read_expire);
}

static bool m_fifo_empty(const struct model *m, int dir)
{
	return m_fifo_head(m, dir) < 0;
}

/* Returns the index of the node to dispatch, -1 for none. */
static int m_dispatch(struct model *m, u64 now)
{
	int j, best = -1, dir, next;

	for (j = 0; j < m->nq; j++) {
		int i = m->q[j];

		if (m->n[i].state == SMQ_DL_AT_HEAD &&
		    (best < 0 || m->n[i].head_rank > m->n[best].head_rank))
			best = i;
	}
	if (best >= 0)
		goto out;
	best = m_lower(m, m->last_dir, m->latest_pos[m->last_dir], false);
	if (best >= 0 && m->batching < m->p.fifo_batch) {
		m->batching++;
		goto out;
	}
	if (!m_fifo_empty(m, R)) {
		if (!m_fifo_empty(m, W) && m->starved++ >= m->p.writes_starved) {
			dir = W;
			m->starved = 0;
		} else {
			dir = R;
		}
	} else if (!m_fifo_empty(m, W)) {
		dir = W;
		m->starved = 0;
	} else {
		return -1;
	}
	next = m_lower(m, dir, m->latest_pos[dir], false);
	best = m_fifo_head(m, dir);
	if (next >= 0 && m_before(now, m->n[best].fifo_time))
		best = next;
	m->last_dir = dir;
	m->batching = 1;
out:
	m->latest_pos[m->n[best].dir] = m->n[best].sector;
	m_del(m, best);
	return best;
}

static void m_resized(struct model *m, int i, u64 sector, u32 nr)
{
	struct model_node *x = &m->n[i];

	if (x->state == SMQ_DL_SORTED && sector != x->sector)
		x->seq = m->seq++;
	x->sector = sector;
	x->nr = nr;
}

static void m_merged(struct model *m, int into, int gone)
{
	struct model_node *a = &m->n[into], *b = &m->n[gone];

	if (a->state == SMQ_DL_SORTED && b->state == SMQ_DL_SORTED &&
	    m_before(b->fifo_time, a->fifo_time)) {
		a->fifo_rank = b->fifo_rank;
		a->fifo_time = b->fifo_time;
	}
	m_del(m, gone);
}

struct stress_cfg {
	struct smq_dl_params p;
	u64 t0;
	u64 sector_span;	/* sectors drawn from [0, span) */
	unsigned int max_nr;
	unsigned int ops;
	unsigned int target;	/* queue size the op mix drifts towards */
	unsigned int head_pct;	/* at-head share of inserts */
	unsigned int max_step;	/* clock advance per op: [0, max_step] */
};

struct stress_stats {
	unsigned long inserts, dispatches, removes, merges, bio_merges;
	unsigned long expired_jumps, batches, max_wait[2];
};

/* One stress run: the scheduler, its model and the property trackers. */
struct stress {
	const struct stress_cfg *cfg;
	struct stress_stats *st;
	struct smq_dl dl;
	u64 now, rng, seed;
	unsigned int op, queued;
	unsigned long ins_n[SN], out_n[SN];	/* insertions, departures */
	unsigned int read_starts_over_writes;
	int track[2];		/* expired FIFO head being timed, or -1 */
	unsigned long since[2];	/* dispatch calls it has been waiting */
	unsigned long bound[2];
	bool broken;
};

static struct smq_dl_node sp[SN];
static struct model sm;
static struct stress sx;

static u64 srand64(struct stress *x)
{
	return smq_t_rand(&x->rng);
}

static void s_fail(struct stress *x, int line, const char *what)
{
	smq_t_fail(__FILE__, line, "seed %llu op %u: %s",
		   (unsigned long long)x->seed, x->op, what);
	x->broken = true;
}

static void s_insert(struct stress *x)
{
	const struct stress_cfg *c = x->cfg;
	int tries, pick = -1, dir;
	bool head;
	u64 sec;
	u32 nr;

	for (tries = 0; tries < 8 && pick < 0; tries++) {
		int i = srand64(x) % SN;

		if (sm.n[i].state == SMQ_DL_IDLE)
			pick = i;
	}
	if (pick < 0)
		return;
	dir = srand64(x) % 3 == 0 ? W : R;
	sec = srand64(x) % c->sector_span;
	nr = 1 + srand64(x) % c->max_nr;
	head = srand64(x) % 100 < c->head_pct;
	smq_dl_node_init(&sp[pick], sec, nr, dir);
	smq_dl_insert(&x->dl, &sp[pick], x->now, head);
	m_insert(&sm, pick, dir, sec, nr, x->now, head);
	x->ins_n[pick]++;
	x->queued++;
	x->st->inserts++;
}

static void s_remove(struct stress *x)
{
	int pick;

	if (!sm.nq)
		return;
	pick = sm.q[srand64(x) % sm.nq];
	smq_dl_remove(&x->dl, &sp[pick]);
	m_del(&sm, pick);
	x->out_n[pick]++;
	x->queued--;
	x->st->removes++;
}

/* A bio of [sec, sec + len) looks for a back or front merge. */
static void s_bio_merge(struct stress *x)
{
	int dir = srand64(x) % 2, mi;
	u64 sec = srand64(x) % x->cfg->sector_span, key;
	u32 len = 1 + srand64(x) % 8;
	bool back = srand64(x) % 2;
	struct smq_dl_node *n;

	/* Half of the bios aim at a queued node's edge. */
	if (sm.nq && srand64(x) % 2) {
		const struct model_node *q = &sm.n[sm.q[srand64(x) % sm.nq]];

		dir = q->dir;
		if (back) {
			sec = q->sector + q->nr;
		} else if (q->sector) {
			len = min_t(u64, len, q->sector);
			sec = q->sector - len;
		}
	}
	if (back) {
		key = sec;
		n = smq_dl_find_back_merge(&x->dl, dir, key);
		mi = m_lower(&sm, dir, key, true);
		if (mi >= 0 && sm.n[mi].sector + sm.n[mi].nr != key)
			mi = -1;
	} else {
		key = sec + len;
		n = smq_dl_find_front_merge(&x->dl, dir, key);
		mi = x->cfg->p.front_merges ? m_lower(&sm, dir, key, false) : -1;
		if (mi >= 0 && sm.n[mi].sector != key)
			mi = -1;
	}
	if (n != (mi >= 0 ? &sp[mi] : NULL)) {
		s_fail(x, __LINE__, "merge lookup differs from the model");
		return;
	}
	if (n) {
		u64 ns = back ? n->sector : sec;
		u32 nn = n->nr_sectors + len;

		smq_dl_resized(&x->dl, n, ns, nn);
		m_resized(&sm, mi, ns, nn);
		x->st->bio_merges++;
	}
}

/* Two queued nodes merge: sector neighbours or any two of a direction. */
static void s_req_merge(struct stress *x)
{
	struct smq_dl_node *g = NULL;
	int tries, pick = -1, gi;
	u64 ns;
	u32 nn;

	for (tries = 0; tries < 4 && pick < 0 && sm.nq; tries++) {
		int i = sm.q[srand64(x) % sm.nq];

		if (sm.n[i].state == SMQ_DL_SORTED)
			pick = i;
	}
	if (pick < 0)
		return;
	if (srand64(x) % 2) {
		g = smq_dl_latter(&sp[pick]);
	} else {
		gi = sm.q[srand64(x) % sm.nq];
		if (gi != pick && sm.n[gi].state == SMQ_DL_SORTED &&
		    sm.n[gi].dir == sm.n[pick].dir)
			g = &sp[gi];
	}
	if (!g)
		return;
	gi = g - sp;
	ns = sp[pick].sector;
	nn = sp[pick].nr_sectors + g->nr_sectors;
	if (srand64(x) % 2) {
		smq_dl_resized(&x->dl, &sp[pick], ns, nn);
		smq_dl_merged(&x->dl, &sp[pick], g);
	} else {
		smq_dl_merged(&x->dl, &sp[pick], g);
		smq_dl_resized(&x->dl, &sp[pick], ns, nn);
	}
	m_resized(&sm, pick, ns, nn);
	m_merged(&sm, pick, gi);
	x->out_n[gi]++;
	x->queued--;
	x->st->merges++;
}

/* Before a (non at-head) dispatch call: time the expired FIFO heads. */
static void s_track_expired(struct stress *x)
{
	int d;

	for (d = 0; d < 2; d++) {
		int h = m_fifo_head(&sm, d);

		if (h < 0 || m_before(x->now, sm.n[h].fifo_time)) {
			x->track[d] = -1;
			continue;
		}
		if (x->track[d] != h) {
			x->track[d] = h;
			x->since[d] = 0;
		}
		x->since[d]++;
	}
}

/*
 * After a dispatch call that returned @want: an expired FIFO head still
 * queued after bound[dir] calls is starved (reads: the rest of the batch,
 * one write batch, then the FIFO jump; writes: the rest of the batch,
 * writes_starved read batches, then the jump).  With writes_starved 0
 * reads may starve, as in Linux.
 */
static void s_check_expired(struct stress *x, int want)
{
	int d;

	for (d = 0; d < 2; d++) {
		if (x->track[d] < 0 || (d == R && !x->cfg->p.writes_starved))
			continue;
		if (x->since[d] > x->bound[d]) {
			s_fail(x, __LINE__, "expired FIFO head starved");
			return;
		}
		if (x->track[d] != want)
			continue;
		if (x->since[d] == 1 && x->dl.batching == 1)
			x->st->expired_jumps++;
		x->st->max_wait[d] = max(x->st->max_wait[d], x->since[d]);
		x->track[d] = -1;
	}
}

/*
 * After a dispatch call: at most writes_starved read batch starts over
 * waiting writes between two write batch starts.
 */
static void s_check_starved(struct stress *x, bool writes_waited)
{
	if (x->dl.batching != 1)
		return;
	/* A batch started (or Linux's initial write batch got a node). */
	x->st->batches++;
	if (x->dl.last_dir == W) {
		x->read_starts_over_writes = 0;
	} else if (writes_waited) {
		x->read_starts_over_writes++;
		if (x->read_starts_over_writes > x->cfg->p.writes_starved)
			s_fail(x, __LINE__, "writes starved");
	}
}

static void s_dispatch(struct stress *x)
{
	bool head_call = false, writes_waited;
	struct smq_dl_node *n;
	int i, want;

	for (i = 0; i < sm.nq; i++)
		if (sm.n[sm.q[i]].state == SMQ_DL_AT_HEAD)
			head_call = true;
	if (!head_call)
		s_track_expired(x);
	writes_waited = !m_fifo_empty(&sm, W);
	n = smq_dl_dispatch(&x->dl, x->now);
	want = m_dispatch(&sm, x->now);
	if (n != (want >= 0 ? &sp[want] : NULL)) {
		fprintf(stderr, "  got %ld want %d\n",
			n ? (long)(n - sp) : -1L, want);
		s_fail(x, __LINE__, "dispatch differs from the model");
		return;
	}
	if (want < 0)
		return;
	x->out_n[want]++;
	x->queued--;
	x->st->dispatches++;
	if (!head_call) {
		s_check_starved(x, writes_waited);
		s_check_expired(x, want);
	}
}

static void stress_one(const struct stress_cfg *cfg, u64 seed,
		       struct stress_stats *st)
{
	unsigned int B = cfg->p.fifo_batch ? cfg->p.fifo_batch : 1;
	struct stress *x = &sx;
	const char *why = NULL;
	int i;

	memset(x, 0, sizeof(*x));
	x->cfg = cfg;
	x->st = st;
	x->now = cfg->t0;
	x->seed = seed;
	x->rng = seed;
	x->track[R] = -1;
	x->track[W] = -1;
	x->bound[R] = 2 * B + 1;
	x->bound[W] = (unsigned long)(cfg->p.writes_starved + 1) * B + 1;
	memset(&sm, 0, sizeof(sm));
	sm.p = cfg->p;
	sm.last_dir = W;
	smq_dl_init(&x->dl, &cfg->p);
	for (i = 0; i < SN; i++)
		smq_dl_node_init(&sp[i], 0, 0, R);

	for (x->op = 0; x->op < cfg->ops + 4 * SN && !x->broken; x->op++) {
		unsigned int r = srand64(x) % 100;
		bool drain = x->op >= cfg->ops;

		x->now += srand64(x) % (cfg->max_step + 1);
		if (drain) {
			if (!smq_dl_has_work(&x->dl))
				break;
			r = 99;			/* dispatch only */
		} else if (x->queued < cfg->target / 2) {
			r = r * 45 / 100;	/* mostly inserts */
		} else if (x->queued > cfg->target * 2) {
			r = 55 + r * 45 / 100;
		}
		if (r < 45)
			s_insert(x);
		else if (r < 50)
			s_remove(x);
		else if (r < 58)
			s_bio_merge(x);
		else if (r < 64)
			s_req_merge(x);
		else
			s_dispatch(x);
		/* Heads that left by removal or merge stop being timed. */
		for (i = 0; i < 2; i++)
			if (x->track[i] >= 0 && m_fifo_head(&sm, i) != x->track[i])
				x->track[i] = -1;
		if (!dl_validate(&x->dl, sp, SN, true, &why))
			s_fail(x, __LINE__, why);
	}
	CHECK(!smq_dl_has_work(&x->dl));
	CHECK_EQ(x->queued, 0);
	/* Every insertion left exactly once. */
	for (i = 0; i < SN; i++) {
		CHECK_EQ(x->ins_n[i], x->out_n[i]);
		CHECK_EQ(sp[i].state, SMQ_DL_IDLE);
	}
}

static void run_stress(const char *name, const struct stress_cfg *cfg,
		       unsigned int seeds)
{
	struct stress_stats st;
	unsigned int s;

	memset(&st, 0, sizeof(st));
	for (s = 0; s < seeds; s++) {
		int before = smq_t_fails;

		stress_one(cfg, 0x9E3779B97F4A7C15ULL * (s + 1) ^ cfg->ops, &st);
		if (smq_t_fails != before)
			break;
	}
	printf("       %-9s ins %lu disp %lu rm %lu merge %lu bio %lu batches %lu\n",
	       name, st.inserts, st.dispatches, st.removes, st.merges,
	       st.bio_merges, st.batches);
	printf("       %-9s fifo jumps %lu, longest expired wait r %lu w %lu\n",
	       "", st.expired_jumps, st.max_wait[R], st.max_wait[W]);
	/* The runs must actually exercise the interesting paths. */
	CHECK(st.dispatches > 0 && st.merges > 0 && st.bio_merges > 0);
	CHECK(st.expired_jumps > 0);
}

static void test_stress_defaults(void)
{
	struct stress_cfg c = {
		.t0 = 1000, .sector_span = 4096, .max_nr = 16, .ops = 12000,
		.target = 200, .head_pct = 3, .max_step = 8,
	};

	smq_dl_params_default(&c.p, 1000);
	run_stress("defaults", &c, 3);
}

static void test_stress_small_batches(void)
{
	struct stress_cfg c = {
		.t0 = 0, .sector_span = 256, .max_nr = 8, .ops = 10000,
		.target = 100, .head_pct = 2, .max_step = 5,
		.p = { .read_expire = 40, .write_expire = 120,
		       .writes_starved = 1, .fifo_batch = 4,
		       .front_merges = true },
	};

	run_stress("batch4", &c, 3);
	c.p.fifo_batch = 1;
	c.p.writes_starved = 3;
	run_stress("batch1", &c, 2);
	c.p.fifo_batch = 0;
	c.p.writes_starved = 0;
	c.p.front_merges = false;
	run_stress("batch0ws0", &c, 2);
}

static void test_stress_dense_wrap(void)
{
	/* Few distinct sectors (many ties), clock across the u64 wrap. */
	struct stress_cfg c = {
		.t0 = U64_MAX - 30000, .sector_span = 32, .max_nr = 4,
		.ops = 15000, .target = 300, .head_pct = 5, .max_step = 3,
		.p = { .read_expire = 50, .write_expire = 400,
		       .writes_starved = 2, .fifo_batch = 8,
		       .front_merges = true },
	};

	run_stress("dense", &c, 2);
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_defaults),
	SMQ_TEST(test_sector_order),
	SMQ_TEST(test_equal_sectors),
	SMQ_TEST(test_initial_write_batch),
	SMQ_TEST(test_fifo_batch),
	SMQ_TEST(test_expiry),
	SMQ_TEST(test_clock_wrap),
	SMQ_TEST(test_reads_preferred),
	SMQ_TEST(test_writes_starved),
	SMQ_TEST(test_read_latency_write_stream),
	SMQ_TEST(test_read_latency_expiry),
	SMQ_TEST(test_at_head),
	SMQ_TEST(test_merge_lookups),
	SMQ_TEST(test_resized),
	SMQ_TEST(test_merged),
	SMQ_TEST(test_stress_defaults),
	SMQ_TEST(test_stress_small_batches),
	SMQ_TEST(test_stress_dense_wrap),
};

int main(void)
{
	return smq_test_main("test_dl", tests, ARRAY_SIZE(tests));
}
