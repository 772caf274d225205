// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of block/smq_cpumap.c: hand-checked small shapes, then
 * properties over many odd shapes (1..64 CPUs and a few large ones,
 * holes in the possible mask, SMT 1/2/4 with both sibling numberings,
 * hybrid cores, 1..4 packages, 1..N+3 queues).
 */
#define SMQ_TEST_MAIN
#include "smq_test.h"
#include <smq/cpumap.h>

#define MAX_CPUS	512

struct shape {
	unsigned int nr;
	unsigned long possible[BITS_TO_LONGS(MAX_CPUS)];
	unsigned int core[MAX_CPUS];
	unsigned int pkg[MAX_CPUS];
	bool smt, pkgs;
};

static struct smq_cpu_topology topo_of(struct shape *s)
{
	struct smq_cpu_topology t = {
		.nr_ids = s->nr,
		.possible = s->possible,
		.core_id = s->smt ? s->core : NULL,
		.pkg_id = s->pkgs ? s->pkg : NULL,
	};
	return t;
}

/* nr CPUs, all possible, threads-per-core, packages; siblings k, k+nr/tpc */
static void make_shape(struct shape *s, unsigned int nr, unsigned int tpc,
		       unsigned int npkg, bool adjacent)
{
	unsigned int cpu, cores = nr / tpc;

	memset(s, 0, sizeof(*s));
	s->nr = nr;
	s->smt = tpc > 1;
	s->pkgs = npkg > 1;
	for (cpu = 0; cpu < nr; cpu++) {
		unsigned int core = adjacent ? cpu / tpc : cpu % cores;

		__set_bit(cpu, s->possible);
		s->core[cpu] = core % (cores / npkg ? cores / npkg : 1);
		s->pkg[cpu] = core / (cores / npkg ? cores / npkg : 1);
	}
}

static int spread(struct shape *s, unsigned int nq, unsigned int *map)
{
	struct smq_cpu_topology t = topo_of(s);

	return smq_cpumap_spread(&t, nq, map);
}

static void test_hand_checked(void)
{
	struct shape s;
	unsigned int map[MAX_CPUS];
	static const unsigned int smt8_2q[] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const unsigned int flat4_3q[] = { 0, 1, 1, 2 };
	static const unsigned int pkg2_2q[] = { 0, 0, 0, 0, 1, 1, 1, 1 };

	/* 4 cores x 2 threads, siblings k and k+4, 2 queues */
	make_shape(&s, 8, 2, 1, false);
	CHECK_EQ(spread(&s, 2, map), 2);
	CHECK_MEM(map, smt8_2q, sizeof(smt8_2q));
	/* 4 CPUs, 3 queues: each queue takes what is closest to its share */
	make_shape(&s, 4, 1, 1, true);
	CHECK_EQ(spread(&s, 3, map), 3);
	CHECK_MEM(map, flat4_3q, sizeof(flat4_3q));
	/* 2 packages x 2 cores x 2 threads (adjacent siblings), 2 queues */
	make_shape(&s, 8, 2, 2, true);
	CHECK_EQ(spread(&s, 2, map), 2);
	CHECK_MEM(map, pkg2_2q, sizeof(pkg2_2q));
	/* holes: {0,1,2,5,6,7} of 8, 2 queues */
	make_shape(&s, 8, 1, 1, true);
	__clear_bit(3, s.possible);
	__clear_bit(4, s.possible);
	CHECK_EQ(spread(&s, 2, map), 2);
	CHECK(map[0] == 0 && map[1] == 0 && map[2] == 0);
	CHECK(map[5] == 1 && map[6] == 1 && map[7] == 1);
	CHECK(map[3] == 0 && map[4] == 0);
	/* more queues than CPUs: {0,2,4} of 6 and 8 queues */
	make_shape(&s, 6, 1, 1, true);
	__clear_bit(1, s.possible);
	__clear_bit(3, s.possible);
	__clear_bit(5, s.possible);
	CHECK_EQ(spread(&s, 8, map), 3);
	CHECK(map[0] == 0 && map[2] == 1 && map[4] == 2);
	CHECK(map[1] == 0 && map[3] == 0 && map[5] == 0);
	/* 2 cores x 2 threads, 3 queues: one core is split, not both */
	make_shape(&s, 4, 2, 1, true);
	CHECK_EQ(spread(&s, 3, map), 3);
	CHECK(map[0] == 0 && map[1] == 1 && map[2] == 2 && map[3] == 2);
	/* 2 packages x 4 cores, 3 queues: packages can't divide, spread flat */
	make_shape(&s, 8, 1, 2, true);
	CHECK_EQ(spread(&s, 3, map), 3);
	CHECK(map[0] == 0 && map[2] == 0 && map[3] == 1 && map[4] == 1);
	CHECK(map[5] == 2 && map[7] == 2);
}

