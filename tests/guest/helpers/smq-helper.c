// SPDX-License-Identifier: GPL-2.0
/*
 * smq-helper: small operations the guest tests cannot do from busybox sh.
 *
 * tools/vm/run.sh compiles it on the host (cc -static) into every guest's
 * per-boot archive as /smq/bin/smq-helper (on the guest's PATH).  See
 * usage() for the subcommands and their exit status.
 *
 * failnth: systematic fault injection (CONFIG_FAULT_INJECTION).  The count
 * in /proc/thread-self/fail-nth belongs to the writing task, so the task
 * that sets it must be the one that makes the system call: a shell cannot
 * do both (its "echo N >" and the command it runs next are different
 * processes, and the redirection itself allocates).  Every descriptor and
 * buffer is prepared before the count is set, and the process's memory is
 * locked, so that the first failable check after it is the system call's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <scsi/sg.h>

#define PROG		"smq-helper"
#define FAIL_NTH	"/proc/thread-self/fail-nth"

/* Exit status. */
#define EX_OK		0
#define EX_FAILED	1
#define EX_SETUP	2

#define SG_TIMEOUT_MS	10000
#define INQUIRY_LEN	36

static char stdout_buf[4096];

static const char usage_text[] =
"usage: " PROG " SUBCOMMAND ARGS...\n"
"\n"
"  failnth N finit MODULE.ko [PARAMS...]\n"
"      Open MODULE.ko, set " FAIL_NTH " to N (the Nth fault-injection\n"
"      check of this task fails), call finit_module(fd, \"PARAMS\", 0), read\n"
"      fail-nth back and reset it to 0. Prints\n"
"        ret=<0|-errno> consumed=<0|1>\n"
"      consumed=1: the injected failure fired (fail-nth read back 0);\n"
"      consumed=0: the call made fewer than N checks.\n"
"  failnth N write FILE STRING\n"
"      Open FILE for writing, set fail-nth to N, write STRING once (no\n"
"      newline added), read back and reset fail-nth. Prints\n"
"        ret=<bytes|-errno> consumed=<0|1>\n"
"      failnth exits 0 when the system call was made, whatever it returned.\n"
"  sgio DEV [--wait FILE]\n"
"      Open DEV (O_RDONLY|O_NONBLOCK) and send TEST UNIT READY and INQUIRY\n"
"      (36 bytes) with SG_IO (timeout 10 s). Prints \"open ok\", then per\n"
"      command\n"
"        TUR: ret=<0|-errno> status=0x.. host=0x.. driver=0x..\n"
"        INQUIRY: ret=<0|-errno> status=0x.. host=0x.. driver=0x..\n"
"      With --wait FILE: then prints \"waiting\", waits (polling every\n"
"      100 ms, at most 120 s) until FILE exists, sends both commands again\n"
"      on the same descriptor, prints their lines, closes it and prints\n"
"      \"closed\". Exits 0 if the first TUR returned 0 with status, host and\n"
"      driver status 0, else 1 (the second round is only printed).\n"
"  sgtimeout DEV ro|rw SECONDS\n"
"      Open DEV (O_RDONLY or O_RDWR), SG_GET_TIMEOUT, SG_SET_TIMEOUT to\n"
"      SECONDS (in clock ticks; negative values are passed on too),\n"
"      SG_GET_TIMEOUT again. Prints\n"
"        get=<ticks|-errno> set=<0|-errno> after=<ticks|-errno>\n"
"      Exits 0 if the set succeeded, 1 if it failed.\n"
"  hold DEV FILE\n"
"      Open DEV (O_RDONLY), print \"holding\", wait (polling every 100 ms,\n"
"      at most 300 s) until FILE exists, close DEV, print \"closed\".\n"
"      Exits 0; 1 if FILE did not appear in time (DEV is closed anyway).\n"
"  write FILE STRING\n"
"      Open FILE for writing and write STRING once (no newline added), as\n"
"      a sysfs store sees it. Prints\n"
"        ret=<bytes|-errno>\n"
"      Exits 0 if all of STRING was written, 1 if the write failed or was\n"
"      short (the errno is in the line: a shell's echo does not show it).\n"
"\n"
"Exit status 2: usage error, or a setup step failed (an open, fail-nth\n"
"missing, --wait FILE never appeared); each error is one line on stderr.\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

/* One line on stderr: "smq-helper: <what>: <strerror(err)>". */
static void err_line(int err, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
}

static int parse_uint(const char *s, const char *what, unsigned int *val)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > 0x7fffffffUL) {
		err_line(0, "invalid %s '%s'", what, s);
		return -1;
	}
	*val = v;
	return 0;
}

/* wait_for FILE SECS: poll every 100 ms until FILE exists; 0 or -1. */
static int wait_for(const char *file, unsigned int secs)
{
	unsigned int n;
	struct stat st;

	for (n = 0; n < secs * 10; n++) {
		if (!stat(file, &st))
			return 0;
		usleep(100000);
	}
	if (!stat(file, &st))
		return 0;
	err_line(ETIMEDOUT, "waiting %u s for %s", secs, file);
	return -1;
}

