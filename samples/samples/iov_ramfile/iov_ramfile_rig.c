// SPDX-License-Identifier: GPL-2.0
/*
 * The rig of the iov_ramfile tests: each request made on every device
 * and on the model, and the results compared (run()); the devices and
 * their user memory (arenas) set up and taken down. See iov_ramfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <libaio.h>
#include <liburing.h>

#include "kselftest.h"

#include "iov_ramfile.h"

static const char *const default_devices[] = {
	"/dev/c-iov-ramfile", "/dev/rust-iov-ramfile",
};

static const char *cmdline_devices[MAX_DEVICES];
static int nr_cmdline_devices;

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

bool check_all(struct rig *r)
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
 * Injected faults for this thread, on or off. The file stays open: with
 * faults on, opening it could fail too, and so can the write that turns
 * them off (it copies from user memory), which is then repeated.
 */
void faults_for_me(struct rig *r, bool on)
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
struct res run(struct rig *r, const struct op *op)
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

bool hole_unmapped(struct rig *r)
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

int open_handles(struct target *t)
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

int device_list(const char **out)
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

bool rig_setup(struct __test_metadata *_metadata, struct rig *r)
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

void rig_teardown(struct rig *r)
{
	int d;

	for (d = 0; d < r->ndev; d++)
		target_teardown(&r->dev[d]);
	if (!r->ref_added && r->ref.path)
		target_teardown(&r->ref);
}

/* Run the calling thread on @cpu only, and be there when this returns. */
int pin_to_cpu(int cpu)
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
 * Take the options every iov_ramfile program has out of @argv (argc
 * @argc), leaving the harness's own: --device=PATH (repeatable) names a
 * device to test. With @demo, "--demo" ends the scan. Returns the new
 * argc, or -1 at --demo.
 */
int ramfile_args(int argc, char **argv, bool demo)
{
	int i, n = 1;

	for (i = 1; i < argc; i++) {
		if (demo && !strcmp(argv[i], "--demo"))
			return -1;
		if (!strncmp(argv[i], "--device=", 9) && nr_cmdline_devices < MAX_DEVICES)
			cmdline_devices[nr_cmdline_devices++] = argv[i] + 9;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return n;
}
