/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz targets of the parsers of untrusted data.  Each fuzz_*.c defines
 * LLVMFuzzerTestOneInput() (libFuzzer entry point; `make fuzz` builds it
 * with clang -fsanitize=fuzzer) and smq_fuzz_seeds(), valid inputs the
 * built-in driver (fuzz_driver.c, part of the normal unit run) mutates.
 */
#ifndef _SMQ_FUZZ_H
#define _SMQ_FUZZ_H

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef void (*smq_fuzz_add_fn)(const u8 *buf, unsigned int len);
void smq_fuzz_seeds(smq_fuzz_add_fn add);

/* Fail loudly: an invariant of a parser's output does not hold. */
#define FUZZ_ASSERT(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "%s:%d: fuzz invariant: %s\n",	\
				__FILE__, __LINE__, #c);		\
			abort();					\
		}							\
	} while (0)

/* Make ASan check that [p, p + n) is readable. */
static inline void fuzz_touch(const u8 *p, size_t n)
{
	volatile u8 sink = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sink ^= p[i];
	(void)sink;
}

/* A copy of @data in an exact-size heap buffer, with byte 1 forced. */
static inline u8 *fuzz_copy(const u8 *data, size_t size, int byte1)
{
	u8 *b = malloc(size ? size : 1);

	if (!b)
		abort();
	if (size)
		memcpy(b, data, size);
	if (byte1 >= 0 && size > 1)
		b[1] = byte1;
	return b;
}

#endif /* _SMQ_FUZZ_H */
