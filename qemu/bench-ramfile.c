// SPDX-License-Identifier: GPL-2.0
/*
 * Driver cost of the RAM file sample devices, for "make bench": the same
 * read(), write(), readv() and writev() calls on /dev/c-iov-ramfile and
 * /dev/rust-iov-ramfile (whichever exist), 64 B to 1 MiB in 1 to 1024
 * segments, the devices interleaved (A B A B ..., the first one alternating).
 *
 * For each cell (call, bytes, segments) the number of calls per timed
 * batch is doubled until a batch takes BENCH_BATCH_MS; then each device
 * gets BENCH_SAMPLES batches. Output, on stdout:
 *   bench-ramfile: cpu|flags|kernel TEXT
 *   bench-ramfile: CALL BYTES SEGS DEVICE OPS NS NS ...
 * with the nanoseconds of each batch of OPS calls; qemu/bench-iov.py takes
 * medians and ratios. Every call must move all its bytes, or the program
 * stops with an error. Sequential calls wrap to offset 0 (lseek()) before
 * they would reach the capacity, so every call is a full one.
 *
 * Environment: BENCH_SAMPLES (default 21), BENCH_BATCH_MS (default 4),
 * BENCH_BUF_PAGES (default 0): the user buffer starts that many pages into
 * its allocation, to show how much the results depend on where it is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define MIB		(1024 * 1024)
#define MAX_SAMPLES	101
#define MAX_SEGS	1024
#define MAX_BUF_PAGES	256

enum call { C_READ, C_WRITE, C_READV, C_WRITEV };
static const char *const call_names[] = { "read", "write", "readv", "writev" };
static const size_t sizes[] = { 64, 4096, 65536, MIB };
static const int seg_counts[] = { 1, 16, 256, 1024 };

struct device {
	const char *name;
	const char *path;
	int fd;
	long long pos;
	long long cap;
	unsigned long long ns[MAX_SAMPLES];
};

static unsigned char *buf;
static struct iovec iov[MAX_SEGS];

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void fail(const char *what, const struct device *d)
{
	printf("bench-ramfile: error: %s on %s: %s\n", what, d->path, strerror(errno));
	exit(1);
}

/* Fill the device to its capacity (so reads move data) and return that. */
static long long fill(struct device *d)
{
	long long total = 0;
	ssize_t n;

	for (;;) {
		n = write(d->fd, buf, MIB);
		if (n > 0) {
			total += n;
			continue;
		}
		if (n < 0 && errno == ENOSPC)
			return total;
		fail("filling", d);
	}
}

/* One batch of @ops calls; returns its duration in nanoseconds. */
static unsigned long long batch(struct device *d, enum call c, size_t size, int segs,
				unsigned int ops)
{
	unsigned long long t0 = now_ns();
	unsigned int i;
	ssize_t n;

	for (i = 0; i < ops; i++) {
		if (d->pos + (long long)size > d->cap) {
			if (lseek(d->fd, 0, SEEK_SET) != 0)
				fail("lseek", d);
			d->pos = 0;
		}
		switch (c) {
		case C_READ:
			n = read(d->fd, buf, size);
			break;
		case C_WRITE:
			n = write(d->fd, buf, size);
			break;
		case C_READV:
			n = readv(d->fd, iov, segs);
			break;
		default:
			n = writev(d->fd, iov, segs);
			break;
		}
		if (n != (ssize_t)size) {
			printf("bench-ramfile: error: %s of %zu bytes returned %zd\n",
			       call_names[c], size, n);
			fail(call_names[c], d);
		}
		d->pos += size;
	}
	return now_ns() - t0;
}

static void print_cpu(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	struct utsname u;
	char line[4096];
	int model = 0, flags = 0;

	while (f && fgets(line, sizeof(line), f) && !(model && flags)) {
		line[strcspn(line, "\n")] = 0;
		if (!model && !strncmp(line, "model name", 10)) {
			printf("bench-ramfile: cpu %s\n", strchr(line, ':') + 2);
			model = 1;
		} else if (!flags && !strncmp(line, "flags", 5)) {
			printf("bench-ramfile: flags %s\n", strchr(line, ':') + 2);
			flags = 1;
		}
	}
	if (f)
		fclose(f);
	if (!uname(&u))
		printf("bench-ramfile: kernel %s %s\n", u.release, u.version);
}

