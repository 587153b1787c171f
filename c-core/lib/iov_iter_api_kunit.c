// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the iov_iter interface as its callers see it.
 *
 * Every iterator type is exercised, including the user-backed ones
 * (ITER_UBUF, ITER_IOVEC) on memory mapped into the test thread with
 * kunit_vm_mmap(), so that faults, page pinning and iovec import can be
 * tested from inside the kernel.  lib/kunit_iov_iter.c covers bulk copies
 * over the kernel-backed types; this file covers the rest of the contract
 * and checks the iterator's state after every operation.
 *
 * Conventions used throughout:
 *  - A "backing store" is the memory an iterator describes: a user mapping,
 *    a vmalloc() buffer, one large folio or a list of folios.  Its bytes are
 *    addressed by their offset in the store.
 *  - A "layout" lists the segments of an iterator as ranges of the store.
 *  - Data flowing out of an iterator is pattern(offset in the store); data
 *    flowing into one is pattern(offset in the stream).  The pattern is never
 *    zero and zero is the poison, so a byte that was not written stays zero.
 */

#include <kunit/test.h>
#include <linux/bvec.h>
#include <linux/compat.h>
#include <linux/folio_queue.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#define STORE_PAGES		16
#define STORE_SIZE		(STORE_PAGES * PAGE_SIZE)
#define MAX_SEGS		128
#define MAX_FOLIOS		40
/* ITER_FOLIOQ stores span more than one folio_queue segment. */
#define FOLIOQ_FOLIOS		36
/* A segment of length zero whose base is NULL. */
#define NULL_SEG		SIZE_MAX

/*
 * x86-64 copies to and from user space with "rep movsb" or with
 * rep_movs_alternative(), and clears with "rep stosb" or
 * rep_stos_alternative().  A fault in "rep movs/stos" stops at the faulting
 * element with RCX holding what is left, and the fixups of the alternative
 * routines finish byte by byte up to the faulting byte.  So on x86 a user
 * copy stops exactly at the first inaccessible byte; elsewhere the uaccess
 * contract only promises that some progress is made and that nothing past
 * the reported count is written.
 */
#define EXACT_USER_FAULTS	IS_ENABLED(CONFIG_X86_64)

static inline u8 pattern(size_t x)
{
	return x % 251 + 1;
}

KUNIT_DEFINE_ACTION_WRAPPER(iov_kunit_vfree, vfree, const void *);
KUNIT_DEFINE_ACTION_WRAPPER(iov_kunit_folio_put, folio_put, struct folio *);
KUNIT_DEFINE_ACTION_WRAPPER(iov_kunit_xa_destroy, xa_destroy, struct xarray *);

static void *iov_kunit_vzalloc(struct kunit *test, size_t size)
{
	void *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, iov_kunit_vfree, p));
	return p;
}

static struct folio *iov_kunit_folio(struct kunit *test, unsigned int order)
{
	struct folio *folio = folio_alloc(GFP_KERNEL | __GFP_ZERO, order);

	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, iov_kunit_folio_put, folio));
	return folio;
}

/* Map @size bytes of anonymous user memory into the test thread's mm. */
static unsigned long iov_kunit_mmap(struct kunit *test, unsigned long addr,
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

static void iov_kunit_to_user(struct kunit *test, unsigned long uaddr,
			      const void *buf, size_t len)
{
	KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)uaddr, buf, len));
}

static void iov_kunit_from_user(struct kunit *test, void *buf,
				unsigned long uaddr, size_t len)
{
	KUNIT_ASSERT_EQ(test, 0, copy_from_user(buf, (void __user *)uaddr, len));
}

static void iov_kunit_fill(u8 *buf, size_t len, size_t base)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = pattern(base + k);
}

/*
 * Compare @len bytes and report the first difference; returns true if equal.
 */
