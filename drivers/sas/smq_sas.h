/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_sas internals shared by the files of drivers/sas/.
 *
 * Object model:
 *   smq_sas_config      - the validated module parameters; each host keeps
 *                         a copy, so a host never looks at module globals
 *   smq_sas_host        - one emulated HBA: a device "smq_sas_adapterN"
 *                         under the "smq_sas" root device, the smq_scsi_host
 *                         added under it, its LUNs and its reply queues
 *   smq_sas_lun         - one emulated logical unit (channel 0, target T,
 *                         LUN L) with its backing store
 *   smq_sas_reply_queue - one reply queue (= one smq hardware queue), bound
 *                         to a CPU mask the way a managed MSI-X vector is;
 *                         variables of this type are called rpq ("rq" means
 *                         a request everywhere else)
 *   smq_sas_cmd         - driver private data of every smq_scsi_cmnd
 *   smq_sas_sdev        - per midlayer LUN (sdev->hostdata): fault rules,
 *                         dropped commands, pending unit attention, the
 *                         commands still in emulation (smq_sas_eh.c)
 *   smq_sas_rule        - one fault injection rule of a LUN's debugfs
 *                         "error" file (smq_sas_rules.c)
 */
#ifndef _SMQ_SAS_H
#define _SMQ_SAS_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_poll.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <smq/scsi.h>
#include <smq/cdb.h>
#include "smq_sas_emu.h"

#define SMQ_SAS_NAME		"smq_sas"

/* Limits of the module parameters (checked at insmod) */
#define SMQ_SAS_MAX_HOSTS	64
#define SMQ_SAS_MAX_TGTS	128
#define SMQ_SAS_MAX_LUNS	256		/* peripheral addressing */
#define SMQ_SAS_MAX_DEV_SIZE_MB	(4ULL << 20)	/* 4 TiB */
#define SMQ_SAS_MAX_CAN_QUEUE	4096
#define SMQ_SAS_MAX_COMPL_NSEC	NSEC_PER_SEC
/* irq_poll's softirq reaps at most 256 completions per run, all queues together */
#define SMQ_SAS_MAX_POLL_WEIGHT	256

/* Fixed host properties */
#define SMQ_SAS_SG_TABLESIZE	128
#define SMQ_SAS_MAX_SECTORS	2048		/* 1 MiB per command */
#define SMQ_SAS_MAX_SEGMENT	(64 * 1024)
#define SMQ_SAS_MAX_UNMAP_BYTES	(64ULL << 20)	/* UNMAP, WRITE SAME */
#define SMQ_SAS_MAX_UNMAP_DESC	8		/* sd sends one */

/* INQUIRY identity of every LUN */
#define SMQ_SAS_VENDOR		"SMQ"
#define SMQ_SAS_MODEL		"smq_sas disk"
#define SMQ_SAS_REV		"0100"
/* NAA 5 company id: a locally administered CID (U/L bit set), not an OUI */
#define SMQ_SAS_NAA_CID		0x0a534dULL

/* Operation codes <smq/cdb.h> does not name */
#define SMQ_SAS_OP_VERIFY_10		0x2f
#define SMQ_SAS_OP_VERIFY_16		0x8f

/* scsi_debug's opts bits (same values); see smq_sas_fault.c */
#define SMQ_SAS_OPT_NOISE		0x1	/* accepted, ignored */
#define SMQ_SAS_OPT_MEDIUM_ERR		0x2
#define SMQ_SAS_OPT_TIMEOUT		0x4
#define SMQ_SAS_OPT_RECOVERED_ERR	0x8
#define SMQ_SAS_OPT_TRANSPORT_ERR	0x10
#define SMQ_SAS_OPT_MAC_TIMEOUT		0x80
#define SMQ_SAS_OPT_SHORT_TRANSFER	0x100
#define SMQ_SAS_OPT_RARE_TSF		0x800
#define SMQ_SAS_OPT_HOST_BUSY		0x8000
#define SMQ_SAS_OPT_CMD_ABORT		0x10000
/* Every bit scsi_debug defines (DIF/DIX, noise, N_WCE... are ignored) */
#define SMQ_SAS_OPT_ALL			0x1ffff

