// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the iov_iter_api KUnit suites share: memory helpers, backing
 * stores, iterators built over them and the layouts of their segments.
 */

#include "iov_iter_api_kunit.h"

/* kunit_release_action() finds an action by its address: one for all suites. */
void iov_kunit_vfree(void *in)
{
	vfree(in);
}

KUNIT_DEFINE_ACTION_WRAPPER(iov_kunit_folio_put, folio_put, struct folio *);
KUNIT_DEFINE_ACTION_WRAPPER(iov_kunit_xa_destroy, xa_destroy, struct xarray *);

void *iov_kunit_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, iov_kunit_vfree, p));
	return p;
}

struct folio *iov_kunit_folio(struct kunit *test, unsigned int order)
{
	struct folio *folio = folio_alloc(GFP_KERNEL | __GFP_ZERO, order);

	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, iov_kunit_folio_put, folio));
	return folio;
}

/* Map @size bytes of anonymous user memory into the test thread's mm. */
unsigned long iov_kunit_mmap(struct kunit *test, unsigned long addr,
			     size_t size, unsigned long prot)
{
	unsigned long flags = MAP_ANONYMOUS | MAP_PRIVATE | (addr ? MAP_FIXED : 0);
	unsigned long got;

	got = kunit_vm_mmap(test, NULL, addr, size, prot, flags, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !got || IS_ERR_VALUE(got),
			       "kunit_vm_mmap() failed: %ld", (long)got);
	if (addr)
		KUNIT_ASSERT_EQ(test, got, addr);
	return got;
}

void iov_kunit_to_user(struct kunit *test, unsigned long uaddr,
		       const void *buf, size_t len)
{
	KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)uaddr, buf, len));
}

void iov_kunit_from_user(struct kunit *test, void *buf,
			 unsigned long uaddr, size_t len)
{
	KUNIT_ASSERT_EQ(test, 0, copy_from_user(buf, (void __user *)uaddr, len));
}

void iov_kunit_fill(u8 *buf, size_t len, size_t base)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = pattern(base + k);
}

/*
 * Compare @len bytes and report the first difference; returns true if equal.
 */
bool iov_kunit_same(struct kunit *test, const u8 *got, const u8 *want,
		    size_t len, const char *what)
{
	for (size_t k = 0; k < len; k++) {
		if (got[k] != want[k]) {
			KUNIT_FAIL(test, "%s: byte %#zx is %#x, expected %#x",
				   what, k, got[k], want[k]);
			return false;
		}
	}
	return true;
}

bool iov_kunit_all_zero(struct kunit *test, const u8 *got, size_t len,
			const char *what)
{
	for (size_t k = 0; k < len; k++) {
		if (got[k]) {
			KUNIT_FAIL(test, "%s: byte %#zx is %#x, expected 0", what, k, got[k]);
			return false;
		}
	}
	return true;
}

static void iov_kunit_store_init(struct kunit *test, struct iov_kunit_store *s,
				 enum iter_type type)
{
	unsigned int i;

	switch (type) {
	case ITER_UBUF:
	case ITER_IOVEC:
		s->kind = STORE_USER;
		s->size = STORE_SIZE;
		s->uaddr = iov_kunit_mmap(test, 0, s->size, PROT_READ | PROT_WRITE);
		break;
	case ITER_KVEC:
		s->kind = STORE_VMALLOC;
		s->size = STORE_SIZE;
		s->kaddr = iov_kunit_vzalloc(test, s->size);
		break;
	case ITER_BVEC:
		/* One compound page, so that a bio_vec may span pages. */
		s->kind = STORE_FOLIOS;
		s->folios[0] = iov_kunit_folio(test, ilog2(STORE_PAGES));
		s->nr_folios = 1;
		s->size = STORE_SIZE;
		break;
	case ITER_XARRAY:
		s->kind = STORE_FOLIOS;
		for (i = 0; i < STORE_PAGES; i++)
			s->folios[i] = iov_kunit_folio(test, 0);
		s->nr_folios = STORE_PAGES;
		s->size = STORE_SIZE;
		break;
	case ITER_FOLIOQ:
		/* Folios of orders 0, 1 and 2, in an irregular sequence. */
		s->kind = STORE_FOLIOS;
		for (i = 0; i < FOLIOQ_FOLIOS; i++) {
			unsigned int order = i % 6 == 1 ? 2 : i % 6 == 4 ? 1 : 0;

			s->folios[i] = iov_kunit_folio(test, order);
			s->size += folio_size(s->folios[i]);
		}
		s->nr_folios = FOLIOQ_FOLIOS;
		break;
	default:
		s->kind = STORE_NONE;
		break;
	}
}

