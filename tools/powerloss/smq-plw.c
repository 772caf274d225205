// SPDX-License-Identifier: GPL-2.0
/*
 * smq-plw: the power-loss harness's workloads and checkers (in the guest).
 * Documentation/powerloss.md describes the harness; tools/powerloss/ the
 * host side.
 *
 *   smq-plw write DEV TAG RUN fua|flush [THREADS [BATCH]]
 *	raw block device writer: THREADS threads (4) write 4 KiB records with
 *	O_DIRECT, each to a slot of its own (slot = k * THREADS + thread, never
 *	rewritten), each record carrying (magic, run, slot, crc32) and a
 *	payload derived from them; "fua": every write is pwritev2(RWF_DSYNC)
 *	(FUA, or write + flush where the disk has no FUA); "flush": BATCH (8)
 *	plain writes, then fdatasync() (SYNCHRONIZE CACHE).
 *   smq-plw fs DIR TAG RUN
 *	file system workload in DIR (a fresh file system), in the style of
 *	xfstests' generic fsync tests: per operation i a file written to a
 *	temporary name, fsynced, renamed into a directory that is then fsynced
 *	(a new directory every 16 operations, its parent fsynced), a 512-byte
 *	record appended to a log and fdatasync'd, every third operation a
 *	4 KiB block of a file overwritten in place and fdatasync'd, and every
 *	fourth file unlinked again 24 operations later, its directory fsynced.
 *   smq-plw check DEV TAG ACKS / smq-plw fscheck DIR TAG ACKS
 *	after the power cut: every record (operation) that ACKS says was
 *	acknowledged must be there, intact.  Prints "PLCHECK TAG checked N
 *	lost L torn T" and exits 1 if anything acknowledged is missing.
 *
 * The writers print, to stdout, one line per write(2) (so lines of several
 * writers on one tty do not mix):
 *	SMQ-OUT PLRUN TAG raw|fs RUN THREADS     once set up
 *	SMQ-OUT PLACK TAG THREAD COUNT           records (operations) 0..COUNT-1
 *						 of THREAD are durable
 * An acknowledgement is printed only after the fsync, fdatasync or
 * RWF_DSYNC write that made it durable returned; the ack printer runs
 * every 2 ms, so the last few acknowledged records before a cut may go
 * unchecked, never the other way round.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <linux/fs.h>

#define PROG		"smq-plw"
#define REC_SIZE	4096
#define REC_MAGIC	0x31303157504c5153ull	/* "SQLPW101" */
#define MAX_THREADS	64
#define FS_DIR_EVERY	16
#define FS_OW_EVERY	3
#define FS_OW_BLOCKS	64
#define FS_UNLINK_EVERY	4
#define FS_UNLINK_AFTER	24
#define FS_LOG_REC	512
#define FS_MAX_FILE	20000

struct rec_hdr {
	uint64_t magic;
	uint64_t run;
	uint64_t slot;
	uint32_t crc;
	uint32_t pad;
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

/* One line, one write(2). */
static void emit(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0 && write(1, line, (size_t)n) != n)
		exit(3);
}

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc32_buf(const unsigned char *p, size_t len)
{
	uint32_t c = 0xffffffffu;

	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* The payload of record (run, id): xorshift64 from a seed of both. */
static void fill(unsigned char *p, size_t len, uint64_t run, uint64_t id)
{
	uint64_t x = run * 0x9e3779b97f4a7c15ull + id * 0xbf58476d1ce4e5b9ull + 1;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i & 7)) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		p[i] = (unsigned char)(x >> ((i & 7) * 8));
	}
}

static void make_record(unsigned char *buf, uint64_t run, uint64_t slot)
{
	struct rec_hdr h = { .magic = REC_MAGIC, .run = run, .slot = slot };

	fill(buf, REC_SIZE, run, slot);
	memcpy(buf, &h, sizeof(h));
	h.crc = crc32_buf(buf, REC_SIZE);
	memcpy(buf, &h, sizeof(h));
}

/* 0: intact; 1: missing (something else there); 2: torn (bad crc). */
static int check_record(unsigned char *buf, uint64_t run, uint64_t slot)
{
	unsigned char want[REC_SIZE];
	struct rec_hdr h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	if (h.magic != REC_MAGIC || h.run != run || h.slot != slot)
		return 1;
	crc = h.crc;
	h.crc = 0;
	memcpy(buf, &h, sizeof(h));
	if (crc32_buf(buf, REC_SIZE) != crc)
		return 2;
	make_record(want, run, slot);
	h.crc = crc;
	memcpy(buf, &h, sizeof(h));
	return memcmp(buf, want, REC_SIZE) ? 2 : 0;
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("bad %s '%s'", what, s);
	return v;
}