static bool iov_kunit_same(struct kunit *test, const u8 *got, const u8 *want,
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

static bool iov_kunit_all_zero(struct kunit *test, const u8 *got, size_t len,
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

/* ---- backing stores ---------------------------------------------------- */

enum store_kind { STORE_NONE, STORE_USER, STORE_VMALLOC, STORE_FOLIOS };

struct iov_kunit_store {
	enum store_kind kind;
	size_t size;
	unsigned long uaddr;
	u8 *kaddr;
	struct folio *folios[MAX_FOLIOS];
	unsigned int nr_folios;
};

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
static void iov_kunit_store_io(struct kunit *test, struct iov_kunit_store *s,
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

static u8 *iov_kunit_store_snapshot(struct kunit *test, struct iov_kunit_store *s)
{
	u8 *img = iov_kunit_vzalloc(test, s->size);

	iov_kunit_store_io(test, s, 0, img, s->size, false);
	return img;
}

static void iov_kunit_store_fill(struct kunit *test, struct iov_kunit_store *s)
{
	u8 *img = iov_kunit_vzalloc(test, s->size);

	iov_kunit_fill(img, s->size, 0);
	iov_kunit_store_io(test, s, 0, img, s->size, true);
}

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

/* ---- iterators over a store ------------------------------------------- */

struct iov_kunit_range {
	size_t from, to;
};

struct iov_kunit_layout {
	const char *name;
	const struct iov_kunit_range *ranges;
	unsigned int nr;
	/* Generate MAX_SEGS short segments instead of using @ranges. */
	bool many;
};

struct iov_kunit_iter {
	struct iov_kunit_store store;
	enum iter_type type;
	unsigned int dir;
	unsigned int nr_segs;
	size_t seg_from[MAX_SEGS];
	size_t seg_len[MAX_SEGS];
	size_t total;
	struct iovec iov[MAX_SEGS];
	struct kvec kvec[MAX_SEGS];
	struct bio_vec bvec[MAX_SEGS];
	struct xarray xa;
	struct folio_queue *fq_head;
	/* Where the stream starts in the concatenated folios of a folioq. */
	size_t fq_start;
	struct iov_iter iter;
};

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
static struct iov_kunit_iter *iov_kunit_build(struct kunit *test, enum iter_type type,
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
static void iov_kunit_check_at(struct kunit *test, struct iov_kunit_iter *it,
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
static void iov_kunit_image_of(struct iov_kunit_iter *it, const u8 *stream,
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

static void iov_kunit_dest_image(struct iov_kunit_iter *it, size_t done, u8 *img)
{
	iov_kunit_image_of(it, NULL, done, img);
}

/* The stream a source iterator yields: the store bytes its segments cover. */
static void iov_kunit_source_stream(struct iov_kunit_iter *it, u8 *out)
{
	size_t k = 0;

	for (unsigned int s = 0; s < it->nr_segs; s++) {
		iov_kunit_fill(out + k, it->seg_len[s], it->seg_from[s]);
		k += it->seg_len[s];
	}
}

static struct iov_kunit_iter *iov_kunit_dup(struct kunit *test,
					    const struct iov_kunit_iter *it)
{
	struct iov_kunit_iter *copy = kunit_kmalloc(test, sizeof(*copy), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	*copy = *it;
	return copy;
}

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

/* ---- copy_to_iter() / copy_from_iter() over every type ---------------- */

/*
 * The copy functions are passed to the shared bodies by pointer: the
 * inline wrappers through these, and the exported variants with their own
 * contract (_copy_mc_to_iter(), _copy_from_iter_flushcache(),
 * _copy_from_iter_nocache()) directly.
 */
static size_t iov_kunit_to_iter(const void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_to_iter(addr, bytes, i);
}

static size_t iov_kunit_from_iter(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter(addr, bytes, i);
}

static bool iov_kunit_from_iter_full(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full(addr, bytes, i);
}

static bool iov_kunit_from_iter_full_nocache(void *addr, size_t bytes, struct iov_iter *i)
{
	return copy_from_iter_full_nocache(addr, bytes, i);
}

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

static const struct iov_kunit_layout vec_layouts[] = {
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

static const struct iov_kunit_layout bvec_layouts[] = {
	{ "offsets and multi-page", bvec_ranges, ARRAY_SIZE(bvec_ranges) },
	{ "one segment", vec_one, ARRAY_SIZE(vec_one) },
	{ "out of order", vec_reversed, ARRAY_SIZE(vec_reversed) },
};

/* Single-range types: odd start and end, page aligned, one byte. */
static const struct iov_kunit_range flat_odd[] = { { 0x0123, 0xf456 } };
static const struct iov_kunit_range flat_all[] = { { 0x0000, 0x10000 } };
static const struct iov_kunit_range flat_cross[] = { { 0x2fff, 0x3001 } };
static const struct iov_kunit_range flat_byte[] = { { 0x7fff, 0x8000 } };

static const struct iov_kunit_layout flat_layouts[] = {
	{ "odd offsets", flat_odd, ARRAY_SIZE(flat_odd) },
	{ "whole store", flat_all, ARRAY_SIZE(flat_all) },
	{ "two bytes across a page", flat_cross, ARRAY_SIZE(flat_cross) },
	{ "one byte", flat_byte, ARRAY_SIZE(flat_byte) },
};

/* A folio queue: starting mid-folio and crossing into the second segment. */
static const struct iov_kunit_range folioq_odd[] = { { 0x0123, 0x3c000 - 0x77 } };
static const struct iov_kunit_range folioq_late[] = { { 0x1800, 0x2800 } };

static const struct iov_kunit_layout folioq_layouts[] = {
	{ "odd offsets across segments", folioq_odd, ARRAY_SIZE(folioq_odd) },
	{ "inside an order-2 folio", folioq_late, ARRAY_SIZE(folioq_late) },
	{ "one byte", flat_byte, ARRAY_SIZE(flat_byte) },
};

static const struct iov_kunit_range discard_len[] = { { 0, 0x12345 } };
static const struct iov_kunit_layout discard_layouts[] = {
	{ "0x12345 bytes", discard_len, ARRAY_SIZE(discard_len) },
};

static void layout_desc(const struct iov_kunit_layout *l, char *desc)
{
	strscpy(desc, l->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vec, vec_layouts, layout_desc);
KUNIT_ARRAY_PARAM(bvec, bvec_layouts, layout_desc);
KUNIT_ARRAY_PARAM(flat, flat_layouts, layout_desc);
KUNIT_ARRAY_PARAM(folioq, folioq_layouts, layout_desc);
KUNIT_ARRAY_PARAM(discard, discard_layouts, layout_desc);

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
	const struct iov_kunit_layout *layout = &vec_layouts[0];
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
	const struct iov_kunit_layout *layout = &vec_layouts[0];
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

/* ---- faults in user memory -------------------------------------------- */

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

static void iov_kunit_make_hole(struct kunit *test, struct iov_kunit_store *s,
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
static void iov_kunit_check_short(struct kunit *test, size_t got, size_t min,
				  size_t avail)
{
	KUNIT_EXPECT_GT(test, got, min);
	KUNIT_EXPECT_LE(test, got, avail);
	if (EXACT_USER_FAULTS)
		KUNIT_EXPECT_EQ(test, got, avail);
}

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
	const struct iov_kunit_layout *kv = &vec_layouts[0];
	const struct iov_kunit_layout *bv = &bvec_layouts[0];
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

/* ---- moving the cursor ------------------------------------------------ */

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

struct iov_kunit_type {
	const char *name;
	enum iter_type type;
	const struct iov_kunit_layout *layout;
};

static const struct iov_kunit_type all_types[] = {
	{ "ubuf", ITER_UBUF, &flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &vec_layouts[0] },
	{ "kvec", ITER_KVEC, &vec_layouts[0] },
	{ "bvec", ITER_BVEC, &bvec_layouts[0] },
	{ "xarray", ITER_XARRAY, &flat_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &folioq_layouts[0] },
	{ "discard", ITER_DISCARD, &discard_layouts[0] },
};

/* The types with data (every type but ITER_DISCARD). */
static const struct iov_kunit_type data_types[] = {
	{ "ubuf", ITER_UBUF, &flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &vec_layouts[0] },
	{ "kvec", ITER_KVEC, &vec_layouts[0] },
	{ "bvec", ITER_BVEC, &bvec_layouts[0] },
	{ "xarray", ITER_XARRAY, &flat_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &folioq_layouts[0] },
};

/* The types iov_iter_restore() and dup_iter() work on. */
static const struct iov_kunit_type vec_types[] = {
	{ "ubuf", ITER_UBUF, &flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &vec_layouts[0] },
	{ "kvec", ITER_KVEC, &vec_layouts[0] },
	{ "bvec", ITER_BVEC, &bvec_layouts[0] },
};

static void type_desc(const struct iov_kunit_type *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(all_type, all_types, type_desc);
KUNIT_ARRAY_PARAM(data_type, data_types, type_desc);
KUNIT_ARRAY_PARAM(vec_type, vec_types, type_desc);

static struct iov_kunit_iter *iov_kunit_build_param(struct kunit *test, unsigned int dir)
{
	const struct iov_kunit_type *t = test->param_value;

	return iov_kunit_build(test, t->type, dir, t->layout);
}

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
		&flat_layouts[0], &folioq_layouts[0], &discard_layouts[0],
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
	for (unsigned int t = 0; t < ARRAY_SIZE(all_types); t++) {
		enum iter_type type = all_types[t].type;
		unsigned int dir = type == ITER_DISCARD ? ITER_DEST : ITER_SOURCE;
		struct iov_kunit_iter *it;
		struct iov_iter *i;

		for (; ; dir = ITER_DEST) {
			it = iov_kunit_build(test, type, dir, all_types[t].layout);
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

/* ---- zeroing, counting, alignment ------------------------------------- */

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
	{ "ubuf odd offsets", ITER_UBUF, &flat_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "ubuf maxpages 5", ITER_UBUF, &flat_layouts[0], 0, SIZE_MAX, 5, 5 },
	{ "ubuf from a page boundary", ITER_UBUF, &flat_layouts[0], 0xedd, SIZE_MAX, INT_MAX, 15 },
	{ "ubuf two bytes across a page", ITER_UBUF, &flat_layouts[2], 0, SIZE_MAX, INT_MAX, 2 },
	{ "ubuf one byte", ITER_UBUF, &flat_layouts[3], 0, SIZE_MAX, INT_MAX, 1 },
	{ "ubuf truncated to nothing", ITER_UBUF, &flat_layouts[0], 0, 0, INT_MAX, 0 },
	{ "iovec mixed", ITER_IOVEC, &vec_layouts[0], 0, SIZE_MAX, INT_MAX, 11 },
	{ "iovec mixed, 16 bytes", ITER_IOVEC, &vec_layouts[0], 0, 0x10, INT_MAX, 2 },
	{ "iovec mixed, maxpages 3", ITER_IOVEC, &vec_layouts[0], 0, SIZE_MAX, 3, 3 },
	{ "kvec mixed", ITER_KVEC, &vec_layouts[0], 0, SIZE_MAX, INT_MAX, 11 },
	{ "kvec mixed, past two segments", ITER_KVEC, &vec_layouts[0], 0x15, SIZE_MAX,
	  INT_MAX, 8 },
	{ "bvec", ITER_BVEC, &bvec_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "bvec past two segments", ITER_BVEC, &bvec_layouts[0], 0x86d, SIZE_MAX, INT_MAX, 14 },
	{ "xarray odd offsets", ITER_XARRAY, &flat_layouts[0], 0, SIZE_MAX, INT_MAX, 16 },
	{ "folioq across segments", ITER_FOLIOQ, &folioq_layouts[0], 0, SIZE_MAX, INT_MAX, 60 },
	{ "folioq inside a folio", ITER_FOLIOQ, &folioq_layouts[1], 0, SIZE_MAX, INT_MAX, 2 },
	{ "discard", ITER_DISCARD, &discard_layouts[0], 0, SIZE_MAX, INT_MAX, 0 },
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
	const struct iov_kunit_layout *layout = &vec_layouts[0];
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
	{ "ubuf odd", ITER_UBUF, &flat_layouts[0], 0, SIZE_MAX, 0, 0x333 },
	{ "ubuf page aligned", ITER_UBUF, &flat_layouts[1], 0, SIZE_MAX, 0, 0 },
	{ "ubuf 512 advanced 16", ITER_UBUF, &align_layouts[3], 0x10, SIZE_MAX, 0, 0x3f0 },
	{ "ubuf empty", ITER_UBUF, &flat_layouts[1], 0, 0, 0, 0 },
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
	{ "xarray odd", ITER_XARRAY, &flat_layouts[0], 0, SIZE_MAX, 0, 0x333 },
	{ "folioq inside a folio", ITER_FOLIOQ, &folioq_layouts[1], 0, SIZE_MAX, 0, 0x800 },
	{ "discard", ITER_DISCARD, &discard_layouts[0], 0, SIZE_MAX, 0, 0 },
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
						   &flat_layouts[0]);

	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&a->iter) & (PAGE_SIZE - 1), 0x400);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&e->iter) & (PAGE_SIZE - 1), 0x400);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&u->iter), 0);
	iov_iter_truncate(&a->iter, 0x200);
	KUNIT_EXPECT_EQ(test, iov_iter_gap_alignment(&a->iter), 0);
}

/*
 * iov_iter_single_seg_count(): what is left of the current segment, capped
 * by the count; the whole count for single-range types.
 */
static void iov_kunit_single_seg_count(struct kunit *test)
{
	struct iov_kunit_iter *v = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE, &vec_layouts[0]);
	struct iov_kunit_iter *k = iov_kunit_build(test, ITER_KVEC, ITER_SOURCE, &vec_layouts[0]);
	struct iov_kunit_iter *b = iov_kunit_build(test, ITER_BVEC, ITER_SOURCE, &bvec_layouts[0]);
	struct iov_kunit_iter *u = iov_kunit_build(test, ITER_UBUF, ITER_SOURCE, &flat_layouts[0]);
	struct iov_kunit_iter *x = iov_kunit_build(test, ITER_XARRAY, ITER_SOURCE,
						   &flat_layouts[0]);
	struct iov_kunit_iter *f = iov_kunit_build(test, ITER_FOLIOQ, ITER_SOURCE,
						   &flat_layouts[1]);
	struct iov_kunit_iter *d = iov_kunit_build(test, ITER_DISCARD, ITER_DEST,
						   &discard_layouts[0]);
	struct iov_kunit_iter *one = iov_kunit_build(test, ITER_IOVEC, ITER_SOURCE,
						     &vec_layouts[1]);
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
	{}
};

static struct kunit_suite iov_kunit_query_suite = {
	.name = "iov_iter_api_query",
	.test_cases = iov_kunit_query_cases,
};

/* ---- copying to and from pages ---------------------------------------- */

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
	{ "ubuf", ITER_UBUF, &flat_layouts[0] },
	{ "iovec", ITER_IOVEC, &vec_layouts[0] },
	{ "kvec", ITER_KVEC, &vec_layouts[0] },
	{ "bvec", ITER_BVEC, &bvec_layouts[0] },
	{ "folioq", ITER_FOLIOQ, &folioq_layouts[0] },
};

KUNIT_ARRAY_PARAM(page_type, page_types, type_desc);

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

/* ---- getting and extracting pages ------------------------------------- */

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

static struct iov_kunit_iter *iov_kunit_build_range(struct kunit *test, enum iter_type type,
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

KUNIT_ARRAY_PARAM(kernel_type, kernel_types, type_desc);

/* There are no pages behind ITER_DISCARD. */
static void iov_kunit_get_pages_discard(struct kunit *test)
{
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_DISCARD, ITER_DEST,
						    &discard_layouts[0]);
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
	const struct iov_kunit_layout *layout = &flat_layouts[0];
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

/* ---- extract_iter_to_sg() --------------------------------------------- */

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
	{ "ubuf", ITER_UBUF, &flat_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "ubuf, 0x1234 per call", ITER_UBUF, &flat_layouts[0], ITER_SOURCE, 0x1234, 64, 0 },
	{ "ubuf dest, p2pdma, 3 entries per call", ITER_UBUF, &flat_layouts[0], ITER_DEST,
	  SIZE_MAX, 3, ITER_ALLOW_P2PDMA },
	{ "ubuf across a page", ITER_UBUF, &flat_layouts[2], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "iovec mixed", ITER_IOVEC, &vec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "iovec 128 segments, 0x333 per call", ITER_IOVEC, &vec_layouts[3], ITER_SOURCE,
	  0x333, 16, 0 },
	{ "iovec out of order dest, 2 per call", ITER_IOVEC, &vec_layouts[2], ITER_DEST,
	  SIZE_MAX, 2, 0 },
	{ "kvec mixed", ITER_KVEC, &vec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "kvec mixed, 0x777 and 2 per call", ITER_KVEC, &vec_layouts[0], ITER_SOURCE,
	  0x777, 2, 0 },
	{ "kvec 128 segments", ITER_KVEC, &vec_layouts[3], ITER_DEST, SIZE_MAX, 200, 0 },
	{ "bvec", ITER_BVEC, &bvec_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "bvec, 0x1555 and 2 per call", ITER_BVEC, &bvec_layouts[0], ITER_SOURCE,
	  0x1555, 2, 0 },
	{ "bvec out of order", ITER_BVEC, &bvec_layouts[2], ITER_DEST, SIZE_MAX, 64, 0 },
	{ "xarray whole store", ITER_XARRAY, &flat_layouts[1], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "xarray, 3 pages per call", ITER_XARRAY, &flat_layouts[1], ITER_SOURCE,
	  3 * PAGE_SIZE, 64, 0 },
	{ "xarray, 5 entries per call", ITER_XARRAY, &flat_layouts[1], ITER_DEST,
	  SIZE_MAX, 5, 0 },
	{ "xarray odd, 1 entry per call", ITER_XARRAY, &flat_layouts[0], ITER_SOURCE,
	  SIZE_MAX, 1, 0 },
	{ "xarray odd", ITER_XARRAY, &flat_layouts[0], ITER_SOURCE, SIZE_MAX, 64, 0 },
	{ "xarray odd, 0x2345 and 4 per call", ITER_XARRAY, &flat_layouts[0], ITER_DEST,
	  0x2345, 4, 0 },
	{ "folioq across segments", ITER_FOLIOQ, &folioq_layouts[0], ITER_SOURCE,
	  SIZE_MAX, 64, 0 },
	{ "folioq, 0x2345 and 5 per call", ITER_FOLIOQ, &folioq_layouts[0], ITER_SOURCE,
	  0x2345, 5, 0 },
	{ "folioq inside a folio", ITER_FOLIOQ, &folioq_layouts[1], ITER_DEST,
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
 * added and nothing moved; a hole stops a call at the last page before it,
 * and the next call fails the same way.
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

/* ---- importing iovecs from user space --------------------------------- */

/* Put @n iovecs into a fresh user mapping; returns its address. */
static unsigned long iov_kunit_put_iovecs(struct kunit *test, const struct iovec *iov,
					  unsigned int n)
{
	size_t size = max_t(size_t, PAGE_ALIGN(n * sizeof(*iov)), PAGE_SIZE);
	unsigned long uvec = iov_kunit_mmap(test, 0, size, PROT_READ | PROT_WRITE);

	iov_kunit_to_user(test, uvec, iov, n * sizeof(*iov));
	return uvec;
}

struct iov_kunit_import {
	struct iovec stack[UIO_FASTIOV];
	struct iovec *iov;	/* in: stack; out: what to kfree() */
	struct iov_iter iter;
	ssize_t ret;
};

static void iov_kunit_do_import(struct kunit *test, struct iov_kunit_import *im,
				unsigned int dir, unsigned long uvec, unsigned int n)
{
	im->iov = im->stack;
	im->ret = import_iovec(dir, (const struct iovec __user *)uvec, n, UIO_FASTIOV,
			       &im->iov, &im->iter);
}

static struct iovec *iov_kunit_iovecs(struct kunit *test, unsigned int n)
{
	struct iovec *iov = kunit_kcalloc(test, n, sizeof(*iov), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, iov);
	return iov;
}

/* Zero segments: success with nothing to do, and nothing to free. */
static void iov_kunit_import_zero(struct kunit *test)
{
	unsigned long uvec = iov_kunit_mmap(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct iov_kunit_import im;

	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, 0);
	KUNIT_EXPECT_EQ(test, im.ret, 0);
	KUNIT_EXPECT_NULL(test, im.iov);
	KUNIT_EXPECT_TRUE(test, iter_is_iovec(&im.iter));
	KUNIT_EXPECT_EQ(test, iov_iter_count(&im.iter), 0);
	KUNIT_EXPECT_EQ(test, im.iter.nr_segs, 0);
}

/* One segment is imported as ITER_UBUF; the array is not needed. */
static void iov_kunit_import_one(struct kunit *test)
{
	struct iov_kunit_iter *data = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE,
							    0, 0x1000);
	struct iovec iov = { (void __user *)(data->store.uaddr + 0x10), 0x100 };
	unsigned long uvec = iov_kunit_put_iovecs(test, &iov, 1);
	struct iov_kunit_import im;
	u8 buf[0x100];

	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, 1);
	KUNIT_ASSERT_EQ(test, im.ret, 0x100);
	KUNIT_EXPECT_NULL(test, im.iov);
	KUNIT_EXPECT_TRUE(test, iter_is_ubuf(&im.iter));
	KUNIT_EXPECT_EQ(test, iov_iter_rw(&im.iter), WRITE);
	KUNIT_EXPECT_EQ(test, (unsigned long)im.iter.ubuf, (unsigned long)iov.iov_base);
	KUNIT_EXPECT_EQ(test, copy_from_iter(buf, sizeof(buf), &im.iter), sizeof(buf));
	for (size_t k = 0; k < sizeof(buf); k++)
		if (buf[k] != pattern(0x10 + k)) {
			KUNIT_FAIL(test, "byte %#zx is %#x", k, buf[k]);
			break;
		}
}

/*
 * Up to fast_segs segments the caller's array is used and *iovp comes back
 * NULL; beyond it an array is allocated, returned in *iovp for the caller
 * to kfree(), and used by the iterator.
 */
static void iov_kunit_import_fast_and_alloc(struct kunit *test)
{
	struct iov_kunit_iter *data = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE,
							    0, 0x4000);
	struct iovec *iov = iov_kunit_iovecs(test, UIO_FASTIOV + 1);
	struct iov_kunit_import im;
	unsigned long uvec;
	size_t total = 0;

	for (unsigned int n = 0; n <= UIO_FASTIOV; n++) {
		iov[n].iov_base = (void __user *)(data->store.uaddr + n * 0x400 + n);
		iov[n].iov_len = 0x100 + n;
	}
	uvec = iov_kunit_put_iovecs(test, iov, UIO_FASTIOV + 1);

	for (unsigned int n = 0; n < UIO_FASTIOV; n++)
		total += iov[n].iov_len;
	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, UIO_FASTIOV);
	KUNIT_EXPECT_EQ(test, im.ret, total);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&im.iter), total);
	KUNIT_EXPECT_NULL(test, im.iov);
	KUNIT_EXPECT_PTR_EQ(test, iter_iov(&im.iter), (const struct iovec *)im.stack);
	KUNIT_EXPECT_EQ(test, im.iter.nr_segs, UIO_FASTIOV);
	KUNIT_EXPECT_EQ(test, memcmp(im.stack, iov, UIO_FASTIOV * sizeof(*iov)), 0);

	total += iov[UIO_FASTIOV].iov_len;
	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, UIO_FASTIOV + 1);
	KUNIT_EXPECT_EQ(test, im.ret, total);
	KUNIT_ASSERT_NOT_NULL(test, im.iov);
	KUNIT_EXPECT_PTR_NE(test, im.iov, (struct iovec *)im.stack);
	KUNIT_EXPECT_PTR_EQ(test, iter_iov(&im.iter), (const struct iovec *)im.iov);
	KUNIT_EXPECT_EQ(test, im.iter.nr_segs, UIO_FASTIOV + 1);
	KUNIT_EXPECT_EQ(test, memcmp(im.iov, iov, (UIO_FASTIOV + 1) * sizeof(*iov)), 0);
	kfree(im.iov);
}

