// SPDX-License-Identifier: GPL-2.0

//! I/O vectors: the cursor C code uses to walk a caller's buffers (`struct iov_iter`).
//!
//! C headers: [`include/linux/uio.h`](srctree/include/linux/uio.h),
//! [`include/linux/iov_iter.h`](srctree/include/linux/iov_iter.h)
//!
//! A `struct iov_iter` describes a list of buffers (user `iovec`s, kernel `kvec`s, page
//! fragments in `bio_vec`s, ...) and a position in it that moves forward as data is copied.
//! [`IovIterSource`] is one that data is read out of (C's `ITER_SOURCE`; what a `write_iter`
//! file operation receives), [`IovIterDest`] one that data is written into (`ITER_DEST`; what
//! `read_iter` receives). Both are the C structure itself (`#[repr(transparent)]`): code gets a
//! `&mut` to one that C handed in ([`IovIterSource::from_raw`]) and every method is an inline
//! call of the exported C function, or a read of one field. This is mainline's API.
//!
//! The lifetime `'data` is how long the memory the iterator describes may be accessed through
//! the C copy functions: user memory (where a copy can fault and come up short at any byte),
//! kernel memory, pages. The types are neither [`Send`] nor [`Sync`]: a user-backed iterator
//! means the address space of the task that built it, and C's iterators have a single user.
//!
//! Safe code never holds one of these types by value, only `&mut` to one: C keeps using the
//! iterator it lends a handler after the call, so the handler must not be able to put another
//! one, of another shape or over other memory, in its place (`*iov = ...`,
//! [`core::mem::swap`]).
//!
//! What this series adds beyond mainline's API is in the submodules, one per concern.

use crate::{
    alloc::{Allocator, Flags, Vec},
    bindings,
    error::{code::*, Result},
    types::Opaque,
};
use core::{marker::PhantomData, mem::MaybeUninit, ptr, slice};

pub mod buffers;
pub mod checkpoint;
pub mod copies;
pub mod pages;
pub mod query;

pub use buffers::{BioVec, BioVecMut, IoSlice, IoSliceMut};
pub use checkpoint::IovCheckpoint;
pub use pages::{IterPages, PageHold, MAX_PAGES};
pub use query::{IovIter, IterType};

const ITER_SOURCE: bool = bindings::ITER_SOURCE != 0;
const ITER_DEST: bool = bindings::ITER_DEST != 0;

// The direction is one `bool` in C; the two constants must tell the types apart.
crate::static_assert!(ITER_SOURCE != ITER_DEST);

/// Reads the `count` field: the bytes left in `iov` (C's `iov_iter_count()`).
///
/// # Safety
///
/// `iov` points to an initialised `struct iov_iter`.
#[inline]
pub(crate) unsafe fn raw_count(iov: *const bindings::iov_iter) -> usize {
    // SAFETY: The caller guarantees that `iov` is initialised; `count` is valid for every type.
    unsafe { (*iov).__bindgen_anon_1.__bindgen_anon_1.as_ref().count }
}

/// An iterator that data is copied out of (C's `ITER_SOURCE`), e.g. the one a `write_iter`
/// handler receives.
///
/// The data may be user memory, kernel memory or pages, and it may change while it is read:
/// reading the same bytes twice need not give the same result.
///
/// # Invariants
///
/// `iov` is an initialised `struct iov_iter` with `data_source == ITER_SOURCE`, and for `'data`
/// the memory it describes may be read with the C copy functions.
#[repr(transparent)]
pub struct IovIterSource<'data> {
    iov: Opaque<bindings::iov_iter>,
    /// The iterator reads memory it does not own for `'data`.
    _source: PhantomData<&'data [u8]>,
}

