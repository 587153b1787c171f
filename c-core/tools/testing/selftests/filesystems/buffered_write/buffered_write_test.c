// SPDX-License-Identifier: GPL-2.0
/*
 * readv()/writev() and friends on regular files: segment handling, sources
 * and destinations that fault, sources mapped from the file being written,
 * appends, and signals arriving during a write.
 *
 * Each test runs on a fresh tmpfs, on ramfs and on ext2 on a RAM disk
 * (/dev/ram0), so generic_perform_write() is driven through shmem's, libfs'
 * and buffer_head's ->write_begin()/->write_end().  The expected file
 * contents are kept in a model that every successful write updates; after
 * each step the file must match the model byte for byte, and its size and
 * the file offset must be what the syscall's contract says.
 *
 * Needs root (to mount) and the options in ./config; a missing file system
 * or RAM disk makes that variant skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/userfaultfd.h>

#include "../../kselftest_harness.h"

#define MODEL_PAGES	32	/* the model covers the first 32 pages */
#define RAMDISK		"/dev/ram0"
#define GUARD_SECONDS	20	/* a write that deadlocks is killed by SIGALRM */

/* What the file under test must contain, and how long it must be. */
struct model {
	unsigned char *bytes;
	off_t size;
	off_t capacity;
};

/* Byte i of pattern "seed": never zero, so data cannot pass for a hole. */
static unsigned char pattern_byte(unsigned int seed, size_t i)
{
	return 1 + (seed * 31 + i + (i >> 8) * 3 + (i >> 12) * 5) % 255;
}

static void fill(unsigned char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_byte(seed, i);
}

static off_t file_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -1;
	return st.st_size;
}

static off_t file_pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/* Total length of the first @cnt segments. */
static ssize_t iov_total(const struct iovec *iov, int cnt)
{
	ssize_t total = 0;
	int i;

	for (i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	return total;
}

/* Copy the first @len bytes that @iov describes to @dst. */
static void iov_gather(unsigned char *dst, const struct iovec *iov, size_t len)
{
	for (; len; iov++) {
		size_t n = iov->iov_len < len ? iov->iov_len : len;

		if (n)
			memcpy(dst, iov->iov_base, n);
		dst += n;
		len -= n;
	}
}

/*
 * @npages pattern-filled, already touched pages followed by one PROT_NONE
 * page: a copy that reaches the last page faults and cannot be fixed.
 */
static unsigned char *map_then_hole(size_t page, size_t npages,
				    unsigned int seed)
{
	unsigned char *p;

	p = mmap(NULL, (npages + 1) * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	fill(p, npages * page, seed);
	if (mprotect(p + npages * page, page, PROT_NONE))
		return NULL;
	return p;
}

/*
 * Like map_then_hole(), but the readable pages are a fresh shared mapping
 * of a memfd: the data is in the page cache, yet no page of this mapping
 * has been touched, so each first access takes a page fault.
 */
static unsigned char *map_untouched_then_hole(size_t page, size_t npages,
					      unsigned int seed)
{
	size_t len = npages * page;
	unsigned char *buf, *p;
	int fd;

	fd = memfd_create("buffered_write_src", 0);
	if (fd < 0)
		return NULL;
	buf = malloc(len);
	if (!buf)
		return NULL;
	fill(buf, len, seed);
	if (write(fd, buf, len) != (ssize_t)len)
		return NULL;
	free(buf);
	p = mmap(NULL, len + page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + len, page, PROT_NONE))
		return NULL;
	return p;
}

/* Number of pages of [addr, addr + len) that are resident. */
static long resident_pages(void *addr, size_t len, size_t page)
{
	size_t i, n = (len + page - 1) / page;
	unsigned char *vec = malloc(n);
	long resident = 0;

	if (!vec || mincore(addr, len, vec)) {
		free(vec);
		return -1;
	}
	for (i = 0; i < n; i++)
		resident += vec[i] & 1;
	free(vec);
	return resident;
}

/* First byte where the file at @off differs from @want, or -1. */
static ssize_t file_diff(int fd, off_t off, const unsigned char *want,
			 size_t len)
{
	unsigned char *got = malloc(len);
	ssize_t where = -1;
	size_t i;

	if (!got)
		return -2;
	if (pread(fd, got, len, off) != (ssize_t)len) {
		free(got);
		return -3;
	}
	for (i = 0; i < len; i++) {
		if (got[i] != want[i]) {
			where = i;
			break;
		}
	}
	free(got);
	return where;
}

FIXTURE(file) {
	char dir[32];
	char path[48];
	int fd;
	long page;
	struct model model;
};

FIXTURE_VARIANT(file) {
	const char *fstype;
	const char *options;	/* mount options */
	const char *device;	/* block device to hold the file system */
	bool can_evict;		/* clean page cache can be dropped */
};

FIXTURE_VARIANT_ADD(file, tmpfs) {
	.fstype = "tmpfs",
};

/*
 * Huge folios.  tmpfs lets generic_perform_write() use chunks of up to a
 * PMD either way, but with small folios each pass is clipped to the
 * page's folio; with huge=always a pass copies up to 2 MiB, so short and
 * failed copies happen in the middle of one folio.  (Where a huge page
 * cannot be had, shmem falls back to small folios.)
 */
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
	.can_evict = true,
};

/* Does @dev hold an ext2 superblock (magic 0xef53 at byte 1080)? */
static bool has_ext2(const char *dev)
{
	unsigned char magic[2];
	bool found;
	int fd;

	fd = open(dev, O_RDONLY);
	if (fd < 0)
		return false;
	found = pread(fd, magic, 2, 1080) == 2 &&
		magic[0] == 0x53 && magic[1] == 0xef;
	close(fd);
	return found;
}

/*
 * Mount a @fstype on @dir, on @device if there is one (only RAMDISK, which
 * is formatted with ext2 if need be); a reason to skip, or NULL.
 */
static const char *mount_fs(const char *fstype, const char *device,
			    const char *options, const char *dir)
{
	if (device) {
		if (access(device, R_OK | W_OK))
			return "no " RAMDISK " (CONFIG_BLK_DEV_RAM)";
		/* The first test of a boot formats the RAM disk. */
		if (!has_ext2(device) &&
		    system("mke2fs -F -b 1024 -I 256 " RAMDISK
			   " >/dev/null 2>&1"))
			return "mke2fs " RAMDISK " failed";
	}
	if (!mount(device ? device : fstype, dir, fstype, 0, options))
		return NULL;
	if (errno == EPERM)
		return "mounting needs root";
	if (errno == ENODEV)
		return "file system not configured";
	if (errno == EINVAL && options)
		return "mount options not supported (huge=: CONFIG_TRANSPARENT_HUGEPAGE)";
	return strerror(errno);
}

FIXTURE_SETUP(file)
{
	const char *skip;

	self->page = sysconf(_SC_PAGESIZE);
	snprintf(self->dir, sizeof(self->dir), "/tmp/buffered_write.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	skip = mount_fs(variant->fstype, variant->device, variant->options,
			self->dir);
	if (skip) {
		rmdir(self->dir);
		SKIP(return, "%s: %s", variant->fstype, skip);
	}
	snprintf(self->path, sizeof(self->path), "%s/f", self->dir);
	self->fd = open(self->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, self->fd);
	self->model.bytes = calloc(MODEL_PAGES, self->page);
	ASSERT_NE(NULL, self->model.bytes);
	self->model.size = 0;
	self->model.capacity = MODEL_PAGES * self->page;
}

FIXTURE_TEARDOWN(file)
{
	close(self->fd);
	unlink(self->path);
	/* Lazily: a failed test may still have the file mapped. */
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
	free(self->model.bytes);
}