/*
 * UIO_MAXIOV segments are accepted and read back in order; one more is
 * -EINVAL, as is any count above it.
 */
static void iov_kunit_import_max_segs(struct kunit *test)
{
	struct iov_kunit_iter *data = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE,
							    0, STORE_SIZE);
	struct iovec *iov = iov_kunit_iovecs(test, UIO_MAXIOV + 1);
	u8 *buf = iov_kunit_vzalloc(test, UIO_MAXIOV);
	struct iov_kunit_import im;
	unsigned long uvec;

	/* One byte per segment, 61 bytes apart (wrapping within the store). */
	for (unsigned int n = 0; n <= UIO_MAXIOV; n++) {
		iov[n].iov_base = (void __user *)(data->store.uaddr + n * 61 % STORE_SIZE);
		iov[n].iov_len = 1;
	}
	uvec = iov_kunit_put_iovecs(test, iov, UIO_MAXIOV + 1);

	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, UIO_MAXIOV);
	KUNIT_ASSERT_EQ(test, im.ret, UIO_MAXIOV);
	KUNIT_ASSERT_NOT_NULL(test, im.iov);
	KUNIT_EXPECT_EQ(test, im.iter.nr_segs, UIO_MAXIOV);
	KUNIT_EXPECT_EQ(test, copy_from_iter(buf, UIO_MAXIOV, &im.iter), UIO_MAXIOV);
	for (unsigned int n = 0; n < UIO_MAXIOV; n++)
		if (buf[n] != pattern(n * 61 % STORE_SIZE)) {
			KUNIT_FAIL(test, "segment %u read %#x", n, buf[n]);
			break;
		}
	kfree(im.iov);

	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, UIO_MAXIOV + 1);
	KUNIT_EXPECT_EQ(test, im.ret, -EINVAL);
	KUNIT_EXPECT_NULL(test, im.iov);
	iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, UINT_MAX);
	KUNIT_EXPECT_EQ(test, im.ret, -EINVAL);
	KUNIT_EXPECT_NULL(test, im.iov);
}

