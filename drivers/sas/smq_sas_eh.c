// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas LUN data and error handling: the per-LUN driver data
 * (slave_alloc / slave_configure / slave_destroy), the commands fault
 * injection dropped, unit attentions, and the error handler callbacks of
 * the host template.
 *
 * Every midlayer LUN gets a struct smq_sas_sdev (sdev->hostdata) in
 * slave_alloc, on the host's sdevs list, and a debugfs directory
 * smq_sas/<h:c:t:l>/ with the "error" rules file in slave_configure (LUNs
 * found present only).  slave_destroy, after the LUN's queue is gone,
 * removes the directory, waits for the tails of completion paths
 * (inflight), frees the rules and the data.
 *
 * Commands: queuecommand counts a command in its LUN's inflight until its
 * completion path is back from smq_scsi_done() (smq_sas_sdev_enter() /
 * _exit()).  A command fault injection drops is moved from inflight to the
 * LUN's dropped list (state DROPPED): the emulated device will never
 * complete it.
 *
 * Error handling, as a disk and an HBA would:
 *  - eh_timed_out: a command in emulation gets more time (it completes
 *    within completion_nsec); a dropped or forgotten one goes to the
 *    midlayer's error handler (SMQ_EH_DONE);
 *  - eh_abort_handler: a dropped command is taken off its list (FORGOTTEN);
 *    a command still in emulation is waited for; rule 3 fails it first;
 *  - eh_device_reset_handler, eh_target_reset_handler,
 *    eh_host_reset_handler: for every LUN of the scope (one LUN, the LUNs
 *    of H:C:T, all LUNs of the host), new commands are refused
 *    (SMQ_MLQUEUE_DEVICE_BUSY) until the commands in emulation have come
 *    back, every dropped command is forgotten (the midlayer reclaims the
 *    commands a successful reset killed), and a UNIT ATTENTION, POWER ON,
 *    RESET, OR BUS DEVICE RESET OCCURRED (29h/00h) is armed for the LUN's
 *    next command; rules 4, 7, 8 fail them first, with nothing done.
 * After SMQ_EH_SUCCESS the driver never touches the command again, nor any
 * command of the scope it did not complete.  Counters: debugfs
 * smq_sas/adapterN/eh.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <smq/scsi.h>

#include "smq_sas.h"

/* ---- LUN data ---------------------------------------------------------- */

static unsigned int smq_sas_sdev_forget(struct smq_sas_sdev *sd);

/**
 * smq_sas_slave_alloc - set up a LUN's driver data (template hook)
 * @sdev: the new LUN, before its first command
 *
 * Return: 0 or -ENOMEM.
 */
int smq_sas_slave_alloc(struct smq_scsi_device *sdev)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(sdev->host);
	struct smq_sas_sdev *sd;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->host = host;
	sd->sdev = sdev;
	spin_lock_init(&sd->rules_lock);
	INIT_LIST_HEAD(&sd->rules);
	spin_lock_init(&sd->drop_lock);
	INIT_LIST_HEAD(&sd->dropped);
	atomic_set(&sd->inflight, 0);
	mutex_lock(&host->sdev_lock);
	list_add_tail(&sd->entry, &host->sdevs);
	mutex_unlock(&host->sdev_lock);
	sdev->hostdata = sd;
	return 0;
}

/**
 * smq_sas_slave_configure - a LUN was found: its debugfs rules (template hook)
 * @sdev: the LUN
 *
 * Creates smq_sas/<h:c:t:l>/error; debugfs failures are ignored.
 *
 * Return: 0.
 */
int smq_sas_slave_configure(struct smq_scsi_device *sdev)
{
	struct smq_sas_sdev *sd = sdev->hostdata;

	if (!sd || sd->debugfs || IS_ERR_OR_NULL(smq_sas_debugfs_root))
		return 0;
	sd->debugfs = debugfs_create_dir(dev_name(&sdev->sdev_gendev),
					 smq_sas_debugfs_root);
	if (IS_ERR(sd->debugfs)) {
		sd->debugfs = NULL;
		return 0;
	}
	smq_sas_rules_debugfs(sd);
	return 0;
}

/**
 * smq_sas_slave_destroy - free a LUN's driver data (template hook)
 * @sdev: the LUN; its queue is gone, every command ended
 */
