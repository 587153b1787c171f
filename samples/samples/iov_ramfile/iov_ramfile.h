/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the user-space tests of the iov_iter RAM file sample devices,
 * /dev/c-iov-ramfile and /dev/rust-iov-ramfile, share.
 *
 * Every request is made on each device under test and on an in-memory
 * model of the semantics documented in samples/iov_ramfile/c_iov_ramfile.c
 * (and of the checks the VFS makes before it calls a driver). After every
 * request the return value, errno, file offset, the bytes that landed in
 * user memory and the device's size and contents around the request must
 * match the model, so devices tested together give identical results.
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
 * file and the offset variable are compared too.
 *
 * iov_ramfile_model.c is the model, and makes random requests;
 * iov_ramfile_rig.c makes each request on the devices and on the model
 * and compares (run()), and sets the devices up;
 * iov_ramfile_callers.c adds the callers other than the plain system
 * calls to both. Each test program (iov_ramfile*_test.c) is linked
 * with all three.
 *
 * Devices: --device=PATH (repeatable) or IOV_RAMFILE_DEVICES=PATH:PATH...;
 * by default whichever of the two devices exist (at least one must).
 * The tests empty the devices (open with O_TRUNC) and leave data behind.
 */
#ifndef IOV_RAMFILE_H
#define IOV_RAMFILE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/uio.h>

#include <libaio.h>
#include <liburing.h>

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
extern const int handle_flags[NR_HANDLES];

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

/*
 * What a request kind is: its direction, and the way it takes to the
 * driver. T_STAGED: splice or sendfile, the data staged through a pipe or
 * a tmpfs file; T_SPLICE: the splice() system call.
 */
enum {
	T_READ = 1, T_WRITE = 2, T_VEC = 4, T_STAGED = 8, T_SPLICE = 16,
	T_URING = 32, T_FIXED = 64, T_AIO = 128,
};

extern const unsigned int op_traits[NR_OP_KINDS];

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

#define note(fmt, ...) fprintf(stderr, "# " fmt "\n", ##__VA_ARGS__)

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

/* The harness's, for rig_setup(); tests include kselftest_harness.h. */
struct __test_metadata;

/* iov_ramfile_model.c: the model, and random requests. */

enum page_kind page_kind(size_t off);
/* splitmix64: the tests' pseudo-random numbers, from the state in *@s. */
unsigned long long rng_next(unsigned long long *s);
unsigned long long rng_below(unsigned long long *s, unsigned long long n);
bool is_read(enum op_kind k);
bool is_write(enum op_kind k);
bool is_vec(enum op_kind k);
bool is_positional(const struct op *op);
bool can_read(int h);
bool can_write(int h);
void describe(const struct op *op, char *s, size_t n);
long long seg_total(const struct op *op);
void seg_copy(unsigned char *arena, const struct op *op, unsigned char *buf,
	      size_t len, bool to_arena);
long long model_device(struct rig *r, const struct op *op, long long pos,
		       long long total, bool append, bool user, long long *end);
int rwf_error(int flags);
struct res model_op(struct rig *r, const struct op *op);
void random_op(struct rig *r, unsigned long long *g, struct op *op, struct seg *seg);

/* iov_ramfile_rig.c: requests on the devices, compared with the model. */

/* Compare each device's whole contents with the model's; false at a difference. */
bool check_all(struct rig *r);
void faults_for_me(struct rig *r, bool on);
struct res run(struct rig *r, const struct op *op);
bool hole_unmapped(struct rig *r);
int open_handles(struct target *t);
/* The devices to test (see the top of this file) into @out: how many. */
int device_list(const char **out);
/* Open the devices, find their capacity, set the rig up; false if that fails. */
bool rig_setup(struct __test_metadata *_metadata, struct rig *r);
void rig_teardown(struct rig *r);
int pin_to_cpu(int cpu);
int ramfile_args(int argc, char **argv, bool demo);

/* iov_ramfile_callers.c: splice, sendfile, io_uring and AIO requests. */

struct res model_caller(struct rig *r, const struct op *op);
struct res staged_op(struct rig *r, struct target *t, const struct op *op,
		     bool inject);
struct res uring_op(struct rig *r, struct target *t, const struct op *op,
		    bool inject, const struct iovec *iov);
struct res aio_op(struct rig *r, struct target *t, const struct op *op,
		  bool inject, struct iovec *iov);
int target_callers_setup(struct target *t);
void target_register_buffers(struct target *t);
int ref_setup(struct target *t);

#endif /* IOV_RAMFILE_H */
