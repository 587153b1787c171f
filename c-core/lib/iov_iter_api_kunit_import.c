// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite iov_iter_api_import: importing iovecs from user space with
 * import_iovec() and import_ubuf().
 */

#include "iov_iter_api_kunit.h"

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
	const struct iov_kunit_layout *layout = &iov_kunit_vec_layouts[0];
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

kunit_test_suite(iov_kunit_import_suite);