/* Fault rule types of the debugfs "error" file: 0-4 are scsi_debug's */
enum smq_sas_rule_type {
	SMQ_SAS_ERR_TMOUT_CMD = 0,	/* drop: never complete */
	SMQ_SAS_ERR_FAIL_QUEUE_CMD = 1,	/* queuecommand returns a value */
	SMQ_SAS_ERR_FAIL_CMD = 2,	/* host byte, status, sense */
	SMQ_SAS_ERR_ABORT_CMD_FAILED = 3,	/* eh_abort_handler fails */
	SMQ_SAS_ERR_LUN_RESET_FAILED = 4,	/* eh_device_reset_handler fails */
	SMQ_SAS_ERR_MEDIUM = 5,		/* medium error in an LBA range */
	SMQ_SAS_ERR_SHORT_XFER = 6,	/* last blocks not transferred */
	SMQ_SAS_ERR_TARGET_RESET_FAILED = 7,	/* eh_target_reset_handler fails */
	SMQ_SAS_ERR_HOST_RESET_FAILED = 8,	/* eh_host_reset_handler fails */
	SMQ_SAS_ERR_NR_TYPES
};

/* Opcode of a rule that matches every command */
#define SMQ_SAS_RULE_ANY_OPCODE		0xff

/* The REPORT LUNS well-known logical unit (SPC-4), as an integer LUN */
#define SMQ_SAS_WLUN_REPORT_LUNS	0xc101

enum smq_sas_backing {
	SMQ_SAS_BACKING_NULL,	/* no data kept, nothing copied */
	SMQ_SAS_BACKING_RAM,	/* sparse page store per LUN */
};

enum smq_sas_irqmode {
	SMQ_SAS_IRQ_NONE = 0,	/* complete inside queuecommand */
	SMQ_SAS_IRQ_SOFTIRQ = 1,/* reply-queue tasklet on a CPU of its mask */
	SMQ_SAS_IRQ_TIMER = 2,	/* per-command hrtimer, hardirq context */
	SMQ_SAS_IRQ_POLL = 3,	/* reply ring reaped by irq_poll, budgeted */
};

/**
 * struct smq_sas_config - validated parameters a host is built from
 * @num_tgts: targets per host
 * @max_luns: LUNs per target
 * @nr_blocks: capacity of each LUN in logical blocks
 * @block_shift: log2 of the logical block size
 * @backing: SMQ_SAS_BACKING_*
 * @submit_queues: reply queues = hardware queues
 * @host_tagset: one tag space shared by all reply queues
 * @can_queue: commands per reply queue, or per host with @host_tagset
 * @cmd_per_lun: default LUN queue depth
 * @irqmode: SMQ_SAS_IRQ_*
 * @completion_nsec: service time in timer and irq_poll modes
 * @poll_weight: irq_poll mode: completions reaped per poll pass at most
 * @poll_queues: of @submit_queues, the last ones are poll queues (no
 *	completion interrupt: replies wait on the queue's ring for mq_poll)
 */
struct smq_sas_config {
	unsigned int num_tgts;
	unsigned int max_luns;
	u64 nr_blocks;
	unsigned int block_shift;
	enum smq_sas_backing backing;
	unsigned int submit_queues;
	bool host_tagset;
	unsigned int can_queue;
	unsigned int cmd_per_lun;
	enum smq_sas_irqmode irqmode;
	u64 completion_nsec;
	unsigned int poll_weight;
	unsigned int poll_queues;
};

/**
 * struct smq_sas_store - sparse RAM backing (see smq_sas_store.c)
 * @pages: page index -> struct page; the xarray's lock (irq-safe)
 *	serializes inserts and erases, lookups run under RCU
 * @nr_pages: pages allocated
 */
struct smq_sas_store {
	struct xarray pages;
	atomic_long_t nr_pages;
};

/**
 * enum smq_sas_lun_stat - what the error counter log pages count
 * @SMQ_SAS_BYTES_WRITTEN: bytes of WRITE and WRITE SAME commands done
 *	(page 0x02)
 * @SMQ_SAS_BYTES_READ: bytes of READ commands done (page 0x03)
 * @SMQ_SAS_BYTES_VERIFIED: bytes of VERIFY commands done (page 0x05)
 * @SMQ_SAS_NR_LUN_STATS: how many
 */