/* ------------------------------------------------------------------ */
/* failnth */

/*
 * Touch a good stretch of stack, then lock all memory, so that no page
 * fault (which allocates, and counts against fail-nth) happens between
 * setting the count and reading it back.
 */
static void prefault(void)
{
	volatile char stack[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(stack); i += 256)
		stack[i] = 0;
	mlockall(MCL_CURRENT | MCL_FUTURE);	/* best effort */
}

static int failnth(int argc, char **argv)
{
	char num[32], back[32];
	unsigned int nth;
	char *params = NULL;
	const char *op, *file;
	size_t len;
	ssize_t n;
	long ret;
	int fnfd, fd, i, consumed, err;

	if (argc < 5 || (!strcmp(argv[3], "write") && argc != 6)) {
		err_line(0,
			 "usage: %s failnth N finit MODULE.ko [PARAMS...] | failnth N write FILE STRING",
			 PROG);
		return EX_SETUP;
	}
	if (parse_uint(argv[2], "N", &nth))
		return EX_SETUP;
	op = argv[3];
	file = argv[4];
	if (strcmp(op, "finit") && strcmp(op, "write")) {
		err_line(0, "unknown failnth operation '%s' (finit, write)", op);
		return EX_SETUP;
	}

	fnfd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (fnfd < 0) {
		err_line(errno, "open %s", FAIL_NTH);
		return EX_SETUP;
	}
	if (!strcmp(op, "finit")) {
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err_line(errno, "open %s", file);
			return EX_SETUP;
		}
		/* PARAMS joined with spaces. */
		len = 1;
		for (i = 5; i < argc; i++)
			len += strlen(argv[i]) + 1;
		params = calloc(1, len);
		if (!params) {
			err_line(errno, "allocating the parameter string");
			return EX_SETUP;
		}
		for (i = 5; i < argc; i++) {
			if (i > 5)
				strcat(params, " ");
			strcat(params, argv[i]);
		}
	} else {
		fd = open(file, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			err_line(errno, "open %s", file);
			return EX_SETUP;
		}
	}
	snprintf(num, sizeof(num), "%u", nth);
	memset(back, 0, sizeof(back));
	prefault();

	if (pwrite(fnfd, num, strlen(num), 0) < 0) {
		err_line(errno, "write %u to %s", nth, FAIL_NTH);
		free(params);
		return EX_SETUP;
	}
	if (params)
		ret = syscall(SYS_finit_module, fd, params, 0);
	else
		ret = write(fd, argv[5], strlen(argv[5]));
	err = ret < 0 ? errno : 0;
	n = pread(fnfd, back, sizeof(back) - 1, 0);
	i = errno;
	/* Reset before anything else can count (or fail). */
	if (pwrite(fnfd, "0", 1, 0) < 0) {
		err_line(errno, "write 0 to %s", FAIL_NTH);
		free(params);
		return EX_SETUP;
	}
	if (n < 0) {
		err_line(i, "read back %s", FAIL_NTH);
		free(params);
		return EX_SETUP;
	}
	back[n] = '\0';
	consumed = strtoul(back, NULL, 10) == 0;

	printf("ret=%ld consumed=%d\n", ret < 0 ? -(long)err : ret, consumed);
	close(fd);
	close(fnfd);
	free(params);
	return EX_OK;
}

/* ------------------------------------------------------------------ */
/* sgio */

/* Send one command; print its line; true if it fully succeeded. */
static int sg_cmd(int fd, const char *name, unsigned char *cdb,
		  unsigned char cdb_len, void *buf, unsigned int buf_len)
{
	unsigned char sense[32];
	struct sg_io_hdr io;
	int ret;

	memset(&io, 0, sizeof(io));
	memset(sense, 0, sizeof(sense));
	io.interface_id = 'S';
	io.cmd_len = cdb_len;
	io.cmdp = cdb;
	io.mx_sb_len = sizeof(sense);
	io.sbp = sense;
	io.timeout = SG_TIMEOUT_MS;
	if (buf_len) {
		io.dxfer_direction = SG_DXFER_FROM_DEV;
		io.dxferp = buf;
		io.dxfer_len = buf_len;
	} else {
		io.dxfer_direction = SG_DXFER_NONE;
	}
	ret = ioctl(fd, SG_IO, &io) < 0 ? -errno : 0;
	printf("%s: ret=%d status=0x%02x host=0x%02x driver=0x%02x\n", name,
	       ret, ret ? 0 : io.status, ret ? 0 : io.host_status,
	       ret ? 0 : io.driver_status);
	return !ret && !io.status && !io.host_status && !io.driver_status;
}

/* TEST UNIT READY, then INQUIRY; true if the TUR fully succeeded. */
static int sg_round(int fd)
{
	unsigned char tur[6] = { 0x00 };
	unsigned char inq[6] = { 0x12, 0, 0, 0, INQUIRY_LEN, 0 };
	unsigned char data[INQUIRY_LEN];
	int ok;

	ok = sg_cmd(fd, "TUR", tur, sizeof(tur), NULL, 0);
	memset(data, 0, sizeof(data));
	sg_cmd(fd, "INQUIRY", inq, sizeof(inq), data, sizeof(data));
	return ok;
}

