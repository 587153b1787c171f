// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_pages: getting and extracting pages, and
 * extract_iter_to_sg().
 */

#include "iov_iter_api_kunit.h"

/* The page holding byte @off of a folio store. */
static struct page *iov_kunit_store_page(struct iov_kunit_store *s, size_t off)
{
	size_t start = 0;

	for (unsigned int i = 0; i < s->nr_folios; i++) {
		size_t fsize = folio_size(s->folios[i]);

		if (off < start + fsize)
			return folio_page(s->folios[i], (off - start) / PAGE_SIZE);
		start += fsize;
	}
	return NULL;
}

/*
 * Each page returned for a store filled with pattern(offset) holds the
 * store's bytes from @first (page aligned) on: that proves its identity
 * for user memory, where there is no other handle on the page.
 */
static void iov_kunit_check_page_data(struct kunit *test, struct page **pages,
				      unsigned int n, size_t first)
{
	u8 *buf = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (unsigned int p = 0; p < n; p++) {
		memcpy_from_page(buf, pages[p], 0, PAGE_SIZE);
		for (size_t k = 0; k < PAGE_SIZE; k++) {
			if (buf[k] != pattern(first + p * PAGE_SIZE + k)) {
				KUNIT_FAIL(test, "page %u byte %#zx is %#x", p, k, buf[k]);
				break;
			}
		}
	}
}

/*
 * Check that each folio behind @pages has @delta references per listed page
 * more than @base recorded (get_page() on a subpage counts on its folio).
 */
static void iov_kunit_check_refs(struct kunit *test, struct page **pages,
				 unsigned int n, const int *base, int delta)
{
	for (unsigned int p = 0; p < n; p++) {
		struct folio *folio = page_folio(pages[p]);
		int same = 0;

		for (unsigned int q = 0; q < n; q++)
			same += page_folio(pages[q]) == folio;
		KUNIT_EXPECT_EQ_MSG(test, folio_ref_count(folio), base[p] + delta * same,
				    "page %u", p);
	}
}

static void iov_kunit_save_refs(struct page **pages, unsigned int n, int *base)
{
	for (unsigned int p = 0; p < n; p++)
		base[p] = folio_ref_count(page_folio(pages[p]));
}

/* The page a kernel-backed store holds at @off. */
static struct page *iov_kunit_kernel_page(struct iov_kunit_store *s, size_t off)
{
	if (s->kind == STORE_VMALLOC)
		return vmalloc_to_page(s->kaddr + off);
	return iov_kunit_store_page(s, off);
}

struct iov_kunit_get_case {
	const char *name;
	size_t from, to;	/* the UBUF iterator's range of the store */
	size_t maxsize;
	unsigned int maxpages;
	size_t want;		/* bytes returned */
	unsigned int pages;	/* pages returned */
};

static const struct iov_kunit_get_case get_cases[] = {
	{ "three whole pages", 0, 3 * PAGE_SIZE, SIZE_MAX, 8, 3 * PAGE_SIZE, 3 },
	{ "odd start", 0x321, 0x321 + 2 * PAGE_SIZE, SIZE_MAX, 8, 2 * PAGE_SIZE, 3 },
	{ "two bytes over a boundary", 0xfff, 0x1001, SIZE_MAX, 8, 2, 2 },
	{ "maxpages 2", 0x321, 0x4321, SIZE_MAX, 2, 2 * PAGE_SIZE - 0x321, 2 },
	{ "maxsize 0x100", 0x321, 0x4321, 0x100, 8, 0x100, 1 },
	{ "maxsize 0", 0x321, 0x4321, 0, 8, 0, 0 },
};

