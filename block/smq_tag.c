// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: tags and the tag set.  A tag space is a bitmap queue of normal
 * tags plus one of reserved tags; every tag owns one preallocated request,
 * so the I/O path allocates nothing.  With SMQ_SET_HOST_TAGSET all
 * hardware queues of a host share one tag space (and its requests).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include "smq_blk_int.h"

static unsigned int smq_tag_shift(unsigned int depth)
{
	/* Small spaces: a few words so CPUs spread; large: full words. */
	if (depth >= 4 * BITS_PER_LONG)
		return ilog2(BITS_PER_LONG);
	return depth >= 64 ? 4 : 3;
}

/**
 * smq_tags_alloc - allocate a tag space
 * @set: tag set (for the NUMA node)
 * @depth: tags in all
 * @reserved: of which reserved
 * @node: NUMA node
 *
 * Return: the tags or NULL.
 */
struct smq_tags *smq_tags_alloc(struct smq_tag_set *set, unsigned int depth,
				unsigned int reserved, int node)
{
	struct smq_tags *tags;

	tags = kzalloc_node(sizeof(*tags), GFP_KERNEL, node);
	if (!tags)
		return NULL;
	tags->nr_tags = depth;
	tags->nr_reserved_tags = reserved;
	INIT_LIST_HEAD(&tags->rq_pages);
	if (smq_sbq_init(&tags->bitmap_tags, depth - reserved,
			 smq_tag_shift(depth - reserved), false, GFP_KERNEL, node))
		goto free_tags;
	if (smq_sbq_init(&tags->breserved_tags, reserved, smq_tag_shift(reserved),
			 true, GFP_KERNEL, node))
		goto free_bitmap;
	tags->rqs = kcalloc_node(depth, sizeof(*tags->rqs), GFP_KERNEL, node);
	tags->static_rqs = kcalloc_node(depth, sizeof(*tags->static_rqs),
					GFP_KERNEL, node);
	if (!tags->rqs || !tags->static_rqs)
		goto free_arrays;
	return tags;

free_arrays:
	kfree(tags->rqs);
	kfree(tags->static_rqs);
	smq_sbq_free(&tags->breserved_tags);
free_bitmap:
	smq_sbq_free(&tags->bitmap_tags);
free_tags:
	kfree(tags);
	return NULL;
}

/*
 * Requests live in page chunks of up to 64 KiB, as many whole requests per
 * chunk as fit and the pages past the last one given back: no power-of-two
 * rounding of a whole array (a kmalloc of 192 x 704 bytes takes 256 KiB),
 * no vmalloc (the midlayer points a scatterlist at data inside a request).
 */
#define SMQ_RQ_CHUNK_ORDER	4

/**
 * smq_rq_size - bytes of one request of a tag set, driver data included
 * @set: the tag set
 *
 * Return: sizeof(struct smq_request) + @set->cmd_size, rounded up to a
 * cache line.
 */
size_t smq_rq_size(const struct smq_tag_set *set)
{
	return round_up(sizeof(struct smq_request) + set->cmd_size,
			cache_line_size());
}

/* One chunk for up to @nr requests of @rq_size bytes; NULL if none. */
static struct page *smq_rq_chunk_alloc(unsigned int nr, size_t rq_size,
				       int node, unsigned int *order_out)
{
	unsigned int min_order = get_order(rq_size);
	unsigned int order = max(min_order,
				 min_t(unsigned int, SMQ_RQ_CHUNK_ORDER,
				       get_order((size_t)nr * rq_size)));
	struct page *page;

	for (;; order--) {
		gfp_t gfp = GFP_KERNEL | __GFP_ZERO;

		/* Fragmented memory: smaller chunks rather than a hard try. */
		if (order > min_order)
			gfp |= __GFP_NORETRY | __GFP_NOWARN;
		page = alloc_pages_node(node, gfp, order);
		if (page || order == min_order)
			break;
	}
	*order_out = order;
	return page;
}

