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
#include <liburing.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define MODULE_PATH "/modules/rust_hostile.ko"
#define MODULE_NAME "rust_hostile"
#define HOSTILE_DUP_REGISTER _IO('|', 0xa0)
/* hostile-file-ref: 0, or the errno of the last try_get, reservation, fget */
#define HOSTILE_OPEN_GET _IO('|', 0xa1)
#define HOSTILE_RELEASE_GET _IO('|', 0xa2)
#define HOSTILE_RELEASE_FD _IO('|', 0xa3)
#define HOSTILE_RELEASE_FGET _IO('|', 0xa4)
#define HOSTILE_IOCTL_GET _IO('|', 0xa5)
#define HOSTILE_OPEN_REGISTER _IO('|', 0xa9)
#define HOSTILE_RESET _IO('|', 0xaa)
/* hostile-big */
#define HOSTILE_ALLOC_KVEC _IO('|', 0xa6)
#define HOSTILE_ALLOC_KVVEC _IO('|', 0xa7)
#define HOSTILE_EMPTY_NAME _IO('|', 0xa8)
#define HOSTILE_ALLOC_FLAGS _IO('|', 0xab)
#define HOSTILE_USER_FROM_WORK _IO('|', 0xac)
#define HOSTILE_ALLOC_ATOMIC _IO('|', 0xad)
#define HOSTILE_LONG_NAME _IO('|', 0xae)
#define INIT_MODULE_PATH "/modules/rust_hostile_init.ko"
#define WORK_MODULE_PATH "/modules/rust_hostile_work.ko"
#define WORK_MODULE_NAME "rust_hostile_work"
#define PREFIX_MODULE_PATH "/modules/rust_hostile_prefix.ko"
#define PREFIX_MODULE_NAME "rust_hostile_prefix"
#define SHADOW_MODULE_PATH "/modules/rust_hostile_shadow.ko"
#define SHADOW_MODULE_NAME "rust_hostile_shadow"

/* Load the module at @path; 0 or -errno. */
static int insmod(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		ret = -errno;
	close(fd);
	return ret;
}

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

/*
 * A second device of the same name fails with EEXIST before sysfs sees it
 * (sysfs would report the duplicate with a stack dump); its registration
 * data must have been dropped.
 */
TEST(registration_data_dropped_on_failure)
{
	int fd = open_dev(_metadata, "hostile-status", O_RDONLY);

	EXPECT_EQ(1, ioctl(fd, HOSTILE_DUP_REGISTER));
	EXPECT_FALSE(klog_has("cannot create duplicate filename"));
	close(fd);
}

/* open is lent a file that is not open yet: no reference can be taken. */
TEST(file_ref_refused_in_open)
{
	int fd = open_dev(_metadata, "hostile-file-ref", O_RDONLY);

	EXPECT_EQ(EBADF, ioctl(fd, HOSTILE_OPEN_GET));
	/* Registering would wait for the misc core's lock, which open holds. */
	EXPECT_EQ(EBUSY, ioctl(fd, HOSTILE_OPEN_REGISTER));
	/* The same file in an ioctl is open and counted. */
	EXPECT_EQ(0, ioctl(fd, HOSTILE_IOCTL_GET));
	close(fd);
}

/* release is lent a file whose count is zero: no reference can be taken. */
TEST(file_ref_refused_in_release)
{
	int fd = open_dev(_metadata, "hostile-file-ref", O_RDONLY);
	int q;

	/* release's fget(0) needs a descriptor 0 to find. */
	if (fcntl(0, F_GETFD) < 0)
		ASSERT_EQ(0, open("/dev/null", O_RDONLY));
	close(fd);
	q = open_dev(_metadata, "hostile-file-ref", O_RDONLY);
	EXPECT_EQ(EBADF, ioctl(q, HOSTILE_RELEASE_GET));
	/* The closing task has its file table: descriptors work there. */
	EXPECT_EQ(0, ioctl(q, HOSTILE_RELEASE_FD));
	EXPECT_EQ(0, ioctl(q, HOSTILE_RELEASE_FGET));
	close(q);
}

/*
 * A task that exits with the file open releases it after its file table
 * is gone: descriptors must fail, not dereference the missing table.
 */
