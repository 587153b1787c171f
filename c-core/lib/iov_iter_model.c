// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model-based random testing of the iov_iter interface: the engine.
 *
 * A "world" is one iterator over fresh memory: its type, direction and
 * segments, the memory behind them (user mappings with unreadable,
 * unwritable and unmapped pages, vmalloc() or direct-mapped kernel memory,
 * folios of several orders in a bio_vec array, an xarray or a folio queue)
 * and a list of operations.  Everything about a world follows from its
 * seed, so that a failing world can be replayed alone.
 *
 * The model is deliberately naive.  The iterator's data is a "stream", the
 * concatenation of its segments; the model knows only the segments (as
 * store offsets and lengths), a shadow copy of the memory, and two numbers:
 * pos, how far into the stream the iterator is, and count.  Every
 * expectation is worked out from those by walking the segments from the
 * start, byte ranges at a time, as the interface's documentation describes
 * it, never by replaying lib/iov_iter.c's logic.  User memory is accessible
 * or not per page, and on x86-64 a user copy stops exactly at the first
 * byte it may not access (see EXACT_USER_FAULTS in
 * lib/iov_iter_api_kunit.h), so short copies are predicted exactly.
 *
 * After every step the iterator is checked against the model: its count,
 * the stream position its fields designate (however it chose to represent
 * a position at a segment boundary), the fields that must not change, what
 * was copied where (in the memory and in the kernel buffer, and that
 * nothing around it changed), the pages returned and the references or
 * pins taken on them.  The first disagreement ends the world with a report
 * of the seed, the step, the model's and the iterator's state and the last
 * operations.
 */

#include <kunit/test.h>
#include <linux/bvec.h>
#include <linux/folio_queue.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include "iov_iter_model.h"

/* See lib/iov_iter_api_kunit.h. */
#define EXACT_USER_FAULTS	IS_ENABLED(CONFIG_X86_64)

#define MAX_SEGS		64
#define MAX_FOLIOS		40
#define FQ_SLOTS		PAGEVEC_SIZE
#define MAX_FQ			2
#define STORE_PAGES		160	/* the largest store (a folio queue) */
#define USER_PAGES		24	/* the largest user mapping with data */
#define BUF_SIZE		SZ_64K	/* the largest copy to or from a buffer */
#define SRC_SIZE		(BUF_SIZE + SZ_8K)
#define PBUF_ORDER		2	/* the folio page copies use */
#define PBUF_SIZE		(PAGE_SIZE << PBUF_ORDER)
#define MAX_PAGES		64	/* the largest page array passed in */
#define MAX_SG			32
#define MARGIN			16	/* bytes around a copy that must not change */
#define LOG_LEN			12	/* operations shown in a report */
#define FULL_CHECK		32	/* steps between checks of all memory */
/* Room for segments that run past MAX_RW_COUNT into unmapped space. */
#define HUGE_RESERVE		(SZ_2G + SZ_4M)
#define NO_BASE			SIZE_MAX	/* a segment whose base is NULL */
#define POISON			0xa5

/* What a user page allows. */
enum perm { PERM_RW, PERM_RO, PERM_NONE, PERM_UNMAPPED };

enum op {
	OP_ADVANCE, OP_REVERT, OP_TRUNCATE, OP_REEXPAND, OP_SAVE, OP_RESTORE, OP_DUP,
	OP_COPY_TO, OP_COPY_TO_FULL, OP_COPY_MC_TO,
	OP_COPY_FROM, OP_COPY_FROM_FULL, OP_COPY_FROM_NOCACHE,
	OP_COPY_FROM_FULL_NOCACHE, OP_COPY_FROM_FLUSHCACHE,
	OP_ZERO, OP_PAGE_TO, OP_PAGE_TO_NOFAULT, OP_PAGE_FROM, OP_PAGE_FROM_ATOMIC,
	OP_FAULT_IN_READABLE, OP_FAULT_IN_WRITEABLE,
	OP_GET_PAGES, OP_GET_PAGES_ALLOC, OP_EXTRACT_PAGES, OP_EXTRACT_SG,
	OP_NPAGES, OP_ALIGNMENT, OP_IS_ALIGNED, OP_SINGLE_SEG,
	NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"advance", "revert", "truncate", "reexpand", "save_state", "restore", "dup_iter",
	"copy_to_iter", "copy_to_iter_full", "copy_mc_to_iter",
	"copy_from_iter", "copy_from_iter_full", "copy_from_iter_nocache",
	"copy_from_iter_full_nocache", "copy_from_iter_flushcache",
	"zero", "copy_page_to_iter", "copy_page_to_iter_nofault", "copy_page_from_iter",
	"copy_page_from_iter_atomic", "fault_in_readable", "fault_in_writeable",
	"get_pages2", "get_pages_alloc2", "extract_pages", "extract_iter_to_sg",
	"npages", "alignment", "is_aligned", "single_seg_count",
};

/* How often each operation is picked, where it applies. */
static const u8 op_weight[NR_OPS] = {
	[OP_ADVANCE] = 8, [OP_REVERT] = 8, [OP_TRUNCATE] = 4, [OP_REEXPAND] = 4,
	[OP_SAVE] = 2, [OP_RESTORE] = 2, [OP_DUP] = 1,
	[OP_COPY_TO] = 6, [OP_COPY_TO_FULL] = 3, [OP_COPY_MC_TO] = 2,
	[OP_COPY_FROM] = 6, [OP_COPY_FROM_FULL] = 3, [OP_COPY_FROM_NOCACHE] = 2,
	[OP_COPY_FROM_FULL_NOCACHE] = 2, [OP_COPY_FROM_FLUSHCACHE] = 2,
	[OP_ZERO] = 3, [OP_PAGE_TO] = 3, [OP_PAGE_TO_NOFAULT] = 2, [OP_PAGE_FROM] = 3,
	[OP_PAGE_FROM_ATOMIC] = 3, [OP_FAULT_IN_READABLE] = 2, [OP_FAULT_IN_WRITEABLE] = 2,
	[OP_GET_PAGES] = 3, [OP_GET_PAGES_ALLOC] = 2, [OP_EXTRACT_PAGES] = 3,
	[OP_EXTRACT_SG] = 3, [OP_NPAGES] = 3, [OP_ALIGNMENT] = 3, [OP_IS_ALIGNED] = 3,
	[OP_SINGLE_SEG] = 2,
};

/* A segment: a range of the store, described to the iterator somehow. */
struct seg {
	size_t from;		/* store offset, or NO_BASE */
	size_t len;
	struct page *bv_page;	/* ITER_BVEC: as handed to the iterator */
	size_t bv_off;
};

struct rec {
	u8 op;
	u64 a, b, c;
	size_t pos, count;
	long long ret;
};

/* A contiguous run of the stream in the store. */
struct piece {
	unsigned int seg;
	size_t in;		/* offset in the segment */
	size_t at;		/* store offset */
	size_t len;
};

struct walk {
	const struct seg *seg;
	unsigned int nsegs;
	unsigned int k;
	size_t in, left;
};

/* Buffers shared by the worlds of a run. */
struct bufs {
	u8 *shadow;		/* expected contents of the store */
	u8 *real;		/* the store as read back */
	u8 *kbuf;		/* kernel buffer copies go to */
	u8 *expect;		/* what kbuf should hold */
	u8 *src;		/* random bytes copies come from */
	struct folio *pbuf;	/* folio page copies use */
	u8 *pshadow;		/* its expected contents */
	struct page *pages[MAX_PAGES];
	long refs[MAX_FOLIOS];	/* before an operation */
	unsigned long ops[NR_OPS];	/* operations run, by kind */
};

struct world {
	struct kunit *test;
	const struct iov_model_ops *ops;
	struct iov_model_params *run;
	struct bufs *b;
	u64 seed, rng;
	unsigned long step, steps, first_op;
	bool failed;
	enum iter_type type;
	unsigned int dir;

	/* The store: the memory the segments describe. */
	size_t store_size;
	unsigned long uaddr;		/* user store */
	size_t ureserve;		/* bytes mapped or reserved at uaddr */
	unsigned int upages;		/* pages of uaddr with data */
	u8 perm[USER_PAGES];
	u8 *kaddr;			/* ITER_KVEC store */
	struct folio *kfolio;		/* ... if it is not vmalloc()ed */
	struct folio *folios[MAX_FOLIOS];
	size_t fstart[MAX_FOLIOS + 1];
	unsigned int nr_folios;
	struct xarray xa;
	bool xa_used;
	struct folio_queue *fq[MAX_FQ];
	unsigned int nr_fq;

	/* The segments, and what the iterator was built from. */
	struct seg seg[MAX_SEGS];
	unsigned int nsegs;
	size_t extent;			/* the longest the stream may be */
	size_t start;			/* store offset of the stream (UBUF, XARRAY, FOLIOQ) */
	void *array;			/* iovec, kvec or bio_vec array, exactly nsegs long */
	size_t esize;
	const void *cur_array;		/* the array the iterator walks */
	unsigned int array_first;	/* segment cur_array[0] stands for */
	size_t floor;			/* stream position of cur_array[0] */
	const void *dup_array;		/* from dup_iter(), to be freed */
	struct iov_iter iter;		/* as the engine made it */
	struct iov_iter *it;		/* the iterator the operations use */
	const void *it_array;		/* ... its array, if the executor made it */

	/* The model. */
	size_t pos, count;
	bool saved;
	struct iov_iter_state state;
	size_t saved_pos, saved_count;

	long refs0[MAX_FOLIOS];		/* of the folios, as made */

	struct rec log[LOG_LEN];
	unsigned long nlog;
};

/* ---- random numbers ---------------------------------------------------- */

static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static u64 rnd(struct world *w)
{
	w->rng = mix(w->rng);
	return w->rng;
}

/* A number in [0, n), n > 0. */
static u64 below(struct world *w, u64 n)
{
	return rnd(w) % n;
}

/* A number in [lo, hi]. */
static u64 between(struct world *w, u64 lo, u64 hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == U64_MAX)
		return rnd(w);
	return lo + below(w, hi - lo + 1);
}

static bool chance(struct world *w, unsigned int percent)
{
	return below(w, 100) < percent;
}

static void fill_random(u64 seed, u8 *buf, size_t len)
{
	size_t k;

	for (k = 0; k < len; k += 8) {
		u64 v = mix(seed + k);

		memcpy(buf + k, &v, min_t(size_t, 8, len - k));
	}
}

/* ---- reporting ---------------------------------------------------------- */

static bool is_user(const struct world *w)
{
	return w->type == ITER_UBUF || w->type == ITER_IOVEC;
}

static bool is_vec(const struct world *w)
{
	return w->type == ITER_IOVEC || w->type == ITER_KVEC || w->type == ITER_BVEC;
}

static const char *type_name(enum iter_type type)
{
	static const char *const names[] = {
		[ITER_UBUF] = "UBUF", [ITER_IOVEC] = "IOVEC", [ITER_BVEC] = "BVEC",
		[ITER_KVEC] = "KVEC", [ITER_FOLIOQ] = "FOLIOQ", [ITER_XARRAY] = "XARRAY",
		[ITER_DISCARD] = "DISCARD",
	};

	return type < ARRAY_SIZE(names) && names[type] ? names[type] : "?";
}

