// SPDX-License-Identifier: GPL-2.0
/*
 * smq deadline scheduling core.  See include/smq/dl.h for the model.
 *
 * Each direction keeps two intrusive red-black trees over its sorted
 * nodes: one keyed by (start sector, seq), used for the sector-ordered
 * "next request", front merge lookups and former/latter walks, and one
 * keyed by (end sector, seq) for back merge lookups (Linux uses a hash
 * of end sectors for that; a tree keeps the worst case at O(log n)).
 * @seq is a counter taken whenever a node enters the trees, so among
 * equal sectors the earlier entry sorts first, as with elv_rb_add(),
 * which sends equal keys to the right.
 *
 * The trees are the kernel's <linux/rbtree.h> (rb_add() with a "less" on
 * (key, seq), rb_erase(), rb_next()/rb_prev()); the lower-bound searches
 * walk rb_left/rb_right themselves, like elv_rb_find().
 */
#include <linux/bug.h>
#include <linux/container_of.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/string.h>
#include <linux/types.h>
#include <smq/dl.h>

/* ---- the two trees of a direction ---- */

static inline struct smq_dl_node *smq_dl_of_sort(const struct rb_node *rb)
{
	return rb ? rb_entry(rb, struct smq_dl_node, sort_rb) : NULL;
}

static inline struct smq_dl_node *smq_dl_of_end(const struct rb_node *rb)
{
	return rb ? rb_entry(rb, struct smq_dl_node, end_rb) : NULL;
}

static inline u64 smq_dl_end(const struct smq_dl_node *n)
{
	return n->sector + n->nr_sectors;
}

/* Order of the sort trees: (start sector, seq). */
static bool smq_dl_sort_less(struct rb_node *a, const struct rb_node *b)
{
	const struct smq_dl_node *x = smq_dl_of_sort(a), *y = smq_dl_of_sort(b);

	return x->sector < y->sector ||
	       (x->sector == y->sector && x->seq < y->seq);
}

/* Order of the end trees: (end sector, seq). */
static bool smq_dl_end_less(struct rb_node *a, const struct rb_node *b)
{
	const struct smq_dl_node *x = smq_dl_of_end(a), *y = smq_dl_of_end(b);

	return smq_dl_end(x) < smq_dl_end(y) ||
	       (smq_dl_end(x) == smq_dl_end(y) && x->seq < y->seq);
}

/* Leftmost node whose key (start or end sector) is >= @key. */
static struct rb_node *smq_dl_tree_lower_bound(const struct rb_root *root,
					       u64 key, bool end)
{
	struct rb_node *x = root->rb_node, *res = NULL;

	while (x) {
		const struct smq_dl_node *o;

		o = end ? smq_dl_of_end(x) : smq_dl_of_sort(x);
		if ((end ? smq_dl_end(o) : o->sector) >= key) {
			res = x;
			x = x->rb_left;
		} else {
			x = x->rb_right;
		}
	}
	return res;
}

static void smq_dl_trees_add(struct smq_dl *dl, struct smq_dl_node *n)
{
	n->seq = dl->seq++;
	rb_add(&n->sort_rb, &dl->sort_root[n->dir], smq_dl_sort_less);
	rb_add(&n->end_rb, &dl->end_root[n->dir], smq_dl_end_less);
}

static void smq_dl_trees_del(struct smq_dl *dl, struct smq_dl_node *n)
{
	rb_erase(&n->sort_rb, &dl->sort_root[n->dir]);
	rb_erase(&n->end_rb, &dl->end_root[n->dir]);
	RB_CLEAR_NODE(&n->sort_rb);
	RB_CLEAR_NODE(&n->end_rb);
}

/* Wrap-safe "a is before b", like time_before(). */
static inline bool smq_dl_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/* ---- API ---- */

/**
 * smq_dl_params_default() - fill in Linux's default tunables
 * @p: parameters to fill.
 * @ticks_per_sec: clock units per second (HZ for jiffies).
 *
 * read_expire 500 ms, write_expire 5 s, writes_starved 2, fifo_batch 16,
 * front merges on.
 */
void smq_dl_params_default(struct smq_dl_params *p, u64 ticks_per_sec)
{
	p->read_expire = ticks_per_sec / 2;
	p->write_expire = 5 * ticks_per_sec;
	p->writes_starved = 2;
	p->fifo_batch = 16;
	p->front_merges = true;
}
EXPORT_SYMBOL_GPL(smq_dl_params_default);