TEST(file_ref_release_after_exit)
{
	int status, q;
	pid_t pid;

	ASSERT_EQ(0, load_module());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(open("/dev/hostile-file-ref", O_RDONLY) < 0 ? 2 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	q = open_dev(_metadata, "hostile-file-ref", O_RDONLY);
	EXPECT_EQ(EBADF, ioctl(q, HOSTILE_RELEASE_GET));
	EXPECT_EQ(EMFILE, ioctl(q, HOSTILE_RELEASE_FD));
	EXPECT_EQ(EBADF, ioctl(q, HOSTILE_RELEASE_FGET));
	close(q);
}

/*
 * A file whose last reference a kernel thread drops is released on a kernel
 * worker (io_uring puts its registered files from one): its file table is
 * the kernel threads', so descriptors must fail there too.
 */
TEST(file_ref_release_on_kworker)
{
	struct io_uring ring;
	int fd, q, i, got = 1000;

	q = open_dev(_metadata, "hostile-file-ref", O_RDONLY);
	ASSERT_EQ(0, ioctl(q, HOSTILE_RESET));
	fd = open_dev(_metadata, "hostile-file-ref", O_RDONLY);
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, 0));
	ASSERT_EQ(0, io_uring_register_files(&ring, &fd, 1));
	close(fd);
	io_uring_queue_exit(&ring);
	/* The ring's files are put from a worker, asynchronously. */
	for (i = 0; i < 200 && got == 1000; i++) {
		usleep(10 * 1000);
		got = ioctl(q, HOSTILE_RELEASE_FD);
	}
	EXPECT_EQ(EMFILE, got);
	EXPECT_EQ(EBADF, ioctl(q, HOSTILE_RELEASE_FGET));
	EXPECT_EQ(EBADF, ioctl(q, HOSTILE_RELEASE_GET));
	close(q);
}

/* Free a few MiB of pages that hold @byte, so that new allocations likely get them. */
static void free_marked_pages(unsigned char byte)
{
	static char marker[65536];
	int i, p[2];

	memset(marker, byte, sizeof(marker));
	for (i = 0; i < 64; i++) {
		if (pipe(p))
			return;
		fcntl(p[1], F_SETPIPE_SZ, sizeof(marker));
		if (write(p[1], marker, sizeof(marker)) < 0)
			i = 64;
		close(p[0]);
		close(p[1]);
	}
}

/*
 * Read pages the device allocated and never wrote, at @pos: 0 copies
 * them with copy_page_to_iter(), 1 through a BioVec source. They must
 * read as zeroes, not as what their last owner left.
 */
static void read_fresh_pages(struct __test_metadata *_metadata, off_t pos)
{
	size_t len = 256 * 1024, i;
	int fd = open_dev(_metadata, "hostile-stale-page", O_RDONLY);
	unsigned char *buf = malloc(len);

	ASSERT_NE(NULL, buf);
	memset(buf, 0xee, len);
	free_marked_pages(0x5a);
	ASSERT_EQ((ssize_t)len, pread(fd, buf, len, pos));
	for (i = 0; i < len; i++)
		if (buf[i])
			break;
	EXPECT_EQ(len, i) TH_LOG("byte %zu of the fresh pages is 0x%02x", i, buf[i]);
	free(buf);
	close(fd);
}

TEST(stale_page_copy)
{
	read_fresh_pages(_metadata, 0);
}

TEST(stale_page_bvec)
{
	read_fresh_pages(_metadata, 1);
}

