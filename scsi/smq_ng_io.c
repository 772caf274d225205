// SPDX-License-Identifier: GPL-2.0
/*
 * smq_scsi: asynchronous SCSI passthrough on a LUN's generic device
 * (IORING_OP_URING_CMD; the ABI in include/uapi/smq/ng.h).
 *
 * A command becomes a passthrough request of the LUN's queue, issued
 * without waiting: the same tags, budgets, hardware queues, timeouts and
 * error handling as file I/O, on either path.  Its data is the caller's
 * memory, pinned and mapped as the request's bio (no bounce copy); a
 * registered buffer (IORING_URING_CMD_FIXED) saves the pinning lookups.
 * With IORING_SETUP_IOPOLL the request goes to a poll queue of its CPU
 * and the ring's poller reaps it (->uring_cmd_iopoll).
 *
 * Per command state, struct smq_ng_io, is the front of its bio, from this
 * module's bio set: one mempool-backed allocation per command, as a file
 * system's bio is.  The request is freed as soon as it ends (its end_io,
 * any context), so a queue freeze or a LUN removal never waits for the
 * ring's owner to reap; outcome and sense are kept in smq_ng_io until the
 * submitting task's task work copies the sense out, releases the pages
 * and posts the CQE.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/bio.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <uapi/smq/ng.h>
#include "smq_scsi_priv.h"

#define SMQ_NG_ALIGN_MASK	511	/* data addresses (and vector lengths) */
#define SMQ_NG_MAX_TIMEOUT_MS	(SMQ_MAX_TIMEOUT_SECS * 1000U)
#define SMQ_NG_BIO_POOL		64
#define SMQ_NG_PIN_BATCH	16

/**
 * struct smq_ng_io - one command between its issue and its CQE
 * @ioucmd: the io_uring command
 * @sense_user: where the sense goes (NULL: nowhere)
 * @sense_max: the caller's sense buffer size
 * @sense_len: sense bytes kept in @sense
 * @from_dev: data flows to memory (pages are dirtied when released)
 * @errno: negative errno when the request failed without a SCSI outcome
 * @result: CQE res of a command that ran: host byte << 8 | SAM status
 * @resid: bytes not transferred
 * @cookie: poll queue of a polled request (smq_rq_poll_cookie())
 * @sense: the sense data, copied when the request ended
 * @bio: the data (no pages when the command has none); last: the bio set's
 *	front pad is everything above it
 */
struct smq_ng_io {
	struct io_uring_cmd *ioucmd;
	void __user *sense_user;
	u8 sense_max;
	u8 sense_len;
	bool from_dev;
	int errno;
	u32 result;
	u32 resid;
	blk_qc_t cookie;
	u8 sense[SMQ_SENSE_BUFFERSIZE];
	struct bio bio;
};

/* In the io_uring command's pdu: its state. */
struct smq_ng_pdu {
	struct smq_ng_io *io;
};

static struct bio_set smq_ng_bio_set;

static struct smq_ng_pdu *smq_ng_pdu(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct smq_ng_pdu) > sizeof(ioucmd->pdu));
	return (struct smq_ng_pdu *)ioucmd->pdu;
}

