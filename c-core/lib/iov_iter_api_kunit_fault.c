// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_fault: short copies and fault-in on user memory
 * with holes in it.
 */

#include "iov_iter_api_kunit.h"

static bool iov_kunit_from_iter_full(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full(addr, bytes, i);
}

static bool iov_kunit_from_iter_full_nocache(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full_nocache(addr, bytes, i);
}

struct iov_kunit_hole {
	const char *name;
	unsigned int page;	/* page of the store made inaccessible */
	bool unmap;		/* unmapped rather than PROT_NONE */
};

/* Iterators in these tests cover store bytes 0x800..0x4000, pages 0-3. */
static const struct iov_kunit_hole holes[] = {
	{ "PROT_NONE page in the middle", 2, false },
	{ "unmapped page in the middle", 2, true },
	{ "PROT_NONE page at the end", 3, false },
	{ "unmapped page at the end", 3, true },
};

static void hole_desc(const struct iov_kunit_hole *h, char *desc)
{
	strscpy(desc, h->name, KUNIT_PARAM_DESC_SIZE);
}

static const struct iov_kunit_hole mid_holes[] = {
	{ "PROT_NONE page", 2, false },
	{ "unmapped page", 2, true },
};

KUNIT_ARRAY_PARAM(hole, holes, hole_desc);
KUNIT_ARRAY_PARAM(mid_hole, mid_holes, hole_desc);

static const struct iov_kunit_range fault_ubuf[] = { { 0x0800, 0x4000 } };

static const struct iov_kunit_layout fault_ubuf_layout = {
	"fault", fault_ubuf, ARRAY_SIZE(fault_ubuf)
};

/*
 * copy_from_iter() from a user buffer with a hole: it returns a prefix,
 * writes nothing past it and advances by exactly what it returned.  The
 * nocache and flushcache variants, whose x86 user copy is
 * copy_to_nontemporal(), stop at the hole in the same way.
 */
static void iov_kunit_fault_from_ubuf(struct kunit *test,
				      size_t (*copy)(void *addr, size_t bytes, struct iov_iter *i))
{
	const struct iov_kunit_layout *layout = &fault_ubuf_layout;
	const struct iov_kunit_hole *h = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_UBUF, ITER_SOURCE, layout);
	size_t avail = h->page * PAGE_SIZE - 0x800, got;
	u8 *dst = iov_kunit_vzalloc(test, it->total);
	u8 *stream = iov_kunit_vzalloc(test, it->total);

	iov_kunit_source_stream(it, stream);
	iov_kunit_make_hole(test, &it->store, h->page, h->unmap);

	got = copy(dst, it->total, &it->iter);
	iov_kunit_check_short(test, got, 0, avail);
	iov_kunit_check_at(test, it, got);
	iov_kunit_same(test, dst, stream, got, "copied prefix");
	iov_kunit_all_zero(test, dst + got, it->total - got, "past the copy");

	/* At the hole now: no progress, no movement. */
	if (EXACT_USER_FAULTS) {
		KUNIT_EXPECT_EQ(test, copy(dst, it->total, &it->iter), 0);
		iov_kunit_check_at(test, it, got);
	}
}

static void iov_kunit_fault_copy_from_ubuf(struct kunit *test)
{
	iov_kunit_fault_from_ubuf(test, iov_kunit_from_iter);
}

static void iov_kunit_fault_copy_from_nocache_ubuf(struct kunit *test)
{
	iov_kunit_fault_from_ubuf(test, _copy_from_iter_nocache);
}

static void iov_kunit_fault_copy_from_flushcache_ubuf(struct kunit *test)
{
	iov_kunit_fault_from_ubuf(test, _copy_from_iter_flushcache);
}

