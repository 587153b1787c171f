// SPDX-License-Identifier: GPL-2.0
/*
 * The callers of the iov_ramfile devices other than the plain system
 * calls: splice, sendfile, io_uring and native AIO, in the model (each
 * caller's checks in its order) and on the devices (staging through
 * pipes and tmpfs files, rings, AIO contexts). See iov_ramfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <libaio.h>
#include <linux/magic.h>
#include <liburing.h>

#include "iov_ramfile.h"

static const struct { size_t off, len; } fixed_bufs[NR_FIXED_BUFS] = {
	{ 0, A_DATA_LEN }, { PAGE, PAGE },
};

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

/* rw_verify_area(): a negative offset or count, or an end past LLONG_MAX. */
static bool bad_range(long long pos, long long count)
{
	return count < 0 || pos < 0 || count > LLONG_MAX - pos;
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
struct res model_caller(struct rig *r, const struct op *op)
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

/*
 * splice and sendfile: stage what a write takes in the pipe or the tmpfs
 * file, make the call (with faults injected if @inject), then move what
 * arrived in the pipe or file into the segments, like a read would.
 */
struct res staged_op(struct rig *r, struct target *t, const struct op *op,
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
struct res uring_op(struct rig *r, struct target *t, const struct op *op,
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
struct res aio_op(struct rig *r, struct target *t, const struct op *op,
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
int target_callers_setup(struct target *t)
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
void target_register_buffers(struct target *t)
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
 * The tmpfs reference target, all but its arena; set up with the devices,
 * as its ring and AIO mappings must not land in an arena's hole.
 */
int ref_setup(struct target *t)
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