/**
 * smq_dl_init() - initialize an empty deadline scheduler
 * @dl: scheduler state.
 * @p: tunables, copied into @dl->params.
 *
 * The scheduler starts as Linux's does: in a write batch of zero nodes,
 * at sector 0 in both directions, with no read preference used up.
 */
void smq_dl_init(struct smq_dl *dl, const struct smq_dl_params *p)
{
	int dir;

	memset(dl, 0, sizeof(*dl));
	for (dir = 0; dir < SMQ_DL_NR_DIRS; dir++) {
		dl->sort_root[dir] = RB_ROOT;
		dl->end_root[dir] = RB_ROOT;
		INIT_LIST_HEAD(&dl->fifo[dir]);
	}
	INIT_LIST_HEAD(&dl->at_head);
	dl->last_dir = SMQ_DL_WRITE;
	dl->params = *p;
}
EXPORT_SYMBOL_GPL(smq_dl_init);

/**
 * smq_dl_node_init() - prepare a node for its first insertion
 * @n: the node.
 * @sector: first sector.
 * @nr_sectors: length in sectors.
 * @dir: SMQ_DL_READ or SMQ_DL_WRITE.
 */
void smq_dl_node_init(struct smq_dl_node *n, u64 sector, u32 nr_sectors,
		      int dir)
{
	memset(n, 0, sizeof(*n));
	n->sector = sector;
	n->nr_sectors = nr_sectors;
	n->dir = dir == SMQ_DL_READ ? SMQ_DL_READ : SMQ_DL_WRITE;
	RB_CLEAR_NODE(&n->sort_rb);
	RB_CLEAR_NODE(&n->end_rb);
	INIT_LIST_HEAD(&n->fifo);
}
EXPORT_SYMBOL_GPL(smq_dl_node_init);

/**
 * smq_dl_insert() - queue a node
 * @dl: scheduler state.
 * @n: an idle node with @sector, @nr_sectors and @dir set.
 * @now: current time.
 * @at_head: dispatch @n before everything else (requeue); such nodes are
 *	not sorted, not merge candidates, and go out most recent first.
 *
 * A sorted node expires at @now plus the direction's expire time.
 */
void smq_dl_insert(struct smq_dl *dl, struct smq_dl_node *n, u64 now,
		   bool at_head)
{
	if (WARN_ON_ONCE(n->state != SMQ_DL_IDLE))
		return;
	if (WARN_ON_ONCE(n->dir > SMQ_DL_WRITE))
		n->dir = SMQ_DL_WRITE;

	dl->count[n->dir]++;
	if (at_head) {
		n->state = SMQ_DL_AT_HEAD;
		n->fifo_time = now;
		list_add(&n->fifo, &dl->at_head);
		return;
	}
	n->state = SMQ_DL_SORTED;
	n->fifo_time = now + (n->dir == SMQ_DL_READ ?
			      dl->params.read_expire :
			      dl->params.write_expire);
	smq_dl_trees_add(dl, n);
	list_add_tail(&n->fifo, &dl->fifo[n->dir]);
}
EXPORT_SYMBOL_GPL(smq_dl_insert);

/* Take @n out of whatever structure holds it. */
static void smq_dl_unlink(struct smq_dl *dl, struct smq_dl_node *n)
{
	if (n->state == SMQ_DL_SORTED)
		smq_dl_trees_del(dl, n);
	list_del_init(&n->fifo);
	dl->count[n->dir]--;
	n->state = SMQ_DL_IDLE;
}

/* Lowest sorted node of @dir starting at or after @dl->latest_pos[dir]. */
static struct smq_dl_node *smq_dl_next_request(struct smq_dl *dl, int dir)
{
	return smq_dl_of_sort(smq_dl_tree_lower_bound(&dl->sort_root[dir],
						      dl->latest_pos[dir],
						      false));
}

static struct smq_dl_node *smq_dl_fifo_head(struct smq_dl *dl, int dir)
{
	if (list_empty(&dl->fifo[dir]))
		return NULL;
	return list_entry(dl->fifo[dir].next, struct smq_dl_node, fifo);
}

