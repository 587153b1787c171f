// SPDX-License-Identifier: GPL-2.0

//! The Rust executor of the model-based iov_iter test (lib/iov_iter_model.c).
//!
//! Each function stands for one member of C's `struct iov_model_ops`: it takes the arguments of
//! the C function the member stands for, wraps the engine's iterator in the type of its
//! direction ([`IovIterSource`] or [`IovIterDest`]) and calls the method of `kernel::iov` that
//! does the same, so that the wrapper is checked against the same model as the C API. Where the
//! Rust API behaves differently by design, a flag of the executor tells the model
//! (lib/iov_iter_model_kunit.c).
//!
//! The iterators of `ITER_KVEC` worlds, and of `ITER_BVEC` sources, are the executor's own:
//! [`IoSlice`], [`IoSliceMut`] and [`BioVec`] over the engine's memory, lent to a closure by
//! `with_kvec` and `with_bvec`, inside which the world runs.

use core::{ffi::c_void, ptr, ptr::NonNull, slice};
use kernel::{
    alloc::{flags::GFP_KERNEL, KVec},
    bindings,
    error::{code::EINVAL, Result},
    ffi::{c_int, c_uint, c_ulong},
    iov::{BioVec, IoSlice, IoSliceMut, IovIter, IovIterDest, IovIterSource, IterPages},
    page::{BorrowedPage, Page},
};

/// The engine's iterator, as the type of its direction.
enum Iov<'a> {
    Src(&'a mut IovIterSource<'a>),
    Dst(&'a mut IovIterDest<'a>),
}

/// Wraps the engine's iterator `i` in the type of its direction.
///
/// # Safety
///
/// `i` points to an initialised iterator that nothing else accesses for `'a`, over memory the
/// engine keeps valid (and, for a destination, writable) for `'a`.
unsafe fn iov<'a>(i: *mut bindings::iov_iter) -> Iov<'a> {
    // SAFETY: The caller guarantees that `i` points to an initialised iterator.
    if unsafe { (*i).data_source } == (bindings::ITER_SOURCE != 0) {
        // SAFETY: The direction was just checked; the caller guarantees the rest.
        Iov::Src(unsafe { IovIterSource::from_raw(i) })
    } else {
        // SAFETY: As above.
        Iov::Dst(unsafe { IovIterDest::from_raw(i) })
    }
}

/// Evaluates `$body` with `$it` bound to the iterator, whatever its direction.
macro_rules! either {
    ($iov:expr, |$it:ident| $body:expr) => {
        match $iov {
            Iov::Src($it) => $body,
            Iov::Dst($it) => $body,
        }
    };
}

/// The direction an operation needs was not the iterator's, or the Rust method refused its
/// arguments: the engine never asks for that.
const WRONG_DIRECTION: usize = usize::MAX;

/// The engine's function that runs a world on an iterator.
type Run = unsafe extern "C" fn(*mut bindings::iov_iter, *mut c_void);

/// The `n` entries at `p` (none if `n` is 0, whatever `p` is).
///
/// # Safety
///
/// If `n` is not 0, `p` points to `n` initialised entries that stay valid and unwritten for
/// `'a`.
unsafe fn entries<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if n == 0 {
        return &[];
    }
    // SAFETY: The caller guarantees `n` valid entries at `p`.
    unsafe { slice::from_raw_parts(p, n) }
}

/// Returns 0 for `Ok`, the negative errno for `Err`.
fn to_ret(r: Result) -> c_int {
    match r {
        Ok(()) => 0,
        Err(e) => e.to_errno(),
    }
}