static void get_case_desc(const struct iov_kunit_get_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(get, get_cases, get_case_desc);

/*
 * iov_iter_get_pages2() on user memory takes a reference on each page;
 * iov_iter_extract_pages() pins the same pages instead.  Both advance the
 * iterator by what they return, and releasing the pages the documented way
 * (put_page(), unpin_user_pages()) leaves every page as it was.
 */
static void iov_kunit_get_pages_ubuf(struct kunit *test)
{
	const struct iov_kunit_get_case *c = test->param_value;
	struct page *got[8] = {}, *pinned[8] = {}, **pp = pinned;
	int held[8], base[8];
	struct iov_kunit_iter *it;
	size_t start = SIZE_MAX;
	ssize_t ret;

	for (unsigned int dir = ITER_DEST; dir <= ITER_SOURCE; dir++) {
		it = iov_kunit_build_range(test, ITER_UBUF, dir, c->from, c->to);
		ret = iov_iter_get_pages2(&it->iter, got, c->maxsize, c->maxpages, &start);
		KUNIT_ASSERT_EQ(test, ret, c->want);
		iov_kunit_check_at(test, it, ret);
		if (!ret)
			continue;
		KUNIT_EXPECT_EQ(test, start, c->from % PAGE_SIZE);
		KUNIT_EXPECT_EQ(test, DIV_ROUND_UP(start + ret, PAGE_SIZE), c->pages);
		iov_kunit_check_page_data(test, got, c->pages, c->from & PAGE_MASK);
		/* Released with put_page(), each page is back where it was. */
		iov_kunit_save_refs(got, c->pages, held);
		for (unsigned int p = 0; p < c->pages; p++)
			put_page(got[p]);
		iov_kunit_save_refs(got, c->pages, base);
		iov_kunit_check_refs(test, got, c->pages, base, 0);
		for (unsigned int p = 0; p < c->pages; p++)
			KUNIT_EXPECT_EQ(test, held[p], base[p] + 1);

		/* The same range again, extracted: the same pages, pinned. */
		iov_iter_revert(&it->iter, ret);
		KUNIT_EXPECT_TRUE(test, iov_iter_extract_will_pin(&it->iter));
		ret = iov_iter_extract_pages(&it->iter, &pp, c->maxsize, c->maxpages, 0, &start);
		KUNIT_ASSERT_EQ(test, ret, c->want);
		iov_kunit_check_at(test, it, ret);
		KUNIT_EXPECT_EQ(test, start, c->from % PAGE_SIZE);
		for (unsigned int p = 0; p < c->pages; p++) {
			struct folio *folio = page_folio(pinned[p]);

			KUNIT_EXPECT_PTR_EQ(test, pinned[p], got[p]);
			KUNIT_EXPECT_TRUE(test, folio_maybe_dma_pinned(folio));
			if (!folio_test_large(folio))
				KUNIT_EXPECT_EQ(test, folio_ref_count(folio),
						base[p] + GUP_PIN_COUNTING_BIAS);
		}
		unpin_user_pages(pinned, c->pages);
		iov_kunit_check_refs(test, got, c->pages, base, 0);
		for (unsigned int p = 0; p < c->pages; p++)
			KUNIT_EXPECT_FALSE(test, folio_maybe_dma_pinned(page_folio(got[p])));
	}
}

/*
 * For ITER_IOVEC both stop at the end of the current segment and skip
 * empty ones.
 */
static const struct iov_kunit_range get_vec[] = {
	{ NULL_SEG, 0 }, { 0x0010, 0x0110 }, { 0x2000, 0x2000 }, { 0x2ff0, 0x4010 },
};

static const struct iov_kunit_layout get_vec_layout = {
	"get", get_vec, ARRAY_SIZE(get_vec)
};

static void iov_kunit_get_pages_iovec(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &get_vec_layout;
	static const struct { size_t len, start, first; unsigned int pages; } want[] = {
		{ 0x100, 0x10, 0x0000, 1 }, { 0x1020, 0xff0, 0x2000, 2 }, { 0, 0, 0, 0 },
	};
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, layout);
	struct iov_kunit_iter *ex = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, layout);
	struct page *got[4], *pinned[4], **pp = pinned;
	size_t done = 0, start;
	ssize_t ret;

	for (unsigned int w = 0; w < ARRAY_SIZE(want); w++) {
		ret = iov_iter_get_pages2(&it->iter, got, SIZE_MAX, 4, &start);
		KUNIT_ASSERT_EQ(test, ret, want[w].len);
		ret = iov_iter_extract_pages(&ex->iter, &pp, SIZE_MAX, 4, 0, &start);
		KUNIT_ASSERT_EQ(test, ret, want[w].len);
		done += ret;
		iov_kunit_check_at(test, it, done);
		iov_kunit_check_at(test, ex, done);
		if (!ret)
			break;
		KUNIT_EXPECT_EQ(test, start, want[w].start);
		iov_kunit_check_page_data(test, got, want[w].pages, want[w].first);
		iov_kunit_check_page_data(test, pinned, want[w].pages, want[w].first);
		for (unsigned int p = 0; p < want[w].pages; p++)
			put_page(got[p]);
		unpin_user_pages(pinned, want[w].pages);
	}
}