enum smq_sas_lun_stat {
	SMQ_SAS_BYTES_WRITTEN,
	SMQ_SAS_BYTES_READ,
	SMQ_SAS_BYTES_VERIFIED,
	SMQ_SAS_NR_LUN_STATS
};

/**
 * struct smq_sas_lun_stats - one CPU's counts for the error counter log pages
 * @count: indexed by enum smq_sas_lun_stat
 *
 * Per CPU: command execution adds to its CPU's counts without a shared
 * write (smq_sas_lun_stat_add()); LOG SENSE reads the sums.
 */
struct smq_sas_lun_stats {
	u64 count[SMQ_SAS_NR_LUN_STATS];
};

/**
 * struct smq_sas_lun - one emulated logical unit
 * @host: its host
 * @target: target id
 * @lun: LUN
 * @serial: unit serial number (VPD 0x80), NUL-terminated
 * @info: what INQUIRY, READ CAPACITY and MODE SENSE report (immutable;
 *	its write_cache is only the power-on value, see @wce)
 * @wce: the caching mode page's current WCE: set by MODE SELECT with
 *	WRITE_ONCE() from command execution (no lock: one flag, the last
 *	MODE SELECT wins), read with READ_ONCE() by MODE SENSE / SELECT
 * @stats: counters of the error counter log pages, per CPU
 * @store: data, with SMQ_SAS_BACKING_RAM
 */
struct smq_sas_lun {
	struct smq_sas_host *host;
	unsigned int target;
	unsigned int lun;
	char serial[32];
	struct smq_lun_info info;
	bool wce;
	struct smq_sas_lun_stats __percpu *stats;
	struct smq_sas_store store;
};

static inline void smq_sas_lun_stat_add(struct smq_sas_lun *lun,
					enum smq_sas_lun_stat stat, u64 n)
{
	this_cpu_add(lun->stats->count[stat], n);
}

/*
 * SCSI target port identity reported by INQUIRY (TPGS: implicit ALUA),
 * VPD 0x83 and REPORT TARGET PORT GROUPS: every target is one SAS port,
 * relative port 1, alone in target port group 1, active/optimized.
 */
#define SMQ_SAS_TPGS_IMPLICIT	1
#define SMQ_SAS_TPG_ID		1
#define SMQ_SAS_REL_PORT	1

/**
 * struct smq_sas_opcode - one command smq_sas emulates
 * @opcode: operation code
 * @sa: service action, with @has_sa
 * @has_sa: the operation code has service actions; @sa is one of them
 * @cdb_len: CDB length
 * @usage: CDB usage data (REPORT SUPPORTED OPERATION CODES) of CDB bytes
 *	1..@cdb_len - 1 (the operation code and, in byte 1, the service
 *	action are added when reported): the bits the emulation accepts; a
 *	CDB with a bit set outside them is an INVALID FIELD IN CDB
 * @lun_fn: executes it on an existing LUN
 * @any_fn: executes it on any LUN address of an existing target (an
 *	absent LUN, the REPORT LUNS well-known LUN); then @lun_fn is NULL
 *
 * smq_sas_opcodes[] is the dispatch table and the source of REPORT
 * SUPPORTED OPERATION CODES, so what is reported is what is executed.
 */
