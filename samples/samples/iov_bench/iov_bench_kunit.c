// SPDX-License-Identifier: GPL-2.0
/*
 * iov_bench_kunit - what the Rust kernel::iov wrapper costs over the C
 * iov_iter API it calls, measured in the kernel.
 *
 * Every copy path below exists twice: in C here, calling copy_to_iter(),
 * copy_from_iter(), copy_page_to_iter() and copy_page_from_iter_atomic()
 * directly, and in Rust in rust_iov_bench.rs, making the same calls
 * through kernel::iov. Both copy the same bytes between the same buffers,
 * and the harness calls either one through a function that is not inlined,
 * once per copy, so the only difference is the wrapper.
 *
 * Paths, each for every size in bench_sizes[]:
 *   kvec_to, kvec_from    the copy function builds a one-segment kvec
 *                         iterator over a kernel buffer and copies;
 *   ubuf_to, ubuf_from    the harness builds an ITER_UBUF iterator over
 *                         user memory (kunit_vm_mmap()) and hands it to
 *                         the copy function, the way the VFS hands one to
 *                         ->read_iter() and ->write_iter();
 *   iovec_to, iovec_from  the same with an ITER_IOVEC of BENCH_SEGS
 *                         equal segments;
 *   page_to, page_from    the harness builds an ITER_UBUF; the copy
 *                         function copies page by page between it and
 *                         kernel pages, as the RAM file samples do.
 *
 * Cases:
 *   paths_agree   each path, both languages, each size: the full count,
 *                 and the destination holds exactly the source's bytes;
 *   wrapper_cost  times batches of copies by C, by Rust and by a plain
 *                 memcpy() of the same size between kernel buffers (the
 *                 ceiling), in rotation (C R M, R M C, M C R, ...), and
 *                 prints one line per path, size and variant:
 *                   iov-bench: PATH SIZE OPS VARIANT NS NS ...
 *                 the nanoseconds of each batch of OPS copies. The host
 *                 takes medians and ratios (qemu/bench-iov.py in the
 *                 project that boots this). Only ratios inside one boot
 *                 mean anything.
 *
 * Parameters (iov_bench_kunit.NAME=VALUE on the kernel command line):
 * samples, batches per variant and cell (default 5, at most
 * BENCH_MAX_SAMPLES), and batch_kib, the bytes each batch copies (default
 * 64 KiB; at least one copy).
 */

#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>

#include "iov_bench.h"

#define BENCH_MAX		SZ_1M
#define BENCH_PAGES		(BENCH_MAX / PAGE_SIZE)
#define BENCH_SEGS		8
#define BENCH_MAX_SAMPLES	64

static unsigned int samples = 5;
module_param(samples, uint, 0444);
MODULE_PARM_DESC(samples, "timed batches per variant and cell (default 5)");

static unsigned int batch_kib = 64;
module_param(batch_kib, uint, 0444);
MODULE_PARM_DESC(batch_kib, "KiB copied per timed batch (default 64)");

static const size_t bench_sizes[] = {
	64, 256, SZ_1K, SZ_4K, SZ_16K, SZ_64K, SZ_256K, SZ_1M,
};

struct bench {
	struct kunit *test;
	u8 *ksrc;		/* kernel source of the copies */
	u8 *kdst;		/* kernel destination of the copies */
	u8 *kchk;		/* where results are gathered to be checked */
	void __user *user;	/* BENCH_MAX bytes of resident user memory */
	struct iovec iov[BENCH_SEGS];
	struct rust_iov_bench_pages *rpages;
	struct page *pages[BENCH_PAGES];
	struct iov_iter iter;
};

/* The C copy functions: what the Rust ones in rust_iov_bench.rs do. */

static noinline size_t c_kvec_to(void *dst, const void *src, size_t len)
{
	struct kvec kv = { .iov_base = dst, .iov_len = len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, ITER_DEST, &kv, 1, len);
	return copy_to_iter(src, len, &iter);
}

static noinline size_t c_kvec_from(void *dst, const void *src, size_t len)
{
	struct kvec kv = { .iov_base = (void *)src, .iov_len = len };
	struct iov_iter iter;

	iov_iter_kvec(&iter, ITER_SOURCE, &kv, 1, len);
	return copy_from_iter(dst, len, &iter);
}

static noinline size_t c_copy_to(struct iov_iter *iter, const void *src, size_t len)
{
	return copy_to_iter(src, len, iter);
}

static noinline size_t c_copy_from(struct iov_iter *iter, void *dst, size_t len)
{
	return copy_from_iter(dst, len, iter);
}

