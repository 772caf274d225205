/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/wait.h> for tests/unit, with the kernel's
 * semantics: exclusive waiters, autoremove wake functions, __wake_up()
 * returning the number of exclusive waiters woken.  Out of line in
 * tests/unit/lib/sched.c.
 */
#ifndef _UK_LINUX_WAIT_H
#define _UK_LINUX_WAIT_H

#include <stdbool.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#define WQ_FLAG_EXCLUSIVE	0x01

struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry,
				 unsigned int mode, int flags, void *key);

struct wait_queue_entry {
	unsigned int flags;
	void *private;
	wait_queue_func_t func;
	struct list_head entry;
};

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int flags, void *key);
int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int flags, void *key);

#define DEFINE_WAIT_FUNC(name, function)				\
	struct wait_queue_entry name = {				\
		.private = current,					\
		.func = function,					\
		.entry = LIST_HEAD_INIT((name).entry),			\
	}
#define DEFINE_WAIT(name)	DEFINE_WAIT_FUNC(name, autoremove_wake_function)

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

static inline void destroy_waitqueue_head(struct wait_queue_head *wq)
{
	pthread_mutex_destroy(&wq->lock);
}

static inline bool waitqueue_active(struct wait_queue_head *wq)
{
	return !list_empty(&wq->head);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e);
void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e);
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state);
void prepare_to_wait_exclusive(struct wait_queue_head *wq,
			       struct wait_queue_entry *e, int state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e);
int __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key);
#define wake_up(x)		__wake_up(x, TASK_NORMAL, 1, NULL)
#define wake_up_nr(x, nr)	__wake_up(x, TASK_NORMAL, nr, NULL)
#define wake_up_all(x)		__wake_up(x, TASK_NORMAL, 0, NULL)

#endif
