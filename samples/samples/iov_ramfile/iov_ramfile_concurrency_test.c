// SPDX-License-Identifier: GPL-2.0
/*
 * The iov_ramfile tests of requests at once: writers in threads and
 * processes racing a reader on all devices, on CPUs 0 and 1.
 *
 * Environment: IOV_CW_ROUNDS (rounds of the concurrency test, default 1).
 *
 * Devices and options: see iov_ramfile.h.
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
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
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

int main(int argc, char **argv)
{
	int n = ramfile_args(argc, argv, false);

	/* A soak run takes as long as it takes: /init's timeout bounds it. */
	if (getenv("IOV_CW_ROUNDS"))
		_ramfile_concurrency_object->timeout = INT_MAX / 2;
	return test_harness_run(n, argv);
}
