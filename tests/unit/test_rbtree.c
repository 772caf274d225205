// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the test-only red-black tree behind the <linux/rbtree.h>
 * shim (lib/rbtree.c), which block/smq_dl.c runs on in the unit tests:
 * random inserts (rb_add(), rb_add_cached(), rb_link_node() +
 * rb_insert_color()) and erases against a reference array, checking the
 * red-black rules, parent links, in-order and reverse walks and the
 * cached leftmost node after every operation.
 *
 * SMQ_UNIT_SOURCES: none
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <linux/rbtree.h>

struct item {
	u64 key;
	unsigned int seq;	/* insertion order: ties go right */
	bool in;
	struct rb_node rb;
};

#define NR_ITEMS	600

static struct item items[NR_ITEMS];

static bool item_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct item, rb)->key <
	       rb_entry(b, struct item, rb)->key;
}

static int item_cmp(const struct item *a, const struct item *b)
{
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Walk @root both ways; it must hold exactly the items marked in. */
static void check_tree(const struct rb_root *root, unsigned int nr_in)
{
	const struct item *prev = NULL, *it;
	const struct rb_node *n;
	const char *why = "?";
	unsigned int cnt = 0;

	if (uk_rb_check(root, &why) < 0) {
		smq_t_fail(__FILE__, __LINE__, "rb rules: %s", why);
		return;
	}
	for (n = rb_first(root); n; n = rb_next(n)) {
		it = rb_entry(n, struct item, rb);
		CHECK(it->in);
		if (prev)
			CHECK(item_cmp(prev, it) < 0);
		prev = it;
		if (++cnt > NR_ITEMS)
			break;
	}
	CHECK_EQ(cnt, nr_in);
	CHECK(rb_last(root) == (prev ? &prev->rb : NULL));
	cnt = 0;
	for (n = rb_last(root); n; n = rb_prev(n))
		if (++cnt > NR_ITEMS)
			break;
	CHECK_EQ(cnt, nr_in);
}

static void insert_linked(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (item_less(&it->rb, parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->rb, parent, link);
	rb_insert_color(&it->rb, root);
}

/* @mode: 0 rb_add(), 1 rb_link_node() + rb_insert_color(), 2 cached. */
static void run_random(int mode, u64 seed, unsigned int key_range)
{
	struct rb_root_cached croot = RB_ROOT_CACHED;
	struct rb_root root = RB_ROOT;
	struct rb_root *r = mode == 2 ? &croot.rb_root : &root;
	unsigned int i, step, nr_in = 0, seq = 0;
	const char *why = "?";

	memset(items, 0, sizeof(items));
	for (step = 0; step < 6000; step++) {
		struct item *it = &items[smq_t_rand(&seed) % NR_ITEMS];

		if (!it->in) {
			it->key = smq_t_rand(&seed) % key_range;
			it->seq = seq++;
			it->in = true;
			if (mode == 0) {
				rb_add(&it->rb, r, item_less);
			} else if (mode == 1) {
				insert_linked(r, it);
			} else {
				struct rb_node *first = rb_first(r);
				bool leftmost = !first ||
					item_less(&it->rb, first);

				CHECK((rb_add_cached(&it->rb, &croot,
						     item_less) != NULL) ==
				      leftmost);
			}
			nr_in++;
		} else {
			it->in = false;
			if (mode == 2) {
				struct rb_node *next = rb_next(&it->rb);
				bool was_first = croot.rb_leftmost == &it->rb;
				struct rb_node *ret;

				ret = rb_erase_cached(&it->rb, &croot);
				CHECK(ret == (was_first ? next : NULL));
			} else {
				rb_erase(&it->rb, r);
			}
			nr_in--;
		}
		if (step % 7 == 0 || nr_in < 8) {
			check_tree(r, nr_in);
			if (mode == 2 && uk_rb_check_cached(&croot, &why) < 0)
				smq_t_fail(__FILE__, __LINE__, "%s", why);
		}
	}
	check_tree(r, nr_in);
	/* Drain in order, checking as the tree shrinks. */
	for (i = 0; i < NR_ITEMS; i++) {
		if (!items[i].in)
			continue;
		items[i].in = false;
		if (mode == 2)
			rb_erase_cached(&items[i].rb, &croot);
		else
			rb_erase(&items[i].rb, r);
		check_tree(r, --nr_in);
	}
	CHECK(RB_EMPTY_ROOT(r));
	if (mode == 2)
		CHECK(!rb_first_cached(&croot));
}

static void test_rb_add(void)
{
	run_random(0, 1, 1U << 30);
	run_random(0, 2, 16);	/* many equal keys */
}

static void test_link_insert_color(void)
{
	run_random(1, 3, 1U << 30);
	run_random(1, 4, 4);
}

static void test_cached(void)
{
	run_random(2, 5, 1U << 30);
	run_random(2, 6, 8);
}

/* Sorted and reverse-sorted insertion: the height stays logarithmic. */
static void test_monotonic(void)
{
	struct rb_root root = RB_ROOT;
	const char *why = "?";
	unsigned int i;
	int bh;

	memset(items, 0, sizeof(items));
	for (i = 0; i < NR_ITEMS; i++) {
		items[i].key = i < NR_ITEMS / 2 ? i : 3 * NR_ITEMS - i;
		items[i].seq = i;
		items[i].in = true;
		rb_add(&items[i].rb, &root, item_less);
	}
	check_tree(&root, NR_ITEMS);
	bh = uk_rb_check(&root, &why);
	/* Black height <= log2(n + 1) + 1 for n nodes. */
	CHECK(bh > 0 && bh <= 11);
	RB_CLEAR_NODE(&items[0].rb);
	CHECK(RB_EMPTY_NODE(&items[0].rb));
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_rb_add),
	SMQ_TEST(test_link_insert_color),
	SMQ_TEST(test_cached),
	SMQ_TEST(test_monotonic),
};

int main(void)
{
	return smq_test_main("test_rbtree", tests, ARRAY_SIZE(tests));
}
