// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_query: zeroing, counting pages and segments,
 * alignment.
 */

#include "iov_iter_api_kunit.h"

KUNIT_ARRAY_PARAM(all_type, iov_kunit_all_types, iov_kunit_type_desc);

/* Zero the store bytes under stream positions [from, to) in @img. */
static void iov_kunit_zero_stream(struct iov_kunit_iter *it, u8 *img, size_t from, size_t to)
{
	size_t k = 0;

	for (unsigned int s = 0; s < it->nr_segs; k += it->seg_len[s], s++) {
		size_t lo = max(from, k), hi = min(to, k + it->seg_len[s]);

		if (lo < hi)
			memset(img + it->seg_from[s] + (lo - k), 0, hi - lo);
	}
}

/* iov_iter_zero() clears exactly the bytes it reports and moves past them. */
static void iov_kunit_zero_iter(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_DEST);
	size_t got, first;
	u8 *img = NULL, *cur;

	if (it->store.kind != STORE_NONE) {
		iov_kunit_store_fill(test, &it->store);
		img = iov_kunit_store_snapshot(test, &it->store);
	}
	iov_iter_advance(&it->iter, 0x101);
	first = iov_iter_zero(0x2345, &it->iter);
	KUNIT_EXPECT_EQ(test, first, min_t(size_t, 0x2345, it->total - 0x101));
	iov_kunit_check_at(test, it, 0x101 + first);
	if (img) {
		iov_kunit_zero_stream(it, img, 0x101, 0x101 + first);
		cur = iov_kunit_store_snapshot(test, &it->store);
		iov_kunit_same(test, cur, img, it->store.size, "after the first zeroing");
	}

	got = iov_iter_zero(SIZE_MAX, &it->iter);
	KUNIT_EXPECT_EQ(test, got, it->total - 0x101 - first);
	iov_kunit_check_at(test, it, it->total);
	KUNIT_EXPECT_EQ(test, iov_iter_zero(1, &it->iter), 0);
	if (img) {
		iov_kunit_zero_stream(it, img, 0x101, it->total);
		cur = iov_kunit_store_snapshot(test, &it->store);
		iov_kunit_same(test, cur, img, it->store.size, "after zeroing the rest");
	}
}

struct iov_kunit_count_case {
	const char *name;
	enum iter_type type;
	const struct iov_kunit_layout *layout;
	size_t advance;
	size_t cap;		/* iov_iter_truncate() to this, if not SIZE_MAX */
	int maxpages;
	int want;
};

/*
 * Pages spanned, worked out by hand from the layouts: e.g. "mixed" has
 * non-empty segments over 1 + 2 + 3 + 1 + 3 + 1 pages.
 */
static const struct iov_kunit_count_case npages_cases[] = {
	{ "ubuf odd offsets", ITER_UBUF, &iov_kunit_flat_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "ubuf maxpages 5", ITER_UBUF, &iov_kunit_flat_layouts[0], 0, SIZE_MAX, 5, 5 },
	{ "ubuf from a page boundary", ITER_UBUF, &iov_kunit_flat_layouts[0], 0xedd,
	  SIZE_MAX, INT_MAX, 15 },
	{ "ubuf two bytes across a page", ITER_UBUF, &iov_kunit_flat_layouts[2], 0,
	  SIZE_MAX, INT_MAX, 2 },
	{ "ubuf one byte", ITER_UBUF, &iov_kunit_flat_layouts[3], 0, SIZE_MAX, INT_MAX, 1 },
	{ "ubuf truncated to nothing", ITER_UBUF, &iov_kunit_flat_layouts[0], 0, 0, INT_MAX, 0 },
	{ "iovec mixed", ITER_IOVEC, &iov_kunit_vec_layouts[0], 0, SIZE_MAX, INT_MAX, 11 },
	{ "iovec mixed, 16 bytes", ITER_IOVEC, &iov_kunit_vec_layouts[0], 0, 0x10, INT_MAX, 2 },
	{ "iovec mixed, maxpages 3", ITER_IOVEC, &iov_kunit_vec_layouts[0], 0, SIZE_MAX, 3, 3 },
	{ "kvec mixed", ITER_KVEC, &iov_kunit_vec_layouts[0], 0, SIZE_MAX, INT_MAX, 11 },
	{ "kvec mixed, past two segments", ITER_KVEC, &iov_kunit_vec_layouts[0], 0x15, SIZE_MAX,
	  INT_MAX, 8 },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "bvec past two segments", ITER_BVEC, &iov_kunit_bvec_layouts[0], 0x86d,
	  SIZE_MAX, INT_MAX, 14 },
	{ "xarray odd offsets", ITER_XARRAY, &iov_kunit_flat_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "folioq across segments", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0], 0,
	  SIZE_MAX, INT_MAX, 60 },
	{ "folioq inside a folio", ITER_FOLIOQ, &iov_kunit_folioq_layouts[1], 0,
	  SIZE_MAX, INT_MAX, 2 },
	{ "discard", ITER_DISCARD, &iov_kunit_discard_layouts[0], 0, SIZE_MAX, INT_MAX, 0 },
};

