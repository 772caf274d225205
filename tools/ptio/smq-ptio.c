// SPDX-License-Identifier: GPL-2.0
/*
 * smq-ptio: asynchronous SCSI passthrough through io_uring on smq's
 * generic devices (/dev/smq-ng/H:C:T:L; ABI: include/uapi/smq/ng.h).
 * No fio engine speaks it, so this is its load generator and probe.
 * Documentation/passthrough.md has the usage; smq-ptio --help the options.
 *
 * Modes:
 *   bench  random or sequential READ/WRITE (10 or 16), WRITE SAME (16) or
 *          a given CDB at a queue depth, 1..N jobs (threads, a ring each),
 *          optionally polled (IORING_SETUP_IOPOLL) and with registered
 *          buffers; writes may carry a pattern that reads verify.
 *          Prints IOPS, MiB/s and latency percentiles, or JSON.
 *          On a block device (/dev/sdX) the same reads and writes go
 *          through the block path (O_DIRECT, IORING_OP_READ/WRITE[_FIXED]):
 *          one client for both paths.
 *   write-file / read-file  copy a file to / from the LUN at an offset.
 *   cmd    one CDB (hex), printing status, host byte, residual, sense.
 * Raw io_uring system calls: no liburing needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "../../include/uapi/smq/ng.h"

#define PROG		"smq-ptio"
#define MAX_QD		1024
#define MAX_JOBS	64
#define LAT_BUCKETS	1024	/* log-linear: 16 per power of two */
#define PAT_SEED	0x5a5a0001u

enum mode { M_BENCH, M_WRITE_FILE, M_READ_FILE, M_CMD };
enum kind { K_READ, K_WRITE, K_VERIFY, K_CHECK, K_WSAME, K_RAW };

struct opts {
	const char *dev;
	enum mode mode;
	enum kind kind;
	bool random;
	int cdb_size;		/* 10 or 16 */
	unsigned int bs, qd, jobs, lbs, timeout_ms;
	unsigned long long size, offset, number_ios;
	double runtime;
	bool poll, fixed, json, fio_json, vec, rdonly, drop_rawio, quiet;
	bool block;		/* the device is a block device: read/write */
	const char *file;
	unsigned char raw[SMQ_NG_MAX_CDB];
	unsigned int raw_len, raw_dir, xfer_len;
	/* bad-field probes (cmd mode) */
	int bad_cdb_len, bad_dir, bad_flags, misalign;
	long long bad_timeout;
	bool bad_rsvd, no_sqe128;
};

struct ring {
	int fd;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;	/* 128-byte entries */
	struct io_uring_cqe *cqes;	/* 32-byte entries */
	unsigned int entries;
};

struct job {
	pthread_t thread;
	unsigned int id;
	const struct opts *o;
	unsigned long long ios, bytes, errors, verify_errors, reads;
	bool gone;		/* ENXIO: the LUN went away; stop issuing */
	unsigned long long lat[LAT_BUCKETS];
	int err;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- ring ---------------------------------------------------------- */

static int ring_setup(struct ring *r, unsigned int entries, bool poll,
		      bool no_sqe128)
{
	struct io_uring_params p = { 0 };
	size_t sq_sz, cq_sz, sqe_sz;
	void *sq, *cq;

	p.flags = (no_sqe128 ? 0 : IORING_SETUP_SQE128) | IORING_SETUP_CQE32 |
		  (poll ? IORING_SETUP_IOPOLL : 0);
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	r->entries = p.sq_entries;
	sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_sz = p.cq_off.cqes + p.cq_entries * 2 * sizeof(struct io_uring_cqe);
	sqe_sz = p.sq_entries * 2 * sizeof(struct io_uring_sqe);
	sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, sqe_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -errno;
	r->sq_head = (unsigned int *)((char *)sq + p.sq_off.head);
	r->sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)((char *)sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	r->cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	return 0;
}

/* The next free SQE (128 bytes), zeroed; the caller then ring_queue()s it. */
static struct io_uring_sqe *ring_sqe(struct ring *r, unsigned int slot)
{
	struct io_uring_sqe *sqe = &r->sqes[2 * slot];

