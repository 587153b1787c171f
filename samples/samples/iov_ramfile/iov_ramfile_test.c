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
 * Devices: --device=PATH (repeatable) or IOV_RAMFILE_DEVICES=PATH:PATH...;
 * by default whichever of the two devices exist (at least one must).
 * The tests empty the devices (open with O_TRUNC) and leave data behind.
 *
 * Environment: IOV_SEED (seed of the random run), IOV_SOAK (number of
 * random requests, default RANDOM_STEPS).
 *
 * --demo: writev() a few scattered segments to each device, readv() them
 * back and print them; no tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#ifndef RWF_ATOMIC
#define RWF_ATOMIC	0x00000040
#endif
/* The RWF_* flags 6.12 knows; anything else is -EOPNOTSUPP. */
#define RWF_KNOWN	(RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | \
			 RWF_APPEND | RWF_NOAPPEND | RWF_ATOMIC)
#define RWF_UNKNOWN	0x00000080

#define KIB		1024UL
#define MIB		(1024 * KIB)
#define PAGE		4096UL
#define MAX_SEGS	(UIO_MAXIOV + 8)
#define MAX_DEVICES	4
#define RANDOM_STEPS	15000
#define NR_ERRNO	128

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

enum op_kind {
	OP_READ, OP_WRITE, OP_PREAD, OP_PWRITE,
	OP_READV, OP_WRITEV, OP_PREADV2, OP_PWRITEV2,
	OP_LSEEK, OP_REOPEN,
};

static const char *const op_names[] = {
	"read", "write", "pread", "pwrite", "readv", "writev", "preadv2",
	"pwritev2", "lseek", "reopen",
};

/*
 * One request. read/write/pread/pwrite use seg[0]; off is the offset of
 * the positional calls and of lseek; flags are RWF_* for preadv2/pwritev2
 * and extra open flags (O_TRUNC) for reopen.
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
};

struct res {
	long long ret;
	int err;
	long long pos;
};

struct target {
	const char *path;
	int fd[NR_HANDLES];
	int probe;
	unsigned char *arena;
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
	return k == OP_READ || k == OP_PREAD || k == OP_READV || k == OP_PREADV2;
}

static bool is_write(enum op_kind k)
{
	return k == OP_WRITE || k == OP_PWRITE || k == OP_WRITEV || k == OP_PWRITEV2;
}

static bool is_vec(enum op_kind k)
{
	return k == OP_READV || k == OP_WRITEV || k == OP_PREADV2 || k == OP_PWRITEV2;
}

static bool is_positional(const struct op *op)
{
	if (op->kind == OP_PREAD || op->kind == OP_PWRITE)
		return true;
	return (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2) && op->off != -1;
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
		len += snprintf(s + len, n - len, ", off %lld, flags %#x, %d seg%s%s",
				op->off, op->flags, op->nseg, op->iov_null ? " NULL" : "",
				op->nseg ? ":" : "");
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
 * The model: what the kernel and the device do with @op. The checks come
 * in the order fs/read_write.c and lib/iov_iter.c make them; then the
 * device semantics of c_iov_ramfile.c.
 */
static struct res model_op(struct rig *r, const struct op *op)
{
	struct model *m = &r->m;
	unsigned char *arena = r->mt.arena;
	int h = op->h, flags = 0, i;
	bool vec = is_vec(op->kind), positional = is_positional(op);
	bool append;
	long long pos, total = 0, wpos, n, done;

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
	if (flags & ~RWF_KNOWN)
		return model_fail(m, h, EOPNOTSUPP);
	if ((flags & RWF_APPEND) && (flags & RWF_NOAPPEND))
		return model_fail(m, h, EINVAL);
	if (flags & RWF_ATOMIC)
		return model_fail(m, h, EOPNOTSUPP);

	/* The device. */
	if (!total)
		return (struct res){ .pos = m->pos[h] };
	if (is_read(op->kind)) {
		if (pos >= m->size)
			return (struct res){ .pos = m->pos[h] };
		n = total < m->size - pos ? total : m->size - pos;
		done = reach(op, n, true);
		if (!done)
			return model_fail(m, h, EFAULT);
		seg_copy(arena, op, m->data + pos, done, true);
		pos += done;
	} else {
		pos = append ? m->size : pos;
		if (pos >= r->cap)
			return model_fail(m, h, ENOSPC);
		n = total < r->cap - pos ? total : r->cap - pos;
		done = reach(op, n, false);
		if (!done)
			return model_fail(m, h, EFAULT);
		seg_copy(arena, op, m->data + pos, done, false);
		pos += done;
		if (pos > m->size)
			m->size = pos;
	}
	if (!positional)
		m->pos[h] = pos;
	return (struct res){ .ret = done, .pos = m->pos[h] };
}

