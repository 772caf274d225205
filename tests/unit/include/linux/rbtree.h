/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/rbtree.h> for tests/unit: the kernel's API
 * (intrusive nodes, the caller's own descent plus rb_link_node() and
 * rb_insert_color(), or rb_add() with a "less" callback; the leftmost-
 * caching variants) on a red-black tree of our own, written for the tests
 * (tests/unit/lib/rbtree.c), not the kernel's lib/rbtree.c.  Only the
 * layout of struct rb_node matters to callers: rb_left, rb_right and
 * rb_parent() as in the kernel; colour and parent share a word, as there.
 */
#ifndef _UK_LINUX_RBTREE_H
#define _UK_LINUX_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

struct rb_node {
	unsigned long __rb_parent_color;	/* parent | colour (bit 0) */
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((__aligned__(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT		((struct rb_root) { NULL })
#define RB_ROOT_CACHED	((struct rb_root_cached) { { NULL }, NULL })

#define rb_parent(r)	((struct rb_node *)((r)->__rb_parent_color & ~3UL))
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member)				\
	({ __typeof__(ptr) ____ptr = (ptr);				\
	   ____ptr ? rb_entry(____ptr, type, member) : NULL; })
#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)
#define RB_EMPTY_NODE(node) \
	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) \
	((node)->__rb_parent_color = (unsigned long)(node))
#define rb_first_cached(root)	((root)->rb_leftmost)

/* Link @node as a (red) leaf under @parent at @rb_link. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;	/* red */
	node->rb_left = NULL;
	node->rb_right = NULL;
	*rb_link = node;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

static inline struct rb_node *rb_erase_cached(struct rb_node *node,
					      struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

/* Insert @node after every node it is not less than. */
static inline void rb_add(struct rb_node *node, struct rb_root *tree,
			  bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->rb_left :
					    &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}

/* Return: @node if it became the leftmost node, else NULL (as in 6.12). */
static inline struct rb_node *
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

/*
 * Not a kernel API: checks the red-black rules, parent links and (with a
 * cached root) the leftmost pointer.  Return: the black height (NULL leaves
 * count 1), or -1 with *@why set.
 */
int uk_rb_check(const struct rb_root *root, const char **why);
int uk_rb_check_cached(const struct rb_root_cached *root, const char **why);

#endif