static int sgio(int argc, char **argv)
{
	const char *dev, *wait_file = NULL;
	int fd, ok;

	if (argc == 5 && !strcmp(argv[3], "--wait")) {
		wait_file = argv[4];
	} else if (argc != 3) {
		err_line(0, "usage: %s sgio DEV [--wait FILE]", PROG);
		return EX_SETUP;
	}
	dev = argv[2];

	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err_line(errno, "open %s", dev);
		return EX_SETUP;
	}
	printf("open ok\n");
	ok = sg_round(fd);
	if (wait_file) {
		printf("waiting\n");
		if (wait_for(wait_file, 120)) {
			close(fd);
			return EX_SETUP;
		}
		sg_round(fd);
		if (close(fd))
			err_line(errno, "close %s", dev);
		printf("closed\n");
	} else {
		close(fd);
	}
	return ok ? EX_OK : EX_FAILED;
}

/* ------------------------------------------------------------------ */
/* sgtimeout */

static int sgtimeout(int argc, char **argv)
{
	int fd, flags, get, set, after, ticks;
	long secs, hz;
	char *end;

	if (argc != 5) {
		err_line(0, "usage: %s sgtimeout DEV ro|rw SECONDS", PROG);
		return EX_SETUP;
	}
	if (!strcmp(argv[3], "ro")) {
		flags = O_RDONLY;
	} else if (!strcmp(argv[3], "rw")) {
		flags = O_RDWR;
	} else {
		err_line(0, "invalid mode '%s' (ro, rw)", argv[3]);
		return EX_SETUP;
	}
	/* Negative values too: the kernel is to refuse them. */
	errno = 0;
	secs = strtol(argv[4], &end, 10);
	if (errno || end == argv[4] || *end) {
		err_line(0, "invalid SECONDS '%s'", argv[4]);
		return EX_SETUP;
	}
	hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0 || secs > INT_MAX / hz || secs < INT_MIN / hz) {
		err_line(0, "SECONDS %ld out of range (%ld ticks/s)", secs, hz);
		return EX_SETUP;
	}
	ticks = (int)(secs * hz);

	fd = open(argv[2], flags | O_CLOEXEC);
	if (fd < 0) {
		err_line(errno, "open %s", argv[2]);
		return EX_SETUP;
	}
	get = ioctl(fd, SG_GET_TIMEOUT, 0);
	if (get < 0)
		get = -errno;
	set = ioctl(fd, SG_SET_TIMEOUT, &ticks) < 0 ? -errno : 0;
	after = ioctl(fd, SG_GET_TIMEOUT, 0);
	if (after < 0)
		after = -errno;
	close(fd);
	printf("get=%d set=%d after=%d\n", get, set, after);
	if (set) {
		err_line(-set, "SG_SET_TIMEOUT %d on %s", ticks, argv[2]);
		return EX_FAILED;
	}
	return EX_OK;
}

/* ------------------------------------------------------------------ */
/* hold */

static int hold(int argc, char **argv)
{
	int fd, ret;

	if (argc != 4) {
		err_line(0, "usage: %s hold DEV FILE", PROG);
		return EX_SETUP;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err_line(errno, "open %s", argv[2]);
		return EX_SETUP;
	}
	printf("holding\n");
	ret = wait_for(argv[3], 300) ? EX_FAILED : EX_OK;
	if (close(fd))
		err_line(errno, "close %s", argv[2]);
	printf("closed\n");
	return ret;
}

/* write FILE STRING: one write(2), its result printed. */
static int write_file(int argc, char **argv)
{
	size_t len;
	ssize_t ret;
	int fd;

	if (argc != 4) {
		err_line(0, "usage: %s write FILE STRING", PROG);
		return EX_SETUP;
	}
	fd = open(argv[2], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err_line(errno, "open %s", argv[2]);
		return EX_SETUP;
	}
	len = strlen(argv[3]);
	ret = write(fd, argv[3], len);
	printf("ret=%zd\n", ret < 0 ? (ssize_t)-errno : ret);
	close(fd);
	return ret == (ssize_t)len ? EX_OK : EX_FAILED;
}

int main(int argc, char **argv)
{
	/* Line by line, even into a file a test script is polling. */
	setvbuf(stdout, stdout_buf, _IOLBF, sizeof(stdout_buf));

	if (argc < 2) {
		usage(stderr);
		return EX_SETUP;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EX_OK;
	}
	if (!strcmp(argv[1], "failnth"))
		return failnth(argc, argv);
	if (!strcmp(argv[1], "sgio"))
		return sgio(argc, argv);
	if (!strcmp(argv[1], "sgtimeout"))
		return sgtimeout(argc, argv);
	if (!strcmp(argv[1], "hold"))
		return hold(argc, argv);
	if (!strcmp(argv[1], "write"))
		return write_file(argc, argv);
	err_line(0, "unknown subcommand '%s' (%s -h lists them)", argv[1], PROG);
	return EX_SETUP;
}
