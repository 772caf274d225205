// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas fault rules: the debugfs file smq_sas/<h:c:t:l>/error of every
 * LUN, in the format of scsi_debug 6.12's per-device "error" file, so one
 * recipe injects the same fault on both stacks.
 *
 * A write adds one rule (replacing a rule of the same type and opcode):
 *   0 <count> <opcode>                     drop the command (time out)
 *   1 <count> <opcode> <ret>               queuecommand returns <ret> (hex)
 *   2 <count> <opcode> <host> <driver> <status> <key> <asc> <ascq>
 *                                          fail it (all hex bytes)
 *   3 <count> <opcode>                     eh_abort_handler fails
 *   4 <count> <opcode>                     eh_device_reset_handler fails
 * and smq_sas's own types:
 *   5 <count> <opcode> <lba> <blocks>      MEDIUM ERROR on reads / writes
 *                                          touching [lba, lba + blocks)
 *   6 <count> <opcode> <blocks>            the last <blocks> blocks of a
 *                                          READ / WRITE are not transferred
 *   7 <count> <opcode>                     eh_target_reset_handler fails
 *   8 <count> <opcode>                     eh_host_reset_handler fails
 * "- <type> <opcode>" removes a rule.  <opcode> 0xff matches every command.
 * <count> as scsi_debug: > 0 every matching command, < 0 the next -count
 * matching commands (it counts up to 0), 0 none.  The first rule of a type
 * that matches decides.  A read lists the rules with scsi_debug's columns
 * and an "injected=N" column of our own.
 *
 * The rule list is RCU: queuecommand (any context) and the error handler
 * read it under rcu_read_lock(); writers are serialized by the LUN's
 * rules_lock and free rules after a grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "smq_sas.h"

/* Longest line a write takes */
#define SMQ_SAS_RULE_MAX_LINE	256

/**
 * smq_sas_rule_find - the rule of a type that decides for an opcode
 * @sd: the LUN
 * @type: SMQ_SAS_ERR_*
 * @opcode: the command's opcode
 *
 * Caller holds rcu_read_lock().
 *
 * Return: the first rule of @type matching @opcode (or any opcode), or
 * NULL.
 */
struct smq_sas_rule *smq_sas_rule_find(struct smq_sas_sdev *sd, int type,
				       u8 opcode)
{
	struct smq_sas_rule *r;

	list_for_each_entry_rcu(r, &sd->rules, entry)
		if (r->type == type && (r->opcode == opcode ||
					r->opcode == SMQ_SAS_RULE_ANY_OPCODE))
			return r;
	return NULL;
}

/**
 * smq_sas_rule_find_range - the medium error rule for a block range
 * @sd: the LUN
 * @opcode: the command's opcode
 * @lba: the command's first block
 * @nr: its blocks
 * @bad: out: the first block of the range inside the rule's range
 *
 * Caller holds rcu_read_lock().
 *
 * Return: the first SMQ_SAS_ERR_MEDIUM rule matching @opcode whose blocks
 * overlap [@lba, @lba + @nr), or NULL.
 */
struct smq_sas_rule *smq_sas_rule_find_range(struct smq_sas_sdev *sd,
					     u8 opcode, u64 lba, u64 nr,
					     u64 *bad)
{
	struct smq_sas_rule *r;

	list_for_each_entry_rcu(r, &sd->rules, entry) {
		if (r->type != SMQ_SAS_ERR_MEDIUM ||
		    (r->opcode != opcode &&
		     r->opcode != SMQ_SAS_RULE_ANY_OPCODE))
			continue;
		if (lba < r->lba + r->nr_blocks && r->lba < lba + nr) {
			*bad = max(lba, r->lba);
			return r;
		}
	}
	return NULL;
}

/**
 * smq_sas_rule_hit - consume one injection of a matching rule
 * @rule: the rule that decides for the command
 *
 * scsi_debug's count: positive injects every time, negative injects and
 * counts up towards 0, 0 injects nothing.  Counts the injection.
 *
 * Return: true when the fault is to be injected.
 */
bool smq_sas_rule_hit(struct smq_sas_rule *rule)
{
	int v = atomic_read(&rule->count);

	do {
		if (!v)
			return false;
		if (v > 0)
			break;
	} while (!atomic_try_cmpxchg(&rule->count, &v, v + 1));
	atomic_long_inc(&rule->injected);
	return true;
}

/* Add @new, replacing a rule of the same type and opcode. */
static void smq_sas_rule_add(struct smq_sas_sdev *sd, struct smq_sas_rule *new)
{
	struct smq_sas_rule *r, *tmp;

	spin_lock(&sd->rules_lock);
	list_for_each_entry_safe(r, tmp, &sd->rules, entry) {
		if (r->type == new->type && r->opcode == new->opcode) {
			list_del_rcu(&r->entry);
			kfree_rcu(r, rcu);
		}
	}
	list_add_tail_rcu(&new->entry, &sd->rules);
	spin_unlock(&sd->rules_lock);
}

/* "- <type> <opcode>".  Return: 0, or -EINVAL when there is no such rule. */
static int smq_sas_rule_remove(struct smq_sas_sdev *sd, const char *buf)
{
	struct smq_sas_rule *r;
	int type, ret = -EINVAL;
	u8 opcode;

	if (sscanf(buf, "- %d %hhx", &type, &opcode) != 2)
		return -EINVAL;
	spin_lock(&sd->rules_lock);
	list_for_each_entry(r, &sd->rules, entry) {
		if (r->type == type && r->opcode == opcode) {
			list_del_rcu(&r->entry);
			kfree_rcu(r, rcu);
			ret = 0;
			break;
		}
	}
	spin_unlock(&sd->rules_lock);
	return ret;
}

