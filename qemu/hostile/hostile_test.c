// SPDX-License-Identifier: GPL-2.0
/*
 * User-space side of the hostile Rust driver test (rust_hostile.rs): load
 * the module, make each of its devices misbehave, and check that the kernel
 * turned every misuse into a clean error, leaked nothing and stays sound.
 *
 * The module comes from /modules/rust_hostile.ko (the initramfs puts it
 * there). One test provokes a report on purpose (a misc device registered
 * twice: sysfs warns and dumps the stack); it names that report on
 * /dev/kmsg first, as qemu/results.py requires.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define MODULE_PATH "/modules/rust_hostile.ko"
#define MODULE_NAME "rust_hostile"
#define HOSTILE_DUP_REGISTER _IO('|', 0xa0)

/* Load the module unless it is loaded; 0 or -errno. */
static int load_module(void)
{
	int fd, ret = 0;

	if (access("/dev/hostile-status", F_OK) == 0)
		return 0;
	fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		ret = -errno;
	close(fd);
	return ret;
}

static int open_dev(struct __test_metadata *_metadata, const char *name, int flags)
{
	char path[64];
	int fd;

	ASSERT_EQ(0, load_module());
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, flags | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	return fd;
}

/* Whether the kernel log holds a line containing @text. */
static int klog_has(const char *text)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n, found;

	if (len <= 0)
		return 0;
	buf = calloc(1, len + 1);
	if (!buf)
		return 0;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	found = n > 0 && strstr(buf, text) != NULL;
	free(buf);
	return found;
}

/*
 * Name, on the console, a kernel report that the next step provokes on
 * purpose (qemu/results.py excuses exactly that one); 0 or -errno.
 */
static int expect_report(const char *head)
{
	char line[512];
	int fd, len, ret = 0;

	len = snprintf(line, sizeof(line), "iov-expect-report: %s\n", head);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, line, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

static size_t pipe_bytes(int rfd)
{
	int n = -1;

	if (ioctl(rfd, FIONREAD, &n))
		return (size_t)-1;
	return n;
}

TEST(read_more_than_asked)
{
	int fd = open_dev(_metadata, "hostile-read-more", O_RDONLY);
	char buf[32];

	memset(buf, 0, sizeof(buf));
	EXPECT_EQ(-1, pread(fd, buf, 16, 0));
	EXPECT_EQ(EIO, errno);
	EXPECT_TRUE(klog_has("ReadMore::read_iter returned 17 bytes but copied 16"));
	close(fd);
}

TEST(read_more_than_asked_splice)
{
	int fd = open_dev(_metadata, "hostile-read-more", O_RDONLY);
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, splice(fd, NULL, p[1], NULL, 4096, 0));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, pipe_bytes(p[0]));
	close(p[0]);
	close(p[1]);
	close(fd);
}