/* A write too large to reserve fails with ENOMEM, without a kernel warning. */
TEST(big_write)
{
	int fd = open_dev(_metadata, "hostile-big", O_WRONLY);
	size_t kv = 8 << 20, vv = 1536ul << 20;
	char *buf;

	buf = mmap(NULL, kv, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	/* KVec: more than kmalloc() can give. */
	EXPECT_EQ(-1, pwrite(fd, buf, kv, 0));
	EXPECT_EQ(ENOMEM, errno);
	munmap(buf, kv);
	buf = mmap(NULL, vv, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	/* KVVec: more than the guest's memory. */
	EXPECT_EQ(-1, pwrite(fd, buf, vv, 1));
	EXPECT_EQ(ENOMEM, errno);
	munmap(buf, vv);
	/* A small write still works, both ways. */
	EXPECT_EQ(3, pwrite(fd, "abc", 3, 0));
	EXPECT_EQ(3, pwrite(fd, "abc", 3, 1));
	close(fd);
}

/* The guest's MemTotal in bytes, from /proc/meminfo. */
static size_t mem_total(void)
{
	unsigned long kib = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib * 1024;
}

/*
 * A write that asks for nearly all of the guest's memory, which is less
 * than the allocator's limits but more than is free: 1 MiB iovecs that all
 * point at one read-only page range, so this process holds almost none of
 * it. The reservation must fail with ENOMEM, not make the OOM killer kill
 * a process (this one, or the shell running the tests) to serve it.
 */
TEST(big_write_oom)
{
	int fd = open_dev(_metadata, "hostile-big", O_WRONLY);
	size_t seg = 1 << 20, n = mem_total() / seg - 1, i;
	struct iovec *iov;
	char *buf;

	ASSERT_LT(16, n);
	ASSERT_GE(1024, n);
	buf = mmap(NULL, seg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	iov = calloc(n, sizeof(*iov));
	ASSERT_NE(NULL, iov);
	for (i = 0; i < n; i++) {
		iov[i].iov_base = buf;
		iov[i].iov_len = seg;
	}
	/* Offset 1: the device reserves in a KVVec, which may vmalloc. */
	EXPECT_EQ(-1, pwritev(fd, iov, n, 1));
	EXPECT_EQ(ENOMEM, errno);
	free(iov);
	munmap(buf, seg);
	close(fd);
}

TEST(big_alloc)
{
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);

	EXPECT_LE(4096, ioctl(fd, HOSTILE_ALLOC_KVEC, 4096ul));
	EXPECT_EQ(-1, ioctl(fd, HOSTILE_ALLOC_KVEC, 8ul << 20));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-1, ioctl(fd, HOSTILE_ALLOC_KVVEC, 3ul << 30));
	EXPECT_EQ(ENOMEM, errno);
	close(fd);
}

/*
 * Flag arithmetic gives the allocators bits C refuses for slab memory
 * (__GFP_HIGHMEM, and every bit with !__GFP_ZERO): kmalloc would print
 * "Unexpected gfp" and a stack dump, which fails the console scan. A page
 * allocated with !__GFP_NOWARN would have two migrate type bits, which the
 * page allocator takes as an index past its tables (UBSAN, KASAN, a hang).
 */
TEST(alloc_flags)
{
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);

	EXPECT_EQ(16384 + 64, ioctl(fd, HOSTILE_ALLOC_FLAGS));
	close(fd);
}

/*
 * vmalloc() sleeps whatever the flags say: growing vmalloc'ed memory, or
 * making a VVec, with GFP_ATOMIC under a spinlock must fail, not sleep
 * ("BUG: sleeping function called from invalid context").
 */
TEST(alloc_atomic_vmalloc)
{
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);

	EXPECT_EQ(0, ioctl(fd, HOSTILE_ALLOC_ATOMIC));
	close(fd);
}

/*
 * A work item reads this process's memory while the process waits for it:
 * the kworker runs on the page tables the process left on its CPU, but
 * has no user memory of its own, so the read must fail.
 */
TEST(user_memory_from_work)
{
	char secret[16] = "not for kworker";
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);
	int i;

	for (i = 0; i < 20; i++) {
		EXPECT_EQ(-1, ioctl(fd, HOSTILE_USER_FROM_WORK, secret));
		EXPECT_EQ(EFAULT, errno);
	}
	close(fd);
}

TEST(empty_device_name)
{
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);

	EXPECT_EQ(-1, ioctl(fd, HOSTILE_EMPTY_NAME));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* A 1000-byte name would overflow the uevent buffer ("buffer size too small"). */