/* Record that the first @len bytes of @iov were written at @pos. */
static void model_writev(struct model *m, off_t pos, const struct iovec *iov,
			 size_t len)
{
	if (pos + (off_t)len > m->capacity)
		abort();	/* a test outgrew MODEL_PAGES */
	iov_gather(m->bytes + pos, iov, len);
	if (pos + (off_t)len > m->size)
		m->size = pos + len;
}

static void model_write(struct model *m, off_t pos, const void *buf,
			size_t len)
{
	struct iovec iov = { (void *)buf, len };

	model_writev(m, pos, &iov, len);
}

/* File @fd has exactly the size and contents of model @m. */
#define ASSERT_FILE_IS(fd, m) do {					\
	const struct model *__m = (m);					\
	int __fd = (fd);						\
									\
	ASSERT_EQ(__m->size, file_size(__fd));				\
	ASSERT_EQ(-1, file_diff(__fd, 0, __m->bytes, __m->size));	\
} while (0)

#define ASSERT_MODEL() ASSERT_FILE_IS(self->fd, &self->model)

/* Fill file @fd and model @m with @len bytes of pattern @seed. */
static int prefill(int fd, struct model *m, size_t len, unsigned int seed)
{
	unsigned char *buf = malloc(len);
	ssize_t n;

	if (!buf)
		return -1;
	fill(buf, len, seed);
	n = pwrite(fd, buf, len, 0);
	if (n == (ssize_t)len)
		model_write(m, 0, buf, len);
	free(buf);
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * Write back and drop the page cache of @fd; return how many pages of @map
 * (a mapping of its first @len bytes, not yet touched) are still cached.
 */
static long evict(int fd, void *map, size_t len, size_t page)
{
	if (fsync(fd) || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		return -1;
	return resident_pages(map, len, page);
}

/* Segments that start and end at odd places and cross page boundaries. */
static int crossing_iov(struct iovec *iov, unsigned char *src, size_t page)
{
	iov[0] = (struct iovec){ src + 100, page };		/* 0 -> 1 */
	iov[1] = (struct iovec){ src + 2 * page - 7, 14 };	/* 1 -> 2 */
	iov[2] = (struct iovec){ src + 2 * page + 9, page + 3 };/* 2 -> 3 */
	return 3;
}

TEST_F(file, writev_crossing_pages)
{
	unsigned char *src = malloc(4 * self->page);
	struct iovec iov[3];
	ssize_t total;
	int cnt;

	ASSERT_NE(NULL, src);
	fill(src, 4 * self->page, 1);
	cnt = crossing_iov(iov, src, self->page);
	total = iov_total(iov, cnt);

	ASSERT_EQ(total, writev(self->fd, iov, cnt));
	model_writev(&self->model, 0, iov, total);
	ASSERT_EQ(total, file_pos(self->fd));
	ASSERT_MODEL();

	/* Again from an unaligned offset: overwrites and extends. */
	ASSERT_EQ(self->page - 1, lseek(self->fd, self->page - 1, SEEK_SET));
	ASSERT_EQ(total, writev(self->fd, iov, cnt));
	model_writev(&self->model, self->page - 1, iov, total);
	ASSERT_EQ(self->page - 1 + total, file_pos(self->fd));
	ASSERT_MODEL();
	free(src);
}

TEST_F(file, pwritev_crossing_pages)
{
	unsigned char *src = malloc(4 * self->page);
	off_t far = 10 * self->page + 11;
	struct iovec iov[3];
	ssize_t total;
	int cnt;

	ASSERT_NE(NULL, src);
	fill(src, 4 * self->page, 2);
	cnt = crossing_iov(iov, src, self->page);
	total = iov_total(iov, cnt);

	ASSERT_EQ(total, pwritev(self->fd, iov, cnt, 3 * self->page - 5));
	model_writev(&self->model, 3 * self->page - 5, iov, total);
	ASSERT_MODEL();
	ASSERT_EQ(0, file_pos(self->fd));

	/* Past the end: the gap reads back as zeroes. */
	ASSERT_EQ(total, pwritev(self->fd, iov, cnt, far));
	model_writev(&self->model, far, iov, total);
	ASSERT_MODEL();
	ASSERT_EQ(0, file_pos(self->fd));
	free(src);
}

TEST_F(file, pwritev2_offsets_and_flags)
{
	unsigned char *src = malloc(4 * self->page);
	struct iovec iov[3];
	off_t pos;
	ssize_t total;
	int cnt;

	ASSERT_NE(NULL, src);
	fill(src, 4 * self->page, 3);
	cnt = crossing_iov(iov, src, self->page);
	total = iov_total(iov, cnt);

	/* An explicit offset: f_pos is neither used nor moved. */
	ASSERT_EQ(total, pwritev2(self->fd, iov, cnt, 7, 0));
	model_writev(&self->model, 7, iov, total);
	ASSERT_MODEL();
	ASSERT_EQ(0, file_pos(self->fd));

	/* Offset -1: at f_pos, which advances. */
	ASSERT_EQ(5, lseek(self->fd, 5, SEEK_SET));
	ASSERT_EQ(total, pwritev2(self->fd, iov, cnt, -1, 0));
	model_writev(&self->model, 5, iov, total);
	ASSERT_MODEL();
	pos = 5 + total;
	ASSERT_EQ(pos, file_pos(self->fd));

	/* RWF_APPEND with an offset: at the end; f_pos stays. */
	ASSERT_EQ(total, pwritev2(self->fd, iov, cnt, 0, RWF_APPEND));
	model_writev(&self->model, self->model.size, iov, total);
	ASSERT_MODEL();
	ASSERT_EQ(pos, file_pos(self->fd));

	/* RWF_APPEND with -1: at the end, and f_pos follows. */
	ASSERT_EQ(total, pwritev2(self->fd, iov, cnt, -1, RWF_APPEND));
	model_writev(&self->model, self->model.size, iov, total);
	ASSERT_MODEL();
	ASSERT_EQ(self->model.size, file_pos(self->fd));
	pos = self->model.size;

	/* Contradicting or unknown flags: refused, nothing changes. */
	ASSERT_EQ(-1, pwritev2(self->fd, iov, cnt, 0,
			       RWF_APPEND | RWF_NOAPPEND));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, pwritev2(self->fd, iov, cnt, 0, 0x40000000));
	ASSERT_EQ(EOPNOTSUPP, errno);
	ASSERT_EQ(-1, pwritev2(self->fd, iov, cnt, -2, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_MODEL();
	ASSERT_EQ(pos, file_pos(self->fd));
	free(src);
}

TEST_F(file, zero_length_segments)
{
	unsigned char *src = map_then_hole(self->page, 3, 4);
	unsigned char *hole, got[16] = { 0 }, want[16];
	struct iovec iov[7], empty[3], rd[5];

	ASSERT_NE(NULL, src);
	hole = src + 3 * self->page;
	iov[0] = (struct iovec){ NULL, 0 };
	iov[1] = (struct iovec){ src, 0 };
	iov[2] = (struct iovec){ src + 1, 10 };
	iov[3] = (struct iovec){ NULL, 0 };
	iov[4] = (struct iovec){ src + self->page - 3, 6 };	/* crosses */
	iov[5] = (struct iovec){ hole, 0 };	/* never dereferenced */
	iov[6] = (struct iovec){ NULL, 0 };
	empty[0] = (struct iovec){ NULL, 0 };
	empty[1] = (struct iovec){ src, 0 };
	empty[2] = (struct iovec){ hole, 0 };
	rd[0] = (struct iovec){ NULL, 0 };
	rd[1] = (struct iovec){ got, 5 };
	rd[2] = (struct iovec){ hole, 0 };
	rd[3] = (struct iovec){ got + 5, 11 };
	rd[4] = (struct iovec){ NULL, 0 };

	ASSERT_EQ(16, writev(self->fd, iov, ARRAY_SIZE(iov)));
	model_writev(&self->model, 0, iov, 16);
	ASSERT_MODEL();
	ASSERT_EQ(16, file_pos(self->fd));

	ASSERT_EQ(16, pwritev(self->fd, iov, ARRAY_SIZE(iov), 2 * self->page));
	model_writev(&self->model, 2 * self->page, iov, 16);
	ASSERT_MODEL();

	/* Nothing to write: 0, and nothing moves. */
	ASSERT_EQ(0, writev(self->fd, empty, ARRAY_SIZE(empty)));
	ASSERT_EQ(0, pwritev(self->fd, empty, ARRAY_SIZE(empty), 0));
	ASSERT_EQ(0, writev(self->fd, NULL, 0));
	ASSERT_EQ(16, file_pos(self->fd));
	ASSERT_MODEL();

	/* The mirror: read the 16 bytes back through empty segments. */
	ASSERT_EQ(16, preadv(self->fd, rd, ARRAY_SIZE(rd), 2 * self->page));
	iov_gather(want, iov, 16);
	ASSERT_EQ(0, memcmp(got, want, 16));
	ASSERT_EQ(0, readv(self->fd, empty, ARRAY_SIZE(empty)));
	ASSERT_EQ(16, file_pos(self->fd));
}

/*
 * UIO_MAXIOV segments of 1 to 8 bytes with gaps between them, spread over
 * MAXIOV_SPAN bytes (more than four pages): they can be read into, too.
 */
#define MAXIOV_SPAN	(UIO_MAXIOV * 17)

static void max_iov(struct iovec *iov, unsigned char *buf)
{
	int i;

	for (i = 0; i < UIO_MAXIOV; i++) {
		iov[i].iov_base = buf + i * 17 + i % 5;
		iov[i].iov_len = 1 + i % 8;
	}
}

TEST_F(file, uio_maxiov_segments)
{
	struct iovec *iov = calloc(UIO_MAXIOV, sizeof(*iov));
	unsigned char *src = malloc(MAXIOV_SPAN);
	unsigned char *got = calloc(1, MAXIOV_SPAN);
	unsigned char *want = malloc(MAXIOV_SPAN);
	ssize_t total;

	ASSERT_NE(NULL, iov);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, got);
	ASSERT_NE(NULL, want);
	fill(src, MAXIOV_SPAN, 5);
	max_iov(iov, src);
	total = iov_total(iov, UIO_MAXIOV);

	ASSERT_EQ(total, writev(self->fd, iov, UIO_MAXIOV));
	model_writev(&self->model, 0, iov, total);
	ASSERT_EQ(total, file_pos(self->fd));
	ASSERT_EQ(total, pwritev(self->fd, iov, UIO_MAXIOV, total + 3));
	model_writev(&self->model, total + 3, iov, total);
	ASSERT_EQ(total, pwritev2(self->fd, iov, UIO_MAXIOV, -1, 0));
	model_writev(&self->model, total, iov, total);
	ASSERT_EQ(2 * total, file_pos(self->fd));
	ASSERT_MODEL();

	/* Read the first @total bytes back through the same layout. */
	max_iov(iov, got);
	ASSERT_EQ(total, preadv(self->fd, iov, UIO_MAXIOV, 0));
	iov_gather(want, iov, total);
	ASSERT_EQ(0, memcmp(want, self->model.bytes, total));
	ASSERT_EQ(0, lseek(self->fd, 0, SEEK_SET));
	memset(got, 0, MAXIOV_SPAN);
	ASSERT_EQ(total, readv(self->fd, iov, UIO_MAXIOV));
	iov_gather(want, iov, total);
	ASSERT_EQ(0, memcmp(want, self->model.bytes, total));
	ASSERT_EQ(total, file_pos(self->fd));
	free(iov);
	free(src);
	free(got);
	free(want);
}

TEST_F(file, too_many_segments)
{
	struct iovec *iov = calloc(UIO_MAXIOV + 1, sizeof(*iov));
	unsigned char *buf = malloc(4 * self->page);
	int i;

	ASSERT_NE(NULL, iov);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, prefill(self->fd, &self->model, 2 * self->page, 6));
	ASSERT_EQ(9, lseek(self->fd, 9, SEEK_SET));
	fill(buf, 4 * self->page, 7);
	for (i = 0; i <= UIO_MAXIOV; i++)
		iov[i] = (struct iovec){ buf + i, 1 };

	ASSERT_EQ(-1, writev(self->fd, iov, UIO_MAXIOV + 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, pwritev(self->fd, iov, UIO_MAXIOV + 1, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, pwritev2(self->fd, iov, UIO_MAXIOV + 1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, readv(self->fd, iov, UIO_MAXIOV + 1));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, preadv(self->fd, iov, UIO_MAXIOV + 1, 0));
	ASSERT_EQ(EINVAL, errno);

	ASSERT_MODEL();
	ASSERT_EQ(9, file_pos(self->fd));
	/* The buffers were not written to either. */
	for (i = 0; i <= UIO_MAXIOV; i++)
		ASSERT_EQ(pattern_byte(7, i), buf[i]);
	free(iov);
	free(buf);
}

TEST_F(file, negative_segment_length)
{
	unsigned char buf[64];
	struct iovec iov[] = {
		{ buf, 10 },
		{ buf + 10, (size_t)-1 },
		{ buf + 20, 10 },
	};
	struct iovec big[] = { { buf, (size_t)SSIZE_MAX + 1 } };

	fill(buf, sizeof(buf), 8);
	ASSERT_EQ(0, prefill(self->fd, &self->model, self->page, 9));
	ASSERT_EQ(3, lseek(self->fd, 3, SEEK_SET));

	ASSERT_EQ(-1, writev(self->fd, iov, ARRAY_SIZE(iov)));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, pwritev(self->fd, iov, ARRAY_SIZE(iov), 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, pwritev2(self->fd, big, 1, -1, 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, readv(self->fd, iov, ARRAY_SIZE(iov)));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, preadv(self->fd, big, 1, 0));
	ASSERT_EQ(EINVAL, errno);

	ASSERT_MODEL();
	ASSERT_EQ(3, file_pos(self->fd));
	for (size_t i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(pattern_byte(8, i), buf[i]);
}

TEST_F(file, readv_crossing_pages)
{
	unsigned char *dst = malloc(4 * self->page);
	unsigned char *want = malloc(4 * self->page);
	off_t start = self->page - 3;
	struct iovec iov[3];
	ssize_t total;
	int cnt;

	ASSERT_NE(NULL, dst);
	ASSERT_NE(NULL, want);
	ASSERT_EQ(0, prefill(self->fd, &self->model, 6 * self->page, 10));
	memset(dst, 0, 4 * self->page);
	cnt = crossing_iov(iov, dst, self->page);
	total = iov_total(iov, cnt);

	ASSERT_EQ(start, lseek(self->fd, start, SEEK_SET));
	ASSERT_EQ(total, readv(self->fd, iov, cnt));
	ASSERT_EQ(start + total, file_pos(self->fd));
	iov_gather(want, iov, total);
	ASSERT_EQ(0, memcmp(want, self->model.bytes + start, total));

	/* preadv: f_pos stays; a read is cut at end of file. */
	memset(dst, 0, 4 * self->page);
	ASSERT_EQ(total, preadv(self->fd, iov, cnt, 2 * self->page + 1));
	iov_gather(want, iov, total);
	ASSERT_EQ(0, memcmp(want, self->model.bytes + 2 * self->page + 1, total));
	ASSERT_EQ(10, preadv(self->fd, iov, cnt, self->model.size - 10));
	iov_gather(want, iov, 10);
	ASSERT_EQ(0, memcmp(want, self->model.bytes + self->model.size - 10, 10));
	ASSERT_EQ(0, preadv(self->fd, iov, cnt, self->model.size));
	ASSERT_EQ(0, preadv(self->fd, iov, cnt, self->model.size + 1));
	ASSERT_EQ(start + total, file_pos(self->fd));
	free(dst);
	free(want);
}

TEST_F(file, readv_faulting_destination)
{
	unsigned char *dst = map_then_hole(self->page, 2, 11);
	unsigned char *hole, *want = malloc(2 * self->page);
	struct iovec iov[3];

	ASSERT_NE(NULL, dst);
	ASSERT_NE(NULL, want);
	hole = dst + 2 * self->page;
	ASSERT_EQ(0, prefill(self->fd, &self->model, 4 * self->page, 12));
	memcpy(want, dst, 2 * self->page);

	/* A faulting second segment: exactly the first one is read. */
	iov[0] = (struct iovec){ dst + 100, 100 };
	iov[1] = (struct iovec){ hole, 100 };
	iov[2] = (struct iovec){ dst + 300, 100 };
	ASSERT_EQ(7, lseek(self->fd, 7, SEEK_SET));
	ASSERT_EQ(100, readv(self->fd, iov, 3));
	memcpy(want + 100, self->model.bytes + 7, 100);
	ASSERT_EQ(0, memcmp(want, dst, 2 * self->page));
	ASSERT_EQ(107, file_pos(self->fd));

	/* A segment running into the hole: read up to the hole. */
	iov[0] = (struct iovec){ hole - 50, 100 };
	ASSERT_EQ(50, preadv(self->fd, iov, 1, 1000));
	memcpy(want + 2 * self->page - 50, self->model.bytes + 1000, 50);
	ASSERT_EQ(0, memcmp(want, dst, 2 * self->page));

	/* Faulting from the first byte: EFAULT, nothing read or moved. */
	iov[0] = (struct iovec){ hole, 100 };
	ASSERT_EQ(-1, readv(self->fd, iov, 3));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(107, file_pos(self->fd));
	ASSERT_EQ(0, memcmp(want, dst, 2 * self->page));
	free(want);
}

/*
 * One segment whose source runs from readable pages into a PROT_NONE page:
 * the write must stop exactly at the fault.  x86 user copies are exact on
 * a fault, and generic_perform_write() keeps whatever it copied, so the
 * file gets every byte before the fault and nothing after it.
 */
static void write_until_fault(struct __test_metadata *_metadata, int fd,
			      struct model *m, long page, unsigned char *src)
{
	unsigned char *hole = src + 3 * page;
	ssize_t readable = hole - (src + 100);
	struct iovec iov = { src + 100, readable + 500 };

	/* Appending at an unaligned offset into a fresh file. */
	ASSERT_EQ(77, lseek(fd, 77, SEEK_SET));
	ASSERT_EQ(readable, write(fd, iov.iov_base, iov.iov_len));
	model_writev(m, 77, &iov, readable);
	ASSERT_FILE_IS(fd, m);
	ASSERT_EQ(77 + readable, file_pos(fd));

	/* Overwriting inside the file: the size stays. */
	ASSERT_EQ(0, prefill(fd, m, 8 * page, 13));
	ASSERT_EQ(readable, pwrite(fd, iov.iov_base, iov.iov_len, 5));
	model_writev(m, 5, &iov, readable);
	ASSERT_FILE_IS(fd, m);
	ASSERT_EQ(77 + readable, file_pos(fd));
}

TEST_F(file, write_fault_mid_segment)
{
	unsigned char *src = map_then_hole(self->page, 3, 14);

	ASSERT_NE(NULL, src);
	write_until_fault(_metadata, self->fd, &self->model, self->page, src);
}

TEST_F(file, write_fault_mid_segment_untouched_source)
{
	unsigned char *src = map_untouched_then_hole(self->page, 3, 15);

	ASSERT_NE(NULL, src);
	write_until_fault(_metadata, self->fd, &self->model, self->page, src);
}

TEST_F(file, writev_fault_mid_iovec)
{
	unsigned char *src = map_then_hole(self->page, 2, 16);
	unsigned char *other = malloc(4000);
	unsigned char *hole;
	struct iovec iov[3];

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, other);
	hole = src + 2 * self->page;
	fill(other, 4000, 17);

	/* The second segment has 500 readable bytes. */
	iov[0] = (struct iovec){ other, 3000 };
	iov[1] = (struct iovec){ hole - 500, 1000 };
	iov[2] = (struct iovec){ other + 3000, 100 };
	ASSERT_EQ(3500, writev(self->fd, iov, 3));
	model_writev(&self->model, 0, iov, 3500);
	ASSERT_MODEL();
	ASSERT_EQ(3500, file_pos(self->fd));

	ASSERT_EQ(3500, pwritev(self->fd, iov, 3, self->page + 1));
	model_writev(&self->model, self->page + 1, iov, 3500);
	ASSERT_MODEL();

	/* The second segment has none: the first one alone. */
	iov[1] = (struct iovec){ hole, 100 };
	ASSERT_EQ(3000, pwritev2(self->fd, iov, 3, -1, 0));
	model_writev(&self->model, 3500, iov, 3000);
	ASSERT_MODEL();
	ASSERT_EQ(6500, file_pos(self->fd));
	free(other);
}

TEST_F(file, write_fault_first_segment)
{
	unsigned char *src = map_then_hole(self->page, 1, 18);
	unsigned char *hole;
	struct iovec iov[2], lead[2], null[1];

	ASSERT_NE(NULL, src);
	hole = src + self->page;
	ASSERT_EQ(0, prefill(self->fd, &self->model, 2 * self->page, 19));
	ASSERT_EQ(10, lseek(self->fd, 10, SEEK_SET));

	iov[0] = (struct iovec){ hole, 100 };
	iov[1] = (struct iovec){ src, 100 };
	lead[0] = (struct iovec){ NULL, 0 };
	lead[1] = (struct iovec){ hole, 100 };
	null[0] = (struct iovec){ NULL, 10 };

	ASSERT_EQ(-1, writev(self->fd, iov, 2));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, writev(self->fd, lead, 2));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, writev(self->fd, null, 1));
	ASSERT_EQ(EFAULT, errno);
	/* At the end of file: the size must not grow. */
	ASSERT_EQ(-1, pwrite(self->fd, hole, 100, self->model.size));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, pwritev2(self->fd, iov, 2, -1, RWF_APPEND));
	ASSERT_EQ(EFAULT, errno);

	ASSERT_MODEL();
	ASSERT_EQ(10, file_pos(self->fd));
}