/// `iter_kvec`: runs the world on an iterator made by [`IovIterSource::with_kvec`] over
/// [`IoSlice`]s, or by [`IovIterDest::with_kvec`] over [`IoSliceMut`]s, of the engine's segments.
///
/// # Safety
///
/// `kvec` points to `nr_segs` segments of kernel memory valid for reads (for a destination, for
/// writes too) while this runs, no two segments of a destination overlapping; `run(i, world)`
/// runs the world on an iterator over them, touching their memory only through it and while
/// checking between operations.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_iter_kvec(
    direction: c_uint,
    kvec: *const bindings::kvec,
    nr_segs: c_ulong,
    run: Run,
    world: *mut c_void,
) -> c_int {
    // SAFETY: The caller guarantees `nr_segs` segments at `kvec`.
    let segs = unsafe { entries(kvec, nr_segs) };
    to_ret(if direction == bindings::ITER_SOURCE {
        // SAFETY: The caller guarantees that the segments are readable and `run`'s use of them.
        unsafe { run_kvec_source(segs, run, world) }
    } else {
        // SAFETY: The caller guarantees that the segments are writable and do not overlap.
        unsafe { run_kvec_dest(segs, run, world) }
    })
}

/// The memory a kvec describes (nothing if it is empty, wherever it points).
///
/// # Safety
///
/// A non-empty `kv` describes memory valid for reads for `'a`.
unsafe fn kvec_bytes<'a>(kv: &bindings::kvec) -> &'a [u8] {
    // SAFETY: The caller guarantees the memory of a non-empty kvec.
    unsafe { entries(kv.iov_base.cast::<u8>().cast_const(), kv.iov_len) }
}

/// [`iov_model_rust_iter_kvec`] for a source.
///
/// # Safety
///
/// As for [`iov_model_rust_iter_kvec`].
unsafe fn run_kvec_source(segs: &[bindings::kvec], run: Run, world: *mut c_void) -> Result {
    let mut slices = KVec::with_capacity(segs.len(), GFP_KERNEL)?;
    for kv in segs {
        // SAFETY: The caller guarantees that the segment is readable while this runs.
        slices.push(IoSlice::new(unsafe { kvec_bytes(kv) }), GFP_KERNEL)?;
    }
    IovIterSource::with_kvec(&slices, |src| {
        // SAFETY: `src` is an iterator over the segments, as `run` needs.
        unsafe { run(src.as_raw(), world) }
    });
    Ok(())
}

/// [`iov_model_rust_iter_kvec`] for a destination.
///
/// # Safety
///
/// As for [`iov_model_rust_iter_kvec`].
unsafe fn run_kvec_dest(segs: &[bindings::kvec], run: Run, world: *mut c_void) -> Result {
    let mut slices = KVec::with_capacity(segs.len(), GFP_KERNEL)?;
    for kv in segs {
        let data: &mut [u8] = if kv.iov_len == 0 {
            &mut []
        } else {
            // SAFETY: The caller guarantees that the segment is writable while this runs and
            // overlaps no other; the engine only reads it between operations, to check it.
            unsafe { slice::from_raw_parts_mut(kv.iov_base.cast::<u8>(), kv.iov_len) }
        };
        slices.push(IoSliceMut::new(data), GFP_KERNEL)?;
    }
    IovIterDest::with_kvec(&mut slices, |dst| {
        // SAFETY: `dst` is an iterator over the segments, as `run` needs.
        unsafe { run(dst.as_raw(), world) }
    });
    Ok(())
}

/// `iter_bvec`: runs the world on an iterator made by [`IovIterSource::with_bvec`] over
/// [`BioVec`]s of the engine's pages, each lent as a [`BorrowedPage`]. Destinations are not
/// lent: [`kernel::iov::BioVecMut`] takes a `&mut Page`, which a page someone else owns cannot
/// soundly be.
///
/// # Safety
///
/// `bvec` points to `nr_segs` bio_vecs of pages that stay allocated and readable while this
/// runs; `run(i, world)` runs the world on an iterator over them.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_iter_bvec(
    direction: c_uint,
    bvec: *const bindings::bio_vec,
    nr_segs: c_ulong,
    run: Run,
    world: *mut c_void,
) -> c_int {
    if direction != bindings::ITER_SOURCE {
        return EINVAL.to_errno();
    }
    // SAFETY: The caller guarantees `nr_segs` bio_vecs at `bvec`.
    let segs = unsafe { entries(bvec, nr_segs) };
    // SAFETY: The caller guarantees the pages.
    to_ret(unsafe { run_bvec_source(segs, run, world) })
}