static void show_state(struct world *w)
{
	const struct iov_iter *i = w->it;
	struct kunit *test = w->test;
	unsigned int k;
	unsigned long n;

	kunit_info(test, "model: %s %s, pos %#zx, count %#zx, extent %#zx, start %#zx, floor %#zx, %u segments%s",
		   type_name(w->type), w->dir == ITER_SOURCE ? "source" : "dest", w->pos,
		   w->count, w->extent, w->start, w->floor, w->nsegs,
		   w->saved ? ", state saved" : "");
	for (k = 0; k < w->nsegs && k < 24; k++)
		kunit_info(test, "model:   segment %u: store %#zx, length %#zx%s", k,
			   w->seg[k].from, w->seg[k].len,
			   w->type == ITER_BVEC ? " (bio_vec)" : "");
	if (is_user(w)) {
		char perms[USER_PAGES + 1];

		for (k = 0; k < w->upages; k++)
			perms[k] = "wrnu"[w->perm[k]];
		perms[k] = 0;
		kunit_info(test, "model:   user pages (w rw, r ro, n none, u unmapped): %s, %zu bytes reserved",
			   perms, w->ureserve);
	}
	kunit_info(test, "kernel: type %u, data_source %u, nofault %u, count %#zx, iov_offset %#zx, nr_segs/slot/start %#lx, pointer %p (array %p, first segment %u)",
		   i->iter_type, i->data_source, i->nofault, i->count, i->iov_offset,
		   i->nr_segs, i->ubuf, w->cur_array, w->array_first);
	for (n = w->nlog > LOG_LEN ? w->nlog - LOG_LEN : 0; n < w->nlog; n++) {
		const struct rec *r = &w->log[n % LOG_LEN];

		kunit_info(test, "step %lu: %s(%#llx, %#llx, %#llx) at pos %#zx count %#zx -> %lld",
			   w->step - (w->nlog - n) + 1, op_names[r->op],
			   r->a, r->b, r->c, r->pos, r->count, r->ret);
	}
}

static __printf(2, 3) void diverge(struct world *w, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (w->failed)
		return;
	w->failed = true;
	w->run->divergences++;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	KUNIT_FAIL(w->test,
		   "divergence: world seed %#llx, step %lu (operation %lu of the run), %s: %pV",
		   w->seed, w->step, w->first_op + w->step,
		   w->nlog ? op_names[w->log[(w->nlog - 1) % LOG_LEN].op] : "(new world)", &vaf);
	va_end(args);
	kunit_info(w->test, "replay with iov_iter_model_kunit.replay=%#llx (iov_iter_model_kunit.trace=1 lists every step)",
		   w->seed);
	show_state(w);
}