/* Read (@write false) or write @len bytes of the store at @off. */
void iov_kunit_store_io(struct kunit *test, struct iov_kunit_store *s,
			size_t off, u8 *buf, size_t len, bool write)
{
	unsigned int i;
	size_t start = 0;

	KUNIT_ASSERT_LE(test, off + len, s->size);
	switch (s->kind) {
	case STORE_USER:
		if (write)
			iov_kunit_to_user(test, s->uaddr + off, buf, len);
		else
			iov_kunit_from_user(test, buf, s->uaddr + off, len);
		return;
	case STORE_VMALLOC:
		if (write)
			memcpy(s->kaddr + off, buf, len);
		else
			memcpy(buf, s->kaddr + off, len);
		return;
	case STORE_FOLIOS:
		for (i = 0; i < s->nr_folios && len; i++) {
			size_t fsize = folio_size(s->folios[i]);

			while (len && off < start + fsize) {
				size_t in = off - start;
				size_t part = min(len, PAGE_SIZE - in % PAGE_SIZE);
				u8 *p = kmap_local_folio(s->folios[i], in);

				if (write)
					memcpy(p, buf, part);
				else
					memcpy(buf, p, part);
				kunmap_local(p);
				off += part;
				buf += part;
				len -= part;
			}
			start += fsize;
		}
		return;
	default:
		return;
	}
}

u8 *iov_kunit_store_snapshot(struct kunit *test, struct iov_kunit_store *s)
{
	u8 *img = iov_kunit_vzalloc(test, s->size);

	iov_kunit_store_io(test, s, 0, img, s->size, false);
	return img;
}

void iov_kunit_store_fill(struct kunit *test, struct iov_kunit_store *s)
{
	u8 *img = iov_kunit_vzalloc(test, s->size);

	iov_kunit_fill(img, s->size, 0);
	iov_kunit_store_io(test, s, 0, img, s->size, true);
}

static void iov_kunit_destroy_folioq(void *data)
{
	struct folio_queue *fq = data, *next;

	for (; fq; fq = next) {
		next = fq->next;
		kfree(fq);
	}
}

static void iov_kunit_init_folioq(struct kunit *test, struct iov_kunit_iter *it,
				  size_t from)
{
	struct iov_kunit_store *s = &it->store;
	struct folio_queue *fq, *first = NULL;
	unsigned int first_slot = 0;
	size_t start = 0, offset = 0;

	fq = kzalloc(sizeof(*fq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fq);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, iov_kunit_destroy_folioq, fq));
	folioq_init(fq, 0);
	it->fq_head = fq;
	for (unsigned int i = 0; i < s->nr_folios; i++) {
		size_t fsize = folio_size(s->folios[i]);
		unsigned int slot;

		if (folioq_full(fq)) {
			fq->next = kzalloc(sizeof(*fq), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, fq->next);
			folioq_init(fq->next, 0);
			fq->next->prev = fq;
			fq = fq->next;
		}
		slot = folioq_append(fq, s->folios[i]);
		if (!first && from < start + fsize) {
			first = fq;
			first_slot = slot;
			offset = from - start;
		}
		start += fsize;
	}
	KUNIT_ASSERT_NOT_NULL(test, first);
	/* The position checks count from the head of the queue. */
	KUNIT_ASSERT_PTR_EQ(test, first, it->fq_head);
	it->fq_start = from;
	iov_iter_folio_queue(&it->iter, it->dir, first, first_slot, offset, it->total);
}

