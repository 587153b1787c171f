// SPDX-License-Identifier: GPL-2.0
/*
 * The random run of the iov_ramfile tests again, one device at a time,
 * with usercopy faults injected: whatever a request returns must be what
 * it did.
 *
 * Environment: IOV_FAULTS (usercopy faults to inject per device in
 * random_usercopy_faults, which skips without it; needs
 * CONFIG_FAULT_INJECTION_USERCOPY and debugfs), IOV_FAULT_PROBABILITY
 * (percent of user copies that fail then, default 10).
 *
 * Devices and options: see iov_ramfile.h.
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

#define FAIL_USERCOPY	"/sys/kernel/debug/fail_usercopy/"

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return ret;
}

/* Faults fail_usercopy may still inject, or -1 if it cannot be read. */
static long long faults_left(void)
{
	char text[32] = "";
	int fd = open(FAIL_USERCOPY "times", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	return n > 0 ? atoll(text) : -1;
}

/*
 * Let fail_usercopy fail @percent % of the user copies of the tasks that
 * ask for it (make-it-fail), @times times in all, silently (a report
 * would print a stack trace to the kernel log).
 */
static bool faults_arm(long long times, int percent)
{
	char t[32], p[16];

	snprintf(t, sizeof(t), "%lld", times);
	snprintf(p, sizeof(p), "%d", percent);
	return !write_text(FAIL_USERCOPY "times", "0") &&
	       !write_text(FAIL_USERCOPY "verbose", "0") &&
	       !write_text(FAIL_USERCOPY "task-filter", "Y") &&
	       !write_text(FAIL_USERCOPY "interval", "1") &&
	       !write_text(FAIL_USERCOPY "space", "0") &&
	       !write_text(FAIL_USERCOPY "probability", p) &&
	       !write_text(FAIL_USERCOPY "times", t);
}

static void swap_targets(struct target *a, struct target *b)
{
	struct target t = *a;

	*a = *b;
	*b = t;
}

/*
 * The random run again, one device at a time, with usercopy faults
 * injected into that device's requests (IOV_FAULTS per device, each user
 * copy failing with IOV_FAULT_PROBABILITY percent): reads come back short
 * or with EFAULT wherever a copy failed, writes may be retried by the
 * driver. Whatever a request returns, the model repeats it with that
 * count, and user memory, offsets and contents must then match: nothing
 * lost, nothing invented. Runs until every fault has fired.
 */
TEST_F_TIMEOUT(ramfile, random_usercopy_faults, 300)
{
	struct rig *r = &self->r;
	static struct seg seg[MAX_SEGS];
	const char *env = getenv("IOV_FAULTS"), *env_p = getenv("IOV_FAULT_PROBABILITY");
	long long target = env ? atoll(env) : 0, left;
	int percent = env_p ? atoi(env_p) : 10, all = r->ndev, d, h;
	unsigned long long g = 0xfa017ULL;

	if (!env)
		SKIP(return, "IOV_FAULTS is not set: no usercopy faults injected");
	ASSERT_LT(0, target);
	ASSERT_TRUE(percent > 0 && percent < 100);
	r->fail_fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	ASSERT_LE(0, r->fail_fd)
		note("no make-it-fail: is CONFIG_FAULT_INJECTION set?");
	ASSERT_LE(0, faults_left())
		note("no " FAIL_USERCOPY ": CONFIG_FAULT_INJECTION_USERCOPY and debugfs needed");
	r->what = "faults";
	for (d = 0; d < all; d++) {
		unsigned long i, partial = 0, efault = 0;

		/* This device alone, from an empty file and fresh opens. */
		swap_targets(&r->dev[0], &r->dev[d]);
		r->ndev = 1;
		for (h = 0; h < NR_HANDLES; h++)
			RUN(.kind = OP_REOPEN, .h = h, .flags = h == H_RW ? O_TRUNC : 0);
		ASSERT_TRUE(faults_arm(target, percent));
		r->inject = true;
		for (i = 0; i < 1000 * (unsigned long)target; i++) {
			struct res res;
			struct op op;

			random_op(r, &g, &op, seg);
			res = run(r, &op);
			if (res.ret > 0 && (is_read(op.kind) || is_write(op.kind)))
				partial += res.ret < seg_total(&op);
			efault += res.err == EFAULT;
			if (!r->failed && i % 128 == 127)
				check_all(r);
			if (r->failed) {
				note("fault run failed at request %lu on %s", i + 1,
				     r->dev[0].path);
				break;
			}
			if (i % 64 == 63 && !faults_left())
				break;
			if (i == 4095 && faults_left() == target) {
				note("no fault fired in %lu requests", i + 1);
				break;
			}
		}
		r->inject = false;
		left = faults_left();
		write_text(FAIL_USERCOPY "probability", "0");
		if (!r->failed)
			check_all(r);
		note("usercopy faults injected: %lld of %lld on %s", target - left, target,
		     r->dev[0].path);
		note("faults: %lu requests, %lu short, %lu EFAULT", i, partial, efault);
		r->ndev = all;
		swap_targets(&r->dev[0], &r->dev[d]);
		ASSERT_FALSE(r->failed);
		ASSERT_EQ(0, left);
	}
	close(r->fail_fd);
}

int main(int argc, char **argv)
{
	int n = ramfile_args(argc, argv, false);

	/* A soak run takes as long as it takes: /init's timeout bounds it. */
	if (getenv("IOV_FAULTS"))
		_ramfile_random_usercopy_faults_object->timeout = INT_MAX / 2;
	return test_harness_run(n, argv);
}
