/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal unit-test harness: a table of test cases, CHECK macros that
 * record a failure and carry on, and a main() that runs the table and
 * ends with the line "RESULT <passed> <failed>" (read by the Makefile).
 */
#ifndef _SMQ_TEST_H
#define _SMQ_TEST_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <inttypes.h>
#include <stdarg.h>
#include <unistd.h>

struct smq_test {
	const char *name;
	void (*fn)(void);
};

extern int smq_t_fails;

static inline void smq_t_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "  %s:%d: check failed: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	__atomic_add_fetch(&smq_t_fails, 1, __ATOMIC_SEQ_CST);
}

#define CHECK(c)							\
	do {								\
		if (!(c))						\
			smq_t_fail(__FILE__, __LINE__, "%s", #c);	\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long __a = (long long)(a), __b = (long long)(b);	\
		if (__a != __b)						\
			smq_t_fail(__FILE__, __LINE__,			\
				   "%s == %s (%lld != %lld)", #a, #b,	\
				   __a, __b);				\
	} while (0)

#define CHECK_MEM(a, b, n)						\
	do {								\
		if (memcmp(a, b, n))					\
			smq_t_fail(__FILE__, __LINE__, "%s == %s (%u bytes)", \
				   #a, #b, (unsigned int)(n));		\
	} while (0)

#define CHECK_STR(a, b)							\
	do {								\
		if (strcmp(a, b))					\
			smq_t_fail(__FILE__, __LINE__, "%s == %s (\"%s\" != \"%s\")", \
				   #a, #b, a, b);			\
	} while (0)

#define SMQ_TEST(fn)	{ #fn, fn }

/* Deterministic PRNG (xorshift64*) for tests and fuzz drivers. */
static inline u64 smq_t_rand(u64 *s)
{
	u64 x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int smq_test_main(const char *prog, const struct smq_test *tests, size_t n);
void smq_test_abort(const char *why);

#ifdef SMQ_TEST_MAIN
int smq_t_fails;
static unsigned int smq_t_passed, smq_t_failed;
static const char *smq_t_current;

int smq_test_main(const char *prog, const struct smq_test *tests, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int before = smq_t_fails;

		smq_t_current = tests[i].name;
		tests[i].fn();
		if (smq_t_fails == before) {
			smq_t_passed++;
			printf("  ok   %s\n", tests[i].name);
		} else {
			smq_t_failed++;
			printf("  FAIL %s\n", tests[i].name);
		}
		fflush(stdout);
	}
	printf("%s: %u passed, %u failed\n", prog, smq_t_passed, smq_t_failed);
	printf("RESULT %u %u\n", smq_t_passed, smq_t_failed);
	return smq_t_failed ? 1 : 0;
}

/* Fail the running case and stop the binary now (e.g. a hung stress). */
void smq_test_abort(const char *why)
{
	printf("  FAIL %s (%s)\n", smq_t_current, why);
	printf("RESULT %u %u\n", smq_t_passed, smq_t_failed + 1);
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}
#endif

#endif /* _SMQ_TEST_H */