/*
 * A length that is negative as ssize_t is -EINVAL, whether it is the only
 * segment, one of a few (caller's array) or one of many (allocated array).
 */
static void iov_kunit_import_negative_len(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 3, UIO_FASTIOV + 2 };
	static const size_t bad[] = { SIZE_MAX, (size_t)SSIZE_MAX + 1 };
	struct iov_kunit_iter *data = iov_kunit_build_range(test, ITER_UBUF, ITER_SOURCE,
							    0, 0x1000);
	struct iovec *iov = iov_kunit_iovecs(test, UIO_FASTIOV + 2);
	struct iov_kunit_import im;
	unsigned long uvec;

	for (unsigned int c = 0; c < ARRAY_SIZE(counts); c++) {
		for (unsigned int b = 0; b < ARRAY_SIZE(bad); b++) {
			unsigned int n = counts[c];

			for (unsigned int k = 0; k < n; k++) {
				iov[k].iov_base = (void __user *)(data->store.uaddr + 0x10 * k);
				iov[k].iov_len = 0x10;
			}
			iov[n - 1].iov_len = bad[b];
			uvec = iov_kunit_put_iovecs(test, iov, n);
			iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, n);
			KUNIT_EXPECT_EQ_MSG(test, im.ret, -EINVAL, "%u segments, len %#zx",
					    n, bad[b]);
			KUNIT_EXPECT_NULL(test, im.iov);
		}
	}
}

