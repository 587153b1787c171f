/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Rust side of the iov_iter copy benchmark (rust_iov_bench.rs), as the
 * C harness (iov_bench_kunit.c) calls it. Each copy function returns the
 * number of bytes copied, like its C twin.
 */
#ifndef _SAMPLES_IOV_BENCH_H
#define _SAMPLES_IOV_BENCH_H

#include <linux/types.h>

struct iov_iter;
struct page;
struct rust_iov_bench_pages;

struct rust_iov_bench_pages *rust_iov_bench_pages_new(size_t nr);
void rust_iov_bench_pages_free(struct rust_iov_bench_pages *p);
struct page *rust_iov_bench_page(const struct rust_iov_bench_pages *p, size_t i);

size_t rust_iov_bench_kvec_to(void *dst, const void *src, size_t len);
size_t rust_iov_bench_kvec_from(void *dst, const void *src, size_t len);
size_t rust_iov_bench_copy_to(struct iov_iter *iter, const void *src, size_t len);
size_t rust_iov_bench_copy_from(struct iov_iter *iter, void *dst, size_t len);
size_t rust_iov_bench_page_to(const struct rust_iov_bench_pages *p,
			      struct iov_iter *iter, size_t len);
size_t rust_iov_bench_page_from(struct rust_iov_bench_pages *p,
				struct iov_iter *iter, size_t len);

#endif /* _SAMPLES_IOV_BENCH_H */
