// SPDX-License-Identifier: GPL-2.0
/*
 * User-space test of /dev/rust-out-of-tree (rust_out_of_tree.rs). Given the
 * module's .ko, it loads it first and unloads it at the end, which needs
 * root: "sudo ./rust_out_of_tree_test ./rust_out_of_tree.ko". Without an
 * argument it tests the device of a module already loaded.
 *
 * It prints TAP and exits 0 when every case passed. It needs nothing but
 * libc: the headers package of a kernel, which is all an out-of-tree build
 * has, carries no selftest harness.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define DEV "/dev/rust-out-of-tree"
#define MODULE_NAME "rust_out_of_tree"
/* CAPACITY in rust_out_of_tree.rs. */
#define CAPACITY (16 * 1024)
/* An address no test maps: user copies through it fault. */
#define BAD_PTR ((void *)8)

static int cases, failed;

/* Check COND; on failure say where and why, and fail the case. */
#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: %s (errno %d: %s)\n", __FILE__,	\
		       __LINE__, #cond, errno, strerror(errno));	\
		return -1;						\
	}								\
} while (0)

static int open_dev(void)
{
	int fd = open(DEV, O_RDWR);

	if (fd < 0)
		printf("# open %s: %s\n", DEV, strerror(errno));
	return fd;
}

/* Appends go to the end; reads walk the log from the file position. */
static int append_then_read(int fd)
{
	char buf[32] = { 0 };

	CHECK(read(fd, buf, sizeof(buf)) == 0);
	CHECK(write(fd, "hello", 5) == 5);
	CHECK(write(fd, ", world", 7) == 7);
	CHECK(read(fd, buf, sizeof(buf)) == 12);
	CHECK(memcmp(buf, "hello, world", 12) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	CHECK(pread(fd, buf, 5, 7) == 5);
	CHECK(memcmp(buf, "world", 5) == 0);
	return 0;
}

/* readv and writev move data across their segments in order. */
static int vectors(int fd)
{
	char a[3] = "abc", b[4] = "defg", out1[2], out2[5];
	struct iovec in[] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec out[] = { { out1, sizeof(out1) }, { out2, sizeof(out2) } };

	CHECK(writev(fd, in, 2) == 7);
	CHECK(readv(fd, out, 2) == 7);
	CHECK(memcmp(out1, "ab", 2) == 0);
	CHECK(memcmp(out2, "cdefg", 5) == 0);
	return 0;
}

/* A bad buffer fails with EFAULT, and a failed write leaves the log alone. */
static int bad_buffers(int fd)
{
	char buf[8];

	CHECK(write(fd, "keep", 4) == 4);
	errno = 0;
	CHECK(write(fd, BAD_PTR, 16) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(pread(fd, BAD_PTR, sizeof(buf), 0) == -1 && errno == EFAULT);
	CHECK(pread(fd, buf, sizeof(buf), 0) == 4);
	CHECK(memcmp(buf, "keep", 4) == 0);
	return 0;
}

/* Every open file has a log of its own. */
static int one_log_per_open(int fd)
{
	char buf[8];
	int other = open_dev();

	CHECK(other >= 0);
	CHECK(write(fd, "mine", 4) == 4);
	CHECK(read(other, buf, sizeof(buf)) == 0);
	CHECK(close(other) == 0);
	return 0;
}

/* A write takes what fits; once the log is full, writes fail with ENOSPC. */
static int capacity(int fd)
{
	static char big[CAPACITY + 100];
	static char back[CAPACITY + 100];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + 1);
	CHECK(write(fd, "x", 1) == 1);
	CHECK(write(fd, big, sizeof(big)) == CAPACITY - 1);
	errno = 0;
	CHECK(write(fd, "y", 1) == -1 && errno == ENOSPC);
	CHECK(pread(fd, back, sizeof(back), 0) == CAPACITY);
	CHECK(back[0] == 'x');
	CHECK(memcmp(back + 1, big, CAPACITY - 1) == 0);
	/* An empty write is no error, full or not. */
	CHECK(write(fd, big, 0) == 0);
	return 0;
}

static void run(const char *name, int (*test)(int fd))
{
	int fd = open_dev();
	int ok = fd >= 0 && test(fd) == 0;

	if (fd >= 0)
		close(fd);
	cases++;
	if (!ok)
		failed++;
	printf("%sok %d %s\n", ok ? "" : "not ", cases, name);
}

/* Load the module from PATH. */
static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		printf("Bail out! loading %s: %s\n", path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *module = argc > 1 ? argv[1] : NULL;

	if (argc > 2) {
		fprintf(stderr, "usage: %s [rust_out_of_tree.ko]\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n1..%d\n", module ? 6 : 5);
	if (module && load(module))
		return 1;
	run("append_then_read", append_then_read);
	run("vectors", vectors);
	run("bad_buffers", bad_buffers);
	run("one_log_per_open", one_log_per_open);
	run("capacity", capacity);
	if (module) {
		/* Every file is closed: the module goes, and its device with it. */
		int ok = syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) == 0 &&
			 access(DEV, F_OK) == -1 && errno == ENOENT;

		cases++;
		failed += !ok;
		printf("%sok %d unload\n", ok ? "" : "not ", cases);
	}
	printf("# %d passed, %d failed\n", cases - failed, failed);
	return failed ? 1 : 0;
}