impl<'data> IovIterSource<'data> {
    /// Turns a pointer to a source iterator into a reference.
    ///
    /// The direction is checked with a debug assertion (`CONFIG_RUST_DEBUG_ASSERTIONS`), which
    /// panics on the wrong one; mainline checks it in every build, which costs a few percent of
    /// a small copy.
    ///
    /// # Safety
    ///
    /// - `ptr` points to an initialised `struct iov_iter` that, for `'iov`, nothing accesses
    ///   except through the returned reference.
    /// - Its `data_source` is `ITER_SOURCE`.
    /// - For `'data`, the memory it describes may be read with the C copy functions (the VFS
    ///   guarantees this for the iterator of a `write_iter` call, until the call returns).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovIterSource;
    ///
    /// let data = *b"abc";
    /// let seg = bindings::kvec { iov_base: data.as_ptr().cast_mut().cast(), iov_len: 3 };
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_kvec` initialises `raw`, over `seg`, which describes `data`.
    /// unsafe { bindings::iov_iter_kvec(raw.as_mut_ptr(), bindings::ITER_SOURCE, &seg, 1, 3) };
    /// // SAFETY: `raw`, `seg` and `data` outlive `src`, which is its only user.
    /// let src = unsafe { IovIterSource::from_raw(raw.as_mut_ptr()) };
    /// let mut out = [0u8; 8];
    /// assert_eq!(src.copy_from_iter(&mut out), 3);
    /// assert_eq!((&out[..3], src.len()), (&b"abc"[..], 0));
    /// // The C iterator itself moved.
    /// // SAFETY: `raw` is initialised and `src` is no longer used.
    /// assert_eq!(unsafe { bindings::iov_iter_single_seg_count(raw.as_ptr()) }, 0);
    /// ```
    #[track_caller]
    #[inline]
    pub unsafe fn from_raw<'iov>(ptr: *mut bindings::iov_iter) -> &'iov mut IovIterSource<'data> {
        // SAFETY: The caller guarantees that `ptr` points to an initialised iterator.
        debug_assert_eq!(unsafe { (*ptr).data_source }, ITER_SOURCE);
        // INVARIANT: The caller guarantees the direction and the rest.
        // SAFETY: `IovIterSource` is a transparent `struct iov_iter`; the caller guarantees
        // exclusive access for `'iov`.
        unsafe { &mut *ptr.cast::<IovIterSource<'data>>() }
    }

    /// Returns the `struct iov_iter`, for C code.
    ///
    /// C code may move the iterator forward through it, but must not move it back before where
    /// it is now, raise its count beyond what is left, replace it, or keep the pointer.
    #[inline]
    pub fn as_raw(&mut self) -> *mut bindings::iov_iter {
        self.iov.get()
    }