#define EXPECT(w, cond, fmt, ...)					\
	do {								\
		if (!(cond))						\
			diverge(w, "%s: " fmt, #cond, ##__VA_ARGS__);	\
	} while (0)

/* ---- the model: segments, stream and store ---------------------------- */

static void walk_init(struct walk *wk, const struct world *w, size_t from, size_t len)
{
	wk->seg = w->seg;
	wk->nsegs = w->nsegs;
	wk->k = 0;
	wk->left = len;
	/* Skip whole segments, empty ones included, to the one holding @from. */
	while (wk->k < w->nsegs && from >= w->seg[wk->k].len) {
		from -= w->seg[wk->k].len;
		wk->k++;
	}
	wk->in = from;
}

/* The next non-empty piece of the range, if any. */
static bool walk_next(struct walk *wk, struct piece *p)
{
	while (wk->left && wk->k < wk->nsegs) {
		const struct seg *s = &wk->seg[wk->k];
		size_t len = min(s->len - wk->in, wk->left);

		if (len) {
			p->seg = wk->k;
			p->in = wk->in;
			p->at = s->from + wk->in;
			p->len = len;
			wk->left -= len;
			wk->in += len;
			if (wk->in == s->len) {
				wk->k++;
				wk->in = 0;
			}
			return true;
		}
		wk->k++;
		wk->in = 0;
	}
	return false;
}

/* Stream position at which segment @k starts. */
static size_t seg_start(const struct world *w, unsigned int k)
{
	size_t pos = 0;

	while (k--)
		pos += w->seg[k].len;
	return pos;
}

/* May the store byte at @at of a user store be read (or written)? */
static bool user_page_ok(const struct world *w, size_t at, bool write)
{
	size_t p = at / PAGE_SIZE;

	if (at >= w->store_size || p >= w->upages)
		return false;
	return w->perm[p] == PERM_RW || (!write && w->perm[p] == PERM_RO);
}

/* Bytes of store range [at, at + len) accessible before the first page that is not. */
static size_t user_ok(const struct world *w, size_t at, size_t len, bool write)
{
	size_t done = 0;

	while (done < len) {
		size_t part = min(len - done, PAGE_SIZE - (at + done) % PAGE_SIZE);

		if (!user_page_ok(w, at + done, write))
			break;
		done += part;
	}
	return done;
}

/*
 * How many of the next @n bytes a copy reaches: all of them in kernel
 * memory; in user memory, up to the first byte it may not access.
 */
static size_t reach(const struct world *w, size_t n, bool write)
{
	struct walk wk;
	struct piece p;
	size_t done = 0;

	if (!is_user(w))
		return n;
	walk_init(&wk, w, w->pos, n);
	while (walk_next(&wk, &p)) {
		size_t ok = user_ok(w, p.at, p.len, write);

		done += ok;
		if (ok < p.len)
			break;
	}
	return done;
}

/* Stream bytes [from, from + n) as the model says they are. */
static void model_read(const struct world *w, size_t from, size_t n, u8 *out)
{
	struct walk wk;
	struct piece p;

	walk_init(&wk, w, from, n);
	while (walk_next(&wk, &p)) {
		memcpy(out, w->b->shadow + p.at, p.len);
		out += p.len;
	}
}

/* Write @src (NULL: zeroes) over stream bytes [from, from + n), in order. */
static void model_write(struct world *w, size_t from, size_t n, const u8 *src)
{
	struct walk wk;
	struct piece p;

	if (w->type == ITER_DISCARD)
		return;
	walk_init(&wk, w, from, n);
	while (walk_next(&wk, &p)) {
		if (src) {
			memcpy(w->b->shadow + p.at, src, p.len);
			src += p.len;
		} else {
			memset(w->b->shadow + p.at, 0, p.len);
		}
	}
}

/* ---- the real store ------------------------------------------------------ */

/* The folio of a folio store holding store byte @at. */
static unsigned int folio_at(const struct world *w, size_t at)
{
	unsigned int lo = 0, hi = w->nr_folios;

	while (hi - lo > 1) {
		unsigned int mid = (lo + hi) / 2;

		if (w->fstart[mid] <= at)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The page that holds store byte @at of a kernel store. */
static struct page *store_page(const struct world *w, size_t at)
{
	unsigned int f;

	if (w->type == ITER_KVEC) {
		if (w->kfolio)
			return folio_page(w->kfolio, at / PAGE_SIZE);
		return vmalloc_to_page(w->kaddr + at);
	}
	f = folio_at(w, at);
	return folio_page(w->folios[f], (at - w->fstart[f]) / PAGE_SIZE);
}

/* Read store bytes [at, at + len) (user: pages that can be read only). */
static int store_read(struct world *w, size_t at, u8 *buf, size_t len)
{
	while (len) {
		size_t part = min(len, PAGE_SIZE - at % PAGE_SIZE);

		if (is_user(w)) {
			if (user_page_ok(w, at, false) &&
			    copy_from_user(buf, (void __user *)(w->uaddr + at), part))
				return -EFAULT;
		} else if (w->type == ITER_KVEC) {
			memcpy(buf, w->kaddr + at, part);
		} else {
			memcpy_from_page(buf, store_page(w, at), at % PAGE_SIZE, part);
		}
		buf += part;
		at += part;
		len -= part;
	}
	return 0;
}

static int store_write(struct world *w, size_t at, const u8 *buf, size_t len)
{
	while (len) {
		size_t part = min(len, PAGE_SIZE - at % PAGE_SIZE);

		if (is_user(w)) {
			if (copy_to_user((void __user *)(w->uaddr + at), buf, part))
				return -EFAULT;
		} else if (w->type == ITER_KVEC) {
			memcpy(w->kaddr + at, buf, part);
		} else {
			memcpy_to_page(store_page(w, at), at % PAGE_SIZE, buf, part);
		}
		buf += part;
		at += part;
		len -= part;
	}
	return 0;
}

/* Compare store bytes [at, at + len) with the shadow. */
static void check_store(struct world *w, size_t at, size_t len, const char *what)
{
	u8 *real = w->b->real;

	if (w->type == ITER_DISCARD || w->failed)
		return;
	if (at >= w->store_size)
		return;
	len = min(len, w->store_size - at);
	while (len && !w->failed) {
		size_t part = min_t(size_t, len, BUF_SIZE);
		size_t k;

		if (store_read(w, at, real, part)) {
			diverge(w, "%s: cannot read the store at %#zx", what, at);
			return;
		}
		for (k = 0; k < part; k++) {
			if (is_user(w) && !user_page_ok(w, at + k, false))
				continue;
			if (real[k] != w->b->shadow[at + k]) {
				diverge(w, "%s: store byte %#zx is %#x, expected %#x", what, at + k,
					real[k], w->b->shadow[at + k]);
				return;
			}
		}
		at += part;
		len -= part;
	}
}

/* Compare the store around the pieces of stream range [from, from + n). */
static void check_stream_store(struct world *w, size_t from, size_t n, const char *what)
{
	struct walk wk;
	struct piece p;
	unsigned int pieces = 0;

	walk_init(&wk, w, from, min(n, w->extent - min(from, w->extent)));
	while (walk_next(&wk, &p) && !w->failed) {
		size_t lo = p.at >= MARGIN ? p.at - MARGIN : 0;

		/* Past a few pieces, the periodic full check covers the rest. */
		if (++pieces > 8)
			break;
		check_store(w, lo, min_t(size_t, p.len, BUF_SIZE) + (p.at - lo) + MARGIN, what);
	}
}

static void check_pbuf(struct world *w, size_t from, size_t len)
{
	u8 *real = w->b->real;
	size_t lo = from >= MARGIN ? from - MARGIN : 0;
	size_t hi = min_t(size_t, PBUF_SIZE, from + len + MARGIN);
	size_t k;

	if (w->failed)
		return;
	for (k = lo; k < hi; k += PAGE_SIZE - k % PAGE_SIZE) {
		size_t part = min(hi - k, PAGE_SIZE - k % PAGE_SIZE);

		memcpy_from_page(real + k - lo, folio_page(w->b->pbuf, k / PAGE_SIZE),
				 k % PAGE_SIZE, part);
	}
	for (k = lo; k < hi; k++) {
		if (real[k - lo] != w->b->pshadow[k]) {
			diverge(w, "page byte %#zx is %#x, expected %#x", k, real[k - lo],
				w->b->pshadow[k]);
			return;
		}
	}
}

/* ---- the iterator's state ------------------------------------------------ */

/*
 * The position the iterator's fields designate, as (segment, offset) for
 * the vector types and (folio, offset) for ITER_FOLIOQ, and as a stream
 * position.  A position at a segment or folio boundary may be the end of
 * one or the start of the next: both are accepted, so long as the fields
 * are consistent.  Returns false (after reporting) if they are not.
 */
static bool kernel_cursor(struct world *w, unsigned int *k, size_t *off, size_t *pos)
{
	const struct iov_iter *i = w->it;
	unsigned int q, slot, j;
	long idx;

	*k = 0;
	*off = i->iov_offset;
	switch (w->type) {
	case ITER_UBUF:
		*pos = i->iov_offset;
		return true;
	case ITER_XARRAY:
		*pos = i->iov_offset;
		return true;
	case ITER_DISCARD:
		*pos = w->pos;
		return true;
	case ITER_FOLIOQ:
		for (q = 0; q < w->nr_fq && w->fq[q] != i->folioq; q++)
			;
		slot = i->folioq_slot;
		if (q == w->nr_fq || slot > FQ_SLOTS) {
			diverge(w, "folio queue cursor %p slot %u is not in the queue",
				i->folioq, slot);
			return false;
		}
		j = q * FQ_SLOTS + slot;
		if (j > w->nr_folios ||
		    (j == w->nr_folios && i->iov_offset) ||
		    (j < w->nr_folios &&
		     i->iov_offset > w->fstart[j + 1] - w->fstart[j])) {
			diverge(w, "folio queue cursor: folio %u (segment %u slot %u) offset %#zx",
				j, q, slot, i->iov_offset);
			return false;
		}
		*k = j;
		*pos = w->fstart[j] + i->iov_offset - w->start;
		return true;
	default:
		break;
	}

	idx = ((const u8 *)i->kvec - (const u8 *)w->cur_array);
	if (idx % (long)w->esize) {
		diverge(w, "segment pointer %p is not on an entry of %p", i->kvec,
			w->cur_array);
		return false;
	}
	idx = idx / (long)w->esize + w->array_first;
	if (idx < w->array_first || idx > w->nsegs) {
		diverge(w, "segment pointer %p is outside the array %p (%ld)", i->kvec,
			w->cur_array, idx - w->array_first);
		return false;
	}
	if (i->nr_segs != w->nsegs - idx) {
		diverge(w, "nr_segs %lu, but the pointer is at segment %ld of %u",
			i->nr_segs, idx, w->nsegs);
		return false;
	}
	if (idx == w->nsegs ? i->iov_offset : i->iov_offset > w->seg[idx].len) {
		diverge(w, "iov_offset %#zx beyond segment %ld", i->iov_offset, idx);
		return false;
	}
	*k = idx;
	*pos = seg_start(w, idx) + i->iov_offset;
	return true;
}

/* The iterator's cursor, checked: see kernel_cursor(). */
static bool cursor(struct world *w, unsigned int *k, size_t *off)
{
	size_t pos;

	return kernel_cursor(w, k, off, &pos);
}

/* The iterator agrees with the model. */
static bool check_iter(struct world *w)
{
	const struct iov_iter *i = w->it;
	unsigned int k;
	size_t off, pos;

	if (w->failed)
		return false;
	EXPECT(w, i->iter_type == w->type, "%u", i->iter_type);
	EXPECT(w, i->data_source == w->dir, "%u", i->data_source);
	EXPECT(w, !i->nofault, "%u", i->nofault);
	EXPECT(w, i->count == w->count, "count %#zx, model %#zx", i->count, w->count);
	switch (w->type) {
	case ITER_UBUF:
		EXPECT(w, (unsigned long)i->ubuf == w->uaddr + w->start, "%p", i->ubuf);
		EXPECT(w, i->nr_segs == 1, "%lu", i->nr_segs);
		break;
	case ITER_XARRAY:
		EXPECT(w, i->xarray == &w->xa, "%p", i->xarray);
		EXPECT(w, (size_t)i->xarray_start == w->start, "%#llx", i->xarray_start);
		break;
	case ITER_DISCARD:
		EXPECT(w, !i->iov_offset, "%#zx", i->iov_offset);
		break;
	default:
		break;
	}
	if (w->failed || !kernel_cursor(w, &k, &off, &pos))
		return false;
	EXPECT(w, pos == w->pos, "the iterator is at stream position %#zx, the model at %#zx",
	       pos, w->pos);
	return !w->failed;
}

/* Address (or page offset) of segment @k's byte @in, as the iterator sees it. */
static unsigned long seg_addr(const struct world *w, unsigned int k, size_t in)
{
	const struct seg *s = &w->seg[k];

	switch (w->type) {
	case ITER_BVEC:
		return s->bv_off + in;
	case ITER_IOVEC:
		return s->from == NO_BASE ? 0 : w->uaddr + s->from + in;
	default:
		return s->from == NO_BASE ? 0 : (unsigned long)w->kaddr + s->from + in;
	}
}

/*
 * @array describes the segments.  The executor's array (@any_empty) may
 * point its empty kvecs anywhere.
 */
static void check_segs(struct world *w, const void *array, bool any_empty, const char *what)
{
	const struct kvec *kv = array;
	const struct bio_vec *bv = array;
	unsigned int k;

	for (k = 0; k < w->nsegs && !w->failed; k++) {
		const struct seg *s = &w->seg[k];

		if (w->type == ITER_BVEC) {
			EXPECT(w, bv[k].bv_page == s->bv_page && bv[k].bv_offset == s->bv_off &&
			       bv[k].bv_len == s->len, "%s: bio_vec %u differs", what, k);
		} else {
			/* A struct iovec is laid out as a struct kvec. */
			EXPECT(w, ((any_empty && !s->len) ||
				   (unsigned long)kv[k].iov_base == seg_addr(w, k, 0)) &&
			       kv[k].iov_len == s->len, "%s: segment %u differs", what, k);
		}
	}
}

/* The segment arrays still describe the segments (nobody wrote to them). */
static void check_arrays(struct world *w)
{
	if (!is_vec(w))
		return;
	check_segs(w, w->array, false, "the engine's array");
	if (w->it != &w->iter)
		check_segs(w, w->it_array, true, "the executor's array");
	if (w->dup_array)
		EXPECT(w, !memcmp(w->dup_array, w->array + w->array_first * w->esize,
				  (w->nsegs - w->array_first) * w->esize),
		       "the array dup_iter() made changed");
}

/* Everything: the store, the page buffer, the arrays, the folios' references. */
static void check_all(struct world *w)
{
	check_store(w, 0, w->store_size, "store");
	check_pbuf(w, 0, PBUF_SIZE);
	check_arrays(w);
}

/* ---- building worlds ----------------------------------------------------- */

static size_t gen_len_in(struct world *w, size_t room)
{
	size_t len;

	switch (below(w, 10)) {
	case 0:
		len = 0;
		break;
	case 1:
	case 2:
		len = between(w, 1, 16);
		break;
	case 3:
	case 4:
	case 5:
		len = between(w, 17, 600);
		break;
	case 6:
	case 7:
		len = between(w, 1, 2 * PAGE_SIZE);
		break;
	default:
		len = between(w, 1, room);
		break;
	}
	return min(len, room);
}

/* A store offset in [0, size): often near a page boundary. */
static size_t gen_offset(struct world *w, size_t size)
{
	size_t at;

	switch (below(w, 4)) {
	case 0:
		at = below(w, size / PAGE_SIZE + 1) * PAGE_SIZE;
		break;
	case 1:
		at = below(w, size / PAGE_SIZE + 1) * PAGE_SIZE + PAGE_SIZE - between(w, 1, 8);
		break;
	default:
		at = below(w, size);
		break;
	}
	return min(at, size - 1);
}

static unsigned int gen_nsegs(struct world *w)
{
	switch (below(w, 10)) {
	case 0:
		return chance(w, 20) ? 0 : 1;
	case 1:
	case 2:
		return 1;
	case 3:
	case 4:
	case 5:
	case 6:
		return between(w, 2, 8);
	default:
		return between(w, 9, MAX_SEGS);
	}
}

/*
 * Whether the executor makes the world's iterator itself, over the segments
 * the engine made (iov_model_ops.iter_kvec, .iter_bvec).
 */
static bool lent(const struct world *w)
{
	return (w->type == ITER_KVEC && w->ops->iter_kvec) ||
	       (w->type == ITER_BVEC && w->dir == ITER_SOURCE && w->ops->iter_bvec);
}

/* Whether segment @k shares a page of the store with an earlier one. */
static bool shares_page(const struct world *w, unsigned int k)
{
	const struct seg *s = &w->seg[k];
	unsigned int j;

	if (!s->len)
		return false;
	for (j = 0; j < k; j++) {
		const struct seg *t = &w->seg[j];

		if (t->len && s->from / PAGE_SIZE <= (t->from + t->len - 1) / PAGE_SIZE &&
		    t->from / PAGE_SIZE <= (s->from + s->len - 1) / PAGE_SIZE)
			return true;
	}
	return false;
}

static void gen_seg(struct world *w, struct seg *s, size_t size)
{
	size_t room;

	s->from = gen_offset(w, size);
	room = size - s->from;
	if (w->type == ITER_BVEC) {
		unsigned int f = folio_at(w, s->from);

		room = w->fstart[f + 1] - s->from;
		if (lent(w))
			room = min(room, PAGE_SIZE - s->from % PAGE_SIZE);
	}
	if (w->type != ITER_BVEC && chance(w, 10)) {
		s->len = 0;
		if (chance(w, 50))
			s->from = NO_BASE;
	} else {
		s->len = gen_len_in(w, room) ?: 1;
	}
}

/*
 * Segments anywhere in [0, size), some empty; for ITER_BVEC, each within
 * one folio and none empty: zero-length bio_vecs are not allowed in an
 * iterator (Documentation/filesystems/porting.rst).  If the executor makes
 * the iterator, each bio_vec lies in one page (as a kernel::iov::BioVec
 * does), and no two segments of a destination share a page: it may borrow
 * each for writing alone.
 */
static void gen_segs(struct world *w, size_t size)
{
	unsigned int k, tries;

	w->nsegs = gen_nsegs(w);
	for (k = 0; k < w->nsegs; k++) {
		struct seg *s = &w->seg[k];

		for (tries = 0; ; tries++) {
			gen_seg(w, s, size);
			if (!lent(w) || w->dir == ITER_SOURCE || !shares_page(w, k))
				break;
			if (tries == 3) {
				s->len = 0;
				s->from = NO_BASE;
				break;
			}
		}
	}
}

static size_t segs_total(const struct world *w)
{
	size_t total = 0;
	unsigned int k;

	for (k = 0; k < w->nsegs; k++)
		total += w->seg[k].len;
	return total;
}

/* Count: usually all of it, sometimes less. */
static size_t gen_count(struct world *w, size_t extent)
{
	if (chance(w, 75))
		return extent;
	return between(w, 0, extent);
}

static struct folio *alloc_folio(struct world *w, unsigned int order)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, order);

	if (!folio)
		kunit_err(w->test, "cannot allocate a folio of order %u", order);
	return folio;
}

/* The store's initial contents: random, so that misplaced bytes show. */
static int init_store(struct world *w)
{
	fill_random(w->seed, w->b->shadow, w->store_size);
	return store_write(w, 0, w->b->shadow, w->store_size);
}

/* Folios of the given orders, one after the other in the store. */
static int make_folios(struct world *w, const u8 *orders, unsigned int n)
{
	unsigned int f;

	w->store_size = 0;
	for (f = 0; f < n; f++) {
		w->folios[f] = alloc_folio(w, orders[f]);
		if (!w->folios[f])
			return -ENOMEM;
		w->nr_folios = f + 1;
		w->fstart[f] = w->store_size;
		w->store_size += folio_size(w->folios[f]);
	}
	if (WARN_ON(w->store_size > STORE_PAGES * PAGE_SIZE))
		return -EINVAL;
	w->fstart[n] = w->store_size;
	return 0;
}

static int make_user(struct world *w)
{
	unsigned long prot = PROT_READ | PROT_WRITE;
	unsigned long flags = MAP_ANONYMOUS | MAP_PRIVATE;
	bool huge = chance(w, 8);
	unsigned int p, holes;
	unsigned long addr;

	w->upages = between(w, 1, USER_PAGES);
	w->store_size = w->upages * PAGE_SIZE;
	w->ureserve = huge ? HUGE_RESERVE : w->store_size;
	addr = vm_mmap(NULL, 0, w->ureserve, huge ? PROT_NONE : prot,
		       flags | (huge ? MAP_NORESERVE : 0), 0);
	if (IS_ERR_VALUE(addr)) {
		kunit_err(w->test, "cannot map %zu bytes: %ld", w->ureserve, (long)addr);
		w->ureserve = 0;
		return -ENOMEM;
	}
	w->uaddr = addr;
	if (huge && vm_mmap(NULL, addr, w->store_size, prot, flags | MAP_FIXED, 0) != addr)
		return -ENOMEM;
	/* Every page is resident, so that atomic copies only fail at holes. */
	if (init_store(w))
		return -EFAULT;

	holes = chance(w, 40) ? between(w, 1, 3) : 0;
	while (holes--) {
		p = below(w, w->upages);
		w->perm[p] = between(w, PERM_RO, PERM_UNMAPPED);
		addr = w->uaddr + p * PAGE_SIZE;
		if (w->perm[p] == PERM_UNMAPPED) {
			if (vm_munmap(addr, PAGE_SIZE))
				return -ENOMEM;
			continue;
		}
		/* A fresh read-only page maps the zero page: resident, and zeroes. */
		if (w->perm[p] == PERM_RO)
			addr = vm_mmap(NULL, addr, PAGE_SIZE, PROT_READ,
				       flags | MAP_FIXED | MAP_POPULATE, 0);
		else
			addr = vm_mmap(NULL, addr, PAGE_SIZE, PROT_NONE, flags | MAP_FIXED, 0);
		if (addr != w->uaddr + p * PAGE_SIZE)
			return -ENOMEM;
		memset(w->b->shadow + p * PAGE_SIZE, 0, PAGE_SIZE);
	}

	if (w->type == ITER_UBUF) {
		w->start = gen_offset(w, w->store_size);
		w->extent = w->store_size - w->start;
		if (huge)
			w->extent = MAX_RW_COUNT - w->start + between(w, 0, 2) * PAGE_SIZE -
				    between(w, 0, 64);
		w->nsegs = 1;
		w->seg[0].from = w->start;
		w->seg[0].len = w->extent;
		w->count = gen_count(w, w->extent);
		iov_iter_ubuf(&w->iter, w->dir, (void __user *)(w->uaddr + w->start), w->count);
		return 0;
	}

	gen_segs(w, w->store_size);
	if (huge && w->nsegs) {
		/* One segment runs into the unmapped reserve, to around MAX_RW_COUNT. */
		struct seg *s = &w->seg[below(w, w->nsegs)];

		if (s->from == NO_BASE)
			s->from = 0;
		s->len = MAX_RW_COUNT - s->from - between(w, 0, 3) * PAGE_SIZE + between(w, 0, 64);
	}
	return 0;
}

static int make_kvec(struct world *w)
{
	unsigned int pages = between(w, 1, USER_PAGES);

	if (chance(w, 30)) {
		/* Directly mapped memory: virt_to_page() rather than vmalloc_to_page(). */
		w->kfolio = alloc_folio(w, order_base_2(pages));
		if (!w->kfolio)
			return -ENOMEM;
		w->kaddr = folio_address(w->kfolio);
		w->store_size = folio_size(w->kfolio);
	} else {
		w->kaddr = vmalloc(pages * PAGE_SIZE);
		if (!w->kaddr)
			return -ENOMEM;
		w->store_size = pages * PAGE_SIZE;
	}
	init_store(w);
	gen_segs(w, w->store_size);
	return 0;
}

static int make_bvec(struct world *w)
{
	u8 orders[8];
	unsigned int n = between(w, 1, ARRAY_SIZE(orders)), f, k;

	for (f = 0; f < n; f++)
		orders[f] = chance(w, 50) ? 0 : between(w, 1, 3);
	if (make_folios(w, orders, n))
		return -ENOMEM;
	init_store(w);
	gen_segs(w, w->store_size);
	for (k = 0; k < w->nsegs; k++) {
		struct seg *s = &w->seg[k];
		unsigned int fi = folio_at(w, s->from);
		size_t in = s->from - w->fstart[fi];
		/*
		 * Any page of the folio at or before the data, any offset from
		 * it; the page the data starts in, if the executor makes the
		 * iterator.
		 */
		unsigned int pg = lent(w) || chance(w, 50) ? in / PAGE_SIZE :
				  below(w, in / PAGE_SIZE + 1);

		s->bv_page = folio_page(w->folios[fi], pg);
		s->bv_off = in - pg * PAGE_SIZE;
	}
	return 0;
}

static int make_xarray(struct world *w)
{
	u8 orders[MAX_FOLIOS];
	unsigned int n = 0, f;
	size_t pages = between(w, 1, USER_PAGES), index = 0;

	/* Large folios where their index is aligned, as in the page cache. */
	while (index < pages && n < ARRAY_SIZE(orders)) {
		unsigned int order = 0;

		if (IS_ENABLED(CONFIG_XARRAY_MULTI) && chance(w, 40))
			order = between(w, 1, 3);
		while (order && index % (1UL << order))
			order--;
		orders[n++] = order;
		index += 1UL << order;
	}
	if (make_folios(w, orders, n))
		return -ENOMEM;
	init_store(w);
	xa_init(&w->xa);
	w->xa_used = true;
	for (f = 0; f < n; f++) {
		XA_STATE_ORDER(xas, &w->xa, w->fstart[f] / PAGE_SIZE, orders[f]);

		do {
			xas_lock(&xas);
			xas_store(&xas, w->folios[f]);
			xas_unlock(&xas);
		} while (xas_nomem(&xas, GFP_KERNEL));
		if (xas_error(&xas))
			return xas_error(&xas);
	}
	w->start = gen_offset(w, w->store_size);
	w->extent = w->store_size - w->start;
	w->nsegs = 1;
	w->seg[0].from = w->start;
	w->seg[0].len = w->extent;
	w->count = gen_count(w, w->extent);
	iov_iter_xarray(&w->iter, w->dir, &w->xa, w->start, w->count);
	return 0;
}

static int make_folioq(struct world *w)
{
	u8 orders[MAX_FOLIOS];
	unsigned int n, f, q, j;
	size_t off;

	/* One segment of the queue, or a full one and part of the next. */
	n = chance(w, 50) ? between(w, 1, 12) : FQ_SLOTS + between(w, 1, MAX_FOLIOS - FQ_SLOTS);
	for (f = 0; f < n; f++)
		orders[f] = chance(w, 80) ? 0 : between(w, 1, 2);
	if (make_folios(w, orders, n))
		return -ENOMEM;
	init_store(w);
	w->nr_fq = DIV_ROUND_UP(n, FQ_SLOTS);
	for (q = 0; q < w->nr_fq; q++) {
		w->fq[q] = kzalloc(sizeof(*w->fq[q]), GFP_KERNEL);
		if (!w->fq[q])
			return -ENOMEM;
		folioq_init(w->fq[q], 0);
		if (q) {
			w->fq[q - 1]->next = w->fq[q];
			w->fq[q]->prev = w->fq[q - 1];
		}
		for (f = q * FQ_SLOTS; f < n && f < (q + 1) * FQ_SLOTS; f++)
			folioq_append(w->fq[q], w->folios[f]);
	}
	/* Start anywhere, even at the end of a full segment (as if extended). */
	j = below(w, n);
	if (w->nr_fq > 1 && chance(w, 25)) {
		j = FQ_SLOTS;
		off = 0;
		q = 0;
	} else {
		off = chance(w, 30) ? 0 : below(w, w->fstart[j + 1] - w->fstart[j]);
		q = j / FQ_SLOTS;
	}
	w->start = w->fstart[j] + off;
	w->extent = w->store_size - w->start;
	w->nsegs = 1;
	w->seg[0].from = w->start;
	w->seg[0].len = w->extent;
	w->count = gen_count(w, w->extent);
	iov_iter_folio_queue(&w->iter, w->dir, w->fq[q], j - q * FQ_SLOTS, off, w->count);
	return 0;
}

static void make_discard(struct world *w)
{
	switch (below(w, 4)) {
	case 0:
		w->extent = MAX_RW_COUNT - between(w, 0, 3) + between(w, 0, 3);
		break;
	case 1:
		w->extent = between(w, 0, SIZE_MAX / 2);
		break;
	default:
		w->extent = between(w, 0, SZ_256K);
		break;
	}
	w->count = w->extent;
	iov_iter_discard(&w->iter, ITER_DEST, w->count);
}

/* The segment array of a vector iterator, exactly as long as the segments. */
static int make_array(struct world *w)
{
	unsigned int k;

	w->esize = w->type == ITER_BVEC ? sizeof(struct bio_vec) : sizeof(struct iovec);
	w->array = kmalloc_array(w->nsegs, w->esize, GFP_KERNEL);
	if (!w->array)
		return -ENOMEM;
	for (k = 0; k < w->nsegs; k++) {
		const struct seg *s = &w->seg[k];

		if (w->type == ITER_BVEC) {
			struct bio_vec *bv = (struct bio_vec *)w->array + k;

			bvec_set_page(bv, s->bv_page, s->len, s->bv_off);
		} else if (w->type == ITER_IOVEC) {
			struct iovec *iov = (struct iovec *)w->array + k;

			iov->iov_base = s->from == NO_BASE ? NULL :
					(void __user *)(w->uaddr + s->from);
			iov->iov_len = s->len;
		} else {
			struct kvec *kv = (struct kvec *)w->array + k;

			kv->iov_base = s->from == NO_BASE ? NULL : w->kaddr + s->from;
			kv->iov_len = s->len;
		}
	}
	w->extent = segs_total(w);
	w->count = gen_count(w, w->extent);
	w->cur_array = w->array;
	switch (w->type) {
	case ITER_IOVEC:
		iov_iter_init(&w->iter, w->dir, w->array, w->nsegs, w->count);
		break;
	case ITER_KVEC:
		iov_iter_kvec(&w->iter, w->dir, w->array, w->nsegs, w->count);
		break;
	default:
		iov_iter_bvec(&w->iter, w->dir, w->array, w->nsegs, w->count);
		break;
	}
	return 0;
}

static int make_world(struct world *w)
{
	int err;

	w->dir = w->type == ITER_DISCARD || chance(w, 50) ? ITER_DEST : ITER_SOURCE;
	switch (w->type) {
	case ITER_UBUF:
		return make_user(w);
	case ITER_IOVEC:
		err = make_user(w);
		break;
	case ITER_KVEC:
		err = make_kvec(w);
		break;
	case ITER_BVEC:
		err = make_bvec(w);
		break;
	case ITER_XARRAY:
		return make_xarray(w);
	case ITER_FOLIOQ:
		return make_folioq(w);
	default:
		make_discard(w);
		return 0;
	}
	return err ?: make_array(w);
}

static void free_world(struct world *w)
{
	unsigned int f;

	if (w->ureserve)
		vm_munmap(w->uaddr, w->ureserve);
	if (w->kfolio)
		folio_put(w->kfolio);
	else
		vfree(w->kaddr);
	if (w->xa_used)
		xa_destroy(&w->xa);
	for (f = 0; f < w->nr_fq; f++)
		kfree(w->fq[f]);
	for (f = 0; f < w->nr_folios; f++)
		folio_put(w->folios[f]);
	kfree(w->dup_array);
	kfree(w->array);
}

/* ---- generating arguments -------------------------------------------- */

/* Bytes from the position to the end of the segment it is in. */
static size_t to_seg_end(struct world *w)
{
	struct walk wk;
	struct piece p;

	walk_init(&wk, w, w->pos, w->extent - w->pos);
	return walk_next(&wk, &p) ? p.len : 0;
}

/* @x, one less or one more. */
static size_t near(struct world *w, size_t x)
{
	size_t d = below(w, 3);

	return d ? x + d - 1 : x - min_t(size_t, x, 1);
}

/* A length for an operation at the position: often one that ends at a boundary. */
static size_t gen_size(struct world *w, size_t limit)
{
	size_t n;

	switch (below(w, 12)) {
	case 0:
		n = below(w, 2);
		break;
	case 1:
		n = near(w, to_seg_end(w));
		break;
	case 2:
		n = near(w, w->count);
		break;
	case 3:
		n = near(w, PAGE_SIZE - (w->pos + w->start) % PAGE_SIZE);
		break;
	case 4:
	case 5:
	case 6:
		n = between(w, 1, 256);
		break;
	case 7:
	case 8:
		n = between(w, 0, min(w->count, limit));
		break;
	case 9:
		n = between(w, 0, 3 * PAGE_SIZE);
		break;
	default:
		n = between(w, 0, limit);
		break;
	}
	return min(n, limit);
}

static unsigned int gen_mask(struct world *w)
{
	if (chance(w, 10))
		return rnd(w);
	return (1U << below(w, 13)) - 1;
}

/* ---- operations ---------------------------------------------------------- */

static bool can_restore(const struct world *w)
{
	return w->type == ITER_UBUF || is_vec(w);
}

static bool op_applies(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	bool src = w->dir == ITER_SOURCE;

	switch (op) {
	case OP_ADVANCE:
		return o->advance;
	case OP_REVERT:
		return o->revert;
	case OP_TRUNCATE:
		return o->truncate;
	case OP_REEXPAND:
		return o->reexpand;
	case OP_SAVE:
		return o->save_state && can_restore(w);
	case OP_RESTORE:
		return o->restore && can_restore(w) && w->saved;
	case OP_DUP:
		return o->dup_iter;
	case OP_COPY_TO:
		return o->copy_to_iter && !src;
	case OP_COPY_TO_FULL:
		return o->copy_to_iter_full && !src;
	case OP_COPY_MC_TO:
		return o->copy_mc_to_iter && !src;
	case OP_COPY_FROM:
		return o->copy_from_iter && src;
	case OP_COPY_FROM_FULL:
		return o->copy_from_iter_full && src;
	case OP_COPY_FROM_NOCACHE:
		return o->copy_from_iter_nocache && src;
	case OP_COPY_FROM_FULL_NOCACHE:
		return o->copy_from_iter_full_nocache && src;
	case OP_COPY_FROM_FLUSHCACHE:
		return o->copy_from_iter_flushcache && src;
	case OP_ZERO:
		return o->zero && !src;
	case OP_PAGE_TO:
		return o->copy_page_to_iter && !src;
	case OP_PAGE_TO_NOFAULT:
		return o->copy_page_to_iter_nofault && !src;
	case OP_PAGE_FROM:
		return o->copy_page_from_iter && src;
	case OP_PAGE_FROM_ATOMIC:
		return o->copy_page_from_iter_atomic && src;
	case OP_FAULT_IN_READABLE:
		return o->fault_in_readable && (src || !o->directed);
	case OP_FAULT_IN_WRITEABLE:
		return o->fault_in_writeable && (!src || !o->directed);
	case OP_GET_PAGES:
		return o->get_pages;
	case OP_GET_PAGES_ALLOC:
		return o->get_pages_alloc;
	case OP_EXTRACT_PAGES:
		return o->extract_pages;
	case OP_EXTRACT_SG:
		/* DISCARD is refused with a warning. */
		return o->extract_to_sg && w->type != ITER_DISCARD;
	case OP_NPAGES:
		return o->npages;
	case OP_ALIGNMENT:
		return o->alignment;
	case OP_IS_ALIGNED:
		return o->is_aligned;
	case OP_SINGLE_SEG:
		return o->single_seg_count;
	default:
		return false;
	}
}

static struct rec *record(struct world *w, enum op which, u64 a, u64 b, u64 c)
{
	struct rec *r = &w->log[w->nlog++ % LOG_LEN];

	r->op = which;
	r->a = a;
	r->b = b;
	r->c = c;
	r->pos = w->pos;
	r->count = w->count;
	r->ret = 0;
	return r;
}

static void moved(struct world *w, size_t n)
{
	w->pos += n;
	w->count -= n;
}

/*
 * Moving forward by @n without a copy: an executor with zeroing_dest zeroes
 * what a destination over kernel memory moves over.
 */
static void skipped(struct world *w, size_t n, const char *what)
{
	size_t from = w->pos;

	moved(w, n);
	if (!w->ops->zeroing_dest || w->dir != ITER_DEST || is_user(w) ||
	    w->type == ITER_DISCARD)
		return;
	model_write(w, from, n, NULL);
	check_stream_store(w, from, n, what);
}

/* Advance, revert, truncate, reexpand, save and restore. */
static void do_cursor(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	size_t n;
	u64 cap;

	switch (op) {
	case OP_ADVANCE:
		n = chance(w, 3) ? SIZE_MAX - below(w, 2) : gen_size(w, SIZE_MAX);
		record(w, op, n, 0, 0);
		o->advance(w->it, n);
		skipped(w, min(n, w->count), "advance");
		break;
	case OP_REVERT:
		/* Never before the start (a bug), nor by more than MAX_RW_COUNT. */
		n = min_t(size_t, w->pos - w->floor, MAX_RW_COUNT);
		if (chance(w, 70))
			n = min(n, gen_size(w, SIZE_MAX));
		else if (chance(w, 50))
			n = between(w, 0, n);
		record(w, op, n, 0, 0);
		o->revert(w->it, n);
		w->pos -= n;
		w->count += n;
		break;
	case OP_TRUNCATE:
		switch (below(w, 4)) {
		case 0:
			cap = U64_MAX - below(w, 2);
			break;
		case 1:
			cap = near(w, w->count);
			break;
		default:
			cap = gen_size(w, w->count);
			break;
		}
		record(w, op, cap, 0, 0);
		o->truncate(w->it, cap);
		w->count = min_t(u64, w->count, cap);
		break;
	case OP_REEXPAND:
		/* Back to any count the segments can hold. */
		n = w->extent - w->pos;
		if (chance(w, 40))
			n = between(w, min(w->count, n), n);
		record(w, op, n, 0, 0);
		o->reexpand(w->it, n);
		w->count = n;
		break;
	case OP_SAVE:
		record(w, op, 0, 0, 0);
		o->save_state(w->it, &w->state);
		EXPECT(w, w->state.count == w->count && w->state.iov_offset == w->it->iov_offset &&
		       w->state.nr_segs == w->it->nr_segs,
		       "saved count %#zx offset %#zx segments %lu", w->state.count,
		       w->state.iov_offset, w->state.nr_segs);
		w->saved = true;
		w->saved_pos = w->pos;
		w->saved_count = w->count;
		break;
	default:
		record(w, op, w->saved_pos, w->saved_count, 0);
		o->restore(w->it, &w->state);
		w->pos = w->saved_pos;
		w->count = w->saved_count;
		break;
	}
}

static bool same_iter(const struct iov_iter *a, const struct iov_iter *b)
{
	return a->iter_type == b->iter_type && a->nofault == b->nofault &&
	       a->data_source == b->data_source && a->iov_offset == b->iov_offset &&
	       a->ubuf == b->ubuf && a->count == b->count && a->nr_segs == b->nr_segs;
}

/*
 * dup_iter(): an equal iterator, over a copy of what is left of the segment
 * array for the vector types.  The world carries on with the copy, so that
 * it is shown to work, and the original is left untouched.
 */
static void do_dup(struct world *w)
{
	struct iov_iter new, old = *w->it;
	const void *array;
	unsigned int k;
	size_t off, pos;

	record(w, OP_DUP, 0, 0, 0);
	memset(&new, POISON, sizeof(new));
	array = w->ops->dup_iter(&new, w->it);
	EXPECT(w, same_iter(&old, w->it), "the original changed");
	if (!is_vec(w)) {
		EXPECT(w, !array, "%p", array);
		EXPECT(w, same_iter(&new, &old), "the copy differs");
		kfree(array);
		return;
	}
	if (!array)
		return;		/* out of memory: nothing to check */
	if (!kernel_cursor(w, &k, &off, &pos)) {
		kfree(array);
		return;
	}
	EXPECT(w, new.kvec == array, "the copy uses %p, not %p", new.kvec, array);
	EXPECT(w, new.iter_type == old.iter_type && new.data_source == old.data_source &&
	       new.count == old.count && new.iov_offset == old.iov_offset &&
	       new.nr_segs == old.nr_segs, "the copy's fields differ");
	EXPECT(w, !old.nr_segs || array != w->cur_array, "no new array");
	if (w->failed) {
		kfree(array);
		return;
	}
	EXPECT(w, !memcmp(array, old.kvec, old.nr_segs * w->esize), "the array differs");
	/* The executor's own iterator stays the world's: the copy is dropped. */
	if (w->it != &w->iter) {
		kfree(array);
		return;
	}
	kfree(w->dup_array);
	w->dup_array = array;
	w->cur_array = array;
	w->array_first = k;
	w->floor = seg_start(w, k);
	*w->it = new;
	/* A saved state before the copy's first segment cannot be restored. */
	if (w->saved && w->nsegs - w->state.nr_segs < k)
		w->saved = false;
}

/* Copies into the iterator: copy_to_iter() and friends, iov_iter_zero(). */
static void do_copy_to(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	size_t n = gen_size(w, op == OP_ZERO ? SIZE_MAX : BUF_SIZE);
	size_t soff = below(w, SRC_SIZE - min_t(size_t, n, BUF_SIZE) + 1);
	const u8 *src = op == OP_ZERO ? NULL : w->b->src + soff;
	size_t want = min(n, w->count), from = w->pos;
	size_t exp = reach(w, want, true);
	struct rec *r = record(w, op, n, soff, 0);
	size_t got;
	bool ok;

	switch (op) {
	case OP_COPY_TO:
		got = o->copy_to_iter(src, n, w->it);
		break;
	case OP_COPY_MC_TO:
		got = o->copy_mc_to_iter(src, n, w->it);
		break;
	case OP_ZERO:
		got = o->zero(n, w->it);
		break;
	default:
		ok = o->copy_to_iter_full(src, n, w->it);
		r->ret = ok;
		if (o->full_fails_early && n > w->count)
			exp = 0;
		EXPECT(w, ok == (exp == n), "returned %d, %#zx of %#zx bytes can be written",
		       ok, exp, n);
		/* A failed copy is undone in the iterator, not in memory. */
		model_write(w, from, exp, src);
		if (ok)
			moved(w, n);
		check_stream_store(w, from, want, "copy_to_iter_full");
		return;
	}
	r->ret = got;
	if (!EXACT_USER_FAULTS && got < exp && got)
		exp = got;
	EXPECT(w, got == exp, "copied %#zx, expected %#zx of %#zx", got, exp, n);
	model_write(w, from, exp, src);
	moved(w, exp);
	check_stream_store(w, from, want, op_names[op]);
}

/* Copies out of the iterator, into the kernel buffer. */
static void do_copy_from(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	size_t n = gen_size(w, BUF_SIZE);
	size_t want = min(n, w->count), exp = reach(w, want, false);
	size_t check = min_t(size_t, n + MARGIN, BUF_SIZE);
	u8 *kbuf = w->b->kbuf;
	struct rec *r = record(w, op, n, 0, 0);
	bool full = op == OP_COPY_FROM_FULL || op == OP_COPY_FROM_FULL_NOCACHE;
	size_t got = 0, slack = 0, k;
	bool ok = false;

	if (full && o->full_fails_early && n > w->count)
		exp = 0;
	/*
	 * The x86 non-temporal user copy (copy_to_nontemporal(), behind the
	 * nocache and flushcache forms) moves 8 or 4 bytes at a time and
	 * stops at the first access that faults: up to 7 bytes before the
	 * first byte it may not read.
	 */
	if (op == OP_COPY_FROM_NOCACHE || op == OP_COPY_FROM_FULL_NOCACHE ||
	    op == OP_COPY_FROM_FLUSHCACHE)
		slack = exp < want ? min_t(size_t, exp, 7) : 0;
	memset(kbuf, POISON, check);
	switch (op) {
	case OP_COPY_FROM:
		got = o->copy_from_iter(kbuf, n, w->it);
		break;
	case OP_COPY_FROM_NOCACHE:
		got = o->copy_from_iter_nocache(kbuf, n, w->it);
		break;
	case OP_COPY_FROM_FLUSHCACHE:
		got = o->copy_from_iter_flushcache(kbuf, n, w->it);
		break;
	case OP_COPY_FROM_FULL:
		ok = o->copy_from_iter_full(kbuf, n, w->it);
		break;
	default:
		ok = o->copy_from_iter_full_nocache(kbuf, n, w->it);
		break;
	}
	if (full) {
		r->ret = ok;
		EXPECT(w, ok == (exp == n), "returned %d, %#zx of %#zx bytes can be read",
		       ok, exp, n);
	} else {
		r->ret = got;
		if (got < exp && (got + slack >= exp || (!EXACT_USER_FAULTS && got)))
			exp = got;
		EXPECT(w, got == exp, "copied %#zx, expected %#zx of %#zx", got, exp, n);
	}
	memset(w->b->expect, POISON, check);
	model_read(w, w->pos, exp, w->b->expect);
	/*
	 * A failed all-or-nothing copy does not say where it stopped: cut
	 * the expected prefix where the poison starts (if a byte of data
	 * happens to be the poison, a little early, which does no harm).
	 */
	for (k = exp; full && k > exp - slack && kbuf[k - 1] == POISON; k--)
		w->b->expect[k - 1] = POISON;
	if (!w->failed && memcmp(kbuf, w->b->expect, check)) {
		for (k = 0; kbuf[k] == w->b->expect[k]; k++)
			;
		diverge(w, "buffer byte %#zx is %#x, expected %#x", k, kbuf[k],
			w->b->expect[k]);
	}
	if (!full || ok)
		moved(w, full ? n : exp);
}

/* A span of the page buffer: a page of the folio and an offset from it. */
static size_t gen_span(struct world *w, unsigned int *pg, size_t *off, size_t *n)
{
	size_t room;

	*pg = below(w, 1U << PBUF_ORDER);
	if (w->ops->page_copies_in_page) {
		room = PAGE_SIZE;
		*off = below(w, PAGE_SIZE);
	} else {
		room = PBUF_SIZE - *pg * PAGE_SIZE;
		*off = chance(w, 30) ? below(w, PAGE_SIZE) : below(w, room + 1);
	}
	*n = min(gen_size(w, room), room - *off);
	return *pg * PAGE_SIZE + *off;
}

/*
 * How far copy_page_to_iter_nofault() gets: it copies in steps, each the
 * part of one page of the source that lands in one segment, and a step
 * with a byte it cannot write is not counted and ends the copy.  That step
 * is not undone, though: the bytes of it before the fault may have been
 * written all the same.  Their store offset and number go to @at and @maybe.
 */
static size_t reach_nofault(struct world *w, size_t base, size_t want, size_t *at,
			    size_t *maybe)
{
	struct walk wk;
	struct piece p;
	size_t done = 0;

	*maybe = 0;
	if (!is_user(w))
		return want;
	walk_init(&wk, w, w->pos, want);
	while (walk_next(&wk, &p)) {
		size_t k = 0;

		while (k < p.len) {
			size_t step = min(p.len - k, PAGE_SIZE - (base + done) % PAGE_SIZE);

			*maybe = user_ok(w, p.at + k, step, true);
			if (*maybe < step) {
				*at = p.at + k;
				return done;
			}
			done += step;
			k += step;
		}
	}
	*maybe = 0;
	return done;
}

/*
 * Store bytes [at, at + len) hold either what they held or @src: take
 * whichever it is into the shadow.
 */
static void settle(struct world *w, size_t at, const u8 *src, size_t len)
{
	u8 *real = w->b->real;
	size_t k;

	if (!len || store_read(w, at, real, len))
		return;
	for (k = 0; k < len; k++) {
		if (real[k] != w->b->shadow[at + k] && real[k] != src[k]) {
			diverge(w, "store byte %#zx is %#x, expected %#x or %#x", at + k,
				real[k], w->b->shadow[at + k], src[k]);
			return;
		}
		w->b->shadow[at + k] = real[k];
	}
}

/* copy_page_to_iter() and its nofault form: from the page buffer. */
static void do_page_to(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	unsigned int pg;
	size_t off, n, base = gen_span(w, &pg, &off, &n);
	size_t want = min(n, w->count), from = w->pos, exp, got, at = 0, maybe = 0;
	struct page *page = folio_page(w->b->pbuf, pg);
	struct rec *r = record(w, op, pg, off, n);

	if (op == OP_PAGE_TO) {
		exp = reach(w, want, true);
		got = o->copy_page_to_iter(page, off, n, w->it);
	} else {
		exp = reach_nofault(w, base, want, &at, &maybe);
		got = o->copy_page_to_iter_nofault(page, off, n, w->it);
	}
	r->ret = got;
	if (!EXACT_USER_FAULTS && got < exp && got)
		exp = got;
	EXPECT(w, got == exp, "copied %#zx, expected %#zx of %#zx", got, exp, n);
	model_write(w, from, exp, w->b->pshadow + base);
	if (got == exp)
		settle(w, at, w->b->pshadow + base + exp, maybe);
	moved(w, exp);
	check_stream_store(w, from, want, op_names[op]);
}

/* copy_page_from_iter() and its atomic form: into the page buffer. */
static void do_page_from(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	unsigned int pg;
	size_t off, n, base = gen_span(w, &pg, &off, &n);
	size_t want = min(n, w->count), exp = reach(w, want, false), got;
	struct page *page = folio_page(w->b->pbuf, pg);
	struct rec *r = record(w, op, pg, off, n);

	if (op == OP_PAGE_FROM) {
		got = o->copy_page_from_iter(page, off, n, w->it);
	} else {
		pagefault_disable();
		got = o->copy_page_from_iter_atomic(page, off, n, w->it);
		pagefault_enable();
	}
	r->ret = got;
	if (!EXACT_USER_FAULTS && got < exp && got)
		exp = got;
	EXPECT(w, got == exp, "copied %#zx, expected %#zx of %#zx", got, exp, n);
	model_read(w, w->pos, exp, w->b->pshadow + base);
	moved(w, exp);
	check_pbuf(w, base, n);
}

/*
 * fault_in_iov_iter_*(): the bytes of the request not faulted in.  Faulting
 * in goes page by page, so a segment counts as far as the start of its
 * first bad page; bytes past the count are not faulted in.
 */
static void do_fault_in(struct world *w, enum op op)
{
	bool write = op == OP_FAULT_IN_WRITEABLE;
	size_t n = chance(w, 10) ? SIZE_MAX - below(w, 2) : gen_size(w, SIZE_MAX);
	size_t want = min(n, w->count), done = 0, exp = 0, got;
	struct rec *r = record(w, op, n, 0, 0);
	struct walk wk;
	struct piece p;

	if (is_user(w)) {
		walk_init(&wk, w, w->pos, want);
		while (walk_next(&wk, &p)) {
			size_t ok = user_ok(w, p.at, p.len, write);

			/* ok ends where the first bad page starts, or is 0. */
			done += ok;
			if (ok < p.len)
				break;
		}
		exp = n - done;
	}
	if (write)
		got = w->ops->fault_in_writeable(w->it, n);
	else
		got = w->ops->fault_in_readable(w->it, n);
	r->ret = got;
	EXPECT(w, got == exp, "%#zx not faulted in, expected %#zx", got, exp);
}

/* The expected outcome of an operation that returns pages. */
struct want_pages {
	ssize_t ret;
	size_t start;		/* store offset of the first byte */
	unsigned int n;		/* pages */
};

/*
 * iov_iter_get_pages2() and iov_iter_extract_pages(): the pages holding
 * the next bytes, from one segment only (the first that is not empty),
 * at most @maxpages of them, the bytes covered cut at @maxsize, at
 * MAX_RW_COUNT and at the end of the last page; user pages up to the first
 * one that cannot be had.  Nothing for ITER_DISCARD, and nothing for
 * ITER_KVEC from get_pages (-EFAULT).
 */
static void want_pages(struct world *w, bool get, size_t maxsize, unsigned int maxpages,
		       struct want_pages *want)
{
	size_t size = min3(maxsize, w->count, (size_t)MAX_RW_COUNT), off, ok;
	struct walk wk;
	struct piece p;
	unsigned int n;

	want->ret = 0;
	want->n = 0;
	if (!size || !maxpages)
		return;
	if (w->type == ITER_DISCARD || (get && w->type == ITER_KVEC)) {
		want->ret = -EFAULT;
		return;
	}
	walk_init(&wk, w, w->pos, size);
	if (!walk_next(&wk, &p))
		return;
	size = p.len;
	off = p.at % PAGE_SIZE;
	n = min_t(size_t, maxpages, DIV_ROUND_UP(off + size, PAGE_SIZE));
	if (is_user(w)) {
		ok = user_ok(w, p.at - off, n * PAGE_SIZE, w->dir == ITER_DEST);
		n = ok / PAGE_SIZE;
		if (!n) {
			want->ret = -EFAULT;
			return;
		}
	}
	want->ret = min(size, n * PAGE_SIZE - off);
	want->start = p.at;
	want->n = n;
}

/* The page behind user address @uaddr now, without keeping a reference. */
static struct page *user_page(unsigned long uaddr)
{
	struct page *page;

	if (get_user_pages_fast(uaddr & PAGE_MASK, 1, 0, &page) != 1)
		return NULL;
	put_page(page);
	return page;
}

/* The page the model says holds store offset @at. */
static struct page *model_page(struct world *w, size_t at)
{
	if (is_user(w))
		return user_page(w->uaddr + at);
	return store_page(w, at);
}

static void save_refs(struct world *w, long *refs)
{
	unsigned int f;

	for (f = 0; f < w->nr_folios; f++)
		refs[f] = folio_ref_count(w->folios[f]);
}

/*
 * Each folio of a folio store has @delta references more than saved for
 * each of its pages among @pages.
 */
static void check_refs(struct world *w, const long *base, struct page **pages, unsigned int n,
		       long delta, const char *when)
{
	unsigned int f, k;

	for (f = 0; f < w->nr_folios && !w->failed; f++) {
		long same = 0;

		for (k = 0; k < n; k++)
			same += page_folio(pages[k]) == w->folios[f];
		EXPECT(w, folio_ref_count(w->folios[f]) == base[f] + delta * same,
		       "%s: folio %u has %d references, expected %ld", when, f,
		       folio_ref_count(w->folios[f]), base[f] + delta * same);
	}
}

/*
 * Drop what get_pages or extract_pages took on user pages, checking that
 * each page was held: one reference, or one pin, per listing.  The pages
 * of a segment are distinct, but for the zero page (read-only holes), whose
 * pins are not counted, and large folios, left out of the count check.
 */
static void release_user_pages(struct world *w, struct page **pages, unsigned int n, bool pin)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		struct folio *folio = page_folio(pages[k]);
		bool counted = !is_zero_folio(folio) && !folio_test_large(folio);
		int before = folio_ref_count(folio);

		if (pin && counted)
			EXPECT(w, folio_maybe_dma_pinned(folio), "page %u is not pinned", k);
		if (pin)
			unpin_user_page(pages[k]);
		else
			put_page(pages[k]);
		if (counted)
			EXPECT(w, before - folio_ref_count(folio) ==
			       (pin ? GUP_PIN_COUNTING_BIAS : 1),
			       "page %u: %d references before release, %d after", k, before,
			       folio_ref_count(folio));
	}
}

