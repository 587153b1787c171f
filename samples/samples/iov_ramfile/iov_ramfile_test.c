// SPDX-License-Identifier: GPL-2.0
/*
 * User-space tests of the iov_iter RAM file sample devices,
 * /dev/c-iov-ramfile and /dev/rust-iov-ramfile.
 *
 * Every request is made on each device under test and on an in-memory
 * model of the semantics documented in samples/iov_ramfile/c_iov_ramfile.c
 * (and of the checks the VFS makes before it calls a driver). After every
 * request the return value, errno, file offset, the bytes that landed in
 * user memory and the device's size and contents around the request must
 * match the model, so devices tested together give identical results.
 * The cases also state the key results explicitly.
 *
 * Every kernel caller of read_iter/write_iter is a request of its own
 * (enum op_kind), and each hands the driver another iterator:
 * read/write/pread/pwrite: ITER_UBUF; readv/writev/preadv2/pwritev2:
 * ITER_IOVEC (ITER_UBUF for one segment); splice and sendfile out of the
 * device into a pipe or a tmpfs file, and splice+tee: copy_splice_read(),
 * ITER_BVEC over pages it allocates, limited to the pipe's room; splice
 * and sendfile into the device: iter_file_splice_write(), ITER_BVEC over
 * the pipe's pages, the pipe locked; io_uring READ/WRITE: ITER_UBUF,
 * READV/WRITEV: ITER_IOVEC, READ_FIXED/WRITE_FIXED: ITER_BVEC over
 * registered (pinned) buffers, each first tried inline with IOCB_NOWAIT,
 * or from an io-wq worker (IOSQE_ASYNC); native AIO PREAD/PWRITE (ITER_UBUF)
 * and PREADV/PWRITEV (ITER_IOVEC): an async kiocb at aio_offset, the file
 * position neither used nor moved. Splice and sendfile data is staged
 * through a pipe or a tmpfs file and lands in, or comes from, user memory
 * like a read's or a write's; the bytes that went through the pipe or the
 * file and the offset variable are compared too. The callers_* cases also
 * make every request on a tmpfs file, which must give the same results.
 *
 * Devices: --device=PATH (repeatable) or IOV_RAMFILE_DEVICES=PATH:PATH...;
 * by default whichever of the two devices exist (at least one must).
 * The tests empty the devices (open with O_TRUNC) and leave data behind.
 *
 * Environment: IOV_SEED (seed of the random run), IOV_SOAK (number of
 * random requests, default RANDOM_STEPS), IOV_FAULTS (usercopy faults to
 * inject per device in random_usercopy_faults, which skips without it;
 * needs CONFIG_FAULT_INJECTION_USERCOPY and debugfs),
 * IOV_FAULT_PROBABILITY (percent of user copies that fail then, default
 * 10), IOV_CW_ROUNDS (rounds of the concurrency test, default 1).
 *
 * --demo: writev() a few scattered segments to each device, readv() them
 * back and print them; no tests.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libaio.h>
#include <linux/magic.h>
#include <liburing.h>

#include "kselftest_harness.h"

#ifndef RWF_ATOMIC
#define RWF_ATOMIC	0x00000040
#endif
/* The RWF_* flags 6.12 knows; anything else is -EOPNOTSUPP. */
#define RWF_KNOWN	(RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | \
			 RWF_APPEND | RWF_NOAPPEND | RWF_ATOMIC)
#define RWF_UNKNOWN	0x00000080
/* The splice flags 6.12 knows (SPLICE_F_ALL); anything else is -EINVAL. */
#define SPLICE_F_KNOWN	(SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)
#define SPLICE_F_UNKNOWN	0x10

#define KIB		1024UL
#define MIB		(1024 * KIB)
#define PAGE		4096UL
#define MAX_SEGS	(UIO_MAXIOV + 8)
#define MAX_DEVICES	4
#define RANDOM_STEPS	15000
#define NR_ERRNO	128
/* What the VFS moves at most in one call. */
#define MAX_RW_COUNT	((long long)(INT_MAX & ~(PAGE - 1)))
/* Room in each staging pipe (F_SETPIPE_SZ): 256 pages. */
#define PIPE_BYTES	MIB
/* A pipe, file or ring the test needs could not be set up or used. */
#define STAGING_FAILED	ENOTRECOVERABLE

static const char *const default_devices[] = {
	"/dev/c-iov-ramfile", "/dev/rust-iov-ramfile",
};

static const char *cmdline_devices[MAX_DEVICES];
static int nr_cmdline_devices;

/*
 * The arena: the user memory every request reads from or writes to. Each
 * target (device or model) has its own, with the same layout, so the
 * bytes a request leaves there can be compared. After the data pages come
 * pages that fault: PROT_NONE, read-only and unmapped, each followed by a
 * read-write page.
 */
#define A_DATA_LEN	(2 * MIB + 8 * PAGE)
#define A_NONE		A_DATA_LEN
#define A_RO		(A_NONE + 2 * PAGE)
#define A_HOLE		(A_RO + 2 * PAGE)
#define ARENA_LEN	(A_HOLE + 2 * PAGE)

enum page_kind { PK_RW, PK_NONE, PK_RO, PK_HOLE };

static enum page_kind page_kind(size_t off)
{
	switch (off & ~(PAGE - 1)) {
	case A_NONE:
		return PK_NONE;
	case A_RO:
		return PK_RO;
	case A_HOLE:
		return PK_HOLE;
	}
	return PK_RW;
}

/* A user buffer: in the arena, at NULL + off, or at a kernel address. */
enum seg_base { SB_ARENA, SB_NULL, SB_KERNEL };
#define KERNEL_ADDR	0xffffffff81000000UL

struct seg {
	enum seg_base base;
	size_t off;
	size_t len;
};

#define A(o, l)		{ SB_ARENA, (o), (l) }
#define NUL(l)		{ SB_NULL, 0, (l) }
#define KPTR(l)		{ SB_KERNEL, 0, (l) }

/* Each target opens the device once per handle. */
enum { H_RW, H_RW2, H_APPEND, H_RDONLY, H_WRONLY, NR_HANDLES };
static const int handle_flags[NR_HANDLES] = {
	O_RDWR, O_RDWR, O_RDWR | O_APPEND, O_RDONLY, O_WRONLY,
};

/* The first NR_RW_KINDS are the plain system calls. */
enum op_kind {
	OP_READ, OP_WRITE, OP_PREAD, OP_PWRITE,
	OP_READV, OP_WRITEV, OP_PREADV2, OP_PWRITEV2,
	OP_LSEEK, OP_REOPEN,
	OP_SPLICE_READ, OP_SPLICE_WRITE, OP_SPLICE_TEE,
	OP_SENDFILE_PIPE, OP_SENDFILE_FILE, OP_SENDFILE_IN,
	OP_URING_READ, OP_URING_WRITE, OP_URING_READV, OP_URING_WRITEV,
	OP_URING_READ_FIXED, OP_URING_WRITE_FIXED,
	OP_AIO_PREAD, OP_AIO_PWRITE, OP_AIO_PREADV, OP_AIO_PWRITEV,
	NR_OP_KINDS
};

#define NR_RW_KINDS	8
#define FIRST_CALLER	OP_SPLICE_READ

static const char *const op_names[] = {
	"read", "write", "pread", "pwrite", "readv", "writev", "preadv2",
	"pwritev2", "lseek", "reopen",
	"splice(dev->pipe)", "splice(pipe->dev)", "splice+tee",
	"sendfile(dev->pipe)", "sendfile(dev->file)", "sendfile(file->dev)",
	"uring-read", "uring-write", "uring-readv", "uring-writev",
	"uring-read-fixed", "uring-write-fixed",
	"aio-pread", "aio-pwrite", "aio-preadv", "aio-pwritev",
};

/*
 * What a request kind is: its direction, and the way it takes to the
 * driver. T_STAGED: splice or sendfile, the data staged through a pipe or
 * a tmpfs file; T_SPLICE: the splice() system call.
 */
enum {
	T_READ = 1, T_WRITE = 2, T_VEC = 4, T_STAGED = 8, T_SPLICE = 16,
	T_URING = 32, T_FIXED = 64, T_AIO = 128,
};

static const unsigned int op_traits[] = {
	[OP_READ] = T_READ,
	[OP_WRITE] = T_WRITE,
	[OP_PREAD] = T_READ,
	[OP_PWRITE] = T_WRITE,
	[OP_READV] = T_READ | T_VEC,
	[OP_WRITEV] = T_WRITE | T_VEC,
	[OP_PREADV2] = T_READ | T_VEC,
	[OP_PWRITEV2] = T_WRITE | T_VEC,
	[OP_SPLICE_READ] = T_READ | T_STAGED | T_SPLICE,
	[OP_SPLICE_WRITE] = T_WRITE | T_STAGED | T_SPLICE,
	[OP_SPLICE_TEE] = T_READ | T_STAGED | T_SPLICE,
	[OP_SENDFILE_PIPE] = T_READ | T_STAGED,
	[OP_SENDFILE_FILE] = T_READ | T_STAGED,
	[OP_SENDFILE_IN] = T_WRITE | T_STAGED,
	[OP_URING_READ] = T_READ | T_URING,
	[OP_URING_WRITE] = T_WRITE | T_URING,
	[OP_URING_READV] = T_READ | T_URING | T_VEC,
	[OP_URING_WRITEV] = T_WRITE | T_URING | T_VEC,
	[OP_URING_READ_FIXED] = T_READ | T_URING | T_FIXED,
	[OP_URING_WRITE_FIXED] = T_WRITE | T_URING | T_FIXED,
	[OP_AIO_PREAD] = T_READ | T_AIO,
	[OP_AIO_PWRITE] = T_WRITE | T_AIO,
	[OP_AIO_PREADV] = T_READ | T_AIO | T_VEC,
	[OP_AIO_PWRITEV] = T_WRITE | T_AIO | T_VEC,
};

/*
 * One request. read/write/pread/pwrite use seg[0]; off is the offset of
 * the positional calls and of lseek; flags are RWF_* for preadv2/pwritev2
 * and extra open flags (O_TRUNC) for reopen.
 *
 * splice and sendfile: seg[0] is the data staged (its length is the
 * count asked for), splice+tee puts the tee'd copy in seg[1]; off is the
 * value of the offset pointer, -1 for none (NULL: the file position is
 * used and moved); for sendfile(file->dev) it points into the tmpfs file
 * (at 0), and the device is written at its file position; flags are
 * SPLICE_F_*. io_uring: off -1 is the file position; flags are the SQE's
 * RWF_*; buf_index is the registered buffer of READ_FIXED/WRITE_FIXED;
 * async sets IOSQE_ASYNC (an io-wq worker does the request). AIO: off is
 * aio_offset (no file position: -1 is invalid); flags are RWF_*.
 */
struct op {
	enum op_kind kind;
	int h;
	const struct seg *seg;
	int nseg;
	bool iov_null;
	long long off;
	int whence;
	int flags;
	int buf_index;
	bool async;
};

/*
 * A result. For splice and sendfile also: offp, the offset variable
 * afterwards; piped, the bytes found in the pipe or tmpfs file afterwards
 * (for a write: taken from it; for sendfile(file->dev) without an offset
 * pointer: the tmpfs file's position); tee, what tee() returned (-errno).
 */
struct res {
	long long ret;
	int err;
	long long pos;
	long long offp;
	long long piped;
	long long tee;
};

/*
 * A device or a tmpfs file, with what requests other than plain system
 * calls need: two pipes (splice and tee), a tmpfs scratch file
 * (sendfile), an io_uring ring with the arena's data area registered as
 * fixed buffer 0 and one page of it as buffer 1, an AIO context.
 */
struct target {
	const char *path;
	int fd[NR_HANDLES];
	int probe;
	unsigned char *arena;
	int pipe_r, pipe_w, tee_r, tee_w, scratch;
	struct io_uring ring;
	bool ring_ok;
	io_context_t aio;
	bool aio_ok;
	char ref_path[64];
};

#define NR_FIXED_BUFS	2
static const struct { size_t off, len; } fixed_bufs[NR_FIXED_BUFS] = {
	{ 0, A_DATA_LEN }, { PAGE, PAGE },
};

struct model {
	unsigned char *data;
	long long size;
	long long pos[NR_HANDLES];
};

struct rig {
	int ndev;
	struct target dev[MAX_DEVICES];
	struct target mt;
	struct model m;
	long long cap;
	unsigned char *buf;
	size_t buf_len;
	unsigned long step;
	unsigned long long fill;
	const char *what;
	bool failed;
	int reports;
	/* Device range a write may have touched; checked after it. */
	long long win_lo, win_hi;
	bool check_size;
	/*
	 * Usercopy fault injection: requests on the one device get injected
	 * faults, and the model then moves at most @cut bytes, the count the
	 * device returned (0 for EFAULT): a copy may stop anywhere, but what
	 * it reports must be what it did.
	 */
	bool inject;
	bool cut_on;
	long long cut;
	int fail_fd;
	/*
	 * The device returned EFAULT with faults injected: the model fails
	 * the request at the first user copy the caller makes, which for
	 * AIO (the iocb) and for an offset pointer comes before any check.
	 */
	bool cut_efault;
	/* The tmpfs reference target, set up with the devices (ref_add()). */
	struct target ref;
	bool ref_added;
};

static unsigned long long rng_next(unsigned long long *s)
{
	unsigned long long x = *s += 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static unsigned long long rng_below(unsigned long long *s, unsigned long long n)
{
	return n ? rng_next(s) % n : 0;
}

#define note(fmt, ...) fprintf(stderr, "# " fmt "\n", ##__VA_ARGS__)

static bool is_read(enum op_kind k)
{
	return op_traits[k] & T_READ;
}

static bool is_write(enum op_kind k)
{
	return op_traits[k] & T_WRITE;
}

static bool is_vec(enum op_kind k)
{
	return op_traits[k] & T_VEC;
}

/* At an offset of its own: the file position is neither used nor moved. */
static bool is_positional(const struct op *op)
{
	unsigned int t = op_traits[op->kind];

	if (op->kind == OP_PREAD || op->kind == OP_PWRITE || (t & T_AIO))
		return true;
	if (op->kind == OP_SENDFILE_IN)
		return false;
	return (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2 ||
		(t & (T_URING | T_STAGED))) && op->off != -1;
}

/* splice and sendfile given an offset pointer. */
static bool has_offp(const struct op *op)
{
	return (op_traits[op->kind] & T_STAGED) && op->off != -1;
}

/* The offset variable before the call (sendfile(file->dev): the file's). */
static long long offp_start(const struct op *op)
{
	if (!has_offp(op))
		return 0;
	return op->kind == OP_SENDFILE_IN ? 0 : op->off;
}

static bool can_read(int h)
{
	return (handle_flags[h] & O_ACCMODE) != O_WRONLY;
}

static bool can_write(int h)
{
	return (handle_flags[h] & O_ACCMODE) != O_RDONLY;
}

static void describe(const struct op *op, char *s, size_t n)
{
	int len, i;

	len = snprintf(s, n, "%s(h%d", op_names[op->kind], op->h);
	if (op->kind == OP_LSEEK)
		len += snprintf(s + len, n - len, ", %lld, whence %d", op->off, op->whence);
	else if (op->kind == OP_REOPEN)
		len += snprintf(s + len, n - len, ", flags %#x", op->flags);
	else
		len += snprintf(s + len, n - len, ", off %lld, flags %#x", op->off, op->flags);
	if (op_traits[op->kind] & T_FIXED)
		len += snprintf(s + len, n - len, ", buf %d", op->buf_index);
	if (op->async)
		len += snprintf(s + len, n - len, ", IOSQE_ASYNC");
	if (op->kind != OP_LSEEK && op->kind != OP_REOPEN)
		len += snprintf(s + len, n - len, ", %d seg%s%s", op->nseg,
				op->iov_null ? " NULL" : "", op->nseg ? ":" : "");
	if (op->kind != OP_LSEEK && op->kind != OP_REOPEN && !op->iov_null)
		for (i = 0; i < op->nseg && i < 6 && len < (int)n; i++)
			len += snprintf(s + len, n - len, " %s%zu+%zu",
					op->seg[i].base == SB_ARENA ? "" :
					op->seg[i].base == SB_NULL ? "NULL:" : "KERNEL:",
					op->seg[i].off, op->seg[i].len);
	if (len < (int)n)
		snprintf(s + len, n - len, "%s)", op->nseg > 6 ? " ..." : "");
}

/* Bytes of valid length in the segments, for windows; huge ones count 0. */
static long long seg_total(const struct op *op)
{
	long long total = 0;
	int i;

	if (op->iov_null)
		return 0;
	for (i = 0; i < op->nseg && i < MAX_SEGS; i++)
		if ((ssize_t)op->seg[i].len >= 0 && op->seg[i].len <= A_DATA_LEN)
			total += op->seg[i].len;
	return total;
}

/*
 * How many bytes of the segments the kernel can copy before the first
 * fault, at most @limit: to user memory (a read) needs writable pages,
 * from it (a write) readable ones.
 */
static size_t reach(const struct op *op, size_t limit, bool to_user)
{
	size_t done = 0;
	int i;

	for (i = 0; i < op->nseg && done < limit; i++) {
		const struct seg *s = &op->seg[i];
		size_t j = 0;

		if (!s->len)
			continue;
		if (s->base != SB_ARENA)
			return done;
		while (j < s->len && done < limit) {
			size_t off = s->off + j;
			enum page_kind k = page_kind(off);
			size_t step = PAGE - off % PAGE;

			if (k == PK_NONE || k == PK_HOLE || (to_user && k == PK_RO))
				return done;
			if (step > s->len - j)
				step = s->len - j;
			if (step > limit - done)
				step = limit - done;
			j += step;
			done += step;
		}
	}
	return done;
}

/* Copy @len bytes between @buf and the segments in @arena, in order. */
static void seg_copy(unsigned char *arena, const struct op *op, unsigned char *buf,
		     size_t len, bool to_arena)
{
	int i;

	for (i = 0; i < op->nseg && len; i++) {
		const struct seg *s = &op->seg[i];
		size_t n = s->len < len ? s->len : len;

		if (!n)
			continue;
		if (to_arena)
			memcpy(arena + s->off, buf, n);
		else
			memcpy(buf, arena + s->off, n);
		buf += n;
		len -= n;
	}
}

static struct res model_fail(struct model *m, int h, int err)
{
	return (struct res){ .ret = -1, .err = err, .pos = m->pos[h] };
}

static long long model_lseek(struct model *m, int h, long long off, int whence)
{
	long long base, pos;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = m->pos[h];
		break;
	case SEEK_END:
		base = m->size;
		break;
	default:
		return -EINVAL;
	}
	if (__builtin_add_overflow(base, off, &pos) || pos < 0)
		return -EINVAL;
	m->pos[h] = pos;
	return pos;
}

/*
 * The device's part of a request for @total bytes at @pos (at the size
 * with @append): the bytes moved, or -errno; *@end is the position after
 * it. Through user memory (@user) a copy stops at the first fault, or at
 * the count the device returned with injected faults; staged data and
 * registered buffers do not fault.
 */
static long long model_device(struct rig *r, const struct op *op, long long pos,
			      long long total, bool append, bool user, long long *end)
{
	struct model *m = &r->m;
	unsigned char *arena = r->mt.arena;
	bool read = is_read(op->kind);
	long long n, done;

	*end = pos;
	if (!total)
		return 0;
	if (read) {
		if (pos >= m->size)
			return 0;
		n = total < m->size - pos ? total : m->size - pos;
	} else {
		pos = append ? m->size : pos;
		if (pos >= r->cap)
			return -ENOSPC;
		n = total < r->cap - pos ? total : r->cap - pos;
	}
	done = user ? (long long)reach(op, n, read) : n;
	if (user && r->cut_on && done > r->cut)
		done = r->cut;
	if (!done)
		return -EFAULT;
	seg_copy(arena, op, m->data + pos, done, read);
	*end = pos + done;
	if (!read && *end > m->size)
		m->size = *end;
	return done;
}

/* rw_verify_area(): a negative offset or count, or an end past LLONG_MAX. */
static bool bad_range(long long pos, long long count)
{
	return count < 0 || pos < 0 || count > LLONG_MAX - pos;
}