static void iov_kunit_set_segs(struct kunit *test, struct iov_kunit_iter *it,
			       const struct iov_kunit_layout *layout)
{
	unsigned int i;

	if (layout->many) {
		/* Short segments, some empty, some NULL-based, with gaps. */
		for (i = 0; i < MAX_SEGS; i++) {
			it->seg_from[i] = i % 17 == 5 ? NULL_SEG : i * 0x9b + i % 7;
			it->seg_len[i] = i % 17 == 5 ? 0 : i * 13 % 41;
		}
		it->nr_segs = MAX_SEGS;
	} else {
		KUNIT_ASSERT_LE(test, layout->nr, MAX_SEGS);
		for (i = 0; i < layout->nr; i++) {
			const struct iov_kunit_range *r = &layout->ranges[i];

			it->seg_from[i] = r->from;
			it->seg_len[i] = r->from == NULL_SEG ? 0 : r->to - r->from;
		}
		it->nr_segs = layout->nr;
	}
	for (i = 0; i < it->nr_segs; i++) {
		if (it->seg_from[i] != NULL_SEG)
			KUNIT_ASSERT_LE(test, it->seg_from[i] + it->seg_len[i],
					it->store.size);
		it->total += it->seg_len[i];
	}
}

/*
 * Build an iterator of @type and direction @dir over a new store.  A source
 * store is filled with pattern(offset); a destination store is zeroed.
 * ITER_UBUF, ITER_XARRAY and ITER_FOLIOQ take the first range of @layout;
 * ITER_DISCARD takes only its length.
 */
struct iov_kunit_iter *iov_kunit_build(struct kunit *test, enum iter_type type,
				       unsigned int dir,
				       const struct iov_kunit_layout *layout)
{
	struct iov_kunit_iter *it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	struct iov_kunit_store *s;
	unsigned int i;
	size_t from;

	KUNIT_ASSERT_NOT_NULL(test, it);
	s = &it->store;
	it->type = type;
	it->dir = dir;
	iov_kunit_store_init(test, s, type);
	if (type == ITER_DISCARD)
		s->size = SIZE_MAX;
	iov_kunit_set_segs(test, it, layout);
	if (dir == ITER_SOURCE && s->kind != STORE_NONE)
		iov_kunit_store_fill(test, s);

	from = it->seg_from[0];
	switch (type) {
	case ITER_UBUF:
		KUNIT_ASSERT_EQ(test, it->nr_segs, 1);
		iov_iter_ubuf(&it->iter, dir, (void __user *)(s->uaddr + from), it->total);
		break;
	case ITER_IOVEC:
		for (i = 0; i < it->nr_segs; i++) {
			from = it->seg_from[i];
			it->iov[i].iov_base = from == NULL_SEG ? NULL :
					      (void __user *)(s->uaddr + from);
			it->iov[i].iov_len = it->seg_len[i];
		}
		iov_iter_init(&it->iter, dir, it->iov, it->nr_segs, it->total);
		break;
	case ITER_KVEC:
		for (i = 0; i < it->nr_segs; i++) {
			from = it->seg_from[i];
			it->kvec[i].iov_base = from == NULL_SEG ? NULL : s->kaddr + from;
			it->kvec[i].iov_len = it->seg_len[i];
		}
		iov_iter_kvec(&it->iter, dir, it->kvec, it->nr_segs, it->total);
		break;
	case ITER_BVEC:
		for (i = 0; i < it->nr_segs; i++) {
			from = it->seg_from[i];
			KUNIT_ASSERT_NE(test, from, NULL_SEG);
			bvec_set_page(&it->bvec[i], folio_page(s->folios[0], from / PAGE_SIZE),
				      it->seg_len[i], from % PAGE_SIZE);
		}
		iov_iter_bvec(&it->iter, dir, it->bvec, it->nr_segs, it->total);
		break;
	case ITER_XARRAY:
		KUNIT_ASSERT_EQ(test, it->nr_segs, 1);
		xa_init(&it->xa);
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, iov_kunit_xa_destroy,
								   &it->xa));
		for (i = 0; i < s->nr_folios; i++)
			KUNIT_ASSERT_FALSE(test, xa_is_err(xa_store(&it->xa, i, s->folios[i],
								    GFP_KERNEL)));
		iov_iter_xarray(&it->iter, dir, &it->xa, from, it->total);
		break;
	case ITER_FOLIOQ:
		KUNIT_ASSERT_EQ(test, it->nr_segs, 1);
		iov_kunit_init_folioq(test, it, from);
		break;
	case ITER_DISCARD:
		KUNIT_ASSERT_EQ(test, dir, ITER_DEST);
		iov_iter_discard(&it->iter, dir, it->total);
		break;
	}
	return it;
}