/* get_pages2, get_pages_alloc2 and extract_pages. */
static void do_pages(struct world *w, enum op op)
{
	const struct iov_model_ops *o = w->ops;
	bool get = op != OP_EXTRACT_PAGES, user = is_user(w);
	bool alloc = op == OP_GET_PAGES_ALLOC ||
		     (op == OP_EXTRACT_PAGES && !o->fixed_pages && chance(w, 30));
	size_t maxsize = chance(w, 20) ? SIZE_MAX : gen_size(w, SIZE_MAX);
	unsigned int maxpages = op == OP_GET_PAGES_ALLOC ? UINT_MAX :
				chance(w, 10) && op == OP_GET_PAGES && !o->fixed_pages ? 0 :
				between(w, 1, MAX_PAGES);
	struct page **pages = alloc ? NULL : w->b->pages;
	struct want_pages want;
	size_t start = SIZE_MAX;
	struct rec *r;
	unsigned int k;
	ssize_t ret;

	/* Big arrays cost time: a few dozen pages at most. */
	if (alloc)
		maxsize = min_t(size_t, maxsize, MAX_PAGES * PAGE_SIZE - PAGE_SIZE);
	r = record(w, op, maxsize, maxpages, alloc);
	want_pages(w, op != OP_EXTRACT_PAGES, maxsize, maxpages, &want);
	save_refs(w, w->b->refs);
	switch (op) {
	case OP_GET_PAGES:
		ret = o->get_pages(w->it, pages, maxsize, maxpages, &start);
		break;
	case OP_GET_PAGES_ALLOC:
		ret = o->get_pages_alloc(w->it, &pages, maxsize, &start);
		break;
	default:
		ret = o->extract_pages(w->it, &pages, maxsize, maxpages,
				       chance(w, 20) ? ITER_ALLOW_P2PDMA : 0, &start);
		break;
	}
	r->ret = ret;
	EXPECT(w, ret == want.ret, "returned %zd, expected %zd", ret, want.ret);
	if (op == OP_GET_PAGES_ALLOC && ret <= 0)
		EXPECT(w, !pages, "array %p left for no pages", pages);
	if (w->failed || ret <= 0) {
		if (alloc)
			kvfree(pages);
		return;
	}
	EXPECT(w, start == want.start % PAGE_SIZE, "start %#zx, expected %#zx", start,
	       want.start % PAGE_SIZE);
	for (k = 0; k < want.n && !w->failed; k++) {
		struct page *page = model_page(w, want.start - want.start % PAGE_SIZE +
						  k * PAGE_SIZE);

		EXPECT(w, pages[k] == page, "page %u is %p, expected %p", k, pages[k], page);
	}
	if (!user) {
		check_refs(w, w->b->refs, pages, want.n, get ? 1 : 0, "with the pages");
		if (get)
			for (k = 0; k < want.n; k++)
				put_page(pages[k]);
		check_refs(w, w->b->refs, pages, want.n, 0, "after release");
	} else {
		release_user_pages(w, pages, want.n, !get);
	}
	if (alloc)
		kvfree(pages);
	skipped(w, ret, op_names[op]);
}