/* kiocb_set_rw_flags() on the devices (FMODE_NOWAIT, no atomic writes): -errno. */
static int rwf_error(int flags)
{
	if (flags & ~RWF_KNOWN)
		return -EOPNOTSUPP;
	if ((flags & RWF_APPEND) && (flags & RWF_NOAPPEND))
		return -EINVAL;
	if (flags & RWF_ATOMIC)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Importing the user buffers, import_ubuf() or import_iovec(): -errno,
 * or 0 and the byte count in *@total.
 */
static int import_error(const struct op *op, long long *total)
{
	int i;

	*total = 0;
	if (!is_vec(op->kind)) {
		/* access_ok(); the count is cut to MAX_RW_COUNT first. */
		if (op->seg[0].base == SB_KERNEL)
			return -EFAULT;
		*total = op->seg[0].len < MAX_RW_COUNT ? (long long)op->seg[0].len : MAX_RW_COUNT;
		return 0;
	}
	if ((unsigned int)op->nseg > UIO_MAXIOV)
		return -EINVAL;
	if (op->nseg && op->iov_null)
		return -EFAULT;
	for (i = 0; i < op->nseg; i++)
		if ((ssize_t)op->seg[i].len < 0)
			return -EINVAL;
	for (i = 0; i < op->nseg; i++) {
		if (op->seg[i].base == SB_KERNEL)
			return -EFAULT;
		*total += op->seg[i].len;
	}
	return 0;
}

/* io_import_fixed(): inside a registered buffer, or -EFAULT. */
static int fixed_error(const struct op *op, long long *total)
{
	const struct seg *s = &op->seg[0];
	size_t start, end;

	*total = s->len;
	if (op->buf_index < 0 || op->buf_index >= NR_FIXED_BUFS || s->base != SB_ARENA)
		return -EFAULT;
	start = fixed_bufs[op->buf_index].off;
	end = start + fixed_bufs[op->buf_index].len;
	if (s->off < start || s->off > end || s->len > end - s->off)
		return -EFAULT;
	return 0;
}

/*
 * The model of splice, sendfile, io_uring and AIO: each caller's checks
 * in the order fs/splice.c, fs/read_write.c (do_sendfile()),
 * io_uring/rw.c and fs/aio.c make them, then the device as for a read or
 * a write.
 */
static struct res model_caller(struct rig *r, const struct op *op)
{
	struct model *m = &r->m;
	unsigned int t = op_traits[op->kind];
	int h = op->h, flags = 0, err;
	bool read = is_read(op->kind), positional = is_positional(op);
	bool append = false, user = !(t & (T_STAGED | T_FIXED));
	long long total = 0, pos = positional ? op->off : m->pos[h], ret, end, wpos;
	struct res res = { .offp = offp_start(op) };

	if (t & (T_URING | T_AIO)) {
		flags = op->flags;
		append = !read && (((handle_flags[h] & O_APPEND) && !(flags & RWF_NOAPPEND)) ||
				   (flags & RWF_APPEND));
	}
	if (!read) {
		wpos = append ? m->size : pos;
		r->win_lo = wpos < 0 ? 0 : wpos;
		r->win_hi = r->win_lo + seg_total(op);
		r->check_size = true;
	}
	if (op->kind == OP_SPLICE_TEE)
		res.tee = -EAGAIN;

	if (t & T_STAGED) {
		total = op->seg[0].len;
		if ((t & T_SPLICE) && !total) {
			res.tee = 0;
			goto done;
		}
		err = EINVAL;
		if ((t & T_SPLICE) && (op->flags & ~SPLICE_F_KNOWN))
			goto fail;
		/* The offset is copied in first. */
		err = EFAULT;
		if (has_offp(op) && r->cut_efault)
			goto fail;
		err = EBADF;
		if (read ? !can_read(h) : !can_write(h))
			goto fail;
		/* Neither splice nor sendfile writes to an O_APPEND file. */
		err = EINVAL;
		if (!read && (handle_flags[h] & O_APPEND))
			goto fail;
		if (bad_range(pos, total))
			goto fail;
		/* copy_splice_read() allocates what fits in the (empty) pipe. */
		if (read && op->kind != OP_SENDFILE_FILE && total > (long long)PIPE_BYTES)
			total = PIPE_BYTES;
	} else if (t & T_URING) {
		/* At prep: the buffers; at issue: the file, flags, offset. */
		err = -(t & T_FIXED ? fixed_error(op, &total) : import_error(op, &total));
		if (err)
			goto fail;
		err = EBADF;
		if (read ? !can_read(h) : !can_write(h))
			goto fail;
		err = -rwf_error(flags);
		if (err)
			goto fail;
		/* Polled completion (RWF_HIPRI) needs an IORING_SETUP_IOPOLL ring. */
		err = EINVAL;
		if ((flags & RWF_HIPRI) || bad_range(pos, total))
			goto fail;
	} else {
		/* io_submit() copies the iocb in first. */
		err = EFAULT;
		if (r->cut_efault)
			goto fail;
		err = EINVAL;
		if (!is_vec(op->kind) && (ssize_t)op->seg[0].len < 0)
			goto fail;
		err = -rwf_error(flags);
		if (err)
			goto fail;
		err = EBADF;
		if (read ? !can_read(h) : !can_write(h))
			goto fail;
		err = -import_error(op, &total);
		if (err)
			goto fail;
		err = EINVAL;
		if (bad_range(pos, total))
			goto fail;
	}

	ret = model_device(r, op, pos, total, append, user, &end);
	err = -ret;
	if (ret < 0)
		goto fail;
	if (!positional)
		m->pos[h] = end;
	if (has_offp(op))
		res.offp = op->kind == OP_SENDFILE_IN ? ret : end;
	if (t & T_STAGED)
		res.piped = op->kind == OP_SENDFILE_IN && has_offp(op) ? 0 : ret;
	if (op->kind == OP_SPLICE_TEE && ret) {
		struct op copy = { .seg = op->seg + 1, .nseg = 1 };

		seg_copy(r->mt.arena, &copy, m->data + end - ret, ret, true);
		res.tee = ret;
	}
	res.ret = ret;
done:
	res.pos = m->pos[h];
	return res;
fail:
	res.ret = -1;
	res.err = err;
	res.pos = m->pos[h];
	return res;
}

/*
 * The model: what the kernel and the device do with @op. The checks come
 * in the order fs/read_write.c and lib/iov_iter.c make them; then the
 * device semantics of c_iov_ramfile.c.
 */
static struct res model_op(struct rig *r, const struct op *op)
{
	struct model *m = &r->m;
	int h = op->h, flags = 0, i, err;
	bool vec = is_vec(op->kind), positional = is_positional(op);
	bool append;
	long long pos, total = 0, wpos, ret, end;

	r->win_lo = 0;
	r->win_hi = 0;
	r->check_size = false;
	if (op->kind == OP_LSEEK) {
		long long ret = model_lseek(m, h, op->off, op->whence);

		if (ret < 0)
			return model_fail(m, h, -ret);
		return (struct res){ .ret = ret, .pos = ret };
	}
	if (op->kind == OP_REOPEN) {
		if ((op->flags & O_TRUNC) && can_write(h)) {
			memset(m->data, 0, m->size);
			m->size = 0;
		}
		m->pos[h] = 0;
		r->check_size = true;
		return (struct res){ 0 };
	}
	if (op->kind >= FIRST_CALLER)
		return model_caller(r, op);

	if (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2)
		flags = op->flags;
	append = is_write(op->kind) &&
		 (((handle_flags[h] & O_APPEND) && !(flags & RWF_NOAPPEND)) ||
		  (flags & RWF_APPEND));
	pos = positional ? op->off : m->pos[h];
	if (is_write(op->kind)) {
		wpos = append ? m->size : pos;
		r->win_lo = wpos < 0 ? 0 : wpos;
		r->win_hi = r->win_lo + seg_total(op);
		r->check_size = true;
	}

	if (positional && op->off < 0)
		return model_fail(m, h, EINVAL);
	if (is_read(op->kind) ? !can_read(h) : !can_write(h))
		return model_fail(m, h, EBADF);
	if (vec) {
		if ((unsigned int)op->nseg > UIO_MAXIOV)
			return model_fail(m, h, EINVAL);
		if (op->nseg && op->iov_null)
			return model_fail(m, h, EFAULT);
		for (i = 0; i < op->nseg; i++)
			if ((ssize_t)op->seg[i].len < 0)
				return model_fail(m, h, EINVAL);
		for (i = 0; i < op->nseg; i++) {
			if (op->seg[i].base == SB_KERNEL)
				return model_fail(m, h, EFAULT);
			total += op->seg[i].len;
		}
		if (!total)
			return (struct res){ .pos = m->pos[h] };
	} else {
		/* access_ok(): a kernel address or a length that wraps. */
		if (op->seg[0].base == SB_KERNEL || (ssize_t)op->seg[0].len < 0)
			return model_fail(m, h, EFAULT);
		total = op->seg[0].len;
	}
	if (total > LLONG_MAX - pos)
		return model_fail(m, h, EINVAL);
	err = -rwf_error(flags);
	if (err)
		return model_fail(m, h, err);

	/* The device. */
	ret = model_device(r, op, pos, total, append, true, &end);
	if (ret < 0)
		return model_fail(m, h, -ret);
	if (!positional)
		m->pos[h] = end;
	return (struct res){ .ret = ret, .pos = m->pos[h] };
}

static struct res staging_failed(const struct target *t, const char *what)
{
	note("%s: %s: %s", t->path, what, strerror(errno));
	return (struct res){ .ret = -1, .err = STAGING_FAILED };
}

/* Empty a (non-blocking) pipe. */
static void drain(int fd)
{
	static unsigned char sink[64 * KIB];

	while (read(fd, sink, sizeof(sink)) > 0)
		;
}

/* Bytes in a pipe. */
static long long pipe_bytes(int fd)
{
	int n = -1;

	return ioctl(fd, FIONREAD, &n) ? -1 : n;
}

static void faults_for_me(struct rig *r, bool on);

/*
 * splice and sendfile: stage what a write takes in the pipe or the tmpfs
 * file, make the call (with faults injected if @inject), then move what
 * arrived in the pipe or file into the segments, like a read would.
 */
static struct res staged_op(struct rig *r, struct target *t, const struct op *op,
			    bool inject)
{
	const struct seg *s = &op->seg[0];
	unsigned char *data = t->arena + s->off;
	size_t len = s->len;
	int fd = t->fd[op->h];
	loff_t off = offp_start(op), *offp = has_offp(op) ? &off : NULL;
	struct res res = { 0 };
	long long ret = -1, n;
	struct stat st;

	if (op->kind == OP_SPLICE_WRITE && len && write(t->pipe_w, data, len) != (ssize_t)len)
		return staging_failed(t, "filling the pipe");
	if ((op->kind == OP_SENDFILE_FILE || op->kind == OP_SENDFILE_IN) &&
	    (ftruncate(t->scratch, 0) || lseek(t->scratch, 0, SEEK_SET)))
		return staging_failed(t, "emptying the scratch file");
	if (op->kind == OP_SENDFILE_IN && pwrite(t->scratch, data, len, 0) != (ssize_t)len)
		return staging_failed(t, "filling the scratch file");

	if (inject)
		faults_for_me(r, true);
	errno = 0;
	switch (op->kind) {
	case OP_SPLICE_READ:
	case OP_SPLICE_TEE:
		ret = splice(fd, offp, t->pipe_w, NULL, len, op->flags);
		break;
	case OP_SPLICE_WRITE:
		ret = splice(t->pipe_r, NULL, fd, offp, len, op->flags);
		break;
	case OP_SENDFILE_PIPE:
		ret = sendfile(t->pipe_w, fd, offp, len);
		break;
	case OP_SENDFILE_FILE:
		ret = sendfile(t->scratch, fd, offp, len);
		break;
	default:
		ret = sendfile(fd, t->scratch, offp, len);
		break;
	}
	res.ret = ret;
	res.err = ret < 0 ? errno : 0;
	if (inject)
		faults_for_me(r, false);
	res.offp = off;

	if (op->kind == OP_SPLICE_TEE) {
		n = tee(t->pipe_r, t->tee_w, len, 0);
		res.tee = n < 0 ? -errno : n;
	}
	/* Into the segments in order, as the model copies (they may overlap). */
	switch (op->kind) {
	case OP_SPLICE_WRITE:
		res.piped = len - pipe_bytes(t->pipe_r);
		break;
	case OP_SENDFILE_FILE:
		res.piped = fstat(t->scratch, &st) ? -1 : st.st_size;
		if (res.piped > 0 && pread(t->scratch, data, res.piped < (long long)len ?
					   res.piped : (long long)len, 0) < 0)
			return staging_failed(t, "reading the scratch file");
		break;
	case OP_SENDFILE_IN:
		res.piped = lseek(t->scratch, 0, SEEK_CUR);
		break;
	default:
		res.piped = pipe_bytes(t->pipe_r);
		if (res.piped > 0 && read(t->pipe_r, data, res.piped < (long long)len ?
					  res.piped : (long long)len) < 0)
			return staging_failed(t, "reading the pipe");
		break;
	}
	if (op->kind == OP_SPLICE_TEE) {
		n = pipe_bytes(t->tee_r);
		if (n > 0 && read(t->tee_r, t->arena + op->seg[1].off,
				  n < (long long)op->seg[1].len ? n : op->seg[1].len) < 0)
			return staging_failed(t, "reading the tee'd pipe");
	}
	drain(t->pipe_r);
	drain(t->tee_r);
	return res;
}

/* io_uring: one SQE, submitted (with faults injected if @inject), reaped. */
static struct res uring_op(struct rig *r, struct target *t, const struct op *op,
			   bool inject, const struct iovec *iov)
{
	const struct iovec *v = op->iov_null ? NULL : iov;
	int fd = t->fd[op->h], n;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct res res = { 0 };

	if (!t->ring_ok)
		return staging_failed(t, "no io_uring ring");
	sqe = io_uring_get_sqe(&t->ring);
	if (!sqe)
		return staging_failed(t, "no free SQE");
	switch (op->kind) {
	case OP_URING_READ:
		io_uring_prep_read(sqe, fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_URING_WRITE:
		io_uring_prep_write(sqe, fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_URING_READV:
		io_uring_prep_readv(sqe, fd, v, op->nseg, op->off);
		break;
	case OP_URING_WRITEV:
		io_uring_prep_writev(sqe, fd, v, op->nseg, op->off);
		break;
	case OP_URING_READ_FIXED:
		io_uring_prep_read_fixed(sqe, fd, iov[0].iov_base, iov[0].iov_len, op->off,
					 op->buf_index);
		break;
	default:
		io_uring_prep_write_fixed(sqe, fd, iov[0].iov_base, iov[0].iov_len, op->off,
					  op->buf_index);
		break;
	}
	sqe->rw_flags = op->flags;
	if (op->async)
		sqe->flags |= IOSQE_ASYNC;
	/* Without IOSQE_ASYNC the request runs here, inline, in this task. */
	if (inject)
		faults_for_me(r, true);
	n = io_uring_submit(&t->ring);
	if (inject)
		faults_for_me(r, false);
	if (n != 1) {
		errno = n < 0 ? -n : EPROTO;
		return staging_failed(t, "io_uring_submit");
	}
	n = io_uring_wait_cqe(&t->ring, &cqe);
	if (n) {
		errno = -n;
		return staging_failed(t, "io_uring_wait_cqe");
	}
	res.ret = cqe->res < 0 ? -1 : cqe->res;
	res.err = cqe->res < 0 ? -cqe->res : 0;
	io_uring_cqe_seen(&t->ring, cqe);
	return res;
}

/*
 * Native AIO: one iocb, submitted (with faults injected if @inject); the
 * devices and tmpfs complete it before io_submit() returns. A failed
 * submission is the request's error.
 */
static struct res aio_op(struct rig *r, struct target *t, const struct op *op,
			 bool inject, struct iovec *iov)
{
	struct iovec *v = op->iov_null ? NULL : iov;
	struct iocb cb, *cbs[1] = { &cb };
	int fd = t->fd[op->h], n;
	struct res res = { 0 };
	struct io_event ev;

	if (!t->aio_ok)
		return staging_failed(t, "no AIO context");
	switch (op->kind) {
	case OP_AIO_PREAD:
		io_prep_pread(&cb, fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_AIO_PWRITE:
		io_prep_pwrite(&cb, fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_AIO_PREADV:
		io_prep_preadv(&cb, fd, v, op->nseg, op->off);
		break;
	default:
		io_prep_pwritev(&cb, fd, v, op->nseg, op->off);
		break;
	}
	cb.aio_rw_flags = op->flags;
	if (inject)
		faults_for_me(r, true);
	n = io_submit(t->aio, 1, cbs);
	if (inject)
		faults_for_me(r, false);
	if (n != 1)
		return (struct res){ .ret = -1, .err = n < 0 ? -n : EPROTO };
	n = io_getevents(t->aio, 1, 1, &ev, NULL);
	if (n != 1) {
		errno = n < 0 ? -n : EPROTO;
		return staging_failed(t, "io_getevents");
	}
	res.ret = (long)ev.res < 0 ? -1 : (long long)ev.res;
	res.err = (long)ev.res < 0 ? -(long)ev.res : 0;
	return res;
}

/* Make the request on a device (or tmpfs file); @inject: with faults. */
static struct res device_op(struct rig *r, struct target *t, const struct op *op,
			    bool inject)
{
	static struct iovec iov[MAX_SEGS];
	struct iovec *v = op->iov_null ? NULL : iov;
	unsigned int traits = op_traits[op->kind];
	int fd = t->fd[op->h], i;
	struct res res = { 0 };
	long long ret = -1;

	for (i = 0; i < op->nseg && i < MAX_SEGS && !op->iov_null; i++) {
		const struct seg *s = &op->seg[i];

		if (s->base == SB_ARENA)
			iov[i].iov_base = t->arena + s->off;
		else if (s->base == SB_NULL)
			iov[i].iov_base = (void *)s->off;
		else
			iov[i].iov_base = (void *)(KERNEL_ADDR + s->off);
		iov[i].iov_len = s->len;
	}
	if (traits & (T_STAGED | T_URING | T_AIO)) {
		if (traits & T_STAGED)
			res = staged_op(r, t, op, inject);
		else if (traits & T_URING)
			res = uring_op(r, t, op, inject, iov);
		else
			res = aio_op(r, t, op, inject, iov);
		res.pos = lseek(fd, 0, SEEK_CUR);
		if (res.pos < 0)
			res.pos = -errno;
		return res;
	}
	if (inject)
		faults_for_me(r, true);
	errno = 0;
	switch (op->kind) {
	case OP_READ:
		ret = read(fd, iov[0].iov_base, iov[0].iov_len);
		break;
	case OP_WRITE:
		ret = write(fd, iov[0].iov_base, iov[0].iov_len);
		break;
	case OP_PREAD:
		ret = pread(fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_PWRITE:
		ret = pwrite(fd, iov[0].iov_base, iov[0].iov_len, op->off);
		break;
	case OP_READV:
		ret = readv(fd, v, op->nseg);
		break;
	case OP_WRITEV:
		ret = writev(fd, v, op->nseg);
		break;
	case OP_PREADV2:
		ret = preadv2(fd, v, op->nseg, op->off, op->flags);
		break;
	case OP_PWRITEV2:
		ret = pwritev2(fd, v, op->nseg, op->off, op->flags);
		break;
	case OP_LSEEK:
		ret = lseek(fd, op->off, op->whence);
		break;
	case OP_REOPEN:
		close(fd);
		t->fd[op->h] = open(t->path, handle_flags[op->h] | op->flags);
		ret = t->fd[op->h] < 0 ? -1 : 0;
		break;
	default:
		break;
	}
	res.ret = ret;
	res.err = ret < 0 ? errno : 0;
	if (inject)
		faults_for_me(r, false);
	res.pos = lseek(t->fd[op->h], 0, SEEK_CUR);
	if (res.pos < 0)
		res.pos = -errno;
	return res;
}

static const char *err_name(int err)
{
	return err ? strerror(err) : "no error";
}

static __printf(4, 5) void mismatch(struct rig *r, const struct target *t, const struct op *op,
		     const char *fmt, ...)
{
	char d[256], msg[256];
	va_list ap;

	r->failed = true;
	if (r->reports++ >= 4)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	describe(op, d, sizeof(d));
	note("%s: step %lu, %s: %s: %s", r->what ? r->what : "", r->step,
	     t->path, d, msg);
}

/*
 * Compare the device's size, and its bytes in [lo, hi), with the model's;
 * beyond the size a read must return nothing.
 */
static bool check_content(struct rig *r, struct target *t, const struct op *op,
			  long long lo, long long hi)
{
	long long size = lseek(t->probe, 0, SEEK_END), want, got, i;

	if (size != r->m.size) {
		mismatch(r, t, op, "size %lld, model %lld", size, r->m.size);
		return false;
	}
	while (lo < hi) {
		long long n = hi - lo < (long long)r->buf_len ? hi - lo : (long long)r->buf_len;

		want = size - lo;
		want = want < 0 ? 0 : want < n ? want : n;
		got = pread(t->probe, r->buf, n, lo);
		if (got != want) {
			mismatch(r, t, op, "pread(%lld, %lld) = %lld, model %lld",
				 lo, n, got, want);
			return false;
		}
		if (memcmp(r->buf, r->m.data + lo, want)) {
			for (i = 0; r->buf[i] == r->m.data[lo + i]; i++)
				;
			mismatch(r, t, op, "byte at %lld is %#x, model %#x", lo + i,
				 r->buf[i], r->m.data[lo + i]);
			return false;
		}
		lo += n;
	}
	return true;
}

static bool check_all(struct rig *r)
{
	struct op none = { .kind = OP_LSEEK };
	int d;

	for (d = 0; d < r->ndev; d++)
		if (!check_content(r, &r->dev[d], &none, 0, r->m.size + PAGE))
			return false;
	return true;
}

/* Bytes a read may have written into user memory: same in every arena. */
static bool check_user_memory(struct rig *r, struct target *t, const struct op *op)
{
	int i;

	for (i = 0; i < op->nseg && i < MAX_SEGS && !op->iov_null; i++) {
		const struct seg *s = &op->seg[i];
		size_t j;

		if (s->base != SB_ARENA || s->len > ARENA_LEN - s->off)
			continue;
		for (j = s->off; j < s->off + s->len; j = (j | (PAGE - 1)) + 1) {
			size_t end = (j | (PAGE - 1)) + 1;
			enum page_kind k = page_kind(j);

			if (end > s->off + s->len)
				end = s->off + s->len;
			if (k == PK_NONE || k == PK_HOLE)
				continue;
			if (memcmp(t->arena + j, r->mt.arena + j, end - j)) {
				size_t at = j;

				while (t->arena[at] == r->mt.arena[at])
					at++;
				mismatch(r, t, op, "user byte at arena+%zu is %#x, model %#x",
					 at, t->arena[at], r->mt.arena[at]);
				return false;
			}
		}
	}
	return true;
}

/* Fill the segments' writable bytes, identically in every arena. */
static void prefill(struct rig *r, const struct op *op)
{
	bool random = is_write(op->kind);
	int i, d;

	if (op->iov_null)
		return;
	for (i = 0; i < op->nseg && i < MAX_SEGS; i++) {
		const struct seg *s = &op->seg[i];
		size_t j, end;

		if (s->base != SB_ARENA || s->len > ARENA_LEN - s->off)
			continue;
		for (j = s->off; j < s->off + s->len; j = end) {
			end = (j | (PAGE - 1)) + 1;
			if (end > s->off + s->len)
				end = s->off + s->len;
			if (page_kind(j) != PK_RW)
				continue;
			if (random) {
				size_t k = j;

				for (; k + 8 <= end; k += 8) {
					unsigned long long x = rng_next(&r->fill);

					memcpy(r->mt.arena + k, &x, 8);
				}
				for (; k < end; k++)
					r->mt.arena[k] = rng_next(&r->fill);
			} else {
				memset(r->mt.arena + j, 0xa5 ^ (r->step & 0xff), end - j);
			}
			for (d = 0; d < r->ndev; d++)
				memcpy(r->dev[d].arena + j, r->mt.arena + j, end - j);
		}
	}
}

#define FAIL_USERCOPY	"/sys/kernel/debug/fail_usercopy/"

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return ret;
}

/* Faults fail_usercopy may still inject, or -1 if it cannot be read. */
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

/*
 * Let fail_usercopy fail @percent % of the user copies of the tasks that
 * ask for it (make-it-fail), @times times in all, silently (a report
 * would print a stack trace to the kernel log).
 */
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

/*
 * Injected faults for this thread, on or off. The file stays open: with
 * faults on, opening it could fail too, and so can the write that turns
 * them off (it copies from user memory), which is then repeated.
 */
static void faults_for_me(struct rig *r, bool on)
{
	int tries;

	for (tries = 0; tries < 1000; tries++)
		if (pwrite(r->fail_fd, on ? "1" : "0", 1, 0) == 1)
			return;
	note("cannot switch make-it-fail %s: %s", on ? "on" : "off", strerror(errno));
	abort();
}

/*
 * Make the request on the model and on every device and compare: result,
 * errno, offset, user memory, device size and contents near the request.
 * Returns the model's result.
 */
static struct res run(struct rig *r, const struct op *op)
{
	struct res want, got, first = { 0 }, injected = { 0 };
	bool inject = r->inject && (is_read(op->kind) || is_write(op->kind));
	long long lo, hi;
	int d;

	r->step++;
	prefill(r, op);
	/*
	 * With faults injected (one device only), the device goes first and
	 * the model follows the count it returned, if that is possible.
	 */
	if (inject) {
		injected = device_op(r, &r->dev[0], op, true);
		r->cut_on = injected.ret >= 0 || injected.err == EFAULT;
		r->cut = injected.ret >= 0 ? injected.ret : 0;
		r->cut_efault = injected.err == EFAULT;
	}
	want = model_op(r, op);
	r->cut_on = false;
	r->cut_efault = false;
	lo = r->win_lo - (long long)PAGE;
	hi = r->win_hi + (long long)PAGE;
	lo = lo < 0 ? 0 : lo > r->cap ? r->cap : lo;
	hi = hi < lo ? lo : hi > r->cap ? r->cap : hi;
	for (d = 0; d < r->ndev; d++) {
		struct target *t = &r->dev[d];

		got = inject ? injected : device_op(r, t, op, false);
		/* Implied by the model comparison; said directly all the same. */
		if (d && (got.ret != first.ret || got.err != first.err || got.pos != first.pos))
			mismatch(r, t, op,
				 "differs from %s: %lld (%s) offset %lld, there %lld (%s) offset %lld",
				 r->dev[0].path, got.ret, err_name(got.err), got.pos,
				 first.ret, err_name(first.err), first.pos);
		first = d ? first : got;
		if (got.ret != want.ret || got.err != want.err) {
			mismatch(r, t, op, "returned %lld (%s), model %lld (%s)",
				 got.ret, err_name(got.err), want.ret, err_name(want.err));
			continue;
		}
		if (got.pos != want.pos) {
			mismatch(r, t, op, "offset %lld afterwards, model %lld",
				 got.pos, want.pos);
			continue;
		}
		if (got.offp != want.offp || got.piped != want.piped || got.tee != want.tee) {
			mismatch(r, t, op,
				 "offset variable %lld, %lld bytes through the pipe or file, tee %lld; model %lld, %lld, %lld",
				 got.offp, got.piped, got.tee, want.offp, want.piped, want.tee);
			continue;
		}
		if (is_read(op->kind) && !check_user_memory(r, t, op))
			continue;
		if (r->check_size)
			check_content(r, t, op, lo, hi);
	}
	return want;
}

static bool hole_unmapped(struct rig *r)
{
	unsigned char vec;
	int d;

	for (d = 0; d < r->ndev; d++)
		if (mincore(r->dev[d].arena + A_HOLE, PAGE, &vec) != -1 || errno != ENOMEM)
			return false;
	return true;
}

static unsigned char *arena_create(void)
{
	unsigned char *a = mmap(NULL, ARENA_LEN, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i;

	if (a == MAP_FAILED)
		return NULL;
	for (i = 0; i < PAGE; i++)
		a[A_RO + i] = i * 7 + 3;
	if (mprotect(a + A_NONE, PAGE, PROT_NONE) ||
	    mprotect(a + A_RO, PAGE, PROT_READ) ||
	    munmap(a + A_HOLE, PAGE))
		return NULL;
	return a;
}

static int open_handles(struct target *t)
{
	int h;

	for (h = 0; h < NR_HANDLES; h++) {
		t->fd[h] = open(t->path, handle_flags[h] | (h == H_RW ? O_TRUNC : 0));
		if (t->fd[h] < 0)
			return -1;
	}
	t->probe = open(t->path, O_RDWR);
	return t->probe < 0 ? -1 : 0;
}

/* A non-blocking pipe holding PIPE_BYTES: staging never waits. */
static int staging_pipe(int *rd, int *wr)
{
	int p[2];

	*rd = -1;
	*wr = -1;
	if (pipe2(p, O_NONBLOCK))
		return -1;
	*rd = p[0];
	*wr = p[1];
	return fcntl(p[1], F_SETPIPE_SZ, (int)PIPE_BYTES) == (int)PIPE_BYTES ? 0 : -1;
}

/*
 * What requests other than plain system calls need (see struct target).
 * Before the arenas: a ring or AIO mapping must not land in an arena's
 * hole. Without io_uring or AIO their requests fail, reporting why.
 */
static int target_callers_setup(struct target *t)
{
	t->tee_r = -1;
	t->tee_w = -1;
	t->scratch = -1;
	if (staging_pipe(&t->pipe_r, &t->pipe_w) || staging_pipe(&t->tee_r, &t->tee_w)) {
		note("%s: no %lu-byte staging pipe: %s", t->path, PIPE_BYTES, strerror(errno));
		return -1;
	}
	t->scratch = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	if (t->scratch < 0) {
		note("no tmpfile in /tmp: %s", strerror(errno));
		return -1;
	}
	t->ring_ok = !io_uring_queue_init(4, &t->ring, 0);
	t->aio_ok = !io_setup(4, &t->aio);
	return 0;
}

/* The arena's data area as fixed buffer 0, one page of it as buffer 1. */
static void target_register_buffers(struct target *t)
{
	struct iovec bufs[NR_FIXED_BUFS];
	int i, ret;

	if (!t->ring_ok)
		return;
	for (i = 0; i < NR_FIXED_BUFS; i++)
		bufs[i] = (struct iovec){ t->arena + fixed_bufs[i].off, fixed_bufs[i].len };
	ret = io_uring_register_buffers(&t->ring, bufs, NR_FIXED_BUFS);
	if (ret) {
		note("%s: io_uring_register_buffers: %s", t->path, strerror(-ret));
		io_uring_queue_exit(&t->ring);
		t->ring_ok = false;
	}
}

/*
 * The capacity, found by writing one byte at a time: the smallest offset
 * where pwrite() fails with ENOSPC. -1 if the device does not behave so.
 */
static long long probe_capacity(int fd)
{
	long long lo = 1, hi = 1LL << 40;
	char c = 0;

	if (pwrite(fd, &c, 1, hi) != -1 || errno != ENOSPC || pwrite(fd, &c, 1, 0) != 1)
		return -1;
	while (lo < hi) {
		long long mid = lo + (hi - lo) / 2;

		if (pwrite(fd, &c, 1, mid) == 1)
			lo = mid + 1;
		else if (errno == ENOSPC)
			hi = mid;
		else
			return -1;
	}
	return lo;
}

/*
 * The tmpfs reference target, all but its arena; set up with the devices,
 * as its ring and AIO mappings must not land in an arena's hole.
 */
static int ref_setup(struct target *t)
{
	struct statfs sfs;
	int fd;

	snprintf(t->ref_path, sizeof(t->ref_path), "/tmp/iov_ramfile_ref.%d", getpid());
	t->path = t->ref_path;
	fd = open(t->ref_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || fstatfs(fd, &sfs)) {
		note("%s: %s", t->ref_path, strerror(errno));
		return -1;
	}
	if (sfs.f_type != TMPFS_MAGIC)
		note("%s is not on tmpfs", t->ref_path);
	close(fd);
	if (open_handles(t)) {
		note("%s: open: %s", t->ref_path, strerror(errno));
		return -1;
	}
	return target_callers_setup(t);
}

static int device_list(const char **out)
{
	const char *env = getenv("IOV_RAMFILE_DEVICES");
	static char envbuf[1024];
	char *save, *p;
	int n = 0, i;

	if (nr_cmdline_devices) {
		for (i = 0; i < nr_cmdline_devices; i++)
			out[n++] = cmdline_devices[i];
		return n;
	}
	if (env && *env) {
		snprintf(envbuf, sizeof(envbuf), "%s", env);
		for (p = strtok_r(envbuf, ":", &save); p && n < MAX_DEVICES;
		     p = strtok_r(NULL, ":", &save))
			out[n++] = p;
		return n;
	}
	for (i = 0; i < 2; i++)
		if (access(default_devices[i], F_OK) == 0)
			out[n++] = default_devices[i];
	return n;
}

static bool rig_setup(struct __test_metadata *_metadata, struct rig *r)
{
	const char *paths[MAX_DEVICES];
	int d;

	memset(r, 0, sizeof(*r));
	r->fill = 1;
	if (sysconf(_SC_PAGESIZE) != (long)PAGE) {
		note("the tests assume %lu-byte pages", PAGE);
		return false;
	}
	r->ndev = device_list(paths);
	if (!r->ndev) {
		note("no device: neither %s nor %s exists, and none was given",
		     default_devices[0], default_devices[1]);
		return false;
	}
	for (d = 0; d < r->ndev; d++) {
		struct target *t = &r->dev[d];
		long long cap;

		t->path = paths[d];
		if (open_handles(t)) {
			note("%s: open: %s", t->path, strerror(errno));
			return false;
		}
		cap = probe_capacity(t->probe);
		if (cap < 0) {
			note("%s: no ENOSPC boundary found (errno %d)", t->path, errno);
			return false;
		}
		if (d && cap != r->cap) {
			note("%s: capacity %lld, but %s has %lld: boot with equal capacities",
			     t->path, cap, r->dev[0].path, r->cap);
			return false;
		}
		r->cap = cap;
		close(t->fd[H_RW]);
		t->fd[H_RW] = open(t->path, O_RDWR | O_TRUNC);
		if (t->fd[H_RW] < 0)
			return false;
	}
	/* Large allocations first: later mmap()s could land in the holes. */
	r->m.data = calloc(1, r->cap);
	r->buf_len = MIB + 4 * PAGE;
	r->buf = malloc(r->buf_len);
	if (!r->m.data || !r->buf)
		return false;
	for (d = 0; d < r->ndev; d++)
		if (target_callers_setup(&r->dev[d]))
			return false;
	if (ref_setup(&r->ref))
		return false;
	r->mt.path = "model";
	r->mt.arena = arena_create();
	if (!r->mt.arena)
		return false;
	for (d = 0; d <= r->ndev; d++) {
		struct target *t = d < r->ndev ? &r->dev[d] : &r->ref;

		t->arena = arena_create();
		if (!t->arena)
			return false;
		target_register_buffers(t);
	}
	if (!hole_unmapped(r)) {
		note("test bug: the arena's hole is mapped");
		return false;
	}
	return true;
}

static void target_teardown(struct target *t)
{
	int h;

	for (h = 0; h < NR_HANDLES; h++)
		close(t->fd[h]);
	close(t->probe);
	close(t->pipe_r);
	close(t->pipe_w);
	close(t->tee_r);
	close(t->tee_w);
	close(t->scratch);
	if (t->ring_ok)
		io_uring_queue_exit(&t->ring);
	if (t->aio_ok)
		io_destroy(t->aio);
	if (t->ref_path[0])
		unlink(t->ref_path);
}

static void rig_teardown(struct rig *r)
{
	int d;

	for (d = 0; d < r->ndev; d++)
		target_teardown(&r->dev[d]);
	if (!r->ref_added && r->ref.path)
		target_teardown(&r->ref);
}

/*
 * A tmpfs file as one more target next to the devices: the callers_*
 * cases hold it to the same model, so each device must do what tmpfs
 * does. Their requests stay below the capacity and avoid what tmpfs does
 * differently (RWF_NOWAIT, SEEK_DATA, O_TRUNC on a read-only open).
 */
static void ref_add(struct __test_metadata *_metadata, struct rig *r)
{
	ASSERT_LT(r->ndev, MAX_DEVICES);
	r->dev[r->ndev++] = r->ref;
	r->ref_added = true;
	ASSERT_TRUE(hole_unmapped(r));
}

FIXTURE(ramfile) {
	struct rig r;
};

FIXTURE_SETUP(ramfile)
{
	ASSERT_TRUE(rig_setup(_metadata, &self->r));
}

FIXTURE_TEARDOWN(ramfile)
{
	rig_teardown(&self->r);
}

#define SEGS(...) \
	.seg = (const struct seg[]){ __VA_ARGS__ }, \
	.nseg = sizeof((const struct seg[]){ __VA_ARGS__ }) / sizeof(struct seg)

/* Run a request everywhere; stop the test at the first difference. */
#define RUN(...) ({							\
	struct op __op = { __VA_ARGS__ };				\
	struct res __res = run(r, &__op);				\
	ASSERT_FALSE(r->failed);					\
	__res;								\
})

#define RESET()		RUN(.kind = OP_REOPEN, .h = H_RW, .flags = O_TRUNC)
#define SEEK(fh, o, w)	RUN(.kind = OP_LSEEK, .h = (fh), .off = (o), .whence = (w))
#define PWRITE(fh, o, ...) RUN(.kind = OP_PWRITE, .h = (fh), .off = (o), SEGS(__VA_ARGS__))
#define PREAD(fh, o, ...) RUN(.kind = OP_PREAD, .h = (fh), .off = (o), SEGS(__VA_ARGS__))

/* The explicit expectation of a case, on top of the model comparison. */
#define EXPECT_RES(result, want_ret, want_err) do {			\
	struct res __r = (result);					\
	EXPECT_EQ((long long)(want_ret), __r.ret);			\
	EXPECT_EQ((want_err), __r.err);					\
} while (0)

static const size_t sizes[] = { 0, 1, 63, 4095, 4096, 4097, 64 * KIB, MIB };

/* Split @n bytes at arena offset @aoff into segments, one of them empty. */
static int split(struct seg *seg, size_t aoff, size_t n, int parts)
{
	int i, k = 0;

	for (i = 0; i < parts; i++) {
		size_t len = i == parts - 1 ? n : n / (parts - i) + (i & 1);

		if (len > n)
			len = n;
		seg[k++] = (struct seg){ SB_ARENA, aoff, len };
		aoff += len + 3;
		n -= len;
		if (i == 0)
			seg[k++] = (struct seg){ SB_ARENA, aoff, 0 };
	}
	return k;
}

/*
 * Write @n bytes at @off with one call family, read them back with the
 * same family and a different split, at odd arena offsets, then read at
 * EOF.
 */
static void sizes_case(struct __test_metadata *_metadata, struct rig *r,
		       int family)
{
	static const long long offs[] = { 0, 1, 3 * PAGE + 7 };
	struct seg wseg[8], rseg[8];
	unsigned int si, oi;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		for (oi = 0; oi < ARRAY_SIZE(offs); oi++) {
			size_t n = sizes[si];
			long long off = offs[oi];
			size_t waoff = 1 + 2 * oi, raoff = MIB + 3 + 2 * si;
			int nw = 1, nr = 1;
			long long want = off + (long long)n <= r->cap ? (long long)n : -2;
			struct res res = { 0 };

			r->what = "sizes";
			RESET();
			/* Data around the request, so a stray byte shows. */
			PWRITE(H_RW2, 0, A(PAGE, off + n + PAGE < MIB ? off + n + PAGE : MIB));
			wseg[0] = (struct seg){ SB_ARENA, waoff, n };
			rseg[0] = (struct seg){ SB_ARENA, raoff, n };
			switch (family) {
			case 0:
				SEEK(H_RW, off, SEEK_SET);
				res = RUN(.kind = OP_WRITE, .h = H_RW, .seg = wseg, .nseg = 1);
				break;
			case 1:
				res = RUN(.kind = OP_PWRITE, .h = H_RW, .off = off, .seg = wseg,
					  .nseg = 1);
				break;
			case 2:
				nw = split(wseg, waoff, n, 3);
				SEEK(H_RW, off, SEEK_SET);
				res = RUN(.kind = OP_WRITEV, .h = H_RW, .seg = wseg, .nseg = nw);
				break;
			case 3:
				nw = split(wseg, waoff, n, 4);
				res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = off,
					  .flags = si & 1 ? RWF_NOWAIT | RWF_HIPRI : 0,
					  .seg = wseg, .nseg = nw);
				break;
			}
			if (want >= 0)
				EXPECT_RES(res, want, 0);
			switch (family) {
			case 0:
				SEEK(H_RW, off, SEEK_SET);
				res = RUN(.kind = OP_READ, .h = H_RW, .seg = rseg, .nseg = 1);
				break;
			case 1:
				res = RUN(.kind = OP_PREAD, .h = H_RW, .off = off, .seg = rseg,
					  .nseg = 1);
				break;
			case 2:
				nr = split(rseg, raoff, n, 2);
				SEEK(H_RW, off, SEEK_SET);
				res = RUN(.kind = OP_READV, .h = H_RW, .seg = rseg, .nseg = nr);
				break;
			case 3:
				nr = split(rseg, raoff, n, 5);
				res = RUN(.kind = OP_PREADV2, .h = H_RW, .off = off,
					  .flags = si & 1 ? 0 : RWF_NOWAIT,
					  .seg = rseg, .nseg = nr);
				break;
			}
			if (want >= 0) {
				struct target *t = &r->dev[0];
				struct op w = { .seg = wseg, .nseg = nw };
				struct op rd = { .seg = rseg, .nseg = nr };
				unsigned char *a = malloc(n + 1), *b = malloc(n + 1);

				EXPECT_RES(res, want, 0);
				ASSERT_TRUE(a && b);
				seg_copy(t->arena, &w, a, n, false);
				seg_copy(t->arena, &rd, b, n, false);
				EXPECT_EQ(0, memcmp(a, b, n));
				free(a);
				free(b);
			}
			/* At the end of the file: nothing. */
			SEEK(H_RW, 0, SEEK_END);
			res = RUN(.kind = OP_READ, .h = H_RW, SEGS(A(5, 100)));
			EXPECT_RES(res, 0, 0);
		}
	}
	ASSERT_TRUE(check_all(r));
}

TEST_F_TIMEOUT(ramfile, sizes_write_read, 300)
{
	struct rig *r = &self->r;

	sizes_case(_metadata, r, 0);
}

TEST_F_TIMEOUT(ramfile, sizes_pwrite_pread, 300)
{
	struct rig *r = &self->r;

	sizes_case(_metadata, r, 1);
}

TEST_F_TIMEOUT(ramfile, sizes_writev_readv, 300)
{
	struct rig *r = &self->r;

	sizes_case(_metadata, r, 2);
}

TEST_F_TIMEOUT(ramfile, sizes_pwritev2_preadv2, 300)
{
	struct rig *r = &self->r;

	sizes_case(_metadata, r, 3);
}

/* 1 to 1024 segments: odd offsets and lengths, empty ones among them. */
TEST_F_TIMEOUT(ramfile, segments, 300)
{
	struct rig *r = &self->r;
	static const int counts[] = { 1, 2, 3, 16, 63, 64, 255, 256, 1000, 1023, 1024 };
	static const size_t lens[] = { 1, 63, 4095, 0, 4096, 4097, 17, 255, 0, 2 };
	static const size_t short_lens[] = { 1, 7, 0, 63, 100, 513, 0, 1000 };
	static struct seg wseg[UIO_MAXIOV], rseg[UIO_MAXIOV];
	unsigned int ci;
	int i;

	r->what = "segments";
	for (ci = 0; ci < ARRAY_SIZE(counts); ci++) {
		int c = counts[ci];
		size_t aoff = 3, total = 0, len;
		long long off = 12345 + ci;
		struct res res;
		struct op w = { .seg = wseg, .nseg = c }, rd = { .seg = rseg, .nseg = c };
		unsigned char *a, *b;

		for (i = 0; i < c; i++) {
			len = c > 64 ? short_lens[i % 8] : lens[i % 10];
			wseg[i] = (struct seg){ SB_ARENA, aoff, len };
			rseg[i] = (struct seg){ SB_ARENA, aoff + MIB, len };
			aoff += len + 1 + i % 5;
			total += len;
		}
		ASSERT_LT(aoff, MIB);
		RESET();
		res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = off, .seg = wseg, .nseg = c);
		EXPECT_RES(res, total, 0);
		res = RUN(.kind = OP_PREADV2, .h = H_RW2, .off = off, .seg = rseg, .nseg = c);
		EXPECT_RES(res, total, 0);
		/* The same through the file position, in the other direction. */
		SEEK(H_RW, off + 1, SEEK_SET);
		res = RUN(.kind = OP_WRITEV, .h = H_RW, .seg = rseg, .nseg = c);
		EXPECT_RES(res, total, 0);
		SEEK(H_RW2, off + 1, SEEK_SET);
		res = RUN(.kind = OP_READV, .h = H_RW2, .seg = wseg, .nseg = c);
		EXPECT_RES(res, total, 0);
		a = malloc(total + 1);
		b = malloc(total + 1);
		ASSERT_TRUE(a && b);
		seg_copy(r->dev[0].arena, &w, a, total, false);
		seg_copy(r->dev[0].arena, &rd, b, total, false);
		EXPECT_EQ(0, memcmp(a, b, total));
		free(a);
		free(b);
	}
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, seek)
{
	struct rig *r = &self->r;
	struct res res;

	r->what = "seek";
	PWRITE(H_RW, 0, A(0, 10000));
	EXPECT_RES(SEEK(H_RW, 12345, SEEK_SET), 12345, 0);
	EXPECT_RES(SEEK(H_RW, -345, SEEK_CUR), 12000, 0);
	EXPECT_RES(SEEK(H_RW, -12001, SEEK_CUR), -1, EINVAL);
	EXPECT_EQ(12000, SEEK(H_RW, 0, SEEK_CUR).ret);
	EXPECT_RES(SEEK(H_RW, 0, SEEK_END), 10000, 0);
	EXPECT_RES(SEEK(H_RW, -10000, SEEK_END), 0, 0);
	EXPECT_RES(SEEK(H_RW, -10001, SEEK_END), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, -1, SEEK_SET), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, LLONG_MIN, SEEK_CUR), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, 7, SEEK_DATA), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, 7, SEEK_HOLE), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, 7, 5), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, 7, -1), -1, EINVAL);
	/* Beyond the size and the capacity is allowed; a read there is empty. */
	EXPECT_RES(SEEK(H_RW, r->cap + 10, SEEK_SET), r->cap + 10, 0);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(0, 10))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 10))), -1, ENOSPC);
	EXPECT_RES(SEEK(H_RW, LLONG_MAX, SEEK_SET), LLONG_MAX, 0);
	EXPECT_RES(SEEK(H_RW, 1, SEEK_CUR), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, LLONG_MAX, SEEK_END), -1, EINVAL);
	EXPECT_RES(SEEK(H_RW, LLONG_MAX - 10000, SEEK_END), LLONG_MAX, 0);
	/* read()/write() use and move the position set by lseek(). */
	SEEK(H_RW, 100, SEEK_SET);
	res = RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(7, 50)));
	EXPECT_RES(res, 50, 0);
	EXPECT_EQ(150, res.pos);
	EXPECT_RES(SEEK(H_RW, -50, SEEK_CUR), 100, 0);
	res = RUN(.kind = OP_READ, .h = H_RW, SEGS(A(4099, 60)));
	EXPECT_RES(res, 60, 0);
	EXPECT_EQ(160, res.pos);
	EXPECT_EQ(0, memcmp(r->dev[0].arena + 7, r->dev[0].arena + 4099, 50));
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, eof_and_holes)
{
	struct rig *r = &self->r;
	struct res res;
	size_t i;

	r->what = "eof";
	/* Empty: every read returns 0, even into a bad buffer. */
	EXPECT_RES(PREAD(H_RW, 0, A(0, 100)), 0, 0);
	EXPECT_RES(PREAD(H_RW, 0, NUL(100)), 0, 0);
	EXPECT_RES(PWRITE(H_RW, 0, A(0, 10000)), 10000, 0);
	EXPECT_RES(PREAD(H_RW, 8192, A(1, 4096)), 10000 - 8192, 0);
	EXPECT_RES(PREAD(H_RW, 9999, A(1, 4096)), 1, 0);
	EXPECT_RES(PREAD(H_RW, 10000, A(1, 4096)), 0, 0);
	EXPECT_RES(PREAD(H_RW, 10001, A(1, 4096)), 0, 0);
	EXPECT_RES(PREAD(H_RW, r->cap + 100, A(1, 4096)), 0, 0);
	res = RUN(.kind = OP_PREADV2, .h = H_RW, .off = 9000,
		  SEGS(A(1, 500), A(1000, 0), A(2001, 700), A(5000, 300)));
	EXPECT_RES(res, 1000, 0);
	/* A write past the size leaves a gap of zeros. */
	EXPECT_RES(PWRITE(H_RW, 30000, A(0, 10)), 10, 0);
	res = PREAD(H_RW, 9990, A(100, 20020));
	EXPECT_RES(res, 20020, 0);
	for (i = 10; i < 20010; i++)
		if (r->dev[0].arena[100 + i])
			break;
	EXPECT_EQ(20010, i);
	/* After a reset, old data does not come back in a gap. */
	RESET();
	EXPECT_RES(PREAD(H_RW, 0, A(0, 10)), 0, 0);
	EXPECT_RES(PWRITE(H_RW, 50000, A(0, 1)), 1, 0);
	res = PREAD(H_RW, 0, A(3, 50001));
	EXPECT_RES(res, 50001, 0);
	for (i = 0; i < 50000; i++)
		if (r->dev[0].arena[3 + i])
			break;
	EXPECT_EQ(50000, i);
	ASSERT_TRUE(check_all(r));
}