    /// Returns the number of bytes left in the iterator.
    ///
    /// For user memory this is an upper bound: a copy may fault before the end and stop there.
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is initialised.
        unsafe { raw_count(self.iov.get()) }
    }

    /// Returns `true` if no bytes are left; user memory may give none even when it returns
    /// `false` (see [`IovIterSource::len`]).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the iterator forward by `bytes`, or to its end if fewer are left (C's
    /// `iov_iter_advance()`).
    #[inline]
    pub fn advance(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the C function clamps `bytes`.
        unsafe { bindings::iov_iter_advance(self.as_raw(), bytes) };
    }

    /// Moves the iterator back by `bytes` (C's `iov_iter_revert()`); [`IovIter::checkpoint`]
    /// does it safely.
    ///
    /// # Safety
    ///
    /// The iterator has moved forward by at least `bytes` since it was created or handed in:
    /// it must not go back before its start.
    #[inline]
    pub unsafe fn revert(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the caller guarantees that
        // `bytes` stays inside what it walked.
        unsafe { bindings::iov_iter_revert(self.as_raw(), bytes) };
    }

    /// Copies bytes out of the iterator into `out` and returns how many: fewer than
    /// `out.len()` when the iterator ends or, for user memory, faults first (C's
    /// `copy_from_iter()`). Bytes of `out` past the returned count are left as they were.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{bindings, iov::IovIterSource};
    ///
    /// let data = *b"abc";
    /// let seg = bindings::kvec { iov_base: data.as_ptr().cast_mut().cast(), iov_len: 3 };
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_kvec` initialises `raw`, over `seg`, which describes `data`.
    /// unsafe { bindings::iov_iter_kvec(raw.as_mut_ptr(), bindings::ITER_SOURCE, &seg, 1, 3) };
    /// // SAFETY: `raw`, `seg` and `data` outlive `src`, which is its only user.
    /// let src = unsafe { IovIterSource::from_raw(raw.as_mut_ptr()) };
    /// let mut out = *b"........";
    /// assert_eq!(src.copy_from_iter(&mut out), 3);
    /// // A short copy: the rest of `out` is untouched.
    /// assert_eq!(&out, b"abc.....");
    /// ```
    #[inline]
    pub fn copy_from_iter(&mut self, out: &mut [u8]) -> usize {
        // SAFETY: `u8` and `MaybeUninit<u8>` have the same layout, and `copy_from_iter_raw` only
        // writes initialised bytes, so `out` stays a valid `[u8]`.
        let out = unsafe { &mut *(ptr::from_mut(out) as *mut [MaybeUninit<u8>]) };
        self.copy_from_iter_raw(out).len()
    }

    /// Appends the bytes left in the iterator to `out` and returns how many it appended: all of
    /// them, or fewer if user memory faults first.
    ///
    /// Room for [`IovIterSource::len`] bytes is reserved first, before anything is copied: a
    /// `write()` may ask for up to `MAX_RW_COUNT` (almost 2 GiB), so a driver that accepts any
    /// size should cap the iterator or the vector first. A failed reservation returns the
    /// allocator's error and copies nothing; it is not reported in the kernel log
    /// (`__GFP_NOWARN`), since the size is the caller's, and it does not invoke the OOM killer
    /// (`__GFP_RETRY_MAYFAIL`).
    #[inline]
    pub fn copy_from_iter_vec<A: Allocator>(
        &mut self,
        out: &mut Vec<u8, A>,
        flags: Flags,
    ) -> Result<usize> {
        let user_sized =
            crate::alloc::flags::__GFP_NOWARN | crate::alloc::flags::__GFP_RETRY_MAYFAIL;
        out.reserve(self.len(), flags | user_sized)?;
        let n = self.copy_from_iter_raw(out.spare_capacity_mut()).len();
        // SAFETY: The `n` bytes after the length were initialised by the copy, and they are
        // within the capacity.
        unsafe { out.inc_len(n) };
        Ok(n)
    }

    /// Copies bytes out of the iterator into possibly uninitialised memory and returns the part
    /// of `out` that was written: shorter than `out` when the iterator ends or faults.
    ///
    /// Nothing but initialised bytes is ever written to `out`.
    #[inline]
    pub fn copy_from_iter_raw(&mut self, out: &mut [MaybeUninit<u8>]) -> &mut [u8] {
        let len = out.len();
        let out = out.as_mut_ptr().cast::<u8>();
        // SAFETY: `out` is valid for writes of `len` bytes and, by the type invariants, the
        // iterator may be read for `'data`. The C function writes only bytes it read.
        let n = unsafe { bindings::_copy_from_iter(out.cast(), len, self.as_raw()) };
        // SAFETY: The first `n <= len` bytes of `out` were just written.
        unsafe { slice::from_raw_parts_mut(out, n) }
    }
}

/// An iterator that data is copied into (C's `ITER_DEST`), e.g. the one a `read_iter` handler
/// receives.
///
/// C code that hands one in takes every byte before the final position for data it may use or
/// pass on (`copy_splice_read()` puts those bytes of freshly allocated pages into a pipe). So
/// every safe way of moving a destination forward writes the bytes it passes: the copies,
/// [`IovIterDest::zero`] and, over kernel memory, [`IovIterDest::advance`].
///
/// # Invariants
///
/// `iov` is an initialised `struct iov_iter` with `data_source == ITER_DEST`, and for `'data`
/// the memory it describes may be written with the C copy functions.
#[repr(transparent)]
pub struct IovIterDest<'data> {
    iov: Opaque<bindings::iov_iter>,
    /// The iterator writes memory it does not own for `'data`.
    _dest: PhantomData<&'data mut [u8]>,
}