/* iov_iter_get_pages_alloc2() allocates the array, which the caller kvfree()s. */
static void iov_kunit_get_pages_alloc(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE,
							  0x321, 0x321 + 5 * PAGE_SIZE);
	struct page **pages = ERR_PTR(-EINVAL);
	size_t start;
	ssize_t ret;

	ret = iov_iter_get_pages_alloc2(&it->iter, &pages, 0, &start);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_NULL(test, pages);

	ret = iov_iter_get_pages_alloc2(&it->iter, &pages, SIZE_MAX, &start);
	KUNIT_ASSERT_EQ(test, ret, 5 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	KUNIT_EXPECT_EQ(test, start, 0x321);
	iov_kunit_check_at(test, it, ret);
	iov_kunit_check_page_data(test, pages, 6, 0);
	for (unsigned int p = 0; p < 6; p++)
		put_page(pages[p]);
	kvfree(pages);

	/* Empty now: nothing returned, nothing allocated. */
	ret = iov_iter_get_pages_alloc2(&it->iter, &pages, SIZE_MAX, &start);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_NULL(test, pages);

	pages = NULL;
	it = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE, 0x10, 0x10 + PAGE_SIZE);
	ret = iov_iter_extract_pages(&it->iter, &pages, SIZE_MAX, UINT_MAX, 0, &start);
	KUNIT_ASSERT_EQ(test, ret, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	iov_kunit_check_page_data(test, pages, 2, 0);
	unpin_user_pages(pages, 2);
	kvfree(pages);
}

/*
 * A destination iterator needs writable pages: on a read-only mapping both
 * calls fail with -EFAULT and leave the iterator alone.  A hole cuts the
 * result short, and the next call fails.
 */
static void iov_kunit_get_pages_fault(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_range(test, ITER_UBUF, ITER_DEST,
							  0x10, 0x3010);
	struct page *pages[4], **pp = pages;
	size_t start;
	ssize_t ret;

	iov_kunit_mmap(test, it->store.uaddr, 4 * PAGE_SIZE, PROT_READ);
	KUNIT_EXPECT_EQ(test, iov_iter_get_pages2(&it->iter, pages, SIZE_MAX, 4, &start),
			-EFAULT);
	iov_kunit_check_at(test, it, 0);
	KUNIT_EXPECT_EQ(test, iov_iter_extract_pages(&it->iter, &pp, SIZE_MAX, 4, 0, &start),
			-EFAULT);
	iov_kunit_check_at(test, it, 0);

	it = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE, 0x10, 0x4010);
	iov_kunit_make_hole(test, &it->store, 2, false);
	ret = iov_iter_get_pages2(&it->iter, pages, SIZE_MAX, 4, &start);
	KUNIT_ASSERT_EQ(test, ret, 2 * PAGE_SIZE - 0x10);
	iov_kunit_check_at(test, it, ret);
	iov_kunit_check_page_data(test, pages, 2, 0);
	put_page(pages[0]);
	put_page(pages[1]);
	KUNIT_EXPECT_EQ(test, iov_iter_get_pages2(&it->iter, pages, SIZE_MAX, 4, &start),
			-EFAULT);
	iov_kunit_check_at(test, it, 2 * PAGE_SIZE - 0x10);
}

/*
 * Kernel-backed iterators.  iov_iter_get_pages2() takes a reference on
 * bvec, xarray and folioq pages and refuses kvec and discard.
 * iov_iter_extract_pages() lists kvec, bvec, xarray and folioq pages
 * without taking anything, and refuses discard.
 */