	memset(sqe, 0, 2 * sizeof(*sqe));
	return sqe;
}

static void ring_queue(struct ring *r, unsigned int slot)
{
	unsigned int tail = *r->sq_tail;

	r->sq_array[tail & *r->sq_mask] = slot;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
}

static int ring_enter(struct ring *r, unsigned int submit, unsigned int wait)
{
	int ret = syscall(__NR_io_uring_enter, r->fd, submit, wait,
			  wait ? IORING_ENTER_GETEVENTS : 0, NULL, 0);

	return ret < 0 ? -errno : ret;
}

/* Reap one CQE if there is one: 1 and its fields, else 0. */
static int ring_reap(struct ring *r, uint64_t *data, int *res, uint64_t *res2)
{
	unsigned int head = *r->cq_head;
	struct io_uring_cqe *cqe;

	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return 0;
	cqe = &r->cqes[2 * (head & *r->cq_mask)];
	*data = cqe->user_data;
	*res = cqe->res;
	*res2 = cqe->big_cqe[0];
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return 1;
}

/* ---- commands ------------------------------------------------------ */

static void put_be(unsigned char *p, unsigned long long v, int n)
{
	while (n--) {
		p[n] = v & 0xff;
		v >>= 8;
	}
}

/* The CDB of one I/O of @kind at @lba for @nblk blocks; returns its length. */
static int build_cdb(const struct opts *o, enum kind kind, unsigned char *cdb,
		     unsigned long long lba, unsigned int nblk)
{
	bool wr = kind == K_WRITE;

	memset(cdb, 0, SMQ_NG_MAX_CDB);
	if (kind == K_RAW) {
		memcpy(cdb, o->raw, o->raw_len);
		return o->raw_len;
	}
	if (kind == K_WSAME) {
		cdb[0] = 0x93;
		put_be(cdb + 2, lba, 8);
		put_be(cdb + 10, nblk, 4);
		return 16;
	}
	if (o->cdb_size == 10) {
		cdb[0] = wr ? 0x2a : 0x28;
		put_be(cdb + 2, lba, 4);
		put_be(cdb + 7, nblk, 2);
		return 10;
	}
	cdb[0] = wr ? 0x8a : 0x88;
	put_be(cdb + 2, lba, 8);
	put_be(cdb + 10, nblk, 4);
	return 16;
}

static void prep_cmd(struct io_uring_sqe *sqe, int fd, const unsigned char *cdb,
		     int cdb_len, int dir, void *buf, unsigned int len,
		     void *sense, unsigned int sense_len, const struct opts *o,
		     int buf_index, struct iovec *iov)
{
	struct smq_ng_cmd *c = (struct smq_ng_cmd *)sqe->cmd;

	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = SMQ_NG_URING_CMD_IO;
	if (buf_index >= 0) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = buf_index;
	}
	memcpy(c->cdb, cdb, cdb_len);
	c->cdb_len = cdb_len;
	c->dir = dir;
	c->addr = (uintptr_t)buf;
	c->len = len;
	if (o->vec && buf) {
		iov->iov_base = buf;
		iov->iov_len = len;
		c->addr = (uintptr_t)iov;
		c->len = 1;
		c->flags = SMQ_NG_F_VEC;
	}
	c->sense_addr = (uintptr_t)sense;
	c->sense_len = sense_len;
	c->timeout_ms = o->timeout_ms;
}

/*
 * The same I/O through the block path (the device is a block device, open
 * O_DIRECT): IORING_OP_READ/WRITE, or their _FIXED forms, at byte offset
 * @off, so that the two paths are compared with one client.
 */
static void prep_rw(struct io_uring_sqe *sqe, int fd, bool wr, void *buf,
		    unsigned int len, unsigned long long off, int buf_index)
{
	if (buf_index >= 0) {
		sqe->opcode = wr ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
		sqe->buf_index = buf_index;
	} else {
		sqe->opcode = wr ? IORING_OP_WRITE : IORING_OP_READ;
	}
	sqe->fd = fd;
	sqe->addr = (uintptr_t)buf;
	sqe->len = len;
	sqe->off = off;
}

/* ---- pattern ------------------------------------------------------- */

static void fill_pattern(void *buf, unsigned long long lba, unsigned int len,
			 unsigned int lbs)
{
	uint64_t *w = buf;
	unsigned int i;

	for (i = 0; i < len / 8; i++)
		w[i] = ((lba + i * 8 / lbs) << 20) ^ PAT_SEED ^ (i % (lbs / 8));
}

static bool check_pattern(const void *buf, unsigned long long lba,
			  unsigned int len, unsigned int lbs)
{
	const uint64_t *w = buf;
	unsigned int i;

	for (i = 0; i < len / 8; i++)
		if (w[i] != (((lba + i * 8 / lbs) << 20) ^ PAT_SEED ^
			     (i % (lbs / 8))))
			return false;
	return true;
}

/* ---- latency ------------------------------------------------------- */

static unsigned int lat_bucket(uint64_t ns)
{
	unsigned int msb, b;

	if (ns < 16)
		return ns;
	msb = 63 - __builtin_clzll(ns);
	b = (msb - 3) * 16 + ((ns >> (msb - 4)) & 15);
	return b < LAT_BUCKETS ? b : LAT_BUCKETS - 1;
}