TEST_F_TIMEOUT(ramfile, enospc, 120)
{
	struct rig *r = &self->r;
	long long cap = r->cap, off;
	struct res res;

	r->what = "enospc";
	EXPECT_RES(PWRITE(H_RW, cap - 10, A(0, 100)), 10, 0);
	EXPECT_RES(PWRITE(H_RW, cap, A(0, 100)), -1, ENOSPC);
	EXPECT_RES(PWRITE(H_RW, cap + 12345, A(0, 1)), -1, ENOSPC);
	EXPECT_RES(PWRITE(H_RW, cap - 1, A(0, 1)), 1, 0);
	EXPECT_RES(PWRITE(H_RW, cap, A(0, 0)), 0, 0);
	EXPECT_RES(PWRITE(H_RW, cap + 5, A(0, 0)), 0, 0);
	/* ENOSPC is decided before the buffer is looked at. */
	EXPECT_RES(PWRITE(H_RW, cap, NUL(10)), -1, ENOSPC);
	EXPECT_RES(PWRITE(H_RW, cap - 5, NUL(10)), -1, EFAULT);
	/* Full: appends fail, and leave the position alone. */
	res = RUN(.kind = OP_WRITE, .h = H_APPEND, SEGS(A(0, 1)));
	EXPECT_RES(res, -1, ENOSPC);
	EXPECT_EQ(0, res.pos);
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 0, .flags = RWF_APPEND,
		  SEGS(A(0, 1)));
	EXPECT_RES(res, -1, ENOSPC);
	/* Crossing the capacity with a vector: what fits, exactly. */
	SEEK(H_RW, cap - 5000, SEEK_SET);
	res = RUN(.kind = OP_WRITEV, .h = H_RW, SEGS(A(1, 3000), A(9000, 0), A(4001, 3000)));
	EXPECT_RES(res, 5000, 0);
	EXPECT_EQ(cap, res.pos);
	res = RUN(.kind = OP_WRITEV, .h = H_RW, SEGS(A(1, 3000), A(4001, 3000)));
	EXPECT_RES(res, -1, ENOSPC);
	EXPECT_EQ(cap, res.pos);
	/* Fill it from empty in 1 MiB writes, then read it all. */
	RESET();
	for (off = 0; off < cap; off += MIB) {
		res = RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(PAGE + 1, MIB)));
		EXPECT_RES(res, cap - off < (long long)MIB ? cap - off : (long long)MIB, 0);
	}
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 1))), -1, ENOSPC);
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, append)
{
	struct rig *r = &self->r;
	struct res res;

	r->what = "append";
	res = RUN(.kind = OP_WRITE, .h = H_APPEND, SEGS(A(0, 100)));
	EXPECT_RES(res, 100, 0);
	EXPECT_EQ(100, res.pos);
	/* pwrite() on an O_APPEND file appends and keeps the position. */
	res = PWRITE(H_APPEND, 5000, A(200, 50));
	EXPECT_RES(res, 50, 0);
	EXPECT_EQ(100, res.pos);
	EXPECT_RES(SEEK(H_RW, 0, SEEK_END), 150, 0);
	/* RWF_NOAPPEND writes at the position. */
	res = RUN(.kind = OP_PWRITEV2, .h = H_APPEND, .off = -1, .flags = RWF_NOAPPEND,
		  SEGS(A(300, 10)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(110, res.pos);
	res = RUN(.kind = OP_PWRITEV2, .h = H_APPEND, .off = 3, .flags = RWF_NOAPPEND,
		  SEGS(A(300, 10)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(110, res.pos);
	/* RWF_APPEND on a plain open, positional and not. */
	SEEK(H_RW, 7, SEEK_SET);
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 3, .flags = RWF_APPEND,
		  SEGS(A(400, 20), A(500, 5)));
	EXPECT_RES(res, 25, 0);
	EXPECT_EQ(7, res.pos);
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = -1, .flags = RWF_APPEND,
		  SEGS(A(400, 20)));
	EXPECT_RES(res, 20, 0);
	EXPECT_EQ(195, res.pos);
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = -1,
		  .flags = RWF_APPEND | RWF_NOAPPEND, SEGS(A(400, 20)));
	EXPECT_RES(res, -1, EINVAL);
	/* An empty append changes nothing. */
	res = RUN(.kind = OP_WRITE, .h = H_APPEND, SEGS(A(0, 0)));
	EXPECT_RES(res, 0, 0);
	EXPECT_EQ(110, res.pos);
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, per_open_state)
{
	struct rig *r = &self->r;
	struct res res;

	r->what = "per-open";
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 500))), 500, 0);
	/* Content is shared, positions are not. */
	res = RUN(.kind = OP_READ, .h = H_RW2, SEGS(A(PAGE, 300)));
	EXPECT_RES(res, 300, 0);
	EXPECT_EQ(0, memcmp(r->dev[0].arena, r->dev[0].arena + PAGE, 300));
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RDONLY, SEGS(A(0, 1000))), 500, 0);
	EXPECT_EQ(500, SEEK(H_RW, 0, SEEK_CUR).ret);
	EXPECT_EQ(300, SEEK(H_RW2, 0, SEEK_CUR).ret);
	/* Access modes are the kernel's business. */
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RDONLY, SEGS(A(0, 1))), -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_WRONLY, SEGS(A(0, 1))), -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_WRONLY, .off = 0, SEGS(A(0, 1))), -1, EBADF);
	/* O_TRUNC on a read-only open keeps the data... */
	RUN(.kind = OP_REOPEN, .h = H_RDONLY, .flags = O_TRUNC);
	EXPECT_RES(SEEK(H_RW, 0, SEEK_END), 500, 0);
	/* ...on a writable one it empties the file for every open. */
	SEEK(H_RW, 200, SEEK_SET);
	RUN(.kind = OP_REOPEN, .h = H_WRONLY, .flags = O_TRUNC);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(0, 100))), 0, 0);
	EXPECT_EQ(200, SEEK(H_RW, 0, SEEK_CUR).ret);
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 10))), 10, 0);
	EXPECT_RES(SEEK(H_RW2, 0, SEEK_END), 210, 0);
	/* Reopening without O_TRUNC keeps it. */
	RUN(.kind = OP_REOPEN, .h = H_RW2);
	EXPECT_RES(SEEK(H_RW2, 0, SEEK_END), 210, 0);
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, rwf_flags)
{
	struct rig *r = &self->r;
	static const int ok_flags[] = {
		RWF_NOWAIT, RWF_HIPRI, RWF_DSYNC, RWF_SYNC,
		RWF_NOWAIT | RWF_HIPRI | RWF_DSYNC | RWF_SYNC,

	};
	unsigned int i;

	r->what = "flags";
	PWRITE(H_RW, 0, A(0, 3 * PAGE));
	for (i = 0; i < ARRAY_SIZE(ok_flags); i++) {
		EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 100 * i,
			       .flags = ok_flags[i], SEGS(A(5, 1000), A(PAGE + 3, 999))),
			   1999, 0);
		EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = 100 * i + 1,
			       .flags = ok_flags[i], SEGS(A(PAGE * 3 + 1, 3000))), 3000, 0);
		EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = -1,
			       .flags = ok_flags[i], SEGS(A(PAGE * 3 + 1, 100))), 100, 0);
	}
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 0, .flags = RWF_UNKNOWN,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = 0, .flags = INT_MIN,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 0, .flags = RWF_ATOMIC,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = 0, .flags = RWF_ATOMIC,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	/* An empty vector returns before the flags are looked at. */
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 0, .flags = RWF_UNKNOWN,
		       SEGS(A(0, 0))), 0, 0);
	ASSERT_TRUE(check_all(r));
}

