// SPDX-License-Identifier: GPL-2.0
/*
 * The red-black tree behind tests/unit's <linux/rbtree.h> shim.  Test-only
 * code of our own (not the kernel's lib/rbtree.c): the textbook algorithm
 * with parent links and NULL leaves.  The caller links a new red leaf where
 * its key belongs and rb_insert_color() restores the colour rules; erase
 * splices the node out (replacing it by its successor when it has two
 * children) and a fix-up repairs a missing black.  Colour is bit 0 of
 * __rb_parent_color: 0 red, 1 black.
 */
#include <linux/rbtree.h>

#define UK_RB_BLACK	1UL

static inline struct rb_node *uk_parent(const struct rb_node *x)
{
	return rb_parent(x);
}

static inline bool uk_red(const struct rb_node *x)
{
	return x && !(x->__rb_parent_color & UK_RB_BLACK);
}

static inline void uk_set_parent(struct rb_node *x, struct rb_node *p)
{
	x->__rb_parent_color = (unsigned long)p |
			       (x->__rb_parent_color & UK_RB_BLACK);
}

static inline void uk_set_red(struct rb_node *x, bool red)
{
	x->__rb_parent_color = (unsigned long)uk_parent(x) |
			       (red ? 0 : UK_RB_BLACK);
}

static void uk_replace_child(struct rb_root *root, struct rb_node *parent,
			     struct rb_node *old, struct rb_node *new)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

static void uk_rotate_left(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->rb_right;

	x->rb_right = y->rb_left;
	if (y->rb_left)
		uk_set_parent(y->rb_left, x);
	uk_set_parent(y, uk_parent(x));
	uk_replace_child(root, uk_parent(x), x, y);
	y->rb_left = x;
	uk_set_parent(x, y);
}

static void uk_rotate_right(struct rb_root *root, struct rb_node *x)
{
	struct rb_node *y = x->rb_left;

	x->rb_left = y->rb_right;
	if (y->rb_right)
		uk_set_parent(y->rb_right, x);
	uk_set_parent(y, uk_parent(x));
	uk_replace_child(root, uk_parent(x), x, y);
	y->rb_right = x;
	uk_set_parent(x, y);
}

/* @z was just linked as a red leaf (rb_link_node()). */
void rb_insert_color(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *p, *g, *u;

	while ((p = uk_parent(z)) && uk_red(p)) {
		g = uk_parent(p);	/* exists: a red node is not the root */
		if (p == g->rb_left) {
			u = g->rb_right;
			if (uk_red(u)) {
				uk_set_red(p, false);
				uk_set_red(u, false);
				uk_set_red(g, true);
				z = g;
				continue;
			}
			if (z == p->rb_right) {
				uk_rotate_left(root, p);
				z = p;
				p = uk_parent(z);
			}
			uk_set_red(p, false);
			uk_set_red(g, true);
			uk_rotate_right(root, g);
		} else {
			u = g->rb_left;
			if (uk_red(u)) {
				uk_set_red(p, false);
				uk_set_red(u, false);
				uk_set_red(g, true);
				z = g;
				continue;
			}
			if (z == p->rb_left) {
				uk_rotate_right(root, p);
				z = p;
				p = uk_parent(z);
			}
			uk_set_red(p, false);
			uk_set_red(g, true);
			uk_rotate_left(root, g);
		}
	}
	uk_set_red(root->rb_node, false);
}

/*
 * @x (possibly NULL) under @xp carries an extra black.  If @x is NULL its
 * sibling is not: the other side has black height >= 1.
 */
static void uk_erase_fixup(struct rb_root *root, struct rb_node *x,
			   struct rb_node *xp)
{
	struct rb_node *w;

