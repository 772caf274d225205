// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas: an emulated multiqueue SAS HBA for the smq SCSI midlayer.
 *
 * Module parameters, their validation, and module init/exit.  The
 * parameters mirror scsi_debug's (add_host, num_tgts, max_luns,
 * dev_size_mb, sector_size, submit_queues, host_tagset) and null_blk's
 * (irqmode, completion_nsec, backing in the role of memory_backed), plus
 * poll_weight for irqmode=3 (irq_poll, the weight mpt3sas and megaraid_sas
 * give their irq_poll instances); see Documentation/smq_sas.md.
 *
 * Every parameter is checked once at load; hosts are built from the
 * resulting struct smq_sas_config, of which each host keeps a copy.  Of
 * these only add_host stays writable: writing N > 0 adds N hosts, N < 0
 * removes the -N most recently added ones.  The fault injection parameters
 * (every_nth, opts, medium_error_*) live in smq_sas_fault.c and are
 * writable at any time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "smq_sas.h"

static unsigned int smq_sas_num_tgts = 1;
module_param_named(num_tgts, smq_sas_num_tgts, uint, 0444);
MODULE_PARM_DESC(num_tgts, "targets per host (default 1, 1.." __stringify(SMQ_SAS_MAX_TGTS) ")");

static unsigned int smq_sas_max_luns = 1;
module_param_named(max_luns, smq_sas_max_luns, uint, 0444);
MODULE_PARM_DESC(max_luns, "LUNs per target (default 1, 1.." __stringify(SMQ_SAS_MAX_LUNS) ")");

static unsigned int smq_sas_dev_size_mb = 16;
module_param_named(dev_size_mb, smq_sas_dev_size_mb, uint, 0444);
MODULE_PARM_DESC(dev_size_mb, "capacity of each LUN in MiB (default 16, at most 4194304)");

static char *smq_sas_backing = "ram";
module_param_named(backing, smq_sas_backing, charp, 0444);
MODULE_PARM_DESC(backing, "ram: sparse RAM store per LUN; null: no data kept or copied (default ram)");

static unsigned int smq_sas_sector_size = 512;
module_param_named(sector_size, smq_sas_sector_size, uint, 0444);
MODULE_PARM_DESC(sector_size, "logical block size, 512 or 4096 (default 512)");

static unsigned int smq_sas_submit_queues = 1;
module_param_named(submit_queues, smq_sas_submit_queues, uint, 0444);
MODULE_PARM_DESC(submit_queues, "reply queues = hardware queues per host (default 1, 1..nr_cpu_ids)");

static bool smq_sas_host_tagset;
module_param_named(host_tagset, smq_sas_host_tagset, bool, 0444);
MODULE_PARM_DESC(host_tagset, "1: one tag space shared by all reply queues (default 0)");

static unsigned int smq_sas_can_queue = 192;
module_param_named(can_queue, smq_sas_can_queue, uint, 0444);
MODULE_PARM_DESC(can_queue,
		 "commands per reply queue, per host with host_tagset=1 (default 192, 1.."
		 __stringify(SMQ_SAS_MAX_CAN_QUEUE) ")");

static unsigned int smq_sas_cmd_per_lun;
module_param_named(cmd_per_lun, smq_sas_cmd_per_lun, uint, 0444);
MODULE_PARM_DESC(cmd_per_lun, "default LUN queue depth, 1..can_queue (default 0: can_queue)");

static unsigned int smq_sas_irqmode = SMQ_SAS_IRQ_SOFTIRQ;
module_param_named(irqmode, smq_sas_irqmode, uint, 0444);
MODULE_PARM_DESC(irqmode, "completion: 0 none (in queuecommand), 1 softirq, 2 timer, 3 irq_poll (default 1)");

static unsigned long smq_sas_completion_nsec = 10000;
module_param_named(completion_nsec, smq_sas_completion_nsec, ulong, 0444);
MODULE_PARM_DESC(completion_nsec, "service time per command in irqmode=2 and 3, ns (default 10000, at most 1000000000; 3: 0 posts the reply at once)");

static unsigned int smq_sas_poll_weight = 128;
module_param_named(poll_weight, smq_sas_poll_weight, uint, 0444);
MODULE_PARM_DESC(poll_weight,
		 "irqmode=3: completions reaped per irq_poll pass at most (default 128, 1.."
		 __stringify(SMQ_SAS_MAX_POLL_WEIGHT) ")");

static int smq_sas_poll_queues;
module_param_named(poll_queues, smq_sas_poll_queues, int, 0444);
MODULE_PARM_DESC(poll_queues,
		 "of submit_queues, reply queues that are poll queues: no completion interrupt, reaped by io_uring IOPOLL / hipri (default 0, 0..submit_queues-1, use_blk_mq=Y only)");