void smq_sas_slave_destroy(struct smq_scsi_device *sdev)
{
	struct smq_sas_sdev *sd = sdev->hostdata;
	struct smq_sas_host *host;

	if (!sd)
		return;
	host = sd->host;
	/* Waits for the error file's readers and writers. */
	debugfs_remove_recursive(sd->debugfs);
	sd->debugfs = NULL;
	mutex_lock(&host->sdev_lock);
	list_del(&sd->entry);
	mutex_unlock(&host->sdev_lock);
	/* A completion path may still be returning from smq_scsi_done(). */
	while (atomic_read(&sd->inflight))
		usleep_range(20, 50);
	/* Dropped commands the midlayer gave up on (LUN set offline). */
	smq_sas_sdev_forget(sd);
	smq_sas_rules_free(sd);
	sdev->hostdata = NULL;
	/* queuecommand of a reused command may still hold sd->drop_lock. */
	kfree_rcu(sd, rcu);
}

/**
 * smq_sas_undrop - unlink a command the midlayer gave up on while dropped
 * @c: the command, state SMQ_SAS_CMD_DROPPED when looked at; its @c->sd
 *	is alive (caller in an RCU read section, or the LUN not destroyed)
 *
 * When every recovery step failed the midlayer ends the command and may
 * reuse it, for any LUN of the host: it leaves its old LUN's dropped list
 * when it is issued again (or freed).
 */
void smq_sas_undrop(struct smq_sas_cmd *c)
{
	struct smq_sas_sdev *sd = c->sd;
	unsigned long flags;

	spin_lock_irqsave(&sd->drop_lock, flags);
	if (c->state == SMQ_SAS_CMD_DROPPED) {
		list_del_init(&c->drop_entry);
		WRITE_ONCE(c->state, SMQ_SAS_CMD_FORGOTTEN);
	}
	spin_unlock_irqrestore(&sd->drop_lock, flags);
}

/**
 * smq_sas_drop - keep a command that will never complete
 * @sd: its LUN's data
 * @scmd: the command, counted in @sd->inflight
 *
 * The command goes on the LUN's dropped list, then leaves inflight: a
 * reset that saw inflight drain finds it on the list.
 */
void smq_sas_drop(struct smq_sas_sdev *sd, struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	unsigned long flags;

	spin_lock_irqsave(&sd->drop_lock, flags);
	list_add_tail(&c->drop_entry, &sd->dropped);
	WRITE_ONCE(c->state, SMQ_SAS_CMD_DROPPED);
	spin_unlock_irqrestore(&sd->drop_lock, flags);
	smq_sas_sdev_exit(sd);
}

/* ---- resets ------------------------------------------------------------ */

/* Refuse new commands of the LUN from now on. */
static void smq_sas_sdev_block(struct smq_sas_sdev *sd)
{
	WRITE_ONCE(sd->resetting, true);
	/* Pairs with smp_mb__after_atomic() in smq_sas_sdev_enter(). */
	smp_mb();
}

/* Wait until no command of the LUN is in emulation (blocked first). */
static void smq_sas_sdev_drain(struct smq_sas_sdev *sd)
{
	while (atomic_read(&sd->inflight))
		usleep_range(20, 50);
	/* What the completion paths did is seen from here on. */
	smp_mb();
}

static void smq_sas_sdev_unblock(struct smq_sas_sdev *sd)
{
	WRITE_ONCE(sd->resetting, false);
}

/*
 * Forget every dropped command of a blocked, drained LUN.  They are still
 * the midlayer's: after a reset that succeeded it reclaims every command of
 * the scope still in flight (smq_eh_reclaim()), and one it gave up on
 * (LUN offline) is only taken off the list.  Return: how many.
 */
static unsigned int smq_sas_sdev_forget(struct smq_sas_sdev *sd)
{
	struct smq_sas_cmd *c, *tmp;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&sd->drop_lock, flags);
	list_for_each_entry_safe(c, tmp, &sd->dropped, drop_entry) {
		list_del_init(&c->drop_entry);
		WRITE_ONCE(c->state, SMQ_SAS_CMD_FORGOTTEN);
		n++;
	}
	spin_unlock_irqrestore(&sd->drop_lock, flags);
	return n;
}

/* Does @sd fall in the scope of a reset for @scmd? */
enum smq_sas_scope {
	SMQ_SAS_SCOPE_LUN,
	SMQ_SAS_SCOPE_TARGET,
	SMQ_SAS_SCOPE_HOST,
};

static bool smq_sas_in_scope(const struct smq_sas_sdev *sd,
			     const struct smq_scsi_device *sdev,
			     enum smq_sas_scope scope)
{
	switch (scope) {
	case SMQ_SAS_SCOPE_LUN:
		return sd->sdev == sdev;
	case SMQ_SAS_SCOPE_TARGET:
		return sd->sdev->channel == sdev->channel &&
		       sd->sdev->id == sdev->id;
	default:
		return true;
	}
}

/*
 * Reset the LUNs of a scope: block them all, drain each, forget their
 * dropped commands, arm a unit attention, unblock.  Takes host->sdev_lock.
 * Return: commands forgotten.
 */