/// [`iov_model_rust_iter_bvec`], once the direction is known.
///
/// # Safety
///
/// As for [`iov_model_rust_iter_bvec`].
unsafe fn run_bvec_source(segs: &[bindings::bio_vec], run: Run, world: *mut c_void) -> Result {
    let mut pages = KVec::with_capacity(segs.len(), GFP_KERNEL)?;
    for bv in segs {
        let page = NonNull::new(bv.bv_page).ok_or(EINVAL)?;
        // SAFETY: The caller guarantees that the page stays allocated while this runs, which
        // is as long as `pages` lives.
        pages.push(unsafe { BorrowedPage::from_raw(page) }, GFP_KERNEL)?;
    }
    let mut frags = KVec::with_capacity(segs.len(), GFP_KERNEL)?;
    for (bv, page) in segs.iter().zip(pages.iter()) {
        let frag = BioVec::new(page, bv.bv_offset as usize, bv.bv_len as usize)?;
        frags.push(frag, GFP_KERNEL)?;
    }
    IovIterSource::with_bvec(&frags, |src| {
        // SAFETY: `src` is an iterator over the pages, as `run` needs.
        unsafe { run(src.as_raw(), world) }
    });
    Ok(())
}

/// `iov_iter_advance()`: [`IovIterSource::advance`] or [`IovIterDest::advance`], which zeroes
/// the bytes it moves over in kernel memory.
///
/// # Safety
///
/// `i` is an iterator of the engine, used by nothing else during the call.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_advance(i: *mut bindings::iov_iter, bytes: usize) {
    // SAFETY: The engine built `i` over memory that stays valid during the call.
    either!(unsafe { iov(i) }, |it| it.advance(bytes))
}

/// `iov_iter_revert()`.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `bytes` is at most how far `i` moved since it was made.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_revert(i: *mut bindings::iov_iter, bytes: usize) {
    // SAFETY: As in `iov_model_rust_advance`.
    match unsafe { iov(i) } {
        // SAFETY: The engine never moves an iterator back before its start.
        Iov::Src(src) => unsafe { src.revert(bytes) },
        // SAFETY: As above.
        Iov::Dst(dst) => unsafe { dst.revert(bytes) },
    }
}

/// `copy_to_iter()`, done twice through a checkpoint: copy, go back over what was copied, copy
/// again and keep that. A checkpoint that gets either step wrong shows as a wrong count.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `addr` is valid for reads of `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_to_iter(
    addr: *const c_void,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> usize {
    // SAFETY: The caller guarantees that `addr` is valid for `bytes` bytes.
    let input = unsafe { slice::from_raw_parts(addr.cast::<u8>(), bytes) };
    // SAFETY: As in `iov_model_rust_advance`.
    let Iov::Dst(dst) = (unsafe { iov(i) }) else {
        return WRONG_DIRECTION;
    };
    dst.checkpoint(|cp| {
        let n = cp.copy_to_iter(input);
        if cp.consumed() != n || cp.revert(n).is_err() || cp.consumed() != 0 {
            return WRONG_DIRECTION;
        }
        let again = cp.copy_to_iter(input);
        cp.commit();
        again
    })
}

/// `copy_to_iter_full()`: [`IovIterDest::copy_to_iter_full`].
///
/// # Safety
///
/// As for [`iov_model_rust_copy_to_iter`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_to_iter_full(
    addr: *const c_void,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> bool {
    // SAFETY: The caller guarantees that `addr` is valid for `bytes` bytes.
    let input = unsafe { slice::from_raw_parts(addr.cast::<u8>(), bytes) };
    // SAFETY: As in `iov_model_rust_advance`.
    match unsafe { iov(i) } {
        Iov::Dst(dst) => dst.copy_to_iter_full(input).is_ok(),
        Iov::Src(_) => false,
    }
}