/*
 * A bad segment first, in the middle and last, for writes: the count stops
 * exactly at the fault and nothing after it is written. @bad is the
 * segment that faults, after its first @bad_ok bytes.
 */
static void bad_write_case(struct __test_metadata *_metadata,
			   struct rig *r, struct seg bad,
			   size_t bad_ok, enum op_kind kind)
{
	struct seg seg[3];
	struct res res;
	size_t pre;
	int where;

	for (where = 0; where < 3; where++) {
		RESET();
		PWRITE(H_RW2, 0, A(0, 64 * KIB));
		seg[0] = (struct seg){ SB_ARENA, 101, 3000 };
		seg[1] = (struct seg){ SB_ARENA, 5001, 2000 };
		seg[2] = (struct seg){ SB_ARENA, 9001, 1500 };
		pre = where == 0 ? 0 : where == 1 ? 3000 : 5000;
		seg[where] = bad;
		if (kind == OP_WRITEV)
			SEEK(H_RW, 1000, SEEK_SET);
		res = RUN(.kind = kind, .h = H_RW, .off = 1000, .seg = seg, .nseg = 3);
		pre += bad_ok;
		EXPECT_RES(res, pre ? (long long)pre : -1, pre ? 0 : EFAULT);
		EXPECT_EQ(kind == OP_WRITEV ? 1000 + (long long)pre : 0, res.pos);
		/* Beyond the size: a failed write does not extend the file. */
		res = RUN(.kind = kind == OP_WRITEV ? OP_PWRITEV2 : kind, .h = H_RW,
			  .off = 100 * KIB, .seg = seg, .nseg = 3);
		EXPECT_RES(res, pre ? (long long)pre : -1, pre ? 0 : EFAULT);
		EXPECT_EQ(pre ? 100 * KIB + pre : 64 * KIB, (size_t)SEEK(H_RW2, 0, SEEK_END).ret);
	}
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, fault_write_prot_none)
{
	struct rig *r = &self->r;

	r->what = "write from PROT_NONE";
	bad_write_case(_metadata, r, (struct seg)A(A_NONE + 5, 100), 0, OP_PWRITEV2);
	bad_write_case(_metadata, r, (struct seg)A(A_NONE, 1), 0, OP_WRITEV);
}

TEST_F(ramfile, fault_write_unmapped)
{
	struct rig *r = &self->r;

	r->what = "write from unmapped";
	ASSERT_TRUE(hole_unmapped(r));
	bad_write_case(_metadata, r, (struct seg)A(A_HOLE + 77, 10), 0, OP_PWRITEV2);
	bad_write_case(_metadata, r, (struct seg)A(A_HOLE, PAGE), 0, OP_WRITEV);
}

TEST_F(ramfile, fault_write_null)
{
	struct rig *r = &self->r;

	r->what = "write from NULL";
	bad_write_case(_metadata, r, (struct seg)NUL(10), 0, OP_PWRITEV2);
	bad_write_case(_metadata, r, (struct seg)NUL(PAGE), 0, OP_WRITEV);
}

/* A segment that starts readable and runs into the PROT_NONE page. */
TEST_F(ramfile, fault_write_straddling)
{
	struct rig *r = &self->r;
	struct res res;

	r->what = "write straddling";
	bad_write_case(_metadata, r, (struct seg)A(A_NONE - 300, 1000), 300, OP_PWRITEV2);
	bad_write_case(_metadata, r, (struct seg)A(A_HOLE - 5000, 6000), 5000, OP_WRITEV);
	PWRITE(H_RW2, 0, A(0, 64 * KIB));
	res = PWRITE(H_RW, 3, A(A_NONE - 4097, 8000));
	EXPECT_RES(res, 4097, 0);
	res = RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(A_NONE - 1, 2)));
	EXPECT_RES(res, 1, 0);
	/* Read-only memory is a fine source. */
	res = PWRITE(H_RW, 7, A(A_RO - 10, PAGE + 20));
	EXPECT_RES(res, PAGE + 20, 0);
	ASSERT_TRUE(check_all(r));
}

/* The same for reads: into PROT_NONE, unmapped, read-only, NULL. */
static void bad_read_case(struct __test_metadata *_metadata,
			  struct rig *r, struct seg bad, size_t bad_ok,
			  enum op_kind kind)
{
	struct seg seg[3];
	struct res res;
	size_t pre;
	int where;

	RESET();
	PWRITE(H_RW2, 0, A(0, 64 * KIB));
	for (where = 0; where < 3; where++) {
		seg[0] = (struct seg){ SB_ARENA, 101, 3000 };
		seg[1] = (struct seg){ SB_ARENA, 5001, 2000 };
		seg[2] = (struct seg){ SB_ARENA, 9001, 1500 };
		pre = where == 0 ? 0 : where == 1 ? 3000 : 5000;
		seg[where] = bad;
		if (kind == OP_READV)
			SEEK(H_RW, 1000, SEEK_SET);
		res = RUN(.kind = kind, .h = H_RW, .off = 1000, .seg = seg, .nseg = 3);
		pre += bad_ok;
		EXPECT_RES(res, pre ? (long long)pre : -1, pre ? 0 : EFAULT);
		EXPECT_EQ(kind == OP_READV ? 1000 + (long long)pre : 0, res.pos);
	}
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, fault_read)
{
	struct rig *r = &self->r;

	r->what = "read into PROT_NONE";
	bad_read_case(_metadata, r, (struct seg)A(A_NONE + 1, 100), 0, OP_PREADV2);
	r->what = "read into unmapped";
	ASSERT_TRUE(hole_unmapped(r));
	bad_read_case(_metadata, r, (struct seg)A(A_HOLE, 100), 0, OP_READV);
	r->what = "read into read-only";
	bad_read_case(_metadata, r, (struct seg)A(A_RO + 5, 100), 0, OP_PREADV2);
	r->what = "read into NULL";
	bad_read_case(_metadata, r, (struct seg)NUL(100), 0, OP_READV);
	r->what = "read straddling into read-only";
	bad_read_case(_metadata, r, (struct seg)A(A_RO - 33, 100), 33, OP_PREADV2);
	r->what = "read straddling into PROT_NONE";
	bad_read_case(_metadata, r, (struct seg)A(A_NONE - 4096 - 5, 5000), 4101, OP_READV);
}

TEST_F(ramfile, fault_single_buffer)
{
	struct rig *r = &self->r;

	r->what = "single buffer";
	PWRITE(H_RW2, 0, A(0, 64 * KIB));
	EXPECT_RES(PWRITE(H_RW, 0, NUL(10)), -1, EFAULT);
	EXPECT_RES(PREAD(H_RW, 0, NUL(10)), -1, EFAULT);
	EXPECT_RES(PWRITE(H_RW, 0, A(A_NONE, 10)), -1, EFAULT);
	EXPECT_RES(PREAD(H_RW, 0, A(A_RO, 10)), -1, EFAULT);
	EXPECT_RES(PREAD(H_RW, 0, A(A_RO - 1, 10)), 1, 0);
	EXPECT_RES(PREAD(H_RW, 0, A(A_NONE - 3000, 8000)), 3000, 0);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(A_HOLE - 10, 20))), 10, 0);
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(A_HOLE - 10, 20))), 10, 0);
	EXPECT_RES(PWRITE(H_RW, 0, KPTR(10)), -1, EFAULT);
	EXPECT_RES(PREAD(H_RW, 0, KPTR(10)), -1, EFAULT);
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, bad_iovec)
{
	struct rig *r = &self->r;
	static struct seg many[UIO_MAXIOV + 1];
	struct res res;
	int i;

	r->what = "bad iovec";
	PWRITE(H_RW2, 0, A(0, 64 * KIB));
	for (i = 0; i <= UIO_MAXIOV; i++)
		many[i] = (struct seg){ SB_ARENA, 1 + 7 * i, 3 };
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10, .seg = many,
		  .nseg = UIO_MAXIOV + 1);
	EXPECT_RES(res, -1, EINVAL);
	res = RUN(.kind = OP_READV, .h = H_RW, .seg = many, .nseg = UIO_MAXIOV + 1);
	EXPECT_RES(res, -1, EINVAL);
	res = RUN(.kind = OP_WRITEV, .h = H_RW, .seg = many, .nseg = -1);
	EXPECT_RES(res, -1, EINVAL);
	res = RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10, .seg = many,
		  .nseg = UIO_MAXIOV);
	EXPECT_RES(res, 3 * UIO_MAXIOV, 0);
	/* A negative length anywhere: EINVAL, nothing written. */
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10,
		       SEGS(A(0, 100), A(200, (size_t)-1), A(300, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10,
		       SEGS(A(0, 100), A(300, 10), A(200, (size_t)LLONG_MAX + 1))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10,
		       SEGS(A(200, (size_t)-100))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = 10,
		       SEGS(A(0, 100), A(200, (size_t)-1))), -1, EINVAL);
	/* A kernel address anywhere: EFAULT before anything is copied. */
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = 10,
		       SEGS(A(0, 100), KPTR(10), A(300, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = 10,
		       SEGS(A(0, 100), A(300, 10), KPTR(1))), -1, EFAULT);
	/* The iovec array itself unreadable. */
	EXPECT_RES(RUN(.kind = OP_WRITEV, .h = H_RW, .iov_null = true, .nseg = 2), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .iov_null = true, .nseg = 1,
		       .off = 0), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_READV, .h = H_RW, .iov_null = true, .nseg = 0), 0, 0);
	/* A plain buffer with a length that does not fit ssize_t. */
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, (size_t)-1))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(0, (size_t)LLONG_MAX + 7))),
		   -1, EFAULT);
	ASSERT_TRUE(check_all(r));
}

TEST_F(ramfile, bad_offsets)
{
	struct rig *r = &self->r;
	long long cap = r->cap;

	r->what = "bad offsets";
	PWRITE(H_RW2, 0, A(0, 64 * KIB));
	EXPECT_RES(PREAD(H_RW, -1, A(0, 10)), -1, EINVAL);
	EXPECT_RES(PWRITE(H_RW, -1, A(0, 10)), -1, EINVAL);
	EXPECT_RES(PWRITE(H_RW, LLONG_MIN, A(0, 10)), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PREADV2, .h = H_RW, .off = -2, SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = -2, SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = LLONG_MIN, SEGS(A(0, 0))),
		   -1, EINVAL);
	/* Near LLONG_MAX: the end must not overflow; below that, ENOSPC/EOF. */
	EXPECT_RES(PWRITE(H_RW, LLONG_MAX, A(0, 1)), -1, EINVAL);
	EXPECT_RES(PWRITE(H_RW, LLONG_MAX - 1, A(0, 1)), -1, ENOSPC);
	EXPECT_RES(PWRITE(H_RW, LLONG_MAX - 1, A(0, 2)), -1, EINVAL);
	EXPECT_RES(PWRITE(H_RW, LLONG_MAX, A(0, 0)), 0, 0);
	EXPECT_RES(PREAD(H_RW, LLONG_MAX, A(0, 1)), -1, EINVAL);
	EXPECT_RES(PREAD(H_RW, LLONG_MAX - 1, A(0, 1)), 0, 0);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = LLONG_MAX - 100,
		       SEGS(A(0, 50), A(100, 50))), -1, ENOSPC);
	EXPECT_RES(RUN(.kind = OP_PWRITEV2, .h = H_RW, .off = LLONG_MAX - 100,
		       SEGS(A(0, 50), A(100, 51))), -1, EINVAL);
	SEEK(H_RW, LLONG_MAX, SEEK_SET);
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 1))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(0, 1))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_READV, .h = H_RW, SEGS(A(0, 1), A(5, 1))), -1, EINVAL);
	SEEK(H_RW, LLONG_MAX - 1, SEEK_SET);
	EXPECT_RES(RUN(.kind = OP_WRITE, .h = H_RW, SEGS(A(0, 1))), -1, ENOSPC);
	EXPECT_RES(RUN(.kind = OP_READ, .h = H_RW, SEGS(A(0, 1))), 0, 0);
	EXPECT_EQ(LLONG_MAX - 1, SEEK(H_RW, 0, SEEK_CUR).ret);
	EXPECT_RES(PWRITE(H_RW, cap - 1, A(0, 2)), 1, 0);
	ASSERT_TRUE(check_all(r));
}

