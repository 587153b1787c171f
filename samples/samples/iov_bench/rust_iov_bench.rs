// SPDX-License-Identifier: GPL-2.0

//! The Rust side of the iov_iter copy benchmark, `iov_bench_kunit.c`.
//!
//! Each function copies through [`kernel::iov`] what its C twin in `iov_bench_kunit.c` copies
//! with direct calls to the C iov_iter API, between the same buffers, so the harness can time
//! the two against each other. They are called from C, one call per copy, like the C twins.
//! The harness also uses the pages allocated here for the C page copies, so both languages
//! copy the same pages.

use kernel::bindings;
use kernel::iov::{IoSlice, IoSliceMut, IovIterDest, IovIterSource};
use kernel::page::{Page, PAGE_SIZE};
use kernel::prelude::*;

/// Pages for the page-copy paths, allocated in Rust because [`IovIterDest::copy_page_to_iter`] and
/// [`IovIterSource::copy_page_from_iter_atomic`] take a [`Page`].
pub struct BenchPages {
    pages: KVec<Page>,
}

/// Allocates `nr` zeroed pages; returns null if that fails.
///
/// The result is released with [`rust_iov_bench_pages_free`].
#[no_mangle]
pub extern "C" fn rust_iov_bench_pages_new(nr: usize) -> *mut BenchPages {
    let mut pages = match KVec::with_capacity(nr, GFP_KERNEL) {
        Ok(pages) => pages,
        Err(_) => return core::ptr::null_mut(),
    };
    for _ in 0..nr {
        let Ok(page) = Page::alloc_page(GFP_KERNEL | __GFP_ZERO) else {
            return core::ptr::null_mut();
        };
        if pages.push(page, GFP_KERNEL).is_err() {
            return core::ptr::null_mut();
        }
    }
    match KBox::new(BenchPages { pages }, GFP_KERNEL) {
        Ok(b) => KBox::into_raw(b),
        Err(_) => core::ptr::null_mut(),
    }
}

/// Frees pages allocated by [`rust_iov_bench_pages_new`].
///
/// # Safety
///
/// `p` is null or was returned by [`rust_iov_bench_pages_new`] and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_pages_free(p: *mut BenchPages) {
    if !p.is_null() {
        // SAFETY: The caller passes ownership of a value from `KBox::into_raw`.
        drop(unsafe { KBox::from_raw(p) });
    }
}

/// Returns the `struct page` of page `i`, or null if there is no such page.
///
/// # Safety
///
/// `p` was returned by [`rust_iov_bench_pages_new`] and not freed.
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_page(
    p: *const BenchPages,
    i: usize,
) -> *mut bindings::page {
    // SAFETY: The caller guarantees that `p` points to a live `BenchPages`.
    let pages = unsafe { &(*p).pages };
    pages
        .get(i)
        .map_or(core::ptr::null_mut(), |page| page.as_ptr())
}

/// Copies `len` bytes from `src` to `dst` through a kvec iterator built here over `dst`.
///
/// # Safety
///
/// `dst` and `src` are valid for `len` bytes and do not overlap.
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_kvec_to(dst: *mut u8, src: *const u8, len: usize) -> usize {
    // SAFETY: The caller guarantees both ranges are valid and distinct.
    let (dst, src) = unsafe {
        (
            core::slice::from_raw_parts_mut(dst, len),
            core::slice::from_raw_parts(src, len),
        )
    };
    IoSliceMut::new(dst).with_dest(|iov| iov.copy_to_iter(src))
}

/// Copies `len` bytes from `src` to `dst` through a kvec iterator built here over `src`.
///
/// # Safety
///
/// As for [`rust_iov_bench_kvec_to`].
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_kvec_from(
    dst: *mut u8,
    src: *const u8,
    len: usize,
) -> usize {
    // SAFETY: The caller guarantees both ranges are valid and distinct.
    let (dst, src) = unsafe {
        (
            core::slice::from_raw_parts_mut(dst, len),
            core::slice::from_raw_parts(src, len),
        )
    };
    IoSlice::new(src).with_source(|iov| iov.copy_from_iter(dst))
}

