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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define DEV "/dev/rust-out-of-tree"
#define MODULE_NAME "rust_out_of_tree"
/* CAPACITY in rust_out_of_tree.rs. */
#define CAPACITY (16 * 1024)
/* A page no access is allowed to: user copies through it fault. */
static void *bad_page;

static int cases, failed;

/*
 * One expectation: on failure, say which and where (with errno, which
 * explains a failed call and means nothing otherwise), and return false.
 */
static bool expect(bool ok, const char *what, int line)
{
	if (!ok)
		printf("# %s:%d: %s (errno %d: %s)\n", __FILE__, line, what,
		       errno, strerror(errno));
	return ok;
}

#define EXPECT(cond) expect((cond), #cond, __LINE__)

static int open_dev(void)
{
	int fd = open(DEV, O_RDWR);

	if (fd < 0)
		printf("# open %s: %s\n", DEV, strerror(errno));
	return fd;
}

/* Appends go to the end; reads walk the log from the file position. */
static bool append_then_read(int fd)
{
	char buf[32] = { 0 };
	bool ok = true;

	ok &= EXPECT(read(fd, buf, sizeof(buf)) == 0);
	ok &= EXPECT(write(fd, "hello", 5) == 5);
	ok &= EXPECT(write(fd, ", world", 7) == 7);
	ok &= EXPECT(read(fd, buf, sizeof(buf)) == 12);
	ok &= EXPECT(memcmp(buf, "hello, world", 12) == 0);
	ok &= EXPECT(read(fd, buf, sizeof(buf)) == 0);
	ok &= EXPECT(pread(fd, buf, 5, 7) == 5);
	ok &= EXPECT(memcmp(buf, "world", 5) == 0);
	return ok;
}

/* readv and writev move data across their segments in order. */
static bool vectors(int fd)
{
	char a[] = { 'a', 'b', 'c' }, b[] = { 'd', 'e', 'f', 'g' }, out1[2], out2[5];
	struct iovec in[] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec out[] = { { out1, sizeof(out1) }, { out2, sizeof(out2) } };
	bool ok = true;

	ok &= EXPECT(writev(fd, in, 2) == 7);
	ok &= EXPECT(readv(fd, out, 2) == 7);
	ok &= EXPECT(memcmp(out1, "ab", 2) == 0);
	ok &= EXPECT(memcmp(out2, "cdefg", 5) == 0);
	return ok;
}

/* A bad buffer fails with EFAULT, and a failed write leaves the log alone. */
static bool bad_buffers(int fd)
{
	char buf[8];
	bool ok = true;

	ok &= EXPECT(write(fd, "keep", 4) == 4);
	errno = 0;
	ok &= EXPECT(write(fd, bad_page, 16) == -1 && errno == EFAULT);
	errno = 0;
	ok &= EXPECT(pread(fd, bad_page, sizeof(buf), 0) == -1 && errno == EFAULT);
	ok &= EXPECT(pread(fd, buf, sizeof(buf), 0) == 4);
	ok &= EXPECT(memcmp(buf, "keep", 4) == 0);
	return ok;
}

/*
 * A fault part way through a request: the bytes before it count, and only
 * they are kept or returned.
 */
static bool short_requests(int fd)
{
	char abc[] = { 'a', 'b', 'c' }, out[8] = { 0 };
	struct iovec in[] = { { abc, sizeof(abc) }, { bad_page, 16 } };
	struct iovec back[] = { { out, 2 }, { bad_page, 16 } };
	bool ok = true;

	ok &= EXPECT(writev(fd, in, 2) == 3);
	ok &= EXPECT(pread(fd, out, sizeof(out), 0) == 3);
	ok &= EXPECT(memcmp(out, "abc", 3) == 0);
	memset(out, 0, sizeof(out));
	ok &= EXPECT(readv(fd, back, 2) == 2);
	ok &= EXPECT(memcmp(out, "ab\0", 3) == 0);
	/* The file position moved by what was read. */
	ok &= EXPECT(read(fd, out, sizeof(out)) == 1);
	ok &= EXPECT(out[0] == 'c');
	return ok;
}

/* Every open file has a log of its own. */
static bool one_log_per_open(int fd)
{
	char buf[8];
	int other = open_dev();
	bool ok = true;

	ok &= EXPECT(other >= 0);
	ok &= EXPECT(write(fd, "mine", 4) == 4);
	ok &= EXPECT(read(other, buf, sizeof(buf)) == 0);
	ok &= EXPECT(write(other, "yours", 5) == 5);
	ok &= EXPECT(close(other) == 0);
	ok &= EXPECT(read(fd, buf, sizeof(buf)) == 4);
	ok &= EXPECT(memcmp(buf, "mine", 4) == 0);
	return ok;
}

/* A write takes what fits; once the log is full, writes fail with ENOSPC. */
static bool capacity(int fd)
{
	static char big[CAPACITY + 100];
	static char back[CAPACITY + 100];
	bool ok = true;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + 1);
	ok &= EXPECT(write(fd, "x", 1) == 1);
	ok &= EXPECT(write(fd, big, sizeof(big)) == CAPACITY - 1);
	errno = 0;
	ok &= EXPECT(write(fd, "y", 1) == -1 && errno == ENOSPC);
	ok &= EXPECT(pread(fd, back, sizeof(back), 0) == CAPACITY);
	ok &= EXPECT(back[0] == 'x');
	ok &= EXPECT(memcmp(back + 1, big, CAPACITY - 1) == 0);
	/* An empty write is no error, full or not. */
	ok &= EXPECT(write(fd, big, 0) == 0);
	return ok;
}

static void run(const char *name, bool (*test)(int fd))
{
	int fd = open_dev();
	bool ok = fd >= 0 && test(fd);

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
	printf("TAP version 13\n1..%d\n", module ? 7 : 6);
	bad_page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bad_page == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	if (module && load(module))
		return 1;
	run("append_then_read", append_then_read);
	run("vectors", vectors);
	run("bad_buffers", bad_buffers);
	run("short_requests", short_requests);
	run("one_log_per_open", one_log_per_open);
	run("capacity", capacity);
	if (module) {
		/* Every file is closed: the module goes, and its device with it. */
		bool ok = syscall(SYS_delete_module, MODULE_NAME, O_NONBLOCK) == 0 &&
			 access(DEV, F_OK) == -1 && errno == ENOENT;

		cases++;
		failed += !ok;
		printf("%sok %d unload\n", ok ? "" : "not ", cases);
	}
	printf("# %d passed, %d failed\n", cases - failed, failed);
	return failed ? 1 : 0;
}
