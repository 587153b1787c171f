/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * KUnit tests for the iov_iter interface as its callers see it: what
 * the suites (lib/iov_iter_api_kunit_*.c) share.
 *
 * Every iterator type is exercised, including the user-backed ones
 * (ITER_UBUF, ITER_IOVEC) on memory mapped into the test thread with
 * kunit_vm_mmap(), so that faults, page pinning and iovec import can be
 * tested from inside the kernel.  lib/kunit_iov_iter.c covers bulk copies
 * over the kernel-backed types; these suites cover the rest of the
 * contract and check the iterator's state after every operation.
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

#ifndef _IOV_ITER_API_KUNIT_H
#define _IOV_ITER_API_KUNIT_H

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

struct iov_kunit_type {
	const char *name;
	enum iter_type type;
	const struct iov_kunit_layout *layout;
};

/* Memory freed when the test ends, user mappings and holes in them. */
void iov_kunit_vfree(void *in);
void *iov_kunit_vzalloc(struct kunit *test, size_t size);
struct folio *iov_kunit_folio(struct kunit *test, unsigned int order);
unsigned long iov_kunit_mmap(struct kunit *test, unsigned long addr,
			     size_t size, unsigned long prot);
void iov_kunit_to_user(struct kunit *test, unsigned long uaddr,
		       const void *buf, size_t len);
void iov_kunit_from_user(struct kunit *test, void *buf,
			 unsigned long uaddr, size_t len);
void iov_kunit_make_hole(struct kunit *test, struct iov_kunit_store *s,
			 unsigned int page, bool unmap);

/* Filling with the pattern and comparing. */
void iov_kunit_fill(u8 *buf, size_t len, size_t base);
bool iov_kunit_same(struct kunit *test, const u8 *got, const u8 *want,
		    size_t len, const char *what);
bool iov_kunit_all_zero(struct kunit *test, const u8 *got, size_t len,
			const char *what);

/* Backing stores. */
void iov_kunit_store_io(struct kunit *test, struct iov_kunit_store *s,
			size_t off, u8 *buf, size_t len, bool write);
u8 *iov_kunit_store_snapshot(struct kunit *test, struct iov_kunit_store *s);
void iov_kunit_store_fill(struct kunit *test, struct iov_kunit_store *s);

/* Iterators over a store, and what they must read and write. */
struct iov_kunit_iter *iov_kunit_build(struct kunit *test, enum iter_type type,
				       unsigned int dir,
				       const struct iov_kunit_layout *layout);
struct iov_kunit_iter *iov_kunit_build_range(struct kunit *test, enum iter_type type,
					     unsigned int dir, size_t from, size_t to);
struct iov_kunit_iter *iov_kunit_build_param(struct kunit *test, unsigned int dir);
struct iov_kunit_iter *iov_kunit_dup(struct kunit *test,
				     const struct iov_kunit_iter *it);
void iov_kunit_check_at(struct kunit *test, struct iov_kunit_iter *it,
			size_t done);
void iov_kunit_check_short(struct kunit *test, size_t got, size_t min,
			   size_t avail);
void iov_kunit_image_of(struct iov_kunit_iter *it, const u8 *stream,
			size_t done, u8 *img);
void iov_kunit_dest_image(struct iov_kunit_iter *it, size_t done, u8 *img);
void iov_kunit_source_stream(struct iov_kunit_iter *it, u8 *out);

/* copy_to_iter() and copy_from_iter() as functions, for tables of copies. */
size_t iov_kunit_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
size_t iov_kunit_from_iter(void *addr, size_t bytes, struct iov_iter *i);

/* Layouts and iterator types, the parameters of the suites. */
extern const struct iov_kunit_layout iov_kunit_vec_layouts[4];
extern const struct iov_kunit_layout iov_kunit_bvec_layouts[3];
extern const struct iov_kunit_layout iov_kunit_flat_layouts[4];
extern const struct iov_kunit_layout iov_kunit_folioq_layouts[3];
extern const struct iov_kunit_layout iov_kunit_discard_layouts[1];
void iov_kunit_layout_desc(const struct iov_kunit_layout *l, char *desc);
extern const struct iov_kunit_type iov_kunit_all_types[7];
void iov_kunit_type_desc(const struct iov_kunit_type *t, char *desc);

#endif /* _IOV_ITER_API_KUNIT_H */
