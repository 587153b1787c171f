// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_model: the model-based random test of the iov_iter
 * interface (lib/iov_iter_model.c) run through the C API, and suite
 * iov_iter_model_rust: the same run through the Rust API, kernel::iov
 * (lib/iov_iter_model_rust.rs).
 *
 * One case per iterator type, each running its share of the operations.
 * After the last suite, one line gives the operations and divergences of
 * both.
 * Module parameters (on the kernel command line, prefixed with
 * "iov_iter_model_kunit."):
 *   seed=N    seed of the run (0: a random one); printed either way
 *   ops=N     operations in all (by default 1000000 with KASAN, else fewer)
 *   replay=N  run only the world with seed N, as printed by a failure
 *   trace=1   print every operation
 */

#include <kunit/test.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/timekeeping.h>
#include <linux/uio.h>

#include "iov_iter_model.h"

#define DEFAULT_SEED	0x10f17e5eedULL
/* 1M operations take minutes under KASAN and QEMU TCG; the plain kernel runs fewer. */
#define DEFAULT_OPS	(IS_ENABLED(CONFIG_KASAN) ? 1000000 : 100000)

static unsigned long long seed = DEFAULT_SEED;
module_param(seed, ullong, 0444);
MODULE_PARM_DESC(seed, "Seed of the run (0: random)");

static unsigned long ops = DEFAULT_OPS;
module_param(ops, ulong, 0444);
MODULE_PARM_DESC(ops, "Operations to run, over all iterator types");

static unsigned long long replay;
module_param(replay, ullong, 0444);
MODULE_PARM_DESC(replay, "Seed of one world to replay (as printed by a failure)");

static bool trace;
module_param(trace, bool, 0444);
MODULE_PARM_DESC(trace, "Print every operation");

/* The C executor: the API as it is, wrappers only for the inline functions. */

static void c_truncate(struct iov_iter *i, u64 count)
{
	iov_iter_truncate(i, count);
}

static void c_reexpand(struct iov_iter *i, size_t count)
{
	iov_iter_reexpand(i, count);
}

static void c_save_state(struct iov_iter *i, struct iov_iter_state *state)
{
	iov_iter_save_state(i, state);
}

static const void *c_dup_iter(struct iov_iter *new, struct iov_iter *old)
{
	return dup_iter(new, old, GFP_KERNEL);
}

static size_t c_copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_to_iter(addr, bytes, i);
}

static bool c_copy_to_iter_full(const void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_to_iter_full(addr, bytes, i);
}

static size_t c_copy_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter(addr, bytes, i);
}

static bool c_copy_from_iter_full(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full(addr, bytes, i);
}

static size_t c_copy_from_iter_nocache(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_nocache(addr, bytes, i);
}

static bool c_copy_from_iter_full_nocache(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full_nocache(addr, bytes, i);
}

static size_t c_copy_page_to_iter_nofault(struct page *page, size_t offset, size_t bytes,
					  struct iov_iter *i)
{
	return copy_page_to_iter_nofault(page, offset, bytes, i);
}

static ssize_t c_extract_pages(struct iov_iter *i, struct page ***pages, size_t maxsize,
			       unsigned int maxpages, unsigned int flags, size_t *offset0)
{
	return iov_iter_extract_pages(i, pages, maxsize, maxpages,
				      (__force iov_iter_extraction_t)flags, offset0);
}

static ssize_t c_extract_to_sg(struct iov_iter *i, size_t maxsize, struct sg_table *sgt,
			       unsigned int sg_max, unsigned int flags)
{
	return extract_iter_to_sg(i, maxsize, sgt, sg_max, (__force iov_iter_extraction_t)flags);
}

static const struct iov_model_ops c_ops = {
	.name = "C",
	.advance = iov_iter_advance,
	.revert = iov_iter_revert,
	.truncate = c_truncate,
	.reexpand = c_reexpand,
	.save_state = c_save_state,
	.restore = iov_iter_restore,
	.dup_iter = c_dup_iter,
	.copy_to_iter = c_copy_to_iter,
	.copy_to_iter_full = c_copy_to_iter_full,
	.copy_mc_to_iter = _copy_mc_to_iter,
	.copy_from_iter = c_copy_from_iter,
	.copy_from_iter_full = c_copy_from_iter_full,
	.copy_from_iter_nocache = c_copy_from_iter_nocache,
	.copy_from_iter_full_nocache = c_copy_from_iter_full_nocache,
	.copy_from_iter_flushcache = _copy_from_iter_flushcache,
	.zero = iov_iter_zero,
	.copy_page_to_iter = copy_page_to_iter,
	.copy_page_to_iter_nofault = c_copy_page_to_iter_nofault,
	.copy_page_from_iter = copy_page_from_iter,
	.copy_page_from_iter_atomic = copy_page_from_iter_atomic,
	.fault_in_readable = fault_in_iov_iter_readable,
	.fault_in_writeable = fault_in_iov_iter_writeable,
	.get_pages = iov_iter_get_pages2,
	.get_pages_alloc = iov_iter_get_pages_alloc2,
	.extract_pages = c_extract_pages,
	.extract_to_sg = c_extract_to_sg,
	.npages = iov_iter_npages,
	.alignment = iov_iter_alignment,
	.is_aligned = iov_iter_is_aligned,
	.single_seg_count = iov_iter_single_seg_count,
};

#ifdef CONFIG_IOV_ITER_MODEL_RUST_KUNIT_TEST
/*
 * The Rust executor: each operation kernel::iov offers, through its Rust
 * method.  What it offers only inside a checkpoint (truncate, reexpand) or
 * not at all (save and restore, dup) stays a C call, so that the Rust
 * methods see iterators in every state the C suite reaches.  The forms of
 * the copies and page functions that Rust does not have are not run.  The
 * kvec iterators, and the bio_vec ones of sources, are made in Rust, over
 * IoSlice, IoSliceMut and BioVec (lib/iov_iter_model_rust.rs).
 */