/*
 * The total is clamped to MAX_RW_COUNT by shortening segments, so it cannot
 * overflow the ssize_t it is returned in however large each length is.  The
 * addresses only have to pass access_ok(); nothing is read from them.
 */
static void iov_kunit_import_clamp(struct kunit *test)
{
	const size_t big = 1UL << 40;
	struct iovec *iov = iov_kunit_iovecs(test, UIO_FASTIOV + 2);
	unsigned int n = UIO_FASTIOV + 2;
	struct iov_kunit_import im;
	unsigned long uvec;

	for (unsigned int k = 0; k < n; k++) {
		iov[k].iov_base = (void __user *)(0x10000UL + k * 0x1000);
		iov[k].iov_len = k ? big : 0x1000;
	}
	uvec = iov_kunit_put_iovecs(test, iov, n);
	iov_kunit_do_import(test, &im, ITER_DEST, uvec, n);
	KUNIT_EXPECT_EQ(test, im.ret, MAX_RW_COUNT);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&im.iter), MAX_RW_COUNT);
	KUNIT_ASSERT_NOT_NULL(test, im.iov);
	KUNIT_EXPECT_EQ(test, im.iov[0].iov_len, 0x1000);
	KUNIT_EXPECT_EQ(test, im.iov[1].iov_len, MAX_RW_COUNT - 0x1000);
	for (unsigned int k = 2; k < n; k++)
		KUNIT_EXPECT_EQ(test, im.iov[k].iov_len, 0);
	kfree(im.iov);

	/* A single segment is clamped the same way. */
	uvec = iov_kunit_put_iovecs(test, &iov[1], 1);
	iov_kunit_do_import(test, &im, ITER_DEST, uvec, 1);
	KUNIT_EXPECT_EQ(test, im.ret, MAX_RW_COUNT);
	KUNIT_EXPECT_TRUE(test, iter_is_ubuf(&im.iter));
}