static void count_case_desc(const struct iov_kunit_count_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(npages, npages_cases, count_case_desc);

static struct iov_kunit_iter *iov_kunit_build_count(struct kunit *test,
						    const struct iov_kunit_count_case *c)
{
	unsigned int dir = c->type == ITER_DISCARD ? ITER_DEST : ITER_SOURCE;
	struct iov_kunit_iter *it = iov_kunit_build(test, c->type, dir, c->layout);

	iov_iter_advance(&it->iter, c->advance);
	if (c->cap != SIZE_MAX)
		iov_iter_truncate(&it->iter, c->cap);
	return it;
}

static void iov_kunit_npages(struct kunit *test)
{
	const struct iov_kunit_count_case *c = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build_count(test, c);
	size_t count = iov_iter_count(&it->iter);

	KUNIT_EXPECT_EQ(test, iov_iter_npages(&it->iter, c->maxpages), c->want);
	/* Counting does not move the iterator. */
	KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), count);
}

/* iov_iter_npages_cap() counts within a byte limit and restores the count. */
static void iov_kunit_npages_cap(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &iov_kunit_vec_layouts[0];
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, layout);

	KUNIT_EXPECT_EQ(test, iov_iter_npages_cap(&it->iter, INT_MAX, 0x10), 2);
	KUNIT_EXPECT_EQ(test, iov_iter_npages_cap(&it->iter, 1, 0x10), 1);
	KUNIT_EXPECT_EQ(test, iov_iter_npages_cap(&it->iter, INT_MAX, SIZE_MAX), 11);
	iov_kunit_check_at(test, it, 0);
}

static const struct iov_kunit_range align_512[] = {
	{ 0x0200, 0x0400 }, { 0x1000, 0x1200 },
};

static const struct iov_kunit_range align_16[] = {
	{ 0x0200, 0x0400 }, { 0x1010, 0x1020 },
};

static const struct iov_kunit_range align_empty[] = {
	{ 0x0200, 0x0400 }, { 0x0003, 0x0003 }, { NULL_SEG, 0 }, { 0x1000, 0x1200 },
};

static const struct iov_kunit_range align_one[] = { { 0x0200, 0x0400 } };
static const struct iov_kunit_range align_one16[] = { { 0x1010, 0x1020 } };

static const struct iov_kunit_layout align_layouts[] = {
	{ "512", align_512, ARRAY_SIZE(align_512) },
	{ "16", align_16, ARRAY_SIZE(align_16) },
	{ "empty", align_empty, ARRAY_SIZE(align_empty) },
	{ "one", align_one, ARRAY_SIZE(align_one) },
	{ "one, 16", align_one16, ARRAY_SIZE(align_one16) },
};

