// SPDX-License-Identifier: GPL-2.0
/*
 * smq_blk: the smq multiqueue block layer (module entry).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/workqueue.h>
#include "smq_blk_int.h"

/* Runs hardware queues, requeues and timeout scans of every smq queue. */
struct workqueue_struct *smq_wq;

static int __init smq_blk_init(void)
{
	int ret;

	smq_wq = alloc_workqueue("smq_blk", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	if (!smq_wq)
		return -ENOMEM;
	ret = smq_cpuhp_init();
	if (ret) {
		destroy_workqueue(smq_wq);
		return ret;
	}
	smq_complete_init();
	smq_debugfs_init();	/* optional: errors leave it out */
	return 0;
}

static void __exit smq_blk_exit(void)
{
	smq_debugfs_exit();
	smq_complete_exit();
	smq_cpuhp_exit();
	destroy_workqueue(smq_wq);
}

module_init(smq_blk_init);
module_exit(smq_blk_exit);
MODULE_DESCRIPTION("smq multiqueue block layer");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