static unsigned int smq_sas_reset_scope(struct smq_sas_host *host,
					const struct smq_scsi_device *sdev,
					enum smq_sas_scope scope)
{
	struct smq_sas_sdev *sd;
	unsigned int n = 0;

	mutex_lock(&host->sdev_lock);
	list_for_each_entry(sd, &host->sdevs, entry)
		if (smq_sas_in_scope(sd, sdev, scope))
			smq_sas_sdev_block(sd);
	list_for_each_entry(sd, &host->sdevs, entry) {
		if (!smq_sas_in_scope(sd, sdev, scope))
			continue;
		smq_sas_sdev_drain(sd);
		n += smq_sas_sdev_forget(sd);
		set_bit(SMQ_SAS_UA_POR, &sd->ua);
		smq_sas_sdev_unblock(sd);
	}
	mutex_unlock(&host->sdev_lock);
	atomic_long_add(n, &host->eh.forgotten);
	return n;
}

/* Does a rule of @type fail this error handler step for @scmd? */
static bool smq_sas_eh_rule_fails(struct smq_scsi_cmnd *scmd, int type)
{
	struct smq_sas_sdev *sd = scmd->device->hostdata;
	struct smq_sas_rule *r;
	bool fail;

	if (!sd || list_empty(&sd->rules))
		return false;
	rcu_read_lock();
	r = smq_sas_rule_find(sd, type, scmd->cmnd[0]);
	fail = r && smq_sas_rule_hit(r);
	rcu_read_unlock();
	return fail;
}

/* ---- the template's error handler callbacks ---------------------------- */

/**
 * smq_sas_eh_timed_out - a command's timeout expired (template hook)
 * @scmd: the command
 *
 * Return: SMQ_EH_DONE for a dropped or forgotten command, which the
 * emulated device will never complete; SMQ_EH_RESET_TIMER for one in
 * emulation, which completes within completion_nsec (plus scheduling
 * delays): waiting beats racing it in error handling.
 */
enum smq_eh_timer_return smq_sas_eh_timed_out(struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	struct smq_sas_sdev *sd = scmd->device->hostdata;

	if (READ_ONCE(c->state) == SMQ_SAS_CMD_EMULATED) {
		/*
		 * On a poll queue whose poller went away (its disk was
		 * deleted under it), only this reaps the reply: complete
		 * what the ring holds, this command's completion is then
		 * delivered when the timer is reset (as nvme's timeout
		 * polls its queue).
		 */
		if (c->rpq && c->rpq->poll)
			smq_sas_rpq_reap(c->rpq);
		return SMQ_EH_RESET_TIMER;
	}
	if (sd)
		atomic_long_inc(&sd->host->eh.timed_out);
	return SMQ_EH_DONE;
}

/**
 * smq_sas_eh_abort - abort one command (template hook)
 * @scmd: a timed-out command
 *
 * A dropped command is forgotten; a command still in emulation is waited
 * for (its LUN refuses new commands meanwhile).  A rule of type 3 for the
 * command's opcode fails the abort and leaves the command where it is.
 *
 * Return: SMQ_EH_SUCCESS (the driver will never touch @scmd again) or
 * SMQ_EH_FAILED.
 */
int smq_sas_eh_abort(struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	struct smq_sas_sdev *sd = scmd->device->hostdata;
	struct smq_sas_host *host = smq_sas_shost_to_host(scmd->device->host);
	unsigned long flags;
	u8 state;

	atomic_long_inc(&host->eh.aborts);
	if (smq_sas_eh_rule_fails(scmd, SMQ_SAS_ERR_ABORT_CMD_FAILED)) {
		atomic_long_inc(&host->eh.abort_fails);
		return SMQ_EH_FAILED;
	}
	if (!sd)
		return SMQ_EH_SUCCESS;
	spin_lock_irqsave(&sd->drop_lock, flags);
	state = c->state;
	if (state == SMQ_SAS_CMD_DROPPED) {
		list_del_init(&c->drop_entry);
		WRITE_ONCE(c->state, SMQ_SAS_CMD_FORGOTTEN);
	}
	spin_unlock_irqrestore(&sd->drop_lock, flags);
	if (state == SMQ_SAS_CMD_DROPPED) {
		atomic_long_inc(&host->eh.forgotten);
	} else if (state == SMQ_SAS_CMD_EMULATED) {
		/* Its completion path must be over before we say so. */
		mutex_lock(&host->sdev_lock);
		smq_sas_sdev_block(sd);
		smq_sas_sdev_drain(sd);
		smq_sas_sdev_unblock(sd);
		mutex_unlock(&host->sdev_lock);
	}
	return SMQ_EH_SUCCESS;
}

