/* SPDX-License-Identifier: GPL-2.0 */
/*
 * smq_scsi internals shared by the files of scsi/.
 *
 *   smq_scsi_main.c   module init/exit, module parameters
 *   smq_hosts.c       host lifetime, tag set, host class
 *   smq_scan.c        targets and LUNs: REPORT LUNS, INQUIRY, VPD
 *   smq_lib.c         budgets, queue_rq, completion, internal commands
 *   smq_error.c       timeouts and the error handler
 *   smq_sd.c          the sd-style disk
 *   smq_ioctl.c       SG_IO and the other SCSI ioctls of the disk
 *   smq_sysfs.c       LUN and host attributes
 *   smq_host_queues.c changing a running host's hardware queues
 */
#ifndef _SMQ_SCSI_PRIV_H
#define _SMQ_SCSI_PRIV_H

#include <linux/blkdev.h>
#include <linux/cdev.h>
#include <linux/device.h>
#include <smq/scsi.h>

/* Defaults and limits */
#define SMQ_DEFAULT_MAX_ID	8
#define SMQ_DEFAULT_MAX_LUN	8
#define SMQ_DEFAULT_SG_TABLESIZE 128
#define SMQ_DEFAULT_MAX_SECTORS	1024
#define SMQ_DEFAULT_SEG_SIZE	(64 * 1024)
#define SMQ_SEQ_SCAN_MAX_LUNS	512	/* sequential scan stops here */
#define SMQ_MAX_TIMEOUT_SECS	3600
#define SMQ_SCAN_TIMEOUT	(30 * HZ)
#define SMQ_SCAN_RETRIES	3
#define SMQ_DISK_RETRIES	5
#define SMQ_SG_DEFAULT_TIMEOUT	(60 * HZ)
#define SMQ_SG_MIN_TIMEOUT	(7 * HZ)
#define SMQ_DEFAULT_EH_TIMEOUT	(10 * HZ)	/* device/eh_timeout, as Linux */
#define SMQ_DEFAULT_RAMP_UP_MS	120000		/* queue_ramp_up_period, as Linux */
#define SMQ_QUEUE_BUSY_DELAY_MS	3		/* BUSY / TASK SET FULL requeue */

/* smq_scsi_main.c: module parameters (read where hosts/disks are made) */
bool smq_param_use_blk_mq(void);
const char *smq_param_disk_prefix(void);
unsigned int smq_param_cmd_timeout(void);

/* smq_hosts.c */
extern struct class smq_host_class;
int smq_hosts_init(void);
void smq_hosts_exit(void);
int smq_host_set_state(struct smq_scsi_host *shost, enum smq_host_state state);
const char *smq_host_state_name(enum smq_host_state state);

/* smq_host_queues.c */
extern struct device_attribute dev_attr_shost_nr_hw_queues;
extern struct device_attribute dev_attr_shost_queue_map;
int smq_scsi_update_hw_queues(struct smq_tag_set *set, unsigned int nr,
			      const unsigned int *map);
unsigned int smq_scsi_host_max_hw_queues(struct smq_scsi_host *shost);

/* smq_lib.c */
extern const struct smq_mq_ops smq_scsi_mq_ops;
blk_status_t smq_scsi_map_data(struct smq_scsi_cmnd *cmd);
void smq_scsi_free_sgl(struct smq_scsi_cmnd *cmd);

/**
 * struct smq_exec_args - one internal (passthrough) command
 * @cdb: the CDB
 * @cdb_len: its length (6..SMQ_MAX_CDB)
 * @dir: DMA_FROM_DEVICE, DMA_TO_DEVICE or DMA_NONE
 * @buf: data buffer (kmalloc or vmalloc memory), NULL for none
 * @buf_len: its length
 * @timeout: jiffies (0: the LUN's timeout)
 * @retries: retries allowed (UNIT ATTENTION, BUSY, ...)
 * @result: out: host byte << 16 | SAM status, or -1 if never issued
 * @sense: out: sense data (SMQ_SENSE_BUFFERSIZE bytes), or NULL
 * @sense_len: out: valid bytes in @sense
 * @resid: out: bytes not transferred
 * @status: out: block status the request ended with
 */
struct smq_exec_args {
	const u8 *cdb;
	unsigned int cdb_len;
	enum dma_data_direction dir;
	void *buf;
	unsigned int buf_len;
	unsigned int timeout;
	int retries;
	int result;
	u8 *sense;
	unsigned int sense_len;
	unsigned int resid;
	blk_status_t status;
};

int smq_scsi_execute(struct smq_scsi_device *sdev, struct smq_exec_args *a);
void smq_scsi_init_passthrough(struct smq_request *rq, const u8 *cdb,
			       unsigned int cdb_len, unsigned int timeout,
			       int retries);
void smq_scsi_finish_command(struct smq_scsi_cmnd *cmd);
void smq_scsi_run_host_queues(struct smq_scsi_host *shost);
int smq_scsi_device_set_state(struct smq_scsi_device *sdev,
			      enum smq_sdev_state state);
const char *smq_sdev_state_name(enum smq_sdev_state state);

/* smq_error.c */
enum smq_eh_timer_return smq_scsi_timeout(struct smq_request *rq);
void smq_eh_work(struct work_struct *work);
bool smq_eh_cmd_done(struct smq_scsi_cmnd *cmd);

