/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * smq's SCSI generic character devices, /dev/smq-ng/H:C:T:L: the user ABI
 * of asynchronous SCSI passthrough through io_uring (IORING_OP_URING_CMD).
 * Documentation/passthrough.md describes it with an example.
 *
 * The ring must be set up with IORING_SETUP_SQE128 and IORING_SETUP_CQE32.
 * An SQE carries opcode IORING_OP_URING_CMD, fd the opened device,
 * cmd_op SMQ_NG_URING_CMD_IO, and a struct smq_ng_cmd in its cmd area.
 * With IORING_URING_CMD_FIXED in uring_cmd_flags, addr/len lie in the
 * registered buffer buf_index (SMQ_NG_F_VEC is then refused).
 *
 * The CQE: res < 0 is an errno, the command was not issued or its data
 * not returned (EINVAL bad field, EPERM not allowed, ENXIO LUN gone,
 * EOPNOTSUPP ring without SQE128/CQE32 or polling a LUN without poll
 * queues, EFAULT bad address, ENOMEM, EAGAIN).  res >= 0: the command ran;
 * bits 0-7 are the SAM status (0 GOOD, 2 CHECK CONDITION, ...), bits 8-15
 * the host byte (0 DID_OK, 3 DID_TIME_OUT, ...).  big_cqe[0] (extra1)
 * holds the residual (bytes not transferred) in bits 0-31 and the number
 * of sense bytes written to sense_addr in bits 32-39.
 */
#ifndef _UAPI_SMQ_NG_H
#define _UAPI_SMQ_NG_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define SMQ_NG_MAX_CDB		32
#define SMQ_NG_MAX_SENSE	96

/* struct smq_ng_cmd.dir */
#define SMQ_NG_DIR_NONE		0	/* no data: len must be 0 */
#define SMQ_NG_DIR_TO_DEV	1	/* data out (WRITE) */
#define SMQ_NG_DIR_FROM_DEV	2	/* data in (READ) */

/* struct smq_ng_cmd.flags */
#define SMQ_NG_F_VEC		(1U << 0)	/* addr: struct iovec[len] */

/**
 * struct smq_ng_cmd - one SCSI command, in the SQE's cmd area (72 bytes)
 * @cdb: the CDB
 * @cdb_len: its length, 6..32
 * @dir: SMQ_NG_DIR_*
 * @sense_len: bytes of the sense buffer at @sense_addr (0..255; at most
 *	SMQ_NG_MAX_SENSE are written)
 * @flags: SMQ_NG_F_*
 * @timeout_ms: 0: the LUN's SG_IO default (SG_SET_TIMEOUT, else 60 s);
 *	else 1..3600000, raised to the 7 s SG_IO floor
 * @addr: data buffer (512-byte aligned), or with SMQ_NG_F_VEC an iovec
 *	array (every element 512-byte aligned in address and length)
 * @len: bytes of data, or with SMQ_NG_F_VEC the number of iovecs
 * @rsvd1: must be 0
 * @sense_addr: sense buffer, or 0
 * @rsvd2: must be 0
 */
struct smq_ng_cmd {
	__u8	cdb[SMQ_NG_MAX_CDB];
	__u8	cdb_len;
	__u8	dir;
	__u8	sense_len;
	__u8	flags;
	__u32	timeout_ms;
	__u64	addr;
	__u32	len;
	__u32	rsvd1;
	__u64	sense_addr;
	__u64	rsvd2;
};

#define SMQ_NG_URING_CMD_IO	_IOWR('Q', 0x80, struct smq_ng_cmd)

/* res2 (big_cqe[0]) of a command that ran */
#define SMQ_NG_RES2_RESID(r)	((__u32)(r))
#define SMQ_NG_RES2_SENSE(r)	((__u8)((r) >> 32))

#endif /* _UAPI_SMQ_NG_H */