/* ---- acknowledgements ---------------------------------------------------- */

struct acks {
	const char *tag;
	volatile uint64_t done[MAX_THREADS];	/* written by the workers */
	uint64_t printed[MAX_THREADS];
	unsigned int threads;
};

static void acks_flush(struct acks *a)
{
	unsigned int t;
	uint64_t d;

	for (t = 0; t < a->threads; t++) {
		d = __atomic_load_n(&a->done[t], __ATOMIC_ACQUIRE);
		if (d != a->printed[t]) {
			emit("SMQ-OUT PLACK %s %u %llu\n", a->tag, t, (unsigned long long)d);
			a->printed[t] = d;
		}
	}
}

static void *ack_printer(void *arg)
{
	struct timespec ts = { .tv_nsec = 2000000 };

	for (;;) {
		acks_flush(arg);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void acked(struct acks *a, unsigned int t, uint64_t count)
{
	__atomic_store_n(&a->done[t], count, __ATOMIC_RELEASE);
}

/* ---- raw writer ---------------------------------------------------------- */

struct raw_job {
	struct acks *acks;
	int fd;
	unsigned int tid, threads, batch;
	bool fua;
	uint64_t run, nslots;
};

static void raw_write_one(struct raw_job *j, unsigned char *buf, uint64_t slot)
{
	struct iovec iov = { .iov_base = buf, .iov_len = REC_SIZE };
	ssize_t n;

	make_record(buf, j->run, slot);
	n = pwritev2(j->fd, &iov, 1, (off_t)(slot * REC_SIZE), j->fua ? RWF_DSYNC : 0);
	if (n != REC_SIZE)
		die("write of slot %llu: %s", (unsigned long long)slot,
		    n < 0 ? strerror(errno) : "short");
}

static void *raw_worker(void *arg)
{
	struct raw_job *j = arg;
	unsigned char *buf;
	uint64_t k = 0, slot;
	unsigned int b;

	if (posix_memalign((void **)&buf, REC_SIZE, REC_SIZE))
		die("out of memory");
	for (;;) {
		for (b = 0; b < j->batch; b++) {
			slot = (k + b) * j->threads + j->tid;
			if (slot >= j->nslots)
				break;
			raw_write_one(j, buf, slot);
		}
		if (!b) {
			pause();	/* the disk is full: wait for the cut */
			continue;
		}
		if (!j->fua && fdatasync(j->fd))
			die("fdatasync: %s", strerror(errno));
		k += b;
		acked(j->acks, j->tid, k);
	}
	return NULL;
}

static uint64_t dev_size(int fd)
{
	uint64_t size;
	struct stat st;

	if (ioctl(fd, BLKGETSIZE64, &size) == 0)
		return size;
	if (fstat(fd, &st))
		die("fstat: %s", strerror(errno));
	return (uint64_t)st.st_size;
}

static int cmd_write(int argc, char **argv)
{
	static struct raw_job jobs[MAX_THREADS];
	static struct acks acks;
	pthread_t th;
	unsigned int t, threads = 4, batch = 8;
	bool fua;
	uint64_t run;
	int fd;

	if (argc < 4)
		die("usage: write DEV TAG RUN fua|flush [THREADS [BATCH]]");
	run = parse_u64(argv[2], "run");
	if (!strcmp(argv[3], "fua"))
		fua = true;
	else if (!strcmp(argv[3], "flush"))
		fua = false;
	else
		die("bad mode '%s' (fua or flush)", argv[3]);
	if (argc > 4)
		threads = (unsigned int)parse_u64(argv[4], "threads");
	if (argc > 5)
		batch = (unsigned int)parse_u64(argv[5], "batch");
	if (!threads || threads > MAX_THREADS || !batch)
		die("bad threads %u or batch %u", threads, batch);
	fd = open(argv[0], O_RDWR | O_DIRECT);
	if (fd < 0)
		die("open %s: %s", argv[0], strerror(errno));
	acks.tag = argv[1];
	acks.threads = threads;
	emit("SMQ-OUT PLRUN %s raw %llu %u\n", argv[1], (unsigned long long)run, threads);
	for (t = 0; t < threads; t++) {
		jobs[t] = (struct raw_job){ .acks = &acks, .fd = fd, .tid = t,
			.threads = threads, .batch = fua ? 1 : batch, .fua = fua,
			.run = run, .nslots = dev_size(fd) / REC_SIZE };
		if (pthread_create(&th, NULL, raw_worker, &jobs[t]))
			die("pthread_create");
	}
	ack_printer(&acks);
	return 0;
}

/* ---- reading the acknowledgements back ------------------------------------ */

struct ack_log {
	bool found;
	char kind[8];
	uint64_t run;
	unsigned int threads;
	uint64_t count[MAX_THREADS];
};

/*
 * The last PLRUN line of TAG starts its run; the largest COUNT of each
 * thread after it is what was acknowledged.
 */
static void read_acks(const char *path, const char *tag, struct ack_log *l)
{
	char line[512], t[128], kind[8];
	unsigned long long run, count;
	unsigned int th;
	FILE *f = fopen(path, "r");

	if (!f)
		die("open %s: %s", path, strerror(errno));
	memset(l, 0, sizeof(*l));
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "PLRUN ");

		if (p && sscanf(p, "PLRUN %127s %7s %llu %u", t, kind, &run, &th) == 4 &&
		    !strcmp(t, tag)) {
			memset(l, 0, sizeof(*l));
			l->found = true;
			snprintf(l->kind, sizeof(l->kind), "%s", kind);
			l->run = run;
			l->threads = th < MAX_THREADS ? th : MAX_THREADS;
			continue;
		}
		p = strstr(line, "PLACK ");
		if (l->found && p &&
		    sscanf(p, "PLACK %127s %u %llu", t, &th, &count) == 3 &&
		    !strcmp(t, tag) && th < l->threads && count > l->count[th])
			l->count[th] = count;
	}
	fclose(f);
}