static void iov_kunit_get_pages_kernel(struct kunit *test)
{
	const struct iov_kunit_type *t = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build_range(test, t->type, ITER_SOURCE,
							  0x1234, 0x5678);
	bool can_get = t->type != ITER_KVEC;
	struct page *pages[8], *listed[8], **pp = listed;
	unsigned int n = 5;	/* pages 1 to 5 of the store */
	int base[8];
	size_t start;
	ssize_t ret;

	for (unsigned int p = 0; p < n; p++)
		pages[p] = iov_kunit_kernel_page(&it->store, (1 + p) * PAGE_SIZE);
	iov_kunit_save_refs(pages, n, base);

	KUNIT_EXPECT_FALSE(test, iov_iter_extract_will_pin(&it->iter));
	ret = iov_iter_extract_pages(&it->iter, &pp, SIZE_MAX, 8, 0, &start);
	KUNIT_ASSERT_EQ(test, ret, 0x5678 - 0x1234);
	KUNIT_EXPECT_EQ(test, start, 0x234);
	iov_kunit_check_at(test, it, ret);
	for (unsigned int p = 0; p < n; p++)
		KUNIT_EXPECT_PTR_EQ(test, listed[p], pages[p]);
	iov_kunit_check_refs(test, pages, n, base, 0);

	iov_iter_revert(&it->iter, ret);
	iov_kunit_check_at(test, it, 0);
	ret = iov_iter_get_pages2(&it->iter, listed, SIZE_MAX, 8, &start);
	if (!can_get) {
		KUNIT_EXPECT_EQ(test, ret, -EFAULT);
		iov_kunit_check_at(test, it, 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, ret, 0x5678 - 0x1234);
	KUNIT_EXPECT_EQ(test, start, 0x234);
	iov_kunit_check_at(test, it, ret);
	for (unsigned int p = 0; p < n; p++)
		KUNIT_EXPECT_PTR_EQ(test, listed[p], pages[p]);
	iov_kunit_check_refs(test, pages, n, base, 1);
	for (unsigned int p = 0; p < n; p++)
		put_page(listed[p]);
	iov_kunit_check_refs(test, pages, n, base, 0);
}

static const struct iov_kunit_type kernel_types[] = {
	{ "kvec", ITER_KVEC, NULL },
	{ "bvec", ITER_BVEC, NULL },
	{ "xarray", ITER_XARRAY, NULL },
	{ "folioq", ITER_FOLIOQ, NULL },
};

KUNIT_ARRAY_PARAM(kernel_type, kernel_types, iov_kunit_type_desc);

/* There are no pages behind ITER_DISCARD. */
static void iov_kunit_get_pages_discard(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_DISCARD, ITER_DEST,
						    &iov_kunit_discard_layouts[0]);
	struct page *pages[4], **pp = pages;
	size_t start;

	KUNIT_EXPECT_EQ(test, iov_iter_get_pages2(&it->iter, pages, SIZE_MAX, 4, &start),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, iov_iter_extract_pages(&it->iter, &pp, SIZE_MAX, 4, 0, &start),
			-EFAULT);
	iov_kunit_check_at(test, it, 0);
}

/*
 * ITER_XARRAY step by step: iov_iter_get_pages2() and
 * iov_iter_extract_pages() stop at maxpages or maxsize and go on from
 * there, the first taking a reference on each page, the second nothing.
 * Given no array, iov_iter_get_pages_alloc2() and iov_iter_extract_pages()
 * allocate one for the caller to kvfree().
 */
static void iov_kunit_get_pages_xarray(struct kunit *test)
{
	static const struct { size_t maxsize; unsigned int maxpages; } steps[] = {
		{ SIZE_MAX, 3 }, { 0x100, 8 }, { 0x1f00, 8 }, { SIZE_MAX, 1 }, { 0x2001, 8 },
		{ SIZE_MAX, 16 },
	};
	const struct iov_kunit_layout *layout = &iov_kunit_flat_layouts[0];
	struct iov_kunit_iter *g = iov_kunit_build(test, ITER_XARRAY, ITER_SOURCE, layout);
	struct iov_kunit_iter *e = iov_kunit_dup(test, g);
	struct page *want[STORE_PAGES], *got[STORE_PAGES], *listed[STORE_PAGES];
	struct page **pp = listed, **alloc;
	size_t done = 0, start, pos, len;
	int base[STORE_PAGES];
	unsigned int n;
	ssize_t ret;

	for (unsigned int w = 0; w < ARRAY_SIZE(steps); w++) {
		pos = g->seg_from[0] + done;
		len = min(steps[w].maxsize, g->total - done);
		n = min_t(size_t, steps[w].maxpages,
			  DIV_ROUND_UP(pos % PAGE_SIZE + len, PAGE_SIZE));
		len = min(len, n * PAGE_SIZE - pos % PAGE_SIZE);
		for (unsigned int p = 0; p < n; p++)
			want[p] = folio_page(g->store.folios[pos / PAGE_SIZE + p], 0);
		iov_kunit_save_refs(want, n, base);

		ret = iov_iter_get_pages2(&g->iter, got, steps[w].maxsize, steps[w].maxpages,
					  &start);
		KUNIT_ASSERT_EQ_MSG(test, ret, len, "get, step %u", w);
		KUNIT_EXPECT_EQ(test, start, pos % PAGE_SIZE);
		ret = iov_iter_extract_pages(&e->iter, &pp, steps[w].maxsize, steps[w].maxpages,
					     0, &start);
		KUNIT_ASSERT_EQ_MSG(test, ret, len, "extract, step %u", w);
		KUNIT_EXPECT_EQ(test, start, pos % PAGE_SIZE);
		done += len;
		iov_kunit_check_at(test, g, done);
		iov_kunit_check_at(test, e, done);
		for (unsigned int p = 0; p < n; p++) {
			KUNIT_EXPECT_PTR_EQ_MSG(test, got[p], want[p], "step %u page %u", w, p);
			KUNIT_EXPECT_PTR_EQ_MSG(test, listed[p], want[p], "step %u page %u", w, p);
		}
		iov_kunit_check_refs(test, want, n, base, 1);
		for (unsigned int p = 0; p < n; p++)
			put_page(got[p]);
		iov_kunit_check_refs(test, want, n, base, 0);
	}
	KUNIT_EXPECT_EQ(test, done, g->total);

	/* All of it, into an allocated array: 16 pages from 0x123. */
	g = iov_kunit_build(test, ITER_XARRAY, ITER_SOURCE, layout);
	e = iov_kunit_dup(test, g);
	for (unsigned int p = 0; p < STORE_PAGES; p++)
		want[p] = folio_page(g->store.folios[p], 0);
	iov_kunit_save_refs(want, STORE_PAGES, base);
	ret = iov_iter_get_pages_alloc2(&g->iter, &alloc, SIZE_MAX, &start);
	KUNIT_ASSERT_EQ(test, ret, g->total);
	KUNIT_ASSERT_NOT_NULL(test, alloc);
	KUNIT_EXPECT_EQ(test, start, 0x123);
	iov_kunit_check_at(test, g, g->total);
	for (unsigned int p = 0; p < STORE_PAGES; p++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, alloc[p], want[p], "page %u", p);
	iov_kunit_check_refs(test, want, STORE_PAGES, base, 1);
	for (unsigned int p = 0; p < STORE_PAGES; p++)
		put_page(alloc[p]);
	kvfree(alloc);
	ret = iov_iter_get_pages_alloc2(&g->iter, &alloc, SIZE_MAX, &start);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_NULL(test, alloc);

	alloc = NULL;
	ret = iov_iter_extract_pages(&e->iter, &alloc, SIZE_MAX, UINT_MAX, 0, &start);
	KUNIT_ASSERT_EQ(test, ret, e->total);
	KUNIT_ASSERT_NOT_NULL(test, alloc);
	KUNIT_EXPECT_EQ(test, start, 0x123);
	iov_kunit_check_at(test, e, e->total);
	for (unsigned int p = 0; p < STORE_PAGES; p++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, alloc[p], want[p], "page %u", p);
	iov_kunit_check_refs(test, want, STORE_PAGES, base, 0);
	kvfree(alloc);
}

