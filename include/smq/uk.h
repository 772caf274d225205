/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq user/kernel portability layer for the pure-logic files.
 *
 * The pure-logic files (block/smq_sbitmap.c, block/smq_cpumap.c,
 * scsi/smq_cdb.c, scsi/smq_sense.c, ...) include only this header and
 * their own, so the same source builds inside the kernel modules and in
 * tests/unit/.
 *
 * In the kernel this header just pulls in the kernel headers.  In
 * userspace it provides small, faithful equivalents: fixed-width types,
 * READ_ONCE/WRITE_ONCE and atomics on top of the __atomic builtins (all
 * sequentially consistent, which is at least as strong as the kernel's
 * fully ordered operations), bit operations, allocation helpers,
 * big-endian unaligned accessors, EXPORT_SYMBOL_GPL() (a no-op), and a
 * wait-queue emulation with the kernel's semantics (exclusive waiters,
 * autoremove wake functions, task states, schedule() sleeping until woken)
 * built on pthreads.
 *
 * Exactly one userspace translation unit must define SMQ_UK_IMPL before
 * including this header; it then also gets the out-of-line parts (the
 * per-thread task, the wait-queue functions).
 */
#ifndef _SMQ_UK_H
#define _SMQ_UK_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* Marks a race window that userspace tests may widen; free in the kernel. */
#define smq_uk_race_window()	do { } while (0)

#else /* !__KERNEL__ */

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define BITS_PER_LONG	(__SIZEOF_LONG__ * 8)
#define BITS_PER_BYTE	8
#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __maybe_unused	__attribute__((__unused__))
#define __must_check	__attribute__((__warn_unused_result__))
#define fallthrough	__attribute__((__fallthrough__))
#define __percpu
#define __init
#define __exit

/*
 * Exports mean nothing outside the kernel; redeclaring the symbol keeps the
 * macro a declaration (no stray ';' at file scope) and checks that it exists.
 */
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym

#define SMP_CACHE_BYTES	64
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(SMP_CACHE_BYTES)))

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min3(a, b, c)	min(min(a, b), c)
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi) min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi) clamp_t(__typeof__(v), v, lo, hi)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}
#define round_up(x, y)	((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define swap(a, b) \
	do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#define BUG_ON(c) \
	do { if (unlikely(c)) { smq_uk_bug(__FILE__, __LINE__, #c); } } while (0)
/* A warning is an API misuse: userspace tests treat it as fatal. */
#define WARN_ON(c) \
	({ bool __c = !!(c); if (unlikely(__c)) smq_uk_bug(__FILE__, __LINE__, #c); __c; })
#define WARN_ON_ONCE(c)	WARN_ON(c)

static inline void smq_uk_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "smq_uk: %s:%d: WARN/BUG: %s\n", file, line, what);
	abort();
}

/*
 * Race windows: when a test sets smq_uk_race_windows, every marked
 * window yields the CPU now and then, so rare interleavings happen.
 */
extern int smq_uk_race_windows;
void smq_uk_race_yield(void);
#define smq_uk_race_window()						\
	do {								\
		if (unlikely(__atomic_load_n(&smq_uk_race_windows,	\
					     __ATOMIC_RELAXED)))	\
			smq_uk_race_yield();				\
	} while (0)

/* ---- memory model: everything sequentially consistent ---- */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define data_race(expr)		(expr)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		smp_mb()
#define smp_wmb()		smp_mb()
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define cpu_relax()		barrier()

#define xchg(p, v)		__atomic_exchange_n(p, v, __ATOMIC_SEQ_CST)
#define try_cmpxchg(p, oldp, n) \
	__atomic_compare_exchange_n(p, oldp, n, false, __ATOMIC_SEQ_CST, \
				    __ATOMIC_SEQ_CST)
#define cmpxchg(p, o, n) \
	({ __typeof__(*(p)) __o = (o); try_cmpxchg(p, &__o, n); __o; })

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
#define ATOMIC_INIT(i)		{ (i) }

#define SMQ_UK_ATOMIC_OPS(pfx, t, vt)					\
static inline vt pfx##_read(const t *v)					\
{ return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST); }		\
static inline void pfx##_set(t *v, vt i)				\
{ __atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline void pfx##_add(vt i, t *v)				\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline vt pfx##_add_return(vt i, t *v)				\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static inline void pfx##_inc(t *v) { pfx##_add(1, v); }			\
static inline void pfx##_dec(t *v) { pfx##_add(-1, v); }		\
static inline vt pfx##_inc_return(t *v) { return pfx##_add_return(1, v); } \
static inline vt pfx##_dec_return(t *v) { return pfx##_add_return(-1, v); } \
static inline void pfx##_or(vt i, t *v)					\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline void pfx##_andnot(vt i, t *v)				\
{ __atomic_fetch_and(&v->counter, ~i, __ATOMIC_SEQ_CST); }		\
static inline vt pfx##_xchg(t *v, vt i) { return xchg(&v->counter, i); } \
static inline bool pfx##_try_cmpxchg(t *v, vt *o, vt n)		\
{ return try_cmpxchg(&v->counter, o, n); }				\
static inline vt pfx##_cmpxchg(t *v, vt o, vt n)			\
{ pfx##_try_cmpxchg(v, &o, n); return o; }

SMQ_UK_ATOMIC_OPS(atomic, atomic_t, int)
SMQ_UK_ATOMIC_OPS(atomic_long, atomic_long_t, long)

/* ---- bit operations on unsigned long words ---- */
#define SMQ_UK_BIT_WORD(nr)	((nr) / BITS_PER_LONG)
#define SMQ_UK_BIT_MASK(nr)	(1UL << ((nr) % BITS_PER_LONG))

static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[SMQ_UK_BIT_WORD(nr)], SMQ_UK_BIT_MASK(nr),
			  __ATOMIC_SEQ_CST);
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[SMQ_UK_BIT_WORD(nr)], ~SMQ_UK_BIT_MASK(nr),
			   __ATOMIC_SEQ_CST);
}

static inline bool test_and_set_bit(unsigned long nr,
				    volatile unsigned long *addr)
{
	unsigned long m = SMQ_UK_BIT_MASK(nr);

	return __atomic_fetch_or(&addr[SMQ_UK_BIT_WORD(nr)], m,
				 __ATOMIC_SEQ_CST) & m;
}

static inline bool test_and_clear_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	unsigned long m = SMQ_UK_BIT_MASK(nr);

	return __atomic_fetch_and(&addr[SMQ_UK_BIT_WORD(nr)], ~m,
				  __ATOMIC_SEQ_CST) & m;
}

#define test_and_set_bit_lock(nr, addr)	test_and_set_bit(nr, addr)
#define clear_bit_unlock(nr, addr)	clear_bit(nr, addr)

static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (__atomic_load_n(&addr[SMQ_UK_BIT_WORD(nr)], __ATOMIC_RELAXED) >>
		(nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[SMQ_UK_BIT_WORD(nr)] |= SMQ_UK_BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[SMQ_UK_BIT_WORD(nr)] &= ~SMQ_UK_BIT_MASK(nr);
}

/* __ffs/__fls: undefined for 0, like the kernel's. */
static inline unsigned long __ffs(unsigned long w)
{
	return __builtin_ctzl(w);
}

static inline unsigned long __fls(unsigned long w)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(w);
}

#define ffz(w)	__ffs(~(w))

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int hweight_long(unsigned long w)
{
	return __builtin_popcountl(w);
}

#define hweight32(w)	((unsigned int)__builtin_popcount((u32)(w)))
#define hweight64(w)	((unsigned int)__builtin_popcountll((u64)(w)))
#define ilog2(n)	((int)(sizeof(n) <= 4 ? fls((u32)(n)) - 1 : fls64(n) - 1))
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n) - 1)) == 0))

