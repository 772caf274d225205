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
 * The red-black tree is the textbook one (parent links, NULL leaves):
 * the caller links a new red leaf where its key belongs and
 * smq_dl_rb_insert_fixup() restores the colour rules; erase splices the
 * node out (replacing it by its successor when it has two children) and
 * smq_dl_rb_erase_fixup() repairs a missing black.
 */
#include <linux/bug.h>
#include <linux/container_of.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/types.h>
#include <smq/dl.h>

/* ---- red-black tree ---- */

static void smq_dl_rb_replace_child(struct smq_dl_rb **root,
				    struct smq_dl_rb *parent,
				    struct smq_dl_rb *old,
				    struct smq_dl_rb *new)
{
	if (!parent)
		*root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static void smq_dl_rb_rotate_left(struct smq_dl_rb **root,
				  struct smq_dl_rb *x)
{
	struct smq_dl_rb *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	smq_dl_rb_replace_child(root, x->parent, x, y);
	y->left = x;
	x->parent = y;
}

static void smq_dl_rb_rotate_right(struct smq_dl_rb **root,
				   struct smq_dl_rb *x)
{
	struct smq_dl_rb *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	smq_dl_rb_replace_child(root, x->parent, x, y);
	y->right = x;
	x->parent = y;
}

static inline bool smq_dl_rb_is_red(const struct smq_dl_rb *x)
{
	return x && x->red;
}

/* @z was just linked as a red leaf. */
static void smq_dl_rb_insert_fixup(struct smq_dl_rb **root,
				   struct smq_dl_rb *z)
{
	struct smq_dl_rb *p, *g, *u;

	while ((p = z->parent) && p->red) {
		g = p->parent;		/* exists: a red node is not the root */
		if (p == g->left) {
			u = g->right;
			if (smq_dl_rb_is_red(u)) {
				p->red = false;
				u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->right) {
				smq_dl_rb_rotate_left(root, p);
				z = p;
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			smq_dl_rb_rotate_right(root, g);
		} else {
			u = g->left;
			if (smq_dl_rb_is_red(u)) {
				p->red = false;
				u->red = false;
				g->red = true;
				z = g;
				continue;
			}
			if (z == p->left) {
				smq_dl_rb_rotate_right(root, p);
				z = p;
				p = z->parent;
			}
			p->red = false;
			g->red = true;
			smq_dl_rb_rotate_left(root, g);
		}
	}
	(*root)->red = false;
}

/*
 * @x (possibly NULL) under @xp carries an extra black.  If @x is NULL its
 * sibling is not: the other side has black height >= 1.
 */
static void smq_dl_rb_erase_fixup(struct smq_dl_rb **root,
				  struct smq_dl_rb *x, struct smq_dl_rb *xp)
{
	struct smq_dl_rb *w;