struct want_sg {
	struct page *page;
	size_t offset, length;
	size_t at;		/* store offset of its first byte */
};

/*
 * extract_iter_to_sg(): up to @maxsize bytes from the position in at most
 * @sg_max entries: one per page for user and kvec memory, one per segment
 * for bio_vecs (its page and offset as given), one per folio for folio
 * queues and xarrays (the folio and the offset in it).  Returns the bytes,
 * and the entries in @sg.
 *
 * A user page that cannot be pinned fails the whole call with -EFAULT: no
 * entry, and the iterator does not move.
 */
static ssize_t want_sg(struct world *w, size_t maxsize, unsigned int sg_max,
		       struct want_sg *sg, unsigned int *nents)
{
	size_t done = 0;
	struct walk wk;
	struct piece p;

	*nents = 0;
	walk_init(&wk, w, w->pos, min(maxsize, w->count));
	while (*nents < sg_max && walk_next(&wk, &p)) {
		size_t k = 0;

		while (k < p.len && *nents < sg_max) {
			struct want_sg *e = &sg[*nents];
			size_t at = p.at + k, room = p.len - k;
			unsigned int f;

			switch (w->type) {
			case ITER_BVEC:
				e->page = w->seg[p.seg].bv_page;
				e->offset = w->seg[p.seg].bv_off + p.in + k;
				break;
			case ITER_XARRAY:
			case ITER_FOLIOQ:
				f = folio_at(w, at);
				e->page = folio_page(w->folios[f], 0);
				e->offset = at - w->fstart[f];
				room = min(room, w->fstart[f + 1] - at);
				break;
			default:
				e->page = NULL;
				e->offset = at % PAGE_SIZE;
				room = min(room, PAGE_SIZE - e->offset);
				if (is_user(w) && !user_page_ok(w, at, w->dir == ITER_DEST)) {
					*nents = 0;
					return -EFAULT;
				}
				break;
			}
			e->length = room;
			e->at = at;
			(*nents)++;
			k += room;
			done += room;
		}
	}
	return done;
}