static inline unsigned long smq_uk_find_bit(const unsigned long *addr,
					    unsigned long size,
					    unsigned long start, bool zero)
{
	while (start < size) {
		unsigned long w = addr[SMQ_UK_BIT_WORD(start)];

		if (zero)
			w = ~w;
		w &= ~0UL << (start % BITS_PER_LONG);
		if (w) {
			start = (start & ~(BITS_PER_LONG - 1UL)) + __ffs(w);
			return min(start, size);
		}
		start = (start | (BITS_PER_LONG - 1UL)) + 1;
	}
	return size;
}

#define find_next_bit(a, s, o)		smq_uk_find_bit(a, s, o, false)
#define find_next_zero_bit(a, s, o)	smq_uk_find_bit(a, s, o, true)
#define find_first_bit(a, s)		smq_uk_find_bit(a, s, 0, false)
#define find_first_zero_bit(a, s)	smq_uk_find_bit(a, s, 0, true)
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_first_bit(addr, size); (bit) < (size);	\
	     (bit) = find_next_bit(addr, size, (bit) + 1))

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline unsigned int bitmap_weight(const unsigned long *src,
					 unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		w += hweight_long(src[i]);
	if (nbits % BITS_PER_LONG)
		w += hweight_long(src[i] & (BIT(nbits % BITS_PER_LONG) - 1));
	return w;
}

/* ---- unaligned big-endian accessors ---- */
static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32(v >> 32, p);
	put_unaligned_be32((u32)v, (u8 *)p + 4);
}

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap_fn)(void *, void *, int))
{
	(void)swap_fn;
	if (num)
		qsort(base, num, size, cmp);
}

/* ---- allocation (gfp flags and nodes are ignored) ---- */
#define GFP_KERNEL	0U
#define GFP_NOIO	0U
#define GFP_NOFS	0U
#define GFP_ATOMIC	0U
#define __GFP_ZERO	0U
#define NUMA_NO_NODE	(-1)