/**
 * smq_rqs_alloc - allocate zeroed requests in page chunks
 * @pages: list the chunks are added to (free with smq_rqs_free())
 * @rqs: out: @nr request pointers
 * @nr: requests
 * @rq_size: bytes per request (smq_rq_size())
 * @node: NUMA node
 *
 * The memory is in the kernel's direct map (virt_to_page() works on it).
 * On failure the chunks allocated so far stay on @pages.
 *
 * Return: 0 or -ENOMEM.
 */
int smq_rqs_alloc(struct list_head *pages, struct smq_request **rqs,
		  unsigned int nr, size_t rq_size, int node)
{
	unsigned int i = 0;

	while (i < nr) {
		unsigned int order, fit, npages, j;
		struct page *page;
		void *p;

		page = smq_rq_chunk_alloc(nr - i, rq_size, node, &order);
		if (!page)
			return -ENOMEM;
		fit = min_t(size_t, nr - i, (PAGE_SIZE << order) / rq_size);
		npages = PFN_UP((size_t)fit * rq_size);
		if (order) {
			/* Keep the pages the requests use, free the rest. */
			split_page(page, order);
			for (j = npages; j < (1U << order); j++)
				__free_page(nth_page(page, j));
		}
		set_page_private(page, npages);
		list_add_tail(&page->lru, pages);
		p = page_address(page);
		for (j = 0; j < fit; j++)
			rqs[i++] = p + (size_t)j * rq_size;
	}
	return 0;
}

/**
 * smq_rqs_free - free the chunks of smq_rqs_alloc()
 * @pages: their list (left empty)
 */
void smq_rqs_free(struct list_head *pages)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, pages, lru) {
		unsigned long j, npages = page_private(page);

		list_del_init(&page->lru);
		set_page_private(page, 0);
		for (j = 0; j < npages; j++)
			__free_page(nth_page(page, j));
	}
}

/**
 * smq_tags_alloc_rqs - preallocate one request per tag
 * @set: tag set (request size, ->init_request)
 * @tags: tag space
 * @hctx_idx: hardware queue the requests serve (0 for shared tags)
 *
 * Return: 0 or -ENOMEM / the driver's error.
 */
int smq_tags_alloc_rqs(struct smq_tag_set *set, struct smq_tags *tags,
		       unsigned int hctx_idx)
{
	unsigned int i;
	int ret;

	ret = smq_rqs_alloc(&tags->rq_pages, tags->static_rqs, tags->nr_tags,
			    smq_rq_size(set), set->numa_node);
	if (ret) {
		memset(tags->static_rqs, 0,
		       tags->nr_tags * sizeof(*tags->static_rqs));
		return ret;
	}
	for (i = 0; i < tags->nr_tags; i++) {
		struct smq_request *rq = tags->static_rqs[i];

		rq->tag = i;
		rq->budget_token = -1;
		INIT_LIST_HEAD(&rq->queuelist);
		if (set->ops->init_request) {
			ret = set->ops->init_request(set, rq, hctx_idx,
						     set->numa_node);
			if (ret) {
				/* Only the initialised ones get ->exit_request. */
				memset(&tags->static_rqs[i], 0,
				       (tags->nr_tags - i) *
				       sizeof(*tags->static_rqs));
				return ret;
			}
		}
	}
	return 0;
}

/**
 * smq_tags_free - free a tag space and its requests
 * @set: tag set
 * @tags: tag space (may be NULL)
 * @hctx_idx: as given to smq_tags_alloc_rqs()
 */
void smq_tags_free(struct smq_tag_set *set, struct smq_tags *tags,
		   unsigned int hctx_idx)
{
	unsigned int i;

	if (!tags)
		return;
	for (i = 0; i < tags->nr_tags && set->ops->exit_request; i++) {
		if (tags->static_rqs && tags->static_rqs[i])
			set->ops->exit_request(set, tags->static_rqs[i], hctx_idx);
	}
	smq_rqs_free(&tags->rq_pages);
	kfree(tags->rqs);
	kfree(tags->static_rqs);
	smq_sbq_free(&tags->breserved_tags);
	smq_sbq_free(&tags->bitmap_tags);
	kfree(tags);
}