/* Never past the last of @nr pages, as the Rust twin's iterator. */
static noinline size_t c_page_to(struct page **pages, size_t nr,
				 struct iov_iter *iter, size_t len)
{
	size_t done = 0, want, n, i;

	for (i = 0; i < nr && done < len; i++) {
		want = min_t(size_t, len - done, PAGE_SIZE);
		n = copy_page_to_iter(pages[i], 0, want, iter);
		done += n;
		if (n < want)
			break;
	}
	return done;
}

/* Never past the last of @nr pages, as the Rust twin's iterator. */
static noinline size_t c_page_from(struct page **pages, size_t nr,
				   struct iov_iter *iter, size_t len)
{
	size_t done = 0, want, n, i;

	for (i = 0; i < nr && done < len; i++) {
		want = min_t(size_t, len - done, PAGE_SIZE);
		n = copy_page_from_iter_atomic(pages[i], 0, want, iter);
		done += n;
		if (n < want)
			break;
	}
	return done;
}

/* The iterators the harness hands to the copy functions. */

static void bench_ubuf(struct bench *b, unsigned int dir, size_t size)
{
	iov_iter_ubuf(&b->iter, dir, b->user, size);
}

static void bench_iovec(struct bench *b, unsigned int dir, size_t size)
{
	iov_iter_init(&b->iter, dir, b->iov, BENCH_SEGS, size);
}

static void bench_none(struct bench *b, unsigned int dir, size_t size)
{
}

/* BENCH_SEGS equal segments over the first @size bytes of user memory. */
static void bench_set_iov(struct bench *b, size_t size)
{
	size_t seg = size / BENCH_SEGS;
	unsigned int i;

	for (i = 0; i < BENCH_SEGS; i++) {
		b->iov[i].iov_base = b->user + i * seg;
		b->iov[i].iov_len = seg;
	}
}

/*
 * One batch: @ops copies of @size bytes, each through a freshly built
 * iterator. Returns how many copies came up short (none, unless broken).
 */
typedef unsigned int (*bench_loop_t)(struct bench *b, size_t size, unsigned int ops);

#define BENCH_LOOP(name, iter_fn, dir, copy)				\
static unsigned int name##_loop(struct bench *b, size_t size, unsigned int ops) \
{									\
	unsigned int i, short_copies = 0;				\
									\
	for (i = 0; i < ops; i++) {					\
		iter_fn(b, dir, size);					\
		short_copies += (copy) != size;				\
	}								\
	return short_copies;						\
}

BENCH_LOOP(c_kvec_to, bench_none, 0, c_kvec_to(b->kdst, b->ksrc, size))
BENCH_LOOP(r_kvec_to, bench_none, 0, rust_iov_bench_kvec_to(b->kdst, b->ksrc, size))
BENCH_LOOP(c_kvec_from, bench_none, 0, c_kvec_from(b->kdst, b->ksrc, size))
BENCH_LOOP(r_kvec_from, bench_none, 0, rust_iov_bench_kvec_from(b->kdst, b->ksrc, size))
BENCH_LOOP(c_ubuf_to, bench_ubuf, ITER_DEST, c_copy_to(&b->iter, b->ksrc, size))
BENCH_LOOP(r_ubuf_to, bench_ubuf, ITER_DEST,
	   rust_iov_bench_copy_to(&b->iter, b->ksrc, size))
BENCH_LOOP(c_ubuf_from, bench_ubuf, ITER_SOURCE, c_copy_from(&b->iter, b->kdst, size))
BENCH_LOOP(r_ubuf_from, bench_ubuf, ITER_SOURCE,
	   rust_iov_bench_copy_from(&b->iter, b->kdst, size))
BENCH_LOOP(c_iovec_to, bench_iovec, ITER_DEST, c_copy_to(&b->iter, b->ksrc, size))
BENCH_LOOP(r_iovec_to, bench_iovec, ITER_DEST,
	   rust_iov_bench_copy_to(&b->iter, b->ksrc, size))
BENCH_LOOP(c_iovec_from, bench_iovec, ITER_SOURCE, c_copy_from(&b->iter, b->kdst, size))
BENCH_LOOP(r_iovec_from, bench_iovec, ITER_SOURCE,
	   rust_iov_bench_copy_from(&b->iter, b->kdst, size))
BENCH_LOOP(c_page_to, bench_ubuf, ITER_DEST, c_page_to(b->pages, BENCH_PAGES, &b->iter, size))
BENCH_LOOP(r_page_to, bench_ubuf, ITER_DEST,
	   rust_iov_bench_page_to(b->rpages, &b->iter, size))