static void test_errors(void)
{
	struct shape s;
	struct smq_cpu_topology t;
	unsigned int map[8];
	unsigned long *masks[1];
	const unsigned long *cmasks[1] = { NULL };

	make_shape(&s, 8, 1, 1, true);
	t = topo_of(&s);
	CHECK_EQ(smq_cpumap_spread(&t, 0, map), -EINVAL);
	CHECK_EQ(smq_cpumap_spread(NULL, 1, map), -EINVAL);
	CHECK_EQ(smq_cpumap_spread(&t, 1, NULL), -EINVAL);
	CHECK_EQ(smq_cpumap_from_affinity(&t, 1, NULL, map), -EINVAL);
	CHECK_EQ(smq_cpumap_from_affinity(&t, 0, cmasks, map), -EINVAL);
	CHECK_EQ(smq_cpumap_spread_masks(&t, 0, masks), -EINVAL);
	t.nr_ids = 0;
	CHECK_EQ(smq_cpumap_spread(&t, 1, map), -EINVAL);
	bitmap_zero(s.possible, MAX_CPUS);
	t = topo_of(&s);
	CHECK_EQ(smq_cpumap_spread(&t, 1, map), -EINVAL);
}

/* Random odd shape: holes, SMT 1/2/4 or hybrid, 1..4 packages. */
static void random_shape(struct shape *s, u64 *rnd, unsigned int nr)
{
	unsigned int cpu, kind = smq_t_rand(rnd) % 5;
	unsigned int npkg = 1 + smq_t_rand(rnd) % 4;
	bool adjacent = smq_t_rand(rnd) & 1;

	make_shape(s, nr, 1, 1, true);
	s->smt = kind != 0;
	s->pkgs = npkg > 1;
	for (cpu = 0; cpu < nr; cpu++) {
		unsigned int tpc = kind == 1 ? 2 : kind == 2 ? 4 : 1;
		unsigned int core;

		if (kind == 3)		/* hybrid: 2-thread P cores then E cores */
			tpc = cpu < nr / 2 ? 2 : 1;
		if (kind == 4)		/* SMT ids given but all distinct */
			tpc = 1;
		core = adjacent || kind == 3 ? cpu / tpc :
		       cpu % max(nr / tpc, 1U);
		if (kind == 3 && cpu >= nr / 2)
			core = nr / 4 + (cpu - nr / 2) + 1000;
		s->core[cpu] = core;
		s->pkg[cpu] = (core % 1000) * npkg / max(nr / tpc, 1U);
		if (smq_t_rand(rnd) % 6 == 0)
			__clear_bit(cpu, s->possible);
	}
	if (!bitmap_weight(s->possible, nr))
		__set_bit(smq_t_rand(rnd) % nr, s->possible);
}

struct props {
	unsigned int n, groups, max_group;
	unsigned int size[MAX_CPUS + 8];
};

static bool same_group(struct shape *s, unsigned int a, unsigned int b)
{
	unsigned int pa = s->pkgs ? s->pkg[a] : 0, pb = s->pkgs ? s->pkg[b] : 0;
	unsigned int ca = s->smt ? s->core[a] : a, cb = s->smt ? s->core[b] : b;

	return pa == pb && ca == cb;
}

static void check_props(struct shape *s, unsigned int nq, unsigned int *map)
{
	struct props p = { 0 };
	unsigned int a, b, q, lo = UINT_MAX, hi = 0;
	int ret = spread(s, nq, map);

	p.n = bitmap_weight(s->possible, s->nr);
	/* sibling groups */
	for_each_set_bit(a, s->possible, s->nr) {
		unsigned int sz = 0;
		bool first = true;

		for_each_set_bit(b, s->possible, s->nr) {
			if (same_group(s, a, b)) {
				sz++;
				if (b < a)
					first = false;
			}
		}
		p.groups += first;
		p.max_group = max(p.max_group, sz);
	}
	CHECK_EQ(ret, min(nq, p.n));
	if (ret <= 0)
		return;
	for (a = 0; a < s->nr; a++) {
		CHECK(map[a] < nq);
		if (!test_bit(a, s->possible))
			CHECK_EQ(map[a], 0);
		else
			p.size[map[a]]++;
	}
	for (q = 0; q < (unsigned int)ret; q++) {
		lo = min(lo, p.size[q]);
		hi = max(hi, p.size[q]);
	}
	for (q = ret; q < nq; q++)
		CHECK_EQ(p.size[q], 0);
	if (nq >= p.n) {
		q = 0;
		for_each_set_bit(a, s->possible, s->nr)
			CHECK_EQ(map[a], q++);
		return;
	}
	/* every queue used, balanced within one sibling group */
	CHECK(lo > 0);
	CHECK(hi - lo <= p.max_group);
	/* SMT siblings never split while there are enough groups */
	if (nq <= p.groups) {
		for_each_set_bit(a, s->possible, s->nr)
			for_each_set_bit(b, s->possible, s->nr)
				if (same_group(s, a, b))
					CHECK_EQ(map[a], map[b]);
	} else {
		/* one queue never mixes two groups */
		for_each_set_bit(a, s->possible, s->nr)
			for_each_set_bit(b, s->possible, s->nr)
				if (map[a] == map[b])
					CHECK(same_group(s, a, b));
	}
}

