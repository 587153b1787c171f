// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_cursor: moving the cursor, in advance and revert
 * walks, truncate and reexpand, save and restore, dup_iter(); the type
 * predicates.
 */

#include "iov_iter_api_kunit.h"

KUNIT_ARRAY_PARAM(vec, iov_kunit_vec_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(bvec, iov_kunit_bvec_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(flat, iov_kunit_flat_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(folioq, iov_kunit_folioq_layouts, iov_kunit_layout_desc);
KUNIT_ARRAY_PARAM(discard, iov_kunit_discard_layouts, iov_kunit_layout_desc);

/* Read @len bytes at the cursor of a source iterator without moving it. */
static void iov_kunit_peek(struct kunit *test, struct iov_kunit_iter *it,
			   const u8 *stream, size_t at, size_t len)
{
	struct iov_iter probe = it->iter;
	u8 buf[32];

	len = min3(len, sizeof(buf), it->total - at);
	KUNIT_ASSERT_EQ(test, copy_from_iter(buf, len, &probe), len);
	iov_kunit_same(test, buf, stream + at, len, "bytes at the cursor");
}

/* Moves of an advance/revert walk: positive advances, negative reverts. */
static const long walk[] = {
	0x10, 0x1000, -0x8, 0, 0x2345, -0x2000, 1, -0x345, 0x7000, -0x7001,
	5, 0x10000, -0x10000, 3, -3, 0x123456, -0x200,
};

/*
 * Walk the cursor back and forth.  Advances past the end stop at the end;
 * reverts never go before the start (that is a bug for ITER_UBUF and
 * ITER_XARRAY).  After each move the cursor's state is checked and, for
 * source iterators, the bytes under it are read.
 */
static void iov_kunit_walk(struct kunit *test, enum iter_type type)
{
	const struct iov_kunit_layout *layout = test->param_value;
	unsigned int dir = type == ITER_DISCARD ? ITER_DEST : ITER_SOURCE;
	struct iov_kunit_iter *it = iov_kunit_build(test, type, dir, layout);
	u8 *stream = iov_kunit_vzalloc(test, it->total);
	size_t at = 0;

	iov_kunit_source_stream(it, stream);
	for (unsigned int m = 0; m < ARRAY_SIZE(walk); m++) {
		if (walk[m] >= 0) {
			iov_iter_advance(&it->iter, walk[m]);
			at = min(at + walk[m], it->total);
		} else {
			size_t back = min_t(size_t, -walk[m], at);

			iov_iter_revert(&it->iter, back);
			at -= back;
		}
		iov_kunit_check_at(test, it, at);
		if (dir == ITER_SOURCE && at < it->total)
			iov_kunit_peek(test, it, stream, at, 16);
	}
	iov_iter_revert(&it->iter, at);
	iov_kunit_check_at(test, it, 0);
	if (dir == ITER_SOURCE && it->total)
		iov_kunit_peek(test, it, stream, 0, 32);
}

#define WALK_CASE(_t, _T)						\
static void iov_kunit_advance_revert_##_t(struct kunit *test)		\
{									\
	iov_kunit_walk(test, _T);					\
}

WALK_CASE(ubuf, ITER_UBUF)
WALK_CASE(iovec, ITER_IOVEC)
WALK_CASE(kvec, ITER_KVEC)
WALK_CASE(bvec, ITER_BVEC)
WALK_CASE(xarray, ITER_XARRAY)
WALK_CASE(folioq, ITER_FOLIOQ)
WALK_CASE(discard, ITER_DISCARD)

/* The types with data (every type but ITER_DISCARD). */
static const struct iov_kunit_type data_types[] = {
	{ "ubuf", ITER_UBUF, &iov_kunit_flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &iov_kunit_vec_layouts[0] },
	{ "kvec", ITER_KVEC, &iov_kunit_vec_layouts[0] },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0] },
	{ "xarray", ITER_XARRAY, &iov_kunit_flat_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0] },
};

/* The types iov_iter_restore() and dup_iter() work on. */
static const struct iov_kunit_type vec_types[] = {
	{ "ubuf", ITER_UBUF, &iov_kunit_flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &iov_kunit_vec_layouts[0] },
	{ "kvec", ITER_KVEC, &iov_kunit_vec_layouts[0] },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0] },
};

KUNIT_ARRAY_PARAM(data_type, data_types, iov_kunit_type_desc);
KUNIT_ARRAY_PARAM(vec_type, vec_types, iov_kunit_type_desc);

