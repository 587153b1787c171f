// SPDX-License-Identifier: GPL-2.0
/*
 * The seeded random run of the iov_ramfile tests: a long sequence of
 * random requests, each made on every device and on the model of
 * iov_ramfile.h and compared (run()).
 *
 * Environment: IOV_SEED (seed of the random run), IOV_SOAK (number of
 * random requests, default RANDOM_STEPS).
 *
 * Devices and options: see iov_ramfile.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

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
 * A long seeded random sequence of requests, each compared with the model
 * (see run()); the whole contents are compared every 128 requests.
 */
TEST_F_TIMEOUT(ramfile, random_differential, 300)
{
	struct rig *r = &self->r;
	static struct seg seg[MAX_SEGS];
	const char *env_seed = getenv("IOV_SEED"), *env_steps = getenv("IOV_SOAK");
	unsigned long long seed = env_seed ? strtoull(env_seed, NULL, 0) : 0x10715eedULL;
	unsigned long steps = env_steps ? strtoul(env_steps, NULL, 0) : RANDOM_STEPS;
	unsigned long long g = seed;
	unsigned long i, data = 0, partial = 0, errs[NR_ERRNO] = { 0 };
	struct timespec t0, t1;
	struct res res;
	struct op op;

	r->what = "random";
	note("random run: IOV_SEED=%#llx IOV_SOAK=%lu", (unsigned long long)seed, steps);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < steps; i++) {
		random_op(r, &g, &op, seg);
		if (op.kind != OP_LSEEK && op.kind != OP_REOPEN)
			ASSERT_TRUE(hole_unmapped(r));
		res = run(r, &op);
		if (res.ret > 0 && (is_read(op.kind) || is_write(op.kind))) {
			data++;
			partial += res.ret < seg_total(&op);
		}
		if (res.err > 0 && res.err < NR_ERRNO)
			errs[res.err]++;
		if (!r->failed && (i % 128 == 127 || i == steps - 1))
			check_all(r);
		if (r->failed) {
			note("random run failed at request %lu; repeat with IOV_SEED=%#llx",
			     i + 1, (unsigned long long)seed);
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	note("random run: %lu requests in %.1f s, %lu moved data (%lu short)",
	     i, t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9, data, partial);
	note("random run errors: EFAULT %lu, ENOSPC %lu, EINVAL %lu, EBADF %lu, EOPNOTSUPP %lu",
	     errs[EFAULT], errs[ENOSPC], errs[EINVAL], errs[EBADF], errs[EOPNOTSUPP]);
	ASSERT_FALSE(r->failed);
}

int main(int argc, char **argv)
{
	int n = ramfile_args(argc, argv, false);

	/* A soak run takes as long as it takes: /init's timeout bounds it. */
	if (getenv("IOV_SOAK"))
		_ramfile_random_differential_object->timeout = INT_MAX / 2;
	return test_harness_run(n, argv);
}