static struct res device_op(struct target *t, const struct op *op)
{
	static struct iovec iov[MAX_SEGS];
	struct iovec *v = op->iov_null ? NULL : iov;
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
	}
	res.ret = ret;
	res.err = ret < 0 ? errno : 0;
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

/*
 * Make the request on the model and on every device and compare: result,
 * errno, offset, user memory, device size and contents near the request.
 * Returns the model's result.
 */
static struct res run(struct rig *r, const struct op *op)
{
	struct res want, got, first = { 0 };
	long long lo, hi;
	int d;

	r->step++;
	prefill(r, op);
	want = model_op(r, op);
	lo = r->win_lo - (long long)PAGE;
	hi = r->win_hi + (long long)PAGE;
	lo = lo < 0 ? 0 : lo > r->cap ? r->cap : lo;
	hi = hi < lo ? lo : hi > r->cap ? r->cap : hi;
	for (d = 0; d < r->ndev; d++) {
		struct target *t = &r->dev[d];

		got = device_op(t, op);
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
	r->mt.path = "model";
	r->mt.arena = arena_create();
	if (!r->mt.arena)
		return false;
	for (d = 0; d < r->ndev; d++) {
		r->dev[d].arena = arena_create();
		if (!r->dev[d].arena)
			return false;
	}
	if (!hole_unmapped(r)) {
		note("test bug: the arena's hole is mapped");
		return false;
	}
	return true;
}

static void rig_teardown(struct rig *r)
{
	int d, h;

	for (d = 0; d < r->ndev; d++) {
		for (h = 0; h < NR_HANDLES; h++)
			close(r->dev[d].fd[h]);
		close(r->dev[d].probe);
	}
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
	unsigned long long pick = rng_below(g, 100);
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
	} else {
		op->kind = rng_below(g, 8);
	}

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

	nseg = is_vec(op->kind) ? (int)rng_below(g, 5) : 1;
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
	}
	if (is_vec(op->kind) && !rng_below(g, 300)) {
		for (i = nseg; i <= UIO_MAXIOV; i++)
			seg[i] = (struct seg)A(i, 1);
		nseg = UIO_MAXIOV + 1;
	}
	op->nseg = nseg;
	if (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2)
		op->flags = v2_flags[rng_below(g, ARRAY_SIZE(v2_flags))];
	if ((op->kind == OP_PREAD || op->kind == OP_PWRITE) && op->off == -1)
		op->off = r->m.pos[op->h];
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

/*
 * Concurrency: writers (threads and processes) hammer every device with
 * records: fixed-size records into shared slots with pwritev(), and
 * variable-size records appended with writev() on O_APPEND opens, while
 * a reader checks that every record it sees is whole. At the end each
 * slot must hold the last record some writer put there, and the appended
 * records must be all there, whole, each writer's in its own order: a
 * state some serial order of the writes produces.
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
};

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
};

static void *cw_writer(void *arg)
{
	static __thread unsigned char buf[CW_SLOT_LEN + CW_APP_MAX];
	struct cw_worker *w = arg;
	struct cw_shared *sh = w->sh;
	int fd[MAX_DEVICES], app_fd[MAX_DEVICES], d, i;
	unsigned long long g = 0xc0ffee + w->id;
	struct iovec iov[16];

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
			ret = pwritev2(fd[d], iov, n, CW_SLOT_BASE + slot * CW_SLOT_LEN,
				       nowait ? RWF_NOWAIT : 0);
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
			ret = writev(app_fd[d], iov, n);
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

			ret = pread(fd[d], buf, CW_SLOT_LEN, CW_SLOT_BASE + slot * CW_SLOT_LEN);
			if (ret != CW_SLOT_LEN || rec_check(buf, ret, slot, &h))
				cw_error(sh, "reader: slot %d on %s torn or short (%zd)",
					 slot, sh->path[d], ret);
		} else {
			/* Up to the size, the appended area holds whole records. */
			ret = pread(fd[d], buf, sizeof(buf), CW_APP_BASE);
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

