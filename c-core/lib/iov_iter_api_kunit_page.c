// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_page: copying to and from pages.
 */

#include "iov_iter_api_kunit.h"

struct iov_kunit_span {
	unsigned int page;	/* subpage of an order-2 folio */
	size_t offset, len;
};

/* Offsets may exceed PAGE_SIZE and copies may cross subpages of the folio. */
static const struct iov_kunit_span page_spans[] = {
	{ 0, 0, PAGE_SIZE },
	{ 0, 0x123, 0x100 },
	{ 0, 0xff0, 0x20 },
	{ 1, 0x10, 2 * PAGE_SIZE },
	{ 0, PAGE_SIZE + 5, 0x30 },
	{ 3, 0xf00, 0x100 },
	{ 0, 3 * PAGE_SIZE, PAGE_SIZE },
	{ 2, 0x77, 0 },
};

/* Destinations and sources: stores with segment boundaries to cross. */
static const struct iov_kunit_type page_types[] = {
	{ "ubuf", ITER_UBUF, &iov_kunit_flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &iov_kunit_vec_layouts[0] },
	{ "kvec", ITER_KVEC, &iov_kunit_vec_layouts[0] },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0] },
};

KUNIT_ARRAY_PARAM(page_type, page_types, iov_kunit_type_desc);

static void iov_kunit_page_bytes(struct folio *folio, u8 *buf)
{
	for (unsigned int p = 0; p < folio_nr_pages(folio); p++)
		memcpy_from_page(buf + p * PAGE_SIZE, folio_page(folio, p), 0, PAGE_SIZE);
}

/* copy_page_to_iter(): the span of the folio lands at the cursor. */
static void iov_kunit_copy_page_to_iter(struct kunit *test)
{
	struct folio *folio = iov_kunit_folio(test, 2);
	u8 *fbuf = iov_kunit_vzalloc(test, folio_size(folio));
	u8 *img, *cur;

	iov_kunit_fill(fbuf, folio_size(folio), 0);
	for (unsigned int p = 0; p < 4; p++)
		memcpy_to_page(folio_page(folio, p), 0, fbuf + p * PAGE_SIZE, PAGE_SIZE);

	for (unsigned int i = 0; i < ARRAY_SIZE(page_spans); i++) {
		const struct iov_kunit_span *sp = &page_spans[i];
		struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_DEST);
		const u8 *want = fbuf + sp->page * PAGE_SIZE + sp->offset;
		size_t got;

		iov_iter_advance(&it->iter, 0x11);
		got = copy_page_to_iter(folio_page(folio, sp->page), sp->offset, sp->len,
					&it->iter);
		KUNIT_EXPECT_EQ_MSG(test, got, sp->len, "span %u", i);
		iov_kunit_check_at(test, it, 0x11 + got);

		img = iov_kunit_vzalloc(test, it->store.size + 0x11);
		memset(img, 0, 0x11);
		memcpy(img + 0x11, want, got);
		/* img holds the stream; turn it into the store image in place. */
		cur = iov_kunit_vzalloc(test, it->store.size);
		iov_kunit_image_of(it, img, 0x11 + got, cur);
		img = iov_kunit_store_snapshot(test, &it->store);
		iov_kunit_same(test, img, cur, it->store.size, "store");
	}

	/* A destination shorter than the span takes what fits. */
	{
		struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_DEST);

		iov_iter_truncate(&it->iter, 0x11);
		KUNIT_EXPECT_EQ(test, copy_page_to_iter(folio_page(folio, 0), 0xff0, 0x20,
							&it->iter), 0x11);
		KUNIT_EXPECT_EQ(test, iov_iter_count(&it->iter), 0);
	}
}

/* copy_page_from_iter(): the stream lands in the span, nowhere else. */
static void iov_kunit_copy_page_from_iter(struct kunit *test)
{
	struct folio *folio = iov_kunit_folio(test, 2);
	size_t fsize = folio_size(folio);
	u8 *fbuf = iov_kunit_vzalloc(test, fsize);
	u8 *want = iov_kunit_vzalloc(test, fsize);

	for (unsigned int i = 0; i < ARRAY_SIZE(page_spans); i++) {
		const struct iov_kunit_span *sp = &page_spans[i];
		struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_SOURCE);
		u8 *stream = iov_kunit_vzalloc(test, it->total);
		size_t at = sp->page * PAGE_SIZE + sp->offset, got;

		iov_kunit_source_stream(it, stream);
		folio_zero_range(folio, 0, fsize);
		iov_iter_advance(&it->iter, 0x11);
		got = copy_page_from_iter(folio_page(folio, sp->page), sp->offset, sp->len,
					  &it->iter);
		KUNIT_EXPECT_EQ_MSG(test, got, sp->len, "span %u", i);
		iov_kunit_check_at(test, it, 0x11 + got);

		memset(want, 0, fsize);
		memcpy(want + at, stream + 0x11, got);
		iov_kunit_page_bytes(folio, fbuf);
		iov_kunit_same(test, fbuf, want, fsize, "folio");
	}
}

/*
 * copy_page_from_iter_atomic() with page faults disabled: from resident
 * memory, kernel or user, it copies everything, across subpages.
 */
