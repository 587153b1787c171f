// SPDX-License-Identifier: GPL-2.0-only
/*
 * Throughput of copy_to_iter() and copy_from_iter() for each iov_iter type.
 *
 * Every case moves the same amount of data between a kernel buffer and an
 * iterator of one type that describes the same amount of memory, and
 * reports MiB/s and the ratio to a plain memcpy() of the same size measured
 * in the same case, as KTAP diagnostics.  Only the ratios are meaningful
 * when comparing runs on different machines or emulators.
 *
 * Run it by enabling CONFIG_IOV_ITER_BENCH_KUNIT_TEST.  The amount of data
 * per measurement is the "rounds" module parameter times BENCH_SIZE; when
 * built in, set it with iov_iter_bench_kunit.rounds=N on the command line.
 */

#include <kunit/test.h>
#include <linux/bvec.h>
#include <linux/folio_queue.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#define BENCH_PAGES	64
#define BENCH_SIZE	(BENCH_PAGES * PAGE_SIZE)
/* Segments of the vector types: 16 of 16 KiB, like a typical readv(). */
#define BENCH_SEGS	16

static unsigned int rounds = 128;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "copies of 256 KiB per measurement (default 128)");

struct bench {
	struct kunit *test;
	enum iter_type type;
	unsigned long uaddr;		/* UBUF, IOVEC */
	u8 *kaddr;			/* KVEC */
	u8 *buf;			/* the kernel side of every copy */
	struct page *pages[BENCH_PAGES];	/* BVEC, XARRAY, FOLIOQ */
	struct iovec iov[BENCH_SEGS];
	struct kvec kvec[BENCH_SEGS];
	struct bio_vec bvec[BENCH_PAGES];
	struct xarray xa;
	struct folio_queue *fq;
};

KUNIT_DEFINE_ACTION_WRAPPER(bench_vfree, vfree, const void *);
KUNIT_DEFINE_ACTION_WRAPPER(bench_put_page, put_page, struct page *);
KUNIT_DEFINE_ACTION_WRAPPER(bench_xa_destroy, xa_destroy, struct xarray *);

static void bench_free_folioq(void *data)
{
	struct folio_queue *fq = data, *next;

	for (; fq; fq = next) {
		next = fq->next;
		kfree(fq);
	}
}

static u8 *bench_vmalloc(struct kunit *test)
{
	u8 *p = vmalloc(BENCH_SIZE);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_vfree, p));
	memset(p, 0x5a, BENCH_SIZE);
	return p;
}

static void bench_setup(struct kunit *test, struct bench *b, enum iter_type type)
{
	struct folio_queue *fq = NULL;
	unsigned int i;

	b->test = test;
	b->type = type;
	b->buf = bench_vmalloc(test);
	switch (type) {
	case ITER_UBUF:
	case ITER_IOVEC:
		b->uaddr = kunit_vm_mmap(test, NULL, 0, BENCH_SIZE, PROT_READ | PROT_WRITE,
					 MAP_ANONYMOUS | MAP_PRIVATE, 0);
		KUNIT_ASSERT_FALSE(test, !b->uaddr || IS_ERR_VALUE(b->uaddr));
		/* Make every page resident: measure copies, not faults. */
		for (i = 0; i < BENCH_PAGES; i++)
			KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)b->uaddr +
							     i * PAGE_SIZE, b->buf, PAGE_SIZE));
		break;
	case ITER_KVEC:
		b->kaddr = bench_vmalloc(test);
		break;
	case ITER_BVEC:
	case ITER_XARRAY:
	case ITER_FOLIOQ:
		for (i = 0; i < BENCH_PAGES; i++) {
			b->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
			KUNIT_ASSERT_NOT_NULL(test, b->pages[i]);
			KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_put_page,
									   b->pages[i]));
		}
		break;
	default:
		break;
	}

	if (type == ITER_XARRAY) {
		xa_init(&b->xa);
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_xa_destroy,
								   &b->xa));
		for (i = 0; i < BENCH_PAGES; i++)
			KUNIT_ASSERT_FALSE(test, xa_is_err(xa_store(&b->xa, i,
								    page_folio(b->pages[i]),
								    GFP_KERNEL)));
	}
	if (type == ITER_FOLIOQ) {
		for (i = 0; i < BENCH_PAGES; i++) {
			if (!fq || folioq_full(fq)) {
				struct folio_queue *next = kzalloc(sizeof(*next), GFP_KERNEL);

				KUNIT_ASSERT_NOT_NULL(test, next);
				folioq_init(next, 0);
				if (fq) {
					fq->next = next;
					next->prev = fq;
				} else {
					b->fq = next;
					KUNIT_ASSERT_EQ(test, 0,
							kunit_add_action_or_reset(test,
										  bench_free_folioq,
										  next));
				}
				fq = next;
			}
			folioq_append(fq, page_folio(b->pages[i]));
		}
	}
}