/*
 * One reset step: count it, fail it when a rule of @rule_type says so
 * (nothing is reset then), else reset every LUN of @scope.
 */
static int smq_sas_eh_reset(struct smq_scsi_cmnd *scmd, atomic_long_t *count,
			    int rule_type, enum smq_sas_scope scope,
			    struct device *dev, const char *what)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(scmd->device->host);
	unsigned int n;

	atomic_long_inc(count);
	if (smq_sas_eh_rule_fails(scmd, rule_type)) {
		atomic_long_inc(&host->eh.reset_fails);
		return SMQ_EH_FAILED;
	}
	n = smq_sas_reset_scope(host, scmd->device, scope);
	dev_info(dev, "%s reset: %u dropped command(s) forgotten\n", what, n);
	return SMQ_EH_SUCCESS;
}

/**
 * smq_sas_eh_device_reset - LOGICAL UNIT RESET (template hook)
 * @scmd: the command being recovered; its LUN is reset
 *
 * Return: SMQ_EH_SUCCESS, or SMQ_EH_FAILED when a rule of type 4 says so
 * (nothing is reset then).
 */
int smq_sas_eh_device_reset(struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(scmd->device->host);

	return smq_sas_eh_reset(scmd, &host->eh.lun_resets,
				SMQ_SAS_ERR_LUN_RESET_FAILED, SMQ_SAS_SCOPE_LUN,
				&scmd->device->sdev_gendev, "LUN");
}

/**
 * smq_sas_eh_target_reset - reset the command's target (template hook)
 * @scmd: the command being recovered; every LUN of its H:C:T is reset
 *
 * Return: SMQ_EH_SUCCESS, or SMQ_EH_FAILED when a rule of type 7 says so.
 */
int smq_sas_eh_target_reset(struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(scmd->device->host);

	return smq_sas_eh_reset(scmd, &host->eh.target_resets,
				SMQ_SAS_ERR_TARGET_RESET_FAILED,
				SMQ_SAS_SCOPE_TARGET,
				&scmd->device->sdev_gendev, "target");
}

/**
 * smq_sas_eh_host_reset - reset the HBA (template hook)
 * @scmd: the command being recovered; every LUN of its host is reset
 *
 * Return: SMQ_EH_SUCCESS, or SMQ_EH_FAILED when a rule of type 8 (of the
 * command's LUN) says so.
 */
int smq_sas_eh_host_reset(struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_host *host = smq_sas_shost_to_host(scmd->device->host);

	return smq_sas_eh_reset(scmd, &host->eh.host_resets,
				SMQ_SAS_ERR_HOST_RESET_FAILED,
				SMQ_SAS_SCOPE_HOST, &host->dev, "host");
}

/* ---- host setup and debugfs -------------------------------------------- */

/**
 * smq_sas_eh_init - initialize a new host's LUN list and counters
 * @host: the host, zeroed
 */
void smq_sas_eh_init(struct smq_sas_host *host)
{
	mutex_init(&host->sdev_lock);
	INIT_LIST_HEAD(&host->sdevs);
}

static int smq_sas_eh_stats_show(struct seq_file *m, void *v)
{
	struct smq_sas_host *host = m->private;
	const struct smq_sas_eh_stats *e = &host->eh;

	seq_printf(m, "timed_out %ld\n", atomic_long_read(&e->timed_out));
	seq_printf(m, "aborts %ld\n", atomic_long_read(&e->aborts));
	seq_printf(m, "abort_fails %ld\n", atomic_long_read(&e->abort_fails));
	seq_printf(m, "lun_resets %ld\n", atomic_long_read(&e->lun_resets));
	seq_printf(m, "target_resets %ld\n",
		   atomic_long_read(&e->target_resets));
	seq_printf(m, "host_resets %ld\n", atomic_long_read(&e->host_resets));
	seq_printf(m, "reset_fails %ld\n", atomic_long_read(&e->reset_fails));
	seq_printf(m, "forgotten %ld\n", atomic_long_read(&e->forgotten));
	seq_printf(m, "unit_attentions %ld\n",
		   atomic_long_read(&e->unit_attentions));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(smq_sas_eh_stats);

/**
 * smq_sas_eh_debugfs - create debugfs smq_sas/adapterN/eh
 * @host: the host, its debugfs directory made (or NULL: nothing done)
 */
void smq_sas_eh_debugfs(struct smq_sas_host *host)
{
	if (IS_ERR_OR_NULL(host->debugfs))
		return;
	debugfs_create_file("eh", 0444, host->debugfs, host,
			    &smq_sas_eh_stats_fops);
}