/*
 * The capacity found by probing must be the module parameter's value in
 * sysfs and, when the kernel command line sets it (<module>.capacity=N),
 * that value.  Devices other than the two samples have no parameter.
 */
TEST_F(ramfile, capacity)
{
	struct rig *r = &self->r;
	char module[64], path[128], text[64], cmdline[4096], key[80], *at;
	const char *base;
	bool sample;
	size_t len;
	FILE *f;
	int d, i;

	f = fopen("/proc/cmdline", "r");
	ASSERT_NE(NULL, f);
	len = fread(cmdline, 1, sizeof(cmdline) - 1, f);
	fclose(f);
	cmdline[len] = '\0';
	for (d = 0; d < r->ndev; d++) {
		base = strrchr(r->dev[d].path, '/');
		base = base ? base + 1 : r->dev[d].path;
		sample = !strcmp(base, "c-iov-ramfile") || !strcmp(base, "rust-iov-ramfile");
		/* The module of /dev/c-iov-ramfile is c_iov_ramfile. */
		snprintf(module, sizeof(module), "%s", base);
		for (i = 0; module[i]; i++)
			if (module[i] == '-')
				module[i] = '_';
		note("%s: capacity %lld bytes", r->dev[d].path, r->cap);

		snprintf(path, sizeof(path), "/sys/module/%s/parameters/capacity", module);
		f = fopen(path, "r");
		if (!f && !sample)
			continue;
		ASSERT_NE(NULL, f)
			note("%s: no %s", r->dev[d].path, path);
		ASSERT_NE(NULL, fgets(text, sizeof(text), f));
		fclose(f);
		EXPECT_EQ(r->cap, atoll(text));

		snprintf(key, sizeof(key), " %s.capacity=", module);
		at = strstr(cmdline, key);
		if (at)
			EXPECT_EQ(r->cap, atoll(at + strlen(key)))
				note("%s: the command line has%s", r->dev[d].path, key);
	}
}

/* A request chosen at random, with its segments in @seg. */
static void random_op(struct rig *r, unsigned long long *g, struct op *op, struct seg *seg)
{
	static const int v2_flags[] = {
		0, 0, 0, 0, RWF_NOWAIT, RWF_HIPRI, RWF_DSYNC | RWF_SYNC, RWF_APPEND,
		RWF_NOAPPEND, RWF_NOWAIT | RWF_APPEND, RWF_UNKNOWN,
	};
	static const int splice_flags[] = {
		0, 0, 0, SPLICE_F_MOVE, SPLICE_F_NONBLOCK, SPLICE_F_MORE,
		SPLICE_F_MOVE | SPLICE_F_GIFT, SPLICE_F_UNKNOWN,
	};
	unsigned long long pick = rng_below(g, 100);
	unsigned int t;
	size_t aoff, len;
	int i, nseg;

	memset(op, 0, sizeof(*op));
	op->seg = seg;
	op->h = rng_below(g, 20) ? H_RW + rng_below(g, 3) :
		H_RDONLY + rng_below(g, 2);
	if (pick < 3) {
		op->kind = OP_REOPEN;
		op->flags = rng_below(g, 2) ? O_TRUNC : 0;
		return;
	}
	if (pick < 15) {
		op->kind = OP_LSEEK;
		op->whence = rng_below(g, 20) ? rng_below(g, 3) : rng_below(g, 8);
	} else if (rng_below(g, 2)) {
		op->kind = rng_below(g, NR_RW_KINDS);
	} else {
		op->kind = FIRST_CALLER + rng_below(g, NR_OP_KINDS - FIRST_CALLER);
	}
	t = op_traits[op->kind];

	/* Offsets where things happen: start, size, capacity, far away. */
	switch (rng_below(g, 20)) {
	case 0 ... 7:
		op->off = rng_below(g, 64 * KIB);
		break;
	case 8 ... 10:
		op->off = r->m.size + (long long)rng_below(g, 8192) - 4096;
		break;
	case 11 ... 13:
		op->off = r->cap + (long long)rng_below(g, 8192) - 8000;
		break;
	case 14 ... 15:
		op->off = rng_below(g, r->cap);
		break;
	case 16:
		op->off = LLONG_MAX - (long long)rng_below(g, 3 * KIB);
		break;
	case 17:
		op->off = -(long long)rng_below(g, 3);
		break;
	default:
		op->off = -1;
		break;
	}
	if (op->kind == OP_LSEEK) {
		if (op->whence != SEEK_SET && rng_below(g, 2))
			op->off = (long long)rng_below(g, 20000) - 10000;
		return;
	}

	nseg = is_vec(op->kind) ? (int)rng_below(g, 5) : op->kind == OP_SPLICE_TEE ? 2 : 1;
	if (nseg == 4)
		nseg = 4 + rng_below(g, rng_below(g, 50) ? 29 : UIO_MAXIOV - 4);
	for (i = 0; i < nseg; i++) {
		switch (rng_below(g, 20)) {
		case 0 ... 2:
			len = 0;
			break;
		case 3 ... 8:
			len = 1 + rng_below(g, 64);
			break;
		case 9 ... 16:
			len = 1 + rng_below(g, PAGE + 2);
			break;
		case 17 ... 18:
			len = 1 + rng_below(g, 64 * KIB);
			break;
		default:
			len = nseg < 4 && !rng_below(g, 4) ? MIB - rng_below(g, 3) : 100;
			break;
		}
		if (nseg > 32 && len > 300)
			len %= 300;
		aoff = rng_below(g, A_DATA_LEN - len);
		seg[i] = (struct seg){ SB_ARENA, aoff, len };
		/* Staged data is plain memory that fits in the pipe. */
		if (t & T_STAGED) {
			if (i)
				seg[i].len = seg[0].len;
			seg[i].off = rng_below(g, A_DATA_LEN - seg[i].len);
			continue;
		}
		/* Now and then a segment that faults, or is invalid. */
		switch (rng_below(g, 200)) {
		case 0:
			seg[i].off = A_NONE - rng_below(g, 64);
			break;
		case 1:
			seg[i].off = A_HOLE - rng_below(g, 64);
			break;
		case 2:
			seg[i].off = A_RO - rng_below(g, 64);
			break;
		case 3:
			seg[i] = (struct seg)NUL(len);
			break;
		case 4:
			seg[i] = (struct seg)KPTR(len);
			break;
		case 5:
			seg[i].len = (size_t)-1 - rng_below(g, 10);
			break;
		}
		if (seg[i].base == SB_ARENA && (ssize_t)seg[i].len >= 0 &&
		    seg[i].off + seg[i].len > ARENA_LEN)
			seg[i].len = ARENA_LEN - seg[i].off;
		/* An SQE's length has 32 bits. */
		if ((t & T_URING) && !(t & T_VEC) && seg[i].len > UINT_MAX)
			seg[i].len = 100;
	}
	if (is_vec(op->kind) && !rng_below(g, 300)) {
		for (i = nseg; i <= UIO_MAXIOV; i++)
			seg[i] = (struct seg)A(i, 1);
		nseg = UIO_MAXIOV + 1;
	}
	op->nseg = nseg;
	if (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2 || (t & (T_URING | T_AIO)))
		op->flags = v2_flags[rng_below(g, ARRAY_SIZE(v2_flags))];
	if ((op->kind == OP_PREAD || op->kind == OP_PWRITE) && op->off == -1)
		op->off = r->m.pos[op->h];
	if (t & T_SPLICE)
		op->flags = splice_flags[rng_below(g, ARRAY_SIZE(splice_flags))];
	if (t & T_FIXED) {
		op->buf_index = rng_below(g, 16) ? 0 : rng_below(g, NR_FIXED_BUFS + 1);
		/* Now and then in (or across the end of) the one-page buffer. */
		if (op->buf_index == 1 && rng_below(g, 2))
			seg[0] = (struct seg)A(PAGE + rng_below(g, PAGE), rng_below(g, PAGE + 64));
	}
	/*
	 * With injected faults (one task's), leave out what the model cannot
	 * follow: an io-wq worker (IOSQE_ASYNC) is another task, its
	 * make-it-fail copied from ours whenever it was created; and after
	 * moving the data splice copies the offset back to user memory,
	 * which can fail: -EFAULT, the count is lost.
	 */
	if ((t & T_URING) && !r->inject)
		op->async = !rng_below(g, 8);
	if ((t & T_SPLICE) && r->inject)
		op->off = -1;
}

/*
 * A long seeded random sequence of requests, each compared with the model
 * (see run()); the whole contents are compared every 128 requests.
 */