BENCH_LOOP(c_page_from, bench_ubuf, ITER_SOURCE, c_page_from(b->pages, BENCH_PAGES, &b->iter, size))
BENCH_LOOP(r_page_from, bench_ubuf, ITER_SOURCE,
	   rust_iov_bench_page_from(b->rpages, &b->iter, size))

/* The ceiling: the same amount moved by memcpy() between kernel buffers. */
static unsigned int memcpy_loop(struct bench *b, size_t size, unsigned int ops)
{
	unsigned int i;

	for (i = 0; i < ops; i++) {
		memcpy(b->kdst, b->ksrc, size);
		/* Every copy must happen, not only the last one. */
		barrier();
	}
	return 0;
}

/* Where a path's bytes come from and go to. */
enum bench_end { END_KSRC, END_KDST, END_USER, END_PAGES };

struct bench_path {
	const char *name;
	bench_loop_t loop[2];	/* C, Rust */
	enum bench_end from, to;
};

static const struct bench_path bench_paths[] = {
	{ "kvec_to", { c_kvec_to_loop, r_kvec_to_loop }, END_KSRC, END_KDST },
	{ "kvec_from", { c_kvec_from_loop, r_kvec_from_loop }, END_KSRC, END_KDST },
	{ "ubuf_to", { c_ubuf_to_loop, r_ubuf_to_loop }, END_KSRC, END_USER },
	{ "ubuf_from", { c_ubuf_from_loop, r_ubuf_from_loop }, END_USER, END_KDST },
	{ "iovec_to", { c_iovec_to_loop, r_iovec_to_loop }, END_KSRC, END_USER },
	{ "iovec_from", { c_iovec_from_loop, r_iovec_from_loop }, END_USER, END_KDST },
	{ "page_to", { c_page_to_loop, r_page_to_loop }, END_PAGES, END_USER },
	{ "page_from", { c_page_from_loop, r_page_from_loop }, END_USER, END_PAGES },
};

static const char *const bench_variants[] = { "c", "rust", "memcpy" };

KUNIT_DEFINE_ACTION_WRAPPER(bench_vfree, vfree, const void *);

static void bench_free_pages(void *p)
{
	rust_iov_bench_pages_free(p);
}

static u8 *bench_vmalloc(struct kunit *test)
{
	u8 *p = vzalloc(BENCH_MAX);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_vfree, p));
	return p;
}

static struct bench *bench_setup(struct kunit *test)
{
	struct bench *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned long addr;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	b->test = test;
	b->ksrc = bench_vmalloc(test);
	b->kdst = bench_vmalloc(test);
	b->kchk = bench_vmalloc(test);
	addr = kunit_vm_mmap(test, NULL, 0, BENCH_MAX, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_FALSE(test, !addr || IS_ERR_VALUE(addr));
	b->user = (void __user *)addr;
	/* Resident user memory: the copies are measured, not page faults. */
	KUNIT_ASSERT_EQ(test, 0, copy_to_user(b->user, b->kdst, BENCH_MAX));
	b->rpages = rust_iov_bench_pages_new(BENCH_PAGES);
	KUNIT_ASSERT_NOT_NULL(test, b->rpages);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_free_pages, b->rpages));
	for (i = 0; i < BENCH_PAGES; i++) {
		b->pages[i] = rust_iov_bench_page(b->rpages, i);
		KUNIT_ASSERT_NOT_NULL(test, b->pages[i]);
	}
	KUNIT_EXPECT_NULL(test, rust_iov_bench_page(b->rpages, BENCH_PAGES));
	return b;
}

/* Put @size bytes of a pattern particular to @seed at the path's source. */
static void bench_fill_source(struct bench *b, const struct bench_path *p, size_t size,
			      unsigned int seed)
{
	struct kunit *test = b->test;
	size_t i;

	for (i = 0; i < size; i++)
		b->ksrc[i] = (i * 13 + (i >> 9) + seed * 101) | 1;
	if (p->from == END_USER)
		KUNIT_ASSERT_EQ(test, 0, copy_to_user(b->user, b->ksrc, size));
	if (p->from == END_PAGES)
		for (i = 0; i < size; i += PAGE_SIZE)
			memcpy_to_page(b->pages[i / PAGE_SIZE], 0, b->ksrc + i,
				       min_t(size_t, size - i, PAGE_SIZE));
}

static void bench_clear_dest(struct bench *b, const struct bench_path *p)
{
	size_t i;

	if (p->to == END_KDST)
		memset(b->kdst, 0, BENCH_MAX);
	if (p->to == END_USER)
		KUNIT_ASSERT_EQ(b->test, 0, clear_user(b->user, BENCH_MAX));
	if (p->to == END_PAGES)
		for (i = 0; i < BENCH_PAGES; i++)
			memzero_page(b->pages[i], 0, PAGE_SIZE);
}