TEST_F_TIMEOUT(ramfile, concurrency, 300)
{
	struct rig *r = &self->r;
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
	for (i = 0; i < CW_PROCS; i++) {
		workers[i] = (struct cw_worker){ sh, i, true };
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			cw_writer(&workers[i]);
			_exit(0);
		}
		cw_pids[i] = pids[i];
	}
	for (i = 0; i < CW_THREADS; i++) {
		workers[CW_PROCS + i] = (struct cw_worker){ sh, CW_PROCS + i, false };
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
	for (d = 0; d < sh->ndev; d++)
		cw_verify(_metadata, sh, d, r);
}

/*
 * RWF_NOWAIT under contention: while a thread keeps the device busy with
 * 1 MiB writes, non-blocking reads and writes must get EAGAIN (or succeed
 * in full); once it is idle they must succeed.
 */
struct busy {
	int fd;
	unsigned char *data;
	int stop;
	int errors;
};

static void *busy_writer(void *arg)
{
	struct busy *b = arg;

	while (!__atomic_load_n(&b->stop, __ATOMIC_RELAXED))
		if (pwrite(b->fd, b->data, MIB, 0) != (ssize_t)MIB)
			b->errors++;
	return NULL;
}

TEST_F_TIMEOUT(ramfile, nowait_contention, 120)
{
	struct rig *r = &self->r;
	unsigned char *data = malloc(MIB), got[64];
	struct timespec t0, now;
	int d, fd;
	size_t i;

	ASSERT_NE(NULL, data);
	for (i = 0; i < MIB; i++)
		data[i] = i * 7 + (i >> 12);
	for (d = 0; d < r->ndev; d++) {
		struct busy b = { .data = data };
		unsigned long eagain_r = 0, eagain_w = 0, ok = 0, bad = 0;
		struct iovec v = { got, sizeof(got) };
		double secs;
		pthread_t t;

		b.fd = open(r->dev[d].path, O_RDWR | O_TRUNC);
		fd = open(r->dev[d].path, O_RDWR);
		ASSERT_LE(0, b.fd);
		ASSERT_LE(0, fd);
		ASSERT_EQ((ssize_t)MIB, pwrite(fd, data, MIB, 0));
		ASSERT_EQ(0, pthread_create(&t, NULL, busy_writer, &b));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			long long off = rng_next(&r->fill) % (MIB - sizeof(got));
			ssize_t ret;

			v.iov_base = got;
			ret = preadv2(fd, &v, 1, off, RWF_NOWAIT);
			if (ret == -1 && errno == EAGAIN)
				eagain_r++;
			else if (ret == sizeof(got) && !memcmp(got, data + off, sizeof(got)))
				ok++;
			else
				bad++;
			v.iov_base = data + off;
			ret = pwritev2(fd, &v, 1, off, RWF_NOWAIT);
			if (ret == -1 && errno == EAGAIN)
				eagain_w++;
			else if (ret == sizeof(got))
				ok++;
			else
				bad++;
			clock_gettime(CLOCK_MONOTONIC, &now);
			secs = now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9;
		} while ((!eagain_r || !eagain_w) && !bad && secs < 20);
		__atomic_store_n(&b.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
		note("%s: RWF_NOWAIT while busy: %lu read and %lu write EAGAIN, %lu done, %.2f s",
		     r->dev[d].path, eagain_r, eagain_w, ok, secs);
		/* Idle: no EAGAIN. */
		v.iov_base = got;
		EXPECT_EQ((ssize_t)sizeof(got), preadv2(fd, &v, 1, 4096, RWF_NOWAIT));
		EXPECT_EQ(0, memcmp(got, data + 4096, sizeof(got)));
		EXPECT_EQ((ssize_t)sizeof(got), pwritev2(fd, &v, 1, 4096, RWF_NOWAIT));
		EXPECT_EQ(0, b.errors);
		EXPECT_EQ(0, bad);
		EXPECT_LT(0, eagain_r);
		EXPECT_LT(0, eagain_w);
		close(b.fd);
		close(fd);
	}
	free(data);
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
	return test_harness_run(n, argv);
}