#define MAX_SG			256

struct iov_kunit_sg_case {
	const char *name;
	enum iter_type type;
	const struct iov_kunit_layout *layout;
	unsigned int dir;
	size_t maxsize;		/* per call, capped at what is left */
	unsigned int sg_max;	/* per call */
	iov_iter_extraction_t flags;
};

/*
 * Each call is checked against what the layout implies.  User memory and
 * kvec buffers give one entry per page, xarray and folioq iterators one per
 * folio and bvec iterators one per bio_vec, each entry cut short by maxsize;
 * a call adds at most sg_max entries.  (The xarray stores are order-0
 * folios, so their entries are per page too.)
 */
static const struct iov_kunit_sg_case sg_cases[] = {
	{ "ubuf", ITER_UBUF, &iov_kunit_flat_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "ubuf, 0x1234 per call", ITER_UBUF, &iov_kunit_flat_layouts[0],
	  ITER_SOURCE, 0x1234, 64, 0 },
	{ "ubuf dest, p2pdma, 3 entries per call", ITER_UBUF, &iov_kunit_flat_layouts[0], ITER_DEST,
	  SIZE_MAX, 3, ITER_ALLOW_P2PDMA },
	{ "ubuf across a page", ITER_UBUF, &iov_kunit_flat_layouts[2], ITER_SOURCE,
	  SIZE_MAX, 64, 0 },
	{ "iovec mixed", ITER_IOVEC, &iov_kunit_vec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "iovec 128 segments, 0x333 per call", ITER_IOVEC, &iov_kunit_vec_layouts[3], ITER_SOURCE,
	  0x333, 16, 0 },
	{ "iovec out of order dest, 2 per call", ITER_IOVEC, &iov_kunit_vec_layouts[2], ITER_DEST,
	  SIZE_MAX, 2, 0 },
	{ "kvec mixed", ITER_KVEC, &iov_kunit_vec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "kvec mixed, 0x777 and 2 per call", ITER_KVEC, &iov_kunit_vec_layouts[0], ITER_SOURCE,
	  0x777, 2, 0 },
	{ "kvec 128 segments", ITER_KVEC, &iov_kunit_vec_layouts[3], ITER_DEST, SIZE_MAX, 200, 0 },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "bvec, 0x1555 and 2 per call", ITER_BVEC, &iov_kunit_bvec_layouts[0], ITER_SOURCE,
	  0x1555, 2, 0 },
	{ "bvec out of order", ITER_BVEC, &iov_kunit_bvec_layouts[2], ITER_DEST, SIZE_MAX, 64, 0 },
	{ "xarray whole store", ITER_XARRAY, &iov_kunit_flat_layouts[1], ITER_SOURCE,
	  SIZE_MAX, 64, 0 },
	{ "xarray, 3 pages per call", ITER_XARRAY, &iov_kunit_flat_layouts[1], ITER_SOURCE,
	  3 * PAGE_SIZE, 64, 0 },
	{ "xarray, 5 entries per call", ITER_XARRAY, &iov_kunit_flat_layouts[1], ITER_DEST,
	  SIZE_MAX, 5, 0 },
	{ "xarray odd, 1 entry per call", ITER_XARRAY, &iov_kunit_flat_layouts[0], ITER_SOURCE,
	  SIZE_MAX, 1, 0 },
	{ "xarray odd", ITER_XARRAY, &iov_kunit_flat_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "xarray odd, 0x2345 and 4 per call", ITER_XARRAY, &iov_kunit_flat_layouts[0], ITER_DEST,
	  0x2345, 4, 0 },
	{ "folioq across segments", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0], ITER_SOURCE,
	  SIZE_MAX, 64, 0 },
	{ "folioq, 0x2345 and 5 per call", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0], ITER_SOURCE,
	  0x2345, 5, 0 },
	{ "folioq inside a folio", ITER_FOLIOQ, &iov_kunit_folioq_layouts[1], ITER_DEST,
	  SIZE_MAX, 64, 0 },
};