static uint64_t lat_value(unsigned int b)
{
	unsigned int msb;

	if (b < 16)
		return b;
	msb = b / 16 + 3;
	return ((uint64_t)(16 + b % 16)) << (msb - 4);
}

static uint64_t lat_pct(const unsigned long long *lat, unsigned long long n,
			double pct)
{
	unsigned long long want = (unsigned long long)(n * pct / 100.0), seen = 0;
	unsigned int b;

	for (b = 0; b < LAT_BUCKETS; b++) {
		seen += lat[b];
		if (seen > want)
			return lat_value(b);
	}
	return 0;
}

/* ---- bench --------------------------------------------------------- */

struct slot {
	void *buf;
	uint64_t start;
	unsigned long long lba;
	enum kind kind;
	struct iovec iov;
	unsigned char sense[SMQ_NG_MAX_SENSE];
};

static unsigned long long xrand(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int register_buffers(struct ring *r, struct slot *slots, unsigned int n,
			    unsigned int bs)
{
	struct iovec iov[MAX_QD];
	unsigned int i;

	for (i = 0; i < n; i++) {
		iov[i].iov_base = slots[i].buf;
		iov[i].iov_len = bs;
	}
	if (syscall(__NR_io_uring_register, r->fd, IORING_REGISTER_BUFFERS,
		    iov, n) < 0)
		return -errno;
	return 0;
}

static void *job_run(void *arg)
{
	struct job *j = arg;
	const struct opts *o = j->o;
	unsigned long long nblocks = o->size / o->bs, seq = 0;
	unsigned long long rnd = 0x9e3779b97f4a7c15ull * (j->id + 1);
	unsigned long long issued = 0;
	unsigned int i, inflight = 0, pending = 0;
	uint64_t deadline;
	struct slot *slots;
	struct ring r;
	int fd, ret;

	fd = open(o->dev, (o->rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC |
		  (o->block ? O_DIRECT : 0));
	if (fd < 0) {
		j->err = -errno;
		return NULL;
	}
	ret = ring_setup(&r, o->qd, o->poll, false);
	if (ret) {
		j->err = ret;
		return NULL;
	}
	slots = calloc(o->qd, sizeof(*slots));
	for (i = 0; i < o->qd; i++)
		if (posix_memalign(&slots[i].buf, 4096, o->bs))
			die("out of memory");
	if (o->fixed) {
		ret = register_buffers(&r, slots, o->qd, o->bs);
		if (ret) {
			j->err = ret;
			return NULL;
		}
	}
	deadline = o->runtime > 0 ? now_ns() + (uint64_t)(o->runtime * 1e9) : 0;
	for (;;) {
		bool more = !j->gone &&
			    (!o->number_ios || issued < o->number_ios) &&
			    (!deadline || now_ns() < deadline) &&
			    (o->random || o->number_ios || deadline ||
			     seq < nblocks);

		/* Fill the depth: a free slot is one with no start time. */
		while (more && inflight < o->qd) {
			unsigned char cdb[SMQ_NG_MAX_CDB];
			unsigned int nblk = o->bs / o->lbs, slot, len;
			unsigned long long blk;
			int cdb_len, dir;
			struct slot *s;

			for (slot = 0; slot < o->qd; slot++)
				if (!slots[slot].start)
					break;
			s = &slots[slot];
			blk = o->random ? xrand(&rnd) % nblocks : seq++ % nblocks;
			s->lba = (o->offset + blk * o->bs) / o->lbs;
			s->kind = o->kind;
			if (o->kind == K_VERIFY)
				s->kind = xrand(&rnd) & 1 ? K_READ : K_WRITE;
			else if (o->kind == K_CHECK)
				s->kind = K_READ;
			dir = s->kind == K_READ ? SMQ_NG_DIR_FROM_DEV :
			      s->kind == K_RAW ? (int)o->raw_dir :
			      SMQ_NG_DIR_TO_DEV;
			len = dir == SMQ_NG_DIR_NONE ? 0 :
			      s->kind == K_WSAME ? o->lbs : o->bs;
			if (s->kind == K_WRITE || s->kind == K_WSAME)
				fill_pattern(s->buf, s->lba, len, o->lbs);
			if (o->block) {
				prep_rw(ring_sqe(&r, slot), fd, dir == SMQ_NG_DIR_TO_DEV,
					s->buf, len, s->lba * o->lbs,
					o->fixed ? (int)slot : -1);
			} else {
				cdb_len = build_cdb(o, s->kind, cdb, s->lba, nblk);
				prep_cmd(ring_sqe(&r, slot), fd, cdb, cdb_len, dir,
					 len ? s->buf : NULL, len, s->sense,
					 sizeof(s->sense), o,
					 o->fixed ? (int)slot : -1, &s->iov);
			}
			r.sqes[2 * slot].user_data = slot;
			ring_queue(&r, slot);
			s->start = now_ns();
			inflight++;
			pending++;
			issued++;
			more = !j->gone &&
			       (!o->number_ios || issued < o->number_ios) &&
			       (o->random || o->number_ios || deadline ||
				seq < nblocks);
		}
		if (!inflight)
			break;
		ret = ring_enter(&r, pending, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			j->err = ret;
			break;
		}
		if (ret > 0)
			pending -= (unsigned int)ret > pending ? pending : (unsigned int)ret;
		for (;;) {
			uint64_t data, res2, end;
			struct slot *s;
			int res;

			if (!ring_reap(&r, &data, &res, &res2))
				break;
			s = &slots[data];
			if (o->block && res >= 0) {
				/* bytes done: the rest is the residual */
				res2 = (unsigned int)res < o->bs ? o->bs - res : 0;
				res = 0;
			}
			end = now_ns();
			j->lat[lat_bucket(end - s->start)]++;
			if (res != 0 || SMQ_NG_RES2_RESID(res2)) {
				if (!j->errors && !o->quiet)
					fprintf(stderr,
						PROG ": job %u lba %llu: res %d resid %u sense %u\n",
						j->id, s->lba, res,
						SMQ_NG_RES2_RESID(res2),
						SMQ_NG_RES2_SENSE(res2));
				j->errors++;
				if (res == -ENXIO)
					j->gone = true;
			} else if ((o->kind == K_VERIFY || o->kind == K_CHECK) &&
				   s->kind == K_READ &&
				   !check_pattern(s->buf, s->lba, o->bs, o->lbs)) {
				if (!j->verify_errors)
					fprintf(stderr,
						PROG ": job %u lba %llu: data differs\n",
						j->id, s->lba);
				j->verify_errors++;
			}
			j->ios++;
			j->reads += s->kind == K_READ;
			j->bytes += o->bs;
			s->start = 0;
			inflight--;
		}
	}
	close(r.fd);
	close(fd);
	return NULL;
}

/*
 * The figures in the shape of fio's JSON output (one group), for smq's
 * bench collector: read/write iops, bw (KiB/s), total_ios, lat_ns
 * percentiles (of all I/O: one histogram, given to each direction that has
 * I/O), usr_cpu/sys_cpu (per job, as fio's group figures are).
 */
static void print_fio_json(const struct opts *o, const struct job *jobs,
			   const unsigned long long *lat, unsigned long long ios,
			   unsigned long long bytes, unsigned long long errs,
			   double secs)
{
	unsigned long long reads = 0, writes;
	struct rusage ru;
	double usr, sys;
	unsigned int i;
	int dir;

	for (i = 0; i < o->jobs; i++)
		reads += jobs[i].reads;
	writes = ios - reads;
	getrusage(RUSAGE_SELF, &ru);
	usr = (ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6) / secs * 100 / o->jobs;
	sys = (ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6) / secs * 100 / o->jobs;
	/* one key per line, as fio prints it (the guest's awk reads that) */
	printf("{\n  \"fio version\" : \"smq-ptio\",\n  \"jobs\" : [\n    {\n"
	       "      \"jobname\" : \"ptio\",\n      \"error\" : %d,\n"
	       "      \"usr_cpu\" : %.3f,\n      \"sys_cpu\" : %.3f", errs ? 5 : 0,
	       usr, sys);
	for (dir = 0; dir < 2; dir++) {
		unsigned long long n = dir ? writes : reads;

		printf(",\n      \"%s\" : {\n        \"total_ios\" : %llu,\n"
		       "        \"iops\" : %.3f,\n        \"bw\" : %.0f",
		       dir ? "write" : "read", n, n / secs,
		       ios ? bytes * ((double)n / ios) / secs / 1024 : 0.0);
		if (n)
			printf(",\n        \"lat_ns\" : {\n          \"mean\" : 0,\n"
			       "          \"percentile\" : {\n"
			       "            \"50.000000\" : %llu,\n"
			       "            \"90.000000\" : %llu,\n"
			       "            \"99.000000\" : %llu,\n"
			       "            \"99.900000\" : %llu\n          }\n        }",
			       (unsigned long long)lat_pct(lat, ios, 50),
			       (unsigned long long)lat_pct(lat, ios, 90),
			       (unsigned long long)lat_pct(lat, ios, 99),
			       (unsigned long long)lat_pct(lat, ios, 99.9));
		printf("\n      }");
	}
	printf("\n    }\n  ]\n}\n");
}

static int bench(struct opts *o)
{
	static struct job jobs[MAX_JOBS];
	unsigned long long ios = 0, bytes = 0, errs = 0, verr = 0;
	static unsigned long long lat[LAT_BUCKETS];
	double secs;
	uint64_t t0;
	unsigned int i, b;

	t0 = now_ns();
	for (i = 0; i < o->jobs; i++) {
		jobs[i].id = i;
		jobs[i].o = o;
		if (pthread_create(&jobs[i].thread, NULL, job_run, &jobs[i]))
			die("pthread_create failed");
	}
	for (i = 0; i < o->jobs; i++) {
		pthread_join(jobs[i].thread, NULL);
		if (jobs[i].err) {
			fprintf(stderr, PROG ": job %u: %s\n", i,
				strerror(-jobs[i].err));
			return 2;
		}
		ios += jobs[i].ios;
		bytes += jobs[i].bytes;
		errs += jobs[i].errors;
		verr += jobs[i].verify_errors;
		for (b = 0; b < LAT_BUCKETS; b++)
			lat[b] += jobs[i].lat[b];
	}
	secs = (now_ns() - t0) / 1e9;
	if (o->fio_json)
		print_fio_json(o, jobs, lat, ios, bytes, errs, secs);
	else if (o->json)
		printf("{\"device\": \"%s\", \"bs\": %u, \"iodepth\": %u, \"jobs\": %u, "
		       "\"poll\": %s, \"fixed\": %s, \"ios\": %llu, \"errors\": %llu, "
		       "\"verify_errors\": %llu, \"seconds\": %.3f, \"iops\": %.0f, "
		       "\"mib_s\": %.2f, \"lat_ns\": {\"p50\": %llu, \"p90\": %llu, "
		       "\"p99\": %llu, \"p99.9\": %llu}}\n",
		       o->dev, o->bs, o->qd, o->jobs, o->poll ? "true" : "false",
		       o->fixed ? "true" : "false", ios, errs, verr, secs,
		       ios / secs, bytes / secs / 1048576.0,
		       (unsigned long long)lat_pct(lat, ios, 50),
		       (unsigned long long)lat_pct(lat, ios, 90),
		       (unsigned long long)lat_pct(lat, ios, 99),
		       (unsigned long long)lat_pct(lat, ios, 99.9));
	else
		printf("%s: bs %u qd %u jobs %u%s%s: %llu ios in %.2f s, %.0f IOPS, %.1f MiB/s, "
		       "lat p50 %.1f us p99 %.1f us p99.9 %.1f us, errors %llu, verify errors %llu\n",
		       o->dev, o->bs, o->qd, o->jobs, o->poll ? " polled" : "",
		       o->fixed ? " fixed" : "", ios, secs, ios / secs,
		       bytes / secs / 1048576.0, lat_pct(lat, ios, 50) / 1e3,
		       lat_pct(lat, ios, 99) / 1e3, lat_pct(lat, ios, 99.9) / 1e3,
		       errs, verr);
	return errs || verr ? 1 : 0;
}

/* ---- one command --------------------------------------------------- */

/* Issue one command on a fresh ring and wait; print the outcome. */
static int one_cmd(const struct opts *o, int fd, const unsigned char *cdb,
		   int cdb_len, int dir, void *buf, unsigned int len, bool print)
{
	unsigned char sense[SMQ_NG_MAX_SENSE];
	struct smq_ng_cmd *c;
	struct iovec iov1;
	struct ring r;
	uint64_t data, res2;
	int res, ret;

	ret = ring_setup(&r, 4, o->poll, o->no_sqe128);
	if (ret)
		die("io_uring_setup: %s", strerror(-ret));
	if (o->fixed) {
		struct iovec iov = { .iov_base = buf, .iov_len = len };

		if (syscall(__NR_io_uring_register, r.fd,
			    IORING_REGISTER_BUFFERS, &iov, 1) < 0)
			die("register buffers: %s", strerror(errno));
	}
	if (o->no_sqe128) {
		/* a 64-byte SQE ring: only 16 bytes of command fit */
		struct io_uring_sqe *sqe = &r.sqes[0];

		memset(sqe, 0, sizeof(*sqe));
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = fd;
		sqe->cmd_op = SMQ_NG_URING_CMD_IO;
		memcpy(sqe->cmd, cdb, 16);
		r.sq_array[*r.sq_tail & *r.sq_mask] = 0;
		__atomic_store_n(r.sq_tail, *r.sq_tail + 1, __ATOMIC_RELEASE);
	} else {
		prep_cmd(ring_sqe(&r, 0), fd, cdb, cdb_len, dir,
			 buf ? (char *)buf + o->misalign : NULL, len, sense,
			 sizeof(sense), o, o->fixed ? 0 : -1, &iov1);
		c = (struct smq_ng_cmd *)r.sqes[0].cmd;
		if (o->bad_cdb_len >= 0)
			c->cdb_len = o->bad_cdb_len;
		if (o->bad_dir >= 0)
			c->dir = o->bad_dir;
		if (o->bad_flags >= 0)
			c->flags = o->bad_flags;
		if (o->bad_timeout >= 0)
			c->timeout_ms = o->bad_timeout;
		if (o->bad_rsvd)
			c->rsvd1 = 1;
		ring_queue(&r, 0);
	}
	ret = ring_enter(&r, 1, 1);
	if (ret < 0)
		die("io_uring_enter: %s", strerror(-ret));
	while (!ring_reap(&r, &data, &res, &res2)) {
		ret = ring_enter(&r, 0, 1);
		if (ret < 0 && ret != -EINTR)
			die("io_uring_enter: %s", strerror(-ret));
	}
	close(r.fd);
	if (print) {
		unsigned int i, n = res >= 0 ? SMQ_NG_RES2_SENSE(res2) : 0;

		if (res < 0)
			printf("errno=%d (%s)\n", -res, strerror(-res));
		else
			printf("status=0x%02x host=0x%02x resid=%u sense_len=%u",
			       res & 0xff, (res >> 8) & 0xff,
			       SMQ_NG_RES2_RESID(res2), n);
		if (n) {
			printf(" sense=");
			for (i = 0; i < n; i++)
				printf("%02x", sense[i]);
		}
		if (res >= 0)
			putchar('\n');
	}
	if (res < 0)
		return res;
	return res ? 1 : 0;
}

static int parse_hex(const char *s, unsigned char *out, unsigned int max)
{
	unsigned int n = 0;

	while (*s) {
		unsigned int v;

		if (*s == ' ' || *s == ':') {
			s++;
			continue;
		}
		if (n == max || sscanf(s, "%2x", &v) != 1 || !s[1])
			return -1;
		out[n++] = v;
		s += 2;
	}
	return n;
}

static void drop_rawio(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(__NR_capget, &h, d))
		die("capget: %s", strerror(errno));
	d[CAP_SYS_RAWIO / 32].effective &= ~(1u << (CAP_SYS_RAWIO % 32));
	d[CAP_SYS_RAWIO / 32].permitted &= ~(1u << (CAP_SYS_RAWIO % 32));
	if (syscall(__NR_capset, &h, d))
		die("capset: %s", strerror(errno));
}

static int cmd_mode(const struct opts *o)
{
	int fd = open(o->dev, (o->rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	void *buf = NULL;
	int ret;

	if (fd < 0)
		die("%s: %s", o->dev, strerror(errno));
	if (o->xfer_len &&
	    posix_memalign(&buf, 4096, o->xfer_len + 4096))
		die("out of memory");
	if (buf && o->raw_dir == SMQ_NG_DIR_TO_DEV) {
		if (o->file) {
			int in = open(o->file, O_RDONLY);

			if (in < 0 || read(in, buf, o->xfer_len) < 0)
				die("%s: %s", o->file, strerror(errno));
			close(in);
		} else {
			memset(buf, 0xa5, o->xfer_len);
		}
	}
	ret = one_cmd(o, fd, o->raw, o->raw_len, o->raw_dir, buf, o->xfer_len,
		      true);
	if (ret >= 0 && buf && o->raw_dir == SMQ_NG_DIR_FROM_DEV && o->file) {
		int out = open(o->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0 || write(out, buf, o->xfer_len) < 0)
			die("%s: %s", o->file, strerror(errno));
		close(out);
	}
	close(fd);
	return ret < 0 ? 3 : ret;
}

/* Copy a file to or from the LUN at --offset, --bs per command, --iodepth deep. */
static int file_mode(struct opts *o)
{
	bool wr = o->mode == M_WRITE_FILE;
	unsigned long long len = o->size, pos;
	int fd, ffd, ret = 0;
	unsigned char *data;
	struct stat st;

	ffd = open(o->file, wr ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ffd < 0)
		die("%s: %s", o->file, strerror(errno));
	if (wr) {
		if (fstat(ffd, &st))
			die("%s: %s", o->file, strerror(errno));
		len = st.st_size;
	}
	if (!len || len % o->lbs)
		die("length %llu: must be a positive multiple of %u", len, o->lbs);
	if (posix_memalign((void **)&data, 4096, len))
		die("out of memory");
	if (wr && read(ffd, data, len) != (ssize_t)len)
		die("%s: short read", o->file);
	fd = open(o->dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", o->dev, strerror(errno));
	for (pos = 0; pos < len && !ret; pos += o->bs) {
		unsigned int n = len - pos < o->bs ? len - pos : o->bs;
		unsigned char cdb[SMQ_NG_MAX_CDB];
		int cdb_len = build_cdb(o, wr ? K_WRITE : K_READ, cdb,
					(o->offset + pos) / o->lbs, n / o->lbs);

		ret = one_cmd(o, fd, cdb, cdb_len,
			      wr ? SMQ_NG_DIR_TO_DEV : SMQ_NG_DIR_FROM_DEV,
			      data + pos, n, false);
		if (ret)
			fprintf(stderr, PROG ": offset %llu: %s\n",
				o->offset + pos,
				ret < 0 ? strerror(-ret) : "SCSI error");
	}
	if (!wr && !ret && write(ffd, data, len) != (ssize_t)len)
		die("%s: short write", o->file);
	close(ffd);
	close(fd);
	return ret ? 1 : 0;
}

static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': return v << 10;
	case 'm': case 'M': return v << 20;
	case 'g': case 'G': return v << 30;
	case '\0': return v;
	default: die("bad size '%s'", s);
	}
	return 0;
}

static void usage(void)
{
	printf("usage: " PROG " [options] /dev/smq-ng/H:C:T:L\n"
	       "  --mode bench|write-file|read-file|cmd   (default bench)\n"
	       "  --rw randread|randwrite|read|write|randverify|check|writesame|raw\n"
	       "     (write: a pattern; randverify: random pattern reads checked and\n"
	       "     rewrites; check: sequential reads of the pattern, checked)\n"
	       "  --cdb 10|16        READ/WRITE CDB size (default 16)\n"
	       "  --bs N  --iodepth N  --numjobs N  --size N  --offset N\n"
	       "  --runtime SEC  --number_ios N  --lbs N (default 512)\n"
	       "  --poll (IORING_SETUP_IOPOLL)  --fixed (registered buffers)\n"
	       "  --vec (data as a one-element iovec array)\n"
	       "  --timeout MS  --json  --quiet  --readonly  --drop-rawio\n"
	       "  --fio-json (the figures as fio's JSON output: smq's bench)\n"
	       "  DEV a block device: bench --rw read/write/verify/check via\n"
	       "      O_DIRECT reads and writes (the block path, same client)\n"
	       "  --raw HEX --dir none|in|out --len N (--rw raw, --mode cmd)\n"
	       "  --file PATH   (write-file/read-file; cmd: data in/out)\n"
	       "  probes (cmd): --bad-cdb-len N --bad-dir N --bad-flags N\n"
	       "     --bad-timeout MS --bad-rsvd --misalign N --no-sqe128\n"
	       "exit: 0 good, 1 SCSI status not GOOD or data errors,\n"
	       "      2 usage or setup, 3 command refused (errno printed)\n");
}

int main(int argc, char **argv)
{
	struct stat st;
	static const struct option lo[] = {
		{ "mode", 1, 0, 'm' }, { "rw", 1, 0, 'r' }, { "cdb", 1, 0, 'c' },
		{ "bs", 1, 0, 'b' }, { "iodepth", 1, 0, 'q' },
		{ "numjobs", 1, 0, 'j' }, { "size", 1, 0, 's' },
		{ "offset", 1, 0, 'o' }, { "runtime", 1, 0, 't' },
		{ "number_ios", 1, 0, 'n' }, { "lbs", 1, 0, 'l' },
		{ "poll", 0, 0, 'P' }, { "fixed", 0, 0, 'F' },
		{ "vec", 0, 0, 'V' }, { "timeout", 1, 0, 'T' },
		{ "json", 0, 0, 'J' }, { "quiet", 0, 0, 'Q' },
		{ "fio-json", 0, 0, 8 },
		{ "readonly", 0, 0, 'R' }, { "drop-rawio", 0, 0, 'D' },
		{ "raw", 1, 0, 'x' }, { "dir", 1, 0, 'd' }, { "len", 1, 0, 'L' },
		{ "file", 1, 0, 'f' }, { "bad-cdb-len", 1, 0, 1 },
		{ "bad-dir", 1, 0, 2 }, { "bad-flags", 1, 0, 3 },
		{ "bad-timeout", 1, 0, 4 }, { "bad-rsvd", 0, 0, 5 },
		{ "misalign", 1, 0, 6 }, { "no-sqe128", 0, 0, 7 },
		{ "help", 0, 0, 'h' }, { 0 }
	};
	struct opts o = {
		.kind = K_READ, .random = true, .cdb_size = 16, .bs = 4096,
		.qd = 1, .jobs = 1, .lbs = 512, .size = 16 << 20,
		.bad_cdb_len = -1, .bad_dir = -1, .bad_flags = -1,
		.bad_timeout = -1,
	};
	int c, n;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'm':
			o.mode = !strcmp(optarg, "bench") ? M_BENCH :
				 !strcmp(optarg, "write-file") ? M_WRITE_FILE :
				 !strcmp(optarg, "read-file") ? M_READ_FILE :
				 !strcmp(optarg, "cmd") ? M_CMD : (die("bad --mode"), 0);
			break;
		case 'r':
			o.random = !strncmp(optarg, "rand", 4);
			optarg += o.random ? 4 : 0;
			if (!strcmp(optarg, "read"))
				o.kind = K_READ;
			else if (!strcmp(optarg, "write"))
				o.kind = K_WRITE;
			else if (!strcmp(optarg, "verify"))
				o.kind = K_VERIFY;
			else if (!strcmp(optarg, "check"))
				o.kind = K_CHECK;
			else if (!strcmp(optarg, "writesame"))
				o.kind = K_WSAME;
			else if (!strcmp(optarg, "raw"))
				o.kind = K_RAW;
			else
				die("bad --rw");
			break;
		case 'c': o.cdb_size = atoi(optarg); break;
		case 'b': o.bs = parse_size(optarg); break;
		case 'q': o.qd = atoi(optarg); break;
		case 'j': o.jobs = atoi(optarg); break;
		case 's': o.size = parse_size(optarg); break;
		case 'o': o.offset = parse_size(optarg); break;
		case 't': o.runtime = atof(optarg); break;
		case 'n': o.number_ios = parse_size(optarg); break;
		case 'l': o.lbs = atoi(optarg); break;
		case 'P': o.poll = true; break;
		case 'F': o.fixed = true; break;
		case 'V': o.vec = true; break;
		case 'T': o.timeout_ms = atoi(optarg); break;
		case 'J': o.json = true; break;
		case 'Q': o.quiet = true; break;
		case 'R': o.rdonly = true; break;
		case 'D': o.drop_rawio = true; break;
		case 'x':
			n = parse_hex(optarg, o.raw, sizeof(o.raw));
			if (n < 1)
				die("bad --raw CDB '%s'", optarg);
			o.raw_len = n;
			break;
		case 'd':
			o.raw_dir = !strcmp(optarg, "in") ? SMQ_NG_DIR_FROM_DEV :
				    !strcmp(optarg, "out") ? SMQ_NG_DIR_TO_DEV :
				    SMQ_NG_DIR_NONE;
			break;
		case 'L': o.xfer_len = parse_size(optarg); break;
		case 'f': o.file = optarg; break;
		case 1: o.bad_cdb_len = atoi(optarg); break;
		case 2: o.bad_dir = atoi(optarg); break;
		case 3: o.bad_flags = atoi(optarg); break;
		case 4: o.bad_timeout = atoll(optarg); break;
		case 5: o.bad_rsvd = true; break;
		case 6: o.misalign = atoi(optarg); break;
		case 7: o.no_sqe128 = true; break;
		case 8: o.fio_json = true; break;
		case 'h': usage(); return 0;
		default: usage(); return 2;
		}
	}
	if (optind != argc - 1) {
		usage();
		return 2;
	}
	o.dev = argv[optind];
	if (!stat(o.dev, &st) && S_ISBLK(st.st_mode)) {
		if (o.mode != M_BENCH || o.kind == K_WSAME || o.kind == K_RAW)
			die("%s is a block device: only --rw read, write, verify, check",
			    o.dev);
		o.block = true;
	}
	if (!o.qd || o.qd > MAX_QD || !o.jobs || o.jobs > MAX_JOBS ||
	    !o.lbs || o.bs % o.lbs || (o.cdb_size != 10 && o.cdb_size != 16))
		die("bad --iodepth, --numjobs, --bs, --lbs or --cdb");
	if (o.drop_rawio)
		drop_rawio();
	switch (o.mode) {
	case M_CMD:
		if (!o.raw_len)
			die("--mode cmd needs --raw");
		if (o.raw_dir == SMQ_NG_DIR_NONE && o.xfer_len)
			die("--len needs --dir in or out");
		return cmd_mode(&o);
	case M_WRITE_FILE:
	case M_READ_FILE:
		if (!o.file)
			die("--file is needed");
		return file_mode(&o);
	default:
		if (o.size < o.bs)
			die("--size below --bs");
		return bench(&o);
	}
}
