// SPDX-License-Identifier: GPL-2.0
/*
 * smq_sas fault injection: scsi_debug's every_nth, opts, medium_error_start
 * and medium_error_count module parameters (same names, bits and
 * semantics, writable at run time), and queuecommand's fault path, which
 * applies them together with the LUN's debugfs rules (smq_sas_rules.c) and
 * a unit attention pending after a reset (smq_sas_eh.c).
 *
 * The fault path runs only while something is armed (smq_sas_fault_armed()),
 * in scsi_debug 6.12's order (scsi_debug_queuecommand()):
 *  1. with every_nth != 0 every command is counted (module-wide, all hosts);
 *     the command is "the nth" when the count is a multiple of |every_nth|;
 *  2. the nth with opts HOST_BUSY: SMQ_MLQUEUE_HOST_BUSY;
 *  3. rules 0 (drop), 1 (queuecommand returns a value), 2 (fail);
 *  4. the nth sets the module-wide "inject pending" flag, which the next
 *     command able to carry the fault of an opts bit consumes;
 *  5. a pending UNIT ATTENTION (not for INQUIRY, REPORT LUNS, REQUEST SENSE);
 *  6. the nth: every_nth < -1 becomes -1 (from now on every command is the
 *     nth); opts TIMEOUT drops it, MAC_TIMEOUT drops a media access command;
 *  7. execution: opts MEDIUM_ERR (READs touching medium_error_start ..
 *     + medium_error_count - 1), rule 5 (MEDIUM ERROR in a range), opts
 *     SHORT_TRANSFER (a pending READ moves half its blocks), rule 6;
 *  8. on a GOOD result: opts RECOVERED_ERR (a pending READ / WRITE ends
 *     with RECOVERED ERROR, data moved), TRANSPORT_ERR (a pending command
 *     ends with ABORTED COMMAND, ACK/NAK TIMEOUT), RARE_TSF (the nth
 *     command finding its LUN full ends with TASK SET FULL), CMD_ABORT (a
 *     pending command is dropped and timed out at once, as scsi_debug's
 *     blk_abort_request()).
 * A dropped command is kept on its LUN's dropped list: eh_timed_out hands
 * it to the error handler, whose abort or reset forgets it.
 *
 * The parameters are read with READ_ONCE() by queuecommand; writes run
 * under the module's kernel_param_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/string.h>
#include <smq/cdb.h>
#include <smq/scsi.h>
#include <smq/sense.h>

#include "smq_sas.h"

/* Sense codes <smq/sense.h> does not name (scsi_debug's) */
#define SMQ_SAS_ASC_THRESHOLD_EXCEEDED	0x5d00	/* RECOVERED_ERR */
#define SMQ_SAS_ASC_ACK_NAK_TIMEOUT	0x4b03	/* TRANSPORT_ERR */

/* scsi_debug's defaults: block 0x1234 (4660) and the 9 after it */
static int smq_sas_every_nth;
static unsigned int smq_sas_opts;
static unsigned int smq_sas_medium_error_start = 0x1234;
static unsigned int smq_sas_medium_error_count = 10;

/* Commands counted while every_nth != 0 (scsi_debug's sdebug_cmnd_count) */
static atomic_t smq_sas_cmnd_count = ATOMIC_INIT(0);
/* The nth command happened; the next command able to fail consumes it */
static atomic_t smq_sas_inject_pending = ATOMIC_INIT(0);
/* RARE_TSF: full-LUN commands seen since the last TASK SET FULL */
static atomic_t smq_sas_a_tsf = ATOMIC_INIT(0);

/* every_nth != 0 or opts MEDIUM_ERR: queuecommand takes the fault path */
bool smq_sas_fault_on;

static void smq_sas_fault_update(void)
{
	WRITE_ONCE(smq_sas_fault_on, READ_ONCE(smq_sas_every_nth) ||
		   (READ_ONCE(smq_sas_opts) & SMQ_SAS_OPT_MEDIUM_ERR));
}