impl<'data> IovIterDest<'data> {
    /// Turns a pointer to a destination iterator into a reference.
    ///
    /// The direction is checked with a debug assertion (`CONFIG_RUST_DEBUG_ASSERTIONS`), which
    /// panics on the wrong one; mainline checks it in every build, which costs a few percent of
    /// a small copy.
    ///
    /// # Safety
    ///
    /// - `ptr` points to an initialised `struct iov_iter` that, for `'iov`, nothing accesses
    ///   except through the returned reference.
    /// - Its `data_source` is `ITER_DEST`.
    /// - For `'data`, the memory it describes may be written with the C copy functions (the VFS
    ///   guarantees this for the iterator of a `read_iter` call, until the call returns).
    ///
    /// # Examples
    ///
    /// User pages pinned and put in an `ITER_BVEC`, as io_uring hands a registered buffer to a
    /// `read_iter` handler (`IORING_OP_READ_FIXED`): the copy writes the pages through the
    /// kernel's mapping, and the data appears in user memory. (In a KUnit test,
    /// `kunit_vm_mmap()` provides the user memory.)
    ///
    /// ```
    /// use core::{mem::MaybeUninit, ptr};
    /// use kernel::bindings;
    /// use kernel::iov::{IovIterDest, IovIterSource};
    /// use kernel::page::PAGE_SIZE;
    ///
    /// const PROT_READ_WRITE: usize = 0x3;
    /// const MAP_PRIVATE_ANONYMOUS: usize = 0x22;
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     let (len, prot, flags) = (2 * PAGE_SIZE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS);
    ///     bindings::kunit_vm_mmap(test, ptr::null_mut(), 0, len, prot, flags, 0)
    /// };
    /// assert_ne!(user, 0);
    /// let mut pages = [ptr::null_mut(); 2];
    /// let gup = bindings::FOLL_WRITE | bindings::FOLL_LONGTERM;
    /// // SAFETY: `pages` has room for the two pages of the mapping.
    /// assert_eq!(unsafe { bindings::pin_user_pages_fast(user, 2, gup, pages.as_mut_ptr()) }, 2);
    ///
    /// // 12 bytes across the page boundary: the end of one page and the start of the next.
    /// let segs = [
    ///     bindings::bio_vec { bv_page: pages[0], bv_len: 6, bv_offset: PAGE_SIZE as u32 - 6 },
    ///     bindings::bio_vec { bv_page: pages[1], bv_len: 6, bv_offset: 0 },
    /// ];
    /// let mut raw = MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_bvec` initialises `raw`, over `segs`, which describe pinned pages.
    /// unsafe {
    ///     bindings::iov_iter_bvec(raw.as_mut_ptr(), bindings::ITER_DEST, segs.as_ptr(), 2, 12)
    /// };
    /// // SAFETY: `raw` and `segs` outlive `dst`, which is its only user; the pages stay pinned
    /// // until after its last use.
    /// let dst = unsafe { IovIterDest::from_raw(raw.as_mut_ptr()) };
    /// assert_eq!(dst.copy_to_iter(b"fixed buffer, longer"), 12);
    /// // SAFETY: `dst` is no longer used; the two pages were pinned above.
    /// unsafe { bindings::unpin_user_pages(pages.as_mut_ptr(), 2) };
    ///
    /// // Read the user memory back through an ITER_UBUF.
    /// let start = (user + PAGE_SIZE - 6) as *mut core::ffi::c_void;
    /// let mut raw = MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_SOURCE as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, start, 12, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` outlives `src`, its only user; it describes this task's user memory.
    /// let src = unsafe { IovIterSource::from_raw(raw.as_mut_ptr()) };
    /// let mut back = [0u8; 12];
    /// assert_eq!(src.copy_from_iter(&mut back), 12);
    /// assert_eq!(&back, b"fixed buffer");
    /// ```
    #[track_caller]
    #[inline]
    pub unsafe fn from_raw<'iov>(ptr: *mut bindings::iov_iter) -> &'iov mut IovIterDest<'data> {
        // SAFETY: The caller guarantees that `ptr` points to an initialised iterator.
        debug_assert_eq!(unsafe { (*ptr).data_source }, ITER_DEST);
        // INVARIANT: The caller guarantees the direction and the rest.
        // SAFETY: `IovIterDest` is a transparent `struct iov_iter`; the caller guarantees
        // exclusive access for `'iov`.
        unsafe { &mut *ptr.cast::<IovIterDest<'data>>() }
    }

    /// Returns the `struct iov_iter`, for C code.
    ///
    /// C code may move the iterator forward through it, writing the bytes it passes, but must
    /// not move it back before where it is now, raise its count beyond what is left, replace
    /// it, or keep the pointer.
    #[inline]
    pub fn as_raw(&mut self) -> *mut bindings::iov_iter {
        self.iov.get()
    }

