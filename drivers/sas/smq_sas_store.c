// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas RAM backing: a sparse page store per LUN, in the spirit of
 * null_blk's memory backing.
 *
 * The store maps page index -> struct page in an xarray.  A hole reads as
 * zeros and gets a zeroed page on its first write; that page allocation is
 * the only allocation on the data path.  Discards (UNMAP, WRITE SAME with
 * UNMAP or a zero pattern) erase fully covered pages and zero the covered
 * part of the others.
 *
 * Concurrency: readers and writers look pages up and copy under
 * rcu_read_lock(); inserts and erases take the xarray's lock with interrupts
 * off (commands may be issued from any context).  An erased page is freed
 * through RCU (struct page's rcu_head), so a copy racing with a discard
 * touches a page that is still allocated; which of the two wins is as
 * undefined as on a real disk.  Module exit runs rcu_barrier() before the
 * callback's text goes away.
 */
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/scatterlist.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "smq_sas.h"

#define SMQ_SAS_STORE_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_ZERO)

/**
 * smq_sas_store_init - set up an empty store
 * @s: the store
 */
void smq_sas_store_init(struct smq_sas_store *s)
{
	xa_init_flags(&s->pages, XA_FLAGS_LOCK_IRQ);
	atomic_long_set(&s->nr_pages, 0);
}

/**
 * smq_sas_store_destroy - free every page of a store
 * @s: the store; nothing may use it any more
 */
void smq_sas_store_destroy(struct smq_sas_store *s)
{
	struct page *page;
	unsigned long idx;

	xa_for_each(&s->pages, idx, page)
		__free_page(page);
	xa_destroy(&s->pages);
	atomic_long_set(&s->nr_pages, 0);
}

static void smq_sas_store_free_rcu(struct rcu_head *head)
{
	__free_page(container_of(head, struct page, rcu_head));
}

/* Insert a zeroed page at @idx, or return the one a racing writer put there. */
static struct page *smq_sas_store_insert(struct smq_sas_store *s,
					 unsigned long idx)
{
	struct page *page, *old;
	unsigned long flags;

	page = alloc_page(SMQ_SAS_STORE_GFP);
	if (!page)
		return NULL;

	xa_lock_irqsave(&s->pages, flags);
	old = __xa_cmpxchg(&s->pages, idx, NULL, page,
			   GFP_NOWAIT | __GFP_NOWARN);
	xa_unlock_irqrestore(&s->pages, flags);

	if (old) {
		__free_page(page);
		return xa_is_err(old) ? NULL : old;
	}
	atomic_long_inc(&s->nr_pages);
	return page;
}

/* Copy @len bytes at byte @pos of the store to @buf; holes read as zeros. */
static void smq_sas_store_read(struct smq_sas_store *s, u64 pos, void *buf,
			       size_t len)
{
	while (len) {
		unsigned int off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;

		rcu_read_lock();
		page = xa_load(&s->pages, pos >> PAGE_SHIFT);
		if (page)
			memcpy(buf, page_address(page) + off, n);
		else
			memset(buf, 0, n);
		rcu_read_unlock();

		buf += n;
		pos += n;
		len -= n;
	}
}

/* Copy @len bytes of @buf to byte @pos of the store. */
static int smq_sas_store_write(struct smq_sas_store *s, u64 pos,
			       const void *buf, size_t len)
{
	while (len) {
		unsigned int off = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		unsigned long idx = pos >> PAGE_SHIFT;
		struct page *page;

		rcu_read_lock();
		page = xa_load(&s->pages, idx);
		if (!page)
			page = smq_sas_store_insert(s, idx);
		if (!page) {
			rcu_read_unlock();
			return -ENOMEM;
		}
		memcpy(page_address(page) + off, buf, n);
		rcu_read_unlock();

		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * smq_sas_store_xfer - copy between a store and a scatterlist
 * @s: the store
 * @pos: byte offset in the store
 * @sgl: the command's scatterlist
 * @nents: entries of @sgl
 * @len: bytes to copy
 * @to_store: true for a write (scatterlist -> store), false for a read
 *
 * Walks the scatterlist once with an atomic sg_miter, so it may run in any
 * context.
 *
 * Return: bytes copied (less than @len when @sgl is shorter), or -ENOMEM
 * when a write found no memory for a new page (retrying is safe: a write
 * is idempotent).
 */
ssize_t smq_sas_store_xfer(struct smq_sas_store *s, u64 pos,
			   struct scatterlist *sgl, unsigned int nents,
			   size_t len, bool to_store)
{
	unsigned int flags = SG_MITER_ATOMIC |
			     (to_store ? SG_MITER_FROM_SG : SG_MITER_TO_SG);
	struct sg_mapping_iter miter;
	size_t done = 0;
	int ret = 0;

	sg_miter_start(&miter, sgl, nents, flags);
	while (done < len && sg_miter_next(&miter)) {
		size_t n = min_t(size_t, miter.length, len - done);

		if (to_store) {
			ret = smq_sas_store_write(s, pos + done, miter.addr, n);
			if (ret)
				break;
		} else {
			smq_sas_store_read(s, pos + done, miter.addr, n);
		}
		done += n;
	}
	sg_miter_stop(&miter);

	return ret ? ret : done;
}

/* Zero @len bytes at @pos, all inside one page, if that page is present. */
static void smq_sas_store_zero_part(struct smq_sas_store *s, u64 pos,
				    size_t len)
{
	struct page *page;

	rcu_read_lock();
	page = xa_load(&s->pages, pos >> PAGE_SHIFT);
	if (page)
		memset(page_address(page) + offset_in_page(pos), 0, len);
	rcu_read_unlock();
}

/**
 * smq_sas_store_discard - deallocate a byte range
 * @s: the store
 * @pos: byte offset
 * @len: bytes
 *
 * Pages wholly inside the range are erased (freed after an RCU grace
 * period); the covered part of the pages at its edges is zeroed.  Reads of
 * the range return zeros afterwards (LBPRZ).  Costs O(pages present in the
 * range), not O(range).
 */
void smq_sas_store_discard(struct smq_sas_store *s, u64 pos, u64 len)
{
	u64 end = pos + len;
	unsigned long first, last, idx;
	struct page *page;

	if (!len)
		return;

	if (offset_in_page(pos)) {
		u64 n = min_t(u64, len, PAGE_SIZE - offset_in_page(pos));

		smq_sas_store_zero_part(s, pos, n);
		pos += n;
	}

	first = pos >> PAGE_SHIFT;
	last = end >> PAGE_SHIFT;	/* first page not wholly covered */
	if (first < last) {
		xa_for_each_range(&s->pages, idx, page, first, last - 1) {
			struct page *victim;
			unsigned long flags;

			xa_lock_irqsave(&s->pages, flags);
			victim = __xa_erase(&s->pages, idx);
			xa_unlock_irqrestore(&s->pages, flags);
			if (victim) {
				atomic_long_dec(&s->nr_pages);
				call_rcu(&victim->rcu_head,
					 smq_sas_store_free_rcu);
			}
		}
		pos = (u64)last << PAGE_SHIFT;
	}

	if (pos < end)
		smq_sas_store_zero_part(s, pos, end - pos);
}

/* Is the first @len bytes of the scatterlist all zeros? */
static bool smq_sas_sg_is_zero(struct scatterlist *sgl, unsigned int nents,
			       size_t len)
{
	struct sg_mapping_iter miter;
	bool zero = true;

	sg_miter_start(&miter, sgl, nents, SG_MITER_ATOMIC | SG_MITER_FROM_SG);
	while (len && sg_miter_next(&miter)) {
		size_t n = min_t(size_t, miter.length, len);

		if (memchr_inv(miter.addr, 0, n)) {
			zero = false;
			break;
		}
		len -= n;
	}
	sg_miter_stop(&miter);
	return zero;
}

/**
 * smq_sas_store_fill - write one block to a range of blocks (WRITE SAME)
 * @s: the store
 * @pos: byte offset, a multiple of @blksz
 * @nr_blocks: blocks to write
 * @sgl: scatterlist holding the block (at least @blksz bytes)
 * @nents: entries of @sgl
 * @blksz: block size
 *
 * An all-zero block discards the range instead, so zeroing never
 * allocates memory.
 *
 * Return: 0, or -ENOMEM as smq_sas_store_xfer().
 */
int smq_sas_store_fill(struct smq_sas_store *s, u64 pos, u64 nr_blocks,
		       struct scatterlist *sgl, unsigned int nents,
		       unsigned int blksz)
{
	ssize_t ret;

	if (smq_sas_sg_is_zero(sgl, nents, blksz)) {
		smq_sas_store_discard(s, pos, nr_blocks * blksz);
		return 0;
	}
	for (; nr_blocks; nr_blocks--, pos += blksz) {
		ret = smq_sas_store_xfer(s, pos, sgl, nents, blksz, true);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Pages looked at for one mapped extent at most (64 MiB), bounding the
 * work of one GET LBA STATUS descriptor in atomic context.
 */
#define SMQ_SAS_STORE_SCAN_MAX	(1UL << (26 - PAGE_SHIFT))

/**
 * smq_sas_store_mapped - is a page of the store allocated, and for how long
 * @s: the store
 * @idx: page index
 * @end: first page index beyond the store's capacity
 * @next: output: the first index after @idx, at most @end, whose state
 *	differs from @idx's (for a mapped page the scan stops after
 *	SMQ_SAS_STORE_SCAN_MAX pages and says so by returning that index)
 *
 * Runs under RCU like the copies: the answer may be stale by the time it
 * is returned, as on a device with I/O in flight.
 *
 * Return: true if page @idx holds data (mapped), false for a hole.
 */
bool smq_sas_store_mapped(struct smq_sas_store *s, unsigned long idx,
			  unsigned long end, unsigned long *next)
{
	unsigned long i = idx;
	bool mapped = xa_load(&s->pages, idx);

	if (!mapped) {
		if (idx + 1 >= end ||
		    !xa_find(&s->pages, &i, end - 1, XA_PRESENT))
			i = end;
		*next = i;
		return false;
	}
	for (i = idx + 1; i < end && i - idx < SMQ_SAS_STORE_SCAN_MAX; i++)
		if (!xa_load(&s->pages, i))
			break;
	*next = i;
	return true;
}