static int smq_try_tag(struct smq_sbitmap_queue *sbq, unsigned int offset,
		       unsigned int shallow)
{
	unsigned int *hint = smq_sbq_cpu_hint(sbq);
	int nr;

	if (likely(shallow >= smq_sbitmap_depth(&sbq->sb)))
		nr = smq_sbq_get(sbq, hint);
	else
		nr = smq_sbq_get_shallow(sbq, hint, shallow);
	return nr < 0 ? -1 : nr + offset;
}

/**
 * smq_tags_limit_depth - prepare a tag space for allocations limited to @depth
 * @tags: tag space
 * @depth: the smallest share smq_get_tag() will be asked to stay within
 *
 * Lowers the wake-up batch so that a waiter limited to @depth tags is
 * always woken.  Call before the first such allocation, with the tag
 * set's depth_lock held.
 */
static void smq_tags_limit_depth(struct smq_tags *tags, unsigned int depth)
{
	struct smq_sbitmap_queue *sbq = &tags->bitmap_tags;

	if (depth < smq_sbitmap_depth(&sbq->sb) && depth < sbq->min_shallow_depth)
		smq_sbq_min_shallow_depth(sbq, depth);
}

/**
 * smq_queue_limit_depth - prepare every tag space of a queue for @depth
 * @q: multiqueue queue
 * @depth: smallest share its allocations will be limited to
 */
void smq_queue_limit_depth(struct smq_queue *q, unsigned int depth)
{
	struct smq_tag_set *set = q->tag_set;
	unsigned int i;

	/*
	 * Test-and-lower of min_shallow_depth: the async_depth store (no
	 * sysfs_lock) and nr_requests stores, on this LUN or on another
	 * one sharing the host's tags, may run at once.
	 */
	mutex_lock(&set->depth_lock);
	for (i = 0; i < q->nr_hw_queues; i++)
		smq_tags_limit_depth(q->hctxs[i]->tags, depth);
	mutex_unlock(&set->depth_lock);
	/* The lower wake-up batch before any allocation limited to @depth. */
	smp_wmb();
}
EXPORT_SYMBOL_GPL(smq_queue_limit_depth);

/**
 * smq_get_tag - allocate a tag, sleeping for one unless @nowait
 * @tags: tag space
 * @reserved: from the reserved tags
 * @nowait: fail instead of sleeping
 * @hctx: hardware queue asking (run before sleeping, wait queue rotor)
 * @shallow: take only from a share of this many tags (nr_requests,
 *	async_depth; see smq_tags_limit_depth()); ignored for reserved tags
 *
 * Return: the tag, or -1 (none free and @nowait, or the queue is dying).
 */
int smq_get_tag(struct smq_tags *tags, bool reserved, bool nowait,
		struct smq_hw_ctx *hctx, unsigned int shallow)
{
	struct smq_sbitmap_queue *sbq;
	struct smq_sbq_wait_state *ws;
	struct smq_sbq_wait wait;
	unsigned int offset;
	int tag;

	smq_sbq_wait_init(&wait);
	if (reserved) {
		if (!tags->nr_reserved_tags)
			return -1;
		sbq = &tags->breserved_tags;
		offset = 0;
		shallow = UINT_MAX;
	} else {
		sbq = &tags->bitmap_tags;
		offset = tags->nr_reserved_tags;
	}
	tag = smq_try_tag(sbq, offset, shallow);
	if (tag >= 0 || nowait)
		return tag;

	ws = smq_sbq_wait_ptr(sbq, &hctx->wait_index);
	for (;;) {
		/* Let queued requests (which hold tags) make progress. */
		smq_run_hw_queue(hctx, false);
		tag = smq_try_tag(sbq, offset, shallow);
		if (tag >= 0)
			break;
		smq_sbq_prepare_to_wait(sbq, ws, &wait, TASK_UNINTERRUPTIBLE);
		tag = smq_try_tag(sbq, offset, shallow);
		if (tag >= 0 || test_bit(SMQ_Q_DYING, &hctx->q->flags))
			break;
		io_schedule();
		smq_sbq_finish_wait(sbq, ws, &wait);
		ws = smq_sbq_wait_ptr(sbq, &hctx->wait_index);
	}
	smq_sbq_finish_wait(sbq, ws, &wait);
	return tag;
}