/* Copy @len bytes out of a source iterator and compare with the stream. */
static void iov_kunit_expect_read(struct kunit *test, struct iov_kunit_iter *it,
				  const u8 *stream, size_t at, size_t len, size_t want)
{
	u8 *buf = iov_kunit_vzalloc(test, len ?: 1);
	size_t got = copy_from_iter(buf, len, &it->iter);

	KUNIT_EXPECT_EQ(test, got, want);
	iov_kunit_same(test, buf, stream + at, min(got, want), "read");
	kunit_release_action(test, iov_kunit_vfree, buf);
}

/*
 * iov_iter_truncate() caps the count (a larger cap changes nothing);
 * iov_iter_reexpand() gives back what was cut, and the data continues
 * where it left off.
 */
static void iov_kunit_truncate_reexpand(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_SOURCE);
	u8 *stream = iov_kunit_vzalloc(test, it->total);
	size_t start = 0x123, cap = 0x1000, rest;

	iov_kunit_source_stream(it, stream);
	KUNIT_ASSERT_GT(test, it->total, start + cap);
	iov_iter_advance(&it->iter, start);
	rest = iov_iter_count(&it->iter);

	iov_iter_truncate(&it->iter, rest + 1);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), rest);
	iov_iter_truncate(&it->iter, U64_MAX);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), rest);

	iov_iter_truncate(&it->iter, cap);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), cap);
	KUNIT_EXPECT_LE(test, iov_iter_npages(&it->iter, INT_MAX), 2);
	iov_kunit_expect_read(test, it, stream, start, cap + 0x100, cap);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), 0);

	iov_iter_reexpand(&it->iter, rest - cap);
	iov_kunit_check_at(test, it, start + cap);
	iov_kunit_expect_read(test, it, stream, start + cap, rest, rest - cap);
	iov_kunit_check_at(test, it, it->total);
}

static bool iov_kunit_same_iter(const struct iov_iter *a, const struct iov_iter *b)
{
	return a->iter_type == b->iter_type && a->data_source == b->data_source &&
	       a->iov_offset == b->iov_offset && a->count == b->count &&
	       a->nr_segs == b->nr_segs && a->ubuf == b->ubuf;
}

/*
 * iov_iter_save_state() and iov_iter_restore(): after any amount of
 * progress, restore puts every field back, and the same bytes come again.
 */
static void iov_kunit_save_restore(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_SOURCE);
	u8 *stream = iov_kunit_vzalloc(test, it->total);
	static const size_t moves[] = { 0, 1, 0x1001, 0x2fff, SIZE_MAX };
	struct iov_iter_state state;
	struct iov_iter saved;

	iov_kunit_source_stream(it, stream);
	iov_iter_advance(&it->iter, 0x1001);
	iov_iter_save_state(&it->iter, &state);
	saved = it->iter;
	KUNIT_EXPECT_EQ(test, state.count, iov_iter_count(&it->iter));

	for (unsigned int m = 0; m < ARRAY_SIZE(moves); m++) {
		size_t n = min(moves[m], it->total - 0x1001);

		iov_kunit_expect_read(test, it, stream, 0x1001, n, n);
		iov_iter_restore(&it->iter, &state);
		KUNIT_EXPECT_TRUE_MSG(test, iov_kunit_same_iter(&it->iter, &saved),
				      "restore after %zu bytes", n);
		iov_kunit_check_at(test, it, 0x1001);
	}
}

/* The current segment of a vector iterator (kvec and iovec share layout). */
static const void *iov_kunit_segs(const struct iov_iter *i)
{
	if (iov_iter_is_bvec(i))
		return i->bvec;
	return i->kvec;
}

/*
 * dup_iter() gives an independent iterator: for the vector types over a
 * copy of the segment array, which the caller frees.
 */
static void iov_kunit_dup_iter(struct kunit *test)
{
	const struct iov_kunit_type *t = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_SOURCE);
	u8 *stream = iov_kunit_vzalloc(test, it->total);
	struct iov_kunit_iter *copy;
	const void *array;

	iov_kunit_source_stream(it, stream);
	iov_iter_advance(&it->iter, 0x777);
	copy = iov_kunit_dup(test, it);
	array = dup_iter(&copy->iter, &it->iter, GFP_KERNEL);

	if (t->type == ITER_UBUF) {
		KUNIT_EXPECT_NULL(test, array);
		KUNIT_EXPECT_TRUE(test, iov_kunit_same_iter(&copy->iter, &it->iter));
	} else {
		size_t esize = t->type == ITER_BVEC ? sizeof(struct bio_vec) :
						      sizeof(struct iovec);

		KUNIT_ASSERT_NOT_NULL(test, array);
		KUNIT_EXPECT_PTR_EQ(test, iov_kunit_segs(&copy->iter), array);
		KUNIT_EXPECT_PTR_NE(test, iov_kunit_segs(&it->iter), array);
		KUNIT_EXPECT_EQ(test, copy->iter.nr_segs, it->iter.nr_segs);
		KUNIT_EXPECT_EQ(test, copy->iter.iov_offset, it->iter.iov_offset);
		KUNIT_EXPECT_EQ(test, memcmp(array, iov_kunit_segs(&it->iter),
					     it->iter.nr_segs * esize), 0);
	}
	/* Draining the copy leaves the original where it was. */
	iov_kunit_expect_read(test, copy, stream, 0x777, it->total, it->total - 0x777);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&copy->iter), 0);
	iov_kunit_check_at(test, it, 0x777);
	iov_kunit_peek(test, it, stream, 0x777, 32);
	kfree(array);
}