static const struct iov_model_ops rust_ops = {
	.name = "Rust",
	.advance = iov_model_rust_advance,
	.revert = iov_model_rust_revert,
	.truncate = c_truncate,
	.reexpand = c_reexpand,
	.save_state = c_save_state,
	.restore = iov_iter_restore,
	.dup_iter = c_dup_iter,
	.copy_to_iter = iov_model_rust_copy_to_iter,
	.copy_to_iter_full = iov_model_rust_copy_to_iter_full,
	.copy_from_iter = iov_model_rust_copy_from_iter,
	.copy_from_iter_full = iov_model_rust_copy_from_iter_full,
	.zero = iov_model_rust_zero,
	.copy_page_to_iter = iov_model_rust_copy_page_to_iter,
	.copy_page_from_iter = iov_model_rust_copy_page_from_iter,
	.copy_page_from_iter_atomic = iov_model_rust_copy_page_from_iter_atomic,
	.fault_in_readable = iov_model_rust_fault_in_readable,
	.fault_in_writeable = iov_model_rust_fault_in_writeable,
	.get_pages = iov_model_rust_get_pages,
	.extract_pages = iov_model_rust_extract_pages,
	.npages = iov_model_rust_npages,
	.alignment = iov_model_rust_alignment,
	.is_aligned = iov_model_rust_is_aligned,
	.single_seg_count = iov_model_rust_single_seg_count,
	.iter_kvec = iov_model_rust_iter_kvec,
	.iter_bvec = iov_model_rust_iter_bvec,
	.zeroing_dest = true,
	.directed = true,
	.full_fails_early = true,
	.fixed_pages = true,
	.page_copies_in_page = true,
};
#endif

static const enum iter_type model_types[] = {
	ITER_UBUF, ITER_IOVEC, ITER_KVEC, ITER_BVEC, ITER_FOLIOQ, ITER_XARRAY, ITER_DISCARD,
};

static const char *const model_type_names[] = {
	[ITER_UBUF] = "ubuf", [ITER_IOVEC] = "iovec", [ITER_KVEC] = "kvec",
	[ITER_BVEC] = "bvec", [ITER_FOLIOQ] = "folioq", [ITER_XARRAY] = "xarray",
	[ITER_DISCARD] = "discard",
};

static void model_type_desc(const enum iter_type *t, char *desc)
{
	strscpy(desc, model_type_names[*t], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(model_type, model_types, model_type_desc);

static unsigned long total_ops, total_divergences;

static void iov_model_random(struct kunit *test, const struct iov_model_ops *o)
{
	const enum iter_type *t = test->param_value;
	unsigned int n = t - model_types;
	struct iov_model_params p = {
		.seed = seed,
		.replay = replay,
		/* An equal share for each type, the remainder to the first ones. */
		.ops = ops / ARRAY_SIZE(model_types) + (n < ops % ARRAY_SIZE(model_types)),
		.type = *t,
		.trace = trace,
	};
	u64 start, ms;

	if (replay && iov_model_seed_type(replay) != *t)
		kunit_skip(test, "replaying a world of another type");
	start = ktime_get_ns();
	iov_model_run(test, o, &p);
	ms = div_u64(ktime_get_ns() - start, NSEC_PER_MSEC);
	total_ops += p.done;
	total_divergences += p.divergences;
	kunit_info(test, "%lu operations in %lu worlds, %llu ms (%llu per second), %lu divergences",
		   p.done, p.worlds, ms, div64_u64(p.done * 1000ULL, ms ?: 1), p.divergences);
}

static void iov_model_random_c(struct kunit *test)
{
	iov_model_random(test, &c_ops);
}

static int iov_model_suite_init(struct kunit_suite *suite)
{
	if (!seed)
		seed = get_random_u64();
	/* Printed before any case, so that a crash still shows it. */
	pr_info("%s: seed %#llx, %lu operations\n", suite->name, seed, ops);
	return 0;
}

/* The totals, of both suites, after the last one that is built. */
static void iov_model_suite_exit(struct kunit_suite *suite)
{
	kunit_log(KERN_INFO, suite, KUNIT_SUBTEST_INDENT
		  "# iov_iter model: %lu operations, %lu divergences", total_ops,
		  total_divergences);
}

static struct kunit_case iov_model_cases[] = {
	KUNIT_CASE_PARAM_ATTR(iov_model_random_c, model_type_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite iov_model_suite = {
	.name = "iov_iter_model",
	.suite_init = iov_model_suite_init,
	/* With the Rust suite, it prints the totals of both. */
	.suite_exit = IS_ENABLED(CONFIG_IOV_ITER_MODEL_RUST_KUNIT_TEST) ? NULL :
		      iov_model_suite_exit,
	.test_cases = iov_model_cases,
};

#ifdef CONFIG_IOV_ITER_MODEL_RUST_KUNIT_TEST
static void iov_model_random_rust(struct kunit *test)
{
	iov_model_random(test, &rust_ops);
}

static struct kunit_case iov_model_rust_cases[] = {
	KUNIT_CASE_PARAM_ATTR(iov_model_random_rust, model_type_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite iov_model_rust_suite = {
	.name = "iov_iter_model_rust",
	.suite_init = iov_model_suite_init,
	.suite_exit = iov_model_suite_exit,
	.test_cases = iov_model_rust_cases,
};

kunit_test_suites(&iov_model_suite, &iov_model_rust_suite);
#else
kunit_test_suite(iov_model_suite);
#endif

MODULE_DESCRIPTION("Model-based random test of the iov_iter interface");
MODULE_LICENSE("GPL");