/*
 * Past the end of file, where a successful write would leave a hole: a
 * write that fails must not move the end of file either.
 */
TEST_F(file, write_fault_past_end_of_file)
{
	unsigned char *src = map_then_hole(self->page, 1, 28);
	struct iovec iov[2];

	ASSERT_NE(NULL, src);
	ASSERT_EQ(0, prefill(self->fd, &self->model, self->page + 10, 29));
	iov[0] = (struct iovec){ src + self->page, 100 };
	iov[1] = (struct iovec){ src, 100 };

	ASSERT_EQ(-1, pwrite(self->fd, src + self->page, 100,
			     self->model.size + 1));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, pwritev(self->fd, iov, 2, 10 * self->page));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(3 * self->page, lseek(self->fd, 3 * self->page, SEEK_SET));
	ASSERT_EQ(-1, writev(self->fd, iov, 2));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_MODEL();
	ASSERT_EQ(3 * self->page, file_pos(self->fd));
}

/*
 * The source is a shared mapping of other pages of the file being written,
 * not yet touched through that mapping (and, where the page cache can be
 * dropped, not even in the page cache).
 */
TEST_F(file, mmap_source_other_pages)
{
	long len = 4 * self->page;
	off_t dst = 2 * self->page + 123;
	unsigned char *map;

	ASSERT_EQ(0, prefill(self->fd, &self->model, len, 20));
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	if (variant->can_evict)
		ASSERT_EQ(0, evict(self->fd, map, len, self->page));

	alarm(GUARD_SECONDS);
	ASSERT_EQ(2 * self->page, pwrite(self->fd, map, 2 * self->page, dst));
	alarm(0);
	/* Source [0, 2 pages) and destination do not overlap. */
	memcpy(self->model.bytes + dst, self->model.bytes, 2 * self->page);
	self->model.size = dst + 2 * self->page;
	ASSERT_MODEL();
	ASSERT_EQ(0, munmap(map, len));
}