static int report(const char *tag, uint64_t checked, uint64_t lost, uint64_t torn,
		  const char *extra)
{
	emit("PLCHECK %s checked %llu lost %llu torn %llu%s\n", tag,
	     (unsigned long long)checked, (unsigned long long)lost,
	     (unsigned long long)torn, extra);
	return lost || torn ? 1 : 0;
}

static int cmd_check(int argc, char **argv)
{
	uint64_t k, slot, checked = 0, lost = 0, torn = 0;
	struct ack_log l;
	unsigned char *buf;
	unsigned int t;
	int fd, r;

	if (argc < 3)
		die("usage: check DEV TAG ACKS");
	crc_init();
	read_acks(argv[2], argv[1], &l);
	if (!l.found)
		return report(argv[1], 0, 0, 0, " (no run)");
	if (strcmp(l.kind, "raw"))
		die("%s is a %s run", argv[1], l.kind);
	fd = open(argv[0], O_RDONLY | O_DIRECT);
	if (fd < 0)
		die("open %s: %s", argv[0], strerror(errno));
	if (posix_memalign((void **)&buf, REC_SIZE, REC_SIZE))
		die("out of memory");
	for (t = 0; t < l.threads; t++) {
		for (k = 0; k < l.count[t]; k++) {
			slot = k * l.threads + t;
			if (pread(fd, buf, REC_SIZE, (off_t)(slot * REC_SIZE)) != REC_SIZE)
				die("read of slot %llu: %s", (unsigned long long)slot,
				    strerror(errno));
			r = check_record(buf, l.run, slot);
			checked++;
			if (r && lost + torn < 10)
				fprintf(stderr, PROG ": %s: slot %llu (thread %u record %llu) %s\n",
					argv[1], (unsigned long long)slot, t,
					(unsigned long long)k, r == 1 ? "lost" : "torn");
			lost += r == 1;
			torn += r == 2;
		}
	}
	return report(argv[1], checked, lost, torn, "");
}

/* ---- file system workload ------------------------------------------------- */

static void path_of(char *buf, size_t len, const char *dir, const char *fmt, uint64_t i)
{
	char name[64];

	snprintf(name, sizeof(name), fmt, (unsigned long long)i);
	snprintf(buf, len, "%s/%s", dir, name);
}

static void file_path(char *buf, size_t len, const char *dir, uint64_t i, bool tmp)
{
	snprintf(buf, len, "%s/d%llu/%s%llu", dir, (unsigned long long)(i / FS_DIR_EVERY),
		 tmp ? ".tmp" : "f", (unsigned long long)i);
}

static size_t file_len(uint64_t run, uint64_t i)
{
	unsigned char b[4];

	fill(b, sizeof(b), run, i ^ 0x5eedull);
	return 1 + ((size_t)b[0] << 8 | b[1]) % FS_MAX_FILE;
}

