// SPDX-License-Identifier: GPL-2.0
/*
 * smq CPU -> hardware queue mapping (see include/smq/cpumap.h).
 *
 * The possible CPUs are sorted by (package, core, id), which puts SMT
 * siblings next to each other and packages one after another; runs of
 * equal (package, core) are the sibling groups.  Groups are then dealt
 * out to queues in order, each queue taking the groups that bring it
 * closest to its fair share of the CPUs still unassigned.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <smq/cpumap.h>

struct smq_cm_cpu {
	unsigned int pkg, core, cpu;
};

/* A run of sorted CPUs: an SMT sibling group, or a split part of one. */
struct smq_cm_group {
	unsigned int pkg, first, nr;
};

struct smq_cm {
	struct smq_cm_cpu *cpus;
	unsigned int nr_cpus;
	struct smq_cm_group *groups;
	unsigned int nr_groups;
	unsigned int *gq;		/* queue of each group */
	unsigned int max_group;
};

static int smq_cm_cmp(const void *a, const void *b)
{
	const struct smq_cm_cpu *x = a, *y = b;

	if (x->pkg != y->pkg)
		return x->pkg < y->pkg ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static unsigned int smq_cm_nr_possible(const struct smq_cpu_topology *topo)
{
	return bitmap_weight(topo->possible, topo->nr_ids);
}

static void smq_cm_release(struct smq_cm *cm)
{
	kfree(cm->cpus);
	kfree(cm->groups);
	kfree(cm->gq);
}

/* Sort the possible CPUs and cut them into sibling groups. */
static int smq_cm_build(struct smq_cm *cm, const struct smq_cpu_topology *topo)
{
	unsigned int cpu, n = 0, i;

	memset(cm, 0, sizeof(*cm));
	cm->nr_cpus = smq_cm_nr_possible(topo);
	/* At most one group per CPU, even after splitting. */
	cm->cpus = kcalloc(cm->nr_cpus, sizeof(*cm->cpus), GFP_KERNEL);
	cm->groups = kcalloc(cm->nr_cpus, sizeof(*cm->groups), GFP_KERNEL);
	cm->gq = kcalloc(cm->nr_cpus, sizeof(*cm->gq), GFP_KERNEL);
	if (!cm->cpus || !cm->groups || !cm->gq) {
		smq_cm_release(cm);
		return -ENOMEM;
	}
	for_each_set_bit(cpu, topo->possible, topo->nr_ids) {
		cm->cpus[n].cpu = cpu;
		cm->cpus[n].core = topo->core_id ? topo->core_id[cpu] : cpu;
		cm->cpus[n].pkg = topo->pkg_id ? topo->pkg_id[cpu] : 0;
		n++;
	}
	sort(cm->cpus, n, sizeof(*cm->cpus), smq_cm_cmp, NULL);
	for (i = 0; i < n; i++) {
		struct smq_cm_group *g = &cm->groups[cm->nr_groups];

		if (i && cm->cpus[i].pkg == cm->cpus[i - 1].pkg &&
		    cm->cpus[i].core == cm->cpus[i - 1].core) {
			g[-1].nr++;
			continue;
		}
		g->pkg = cm->cpus[i].pkg;
		g->first = i;
		g->nr = 1;
		cm->nr_groups++;
	}
	for (i = 0; i < cm->nr_groups; i++)
		cm->max_group = max(cm->max_group, cm->groups[i].nr);
	return 0;
}

/*
 * More queues than groups: halve the largest groups (first ones first)
 * until there is exactly one group per queue.
 */
static void smq_cm_split(struct smq_cm *cm, unsigned int nr_queues)
{
	unsigned int i;

	while (cm->nr_groups < nr_queues) {
		unsigned int big = 0, nr_big = 0, splits, out, rank;

		for (i = 0; i < cm->nr_groups; i++)
			big = max(big, cm->groups[i].nr);
		for (i = 0; i < cm->nr_groups; i++)
			nr_big += cm->groups[i].nr == big;
		splits = min(nr_big, nr_queues - cm->nr_groups);
		/* Walk backwards so the array can grow in place. */
		out = cm->nr_groups + splits;
		rank = nr_big;
		for (i = cm->nr_groups; i-- > 0;) {
			struct smq_cm_group g = cm->groups[i];

			/* rank: how many big groups come before this one */
			if (g.nr == big && --rank < splits) {
				unsigned int head = g.nr - g.nr / 2;

				cm->groups[--out] = (struct smq_cm_group){
					g.pkg, g.first + head, g.nr / 2 };
				g.nr = head;
			}
			cm->groups[--out] = g;
		}
		cm->nr_groups += splits;
	}
	for (i = 0; i < cm->nr_groups; i++)
		cm->gq[i] = i;
}

/*
 * Deal groups [g0, g0 + ng) to queues [q0, q0 + nq), ng >= nq, keeping
 * them in order: queue k ends at the group boundary nearest to the ideal
 * cut (k + 1) * cpus / nq, leaving at least one group per later queue.
 * Cutting at absolute positions keeps rounding errors from piling up.
 */
static void smq_cm_deal(struct smq_cm *cm, unsigned int g0, unsigned int ng,
			unsigned int q0, unsigned int nq)
{
	const struct smq_cm_group *g = &cm->groups[g0];
	unsigned int i, q, end;
	u64 total = 0, pos = 0, cut2;

	for (i = 0; i < ng; i++)
		total += g[i].nr;
	i = 0;
	for (q = 0; q < nq; q++) {
		end = ng - (nq - q - 1);
		cut2 = 2 * (q + 1) * total;	/* twice the cut, times nq */
		do {
			pos += g[i].nr;
			cm->gq[g0 + i++] = q0 + q;
		} while (i < end && (2 * pos + g[i].nr) * nq <= cut2);
	}
}

/*
 * Fallback for irregular groups: each group, in order, goes to the
 * least loaded queue.  Adding at most max_group to a minimum keeps
 * max - min <= max_group at every step.
 */
static void smq_cm_least_loaded(struct smq_cm *cm, unsigned int nq,
				unsigned int *size)
{
	unsigned int i, q, best;

	memset(size, 0, nq * sizeof(*size));
	for (i = 0; i < cm->nr_groups; i++) {
		for (q = 1, best = 0; q < nq; q++)
			if (size[q] < size[best])
				best = q;
		size[best] += cm->groups[i].nr;
		cm->gq[i] = best;
	}
}

static bool smq_cm_balanced(const struct smq_cm *cm, unsigned int nr_queues,
			    unsigned int *size)
{
	unsigned int i, lo = UINT_MAX, hi = 0;

	memset(size, 0, nr_queues * sizeof(*size));
	for (i = 0; i < cm->nr_groups; i++)
		size[cm->gq[i]] += cm->groups[i].nr;
	for (i = 0; i < nr_queues; i++) {
		lo = min(lo, size[i]);
		hi = max(hi, size[i]);
	}
	return hi - lo <= cm->max_group;
}

/* Give package p its share of queues, by largest remainder. */
static bool smq_cm_allot(unsigned int np, const unsigned int *p_cpus,
			 const unsigned int *p_groups, unsigned int total,
			 unsigned int nq, unsigned int *p_q)
{
	unsigned int p, sum = 0;

	for (p = 0; p < np; p++) {
		p_q[p] = div_u64((u64)nq * p_cpus[p], total);
		p_q[p] = clamp(p_q[p], 1U, p_groups[p]);
		sum += p_q[p];
	}
	while (sum != nq) {
		s64 best_rem = 0;
		int best = -1;

		for (p = 0; p < np; p++) {
			s64 rem = (s64)nq * p_cpus[p] - (s64)p_q[p] * total;

			if (sum < nq && p_q[p] < p_groups[p] &&
			    (best < 0 || rem > best_rem)) {
				best = p;
				best_rem = rem;
			}
			if (sum > nq && p_q[p] > 1 &&
			    (best < 0 || rem < best_rem)) {
				best = p;
				best_rem = rem;
			}
		}
		if (best < 0)
			return false;
		if (sum < nq) {
			p_q[best]++;
			sum++;
		} else {
			p_q[best]--;
			sum--;
		}
	}
	return true;
}

/* Try dividing the queues among packages first; false if it skews. */
static int smq_cm_by_package(struct smq_cm *cm, unsigned int nr_queues,
			     unsigned int *size)
{
	unsigned int *p_first, *p_groups, *p_cpus, *p_q;
	unsigned int np = 0, i, p, q = 0;
	int ok = 0;

	for (i = 0; i < cm->nr_groups; i++)
		np += !i || cm->groups[i].pkg != cm->groups[i - 1].pkg;
	if (np < 2 || nr_queues < np)
		return 0;
	p_first = kcalloc(4 * np, sizeof(*p_first), GFP_KERNEL);
	if (!p_first)
		return -ENOMEM;
	p_groups = p_first + np;
	p_cpus = p_groups + np;
	p_q = p_cpus + np;
	for (i = 0, p = 0; i < cm->nr_groups; i++) {
		if (i && cm->groups[i].pkg != cm->groups[i - 1].pkg)
			p++;
		if (!p_groups[p])
			p_first[p] = i;
		p_groups[p]++;
		p_cpus[p] += cm->groups[i].nr;
	}
	if (smq_cm_allot(np, p_cpus, p_groups, cm->nr_cpus, nr_queues, p_q)) {
		for (p = 0; p < np; p++) {
			smq_cm_deal(cm, p_first[p], p_groups[p], q, p_q[p]);
			q += p_q[p];
		}
		ok = smq_cm_balanced(cm, nr_queues, size);
	}
	kfree(p_first);
	return ok;
}

static int smq_cm_assign(struct smq_cm *cm, unsigned int nr_queues)
{
	unsigned int *size;
	int ret;

	if (nr_queues >= cm->nr_groups) {
		smq_cm_split(cm, nr_queues);
		return 0;
	}
	size = kcalloc(nr_queues, sizeof(*size), GFP_KERNEL);
	if (!size)
		return -ENOMEM;
	ret = smq_cm_by_package(cm, nr_queues, size);
	if (ret == 0) {
		smq_cm_deal(cm, 0, cm->nr_groups, 0, nr_queues);
		if (!smq_cm_balanced(cm, nr_queues, size))
			smq_cm_least_loaded(cm, nr_queues, size);
	}
	kfree(size);
	return ret < 0 ? ret : 0;
}

static bool smq_cm_valid(const struct smq_cpu_topology *topo,
			 unsigned int nr_queues)
{
	return topo && topo->possible && topo->nr_ids && nr_queues &&
	       smq_cm_nr_possible(topo);
}

/**
 * smq_cpumap_spread() - spread CPUs evenly over hardware queues
 * @topo: CPU topology.
 * @nr_queues: number of hardware queues.
 * @map: output, @topo->nr_ids entries: the queue of each CPU.
 *
 * Follows the rules in include/smq/cpumap.h.  Deterministic.
 *
 * Return: the number of queues that got CPUs (queues 0 .. n-1), -EINVAL
 * for no queues or no possible CPU, -ENOMEM.
 */
int smq_cpumap_spread(const struct smq_cpu_topology *topo,
		      unsigned int nr_queues, unsigned int *map)
{
	struct smq_cm cm;
	unsigned int cpu, i, k, q = 0;
	int ret;

	if (!smq_cm_valid(topo, nr_queues) || !map)
		return -EINVAL;
	memset(map, 0, topo->nr_ids * sizeof(*map));
	if (nr_queues >= smq_cm_nr_possible(topo)) {
		for_each_set_bit(cpu, topo->possible, topo->nr_ids)
			map[cpu] = q++;
		return q;
	}
	ret = smq_cm_build(&cm, topo);
	if (ret)
		return ret;
	ret = smq_cm_assign(&cm, nr_queues);
	if (!ret) {
		for (i = 0; i < cm.nr_groups; i++)
			for (k = 0; k < cm.groups[i].nr; k++)
				map[cm.cpus[cm.groups[i].first + k].cpu] =
					cm.gq[i];
		ret = nr_queues;
	}
	smq_cm_release(&cm);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_cpumap_spread);

/**
 * smq_cpumap_from_affinity() - map CPUs to the queues whose masks hold them
 * @topo: CPU topology.
 * @nr_queues: number of hardware queues.
 * @masks: per-queue CPU bitmaps of @topo->nr_ids bits (e.g. MSI-X
 *	vector affinity); a NULL entry is an empty mask.
 * @map: output, @topo->nr_ids entries.
 *
 * A CPU in several masks takes the lowest queue.  CPUs in no mask keep
 * their place in smq_cpumap_spread().
 *
 * Return: the number of queues with at least one CPU, or a negative
 * errno as for smq_cpumap_spread().
 */
int smq_cpumap_from_affinity(const struct smq_cpu_topology *topo,
			     unsigned int nr_queues,
			     const unsigned long *const *masks,
			     unsigned int *map)
{
	unsigned long *used;
	unsigned int cpu, q;
	int ret;

	if (!masks)
		return -EINVAL;
	ret = smq_cpumap_spread(topo, nr_queues, map);
	if (ret < 0)
		return ret;
	used = kcalloc(BITS_TO_LONGS(nr_queues), sizeof(*used), GFP_KERNEL);
	if (!used)
		return -ENOMEM;
	for_each_set_bit(cpu, topo->possible, topo->nr_ids) {
		for (q = 0; q < nr_queues; q++) {
			if (masks[q] && test_bit(cpu, masks[q])) {
				map[cpu] = q;
				break;
			}
		}
		__set_bit(map[cpu], used);
	}
	ret = bitmap_weight(used, nr_queues);
	kfree(used);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_cpumap_from_affinity);

/**
 * smq_cpumap_spread_masks() - per-queue CPU masks of the even spread
 * @topo: CPU topology.
 * @nr_queues: number of queues (e.g. reply queues / MSI-X vectors).
 * @masks: @nr_queues bitmaps of @topo->nr_ids bits, overwritten;
 *	queues without CPUs get an empty mask.
 *
 * What a driver binds its interrupt vectors to, like managed affinity.
 *
 * Return: the number of non-empty masks, or a negative errno as for
 * smq_cpumap_spread().
 */
int smq_cpumap_spread_masks(const struct smq_cpu_topology *topo,
			    unsigned int nr_queues, unsigned long **masks)
{
	unsigned int *map, cpu, q;
	int ret;

	if (!smq_cm_valid(topo, nr_queues) || !masks)
		return -EINVAL;
	map = kcalloc(topo->nr_ids, sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	ret = smq_cpumap_spread(topo, nr_queues, map);
	if (ret >= 0) {
		for (q = 0; q < nr_queues; q++)
			bitmap_zero(masks[q], topo->nr_ids);
		for_each_set_bit(cpu, topo->possible, topo->nr_ids)
			__set_bit(cpu, masks[map[cpu]]);
	}
	kfree(map);
	return ret;
}
EXPORT_SYMBOL_GPL(smq_cpumap_spread_masks);