/*
 * Source and destination in the same page, which is not in the page cache:
 * ->write_begin() creates the folio and locks it, and faulting the source
 * in would need that lock.  The write must finish, not deadlock.  Holes
 * work on every file system.
 */
TEST_F(file, mmap_source_same_page_hole)
{
	long len = 2 * self->page, half = self->page / 2;
	unsigned char *map;

	ASSERT_EQ(0, ftruncate(self->fd, len));
	self->model.size = len;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, resident_pages(map, len, self->page));

	alarm(GUARD_SECONDS);
	/* The first half of page 0 onto its second half. */
	ASSERT_EQ(half, pwrite(self->fd, map, half, half));
	/* Bytes of page 1 onto themselves. */
	ASSERT_EQ(100, pwrite(self->fd, map + self->page + 10, 100,
			      self->page + 10));
	alarm(0);
	ASSERT_MODEL();
	ASSERT_EQ(0, munmap(map, len));
}

/* The same with data, on a file system whose page cache can be dropped. */
TEST_F(file, mmap_source_same_page_evicted)
{
	long len = 2 * self->page, half = self->page / 2;
	unsigned char *map;

	if (!variant->can_evict)
		SKIP(return, "%s keeps its pages in memory", variant->fstype);
	ASSERT_EQ(0, prefill(self->fd, &self->model, len, 21));

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, evict(self->fd, map, len, self->page));
	alarm(GUARD_SECONDS);
	ASSERT_EQ(half, pwrite(self->fd, map, half, half));
	alarm(0);
	memcpy(self->model.bytes + half, self->model.bytes, half);
	ASSERT_MODEL();
	ASSERT_EQ(0, munmap(map, len));

	/* A fresh mapping, page 1 dropped again: bytes onto themselves. */
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, evict(self->fd, map, len, self->page));
	alarm(GUARD_SECONDS);
	ASSERT_EQ(2000, pwrite(self->fd, map + self->page + 1000, 2000,
			       self->page + 1000));
	alarm(0);
	ASSERT_MODEL();
	ASSERT_EQ(0, munmap(map, len));
}