static void fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || fsync(fd))
		die("fsync %s: %s", path, strerror(errno));
	close(fd);
}

static void write_all(int fd, const void *p, size_t len, off_t off, const char *what)
{
	if (pwrite(fd, p, len, off) != (ssize_t)len)
		die("write %s: %s", what, strerror(errno));
}

struct fs_state {
	const char *dir;
	uint64_t run;
	int log_fd, ow_fd;
};

static void fs_setup(struct fs_state *s)
{
	static unsigned char zero[FS_OW_BLOCKS * REC_SIZE];
	char p[4096];

	path_of(p, sizeof(p), s->dir, "log", 0);
	s->log_fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	path_of(p, sizeof(p), s->dir, "ow", 0);
	s->ow_fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (s->log_fd < 0 || s->ow_fd < 0)
		die("create in %s: %s", s->dir, strerror(errno));
	write_all(s->ow_fd, zero, sizeof(zero), 0, "ow");
	if (fsync(s->ow_fd) || fsync(s->log_fd))
		die("fsync: %s", strerror(errno));
	fsync_path(s->dir);
}

/* Operation i: see the top of the file. */
static void fs_op(struct fs_state *s, uint64_t i)
{
	static unsigned char buf[FS_MAX_FILE];
	char tmp[4096], dst[4096], d[4096];
	size_t len = file_len(s->run, i);
	int fd;

	path_of(d, sizeof(d), s->dir, "d%llu", i / FS_DIR_EVERY);
	if (i % FS_DIR_EVERY == 0) {
		if (mkdir(d, 0755) && errno != EEXIST)
			die("mkdir %s: %s", d, strerror(errno));
		fsync_path(s->dir);
	}
	file_path(tmp, sizeof(tmp), s->dir, i, true);
	file_path(dst, sizeof(dst), s->dir, i, false);
	fill(buf, len, s->run, i);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("create %s: %s", tmp, strerror(errno));
	write_all(fd, buf, len, 0, tmp);
	if (fsync(fd))
		die("fsync %s: %s", tmp, strerror(errno));
	close(fd);
	if (rename(tmp, dst))
		die("rename %s: %s", tmp, strerror(errno));
	fsync_path(d);

	fill(buf, FS_LOG_REC, s->run, i | 1ull << 62);
	write_all(s->log_fd, buf, FS_LOG_REC, (off_t)(i * FS_LOG_REC), "log");
	if (fdatasync(s->log_fd))
		die("fdatasync log: %s", strerror(errno));

	if (i % FS_OW_EVERY == 0) {
		fill(buf, REC_SIZE, s->run, i | 1ull << 61);
		write_all(s->ow_fd, buf, REC_SIZE,
			  (off_t)((i / FS_OW_EVERY) % FS_OW_BLOCKS * REC_SIZE), "ow");
		if (fdatasync(s->ow_fd))
			die("fdatasync ow: %s", strerror(errno));
	}
	if (i >= FS_UNLINK_AFTER && (i - FS_UNLINK_AFTER) % FS_UNLINK_EVERY == 0) {
		uint64_t j = i - FS_UNLINK_AFTER;

		file_path(dst, sizeof(dst), s->dir, j, false);
		if (unlink(dst))
			die("unlink %s: %s", dst, strerror(errno));
		path_of(d, sizeof(d), s->dir, "d%llu", j / FS_DIR_EVERY);
		fsync_path(d);
	}
}

static int cmd_fs(int argc, char **argv)
{
	static struct acks acks;
	struct fs_state s;
	pthread_t th;
	uint64_t i;

	if (argc < 3)
		die("usage: fs DIR TAG RUN");
	s.dir = argv[0];
	s.run = parse_u64(argv[2], "run");
	fs_setup(&s);
	acks.tag = argv[1];
	acks.threads = 1;
	emit("SMQ-OUT PLRUN %s fs %llu 1\n", argv[1], (unsigned long long)s.run);
	if (pthread_create(&th, NULL, ack_printer, &acks))
		die("pthread_create");
	for (i = 0;; i++) {
		fs_op(&s, i);
		acked(&acks, 0, i + 1);
	}
	return 0;
}

