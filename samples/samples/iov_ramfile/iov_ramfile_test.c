// SPDX-License-Identifier: GPL-2.0
/*
 * User-space tests of the iov_iter RAM file sample devices,
 * /dev/c-iov-ramfile and /dev/rust-iov-ramfile: sizes and segments,
 * seeks, EOF and gaps, O_TRUNC, O_APPEND and RWF_* flags, per-open
 * positions, ENOSPC at capacity, and bad input (faulting, NULL and
 * kernel buffers, bad iovecs, bad offsets). Each request is made on
 * every device and on the model of iov_ramfile.h (run()), which must
 * all give the same results; the cases also state the key results
 * explicitly. The other iov_ramfile_*_test.c programs test the same
 * devices in the same way, one concern each.
 *
 * Devices: --device=PATH (repeatable) or IOV_RAMFILE_DEVICES=PATH:PATH...;
 * by default whichever of the two devices exist (at least one must).
 * The tests empty the devices (open with O_TRUNC) and leave data behind.
 *
 * --demo: writev() a few scattered segments to each device, readv() them
 * back and print them; no tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

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
	int n = ramfile_args(argc, argv, true);

	if (n < 0)
		return demo();
	return test_harness_run(n, argv);
}