/* UIO_MAXIOV one-byte segments, each on its own never-touched page. */
TEST_F(file, one_byte_segments_on_untouched_pages)
{
	long len = UIO_MAXIOV * self->page;
	struct iovec *iov = calloc(UIO_MAXIOV, sizeof(*iov));
	unsigned char *src, *anon;
	int i;

	ASSERT_NE(NULL, iov);
	src = map_untouched_then_hole(self->page, UIO_MAXIOV, 22);
	ASSERT_NE(NULL, src);
	anon = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, anon);

	/* Page-cache data not yet mapped here. */
	for (i = 0; i < UIO_MAXIOV; i++)
		iov[i] = (struct iovec){ src + i * self->page + i * 37 %
					 self->page, 1 };
	ASSERT_EQ(UIO_MAXIOV, writev(self->fd, iov, UIO_MAXIOV));
	model_writev(&self->model, 0, iov, UIO_MAXIOV);
	ASSERT_MODEL();
	ASSERT_EQ(UIO_MAXIOV, file_pos(self->fd));

	/* Anonymous memory never touched at all: zeroes over the data. */
	ASSERT_EQ(0, resident_pages(anon, len, self->page));
	for (i = 0; i < UIO_MAXIOV; i++)
		iov[i] = (struct iovec){ anon + i * self->page + i * 37 %
					 self->page, 1 };
	ASSERT_EQ(UIO_MAXIOV, pwritev(self->fd, iov, UIO_MAXIOV,
				      UIO_MAXIOV / 2));
	model_writev(&self->model, UIO_MAXIOV / 2, iov, UIO_MAXIOV);
	ASSERT_MODEL();
	free(iov);
}

TEST_F(file, append_with_partial_fault)
{
	unsigned char *src = map_then_hole(self->page, 2, 23);
	unsigned char *other = malloc(2000);
	unsigned char *hole;
	struct iovec iov[2];
	off_t apos;
	int afd;

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, other);
	hole = src + 2 * self->page;
	fill(other, 2000, 24);
	ASSERT_EQ(0, prefill(self->fd, &self->model, 1000, 25));
	afd = open(self->path, O_WRONLY | O_APPEND);
	ASSERT_LE(0, afd);

	/* O_APPEND ignores f_pos; 700 of the second segment's bytes. */
	iov[0] = (struct iovec){ other, 2000 };
	iov[1] = (struct iovec){ hole - 700, 1500 };
	ASSERT_EQ(0, lseek(afd, 0, SEEK_SET));
	ASSERT_EQ(2700, writev(afd, iov, 2));
	model_writev(&self->model, 1000, iov, 2700);
	ASSERT_MODEL();
	ASSERT_EQ(3700, file_pos(afd));

	/* An offset does not defeat O_APPEND; f_pos stays. */
	ASSERT_EQ(700, pwritev2(afd, &iov[1], 1, 5, 0));
	model_writev(&self->model, 3700, &iov[1], 700);
	ASSERT_MODEL();
	ASSERT_EQ(3700, file_pos(afd));

	/* RWF_NOAPPEND does. */
	ASSERT_EQ(700, pwritev2(afd, &iov[1], 1, 5, RWF_NOAPPEND));
	model_writev(&self->model, 5, &iov[1], 700);
	ASSERT_MODEL();
	ASSERT_EQ(3700, file_pos(afd));

	/* RWF_APPEND on a plain descriptor; with -1, f_pos follows. */
	ASSERT_EQ(700, pwritev2(self->fd, &iov[1], 1, 0, RWF_APPEND));
	model_writev(&self->model, self->model.size, &iov[1], 700);
	ASSERT_MODEL();
	ASSERT_EQ(0, file_pos(self->fd));
	ASSERT_EQ(700, pwritev2(self->fd, &iov[1], 1, -1, RWF_APPEND));
	model_writev(&self->model, self->model.size, &iov[1], 700);
	ASSERT_MODEL();
	ASSERT_EQ(self->model.size, file_pos(self->fd));

	/* Nothing readable: EFAULT; the size and f_pos stay. */
	apos = file_pos(afd);
	iov[0] = (struct iovec){ hole, 10 };
	ASSERT_EQ(-1, writev(afd, iov, 2));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_MODEL();
	ASSERT_EQ(apos, file_pos(afd));
	close(afd);
	free(other);
}

static atomic_int signals_handled;

static void count_signal(int sig)
{
	signals_handled++;
}

static atomic_bool stop_sending;

