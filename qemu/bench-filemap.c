// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of small buffered writes to a tmpfs file, for comparing kernels with
 * and without the mm/filemap patch (qemu/bench-filemap.sh boots them in
 * turn). The file's pages exist before timing starts and the source buffer
 * is resident, so every call takes the hot path of generic_perform_write().
 *
 * For each call (pwrite, and pwritev with the buffer split in two segments)
 * and each size, ROUNDS times, it times CALLS(size) calls at offsets that
 * cycle through the first REGION bytes of the file, and prints
 *
 *	bench-filemap CALL SIZE NS_PER_CALL
 *
 * Rounds are interleaved over the (call, size) pairs so that a slow phase
 * of the host spreads over all of them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define REGION	(1024 * 1024)
#define ROUNDS	7

static const size_t sizes[] = { 1, 16, 256, 1024, 4096, 65536 };

static long calls_for(size_t size)
{
	return size > 4096 ? 2000 : 20000;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Nanoseconds per call for @n calls of @size bytes; -1 on a failed call. */
static double run(int fd, const char *buf, size_t size, long n, int vec)
{
	struct iovec iov[2] = {
		{ (void *)buf, size / 2 },
		{ (void *)(buf + size / 2), size - size / 2 },
	};
	off_t off = 0;
	double t0 = now_ns();
	long i;

	for (i = 0; i < n; i++) {
		ssize_t ret = vec ? pwritev(fd, iov, 2, off) :
				    pwrite(fd, buf, size, off);

		if (ret != (ssize_t)size)
			return -1;
		off += size;
		if (off + size > REGION)
			off = 0;
	}
	return (now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/bench-filemap";
	char *buf = malloc(REGION);
	int fd, round, vec;
	size_t s;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || !buf) {
		perror("bench-filemap: setup");
		return 1;
	}
	memset(buf, 0x5a, REGION);
	/* Populate the file's pages once, outside the timed loops. */
	if (pwrite(fd, buf, REGION, 0) != REGION) {
		perror("bench-filemap: populate");
		return 1;
	}
	for (round = 0; round < ROUNDS; round++) {
		for (vec = 0; vec <= 1; vec++) {
			for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				double ns = run(fd, buf, sizes[s],
						calls_for(sizes[s]), vec);

				if (ns < 0) {
					perror("bench-filemap: write");
					return 1;
				}
				printf("bench-filemap %s %zu %.1f\n",
				       vec ? "pwritev" : "pwrite", sizes[s], ns);
			}
		}
		fflush(stdout);
	}
	close(fd);
	unlink(path);
	return 0;
}