/* Read a user range of the store that avoids the hole. */
static void iov_kunit_expect_user(struct kunit *test, struct iov_kunit_store *s,
				  size_t from, size_t to, const u8 *want, const char *what)
{
	u8 *buf;

	if (from >= to)
		return;
	buf = kunit_kmalloc(test, to - from, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	iov_kunit_store_io(test, s, from, buf, to - from, false);
	if (want)
		iov_kunit_same(test, buf, want, to - from, what);
	else
		iov_kunit_all_zero(test, buf, to - from, what);
}

/*
 * copy_to_iter() into a user buffer with a hole.  _copy_mc_to_iter() only
 * differs on a memory error in its (kernel) source: a fault in the user
 * destination is a short copy in the same way.
 */
static void iov_kunit_fault_to_ubuf(struct kunit *test,
				    size_t (*copy)(const void *addr, size_t bytes,
						   struct iov_iter *i))
{
	const struct iov_kunit_layout *layout = &fault_ubuf_layout;
	const struct iov_kunit_hole *h = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_UBUF, ITER_DEST, layout);
	size_t hole = h->page * PAGE_SIZE, avail = hole - 0x800, got;
	u8 *src = iov_kunit_vzalloc(test, it->total);

	iov_kunit_fill(src, it->total, 0);
	iov_kunit_make_hole(test, &it->store, h->page, h->unmap);

	got = copy(src, it->total, &it->iter);
	iov_kunit_check_short(test, got, 0, avail);
	iov_kunit_check_at(test, it, got);
	iov_kunit_expect_user(test, &it->store, 0x800, 0x800 + got, src, "copied prefix");
	iov_kunit_expect_user(test, &it->store, 0x800 + got, hole, NULL, "before the hole");
	iov_kunit_expect_user(test, &it->store, hole + PAGE_SIZE, it->store.size, NULL,
			      "after the hole");
	iov_kunit_expect_user(test, &it->store, 0, 0x800, NULL, "before the buffer");
	if (EXACT_USER_FAULTS) {
		KUNIT_EXPECT_EQ(test, copy(src, it->total, &it->iter), 0);
		iov_kunit_check_at(test, it, got);
	}
}

static void iov_kunit_fault_copy_to_ubuf(struct kunit *test)
{
	iov_kunit_fault_to_ubuf(test, iov_kunit_to_iter);
}

static void iov_kunit_fault_copy_mc_to_ubuf(struct kunit *test)
{
	iov_kunit_fault_to_ubuf(test, _copy_mc_to_iter);
}

/*
 * An iovec whose third segment runs into a PROT_NONE page: everything before
 * the hole arrives, the cursor stops inside that segment, and the _full
 * variant undoes all of it.
 */
static const struct iov_kunit_range fault_vec[] = {
	{ 0x0100, 0x0200 }, { NULL_SEG, 0 }, { 0x1f80, 0x2080 }, { 0x3010, 0x3020 },
};

static const struct iov_kunit_layout fault_vec_layout = {
	"fault", fault_vec, ARRAY_SIZE(fault_vec)
};

/* A source copy function and its all-or-nothing form, if there is one. */
struct iov_kunit_from_variant {
	const char *name;
	size_t (*copy)(void *addr, size_t bytes, struct iov_iter *i);
	bool (*full)(void *addr, size_t bytes, struct iov_iter *i);
};

static const struct iov_kunit_from_variant from_variants[] = {
	{ "copy_from_iter", iov_kunit_from_iter, iov_kunit_from_iter_full },
	{ "nocache", _copy_from_iter_nocache, iov_kunit_from_iter_full_nocache },
	{ "flushcache", _copy_from_iter_flushcache, NULL },
};

static void from_variant_desc(const struct iov_kunit_from_variant *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(from_variant, from_variants, from_variant_desc);

static void iov_kunit_fault_copy_from_iovec(struct kunit *test)
{
	const struct iov_kunit_from_variant *v = test->param_value;
	const struct iov_kunit_layout *layout = &fault_vec_layout;
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, layout);
	u8 *dst = iov_kunit_vzalloc(test, it->total);
	u8 *stream = iov_kunit_vzalloc(test, it->total);
	size_t got;

	iov_kunit_source_stream(it, stream);
	iov_kunit_make_hole(test, &it->store, 2, false);

	if (v->full) {
		KUNIT_EXPECT_FALSE(test, v->full(dst, it->total, &it->iter));
		iov_kunit_check_at(test, it, 0);
		memset(dst, 0, it->total);
	}

	got = v->copy(dst, it->total, &it->iter);
	/* The first segment is fully accessible, so it is copied whole. */
	iov_kunit_check_short(test, got, 0xff, 0x180);
	iov_kunit_check_at(test, it, got);
	if (EXACT_USER_FAULTS)
		KUNIT_EXPECT_PTR_EQ(test, iter_iov(&it->iter), &it->iov[2]);
	iov_kunit_same(test, dst, stream, got, "copied prefix");
	iov_kunit_all_zero(test, dst + got, it->total - got, "past the copy");
}

