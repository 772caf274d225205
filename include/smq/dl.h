/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq deadline scheduling core, shared by the mq path's "mq-deadline"
 * scheduler and the legacy path's "deadline" elevator.
 *
 * Pure logic: no locking (the wrappers hold their lock around every
 * call), no allocation (nodes are embedded in the requests), no clock
 * (every call that needs the time takes @now in the wrapper's clock
 * units: jiffies in the kernel, a fake clock in the unit tests).  Every
 * operation is O(log n) in the number of queued nodes.
 *
 * Behaviour mirrors Linux 6.12 block/mq-deadline.c with a single I/O
 * priority level:
 *
 * - Each direction has a tree sorted by start sector (ties in the order
 *   nodes entered the tree, like elv_rb_add()) and a FIFO in insertion
 *   order; a node's @fifo_time is its expiry, @now + read/write_expire at
 *   insertion.
 * - The scheduler remembers, per direction, the start sector of the last
 *   node dispatched in that direction (@latest_pos).  The "next request"
 *   of a direction is the lowest queued node starting at or after it;
 *   there is no wrap-around: when none is left the next batch restarts
 *   from the FIFO head.
 * - Dispatch continues the current batch (direction @last_dir) with the
 *   next request of that direction while fewer than @fifo_batch nodes
 *   were dispatched in the batch.  Otherwise a new batch starts: reads
 *   are preferred, but when writes are queued and reads were already
 *   chosen @writes_starved times over waiting writes, writes go.  In the
 *   chosen direction the batch starts at the FIFO head if that has
 *   expired (or if there is no next request), else at the next request.
 * - As in Linux the scheduler starts out "in a write batch" (@last_dir is
 *   write, @batching 0), so the very first dispatch continues with
 *   writes in sector order if any are queued.
 * - Nodes inserted "at head" (requeues) bypass all of this: they sit on a
 *   separate list, are dispatched before anything else, most recently
 *   inserted first (list_add(), like Linux), and only update @latest_pos.
 * - Merging: a back merge candidate is a queued node ending where a bio
 *   starts, a front merge candidate one starting where a bio ends (only
 *   when front merges are enabled).  Nodes on the at-head list are not
 *   merge candidates.
 *
 * Node life cycle: smq_dl_node_init() (or a zeroed node), then
 * smq_dl_insert(); the node leaves through smq_dl_dispatch(),
 * smq_dl_remove() or as the @gone side of smq_dl_merged(), after which it
 * may be inserted again.  Never write @sector/@nr_sectors/@dir of a queued
 * node directly: use smq_dl_resized().
 */
#ifndef _SMQ_DL_H
#define _SMQ_DL_H

#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/types.h>

#define SMQ_DL_READ	0
#define SMQ_DL_WRITE	1
#define SMQ_DL_NR_DIRS	2

/* Node states (&smq_dl_node.state). */
enum smq_dl_node_state {
	SMQ_DL_IDLE = 0,	/* not in any scheduler */
	SMQ_DL_SORTED,		/* in the sort trees and a FIFO */
	SMQ_DL_AT_HEAD,		/* on the at-head list */
};

/**
 * struct smq_dl_params - tunables of a deadline scheduler
 * @read_expire: clock units from insertion until a read expires.
 * @write_expire: clock units from insertion until a write expires.
 * @writes_starved: how many times reads may be preferred over waiting
 *	writes when a batch starts.  0 means writes always go first.
 * @fifo_batch: nodes dispatched per batch before the direction and the
 *	FIFOs are reconsidered.  0 behaves like 1.
 * @front_merges: allow smq_dl_find_front_merge() to find candidates.
 *
 * The wrappers may change these fields under their lock at any time.
 */
struct smq_dl_params {
	u64 read_expire;
	u64 write_expire;
	unsigned int writes_starved;
	unsigned int fifo_batch;
	bool front_merges;
};