TEST_F_TIMEOUT(ramfile, random_differential, 300)
{
	struct rig *r = &self->r;
	static struct seg seg[MAX_SEGS];
	const char *env_seed = getenv("IOV_SEED"), *env_steps = getenv("IOV_SOAK");
	unsigned long long seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x10715eedULL;
	unsigned long steps = env_steps ? strtoul(env_steps, NULL, 0) : RANDOM_STEPS;
	unsigned long long g = seed;
	unsigned long i, data = 0, partial = 0, errs[NR_ERRNO] = { 0 };
	struct timespec t0, t1;
	struct res res;
	struct op op;

	r->what = "random";
	note("random run: IOV_SEED=%#llx IOV_SOAK=%lu", (unsigned long long)seed, steps);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < steps; i++) {
		random_op(r, &g, &op, seg);
		if (op.kind != OP_LSEEK && op.kind != OP_REOPEN)
			ASSERT_TRUE(hole_unmapped(r));
		res = run(r, &op);
		if (res.ret > 0 && (is_read(op.kind) || is_write(op.kind))) {
			data++;
			partial += res.ret < seg_total(&op);
		}
		if (res.err > 0 && res.err < NR_ERRNO)
			errs[res.err]++;
		if (!r->failed && (i % 128 == 127 || i == steps - 1))
			check_all(r);
		if (r->failed) {
			note("random run failed at request %lu; repeat with IOV_SEED=%#llx",
			     i + 1, (unsigned long long)seed);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	note("random run: %lu requests in %.1f s, %lu moved data (%lu short)",
	     i, t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9, data, partial);
	note("random run errors: EFAULT %lu, ENOSPC %lu, EINVAL %lu, EBADF %lu, EOPNOTSUPP %lu",
	     errs[EFAULT], errs[ENOSPC], errs[EINVAL], errs[EBADF], errs[EOPNOTSUPP]);
	ASSERT_FALSE(r->failed);
}

static void swap_targets(struct target *a, struct target *b)
{
	struct target t = *a;

	*a = *b;
	*b = t;
}

/*
 * The random run again, one device at a time, with usercopy faults
 * injected into that device's requests (IOV_FAULTS per device, each user
 * copy failing with IOV_FAULT_PROBABILITY percent): reads come back short
 * or with EFAULT wherever a copy failed, writes may be retried by the
 * driver. Whatever a request returns, the model repeats it with that
 * count, and user memory, offsets and contents must then match: nothing
 * lost, nothing invented. Runs until every fault has fired.
 */
TEST_F_TIMEOUT(ramfile, random_usercopy_faults, 300)
{
	struct rig *r = &self->r;
	static struct seg seg[MAX_SEGS];
	const char *env = getenv("IOV_FAULTS"), *env_p = getenv("IOV_FAULT_PROBABILITY");
	long long target = env ? atoll(env) : 0, left;
	int percent = env_p ? atoi(env_p) : 10, all = r->ndev, d, h;
	unsigned long long g = 0xfa017ULL;

	if (!env)
		SKIP(return, "IOV_FAULTS is not set: no usercopy faults injected");
	ASSERT_LT(0, target);
	ASSERT_TRUE(percent > 0 && percent < 100);
	r->fail_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	ASSERT_LE(0, r->fail_fd)
		note("no make-it-fail: is CONFIG_FAULT_INJECTION set?");
	ASSERT_LE(0, faults_left())
		note("no " FAIL_USERCOPY ": CONFIG_FAULT_INJECTION_USERCOPY and debugfs needed");
	r->what = "faults";
	for (d = 0; d < all; d++) {
		unsigned long i, partial = 0, efault = 0;

		/* This device alone, from an empty file and fresh opens. */
		swap_targets(&r->dev[0], &r->dev[d]);
		r->ndev = 1;
		for (h = 0; h < NR_HANDLES; h++)
			RUN(.kind = OP_REOPEN, .h = h, .flags = h == H_RW ? O_TRUNC : 0);
		ASSERT_TRUE(faults_arm(target, percent));
		r->inject = true;
		for (i = 0; i < 1000 * (unsigned long)target; i++) {
			struct res res;
			struct op op;

			random_op(r, &g, &op, seg);
			res = run(r, &op);
			if (res.ret > 0 && (is_read(op.kind) || is_write(op.kind)))
				partial += res.ret < seg_total(&op);
			efault += res.err == EFAULT;
			if (!r->failed && i % 128 == 127)
				check_all(r);
			if (r->failed) {
				note("fault run failed at request %lu on %s", i + 1,
				     r->dev[0].path);
				break;
			}
			if (i % 64 == 63 && !faults_left())
				break;
			if (i == 4095 && faults_left() == target) {
				note("no fault fired in %lu requests", i + 1);
				break;
			}
		}
		r->inject = false;
		left = faults_left();
		write_text(FAIL_USERCOPY "probability", "0");
		if (!r->failed)
			check_all(r);
		note("usercopy faults injected: %lld of %lld on %s", target - left, target,
		     r->dev[0].path);
		note("faults: %lu requests, %lu short, %lu EFAULT", i, partial, efault);
		r->ndev = all;
		swap_targets(&r->dev[0], &r->dev[d]);
		ASSERT_FALSE(r->failed);
		ASSERT_EQ(0, left);
	}
	close(r->fail_fd);
}

/* Sizes and offsets the callers_* cases move data with. */
static const size_t caller_lens[] = { 1, 4095, 4097, 64 * KIB + 1, 300 * KIB };
static const long long caller_offs[] = { 0, 1, 3 * PAGE + 7 };

/* The bytes at two places in the first device's arena are the same. */
static bool same_bytes(struct rig *r, size_t a, size_t b, size_t n)
{
	return !memcmp(r->dev[0].arena + a, r->dev[0].arena + b, n);
}

/*
 * sendfile() out of the device into a tmpfs file and into a pipe
 * (copy_splice_read(): ITER_BVEC over pages it allocates), and from a
 * tmpfs file into the device (iter_file_splice_write(): ITER_BVEC over an
 * internal pipe's pages), with and without an offset pointer, next to a
 * tmpfs file. Would catch a position moved that should not be, or not
 * moved, data lost or invented between the internal pipe's 64 KiB
 * chunks, and the wrong errno for a write-only input, a read-only or
 * O_APPEND output, or a bad offset.
 */
TEST_F_TIMEOUT(ramfile, callers_sendfile, 120)
{
	struct rig *r = &self->r;
	unsigned int li, oi;
	struct res res;

	ref_add(_metadata, r);
	r->what = "sendfile";
	for (li = 0; li < ARRAY_SIZE(caller_lens); li++) {
		for (oi = 0; oi < ARRAY_SIZE(caller_offs); oi++) {
			long long n = caller_lens[li], off = caller_offs[oi];

			RESET();
			PWRITE(H_RW2, 0, A(PAGE, 700 * KIB));
			/* Out of the device at its position, which moves. */
			SEEK(H_RW, off, SEEK_SET);
			res = RUN(.kind = OP_SENDFILE_FILE, .h = H_RW, .off = -1,
				  SEGS(A(MIB + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.pos);
			EXPECT_EQ(n, res.piped);
			EXPECT_TRUE(same_bytes(r, MIB + oi, PAGE + off, n));
			res = RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = -1,
				  SEGS(A(MIB + 320 * KIB, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 2 * n, res.pos);
			/* With an offset pointer: the pointer moves, the position not. */
			SEEK(H_RDONLY, 0, SEEK_SET);
			res = RUN(.kind = OP_SENDFILE_PIPE, .h = H_RDONLY, .off = off + 5,
				  SEGS(A(MIB + 640 * KIB + li, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 5 + n, res.offp);
			EXPECT_EQ(0, res.pos);
			EXPECT_TRUE(same_bytes(r, MIB + 640 * KIB + li, PAGE + off + 5, n));
			res = RUN(.kind = OP_SENDFILE_FILE, .h = H_RW2, .off = off,
				  SEGS(A(MIB + 1, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.offp);
			/* Into the device at its position, which moves. */
			SEEK(H_RW, off + 7, SEEK_SET);
			res = RUN(.kind = OP_SENDFILE_IN, .h = H_RW, .off = -1,
				  SEGS(A(2 * PAGE + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 7 + n, res.pos);
			EXPECT_EQ(n, res.piped);
			/* An offset pointer is the input file's. */
			SEEK(H_WRONLY, off, SEEK_SET);
			res = RUN(.kind = OP_SENDFILE_IN, .h = H_WRONLY, .off = 0,
				  SEGS(A(MIB + 3, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(n, res.offp);
			EXPECT_EQ(0, res.piped);
			EXPECT_EQ(off + n, res.pos);
		}
	}

	RESET();
	PWRITE(H_RW2, 0, A(PAGE, 10000));
	/* Short at the end of the file, nothing beyond it. */
	EXPECT_RES(RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = 9000, SEGS(A(0, 4000))),
		   1000, 0);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_FILE, .h = H_RW, .off = 10000, SEGS(A(0, 4000))),
		   0, 0);
	SEEK(H_RW, 20000, SEEK_SET);
	res = RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = -1, SEGS(A(0, 10)));
	EXPECT_RES(res, 0, 0);
	EXPECT_EQ(20000, res.pos);
	/* A count of 0 moves nothing, but the files are still checked. */
	EXPECT_RES(RUN(.kind = OP_SENDFILE_IN, .h = H_RW, .off = -1, SEGS(A(0, 0))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_PIPE, .h = H_WRONLY, .off = -1, SEGS(A(0, 0))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_IN, .h = H_APPEND, .off = -1, SEGS(A(0, 0))),
		   -1, EINVAL);
	/* A write-only input; a read-only or O_APPEND output. */
	EXPECT_RES(RUN(.kind = OP_SENDFILE_FILE, .h = H_WRONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_IN, .h = H_RDONLY, .off = -1, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_IN, .h = H_APPEND, .off = 0, SEGS(A(0, 10))),
		   -1, EINVAL);
	/* An O_APPEND input is read at its position. */
	res = RUN(.kind = OP_SENDFILE_PIPE, .h = H_APPEND, .off = -1, SEGS(A(0, 10)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(10, res.pos);
	/* Negative offsets, ends past LLONG_MAX: EINVAL, even beyond the size. */
	EXPECT_RES(RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = -2, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_FILE, .h = H_RW, .off = LLONG_MIN, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 5))), 0, 0);
	SEEK(H_RW, LLONG_MAX - 5, SEEK_SET);
	EXPECT_RES(RUN(.kind = OP_SENDFILE_IN, .h = H_RW, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	ASSERT_TRUE(check_all(r));
}

/*
 * splice() out of the device into a pipe (copy_splice_read(): ITER_BVEC
 * over pages it allocates), with tee() after it, and from a pipe into
 * the device (iter_file_splice_write(): ITER_BVEC over the pipe's pages,
 * the pipe locked), with and without an offset pointer, next to a tmpfs
 * file. Would catch what callers_sendfile does, and a break of splice's
 * own rules: a length of 0 returns 0 before anything is checked, unknown
 * flags and an O_APPEND output are EINVAL, an offset for a pipe ESPIPE,
 * two files without a pipe EINVAL, an empty non-blocking pipe EAGAIN.
 */
TEST_F_TIMEOUT(ramfile, callers_splice, 120)
{
	struct rig *r = &self->r;
	unsigned int li, oi;
	struct res res;
	int d;

	ref_add(_metadata, r);
	r->what = "splice";
	for (li = 0; li < ARRAY_SIZE(caller_lens); li++) {
		for (oi = 0; oi < ARRAY_SIZE(caller_offs); oi++) {
			long long n = caller_lens[li], off = caller_offs[oi];

			RESET();
			PWRITE(H_RW2, 0, A(PAGE, 400 * KIB));
			SEEK(H_RW, off, SEEK_SET);
			res = RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = -1,
				  SEGS(A(MIB + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.pos);
			EXPECT_EQ(n, res.piped);
			EXPECT_TRUE(same_bytes(r, MIB + oi, PAGE + off, n));
			SEEK(H_RDONLY, 0, SEEK_SET);
			res = RUN(.kind = OP_SPLICE_TEE, .h = H_RDONLY, .off = off + 3,
				  .flags = SPLICE_F_MOVE, SEGS(A(5, n), A(MIB + 7, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(n, res.tee);
			EXPECT_EQ(off + 3 + n, res.offp);
			EXPECT_EQ(0, res.pos);
			EXPECT_TRUE(same_bytes(r, 5, MIB + 7, n));
			res = RUN(.kind = OP_SPLICE_WRITE, .h = H_RW2, .off = off + 11,
				  .flags = SPLICE_F_MORE, SEGS(A(2 * PAGE + li, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 11 + n, res.offp);
			EXPECT_EQ(n, res.piped);
			SEEK(H_WRONLY, off + 13, SEEK_SET);
			res = RUN(.kind = OP_SPLICE_WRITE, .h = H_WRONLY, .off = -1,
				  .flags = SPLICE_F_NONBLOCK, SEGS(A(3 * PAGE + 1, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 13 + n, res.pos);
		}
	}

	RESET();
	PWRITE(H_RW2, 0, A(PAGE, 10000));
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = 9000, SEGS(A(0, 4000))),
		   1000, 0);
	/* At the end of the file: nothing spliced, so nothing to tee. */
	res = RUN(.kind = OP_SPLICE_TEE, .h = H_RW, .off = 10000, SEGS(A(0, 10), A(100, 10)));
	EXPECT_RES(res, 0, 0);
	EXPECT_EQ(-EAGAIN, res.tee);
	/* A length of 0: 0 before the handle, flags and offset are looked at. */
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_WRONLY, .off = -2,
		       .flags = SPLICE_F_UNKNOWN, SEGS(A(0, 0))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_APPEND, .off = -1, SEGS(A(0, 0))), 0, 0);
	/* Out of a write-only handle, into a read-only one. */
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_WRONLY, .off = -1, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_SPLICE_TEE, .h = H_WRONLY, .off = 0,
		       SEGS(A(0, 10), A(100, 10))), -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_RDONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	/* write() appends to an O_APPEND file; splice() refuses to. */
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_APPEND, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_APPEND, .off = 5, SEGS(A(0, 10))),
		   -1, EINVAL);
	res = RUN(.kind = OP_SPLICE_READ, .h = H_APPEND, .off = -1, SEGS(A(0, 10)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(10, res.pos);
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = 0,
		       .flags = SPLICE_F_UNKNOWN, SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = 0,
		       .flags = SPLICE_F_UNKNOWN, SEGS(A(0, 10))), -1, EINVAL);
	/* Bad offsets, through the pointer or the position. */
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = -2, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = LLONG_MIN, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 5))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 10))), -1, EINVAL);
	SEEK(H_RW, LLONG_MAX - 5, SEEK_SET);
	EXPECT_RES(RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	/* What the model has no request for, on each target. */
	for (d = 0; d < r->ndev; d++) {
		struct target *t = &r->dev[d];
		loff_t o = 0;

		errno = 0;
		EXPECT_EQ(-1, splice(t->pipe_r, &o, t->fd[H_RW], NULL, 1, 0));
		EXPECT_EQ(ESPIPE, errno);
		errno = 0;
		EXPECT_EQ(-1, splice(t->fd[H_RW], NULL, t->pipe_w, &o, 1, 0));
		EXPECT_EQ(ESPIPE, errno);
		errno = 0;
		EXPECT_EQ(-1, splice(t->fd[H_RW2], NULL, t->fd[H_RW], NULL, 1, 0));
		EXPECT_EQ(EINVAL, errno);
		errno = 0;
		EXPECT_EQ(-1, splice(t->pipe_r, NULL, t->fd[H_RW], NULL, 1, 0));
		EXPECT_EQ(EAGAIN, errno);
		errno = 0;
		EXPECT_EQ(-1, tee(t->pipe_r, t->tee_w, 1, 0));
		EXPECT_EQ(EAGAIN, errno);
	}
	ASSERT_TRUE(check_all(r));
}

/*
 * io_uring READ/WRITE (ITER_UBUF), READV/WRITEV (ITER_IOVEC) and
 * READ_FIXED/WRITE_FIXED (ITER_BVEC over registered buffers), inline
 * (IOCB_NOWAIT first) and from an io-wq worker (IOSQE_ASYNC), at explicit
 * offsets and at the file position (-1), next to a tmpfs file. Would
 * catch the file position not used or not moved for -1, or moved for an
 * explicit offset, O_APPEND, RWF_APPEND or RWF_NOAPPEND ignored, a fixed
 * buffer used beyond its registration, a copy that does not end at a
 * fault in user memory, and the wrong errno for a bad handle, offset,
 * iovec, buffer or flag.
 */
TEST_F_TIMEOUT(ramfile, callers_io_uring, 120)
{
	struct rig *r = &self->r;
	static struct seg many[UIO_MAXIOV + 1];
	unsigned int li, oi;
	struct res res;
	int i;

	ref_add(_metadata, r);
	r->what = "io_uring";
	for (li = 0; li < ARRAY_SIZE(caller_lens); li++) {
		for (oi = 0; oi < ARRAY_SIZE(caller_offs); oi++) {
			long long n = caller_lens[li], off = caller_offs[oi];

			RESET();
			res = RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = off,
				  SEGS(A(MIB + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(0, res.pos);
			res = RUN(.kind = OP_URING_READ, .h = H_RW2, .off = off, SEGS(A(3, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_TRUE(same_bytes(r, MIB + oi, 3, n));
			SEEK(H_RW, off, SEEK_SET);
			res = RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = -1, .async = li & 1,
				  SEGS(A(5, n / 2), A(MIB + 100, 0), A(MIB + 200, n - n / 2)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.pos);
			SEEK(H_RW2, off, SEEK_SET);
			res = RUN(.kind = OP_URING_READV, .h = H_RW2, .off = -1, .async = !(li & 1),
				  SEGS(A(9, n - n / 3), A(MIB + 300, n / 3)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.pos);
			res = RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RW, .off = off + 1,
				  .async = oi == 1, SEGS(A(2 * PAGE + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + n, res.pos);
			SEEK(H_RW2, off + 1, SEEK_SET);
			res = RUN(.kind = OP_URING_READ_FIXED, .h = H_RW2, .off = -1,
				  .async = oi == 2, SEGS(A(MIB + 5, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(off + 1 + n, res.pos);
			EXPECT_TRUE(same_bytes(r, 2 * PAGE + oi, MIB + 5, n));
		}
	}

	RESET();
	PWRITE(H_RW2, 0, A(PAGE, 10000));
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 9000, SEGS(A(0, 4000))),
		   1000, 0);
	SEEK(H_RW, 20000, SEEK_SET);
	res = RUN(.kind = OP_URING_READV, .h = H_RW, .off = -1, SEGS(A(0, 10), A(50, 10)));
	EXPECT_RES(res, 0, 0);
	EXPECT_EQ(20000, res.pos);
	/* O_APPEND: at the size; the position moves only for -1. */
	SEEK(H_APPEND, 0, SEEK_SET);
	res = RUN(.kind = OP_URING_WRITE, .h = H_APPEND, .off = 5, SEGS(A(0, 100)));
	EXPECT_RES(res, 100, 0);
	EXPECT_EQ(0, res.pos);
	res = RUN(.kind = OP_URING_WRITE_FIXED, .h = H_APPEND, .off = -1, SEGS(A(300, 100)));
	EXPECT_RES(res, 100, 0);
	EXPECT_EQ(10200, res.pos);
	res = RUN(.kind = OP_URING_WRITEV, .h = H_APPEND, .off = 7, .flags = RWF_NOAPPEND,
		  SEGS(A(0, 10)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(10200, res.pos);
	SEEK(H_RW, 3, SEEK_SET);
	res = RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = -1, .flags = RWF_APPEND,
		  SEGS(A(0, 20)));
	EXPECT_RES(res, 20, 0);
	EXPECT_EQ(10220, res.pos);
	EXPECT_RES(SEEK(H_RW2, 0, SEEK_END), 10220, 0);
	/* Nothing asked for; the flags are checked all the same. */
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 0, SEGS(A(0, 0))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = 0, .nseg = 0), 0, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = 0, .flags = RWF_UNKNOWN,
		       SEGS(A(0, 0))), -1, EOPNOTSUPP);
	/* Polled completion (RWF_HIPRI) needs an IOPOLL ring. */
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 0, .flags = RWF_HIPRI,
		       SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = 0,
		       .flags = RWF_APPEND | RWF_NOAPPEND, SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = 0, .flags = RWF_ATOMIC,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0, .flags = RWF_ATOMIC,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_URING_READV, .h = H_RW, .off = 0,
		       .flags = RWF_DSYNC | RWF_SYNC, SEGS(A(0, 10))), 10, 0);
	/* Handles and offsets. */
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_WRONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RDONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = -2, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = LLONG_MIN, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 5))), 0, 0);
	SEEK(H_RW, LLONG_MAX - 5, SEEK_SET);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	/* Registered buffers: only inside one, checked before the handle. */
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0, .buf_index = 1,
		       SEGS(A(PAGE, PAGE))), PAGE, 0);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0, .buf_index = 1,
		       SEGS(A(PAGE + 100, PAGE))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RW, .off = 0, .buf_index = 1,
		       SEGS(A(PAGE - 1, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RW, .off = 0,
		       SEGS(A(A_DATA_LEN - 10, 20))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0,
		       SEGS(A(A_DATA_LEN - 10, 10))), 10, 0);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0,
		       .buf_index = NR_FIXED_BUFS, SEGS(A(0, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RDONLY, .off = 0,
		       .buf_index = NR_FIXED_BUFS, SEGS(A(0, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_READ_FIXED, .h = H_RW, .off = 0, SEGS(NUL(10))),
		   -1, EFAULT);
	/* iovecs, also checked before the handle (unlike readv()'s). */
	for (i = 0; i <= UIO_MAXIOV; i++)
		many[i] = (struct seg){ SB_ARENA, 1 + 7 * i, 3 };
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = 0, .seg = many,
		       .nseg = UIO_MAXIOV + 1), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_READV, .h = H_RW, .off = 0, .seg = many,
		       .nseg = UIO_MAXIOV), 10220 < 3 * UIO_MAXIOV ? 10220 : 3 * UIO_MAXIOV, 0);
	EXPECT_RES(RUN(.kind = OP_URING_READV, .h = H_WRONLY, .off = 0, .iov_null = true,
		       .nseg = 2), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = 0,
		       SEGS(A(0, 10), KPTR(10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_READV, .h = H_RW, .off = 0,
		       SEGS(A(0, 10), A(20, (size_t)-1))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 0, SEGS(KPTR(10))),
		   -1, EFAULT);
	/* User memory that faults: the copy ends there, or EFAULT. */
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 0, SEGS(A(A_RO - 33, 100))),
		   33, 0);
	EXPECT_RES(RUN(.kind = OP_URING_READ, .h = H_RW, .off = 0, .async = true,
		       SEGS(A(A_RO, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_READV, .h = H_RW, .off = 0,
		       SEGS(A(0, 100), A(A_NONE - 5, 100))), 105, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = 0,
		       SEGS(A(A_NONE - 300, 1000))), 300, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = 0, .async = true,
		       SEGS(A(A_HOLE, 10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = 0, SEGS(NUL(10))),
		   -1, EFAULT);
	ASSERT_TRUE(check_all(r));
}

/*
 * Native AIO: IOCB_CMD_PREAD/PWRITE (ITER_UBUF) and PREADV/PWRITEV
 * (ITER_IOVEC), an async kiocb at aio_offset, next to a tmpfs file.
 * Would catch the file position used or moved (AIO has none), O_APPEND or
 * RWF_* flags ignored, a copy that does not end at a fault in user
 * memory, and the wrong errno for a bad handle, offset (-1 included),
 * count, iovec or flag.
 */
TEST_F_TIMEOUT(ramfile, callers_aio, 120)
{
	struct rig *r = &self->r;
	static struct seg many[UIO_MAXIOV + 1];
	unsigned int li, oi;
	struct res res;
	int i;

	ref_add(_metadata, r);
	r->what = "aio";
	for (li = 0; li < ARRAY_SIZE(caller_lens); li++) {
		for (oi = 0; oi < ARRAY_SIZE(caller_offs); oi++) {
			long long n = caller_lens[li], off = caller_offs[oi];

			RESET();
			SEEK(H_RW, 77, SEEK_SET);
			res = RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = off,
				  SEGS(A(MIB + oi, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(77, res.pos);
			res = RUN(.kind = OP_AIO_PREAD, .h = H_RW2, .off = off, SEGS(A(3, n)));
			EXPECT_RES(res, n, 0);
			EXPECT_TRUE(same_bytes(r, MIB + oi, 3, n));
			res = RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = off + 1,
				  .flags = RWF_DSYNC,
				  SEGS(A(5, n / 2), A(MIB + 100, 0), A(MIB + 200, n - n / 2)));
			EXPECT_RES(res, n, 0);
			EXPECT_EQ(77, res.pos);
			/* RWF_HIPRI: AIO drops it (nobody polls). */
			res = RUN(.kind = OP_AIO_PREADV, .h = H_RDONLY, .off = off + 1,
				  .flags = RWF_HIPRI, SEGS(A(9, n - n / 3), A(MIB + 300, n / 3)));
			EXPECT_RES(res, n, 0);
		}
	}

	RESET();
	PWRITE(H_RW2, 0, A(PAGE, 10000));
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = 9000, SEGS(A(0, 4000))),
		   1000, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PREADV, .h = H_RW, .off = 20000, SEGS(A(0, 10))), 0, 0);
	/* O_APPEND: at the size, and still no position. */
	SEEK(H_APPEND, 0, SEEK_SET);
	res = RUN(.kind = OP_AIO_PWRITE, .h = H_APPEND, .off = 5, SEGS(A(0, 100)));
	EXPECT_RES(res, 100, 0);
	EXPECT_EQ(0, res.pos);
	EXPECT_RES(SEEK(H_RW2, 0, SEEK_END), 10100, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_APPEND, .off = 7,
		       .flags = RWF_NOAPPEND, SEGS(A(0, 10))), 10, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = 3, .flags = RWF_APPEND,
		       SEGS(A(0, 20))), 20, 0);
	EXPECT_RES(SEEK(H_RW2, 0, SEEK_END), 10120, 0);
	/* Nothing asked for; the flags are checked all the same. */
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = 0, SEGS(A(0, 0))), 0, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0, .nseg = 0), 0, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0, .flags = RWF_UNKNOWN,
		       SEGS(A(0, 0))), -1, EOPNOTSUPP);
	/* The flags before the handle (preadv2() checks the handle first). */
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_WRONLY, .off = 0, .flags = RWF_UNKNOWN,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = 0,
		       .flags = RWF_APPEND | RWF_NOAPPEND, SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = 0, .flags = RWF_ATOMIC,
		       SEGS(A(0, 10))), -1, EOPNOTSUPP);
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_WRONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RDONLY, .off = 0, SEGS(A(0, 10))),
		   -1, EBADF);
	/* No file position: -1 is just a negative offset. */
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = -1, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = LLONG_MIN, SEGS(A(0, 10))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 10))), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = LLONG_MAX - 5,
		       SEGS(A(0, 5))), 0, 0);
	/* A count that does not fit ssize_t: EINVAL (read(): EFAULT). */
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = 0, SEGS(A(0, (size_t)-1))),
		   -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = 0, SEGS(KPTR(10))),
		   -1, EFAULT);
	for (i = 0; i <= UIO_MAXIOV; i++)
		many[i] = (struct seg){ SB_ARENA, 1 + 7 * i, 3 };
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0, .seg = many,
		       .nseg = UIO_MAXIOV + 1), -1, EINVAL);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0, .seg = many,
		       .nseg = UIO_MAXIOV), 3 * UIO_MAXIOV, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PREADV, .h = H_RW, .off = 0, .iov_null = true,
		       .nseg = 2), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_AIO_PREADV, .h = H_RW, .off = 0,
		       SEGS(A(0, 10), KPTR(10))), -1, EFAULT);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0,
		       SEGS(A(0, 10), A(20, (size_t)-1))), -1, EINVAL);
	/* User memory that faults: the copy ends there, or EFAULT. */
	EXPECT_RES(RUN(.kind = OP_AIO_PREAD, .h = H_RW, .off = 0, SEGS(A(A_RO - 33, 100))),
		   33, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PREADV, .h = H_RW, .off = 0,
		       SEGS(A(0, 100), A(A_NONE - 5, 100))), 105, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = 0,
		       SEGS(A(A_NONE - 300, 1000))), 300, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_RW, .off = 0, SEGS(NUL(10))),
		   -1, EFAULT);
	ASSERT_TRUE(check_all(r));
}

/*
 * What only the devices do, against the model (no tmpfs file): a splice
 * out of a device fills at most the pipe's room, PIPE_BYTES at any offset
 * (copy_splice_read() allocates whole pages for it), while sendfile into
 * a file moves everything; and every caller that writes stores what fits
 * below the capacity, then gets ENOSPC. Would catch a splice that stops
 * short of the pipe's room or overfills it, and a caller whose capacity
 * handling differs from write()'s.
 */
TEST_F_TIMEOUT(ramfile, callers_device_limits, 120)
{
	struct rig *r = &self->r;
	long long cap = r->cap;
	struct res res;

	r->what = "device limits";
	PWRITE(H_RW2, 0, A(0, 2 * MIB));
	res = RUN(.kind = OP_SPLICE_READ, .h = H_RW, .off = 1, SEGS(A(0, PIPE_BYTES + 2 * PAGE)));
	EXPECT_RES(res, PIPE_BYTES, 0);
	res = RUN(.kind = OP_SPLICE_TEE, .h = H_RW, .off = 3,
		  SEGS(A(1, PIPE_BYTES + 5), A(PIPE_BYTES + 2 * PAGE, PIPE_BYTES + 5)));
	EXPECT_RES(res, PIPE_BYTES, 0);
	EXPECT_EQ((long long)PIPE_BYTES, res.tee);
	res = RUN(.kind = OP_SENDFILE_PIPE, .h = H_RW, .off = -1,
		  SEGS(A(7, PIPE_BYTES + 2 * PAGE)));
	EXPECT_RES(res, PIPE_BYTES, 0);
	res = RUN(.kind = OP_SENDFILE_FILE, .h = H_RW, .off = 1, SEGS(A(0, PIPE_BYTES + 2 * PAGE)));
	EXPECT_RES(res, PIPE_BYTES + 2 * PAGE, 0);

	/* Across the capacity: what fits, then ENOSPC, offsets unmoved. */
	res = RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = cap - 100, SEGS(A(0, 1000)));
	EXPECT_RES(res, 100, 0);
	EXPECT_EQ(cap, res.offp);
	EXPECT_EQ(100, res.piped);
	res = RUN(.kind = OP_SPLICE_WRITE, .h = H_RW, .off = cap, SEGS(A(0, 1000)));
	EXPECT_RES(res, -1, ENOSPC);
	EXPECT_EQ(cap, res.offp);
	EXPECT_EQ(0, res.piped);
	SEEK(H_RW, cap - 10, SEEK_SET);
	res = RUN(.kind = OP_SENDFILE_IN, .h = H_RW, .off = -1, SEGS(A(0, 300 * KIB)));
	EXPECT_RES(res, 10, 0);
	EXPECT_EQ(cap, res.pos);
	res = RUN(.kind = OP_SENDFILE_IN, .h = H_RW, .off = 0, SEGS(A(0, 10)));
	EXPECT_RES(res, -1, ENOSPC);
	EXPECT_EQ(0, res.offp);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_RW, .off = cap - 5, SEGS(A(0, 10))),
		   5, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITEV, .h = H_RW, .off = -1, SEGS(A(0, 10), A(20, 5))),
		   -1, ENOSPC);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE_FIXED, .h = H_RW, .off = cap - PAGE - 1,
		       SEGS(A(3, 2 * PAGE))), PAGE + 1, 0);
	EXPECT_RES(RUN(.kind = OP_URING_WRITE, .h = H_APPEND, .off = -1, .async = true,
		       SEGS(A(0, 10))), -1, ENOSPC);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITE, .h = H_RW, .off = cap - 1, SEGS(A(0, 10))), 1, 0);
	EXPECT_RES(RUN(.kind = OP_AIO_PWRITEV, .h = H_APPEND, .off = 0, SEGS(A(0, 10))),
		   -1, ENOSPC);
	ASSERT_TRUE(check_all(r));
}

/*
 * Concurrency: writers (threads and processes) hammer every device with
 * records: fixed-size records into shared slots with pwritev(), and
 * variable-size records appended with writev() on O_APPEND opens, while
 * a reader checks that every record it sees is whole. At the end each
 * slot must hold the last record some writer put there, and the appended
 * records must be all there, whole, each writer's in its own order: a
 * state some serial order of the writes produces.
 *
 * The workers are pinned round-robin to CPUs 0 and 1 and count themselves
 * in and out of every request; a round fails unless, on each device, a
 * worker entered a request while one on the other CPU was inside one. That
 * is counted in user space around the system call, so it is evidence that
 * the requests really ran in parallel (on a 1-CPU guest, or with requests
 * serialised above the driver, the test would otherwise pass without
 * testing concurrency at all), not proof: smp_hold_and_wait is the proof.
 */
#define CW_THREADS	2
#define CW_PROCS	2
#define CW_WRITERS	(CW_THREADS + CW_PROCS)
#define CW_OPS		1000
#define CW_SLOTS	8
#define CW_SLOT_LEN	(2 * PAGE + 777)
#define CW_SLOT_BASE	4097
#define CW_APP_BASE	(CW_SLOT_BASE + CW_SLOTS * CW_SLOT_LEN)
#define CW_APP_MAX	700
#define CW_MAGIC	0x10ca7ed0
#define CW_CPUS		2
#define CW_READER_CPU	0

struct rec {
	unsigned int magic;
	unsigned short writer;
	unsigned short slot;
	unsigned int seq;
	unsigned int len;
};

struct cw_shared {
	int ndev;
	const char *path[MAX_DEVICES];
	int shared_fd[MAX_DEVICES];
	int shared_app_fd[MAX_DEVICES];
	int stop;
	int errors;
	char error[256];
	unsigned int last_seq[MAX_DEVICES][CW_WRITERS][CW_SLOTS];
	unsigned int appended[MAX_DEVICES][CW_WRITERS];
	unsigned long eagain;
	unsigned long reads;
	/* Requests in flight per device and CPU, all counted in and out. */
	int inside[MAX_DEVICES][CW_CPUS];
	unsigned long entries[MAX_DEVICES], exits[MAX_DEVICES];
	/* Entries that found a request of the other CPU inside. */
	unsigned long overlaps[MAX_DEVICES];
};

/* Run the calling thread on @cpu only, and be there when this returns. */
static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	if (sched_getcpu() != cpu) {
		errno = EXDEV;
		return -1;
	}
	return 0;
}

/*
 * Sequentially consistent, so of two requests on different CPUs that
 * overlap, at least the later one to enter sees the other inside.
 */
static void cw_enter(struct cw_shared *sh, int d, int cpu)
{
	__atomic_add_fetch(&sh->inside[d][cpu], 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&sh->entries[d], 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&sh->inside[d][!cpu], __ATOMIC_SEQ_CST))
		__atomic_add_fetch(&sh->overlaps[d], 1, __ATOMIC_RELAXED);
}

static void cw_exit(struct cw_shared *sh, int d, int cpu)
{
	__atomic_add_fetch(&sh->exits[d], 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&sh->inside[d][cpu], 1, __ATOMIC_SEQ_CST);
}

/*
 * A record: its header, a body of one byte value particular to it, and
 * the header again at the end. Cheap to make, so writers collide often.
 */
static unsigned char rec_fill(const struct rec *h)
{
	return (h->writer * 131 + h->seq * 31 + h->slot * 7) | 1;
}

static void rec_make(unsigned char *buf, unsigned short writer, unsigned short slot,
		     unsigned int seq, unsigned int len)
{
	struct rec h = { CW_MAGIC, writer, slot, seq, len };

	memcpy(buf, &h, sizeof(h));
	memset(buf + sizeof(h), rec_fill(&h), len - 2 * sizeof(h));
	memcpy(buf + len - sizeof(h), &h, sizeof(h));
}

/* 0 if @buf holds a whole record for @slot (or of any length if -1). */
static int rec_check(const unsigned char *buf, size_t avail, int slot, struct rec *out)
{
	struct rec h;
	size_t i;

	if (avail < sizeof(h))
		return -1;
	memcpy(&h, buf, sizeof(h));
	if (h.magic != CW_MAGIC || h.len < 2 * sizeof(h) || h.len > avail ||
	    (slot >= 0 && (h.slot != slot || h.len != CW_SLOT_LEN)) ||
	    memcmp(buf + h.len - sizeof(h), &h, sizeof(h)))
		return -1;
	for (i = sizeof(h); i < h.len - sizeof(h); i++)
		if (buf[i] != rec_fill(&h))
			return -1;
	*out = h;
	return 0;
}

