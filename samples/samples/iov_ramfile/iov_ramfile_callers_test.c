// SPDX-License-Identifier: GPL-2.0
/*
 * The iov_ramfile tests of the kernel callers other than the plain system
 * calls: sendfile, splice and tee, io_uring and native AIO (the iterator
 * each hands the driver: see iov_ramfile.h). The callers_* cases also
 * make every request on a tmpfs file, which must give the same results;
 * callers_device_limits checks what only the devices do.
 *
 * Devices and options: see iov_ramfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "kselftest_harness.h"

#include "iov_ramfile.h"

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

int main(int argc, char **argv)
{
	int n = ramfile_args(argc, argv, false);

	return test_harness_run(n, argv);
}