struct smq_sas_opcode {
	u8 opcode;
	u8 sa;
	bool has_sa;
	u8 cdb_len;
	u8 usage[15];
	int (*lun_fn)(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
	void (*any_fn)(struct smq_sas_host *host,
		       const struct smq_lun_info *lu, bool absent,
		       struct smq_scsi_cmnd *scmd);
};

/**
 * struct smq_sas_report_luns - a precomputed REPORT LUNS payload
 * @buf: the data (LUN LIST LENGTH covers the whole list)
 * @len: bytes in @buf
 */
struct smq_sas_report_luns {
	u8 *buf;
	unsigned int len;
};

/**
 * struct smq_sas_reply_queue - one reply queue
 * @host: its host
 * @index: hardware queue index
 * @mask: CPUs this queue's "vector" is affine to (points into the host's
 *	mask array)
 * @done_list: softirq and irq_poll modes: commands completed by the
 *	"device", waiting for the reply-queue tasklet or poll (lock-free,
 *	any CPU may post)
 * @tasklet: softirq mode: completes @done_list
 * @iop: irq_poll mode: reaps @done_list, at most poll_weight per pass
 * @poll_list: irq_poll mode: replies taken off @done_list but not yet
 *	reaped, oldest first; owned by whoever holds @iop scheduled
 * @csd: softirq and irq_poll modes: IPI raising @tasklet or @iop on a CPU
 *	of @mask
 * @ipi_armed: bit 0 set while @csd is owned by an in-flight IPI; serializes
 *	users of @csd
 * @ipi_inflight: IPIs sent whose handler has not yet returned
 * @posting: irq_poll mode: posters between adding a reply to @done_list
 *	and raising the queue's "interrupt"
 * @queued: commands accepted on this queue
 * @completed: commands handed to smq_scsi_done() through this queue
 *	(incremented after the call, so queued == completed means no
 *	completion path still touches the host)
 * @ipis: IPIs sent (completions arriving on a CPU outside @mask)
 * @polls: irq_poll mode: poll passes
 * @rearms: irq_poll mode: passes that used their whole weight and left
 *	the queue scheduled for another pass
 * @poll: a poll queue (poll_queues): replies go on @done_list with no
 *	"interrupt" and are reaped only by smq_sas_mq_poll() (or, as a last
 *	resort, by a timed-out command's eh_timed_out)
 * @mq_polls: poll queue: smq_sas_mq_poll() calls
 * @mq_reaped: poll queue: commands they completed
 */
struct smq_sas_reply_queue {
	struct smq_sas_host *host;
	unsigned int index;
	const struct cpumask *mask;
	struct llist_head done_list;
	struct tasklet_struct tasklet;
	struct irq_poll iop;
	struct llist_node *poll_list;
	call_single_data_t csd;
	unsigned long ipi_armed;
	atomic_t ipi_inflight;
	atomic_t posting;
	atomic_long_t queued;
	atomic_long_t completed;
	atomic_long_t ipis;
	atomic_long_t polls;
	atomic_long_t rearms;
	bool poll;
	atomic_long_t mq_polls;
	atomic_long_t mq_reaped;
} ____cacheline_aligned_in_smp;

/**
 * struct smq_sas_eh_stats - error handler calls of a host
 * @aborts: eh_abort_handler calls
 * @abort_fails: of those, failed by a rule
 * @lun_resets: eh_device_reset_handler calls
 * @target_resets: eh_target_reset_handler calls
 * @host_resets: eh_host_reset_handler calls
 * @reset_fails: resets failed by a rule
 * @forgotten: dropped commands forgotten by aborts and resets
 * @timed_out: eh_timed_out calls that let error handling run (dropped
 *	commands)
 * @unit_attentions: UNIT ATTENTIONs reported after resets
 */
struct smq_sas_eh_stats {
	atomic_long_t aborts;
	atomic_long_t abort_fails;
	atomic_long_t lun_resets;
	atomic_long_t target_resets;
	atomic_long_t host_resets;
	atomic_long_t reset_fails;
	atomic_long_t forgotten;
	atomic_long_t timed_out;
	atomic_long_t unit_attentions;
};

/**
 * struct smq_sas_sdev - driver data of one midlayer LUN (sdev->hostdata)
 * @host: its host
 * @sdev: the midlayer LUN
 * @entry: in host->sdevs (protected by host->sdev_lock)
 * @rules_lock: serializes writers of @rules (debugfs writes, teardown);
 *	readers walk it under RCU (queuecommand may be atomic)
 * @rules: fault rules (struct smq_sas_rule), RCU list
 * @drop_lock: protects @dropped and each command's @dropped flag
 *	(irq-safe: taken by queuecommand in any context)
 * @dropped: commands taken and never to be completed (timeout faults),
 *	until an abort or a reset forgets them
 * @inflight: commands in emulation: accepted, not dropped, and not yet
 *	back from smq_scsi_done() (their completion path still runs);
 *	written twice per command by the CPUs submitting and completing on
 *	the LUN, so on a cache line of its own, away from what they read
 * @resetting: a reset is waiting for @inflight to drain; queuecommand
 *	answers SMQ_MLQUEUE_DEVICE_BUSY meanwhile
 * @ua: bit 0: a UNIT ATTENTION (29h/00h) is pending, reported on the
 *	next command other than INQUIRY, REPORT LUNS and REQUEST SENSE
 * @debugfs: debugfs smq_sas/<h:c:t:l>/, or NULL
 * @rcu: frees the structure: queuecommand (an RCU reader) may still take
 *	@drop_lock of a LUN being destroyed to unlink a reused command
 */
struct smq_sas_sdev {
	struct smq_sas_host *host;
	struct smq_scsi_device *sdev;
	struct list_head entry;
	spinlock_t rules_lock;		/* serializes writers of rules */
	struct list_head rules;
	spinlock_t drop_lock;		/* protects dropped */
	struct list_head dropped;
	bool resetting;
	unsigned long ua;
	struct dentry *debugfs;
	struct rcu_head rcu;
	atomic_t inflight ____cacheline_aligned_in_smp;
};

/**
 * struct smq_sas_rule - one fault injection rule (debugfs "error")
 * @entry: in the LUN's rules (RCU list)
 * @rcu: frees the rule after readers are gone
 * @type: SMQ_SAS_ERR_*
 * @count: > 0 inject on every match, < 0 inject -@count more times
 *	(counts up to 0), 0 never (scsi_debug's semantics)
 * @opcode: CDB opcode the rule matches, 0xff any
 * @injected: times the rule injected its fault
 * @queuecmd_ret: SMQ_SAS_ERR_FAIL_QUEUE_CMD: what queuecommand returns
 * @host_byte: SMQ_SAS_ERR_FAIL_CMD: host byte of the result
 * @driver_byte: SMQ_SAS_ERR_FAIL_CMD: parsed, shown, not used (smq has
 *	no driver byte)
 * @status: SMQ_SAS_ERR_FAIL_CMD: SAM status
 * @sense_key: SMQ_SAS_ERR_FAIL_CMD: sense key (with CHECK CONDITION)
 * @asc: SMQ_SAS_ERR_FAIL_CMD: additional sense code
 * @ascq: SMQ_SAS_ERR_FAIL_CMD: its qualifier
 * @lba: SMQ_SAS_ERR_MEDIUM: first bad block
 * @nr_blocks: SMQ_SAS_ERR_MEDIUM: bad blocks; SMQ_SAS_ERR_SHORT_XFER:
 *	blocks not transferred at the end of the command
 */
struct smq_sas_rule {
	struct list_head entry;
	struct rcu_head rcu;
	int type;
	atomic_t count;
	u8 opcode;
	atomic_long_t injected;
	int queuecmd_ret;
	u8 host_byte;
	u8 driver_byte;
	u8 status;
	u8 sense_key;
	u8 asc;
	u8 ascq;
	u64 lba;
	u64 nr_blocks;
};

/**
 * struct smq_sas_host - one emulated HBA
 * @dev: "smq_sas_adapterN", child of the root device, parent of the SCSI
 *	host; its release frees this structure
 * @entry: in the module's host list (protected by smq_sas_hosts_lock)
 * @id: N in the device name
 * @shost: the midlayer host, NULL until allocated
 * @cfg: the parameters this host was built with
 * @luns: num_tgts * max_luns units, index target * max_luns + lun
 * @wlun_info: INQUIRY data of the REPORT LUNS well-known LUN
 * @nolun_info: INQUIRY data of an absent LUN (peripheral qualifier 3)
 * @report_luns: REPORT LUNS answers for SELECT REPORT 0x00, 0x01, 0x02
 * @reply_queues: @nr_alloc reply queues, the first @nr_queues in use
 * @nr_alloc: reply queues allocated: one per CPU id, the most
 *	smq_sas_change_queues() accepts
 * @nr_queues: reply queues in use (= hardware queues); written by
 *	smq_sas_change_queues() with no command in flight
 * @masks: the CPU mask of each reply queue (smq_cpumap_spread_masks(),
 *	or the user's queue_map); empty past @nr_queues
 * @mask_ptrs: the same masks, as map_queues hands them on
 * @new_masks: scratch masks of the next change (smq_sas_change.c)
 * @prev_masks: the masks before the last change, which a rollback of
 *	that change returns to
 * @prev_nr: @nr_queues before the last change (0: no change yet)
 * @prev_spread: the masks before the last change were spread by the
 *	driver, not the user's map
 * @spread: @masks are spread by the driver, not the user's map
 * @debugfs: the host's debugfs directory, or NULL
 * @sdev_lock: protects @sdevs; held by the reset handlers while they walk
 *	it (they sleep), taken in slave_alloc / slave_destroy (under the
 *	midlayer's scan_mutex)
 * @sdevs: the smq_sas_sdev of every midlayer LUN of the host
 * @eh: error handler counters (debugfs adapterN/eh)
 */
struct smq_sas_host {
	struct device dev;
	struct list_head entry;
	int id;
	struct smq_scsi_host *shost;
	struct smq_sas_config cfg;
	struct smq_sas_lun *luns;
	struct smq_lun_info wlun_info;
	struct smq_lun_info nolun_info;
	struct smq_sas_report_luns report_luns[3];
	struct smq_sas_reply_queue *reply_queues;
	unsigned int nr_alloc;
	unsigned int nr_queues;
	cpumask_var_t *masks;
	const struct cpumask **mask_ptrs;
	cpumask_var_t *new_masks;
	cpumask_var_t *prev_masks;
	unsigned int prev_nr;
	bool prev_spread;
	bool spread;
	struct dentry *debugfs;
	struct mutex sdev_lock;		/* protects sdevs */
	struct list_head sdevs;
	struct smq_sas_eh_stats eh;
};

/* smq_sas_cmd.state */
enum smq_sas_cmd_state {
	SMQ_SAS_CMD_EMULATED = 0,	/* in emulation or completed */
	SMQ_SAS_CMD_DROPPED,	/* taken, never completes; on the dropped list */
	SMQ_SAS_CMD_FORGOTTEN,	/* dropped, then forgotten by an abort or reset */
};

/**
 * struct smq_sas_cmd - driver private data of a command (hostt cmd_size)
 * @scmd: the command this data belongs to
 * @rpq: reply queue the command completes on (set at submission)
 * @timer: timer and irq_poll modes: fires after completion_nsec
 * @node: softirq and irq_poll modes: entry in @rpq's done_list
 * @sd: the LUN's driver data, set by queuecommand (read by the completion
 *	path before smq_scsi_done(), as the command may be reused after it)
 * @drop_entry: in @sd's dropped list while @state is SMQ_SAS_CMD_DROPPED
 * @state: SMQ_SAS_CMD_*: set to EMULATED by queuecommand, changed under
 *	@sd's drop_lock afterwards; read locklessly by eh_timed_out
 * @xfer_limit: bytes READ/WRITE may move at most (fault injection: medium
 *	error, short transfer); U32_MAX otherwise
 */
struct smq_sas_cmd {
	struct smq_scsi_cmnd *scmd;
	struct smq_sas_reply_queue *rpq;
	struct hrtimer timer;
	struct llist_node node;
	struct smq_sas_sdev *sd;
	struct list_head drop_entry;
	u8 state;
	u32 xfer_limit;
};

static inline struct smq_sas_host *
smq_sas_shost_to_host(struct smq_scsi_host *shost)
{
	return *(struct smq_sas_host **)smq_shost_priv(shost);
}

static inline unsigned int smq_sas_block_size(const struct smq_sas_config *cfg)
{
	return 1U << cfg->block_shift;
}

/* smq_sas_main.c */
extern struct dentry *smq_sas_debugfs_root;

/* smq_sas_host.c */
int smq_sas_root_init(void);
void smq_sas_root_exit(void);
int smq_sas_host_add(const struct smq_sas_config *cfg);
bool smq_sas_host_remove_last(void);
unsigned int smq_sas_host_count(void);

/* smq_sas_queue.c */
int smq_sas_queues_init(struct smq_sas_host *host);
void smq_sas_queues_quiesce(struct smq_sas_host *host);
void smq_sas_queues_free(struct smq_sas_host *host);
void smq_sas_map_queues(struct smq_scsi_host *shost);
int smq_sas_mq_poll(struct smq_scsi_host *shost, unsigned int queue_num);
int smq_sas_rpq_reap(struct smq_sas_reply_queue *rpq);
int smq_sas_init_cmd_priv(struct smq_scsi_host *shost,
			  struct smq_scsi_cmnd *scmd);
void smq_sas_exit_cmd_priv(struct smq_scsi_host *shost,
			   struct smq_scsi_cmnd *scmd);
void smq_sas_complete(struct smq_sas_host *host, struct smq_scsi_cmnd *scmd);
void smq_sas_debugfs_add(struct smq_sas_host *host);
int smq_sas_spread_masks(unsigned int nr, cpumask_var_t *masks);
void smq_sas_masks_free(cpumask_var_t *masks, unsigned int nr);
bool smq_sas_rpq_idle(struct smq_sas_reply_queue *rpq);

/* smq_sas_change.c */
int smq_sas_change_queues(struct smq_scsi_host *shost, unsigned int nr,
			  const unsigned int *map);

/* smq_sas_store.c */
void smq_sas_store_init(struct smq_sas_store *s);
void smq_sas_store_destroy(struct smq_sas_store *s);
ssize_t smq_sas_store_xfer(struct smq_sas_store *s, u64 pos,
			   struct scatterlist *sgl, unsigned int nents,
			   size_t len, bool to_store);
void smq_sas_store_discard(struct smq_sas_store *s, u64 pos, u64 len);
int smq_sas_store_fill(struct smq_sas_store *s, u64 pos, u64 nr_blocks,
		       struct scatterlist *sgl, unsigned int nents,
		       unsigned int blksz);
bool smq_sas_store_mapped(struct smq_sas_store *s, unsigned long idx,
			  unsigned long end, unsigned long *next);

/* smq_sas_cmd.c */
void smq_sas_execute(struct smq_sas_host *host, struct smq_scsi_cmnd *scmd);
int smq_sas_luns_init(struct smq_sas_host *host);
void smq_sas_luns_free(struct smq_sas_host *host);
int smq_sas_queuecommand(struct smq_scsi_host *shost,
			 struct smq_scsi_cmnd *scmd);
void smq_sas_check_condition(struct smq_scsi_cmnd *scmd, u8 key,
			     u16 asc_ascq);
void smq_sas_good(struct smq_scsi_cmnd *scmd);

void smq_sas_invalid_field(struct smq_scsi_cmnd *scmd);
void smq_sas_data_in(struct smq_scsi_cmnd *scmd, const void *buf,
		     unsigned int len);
int smq_sas_cmd_good(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_read_capacity(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
void smq_sas_inquiry(struct smq_sas_host *host, const struct smq_lun_info *lu,
		     bool absent, struct smq_scsi_cmnd *scmd);
void smq_sas_report_luns(struct smq_sas_host *host,
			 const struct smq_lun_info *lu, bool absent,
			 struct smq_scsi_cmnd *scmd);
void smq_sas_request_sense(struct smq_sas_host *host,
			   const struct smq_lun_info *lu, bool absent,
			   struct smq_scsi_cmnd *scmd);

/* smq_sas_opcodes.c: the command table, REPORT SUPPORTED OPERATION CODES */
int smq_sas_opcodes_check(void);
const struct smq_sas_opcode *smq_sas_opcode_find(const u8 *cdb,
						 unsigned int len,
						 u16 *asc_ascq);
int smq_sas_report_opcodes(struct smq_sas_lun *lun,
			   struct smq_scsi_cmnd *scmd);

/* smq_sas_mode.c: MODE SENSE, MODE SELECT, REPORT TARGET PORT GROUPS */
int smq_sas_mode_sense(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_mode_select(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_report_tpgs(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);

/* smq_sas_log.c: LOG SENSE */
int smq_sas_log_sense(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);

/* smq_sas_lba.c: GET LBA STATUS */
int smq_sas_get_lba_status(struct smq_sas_lun *lun,
			   struct smq_scsi_cmnd *scmd);

/* smq_sas_rw.c: media access commands; return 0 or SMQ_MLQUEUE_* */
int smq_sas_rw(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_verify(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_sync_cache(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_unmap(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);
int smq_sas_write_same(struct smq_sas_lun *lun, struct smq_scsi_cmnd *scmd);

/* smq_sas_fault.c: every_nth, opts, medium_error_*; the fault path */
extern bool smq_sas_fault_on;
int smq_sas_fault_queuecommand(struct smq_sas_host *host,
			       struct smq_sas_sdev *sd,
			       struct smq_scsi_cmnd *scmd);

/* smq_sas_rules.c: the debugfs "error" rules of a LUN */
struct smq_sas_rule *smq_sas_rule_find(struct smq_sas_sdev *sd, int type,
				       u8 opcode);
struct smq_sas_rule *smq_sas_rule_find_range(struct smq_sas_sdev *sd,
					     u8 opcode, u64 lba, u64 nr,
					     u64 *bad);
bool smq_sas_rule_hit(struct smq_sas_rule *rule);
void smq_sas_rules_debugfs(struct smq_sas_sdev *sd);
void smq_sas_rules_free(struct smq_sas_sdev *sd);

/* smq_sas_eh.c: LUN data, dropped commands, unit attention, EH callbacks */
int smq_sas_slave_alloc(struct smq_scsi_device *sdev);
int smq_sas_slave_configure(struct smq_scsi_device *sdev);
void smq_sas_slave_destroy(struct smq_scsi_device *sdev);
void smq_sas_drop(struct smq_sas_sdev *sd, struct smq_scsi_cmnd *scmd);
void smq_sas_undrop(struct smq_sas_cmd *c);
void smq_sas_eh_init(struct smq_sas_host *host);
void smq_sas_eh_debugfs(struct smq_sas_host *host);
enum smq_eh_timer_return smq_sas_eh_timed_out(struct smq_scsi_cmnd *scmd);
int smq_sas_eh_abort(struct smq_scsi_cmnd *scmd);
int smq_sas_eh_device_reset(struct smq_scsi_cmnd *scmd);
int smq_sas_eh_target_reset(struct smq_scsi_cmnd *scmd);
int smq_sas_eh_host_reset(struct smq_scsi_cmnd *scmd);

/* Bit of smq_sas_sdev.ua */
#define SMQ_SAS_UA_POR		0

/**
 * smq_sas_sdev_enter - account a command entering emulation
 * @sd: the LUN's data (NULL: nothing to account)
 *
 * Return: 0, or SMQ_MLQUEUE_DEVICE_BUSY while a reset of the LUN waits for
 * its commands to drain.
 */
static inline int smq_sas_sdev_enter(struct smq_sas_sdev *sd)
{
	if (!sd)
		return 0;
	atomic_inc(&sd->inflight);
	/* Pairs with smp_mb() in smq_sas_sdev_quiesce(). */
	smp_mb__after_atomic();
	if (likely(!READ_ONCE(sd->resetting)))
		return 0;
	atomic_dec(&sd->inflight);
	return SMQ_MLQUEUE_DEVICE_BUSY;
}

/**
 * smq_sas_sdev_exit - a command left emulation
 * @sd: the value of its smq_sas_cmd.sd read before smq_scsi_done()
 *
 * The last access to @sd of the completion path: slave_destroy waits for
 * @sd->inflight to reach 0 before freeing it.
 */
static inline void smq_sas_sdev_exit(struct smq_sas_sdev *sd)
{
	if (sd) {
		/* The command's accesses come before a reset sees it leave. */
		smp_mb__before_atomic();
		atomic_dec(&sd->inflight);
	}
}

/**
 * smq_sas_fault_armed - may the fault path have something to do
 * @sd: the LUN's data or NULL
 *
 * Return: true when a module-wide fault parameter is set, the LUN has
 * rules, or a unit attention is pending.
 */
static inline bool smq_sas_fault_armed(struct smq_sas_sdev *sd)
{
	return READ_ONCE(smq_sas_fault_on) ||
	       (sd && (READ_ONCE(sd->ua) || !list_empty(&sd->rules)));
}

#endif /* _SMQ_SAS_H */
