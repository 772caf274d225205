/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_scsi public API: the SCSI midlayer as seen by low-level drivers
 * (smq_sas, smq_iser, smq_virtio).  The host template is the seam between the
 * midlayer and a driver, like struct scsi_host_template in Linux.
 *
 * Object model:
 *   struct smq_scsi_host    - one HBA / iSCSI session; owns one smq_tag_set
 *   struct smq_scsi_device  - one LUN (H:C:T:L); owns one smq_queue and,
 *                             for disks, the sd-style gendisk
 *   struct smq_scsi_cmnd    - driver data of each smq_request; the
 *                             template's cmd_size bytes follow it
 *   struct smq_scsi_target  - one target (H:C:T), parent of its LUNs
 *
 * Driver contract (see also Documentation/scsi.md):
 *  - ->queuecommand(shost, cmd) is called with the command fully prepared
 *    (CDB, direction, scatterlist, transfer_len) and its request started.
 *    It returns 0 when it took the command, or SMQ_MLQUEUE_HOST_BUSY /
 *    SMQ_MLQUEUE_DEVICE_BUSY when it cannot take it now (the midlayer
 *    retries later; the driver must then not touch the command again).
 *    It must not sleep: it runs in the block layer's dispatch, which may
 *    be atomic.
 *  - For every command it took, the driver calls smq_scsi_done(cmd) once,
 *    from any context, after setting cmd->result (host byte << 16 | SAM
 *    status), cmd->resid and, with CHECK CONDITION, cmd->sense_buffer /
 *    cmd->sense_len.  It may call it from inside ->queuecommand.  After
 *    smq_scsi_done() the command belongs to the midlayer again: it may
 *    already be reused by the time smq_scsi_done() returns.
 *  - Timeouts: when a command's timeout expires the midlayer calls
 *    ->eh_timed_out (optional; SMQ_EH_RESET_TIMER gives it another
 *    period).  Otherwise exactly one of the driver's completion and the
 *    timeout wins (the block layer's claim on the request): a
 *    smq_scsi_done() that loses is ignored.  When the timeout wins, the
 *    midlayer's error handler (process context, one action at a time per
 *    host) blocks the command's LUN and escalates, stopping at the first
 *    step that returns SMQ_EH_SUCCESS and passes a TEST UNIT READY:
 *    ->eh_abort_handler(cmd), ->eh_device_reset_handler(cmd) (LUN),
 *    ->eh_target_reset_handler(cmd) (the target's LUNs blocked),
 *    ->eh_host_reset_handler(cmd) (host state recovery), else the LUN goes
 *    offline.  SMQ_EH_SUCCESS from an abort promises that the driver has
 *    forgotten the command: it will never touch its data or call
 *    smq_scsi_done() for it again.  From a reset it promises the same for
 *    every command of that LUN / target / host it did not complete: the
 *    midlayer reclaims them (finished with DID_RESET, retried per
 *    cmd->allowed).  The error handler then sends TEST UNIT READY itself
 *    through ->queuecommand with the timed-out command (its CDB replaced,
 *    no data); the driver completes it with smq_scsi_done() as any
 *    command.  If it does not within the LUN's eh_timeout, the next step
 *    runs and its SMQ_EH_SUCCESS covers that TEST UNIT READY as well.
 *    If every step fails the LUN goes offline and the command fails; the
 *    driver must still never complete it afterwards.
 *  - Generations: every start of a request bumps its generation.  A driver
 *    that may complete a command late (after a timeout it did not see, or
 *    after an abort it answered SMQ_EH_FAILED to) reads
 *    smq_scsi_cmd_gen(cmd) in ->queuecommand and completes with
 *    smq_scsi_done_gen(cmd, gen): a completion of an earlier incarnation
 *    is ignored instead of finishing the command's reissue.
 *    smq_scsi_done() trusts the driver to never complete late.
 *  - Completion passes: a driver that reaps several commands in one pass
 *    (a reply queue's softirq, irq_poll or poll) may complete each with
 *    smq_scsi_done_batch(cmd, &b) on a zeroed struct smq_comp_batch b and
 *    end the pass with smq_comp_batch_flush(&b): commands that ended GOOD
 *    with all their data then end together (bios, budgets, tags); others are
 *    completed at once as by smq_scsi_done().  The command may be reused
 *    once the batch is flushed.
 *  - Transport down: smq_scsi_block_host() holds every command of the host
 *    back (none reaches ->queuecommand, none is re-polled) until as many
 *    smq_scsi_unblock_host() calls; a driver that gives up waiting unblocks
 *    and fails commands with SMQ_DID_TRANSPORT_FAILFAST.
 *  - smq_scsi_remove_host() returns once every command has completed; the
 *    driver keeps completing commands until then.
 */
#ifndef _SMQ_SCSI_H
#define _SMQ_SCSI_H

#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <smq/blk.h>

#define SMQ_MAX_CDB		32
#define SMQ_SENSE_BUFFERSIZE	96
/*
 * Scatterlist entries kept in every command.  A request with more segments
 * gets a chained list from the kernel's sg pools for its lifetime.
 */
#define SMQ_INLINE_SG_CNT	2
/* The midlayer's own data of a command: an UNMAP header + one descriptor */
#define SMQ_PAYLOAD_BYTES	24

/* Return values of ->queuecommand besides 0 */
#define SMQ_MLQUEUE_HOST_BUSY	0x1055
#define SMQ_MLQUEUE_DEVICE_BUSY	0x1056

/* Host byte of smq_scsi_cmnd.result (bits 16..23); status is bits 0..7 */
enum smq_host_byte {
	SMQ_DID_OK = 0x00,
	SMQ_DID_NO_CONNECT = 0x01,
	SMQ_DID_BUS_BUSY = 0x02,
	SMQ_DID_TIME_OUT = 0x03,
	SMQ_DID_BAD_TARGET = 0x04,
	SMQ_DID_ABORT = 0x05,
	SMQ_DID_ERROR = 0x07,
	SMQ_DID_RESET = 0x08,
	SMQ_DID_REQUEUE = 0x0d,
	SMQ_DID_TRANSPORT_DISRUPTED = 0x0e,
	SMQ_DID_TRANSPORT_FAILFAST = 0x0f,
};

/* Error handler return values */
#define SMQ_EH_SUCCESS	0x2002
#define SMQ_EH_FAILED	0x2003

struct smq_scsi_host;
struct smq_scsi_device;

/**
 * struct smq_scsi_cmnd - one SCSI command (driver data of an smq_request)
 * @device: the LUN
 * @cmnd: CDB
 * @cmd_len: CDB length
 * @sg_nents: entries allocated for @sgl: above SMQ_INLINE_SG_CNT, a chained
 *	table from the sg pools (midlayer)
 * @sc_data_direction: DMA_TO_DEVICE, DMA_FROM_DEVICE or DMA_NONE
 * @sgl: data scatterlist, @sg_count entries.  It may be chained: walk it
 *	with sg_next(), for_each_sg(), sg_miter or sg_copy_*(), never as an
 *	array.  Valid from ->queuecommand until smq_scsi_done().
 * @sg_count: entries used in @sgl
 * @transfer_len: bytes to transfer
 * @resid: bytes not transferred, set by the driver
 * @result: host byte << 16 | SAM status, set by the driver
 * @sense_buffer: sense data, set by the driver with CHECK CONDITION
 * @sense_len: valid bytes in @sense_buffer
 * @retries: retries so far
 * @allowed: retries allowed
 * @jiffies_at_alloc: when the command was first prepared
 * @state: SMQ_SCMD_STATE_* bits (midlayer)
 * @eh_work: the error handler's work for this command (midlayer)
 * @eh_seq: its LUN's @eh_reset_seq when it timed out: a reset since then
 *	already killed and recovered it (midlayer)
 * @host_tag: its bit in the host's @host_tags while it holds a host slot,
 *	when the host counts them (midlayer; smq_scsi_cmd_queue_tag())
 * @inline_sgl: the first entries of @sgl (midlayer)
 * @payload: data the midlayer itself sends (UNMAP parameter list); in the
 *	kernel's direct map like the whole request (midlayer)
 */
struct smq_scsi_cmnd {
	struct smq_scsi_device *device;
	u8 cmnd[SMQ_MAX_CDB];
	unsigned short cmd_len;
	unsigned short sg_nents;
	enum dma_data_direction sc_data_direction;
	struct scatterlist *sgl;
	unsigned int sg_count;
	unsigned int transfer_len;
	unsigned int resid;
	int result;
	u8 sense_buffer[SMQ_SENSE_BUFFERSIZE];
	unsigned int sense_len;
	int retries;
	int allowed;
	unsigned long jiffies_at_alloc;
	unsigned long state;
	struct work_struct eh_work;
	unsigned int eh_seq;
	unsigned int host_tag;
	struct scatterlist inline_sgl[SMQ_INLINE_SG_CNT];
	u8 payload[SMQ_PAYLOAD_BYTES];
};

/* smq_scsi_cmnd.state bits */
#define SMQ_SCMD_STATE_INFLIGHT	0	/* handed to ->queuecommand */
#define SMQ_SCMD_STATE_EH	1	/* the error handler's TEST UNIT READY */
#define SMQ_SCMD_STATE_TRANSPORT_DOWN 2	/* its TEST UNIT READY failed fast:
					 * the host's transport is gone
					 */

/**
 * struct smq_host_template - what a low-level driver provides
 * @module: owner (pinned while hosts exist)
 * @name: driver name
 * @queuecommand: start a command; return 0, or SMQ_MLQUEUE_HOST_BUSY /
 *	SMQ_MLQUEUE_DEVICE_BUSY to have it retried later.  The driver later
 *	calls smq_scsi_done() exactly once per accepted command, from any
 *	context (hard/soft irq, timer, process).
 * @map_queues: fill shost->tag_set.map (CPU -> hardware queue) from the
 *	driver's reply-queue affinity; NULL: spread evenly
 * @change_queues: run @nr reply queues from now on (hostN/nr_hw_queues,
 *	hostN/queue_map written).  @map (nr_cpu_ids entries, CPU -> queue)
 *	binds each reply queue to the CPUs mapped to it; NULL: the driver
 *	binds them as it likes, and @map_queues is called afterwards.
 *	Called with every LUN queue of the host drained and stopped (no
 *	command in flight, none issued) and the host's scan_mutex held;
 *	returns 0 or a negative errno having changed nothing.  Returning to
 *	the configuration it ran before (the rollback of a failed change)
 *	must not fail.  NULL: the host's queues are fixed.
 * @mq_poll: reap the replies of hardware queue @queue_num, one of the
 *	host's poll queues (@nr_poll_queues), and smq_scsi_done() them in
 *	the calling task (a poll queue raises no completion interrupt);
 *	returns how many it completed.  Called from the polling task
 *	(io_uring IOPOLL), possibly by several tasks at once for one queue,
 *	inside an RCU read-side section: must not sleep.  Required when the
 *	host has poll queues (Linux's scsi_host_template.mq_poll).
 * @eh_timed_out: a command's timeout expired; SMQ_EH_RESET_TIMER to wait
 *	more, SMQ_EH_DONE to let the midlayer's error handling run
 * @eh_abort_handler: abort one command (SMQ_EH_SUCCESS / SMQ_EH_FAILED)
 * @eh_device_reset_handler: reset a LUN (the LUN of the command)
 * @eh_target_reset_handler: reset the target of the command (all its
 *	LUNs); SMQ_EH_SUCCESS promises that the driver has forgotten every
 *	command of that target it did not complete
 * @eh_host_reset_handler: reset the host
 * @slave_alloc: a LUN was found; set up per-LUN data (sdev->hostdata)
 * @slave_configure: the LUN was scanned; adjust queue depth etc.
 * @slave_destroy: the LUN goes away
 * @init_cmd_priv: set up the driver private data of a preallocated command
 * @exit_cmd_priv: undo @init_cmd_priv
 * @can_queue: commands the host accepts at once (tag depth)
 * @cmd_per_lun: default queue depth of a LUN
 * @sg_tablesize: scatterlist entries per command
 * @max_sectors: largest command in 512 B sectors
 * @max_segment_size: largest segment in bytes
 * @virt_boundary_mask: segments of a command end and start only on this
 *	boundary (mask + 1 bytes) except at its two ends, as a memory
 *	registration of a page list needs; 0: any scatterlist
 * @cmd_size: driver private bytes per command (smq_scsi_cmd_priv())
 * @nr_reserved_cmds: tags kept for internal commands
 * @max_hw_queues: most reply queues @change_queues accepts (capped at
 *	nr_cpu_ids); 0: the host's queues are fixed
 * @shost_groups: extra sysfs attributes of the host
 * @sdev_groups: extra sysfs attributes of each LUN
 */
struct smq_host_template {
	struct module *module;
	const char *name;
	int (*queuecommand)(struct smq_scsi_host *shost, struct smq_scsi_cmnd *cmd);
	void (*map_queues)(struct smq_scsi_host *shost);
	int (*change_queues)(struct smq_scsi_host *shost, unsigned int nr,
			     const unsigned int *map);
	int (*mq_poll)(struct smq_scsi_host *shost, unsigned int queue_num);
	enum smq_eh_timer_return (*eh_timed_out)(struct smq_scsi_cmnd *cmd);
	int (*eh_abort_handler)(struct smq_scsi_cmnd *cmd);
	int (*eh_device_reset_handler)(struct smq_scsi_cmnd *cmd);
	int (*eh_target_reset_handler)(struct smq_scsi_cmnd *cmd);
	int (*eh_host_reset_handler)(struct smq_scsi_cmnd *cmd);
	int (*slave_alloc)(struct smq_scsi_device *sdev);
	int (*slave_configure)(struct smq_scsi_device *sdev);
	void (*slave_destroy)(struct smq_scsi_device *sdev);
	int (*init_cmd_priv)(struct smq_scsi_host *shost, struct smq_scsi_cmnd *cmd);
	void (*exit_cmd_priv)(struct smq_scsi_host *shost, struct smq_scsi_cmnd *cmd);
	int can_queue;
	unsigned short cmd_per_lun;
	unsigned short sg_tablesize;
	unsigned int max_sectors;
	unsigned int max_segment_size;
	unsigned long virt_boundary_mask;
	unsigned int cmd_size;
	unsigned int nr_reserved_cmds;
	unsigned int max_hw_queues;
	const struct attribute_group **shost_groups;
	const struct attribute_group **sdev_groups;
};

enum smq_host_state {
	SMQ_HOST_CREATED = 1,
	SMQ_HOST_RUNNING,
	SMQ_HOST_RECOVERY,
	SMQ_HOST_DEL,
	SMQ_HOST_CANCEL,	/* removal started: no new scans, I/O drains */
};

/**
 * struct smq_scsi_host - one host adapter
 * @hostt: driver template
 * @host_no: unique number (hostN)
 * @shost_gendev: the host's device (parent of targets and LUNs)
 * @shost_dev: class device under /sys/class/smq_host/hostN
 * @tag_set: block layer tag set shared by all LUNs of the host
 * @host_lock: protects @__devices, @starved_list, @shost_state and, when
 *	the block layer's tags are per LUN queue (smq_set_tags_shared()
 *	false: the legacy path), @host_busy and @host_tags
 * @__devices: LUNs of the host
 * @starved_list: LUNs waiting for a host slot
 * @shost_state: SMQ_HOST_*
 * @host_busy: commands outstanding, counted when the block layer's tags
 *	are per LUN queue (the mq path counts busy tags instead)
 * @host_tags: then, the host-wide tags of those commands (can_queue bits,
 *	one per @host_busy), which smq_scsi_cmd_queue_tag() gives the
 *	driver; NULL on the mq path
 * @host_wait: error handling waits here
 * @can_queue: copy of the template's, may be changed by the driver before
 *	smq_scsi_add_host()
 * @cmd_per_lun: likewise
 * @sg_tablesize: likewise
 * @max_sectors: likewise
 * @nr_hw_queues: hardware (reply) queues exposed to the block layer,
 *	poll queues included; changed later only through hostN/nr_hw_queues
 *	(under @scan_mutex)
 * @nr_poll_queues: of @nr_hw_queues, the last ones are poll queues (set
 *	by the driver before smq_scsi_add_host(); needs @mq_poll and the mq
 *	path; fixed for the host's life: hostN/nr_hw_queues and queue_map
 *	refuse changes then).  Linux: shost->nr_maps and the tag set's
 *	HCTX_TYPE_POLL map.
 * @host_tagset: one host-wide tag space shared by all hardware queues
 * @max_channel: highest channel number
 * @max_id: targets per channel (ids 0..max_id-1)
 * @max_lun: LUNs per target (0..max_lun-1)
 * @this_id: id of the host itself, -1 none
 * @max_segment_size: likewise (bytes)
 * @virt_boundary_mask: likewise
 * @nr_reserved_cmds: likewise
 * @scan_mutex: serializes scanning, LUN addition and removal
 * @targets: targets of the host (protected by @scan_mutex)
 * @eh_wq: ordered workqueue running the error handler of this host
 * @eh_active: error handler actions queued or running
 * @host_eh_scheduled: timed-out commands handled since the host was added
 * @eh_deadline: seconds the error handler may spend on a host before it
 *	skips to host reset (then offline); -1: no deadline (sysfs
 *	eh_deadline)
 * @eh_start: jiffies when the error handler last went from idle to busy
 *	(the start of @eh_deadline)
 * @eh_cmd_done: completed by smq_scsi_done() of the error handler's own
 *	TEST UNIT READY (one at a time: @eh_wq is ordered)
 * @transport_blocked: smq_scsi_block_host() calls not yet ended by
 *	smq_scsi_unblock_host(): while non-zero no command is dispatched to
 *	the driver (its transport is down) and the LUNs read "blocked"
 * @hostdata: driver private data (smq_shost_priv())
 */
struct smq_scsi_host {
	const struct smq_host_template *hostt;
	unsigned int host_no;
	struct device shost_gendev;
	struct device shost_dev;
	struct smq_tag_set tag_set;
	spinlock_t host_lock;		/* devices, starved list, state */
	struct list_head __devices;
	struct list_head starved_list;
	enum smq_host_state shost_state;
	unsigned int host_busy;
	unsigned long *host_tags;
	wait_queue_head_t host_wait;
	int can_queue;
	unsigned short cmd_per_lun;
	unsigned short sg_tablesize;
	unsigned int max_sectors;
	unsigned int nr_hw_queues;
	unsigned int nr_poll_queues;
	bool host_tagset;
	unsigned int max_channel;
	unsigned int max_id;
	u64 max_lun;
	int this_id;
	unsigned int max_segment_size;
	unsigned long virt_boundary_mask;
	unsigned int nr_reserved_cmds;
	struct mutex scan_mutex;	/* serializes scan, LUN add/remove */
	struct list_head targets;
	struct workqueue_struct *eh_wq;
	atomic_t eh_active;
	atomic_t host_eh_scheduled;
	int eh_deadline;
	unsigned long eh_start;
	struct completion eh_cmd_done;
	atomic_t transport_blocked;
	unsigned long hostdata[] __aligned(sizeof(unsigned long));
};

enum smq_sdev_state {
	SMQ_SDEV_CREATED = 1,
	SMQ_SDEV_RUNNING,
	SMQ_SDEV_BLOCK,
	SMQ_SDEV_OFFLINE,
	SMQ_SDEV_DEL,
	SMQ_SDEV_CANCEL,	/* removal started: passthrough only, disk I/O fails */
};

/**
 * struct smq_scsi_target - one target (H:C:T)
 * @dev: "targetH:C:T", child of the host, parent of its LUNs
 * @host: its host
 * @channel: channel number
 * @id: target id
 * @entry: entry in host->targets
 * @nr_luns: LUNs added under it (protected by host->scan_mutex)
 * @added: @dev is in sysfs
 */
struct smq_scsi_target {
	struct device dev;
	struct smq_scsi_host *host;
	unsigned int channel;
	unsigned int id;
	struct list_head entry;
	unsigned int nr_luns;
	bool added;
};

/**
 * enum smq_sdev_io_count - command counts of a LUN (sysfs)
 * @SMQ_SDEV_IOREQUEST: commands issued (iorequest_cnt)
 * @SMQ_SDEV_IODONE: commands completed (iodone_cnt)
 * @SMQ_SDEV_IOERR: commands completed with an error (ioerr_cnt)
 * @SMQ_SDEV_NR_IO_COUNTS: how many
 */
enum smq_sdev_io_count {
	SMQ_SDEV_IOREQUEST,
	SMQ_SDEV_IODONE,
	SMQ_SDEV_IOERR,
	SMQ_SDEV_NR_IO_COUNTS
};

/**
 * struct smq_sdev_io_counts - one CPU's command counts of a LUN
 * @count: indexed by enum smq_sdev_io_count; 32 bits, so that the sums
 *	wrap as Linux's atomic_t counters do
 */
struct smq_sdev_io_counts {
	unsigned int count[SMQ_SDEV_NR_IO_COUNTS];
};

/**
 * struct smq_scsi_device - one logical unit
 * @host: its host
 * @channel: channel number
 * @id: target id
 * @lun: logical unit number
 * @sdev_gendev: the LUN's device, named "H:C:T:L"; parent of its disk
 * @queue: its block layer queue
 * @siblings: entry in host->__devices
 * @starved_entry: entry in host->starved_list
 * @queue_depth: limit on @device_busy (lowered by TASK SET FULL, raised
 *	back by the ramp up); written without a lock, racing writers are
 *	benign (each writes a depth in 1..@max_queue_depth)
 * @max_queue_depth: the depth the driver or the user set (sysfs
 *	queue_depth); the ramp up stops there
 * @queue_ramp_up_period: jiffies without TASK SET FULL before the depth
 *	goes up by one (sysfs queue_ramp_up_period, ms)
 * @last_queue_full_time: jiffies of the last TASK SET FULL
 * @last_queue_ramp_up: jiffies of the last ramp up (or down)
 * @eh_timeout: timeout of the error handler's TEST UNIT READY, jiffies
 *	(sysfs eh_timeout, seconds)
 * @eh_reset_seq: resets (LUN, target, host) that succeeded for this LUN;
 *	written by the error handler only
 * @eh_blocked: recoveries that block this LUN (its own, or its target's);
 *	->queue_rq dispatches nothing to it while non-zero
 * @sdev_state: SMQ_SDEV_*
 * @type: peripheral device type (0: disk)
 * @scsi_level: SPC version + 1, as Linux counts
 * @vendor: INQUIRY vendor, NUL-terminated
 * @model: INQUIRY product, NUL-terminated
 * @rev: INQUIRY revision, NUL-terminated
 * @io_counts: commands issued, completed and failed, per CPU (sysfs
 *	iorequest_cnt, iodone_cnt, ioerr_cnt: the sums)
 * @hostdata: driver per-LUN data
 * @disk: the sd-style disk driver's data, or NULL
 * @ng: its generic character device (/dev/smq-ng/H:C:T:L), or NULL
 * @sdev_target: its target
 * @timeout: command timeout in jiffies (sysfs "timeout", seconds)
 * @sg_timeout: default SG_IO timeout in jiffies (SG_SET_TIMEOUT)
 * @queue_rwsem: held for reading while an ioctl uses @queue, for writing
 *	while removal destroys it (@queue is NULL afterwards)
 * @inquiry: standard INQUIRY data (kmalloc'ed), @inquiry_len bytes
 * @inquiry_len: valid bytes in @inquiry
 * @vpd_pg80: VPD page 0x80 (unit serial number) or NULL
 * @vpd_pg80_len: its length
 * @vpd_pg83: VPD page 0x83 (device identification) or NULL
 * @vpd_pg83_len: its length
 * @vpd_pages: VPD pages the LUN lists in page 0x00 (bit per page of
 *	0x80, 0x83, 0xb0, 0xb1, 0xb2: SMQ_VPD_HAS_*)
 * @is_visible: sdev_gendev was added to sysfs
 * @offline_logged: "rejecting I/O to offline device" was printed
 * @device_busy: commands outstanding; written twice per command by every
 *	CPU that submits to or completes on the LUN, so on a cache line of
 *	its own, away from the fields they only read
 */
struct smq_scsi_device {
	struct smq_scsi_host *host;
	unsigned int channel;
	unsigned int id;
	u64 lun;
	struct device sdev_gendev;
	struct smq_queue *queue;
	struct list_head siblings;
	struct list_head starved_entry;
	unsigned int queue_depth;
	unsigned int max_queue_depth;
	unsigned int queue_ramp_up_period;
	unsigned long last_queue_full_time;
	unsigned long last_queue_ramp_up;
	unsigned int eh_timeout;
	unsigned int eh_reset_seq;
	atomic_t eh_blocked;
	enum smq_sdev_state sdev_state;
	u8 type;
	u8 scsi_level;
	char vendor[9];
	char model[17];
	char rev[5];
	struct smq_sdev_io_counts __percpu *io_counts;
	void *hostdata;
	void *disk;
	struct smq_ng *ng;
	struct smq_scsi_target *sdev_target;
	unsigned int timeout;
	unsigned int sg_timeout;
	struct rw_semaphore queue_rwsem;
	u8 *inquiry;
	unsigned int inquiry_len;
	u8 *vpd_pg80;
	unsigned int vpd_pg80_len;
	u8 *vpd_pg83;
	unsigned int vpd_pg83_len;
	unsigned int vpd_pages;
	bool is_visible;
	bool offline_logged;
	atomic_t device_busy ____cacheline_aligned_in_smp;
};

/* smq_scsi_device.vpd_pages */
#define SMQ_VPD_HAS_80		BIT(0)
#define SMQ_VPD_HAS_83		BIT(1)
#define SMQ_VPD_HAS_B0		BIT(2)
#define SMQ_VPD_HAS_B1		BIT(3)
#define SMQ_VPD_HAS_B2		BIT(4)

/**
 * smq_shost_priv - driver private data of a host
 * @shost: the host
 *
 * Return: the privsize bytes given to smq_scsi_host_alloc().
 */
static inline void *smq_shost_priv(struct smq_scsi_host *shost)
{
	return shost->hostdata;
}

/**
 * smq_scsi_cmd_priv - driver private data of a command
 * @cmd: the command
 *
 * Return: the host template's cmd_size bytes that follow the command.
 */
static inline void *smq_scsi_cmd_priv(struct smq_scsi_cmnd *cmd)
{
	return cmd + 1;
}

/**
 * smq_scsi_cmd_to_rq - block layer request carrying a command
 * @cmd: the command
 *
 * Return: the request.
 */
static inline struct smq_request *smq_scsi_cmd_to_rq(struct smq_scsi_cmnd *cmd)
{
	return smq_rq_from_pdu(cmd);
}

/**
 * smq_scsi_cmd_hwq - hardware queue a command was dispatched on
 * @cmd: the command
 *
 * A driver with several reply queues completes the command on this one.
 *
 * Return: the hardware queue index (0 on the legacy path).
 */
u16 smq_scsi_cmd_hwq(struct smq_scsi_cmnd *cmd);

/**
 * smq_scsi_host_hw_queues - the hardware queues the block layer runs now
 * @shost: an added host
 *
 * @shost->nr_hw_queues asked for them; the block layer may run fewer
 * (one for a legacy host).
 *
 * Return: the count, poll queues included.
 */
static inline unsigned int smq_scsi_host_hw_queues(const struct smq_scsi_host *shost)
{
	return READ_ONCE(shost->tag_set.nr_hw_queues);
}

/**
 * smq_scsi_cmd_queue_tag - the command's tag on its hardware queue
 * @cmd: a command ->queuecommand was given, until it is done
 *
 * Unique among the host's commands in flight on the same hardware queue
 * (smq_scsi_cmd_hwq()), below can_queue + nr_reserved_cmds: an index into
 * the driver's per-queue command slots.
 *
 * Return: the tag.
 */
u32 smq_scsi_cmd_queue_tag(struct smq_scsi_cmnd *cmd);

/**
 * smq_scsi_cmd_tag - the command's unique tag within its host
 * @cmd: a command ->queuecommand was given, until it is done
 *
 * Return: the tag.
 */
u32 smq_scsi_cmd_tag(struct smq_scsi_cmnd *cmd);

static inline void smq_scsi_set_result(struct smq_scsi_cmnd *cmd, u8 host_byte,
				       u8 status)
{
	cmd->result = (host_byte << 16) | status;
}

/* Host lifetime */
struct smq_scsi_host *smq_scsi_host_alloc(const struct smq_host_template *t,
					  int privsize);
int smq_scsi_add_host(struct smq_scsi_host *shost, struct device *parent);
void smq_scsi_scan_host(struct smq_scsi_host *shost);
void smq_scsi_remove_host(struct smq_scsi_host *shost);
int smq_scsi_add_lun(struct smq_scsi_host *shost, unsigned int channel,
		     unsigned int id, u64 lun);
int smq_scsi_remove_lun(struct smq_scsi_host *shost, unsigned int channel,
			unsigned int id, u64 lun);
int smq_scsi_rescan_lun(struct smq_scsi_host *shost, unsigned int channel,
			unsigned int id, u64 lun);
void smq_scsi_host_put(struct smq_scsi_host *shost);

/**
 * smq_scsi_cmd_gen - the generation of a command's current incarnation
 * @cmd: a command in ->queuecommand
 *
 * Return: the value to hand to smq_scsi_done_gen() for this incarnation.
 */
static inline u32 smq_scsi_cmd_gen(struct smq_scsi_cmnd *cmd)
{
	return READ_ONCE(smq_scsi_cmd_to_rq(cmd)->gen);
}

/* Commands */
void smq_scsi_done(struct smq_scsi_cmnd *cmd);
void smq_scsi_done_batch(struct smq_scsi_cmnd *cmd, struct smq_comp_batch *b);
void smq_scsi_done_gen(struct smq_scsi_cmnd *cmd, u32 gen);
int smq_scsi_change_queue_depth(struct smq_scsi_device *sdev, int depth);
unsigned int smq_scsi_host_busy(struct smq_scsi_host *shost);
void smq_scsi_block_host(struct smq_scsi_host *shost);
void smq_scsi_unblock_host(struct smq_scsi_host *shost);

#endif /* _SMQ_SCSI_H */