static void do_extract_sg(struct world *w)
{
	size_t maxsize = chance(w, 5) ? 0 : between(w, 1, max_t(size_t, w->count, 1));
	unsigned int sg_max = chance(w, 5) ? 0 : between(w, 1, MAX_SG), nents, k;
	unsigned int flags = chance(w, 20) ? (__force unsigned int)ITER_ALLOW_P2PDMA : 0;
	struct want_sg *want = (struct want_sg *)w->b->expect;
	struct sg_table sgt = {};
	struct rec *r;
	ssize_t exp, ret;

	/* What the iterator holds, no more: past it, the kernel types warn. */
	if (maxsize > w->count)
		maxsize = w->count;
	if (chance(w, 50))
		maxsize = min(maxsize, gen_size(w, maxsize));
	r = record(w, OP_EXTRACT_SG, maxsize, sg_max, flags);
	nents = 0;
	exp = maxsize && sg_max ? want_sg(w, maxsize, sg_max, want, &nents) : 0;
	sgt.sgl = kmalloc_array(max(sg_max, 1U), sizeof(*sgt.sgl), GFP_KERNEL);
	if (!sgt.sgl)
		return;
	sg_init_table(sgt.sgl, max(sg_max, 1U));
	save_refs(w, w->b->refs);
	ret = w->ops->extract_to_sg(w->it, maxsize, &sgt, sg_max, flags);
	r->ret = ret;
	EXPECT(w, ret == exp, "returned %zd, expected %zd", ret, exp);
	EXPECT(w, sgt.nents == (ret > 0 ? nents : 0), "%u entries, expected %u", sgt.nents,
	       nents);
	EXPECT(w, !sgt.orig_nents, "orig_nents %u", sgt.orig_nents);
	for (k = 0; k < nents && k < sgt.nents && !w->failed; k++) {
		struct scatterlist *sg = &sgt.sgl[k];
		struct page *page = want[k].page ?: model_page(w, want[k].at - want[k].offset);

		EXPECT(w, sg_page(sg) == page && sg->offset == want[k].offset &&
		       sg->length == want[k].length,
		       "entry %u: page %p offset %#x length %#x, expected %p %#zx %#zx", k,
		       sg_page(sg), sg->offset, sg->length, page, want[k].offset,
		       want[k].length);
	}
	if (is_user(w)) {
		for (k = 0; k < sgt.nents; k++) {
			EXPECT(w, folio_maybe_dma_pinned(page_folio(sg_page(&sgt.sgl[k]))) ||
			       is_zero_page(sg_page(&sgt.sgl[k])), "entry %u is not pinned", k);
			unpin_user_page(sg_page(&sgt.sgl[k]));
		}
	} else {
		check_refs(w, w->b->refs, NULL, 0, 0, "after extract_iter_to_sg");
	}
	kfree(sgt.sgl);
	if (!w->failed)
		moved(w, max_t(ssize_t, exp, 0));
}