TEST(long_device_name)
{
	int fd = open_dev(_metadata, "hostile-big", O_RDONLY);

	EXPECT_EQ(-1, ioctl(fd, HOSTILE_LONG_NAME));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

struct loader {
	int ret, err;
	volatile int done;
};

static void *load_failing_module(void *arg)
{
	struct loader *l = arg;
	int fd = open(INIT_MODULE_PATH, O_RDONLY | O_CLOEXEC);

	l->ret = fd < 0 ? -1 : syscall(SYS_finit_module, fd, "", 0);
	l->err = errno;
	if (fd >= 0)
		close(fd);
	__atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The module's init registers /dev/hostile-init, waits up to 3 s for an
 * open, and fails. While it runs the device must not open: the loader
 * frees a module whose init failed, open files or not.
 */
TEST(open_during_failing_init)
{
	struct loader l = { 0 };
	int fd, opened = 0, again = 0;
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, load_failing_module, &l));
	while (!__atomic_load_n(&l.done, __ATOMIC_ACQUIRE)) {
		fd = open("/dev/hostile-init", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			char c;

			opened++;
			/* With the module freed under it, this read faults in freed code. */
			usleep(100 * 1000);
			EXPECT_EQ(1, read(fd, &c, 1));
			close(fd);
		} else if (errno == EAGAIN) {
			again++;
		}
		usleep(1000);
	}
	pthread_join(t, NULL);
	EXPECT_EQ(0, opened);
	EXPECT_LT(0, again) TH_LOG("the device was never seen while init ran");
	EXPECT_EQ(-1, l.ret);
	EXPECT_EQ(ENXIO, l.err);
	EXPECT_EQ(-1, access("/dev/hostile-init", F_OK));
}

/*
 * Releasing a file of /dev/hostile-work queues a work item that sleeps a
 * second: the module must not unload until it has run. Its exit queues
 * another, which the unload waits for.
 *
 * Both modules, loaded together, queue items through Queue::try_spawn():
 * one lock class key for all its callers, which must come with one name
 * too, or the second module's item makes lockdep warn (DEBUG kernel).
 */
TEST(work_item_holds_module)
{
	char buf[16] = { 0 };
	struct timespec t0, t1;
	int fd, tries;
	long ret;

	fd = open_dev(_metadata, "hostile-big", O_RDONLY);
	EXPECT_EQ(-1, ioctl(fd, HOSTILE_USER_FROM_WORK, buf));
	EXPECT_EQ(EFAULT, errno);
	close(fd);

	ASSERT_EQ(0, insmod(WORK_MODULE_PATH));
	fd = open("/dev/hostile-work", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-1, syscall(SYS_delete_module, WORK_MODULE_NAME, O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	for (tries = 0; tries < 100; tries++) {
		ret = syscall(SYS_delete_module, WORK_MODULE_NAME, O_NONBLOCK);
		if (ret == 0 || errno != EWOULDBLOCK)
			break;
		usleep(50 * 1000);
	}
	EXPECT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Not before the release's work item had run (it sleeps a second). */
	EXPECT_LE(900, (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	EXPECT_TRUE(klog_has("rust_hostile_work: the exit's work item ran"));
	EXPECT_EQ(-1, access("/dev/hostile-work", F_OK));
}

/*
 * The module's crate root defines a log prefix without a NUL: printk's %s
 * must not read past it (it did, into the module's other constants:
 * "KASAN: global-out-of-bounds in string"), so the prefix is left out.
 */
TEST(log_prefix_without_nul)
{
	ASSERT_EQ(0, insmod(PREFIX_MODULE_PATH));
	EXPECT_TRUE(klog_has("printed under a prefix without a NUL"));
	EXPECT_FALSE(klog_has("hostile-prefix-without-end"));
	EXPECT_EQ(0, syscall(SYS_delete_module, PREFIX_MODULE_NAME, O_NONBLOCK))
		TH_LOG("delete_module: %s", strerror(errno));
}

/*
 * The module's crate has a `mod kernel` where it invokes module!, whose
 * types::Opaque::get() returns a made-up address: module! must not build
 * THIS_MODULE from it (unloading took a general protection fault).
 */
TEST(module_with_kernel_shadowed)
{
	ASSERT_EQ(0, insmod(SHADOW_MODULE_PATH));
	EXPECT_TRUE(klog_has("rust_hostile_shadow: THIS_MODULE forged: false"));
	EXPECT_EQ(0, syscall(SYS_delete_module, SHADOW_MODULE_NAME, O_NONBLOCK))
		TH_LOG("delete_module: %s", strerror(errno));
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