/* The low 12 bits of iov_iter_alignment(): OR of segment starts and lengths. */
static const struct iov_kunit_count_case align_cases[] = {
	{ "ubuf odd", ITER_UBUF, &iov_kunit_flat_layouts[0], 0, SIZE_MAX, 0, 0x333 },
	{ "ubuf page aligned", ITER_UBUF, &iov_kunit_flat_layouts[1], 0, SIZE_MAX, 0, 0 },
	{ "ubuf 512 advanced 16", ITER_UBUF, &align_layouts[3], 0x10, SIZE_MAX, 0, 0x3f0 },
	{ "ubuf empty", ITER_UBUF, &iov_kunit_flat_layouts[1], 0, 0, 0, 0 },
	{ "iovec 512", ITER_IOVEC, &align_layouts[0], 0, SIZE_MAX, 0, 0x200 },
	{ "iovec 16", ITER_IOVEC, &align_layouts[1], 0, SIZE_MAX, 0, 0x210 },
	{ "iovec empty segments", ITER_IOVEC, &align_layouts[2], 0, SIZE_MAX, 0, 0x200 },
	{ "iovec truncated", ITER_IOVEC, &align_layouts[0], 0, 0x300, 0, 0x300 },
	{ "kvec 512", ITER_KVEC, &align_layouts[0], 0, SIZE_MAX, 0, 0x200 },
	{ "kvec 16", ITER_KVEC, &align_layouts[1], 0, SIZE_MAX, 0, 0x210 },
	{ "kvec empty segments", ITER_KVEC, &align_layouts[2], 0, SIZE_MAX, 0, 0x200 },
	{ "bvec 512", ITER_BVEC, &align_layouts[0], 0, SIZE_MAX, 0, 0x200 },
	{ "bvec 16", ITER_BVEC, &align_layouts[1], 0, SIZE_MAX, 0, 0x210 },
	{ "bvec advanced 1", ITER_BVEC, &align_layouts[0], 1, SIZE_MAX, 0, 0x3ff },
	{ "xarray odd", ITER_XARRAY, &iov_kunit_flat_layouts[0], 0, SIZE_MAX, 0, 0x333 },
	{ "folioq inside a folio", ITER_FOLIOQ, &iov_kunit_folioq_layouts[1], 0,
	  SIZE_MAX, 0, 0x800 },
	{ "discard", ITER_DISCARD, &iov_kunit_discard_layouts[0], 0, SIZE_MAX, 0, 0 },
};

KUNIT_ARRAY_PARAM(align, align_cases, count_case_desc);

static void iov_kunit_alignment(struct kunit *test)
{
	const struct iov_kunit_count_case *c = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build_count(test, c);

	KUNIT_EXPECT_EQ(test, iov_iter_alignment(&it->iter) & (PAGE_SIZE - 1), c->want);
}

/*
 * iov_iter_is_aligned() checks segment starts and lengths against masks.
 * The single-range types have one "segment": the range of a UBUF, the
 * position in the file for an XARRAY (xarray_start counts, so the 0x200
 * and 0x1010 here are 0x200 and 0x10 bytes into a page) and the offset in
 * the current folio for a FOLIOQ (0x10 into the order-2 second folio).
 * Advanced to an aligned end, every type is aligned to anything.
 */
static void iov_kunit_is_aligned(struct kunit *test)
{
	static const struct {
		enum iter_type type;
		const struct iov_kunit_layout *a, *b;
	} types[] = {
		{ ITER_IOVEC, &align_layouts[0], &align_layouts[1] },
		{ ITER_KVEC, &align_layouts[0], &align_layouts[1] },
		{ ITER_BVEC, &align_layouts[0], &align_layouts[1] },
		{ ITER_UBUF, &align_layouts[3], &align_layouts[4] },
		{ ITER_XARRAY, &align_layouts[3], &align_layouts[4] },
		{ ITER_FOLIOQ, &align_layouts[3], &align_layouts[4] },
	};

	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++) {
		struct iov_kunit_iter *a = iov_kunit_build(test, types[t].type, ITER_SOURCE,
							   types[t].a);
		struct iov_kunit_iter *b = iov_kunit_build(test, types[t].type, ITER_SOURCE,
							   types[t].b);

		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&a->iter, 0x1ff, 0x1ff));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 0x3ff, 0));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 0, 0x3ff));
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&b->iter, 0xf, 0xf));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&b->iter, 0x1f, 0xf));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&b->iter, 0xf, 0x1f));
		/* The cursor counts: 0x100 in, starts and lengths are 256-aligned. */
		iov_iter_advance(&a->iter, 0x100);
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&a->iter, 0xff, 0xff));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 0x1ff, 0));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 0, 0x1ff));
		/* 0xff more, 0x3ff into the store: 1-aligned. */
		iov_iter_advance(&a->iter, 0xff);
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&a->iter, 0, 0));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 1, 0));
		KUNIT_EXPECT_FALSE(test, iov_iter_is_aligned(&a->iter, 0, 1));
		/* At the end (0x400 into the store), nothing is misaligned. */
		iov_iter_advance(&a->iter, iov_iter_count(&a->iter));
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&a->iter, 0x3ff, 0x3ff));
		iov_iter_advance(&b->iter, iov_iter_count(&b->iter));
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&b->iter, 0xf, ~0U));
	}
}