	while (x != root->rb_node && !uk_red(x)) {
		if (x == xp->rb_left) {
			w = xp->rb_right;
			if (uk_red(w)) {
				uk_set_red(w, false);
				uk_set_red(xp, true);
				uk_rotate_left(root, xp);
				w = xp->rb_right;
			}
			if (!uk_red(w->rb_left) && !uk_red(w->rb_right)) {
				uk_set_red(w, true);
				x = xp;
				xp = uk_parent(x);
				continue;
			}
			if (!uk_red(w->rb_right)) {
				uk_set_red(w->rb_left, false);
				uk_set_red(w, true);
				uk_rotate_right(root, w);
				w = xp->rb_right;
			}
			uk_set_red(w, uk_red(xp));
			uk_set_red(xp, false);
			uk_set_red(w->rb_right, false);
			uk_rotate_left(root, xp);
		} else {
			w = xp->rb_left;
			if (uk_red(w)) {
				uk_set_red(w, false);
				uk_set_red(xp, true);
				uk_rotate_right(root, xp);
				w = xp->rb_left;
			}
			if (!uk_red(w->rb_left) && !uk_red(w->rb_right)) {
				uk_set_red(w, true);
				x = xp;
				xp = uk_parent(x);
				continue;
			}
			if (!uk_red(w->rb_left)) {
				uk_set_red(w->rb_right, false);
				uk_set_red(w, true);
				uk_rotate_left(root, w);
				w = xp->rb_left;
			}
			uk_set_red(w, uk_red(xp));
			uk_set_red(xp, false);
			uk_set_red(w->rb_left, false);
			uk_rotate_right(root, xp);
		}
		x = root->rb_node;
		break;
	}
	if (x)
		uk_set_red(x, false);
}

void rb_erase(struct rb_node *z, struct rb_root *root)
{
	struct rb_node *x, *xp, *y;
	bool removed_red;

	if (!z->rb_left || !z->rb_right) {
		x = z->rb_left ? z->rb_left : z->rb_right;
		xp = uk_parent(z);
		removed_red = uk_red(z);
		uk_replace_child(root, xp, z, x);
		if (x)
			uk_set_parent(x, xp);
	} else {
		/* Splice out the successor y and put it where z was. */
		y = z->rb_right;
		while (y->rb_left)
			y = y->rb_left;
		removed_red = uk_red(y);
		x = y->rb_right;
		if (uk_parent(y) == z) {
			xp = y;
		} else {
			xp = uk_parent(y);
			xp->rb_left = x;
			if (x)
				uk_set_parent(x, xp);
			y->rb_right = z->rb_right;
			uk_set_parent(y->rb_right, y);
		}
		uk_replace_child(root, uk_parent(z), z, y);
		y->__rb_parent_color = z->__rb_parent_color;	/* parent, colour */
		y->rb_left = z->rb_left;
		uk_set_parent(y->rb_left, y);
	}
	if (!removed_red)
		uk_erase_fixup(root, x, xp);
}

struct rb_node *rb_next(const struct rb_node *x)
{
	const struct rb_node *p;

	if (x->rb_right) {
		x = x->rb_right;
		while (x->rb_left)
			x = x->rb_left;
		return (struct rb_node *)x;
	}
	while ((p = uk_parent(x)) && x == p->rb_right)
		x = p;
	return (struct rb_node *)p;
}

struct rb_node *rb_prev(const struct rb_node *x)
{
	const struct rb_node *p;

	if (x->rb_left) {
		x = x->rb_left;
		while (x->rb_right)
			x = x->rb_right;
		return (struct rb_node *)x;
	}
	while ((p = uk_parent(x)) && x == p->rb_left)
		x = p;
	return (struct rb_node *)p;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *x = root->rb_node;

	while (x && x->rb_left)
		x = x->rb_left;
	return x;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *x = root->rb_node;

	while (x && x->rb_right)
		x = x->rb_right;
	return x;
}

static int uk_check(const struct rb_node *x, const struct rb_node *parent,
		    int depth, const char **why)
{
	int lh, rh;

	if (!x)
		return 1;
	if (depth > 2 * (int)(8 * sizeof(long))) {
		*why = "tree too deep (cycle?)";
		return -1;
	}
	if (uk_parent(x) != parent) {
		*why = "bad parent link";
		return -1;
	}
	if (x->__rb_parent_color & 2UL) {
		*why = "stray bit in __rb_parent_color";
		return -1;
	}
	if (uk_red(x) && uk_red(parent)) {
		*why = "red node with a red parent";
		return -1;
	}
	lh = uk_check(x->rb_left, x, depth + 1, why);
	if (lh < 0)
		return -1;
	rh = uk_check(x->rb_right, x, depth + 1, why);
	if (rh < 0)
		return -1;
	if (lh != rh) {
		*why = "unequal black heights";
		return -1;
	}
	return lh + !uk_red(x);
}

int uk_rb_check(const struct rb_root *root, const char **why)
{
	if (uk_red(root->rb_node)) {
		*why = "red root";
		return -1;
	}
	return uk_check(root->rb_node, NULL, 0, why);
}

int uk_rb_check_cached(const struct rb_root_cached *root, const char **why)
{
	if (root->rb_leftmost != rb_first(&root->rb_root)) {
		*why = "stale leftmost";
		return -1;
	}
	return uk_rb_check(&root->rb_root, why);
}