/* Keep a signal pending on the writing thread until told to stop. */
static void *send_signals(void *target)
{
	while (!stop_sending) {
		pthread_kill(*(pthread_t *)target, SIGUSR1);
		sched_yield();
	}
	return NULL;
}

#define BIG_SEGMENTS	64
#define BIG_SEGMENT	(64 * 1024)
#define BIG_WRITE	(BIG_SEGMENTS * BIG_SEGMENT)

/*
 * A signal with a handler (and no SA_RESTART) that arrives while a regular
 * file is being written does not cut the write short: the write reports
 * everything, and everything is in the file.
 */
TEST_F(file, handled_signal_during_write)
{
	unsigned char *src = malloc(BIG_WRITE);
	struct sigaction sa = { .sa_handler = count_signal };
	struct iovec iov[BIG_SEGMENTS];
	pthread_t self_thread = pthread_self(), sender;
	int before;
	int i;

	ASSERT_NE(NULL, src);
	fill(src, BIG_WRITE, 26);
	for (i = 0; i < BIG_SEGMENTS; i++)
		iov[i] = (struct iovec){ src + i * BIG_SEGMENT, BIG_SEGMENT };
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));

	stop_sending = false;
	ASSERT_EQ(0, pthread_create(&sender, NULL, send_signals, &self_thread));
	while (!signals_handled)
		sched_yield();
	before = signals_handled;
	ASSERT_EQ(BIG_WRITE, writev(self->fd, iov, BIG_SEGMENTS));
	ASSERT_LT(before, atomic_load(&signals_handled));
	stop_sending = true;
	ASSERT_EQ(0, pthread_join(sender, NULL));

	ASSERT_EQ(BIG_WRITE, file_size(self->fd));
	ASSERT_EQ(BIG_WRITE, file_pos(self->fd));
	ASSERT_EQ(-1, file_diff(self->fd, 0, src, BIG_WRITE));
	free(src);
}

/*
 * Writes held at a known point.  A write whose source reaches a page that
 * is registered with a userfaultfd, and missing, stops in that fault, in
 * generic_perform_write() with the inode locked, until the test supplies
 * the page (UFFDIO_COPY); a SIGKILL ends the wait.  The tests below park a
 * write there instead of racing a signal against it.  Only a state the
 * kernel does not report (a task asleep on the inode lock) is polled for
 * in /proc, with a bound far beyond what it takes: when the kernel is
 * right, the bound decides nothing.
 */
#define HOLD_WAIT_MS	(GUARD_SECONDS * 1000)

/*
 * @len bytes of memory, registered with a new userfaultfd: the first
 * @present bytes (whole pages) hold @data, the rest is missing until
 * uffd_hold_release().  With @untouched, the first @present bytes are a
 * fresh shared mapping of a memfd: not mapped until first touched, so
 * they are faulted in (a fault maps its neighbours too) as the write
 * reaches them.
 */
struct uffd_hold {
	int uffd;
	unsigned char *buf;
	size_t len;
	size_t present;
	const unsigned char *rest;
};

static int uffd_hold_init(struct uffd_hold *u, const unsigned char *data,
			  size_t present, size_t len, bool untouched)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int memfd;

	u->uffd = -1;
	u->len = len;
	u->present = present;
	u->rest = data + present;
	u->buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->buf == MAP_FAILED)
		return -1;
	if (!untouched) {
		memcpy(u->buf, data, present);
	} else if (present) {
		memfd = memfd_create("buffered_write_hold", 0);
		if (memfd < 0)
			return -1;
		if (write(memfd, data, present) != (ssize_t)present ||
		    mmap(u->buf, present, PROT_READ, MAP_SHARED | MAP_FIXED,
			 memfd, 0) == MAP_FAILED) {
			close(memfd);
			return -1;
		}
		close(memfd);
	}
	u->uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (u->uffd < 0 || ioctl(u->uffd, UFFDIO_API, &api))
		return -1;
	reg.range.start = (unsigned long)u->buf + present;
	reg.range.len = len - present;
	if (ioctl(u->uffd, UFFDIO_REGISTER, &reg))
		return -1;
	return 0;
}

/* Wait for a fault on the hold: the address that faulted, or 0. */
static unsigned long uffd_hold_wait(struct uffd_hold *u)
{
	struct pollfd p = { .fd = u->uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&p, 1, HOLD_WAIT_MS) != 1 ||
	    read(u->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return 0;
	return msg.arg.pagefault.address;
}

/* Supply the missing pages, which wakes the task waiting for them. */
static int uffd_hold_release(struct uffd_hold *u)
{
	struct uffdio_copy copy = {
		.dst = (unsigned long)u->buf + u->present,
		.src = (unsigned long)u->rest,
		.len = u->len - u->present,
	};

	return ioctl(u->uffd, UFFDIO_COPY, &copy);
}

static void uffd_hold_destroy(struct uffd_hold *u)
{
	if (u->uffd >= 0)
		close(u->uffd);
	if (u->buf != MAP_FAILED)
		munmap(u->buf, u->len);
}

static ssize_t read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/*
 * Is @pid asleep in state D in a ->write_iter(), as a writer waiting for
 * the inode lock is?  /proc/PID/wchan names the innermost function that is
 * not the scheduler's or a lock's (down_write() is __sched); a kernel
 * without it (no CONFIG_KALLSYMS) only shows the state.
 */
static bool asleep_in_write_iter(pid_t pid)
{
	char buf[512], *p;

	if (read_proc(pid, "stat", buf, sizeof(buf)) <= 0)
		return false;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] != 'D')
		return false;
	if (read_proc(pid, "wchan", buf, sizeof(buf)) <= 0)
		return true;
	return strstr(buf, "write_iter");
}

/* Wait, up to HOLD_WAIT_MS, for @pid to be asleep in a ->write_iter(). */
static bool wait_asleep_in_write_iter(pid_t pid)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		if (asleep_in_write_iter(pid))
			return true;
		usleep(1000);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < HOLD_WAIT_MS);
	return false;
}

#define KILL_WRITE	(32 * 1024 * 1024)

/*
 * A pwritev() at @pos, or a writev() at the file offset for @pos -1, made
 * by a thread of the process whose userfaultfd holds its source.
 */
struct held_write {
	int fd;
	const struct iovec *iov;
	int iovcnt;
	off_t pos;
	ssize_t ret;
};

static void *write_held(void *arg)
{
	struct held_write *w = arg;

	w->ret = pwritev2(w->fd, w->iov, w->iovcnt, w->pos, 0);
	return NULL;
}

/*
 * SIGKILL for a write that waits for the inode lock.  A first write holds
 * the lock, parked in a userfaultfd fault on the second page of its source;
 * a second process queues behind it with a 32 MiB write from a resident
 * buffer, and is killed while it waits; then the first write is let go.
 * generic_perform_write() checks for a fatal signal before it copies each
 * chunk, so the dying write stops before its first one: it writes nothing
 * and does not move the offset.  Its source never faults, so nothing else
 * can stop it: without that check, it would write all 32 MiB before the
 * process died.
 */