/* The first @size bytes of the path's destination, into b->kchk. */
static void bench_gather_dest(struct bench *b, const struct bench_path *p, size_t size)
{
	size_t i;

	if (p->to == END_KDST)
		memcpy(b->kchk, b->kdst, size);
	if (p->to == END_USER)
		KUNIT_ASSERT_EQ(b->test, 0, copy_from_user(b->kchk, b->user, size));
	if (p->to == END_PAGES)
		for (i = 0; i < size; i += PAGE_SIZE)
			memcpy_from_page(b->kchk + i, b->pages[i / PAGE_SIZE], 0,
					 min_t(size_t, size - i, PAGE_SIZE));
}

static void iov_bench_paths_agree(struct kunit *test)
{
	struct bench *b = bench_setup(test);
	unsigned int i, j, lang;

	for (i = 0; i < ARRAY_SIZE(bench_paths); i++) {
		const struct bench_path *p = &bench_paths[i];

		for (j = 0; j < ARRAY_SIZE(bench_sizes); j++) {
			size_t size = bench_sizes[j];

			bench_set_iov(b, size);
			for (lang = 0; lang < 2; lang++) {
				bench_fill_source(b, p, size, j * 2 + lang);
				bench_clear_dest(b, p);
				KUNIT_EXPECT_EQ_MSG(test, 0, p->loop[lang](b, size, 1),
						    "%s, %zu bytes, %s: short copy", p->name,
						    size, bench_variants[lang]);
				bench_gather_dest(b, p, size);
				KUNIT_EXPECT_MEMEQ_MSG(test, b->kchk, b->ksrc, size,
						       "%s, %zu bytes, %s", p->name, size,
						       bench_variants[lang]);
			}
		}
	}
}

/* Time every variant of one path at one size and print the batch times. */
static void bench_cell(struct bench *b, const struct bench_path *p, size_t size,
		       unsigned int nsamples)
{
	bench_loop_t loops[] = { p->loop[0], p->loop[1], memcpy_loop };
	unsigned int ops = max_t(size_t, 1, (size_t)batch_kib * SZ_1K / size);
	static u64 ns[ARRAY_SIZE(loops)][BENCH_MAX_SAMPLES];
	static char line[1024];
	unsigned int s, k, v, short_copies = 0;
	int len;

	bench_set_iov(b, size);
	/* One untimed batch each, so that caches and TLBs are warm. */
	for (v = 0; v < ARRAY_SIZE(loops); v++)
		short_copies += loops[v](b, size, ops);
	for (s = 0; s < nsamples; s++) {
		for (k = 0; k < ARRAY_SIZE(loops); k++) {
			u64 t0;

			v = (s + k) % ARRAY_SIZE(loops);
			t0 = ktime_get_ns();
			short_copies += loops[v](b, size, ops);
			ns[v][s] = ktime_get_ns() - t0;
		}
		cond_resched();
	}
	KUNIT_EXPECT_EQ_MSG(b->test, 0, short_copies, "%s, %zu bytes", p->name, size);

	for (v = 0; v < ARRAY_SIZE(loops); v++) {
		len = scnprintf(line, sizeof(line), "iov-bench: %s %zu %u %s", p->name, size,
				ops, bench_variants[v]);
		for (s = 0; s < nsamples; s++)
			len += scnprintf(line + len, sizeof(line) - len, " %llu", ns[v][s]);
		kunit_info(b->test, "%s\n", line);
	}
}

static void iov_bench_wrapper_cost(struct kunit *test)
{
	unsigned int nsamples = clamp_t(unsigned int, samples, 1, BENCH_MAX_SAMPLES);
	struct bench *b = bench_setup(test);
	unsigned int i, j;

	kunit_info(test, "iov-bench: start samples %u batch_kib %u\n", nsamples, batch_kib);
	for (i = 0; i < ARRAY_SIZE(bench_paths); i++)
		for (j = 0; j < ARRAY_SIZE(bench_sizes); j++)
			bench_cell(b, &bench_paths[i], bench_sizes[j], nsamples);
	kunit_info(test, "iov-bench: end\n");
}

static struct kunit_case iov_bench_cases[] = {
	KUNIT_CASE(iov_bench_paths_agree),
	KUNIT_CASE_SLOW(iov_bench_wrapper_cost),
	{}
};

static struct kunit_suite iov_bench_suite = {
	.name = "iov_rust_bench",
	.test_cases = iov_bench_cases,
};

kunit_test_suites(&iov_bench_suite);

MODULE_DESCRIPTION("Copy costs of the Rust kernel::iov wrapper against the C iov_iter API");
MODULE_LICENSE("GPL");