/* Segment array position of a vector iterator; -1 if out of range. */
static long iov_kunit_seg_index(struct iov_kunit_iter *it)
{
	const struct iov_iter *i = &it->iter;
	long idx;

	switch (it->type) {
	case ITER_IOVEC:
		idx = iter_iov(i) - it->iov;
		break;
	case ITER_KVEC:
		idx = i->kvec - it->kvec;
		break;
	case ITER_BVEC:
		idx = i->bvec - it->bvec;
		break;
	default:
		return -1;
	}
	return idx >= 0 && idx <= it->nr_segs ? idx : -1;
}

/*
 * The stream position the iterator's cursor designates, computed from its
 * fields only (not from count).  Structural inconsistencies fail the test and
 * yield SIZE_MAX.
 */
static size_t iov_kunit_position(struct kunit *test, struct iov_kunit_iter *it)
{
	const struct iov_iter *i = &it->iter;
	const struct folio_queue *fq;
	size_t pos = 0;
	long idx;

	switch (it->type) {
	case ITER_UBUF:
		KUNIT_EXPECT_EQ(test, i->nr_segs, 1);
		KUNIT_EXPECT_EQ(test, (unsigned long)i->ubuf,
				it->store.uaddr + it->seg_from[0]);
		return i->iov_offset;
	case ITER_XARRAY:
		KUNIT_EXPECT_EQ(test, i->xarray_start, it->seg_from[0]);
		return i->iov_offset;
	case ITER_DISCARD:
		KUNIT_EXPECT_EQ(test, i->iov_offset, 0);
		return it->total - i->count;
	case ITER_FOLIOQ:
		for (fq = it->fq_head; fq && fq != i->folioq; fq = fq->next)
			for (unsigned int s = 0; s < folioq_count((struct folio_queue *)fq); s++)
				pos += folioq_folio_size(fq, s);
		if (!fq) {
			KUNIT_FAIL(test, "folioq iterator left its queue");
			return SIZE_MAX;
		}
		for (unsigned int s = 0; s < i->folioq_slot; s++)
			pos += folioq_folio_size(fq, s);
		return pos + i->iov_offset - it->fq_start;
	default:
		break;
	}

	idx = iov_kunit_seg_index(it);
	if (idx < 0) {
		KUNIT_FAIL(test, "segment pointer outside the array");
		return SIZE_MAX;
	}
	KUNIT_EXPECT_EQ(test, i->nr_segs, it->nr_segs - idx);
	if (idx == it->nr_segs)
		KUNIT_EXPECT_EQ(test, i->iov_offset, 0);
	else
		KUNIT_EXPECT_LE(test, i->iov_offset, it->seg_len[idx]);
	for (long k = 0; k < idx; k++)
		pos += it->seg_len[k];
	return pos + i->iov_offset;
}

/* The iterator has consumed exactly @done bytes of its stream. */
void iov_kunit_check_at(struct kunit *test, struct iov_kunit_iter *it,
			size_t done)
{
	KUNIT_EXPECT_EQ_MSG(test, iov_iter_count(&it->iter), it->total - done,
			    "count after %zu bytes", done);
	KUNIT_EXPECT_EQ_MSG(test, iov_kunit_position(test, it), done,
			    "cursor after %zu bytes", done);
}

/*
 * Image of a zeroed destination store once the first @done bytes of
 * @stream (NULL: pattern(0), pattern(1), ...) have been copied into it.
 */