/**
 * smq_dl_dispatch() - pick the next node to send to the device
 * @dl: scheduler state.
 * @now: current time.
 *
 * At-head nodes first; then the deadline algorithm described in
 * include/smq/dl.h.  The node is taken out of the scheduler.
 *
 * Return: the node, or NULL when nothing is queued.
 */
struct smq_dl_node *smq_dl_dispatch(struct smq_dl *dl, u64 now)
{
	struct smq_dl_node *n, *next;
	int dir;

	if (!list_empty(&dl->at_head)) {
		n = list_entry(dl->at_head.next, struct smq_dl_node, fifo);
		goto out;
	}

	/* Continue the current batch in sector order while entitled to. */
	n = smq_dl_next_request(dl, dl->last_dir);
	if (n && dl->batching < dl->params.fifo_batch) {
		dl->batching++;
		goto out;
	}

	/* Start a new batch: choose the direction. */
	if (!list_empty(&dl->fifo[SMQ_DL_READ])) {
		if (!list_empty(&dl->fifo[SMQ_DL_WRITE]) &&
		    dl->starved++ >= dl->params.writes_starved)
			goto writes;
		dir = SMQ_DL_READ;
	} else if (!list_empty(&dl->fifo[SMQ_DL_WRITE])) {
writes:
		dl->starved = 0;
		dir = SMQ_DL_WRITE;
	} else {
		return NULL;
	}

	/* Expired FIFO head, or nothing further in sector order: FIFO. */
	next = smq_dl_next_request(dl, dir);
	n = smq_dl_fifo_head(dl, dir);
	if (next && smq_dl_before(now, n->fifo_time))
		n = next;
	dl->last_dir = dir;
	dl->batching = 1;
out:
	dl->latest_pos[n->dir] = n->sector;
	smq_dl_unlink(dl, n);
	return n;
}
EXPORT_SYMBOL_GPL(smq_dl_dispatch);

/**
 * smq_dl_remove() - take a queued node out without dispatching it
 * @dl: scheduler state.
 * @n: a node queued on @dl (sorted or at head).
 *
 * E.g. a request merged away or cancelled.  Batching state is untouched.
 */
void smq_dl_remove(struct smq_dl *dl, struct smq_dl_node *n)
{
	if (WARN_ON_ONCE(n->state == SMQ_DL_IDLE))
		return;
	smq_dl_unlink(dl, n);
}

/**
 * smq_dl_has_work() - is anything queued?
 * @dl: scheduler state.
 *
 * Return: true if smq_dl_dispatch() would return a node.
 */
bool smq_dl_has_work(const struct smq_dl *dl)
{
	return dl->count[SMQ_DL_READ] || dl->count[SMQ_DL_WRITE];
}

/**
 * smq_dl_count() - queued nodes of a direction
 * @dl: scheduler state.
 * @dir: SMQ_DL_READ or SMQ_DL_WRITE.
 *
 * Return: sorted plus at-head nodes of @dir; 0 for an invalid @dir.
 */
unsigned int smq_dl_count(const struct smq_dl *dl, int dir)
{
	if (dir != SMQ_DL_READ && dir != SMQ_DL_WRITE)
		return 0;
	return dl->count[dir];
}
EXPORT_SYMBOL_GPL(smq_dl_count);

/**
 * smq_dl_find_back_merge() - find a sorted node ending at a sector
 * @dl: scheduler state.
 * @dir: direction of the bio or request to merge.
 * @sector: start sector of that bio or request.
 *
 * Among several candidates the one that entered the tree first wins.
 *
 * Return: a sorted node of @dir with @sector + @nr_sectors == @sector,
 * or NULL.
 */
struct smq_dl_node *smq_dl_find_back_merge(struct smq_dl *dl, int dir,
					   u64 sector)
{
	struct smq_dl_node *n;

	if (dir != SMQ_DL_READ && dir != SMQ_DL_WRITE)
		return NULL;
	n = smq_dl_of_end(smq_dl_tree_lower_bound(&dl->end_root[dir], sector,
						  true));
	return n && smq_dl_end(n) == sector ? n : NULL;
}
EXPORT_SYMBOL_GPL(smq_dl_find_back_merge);

/**
 * smq_dl_find_front_merge() - find a sorted node starting at a sector
 * @dl: scheduler state.
 * @dir: direction of the bio or request to merge.
 * @end: end sector (first sector after) of that bio or request.
 *
 * Among several candidates the one that entered the tree first wins.
 *
 * Return: a sorted node of @dir starting at @end, or NULL (always NULL
 * while @dl->params.front_merges is off).
 */
