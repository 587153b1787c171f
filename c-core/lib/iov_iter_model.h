/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Model-based random testing of the iov_iter interface.
 *
 * The engine (lib/iov_iter_model.c) builds iterators of every type over
 * real memory, user mappings with holes in them included, drives them
 * through random sequences of operations and compares every result, and
 * the iterator and the memory after every step, with a small model of what
 * the interface promises.  It never calls the iov_iter API itself: every
 * operation goes through a table of plain C functions, an executor, so
 * that the same generator and model can test another binding of the API
 * (lib/iov_iter_model_kunit.c holds the executor that calls C directly, and
 * the one that calls the Rust API, whose functions are in
 * lib/iov_iter_model_rust.rs).
 */

#ifndef _IOV_ITER_MODEL_H
#define _IOV_ITER_MODEL_H

#include <linux/types.h>
#include <linux/uio.h>

struct kunit;
struct page;
struct sg_table;

/**
 * struct iov_model_ops - An executor: how the engine calls the iov_iter API.
 * @name: Name of the executor, for messages.
 * @advance: iov_iter_advance().
 * @revert: iov_iter_revert().
 * @truncate: iov_iter_truncate().
 * @reexpand: iov_iter_reexpand().
 * @save_state: iov_iter_save_state().
 * @restore: iov_iter_restore().
 * @dup_iter: dup_iter() with GFP_KERNEL.
 * @copy_to_iter: copy_to_iter().
 * @copy_to_iter_full: copy_to_iter_full().
 * @copy_mc_to_iter: _copy_mc_to_iter().
 * @copy_from_iter: copy_from_iter().
 * @copy_from_iter_full: copy_from_iter_full().
 * @copy_from_iter_nocache: copy_from_iter_nocache().
 * @copy_from_iter_full_nocache: copy_from_iter_full_nocache().
 * @copy_from_iter_flushcache: _copy_from_iter_flushcache().
 * @zero: iov_iter_zero().
 * @copy_page_to_iter: copy_page_to_iter().
 * @copy_page_to_iter_nofault: copy_page_to_iter_nofault().
 * @copy_page_from_iter: copy_page_from_iter().
 * @copy_page_from_iter_atomic: copy_page_from_iter_atomic(); the engine
 *	disables page faults around the call.
 * @fault_in_readable: fault_in_iov_iter_readable().
 * @fault_in_writeable: fault_in_iov_iter_writeable().
 * @get_pages: iov_iter_get_pages2().
 * @get_pages_alloc: iov_iter_get_pages_alloc2().
 * @extract_pages: iov_iter_extract_pages(); @flags are
 *	iov_iter_extraction_t bits.
 * @extract_to_sg: extract_iter_to_sg(); @flags as for @extract_pages.
 * @npages: iov_iter_npages().
 * @alignment: iov_iter_alignment().
 * @is_aligned: iov_iter_is_aligned().
 * @single_seg_count: iov_iter_single_seg_count().
 * @iter_kvec: Makes the iterator of an ITER_KVEC world the executor's own
 *	way, over the segments @kvec, as iov_iter_kvec() with their whole
 *	length as the count; calls @run(iterator, @world) once and returns 0,
 *	or returns an error without calling it.  The world's operations run
 *	inside @run, on that iterator, which the engine first truncates to the
 *	world's count.  No two segments of a destination then share a page.
 * @iter_bvec: The same for ITER_BVEC sources, over @bvec as iov_iter_bvec()
 *	makes it; each bio_vec then lies inside one page.
 * @zeroing_dest: Moving a destination over kernel memory forward without a
 *	copy (@advance, @get_pages, @extract_pages) zeroes the bytes moved
 *	over, as the Rust API does.
 * @directed: @fault_in_readable applies to sources only, @fault_in_writeable
 *	to destinations only.
 * @full_fails_early: An all-or-nothing copy longer than the count fails
 *	before it copies anything.
 * @fixed_pages: @get_pages and @extract_pages are always given an array,
 *	with room for 1 to 64 pages.
 * @page_copies_in_page: The page copies stay inside the page they are
 *	given: @offset is below PAGE_SIZE, @offset + @bytes at most PAGE_SIZE.
 *
 * Each member but @iter_kvec and @iter_bvec takes the arguments of the C
 * function it stands for, in the same order.  Any member may be NULL: the
 * engine then never generates that operation (or, for @iter_kvec and
 * @iter_bvec, makes the iterator itself).  The engine releases the pages an
 * operation returns (put_page() or unpin_user_page()) and frees the arrays
 * it allocates (kvfree(), and kfree() for @dup_iter), after checking them.
 */