/*
 * scsi_debug's tweak_cmnd_count(): round the count down to a multiple of
 * |every_nth|, so that |every_nth| - 1 commands pass before the next nth.
 */
static void smq_sas_tweak_count(void)
{
	unsigned int n = abs(READ_ONCE(smq_sas_every_nth));
	unsigned int count;

	if (n < 2)
		return;
	count = atomic_read(&smq_sas_cmnd_count);
	atomic_set(&smq_sas_cmnd_count, count / n * n);
}

/* Length of @val without its trailing newline, for error messages. */
static int smq_sas_param_len(const char *val)
{
	return strcspn(val, "\n");
}

static int smq_sas_every_nth_set(const char *val, const struct kernel_param *kp)
{
	int n;

	if (kstrtoint(val, 0, &n) || n == INT_MIN) {
		pr_err("every_nth: invalid value '%.*s' (an int above %d)\n",
		       smq_sas_param_len(val), val, INT_MIN);
		return -EINVAL;
	}
	WRITE_ONCE(smq_sas_every_nth, n);
	smq_sas_fault_update();
	smq_sas_tweak_count();
	return 0;
}

static const struct kernel_param_ops smq_sas_every_nth_ops = {
	.set = smq_sas_every_nth_set,
	.get = param_get_int,
};
module_param_cb(every_nth, &smq_sas_every_nth_ops, &smq_sas_every_nth, 0644);
MODULE_PARM_DESC(every_nth,
		 "inject the faults of opts on every nth command (default 0: never; -n: from the nth on, on every command)");

static int smq_sas_opts_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || (v & ~SMQ_SAS_OPT_ALL)) {
		pr_err("opts: invalid value '%.*s' (bits of 0x%x)\n",
		       smq_sas_param_len(val), val, SMQ_SAS_OPT_ALL);
		return -EINVAL;
	}
	WRITE_ONCE(smq_sas_opts, v);
	smq_sas_fault_update();
	smq_sas_tweak_count();
	return 0;
}

static const struct kernel_param_ops smq_sas_opts_ops = {
	.set = smq_sas_opts_set,
	.get = param_get_uint,
};
module_param_cb(opts, &smq_sas_opts_ops, &smq_sas_opts, 0644);
MODULE_PARM_DESC(opts,
		 "scsi_debug's opts bits: 2 medium error, 4 timeout, 8 recovered error, 0x10 transport error, 0x80 media access timeout, 0x100 short transfer, 0x800 rare TASK SET FULL, 0x8000 host busy, 0x10000 command abort (default 0)");