/* Cache-line aligned so ____cacheline_aligned_in_smp members are honest. */
static inline void *smq_uk_zalloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	if (posix_memalign(&p, SMP_CACHE_BYTES, bytes ? bytes : 1))
		return NULL;
	memset(p, 0, bytes);
	return p;
}

#define kmalloc(s, g)		((void)(g), smq_uk_zalloc(1, s))
#define kzalloc(s, g)		((void)(g), smq_uk_zalloc(1, s))
#define kzalloc_node(s, g, nd)	((void)(g), (void)(nd), smq_uk_zalloc(1, s))
#define kcalloc(n, s, g)	((void)(g), smq_uk_zalloc(n, s))
#define kmalloc_array(n, s, g)	((void)(g), smq_uk_zalloc(n, s))
#define kcalloc_node(n, s, g, nd) \
	((void)(g), (void)(nd), smq_uk_zalloc(n, s))
#define kvzalloc_node(s, g, nd)	((void)(g), (void)(nd), smq_uk_zalloc(1, s))
#define kfree(p)			free((void *)(p))
#define kvfree(p)			free((void *)(p))

/* ---- per-CPU emulation: one slot per "CPU" ---- */
#define SMQ_UK_NR_CPUS	64
#define nr_cpu_ids	((unsigned int)SMQ_UK_NR_CPUS)
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#define alloc_percpu_gfp(type, gfp) \
	((void)(gfp), (type *)smq_uk_zalloc(SMQ_UK_NR_CPUS, sizeof(type)))
#define alloc_percpu(type)	alloc_percpu_gfp(type, GFP_KERNEL)
#define free_percpu(p)		free(p)
#define per_cpu_ptr(p, cpu)	(&(p)[(cpu)])
#define raw_cpu_ptr(p)		(&(p)[smq_uk_cpu()])
#define this_cpu_ptr(p)		raw_cpu_ptr(p)
int smq_uk_cpu(void);

/* ---- locks ---- */
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

/* ---- lists (pointer stores are atomic: waitqueue_active() peeks) ---- */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)	{ &(name), &(name) }

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

/* ---- tasks and wait queues ---- */
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

struct task_struct *smq_uk_current(void);
#define current			smq_uk_current()

#define __set_current_state(s)	__atomic_store_n(&current->state, (s), \
						 __ATOMIC_SEQ_CST)
#define set_current_state(s)	do { __set_current_state(s); smp_mb(); } while (0)

void schedule(void);
#define io_schedule()		schedule()
int wake_up_process(struct task_struct *p);

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

#ifdef SMQ_UK_IMPL
static struct task_struct *smq_uk_all_tasks;
static __thread struct task_struct *smq_uk_self;
static __thread int smq_uk_self_cpu = -1;
static int smq_uk_next_cpu;

struct task_struct *smq_uk_current(void)
{
	struct task_struct *t = smq_uk_self;

	if (likely(t))
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	t->all_next = __atomic_load_n(&smq_uk_all_tasks, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&smq_uk_all_tasks, &t->all_next, t,
					    false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
	smq_uk_self = t;
	return t;
}

int smq_uk_race_windows;
static __thread u64 smq_uk_race_seed;

void smq_uk_race_yield(void)
{
	u64 x = smq_uk_race_seed;

	if (!x)
		x = (u64)(uintptr_t)&x | 1;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	smq_uk_race_seed = x;
	if ((x & 7) == 0)
		sched_yield();
}

/* Each thread is pinned to a "CPU" slot, handed out round robin. */
int smq_uk_cpu(void)
{
	if (unlikely(smq_uk_self_cpu < 0))
		smq_uk_self_cpu = __atomic_fetch_add(&smq_uk_next_cpu, 1,
						     __ATOMIC_RELAXED) %
				  SMQ_UK_NR_CPUS;
	return smq_uk_self_cpu;
}

void schedule(void)
{
	struct task_struct *t = current;

	pthread_mutex_lock(&t->lock);
	while (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) != TASK_RUNNING)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static int smq_uk_try_to_wake_up(struct task_struct *t, unsigned int mode)
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
	return smq_uk_try_to_wake_up(p, TASK_NORMAL);
}

int default_wake_function(struct wait_queue_entry *e, unsigned int mode,
			  int flags, void *key)
{
	(void)flags;
	(void)key;
	return smq_uk_try_to_wake_up(e->private, mode);
}

int autoremove_wake_function(struct wait_queue_entry *e, unsigned int mode,
			     int flags, void *key)
{
	int ret = default_wake_function(e, mode, flags, key);

	if (ret)
		list_del_init(&e->entry);
	return ret;
}

static void smq_uk_prepare(struct wait_queue_head *wq,
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
	smq_uk_prepare(wq, e, state, 0);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq,
			       struct wait_queue_entry *e, int state)
{
	smq_uk_prepare(wq, e, state, WQ_FLAG_EXCLUSIVE);
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
#endif /* SMQ_UK_IMPL */

#endif /* __KERNEL__ */
#endif /* _SMQ_UK_H */