/*
 * Bad pointers are -EFAULT: the array itself unmapped or in kernel space,
 * or a segment that is not entirely in user space.
 */
static void iov_kunit_import_bad_pointers(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 3, UIO_FASTIOV + 2 };
	struct iovec *iov = iov_kunit_iovecs(test, UIO_FASTIOV + 2);
	unsigned long hole = iov_kunit_mmap(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct iov_kunit_import im;
	unsigned long uvec;

	KUNIT_ASSERT_EQ(test, 0, vm_munmap(hole, PAGE_SIZE));
	for (unsigned int c = 0; c < ARRAY_SIZE(counts); c++) {
		unsigned int n = counts[c];
		unsigned long bases[] = {
			(unsigned long)iov,		/* a kernel address */
			TASK_SIZE_MAX - 0x10,		/* runs past user space */
		};

		iov_kunit_do_import(test, &im, ITER_SOURCE, hole, n);
		KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "unmapped array, %u", n);
		KUNIT_EXPECT_NULL(test, im.iov);
		iov_kunit_do_import(test, &im, ITER_SOURCE, (unsigned long)iov, n);
		KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "kernel array, %u", n);
		KUNIT_EXPECT_NULL(test, im.iov);

		for (unsigned int b = 0; b < ARRAY_SIZE(bases); b++) {
			for (unsigned int k = 0; k < n; k++) {
				iov[k].iov_base = (void __user *)(hole + 0x10 * k);
				iov[k].iov_len = 0x20;
			}
			iov[n - 1].iov_base = (void __user *)bases[b];
			uvec = iov_kunit_put_iovecs(test, iov, n);
			iov_kunit_do_import(test, &im, ITER_SOURCE, uvec, n);
			KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "base %u, %u segments", b, n);
			KUNIT_EXPECT_NULL(test, im.iov);
		}
	}
}