static __printf(2, 3) void cw_error(struct cw_shared *sh, const char *fmt, ...)
{
	va_list ap;

	if (__sync_fetch_and_add(&sh->errors, 1))
		return;
	va_start(ap, fmt);
	vsnprintf(sh->error, sizeof(sh->error), fmt, ap);
	va_end(ap);
}

/* Write @len bytes of @buf in a few random pieces. */
static int split_iov(struct iovec *iov, unsigned char *buf, size_t len, unsigned long long *g)
{
	int n = 0;

	while (len && n < 7) {
		size_t part = n >= 5 ? len : 1 + rng_below(g, len);

		iov[n++] = (struct iovec){ buf, part };
		if (!rng_below(g, 4))
			iov[n++] = (struct iovec){ buf, 0 };
		buf += part;
		len -= part;
	}
	return n;
}

struct cw_worker {
	struct cw_shared *sh;
	int id;
	bool own_fds;
	int cpu;
};

static void *cw_writer(void *arg)
{
	static __thread unsigned char buf[CW_SLOT_LEN + CW_APP_MAX];
	struct cw_worker *w = arg;
	struct cw_shared *sh = w->sh;
	int fd[MAX_DEVICES], app_fd[MAX_DEVICES], d, i;
	unsigned long long g = 0xc0ffee + w->id;
	struct iovec iov[16];

	if (pin_to_cpu(w->cpu)) {
		cw_error(sh, "writer %d: cannot run on CPU %d: %s", w->id, w->cpu,
			 strerror(errno));
		return NULL;
	}
	for (d = 0; d < sh->ndev; d++) {
		fd[d] = w->own_fds ? open(sh->path[d], O_RDWR) : sh->shared_fd[d];
		app_fd[d] = w->own_fds ? open(sh->path[d], O_RDWR | O_APPEND) :
			sh->shared_app_fd[d];
		if (fd[d] < 0 || app_fd[d] < 0) {
			cw_error(sh, "writer %d: open %s: %s", w->id, sh->path[d],
				 strerror(errno));
			return NULL;
		}
	}
	for (i = 1; i <= CW_OPS && !__atomic_load_n(&sh->errors, __ATOMIC_RELAXED); i++) {
		unsigned int seq = i;
		ssize_t ret;
		size_t len;
		int n;

		d = rng_below(&g, sh->ndev);
		if (rng_below(&g, 2)) {
			unsigned short slot = rng_below(&g, CW_SLOTS);
			bool nowait = !rng_below(&g, 4);

			rec_make(buf, w->id, slot, seq, CW_SLOT_LEN);
			n = split_iov(iov, buf, CW_SLOT_LEN, &g);
			cw_enter(sh, d, w->cpu);
			ret = pwritev2(fd[d], iov, n, CW_SLOT_BASE + slot * CW_SLOT_LEN,
				       nowait ? RWF_NOWAIT : 0);
			cw_exit(sh, d, w->cpu);
			if (ret == -1 && errno == EAGAIN && nowait) {
				__sync_fetch_and_add(&sh->eagain, 1);
				continue;
			}
			if (ret != CW_SLOT_LEN) {
				cw_error(sh, "writer %d: pwritev2 slot %d on %s: %zd (%s)",
					 w->id, slot, sh->path[d], ret, strerror(errno));
				break;
			}
			sh->last_seq[d][w->id][slot] = seq;
		} else {
			len = 2 * sizeof(struct rec) +
			      rng_below(&g, CW_APP_MAX - 2 * sizeof(struct rec));
			rec_make(buf, w->id, 0xffff, seq, len);
			n = split_iov(iov, buf, len, &g);
			cw_enter(sh, d, w->cpu);
			ret = writev(app_fd[d], iov, n);
			cw_exit(sh, d, w->cpu);
			if (ret != (ssize_t)len) {
				cw_error(sh, "writer %d: append of %zu on %s: %zd (%s)",
					 w->id, len, sh->path[d], ret, strerror(errno));
				break;
			}
			sh->appended[d][w->id]++;
		}
	}
	if (w->own_fds)
		for (d = 0; d < sh->ndev; d++) {
			close(fd[d]);
			close(app_fd[d]);
		}
	return NULL;
}

static void *cw_reader(void *arg)
{
	struct cw_shared *sh = arg;
	static unsigned char buf[256 * KIB];
	unsigned long long g = 0x5eed;
	int fd[MAX_DEVICES], d;

	if (pin_to_cpu(CW_READER_CPU)) {
		cw_error(sh, "reader: cannot run on CPU %d: %s", CW_READER_CPU,
			 strerror(errno));
		return NULL;
	}
	for (d = 0; d < sh->ndev; d++) {
		fd[d] = open(sh->path[d], O_RDONLY);
		if (fd[d] < 0) {
			cw_error(sh, "reader: open %s: %s", sh->path[d], strerror(errno));
			return NULL;
		}
	}
	while (!__atomic_load_n(&sh->stop, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&sh->errors, __ATOMIC_RELAXED)) {
		struct rec h;
		ssize_t ret;
		size_t at;

		d = rng_below(&g, sh->ndev);
		if (rng_below(&g, 2)) {
			int slot = rng_below(&g, CW_SLOTS);

			cw_enter(sh, d, CW_READER_CPU);
			ret = pread(fd[d], buf, CW_SLOT_LEN, CW_SLOT_BASE + slot * CW_SLOT_LEN);
			cw_exit(sh, d, CW_READER_CPU);
			if (ret != CW_SLOT_LEN || rec_check(buf, ret, slot, &h))
				cw_error(sh, "reader: slot %d on %s torn or short (%zd)",
					 slot, sh->path[d], ret);
		} else {
			/* Up to the size, the appended area holds whole records. */
			cw_enter(sh, d, CW_READER_CPU);
			ret = pread(fd[d], buf, sizeof(buf), CW_APP_BASE);
			cw_exit(sh, d, CW_READER_CPU);
			for (at = 0; ret > 0 && at < (size_t)ret; at += h.len)
				if (rec_check(buf + at, ret - at, -1, &h))
					break;
			/* Only a record cut by the end of buf may be incomplete. */
			if (ret < 0 || (at < (size_t)ret &&
					(ret < (ssize_t)sizeof(buf) || ret - at >= CW_APP_MAX)))
				cw_error(sh, "reader: appended record torn at %zu on %s",
					 CW_APP_BASE + at, sh->path[d]);
		}
		__sync_fetch_and_add(&sh->reads, 1);
	}
	for (d = 0; d < sh->ndev; d++)
		close(fd[d]);
	return NULL;
}

/* The writer processes of the running concurrency test, for on_alarm(). */
static pid_t cw_pids[CW_PROCS];

/*
 * Kill the writer processes and end the test (its threads go with it),
 * but not the process group: that holds the harness and, in the guest,
 * /init's result collection.
 */
static void on_alarm(int sig)
{
	static const char msg[] = "# concurrency: no progress for too long: deadlock?\n";
	int i;

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(KSFT_FAIL);
	for (i = 0; i < CW_PROCS; i++)
		if (cw_pids[i] > 0)
			kill(cw_pids[i], SIGKILL);
	_exit(KSFT_FAIL);
}

/* The final state: each slot's last record, all appends, in order. */
static void cw_verify(struct __test_metadata *_metadata, struct cw_shared *sh, int d,
		      struct rig *r)
{
	long long size = lseek(r->dev[d].probe, 0, SEEK_END), at;
	unsigned char *buf = malloc(size > 0 ? size : 1);
	unsigned int seen[CW_WRITERS] = { 0 }, count[CW_WRITERS] = { 0 };
	struct rec h;
	int s, w;

	ASSERT_NE(NULL, buf);
	ASSERT_EQ(size, pread(r->dev[d].probe, buf, size, 0));
	for (s = 0; s < CW_SLOTS; s++) {
		ASSERT_EQ(0, rec_check(buf + CW_SLOT_BASE + s * CW_SLOT_LEN, CW_SLOT_LEN, s, &h))
			note("%s: slot %d torn", sh->path[d], s);
		if (h.writer == 0xffff) {
			for (w = 0; w < CW_WRITERS; w++)
				ASSERT_EQ(0, sh->last_seq[d][w][s]);
			continue;
		}
		ASSERT_LT(h.writer, CW_WRITERS);
		/* Any later write by the same writer must have replaced it. */
		ASSERT_EQ(sh->last_seq[d][h.writer][s], h.seq)
			note("%s: slot %d holds writer %u seq %u, its last was %u",
			     sh->path[d], s, h.writer, h.seq, sh->last_seq[d][h.writer][s]);
	}
	for (at = CW_APP_BASE; at < size; at += h.len) {
		ASSERT_EQ(0, rec_check(buf + at, size - at, -1, &h))
			note("%s: appended record at %lld torn", sh->path[d], at);
		ASSERT_LT(h.writer, CW_WRITERS);
		ASSERT_LT(seen[h.writer], h.seq)
			note("%s: writer %u's appends out of order", sh->path[d], h.writer);
		seen[h.writer] = h.seq;
		count[h.writer]++;
	}
	for (w = 0; w < CW_WRITERS; w++)
		EXPECT_EQ(sh->appended[d][w], count[w]);
	free(buf);
}

/* One round of the concurrency test, from emptied devices. */
static void cw_round(struct __test_metadata *_metadata, struct rig *r)
{
	struct cw_shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct cw_worker workers[CW_WRITERS];
	pthread_t threads[CW_THREADS], reader;
	unsigned char rec[CW_SLOT_LEN];
	pid_t pids[CW_PROCS];
	int d, i, s, status;

	ASSERT_NE(MAP_FAILED, sh);
	ASSERT_LT((long long)CW_APP_BASE + CW_WRITERS * CW_OPS * CW_APP_MAX, r->cap)
		note("the concurrency test needs a larger capacity");
	sh->ndev = r->ndev;
	for (d = 0; d < sh->ndev; d++) {
		sh->path[d] = r->dev[d].path;
		sh->shared_fd[d] = open(sh->path[d], O_RDWR | O_TRUNC);
		sh->shared_app_fd[d] = open(sh->path[d], O_RDWR | O_APPEND);
		ASSERT_LE(0, sh->shared_fd[d]);
		ASSERT_LE(0, sh->shared_app_fd[d]);
		for (s = 0; s < CW_SLOTS; s++) {
			rec_make(rec, 0xffff, s, 0, CW_SLOT_LEN);
			ASSERT_EQ(CW_SLOT_LEN, pwrite(sh->shared_fd[d], rec, CW_SLOT_LEN,
						      CW_SLOT_BASE + s * CW_SLOT_LEN));
		}
	}
	signal(SIGALRM, on_alarm);
	alarm(240);
	ASSERT_EQ(0, pthread_create(&reader, NULL, cw_reader, sh));
	/* Round-robin over the CPUs, the reader's first: each runs a process and a thread. */
	for (i = 0; i < CW_PROCS; i++) {
		workers[i] = (struct cw_worker){ sh, i, true, (i + 1) % CW_CPUS };
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			cw_writer(&workers[i]);
			_exit(0);
		}
		cw_pids[i] = pids[i];
	}
	for (i = 0; i < CW_THREADS; i++) {
		workers[CW_PROCS + i] = (struct cw_worker){ sh, CW_PROCS + i, false,
							    (CW_PROCS + i + 1) % CW_CPUS };
		ASSERT_EQ(0, pthread_create(&threads[i], NULL, cw_writer,
					    &workers[CW_PROCS + i]));
	}
	for (i = 0; i < CW_THREADS; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < CW_PROCS; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
	pthread_join(reader, NULL);
	alarm(0);
	note("concurrency: %lu reads checked, %lu RWF_NOWAIT writes got EAGAIN",
	     sh->reads, sh->eagain);
	ASSERT_EQ(0, sh->errors)
		note("%s", sh->error);
	for (d = 0; d < sh->ndev; d++) {
		note("concurrency: %s: %lu requests, %lu entered with the other CPU's inside",
		     sh->path[d], sh->entries[d], sh->overlaps[d]);
		EXPECT_EQ(sh->entries[d], sh->exits[d]);
		EXPECT_LT(0, sh->overlaps[d])
			note("%s: no two requests on different CPUs ever overlapped",
			     sh->path[d]);
		cw_verify(_metadata, sh, d, r);
		close(sh->shared_fd[d]);
		close(sh->shared_app_fd[d]);
	}
	munmap(sh, sizeof(*sh));
}

/* IOV_CW_ROUNDS rounds (default 1), for a soak on a debug kernel. */
TEST_F_TIMEOUT(ramfile, concurrency, 300)
{
	const char *env = getenv("IOV_CW_ROUNDS");
	int rounds = env ? atoi(env) : 1, i;

	ASSERT_LT(0, rounds);
	for (i = 1; i <= rounds; i++) {
		cw_round(_metadata, &self->r);
		if (rounds > 1)
			note("concurrency: round %d of %d: %d writers x %d requests, 1 reader",
			     i, rounds, CW_WRITERS, CW_OPS);
	}
}

/*
 * Requests held at a known point. A write whose source buffer faults into
 * a userfaultfd stops inside the driver's write_iter, with the device lock
 * held, until the test fills the page (UFFDIO_COPY): the tests below park
 * a request there and look at what others do meanwhile, without timing.
 * Only states the kernel does not signal (a task asleep on the lock) are
 * polled for in /proc, with a bound far beyond what they take; the bound
 * decides nothing when the code is right.
 */
#define HOLD_WAIT_MS	30000

/*
 * @len bytes of anonymous memory registered for missing-page faults; the
 * first @present bytes (whole pages) are there already, the rest faults
 * until uffd_hold_release() copies @rest in.
 */
struct uffd_hold {
	int uffd;
	unsigned char *buf;
	size_t len;
	size_t present;
	const unsigned char *rest;
};

static int uffd_hold_init(struct uffd_hold *u, const unsigned char *data, size_t present,
			  size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	u->uffd = -1;
	u->len = len;
	u->present = present;
	u->rest = data + present;
	u->buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->buf == MAP_FAILED)
		return -1;
	/* Populated before registration: these pages never fault. */
	memcpy(u->buf, data, present);
	u->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (u->uffd < 0 || ioctl(u->uffd, UFFDIO_API, &api))
		return -1;
	reg.range.start = (unsigned long)u->buf;
	reg.range.len = len;
	if (ioctl(u->uffd, UFFDIO_REGISTER, &reg))
		return -1;
	if (!(reg.ioctls & (1ULL << _UFFDIO_COPY))) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return 0;
}

/* Wait for a fault on the hold: the address that faulted, or 0 if none came. */
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

/* Fill the missing pages, which wakes the faulting request. */
static int uffd_hold_release(struct uffd_hold *u)
{
	struct uffdio_copy copy = {
		.dst = (unsigned long)u->buf + u->present,
		.src = (unsigned long)u->rest,
		.len = u->len - u->present,
	};

	return ioctl(u->uffd, UFFDIO_COPY, &copy) ? -1 : 0;
}

static void uffd_hold_destroy(struct uffd_hold *u)
{
	if (u->uffd >= 0)
		close(u->uffd);
	if (u->buf != MAP_FAILED)
		munmap(u->buf, u->len);
}

/*
 * One request, made by a thread or a forked child of its own so that the
 * test can watch it block: pwritev2()/preadv2() at @off with @flags, or
 * write()/read() for off -1 without flags. In memory shared with the
 * child when it is one.
 */
struct req {
	int fd;
	bool write;
	void *buf;
	size_t len;
	long long off;
	int flags;
	int cpu;		/* pinned there, or -1 */
	pid_t pid;		/* the process it runs in */
	pid_t tid;		/* set once it runs */
	int ran_on;		/* its CPU just before the request */
	ssize_t ret;
	int err;
	int done;
	pthread_t thread;
};

static void *req_run(void *arg)
{
	struct req *q = arg;
	struct iovec v = { q->buf, q->len };
	ssize_t ret = -1;

	__atomic_store_n(&q->tid, gettid(), __ATOMIC_RELEASE);
	if (q->cpu < 0 || !pin_to_cpu(q->cpu)) {
		q->ran_on = sched_getcpu();
		if (q->off == -1 && !q->flags)
			ret = q->write ? write(q->fd, q->buf, q->len) : read(q->fd, q->buf, q->len);
		else if (q->write)
			ret = pwritev2(q->fd, &v, 1, q->off, q->flags);
		else
			ret = preadv2(q->fd, &v, 1, q->off, q->flags);
	}
	q->err = ret < 0 ? errno : 0;
	q->ret = ret;
	__atomic_store_n(&q->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int req_start(struct req *q)
{
	q->pid = getpid();
	return pthread_create(&q->thread, NULL, req_run, q);
}

/* In a child process that dies with the test; @q must be in shared memory. */
static pid_t req_fork(struct req *q)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return q->pid = pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	req_run(q);
	_exit(0);
}

static bool req_done(struct req *q)
{
	return __atomic_load_n(&q->done, __ATOMIC_ACQUIRE);
}

/* What /proc says about a task. */
struct task_view {
	char state;
	int cpu;
	char wchan[256];
	char stack[8192];
	bool have_wchan, have_stack;
};

static ssize_t proc_read(pid_t pid, pid_t tid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", pid, tid, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* The state and the last CPU, from /proc/PID/task/TID/stat. */
static bool task_stat(pid_t pid, pid_t tid, struct task_view *v)
{
	char stat[1024], *p;
	int field;

	if (proc_read(pid, tid, "stat", stat, sizeof(stat)) <= 0)
		return false;
	/* Field 3 (state) follows the comm in parentheses; 39 is the CPU. */
	p = strrchr(stat, ')');
	if (!p || sscanf(p + 2, "%c", &v->state) != 1)
		return false;
	for (field = 2; field < 39 && p; field++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p + 1, "%d", &v->cpu) == 1;
}

static bool task_view(pid_t pid, pid_t tid, struct task_view *v)
{
	if (!task_stat(pid, tid, v))
		return false;
	v->have_wchan = proc_read(pid, tid, "wchan", v->wchan, sizeof(v->wchan)) > 0;
	if (!v->have_wchan)
		snprintf(v->wchan, sizeof(v->wchan), "?");
	/* CONFIG_STACKTRACE and root: the frames; without, wchan or nothing. */
	v->have_stack = proc_read(pid, tid, "stack", v->stack, sizeof(v->stack)) > 0;
	return true;
}

/*
 * Is the task asleep in one of @states, in the function @where, with @also
 * further out? Both /proc/PID/wchan and the first line of /proc/PID/stack
 * name the innermost function that is not the scheduler's (they skip the
 * __sched functions: mutex_lock_killable() and schedule() among them), so
 * a task asleep on the device lock shows the driver's read_iter or
 * write_iter there. wchan is "0" until the task is off the run queue.
 */
static bool task_asleep_in(pid_t pid, pid_t tid, const char *states, const char *where,
			   const char *also, struct task_view *v)
{
	char first[256];

	/* The state first: it is cheap, and most polls end there. */
	if (!tid || !task_stat(pid, tid, v) || !strchr(states, v->state) ||
	    !task_view(pid, tid, v) || !strchr(states, v->state))
		return false;
	if (v->have_wchan)
		snprintf(first, sizeof(first), "%s", v->wchan);
	else if (v->have_stack)
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(v->stack, "\n"), v->stack);
	else
		return true;
	return strstr(first, where) && (!v->have_stack || strstr(v->stack, also));
}

/* A request parked in the userfaultfd fault, inside write_iter. */
static bool req_parked(struct req *q, struct task_view *v)
{
	return !req_done(q) &&
	       task_asleep_in(q->pid, q->tid, "SD", "handle_userfault", "write_iter", v);
}

/* A request asleep on the device lock: in D (as killable waits are), in read_iter or write_iter. */
static bool req_waits_on_lock(struct req *q, struct task_view *v)
{
	const char *fn = q->write ? "write_iter" : "read_iter";

	return !req_done(q) && task_asleep_in(q->pid, q->tid, "D", fn, fn, v);
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Poll for a state the kernel reaches at once but does not signal. */
#define WAIT_FOR(cond) ({						\
	long long __end = now_ms() + HOLD_WAIT_MS;			\
	bool __ok;							\
	while (!(__ok = (cond)) && now_ms() < __end)			\
		usleep(1000);						\
	__ok;								\
})

enum settled { SETTLED_DONE, SETTLED_WAITING, SETTLED_NEITHER };

/* Wait until a request has returned or sleeps on the device lock. */
static enum settled req_settle(struct req *q, struct task_view *v)
{
	if (!WAIT_FOR(req_done(q) || req_waits_on_lock(q, v)))
		return SETTLED_NEITHER;
	return req_done(q) ? SETTLED_DONE : SETTLED_WAITING;
}

static void show(const char *who, struct req *q, const struct task_view *v)
{
	char frames[512] = "", *p = frames;
	const char *line = v->stack;
	int i;

	/* The innermost frames, enough to see where it sleeps. */
	for (i = 0; i < 5 && v->have_stack && *line; i++) {
		const char *name = strchr(line, ' '), *end = strchr(line, '\n');

		if (!name || !end)
			break;
		p += snprintf(p, frames + sizeof(frames) - p, "%s%.*s", i ? " < " : "",
			      (int)(end - name - 1 > 48 ? 48 : end - name - 1), name + 1);
		line = end + 1;
		if (p >= frames + sizeof(frames) - 1)
			break;
	}
	note("  %s: task %d state %c cpu %d wchan %s%s%s", who, q->tid, v->state, v->cpu,
	     v->wchan, v->have_stack ? "; stack " : "", frames);
}

static void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	/* Seeds 1 to 4 give patterns that differ in every byte. */
	for (i = 0; i < len; i++)
		p[i] = i * 7 + (i >> 9) + seed * 0x35;
}

/*
 * The scene of the tests below: the device holds OLD (4 pages); a holder
 * writes NEW (2 pages) at offset 0 from a hold whose second page is
 * missing, so it stops with the lock held after storing NEW's first page,
 * and size unchanged. Once released, the device holds NEW then the rest of
 * OLD.
 */
#define OLD_LEN		(4 * PAGE)
#define NEW_LEN		(2 * PAGE)

struct scene {
	const char *path;
	int fd;
	unsigned char old[OLD_LEN], new[NEW_LEN];
	struct uffd_hold u;
	struct req holder;
	bool released;
};