/* A fresh iterator of the case's type over the whole area. */
static void bench_iter(struct bench *b, struct iov_iter *iter, unsigned int dir)
{
	const size_t seg = BENCH_SIZE / BENCH_SEGS;
	unsigned int i;

	switch (b->type) {
	case ITER_UBUF:
		iov_iter_ubuf(iter, dir, (void __user *)b->uaddr, BENCH_SIZE);
		break;
	case ITER_IOVEC:
		for (i = 0; i < BENCH_SEGS; i++) {
			b->iov[i].iov_base = (void __user *)(b->uaddr + i * seg);
			b->iov[i].iov_len = seg;
		}
		iov_iter_init(iter, dir, b->iov, BENCH_SEGS, BENCH_SIZE);
		break;
	case ITER_KVEC:
		for (i = 0; i < BENCH_SEGS; i++) {
			b->kvec[i].iov_base = b->kaddr + i * seg;
			b->kvec[i].iov_len = seg;
		}
		iov_iter_kvec(iter, dir, b->kvec, BENCH_SEGS, BENCH_SIZE);
		break;
	case ITER_BVEC:
		for (i = 0; i < BENCH_PAGES; i++)
			bvec_set_page(&b->bvec[i], b->pages[i], PAGE_SIZE, 0);
		iov_iter_bvec(iter, dir, b->bvec, BENCH_PAGES, BENCH_SIZE);
		break;
	case ITER_XARRAY:
		iov_iter_xarray(iter, dir, &b->xa, 0, BENCH_SIZE);
		break;
	case ITER_FOLIOQ:
		iov_iter_folio_queue(iter, dir, b->fq, 0, 0, BENCH_SIZE);
		break;
	default:
		iov_iter_discard(iter, ITER_DEST, BENCH_SIZE);
		break;
	}
}

static u64 bench_mib_per_s(u64 ns)
{
	u64 bytes = (u64)rounds * BENCH_SIZE;

	return ns ? div64_u64(bytes * NSEC_PER_SEC, ns) >> 20 : 0;
}

/* Time @n copies in direction @dir; returns nanoseconds. */
static u64 bench_copies(struct bench *b, unsigned int dir, unsigned int n)
{
	struct iov_iter iter;
	u64 t0 = ktime_get_ns();
	size_t got;

	for (unsigned int r = 0; r < n; r++) {
		bench_iter(b, &iter, dir);
		if (dir == ITER_DEST)
			got = copy_to_iter(b->buf, BENCH_SIZE, &iter);
		else
			got = copy_from_iter(b->buf, BENCH_SIZE, &iter);
		KUNIT_ASSERT_EQ(b->test, got, BENCH_SIZE);
		KUNIT_ASSERT_EQ(b->test, iov_iter_count(&iter), 0);
	}
	return ktime_get_ns() - t0;
}

static void bench_run(struct kunit *test, enum iter_type type)
{
	struct bench *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	u8 *other = bench_vmalloc(test);
	u64 base, to, from = 0;

	KUNIT_ASSERT_NOT_NULL(test, b);
	bench_setup(test, b, type);

	/* One untimed round of each first, so that caches and TLBs are warm. */
	memcpy(other, b->buf, BENCH_SIZE);
	base = ktime_get_ns();
	for (unsigned int r = 0; r < rounds; r++)
		memcpy(other, b->buf, BENCH_SIZE);
	base = ktime_get_ns() - base;

	bench_copies(b, ITER_DEST, 1);
	to = bench_copies(b, ITER_DEST, rounds);
	if (type != ITER_DISCARD) {
		bench_copies(b, ITER_SOURCE, 1);
		from = bench_copies(b, ITER_SOURCE, rounds);
	}

	kunit_info(test, "memcpy %llu MiB/s; copy_to_iter %llu MiB/s (%llu%% of memcpy)",
		   bench_mib_per_s(base), bench_mib_per_s(to),
		   to ? div64_u64(base * 100, to) : 0);
	if (type != ITER_DISCARD)
		kunit_info(test, "copy_from_iter %llu MiB/s (%llu%% of memcpy)",
			   bench_mib_per_s(from), from ? div64_u64(base * 100, from) : 0);
}

#define BENCH_CASE(_t, _T)					\
static void iov_bench_##_t(struct kunit *test)			\
{								\
	bench_run(test, _T);					\
}

BENCH_CASE(ubuf, ITER_UBUF)
BENCH_CASE(iovec, ITER_IOVEC)
BENCH_CASE(kvec, ITER_KVEC)
BENCH_CASE(bvec, ITER_BVEC)
BENCH_CASE(xarray, ITER_XARRAY)
BENCH_CASE(folioq, ITER_FOLIOQ)
BENCH_CASE(discard, ITER_DISCARD)

static struct kunit_case iov_bench_cases[] = {
	KUNIT_CASE(iov_bench_ubuf),
	KUNIT_CASE(iov_bench_iovec),
	KUNIT_CASE(iov_bench_kvec),
	KUNIT_CASE(iov_bench_bvec),
	KUNIT_CASE(iov_bench_xarray),
	KUNIT_CASE(iov_bench_folioq),
	KUNIT_CASE(iov_bench_discard),
	{}
};

static struct kunit_suite iov_bench_suite = {
	.name = "iov_iter_bench",
	.test_cases = iov_bench_cases,
};

kunit_test_suites(&iov_bench_suite);

MODULE_DESCRIPTION("Throughput of iov_iter copies, per iterator type");
MODULE_LICENSE("GPL");