/**
 * smq_put_tag - free a tag, waking a waiter if a batch is complete
 * @tags: tag space
 * @tag: the tag
 */
void smq_put_tag(struct smq_tags *tags, unsigned int tag)
{
	struct smq_sbitmap_queue *sbq;

	if (tag < tags->nr_reserved_tags) {
		sbq = &tags->breserved_tags;
	} else {
		sbq = &tags->bitmap_tags;
		tag -= tags->nr_reserved_tags;
	}
	smq_sbq_clear(sbq, tag, smq_sbq_cpu_hint(sbq));
}

/**
 * smq_put_tags - free the tags of a completion batch
 * @tags: tag space they all belong to
 * @tag: the tags, each once
 * @n: entries in @tag
 *
 * Normal tags go back with one atomic operation per bitmap word and one
 * wake-up pass (smq_sbq_clear_batch()); a reserved one (internal commands,
 * rare in a batch) is freed alone.
 */
void smq_put_tags(struct smq_tags *tags, const unsigned int *tag,
		  unsigned int n)
{
	struct smq_sbitmap_queue *sbq = &tags->bitmap_tags;
	unsigned int nrs[SMQ_COMP_BATCH_MAX];
	unsigned int i, k = 0;

	for (i = 0; i < n; i++) {
		if (tag[i] < tags->nr_reserved_tags) {
			smq_put_tag(tags, tag[i]);
			continue;
		}
		nrs[k++] = tag[i] - tags->nr_reserved_tags;
		if (k == ARRAY_SIZE(nrs)) {
			smq_sbq_clear_batch(sbq, nrs, k, smq_sbq_cpu_hint(sbq));
			k = 0;
		}
	}
	smq_sbq_clear_batch(sbq, nrs, k, smq_sbq_cpu_hint(sbq));
}

/**
 * smq_tags_busy - tags in use
 * @tags: tag space
 *
 * Return: the number of normal and reserved tags allocated.
 */
unsigned int smq_tags_busy(struct smq_tags *tags)
{
	return smq_sbitmap_weight(&tags->bitmap_tags.sb) +
	       smq_sbitmap_weight(&tags->breserved_tags.sb);
}

static void smq_tag_set_free_tags(struct smq_tag_set *set)
{
	unsigned int i;

	if (!set->tags)
		return;
	if (set->shared_tags) {
		smq_tags_free(set, set->shared_tags, 0);
	} else {
		for (i = 0; i < set->nr_hw_queues; i++)
			smq_tags_free(set, set->tags[i], i);
	}
	kfree(set->tags);
	set->tags = NULL;
	set->shared_tags = NULL;
}

/**
 * smq_tag_set_alloc_one - a tag space of a set and its requests
 * @set: tag set
 * @hctx_idx: hardware queue it is for (passed to ->init_request)
 *
 * Return: the tags or NULL.
 */
struct smq_tags *smq_tag_set_alloc_one(struct smq_tag_set *set,
				       unsigned int hctx_idx)
{
	struct smq_tags *tags;

	tags = smq_tags_alloc(set, set->queue_depth, set->reserved_tags,
			      set->numa_node);
	if (tags && smq_tags_alloc_rqs(set, tags, hctx_idx)) {
		smq_tags_free(set, tags, hctx_idx);
		tags = NULL;
	}
	return tags;
}