TEST_F(file, sigkill_during_write)
{
	unsigned char *held = malloc(2 * self->page);
	int ready[2], go[2], status;
	struct held_write hw;
	struct iovec held_iov;
	bool waited;
	struct uffd_hold u;
	pthread_t holder;
	pid_t pid;
	char c;

	ASSERT_NE(NULL, held);
	fill(held, 2 * self->page, 27);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(2 * self->page, lseek(self->fd, 2 * self->page, SEEK_SET));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		unsigned char *src = malloc(KILL_WRITE);

		if (!src)
			_exit(2);
		fill(src, KILL_WRITE, 28);
		if (write(ready[1], "", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(write(self->fd, src, KILL_WRITE) < 0 ? 3 : 0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));

	/* The first write: pages 0 and 1, held on page 1 with the lock. */
	ASSERT_EQ(0, uffd_hold_init(&u, held, self->page, 2 * self->page,
				    false)) {
		TH_LOG("userfaultfd: %s (CONFIG_USERFAULTFD)", strerror(errno));
		kill(pid, SIGKILL);
	}
	held_iov = (struct iovec){ u.buf, 2 * self->page };
	hw = (struct held_write){ self->fd, &held_iov, 1, 0, -1 };
	ASSERT_EQ(0, pthread_create(&holder, NULL, write_held, &hw));
	ASSERT_EQ((unsigned long)u.buf + self->page, uffd_hold_wait(&u)) {
		kill(pid, SIGKILL);
		uffd_hold_release(&u);
	}

	ASSERT_EQ(1, write(go[1], "", 1));
	waited = wait_asleep_in_write_iter(pid);
	kill(pid, SIGKILL);
	ASSERT_TRUE(waited) {
		TH_LOG("the second write never waited for the inode lock");
		uffd_hold_release(&u);
	}
	ASSERT_EQ(0, uffd_hold_release(&u));

	ASSERT_EQ(0, pthread_join(holder, NULL));
	ASSERT_EQ(2 * self->page, hw.ret);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		TH_LOG("the killed write ended with status %#x", status);
	}
	ASSERT_EQ(2 * self->page, file_size(self->fd)) {
		TH_LOG("the killed write wrote %lld bytes",
		       (long long)file_size(self->fd) - 2 * self->page);
	}
	ASSERT_EQ(-1, file_diff(self->fd, 0, held, 2 * self->page));
	ASSERT_EQ(2 * self->page, file_pos(self->fd));
	uffd_hold_destroy(&u);
	free(held);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

/* The thread of the writing process that tells the test where it faulted. */
struct fault_report {
	struct uffd_hold *u;
	int fd;
};

static void *report_fault(void *arg)
{
	struct fault_report *r = arg;
	unsigned long addr = uffd_hold_wait(r->u);

	if (write(r->fd, &addr, sizeof(addr)) != sizeof(addr))
		_exit(4);
	return NULL;
}

/*
 * Bytes of the source before the hold: a multiple of the largest chunk of
 * the write loop (a PMD on tmpfs, 2 MiB on x86-64), so that the hold
 * starts a pass also with huge folios.  In the middle of a pass, the
 * pass's fault-in would meet the hold before any of it is copied, and a
 * killed write would keep only the passes before it.
 */
#define KILL_PRESENT	(2 << 20)
#define KILL_MISSING	16	/* pages of the source that never arrive */

/*
 * SIGKILL for a write whose source faults.  The source is 2 MiB of a
 * memfd mapping that nothing has touched, so each page takes a page fault,
 * then pages registered with a userfaultfd that nobody serves: the write
 * copies the 2 MiB and parks in the fault on the next page, with the inode
 * locked, where the test kills it.  The fault fails, and the write ends
 * with what it copied: the file holds exactly those 2 MiB, no byte of
 * the chunk it was in, and the offset of the open file it shares with the
 * test moved by as much.  It would catch a failed chunk that is committed
 * anyway (stale or zero bytes in the file, a size beyond what was
 * copied), a count that does not match the data, and a fault that is not
 * given up on a fatal signal (the write would never end).
 */
TEST_F(file, sigkill_during_write_faulting_source)
{
	off_t present = KILL_PRESENT;
	size_t len = present + KILL_MISSING * self->page;
	unsigned char *data = malloc(len);
	unsigned long addr[2];
	struct pollfd p;
	int report[2], status, got;
	ssize_t n;
	pid_t pid;

	ASSERT_NE(NULL, data);
	fill(data, len, 30);
	ASSERT_EQ(0, pipe(report));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uffd_hold u;
		struct fault_report r = { &u, report[1] };
		pthread_t reporter;

		if (uffd_hold_init(&u, data, present, len, true))
			_exit(2);
		addr[0] = (unsigned long)u.buf;
		if (write(report[1], addr, sizeof(addr[0])) != sizeof(addr[0]) ||
		    pthread_create(&reporter, NULL, report_fault, &r))
			_exit(2);
		_exit(write(self->fd, u.buf, len) < 0 ? 3 : 0);
	}

	close(report[1]);

	/* The source's address, then where the write faulted. */
	for (got = 0; got < (int)sizeof(addr); got += n) {
		p = (struct pollfd){ .fd = report[0], .events = POLLIN };
		ASSERT_EQ(1, poll(&p, 1, HOLD_WAIT_MS)) {
			TH_LOG("the writer did not report");
			kill(pid, SIGKILL);
		}
		n = read(report[0], (char *)addr + got, sizeof(addr) - got);
		ASSERT_LT(0, n) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			TH_LOG("the writer ended early, status %#x (2: no userfaultfd)",
			       status);
		}
	}
	kill(pid, SIGKILL);
	ASSERT_EQ(addr[0] + present, addr[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
		TH_LOG("the writer ended with status %#x", status);
	}

	ASSERT_EQ(present, file_size(self->fd));
	ASSERT_EQ(-1, file_diff(self->fd, 0, data, present));
	ASSERT_EQ(present, file_pos(self->fd));
	close(report[0]);
	free(data);
}

/*
 * Errors found before anything is read or written, as POSIX and LTP's
 * readv/writev suites pin them down: a file opened for the other
 * direction (EBADF), an iovec array that is not mapped or runs into an
 * unmapped page (EFAULT), a negative count (EINVAL), a directory
 * (EISDIR).  None changes the file, the offset or the buffers.
 */
TEST_F(file, errors_before_any_copy)
{
	struct iovec *iov, *straddling;
	unsigned char buf[32];
	int rfd, wfd, dfd;
	void *gone;
	size_t i;

	fill(buf, sizeof(buf), 40);
	ASSERT_EQ(0, prefill(self->fd, &self->model, self->page, 41));
	ASSERT_EQ(5, lseek(self->fd, 5, SEEK_SET));
	iov = mmap(NULL, 2 * self->page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, iov);
	iov[0] = (struct iovec){ buf, sizeof(buf) };

	rfd = open(self->path, O_RDONLY);
	ASSERT_LE(0, rfd);
	wfd = open(self->path, O_WRONLY);
	ASSERT_LE(0, wfd);
	ASSERT_EQ(-1, writev(rfd, iov, 1));
	ASSERT_EQ(EBADF, errno);
	ASSERT_EQ(-1, pwritev(rfd, iov, 1, 0));
	ASSERT_EQ(EBADF, errno);
	ASSERT_EQ(-1, readv(wfd, iov, 1));
	ASSERT_EQ(EBADF, errno);
	ASSERT_EQ(-1, preadv(wfd, iov, 1, 0));
	ASSERT_EQ(EBADF, errno);

	/* An array in an unmapped page, and one whose second entry is. */
	gone = mmap(NULL, self->page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	ASSERT_EQ(0, munmap(gone, self->page));
	straddling = (struct iovec *)((char *)iov + self->page) - 1;
	*straddling = (struct iovec){ buf, sizeof(buf) };
	ASSERT_EQ(0, mprotect((char *)iov + self->page, self->page, PROT_NONE));
	ASSERT_EQ(-1, writev(self->fd, gone, 1));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, pwritev(self->fd, straddling, 2, 0));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, readv(self->fd, gone, 1));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, preadv(self->fd, straddling, 2, 0));
	ASSERT_EQ(EFAULT, errno);

	/*
	 * -1 as the C library passes it (sign-extended); raw, because its
	 * headers declare the count a size and compilers object.
	 */
	ASSERT_EQ(-1, syscall(__NR_writev, self->fd, iov, -1L));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(-1, syscall(__NR_readv, self->fd, iov, -1L));
	ASSERT_EQ(EINVAL, errno);

	dfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(-1, readv(dfd, iov, 1));
	ASSERT_EQ(EISDIR, errno);
	ASSERT_EQ(-1, open(self->dir, O_WRONLY));
	ASSERT_EQ(EISDIR, errno);

	ASSERT_MODEL();
	ASSERT_EQ(5, file_pos(self->fd));
	ASSERT_EQ(0, file_pos(rfd));
	ASSERT_EQ(0, file_pos(wfd));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(pattern_byte(40, i), buf[i]);
	close(dfd);
	close(wfd);
	close(rfd);
	munmap(iov, 2 * self->page);
}

