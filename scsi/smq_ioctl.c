// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: SCSI ioctls of the disk, SG_IO first, so sg3_utils works on
 * /dev/sdX.
 *
 * SG_IO (sg_io_hdr v3, interface_id 'S') is carried out as a passthrough
 * request on the LUN's queue: the same tags, budgets and hardware queues as
 * file I/O.  The data goes through a kernel bounce buffer allocated for the
 * call (this is not the file I/O data path).  Also here: SG_GET_VERSION_NUM,
 * SG_GET_TIMEOUT / SG_SET_TIMEOUT, SG_GET_RESERVED_SIZE /
 * SG_SET_RESERVED_SIZE, SG_EMULATED_HOST, SCSI_IOCTL_GET_IDLUN,
 * SCSI_IOCTL_GET_BUS_NUMBER and SCSI_IOCTL_PROBE_HOST.  SG_SET_TIMEOUT
 * needs the disk open for writing (the value is every opener's default).
 *
 * 64-bit callers only: the disk has no compat_ioctl, so a 32-bit process
 * gets ENOTTY.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/capability.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <scsi/sg.h>
#include "smq_scsi_priv.h"
#include <smq/cdb.h>

#define SMQ_OP_LOG_SENSE		0x4d

/* Numbers of the SCSI_IOCTL_* calls (as in Linux's <scsi/scsi.h>) */
#define SMQ_SCSI_IOCTL_GET_IDLUN	0x5382
#define SMQ_SCSI_IOCTL_PROBE_HOST	0x5385
#define SMQ_SCSI_IOCTL_GET_BUS_NUMBER	0x5386

#define SMQ_SG_VERSION_NUM	30527	/* what Linux's block SG_IO reports */
#define SMQ_SG_MAX_BYTES	(16U << 20)
#define SMQ_DRIVER_SENSE	0x08

/* SCSI_IOCTL_GET_IDLUN's answer (layout of Linux's struct scsi_idlun) */
struct smq_scsi_idlun {
	u32 dev_id;
	u32 host_unique_id;
};

/**
 * smq_scsi_passthrough_max_bytes - largest data of one passthrough command
 * @sdev: the LUN
 *
 * The host's limits, what one bio maps, and 16 MiB.
 *
 * Return: bytes.
 */
unsigned int smq_scsi_passthrough_max_bytes(struct smq_scsi_device *sdev)
{
	struct smq_scsi_host *shost = sdev->host;
	u64 max = (u64)shost->max_sectors << SECTOR_SHIFT;

	max = min_t(u64, max, (u64)shost->sg_tablesize * PAGE_SIZE);
	max = min_t(u64, max, (u64)BIO_MAX_VECS * PAGE_SIZE);
	return min_t(u64, max, SMQ_SG_MAX_BYTES);
}

/**
 * smq_scsi_cmd_allowed - may the caller send this command?
 * @cdb: the CDB
 * @open_for_write: the disk or generic device is open for writing
 *
 * With CAP_SYS_RAWIO anything; without, commands that read, and writes
 * when the device is open for writing (Linux's scsi_cmd_allowed() rule).
 *
 * Return: true if allowed.
 */
bool smq_scsi_cmd_allowed(const u8 *cdb, bool open_for_write)
{
	if (capable(CAP_SYS_RAWIO))
		return true;
	switch (cdb[0]) {
	case SMQ_OP_TEST_UNIT_READY:
	case SMQ_OP_REQUEST_SENSE:
	case SMQ_OP_INQUIRY:
	case SMQ_OP_MODE_SENSE_6:
	case SMQ_OP_MODE_SENSE_10:
	case SMQ_OP_READ_CAPACITY_10:
	case SMQ_OP_READ_10:
	case SMQ_OP_READ_16:
	case SMQ_OP_LOG_SENSE:
	case SMQ_OP_REPORT_LUNS:
		return true;
	case SMQ_OP_SERVICE_ACTION_IN_16:
		return (cdb[1] & 0x1f) == SMQ_SAI_READ_CAPACITY_16;
	case SMQ_OP_WRITE_10:
	case SMQ_OP_WRITE_16:
	case SMQ_OP_SYNCHRONIZE_CACHE_10:
		return open_for_write;
	default:
		return false;
	}
}

/* Copy between the bounce buffer and the caller's iovec array. */
static int smq_sg_copy_iov(const struct sg_io_hdr *hdr, u8 *buf,
			   unsigned int len, bool to_user)
{
	struct sg_iovec __user *uiov = hdr->dxferp;
	unsigned int i, done = 0;

	for (i = 0; i < hdr->iovec_count && done < len; i++) {
		struct sg_iovec iov;
		size_t n;

		if (copy_from_user(&iov, &uiov[i], sizeof(iov)))
			return -EFAULT;
		n = min_t(size_t, iov.iov_len, len - done);
		if (to_user ? copy_to_user(iov.iov_base, buf + done, n) :
			      copy_from_user(buf + done, iov.iov_base, n))
			return -EFAULT;
		done += n;
	}
	return done == len ? 0 : -EINVAL;
}

static int smq_sg_copy(const struct sg_io_hdr *hdr, u8 *buf, unsigned int len,
		       bool to_user)
{
	if (!len)
		return 0;
	if (hdr->iovec_count)
		return smq_sg_copy_iov(hdr, buf, len, to_user);
	if (to_user)
		return copy_to_user(hdr->dxferp, buf, len) ? -EFAULT : 0;
	return copy_from_user(buf, hdr->dxferp, len) ? -EFAULT : 0;
}

/* Check everything about the header before allocating anything. */
static int smq_sg_check_hdr(struct smq_scsi_device *sdev,
			    const struct sg_io_hdr *hdr,
			    enum dma_data_direction *dir)
{
	if (hdr->interface_id != 'S')
		return -EINVAL;
	if (hdr->cmd_len < 6 || hdr->cmd_len > SMQ_MAX_CDB || !hdr->cmdp)
		return -EINVAL;
	if (hdr->iovec_count > UIO_MAXIOV)
		return -EINVAL;
	if (hdr->dxfer_len > smq_scsi_passthrough_max_bytes(sdev))
		return -EINVAL;
	switch (hdr->dxfer_direction) {
	case SG_DXFER_NONE:
		if (hdr->dxfer_len)
			return -EINVAL;
		*dir = DMA_NONE;
		break;
	case SG_DXFER_TO_DEV:
		*dir = DMA_TO_DEVICE;
		break;
	case SG_DXFER_FROM_DEV:
	case SG_DXFER_TO_FROM_DEV:
		*dir = DMA_FROM_DEVICE;
		break;
	case SG_DXFER_UNKNOWN:
		if (hdr->dxfer_len)
			return -EINVAL;
		*dir = DMA_NONE;
		break;
	default:
		return -EINVAL;
	}
	if (!hdr->dxfer_len)
		*dir = DMA_NONE;
	else if (!hdr->dxferp)
		return -EFAULT;
	return 0;
}

static unsigned int smq_sg_timeout(struct smq_scsi_device *sdev,
				   const struct sg_io_hdr *hdr)
{
	unsigned int t = msecs_to_jiffies(hdr->timeout);

	if (!t)
		t = READ_ONCE(sdev->sg_timeout);
	if (!t)
		t = SMQ_SG_DEFAULT_TIMEOUT;
	return max_t(unsigned int, t, SMQ_SG_MIN_TIMEOUT);
}

static void smq_sg_fill_status(struct sg_io_hdr *hdr,
			       const struct smq_exec_args *a)
{
	u8 status = smq_status_byte(a->result);

	hdr->status = status;
	hdr->masked_status = (status >> 1) & 0x7f;
	hdr->msg_status = 0;
	hdr->host_status = smq_host_byte(a->result);
	hdr->driver_status = status == SMQ_SAM_CHECK_CONDITION ?
			     SMQ_DRIVER_SENSE : 0;
	hdr->info = 0;
	if (hdr->masked_status || hdr->host_status || hdr->driver_status)
		hdr->info |= SG_INFO_CHECK;
	hdr->resid = a->resid;
	hdr->sb_len_wr = 0;
}

/* Carry out one SG_IO; @hdr is updated with the outcome. */
static int smq_sg_io_hdr(struct smq_scsi_device *sdev, struct sg_io_hdr *hdr,
			 bool open_for_write)
{
	u8 sense[SMQ_SENSE_BUFFERSIZE];
	struct smq_exec_args a = { };
	enum dma_data_direction dir;
	u8 cdb[SMQ_MAX_CDB];
	unsigned long start;
	u8 *buf = NULL;
	int ret;

	ret = smq_sg_check_hdr(sdev, hdr, &dir);
	if (ret)
		return ret;
	if (copy_from_user(cdb, hdr->cmdp, hdr->cmd_len))
		return -EFAULT;
	if (!smq_scsi_cmd_allowed(cdb, open_for_write))
		return -EPERM;
	if (hdr->dxfer_len) {
		buf = kvzalloc(hdr->dxfer_len, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
		if (hdr->dxfer_direction == SG_DXFER_TO_DEV ||
		    hdr->dxfer_direction == SG_DXFER_TO_FROM_DEV) {
			ret = smq_sg_copy(hdr, buf, hdr->dxfer_len, false);
			if (ret)
				goto out;
		}
	}

	a.cdb = cdb;
	a.cdb_len = hdr->cmd_len;
	a.dir = dir;
	a.buf = buf;
	a.buf_len = hdr->dxfer_len;
	a.timeout = smq_sg_timeout(sdev, hdr);
	a.retries = 0;
	a.sense = sense;

	down_read(&sdev->queue_rwsem);
	if (!sdev->queue || READ_ONCE(sdev->sdev_state) == SMQ_SDEV_DEL) {
		up_read(&sdev->queue_rwsem);
		ret = -ENXIO;
		goto out;
	}
	start = jiffies;
	ret = smq_scsi_execute(sdev, &a);
	hdr->duration = jiffies_to_msecs(jiffies - start);
	up_read(&sdev->queue_rwsem);
	if (ret)
		goto out;

	smq_sg_fill_status(hdr, &a);
	if (a.sense_len && hdr->sbp && hdr->mx_sb_len) {
		unsigned int n = min_t(unsigned int, hdr->mx_sb_len, a.sense_len);

		if (copy_to_user(hdr->sbp, sense, n)) {
			ret = -EFAULT;
			goto out;
		}
		hdr->sb_len_wr = n;
	}
	if (dir == DMA_FROM_DEVICE)
		ret = smq_sg_copy(hdr, buf, hdr->dxfer_len - a.resid, true);
out:
	kvfree(buf);
	return ret;
}

static int smq_sg_io(struct smq_scsi_device *sdev, bool open_for_write,
		     void __user *arg)
{
	struct sg_io_hdr hdr;
	int ret;

	if (copy_from_user(&hdr, arg, sizeof(hdr)))
		return -EFAULT;
	ret = smq_sg_io_hdr(sdev, &hdr, open_for_write);
	if (ret)
		return ret;
	return copy_to_user(arg, &hdr, sizeof(hdr)) ? -EFAULT : 0;
}

static int smq_get_idlun(struct smq_scsi_device *sdev, void __user *arg)
{
	struct smq_scsi_idlun v = {
		.dev_id = (sdev->id & 0xff) | ((sdev->lun & 0xff) << 8) |
			  ((sdev->channel & 0xff) << 16) |
			  ((sdev->host->host_no & 0xff) << 24),
		.host_unique_id = sdev->host->host_no,
	};

	return copy_to_user(arg, &v, sizeof(v)) ? -EFAULT : 0;
}

static int smq_probe_host(struct smq_scsi_device *sdev, void __user *arg)
{
	const char *name = sdev->host->hostt->name ?: "smq";
	unsigned int len;

	if (get_user(len, (unsigned int __user *)arg))
		return -EFAULT;
	len = min_t(unsigned int, len, strlen(name) + 1);
	if (copy_to_user(arg, name, len))
		return -EFAULT;
	return 1;
}

/**
 * smq_scsi_ioctl - the SCSI ioctls of a LUN's disk
 * @sdev: the LUN
 * @open_for_write: the block device was opened for writing
 * @cmd: ioctl number
 * @arg: user pointer
 *
 * Return: 0 or a positive value as the call defines, or a negative errno
 * (-ENOTTY for calls it does not know).
 */
int smq_scsi_ioctl(struct smq_scsi_device *sdev, bool open_for_write,
		   unsigned int cmd, void __user *arg)
{
	int __user *ip = arg;
	int val;

	switch (cmd) {
	case SG_IO:
		return smq_sg_io(sdev, open_for_write, arg);
	case SG_GET_VERSION_NUM:
		return put_user(SMQ_SG_VERSION_NUM, ip);
	case SG_GET_TIMEOUT:
		return jiffies_to_clock_t(READ_ONCE(sdev->sg_timeout));
	case SG_SET_TIMEOUT:
		/*
		 * The default timeout of every opener's SG_IO: not for a
		 * read-only opener (Linux's sd lets any opener change it).
		 */
		if (!open_for_write)
			return -EPERM;
		if (get_user(val, ip))
			return -EFAULT;
		if (val < 0 || val / USER_HZ > SMQ_MAX_TIMEOUT_SECS)
			return -EINVAL;
		WRITE_ONCE(sdev->sg_timeout, clock_t_to_jiffies(val));
		return 0;
	case SG_GET_RESERVED_SIZE:
		return put_user(smq_scsi_passthrough_max_bytes(sdev), ip);
	case SG_SET_RESERVED_SIZE:
		if (get_user(val, ip))
			return -EFAULT;
		return val < 0 ? -EINVAL : 0;
	case SG_EMULATED_HOST:
		return put_user(1, ip);
	case SMQ_SCSI_IOCTL_GET_IDLUN:
		return smq_get_idlun(sdev, arg);
	case SMQ_SCSI_IOCTL_GET_BUS_NUMBER:
		return put_user(sdev->host->host_no, ip);
	case SMQ_SCSI_IOCTL_PROBE_HOST:
		return smq_probe_host(sdev, arg);
	default:
		return -ENOTTY;
	}
}
