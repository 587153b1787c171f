// SPDX-License-Identifier: GPL-2.0
/*
 * The model of the iov_ramfile devices: what the kernel and a device do
 * with each request (the checks the VFS makes first, then the semantics
 * documented in c_iov_ramfile.c), and random requests. See iov_ramfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "kselftest.h"

#include "iov_ramfile.h"

/* The open flags of each handle (H_*). */
const int handle_flags[NR_HANDLES] = {
	O_RDWR, O_RDWR, O_RDWR | O_APPEND, O_RDONLY, O_WRONLY,
};

static const char *const op_names[] = {
	"read", "write", "pread", "pwrite", "readv", "writev", "preadv2",
	"pwritev2", "lseek", "reopen",
	"splice(dev->pipe)", "splice(pipe->dev)", "splice+tee",
	"sendfile(dev->pipe)", "sendfile(dev->file)", "sendfile(file->dev)",
	"uring-read", "uring-write", "uring-readv", "uring-writev",
	"uring-read-fixed", "uring-write-fixed",
	"aio-pread", "aio-pwrite", "aio-preadv", "aio-pwritev",
};

const unsigned int op_traits[] = {
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

enum page_kind page_kind(size_t off)
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

unsigned long long rng_next(unsigned long long *s)
{
	unsigned long long x = *s += 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

unsigned long long rng_below(unsigned long long *s, unsigned long long n)
{
	return n ? rng_next(s) % n : 0;
}

bool is_read(enum op_kind k)
{
	return op_traits[k] & T_READ;
}

bool is_write(enum op_kind k)
{
	return op_traits[k] & T_WRITE;
}

bool is_vec(enum op_kind k)
{
	return op_traits[k] & T_VEC;
}

/* At an offset of its own: the file position is neither used nor moved. */
bool is_positional(const struct op *op)
{
	unsigned int t = op_traits[op->kind];

	if (op->kind == OP_PREAD || op->kind == OP_PWRITE || (t & T_AIO))
		return true;
	if (op->kind == OP_SENDFILE_IN)
		return false;
	return (op->kind == OP_PREADV2 || op->kind == OP_PWRITEV2 ||
		(t & (T_URING | T_STAGED))) && op->off != -1;
}

bool can_read(int h)
{
	return (handle_flags[h] & O_ACCMODE) != O_WRONLY;
}

bool can_write(int h)
{
	return (handle_flags[h] & O_ACCMODE) != O_RDONLY;
}

void describe(const struct op *op, char *s, size_t n)
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
long long seg_total(const struct op *op)
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
void seg_copy(unsigned char *arena, const struct op *op, unsigned char *buf,
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
long long model_device(struct rig *r, const struct op *op, long long pos,
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

/* kiocb_set_rw_flags() on the devices (FMODE_NOWAIT, no atomic writes): -errno. */
int rwf_error(int flags)
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
 * The model: what the kernel and the device do with @op. The checks come
 * in the order fs/read_write.c and lib/iov_iter.c make them; then the
 * device semantics of c_iov_ramfile.c.
 */
struct res model_op(struct rig *r, const struct op *op)
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

/* A request chosen at random, with its segments in @seg. */
void random_op(struct rig *r, unsigned long long *g, struct op *op, struct seg *seg)
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