/* A segment entirely inside the hole: the copy stops at its start. */
static const struct iov_kunit_range fault_vec_whole[] = {
	{ 0x0100, 0x0140 }, { 0x2100, 0x2140 }, { 0x3100, 0x3140 },
};

static const struct iov_kunit_layout fault_vec_whole_layout = {
	"fault", fault_vec_whole, ARRAY_SIZE(fault_vec_whole)
};

static void iov_kunit_fault_to_iovec(struct kunit *test,
				     size_t (*copy)(const void *addr, size_t bytes,
						    struct iov_iter *i))
{
	const struct iov_kunit_layout *layout = &fault_vec_whole_layout;
	const struct iov_kunit_hole *h = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_DEST, layout);
	u8 *src = iov_kunit_vzalloc(test, it->total);
	size_t got;

	iov_kunit_fill(src, it->total, 0);
	iov_kunit_make_hole(test, &it->store, h->page, h->unmap);

	got = copy(src, it->total, &it->iter);
	KUNIT_EXPECT_EQ(test, got, 0x40);
	iov_kunit_check_at(test, it, 0x40);
	KUNIT_EXPECT_PTR_EQ(test, iter_iov(&it->iter), &it->iov[1]);
	iov_kunit_expect_user(test, &it->store, 0x100, 0x140, src, "first segment");
	iov_kunit_expect_user(test, &it->store, 0x3000, 0x4000, NULL, "after the hole");
}

static void iov_kunit_fault_copy_to_iovec(struct kunit *test)
{
	iov_kunit_fault_to_iovec(test, iov_kunit_to_iter);
}

static void iov_kunit_fault_copy_mc_to_iovec(struct kunit *test)
{
	iov_kunit_fault_to_iovec(test, _copy_mc_to_iter);
}

/* iov_iter_zero() into a user buffer with a hole. */
static void iov_kunit_fault_zero_ubuf(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &fault_ubuf_layout;
	const struct iov_kunit_hole *h = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_UBUF, ITER_DEST, layout);
	size_t hole = h->page * PAGE_SIZE, got;
	u8 *img;

	iov_kunit_store_fill(test, &it->store);
	img = iov_kunit_store_snapshot(test, &it->store);
	iov_kunit_make_hole(test, &it->store, h->page, h->unmap);

	got = iov_iter_zero(it->total, &it->iter);
	iov_kunit_check_short(test, got, 0, hole - 0x800);
	iov_kunit_check_at(test, it, got);
	iov_kunit_expect_user(test, &it->store, 0x800, 0x800 + got, NULL, "zeroed prefix");
	iov_kunit_expect_user(test, &it->store, 0x800 + got, hole, img + 0x800 + got,
			      "before the hole");
	iov_kunit_expect_user(test, &it->store, hole + PAGE_SIZE, it->store.size,
			      img + hole + PAGE_SIZE, "after the hole");
}

/*
 * fault_in_iov_iter_readable() returns the number of bytes of the request
 * it could not fault in.  fault_in_readable() probes one byte per page, so
 * the answer is page-exact on every architecture: the bytes from the start
 * of the first bad page to the end of the request.  Asking for more than
 * the iterator holds counts the excess as not faulted in.
 */
