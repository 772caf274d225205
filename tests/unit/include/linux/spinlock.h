/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/spinlock.h> for tests/unit: pthread mutexes
 * (lock acquires, unlock releases, like the kernel's; see <asm/barrier.h>).
 * Interrupts do not exist here, so the _irq and _irqsave forms only lock.
 */
#ifndef _UK_LINUX_SPINLOCK_H
#define _UK_LINUX_SPINLOCK_H

#include <pthread.h>

typedef pthread_mutex_t spinlock_t;
#define spin_lock_init(l)	pthread_mutex_init(l, NULL)
#define spin_lock(l)		pthread_mutex_lock(l)
#define spin_unlock(l)		pthread_mutex_unlock(l)
#define spin_lock_irq(l)	pthread_mutex_lock(l)
#define spin_unlock_irq(l)	pthread_mutex_unlock(l)
#define spin_lock_irqsave(l, f)	do { (f) = 0; pthread_mutex_lock(l); } while (0)
#define spin_unlock_irqrestore(l, f) \
	do { (void)(f); pthread_mutex_unlock(l); } while (0)
typedef pthread_mutex_t raw_spinlock_t;
#define raw_spin_lock_init(l)		spin_lock_init(l)
#define raw_spin_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)

#endif