static void sg_case_desc(const struct iov_kunit_sg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sg, sg_cases, sg_case_desc);

/* The folio of a folio store holding byte @off, and where it starts. */
static struct folio *iov_kunit_store_folio(struct iov_kunit_store *s, size_t off,
					   size_t *fstart)
{
	size_t start = 0;

	for (unsigned int i = 0; i < s->nr_folios; i++) {
		size_t fsize = folio_size(s->folios[i]);

		if (off < start + fsize) {
			*fstart = start;
			return s->folios[i];
		}
		start += fsize;
	}
	return NULL;
}

/*
 * The entry extract_iter_to_sg() should make for store byte @x of segment
 * @seg: its page (NULL for user memory, which is checked by content), its
 * offset in *@off, and the most it can hold.
 */
static struct page *iov_kunit_sg_want(struct iov_kunit_iter *it, unsigned int seg,
				      size_t x, size_t *off, size_t *room)
{
	struct iov_kunit_store *s = &it->store;
	struct folio *folio;
	size_t fstart;

	switch (it->type) {
	case ITER_BVEC:
		*off = it->bvec[seg].bv_offset + x - it->seg_from[seg];
		*room = SIZE_MAX;
		return it->bvec[seg].bv_page;
	case ITER_XARRAY:
	case ITER_FOLIOQ:
		folio = iov_kunit_store_folio(s, x, &fstart);
		*off = x - fstart;
		*room = folio_size(folio) - *off;
		return folio_page(folio, 0);
	case ITER_KVEC:
		*off = x % PAGE_SIZE;
		*room = PAGE_SIZE - *off;
		return vmalloc_to_page(s->kaddr + x - *off);
	default:
		*off = x % PAGE_SIZE;
		*room = PAGE_SIZE - *off;
		return NULL;
	}
}

/* An entry covers store bytes from @x: compare them with pattern(). */
static bool iov_kunit_sg_data(struct kunit *test, struct scatterlist *sg, size_t x,
			      unsigned int n)
{
	size_t k = 0;

	while (k < sg->length) {
		size_t at = sg->offset + k, in = at % PAGE_SIZE;
		size_t part = min_t(size_t, sg->length - k, PAGE_SIZE - in);
		u8 *p = kmap_local_page(nth_page(sg_page(sg), at / PAGE_SIZE));

		for (size_t j = 0; j < part; j++) {
			if (p[in + j] != pattern(x + k + j)) {
				KUNIT_FAIL(test, "entry %u byte %#zx is %#x, expected %#x",
					   n, k + j, p[in + j], pattern(x + k + j));
				kunmap_local(p);
				return false;
			}
		}
		kunmap_local(p);
		k += part;
	}
	return true;
}

/* Sum of the reference counts of a kernel store's folios, to spot leaks. */
static long iov_kunit_store_refs(struct iov_kunit_store *s)
{
	long sum = 0;

	if (s->kind == STORE_VMALLOC) {
		for (size_t off = 0; off < s->size; off += PAGE_SIZE)
			sum += page_ref_count(vmalloc_to_page(s->kaddr + off));
		return sum;
	}
	for (unsigned int i = 0; i < s->nr_folios; i++)
		sum += folio_ref_count(s->folios[i]);
	return sum;
}