/// `copy_from_iter()`, done twice through a checkpoint as [`iov_model_rust_copy_to_iter`] does.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `addr` is valid for writes of `bytes` bytes and nothing
/// else uses them during the call.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_from_iter(
    addr: *mut c_void,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> usize {
    // SAFETY: The caller guarantees that `addr` is valid for `bytes` bytes, used by nothing
    // else; every byte of the buffer is initialised (the engine poisons it first).
    let out = unsafe { slice::from_raw_parts_mut(addr.cast::<u8>(), bytes) };
    // SAFETY: As in `iov_model_rust_advance`.
    let Iov::Src(src) = (unsafe { iov(i) }) else {
        return WRONG_DIRECTION;
    };
    src.checkpoint(|cp| {
        let n = cp.copy_from_iter(out);
        if cp.consumed() != n || cp.revert(n).is_err() || cp.consumed() != 0 {
            return WRONG_DIRECTION;
        }
        let again = cp.copy_from_iter(out);
        cp.commit();
        again
    })
}

/// `copy_from_iter_full()`: [`IovIterSource::copy_from_iter_full`].
///
/// # Safety
///
/// As for [`iov_model_rust_copy_from_iter`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_from_iter_full(
    addr: *mut c_void,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> bool {
    // SAFETY: As in `iov_model_rust_copy_from_iter`.
    let out = unsafe { slice::from_raw_parts_mut(addr.cast::<u8>(), bytes) };
    // SAFETY: As in `iov_model_rust_advance`.
    match unsafe { iov(i) } {
        Iov::Src(src) => src.copy_from_iter_full(out).is_ok(),
        Iov::Dst(_) => false,
    }
}

/// `iov_iter_zero()`: [`IovIterDest::zero`].
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_zero(bytes: usize, i: *mut bindings::iov_iter) -> usize {
    // SAFETY: As in `iov_model_rust_advance`.
    match unsafe { iov(i) } {
        Iov::Dst(dst) => dst.zero(bytes),
        Iov::Src(_) => WRONG_DIRECTION,
    }
}

/// Lends the engine's page.
///
/// # Safety
///
/// `page` is null or a page that stays allocated for `'a`.
unsafe fn lend_page<'a>(page: *mut bindings::page) -> Option<BorrowedPage<'a>> {
    // SAFETY: The caller guarantees that the page stays allocated for `'a`.
    NonNull::new(page).map(|p| unsafe { BorrowedPage::from_raw(p) })
}

/// `copy_page_to_iter()`: [`IovIterDest::copy_page_to_iter`] from the engine's page, lent.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `page` is a page nobody writes during the call.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_page_to_iter(
    page: *mut bindings::page,
    offset: usize,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> usize {
    // SAFETY: The caller guarantees the page for the call.
    let Some(page) = (unsafe { lend_page(page) }) else {
        return WRONG_DIRECTION;
    };
    // SAFETY: As in `iov_model_rust_advance`.
    match unsafe { iov(i) } {
        Iov::Dst(dst) => dst
            .copy_page_to_iter(&page, offset, bytes)
            .unwrap_or(WRONG_DIRECTION),
        Iov::Src(_) => WRONG_DIRECTION,
    }
}

/// `copy_page_from_iter()` or, if `atomic`, its atomic form: the Rust method takes a
/// `&mut Page`, which the engine's page cannot soundly be lent as, so it copies into a page of
/// its own, which holds the engine's page's bytes `offset..offset + bytes` before the call and
/// goes back to them after it. A stray write inside that range still shows.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `page` is a page nothing else uses during the call.
unsafe fn page_from(
    page: *mut bindings::page,
    offset: usize,
    bytes: usize,
    i: *mut bindings::iov_iter,
    atomic: bool,
) -> Result<usize> {
    // SAFETY: The caller guarantees the page for the call.
    let page = unsafe { lend_page(page) }.ok_or(EINVAL)?;
    // SAFETY: As in `iov_model_rust_advance`.
    let Iov::Src(src) = (unsafe { iov(i) }) else {
        return Err(EINVAL);
    };
    let mut own = Page::alloc_page(GFP_KERNEL)?;
    let mut bounce = KVec::from_elem(0u8, bytes, GFP_KERNEL)?;
    let buf = bounce.as_mut_ptr();
    // SAFETY: `buf` is valid for `bytes` bytes; nothing else uses either page meanwhile.
    unsafe {
        page.read_raw(buf, offset, bytes)?;
        own.write_raw(buf, offset, bytes)?;
    }
    let got = if atomic {
        src.copy_page_from_iter_atomic(&mut own, offset, bytes)?
    } else {
        src.copy_page_from_iter(&mut own, offset, bytes)?
    };
    // SAFETY: As above.
    unsafe {
        own.read_raw(buf, offset, bytes)?;
        page.write_raw(buf, offset, bytes)?;
    }
    Ok(got)
}