struct smq_dl_node *smq_dl_find_front_merge(struct smq_dl *dl, int dir,
					    u64 end)
{
	struct smq_dl_node *n;

	if (!dl->params.front_merges ||
	    (dir != SMQ_DL_READ && dir != SMQ_DL_WRITE))
		return NULL;
	n = smq_dl_of_sort(smq_dl_tree_lower_bound(&dl->sort_root[dir], end,
						   false));
	return n && n->sector == end ? n : NULL;
}
EXPORT_SYMBOL_GPL(smq_dl_find_front_merge);

/**
 * smq_dl_former() - previous node in sector order
 * @n: a sorted node.
 *
 * Like elv_rb_former_request(): used to find merge partners.
 *
 * Return: the sorted node of the same direction before @n, or NULL.
 */
struct smq_dl_node *smq_dl_former(struct smq_dl_node *n)
{
	if (n->state != SMQ_DL_SORTED)
		return NULL;
	return smq_dl_of_sort(rb_prev(&n->sort_rb));
}

/**
 * smq_dl_latter() - next node in sector order
 * @n: a sorted node.
 *
 * Like elv_rb_latter_request(): used to find merge partners.
 *
 * Return: the sorted node of the same direction after @n, or NULL.
 */
struct smq_dl_node *smq_dl_latter(struct smq_dl_node *n)
{
	if (n->state != SMQ_DL_SORTED)
		return NULL;
	return smq_dl_of_sort(rb_next(&n->sort_rb));
}

/**
 * smq_dl_resized() - change the extent of a node
 * @dl: scheduler state.
 * @n: the node, queued on @dl or idle.
 * @new_sector: its new first sector.
 * @new_nr_sectors: its new length.
 *
 * Call after a bio or request was merged into @n.  A sorted node whose
 * start moved (front merge) is repositioned after the nodes already at
 * its new start sector, as Linux re-adds it; one whose end moved is
 * repositioned for back merge lookups.  The FIFO position and expiry are
 * unchanged.
 */
void smq_dl_resized(struct smq_dl *dl, struct smq_dl_node *n,
		    u64 new_sector, u32 new_nr_sectors)
{
	u64 old_end = smq_dl_end(n);

	if (n->state != SMQ_DL_SORTED) {
		n->sector = new_sector;
		n->nr_sectors = new_nr_sectors;
		return;
	}
	if (new_sector != n->sector) {
		smq_dl_trees_del(dl, n);
		n->sector = new_sector;
		n->nr_sectors = new_nr_sectors;
		smq_dl_trees_add(dl, n);
	} else if (new_sector + new_nr_sectors != old_end) {
		/* Same seq: among equal ends it keeps its place. */
		rb_erase(&n->end_rb, &dl->end_root[n->dir]);
		n->nr_sectors = new_nr_sectors;
		rb_add(&n->end_rb, &dl->end_root[n->dir], smq_dl_end_less);
	} else {
		n->nr_sectors = new_nr_sectors;
	}
}
EXPORT_SYMBOL_GPL(smq_dl_resized);

/**
 * smq_dl_merged() - two queued nodes were merged into one
 * @dl: scheduler state.
 * @into: the node that stays.
 * @gone: the node merged into @into; it leaves the scheduler (it may
 *	also be an idle node that was never inserted: an insert merge).
 *
 * When both are sorted and @gone expires earlier, @into takes @gone's
 * place in the FIFO and its expiry, like Linux's dd_merged_requests().
 * The caller reports @into's new extent with smq_dl_resized() (before or
 * after this call).
 */
void smq_dl_merged(struct smq_dl *dl, struct smq_dl_node *into,
		   struct smq_dl_node *gone)
{
	if (WARN_ON_ONCE(into == gone) || gone->state == SMQ_DL_IDLE)
		return;
	if (into->state == SMQ_DL_SORTED && gone->state == SMQ_DL_SORTED &&
	    !WARN_ON_ONCE(into->dir != gone->dir) &&
	    smq_dl_before(gone->fifo_time, into->fifo_time)) {
		list_del_init(&into->fifo);
		list_add(&into->fifo, &gone->fifo);
		into->fifo_time = gone->fifo_time;
	}
	smq_dl_unlink(dl, gone);
}
