// SPDX-License-Identifier: GPL-2.0
/*
 * The out-of-line part of tests/unit's <linux/sched.h>, <linux/wait.h>,
 * <linux/cpumask.h> shims and of the race-window hook (uk_hooks.h): tasks
 * on pthreads, wait queues, the per-thread CPU number.
 */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/wait.h>

static struct task_struct *uk_all_tasks;
static __thread struct task_struct *uk_self;
static __thread int uk_self_cpu = -1;
static int uk_next_cpu;

struct task_struct *uk_current(void)
{
	struct task_struct *t = uk_self;

	if (likely(t))
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	t->all_next = __atomic_load_n(&uk_all_tasks, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&uk_all_tasks, &t->all_next, t,
					    false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
	uk_self = t;
	return t;
}

int uk_race_windows;
static __thread u64 uk_race_seed;

void uk_race_yield(void)
{
	u64 x = uk_race_seed;

	if (!x)
		x = (u64)(uintptr_t)&x | 1;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	uk_race_seed = x;
	if ((x & 7) == 0)
		sched_yield();
}

/* Each thread is pinned to a "CPU" slot, handed out round robin. */
int uk_cpu(void)
{
	if (unlikely(uk_self_cpu < 0))
		uk_self_cpu = __atomic_fetch_add(&uk_next_cpu, 1,
						 __ATOMIC_RELAXED) % UK_NR_CPUS;
	return uk_self_cpu;
}
void schedule(void)
{
	struct task_struct *t = current;

	pthread_mutex_lock(&t->lock);
	while (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) != TASK_RUNNING)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static int uk_try_to_wake_up(struct task_struct *t, unsigned int mode)
{
	int woke = 0;

	smp_mb();
	pthread_mutex_lock(&t->lock);
	if (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) & mode) {
		__atomic_store_n(&t->state, TASK_RUNNING, __ATOMIC_SEQ_CST);
		pthread_cond_signal(&t->cond);
		woke = 1;
	}
	pthread_mutex_unlock(&t->lock);
	return woke;
}

int wake_up_process(struct task_struct *p)
{
	return uk_try_to_wake_up(p, TASK_NORMAL);
}

int default_wake_function(struct wait_queue_entry *e, unsigned int mode,
			  int flags, void *key)
{
	(void)flags;
	(void)key;
	return uk_try_to_wake_up(e->private, mode);
}

int autoremove_wake_function(struct wait_queue_entry *e, unsigned int mode,
			     int flags, void *key)
{
	int ret = default_wake_function(e, mode, flags, key);

	if (ret)
		list_del_init(&e->entry);
	return ret;
}

static void uk_prepare(struct wait_queue_head *wq,
			   struct wait_queue_entry *e, int state,
			   unsigned int flags)
{
	spin_lock(&wq->lock);
	if (list_empty(&e->entry)) {
		e->flags = (e->flags & ~WQ_FLAG_EXCLUSIVE) | flags;
		list_add_tail(&e->entry, &wq->head);
	}
	set_current_state(state);
	spin_unlock(&wq->lock);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	spin_lock(&wq->lock);
	e->flags &= ~WQ_FLAG_EXCLUSIVE;
	list_add(&e->entry, &wq->head);
	spin_unlock(&wq->lock);
}

void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	spin_lock(&wq->lock);
	list_del_init(&e->entry);
	spin_unlock(&wq->lock);
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *e,
		     int state)
{
	uk_prepare(wq, e, state, 0);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq,
			       struct wait_queue_entry *e, int state)
{
	uk_prepare(wq, e, state, WQ_FLAG_EXCLUSIVE);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *e)
{
	__set_current_state(TASK_RUNNING);
	if (!list_empty_careful(&e->entry)) {
		spin_lock(&wq->lock);
		list_del_init(&e->entry);
		spin_unlock(&wq->lock);
	}
}

/* Returns the number of exclusive waiters woken, like the kernel's. */
int __wake_up(struct wait_queue_head *wq, unsigned int mode, int nr, void *key)
{
	struct list_head *pos, *next;
	int woken = 0;

	spin_lock(&wq->lock);
	for (pos = wq->head.next; pos != &wq->head; pos = next) {
		struct wait_queue_entry *e = list_entry(pos,
					struct wait_queue_entry, entry);
		unsigned int flags = e->flags;
		int ret;

		next = pos->next;
		ret = e->func(e, mode, 0, key);
		if (ret < 0)
			break;
		if (ret && (flags & WQ_FLAG_EXCLUSIVE)) {
			woken++;
			if (woken == nr)
				break;
		}
	}
	spin_unlock(&wq->lock);
	return woken;
}