static void iov_kunit_fault_in_readable(struct kunit *test)
{
	const struct iov_kunit_layout *ubuf = &fault_ubuf_layout;
	const struct iov_kunit_layout *vec = &fault_vec_layout;
	const struct iov_kunit_hole *h = test->param_value;
	struct iov_kunit_iter *u = iov_kunit_build(test, ITER_UBUF, ITER_SOURCE, ubuf);
	struct iov_kunit_iter *v = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, vec);
	size_t hole = h->page * PAGE_SIZE;

	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, u->total), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, u->total + 99), 99);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&v->iter, v->total), 0);

	iov_kunit_make_hole(test, &u->store, h->page, h->unmap);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, u->total),
			0x4000 - hole);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, hole - 0x800), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, u->total + 7),
			0x4000 - hole + 7);
	/* It probes, it does not move the iterator. */
	iov_kunit_check_at(test, u, 0);

	if (h->page != 2)
		return;
	/* In the iovec the hole cuts the third segment 0x80 bytes in. */
	iov_kunit_make_hole(test, &v->store, h->page, h->unmap);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&v->iter, v->total), 0x80 + 0x10);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&v->iter, 0x180), 0);
	/* Past the hole, only the last segment is left to probe. */
	iov_iter_advance(&v->iter, 0x100 + 0x100);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&v->iter, 0x10), 0);
}

/*
 * fault_in_iov_iter_writeable() on a read-only page: readable, not
 * writeable.  Faulting in fresh pages for writing makes them present, so an
 * atomic copy into them then succeeds.
 */
static void iov_kunit_fault_in_writeable(struct kunit *test)
{
	const struct iov_kunit_layout *ubuf = &fault_ubuf_layout;
	const struct iov_kunit_layout *vec = &fault_vec_layout;
	struct iov_kunit_iter *u = iov_kunit_build(test, ITER_UBUF, ITER_DEST, ubuf);
	struct iov_kunit_iter *v = iov_kunit_build(test, ITER_IOVEC, ITER_DEST, vec);
	u8 *src = iov_kunit_vzalloc(test, u->total);
	size_t got;

	/* Nothing was ever written to these fresh mappings. */
	pagefault_disable();
	got = copy_to_iter(src, u->total, &u->iter);
	pagefault_enable();
	KUNIT_EXPECT_EQ(test, got, 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&u->iter, u->total), 0);
	iov_kunit_fill(src, u->total, 0);
	pagefault_disable();
	got = copy_to_iter(src, u->total, &u->iter);
	pagefault_enable();
	KUNIT_EXPECT_EQ(test, got, u->total);
	iov_kunit_expect_user(test, &u->store, 0x800, 0x4000, src, "copied");

	iov_kunit_mmap(test, u->store.uaddr + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ);
	iov_iter_revert(&u->iter, u->total);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&u->iter, u->total), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&u->iter, u->total), 0x2000);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&u->iter, 0x1800), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&u->iter, u->total + 5), 0x2005);
	iov_kunit_check_at(test, u, 0);

	iov_kunit_mmap(test, v->store.uaddr + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&v->iter, v->total), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&v->iter, v->total), 0x90);
}

/* Kernel-backed iterators have nothing to fault in: always 0. */
static void iov_kunit_fault_in_kernel(struct kunit *test)
{
	const struct iov_kunit_layout *kv = &iov_kunit_vec_layouts[0];
	const struct iov_kunit_layout *bv = &iov_kunit_bvec_layouts[0];
	struct iov_kunit_iter *k = iov_kunit_build(test, ITER_KVEC, ITER_SOURCE, kv);
	struct iov_kunit_iter *b = iov_kunit_build(test, ITER_BVEC, ITER_DEST, bv);

	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&k->iter, k->total + 100), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&k->iter, k->total + 100), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_readable(&b->iter, b->total), 0);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&b->iter, b->total), 0);
}

static struct kunit_case iov_kunit_fault_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_from_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_to_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_mc_to_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_from_nocache_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_from_flushcache_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_from_iovec, from_variant_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_to_iovec, mid_hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_copy_mc_to_iovec, mid_hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_zero_ubuf, hole_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_fault_in_readable, hole_gen_params),
	KUNIT_CASE(iov_kunit_fault_in_writeable),
	KUNIT_CASE(iov_kunit_fault_in_kernel),
	{}
};

static struct kunit_suite iov_kunit_fault_suite = {
	.name = "iov_iter_api_fault",
	.test_cases = iov_kunit_fault_cases,
};

kunit_test_suite(iov_kunit_fault_suite);