/*
 * extract_iter_to_sg() in calls of at most maxsize bytes and sg_max
 * entries, appended to one table: every entry's page, offset, length and
 * data, the count returned and the table's nents, and the iterator
 * advanced by the count.  User pages are pinned, and unpinning each entry
 * releases them; kernel pages are listed without a reference.
 */
static bool iov_kunit_pinned(struct page *page)
{
	return folio_maybe_dma_pinned(page_folio(page));
}

struct iov_kunit_sg_entry {
	struct page *page;	/* NULL for user memory */
	size_t from;		/* store offset of the first byte */
	size_t offset, length;
};

static void iov_kunit_check_sg(struct kunit *test, struct scatterlist *sg, unsigned int n,
			       const struct iov_kunit_sg_entry *want, bool user)
{
	KUNIT_EXPECT_EQ_MSG(test, sg->length, want->length, "entry %u", n);
	KUNIT_EXPECT_EQ_MSG(test, sg->offset, want->offset, "entry %u", n);
	if (want->page)
		KUNIT_EXPECT_PTR_EQ_MSG(test, sg_page(sg), want->page, "entry %u", n);
	if (user)
		KUNIT_EXPECT_TRUE_MSG(test, iov_kunit_pinned(sg_page(sg)), "entry %u", n);
	if (sg->length == want->length && sg->offset == want->offset)
		iov_kunit_sg_data(test, sg, want->from, n);
}

/*
 * extract_iter_to_sg() in calls of at most maxsize bytes and sg_max
 * entries, appended to one table: every entry's page, offset, length and
 * data, the count returned and the table's nents, and the iterator
 * advanced by the count.  User pages are pinned, and unpinning each entry
 * releases them; kernel pages are listed without a reference.
 */