/// `copy_page_from_iter()`: [`IovIterSource::copy_page_from_iter`], through [`page_from`].
///
/// # Safety
///
/// As for [`page_from`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_page_from_iter(
    page: *mut bindings::page,
    offset: usize,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> usize {
    // SAFETY: The caller guarantees `page_from`'s requirements.
    unsafe { page_from(page, offset, bytes, i, false) }.unwrap_or(WRONG_DIRECTION)
}

/// `copy_page_from_iter_atomic()`: [`IovIterSource::copy_page_from_iter_atomic`], through
/// [`page_from`]; the engine disables page faults around the call.
///
/// # Safety
///
/// As for [`page_from`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_copy_page_from_iter_atomic(
    page: *mut bindings::page,
    offset: usize,
    bytes: usize,
    i: *mut bindings::iov_iter,
) -> usize {
    // SAFETY: The caller guarantees `page_from`'s requirements.
    unsafe { page_from(page, offset, bytes, i, true) }.unwrap_or(WRONG_DIRECTION)
}

/// `fault_in_iov_iter_readable()`: [`IovIterSource::fault_in_readable`], for sources only.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_fault_in_readable(
    i: *const bindings::iov_iter,
    bytes: usize,
) -> usize {
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    match unsafe { iov(i.cast_mut()) } {
        Iov::Src(src) => src.fault_in_readable(bytes),
        Iov::Dst(_) => WRONG_DIRECTION,
    }
}

/// `fault_in_iov_iter_writeable()`: [`IovIterDest::fault_in_writeable`], for destinations
/// only.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_fault_in_writeable(
    i: *const bindings::iov_iter,
    bytes: usize,
) -> usize {
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    match unsafe { iov(i.cast_mut()) } {
        Iov::Dst(dst) => dst.fault_in_writeable(bytes),
        Iov::Src(_) => WRONG_DIRECTION,
    }
}

/// Hands the pages the Rust API lends over to the engine, which releases them itself: copies
/// them into `pages`, their offset into `*start`, and returns the bytes they cover.
///
/// # Safety
///
/// `pages` is valid for writes of `N` entries and `start` for a write; the engine releases
/// every page written to `pages` as the hold says (it checks the hold on each).
unsafe fn hand_over<const N: usize>(
    taken: &IterPages<'_, N>,
    pages: *mut *mut bindings::page,
    start: *mut usize,
) -> isize {
    // SAFETY: The engine releases each page, as the caller guarantees.
    let got = unsafe { taken.hand_over() };
    // SAFETY: `got` holds at most `N` pages; the caller guarantees room for `N` and `start`.
    unsafe {
        ptr::copy_nonoverlapping(got.as_ptr(), pages, got.len());
        *start = taken.offset();
    }
    taken.len() as isize
}

/// Takes at most `N` pages from `i`: `get_pages::<N>()` or, if `extract`,
/// `extract_pages::<N>()`.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `pages` is valid for writes of `N` entries and `start` for
/// a write.
unsafe fn take_pages<const N: usize>(
    i: *mut bindings::iov_iter,
    extract: bool,
    maxsize: usize,
    pages: *mut *mut bindings::page,
    start: *mut usize,
) -> isize {
    // SAFETY: As in `iov_model_rust_advance`.
    let iov = unsafe { iov(i) };
    // SAFETY: The caller guarantees room for `N` pages and `start`, and the engine releases
    // the pages.
    let hand = |taken: &IterPages<'_, N>| unsafe { hand_over(taken, pages, start) };
    let ret = match (iov, extract) {
        (Iov::Src(src), false) => src.get_pages::<N, _>(maxsize, hand),
        (Iov::Src(src), true) => src.extract_pages::<N, _>(maxsize, hand),
        (Iov::Dst(dst), false) => dst.get_pages::<N, _>(maxsize, hand),
        (Iov::Dst(dst), true) => dst.extract_pages::<N, _>(maxsize, hand),
    };
    ret.unwrap_or_else(|e| e.to_errno() as isize)
}

