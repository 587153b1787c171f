// SPDX-License-Identifier: GPL-2.0
/*
 * Buffered writes and reads of regular files under injected usercopy
 * faults, for "make check DEBUG=1" (CONFIG_FAULT_INJECTION_USERCOPY and
 * debugfs). On tmpfs (small and huge folios), ramfs and ext2 on /dev/ram0,
 * the file systems of the buffered_write selftests, so
 * generic_perform_write() and filemap_read() run through shmem's, libfs'
 * and buffer_head's paths; with huge folios a pass of the write loop
 * copies up to 2 MiB, so a fault lands in the middle of one folio.
 *
 * fail_usercopy fails IOV_FAULTS user copies (IOV_FAULT_PROBABILITY
 * percent of them, default 10) of this thread's write(), pwrite(),
 * writev(), pwritev(), read(), pread() and preadv() calls only
 * (make-it-fail). A copy may then stop anywhere; whatever a call returns
 * must be what it did:
 *   - a write of n bytes (n may be short) stored exactly the first n
 *     bytes of its segments at its offset, nothing after them, and the
 *     size grew to the end of them if it was smaller; EFAULT stored
 *     nothing;
 *   - a read of n bytes brought exactly the file's next n bytes, and no
 *     more than there were; nothing after them in user memory changed;
 *   - the file offset moved by n.
 * The file is compared with a model (with faults off) around every write
 * and in full every 256 calls. Each variant runs until all its faults
 * fired and prints how many did. Without IOV_FAULTS every case skips.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define FAIL_USERCOPY	"/sys/kernel/debug/fail_usercopy/"
#define RAMDISK		"/dev/ram0"
#define PAGE		4096L
#define FILE_MAX	(1024 * 1024 + 64 * 1024)	/* offsets + lengths stay below */
#define UBUF_LEN	(256 * 1024)
#define MAX_SEGS	16