	while (x != *root && !smq_dl_rb_is_red(x)) {
		if (x == xp->left) {
			w = xp->right;
			if (w->red) {
				w->red = false;
				xp->red = true;
				smq_dl_rb_rotate_left(root, xp);
				w = xp->right;
			}
			if (!smq_dl_rb_is_red(w->left) &&
			    !smq_dl_rb_is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!smq_dl_rb_is_red(w->right)) {
				w->left->red = false;
				w->red = true;
				smq_dl_rb_rotate_right(root, w);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = false;
			w->right->red = false;
			smq_dl_rb_rotate_left(root, xp);
		} else {
			w = xp->left;
			if (w->red) {
				w->red = false;
				xp->red = true;
				smq_dl_rb_rotate_right(root, xp);
				w = xp->left;
			}
			if (!smq_dl_rb_is_red(w->left) &&
			    !smq_dl_rb_is_red(w->right)) {
				w->red = true;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!smq_dl_rb_is_red(w->left)) {
				w->right->red = false;
				w->red = true;
				smq_dl_rb_rotate_left(root, w);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = false;
			w->left->red = false;
			smq_dl_rb_rotate_right(root, xp);
		}
		x = *root;
		break;
	}
	if (x)
		x->red = false;
}

static void smq_dl_rb_erase(struct smq_dl_rb **root, struct smq_dl_rb *z)
{
	struct smq_dl_rb *x, *xp, *y;
	bool removed_red;

	if (!z->left || !z->right) {
		x = z->left ? z->left : z->right;
		xp = z->parent;
		removed_red = z->red;
		smq_dl_rb_replace_child(root, xp, z, x);
		if (x)
			x->parent = xp;
	} else {
		/* Splice out the successor y and put it where z was. */
		y = z->right;
		while (y->left)
			y = y->left;
		removed_red = y->red;
		x = y->right;
		if (y->parent == z) {
			xp = y;
		} else {
			xp = y->parent;
			xp->left = x;
			if (x)
				x->parent = xp;
			y->right = z->right;
			y->right->parent = y;
		}
		smq_dl_rb_replace_child(root, z->parent, z, y);
		y->parent = z->parent;
		y->left = z->left;
		y->left->parent = y;
		y->red = z->red;
	}
	if (!removed_red)
		smq_dl_rb_erase_fixup(root, x, xp);
	z->parent = NULL;
	z->left = NULL;
	z->right = NULL;
}

static struct smq_dl_rb *smq_dl_rb_next(const struct smq_dl_rb *x)
{
	const struct smq_dl_rb *p;

	if (x->right) {
		x = x->right;
		while (x->left)
			x = x->left;
		return (struct smq_dl_rb *)x;
	}
	while ((p = x->parent) && x == p->right)
		x = p;
	return (struct smq_dl_rb *)p;
}

static struct smq_dl_rb *smq_dl_rb_prev(const struct smq_dl_rb *x)
{
	const struct smq_dl_rb *p;

	if (x->left) {
		x = x->left;
		while (x->right)
			x = x->right;
		return (struct smq_dl_rb *)x;
	}
	while ((p = x->parent) && x == p->left)
		x = p;
	return (struct smq_dl_rb *)p;
}

/* ---- the two trees of a direction ---- */

static inline struct smq_dl_node *smq_dl_of_sort(const struct smq_dl_rb *rb)
{
	return rb ? container_of(rb, struct smq_dl_node, sort_rb) : NULL;
}

static inline struct smq_dl_node *smq_dl_of_end(const struct smq_dl_rb *rb)
{
	return rb ? container_of(rb, struct smq_dl_node, end_rb) : NULL;
}

static inline u64 smq_dl_end(const struct smq_dl_node *n)
{
	return n->sector + n->nr_sectors;
}

/* Link @rb (key @key, tie @seq) into @root; keys come from @end ? end : start. */
static void smq_dl_tree_add(struct smq_dl_rb **root, struct smq_dl_rb *rb,
			    u64 key, u64 seq, bool end)
{
	struct smq_dl_rb **link = root, *parent = NULL;

	while (*link) {
		const struct smq_dl_node *o;
		u64 okey;

		parent = *link;
		o = end ? smq_dl_of_end(parent) : smq_dl_of_sort(parent);
		okey = end ? smq_dl_end(o) : o->sector;
		if (key < okey || (key == okey && seq < o->seq))
			link = &parent->left;
		else
			link = &parent->right;
	}
	rb->parent = parent;
	rb->left = NULL;
	rb->right = NULL;
	rb->red = true;
	*link = rb;
	smq_dl_rb_insert_fixup(root, rb);
}

/* Leftmost node whose key (start or end sector) is >= @key. */
static struct smq_dl_rb *smq_dl_tree_lower_bound(struct smq_dl_rb *x,
						 u64 key, bool end)
{
	struct smq_dl_rb *res = NULL;

	while (x) {
		const struct smq_dl_node *o;

		o = end ? smq_dl_of_end(x) : smq_dl_of_sort(x);
		if ((end ? smq_dl_end(o) : o->sector) >= key) {
			res = x;
			x = x->left;
		} else {
			x = x->right;
		}
	}
	return res;
}

static void smq_dl_trees_add(struct smq_dl *dl, struct smq_dl_node *n)
{
	n->seq = dl->seq++;
	smq_dl_tree_add(&dl->sort_root[n->dir], &n->sort_rb, n->sector,
			n->seq, false);
	smq_dl_tree_add(&dl->end_root[n->dir], &n->end_rb, smq_dl_end(n),
			n->seq, true);
}

static void smq_dl_trees_del(struct smq_dl *dl, struct smq_dl_node *n)
{
	smq_dl_rb_erase(&dl->sort_root[n->dir], &n->sort_rb);
	smq_dl_rb_erase(&dl->end_root[n->dir], &n->end_rb);
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
	for (dir = 0; dir < SMQ_DL_NR_DIRS; dir++)
		INIT_LIST_HEAD(&dl->fifo[dir]);
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
	return smq_dl_of_sort(smq_dl_tree_lower_bound(dl->sort_root[dir],
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
	n = smq_dl_of_end(smq_dl_tree_lower_bound(dl->end_root[dir], sector,
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
	n = smq_dl_of_sort(smq_dl_tree_lower_bound(dl->sort_root[dir], end,
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
	return smq_dl_of_sort(smq_dl_rb_prev(&n->sort_rb));
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
	return smq_dl_of_sort(smq_dl_rb_next(&n->sort_rb));
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
		smq_dl_rb_erase(&dl->end_root[n->dir], &n->end_rb);
		n->nr_sectors = new_nr_sectors;
		smq_dl_tree_add(&dl->end_root[n->dir], &n->end_rb,
				smq_dl_end(n), n->seq, true);
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