/* 0: FILE has exactly LEN bytes of (run, id); 1: missing; 2: different. */
static int check_file(const char *path, size_t len, uint64_t run, uint64_t id)
{
	static unsigned char want[FS_MAX_FILE + 1], got[FS_MAX_FILE + 1];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 1;
	n = read(fd, got, sizeof(got));
	close(fd);
	fill(want, len, run, id);
	return n == (ssize_t)len && !memcmp(got, want, len) ? 0 : 2;
}

static bool check_range(int fd, off_t off, size_t len, uint64_t run, uint64_t id)
{
	unsigned char want[REC_SIZE], got[REC_SIZE];

	fill(want, len, run, id);
	return pread(fd, got, len, off) == (ssize_t)len && !memcmp(got, want, len);
}

static void fs_problem(const char *tag, uint64_t *n, const char *fmt, ...)
{
	va_list ap;

	(*n)++;
	if (*n > 10)
		return;
	va_start(ap, fmt);
	fprintf(stderr, PROG ": %s: ", tag);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The ow block written by operation i must be one of its writers' since. */
static bool ow_block_ok(int fd, uint64_t run, uint64_t i, uint64_t acked_ops)
{
	off_t off = (off_t)((i / FS_OW_EVERY) % FS_OW_BLOCKS * REC_SIZE);
	uint64_t w;

	for (w = i; w < acked_ops + 4 * FS_OW_EVERY * FS_OW_BLOCKS;
	     w += FS_OW_EVERY * FS_OW_BLOCKS)
		if (check_range(fd, off, REC_SIZE, run, w | 1ull << 61))
			return true;
	return false;
}

static int cmd_fscheck(int argc, char **argv)
{
	uint64_t i, n, lost = 0, torn = 0, gone = 0;
	char p[4096], extra[64];
	struct ack_log l;
	int fd, r;

	if (argc < 3)
		die("usage: fscheck DIR TAG ACKS");
	read_acks(argv[2], argv[1], &l);
	if (!l.found)
		return report(argv[1], 0, 0, 0, " (no run)");
	if (strcmp(l.kind, "fs"))
		die("%s is a %s run", argv[1], l.kind);
	n = l.count[0];
	for (i = 0; i < n; i++) {
		bool unlinked = i % FS_UNLINK_EVERY == 0;

		file_path(p, sizeof(p), argv[0], i, false);
		r = check_file(p, file_len(l.run, i), l.run, i);
		if (unlinked && i + FS_UNLINK_AFTER < n) {
			if (r != 1)
				fs_problem(argv[1], &lost, "%s is back after its unlink was synced", p);
			continue;
		}
		if (r == 1 && unlinked) {
			gone++;		/* its unlink may have been under way */
			continue;
		}
		if (r)
			fs_problem(argv[1], r == 1 ? &lost : &torn, "%s %s", p,
				   r == 1 ? "missing" : "short or changed");
	}
	path_of(p, sizeof(p), argv[0], "log", 0);
	fd = open(p, O_RDONLY);
	if (fd < 0) {
		fs_problem(argv[1], &lost, "%s missing", p);
	} else {
		for (i = 0; i < n; i++)
			if (!check_range(fd, (off_t)(i * FS_LOG_REC), FS_LOG_REC, l.run,
					 i | 1ull << 62))
				fs_problem(argv[1], &lost, "log record %llu missing",
					   (unsigned long long)i);
		close(fd);
	}
	path_of(p, sizeof(p), argv[0], "ow", 0);
	fd = open(p, O_RDONLY);
	if (fd < 0) {
		fs_problem(argv[1], &lost, "%s missing", p);
	} else {
		/* The last acknowledged writer of each block. */
		for (i = n > FS_OW_EVERY * FS_OW_BLOCKS ? n - FS_OW_EVERY * FS_OW_BLOCKS : 0;
		     i < n; i++)
			if (i % FS_OW_EVERY == 0 && !ow_block_ok(fd, l.run, i, n))
				fs_problem(argv[1], &lost, "ow block of operation %llu lost",
					   (unsigned long long)i);
		close(fd);
	}
	snprintf(extra, sizeof(extra), " (unlinked in flight %llu)", (unsigned long long)gone);
	return report(argv[1], n, lost, torn, extra);
}

int main(int argc, char **argv)
{
	setvbuf(stderr, NULL, _IONBF, 0);
	crc_init();
	if (argc >= 2 && !strcmp(argv[1], "write"))
		return cmd_write(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "fs"))
		return cmd_fs(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "fscheck"))
		return cmd_fscheck(argc - 2, argv + 2);
	fprintf(stderr, "usage: " PROG " write|check|fs|fscheck ... (see the source)\n");
	return 2;
}