int main(void)
{
	struct device devs[] = {
		{ .name = "c", .path = "/dev/c-iov-ramfile" },
		{ .name = "rust", .path = "/dev/rust-iov-ramfile" },
	};
	const char *env_samples = getenv("BENCH_SAMPLES"), *env_ms = getenv("BENCH_BATCH_MS");
	const char *env_buf = getenv("BENCH_BUF_PAGES");
	int buf_pages = env_buf ? atoi(env_buf) : 0;
	unsigned char *mem;
	int samples = env_samples ? atoi(env_samples) : 21;
	unsigned long long target = (env_ms ? atoi(env_ms) : 4) * 1000000ULL;
	struct device *dev[2];
	int ndev = 0, i, s, k;
	unsigned int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (samples < 1 || samples > MAX_SAMPLES) {
		printf("bench-ramfile: error: BENCH_SAMPLES must be 1..%d\n", MAX_SAMPLES);
		return 1;
	}
	if (buf_pages < 0 || buf_pages > MAX_BUF_PAGES) {
		printf("bench-ramfile: error: BENCH_BUF_PAGES must be 0..%d\n", MAX_BUF_PAGES);
		return 1;
	}
	if (posix_memalign((void **)&mem, 4096, MIB + MAX_BUF_PAGES * 4096))
		return 1;
	buf = mem + buf_pages * 4096;
	printf("bench-ramfile: buffer %p (%d pages in)\n", (void *)buf, buf_pages);
	for (i = 0; i < MIB; i++)
		buf[i] = i * 7 + (i >> 12);
	print_cpu();
	for (i = 0; i < 2; i++) {
		struct device *d = &devs[i];

		d->fd = open(d->path, O_RDWR | O_TRUNC);
		if (d->fd < 0) {
			printf("bench-ramfile: %s: %s, not measured\n", d->path, strerror(errno));
			continue;
		}
		d->cap = fill(d);
		if (lseek(d->fd, 0, SEEK_SET) != 0)
			fail("lseek", d);
		printf("bench-ramfile: device %s %s capacity %lld\n", d->name, d->path, d->cap);
		if (d->cap < MIB) {
			printf("bench-ramfile: error: %s holds less than 1 MiB\n", d->path);
			return 1;
		}
		dev[ndev++] = d;
	}
	if (!ndev) {
		printf("bench-ramfile: error: no device to measure\n");
		return 1;
	}

	for (c = C_READ; c <= C_WRITEV; c++) {
		for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
			size_t size = sizes[i];

			for (k = 0; k < (int)(sizeof(seg_counts) / sizeof(seg_counts[0])); k++) {
				int segs = seg_counts[k], j;
				unsigned int ops = 1;

				if ((c == C_READ || c == C_WRITE) && segs > 1)
					break;
				if (size % segs || size / segs < 4)
					continue;
				for (j = 0; j < segs; j++)
					iov[j] = (struct iovec){ buf + j * (size / segs), size / segs };
				/* Warm up every device, then size the batch on the first. */
				for (j = 0; j < ndev; j++)
					batch(dev[j], c, size, segs, 1);
				while (ops < (1U << 20) && batch(dev[0], c, size, segs, ops) < target)
					ops *= 2;
				for (s = 0; s < samples; s++)
					for (j = 0; j < ndev; j++) {
						struct device *d = dev[(s + j) % ndev];

						d->ns[s] = batch(d, c, size, segs, ops);
					}
				for (j = 0; j < ndev; j++) {
					printf("bench-ramfile: %s %zu %d %s %u", call_names[c], size,
					       segs, dev[j]->name, ops);
					for (s = 0; s < samples; s++)
						printf(" %llu", dev[j]->ns[s]);
					printf("\n");
				}
			}
		}
	}
	printf("bench-ramfile: end\n");
	return 0;
}