void iov_kunit_image_of(struct iov_kunit_iter *it, const u8 *stream,
			size_t done, u8 *img)
{
	size_t k = 0;

	memset(img, 0, it->store.size);
	for (unsigned int s = 0; s < it->nr_segs && k < done; s++) {
		size_t n = min(it->seg_len[s], done - k);

		for (size_t j = 0; j < n; j++)
			img[it->seg_from[s] + j] = stream ? stream[k + j] : pattern(k + j);
		k += n;
	}
}

void iov_kunit_dest_image(struct iov_kunit_iter *it, size_t done, u8 *img)
{
	iov_kunit_image_of(it, NULL, done, img);
}

/* The stream a source iterator yields: the store bytes its segments cover. */
void iov_kunit_source_stream(struct iov_kunit_iter *it, u8 *out)
{
	size_t k = 0;

	for (unsigned int s = 0; s < it->nr_segs; s++) {
		iov_kunit_fill(out + k, it->seg_len[s], it->seg_from[s]);
		k += it->seg_len[s];
	}
}

struct iov_kunit_iter *iov_kunit_dup(struct kunit *test,
				     const struct iov_kunit_iter *it)
{
	struct iov_kunit_iter *copy = kunit_kmalloc(test, sizeof(*copy), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	*copy = *it;
	return copy;
}

/* ---- copy functions and layouts --------------------------------------- */

/*
 * The copy functions are passed to the shared bodies by pointer: the
 * inline wrappers through these, and the exported variants with their own
 * contract (_copy_mc_to_iter(), _copy_from_iter_flushcache(),
 * _copy_from_iter_nocache()) directly.
 */
size_t iov_kunit_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_to_iter(addr, bytes, i);
}

size_t iov_kunit_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter(addr, bytes, i);
}

/* Segments with zero-length and NULL-based entries, odd offsets, page crossings. */
static const struct iov_kunit_range vec_mixed[] = {
	{ NULL_SEG, 0 }, { 0x0003, 0x0003 }, { 0x0011, 0x0020 }, { 0x0ffd, 0x1003 },
	{ 0x2000, 0x2000 }, { 0x2001, 0x4fff }, { NULL_SEG, 0 }, { 0x6000, 0x6001 },
	{ 0x7123, 0x9456 }, { 0xa000, 0xa000 }, { 0xfff0, 0x10000 }, { NULL_SEG, 0 },
};

static const struct iov_kunit_range vec_one[] = { { 0x0005, 0x5005 } };
static const struct iov_kunit_range vec_reversed[] = {
	{ 0xc000, 0xf001 }, { 0x8001, 0x8002 }, { 0x1234, 0x7000 }, { 0x0000, 0x0800 },
};

const struct iov_kunit_layout iov_kunit_vec_layouts[] = {
	{ "mixed", vec_mixed, ARRAY_SIZE(vec_mixed) },
	{ "one segment", vec_one, ARRAY_SIZE(vec_one) },
	{ "out of order", vec_reversed, ARRAY_SIZE(vec_reversed) },
	{ .name = "128 short segments", .many = true },
};

/* bio_vecs within one compound page: offsets, single bytes, multi-page. */
static const struct iov_kunit_range bvec_ranges[] = {
	{ 0x0002, 0x0003 }, { 0x1027, 0x1893 }, { 0x2193, 0x5794 }, { 0x6000, 0x9000 },
	{ 0x9ffd, 0xa003 }, { 0xb001, 0x10000 },
};

const struct iov_kunit_layout iov_kunit_bvec_layouts[] = {
	{ "offsets and multi-page", bvec_ranges, ARRAY_SIZE(bvec_ranges) },
	{ "one segment", vec_one, ARRAY_SIZE(vec_one) },
	{ "out of order", vec_reversed, ARRAY_SIZE(vec_reversed) },
};

/* Single-range types: odd start and end, page aligned, one byte. */
static const struct iov_kunit_range flat_odd[] = { { 0x0123, 0xf456 } };
static const struct iov_kunit_range flat_all[] = { { 0x0000, 0x10000 } };
static const struct iov_kunit_range flat_cross[] = { { 0x2fff, 0x3001 } };
static const struct iov_kunit_range flat_byte[] = { { 0x7fff, 0x8000 } };