static void iov_kunit_extract_to_sg(struct kunit *test)
{
	const struct iov_kunit_sg_case *c = test->param_value;
	struct iov_kunit_iter *it = iov_kunit_build(test, c->type, c->dir, c->layout);
	bool user = user_backed_iter(&it->iter);
	struct iov_kunit_sg_entry *want;
	struct sg_table sgt = {};
	struct scatterlist *sgl;
	size_t done = 0, in = 0, room;
	unsigned int seg = 0, n;
	long refs = 0;

	if (c->dir == ITER_DEST)
		iov_kunit_store_fill(test, &it->store);
	if (!user)
		refs = iov_kunit_store_refs(&it->store);
	want = kunit_kcalloc(test, MAX_SG, sizeof(*want), GFP_KERNEL);
	sgl = kunit_kcalloc(test, MAX_SG, sizeof(*sgl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, MAX_SG);
	sgt.sgl = sgl;

	while (done < it->total) {
		size_t max = min(c->maxsize, it->total - done), bytes = 0;
		unsigned int first = sgt.nents;
		ssize_t ret;

		KUNIT_ASSERT_LE(test, first + c->sg_max, MAX_SG);
		/* What the layout says this call should add. */
		for (n = first; n < first + c->sg_max && bytes < max; n++) {
			while (in == it->seg_len[seg]) {
				seg++;
				in = 0;
			}
			want[n].from = it->seg_from[seg] + in;
			want[n].page = iov_kunit_sg_want(it, seg, want[n].from, &want[n].offset,
							 &room);
			want[n].length = min3(it->seg_len[seg] - in, room, max - bytes);
			in += want[n].length;
			bytes += want[n].length;
		}

		ret = extract_iter_to_sg(&it->iter, max, &sgt, c->sg_max, c->flags);
		KUNIT_ASSERT_EQ_MSG(test, ret, bytes, "call after %zu bytes", done);
		KUNIT_ASSERT_EQ_MSG(test, sgt.nents, n, "call after %zu bytes", done);
		KUNIT_EXPECT_EQ(test, sgt.orig_nents, 0);
		for (n = first; n < sgt.nents; n++)
			iov_kunit_check_sg(test, &sgl[n], n, &want[n], user);
		done += ret;
		iov_kunit_check_at(test, it, done);
	}
	/* Nothing left: nothing added. */
	KUNIT_EXPECT_EQ(test, extract_iter_to_sg(&it->iter, 0, &sgt, 4, c->flags), 0);
	KUNIT_EXPECT_EQ(test, extract_iter_to_sg(&it->iter, 1, &sgt, 0, c->flags), 0);
	KUNIT_EXPECT_EQ(test, sgt.nents, n);

	if (!user) {
		KUNIT_EXPECT_EQ(test, iov_kunit_store_refs(&it->store), refs);
		return;
	}
	/* The caller unpins each entry; that releases every page. */
	for (n = 0; n < sgt.nents; n++)
		unpin_user_page(sg_page(&sgl[n]));
	for (n = 0; n < sgt.nents; n++)
		KUNIT_EXPECT_FALSE_MSG(test, iov_kunit_pinned(sg_page(&sgl[n])), "entry %u", n);
}

/*
 * Failures: a destination on a read-only mapping is -EFAULT with nothing
 * added and nothing moved; a call limited to the pages before a hole
 * returns them, and the next call fails the same way; a call that runs
 * into the hole fails as a whole, giving the pages before it back and
 * leaving the iterator where it was.
 */
static void iov_kunit_extract_to_sg_fault(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build_range(test, ITER_UBUF, ITER_DEST,
							  0x10, 0x3010);
	struct scatterlist sgl[8];
	struct sg_table sgt = { .sgl = sgl };
	ssize_t ret;

	sg_init_table(sgl, ARRAY_SIZE(sgl));
	iov_kunit_mmap(test, it->store.uaddr, 4 * PAGE_SIZE, PROT_READ);
	KUNIT_EXPECT_EQ(test, extract_iter_to_sg(&it->iter, it->total, &sgt, 8, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sgt.nents, 0);
	iov_kunit_check_at(test, it, 0);

	it = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE, 0x10, 0x4010);
	iov_kunit_make_hole(test, &it->store, 2, false);
	ret = extract_iter_to_sg(&it->iter, it->total, &sgt, 2, 0);
	KUNIT_ASSERT_EQ(test, ret, 2 * PAGE_SIZE - 0x10);
	KUNIT_ASSERT_EQ(test, sgt.nents, 2);
	iov_kunit_check_at(test, it, ret);
	KUNIT_EXPECT_EQ(test, sgl[0].offset, 0x10);
	KUNIT_EXPECT_EQ(test, sgl[0].length, PAGE_SIZE - 0x10);
	KUNIT_EXPECT_EQ(test, sgl[1].offset, 0);
	KUNIT_EXPECT_EQ(test, sgl[1].length, PAGE_SIZE);
	iov_kunit_sg_data(test, &sgl[0], 0x10, 0);
	iov_kunit_sg_data(test, &sgl[1], PAGE_SIZE, 1);

	/* The entries already there stay, pinned. */
	sgt.orig_nents = sgt.nents;
	KUNIT_EXPECT_EQ(test, extract_iter_to_sg(&it->iter, iov_iter_count(&it->iter), &sgt,
						 4, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sgt.nents, 2);
	iov_kunit_check_at(test, it, ret);
	for (unsigned int n = 0; n < 2; n++) {
		KUNIT_EXPECT_TRUE_MSG(test, iov_kunit_pinned(sg_page(&sgl[n])), "entry %u", n);
		unpin_user_page(sg_page(&sgl[n]));
	}

	/*
	 * A hole past the first pages fails the whole call: the pages before
	 * it are given back, and the iterator stays where it was.
	 */
	it = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE, 0x10, 0x4010);
	iov_kunit_make_hole(test, &it->store, 2, false);
	sg_init_table(sgl, ARRAY_SIZE(sgl));
	sgt.nents = 0;
	sgt.orig_nents = 0;
	KUNIT_EXPECT_EQ(test, extract_iter_to_sg(&it->iter, it->total, &sgt, 8, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sgt.nents, 0);
	iov_kunit_check_at(test, it, 0);
}

static struct kunit_case iov_kunit_pages_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_get_pages_ubuf, get_gen_params),
	KUNIT_CASE(iov_kunit_get_pages_iovec),
	KUNIT_CASE(iov_kunit_get_pages_alloc),
	KUNIT_CASE(iov_kunit_get_pages_fault),
	KUNIT_CASE_PARAM(iov_kunit_get_pages_kernel, kernel_type_gen_params),
	KUNIT_CASE(iov_kunit_get_pages_discard),
	KUNIT_CASE(iov_kunit_get_pages_xarray),
	KUNIT_CASE_PARAM(iov_kunit_extract_to_sg, sg_gen_params),
	KUNIT_CASE(iov_kunit_extract_to_sg_fault),
	{}
};

static struct kunit_suite iov_kunit_pages_suite = {
	.name = "iov_iter_api_pages",
	.test_cases = iov_kunit_pages_cases,
};

kunit_test_suite(iov_kunit_pages_suite);