/* smq_scan.c */
#define SMQ_SCAN_WILD_CARD	U64_MAX	/* sysfs "scan": "-" */
void smq_scsi_forget_host(struct smq_scsi_host *shost);
int smq_scsi_scan_host_selected(struct smq_scsi_host *shost, u64 channel,
				u64 id, u64 lun);
void smq_scsi_remove_device(struct smq_scsi_device *sdev);
void smq_scsi_rescan_device(struct smq_scsi_device *sdev);
u8 *smq_scsi_get_vpd(struct smq_scsi_device *sdev, u8 page, unsigned int *len);
extern const struct device_type smq_sdev_type;
extern const struct device_type smq_target_type;

/* smq_sd.c */
int smq_sd_init(void);
void smq_sd_exit(void);
void smq_sd_probe(struct smq_scsi_device *sdev);
void smq_sd_remove(struct smq_scsi_device *sdev);
void smq_sd_put(struct smq_scsi_device *sdev);
void smq_sd_rescan(struct smq_scsi_device *sdev);
blk_status_t smq_sd_init_command(struct smq_scsi_cmnd *cmd);
blk_status_t smq_sd_done(struct smq_scsi_cmnd *cmd, blk_status_t status,
			 unsigned int *good_bytes);

/* smq_ioctl.c */
int smq_scsi_ioctl(struct smq_scsi_device *sdev, bool open_for_write,
		   unsigned int cmd, void __user *arg);
bool smq_scsi_cmd_allowed(const u8 *cdb, bool open_for_write);
unsigned int smq_scsi_passthrough_max_bytes(struct smq_scsi_device *sdev);

/**
 * struct smq_ng - a LUN's generic character device (smq_ng.c)
 * @dev: its device, class smq_ng, child of the LUN's
 * @cdev: the character device; an open file holds @dev through it
 * @sdev: the LUN (a reference held until @dev's release)
 */
struct smq_ng {
	struct device dev;
	struct cdev cdev;
	struct smq_scsi_device *sdev;
};

/* smq_ng.c */
int smq_ng_init(void);
void smq_ng_exit(void);
void smq_ng_add(struct smq_scsi_device *sdev);
void smq_ng_remove(struct smq_scsi_device *sdev);
struct smq_scsi_device *smq_ng_lun_enter(struct smq_ng *ng, bool nowait);
void smq_ng_lun_exit(struct smq_scsi_device *sdev);

/* smq_ng_io.c */
int smq_ng_io_init(void);
void smq_ng_io_exit(void);
int smq_ng_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags);
int smq_ng_uring_cmd_iopoll(struct io_uring_cmd *ioucmd,
			    struct io_comp_batch *iob, unsigned int poll_flags);

/* smq_sysfs.c */
extern const struct attribute_group *smq_sdev_groups[];
extern const struct attribute_group *smq_shost_groups[];

/*
 * Messages about a LUN, target or host device: "smq_scsi: H:C:T:L: ...";
 * the prefix comes from pr_fmt(), which every file of smq_scsi defines as
 * KBUILD_MODNAME ": " fmt before its includes.  (dev_printk() would print
 * an empty driver name for these bus-less devices.)
 */
#define smq_dev_err(dev, fmt, ...)	pr_err("%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define smq_dev_warn(dev, fmt, ...)	pr_warn("%s: " fmt, dev_name(dev), ##__VA_ARGS__)
#define smq_dev_info(dev, fmt, ...)	pr_info("%s: " fmt, dev_name(dev), ##__VA_ARGS__)

static inline struct smq_scsi_device *smq_dev_to_sdev(struct device *dev)
{
	return container_of(dev, struct smq_scsi_device, sdev_gendev);
}

static inline struct smq_scsi_host *smq_class_dev_to_shost(struct device *dev)
{
	return container_of(dev, struct smq_scsi_host, shost_dev);
}

static inline struct smq_scsi_host *smq_gendev_to_shost(struct device *dev)
{
	return container_of(dev, struct smq_scsi_host, shost_gendev);
}

static inline struct smq_scsi_target *smq_dev_to_target(struct device *dev)
{
	return container_of(dev, struct smq_scsi_target, dev);
}

static inline struct smq_scsi_host *smq_set_to_shost(struct smq_tag_set *set)
{
	return container_of(set, struct smq_scsi_host, tag_set);
}

/* SAM status codes and a few opcodes the midlayer itself looks at */
#define SMQ_SAM_GOOD			0x00
#define SMQ_SAM_CHECK_CONDITION		0x02
#define SMQ_SAM_CONDITION_MET		0x04
#define SMQ_SAM_BUSY			0x08
#define SMQ_SAM_RESERVATION_CONFLICT	0x18
#define SMQ_SAM_TASK_SET_FULL		0x28
#define SMQ_SAM_ACA_ACTIVE		0x30
#define SMQ_SAM_TASK_ABORTED		0x40

static inline u8 smq_host_byte(int result)
{
	return (result >> 16) & 0xff;
}

static inline u8 smq_status_byte(int result)
{
	return result & 0xff;
}

#endif /* _SMQ_SCSI_PRIV_H */