/* dup_iter() on the page-list and discard types copies the struct only. */
static void iov_kunit_dup_iter_plain(struct kunit *test)
{
	static const enum iter_type types[] = { ITER_XARRAY, ITER_FOLIOQ, ITER_DISCARD };
	static const struct iov_kunit_layout *layouts[] = {
		&iov_kunit_flat_layouts[0], &iov_kunit_folioq_layouts[0],
		&iov_kunit_discard_layouts[0],
	};

	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++) {
		unsigned int dir = types[t] == ITER_DISCARD ? ITER_DEST : ITER_SOURCE;
		struct iov_kunit_iter *it = iov_kunit_build(test, types[t], dir, layouts[t]);
		struct iov_iter copy;

		iov_iter_advance(&it->iter, 0x10);
		KUNIT_EXPECT_NULL(test, dup_iter(&copy, &it->iter, GFP_KERNEL));
		KUNIT_EXPECT_EQ(test, memcmp(&copy, &it->iter, sizeof(copy)), 0);
	}
}

/* The type and direction predicates agree with how the iterator was made. */
static void iov_kunit_predicates(struct kunit *test)
{
	for (unsigned int t = 0; t < ARRAY_SIZE(iov_kunit_all_types); t++) {
		enum iter_type type = iov_kunit_all_types[t].type;
		unsigned int dir = type == ITER_DISCARD ? ITER_DEST : ITER_SOURCE;
		struct iov_kunit_iter *it;
		struct iov_iter *i;

		for (; ; dir = ITER_DEST) {
			it = iov_kunit_build(test, type, dir, iov_kunit_all_types[t].layout);
			i = &it->iter;
			KUNIT_EXPECT_EQ(test, iov_iter_type(i), type);
			KUNIT_EXPECT_EQ(test, iov_iter_rw(i), dir == ITER_SOURCE ? WRITE : READ);
			KUNIT_EXPECT_EQ(test, iter_is_ubuf(i), type == ITER_UBUF);
			KUNIT_EXPECT_EQ(test, iter_is_iovec(i), type == ITER_IOVEC);
			KUNIT_EXPECT_EQ(test, iov_iter_is_kvec(i), type == ITER_KVEC);
			KUNIT_EXPECT_EQ(test, iov_iter_is_bvec(i), type == ITER_BVEC);
			KUNIT_EXPECT_EQ(test, iov_iter_is_xarray(i), type == ITER_XARRAY);
			KUNIT_EXPECT_EQ(test, iov_iter_is_folioq(i), type == ITER_FOLIOQ);
			KUNIT_EXPECT_EQ(test, iov_iter_is_discard(i), type == ITER_DISCARD);
			KUNIT_EXPECT_EQ(test, user_backed_iter(i),
					type == ITER_UBUF || type == ITER_IOVEC);
			KUNIT_EXPECT_EQ(test, iov_iter_extract_will_pin(i), user_backed_iter(i));
			KUNIT_EXPECT_EQ(test, iov_iter_count(i), it->total);
			if (dir == ITER_DEST)
				break;
		}
	}
}

static struct kunit_case iov_kunit_cursor_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_ubuf, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_iovec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_kvec, vec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_bvec, bvec_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_xarray, flat_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_folioq, folioq_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_advance_revert_discard, discard_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_truncate_reexpand, data_type_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_save_restore, vec_type_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_dup_iter, vec_type_gen_params),
	KUNIT_CASE(iov_kunit_dup_iter_plain),
	KUNIT_CASE(iov_kunit_predicates),
	{}
};

static struct kunit_suite iov_kunit_cursor_suite = {
	.name = "iov_iter_api_cursor",
	.test_cases = iov_kunit_cursor_cases,
};

kunit_test_suite(iov_kunit_cursor_suite);