/// [`take_pages`] with `N` the run-time `maxpages`, from 1 to `MAX_PAGES` (64).
macro_rules! take_pages_n {
    ($maxpages:expr, $args:tt, $($n:literal)*) => {
        match $maxpages {
            $($n => take_pages::<$n> $args,)*
            _ => EINVAL.to_errno() as isize,
        }
    };
}

/// Takes pages with [`take_pages`], `maxpages` of them at most.
///
/// # Safety
///
/// As for [`take_pages`], with `maxpages` entries of room.
unsafe fn take_pages_dyn(
    i: *mut bindings::iov_iter,
    extract: bool,
    maxsize: usize,
    maxpages: c_uint,
    pages: *mut *mut bindings::page,
    start: *mut usize,
) -> isize {
    // SAFETY: `N` is `maxpages`; the caller guarantees the rest.
    unsafe {
        take_pages_n!(maxpages, (i, extract, maxsize, pages, start),
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61
            62 63 64)
    }
}

/// `iov_iter_get_pages2()`: `get_pages::<maxpages>()`, with `maxpages` from 1 to 64.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `pages` is valid for writes of `maxpages` entries and
/// `start` for a write.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_get_pages(
    i: *mut bindings::iov_iter,
    pages: *mut *mut bindings::page,
    maxsize: usize,
    maxpages: c_uint,
    start: *mut usize,
) -> isize {
    // SAFETY: The caller guarantees all of `take_pages_dyn`'s requirements.
    unsafe { take_pages_dyn(i, false, maxsize, maxpages, pages, start) }
}

/// `iov_iter_extract_pages()` into the caller's array: `extract_pages::<maxpages>()`, with
/// `maxpages` from 1 to 64; the extraction flags are not the Rust API's to choose.
///
/// # Safety
///
/// As for [`iov_model_rust_advance`]; `*pages` is valid for writes of `maxpages` entries and
/// `offset0` for a write.
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_extract_pages(
    i: *mut bindings::iov_iter,
    pages: *mut *mut *mut bindings::page,
    maxsize: usize,
    maxpages: c_uint,
    _flags: c_uint,
    offset0: *mut usize,
) -> isize {
    // SAFETY: The caller guarantees that `pages` points to an array of `maxpages` entries and
    // the rest of `take_pages_dyn`'s requirements.
    unsafe { take_pages_dyn(i, true, maxsize, maxpages, *pages, offset0) }
}

/// `iov_iter_npages()`: [`IovIter::npages`].
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_npages(
    i: *const bindings::iov_iter,
    maxpages: c_int,
) -> c_int {
    let max = usize::try_from(maxpages).unwrap_or(0);
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    let n = either!(unsafe { iov(i.cast_mut()) }, |it| it.npages(max));
    // `n <= max <= c_int::MAX`.
    n as c_int
}

/// `iov_iter_alignment()`: [`IovIter::alignment`].
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_alignment(i: *const bindings::iov_iter) -> c_ulong {
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    either!(unsafe { iov(i.cast_mut()) }, |it| it.alignment() as c_ulong)
}

/// `iov_iter_is_aligned()`: [`IovIter::is_aligned`].
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_is_aligned(
    i: *const bindings::iov_iter,
    addr_mask: c_uint,
    len_mask: c_uint,
) -> bool {
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    either!(unsafe { iov(i.cast_mut()) }, |it| {
        it.is_aligned(addr_mask, len_mask)
    })
}

/// `iov_iter_single_seg_count()`: [`IovIter::segment_len`].
///
/// # Safety
///
/// As for [`iov_model_rust_advance`].
#[no_mangle]
pub unsafe extern "C" fn iov_model_rust_single_seg_count(i: *const bindings::iov_iter) -> usize {
    // SAFETY: As in `iov_model_rust_advance`; the engine's iterator is not const.
    either!(unsafe { iov(i.cast_mut()) }, |it| it.segment_len())
}