/*
 * An iterator with nothing left has no segment to look at:
 * iov_iter_alignment() is 0 and iov_iter_is_aligned() true, with no
 * segment array (nr_segs 0) and once advanced to its end, whatever the
 * array holds after its last segment. Each array here has a second,
 * misaligned entry that the iterator does not cover: reading it (as the
 * do-while loops once did) shows up as a non-zero alignment.
 */
static void iov_kunit_alignment_empty(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);
	struct kvec kv[2] = { { buf, 16 }, { buf + 3, 5 } };
	/* Never accessed: only the segment descriptions are read. */
	struct iovec iov[2] = {
		{ (void __user *)0x10000, 16 }, { (void __user *)0x20003, 5 },
	};
	struct bio_vec bv[2];
	struct iov_iter it;
	unsigned int n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, page);
	bvec_set_page(&bv[0], page, 16, 0);
	bvec_set_page(&bv[1], page, 5, 3);
	for (n = 0; n <= 1; n++) {
		iov_iter_kvec(&it, ITER_SOURCE, kv, n, n * 16);
		iov_iter_advance(&it, 16);
		KUNIT_EXPECT_EQ(test, iov_iter_alignment(&it), 0);
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&it, ~0U, ~0U));

		iov_iter_init(&it, ITER_SOURCE, iov, n, n * 16);
		iov_iter_advance(&it, 16);
		KUNIT_EXPECT_EQ(test, iov_iter_alignment(&it), 0);
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&it, ~0U, ~0U));

		iov_iter_bvec(&it, ITER_DEST, bv, n, n * 16);
		iov_iter_advance(&it, 16);
		KUNIT_EXPECT_EQ(test, iov_iter_alignment(&it), 0);
		KUNIT_EXPECT_TRUE(test, iov_iter_is_aligned(&it, ~0U, ~0U));
	}
	__free_page(page);
}

/*
 * iov_iter_gap_alignment(): for ITER_IOVEC the OR of each segment end and
 * the start of the next non-empty one; 0 for ITER_UBUF.
 */
static void iov_kunit_gap_alignment(struct kunit *test)
{
	struct iov_kunit_iter *a = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE,
						   &align_layouts[0]);
	struct iov_kunit_iter *e = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE,
						   &align_layouts[2]);
	struct iov_kunit_iter *u = iov_kunit_build(test, ITER_UBUF, ITER_SOURCE,
						   &iov_kunit_flat_layouts[0]);

	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&a->iter) & (PAGE_SIZE - 1), 0x400);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&e->iter) & (PAGE_SIZE - 1), 0x400);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&u->iter), 0);
	iov_iter_truncate(&a->iter, 0x200);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&a->iter), 0);
}

/*
 * A folio queue iterator may stand at the end of a full segment (slot
 * folioq_nr_slots()) with the data in the next one: its current folio is
 * the first of the next segment, not one past the end of this one's.
 */