/* What a process limited by RLIMIT_FSIZE reports back (fsize_limit). */
struct fsize_results {
	ssize_t crossing, at_limit, before_limit;
	int at_limit_errno;
};

/*
 * RLIMIT_FSIZE: a write that crosses the limit is cut short at it, one
 * that starts at it fails with EFBIG and raises SIGXFSZ, which kills a
 * process that does not handle it.  The limit is per process: each case
 * runs in a child sharing the open file with the test.
 */
TEST_F(file, fsize_limit)
{
	off_t limit = 3 * self->page + 100;
	unsigned char *src = malloc(4 * self->page);
	struct rlimit rl = { limit, limit };
	struct fsize_results *r;
	struct iovec iov[2];
	int status;
	pid_t pid;

	ASSERT_NE(NULL, src);
	fill(src, 4 * self->page, 42);
	iov[0] = (struct iovec){ src, 2 * self->page };
	iov[1] = (struct iovec){ src + 2 * self->page, 2 * self->page };
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(2);
		r->crossing = writev(self->fd, iov, 2);
		r->at_limit = writev(self->fd, iov, 2);
		r->at_limit_errno = errno;
		r->before_limit = pwritev(self->fd, iov, 1, limit - 10);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(limit, r->crossing);
	ASSERT_EQ(-1, r->at_limit);
	ASSERT_EQ(EFBIG, r->at_limit_errno);
	ASSERT_EQ(10, r->before_limit);
	model_writev(&self->model, 0, iov, limit);
	model_write(&self->model, limit - 10, src, 10);
	ASSERT_MODEL();
	ASSERT_EQ(limit, file_pos(self->fd));

	/* SIGXFSZ not handled: it ends the process, the file stays. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		if (setrlimit(RLIMIT_FSIZE, &rl) ||
		    setrlimit(RLIMIT_CORE, &no_core))
			_exit(2);
		_exit(writev(self->fd, iov, 2) < 0 ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) {
		TH_LOG("the writer ended with status %#x", status);
	}
	ASSERT_MODEL();
	ASSERT_EQ(limit, file_pos(self->fd));
	munmap(r, sizeof(*r));
	free(src);
}

/*
 * A reader during a writev() whose first segment is resident and whose
 * second is not (the case of LTP's writev03) sees a prefix of the first
 * segment and nothing else: never bytes of a chunk the copy did not fill.
 * The write is held in a userfaultfd fault on its second segment while
 * the test reads the file; how much of the first segment is in the file
 * by then depends on whether the source is faulted in before or after a
 * chunk is copied, which the next patch changes, so only the prefix is
 * checked.  Then the write is let go and completes.
 */
TEST_F(file, writev_readers_see_no_garbage)
{
	size_t first = self->page + 100, second = 2 * self->page;
	unsigned char *data = malloc(first + second);
	struct held_write hw;
	struct uffd_hold u;
	struct iovec iov[2];
	pthread_t writer;
	ssize_t where;
	off_t size;

	ASSERT_NE(NULL, data);
	fill(data, first + second, 43);
	ASSERT_EQ(0, uffd_hold_init(&u, data + first, 0, second, false)) {
		TH_LOG("userfaultfd: %s (CONFIG_USERFAULTFD)", strerror(errno));
	}
	iov[0] = (struct iovec){ data, first };
	iov[1] = (struct iovec){ u.buf, second };
	hw = (struct held_write){ self->fd, iov, 2, -1, -1 };
	ASSERT_EQ(0, pthread_create(&writer, NULL, write_held, &hw));
	ASSERT_EQ((unsigned long)u.buf, uffd_hold_wait(&u))
		uffd_hold_release(&u);

	/* Looked at while the write waits; asserted once it is let go. */
	size = file_size(self->fd);
	where = file_diff(self->fd, 0, data, size);
	TH_LOG("%lld bytes in the file while the write waits",
	       (long long)size);
	ASSERT_EQ(0, uffd_hold_release(&u));
	ASSERT_GE((off_t)first, size);
	ASSERT_EQ(-1, where);

	ASSERT_EQ(0, pthread_join(writer, NULL));
	ASSERT_EQ((ssize_t)(first + second), hw.ret);
	model_writev(&self->model, 0, iov, first + second);
	ASSERT_MODEL();
	uffd_hold_destroy(&u);
	free(data);
}

/* writev() to a pipe nobody reads: SIGPIPE, or EPIPE where it is ignored. */
TEST(writev_pipe_without_reader)
{
	unsigned char buf[64];
	struct iovec iov[] = { { buf, 10 }, { buf + 10, 54 } };
	int p[2], status;
	pid_t pid;

	fill(buf, sizeof(buf), 44);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, close(p[0]));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(writev(p[1], iov, 2) < 0 ? 3 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE) {
		TH_LOG("the writer ended with status %#x", status);
	}
	ASSERT_TRUE(signal(SIGPIPE, SIG_IGN) != SIG_ERR);
	ASSERT_EQ(-1, writev(p[1], iov, 2));
	ASSERT_EQ(EPIPE, errno);
	close(p[1]);
}

#define SMALL_TMPFS_PAGES	16

/*
 * A full file system: a writev() is cut short at the space left, the next
 * one fails with ENOSPC, and what was written reads back intact.  On a
 * tmpfs of 16 pages, with data blocks counted in pages.
 */
TEST(writev_enospc)
{
	long page = sysconf(_SC_PAGESIZE);
	char dir[] = "/tmp/buffered_write.XXXXXX", path[48], opt[32];
	size_t half = SMALL_TMPFS_PAGES / 2 * page + page;
	unsigned char *src = malloc(2 * half);
	struct iovec iov[2] = { { src, half }, { src + half, half } };
	ssize_t first, second, where;
	int fd, second_errno;
	off_t size, pos;

	ASSERT_NE(NULL, src);
	fill(src, 2 * half, 45);
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(opt, sizeof(opt), "size=%ld", SMALL_TMPFS_PAGES * page);
	if (mount("tmpfs", dir, "tmpfs", 0, opt)) {
		rmdir(dir);
		SKIP(return, "mounting tmpfs: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);

	/* Everything is looked at first: the mount goes before any assert. */
	first = writev(fd, iov, 2);
	second = writev(fd, iov, 2);
	second_errno = errno;
	size = file_size(fd);
	pos = file_pos(fd);
	where = file_diff(fd, 0, src, SMALL_TMPFS_PAGES * page);
	close(fd);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	free(src);

	ASSERT_EQ(SMALL_TMPFS_PAGES * page, first);
	ASSERT_EQ(-1, second);
	ASSERT_EQ(ENOSPC, second_errno);
	ASSERT_EQ(SMALL_TMPFS_PAGES * page, size);
	ASSERT_EQ(SMALL_TMPFS_PAGES * page, pos);
	ASSERT_EQ(-1, where);
}

TEST_HARNESS_MAIN