static void iov_kunit_copy_page_atomic(struct kunit *test)
{
	struct folio *folio = iov_kunit_folio(test, 2);
	size_t fsize = folio_size(folio);
	u8 *fbuf = iov_kunit_vzalloc(test, fsize);
	u8 *want = iov_kunit_vzalloc(test, fsize);

	for (unsigned int i = 0; i < ARRAY_SIZE(page_spans); i++) {
		const struct iov_kunit_span *sp = &page_spans[i];
		struct iov_kunit_iter *it = iov_kunit_build_param(test, ITER_SOURCE);
		u8 *stream = iov_kunit_vzalloc(test, it->total);
		size_t at = sp->page * PAGE_SIZE + sp->offset, got;

		iov_kunit_source_stream(it, stream);
		folio_zero_range(folio, 0, fsize);
		iov_iter_advance(&it->iter, 0x11);
		pagefault_disable();
		got = copy_page_from_iter_atomic(folio_page(folio, sp->page), sp->offset,
						 sp->len, &it->iter);
		pagefault_enable();
		KUNIT_EXPECT_EQ_MSG(test, got, sp->len, "span %u", i);
		iov_kunit_check_at(test, it, 0x11 + got);

		memset(want, 0, fsize);
		memcpy(want + at, stream + 0x11, got);
		iov_kunit_page_bytes(folio, fbuf);
		iov_kunit_same(test, fbuf, want, fsize, "folio");
	}
}

/*
 * The buffered-write pattern: an atomic copy from user memory that is not
 * resident comes up short; fault_in_iov_iter_readable() brings the rest in
 * and the retry completes.  Only the first page of the source was ever
 * written, so the others are not mapped until faulted in.
 */
static void iov_kunit_copy_page_atomic_fault_in(struct kunit *test)
{
	struct folio *folio = iov_kunit_folio(test, 2);
	size_t len = 3 * PAGE_SIZE - 0x200, copied = 0, got;
	unsigned long uaddr = iov_kunit_mmap(test, 0, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	u8 *src = iov_kunit_vzalloc(test, 4 * PAGE_SIZE);
	u8 *fbuf = iov_kunit_vzalloc(test, folio_size(folio));
	u8 *want = iov_kunit_vzalloc(test, folio_size(folio));
	struct iov_iter iter;
	unsigned int rounds = 0;

	iov_kunit_fill(src, PAGE_SIZE, 0);
	iov_kunit_to_user(test, uaddr, src, PAGE_SIZE);
	iov_iter_ubuf(&iter, ITER_SOURCE, (void __user *)(uaddr + 0x100), len);

	pagefault_disable();
	got = copy_page_from_iter_atomic(folio_page(folio, 0), 0x80, len, &iter);
	pagefault_enable();
	iov_kunit_check_short(test, got, 0, PAGE_SIZE - 0x100);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), len - got);
	copied = got;

	while (copied < len && rounds++ < 4) {
		size_t left = len - copied;

		KUNIT_ASSERT_EQ(test, fault_in_iov_iter_readable(&iter, left), 0);
		pagefault_disable();
		got = copy_page_from_iter_atomic(folio_page(folio, 0), 0x80 + copied, left,
						 &iter);
		pagefault_enable();
		KUNIT_EXPECT_GT(test, got, 0);
		copied += got;
	}
	KUNIT_EXPECT_EQ(test, copied, len);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), 0);

	/* The folio holds what user memory holds: the pattern, then zeroes. */
	iov_kunit_from_user(test, src, uaddr, 4 * PAGE_SIZE);
	memcpy(want + 0x80, src + 0x100, len);
	iov_kunit_page_bytes(folio, fbuf);
	iov_kunit_same(test, fbuf, want, folio_size(folio), "folio");
}

/*
 * copy_page_to_iter_nofault() never faults: into user memory that is not
 * resident it copies nothing, and after fault_in_iov_iter_writeable() it
 * copies everything.
 */
static void iov_kunit_copy_page_nofault(struct kunit *test)
{
	struct folio *folio = iov_kunit_folio(test, 0);
	unsigned long uaddr = iov_kunit_mmap(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	u8 *buf = iov_kunit_vzalloc(test, PAGE_SIZE);
	struct iov_iter iter;

	iov_kunit_fill(buf, PAGE_SIZE, 0);
	memcpy_to_page(folio_page(folio, 0), 0, buf, PAGE_SIZE);
	iov_iter_ubuf(&iter, ITER_DEST, (void __user *)(uaddr + 0x40), 0x100);

	KUNIT_EXPECT_EQ(test, copy_page_to_iter_nofault(folio_page(folio, 0), 0x10, 0x100,
							&iter), 0);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), 0x100);
	KUNIT_EXPECT_EQ(test, fault_in_iov_iter_writeable(&iter, 0x100), 0);
	KUNIT_EXPECT_EQ(test, copy_page_to_iter_nofault(folio_page(folio, 0), 0x10, 0x100,
							&iter), 0x100);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), 0);

	memset(buf, 0, PAGE_SIZE);
	iov_kunit_from_user(test, buf, uaddr + 0x40, 0x100);
	for (size_t k = 0; k < 0x100; k++)
		if (buf[k] != pattern(0x10 + k)) {
			KUNIT_FAIL(test, "byte %#zx is %#x", k, buf[k]);
			break;
		}
}

static struct kunit_case iov_kunit_page_cases[] = {
	KUNIT_CASE_PARAM(iov_kunit_copy_page_to_iter, page_type_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_page_from_iter, page_type_gen_params),
	KUNIT_CASE_PARAM(iov_kunit_copy_page_atomic, page_type_gen_params),
	KUNIT_CASE(iov_kunit_copy_page_atomic_fault_in),
	KUNIT_CASE(iov_kunit_copy_page_nofault),
	{}
};

static struct kunit_suite iov_kunit_page_suite = {
	.name = "iov_iter_api_page",
	.test_cases = iov_kunit_page_cases,
};

kunit_test_suite(iov_kunit_page_suite);