/* Parse one rule line into @r.  Return: 0 or -EINVAL. */
static int smq_sas_rule_parse(const char *buf, struct smq_sas_rule *r)
{
	int type, count;
	u64 a, b;

	/* Every type has a count after it; the switch parses the rest. */
	if (sscanf(buf, "%d %d", &type, &count) != 2)
		return -EINVAL;
	switch (type) {
	case SMQ_SAS_ERR_TMOUT_CMD:
	case SMQ_SAS_ERR_ABORT_CMD_FAILED:
	case SMQ_SAS_ERR_LUN_RESET_FAILED:
	case SMQ_SAS_ERR_TARGET_RESET_FAILED:
	case SMQ_SAS_ERR_HOST_RESET_FAILED:
		if (sscanf(buf, "%d %d %hhx", &type, &count, &r->opcode) != 3)
			return -EINVAL;
		break;
	case SMQ_SAS_ERR_FAIL_QUEUE_CMD:
		if (sscanf(buf, "%d %d %hhx %x", &type, &count, &r->opcode,
			   &r->queuecmd_ret) != 4)
			return -EINVAL;
		break;
	case SMQ_SAS_ERR_FAIL_CMD:
		if (sscanf(buf, "%d %d %hhx %hhx %hhx %hhx %hhx %hhx %hhx",
			   &type, &count, &r->opcode, &r->host_byte,
			   &r->driver_byte, &r->status, &r->sense_key,
			   &r->asc, &r->ascq) != 9)
			return -EINVAL;
		break;
	case SMQ_SAS_ERR_MEDIUM:
		if (sscanf(buf, "%d %d %hhx %llu %llu", &type, &count,
			   &r->opcode, &a, &b) != 5 || !b || a + b < a)
			return -EINVAL;
		r->lba = a;
		r->nr_blocks = b;
		break;
	case SMQ_SAS_ERR_SHORT_XFER:
		if (sscanf(buf, "%d %d %hhx %llu", &type, &count, &r->opcode,
			   &b) != 4 || !b)
			return -EINVAL;
		r->nr_blocks = b;
		break;
	default:
		return -EINVAL;
	}
	r->type = type;
	atomic_set(&r->count, count);
	atomic_long_set(&r->injected, 0);
	return 0;
}

static ssize_t smq_sas_error_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct smq_sas_sdev *sd = file_inode(file)->i_private;
	struct smq_sas_rule *r;
	char *buf;
	int ret;

	if (!count || count > SMQ_SAS_RULE_MAX_LINE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	if (buf[0] == '-') {
		ret = smq_sas_rule_remove(sd, buf);
		goto out;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		ret = -ENOMEM;
		goto out;
	}
	ret = smq_sas_rule_parse(buf, r);
	if (ret)
		kfree(r);
	else
		smq_sas_rule_add(sd, r);
out:
	kfree(buf);
	return ret ? ret : count;
}

static int smq_sas_error_show(struct seq_file *m, void *v)
{
	struct smq_sas_sdev *sd = m->private;
	struct smq_sas_rule *r;

	seq_puts(m, "Type\tCount\tCommand\n");
	rcu_read_lock();
	list_for_each_entry_rcu(r, &sd->rules, entry) {
		seq_printf(m, "%d\t%d\t0x%x", r->type, atomic_read(&r->count),
			   r->opcode);
		switch (r->type) {
		case SMQ_SAS_ERR_FAIL_QUEUE_CMD:
			seq_printf(m, "\t0x%x", r->queuecmd_ret);
			break;
		case SMQ_SAS_ERR_FAIL_CMD:
			seq_printf(m, "\t0x%x 0x%x 0x%x 0x%x 0x%x 0x%x",
				   r->host_byte, r->driver_byte, r->status,
				   r->sense_key, r->asc, r->ascq);
			break;
		case SMQ_SAS_ERR_MEDIUM:
			seq_printf(m, "\t%llu %llu", r->lba, r->nr_blocks);
			break;
		case SMQ_SAS_ERR_SHORT_XFER:
			seq_printf(m, "\t%llu", r->nr_blocks);
			break;
		}
		seq_printf(m, "\tinjected=%ld\n", atomic_long_read(&r->injected));
	}
	rcu_read_unlock();
	return 0;
}

static int smq_sas_error_open(struct inode *inode, struct file *file)
{
	return single_open(file, smq_sas_error_show, inode->i_private);
}

static const struct file_operations smq_sas_error_fops = {
	.owner = THIS_MODULE,
	.open = smq_sas_error_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = smq_sas_error_write,
	.release = single_release,
};

/**
 * smq_sas_rules_debugfs - create the LUN's debugfs "error" file
 * @sd: the LUN, its debugfs directory made
 */
void smq_sas_rules_debugfs(struct smq_sas_sdev *sd)
{
	debugfs_create_file("error", 0600, sd->debugfs, sd,
			    &smq_sas_error_fops);
}

/**
 * smq_sas_rules_free - drop every rule of a LUN
 * @sd: the LUN; its debugfs files are gone and no command reads its rules
 *	any more (readers still inside an RCU section finish first: the
 *	rules are freed after a grace period)
 */
void smq_sas_rules_free(struct smq_sas_sdev *sd)
{
	struct smq_sas_rule *r, *tmp;

	spin_lock(&sd->rules_lock);
	list_for_each_entry_safe(r, tmp, &sd->rules, entry) {
		list_del_rcu(&r->entry);
		kfree_rcu(r, rcu);
	}
	spin_unlock(&sd->rules_lock);
}