static int smq_tag_set_check(const struct smq_tag_set *set)
{
	if (!set->ops || !set->ops->queue_rq || !set->ops->complete) {
		pr_err("tag set without queue_rq/complete\n");
		return -EINVAL;
	}
	if (!set->nr_hw_queues || set->nr_hw_queues > nr_cpu_ids) {
		pr_err("nr_hw_queues=%u out of range 1..%u\n",
		       set->nr_hw_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (set->nr_poll_queues && (set->flags & SMQ_SET_LEGACY)) {
		pr_err("nr_poll_queues=%u: the legacy path has no poll queues\n",
		       set->nr_poll_queues);
		return -EINVAL;
	}
	if (set->nr_poll_queues >= set->nr_hw_queues) {
		pr_err("nr_poll_queues=%u: must be below nr_hw_queues=%u\n",
		       set->nr_poll_queues, set->nr_hw_queues);
		return -EINVAL;
	}
	if (set->nr_poll_queues && !set->ops->poll) {
		pr_err("nr_poll_queues=%u: driver has no ->poll\n",
		       set->nr_poll_queues);
		return -EINVAL;
	}
	if (!set->queue_depth || set->queue_depth > 65536 ||
	    set->reserved_tags >= set->queue_depth) {
		pr_err("queue_depth=%u reserved_tags=%u invalid\n",
		       set->queue_depth, set->reserved_tags);
		return -EINVAL;
	}
	return 0;
}

static int smq_tag_set_map(struct smq_tag_set *set)
{
	int ret;

	set->map = kcalloc(nr_cpu_ids, sizeof(*set->map), GFP_KERNEL);
	if (!set->map)
		return -ENOMEM;
	/* A legacy set's one dispatch context has nothing to map. */
	if (set->ops->map_queues && smq_set_has_hw_queues(set)) {
		set->ops->map_queues(set);
		ret = 0;
	} else {
		ret = smq_map_queues_default(set);
	}
	if (!ret)
		ret = smq_map_check(set, smq_set_nr_irq_queues(set), set->map);
	if (!ret && set->nr_poll_queues)
		ret = smq_map_poll_queues(set);
	return ret;
}

/**
 * smq_tag_set_init - validate a tag set, map CPUs, allocate tags/requests
 * @set: filled in by the driver (ops, nr_hw_queues, queue_depth, ...)
 *
 * A legacy set (SMQ_SET_LEGACY) runs one hardware queue index whatever
 * @set->nr_hw_queues asked (see smq_set_has_hw_queues()).
 *
 * Return: 0, or -EINVAL (with a message naming the bad value) / -ENOMEM.
 */
int smq_tag_set_init(struct smq_tag_set *set)
{
	unsigned int i;
	int ret;

	ret = smq_tag_set_check(set);
	if (ret)
		return ret;
	if (!smq_set_has_hw_queues(set))
		set->nr_hw_queues = 1;
	if (!set->timeout)
		set->timeout = 30 * HZ;
	mutex_init(&set->tag_list_lock);
	mutex_init(&set->depth_lock);
	INIT_LIST_HEAD(&set->tag_list);
	ret = smq_tag_set_map(set);
	if (ret)
		goto free_map;
	if (set->flags & SMQ_SET_LEGACY)
		return 0;
	ret = -ENOMEM;
	/* Room for every count smq_tag_set_update() may switch to. */
	set->tags = kcalloc(nr_cpu_ids, sizeof(*set->tags), GFP_KERNEL);
	if (!set->tags)
		goto free_map;
	if (set->flags & SMQ_SET_HOST_TAGSET) {
		set->shared_tags = smq_tag_set_alloc_one(set, 0);
		if (!set->shared_tags)
			goto free_tags;
		for (i = 0; i < set->nr_hw_queues; i++)
			set->tags[i] = set->shared_tags;
		return 0;
	}
	for (i = 0; i < set->nr_hw_queues; i++) {
		set->tags[i] = smq_tag_set_alloc_one(set, i);
		if (!set->tags[i])
			goto free_tags;
	}
	return 0;

free_tags:
	smq_tag_set_free_tags(set);
free_map:
	kfree(set->map);
	set->map = NULL;
	kfree(set->poll_map);
	set->poll_map = NULL;
	return ret;
}
EXPORT_SYMBOL_GPL(smq_tag_set_init);

/**
 * smq_tag_set_free - free what smq_tag_set_init() allocated
 * @set: tag set with no queues left
 */
void smq_tag_set_free(struct smq_tag_set *set)
{
	WARN_ON_ONCE(!list_empty(&set->tag_list));
	smq_tag_set_free_tags(set);
	kfree(set->map);
	set->map = NULL;
	kfree(set->poll_map);
	set->poll_map = NULL;
}
EXPORT_SYMBOL_GPL(smq_tag_set_free);

/* Walk the set's in-flight requests; the caller keeps set->tags alive. */
static void smq_tagset_iter(struct smq_tag_set *set,
			    bool (*fn)(struct smq_request *rq, void *data),
			    void *data)
{
	struct smq_tags **all = READ_ONCE(set->tags);
	unsigned int i, tag, nr;

	/*
	 * Pairs with smp_store_release() in smq_update_map(): the tag spaces
	 * of a larger count are in place before it.
	 */
	nr = smp_load_acquire(&set->nr_hw_queues);

	if (!all)
		return;
	for (i = 0; i < nr; i++) {
		struct smq_tags *tags = READ_ONCE(all[i]);

		if (set->shared_tags && i)
			break;
		/* Not yet or no longer there (smq_tag_set_update()). */
		if (!tags)
			continue;
		for (tag = 0; tag < tags->nr_tags; tag++) {
			struct smq_request *rq = READ_ONCE(tags->rqs[tag]);

			if (rq && READ_ONCE(rq->state) == SMQ_RQ_IN_FLIGHT &&
			    !fn(rq, data))
				return;
		}
	}
}

/**
 * smq_tagset_busy_iter - call @fn for every in-flight request of a set
 * @set: tag set
 * @fn: callback; return false to stop.  Runs under rcu_read_lock() (the
 *	tag spaces of hardware queues that smq_tag_set_update() removes are
 *	freed after a grace period), so it must not sleep.
 * @data: its cookie
 *
 * Requests are visited once each, also with shared tags.  @fn may race
 * with the request's completion; claim it (smq_rq_claim()) before acting.
 */
void smq_tagset_busy_iter(struct smq_tag_set *set,
			  bool (*fn)(struct smq_request *rq, void *data),
			  void *data)
{
	rcu_read_lock();
	smq_tagset_iter(set, fn, data);
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(smq_tagset_busy_iter);

/**
 * smq_mq_busy_iter - call @fn for every in-flight request of a queue's set
 * @q: multiqueue queue
 * @fn: callback; return false to stop
 * @data: its cookie
 *
 * Walks the whole tag set: with shared tags other queues' requests come
 * too, and @fn tells them apart by rq->q.  The caller holds a usage
 * reference of @q (the timeout scan), which keeps smq_tag_set_update()
 * away (it freezes every queue of the set), so @fn may sleep.
 */
void smq_mq_busy_iter(struct smq_queue *q,
		      bool (*fn)(struct smq_request *rq, void *data),
		      void *data)
{
	smq_tagset_iter(q->tag_set, fn, data);
}

/**
 * smq_hctx_index - index of a hardware queue
 * @hctx: hardware queue
 *
 * Return: the index, 0..nr_hw_queues - 1.
 */
unsigned int smq_hctx_index(const struct smq_hw_ctx *hctx)
{
	return hctx->queue_num;
}
EXPORT_SYMBOL_GPL(smq_hctx_index);

/**
 * smq_hctx_is_poll - whether a hardware queue is a poll queue
 * @hctx: hardware queue
 *
 * Return: true for one of the set's last nr_poll_queues hardware queues,
 * which serve REQ_POLLED requests only and are reaped through ->poll.
 */
bool smq_hctx_is_poll(const struct smq_hw_ctx *hctx)
{
	return hctx->poll;
}
EXPORT_SYMBOL_GPL(smq_hctx_is_poll);

/**
 * smq_hctx_driver_data - what ->init_hctx stored for a hardware queue
 * @hctx: hardware queue
 *
 * Return: that pointer (NULL if ->init_hctx stored none).
 */
void *smq_hctx_driver_data(const struct smq_hw_ctx *hctx)
{
	return hctx->driver_data;
}
EXPORT_SYMBOL_GPL(smq_hctx_driver_data);
