// SPDX-License-Identifier: GPL-2.0
/*
 * User-space test of /dev/rust-misc-mainline (samples/rust/rust_misc_mainline.rs), the misc
 * device written against mainline's Rust API only: each of its file operations, through
 * read/write, readv/writev, ioctl and /proc/self/fdinfo, what it logs (/dev/kmsg), bad user
 * pointers, and its module parameter (sysfs and fdinfo against the kernel command line).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define DEV "/dev/rust-misc-mainline"
#define MISC_HELLO _IO('|', 0x80)
#define MISC_GET_VALUE _IOR('|', 0x81, int)
#define MISC_SET_VALUE _IOW('|', 0x82, int)
#define SCRATCH_GET_LEN _IO('|', 0x90)
#define SCRATCH_CLEAR _IO('|', 0x91)
/* An address no test maps: user copies through it fault. */
#define BAD_PTR ((void *)8)

FIXTURE(scratch) {
	int fd;
};

FIXTURE_SETUP(scratch)
{
	self->fd = open(DEV, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DEV, strerror(errno));
}

FIXTURE_TEARDOWN(scratch)
{
	close(self->fd);
}

/* A write replaces the contents and rewinds; reads walk them to EOF. */
TEST_F(scratch, write_then_read)
{
	char buf[16] = { 0 };

	ASSERT_EQ(0, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(11, write(self->fd, "hello world", 11));
	ASSERT_EQ(5, read(self->fd, buf, 5));
	ASSERT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(6, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, memcmp(buf, " world", 6));
	ASSERT_EQ(0, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(2, write(self->fd, "hi", 2));
	ASSERT_EQ(2, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, memcmp(buf, "hi", 2));
	/* pread at an offset: simple_read_from_buffer() from that position. */
	ASSERT_EQ(1, pread(self->fd, buf, sizeof(buf), 1));
	ASSERT_EQ('i', buf[0]);
	ASSERT_EQ(0, pread(self->fd, buf, sizeof(buf), 100));
}

/* Vectored I/O gathers into and scatters out of the buffer. */
TEST_F(scratch, vectors)
{
	char a[3], b[5];
	struct iovec out[] = { { "abc", 3 }, { "", 0 }, { "defgh", 5 } };
	struct iovec in[] = { { a, sizeof(a) }, { b, sizeof(b) } };

	ASSERT_EQ(8, writev(self->fd, out, 3));
	ASSERT_EQ(8, readv(self->fd, in, 2));
	ASSERT_EQ(0, memcmp(a, "abc", 3));
	ASSERT_EQ(0, memcmp(b, "defgh", 5));
}

/* Each open has its own buffer. */
TEST_F(scratch, per_open)
{
	int other = open(DEV, O_RDWR);
	char buf[8];

	ASSERT_LE(0, other);
	ASSERT_EQ(4, write(self->fd, "mine", 4));
	ASSERT_EQ(0, read(other, buf, sizeof(buf)));
	close(other);
}

TEST_F(scratch, ioctl)
{
	char buf[8];

	ASSERT_EQ(0, ioctl(self->fd, SCRATCH_GET_LEN));
	ASSERT_EQ(6, write(self->fd, "ioctls", 6));
	ASSERT_EQ(6, ioctl(self->fd, SCRATCH_GET_LEN));
	ASSERT_EQ(0, ioctl(self->fd, SCRATCH_CLEAR));
	ASSERT_EQ(0, ioctl(self->fd, SCRATCH_GET_LEN));
	ASSERT_EQ(0, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(-1, ioctl(self->fd, _IO('|', 0x92)));
	ASSERT_EQ(ENOTTY, errno);
}

/* Reads the small text file @path into @text; returns its length, or -1. */
static ssize_t read_text(const char *path, char *text, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, text, size - 1);
	close(fd);
	if (n >= 0)
		text[n] = 0;
	return n;
}

/* show_fdinfo adds its lines to /proc/self/fdinfo/<fd>. */
TEST_F(scratch, fdinfo)
{
	char path[64], text[512];
	int v = 42;

	ASSERT_EQ(3, write(self->fd, "abc", 3));
	ASSERT_EQ(2, write(self->fd, "de", 2));
	ASSERT_EQ(0, ioctl(self->fd, MISC_SET_VALUE, &v));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, read_text(path, text, sizeof(text)));
	EXPECT_NE(NULL, strstr(text, "scratch_len:\t2\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "scratch_writes:\t2\n")) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "scratch_value:\t42\n")) TH_LOG("%s", text);
}

/*
 * The module parameter tag, an i8: the value the kernel command line gives
 * (rust_misc_mainline.tag=, the last one counts; 0 without it) is the one
 * sysfs and every file's fdinfo show. That holds for the sample built in, as
 * make check builds it; make check passes a negative value.
 */
TEST_F(scratch, tag_parameter)
{
	static const char key[] = "rust_misc_mainline.tag=";
	char cmdline[4096], path[64], text[512], want[64];
	const char *arg, *next;
	long tag = 0;

	ASSERT_LT(0, read_text("/proc/cmdline", cmdline, sizeof(cmdline)));
	arg = NULL;
	for (next = strstr(cmdline, key); next; next = strstr(next + 1, key))
		arg = next;
	if (arg)
		tag = strtol(arg + strlen(key), NULL, 0);
	else
		TH_LOG("no %s on the command line: expecting 0", key);

	snprintf(want, sizeof(want), "%ld\n", tag);
	ASSERT_LT(0, read_text("/sys/module/rust_misc_mainline/parameters/tag",
			       text, sizeof(text)));
	EXPECT_STREQ(want, text);

	snprintf(want, sizeof(want), "scratch_tag:\t%ld\n", tag);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", self->fd);
	ASSERT_LT(0, read_text(path, text, sizeof(text)));
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
}

/*
 * A bad user buffer fails with EFAULT, both ways, and a failed write keeps
 * the contents (mainline's sample returns 0 for both, and its write has
 * already emptied the buffer by then).
 */
TEST_F(scratch, bad_buffer)
{
	char buf[8];

	ASSERT_EQ(4, write(self->fd, "full", 4));
	ASSERT_EQ(-1, write(self->fd, BAD_PTR, 4));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(4, ioctl(self->fd, SCRATCH_GET_LEN));
	ASSERT_EQ(-1, read(self->fd, BAD_PTR, 4));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(4, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(0, memcmp(buf, "full", 4));
	/* Nothing asked, nothing copied: not a fault. */
	ASSERT_EQ(0, write(self->fd, BAD_PTR, 0));
	ASSERT_EQ(0, read(self->fd, BAD_PTR, 0));
}

/* MISC_GET_VALUE and MISC_SET_VALUE: an int per open file, 0 at first. */
TEST_F(scratch, value)
{
	int other = open(DEV, O_RDWR);
	int v = -1;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, ioctl(self->fd, MISC_GET_VALUE, &v));
	ASSERT_EQ(0, v);
	v = -123456;
	ASSERT_EQ(0, ioctl(self->fd, MISC_SET_VALUE, &v));
	v = 0;
	ASSERT_EQ(0, ioctl(self->fd, MISC_GET_VALUE, &v));
	ASSERT_EQ(-123456, v);
	ASSERT_EQ(0, ioctl(other, MISC_GET_VALUE, &v));
	ASSERT_EQ(0, v);
	close(other);
	/* Bad pointers: EFAULT, and the value stays. */
	ASSERT_EQ(-1, ioctl(self->fd, MISC_SET_VALUE, BAD_PTR));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, ioctl(self->fd, MISC_GET_VALUE, BAD_PTR));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(0, ioctl(self->fd, MISC_GET_VALUE, &v));
	ASSERT_EQ(-123456, v);
}

/* Opens /dev/kmsg positioned after every record logged so far. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Whether a record logged since kmsg_open() contains @text. */
static bool kmsg_has(int fd, const char *text)
{
	char rec[1024];
	ssize_t n;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = 0;
		if (strstr(rec, text))
			return true;
	}
	return false;
}

/* The device logs through dev_info!()/dev_err!(), with its name in front. */
TEST(logs)
{
	int kmsg = kmsg_open();
	int fd;

	ASSERT_LE(0, kmsg);
	fd = open(DEV, O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(kmsg_has(kmsg, "rust-misc-mainline: opened"));
	ASSERT_EQ(0, ioctl(fd, MISC_HELLO));
	EXPECT_TRUE(kmsg_has(kmsg, "rust-misc-mainline: hello"));
	ASSERT_EQ(-1, ioctl(fd, _IO('|', 0x92)));
	ASSERT_EQ(ENOTTY, errno);
	EXPECT_TRUE(kmsg_has(kmsg, "rust-misc-mainline: unknown ioctl 0x7c92"));
	close(fd);
	EXPECT_TRUE(kmsg_has(kmsg, "rust-misc-mainline: closed"));
	close(kmsg);
}

TEST_HARNESS_MAIN
