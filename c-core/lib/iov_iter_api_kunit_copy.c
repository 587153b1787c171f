// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_copy: copy_to_iter() and copy_from_iter(), and
 * their _mc and _flushcache variants, over every iterator type, in chunks
 * of odd sizes.
 */

#include "iov_iter_api_kunit.h"

KUNIT_ARRAY_PARAM(vec, iov_kunit_vec_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(bvec, iov_kunit_bvec_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(flat, iov_kunit_flat_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(folioq, iov_kunit_folioq_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(discard, iov_kunit_discard_layouts, iov_kunit_layout_desc);

/* Chunk sizes of successive copies: odd, page-sized and multi-page. */
static const size_t copy_steps[] = { 1, 0x7ff, 0x1000, 3, 0x2345, 0x10, 0x1001, 0x5000 };

static void iov_kunit_copy_to(struct kunit *test, enum iter_type type,
			      size_t (*copy)(const void *addr, size_t bytes, struct iov_iter *i))
{
	const struct iov_kunit_layout *layout = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, type, ITER_DEST, layout);
	size_t done = 0, got, want, step = 0;
	u8 *src, *img = NULL, *cur;

	src = iov_kunit_vzalloc(test, it->total + 0x5000);
	iov_kunit_fill(src, it->total + 0x5000, 0);
	if (type != ITER_DISCARD)
		img = iov_kunit_vzalloc(test, it->store.size);

	while (done < it->total) {
		want = copy_steps[step++ % ARRAY_SIZE(copy_steps)];
		got = copy(src + done, want, &it->iter);
		KUNIT_ASSERT_EQ(test, got, min(want, it->total - done));
		done += got;
		iov_kunit_check_at(test, it, done);
		if (!img)
			continue;
		/* Written up to the cursor, and not one byte further. */
		iov_kunit_dest_image(it, done, img);
		cur = iov_kunit_store_snapshot(test, &it->store);
		if (!iov_kunit_same(test, cur, img, it->store.size, "store"))
			return;
		kunit_release_action(test, iov_kunit_vfree, cur);
	}
	/* An exhausted iterator takes nothing and does not move. */
	KUNIT_EXPECT_EQ(test, copy(src, 16, &it->iter), 0);
	iov_kunit_check_at(test, it, it->total);
}

static void iov_kunit_copy_from(struct kunit *test, enum iter_type type,
				size_t (*copy)(void *addr, size_t bytes, struct iov_iter *i))
{
	const struct iov_kunit_layout *layout = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, type, ITER_SOURCE, layout);
	size_t done = 0, got, want, step = 0;
	u8 *dst, *stream, *before, *after;

	dst = iov_kunit_vzalloc(test, it->total + 0x5000);
	stream = iov_kunit_vzalloc(test, it->total + 0x5000);
	iov_kunit_source_stream(it, stream);
	before = iov_kunit_store_snapshot(test, &it->store);

	while (done < it->total) {
		want = copy_steps[step++ % ARRAY_SIZE(copy_steps)];
		got = copy(dst + done, want, &it->iter);
		KUNIT_ASSERT_EQ(test, got, min(want, it->total - done));
		done += got;
		iov_kunit_check_at(test, it, done);
		/* Read up to the cursor; the rest of dst is still poison. */
		if (!iov_kunit_same(test, dst, stream, done, "destination") ||
		    !iov_kunit_all_zero(test, dst + done, it->total + 0x5000 - done, "beyond"))
			return;
	}
	KUNIT_EXPECT_EQ(test, copy(dst, 16, &it->iter), 0);
	iov_kunit_check_at(test, it, it->total);
	after = iov_kunit_store_snapshot(test, &it->store);
	iov_kunit_same(test, after, before, it->store.size, "source store");
}

/*
 * Each type is also a destination for _copy_mc_to_iter() and a source for
 * _copy_from_iter_flushcache(), which have the same contract when no
 * memory error occurs (x86-64 has both: ARCH_HAS_COPY_MC and
 * ARCH_HAS_UACCESS_FLUSHCACHE).
 */
#define COPY_CASE(_name, _test, _type, _copy)				\
static void iov_kunit_##_name(struct kunit *test)			\
{									\
	iov_kunit_##_test(test, _type, _copy);				\
}

COPY_CASE(copy_to_ubuf, copy_to, ITER_UBUF, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_ubuf, copy_to, ITER_UBUF, _copy_mc_to_iter)
COPY_CASE(copy_from_ubuf, copy_from, ITER_UBUF, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_ubuf, copy_from, ITER_UBUF,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_iovec, copy_to, ITER_IOVEC, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_iovec, copy_to, ITER_IOVEC, _copy_mc_to_iter)
COPY_CASE(copy_from_iovec, copy_from, ITER_IOVEC, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_iovec, copy_from, ITER_IOVEC,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_kvec, copy_to, ITER_KVEC, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_kvec, copy_to, ITER_KVEC, _copy_mc_to_iter)
COPY_CASE(copy_from_kvec, copy_from, ITER_KVEC, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_kvec, copy_from, ITER_KVEC,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_bvec, copy_to, ITER_BVEC, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_bvec, copy_to, ITER_BVEC, _copy_mc_to_iter)
COPY_CASE(copy_from_bvec, copy_from, ITER_BVEC, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_bvec, copy_from, ITER_BVEC,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_xarray, copy_to, ITER_XARRAY, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_xarray, copy_to, ITER_XARRAY, _copy_mc_to_iter)
COPY_CASE(copy_from_xarray, copy_from, ITER_XARRAY, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_xarray, copy_from, ITER_XARRAY,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_folioq, copy_to, ITER_FOLIOQ, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_folioq, copy_to, ITER_FOLIOQ, _copy_mc_to_iter)
COPY_CASE(copy_from_folioq, copy_from, ITER_FOLIOQ, iov_kunit_from_iter)
COPY_CASE(copy_from_flushcache_folioq, copy_from, ITER_FOLIOQ,
	  _copy_from_iter_flushcache)
COPY_CASE(copy_to_discard, copy_to, ITER_DISCARD, iov_kunit_to_iter)
COPY_CASE(copy_mc_to_discard, copy_to, ITER_DISCARD, _copy_mc_to_iter)

/*
 * copy_to_iter_full() / copy_from_iter_full() on an iterator too short for
 * the request: false, and the iterator is back where it was.
 */
static void iov_kunit_copy_full_short(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &iov_kunit_vec_layouts[0];
	struct iov_kunit_iter *src = iov_kunit_build(test, ITER_KVEC, ITER_SOURCE, layout);
	struct iov_kunit_iter *dst = iov_kunit_build(test, ITER_KVEC, ITER_DEST, layout);
	u8 *buf = iov_kunit_vzalloc(test, src->total + 1);
	u8 *img;

	iov_iter_advance(&src->iter, 0x100);
	KUNIT_EXPECT_FALSE(test, copy_from_iter_full(buf, src->total, &src->iter));
	iov_kunit_check_at(test, src, 0x100);
	KUNIT_EXPECT_TRUE(test, copy_from_iter_full(buf, src->total - 0x100, &src->iter));
	iov_kunit_check_at(test, src, src->total);

	iov_kunit_fill(buf, dst->total + 1, 0);
	KUNIT_EXPECT_FALSE(test, copy_to_iter_full(buf, dst->total + 1, &dst->iter));
	iov_kunit_check_at(test, dst, 0);
	KUNIT_EXPECT_TRUE(test, copy_to_iter_full(buf, dst->total, &dst->iter));
	iov_kunit_check_at(test, dst, dst->total);
	img = iov_kunit_vzalloc(test, dst->store.size);
	iov_kunit_dest_image(dst, dst->total, img);
	iov_kunit_same(test, dst->store.kaddr, img, dst->store.size, "store");
}

/*
 * The nocache variant has the same contract as copy_from_iter(); on x86 it
 * takes a different path for user memory.  copy_from_iter_full_nocache()
 * either copies everything and advances, or reverts: asked for one byte
 * more than there is, it runs through every segment and comes back to
 * where it started.
 */
static void iov_kunit_copy_from_nocache(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &iov_kunit_vec_layouts[0];
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, layout);
	u8 *dst = iov_kunit_vzalloc(test, it->total + 64);
	u8 *stream = iov_kunit_vzalloc(test, it->total + 64);
	size_t got;

	iov_kunit_source_stream(it, stream);
	KUNIT_EXPECT_FALSE(test, copy_from_iter_full_nocache(dst, it->total + 1, &it->iter));
	iov_kunit_check_at(test, it, 0);
	memset(dst, 0, it->total + 64);

	got = copy_from_iter_nocache(dst, 0x1235, &it->iter);
	KUNIT_EXPECT_EQ(test, got, 0x1235);
	iov_kunit_check_at(test, it, 0x1235);
	KUNIT_EXPECT_FALSE(test, copy_from_iter_full_nocache(dst + 0x1235, it->total,
							     &it->iter));
	iov_kunit_check_at(test, it, 0x1235);
	KUNIT_EXPECT_TRUE(test, copy_from_iter_full_nocache(dst + 0x1235, 0x2001, &it->iter));
	iov_kunit_check_at(test, it, 0x3236);
	got = copy_from_iter_nocache(dst + 0x3236, it->total, &it->iter);
	KUNIT_EXPECT_EQ(test, got, it->total - 0x3236);
	iov_kunit_check_at(test, it, it->total);
	iov_kunit_same(test, dst, stream, it->total + 64, "destination");
	/* Nothing left: a full copy of one byte fails and moves nothing. */
	KUNIT_EXPECT_FALSE(test, copy_from_iter_full_nocache(dst, 1, &it->iter));
	iov_kunit_check_at(test, it, it->total);
	KUNIT_EXPECT_TRUE(test, copy_from_iter_full_nocache(dst, 0, &it->iter));
}

static struct kunit_case iov_kunit_copy_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_copy_to_ubuf, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_ubuf, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_iovec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_iovec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_kvec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_kvec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_bvec, bvec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_bvec, bvec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_xarray, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_xarray, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_folioq, folioq_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_folioq, folioq_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_to_discard, discard_gen_params),
	KUNIT_CASE(iov_kunit_copy_full_short),
	KUNIT_CASE(iov_kunit_copy_from_nocache),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_ubuf, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_iovec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_kvec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_bvec, bvec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_xarray, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_folioq, folioq_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_mc_to_discard, discard_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_ubuf, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_iovec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_kvec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_bvec, bvec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_xarray, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_from_flushcache_folioq, folioq_gen_params),
	{}
};

static struct kunit_suite iov_kunit_copy_suite = {
	.name = "iov_iter_api_copy",
	.test_cases = iov_kunit_copy_cases,
};

kunit_test_suite(iov_kunit_copy_suite);