const struct iov_kunit_layout iov_kunit_flat_layouts[] = {
	{ "odd offsets", flat_odd, ARRAY_SIZE(flat_odd) },
	{ "whole store", flat_all, ARRAY_SIZE(flat_all) },
	{ "two bytes across a page", flat_cross, ARRAY_SIZE(flat_cross) },
	{ "one byte", flat_byte, ARRAY_SIZE(flat_byte) },
};

/* A folio queue: starting mid-folio and crossing into the second segment. */
static const struct iov_kunit_range folioq_odd[] = { { 0x0123, 0x3c000 - 0x77 } };
static const struct iov_kunit_range folioq_late[] = { { 0x1800, 0x2800 } };

const struct iov_kunit_layout iov_kunit_folioq_layouts[] = {
	{ "odd offsets across segments", folioq_odd, ARRAY_SIZE(folioq_odd) },
	{ "inside an order-2 folio", folioq_late, ARRAY_SIZE(folioq_late) },
	{ "one byte", flat_byte, ARRAY_SIZE(flat_byte) },
};

static const struct iov_kunit_range discard_len[] = { { 0, 0x12345 } };
const struct iov_kunit_layout iov_kunit_discard_layouts[] = {
	{ "0x12345 bytes", discard_len, ARRAY_SIZE(discard_len) },
};

void iov_kunit_layout_desc(const struct iov_kunit_layout *l, char *desc)
{
	strscpy(desc, l->name, KUNIT_PARAM_DESC_SIZE);
}

void iov_kunit_make_hole(struct kunit *test, struct iov_kunit_store *s,
			 unsigned int page, bool unmap)
{
	unsigned long addr = s->uaddr + page * PAGE_SIZE;

	if (unmap)
		KUNIT_ASSERT_EQ(test, 0, vm_munmap(addr, PAGE_SIZE));
	else
		iov_kunit_mmap(test, addr, PAGE_SIZE, PROT_NONE);
}

/*
 * A short copy made @got bytes of progress where @avail were accessible:
 * some progress, never past the hole, and exactly up to it on x86.
 */
void iov_kunit_check_short(struct kunit *test, size_t got, size_t min,
			   size_t avail)
{
	KUNIT_EXPECT_GT(test, got, min);
	KUNIT_EXPECT_LE(test, got, avail);
	if (EXACT_USER_FAULTS)
		KUNIT_EXPECT_EQ(test, got, avail);
}

const struct iov_kunit_type iov_kunit_all_types[] = {
	{ "ubuf", ITER_UBUF, &iov_kunit_flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &iov_kunit_vec_layouts[0] },
	{ "kvec", ITER_KVEC, &iov_kunit_vec_layouts[0] },
	{ "bvec", ITER_BVEC, &iov_kunit_bvec_layouts[0] },
	{ "xarray", ITER_XARRAY, &iov_kunit_flat_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &iov_kunit_folioq_layouts[0] },
	{ "discard", ITER_DISCARD, &iov_kunit_discard_layouts[0] },
};

void iov_kunit_type_desc(const struct iov_kunit_type *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

struct iov_kunit_iter *iov_kunit_build_param(struct kunit *test, unsigned int dir)
{
	const struct iov_kunit_type *t = test->param_value;

	return iov_kunit_build(test, t->type, dir, t->layout);
}

struct iov_kunit_iter *iov_kunit_build_range(struct kunit *test, enum iter_type type,
					     unsigned int dir, size_t from, size_t to)
{
	struct iov_kunit_range *r = kunit_kmalloc(test, sizeof(*r), GFP_KERNEL);
	struct iov_kunit_layout *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	struct iov_kunit_iter *it;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, l);
	r->from = from;
	r->to = to;
	l->name = "range";
	l->ranges = r;
	l->nr = 1;
	it = iov_kunit_build(test, type, dir, l);
	if (dir == ITER_DEST && it->store.kind != STORE_NONE)
		iov_kunit_store_fill(test, &it->store);
	return it;
}

MODULE_DESCRIPTION("KUnit tests for the iov_iter interface");
MODULE_LICENSE("GPL");