/* import_ubuf(): a UBUF iterator, clamped to MAX_RW_COUNT, or -EFAULT. */
static void iov_kunit_import_ubuf(struct kunit *test)
{
	unsigned long uaddr = iov_kunit_mmap(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	struct iov_iter iter;

	KUNIT_EXPECT_EQ(test, import_ubuf(ITER_DEST, (void __user *)uaddr, 0x123, &iter), 0);
	KUNIT_EXPECT_TRUE(test, iter_is_ubuf(&iter));
	KUNIT_EXPECT_EQ(test, iov_iter_rw(&iter), READ);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), 0x123);
	KUNIT_EXPECT_EQ(test, (unsigned long)iter.ubuf, uaddr);

	/* Clamped before the range check: 2 GiB from 64 KiB is user space. */
	KUNIT_EXPECT_EQ(test, import_ubuf(ITER_SOURCE, (void __user *)0x10000UL, SIZE_MAX,
					  &iter), 0);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&iter), MAX_RW_COUNT);

	KUNIT_EXPECT_EQ(test, import_ubuf(ITER_SOURCE, (void __user *)&iter, 8, &iter),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, import_ubuf(ITER_SOURCE, (void __user *)(TASK_SIZE_MAX - 4), 8,
					  &iter), -EFAULT);
}

/* End to end: import a destination iovec and copy into the user buffers. */
static void iov_kunit_import_copy(struct kunit *test)
{
	const struct iov_kunit_layout *layout = &vec_layouts[0];
	struct iov_kunit_iter *it = iov_kunit_build(test, ITER_IOVEC, ITER_DEST, layout);
	u8 *src = iov_kunit_vzalloc(test, it->total);
	u8 *img = iov_kunit_vzalloc(test, it->store.size);
	unsigned long uvec = iov_kunit_put_iovecs(test, it->iov, it->nr_segs);
	struct iov_kunit_import im;
	u8 *cur;

	iov_kunit_do_import(test, &im, ITER_DEST, uvec, it->nr_segs);
	KUNIT_ASSERT_EQ(test, im.ret, it->total);
	iov_kunit_fill(src, it->total, 0);
	KUNIT_EXPECT_EQ(test, copy_to_iter(src, it->total, &im.iter), it->total);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&im.iter), 0);
	iov_kunit_dest_image(it, it->total, img);
	cur = iov_kunit_store_snapshot(test, &it->store);
	iov_kunit_same(test, cur, img, it->store.size, "store");
	kfree(im.iov);
}

#ifdef CONFIG_COMPAT
/*
 * __import_iovec() with compat set reads an array of struct compat_iovec,
 * a 32-bit base and length each, as a 32-bit task's readv() would pass it
 * (import_iovec() only does so in a compat syscall).  The tests map their
 * memory below 4 GiB, where 32-bit pointers reach.
 */
#define COMPAT_DATA		0x20000000UL
#define COMPAT_VEC		0x30000000UL

static void iov_kunit_do_import_compat(struct kunit *test, struct iov_kunit_import *im,
				       unsigned int dir, unsigned long uvec, unsigned int n)
{
	im->iov = im->stack;
	im->ret = __import_iovec(dir, (const struct iovec __user *)uvec, n, UIO_FASTIOV,
				 &im->iov, &im->iter, true);
}

/* Put @n compat iovecs at @uvec, the start of a fresh one-page mapping. */
static void iov_kunit_put_compat(struct kunit *test, unsigned long uvec,
				 const struct compat_iovec *cv, unsigned int n)
{
	iov_kunit_mmap(test, uvec & PAGE_MASK, PAGE_SIZE, PROT_READ | PROT_WRITE);
	iov_kunit_to_user(test, uvec, cv, n * sizeof(*cv));
}

/*
 * One segment becomes an ITER_UBUF, up to UIO_FASTIOV use the caller's
 * array and more an allocated one; the bases are zero-extended, the data
 * read through the iterator is the user's.
 */
static void iov_kunit_import_compat(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 3, UIO_FASTIOV, UIO_FASTIOV + 2 };
	struct compat_iovec cv[UIO_FASTIOV + 2];
	u8 *img = iov_kunit_vzalloc(test, STORE_SIZE);
	u8 *buf = iov_kunit_vzalloc(test, STORE_SIZE);
	struct iov_kunit_import im;
	size_t total, k;

	iov_kunit_mmap(test, COMPAT_DATA, STORE_SIZE, PROT_READ | PROT_WRITE);
	iov_kunit_fill(img, STORE_SIZE, 0);
	iov_kunit_to_user(test, COMPAT_DATA, img, STORE_SIZE);

	for (unsigned int c = 0; c < ARRAY_SIZE(counts); c++) {
		unsigned int n = counts[c];
		const struct iovec *iov;

		total = 0;
		for (unsigned int s = 0; s < n; s++) {
			cv[s].iov_base = COMPAT_DATA + s * 0x777 + s;
			cv[s].iov_len = 0x100 + 0x10 * s;
			total += cv[s].iov_len;
		}
		iov_kunit_put_compat(test, COMPAT_VEC + c * PAGE_SIZE, cv, n);
		iov_kunit_do_import_compat(test, &im, ITER_SOURCE, COMPAT_VEC + c * PAGE_SIZE, n);
		KUNIT_ASSERT_EQ_MSG(test, im.ret, total, "%u segments", n);
		KUNIT_EXPECT_EQ(test, iov_iter_count(&im.iter), total);
		KUNIT_EXPECT_EQ(test, iov_iter_rw(&im.iter), WRITE);
		if (n == 1) {
			KUNIT_EXPECT_TRUE(test, iter_is_ubuf(&im.iter));
			KUNIT_EXPECT_EQ(test, (unsigned long)im.iter.ubuf, COMPAT_DATA);
			KUNIT_EXPECT_NULL(test, im.iov);
		} else {
			KUNIT_ASSERT_TRUE(test, iter_is_iovec(&im.iter));
			KUNIT_EXPECT_EQ(test, im.iter.nr_segs, n);
			iov = iter_iov(&im.iter);
			if (n <= UIO_FASTIOV) {
				KUNIT_EXPECT_NULL(test, im.iov);
				KUNIT_EXPECT_PTR_EQ(test, iov, (const struct iovec *)im.stack);
			} else {
				KUNIT_EXPECT_PTR_EQ(test, iov, (const struct iovec *)im.iov);
			}
			for (unsigned int s = 0; s < n; s++) {
				KUNIT_EXPECT_EQ_MSG(test, (unsigned long)iov[s].iov_base,
						    (unsigned long)cv[s].iov_base, "segment %u", s);
				KUNIT_EXPECT_EQ_MSG(test, iov[s].iov_len, cv[s].iov_len,
						    "segment %u", s);
			}
		}
		memset(buf, 0, STORE_SIZE);
		KUNIT_EXPECT_EQ(test, copy_from_iter(buf, STORE_SIZE, &im.iter), total);
		k = 0;
		for (unsigned int s = 0; s < n; s++) {
			iov_kunit_same(test, buf + k, img + (cv[s].iov_base - COMPAT_DATA),
				       cv[s].iov_len, "segment data");
			k += cv[s].iov_len;
		}
		kfree(im.iov);
	}

	/* A base with bit 31 set is an address above 2 GiB, not a negative one. */
	cv[0].iov_base = 0x10000;
	cv[0].iov_len = 0x10;
	cv[1].iov_base = 0xfffff000;
	cv[1].iov_len = 0x20;
	iov_kunit_put_compat(test, COMPAT_VEC + 8 * PAGE_SIZE, cv, 2);
	iov_kunit_do_import_compat(test, &im, ITER_DEST, COMPAT_VEC + 8 * PAGE_SIZE, 2);
	KUNIT_ASSERT_EQ(test, im.ret, 0x30);
	KUNIT_EXPECT_EQ(test, (unsigned long)iter_iov(&im.iter)[1].iov_base, 0xfffff000UL);
	KUNIT_EXPECT_EQ(test, iov_iter_rw(&im.iter), READ);
}

