// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: the SCSI midlayer of smq (module entry and parameters).
 *
 * Parameters are read when a host or disk is created, so changing a
 * writable one affects hosts and disks created afterwards only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "smq_scsi_priv.h"

#define SMQ_DISK_PREFIX_MAX	16
#define SMQ_DEFAULT_CMD_TIMEOUT	30

static bool use_blk_mq = true;
module_param(use_blk_mq, bool, 0644);
MODULE_PARM_DESC(use_blk_mq,
		 "Y: hosts created afterwards use the multiqueue path; N: the legacy single-queue path (default Y)");

/* Set only while the module loads (mode 0444), read afterwards. */
static char disk_prefix[SMQ_DISK_PREFIX_MAX + 1] = "sd";

static int smq_disk_prefix_set(const char *val, const struct kernel_param *kp)
{
	size_t len = strcspn(val, "\n");
	size_t i;

	if (len == 0 || len > SMQ_DISK_PREFIX_MAX) {
		pr_err("disk_prefix=\"%s\": must be 1..%d lower-case letters\n",
		       val, SMQ_DISK_PREFIX_MAX);
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		if (val[i] < 'a' || val[i] > 'z') {
			pr_err("disk_prefix=\"%s\": must be 1..%d lower-case letters\n",
			       val, SMQ_DISK_PREFIX_MAX);
			return -EINVAL;
		}
	}
	memcpy(disk_prefix, val, len);
	disk_prefix[len] = '\0';
	return 0;
}

static int smq_disk_prefix_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", disk_prefix);
}

static const struct kernel_param_ops smq_disk_prefix_ops = {
	.set = smq_disk_prefix_set,
	.get = smq_disk_prefix_get,
};
module_param_cb(disk_prefix, &smq_disk_prefix_ops, NULL, 0444);
MODULE_PARM_DESC(disk_prefix,
		 "name prefix of the disks, followed by a..z, aa.. (default \"sd\")");

static unsigned int cmd_timeout = SMQ_DEFAULT_CMD_TIMEOUT;

static int smq_cmd_timeout_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < 1 || v > SMQ_MAX_TIMEOUT_SECS) {
		pr_err("cmd_timeout=%s: must be 1..%d seconds\n", val,
		       SMQ_MAX_TIMEOUT_SECS);
		return -EINVAL;
	}
	WRITE_ONCE(cmd_timeout, v);
	return 0;
}

static const struct kernel_param_ops smq_cmd_timeout_ops = {
	.set = smq_cmd_timeout_set,
	.get = param_get_uint,
};
module_param_cb(cmd_timeout, &smq_cmd_timeout_ops, &cmd_timeout, 0644);
MODULE_PARM_DESC(cmd_timeout,
		 "default command timeout of new LUNs in seconds, 1..3600 (default 30)");

/**
 * smq_param_use_blk_mq - the use_blk_mq parameter now
 *
 * Return: true if new hosts use the multiqueue path.
 */
bool smq_param_use_blk_mq(void)
{
	return READ_ONCE(use_blk_mq);
}

/**
 * smq_param_disk_prefix - the disk_prefix parameter (read-only after load)
 *
 * Return: the prefix of new disks' names.
 */
const char *smq_param_disk_prefix(void)
{
	return disk_prefix;
}

/**
 * smq_param_cmd_timeout - the cmd_timeout parameter now, in seconds
 *
 * Return: the timeout in seconds, 1..3600.
 */
unsigned int smq_param_cmd_timeout(void)
{
	return READ_ONCE(cmd_timeout);
}

static int __init smq_scsi_init(void)
{
	int ret;

	ret = smq_hosts_init();
	if (ret)
		return ret;
	ret = smq_ng_init();
	if (ret) {
		smq_hosts_exit();
		return ret;
	}
	ret = smq_sd_init();
	if (ret) {
		smq_ng_exit();
		smq_hosts_exit();
		return ret;
	}
	pr_info("loaded (use_blk_mq=%c, disk_prefix=%s)\n",
		smq_param_use_blk_mq() ? 'Y' : 'N', disk_prefix);
	return 0;
}

static void __exit smq_scsi_exit(void)
{
	smq_sd_exit();
	smq_ng_exit();
	smq_hosts_exit();
}

module_init(smq_scsi_init);
module_exit(smq_scsi_exit);
MODULE_DESCRIPTION("smq SCSI midlayer and sd-style disk");
MODULE_LICENSE("GPL");
MODULE_VERSION(SMQ_VERSION);