/*
 * add_host.  Before init it only records how many hosts to create; after
 * init a write adds or removes hosts.  Both run under kernel_param_lock
 * (the module parameter core takes it around ->set), which also orders
 * them against smq_sas_ready changing in init and exit.
 */
static int smq_sas_add_host = 1;
static bool smq_sas_ready;		/* hosts may be added / removed */
static struct smq_sas_config smq_sas_cfg;	/* set once in init */

struct dentry *smq_sas_debugfs_root;

static int smq_sas_add_host_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret) {
		pr_err("add_host: invalid value '%s'\n", val);
		return -EINVAL;
	}

	if (!smq_sas_ready) {
		if (n < 0 || n > SMQ_SAS_MAX_HOSTS) {
			pr_err("add_host: invalid value %d (0..%d)\n",
			       n, SMQ_SAS_MAX_HOSTS);
			return -EINVAL;
		}
		smq_sas_add_host = n;
		return 0;
	}

	if (n > 0 && smq_sas_host_count() + n > SMQ_SAS_MAX_HOSTS) {
		pr_err("add_host: %d more hosts exceed the limit of %d\n",
		       n, SMQ_SAS_MAX_HOSTS);
		return -EINVAL;
	}
	for (; n > 0; n--) {
		ret = smq_sas_host_add(&smq_sas_cfg);
		if (ret)
			return ret;
	}
	for (; n < 0; n++)
		if (!smq_sas_host_remove_last())
			break;
	return 0;
}

static int smq_sas_add_host_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%u\n", smq_sas_ready ?
			 smq_sas_host_count() : (unsigned int)smq_sas_add_host);
}

static const struct kernel_param_ops smq_sas_add_host_ops = {
	.set = smq_sas_add_host_set,
	.get = smq_sas_add_host_get,
};
module_param_cb(add_host, &smq_sas_add_host_ops, NULL, 0644);
MODULE_PARM_DESC(add_host,
		 "hosts at load (default 1, 0.." __stringify(SMQ_SAS_MAX_HOSTS)
		 "); write N to add N hosts, -N to remove the last N");

#define smq_sas_param_err(name, fmt, val, why)				\
	pr_err(name ": invalid value " fmt " (%s)\n", val, why)