/*
 * The segments from the cursor's to the one holding the last byte, each
 * with its address at the cursor and the length of its part: what
 * iov_iter_alignment() and iov_iter_is_aligned() look at.  Calls @fn for
 * each; stops when it returns false.
 */
typedef bool (*seg_fn)(struct world *w, unsigned int k, unsigned long addr, size_t len,
		       void *arg);

static void visit_segs(struct world *w, unsigned int k, size_t off, seg_fn fn, void *arg)
{
	size_t left = w->count;

	for (; left && k < w->nsegs; k++, off = 0) {
		size_t len = min(w->seg[k].len - off, left);

		if (!fn(w, k, seg_addr(w, k, off), len, arg))
			return;
		left -= len;
	}
}

static bool or_seg(struct world *w, unsigned int k, unsigned long addr, size_t len, void *arg)
{
	unsigned long *res = arg;

	/* Empty segments do not count. */
	if (len)
		*res |= addr | len;
	return true;
}

/*
 * iov_iter_alignment(): the OR of the start address (the offset for the
 * page-based types) and length of each segment's part of the remaining
 * bytes; 0 for an empty UBUF, IOVEC, KVEC or BVEC iterator and for DISCARD.
 */
static void do_alignment(struct world *w)
{
	struct rec *r = record(w, OP_ALIGNMENT, 0, 0, 0);
	unsigned long exp = 0, got;
	unsigned int k;
	size_t off;

	if (!cursor(w, &k, &off))
		return;
	switch (w->type) {
	case ITER_UBUF:
		exp = w->count ? (w->uaddr + w->start + w->pos) | w->count : 0;
		break;
	case ITER_XARRAY:
		exp = (w->start + w->pos) | w->count;
		break;
	case ITER_FOLIOQ:
		exp = off | w->count;
		break;
	case ITER_DISCARD:
		break;
	default:
		visit_segs(w, k, off, or_seg, &exp);
		break;
	}
	got = w->ops->alignment(w->it);
	r->ret = got;
	EXPECT(w, got == exp, "%#lx, expected %#lx", got, exp);
}

/*
 * iov_iter_npages(): the pages each segment's part of the remaining bytes
 * spans, added up, at most @maxpages; 0 for ITER_DISCARD.  An empty
 * segment spans no page.
 */
static void do_npages(struct world *w)
{
	int maxpages = chance(w, 30) ? INT_MAX : below(w, 20);
	struct rec *r = record(w, OP_NPAGES, maxpages, 0, 0);
	size_t pages = 0, off;
	struct walk wk;
	struct piece p;
	unsigned int k;
	int got;

	if (!cursor(w, &k, &off))
		return;
	if (w->type != ITER_DISCARD) {
		walk_init(&wk, w, w->pos, w->count);
		while (walk_next(&wk, &p))
			pages += DIV_ROUND_UP(p.at % PAGE_SIZE + p.len, PAGE_SIZE);
	}
	got = w->ops->npages(w->it, maxpages);
	r->ret = got;
	EXPECT(w, got == min_t(size_t, pages, maxpages), "%d pages, expected %zu (max %d)",
	       got, pages, maxpages);
}

struct masks {
	unsigned int addr, len;
	bool aligned;
};

static bool check_seg(struct world *w, unsigned int k, unsigned long addr, size_t len,
		      void *arg)
{
	struct masks *m = arg;

	if ((addr & m->addr) || (len & m->len))
		m->aligned = false;
	return m->aligned;
}

/*
 * iov_iter_is_aligned(): no address or length of the parts of the segments
 * that hold the remaining bytes has a bit of the masks set.  The
 * single-range types have one such part, whose address is checked even
 * when it is empty; an empty vector iterator has none.
 */
static void do_is_aligned(struct world *w)
{
	struct masks m = { .addr = gen_mask(w), .len = gen_mask(w), .aligned = true };
	struct rec *r = record(w, OP_IS_ALIGNED, m.addr, m.len, 0);
	unsigned int k;
	size_t off;
	bool got;

	if (!cursor(w, &k, &off))
		return;
	switch (w->type) {
	case ITER_UBUF:
		check_seg(w, 0, w->uaddr + w->start + w->pos, w->count, &m);
		break;
	case ITER_XARRAY:
		check_seg(w, 0, w->start + w->pos, w->count, &m);
		break;
	case ITER_FOLIOQ:
		check_seg(w, 0, off, w->count, &m);
		break;
	case ITER_DISCARD:
		break;
	default:
		visit_segs(w, k, off, check_seg, &m);
		break;
	}
	got = w->ops->is_aligned(w->it, m.addr, m.len);
	r->ret = got;
	EXPECT(w, got == m.aligned, "%d, expected %d", got, m.aligned);
}