    /// Returns the number of bytes left in the iterator.
    ///
    /// For user memory this is an upper bound: a copy may fault before the end and stop there.
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is initialised.
        unsafe { raw_count(self.iov.get()) }
    }

    /// Returns `true` if no bytes are left; user memory may take none even when it returns
    /// `false` (see [`IovIterDest::len`]).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the iterator forward by `bytes`, or to its end if fewer are left (C's
    /// `iov_iter_advance()`).
    ///
    /// Over user memory (and for a discarding iterator) the bytes skipped are left as they
    /// were. Over kernel memory they are zeroed (C's `iov_iter_zero()`): the C code that lent
    /// the iterator takes every byte before the position for data, and kernel memory may hold
    /// anything, e.g. the last contents of the freshly allocated pages `splice()` reads into.
    /// Mainline skips them; there, a `read_iter` can only be handed kernel memory by in-kernel
    /// readers.
    #[inline]
    pub fn advance(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is initialised.
        let iter_type = u32::from(unsafe { (*self.iov.get()).iter_type });
        if matches!(
            iter_type,
            bindings::iter_type_ITER_UBUF
                | bindings::iter_type_ITER_IOVEC
                | bindings::iter_type_ITER_DISCARD
        ) {
            // SAFETY: By the type invariants the iterator is valid; the C function clamps
            // `bytes`.
            unsafe { bindings::iov_iter_advance(self.as_raw(), bytes) };
        } else {
            // SAFETY: By the type invariants the iterator may be written for `'data`.
            unsafe { bindings::iov_iter_zero(bytes, self.as_raw()) };
        }
    }

    /// Moves the iterator back by `bytes` (C's `iov_iter_revert()`); [`IovIter::checkpoint`]
    /// does it safely.
    ///
    /// # Safety
    ///
    /// The iterator has moved forward by at least `bytes` since it was created or handed in:
    /// it must not go back before its start.
    #[inline]
    pub unsafe fn revert(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the caller guarantees that
        // `bytes` stays inside what it walked.
        unsafe { bindings::iov_iter_revert(self.as_raw(), bytes) };
    }

    /// Copies `input` into the iterator and returns how many bytes it copied: fewer than
    /// `input.len()` when the iterator ends or, for user memory, faults first (C's
    /// `copy_to_iter()`).
    #[inline]
    pub fn copy_to_iter(&mut self, input: &[u8]) -> usize {
        // SAFETY: `input` is valid for reads of its length and, by the type invariants, the
        // iterator may be written for `'data`.
        unsafe { bindings::_copy_to_iter(input.as_ptr().cast(), input.len(), self.as_raw()) }
    }

    /// Serves a `read_iter` of a file whose whole contents are `contents`: copies them from
    /// position `*ppos` into the iterator, moves `*ppos` past the bytes copied and returns how
    /// many there were.
    ///
    /// Returns 0 at or past the end of `contents`, and fails with [`EINVAL`] for a negative
    /// position. A copy that faults at once returns 0 too, with `*ppos` unchanged, as in
    /// mainline: a `read_iter` that wants `read()` to fail with `EFAULT` there, rather than look
    /// like the end of the file, checks for it (see the `MiscDevice` documentation).
    ///
    /// # Examples
    ///
    /// A user buffer that cannot be written (a `PROT_NONE` mapping of this KUnit test's mm):
    ///
    /// ```
    /// use core::{mem::MaybeUninit, ptr};
    /// use kernel::{bindings, iov::IovIterDest};
    ///
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     bindings::kunit_vm_mmap(test, ptr::null_mut(), 0, 4096, 0, 0x22, 0)
    /// };
    /// assert_ne!(user, 0);
    /// let mut raw = MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_DEST as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, user as _, 16, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` outlives `dst`, its only user; it describes this task's user memory.
    /// let dst = unsafe { IovIterDest::from_raw(raw.as_mut_ptr()) };
    /// let mut pos = 0;
    /// assert_eq!(dst.simple_read_from_buffer(&mut pos, b"contents"), Ok(0));
    /// assert_eq!((pos, dst.len()), (0, 16));
    /// ```
    #[inline]
    pub fn simple_read_from_buffer(&mut self, ppos: &mut i64, contents: &[u8]) -> Result<usize> {
        if *ppos < 0 {
            return Err(EINVAL);
        }
        let Some(rest) = usize::try_from(*ppos)
            .ok()
            .and_then(|pos| contents.get(pos..))
        else {
            return Ok(0);
        };
        let n = self.copy_to_iter(rest);
        // `*ppos + n <= contents.len() <= isize::MAX`, which fits.
        *ppos += n as i64;
        Ok(n)
    }
}