struct iov_model_ops {
	const char *name;
	void (*advance)(struct iov_iter *i, size_t bytes);
	void (*revert)(struct iov_iter *i, size_t bytes);
	void (*truncate)(struct iov_iter *i, u64 count);
	void (*reexpand)(struct iov_iter *i, size_t count);
	void (*save_state)(struct iov_iter *i, struct iov_iter_state *state);
	void (*restore)(struct iov_iter *i, struct iov_iter_state *state);
	const void *(*dup_iter)(struct iov_iter *new, struct iov_iter *old);
	size_t (*copy_to_iter)(const void *addr, size_t bytes, struct iov_iter *i);
	bool (*copy_to_iter_full)(const void *addr, size_t bytes, struct iov_iter *i);
	size_t (*copy_mc_to_iter)(const void *addr, size_t bytes, struct iov_iter *i);
	size_t (*copy_from_iter)(void *addr, size_t bytes, struct iov_iter *i);
	bool (*copy_from_iter_full)(void *addr, size_t bytes, struct iov_iter *i);
	size_t (*copy_from_iter_nocache)(void *addr, size_t bytes, struct iov_iter *i);
	bool (*copy_from_iter_full_nocache)(void *addr, size_t bytes, struct iov_iter *i);
	size_t (*copy_from_iter_flushcache)(void *addr, size_t bytes, struct iov_iter *i);
	size_t (*zero)(size_t bytes, struct iov_iter *i);
	size_t (*copy_page_to_iter)(struct page *page, size_t offset, size_t bytes,
				    struct iov_iter *i);
	size_t (*copy_page_to_iter_nofault)(struct page *page, size_t offset, size_t bytes,
					    struct iov_iter *i);
	size_t (*copy_page_from_iter)(struct page *page, size_t offset, size_t bytes,
				      struct iov_iter *i);
	size_t (*copy_page_from_iter_atomic)(struct page *page, size_t offset, size_t bytes,
					     struct iov_iter *i);
	size_t (*fault_in_readable)(const struct iov_iter *i, size_t bytes);
	size_t (*fault_in_writeable)(const struct iov_iter *i, size_t bytes);
	ssize_t (*get_pages)(struct iov_iter *i, struct page **pages, size_t maxsize,
			     unsigned int maxpages, size_t *start);
	ssize_t (*get_pages_alloc)(struct iov_iter *i, struct page ***pages, size_t maxsize,
				   size_t *start);
	ssize_t (*extract_pages)(struct iov_iter *i, struct page ***pages, size_t maxsize,
				 unsigned int maxpages, unsigned int flags, size_t *offset0);
	ssize_t (*extract_to_sg)(struct iov_iter *i, size_t maxsize, struct sg_table *sgt,
				 unsigned int sg_max, unsigned int flags);
	int (*npages)(const struct iov_iter *i, int maxpages);
	unsigned long (*alignment)(const struct iov_iter *i);
	bool (*is_aligned)(const struct iov_iter *i, unsigned int addr_mask,
			   unsigned int len_mask);
	size_t (*single_seg_count)(const struct iov_iter *i);
	int (*iter_kvec)(unsigned int direction, const struct kvec *kvec, unsigned long nr_segs,
			 void (*run)(struct iov_iter *i, void *world), void *world);
	int (*iter_bvec)(unsigned int direction, const struct bio_vec *bvec, unsigned long nr_segs,
			 void (*run)(struct iov_iter *i, void *world), void *world);
	bool zeroing_dest;
	bool directed;
	bool full_fails_early;
	bool fixed_pages;
	bool page_copies_in_page;
};

