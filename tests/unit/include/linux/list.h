/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/list.h> for tests/unit: the subset the
 * pure-logic files use.  Link stores are WRITE_ONCE() where the kernel's
 * are, so the lockless list_empty() / list_empty_careful() peeks (e.g.
 * waitqueue_active(), finish_wait()) are not data races.
 */
#ifndef _UK_LINUX_LIST_H
#define _UK_LINUX_LIST_H

#include <stdbool.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	WRITE_ONCE(l->next, l);
	WRITE_ONCE(l->prev, l);
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	struct list_head *prev = h->prev;

	n->next = h;
	n->prev = prev;
	WRITE_ONCE(prev->next, n);
	WRITE_ONCE(h->prev, n);
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	list_add_tail(n, h->next);
}

static inline void list_del_init(struct list_head *e)
{
	WRITE_ONCE(e->prev->next, e->next);
	WRITE_ONCE(e->next->prev, e->prev);
	WRITE_ONCE(e->prev, e);
	__atomic_store_n(&e->next, e, __ATOMIC_RELEASE);
}

static inline bool list_empty(const struct list_head *h)
{
	return READ_ONCE(h->next) == h;
}

static inline bool list_empty_careful(const struct list_head *h)
{
	struct list_head *next = __atomic_load_n(&h->next, __ATOMIC_ACQUIRE);

	return next == h && next == READ_ONCE(h->prev);
}

#define list_entry(p, type, member)	container_of(p, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)

#endif