/* Every field of a command checked before anything is allocated. */
static int smq_ng_check(const struct smq_ng_cmd *c, bool fixed)
{
	if (c->cdb_len < 6 || c->cdb_len > SMQ_NG_MAX_CDB)
		return -EINVAL;
	if (c->flags & ~SMQ_NG_F_VEC || c->rsvd1 || c->rsvd2)
		return -EINVAL;
	if (fixed && (c->flags & SMQ_NG_F_VEC))
		return -EINVAL;
	if (c->timeout_ms > SMQ_NG_MAX_TIMEOUT_MS)
		return -EINVAL;
	if (c->sense_len && !c->sense_addr)
		return -EINVAL;
	switch (c->dir) {
	case SMQ_NG_DIR_NONE:
		return c->len || c->addr ? -EINVAL : 0;
	case SMQ_NG_DIR_TO_DEV:
	case SMQ_NG_DIR_FROM_DEV:
		return c->len && c->addr ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/*
 * The data as an iterator: a buffer, an iovec array or a registered
 * buffer.  *@iovp starts at @fast (UIO_FASTIOV entries, for the iterator
 * to use); it ends NULL or an array to kfree() once the iterator is done.
 */
static int smq_ng_import(const struct smq_ng_cmd *c, struct io_uring_cmd *ioucmd,
			 bool fixed, struct iovec *fast, struct iovec **iovp,
			 struct iov_iter *iter)
{
	int rw = c->dir == SMQ_NG_DIR_TO_DEV ? ITER_SOURCE : ITER_DEST;
	void __user *addr = u64_to_user_ptr(c->addr);
	ssize_t ret;

	*iovp = NULL;
	if (fixed)
		return io_uring_cmd_import_fixed(c->addr, c->len, rw, iter,
						 ioucmd);
	if (!(c->flags & SMQ_NG_F_VEC))
		return smq_compat_import_ubuf(rw, addr, c->len, fast, iter);
	if (c->len > UIO_MAXIOV)
		return -EINVAL;
	*iovp = fast;
	ret = import_iovec(rw, addr, c->len, UIO_FASTIOV, iovp, iter);
	if (ret < 0)
		*iovp = NULL;
	return ret < 0 ? ret : 0;
}

/* Drop the page references of a command's data. */
static void smq_ng_release_pages(struct bio *bio, bool dirty)
{
	unsigned short i;

	for (i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;

		if (dirty)
			set_page_dirty_lock(page);
		put_page(page);
	}
}

/* Take a reference on every page of @iter and add it to @bio, a page a vector. */
static int smq_ng_pin(struct bio *bio, struct iov_iter *iter)
{
	struct page *pages[SMQ_NG_PIN_BATCH];

	while (iov_iter_count(iter)) {
		unsigned int i, npages;
		size_t off;
		ssize_t n;

		n = iov_iter_get_pages2(iter, pages, iov_iter_count(iter),
					ARRAY_SIZE(pages), &off);
		if (n <= 0)
			return n ? n : -EFAULT;
		npages = DIV_ROUND_UP(off + n, PAGE_SIZE);
		for (i = 0; i < npages; i++) {
			unsigned int len = min_t(size_t, n, PAGE_SIZE - off);

			if (bio->bi_vcnt >= bio->bi_max_vecs) {
				while (i < npages)
					put_page(pages[i++]);
				return -EINVAL;
			}
			__bio_add_page(bio, pages[i], len, off);
			n -= len;
			off = 0;
		}
	}
	return 0;
}

/* A command's state and, with data, its bio holding the caller's pages. */
static struct smq_ng_io *smq_ng_io_alloc(const struct smq_ng_cmd *c,
					 struct io_uring_cmd *ioucmd,
					 bool fixed, bool nowait)
{
	blk_opf_t opf = c->dir == SMQ_NG_DIR_TO_DEV ? REQ_OP_DRV_OUT :
						      REQ_OP_DRV_IN;
	struct iovec fast[UIO_FASTIOV];
	struct iovec *iov = NULL;
	struct iov_iter iter;
	struct smq_ng_io *io;
	struct bio *bio;
	int nr_vecs = 0;
	int ret = 0;

	if (c->dir != SMQ_NG_DIR_NONE) {
		ret = smq_ng_import(c, ioucmd, fixed, fast, &iov, &iter);
		if (ret)
			goto out_iov;
		if (!iov_iter_is_aligned(&iter, SMQ_NG_ALIGN_MASK,
					 c->flags & SMQ_NG_F_VEC ?
					 SMQ_NG_ALIGN_MASK : 0)) {
			ret = -EINVAL;
			goto out_iov;
		}
		nr_vecs = iov_iter_npages(&iter, BIO_MAX_VECS + 1);
		if (nr_vecs > BIO_MAX_VECS) {
			ret = -EINVAL;
			goto out_iov;
		}
	}
	bio = bio_alloc_bioset(NULL, nr_vecs, opf,
			       nowait ? GFP_NOWAIT : GFP_KERNEL, &smq_ng_bio_set);
	if (!bio) {
		ret = nowait ? -EAGAIN : -ENOMEM;
		goto out_iov;
	}
	io = container_of(bio, struct smq_ng_io, bio);
	io->ioucmd = ioucmd;
	io->sense_user = u64_to_user_ptr(c->sense_addr);
	io->sense_max = c->sense_len;
	io->sense_len = 0;
	io->from_dev = c->dir == SMQ_NG_DIR_FROM_DEV;
	io->errno = 0;
	io->result = 0;
	io->resid = 0;
	io->cookie = BLK_QC_T_NONE;
	if (nr_vecs) {
		ret = smq_ng_pin(bio, &iter);
		if (ret) {
			smq_ng_release_pages(bio, false);
			bio_put(bio);
		}
	}
out_iov:
	kfree(iov);
	return ret ? ERR_PTR(ret) : io;
}

static void smq_ng_io_free(struct smq_ng_io *io)
{
	smq_ng_release_pages(&io->bio, io->from_dev);
	bio_put(&io->bio);
}

/* Task work of the submitting task: sense out, pages back, the CQE. */
static void smq_ng_task_done(struct io_uring_cmd *ioucmd,
			     unsigned int issue_flags)
{
	struct smq_ng_io *io = smq_ng_pdu(ioucmd)->io;
	ssize_t res = io->errno ?: io->result;
	u64 res2 = io->resid | (u64)io->sense_len << 32;
	u8 sense[SMQ_SENSE_BUFFERSIZE];

	/*
	 * Through the stack: hardened usercopy refuses a copy out of a slab
	 * object (the bio's) that is not whitelisted for it.
	 */
	if (io->sense_len) {
		memcpy(sense, io->sense, io->sense_len);
		if (copy_to_user(io->sense_user, sense, io->sense_len))
			res = -EFAULT;
	}
	smq_ng_io_free(io);
	io_uring_cmd_done(ioucmd, res, res2, issue_flags);
}

/* The request ended (any context): keep its outcome, free it, post later. */
static void smq_ng_end_io(struct smq_request *rq, blk_status_t status)
{
	struct smq_scsi_cmnd *cmd = smq_rq_to_pdu(rq);
	struct smq_ng_io *io = rq->end_io_data;
	unsigned int len = io->bio.bi_iter.bi_size;

	io->result = smq_host_byte(cmd->result) << 8 |
		     smq_status_byte(cmd->result);
	if (status != BLK_STS_OK && !io->result)
		io->errno = blk_status_to_errno(status);
	io->resid = min(cmd->resid, len);
	if (io->sense_max) {
		io->sense_len = min_t(unsigned int, cmd->sense_len,
				      min_t(unsigned int, SMQ_SENSE_BUFFERSIZE,
					    io->sense_max));
		memcpy(io->sense, cmd->sense_buffer, io->sense_len);
	}
	if (len)
		smq_rq_unmap_bio(rq);
	smq_free_request(rq);
	io_uring_cmd_complete_in_task(io->ioucmd, smq_ng_task_done);
}

static unsigned int smq_ng_timeout(struct smq_scsi_device *sdev, u32 ms)
{
	unsigned int t = msecs_to_jiffies(ms);

	if (!t)
		t = READ_ONCE(sdev->sg_timeout) ?: SMQ_SG_DEFAULT_TIMEOUT;
	return max_t(unsigned int, t, SMQ_SG_MIN_TIMEOUT);
}

/* Make @io's command a request of @sdev's queue and issue it. */
static int smq_ng_issue(struct smq_scsi_device *sdev, struct smq_ng_io *io,
			const struct smq_ng_cmd *c, unsigned int issue_flags)
{
	bool nowait = issue_flags & IO_URING_F_NONBLOCK;
	bool polled = issue_flags & IO_URING_F_IOPOLL;
	unsigned int len = io->bio.bi_iter.bi_size;
	struct smq_request *rq;

	rq = smq_alloc_request(sdev->queue, io->bio.bi_opf |
			       (polled ? REQ_POLLED : 0),
			       nowait ? SMQ_REQ_NOWAIT : 0);
	if (IS_ERR(rq))
		return PTR_ERR(rq) == -ENODEV ? -ENXIO : PTR_ERR(rq);
	if (polled) {
		io->cookie = smq_rq_poll_cookie(rq);
		if (io->cookie == BLK_QC_T_NONE)
			goto fail_rq;
	}
	smq_scsi_init_passthrough(rq, c->cdb, c->cdb_len,
				  smq_ng_timeout(sdev, c->timeout_ms), 0);
	if (len) {
		if (len > smq_scsi_passthrough_max_bytes(sdev) ||
		    smq_rq_map_bio(rq, &io->bio) > sdev->host->sg_tablesize) {
			smq_rq_unmap_bio(rq);
			smq_free_request(rq);
			return -EINVAL;
		}
	}
	smq_execute_rq_nowait(rq, smq_ng_end_io, io);
	return 0;
fail_rq:
	smq_free_request(rq);
	return -EOPNOTSUPP;
}

/**
 * smq_ng_uring_cmd - ->uring_cmd of a generic device: issue one command
 * @ioucmd: the command (cmd_op SMQ_NG_URING_CMD_IO, a struct smq_ng_cmd)
 * @issue_flags: IO_URING_F_*
 *
 * Return: -EIOCBQUEUED when issued (the CQE follows), or a negative
 * errno for the CQE now (-EAGAIN from a nonblocking attempt: io_uring
 * retries from a worker that may sleep).
 */
int smq_ng_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags)
{
	bool fixed = ioucmd->flags & IORING_URING_CMD_FIXED;
	bool nowait = issue_flags & IO_URING_F_NONBLOCK;
	struct smq_ng *ng = ioucmd->file->private_data;
	struct smq_scsi_device *sdev;
	struct smq_ng_io *io;
	struct smq_ng_cmd c;
	int ret;

	if (ioucmd->cmd_op != SMQ_NG_URING_CMD_IO)
		return -ENOTTY;
	if (!(issue_flags & IO_URING_F_SQE128) ||
	    !(issue_flags & IO_URING_F_CQE32))
		return -EOPNOTSUPP;
	/* The SQE is shared with the caller: read it once. */
	memcpy(&c, smq_compat_uring_cmd_area(ioucmd), sizeof(c));
	ret = smq_ng_check(&c, fixed);
	if (ret)
		return ret;
	if (!smq_scsi_cmd_allowed(c.cdb, ioucmd->file->f_mode & FMODE_WRITE))
		return -EPERM;
	io = smq_ng_io_alloc(&c, ioucmd, fixed, nowait);
	if (IS_ERR(io))
		return PTR_ERR(io);
	smq_ng_pdu(ioucmd)->io = io;
	sdev = smq_ng_lun_enter(ng, nowait);
	if (IS_ERR(sdev)) {
		ret = PTR_ERR(sdev);
	} else {
		ret = smq_ng_issue(sdev, io, &c, issue_flags);
		smq_ng_lun_exit(sdev);
	}
	if (ret) {
		smq_ng_io_free(io);
		return ret;
	}
	return -EIOCBQUEUED;
}

/**
 * smq_ng_uring_cmd_iopoll - ->uring_cmd_iopoll: reap a polled command's queue
 * @ioucmd: a command issued on a ring with IORING_SETUP_IOPOLL, not yet
 *	completed (io_uring asks only for those)
 * @iob: the poller's completion batch
 * @poll_flags: BLK_POLL_* (one pass each call)
 *
 * Return: requests completed by this pass.
 */
int smq_ng_uring_cmd_iopoll(struct io_uring_cmd *ioucmd,
			    struct io_comp_batch *iob, unsigned int poll_flags)
{
	struct smq_ng *ng = ioucmd->file->private_data;
	struct smq_ng_io *io = smq_ng_pdu(ioucmd)->io;
	struct smq_scsi_device *sdev;
	int ret;

	sdev = smq_ng_lun_enter(ng, true);
	if (IS_ERR(sdev))
		return 0;
	ret = smq_poll_queue(sdev->queue, READ_ONCE(io->cookie), iob);
	smq_ng_lun_exit(sdev);
	return ret;
}

/**
 * smq_ng_io_init - the bio set of passthrough commands
 *
 * Return: 0 or -ENOMEM.
 */
int smq_ng_io_init(void)
{
	return bioset_init(&smq_ng_bio_set, SMQ_NG_BIO_POOL,
			   offsetof(struct smq_ng_io, bio), BIOSET_NEED_BVECS);
}

/**
 * smq_ng_io_exit - free the bio set (no command left: files hold the module)
 */
void smq_ng_io_exit(void)
{
	bioset_exit(&smq_ng_bio_set);
}