/*
 * iov_iter_single_seg_count(): for a vector iterator with more than one
 * segment left, what is left of the current one, capped at the count; for
 * ITER_FOLIOQ the size of the folio the next byte is in, capped at the
 * count; otherwise the count.
 */
static void do_single_seg(struct world *w)
{
	size_t exp = w->count, off, got;
	struct rec *r;
	unsigned int k;

	r = record(w, OP_SINGLE_SEG, 0, 0, 0);
	if (!cursor(w, &k, &off))
		return;
	if (is_vec(w) && w->nsegs - k > 1)
		exp = min(w->count, w->seg[k].len - off);
	if (w->type == ITER_FOLIOQ && w->count) {
		unsigned int f = folio_at(w, w->start + w->pos);

		/* At the end of a folio, the cursor may still be in it. */
		if (k < w->nr_folios && off == w->fstart[k + 1] - w->fstart[k])
			f = k;
		exp = min(w->count, w->fstart[f + 1] - w->fstart[f]);
	}
	got = w->ops->single_seg_count(w->it);
	r->ret = got;
	EXPECT(w, got == exp, "%#zx, expected %#zx", got, exp);
}

static enum op pick_op(struct world *w)
{
	unsigned int total = 0, x;
	enum op op;

	for (op = 0; op < NR_OPS; op++)
		if (op_applies(w, op))
			total += op_weight[op];
	if (!total)
		return NR_OPS;
	x = below(w, total);
	for (op = 0; op < NR_OPS; op++) {
		if (!op_applies(w, op))
			continue;
		if (x < op_weight[op])
			break;
		x -= op_weight[op];
	}
	return op;
}

static void do_step(struct world *w)
{
	unsigned long nlog = w->nlog;
	enum op op = pick_op(w);

	switch (op) {
	case OP_ADVANCE:
	case OP_REVERT:
	case OP_TRUNCATE:
	case OP_REEXPAND:
	case OP_SAVE:
	case OP_RESTORE:
		do_cursor(w, op);
		break;
	case OP_DUP:
		do_dup(w);
		break;
	case OP_COPY_TO:
	case OP_COPY_TO_FULL:
	case OP_COPY_MC_TO:
	case OP_ZERO:
		do_copy_to(w, op);
		break;
	case OP_COPY_FROM:
	case OP_COPY_FROM_FULL:
	case OP_COPY_FROM_NOCACHE:
	case OP_COPY_FROM_FULL_NOCACHE:
	case OP_COPY_FROM_FLUSHCACHE:
		do_copy_from(w, op);
		break;
	case OP_PAGE_TO:
	case OP_PAGE_TO_NOFAULT:
		do_page_to(w, op);
		break;
	case OP_PAGE_FROM:
	case OP_PAGE_FROM_ATOMIC:
		do_page_from(w, op);
		break;
	case OP_FAULT_IN_READABLE:
	case OP_FAULT_IN_WRITEABLE:
		do_fault_in(w, op);
		break;
	case OP_GET_PAGES:
	case OP_GET_PAGES_ALLOC:
	case OP_EXTRACT_PAGES:
		do_pages(w, op);
		break;
	case OP_EXTRACT_SG:
		do_extract_sg(w);
		break;
	case OP_NPAGES:
		do_npages(w);
		break;
	case OP_ALIGNMENT:
		do_alignment(w);
		break;
	case OP_IS_ALIGNED:
		do_is_aligned(w);
		break;
	case OP_SINGLE_SEG:
		do_single_seg(w);
		break;
	default:
		return;
	}
	if (w->nlog != nlog)
		w->b->ops[op]++;
	if (w->run->trace && w->nlog != nlog) {
		const struct rec *r = &w->log[(w->nlog - 1) % LOG_LEN];

		kunit_info(w->test, "step %lu: %s(%#llx, %#llx, %#llx) at pos %#zx count %#zx -> %lld",
			   w->step, op_names[op], r->a, r->b, r->c, r->pos, r->count, r->ret);
	}
	check_iter(w);
	if (w->step % FULL_CHECK == 0)
		check_all(w);
}

/* ---- the runner ---------------------------------------------------------- */

static int alloc_bufs(struct kunit *test, struct bufs *b, u64 seed)
{
	b->shadow = vmalloc(STORE_PAGES * PAGE_SIZE);
	b->real = vmalloc(BUF_SIZE + PBUF_SIZE);
	b->kbuf = vmalloc(BUF_SIZE);
	b->expect = vmalloc(BUF_SIZE);
	b->src = vmalloc(SRC_SIZE);
	b->pshadow = vmalloc(PBUF_SIZE);
	b->pbuf = folio_alloc(GFP_KERNEL, PBUF_ORDER);
	if (!b->shadow || !b->real || !b->kbuf || !b->expect || !b->src || !b->pshadow ||
	    !b->pbuf)
		return -ENOMEM;
	BUILD_BUG_ON(sizeof(struct want_sg) * MAX_SG > BUF_SIZE);
	fill_random(mix(seed ^ 1), b->src, SRC_SIZE);
	fill_random(mix(seed ^ 2), b->pshadow, PBUF_SIZE);
	memcpy_to_folio(b->pbuf, 0, b->pshadow, PBUF_SIZE);
	return 0;
}

static void free_bufs(struct bufs *b)
{
	vfree(b->shadow);
	vfree(b->real);
	vfree(b->kbuf);
	vfree(b->expect);
	vfree(b->src);
	vfree(b->pshadow);
	if (b->pbuf)
		folio_put(b->pbuf);
}

/* How often each operation ran, to show what a run covered. */
static void show_counts(struct kunit *test, const struct bufs *b)
{
	char line[400];
	size_t len = 0;
	enum op op;

	for (op = 0; op < NR_OPS; op++) {
		if (b->ops[op])
			len += scnprintf(line + len, sizeof(line) - len, "%s%s %lu",
					 len ? ", " : "", op_names[op], b->ops[op]);
		/* In a few lines, which printk() would cut if longer. */
		if (len && (len > 250 || op == NR_OPS - 1)) {
			kunit_info(test, "%s", line);
			len = 0;
		}
	}
}

/*
 * Adopt the iterator the executor made over the world's segments: it must
 * be the one iov_iter_kvec() or iov_iter_bvec() makes over them, with the
 * whole length as its count, which the engine then truncates to the
 * world's.
 */
static bool adopt(struct world *w, struct iov_iter *i)
{
	EXPECT(w, i->iter_type == w->type && i->data_source == w->dir && !i->nofault &&
	       !i->iov_offset && i->nr_segs == w->nsegs && i->count == w->extent,
	       "the executor made type %u dir %u nofault %u offset %#zx segments %lu count %#zx",
	       i->iter_type, i->data_source, i->nofault, i->iov_offset, i->nr_segs, i->count);
	if (w->failed)
		return false;
	w->it_array = i->kvec;
	w->cur_array = i->kvec;
	check_segs(w, w->it_array, true, "the executor's array");
	iov_iter_truncate(i, w->count);
	return !w->failed;
}

/* The world's steps on @i, and the checks at its end. */
static void run_steps(struct iov_iter *i, void *world)
{
	struct world *w = world;

	w->it = i;
	if (i != &w->iter && !adopt(w, i))
		return;
	if (w->run->trace)
		show_state(w);
	check_iter(w);
	for (w->step = 1; w->step <= w->steps && !w->failed; w->step++) {
		do_step(w);
		cond_resched();
	}
	if (!w->failed) {
		check_all(w);
		check_refs(w, w->refs0, NULL, 0, 0, "at the end");
	}
}

/*
 * Run the steps on the engine's iterator, or on the executor's own over the
 * same segments.  Returns 0 or the executor's error.
 */
static int run_iter(struct world *w)
{
	const struct iov_model_ops *o = w->ops;
	int err = 0;

	if (!lent(w))
		run_steps(&w->iter, w);
	else if (w->type == ITER_KVEC)
		err = o->iter_kvec(w->dir, w->array, w->nsegs, run_steps, w);
	else
		err = o->iter_bvec(w->dir, w->array, w->nsegs, run_steps, w);
	if (!err && !w->it)
		err = -EINVAL;	/* run_steps() never ran */
	/* The executor's iterator is gone: nothing may show it any more. */
	w->it = &w->iter;
	return err;
}

/* Run world @seed for at most @budget steps; returns the steps run. */
static unsigned long run_world(struct kunit *test, const struct iov_model_ops *ops,
			       struct iov_model_params *run, struct bufs *b, u64 seed,
			       unsigned long budget)
{
	struct world *w = kzalloc(sizeof(*w), GFP_KERNEL);
	unsigned long done;
	int err;

	if (!w) {
		KUNIT_FAIL(test, "out of memory");
		return budget;
	}
	w->test = test;
	w->ops = ops;
	w->run = run;
	w->b = b;
	w->seed = seed;
	w->rng = mix(seed);
	w->type = iov_model_seed_type(seed);
	w->first_op = run->done;
	w->steps = min_t(unsigned long, between(w, 16, 256), budget);
	w->step = 1;
	run->worlds++;
	if (make_world(w)) {
		KUNIT_FAIL(test, "world %#llx: cannot make it", seed);
		free_world(w);
		kfree(w);
		return budget;
	}
	save_refs(w, w->refs0);
	err = run_iter(w);
	if (err)
		KUNIT_FAIL(test, "world %#llx: the %s executor did not run it: %d", seed,
			   ops->name, err);
	done = err ? budget : w->step - 1;
	free_world(w);
	kfree(w);
	return done;
}

/**
 * iov_model_run() - Test the iov_iter API through an executor.
 * @test: The KUnit test this runs in: it fails at the first divergence.
 * @ops: The executor.
 * @params: What to run, and where the results go.
 *
 * Run @params->ops random operations on iterators of @params->type, in
 * worlds of a few dozen to a few hundred operations each, every world with
 * its own seed derived from @params->seed; or, if @params->replay is set,
 * the one world with that seed.  Needs a task that may map user memory
 * (as a KUnit test may, with kunit_vm_mmap()), and sleeps.
 */
void iov_model_run(struct kunit *test, const struct iov_model_ops *ops,
		   struct iov_model_params *params)
{
	struct bufs *b = kzalloc(sizeof(*b), GFP_KERNEL);
	unsigned long n;

	params->done = 0;
	params->worlds = 0;
	params->divergences = 0;
	/* Give the test thread an mm, for the user mappings. */
	KUNIT_ASSERT_NE(test, 0, kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ,
					       MAP_ANONYMOUS | MAP_PRIVATE, 0));
	if (!b || alloc_bufs(test, b, params->seed)) {
		KUNIT_FAIL(test, "out of memory");
		goto out;
	}
	if (params->replay)
		params->done = run_world(test, ops, params, b, params->replay, ULONG_MAX);
	for (n = 0; !params->replay && params->done < params->ops; n++) {
		u64 seed = (mix(params->seed ^ mix(n)) & ~7ULL) | params->type;
		unsigned long diverged = params->divergences;

		params->done += run_world(test, ops, params, b, seed, params->ops - params->done);
		/*
		 * A world that diverged may leave the page buffer unlike its
		 * shadow: start the next one even, so that it reports only its
		 * own divergences.
		 */
		if (params->divergences != diverged)
			memcpy_from_folio(b->pshadow, b->pbuf, 0, PBUF_SIZE);
		/* A few failures tell enough; more would flood the log. */
		if (params->divergences >= 3)
			break;
	}
	show_counts(test, b);
out:
	if (b)
		free_bufs(b);
	kfree(b);
}
EXPORT_SYMBOL_GPL(iov_model_run);