/**
 * struct iov_model_params - One run of the engine, and what it found.
 * @seed: Seed of the run: with the same @seed, @type and @ops, a run makes
 *	the same iterators and operations.
 * @replay: If not 0, run only the world with this seed (as printed when a
 *	step diverges), to its end, and ignore @seed and @ops.
 * @ops: Number of operations to run.
 * @type: Type of the iterators to test.
 * @trace: Print every operation.
 * @done: Out: operations run.
 * @worlds: Out: worlds (iterators over fresh memory) made.
 * @divergences: Out: steps at which the kernel and the model disagreed
 *	(each ends its world).
 */
struct iov_model_params {
	u64 seed;
	u64 replay;
	unsigned long ops;
	enum iter_type type;
	bool trace;
	unsigned long done;
	unsigned long worlds;
	unsigned long divergences;
};

/* The type a world seed (iov_model_params.replay) is for. */
static inline enum iter_type iov_model_seed_type(u64 world_seed)
{
	return world_seed % 8;
}

/* The Rust executor (lib/iov_iter_model_rust.rs): kernel::iov's methods. */
void iov_model_rust_advance(struct iov_iter *i, size_t bytes);
void iov_model_rust_revert(struct iov_iter *i, size_t bytes);
size_t iov_model_rust_copy_to_iter(const void *addr, size_t bytes, struct iov_iter *i);
bool iov_model_rust_copy_to_iter_full(const void *addr, size_t bytes, struct iov_iter *i);
size_t iov_model_rust_copy_from_iter(void *addr, size_t bytes, struct iov_iter *i);
bool iov_model_rust_copy_from_iter_full(void *addr, size_t bytes, struct iov_iter *i);
size_t iov_model_rust_zero(size_t bytes, struct iov_iter *i);
size_t iov_model_rust_copy_page_to_iter(struct page *page, size_t offset, size_t bytes,
					struct iov_iter *i);
size_t iov_model_rust_copy_page_from_iter(struct page *page, size_t offset, size_t bytes,
					  struct iov_iter *i);
size_t iov_model_rust_copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
						 struct iov_iter *i);
size_t iov_model_rust_fault_in_readable(const struct iov_iter *i, size_t bytes);
size_t iov_model_rust_fault_in_writeable(const struct iov_iter *i, size_t bytes);
ssize_t iov_model_rust_get_pages(struct iov_iter *i, struct page **pages, size_t maxsize,
				 unsigned int maxpages, size_t *start);
ssize_t iov_model_rust_extract_pages(struct iov_iter *i, struct page ***pages, size_t maxsize,
				     unsigned int maxpages, unsigned int flags, size_t *offset0);
int iov_model_rust_npages(const struct iov_iter *i, int maxpages);
unsigned long iov_model_rust_alignment(const struct iov_iter *i);
bool iov_model_rust_is_aligned(const struct iov_iter *i, unsigned int addr_mask,
			       unsigned int len_mask);
size_t iov_model_rust_single_seg_count(const struct iov_iter *i);
int iov_model_rust_iter_kvec(unsigned int direction, const struct kvec *kvec,
			     unsigned long nr_segs,
			     void (*run)(struct iov_iter *i, void *world), void *world);
int iov_model_rust_iter_bvec(unsigned int direction, const struct bio_vec *bvec,
			     unsigned long nr_segs,
			     void (*run)(struct iov_iter *i, void *world), void *world);

void iov_model_run(struct kunit *test, const struct iov_model_ops *ops,
		   struct iov_model_params *params);

#endif /* _IOV_ITER_MODEL_H */