static int smq_sas_uint_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v)) {
		pr_err("%s: invalid value '%.*s' (0..%u)\n", kp->name,
		       smq_sas_param_len(val), val, UINT_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops smq_sas_uint_ops = {
	.set = smq_sas_uint_set,
	.get = param_get_uint,
};
module_param_cb(medium_error_start, &smq_sas_uint_ops,
		&smq_sas_medium_error_start, 0644);
MODULE_PARM_DESC(medium_error_start,
		 "first block of the opts=2 medium error (default 4660 = 0x1234)");
module_param_cb(medium_error_count, &smq_sas_uint_ops,
		&smq_sas_medium_error_count, 0644);
MODULE_PARM_DESC(medium_error_count,
		 "blocks of the opts=2 medium error (default 10)");

/* ---- the fault path ---------------------------------------------------- */

static bool smq_sas_is_rw(u8 op)
{
	switch (op) {
	case SMQ_OP_READ_6:
	case SMQ_OP_READ_10:
	case SMQ_OP_READ_12:
	case SMQ_OP_READ_16:
	case SMQ_OP_WRITE_6:
	case SMQ_OP_WRITE_10:
	case SMQ_OP_WRITE_12:
	case SMQ_OP_WRITE_16:
		return true;
	default:
		return false;
	}
}

/* Media access commands (scsi_debug's MAC_TIMEOUT applies to these). */
static bool smq_sas_is_media(u8 op)
{
	switch (op) {
	case SMQ_SAS_OP_VERIFY_10:
	case SMQ_SAS_OP_VERIFY_16:
	case SMQ_OP_WRITE_SAME_10:
	case SMQ_OP_WRITE_SAME_16:
	case SMQ_OP_UNMAP:
	case SMQ_OP_SYNCHRONIZE_CACHE_10:
	case SMQ_OP_SYNCHRONIZE_CACHE_16:
		return true;
	default:
		return smq_sas_is_rw(op);
	}
}

/* CHECK CONDITION with fixed sense, INFORMATION = @info when @valid. */
static void smq_sas_fault_sense(struct smq_scsi_cmnd *scmd, u8 key,
				u16 asc_ascq, bool valid, u64 info)
{
	int n;

	if (valid)
		n = smq_sense_build_info(scmd->sense_buffer,
					 sizeof(scmd->sense_buffer), false, key,
					 asc_ascq, info);
	else
		n = smq_sense_build(scmd->sense_buffer,
				    sizeof(scmd->sense_buffer), false, key,
				    asc_ascq);
	scmd->sense_len = n > 0 ? n : 0;
	smq_scsi_set_result(scmd, SMQ_DID_OK, SMQ_SAM_STAT_CHECK_CONDITION);
}

/* Rule 2: the rule's host byte and status, sense with CHECK CONDITION. */
static void smq_sas_fail_cmd(struct smq_scsi_cmnd *scmd,
			     const struct smq_sas_rule *r)
{
	scmd->resid = scmd->transfer_len;
	scmd->sense_len = 0;
	if (r->status == SMQ_SAM_STAT_CHECK_CONDITION)
		smq_sas_fault_sense(scmd, r->sense_key, r->asc << 8 | r->ascq,
				    false, 0);
	smq_scsi_set_result(scmd, r->host_byte, r->status);
}

/* What queuecommand may return for a rule 1 value: the midlayer's two. */
static int smq_sas_queue_ret(int ret)
{
	/* Linux's SCSI_MLQUEUE_TARGET_BUSY (0x1058) is a LUN-level busy too. */
	if (ret == SMQ_MLQUEUE_DEVICE_BUSY || ret == 0x1058)
		return SMQ_MLQUEUE_DEVICE_BUSY;
	return SMQ_MLQUEUE_HOST_BUSY;
}

/* Consume the module-wide pending injection.  Return: it was pending. */
static bool smq_sas_take_pending(void)
{
	return atomic_read(&smq_sas_inject_pending) &&
	       atomic_xchg(&smq_sas_inject_pending, 0);
}

/**
 * struct smq_sas_media_fault - how a READ / WRITE is cut short
 * @medium: a medium error at block @bad
 * @bad: first bad block
 * @limit: bytes the command may move (U32_MAX: all)
 */
struct smq_sas_media_fault {
	bool medium;
	u64 bad;
	u32 limit;
};

/* Step 7's decisions for a READ / WRITE. */
static void smq_sas_media_fault(struct smq_sas_host *host,
				struct smq_sas_sdev *sd,
				struct smq_scsi_cmnd *scmd, unsigned int opts,
				struct smq_sas_media_fault *f)
{
	unsigned int shift = host->cfg.block_shift;
	struct smq_cdb_rw_info rw;
	struct smq_sas_rule *r;
	u64 start, count;

	f->medium = false;
	f->limit = U32_MAX;
	if (smq_cdb_decode_rw(scmd->cmnd, scmd->cmd_len, &rw) || !rw.nr_blocks)
		return;

	start = READ_ONCE(smq_sas_medium_error_start);
	count = READ_ONCE(smq_sas_medium_error_count);
	if ((opts & SMQ_SAS_OPT_MEDIUM_ERR) && !rw.write && count &&
	    rw.lba < start + count && start < rw.lba + rw.nr_blocks) {
		f->medium = true;
		f->bad = max(rw.lba, start);
	}
	rcu_read_lock();
	if (!f->medium) {
		r = smq_sas_rule_find_range(sd, scmd->cmnd[0], rw.lba,
					    rw.nr_blocks, &f->bad);
		f->medium = r && smq_sas_rule_hit(r);
	}
	if (f->medium) {
		f->limit = (f->bad - rw.lba) << shift;
	} else if ((opts & SMQ_SAS_OPT_SHORT_TRANSFER) && !rw.write &&
		   smq_sas_take_pending()) {
		f->limit = (rw.nr_blocks / 2) << shift;
	} else {
		r = smq_sas_rule_find(sd, SMQ_SAS_ERR_SHORT_XFER, scmd->cmnd[0]);
		if (r && smq_sas_rule_hit(r))
			f->limit = (rw.nr_blocks - min_t(u64, r->nr_blocks,
							 rw.nr_blocks)) << shift;
	}
	rcu_read_unlock();
}

/* Step 8: faults of a command that went well so far. */
static bool smq_sas_fault_after(struct smq_sas_sdev *sd,
				struct smq_scsi_cmnd *scmd, unsigned int opts,
				int nth)
{
	struct smq_scsi_device *sdev = scmd->device;
	u8 op = scmd->cmnd[0];

	if ((opts & SMQ_SAS_OPT_RECOVERED_ERR) && smq_sas_is_rw(op) &&
	    smq_sas_take_pending()) {
		/* The data moved; the disk only reports a recovered error. */
		smq_sas_fault_sense(scmd, SMQ_SK_RECOVERED_ERROR,
				    SMQ_SAS_ASC_THRESHOLD_EXCEEDED, false, 0);
		return false;
	}
	if ((opts & SMQ_SAS_OPT_TRANSPORT_ERR) && smq_sas_take_pending()) {
		smq_sas_fault_sense(scmd, SMQ_SK_ABORTED_COMMAND,
				    SMQ_SAS_ASC_ACK_NAK_TIMEOUT, false, 0);
		scmd->resid = scmd->transfer_len;
		return false;
	}
	if (nth && (opts & SMQ_SAS_OPT_RARE_TSF) &&
	    atomic_read(&sdev->device_busy) >= sdev->queue_depth &&
	    atomic_inc_return(&smq_sas_a_tsf) >= abs(nth)) {
		atomic_set(&smq_sas_a_tsf, 0);
		scmd->resid = scmd->transfer_len;
		scmd->sense_len = 0;
		smq_scsi_set_result(scmd, SMQ_DID_ABORT,
				    SMQ_SAM_STAT_TASK_SET_FULL);
		return false;
	}
	/* Dropped, and handed to the error handler at once. */
	return (opts & SMQ_SAS_OPT_CMD_ABORT) && smq_sas_take_pending();
}

/*
 * Steps 3 and 5 (the rules of queuecommand, a unit attention).  Return:
 * -1 nothing injected, 0 the command was dropped or has its result, or
 * what queuecommand returns.
 */
static int smq_sas_fault_rules(struct smq_sas_sdev *sd,
			       struct smq_scsi_cmnd *scmd, bool *done)
{
	u8 op = scmd->cmnd[0];
	struct smq_sas_rule *r;
	int ret = -1;

	*done = false;
	if (list_empty(&sd->rules))
		return -1;
	rcu_read_lock();
	r = smq_sas_rule_find(sd, SMQ_SAS_ERR_TMOUT_CMD, op);
	if (r && smq_sas_rule_hit(r)) {
		ret = 0;
		goto out;
	}
	r = smq_sas_rule_find(sd, SMQ_SAS_ERR_FAIL_QUEUE_CMD, op);
	if (r && r->queuecmd_ret && smq_sas_rule_hit(r)) {
		ret = smq_sas_queue_ret(r->queuecmd_ret);
		goto out;
	}
	r = smq_sas_rule_find(sd, SMQ_SAS_ERR_FAIL_CMD, op);
	if (r && smq_sas_rule_hit(r)) {
		smq_sas_fail_cmd(scmd, r);
		*done = true;
		ret = 0;
	}
out:
	rcu_read_unlock();
	return ret;
}

/* A pending unit attention, reported by every command but these. */
static bool smq_sas_fault_ua(struct smq_sas_sdev *sd,
			     struct smq_scsi_cmnd *scmd)
{
	u8 op = scmd->cmnd[0];

	if (!READ_ONCE(sd->ua) || op == SMQ_OP_INQUIRY ||
	    op == SMQ_OP_REPORT_LUNS || op == SMQ_OP_REQUEST_SENSE ||
	    !test_and_clear_bit(SMQ_SAS_UA_POR, &sd->ua))
		return false;
	scmd->resid = scmd->transfer_len;
	smq_sas_fault_sense(scmd, SMQ_SK_UNIT_ATTENTION,
			    SMQ_ASC_POWER_ON_RESET, false, 0);
	atomic_long_inc(&sd->host->eh.unit_attentions);
	return true;
}

/**
 * smq_sas_fault_queuecommand - queuecommand with fault injection armed
 * @host: the host
 * @sd: the LUN's data (the command is counted in its inflight)
 * @scmd: the command
 *
 * Return: 0 (completed, or dropped), or the busy value an injected fault
 * returns (the command is then not the driver's).
 */
int smq_sas_fault_queuecommand(struct smq_sas_host *host,
			       struct smq_sas_sdev *sd,
			       struct smq_scsi_cmnd *scmd)
{
	struct smq_sas_cmd *c = smq_scsi_cmd_priv(scmd);
	int nth = READ_ONCE(smq_sas_every_nth);
	unsigned int opts = READ_ONCE(smq_sas_opts);
	struct smq_sas_media_fault f = { .limit = U32_MAX };
	bool nth_now = false, done, rw;
	int ret;

	if (nth)
		nth_now = (unsigned int)atomic_inc_return(&smq_sas_cmnd_count) %
			  abs(nth) == 0;
	if (nth_now && (opts & SMQ_SAS_OPT_HOST_BUSY)) {
		ret = SMQ_MLQUEUE_HOST_BUSY;
		goto refuse;
	}

	ret = smq_sas_fault_rules(sd, scmd, &done);
	if (ret > 0)
		goto refuse;
	if (!ret) {
		if (done)
			goto complete;
		goto drop;
	}

	if (nth_now && !atomic_read(&smq_sas_inject_pending))
		atomic_set(&smq_sas_inject_pending, 1);

	if (smq_sas_fault_ua(sd, scmd))
		goto complete;

	if (nth_now) {
		if (nth < -1)
			WRITE_ONCE(smq_sas_every_nth, -1);
		if ((opts & SMQ_SAS_OPT_TIMEOUT) ||
		    ((opts & SMQ_SAS_OPT_MAC_TIMEOUT) &&
		     smq_sas_is_media(scmd->cmnd[0])))
			goto drop;
	}

	rw = smq_sas_is_rw(scmd->cmnd[0]);
	if (rw)
		smq_sas_media_fault(host, sd, scmd, opts, &f);
	c->xfer_limit = f.limit;
	smq_sas_execute(host, scmd);
	c->xfer_limit = U32_MAX;

	if (scmd->result)
		goto complete;
	if (f.medium) {
		/* The blocks before the bad one moved: resid says so. */
		smq_sas_fault_sense(scmd, SMQ_SK_MEDIUM_ERROR,
				    rw && (scmd->sc_data_direction ==
					   DMA_TO_DEVICE) ?
				    SMQ_ASC_WRITE_ERROR :
				    SMQ_ASC_UNRECOVERED_READ, true, f.bad);
		goto complete;
	}
	if (smq_sas_fault_after(sd, scmd, opts, nth)) {
		smq_sas_drop(sd, scmd);
		smq_abort_request(smq_scsi_cmd_to_rq(scmd));
		return 0;
	}
complete:
	smq_sas_complete(host, scmd);
	return 0;
drop:
	smq_sas_drop(sd, scmd);
	return 0;
refuse:
	smq_sas_sdev_exit(sd);
	return ret;
}
