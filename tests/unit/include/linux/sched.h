/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/sched.h> for tests/unit: a task per thread
 * (created on its first use of current), task states, and schedule()
 * sleeping on a condition variable until wake_up_process() or a wait-queue
 * wake-up makes the task TASK_RUNNING again.  Out of line in
 * tests/unit/lib/sched.c.
 */
#ifndef _UK_LINUX_SCHED_H
#define _UK_LINUX_SCHED_H

#include <pthread.h>
#include <asm/barrier.h>

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

struct task_struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int state;
	struct task_struct *all_next;	/* registry: tasks are never freed */
};

struct task_struct *uk_current(void);
#define current			uk_current()

#define __set_current_state(s)	__atomic_store_n(&current->state, (s), \
						 __ATOMIC_SEQ_CST)
#define set_current_state(s)	do { __set_current_state(s); smp_mb(); } while (0)

void schedule(void);
#define io_schedule()		schedule()
int wake_up_process(struct task_struct *p);

#endif