static void iov_kunit_single_seg_count_folioq_end(struct kunit *test)
{
	struct folio_queue *fq = kunit_kcalloc(test, 2, sizeof(*fq), GFP_KERNEL);
	struct iov_iter iter;

	KUNIT_ASSERT_NOT_NULL(test, fq);
	folioq_init(&fq[0], 0);
	folioq_init(&fq[1], 0);
	fq[0].next = &fq[1];
	fq[1].prev = &fq[0];
	folioq_append(&fq[1], iov_kunit_folio(test, 2));
	iov_iter_folio_queue(&iter, ITER_SOURCE, &fq[0], folioq_nr_slots(&fq[0]), 0,
			     4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&iter), 4 * PAGE_SIZE);
	iov_iter_truncate(&iter, 0x10);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&iter), 0x10);
}

/*
 * iov_iter_single_seg_count(): what is left of the current segment, capped
 * by the count; the whole count for single-range types.
 */
static void iov_kunit_single_seg_count(struct kunit *test)
{
	struct iov_kunit_iter *v = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE,
						   &iov_kunit_vec_layouts[0]);
	struct iov_kunit_iter *k = iov_kunit_build(test, ITER_KVEC, ITER_SOURCE,
						   &iov_kunit_vec_layouts[0]);
	struct iov_kunit_iter *b = iov_kunit_build(test, ITER_BVEC, ITER_SOURCE,
						   &iov_kunit_bvec_layouts[0]);
	struct iov_kunit_iter *u = iov_kunit_build(test, ITER_UBUF, ITER_SOURCE,
						   &iov_kunit_flat_layouts[0]);
	struct iov_kunit_iter *x = iov_kunit_build(test, ITER_XARRAY, ITER_SOURCE,
						   &iov_kunit_flat_layouts[0]);
	struct iov_kunit_iter *f = iov_kunit_build(test, ITER_FOLIOQ, ITER_SOURCE,
						   &iov_kunit_flat_layouts[1]);
	struct iov_kunit_iter *d = iov_kunit_build(test, ITER_DISCARD, ITER_DEST,
						   &iov_kunit_discard_layouts[0]);
	struct iov_kunit_iter *one = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE,
						     &iov_kunit_vec_layouts[1]);
	struct iov_kunit_iter *vecs[] = { v, k };

	for (unsigned int i = 0; i < ARRAY_SIZE(vecs); i++) {
		/* On the leading empty segment. */
		KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&vecs[i]->iter), 0);
		iov_iter_advance(&vecs[i]->iter, 1);
		KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&vecs[i]->iter), 0xe);
		iov_iter_truncate(&vecs[i]->iter, 5);
		KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&vecs[i]->iter), 5);
	}
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&b->iter), 1);
	iov_iter_advance(&b->iter, 1);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&b->iter), 0x86c);
	iov_iter_advance(&b->iter, 0x86c + 0x10);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&b->iter), 0x3601 - 0x10);

	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&u->iter), u->total);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&x->iter), x->total);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&d->iter), d->total);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&one->iter), one->total);

	/* The folio queue starts with an order-0 folio, then an order-2 one. */
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&f->iter), PAGE_SIZE);
	iov_iter_advance(&f->iter, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&f->iter), 4 * PAGE_SIZE);
	iov_iter_truncate(&f->iter, 0x100);
	KUNIT_EXPECT_EQ(test, iov_iter_single_seg_count(&f->iter), 0x100);
}

static struct kunit_case iov_kunit_query_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_zero_iter, all_type_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_npages, npages_gen_params),
	KUNIT_CASE(iov_kunit_npages_cap),
	KUNIT_CASE_PARAM(iov_kunit_alignment, align_gen_params),
	KUNIT_CASE(iov_kunit_is_aligned),
	KUNIT_CASE(iov_kunit_alignment_empty),
	KUNIT_CASE(iov_kunit_gap_alignment),
	KUNIT_CASE(iov_kunit_single_seg_count),
	KUNIT_CASE(iov_kunit_single_seg_count_folioq_end),
	{}
};

static struct kunit_suite iov_kunit_query_suite = {
	.name = "iov_iter_api_query",
	.test_cases = iov_kunit_query_cases,
};

kunit_test_suite(iov_kunit_query_suite);