static void scene_start(struct __test_metadata *_metadata, struct scene *s, const char *path,
			int holder_cpu)
{
	struct task_view v = { 0 };

	s->path = path;
	s->u.uffd = -1;
	s->u.buf = MAP_FAILED;
	s->released = false;
	pattern(s->old, OLD_LEN, 1);
	pattern(s->new, NEW_LEN, 2);
	s->fd = open(path, O_RDWR | O_TRUNC);
	ASSERT_LE(0, s->fd);
	ASSERT_EQ((ssize_t)OLD_LEN, pwrite(s->fd, s->old, OLD_LEN, 0));
	ASSERT_EQ(0, uffd_hold_init(&s->u, s->new, PAGE, NEW_LEN))
		note("userfaultfd: %s", strerror(errno));
	s->holder = (struct req){ .fd = s->fd, .write = true, .buf = s->u.buf,
				  .len = NEW_LEN, .off = 0, .cpu = holder_cpu };
	ASSERT_EQ(0, req_start(&s->holder));
	ASSERT_EQ((unsigned long)s->u.buf + PAGE, uffd_hold_wait(&s->u))
		note("%s: the holder's write did not fault on its second page", path);
	ASSERT_TRUE(WAIT_FOR(req_parked(&s->holder, &v)))
		note("%s: the holder is not asleep in the fault inside write_iter", path);
}

/* Let the holder finish: it must have written all of NEW. */
static void scene_release(struct __test_metadata *_metadata, struct scene *s)
{
	ASSERT_EQ(0, uffd_hold_release(&s->u))
		note("UFFDIO_COPY: %s", strerror(errno));
	s->released = true;
	pthread_join(s->holder.thread, NULL);
	EXPECT_EQ((ssize_t)NEW_LEN, s->holder.ret)
		note("%s: the held write returned %zd (%s)", s->path, s->holder.ret,
		     strerror(s->holder.err));
}

/* The device's contents and size: NEW, then OLD, with @len bytes of @at. */
static void scene_check(struct __test_metadata *_metadata, struct scene *s,
			const unsigned char *at, size_t len, size_t off)
{
	unsigned char want[OLD_LEN], got[OLD_LEN + PAGE];

	memcpy(want, s->old, OLD_LEN);
	memcpy(want, s->new, NEW_LEN);
	if (len)
		memcpy(want + off, at, len);
	EXPECT_EQ((ssize_t)OLD_LEN, pread(s->fd, got, sizeof(got), 0));
	EXPECT_EQ(0, memcmp(want, got, OLD_LEN))
		note("%s: the device does not hold what it should", s->path);
}

static void scene_end(struct scene *s)
{
	if (!s->released && !uffd_hold_release(&s->u))
		pthread_join(s->holder.thread, NULL);
	uffd_hold_destroy(&s->u);
	close(s->fd);
}

/*
 * RWF_NOWAIT under contention, held: with the holder parked inside
 * write_iter (lock held, NEW's first page stored), RWF_NOWAIT reads and
 * writes on another open, positional, at the file position and appending,
 * must fail with EAGAIN and change nothing: user buffer, file position,
 * the device's contents and size (checked once the holder is done). A
 * blocking read meanwhile must sleep on the lock inside read_iter, and
 * return all of NEW once the holder is released; then RWF_NOWAIT succeeds.
 * Would catch: IOCB_NOWAIT ignored (that request is seen asleep on the
 * lock instead of returning), a trylock that succeeds against a holder or
 * a read that takes no lock (it returns a half-written NEW, or OLD), EAGAIN
 * after moving the position or copying data, a blocking read that does
 * not wait for the write, and EAGAIN on an idle device. The busy-writer loop
 * this replaces could only hope to hit the lock held.
 */
TEST_F_TIMEOUT(ramfile, nowait_contention, 120)
{
	struct rig *r = &self->r;
	int d, i;

	for (d = 0; d < r->ndev; d++) {
		static const int wflags[] = { RWF_NOWAIT, RWF_NOWAIT, RWF_NOWAIT | RWF_APPEND };
		static const long long woff[] = { 3 * PAGE, -1, 0 };
		unsigned char sentinel[PAGE], rbuf[PAGE], other[PAGE], got[NEW_LEN];
		struct req nowait[5], blocking;
		enum settled settled[5];
		struct task_view v = { 0 };
		struct scene s;
		int fd2;

		note("%s:", r->dev[d].path);
		scene_start(_metadata, &s, r->dev[d].path, -1);
		fd2 = open(s.path, O_RDWR);
		ASSERT_LE(0, fd2);
		ASSERT_EQ(100, lseek(fd2, 100, SEEK_SET));
		memset(sentinel, 0xee, PAGE);
		memset(rbuf, 0xee, PAGE);
		pattern(other, PAGE, 3);
		for (i = 0; i < 5; i++) {
			nowait[i] = (struct req){ .fd = fd2, .write = i >= 2, .len = PAGE,
						  .buf = i >= 2 ? other : rbuf,
						  .off = i >= 2 ? woff[i - 2] : i ? -1 : 0,
						  .flags = i >= 2 ? wflags[i - 2] : RWF_NOWAIT,
						  .cpu = -1 };
			ASSERT_EQ(0, req_start(&nowait[i]));
			settled[i] = req_settle(&nowait[i], &v);
			EXPECT_EQ(SETTLED_DONE, settled[i]) {
				note("%s: RWF_NOWAIT %s %d did not return", s.path,
				     nowait[i].write ? "write" : "read", i);
				show("RWF_NOWAIT request", &nowait[i], &v);
			}
			/* Joined once the holder is gone. */
			if (settled[i] != SETTLED_DONE)
				continue;
			pthread_join(nowait[i].thread, NULL);
			EXPECT_EQ(-1, nowait[i].ret);
			EXPECT_EQ(EAGAIN, nowait[i].err)
				note("%s: RWF_NOWAIT %s %d: %zd (%s)", s.path,
				     nowait[i].write ? "write" : "read", i, nowait[i].ret,
				     strerror(nowait[i].err));
			EXPECT_EQ(0, memcmp(rbuf, sentinel, PAGE));
			EXPECT_EQ(100, lseek(fd2, 0, SEEK_CUR));
		}
		/* Blocking: waits for the lock, inside the device. */
		blocking = (struct req){ .fd = fd2, .buf = got, .len = NEW_LEN, .off = 0,
					 .cpu = -1 };
		ASSERT_EQ(0, req_start(&blocking));
		EXPECT_EQ(SETTLED_WAITING, req_settle(&blocking, &v))
			note("%s: a blocking read did not wait for the held lock", s.path);
		show("blocking read", &blocking, &v);
		EXPECT_TRUE(req_parked(&s.holder, &v));
		show("holder", &s.holder, &v);
		scene_release(_metadata, &s);
		pthread_join(blocking.thread, NULL);
		EXPECT_EQ((ssize_t)NEW_LEN, blocking.ret);
		EXPECT_EQ(0, memcmp(got, s.new, NEW_LEN))
			note("%s: the blocking read did not return the whole write", s.path);
		for (i = 0; i < 5; i++)
			if (settled[i] != SETTLED_DONE)
				pthread_join(nowait[i].thread, NULL);
		/* Nothing of the RWF_NOWAIT writes landed, the size is OLD's. */
		scene_check(_metadata, &s, NULL, 0, 0);
		EXPECT_EQ(100, lseek(fd2, 0, SEEK_CUR));

		/* Idle: RWF_NOWAIT goes through. */
		req_run(&nowait[0]);
		EXPECT_EQ((ssize_t)PAGE, nowait[0].ret);
		EXPECT_EQ(0, memcmp(rbuf, s.new, PAGE));
		req_run(&nowait[2]);
		EXPECT_EQ((ssize_t)PAGE, nowait[2].ret);
		scene_check(_metadata, &s, other, PAGE, 3 * PAGE);
		close(fd2);
		scene_end(&s);
	}
}

/* Wait for a killed child to die and reap it; false if it still lives after the bound. */
static bool reaped(pid_t pid, int *status)
{
	struct pollfd p = { .fd = syscall(SYS_pidfd_open, pid, 0), .events = POLLIN };
	bool dead = p.fd >= 0 && poll(&p, 1, HOLD_WAIT_MS) == 1;

	if (p.fd >= 0)
		close(p.fd);
	return dead && waitpid(pid, status, 0) == pid;
}

struct kill_shared {
	struct req q[3];
	unsigned char kread[NEW_LEN];
	unsigned char kwrite[PAGE];
	unsigned char got[3 * PAGE];
};

/*
 * Killable waits: with the holder parked inside write_iter, a child's
 * read() and another child's write() sleep on the device lock; SIGKILLed,
 * both must die while the holder is STILL parked (with mutex_lock() they
 * would sleep on, uninterruptibly, until the holder is released). A third
 * child, a reader queued behind them and not killed, must then get all of
 * NEW once the holder is released; the held write completes in full and
 * the killed write stored nothing.
 * Would catch: an uninterruptible wait for the lock in read_iter or
 * write_iter (a task stuck behind a userfaultfd or FUSE buffer could not
 * be killed), a killed waiter that still makes its request, and a killed
 * waiter that takes the lock hand-over with it, leaving the reader behind
 * it asleep.
 */
TEST_F_TIMEOUT(ramfile, killable_wait, 180)
{
	static const char *const what[] = { "read()", "write()", "reader" };
	struct rig *r = &self->r;
	int d, i;

	for (d = 0; d < r->ndev; d++) {
		struct kill_shared *k = mmap(NULL, sizeof(*k), PROT_READ | PROT_WRITE,
					     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		unsigned char want[3 * PAGE];
		int fds[3], status[3];
		struct task_view v = { 0 };
		bool died[2];
		struct scene s;

		ASSERT_NE(MAP_FAILED, k);
		note("%s:", r->dev[d].path);
		scene_start(_metadata, &s, r->dev[d].path, -1);
		for (i = 0; i < 3; i++) {
			fds[i] = open(s.path, O_RDWR);
			ASSERT_LE(0, fds[i]);
		}
		ASSERT_EQ(2 * PAGE, lseek(fds[1], 2 * PAGE, SEEK_SET));
		pattern(k->kwrite, PAGE, 4);
		k->q[0] = (struct req){ .fd = fds[0], .buf = k->kread, .len = NEW_LEN,
					.off = -1, .cpu = -1 };
		k->q[1] = (struct req){ .fd = fds[1], .write = true, .buf = k->kwrite,
					.len = PAGE, .off = -1, .cpu = -1 };
		k->q[2] = (struct req){ .fd = fds[2], .buf = k->got, .len = 3 * PAGE,
					.off = 0, .cpu = -1 };
		/* In this order in the lock's queue: the reader comes last. */
		for (i = 0; i < 3; i++) {
			ASSERT_LT(0, req_fork(&k->q[i]));
			EXPECT_EQ(SETTLED_WAITING, req_settle(&k->q[i], &v))
				note("%s: the %s does not wait on the lock", s.path, what[i]);
			show(what[i], &k->q[i], &v);
		}
		for (i = 0; i < 2; i++)
			ASSERT_EQ(0, kill(k->q[i].pid, SIGKILL));
		for (i = 0; i < 2; i++) {
			died[i] = reaped(k->q[i].pid, &status[i]);
			EXPECT_TRUE(died[i]) {
				note("%s: the %s lives on after SIGKILL", s.path, what[i]);
				if (task_view(k->q[i].pid, k->q[i].tid, &v))
					show(what[i], &k->q[i], &v);
			}
			if (!died[i])
				continue;
			EXPECT_TRUE(WIFSIGNALED(status[i]) && WTERMSIG(status[i]) == SIGKILL);
			EXPECT_FALSE(req_done(&k->q[i]));
		}
		/* All that while: the holder parked, the reader waiting. */
		EXPECT_TRUE(req_parked(&s.holder, &v))
			note("%s: the holder is no longer parked", s.path);
		if (died[0] && died[1])
			note("  SIGKILL: read() and write() died, the holder still parked");
		show("holder", &s.holder, &v);
		EXPECT_TRUE(req_waits_on_lock(&k->q[2], &v));
		scene_release(_metadata, &s);
		for (i = 0; i < 2; i++)
			if (!died[i])
				waitpid(k->q[i].pid, &status[i], 0);
		ASSERT_EQ(k->q[2].pid, waitpid(k->q[2].pid, &status[2], 0));
		EXPECT_TRUE(WIFEXITED(status[2]) && !WEXITSTATUS(status[2]));
		EXPECT_EQ((ssize_t)(3 * PAGE), k->q[2].ret)
			note("%s: the reader got %zd (%s)", s.path, k->q[2].ret,
			     strerror(k->q[2].err));
		memcpy(want, s.new, NEW_LEN);
		memcpy(want + NEW_LEN, s.old + NEW_LEN, PAGE);
		EXPECT_EQ(0, memcmp(want, k->got, 3 * PAGE))
			note("%s: the reader did not get the whole write", s.path);
		/* Page 2 is OLD's: the killed write() stored nothing. */
		scene_check(_metadata, &s, NULL, 0, 0);
		for (i = 0; i < 3; i++)
			close(fds[i]);
		scene_end(&s);
		munmap(k, sizeof(*k));
	}
}

/*
 * The io-wq workers of this process (iou-wrk-*) asleep on the device lock:
 * one in read_iter, one in write_iter, into @w.
 */
static bool iou_workers_waiting(struct req w[2], struct task_view v[2])
{
	DIR *dir = opendir("/proc/self/task");
	bool found[2] = { false, false };
	struct dirent *e;
	char comm[32];
	int i;

	if (!dir)
		return false;
	while ((e = readdir(dir))) {
		pid_t tid = atoi(e->d_name);

		if (tid <= 0 || proc_read(getpid(), tid, "comm", comm, sizeof(comm)) <= 0 ||
		    strncmp(comm, "iou-wrk-", 8))
			continue;
		for (i = 0; i < 2; i++) {
			struct req q = { .pid = getpid(), .tid = tid, .write = i };

			if (!found[i] && req_waits_on_lock(&q, &v[i])) {
				w[i] = q;
				found[i] = true;
				break;
			}
		}
	}
	closedir(dir);
	return found[0] && found[1];
}

/*
 * io_uring behind the held lock: with the holder parked, an
 * IORING_OP_READ of the held range and an IORING_OP_WRITE elsewhere are
 * submitted. io_uring issues them with IOCB_NOWAIT first; the driver says
 * -EAGAIN (so the submission returns, lock held or not) and io_uring hands
 * them to io-wq workers (iou-wrk-*), which must sleep on the lock inside
 * read_iter and write_iter, in D, with no completion posted. Released,
 * both complete in full: the read with all of NEW, the write landed.
 * Would catch: a driver that sleeps despite IOCB_NOWAIT (the submitting
 * task sleeps in io_uring_enter(), and the test runs into its timeout),
 * one that fails the request instead of -EAGAIN (a completion at once),
 * a completion before the data is there, a short or torn retry.
 */
TEST_F_TIMEOUT(ramfile, io_uring_punt, 120)
{
	struct __kernel_timespec ts = { .tv_sec = HOLD_WAIT_MS / 1000 };
	struct rig *r = &self->r;
	int d;

	for (d = 0; d < r->ndev; d++) {
		unsigned char got[NEW_LEN], data[PAGE];
		struct task_view v[2] = { 0 }, hv = { 0 };
		struct io_uring_cqe *cqe;
		struct io_uring_sqe *sqe;
		struct io_uring ring;
		struct req w[2];
		int res[3] = { 1, 1, 1 }, n = 0, fd2, ret;
		struct scene s;

		note("%s:", r->dev[d].path);
		scene_start(_metadata, &s, r->dev[d].path, -1);
		fd2 = open(s.path, O_RDWR);
		ASSERT_LE(0, fd2);
		pattern(data, PAGE, 3);
		ASSERT_EQ(0, io_uring_queue_init(8, &ring, 0));
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, fd2, got, NEW_LEN, 0);
		sqe->user_data = 1;
		sqe = io_uring_get_sqe(&ring);
		io_uring_prep_write(sqe, fd2, data, PAGE, 3 * PAGE);
		sqe->user_data = 2;
		ASSERT_EQ(2, io_uring_submit(&ring));
		EXPECT_TRUE(WAIT_FOR(iou_workers_waiting(w, v)))
			note("%s: no io-wq workers asleep on the lock in read_iter and write_iter",
			     s.path);
		show("io-wq read", &w[0], &v[0]);
		show("io-wq write", &w[1], &v[1]);
		/* Not a completion while the holder is parked. */
		while ((ret = io_uring_peek_cqe(&ring, &cqe)) == 0 && n < 2) {
			note("%s: early completion %llu: %d", s.path,
			     (unsigned long long)cqe->user_data, cqe->res);
			res[cqe->user_data < 3 ? cqe->user_data : 0] = cqe->res;
			io_uring_cqe_seen(&ring, cqe);
			n++;
		}
		EXPECT_EQ(-EAGAIN, ret);
		EXPECT_TRUE(req_parked(&s.holder, &hv));
		show("holder", &s.holder, &hv);
		scene_release(_metadata, &s);
		for (; n < 2; n++) {
			ASSERT_EQ(0, io_uring_wait_cqe_timeout(&ring, &cqe, &ts));
			res[cqe->user_data < 3 ? cqe->user_data : 0] = cqe->res;
			io_uring_cqe_seen(&ring, cqe);
		}
		EXPECT_EQ(NEW_LEN, res[1]);
		EXPECT_EQ(0, memcmp(got, s.new, NEW_LEN))
			note("%s: the read did not return the whole write", s.path);
		EXPECT_EQ(PAGE, res[2]);
		scene_check(_metadata, &s, data, PAGE, 3 * PAGE);
		io_uring_queue_exit(&ring);
		close(fd2);
		scene_end(&s);
	}
}

/*
 * SMP: the holder, pinned to CPU 0, is parked inside write_iter while a
 * reader pinned to CPU 1 sleeps on the lock inside read_iter: two requests
 * inside the same device at once, on different CPUs (field 39 of
 * /proc/TID/stat). With fewer than 2 CPUs online it fails rather than
 * skips: the project guarantees 2, and the concurrency test proves little
 * on one.
 * Would catch: a guest that is not SMP, a second request kept out of the
 * driver (a lock above read_iter, or the CPUs serialised), a lock waiter
 * that is not asleep in D (spinning, or waiting elsewhere), and a reader
 * that does not get all of the write it waited for.
 */
TEST_F_TIMEOUT(ramfile, smp_hold_and_wait, 120)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct rig *r = &self->r;
	int d;

	ASSERT_LE(2, cpus)
		note("%ld CPU online: the project's guest has 2", cpus);
	for (d = 0; d < r->ndev; d++) {
		unsigned char got[NEW_LEN];
		struct task_view hv = { 0 }, wv = { 0 };
		struct req waiter;
		struct scene s;
		int fd2;

		note("%s:", r->dev[d].path);
		scene_start(_metadata, &s, r->dev[d].path, 0);
		fd2 = open(s.path, O_RDWR);
		ASSERT_LE(0, fd2);
		waiter = (struct req){ .fd = fd2, .buf = got, .len = NEW_LEN, .off = 0,
				       .cpu = 1 };
		ASSERT_EQ(0, req_start(&waiter));
		EXPECT_EQ(SETTLED_WAITING, req_settle(&waiter, &wv))
			note("%s: the reader on CPU 1 does not wait on the lock: %zd (%s)",
			     s.path, waiter.ret, strerror(waiter.err));
		/* Both inside now: neither can leave before the release. */
		EXPECT_TRUE(req_parked(&s.holder, &hv));
		show("holder", &s.holder, &hv);
		show("reader", &waiter, &wv);
		EXPECT_EQ(0, s.holder.ran_on);
		EXPECT_EQ(0, hv.cpu);
		EXPECT_EQ(1, waiter.ran_on);
		EXPECT_EQ(1, wv.cpu);
		scene_release(_metadata, &s);
		pthread_join(waiter.thread, NULL);
		EXPECT_EQ((ssize_t)NEW_LEN, waiter.ret);
		EXPECT_EQ(0, memcmp(got, s.new, NEW_LEN));
		scene_check(_metadata, &s, NULL, 0, 0);
		close(fd2);
		scene_end(&s);
	}
}

/* --demo: a few scattered segments out with writev(), back with readv(). */
static int demo(void)
{
	static const char hello[] = "Hello", comma[] = ", ", from[] = "scattered ",
		world[] = "world!";
	struct iovec out[] = {
		{ (void *)hello, 5 }, { (void *)comma, 2 }, { NULL, 0 },
		{ (void *)from, 10 }, { (void *)world, 6 },
	};
	const char *paths[MAX_DEVICES];
	int n = device_list(paths), d, i, bad = !n;

	for (d = 0; d < n; d++) {
		char a[4] = "", b[9] = "", c[17] = "";
		struct iovec in[] = { { a, 3 }, { b, 8 }, { c, 16 } };
		int fd = open(paths[d], O_RDWR | O_TRUNC);
		ssize_t w, r = -1;

		if (fd < 0) {
			printf("%s: %s\n", paths[d], strerror(errno));
			bad = 1;
			continue;
		}
		printf("%s:\n", paths[d]);
		w = writev(fd, out, 5);
		printf("  writev() of 5 segments %s = %zd\n",
		       "\"Hello\" \", \" \"\" \"scattered \" \"world!\"", w);
		if (lseek(fd, 0, SEEK_SET) == 0)
			r = readv(fd, in, 3);
		printf("  readv() into 3 segments of 3, 8, 16 bytes = %zd:", r);
		for (i = 0; i < 3; i++)
			printf(" \"%s\"", (char *)in[i].iov_base);
		printf("\n");
		close(fd);
		bad |= w != 23 || r != 23;
	}
	if (!n)
		printf("no iov_ramfile device found\n");
	return bad;
}

int main(int argc, char **argv)
{
	int i, n = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--demo"))
			return demo();
		if (!strncmp(argv[i], "--device=", 9) && nr_cmdline_devices < MAX_DEVICES)
			cmdline_devices[nr_cmdline_devices++] = argv[i] + 9;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	/* A soak run takes as long as it takes: /init's timeout bounds it. */
	if (getenv("IOV_SOAK"))
		_ramfile_random_differential_object->timeout = INT_MAX / 2;
	if (getenv("IOV_FAULTS"))
		_ramfile_random_usercopy_faults_object->timeout = INT_MAX / 2;
	if (getenv("IOV_CW_ROUNDS"))
		_ramfile_concurrency_object->timeout = INT_MAX / 2;
	return test_harness_run(n, argv);
}
