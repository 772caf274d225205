// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic fuzz driver for the unit run: feeds a target random
 * inputs and mutations of its seeds, each in an exact-size heap buffer
 * so ASan sees any read past the end.  Usage: fuzz_X [iterations]
 * (default 200000, or $SMQ_FUZZ_ITERS).  On a crash, the input is
 * printed in hex.
 */
#include "smq_fuzz.h"
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define SMQ_HAVE_DEATH_CB 1
#endif

#define MAX_SEEDS	64
#define MAX_LEN		600

static u8 seeds[MAX_SEEDS][MAX_LEN];
static unsigned int seed_len[MAX_SEEDS], nr_seeds;
static const u8 *cur;
static size_t cur_len;

static void add_seed(const u8 *buf, unsigned int len)
{
	if (nr_seeds == MAX_SEEDS || len > MAX_LEN)
		abort();
	memcpy(seeds[nr_seeds], buf, len);
	seed_len[nr_seeds++] = len;
}

static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	u64 x = rnd_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rnd_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static __maybe_unused void dump_input(void)
{
	size_t i;

	fprintf(stderr, "fuzz input (%zu bytes):", cur_len);
	for (i = 0; i < cur_len; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", cur[i]);
	fputc('\n', stderr);
}

static unsigned int mutate(u8 *buf, unsigned int len)
{
	static const u8 interesting[] = { 0x00, 0x01, 0x02, 0x04, 0x08, 0x0a,
					  0x10, 0x12, 0x3c, 0x3f, 0x40, 0x70,
					  0x72, 0x7f, 0x80, 0x83, 0xfe, 0xff };
	unsigned int k, n = 1 + rnd() % 6, pos;

	for (k = 0; k < n; k++) {
		pos = len ? rnd() % len : 0;
		switch (rnd() % 8) {
		case 0:
			if (len)
				buf[pos] ^= 1 << (rnd() % 8);
			break;
		case 1:
			if (len)
				buf[pos] = rnd();
			break;
		case 2:
			if (len)
				buf[pos] = interesting[rnd() % sizeof(interesting)];
			break;
		case 3:
			len = len ? rnd() % (len + 1) : 0;
			break;
		case 4:
			while (len < MAX_LEN && rnd() % 8)
				buf[len++] = rnd();
			break;
		case 5:		/* a big-endian length field */
			if (len >= 2) {
				pos = rnd() % (len - 1);
				put_unaligned_be16(rnd() % 3 ? rnd() % 64 :
						   (u16)rnd(), &buf[pos]);
			}
			break;
		case 6: {	/* splice in part of another seed */
			unsigned int s = rnd() % nr_seeds;
			unsigned int from = seed_len[s] ? rnd() % seed_len[s] : 0;
			unsigned int cnt = min(seed_len[s] - from, MAX_LEN - pos);

			memcpy(&buf[pos], &seeds[s][from], cnt);
			len = max(len, pos + cnt);
			break;
		}
		default:
			if (len)
				buf[pos] = rnd() % 4 ? buf[pos] + 1 : buf[pos] - 1;
			break;
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	const char *env = getenv("SMQ_FUZZ_ITERS");
	unsigned long iters = 200000, i;
	static u8 buf[MAX_LEN];
	const char *name = strrchr(argv[0], '/');

	name = name ? name + 1 : argv[0];
	if (argc > 1)
		iters = strtoul(argv[1], NULL, 0);
	else if (env)
		iters = strtoul(env, NULL, 0);
#ifdef SMQ_HAVE_DEATH_CB
	__sanitizer_set_death_callback(dump_input);
#endif
	smq_fuzz_seeds(add_seed);
	for (i = 0; i < nr_seeds; i++) {	/* seeds as they are */
		u8 *b = fuzz_copy(seeds[i], seed_len[i], -1);

		cur = b;
		cur_len = seed_len[i];
		LLVMFuzzerTestOneInput(b, seed_len[i]);
		free(b);
	}
	for (i = 0; i < iters; i++) {
		unsigned int len;
		u8 *b;

		if (!nr_seeds || rnd() % 4 == 0) {
			len = rnd() % 300;
			for (unsigned int k = 0; k < len; k++)
				buf[k] = rnd();
		} else {
			unsigned int s = rnd() % nr_seeds;

			memcpy(buf, seeds[s], seed_len[s]);
			len = mutate(buf, seed_len[s]);
		}
		b = fuzz_copy(buf, len, -1);
		cur = b;
		cur_len = len;
		LLVMFuzzerTestOneInput(b, len);
		free(b);
	}
	printf("  ok   %s: %lu inputs (%u seeds)\n", name, iters, nr_seeds);
	printf("RESULT 1 0\n");
	return 0;
}