TEST(read_claims_eiocbqueued)
{
	int fd = open_dev(_metadata, "hostile-read-queued", O_RDONLY);
	char buf[16];

	EXPECT_EQ(-1, pread(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(EIO, errno);
	close(fd);
}

TEST(read_claims_unwritten)
{
	int fd = open_dev(_metadata, "hostile-read-unwritten", O_RDONLY);
	char buf[16];

	EXPECT_EQ(-1, pread(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(EIO, errno);
	close(fd);
}

TEST(read_claims_unwritten_splice)
{
	int fd = open_dev(_metadata, "hostile-read-unwritten", O_RDONLY);
	int p[2];

	ASSERT_EQ(0, pipe(p));
	EXPECT_EQ(-1, splice(fd, NULL, p[1], NULL, 4096, 0));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, pipe_bytes(p[0]));
	close(p[0]);
	close(p[1]);
	close(fd);
}

/*
 * Splice out of a device that skips its destination: the pages splice
 * allocated must not reach the pipe with what they held before. Pages with
 * a known pattern are freed first, so that splice likely gets them back.
 */
TEST(read_skips_splice)
{
	static char pattern[65536], back[65536];
	int fd, prime, p[2], i;
	ssize_t n, got;

	ASSERT_EQ(0, pipe(p));
	ASSERT_LE(65536, fcntl(p[1], F_SETPIPE_SZ, 65536));
	prime = open("/tmp/hostile-prime", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_LE(0, prime);
	memset(pattern, 0x5a, sizeof(pattern));
	for (i = 0; i < 4; i++) {
		/* A read through the pipe: fresh pages, filled, then freed. */
		ASSERT_EQ(sizeof(pattern), pwrite(prime, pattern, sizeof(pattern), 0));
		ASSERT_EQ(sizeof(pattern), splice(prime, &(loff_t){ 0 }, p[1], NULL,
						  sizeof(pattern), 0));
		ASSERT_EQ(sizeof(pattern), read(p[0], back, sizeof(back)));
	}
	close(prime);
	unlink("/tmp/hostile-prime");

	fd = open_dev(_metadata, "hostile-read-skipped", O_RDONLY);
	n = splice(fd, NULL, p[1], NULL, sizeof(back), 0);
	ASSERT_LT(0, n) TH_LOG("splice: %s", strerror(errno));
	got = read(p[0], back, n);
	ASSERT_EQ(n, got);
	for (i = 0; i < got; i++)
		if (back[i])
			break;
	EXPECT_EQ(got, i) TH_LOG("byte %d of the pipe is 0x%02x, not written by the device",
				 i, (unsigned char)back[i]);
	close(p[0]);
	close(p[1]);
	close(fd);
}

TEST(write_more_than_asked)
{
	int fd = open_dev(_metadata, "hostile-write-more", O_WRONLY);
	char buf[16] = "0123456789abcdef";

	EXPECT_EQ(-1, pwrite(fd, buf, sizeof(buf), 0));
	EXPECT_EQ(EIO, errno);
	close(fd);
}

TEST(write_more_than_asked_splice)
{
	int fd = open_dev(_metadata, "hostile-write-more", O_WRONLY);
	static char buf[4096];
	int p[2];

	ASSERT_EQ(0, pipe(p));
	memset(buf, 'w', sizeof(buf));
	ASSERT_EQ(sizeof(buf), write(p[1], buf, sizeof(buf)));
	EXPECT_EQ(-1, splice(p[0], NULL, fd, NULL, sizeof(buf), 0));
	EXPECT_EQ(EIO, errno);
	close(p[0]);
	close(p[1]);
	close(fd);
}

/* What show_fdinfo prints, in the order the pieces were printed. */
TEST(fdinfo_reentry)
{
	int fd = open_dev(_metadata, "hostile-fdinfo", O_RDONLY);
	char path[64], want[1200], *line;
	static char text[8192];
	ssize_t n;
	int info;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	info = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, info);
	n = read(info, text, sizeof(text) - 1);
	ASSERT_LT(0, n);
	text[n] = '\0';
	close(info);

	strcpy(want, "outer:\tinner:\t");
	memset(want + strlen(want), '#', 1000);
	strcpy(want + strlen("outer:\tinner:\t") + 1000, "\nx\tend\n");
	line = strstr(text, "outer:");
	ASSERT_NE(NULL, line) TH_LOG("no outer: line in %s", text);
	EXPECT_STREQ(want, line);
	EXPECT_EQ(strlen(text), (size_t)n) TH_LOG("fdinfo holds a NUL byte");
	close(fd);
}

TEST(registration_data_dropped_on_failure)
{
	int fd = open_dev(_metadata, "hostile-status", O_RDONLY);

	ASSERT_EQ(0, expect_report("sysfs: cannot create duplicate filename "
				   "'/devices/virtual/misc/hostile-status'"));
	/* The second registration fails; its data must have been dropped. */
	EXPECT_EQ(1, ioctl(fd, HOSTILE_DUP_REGISTER));
	close(fd);
}

/* The module goes away: the last tests but one. */
TEST(no_unload_while_open)
{
	int fd = open_dev(_metadata, "hostile-read-more", O_RDONLY);

	EXPECT_EQ(-1, syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	close(fd);
	EXPECT_EQ(0, access("/dev/hostile-leaked", F_OK));
	EXPECT_EQ(0, syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK))
		TH_LOG("delete_module: %s", strerror(errno));
}

/* After the module went away: its leaked device must have gone with it. */
TEST(leaked_registration_gone)
{
	static char text[16384];
	ssize_t n;
	int fd;

	if (access("/dev/hostile-status", F_OK) == 0)
		SKIP(return, "the module is still loaded (no_unload_while_open failed)");
	EXPECT_EQ(-1, access("/dev/hostile-leaked", F_OK));
	EXPECT_EQ(ENOENT, errno);
	fd = open("/proc/misc", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	n = read(fd, text, sizeof(text) - 1);
	ASSERT_LT(0, n);
	text[n] = '\0';
	close(fd);
	EXPECT_EQ(NULL, strstr(text, "hostile")) TH_LOG("/proc/misc still lists: %s", text);
	EXPECT_TRUE(klog_has("misc: hostile-leaked: module rust_hostile went away without "
			     "deregistering it"));
}

TEST_HARNESS_MAIN