/**
 * struct smq_dl_node - a request as seen by the deadline core
 * @sector: first sector.
 * @nr_sectors: length in sectors.
 * @dir: SMQ_DL_READ or SMQ_DL_WRITE.
 * @state: &enum smq_dl_node_state, owned by the core.
 * @fifo_time: expiry time (set by smq_dl_insert(); at-head nodes get
 *	the insertion time, like Linux).
 * @seq: tie-break among equal keys in the trees (order of entry).
 * @sort_rb: linkage in the tree sorted by (@sector, @seq).
 * @end_rb: linkage in the tree sorted by (@sector + @nr_sectors, @seq).
 * @fifo: linkage in the direction's FIFO or in the at-head list.
 *
 * Embedded in each request by the wrapper.  Everything but @sector,
 * @nr_sectors and @dir (set before insertion) belongs to the core.
 */
struct smq_dl_node {
	u64 sector;
	u32 nr_sectors;
	u8 dir;
	u8 state;
	u64 fifo_time;
	u64 seq;
	struct rb_node sort_rb;
	struct rb_node end_rb;
	struct list_head fifo;
};

/**
 * struct smq_dl - deadline scheduler state
 * @sort_root: per direction, the tree sorted by start sector.
 * @end_root: per direction, the tree sorted by end sector (back merges).
 * @fifo: per direction, the sorted nodes in insertion order (expiry).
 * @at_head: nodes inserted at head, dispatched first, first to last.
 * @count: per direction, queued nodes (sorted and at head).
 * @latest_pos: per direction, start sector of the last node dispatched.
 * @last_dir: direction of the current batch.
 * @batching: nodes dispatched in the current batch.
 * @starved: batch starts that preferred reads over waiting writes since
 *	writes last went.
 * @seq: next tree tie-break number.
 * @params: tunables.
 */
struct smq_dl {
	struct rb_root sort_root[SMQ_DL_NR_DIRS];
	struct rb_root end_root[SMQ_DL_NR_DIRS];
	struct list_head fifo[SMQ_DL_NR_DIRS];
	struct list_head at_head;
	unsigned int count[SMQ_DL_NR_DIRS];
	u64 latest_pos[SMQ_DL_NR_DIRS];
	u8 last_dir;
	unsigned int batching;
	unsigned int starved;
	u64 seq;
	struct smq_dl_params params;
};

void smq_dl_params_default(struct smq_dl_params *p, u64 ticks_per_sec);
void smq_dl_init(struct smq_dl *dl, const struct smq_dl_params *p);
void smq_dl_node_init(struct smq_dl_node *n, u64 sector, u32 nr_sectors,
		      int dir);
void smq_dl_insert(struct smq_dl *dl, struct smq_dl_node *n, u64 now,
		   bool at_head);
struct smq_dl_node *smq_dl_dispatch(struct smq_dl *dl, u64 now);
void smq_dl_remove(struct smq_dl *dl, struct smq_dl_node *n);
bool smq_dl_has_work(const struct smq_dl *dl);
unsigned int smq_dl_count(const struct smq_dl *dl, int dir);
struct smq_dl_node *smq_dl_find_back_merge(struct smq_dl *dl, int dir,
					   u64 sector);
struct smq_dl_node *smq_dl_find_front_merge(struct smq_dl *dl, int dir,
					    u64 end);
struct smq_dl_node *smq_dl_former(struct smq_dl_node *n);
struct smq_dl_node *smq_dl_latter(struct smq_dl_node *n);
void smq_dl_resized(struct smq_dl *dl, struct smq_dl_node *n,
		    u64 new_sector, u32 new_nr_sectors);
void smq_dl_merged(struct smq_dl *dl, struct smq_dl_node *into,
		   struct smq_dl_node *gone);

/**
 * smq_dl_queued() - is a node held by a deadline scheduler?
 * @n: the node.
 *
 * Return: true while @n is sorted or on the at-head list.
 */
static inline bool smq_dl_queued(const struct smq_dl_node *n)
{
	return n->state != SMQ_DL_IDLE;
}

#endif /* _SMQ_DL_H */
