/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim of <linux/atomic.h> for tests/unit; the ordering of each
 * operation is explained in <asm/barrier.h>.
 */
#ifndef _UK_LINUX_ATOMIC_H
#define _UK_LINUX_ATOMIC_H

#include <stdbool.h>
#include <asm/barrier.h>

/* A fully ordered RMW: smp_mb() on both sides of a seq_cst operation. */
#define uk_full(expr)							\
	({ __typeof__(expr) __r;					\
	   smp_mb(); __r = (expr); smp_mb(); __r; })

#define xchg(p, v)	uk_full(__atomic_exchange_n(p, v, __ATOMIC_SEQ_CST))
#define try_cmpxchg(p, oldp, n)						\
	uk_full(__atomic_compare_exchange_n(p, oldp, n, false,		\
					    __ATOMIC_SEQ_CST,		\
					    __ATOMIC_SEQ_CST))
#define cmpxchg(p, o, n) \
	({ __typeof__(*(p)) __o = (o); try_cmpxchg(p, &__o, n); __o; })

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
#define ATOMIC_INIT(i)		{ (i) }

#define UK_ATOMIC_OPS(pfx, t, vt)					\
static inline vt pfx##_read(const t *v)					\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static inline void pfx##_set(t *v, vt i)				\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_add(vt i, t *v)				\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }		\
static inline vt pfx##_add_return(vt i, t *v)				\
{ return uk_full(__atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST)); } \
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

UK_ATOMIC_OPS(atomic, atomic_t, int)
UK_ATOMIC_OPS(atomic_long, atomic_long_t, long)

#endif