/*
 * A compat length is a compat_ssize_t: from 0x80000000 up it is negative,
 * -EINVAL, whatever the number of segments (a 64-bit iovec of that length
 * would be accepted and clamped).  The array must be readable user memory
 * down to its last element, or it is -EFAULT.  Nothing is left to free.
 */
static void iov_kunit_import_compat_bad(struct kunit *test)
{
	static const unsigned int counts[] = { 1, 3, UIO_FASTIOV + 2 };
	static const compat_size_t bad_len[] = { 0x80000000, 0xffffffff };
	struct compat_iovec cv[UIO_FASTIOV + 2];
	struct iov_kunit_import im;
	unsigned long uvec = COMPAT_VEC;

	iov_kunit_mmap(test, COMPAT_DATA, PAGE_SIZE, PROT_READ | PROT_WRITE);
	for (unsigned int c = 0; c < ARRAY_SIZE(counts); c++) {
		unsigned int n = counts[c];

		for (unsigned int b = 0; b < ARRAY_SIZE(bad_len); b++) {
			for (unsigned int s = 0; s < n; s++) {
				cv[s].iov_base = COMPAT_DATA + 0x10 * s;
				cv[s].iov_len = 0x10;
			}
			cv[n - 1].iov_len = bad_len[b];
			iov_kunit_put_compat(test, uvec, cv, n);
			iov_kunit_do_import_compat(test, &im, ITER_SOURCE, uvec, n);
			KUNIT_EXPECT_EQ_MSG(test, im.ret, -EINVAL, "%u segments, len %#x",
					    n, bad_len[b]);
			KUNIT_EXPECT_NULL(test, im.iov);
			uvec += PAGE_SIZE;
		}

		/* The array in a page that is not mapped, or in kernel memory. */
		iov_kunit_do_import_compat(test, &im, ITER_SOURCE, uvec, n);
		KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "unmapped array, %u", n);
		KUNIT_EXPECT_NULL(test, im.iov);
		iov_kunit_do_import_compat(test, &im, ITER_SOURCE, (unsigned long)cv, n);
		KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "kernel array, %u", n);
		KUNIT_EXPECT_NULL(test, im.iov);

		/* All but the last element at the end of a mapped page. */
		for (unsigned int s = 0; s < n; s++) {
			cv[s].iov_base = COMPAT_DATA + 0x10 * s;
			cv[s].iov_len = 0x10;
		}
		iov_kunit_put_compat(test, uvec, cv, 0);
		iov_kunit_to_user(test, uvec + PAGE_SIZE - (n - 1) * sizeof(*cv), cv,
				  (n - 1) * sizeof(*cv));
		iov_kunit_do_import_compat(test, &im, ITER_SOURCE,
					   uvec + PAGE_SIZE - (n - 1) * sizeof(*cv), n);
		KUNIT_EXPECT_EQ_MSG(test, im.ret, -EFAULT, "array running off, %u", n);
		KUNIT_EXPECT_NULL(test, im.iov);
		uvec += 2 * PAGE_SIZE;
	}
}
#endif /* CONFIG_COMPAT */

static struct kunit_case iov_kunit_import_cases[] = {
	KUNIT_CASE(iov_kunit_import_zero),
	KUNIT_CASE(iov_kunit_import_one),
	KUNIT_CASE(iov_kunit_import_fast_and_alloc),
	KUNIT_CASE(iov_kunit_import_max_segs),
	KUNIT_CASE(iov_kunit_import_negative_len),
	KUNIT_CASE(iov_kunit_import_clamp),
	KUNIT_CASE(iov_kunit_import_bad_pointers),
	KUNIT_CASE(iov_kunit_import_ubuf),
	KUNIT_CASE(iov_kunit_import_copy),
#ifdef CONFIG_COMPAT
	KUNIT_CASE(iov_kunit_import_compat),
	KUNIT_CASE(iov_kunit_import_compat_bad),
#endif
	{}
};

static struct kunit_suite iov_kunit_import_suite = {
	.name = "iov_iter_api_import",
	.test_cases = iov_kunit_import_cases,
};

kunit_test_suites(&iov_kunit_copy_suite, &iov_kunit_fault_suite, &iov_kunit_cursor_suite,
		  &iov_kunit_query_suite, &iov_kunit_page_suite, &iov_kunit_pages_suite,
		  &iov_kunit_import_suite);

MODULE_DESCRIPTION("KUnit tests for the iov_iter interface");
MODULE_LICENSE("GPL");