/* Check every parameter and fill smq_sas_cfg.  Return: 0 or -EINVAL. */
static int smq_sas_check_params(void)
{
	struct smq_sas_config *cfg = &smq_sas_cfg;

	if (!smq_sas_num_tgts || smq_sas_num_tgts > SMQ_SAS_MAX_TGTS) {
		smq_sas_param_err("num_tgts", "%u", smq_sas_num_tgts,
				  "1.." __stringify(SMQ_SAS_MAX_TGTS));
		return -EINVAL;
	}
	if (!smq_sas_max_luns || smq_sas_max_luns > SMQ_SAS_MAX_LUNS) {
		smq_sas_param_err("max_luns", "%u", smq_sas_max_luns,
				  "1.." __stringify(SMQ_SAS_MAX_LUNS));
		return -EINVAL;
	}
	if (!smq_sas_dev_size_mb ||
	    smq_sas_dev_size_mb > SMQ_SAS_MAX_DEV_SIZE_MB) {
		smq_sas_param_err("dev_size_mb", "%u", smq_sas_dev_size_mb,
				  "1..4194304");
		return -EINVAL;
	}
	if (!smq_sas_backing || (strcmp(smq_sas_backing, "ram") &&
				 strcmp(smq_sas_backing, "null"))) {
		smq_sas_param_err("backing", "'%s'",
				  smq_sas_backing ?: "", "ram or null");
		return -EINVAL;
	}
	if (smq_sas_sector_size != 512 && smq_sas_sector_size != 4096) {
		smq_sas_param_err("sector_size", "%u", smq_sas_sector_size,
				  "512 or 4096");
		return -EINVAL;
	}
	if (!smq_sas_submit_queues || smq_sas_submit_queues > nr_cpu_ids) {
		pr_err("submit_queues: invalid value %u (1..%u)\n",
		       smq_sas_submit_queues, nr_cpu_ids);
		return -EINVAL;
	}
	if (!smq_sas_can_queue || smq_sas_can_queue > SMQ_SAS_MAX_CAN_QUEUE) {
		smq_sas_param_err("can_queue", "%u", smq_sas_can_queue,
				  "1.." __stringify(SMQ_SAS_MAX_CAN_QUEUE));
		return -EINVAL;
	}
	if (smq_sas_cmd_per_lun > smq_sas_can_queue) {
		pr_err("cmd_per_lun: invalid value %u (0..can_queue=%u)\n",
		       smq_sas_cmd_per_lun, smq_sas_can_queue);
		return -EINVAL;
	}
	if (smq_sas_irqmode > SMQ_SAS_IRQ_POLL) {
		smq_sas_param_err("irqmode", "%u", smq_sas_irqmode,
				  "0 none, 1 softirq, 2 timer, 3 irq_poll");
		return -EINVAL;
	}
	if (smq_sas_completion_nsec > SMQ_SAS_MAX_COMPL_NSEC) {
		smq_sas_param_err("completion_nsec", "%lu",
				  smq_sas_completion_nsec, "0..1000000000");
		return -EINVAL;
	}
	if (!smq_sas_poll_weight ||
	    smq_sas_poll_weight > SMQ_SAS_MAX_POLL_WEIGHT) {
		smq_sas_param_err("poll_weight", "%u", smq_sas_poll_weight,
				  "1.." __stringify(SMQ_SAS_MAX_POLL_WEIGHT));
		return -EINVAL;
	}
	if (smq_sas_poll_queues < 0 ||
	    smq_sas_poll_queues >= smq_sas_submit_queues) {
		pr_err("poll_queues: invalid value %d (0..submit_queues-1=%u)\n",
		       smq_sas_poll_queues, smq_sas_submit_queues - 1);
		return -EINVAL;
	}

	cfg->num_tgts = smq_sas_num_tgts;
	cfg->max_luns = smq_sas_max_luns;
	cfg->block_shift = ilog2(smq_sas_sector_size);
	cfg->nr_blocks = ((u64)smq_sas_dev_size_mb << 20) >> cfg->block_shift;
	cfg->backing = strcmp(smq_sas_backing, "null") ?
		       SMQ_SAS_BACKING_RAM : SMQ_SAS_BACKING_NULL;
	cfg->submit_queues = smq_sas_submit_queues;
	cfg->host_tagset = smq_sas_host_tagset;
	cfg->can_queue = smq_sas_can_queue;
	cfg->cmd_per_lun = smq_sas_cmd_per_lun ?: smq_sas_can_queue;
	cfg->irqmode = smq_sas_irqmode;
	cfg->completion_nsec = smq_sas_completion_nsec;
	cfg->poll_weight = smq_sas_poll_weight;
	cfg->poll_queues = smq_sas_poll_queues;
	return 0;
}

/* Remove every host; new ones can no longer be added. */
static void smq_sas_remove_all(void)
{
	kernel_param_lock(THIS_MODULE);
	smq_sas_ready = false;
	kernel_param_unlock(THIS_MODULE);

	while (smq_sas_host_remove_last())
		;
}

static int __init smq_sas_init(void)
{
	int i, ret;

	ret = smq_sas_check_params();
	if (ret)
		return ret;
	ret = smq_sas_opcodes_check();
	if (ret)
		return ret;

	ret = smq_sas_root_init();
	if (ret)
		return ret;
	smq_sas_debugfs_root = debugfs_create_dir(SMQ_SAS_NAME, NULL);

	kernel_param_lock(THIS_MODULE);
	for (i = 0; i < smq_sas_add_host; i++) {
		ret = smq_sas_host_add(&smq_sas_cfg);
		if (ret)
			break;
	}
	if (!ret)
		smq_sas_ready = true;
	kernel_param_unlock(THIS_MODULE);
	if (ret)
		goto fail;

	pr_info("%d host(s), %u target(s) x %u LUN(s) of %u MiB, %s backing, %u reply queue(s) (%u poll), irqmode %u\n",
		smq_sas_add_host, smq_sas_cfg.num_tgts, smq_sas_cfg.max_luns,
		smq_sas_dev_size_mb,
		smq_sas_cfg.backing == SMQ_SAS_BACKING_RAM ? "ram" : "null",
		smq_sas_cfg.submit_queues, smq_sas_cfg.poll_queues,
		smq_sas_cfg.irqmode);
	return 0;

fail:
	smq_sas_remove_all();
	debugfs_remove_recursive(smq_sas_debugfs_root);
	smq_sas_root_exit();
	rcu_barrier();
	return ret;
}

static void __exit smq_sas_exit(void)
{
	smq_sas_remove_all();
	debugfs_remove_recursive(smq_sas_debugfs_root);
	smq_sas_root_exit();
	/* Pages discarded by UNMAP are freed by RCU callbacks of ours. */
	rcu_barrier();
}

module_init(smq_sas_init);
module_exit(smq_sas_exit);
MODULE_DESCRIPTION("smq emulated multiqueue SAS HBA");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