static unsigned long long rng(unsigned long long *s)
{
	unsigned long long x = *s += 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static unsigned long long below(unsigned long long *s, unsigned long long n)
{
	return rng(s) % n;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return ret;
}

static long long faults_left(void)
{
	char text[32] = "";
	int fd = open(FAIL_USERCOPY "times", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	return n > 0 ? atoll(text) : -1;
}

/* @times faults, @percent % of the copies of make-it-fail tasks, silent. */
static bool faults_arm(long long times, int percent)
{
	char t[32], p[16];

	snprintf(t, sizeof(t), "%lld", times);
	snprintf(p, sizeof(p), "%d", percent);
	return !write_text(FAIL_USERCOPY "times", "0") &&
	       !write_text(FAIL_USERCOPY "verbose", "0") &&
	       !write_text(FAIL_USERCOPY "task-filter", "Y") &&
	       !write_text(FAIL_USERCOPY "interval", "1") &&
	       !write_text(FAIL_USERCOPY "space", "0") &&
	       !write_text(FAIL_USERCOPY "probability", p) &&
	       !write_text(FAIL_USERCOPY "times", t);
}

/* The write that turns faults off copies from user memory: it may fail. */
static void faults_for_me(int fd, bool on)
{
	int tries;

	for (tries = 0; tries < 1000; tries++)
		if (pwrite(fd, on ? "1" : "0", 1, 0) == 1)
			return;
	abort();
}

static bool has_ext2(const char *dev)
{
	unsigned char magic[2] = { 0 };
	int fd = open(dev, O_RDONLY);

	if (fd < 0)
		return false;
	if (pread(fd, magic, 2, 1080) != 2)
		magic[0] = 0;
	close(fd);
	return magic[0] == 0x53 && magic[1] == 0xef;
}

FIXTURE(file) {
	char dir[32];
	char path[48];
	int fd;
	int probe;
	int fail_fd;
	unsigned char *model;
	long long size;
	long long pos;
	unsigned char *ubuf;
	unsigned char *chk;
};

FIXTURE_VARIANT(file) {
	const char *fstype;
	const char *device;
	const char *options;
};

FIXTURE_VARIANT_ADD(file, tmpfs) {
	.fstype = "tmpfs",
};

/* PMD-sized folios: injected faults land in the middle of one. */
FIXTURE_VARIANT_ADD(file, tmpfs_huge) {
	.fstype = "tmpfs",
	.options = "huge=always",
};

FIXTURE_VARIANT_ADD(file, ramfs) {
	.fstype = "ramfs",
};

FIXTURE_VARIANT_ADD(file, ext2) {
	.fstype = "ext2",
	.device = RAMDISK,
};

FIXTURE_SETUP(file)
{
	if (!getenv("IOV_FAULTS"))
		SKIP(return, "IOV_FAULTS is not set: no usercopy faults injected");
	ASSERT_LE(0, faults_left())
		TH_LOG("no " FAIL_USERCOPY ": CONFIG_FAULT_INJECTION_USERCOPY and debugfs needed");
	self->fail_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	ASSERT_LE(0, self->fail_fd);
	snprintf(self->dir, sizeof(self->dir), "/tmp/usercopy_faults.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	if (variant->device && !has_ext2(variant->device))
		ASSERT_EQ(0, system("mke2fs -F -b 1024 -I 256 " RAMDISK " >/dev/null 2>&1"));
	ASSERT_EQ(0, mount(variant->device ? variant->device : variant->fstype, self->dir,
			   variant->fstype, 0, variant->options))
		TH_LOG("mount %s: %s", variant->fstype, strerror(errno));
	snprintf(self->path, sizeof(self->path), "%s/f", self->dir);
	self->fd = open(self->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	self->probe = open(self->path, O_RDONLY);
	ASSERT_LE(0, self->fd);
	ASSERT_LE(0, self->probe);
	self->model = calloc(1, FILE_MAX);
	self->ubuf = malloc(UBUF_LEN);
	self->chk = malloc(FILE_MAX);
	ASSERT_TRUE(self->model && self->ubuf && self->chk);
}

FIXTURE_TEARDOWN(file)
{
	if (!getenv("IOV_FAULTS"))
		return;
	write_text(FAIL_USERCOPY "probability", "0");
	close(self->fd);
	close(self->probe);
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
}

/* Split [ubuf + uoff, + len) into @n segments, some empty; returns n. */
static int make_iov(struct iovec *iov, unsigned char *ubuf, size_t uoff, size_t len,
		    unsigned long long *g)
{
	int n = 1 + below(g, MAX_SEGS), i;

	for (i = 0; i < n; i++) {
		size_t part = i == n - 1 ? len : below(g, len + 1);

		iov[i] = (struct iovec){ ubuf + uoff, part };
		uoff += part;
		len -= part;
	}
	return n;
}

/* The file around [lo, hi) and its size must be the model's. */
static bool file_matches(struct __test_metadata *_metadata, FIXTURE_DATA(file) *self,
			 long long lo, long long hi)
{
	struct stat st;
	long long i;

	lo = lo < 0 ? 0 : lo;
	hi = hi > self->size ? self->size : hi;
	EXPECT_EQ(0, fstat(self->probe, &st));
	EXPECT_EQ(self->size, st.st_size);
	if (lo >= hi)
		return st.st_size == self->size;
	EXPECT_EQ(hi - lo, pread(self->probe, self->chk, hi - lo, lo));
	for (i = 0; i < hi - lo; i++)
		if (self->chk[i] != self->model[lo + i]) {
			TH_LOG("file byte %lld is %#x, model %#x", lo + i, self->chk[i],
			       self->model[lo + i]);
			return false;
		}
	return st.st_size == self->size;
}

TEST_F_TIMEOUT(file, random_buffered_io, 3000)
{
	long long target = atoll(getenv("IOV_FAULTS")), left, calls = 0;
	const char *env_p = getenv("IOV_FAULT_PROBABILITY");
	unsigned long long g = 0xb0ffe7ULL;
	unsigned long short_reads = 0, short_writes = 0, efaults = 0;
	struct iovec iov[MAX_SEGS];

	ASSERT_LT(0, target);
	ASSERT_TRUE(faults_arm(target, env_p ? atoi(env_p) : 10));
	for (calls = 0; calls < 1000 * target; calls++) {
		int kind = below(&g, 6), n = 1;
		size_t len = below(&g, 8) ? 1 + below(&g, 3 * PAGE) : 1 + below(&g, 64 * 1024);
		size_t uoff = below(&g, UBUF_LEN - len + 1), k;
		long long off = below(&g, 4) ? below(&g, 256 * 1024) : below(&g, 1024 * 1024);
		bool write_call = kind < 3;
		long long at, expect;
		ssize_t ret;

		/* Sequential calls go from the current offset. */
		if (kind == 0 || kind == 3)
			off = self->pos;
		if (off + (long long)len > FILE_MAX)
			off = FILE_MAX - len;
		if (kind == 0 || kind == 3) {
			ASSERT_EQ(off, lseek(self->fd, off, SEEK_SET));
			self->pos = off;
		}
		for (k = 0; k < len; k++)
			self->ubuf[uoff + k] = rng(&g);
		if (kind == 2 || kind == 5)
			n = make_iov(iov, self->ubuf, uoff, len, &g);
		memcpy(self->chk, self->ubuf + uoff, len);

		faults_for_me(self->fail_fd, true);
		switch (kind) {
		case 0:
			ret = write(self->fd, self->ubuf + uoff, len);
			break;
		case 1:
			ret = pwrite(self->fd, self->ubuf + uoff, len, off);
			break;
		case 2:
			ret = pwritev(self->fd, iov, n, off);
			break;
		case 3:
			ret = read(self->fd, self->ubuf + uoff, len);
			break;
		case 4:
			ret = pread(self->fd, self->ubuf + uoff, len, off);
			break;
		default:
			ret = preadv(self->fd, iov, n, off);
			break;
		}
		faults_for_me(self->fail_fd, false);

		if (ret < 0) {
			/* Only a fault before the first byte, and nothing moved. */
			ASSERT_EQ(EFAULT, errno);
			efaults++;
			ret = 0;
		}
		if (write_call) {
			ASSERT_LE(ret, (ssize_t)len);
			short_writes += ret < (ssize_t)len;
			memcpy(self->model + off, self->chk, ret);
			if (ret && off + ret > self->size)
				self->size = off + ret;
			ASSERT_TRUE(file_matches(_metadata, self, off - PAGE, off + len + PAGE))
				TH_LOG("call %lld: write of %zu at %lld returned %zd", calls, len,
				       off, ret);
		} else {
			expect = self->size - off;
			expect = expect < 0 ? 0 : expect > (long long)len ? (long long)len : expect;
			ASSERT_LE(ret, expect)
				TH_LOG("call %lld: read of %zu at %lld invented bytes", calls, len,
				       off);
			short_reads += ret < expect;
			at = memcmp(self->ubuf + uoff, self->model + off, ret);
			ASSERT_EQ(0, at)
				TH_LOG("call %lld: read of %zu at %lld: wrong data", calls, len, off);
			ASSERT_EQ(0, memcmp(self->ubuf + uoff + ret, self->chk + ret, len - ret))
				TH_LOG("call %lld: read of %zu at %lld wrote past its count %zd",
				       calls, len, off, ret);
		}
		if (kind == 0 || kind == 3) {
			self->pos += ret;
			ASSERT_EQ(self->pos, lseek(self->fd, 0, SEEK_CUR));
		}
		if (calls % 256 == 255) {
			ASSERT_TRUE(file_matches(_metadata, self, 0, FILE_MAX));
			/* ext2: write back and drop the cache, so reads go to the disk. */
			if (below(&g, 2))
				ASSERT_EQ(0, fsync(self->fd) ||
					  posix_fadvise(self->fd, 0, 0, POSIX_FADV_DONTNEED));
			if (!faults_left())
				break;
		}
	}
	left = faults_left();
	write_text(FAIL_USERCOPY "probability", "0");
	ASSERT_TRUE(file_matches(_metadata, self, 0, FILE_MAX));
	printf("# usercopy faults injected: %lld of %lld on %s (%lld calls, %lu short reads, %lu short writes, %lu EFAULT)\n",
	       target - left, target, variant->fstype, calls, short_reads, short_writes, efaults);
	ASSERT_EQ(0, left);
}

TEST_HARNESS_MAIN