/// Copies `len` bytes from `src` into the destination iterator `iter` built by C, as a
/// `read_iter` handler does.
///
/// # Safety
///
/// `iter` is an initialised iterator that nothing else uses during the call, over memory that
/// stays valid; `src` is valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_copy_to(
    iter: *mut bindings::iov_iter,
    src: *const u8,
    len: usize,
) -> usize {
    // SAFETY: The caller guarantees that `src` is valid for `len` bytes.
    let src = unsafe { core::slice::from_raw_parts(src, len) };
    // SAFETY: The caller guarantees the iterator is a valid destination, ours for the call.
    unsafe { IovIterDest::from_raw(iter) }.copy_to_iter(src)
}

/// Copies `len` bytes from the source iterator `iter` built by C into `dst`, as a `write_iter`
/// handler does.
///
/// # Safety
///
/// As for [`rust_iov_bench_copy_to`], with `dst` valid for writes of `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_copy_from(
    iter: *mut bindings::iov_iter,
    dst: *mut u8,
    len: usize,
) -> usize {
    // SAFETY: The caller guarantees that `dst` is valid for `len` bytes and not shared.
    let dst = unsafe { core::slice::from_raw_parts_mut(dst, len) };
    // SAFETY: The caller guarantees the iterator is a valid source, ours for the call.
    unsafe { IovIterSource::from_raw(iter) }.copy_from_iter(dst)
}

/// Copies `len` bytes from the start of the pages, page by page, into `iter`, as the RAM file
/// sample's `read_iter` does.
///
/// # Safety
///
/// `p` was returned by [`rust_iov_bench_pages_new`] and not freed; `iter` as for
/// [`rust_iov_bench_copy_to`].
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_page_to(
    p: *const BenchPages,
    iter: *mut bindings::iov_iter,
    len: usize,
) -> usize {
    // SAFETY: The caller guarantees that `p` points to a live `BenchPages`.
    let pages = unsafe { &(*p).pages };
    // SAFETY: The caller guarantees the iterator is a valid destination, ours for the call.
    let dst = unsafe { IovIterDest::from_raw(iter) };
    // The loop of the C twin, c_page_to(), with the test of `done` at the end, where the
    // compiler puts it in C.
    if len == 0 {
        return 0;
    }
    let mut done = 0;
    for page in pages.iter() {
        let want = (len - done).min(PAGE_SIZE);
        let Ok(n) = dst.copy_page_to_iter(page, 0, want) else {
            break;
        };
        done += n;
        if n < want || done >= len {
            break;
        }
    }
    done
}

/// Copies `len` bytes from `iter` into the start of the pages, page by page, with page faults
/// disabled, as the RAM file sample's `write_iter` does once the source is faulted in.
///
/// # Safety
///
/// `p` was returned by [`rust_iov_bench_pages_new`], not freed, and not used by anything else
/// during the call; `iter` as for [`rust_iov_bench_copy_from`].
#[no_mangle]
pub unsafe extern "C" fn rust_iov_bench_page_from(
    p: *mut BenchPages,
    iter: *mut bindings::iov_iter,
    len: usize,
) -> usize {
    // SAFETY: The caller guarantees that `p` points to a live `BenchPages` that only we use.
    let pages = unsafe { &mut (*p).pages };
    // SAFETY: The caller guarantees the iterator is a valid source, ours for the call.
    let src = unsafe { IovIterSource::from_raw(iter) };
    // The loop of the C twin, c_page_from(), shaped as c_page_to() above.
    if len == 0 {
        return 0;
    }
    let mut done = 0;
    for page in pages.iter_mut() {
        let want = (len - done).min(PAGE_SIZE);
        let Ok(n) = src.copy_page_from_iter_atomic(page, 0, want) else {
            break;
        };
        done += n;
        if n < want || done >= len {
            break;
        }
    }
    done
}