static void test_properties_odd_shapes(void)
{
	static unsigned int map[MAX_CPUS];
	static struct shape s;
	u64 rnd = 7;
	unsigned int nr, nq, round;

	for (nr = 1; nr <= 64; nr++) {
		for (round = 0; round < 6; round++) {
			random_shape(&s, &rnd, nr);
			for (nq = 1; nq <= nr + 3; nq++)
				check_props(&s, nq, map);
		}
	}
	static const unsigned int big[] = { 96, 128, 255, 384, 512 };

	for (round = 0; round < ARRAY_SIZE(big) * 2; round++) {
		random_shape(&s, &rnd, big[round / 2]);
		for (nq = 1; nq <= big[round / 2] + 1; nq += 1 + nq / 4)
			check_props(&s, nq, map);
	}
}

static void test_regular_shapes(void)
{
	static unsigned int map[MAX_CPUS];
	static struct shape s;
	static const unsigned int tpcs[] = { 1, 2, 4 };
	unsigned int t, npkg, nq, adj, cpu;

	for (t = 0; t < ARRAY_SIZE(tpcs); t++) {
		for (npkg = 1; npkg <= 4; npkg *= 2) {
			for (adj = 0; adj < 2; adj++) {
				make_shape(&s, 64, tpcs[t], npkg, adj);
				for (nq = 1; nq <= 67; nq++)
					check_props(&s, nq, map);
				/* queues divisible by packages: no straddling */
				for (nq = npkg; nq <= 64 / tpcs[t];
				     nq += npkg) {
					CHECK_EQ(spread(&s, nq, map), nq);
					for (cpu = 1; cpu < 64; cpu++)
						if (map[cpu] == map[cpu - 1] &&
						    npkg > 1)
							CHECK_EQ(s.pkg[cpu],
								 s.pkg[cpu - 1]);
					for (cpu = 0; cpu < 64; cpu++)
						CHECK_EQ(map[cpu] * npkg / nq,
							 s.pkg[cpu]);
				}
			}
		}
	}
}

static void test_from_affinity(void)
{
	static struct shape s;
	unsigned int map[16], spread_map[16], cpu;
	unsigned long m0[1] = { 0x000f }, m1[1] = { 0x00f8 }, m2[1] = { 0 };
	const unsigned long *masks[4] = { m0, m1, m2, NULL };
	struct smq_cpu_topology t;

	make_shape(&s, 12, 1, 1, true);
	t = topo_of(&s);
	CHECK_EQ(smq_cpumap_spread(&t, 4, spread_map), 4);
	/* CPUs 0-3 -> 0, 4-7 -> 1 (3 is in both: lowest wins), 8-11 spread */
	CHECK_EQ(smq_cpumap_from_affinity(&t, 4, masks, map), 4);
	for (cpu = 0; cpu < 4; cpu++)
		CHECK_EQ(map[cpu], 0);
	for (cpu = 4; cpu < 8; cpu++)
		CHECK_EQ(map[cpu], 1);
	for (cpu = 8; cpu < 12; cpu++)
		CHECK_EQ(map[cpu], spread_map[cpu]);
	CHECK_EQ(spread_map[8], 2);
	CHECK_EQ(spread_map[11], 3);
}

static void test_spread_masks(void)
{
	static unsigned int map[MAX_CPUS];
	static struct shape s;
	static unsigned long storage[70][BITS_TO_LONGS(MAX_CPUS)];
	unsigned long *masks[70];
	u64 rnd = 99;
	unsigned int round, q, cpu;

	for (q = 0; q < 70; q++)
		masks[q] = storage[q];
	for (round = 0; round < 40; round++) {
		unsigned int nr = 1 + smq_t_rand(&rnd) % 64;
		unsigned int nq = 1 + smq_t_rand(&rnd) % 69;
		struct smq_cpu_topology t;
		const unsigned long *cmasks[70];
		unsigned int amap[MAX_CPUS];
		int ret;

		random_shape(&s, &rnd, nr);
		t = topo_of(&s);
		memset(storage, 0xff, sizeof(storage));
		ret = smq_cpumap_spread_masks(&t, nq, masks);
		CHECK_EQ(ret, spread(&s, nq, map));
		for (cpu = 0; cpu < nr; cpu++) {
			for (q = 0; q < nq; q++) {
				bool in = test_bit(cpu, masks[q]);

				CHECK_EQ(in, test_bit(cpu, s.possible) &&
					     map[cpu] == q);
			}
		}
		/* The masks fed back as affinity give the same map. */
		for (q = 0; q < nq; q++)
			cmasks[q] = masks[q];
		CHECK_EQ(smq_cpumap_from_affinity(&t, nq, cmasks, amap), ret);
		CHECK_MEM(amap, map, nr * sizeof(*map));
	}
}

static const struct smq_test tests[] = {
	SMQ_TEST(test_hand_checked),
	SMQ_TEST(test_errors),
	SMQ_TEST(test_properties_odd_shapes),
	SMQ_TEST(test_regular_shapes),
	SMQ_TEST(test_from_affinity),
	SMQ_TEST(test_spread_masks),
};

int main(void)
{
	return smq_test_main("test_cpumap", tests, ARRAY_SIZE(tests));
}
