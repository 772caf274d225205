// SPDX-License-Identifier: GPL-2.0
/*
 * smq-deadline-iosched.ko: the legacy path's "deadline" elevator, the
 * deadline core (smq_dl.c, in smq_blk) under the legacy queue_lock, which
 * the legacy code holds around every call.
 *
 * A module of its own, named as Linux 4.x named its legacy elevators
 * (deadline-iosched.ko, cfq-iosched.ko): smq_blk asks for
 * "smq-<name>-iosched" when "deadline" is selected on a legacy queue and
 * no such elevator is registered, and the file name answers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include "smq_sched.h"

static void *smq_legacy_dl_init(struct smq_queue *q)
{
	struct smq_dl *dl = kzalloc(sizeof(*dl), GFP_KERNEL);
	struct smq_dl_params p;

	if (!dl)
		return NULL;
	smq_dl_params_default(&p, HZ);
	smq_dl_init(dl, &p);
	return dl;
}

static void smq_legacy_dl_exit(void *data)
{
	kfree(data);
}

static void smq_legacy_dl_add(void *data, struct smq_request *rq)
{
	int dir = op_is_write(smq_rq_op(rq)) ? SMQ_DL_WRITE : SMQ_DL_READ;

	smq_dl_node_init(&rq->dl_node, rq->sector, smq_rq_sectors(rq), dir);
	smq_dl_insert(data, &rq->dl_node, jiffies, false);
}

static struct smq_request *smq_legacy_dl_next(void *data)
{
	struct smq_dl_node *n = smq_dl_dispatch(data, jiffies);

	return n ? container_of(n, struct smq_request, dl_node) : NULL;
}

static bool smq_legacy_dl_merge(void *data, struct smq_queue *q, struct bio *bio,
				unsigned int nr_segs)
{
	return smq_bio_merge_dl(q, data, bio, nr_segs);
}

static const struct smq_legacy_elv smq_legacy_dl_ops = {
	.init = smq_legacy_dl_init,
	.exit = smq_legacy_dl_exit,
	.add = smq_legacy_dl_add,
	.next = smq_legacy_dl_next,
	.merge = smq_legacy_dl_merge,
};

static struct smq_sched_ops smq_legacy_deadline = {
	.name = "deadline",
	.owner = THIS_MODULE,
	.legacy = &smq_legacy_dl_ops,
};

static int __init smq_legacy_dl_module_init(void)
{
	return smq_sched_register(&smq_legacy_deadline);
}

static void __exit smq_legacy_dl_module_exit(void)
{
	smq_sched_unregister(&smq_legacy_deadline);
}

module_init(smq_legacy_dl_module_init);
module_exit(smq_legacy_dl_module_exit);
MODULE_DESCRIPTION("smq legacy-path deadline elevator");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
