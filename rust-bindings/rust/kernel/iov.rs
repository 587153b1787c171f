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
//! call of the exported C function, or a read of one field.
//!
//! The lifetime `'data` is how long the memory the iterator describes may be accessed through
//! the C copy functions: user memory (where a copy can fault and come up short at any byte),
//! kernel memory, pages. The types are neither [`Send`] nor [`Sync`]: a user-backed iterator
//! means the address space of the task that built it, and C's iterators have a single user.
//!
//! Beyond what C hands in, this module builds iterators over kernel memory borrowed from Rust
//! ([`IoSlice`] and [`IoSliceMut`] for `kvec`s, [`BioVec`] and [`BioVecMut`] for page
//! fragments, [`IovIterDest::discard`]). C's own [`IovIterSource::revert`] trusts its caller,
//! and is `unsafe`; the introspection shared by both directions is in [`IovIter`], with a guard
//! ([`IovIter::checkpoint`]) through which an iterator can be moved back, truncated and
//! re-expanded without ever leaving the range it had when the guard was made.
//!
//! Page copies, zeroing, faulting in, `_full` and typed copies come on top of mainline's
//! copies.
//!
//! # Examples
//!
//! A function that fills whatever destination it is given, used on two kernel buffers:
//!
//! ```
//! use kernel::iov::{IovIterDest, IoSliceMut};
//!
//! fn fill(dst: &mut IovIterDest<'_>, pattern: u8) -> usize {
//!     let mut total = 0;
//!     loop {
//!         let n = dst.copy_to_iter(&[pattern; 16]);
//!         if n == 0 {
//!             // Full, or user memory that could not be written.
//!             return total;
//!         }
//!         total += n;
//!     }
//! }
//!
//! let mut head = [0u8; 5];
//! let mut tail = [0u8; 20];
//! let mut segs = [IoSliceMut::new(&mut head), IoSliceMut::new(&mut tail)];
//! let mut dst = IovIterDest::kvec(&mut segs);
//! assert_eq!(fill(&mut dst, 0xa5), 25);
//! assert!(head.iter().all(|&b| b == 0xa5) && tail.iter().all(|&b| b == 0xa5));
//! ```

use crate::{
    alloc::{Allocator, Flags, Vec},
    bindings,
    error::{code::*, Result},
    ffi::{c_int, c_uint, c_ulong},
    page::{Page, PAGE_SIZE},
    types::{AsBytes, FromBytes, Opaque},
};
use core::{
    marker::PhantomData,
    mem::{size_of, MaybeUninit},
    ops::{Deref, DerefMut},
    ptr, slice,
};

mod pages;

pub use pages::{IterPages, PageHold};

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
unsafe fn raw_count(iov: *const bindings::iov_iter) -> usize {
    // SAFETY: The caller guarantees that `iov` is initialised; `count` is valid for every type.
    unsafe { (*iov).__bindgen_anon_1.__bindgen_anon_1.as_ref().count }
}

/// Writes the `count` field.
///
/// # Safety
///
/// `iov` points to an initialised `struct iov_iter` that has at least `count` bytes from its
/// position, and that nothing else accesses.
#[inline]
unsafe fn set_raw_count(iov: *mut bindings::iov_iter, count: usize) {
    // SAFETY: As the caller guarantees.
    unsafe { (*iov).__bindgen_anon_1.__bindgen_anon_1.as_mut().count = count };
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
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIterSource, IoSlice};
///
/// let seg = IoSlice::new(b"payload");
/// let mut src = seg.source();
/// let mut out = [0u8; 3];
/// assert_eq!(src.copy_from_iter(&mut out), 3);
/// assert_eq!(&out, b"pay");
/// assert_eq!(src.len(), 4);
/// ```
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
    /// // The C iterator itself moved.
    /// // SAFETY: `raw` is initialised and `src` is no longer used.
    /// assert_eq!(unsafe { bindings::iov_iter_single_seg_count(raw.as_ptr()) }, 0);
    /// ```
    ///
    /// Pages in an `ITER_BVEC`, as `iter_file_splice_write()` hands the buffers of a pipe to a
    /// `write_iter` handler (splice, sendfile):
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovIterSource;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let a = Page::alloc_page(GFP_KERNEL)?;
    /// let b = Page::alloc_page(GFP_KERNEL)?;
    /// // SAFETY: The ranges are inside the pages, and the source inside its array.
    /// unsafe {
    ///     a.write_raw(b"end of a,".as_ptr(), PAGE_SIZE - 9, 9)?;
    ///     b.write_raw(b" start of b".as_ptr(), 0, 11)?;
    /// }
    /// // The last 9 bytes of `a`, then the first 11 of `b`.
    /// let segs = [
    ///     bindings::bio_vec { bv_page: a.as_ptr(), bv_len: 9, bv_offset: PAGE_SIZE as u32 - 9 },
    ///     bindings::bio_vec { bv_page: b.as_ptr(), bv_len: 11, bv_offset: 0 },
    /// ];
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_bvec` initialises `raw`, over `segs`, which describe the pages.
    /// unsafe {
    ///     bindings::iov_iter_bvec(raw.as_mut_ptr(), bindings::ITER_SOURCE, segs.as_ptr(), 2, 20)
    /// };
    /// // SAFETY: `raw`, `segs` and the pages outlive `src`, which is its only user.
    /// let src = unsafe { IovIterSource::from_raw(raw.as_mut_ptr()) };
    /// let mut out = [0u8; 32];
    /// assert_eq!(src.copy_from_iter(&mut out[..5]), 5);
    /// assert_eq!(src.copy_from_iter(&mut out[5..]), 15);
    /// assert_eq!(&out[..20], b"end of a, start of b");
    /// assert!(src.is_empty());
    /// # Ok::<(), Error>(())
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
    /// C code may move the iterator forward through it, but must not move it back before where it
    /// is now or raise its count beyond what is left, and must not keep the pointer.
    #[inline]
    pub fn as_raw(&mut self) -> *mut bindings::iov_iter {
        self.iov.get()
    }

    /// Returns the number of bytes left in the iterator.
    ///
    /// For user memory this is an upper bound: a copy may fault before the end and stop there.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"0123456789");
    /// let mut src = seg.source();
    /// assert_eq!(src.len(), 10);
    /// src.advance(4);
    /// assert_eq!(src.len(), 6);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is initialised.
        unsafe { raw_count(self.iov.get()) }
    }

    /// Returns `true` if no bytes are left; user memory may give none even when it returns
    /// `false` (see [`IovIterSource::len`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"xy");
    /// let mut src = seg.source();
    /// assert!(!src.is_empty());
    /// src.advance(2);
    /// assert!(src.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the iterator forward by `bytes`, or to its end if fewer are left (C's
    /// `iov_iter_advance()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterSource, IoSlice};
    ///
    /// let segs = [IoSlice::new(b"abc"), IoSlice::new(b"def")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// src.advance(4);
    /// let mut rest = [0u8; 2];
    /// assert_eq!(src.copy_from_iter(&mut rest), 2);
    /// assert_eq!(&rest, b"ef");
    /// src.advance(100);
    /// assert!(src.is_empty());
    /// ```
    #[inline]
    pub fn advance(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the C function clamps `bytes`.
        unsafe { bindings::iov_iter_advance(self.as_raw(), bytes) };
    }

    /// Moves the iterator back by `bytes` (C's `iov_iter_revert()`).
    ///
    /// [`IovIter::checkpoint`] gives a guard that does this safely.
    ///
    /// # Safety
    ///
    /// The iterator has moved forward by at least `bytes` since it was created or handed in:
    /// it must not go back before its start.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"abcdef");
    /// let mut src = seg.source();
    /// src.advance(4);
    /// // SAFETY: It moved forward by 4 bytes.
    /// unsafe { src.revert(3) };
    /// assert_eq!(src.len(), 5);
    /// ```
    #[inline]
    pub unsafe fn revert(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the caller guarantees that
        // `bytes` stays inside what it walked.
        unsafe { bindings::iov_iter_revert(self.as_raw(), bytes) };
    }

    /// Copies bytes out of the iterator into `out` and returns how many: fewer than
    /// `out.len()` when the iterator ends or, for user memory, faults first (C's
    /// `copy_from_iter()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"short");
    /// let mut src = seg.source();
    /// let mut out = [0u8; 8];
    /// assert_eq!(src.copy_from_iter(&mut out), 5);
    /// assert_eq!(&out, b"short\0\0\0");
    /// assert_eq!(src.copy_from_iter(&mut out), 0);
    /// ```
    #[inline]
    pub fn copy_from_iter(&mut self, out: &mut [u8]) -> usize {
        // SAFETY: `u8` and `MaybeUninit<u8>` have the same layout, and `copy_from_iter_raw` only
        // writes initialised bytes, so `out` stays a valid `[u8]`.
        let out = unsafe { &mut *(ptr::from_mut(out) as *mut [MaybeUninit<u8>]) };
        self.copy_from_iter_raw(out).len()
    }

    /// Appends the bytes left in the iterator to `out` and returns how many it appended: all of
    /// them, or fewer if user memory faults first. Room for [`IovIterSource::len`] bytes is
    /// reserved first, which may fail.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterSource, IoSlice};
    ///
    /// let segs = [IoSlice::new(b"012"), IoSlice::new(b"3456789")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// let mut vec = KVec::new();
    /// vec.push(b'>', GFP_KERNEL)?;
    /// assert_eq!(src.copy_from_iter_vec(&mut vec, GFP_KERNEL)?, 10);
    /// assert_eq!(&vec[..], b">0123456789");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_from_iter_vec<A: Allocator>(
        &mut self,
        out: &mut Vec<u8, A>,
        flags: Flags,
    ) -> Result<usize> {
        out.reserve(self.len(), flags)?;
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
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"abc");
    /// let mut src = seg.source();
    /// let mut out = [MaybeUninit::<u8>::uninit(); 8];
    /// assert_eq!(src.copy_from_iter_raw(&mut out), b"abc");
    /// ```
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
/// # Invariants
///
/// `iov` is an initialised `struct iov_iter` with `data_source == ITER_DEST`, and for `'data`
/// the memory it describes may be written with the C copy functions.
///
/// # Examples
///
/// ```
/// use kernel::iov::IoSliceMut;
///
/// let mut buf = [0u8; 4];
/// let mut seg = IoSliceMut::new(&mut buf);
/// let mut dst = seg.dest();
/// assert_eq!(dst.copy_to_iter(b"hi"), 2);
/// assert_eq!(dst.len(), 2);
/// assert_eq!(&buf, b"hi\0\0");
/// ```
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
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovIterDest;
    ///
    /// let mut buf = [0u8; 8];
    /// let seg = bindings::kvec { iov_base: buf.as_mut_ptr().cast(), iov_len: 8 };
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_kvec` initialises `raw`, over `seg`, which describes `buf`.
    /// unsafe { bindings::iov_iter_kvec(raw.as_mut_ptr(), bindings::ITER_DEST, &seg, 1, 8) };
    /// // SAFETY: `raw`, `seg` and `buf` outlive `dst`, which is its only user.
    /// let dst = unsafe { IovIterDest::from_raw(raw.as_mut_ptr()) };
    /// assert_eq!(dst.copy_to_iter(b"12345"), 5);
    /// assert_eq!(&buf[..5], b"12345");
    /// ```
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
    /// C code may move the iterator forward through it, but must not move it back before where it
    /// is now or raise its count beyond what is left, and must not keep the pointer.
    #[inline]
    pub fn as_raw(&mut self) -> *mut bindings::iov_iter {
        self.iov.get()
    }

    /// Returns the number of bytes left in the iterator.
    ///
    /// For user memory this is an upper bound: a copy may fault before the end and stop there.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovIterDest;
    ///
    /// let mut dst = IovIterDest::discard(10);
    /// dst.advance(3);
    /// assert_eq!(dst.len(), 7);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is initialised.
        unsafe { raw_count(self.iov.get()) }
    }

    /// Returns `true` if no bytes are left; user memory may take none even when it returns
    /// `false` (see [`IovIterDest::len`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovIterDest;
    ///
    /// assert!(IovIterDest::discard(0).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves the iterator forward by `bytes`, or to its end if fewer are left (C's
    /// `iov_iter_advance()`); the bytes skipped are not written.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [b'.'; 4];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// dst.advance(2);
    /// assert_eq!(dst.copy_to_iter(b"xyz"), 2);
    /// assert_eq!(&buf, b"..xy");
    /// ```
    #[inline]
    pub fn advance(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the C function clamps `bytes`.
        unsafe { bindings::iov_iter_advance(self.as_raw(), bytes) };
    }

    /// Moves the iterator back by `bytes` (C's `iov_iter_revert()`).
    ///
    /// [`IovIter::checkpoint`] gives a guard that does this safely.
    ///
    /// # Safety
    ///
    /// The iterator has moved forward by at least `bytes` since it was created or handed in:
    /// it must not go back before its start.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 4];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// assert_eq!(dst.copy_to_iter(b"ab"), 2);
    /// // SAFETY: It moved forward by 2 bytes.
    /// unsafe { dst.revert(1) };
    /// assert_eq!(dst.copy_to_iter(b"XY"), 2);
    /// assert_eq!(&buf, b"aXY\0");
    /// ```
    #[inline]
    pub unsafe fn revert(&mut self, bytes: usize) {
        // SAFETY: By the type invariants the iterator is valid; the caller guarantees that
        // `bytes` stays inside what it walked.
        unsafe { bindings::iov_iter_revert(self.as_raw(), bytes) };
    }

    /// Copies `input` into the iterator and returns how many bytes it copied: fewer than
    /// `input.len()` when the iterator ends or, for user memory, faults first (C's
    /// `copy_to_iter()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterDest, IoSliceMut};
    ///
    /// let mut a = [0u8; 3];
    /// let mut b = [0u8; 1];
    /// let mut segs = [IoSliceMut::new(&mut a), IoSliceMut::new(&mut b)];
    /// let mut dst = IovIterDest::kvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"ab"), 2);
    /// assert_eq!(dst.copy_to_iter(b"cdef"), 2);
    /// assert_eq!(dst.copy_to_iter(b"g"), 0);
    /// assert_eq!((&a, &b), (b"abc", b"d"));
    /// ```
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
    /// position. A copy that faults at once returns 0 too, with `*ppos` unchanged.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 4];
    /// let mut pos = 0;
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// assert_eq!(seg.dest().simple_read_from_buffer(&mut pos, b"hello")?, 4);
    /// assert_eq!(seg.dest().simple_read_from_buffer(&mut pos, b"hello")?, 1);
    /// assert_eq!(seg.dest().simple_read_from_buffer(&mut pos, b"hello")?, 0);
    /// let mut bad = -1;
    /// assert_eq!(seg.dest().simple_read_from_buffer(&mut bad, b"x"), Err(EINVAL));
    /// assert_eq!((&buf, pos), (b"oell", 5));
    /// # Ok::<(), Error>(())
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

/// One kernel buffer that an [`IovIterSource`] reads (C's `struct kvec`).
///
/// # Invariants
///
/// `kvec` describes memory that is valid for reads for `'data`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIterSource, IoSlice};
///
/// let segs = [IoSlice::new(b"head"), IoSlice::new(b""), IoSlice::new(b"tail")];
/// let mut src = IovIterSource::kvec(&segs);
/// let mut out = [0u8; 8];
/// assert_eq!(src.copy_from_iter(&mut out), 8);
/// assert_eq!(&out, b"headtail");
/// ```
#[repr(transparent)]
pub struct IoSlice<'data> {
    kvec: bindings::kvec,
    _p: PhantomData<&'data [u8]>,
}

impl<'data> IoSlice<'data> {
    /// Describes `data`.
    #[inline]
    pub fn new(data: &'data [u8]) -> Self {
        // INVARIANT: `data` is valid for reads for `'data`.
        Self {
            kvec: bindings::kvec {
                iov_base: data.as_ptr().cast_mut().cast(),
                iov_len: data.len(),
            },
            _p: PhantomData,
        }
    }

    /// Returns the length of the buffer in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// assert_eq!(IoSlice::new(&[0u8; 7]).len(), 7);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.kvec.iov_len
    }

    /// Returns `true` if the buffer is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// assert!(IoSlice::new(&[]).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Returns a source iterator over this one buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"one");
    /// assert_eq!(seg.source().len(), 3);
    /// ```
    #[inline]
    pub fn source(&self) -> IovIterSource<'_> {
        IovIterSource::kvec(slice::from_ref(self))
    }
}

/// One kernel buffer that an [`IovIterDest`] writes (C's `struct kvec`).
///
/// It borrows the buffer mutably: nothing else can look at it while an iterator may write it.
///
/// # Invariants
///
/// `kvec` describes memory that is valid for reads and writes for `'data` and that nothing else
/// accesses for `'data`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIterDest, IoSliceMut};
///
/// let mut buf = [0u8; 6];
/// let (a, b) = buf.split_at_mut(2);
/// let mut segs = [IoSliceMut::new(b), IoSliceMut::new(a)];
/// let mut dst = IovIterDest::kvec(&mut segs);
/// assert_eq!(dst.copy_to_iter(b"world!"), 6);
/// assert_eq!(&buf, b"d!worl");
/// ```
#[repr(transparent)]
pub struct IoSliceMut<'data> {
    kvec: bindings::kvec,
    _p: PhantomData<&'data mut [u8]>,
}

impl<'data> IoSliceMut<'data> {
    /// Describes `data`, which stays borrowed for as long as the result exists.
    #[inline]
    pub fn new(data: &'data mut [u8]) -> Self {
        // INVARIANT: `data` is borrowed mutably for `'data`.
        Self {
            kvec: bindings::kvec {
                iov_base: data.as_mut_ptr().cast(),
                iov_len: data.len(),
            },
            _p: PhantomData,
        }
    }

    /// Returns the length of the buffer in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// assert_eq!(IoSliceMut::new(&mut [0u8; 3]).len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.kvec.iov_len
    }

    /// Returns `true` if the buffer is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// assert!(IoSliceMut::new(&mut []).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Returns a destination iterator over this one buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 2];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// assert_eq!(seg.dest().copy_to_iter(b"ok!"), 2);
    /// assert_eq!(&buf, b"ok");
    /// ```
    #[inline]
    pub fn dest(&mut self) -> IovIterDest<'_> {
        IovIterDest::kvec(slice::from_mut(self))
    }
}

/// Checks that `len` bytes at `offset` lie inside one page.
#[inline]
fn page_range(offset: usize, len: usize) -> Result {
    if offset > PAGE_SIZE || len > PAGE_SIZE - offset {
        return Err(EINVAL);
    }
    Ok(())
}

/// Builds a `bio_vec` for a range inside `page`.
#[inline]
fn bio_vec(page: &Page, offset: usize, len: usize) -> Result<bindings::bio_vec> {
    page_range(offset, len)?;
    Ok(bindings::bio_vec {
        bv_page: page.as_ptr(),
        // Both fit: they are at most `PAGE_SIZE`.
        bv_len: len as c_uint,
        bv_offset: offset as c_uint,
    })
}

/// A fragment of a page that an [`IovIterSource`] reads (C's `struct bio_vec`).
///
/// # Invariants
///
/// `bvec` lies inside the page of a [`Page`] borrowed for `'data`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{BioVec, IovIterSource};
/// use kernel::page::{Page, PAGE_SIZE};
///
/// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
/// let segs = [BioVec::new(&page, 100, 50)?, BioVec::new(&page, 0, 10)?];
/// let mut src = IovIterSource::bvec(&segs);
/// assert_eq!(src.len(), 60);
/// let mut out = [1u8; 60];
/// assert_eq!(src.copy_from_iter(&mut out), 60);
/// assert_eq!(out, [0u8; 60]);
/// assert_eq!(BioVec::new(&page, 16, PAGE_SIZE - 15).err(), Some(EINVAL));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct BioVec<'data> {
    bvec: bindings::bio_vec,
    _p: PhantomData<&'data Page>,
}

impl<'data> BioVec<'data> {
    /// Describes `len` bytes of `page` from `offset`; fails with [`EINVAL`] if they do not lie
    /// inside the page.
    #[inline]
    pub fn new(page: &'data Page, offset: usize, len: usize) -> Result<Self> {
        // INVARIANT: `bio_vec` checked the range; `page` is borrowed for `'data`.
        Ok(Self {
            bvec: bio_vec(page, offset, len)?,
            _p: PhantomData,
        })
    }

    /// Returns the length of the fragment in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::BioVec;
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// assert_eq!(BioVec::new(&page, 0, 42)?.len(), 42);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bvec.bv_len as usize
    }

    /// Returns `true` if the fragment is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::BioVec;
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// assert!(BioVec::new(&page, 5, 0)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A fragment of a page that an [`IovIterDest`] writes (C's `struct bio_vec`).
///
/// It borrows the page mutably for as long as it exists.
///
/// # Invariants
///
/// `bvec` lies inside the page of a [`Page`] borrowed mutably for `'data`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{BioVecMut, IovIterDest};
/// use kernel::page::Page;
///
/// let mut page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
/// let mut segs = [BioVecMut::new(&mut page, 8, 4)?];
/// let mut dst = IovIterDest::bvec(&mut segs);
/// assert_eq!(dst.copy_to_iter(b"abcdef"), 4);
/// let mut back = [0u8; 12];
/// // SAFETY: `back` is valid for 12 bytes and nothing else uses `page`.
/// unsafe { page.read_raw(back.as_mut_ptr(), 0, 12)? };
/// assert_eq!(&back, b"\0\0\0\0\0\0\0\0abcd");
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct BioVecMut<'data> {
    bvec: bindings::bio_vec,
    _p: PhantomData<&'data mut Page>,
}

impl<'data> BioVecMut<'data> {
    /// Describes `len` bytes of `page` from `offset`; fails with [`EINVAL`] if they do not lie
    /// inside the page.
    #[inline]
    pub fn new(page: &'data mut Page, offset: usize, len: usize) -> Result<Self> {
        // INVARIANT: `bio_vec` checked the range; `page` is borrowed mutably for `'data`.
        Ok(Self {
            bvec: bio_vec(page, offset, len)?,
            _p: PhantomData,
        })
    }

    /// Returns the length of the fragment in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::BioVecMut;
    /// use kernel::page::Page;
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL)?;
    /// assert_eq!(BioVecMut::new(&mut page, 4000, 96)?.len(), 96);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bvec.bv_len as usize
    }

    /// Returns `true` if the fragment is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::BioVecMut;
    /// use kernel::page::Page;
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL)?;
    /// assert!(BioVecMut::new(&mut page, 0, 0)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Sums segment lengths the way the iterator count needs them; a sum that overflows is
/// impossible for real memory, and saturating keeps the count within what the segments hold.
#[inline]
fn total(lens: impl Iterator<Item = usize>) -> usize {
    lens.fold(0, usize::saturating_add)
}

impl<'data> IovIterSource<'data> {
    /// An iterator of direction `ITER_SOURCE` whose C structure is yet to be initialised.
    #[inline]
    fn uninit() -> Self {
        Self {
            iov: Opaque::uninit(),
            _source: PhantomData,
        }
    }

    /// Builds an iterator that reads the kernel buffers `segs` in order (C's `iov_iter_kvec()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterSource, IoSlice};
    ///
    /// let segs = [IoSlice::new(b"ab"), IoSlice::new(b"cde")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// let mut out = [0u8; 5];
    /// assert_eq!(src.copy_from_iter(&mut out), 5);
    /// assert_eq!(&out, b"abcde");
    /// ```
    #[inline]
    pub fn kvec<'s: 'data>(segs: &'data [IoSlice<'s>]) -> Self {
        let this = Self::uninit();
        // SAFETY: `iov_iter_kvec` initialises every field of the iterator. `IoSlice` is a
        // transparent `struct kvec`; the array is borrowed for `'data` and each buffer for
        // `'s: 'data`, so the iterator's invariants hold for `'data`.
        unsafe {
            bindings::iov_iter_kvec(
                this.iov.get(),
                bindings::ITER_SOURCE,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(IoSlice::len)),
            )
        };
        this
    }

    /// Builds an iterator that reads the page fragments `segs` in order (C's
    /// `iov_iter_bvec()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIterSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let segs = [BioVec::new(&page, 0, 16)?];
    /// assert_eq!(IovIterSource::bvec(&segs).len(), 16);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn bvec<'s: 'data>(segs: &'data [BioVec<'s>]) -> Self {
        let this = Self::uninit();
        // SAFETY: `iov_iter_bvec` initialises every field of the iterator. `BioVec` is a
        // transparent `struct bio_vec`; the array is borrowed for `'data` and each page for
        // `'s: 'data`.
        unsafe {
            bindings::iov_iter_bvec(
                this.iov.get(),
                bindings::ITER_SOURCE,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(BioVec::len)),
            )
        };
        this
    }
}

impl<'data> IovIterDest<'data> {
    /// An iterator of direction `ITER_DEST` whose C structure is yet to be initialised.
    #[inline]
    fn uninit() -> Self {
        Self {
            iov: Opaque::uninit(),
            _dest: PhantomData,
        }
    }

    /// Builds an iterator that writes the kernel buffers `segs` in order (C's
    /// `iov_iter_kvec()`). The array is borrowed mutably: no two iterators write through the
    /// same segments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterDest, IoSliceMut};
    ///
    /// let mut a = [0u8; 2];
    /// let mut b = [0u8; 3];
    /// let mut segs = [IoSliceMut::new(&mut a), IoSliceMut::new(&mut b)];
    /// let mut dst = IovIterDest::kvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"12345678"), 5);
    /// assert_eq!((&a, &b), (b"12", b"345"));
    /// ```
    #[inline]
    pub fn kvec<'s: 'data>(segs: &'data mut [IoSliceMut<'s>]) -> Self {
        let this = Self::uninit();
        // SAFETY: `iov_iter_kvec` initialises every field of the iterator. `IoSliceMut` is a
        // transparent `struct kvec`; the array is borrowed mutably for `'data` and each buffer
        // for `'s: 'data`, so nothing else writes or reads through them meanwhile.
        unsafe {
            bindings::iov_iter_kvec(
                this.iov.get(),
                bindings::ITER_DEST,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(IoSliceMut::len)),
            )
        };
        this
    }

    /// Builds an iterator that writes the page fragments `segs` in order (C's
    /// `iov_iter_bvec()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVecMut, IovIterDest};
    /// use kernel::page::Page;
    ///
    /// let mut p0 = Page::alloc_page(GFP_KERNEL)?;
    /// let mut p1 = Page::alloc_page(GFP_KERNEL)?;
    /// let mut segs = [BioVecMut::new(&mut p0, 10, 2)?, BioVecMut::new(&mut p1, 20, 2)?];
    /// let mut dst = IovIterDest::bvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"abcd"), 4);
    /// let mut back = [0u8; 2];
    /// // SAFETY: `back` is valid for 2 bytes and nothing else uses `p1`.
    /// unsafe { p1.read_raw(back.as_mut_ptr(), 20, 2)? };
    /// assert_eq!(&back, b"cd");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn bvec<'s: 'data>(segs: &'data mut [BioVecMut<'s>]) -> Self {
        let this = Self::uninit();
        // SAFETY: `iov_iter_bvec` initialises every field of the iterator. `BioVecMut` is a
        // transparent `struct bio_vec`; the array is borrowed mutably for `'data` and each page
        // for `'s: 'data`.
        unsafe {
            bindings::iov_iter_bvec(
                this.iov.get(),
                bindings::ITER_DEST,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(BioVecMut::len)),
            )
        };
        this
    }
}

impl IovIterDest<'static> {
    /// Builds an iterator that takes `len` bytes and drops them (C's `iov_iter_discard()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovIterDest;
    ///
    /// let mut dst = IovIterDest::discard(3);
    /// assert_eq!(dst.copy_to_iter(b"abcd"), 3);
    /// assert!(dst.is_empty());
    /// ```
    #[inline]
    pub fn discard(len: usize) -> Self {
        let this = Self::uninit();
        // SAFETY: `iov_iter_discard` initialises every field of the iterator, which describes
        // no memory.
        unsafe { bindings::iov_iter_discard(this.iov.get(), bindings::ITER_DEST, len) };
        this
    }
}

/// The kind of memory an iterator walks (C's `enum iter_type`).
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIter, IovIterDest, IterType};
///
/// assert_eq!(IovIterDest::discard(8).iter_type(), IterType::Discard);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterType {
    /// One user buffer (`ITER_UBUF`).
    Ubuf,
    /// An array of user buffers (`ITER_IOVEC`).
    Iovec,
    /// An array of page fragments (`ITER_BVEC`).
    Bvec,
    /// An array of kernel buffers (`ITER_KVEC`).
    Kvec,
    /// A queue of folios (`ITER_FOLIOQ`).
    Folioq,
    /// A range of an xarray of folios (`ITER_XARRAY`).
    Xarray,
    /// No memory: data copied into it is dropped (`ITER_DISCARD`).
    Discard,
}

mod private {
    use crate::bindings;

    /// Implemented by the two iterator types only.
    pub trait Sealed {
        /// Returns the C iterator.
        fn raw(&self) -> *mut bindings::iov_iter;
    }

    impl Sealed for super::IovIterSource<'_> {
        #[inline]
        fn raw(&self) -> *mut bindings::iov_iter {
            self.iov.get()
        }
    }

    impl Sealed for super::IovIterDest<'_> {
        #[inline]
        fn raw(&self) -> *mut bindings::iov_iter {
            self.iov.get()
        }
    }
}

/// What [`IovIterSource`] and [`IovIterDest`] have in common beyond copying: questions about
/// the memory they walk, and a guard to move them back safely.
///
/// Implemented by those two types only.
pub trait IovIter: private::Sealed + Sized {
    /// Returns the kind of memory the iterator walks.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IterType};
    ///
    /// assert_eq!(IoSlice::new(b"x").source().iter_type(), IterType::Kvec);
    /// ```
    #[inline]
    fn iter_type(&self) -> IterType {
        // SAFETY: By the type invariants the iterator is initialised.
        match u32::from(unsafe { (*self.raw()).iter_type }) {
            bindings::iter_type_ITER_UBUF => IterType::Ubuf,
            bindings::iter_type_ITER_IOVEC => IterType::Iovec,
            bindings::iter_type_ITER_BVEC => IterType::Bvec,
            bindings::iter_type_ITER_KVEC => IterType::Kvec,
            bindings::iter_type_ITER_FOLIOQ => IterType::Folioq,
            bindings::iter_type_ITER_XARRAY => IterType::Xarray,
            // The only other value 6.12 defines.
            _ => IterType::Discard,
        }
    }

    /// Returns `true` if the iterator walks user memory (C's `user_backed_iter()`): copies can
    /// fault and come up short at any byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// assert!(!IoSlice::new(b"kernel").source().is_user_backed());
    /// ```
    #[inline]
    fn is_user_backed(&self) -> bool {
        matches!(self.iter_type(), IterType::Ubuf | IterType::Iovec)
    }

    /// Returns the number of segments left, the current one included: C's `nr_segs` for
    /// `ITER_IOVEC`, `ITER_KVEC` and `ITER_BVEC`, 1 for `ITER_UBUF`, 0 for types without a
    /// segment array.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// let segs = [IoSlice::new(b"ab"), IoSlice::new(b"cd"), IoSlice::new(b"ef")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// assert_eq!(src.nr_segs(), 3);
    /// src.advance(3);
    /// assert_eq!(src.nr_segs(), 2);
    /// src.advance(3);
    /// assert_eq!(src.nr_segs(), 0);
    /// ```
    #[inline]
    fn nr_segs(&self) -> usize {
        match self.iter_type() {
            // SAFETY: The iterator is initialised, and for these types the union holds
            // `nr_segs`.
            IterType::Ubuf | IterType::Iovec | IterType::Kvec | IterType::Bvec => unsafe {
                (*self.raw()).__bindgen_anon_2.nr_segs
            },
            _ => 0,
        }
    }

    /// Returns the number of bytes left in the current segment (C's
    /// `iov_iter_single_seg_count()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// let segs = [IoSlice::new(b"abcd"), IoSlice::new(b"ef")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// src.advance(1);
    /// assert_eq!(src.segment_len(), 3);
    /// src.advance(3);
    /// assert_eq!(src.segment_len(), 2);
    /// ```
    #[inline]
    fn segment_len(&self) -> usize {
        // SAFETY: The iterator is valid; the function only reads it.
        unsafe { bindings::iov_iter_single_seg_count(self.raw()) }
    }

    /// Returns the number of pages the rest of the iterator touches, counting up to `max` (C's
    /// `iov_iter_npages()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIter, IovIterSource};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let a = Page::alloc_page(GFP_KERNEL)?;
    /// let b = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&a, PAGE_SIZE - 8, 8)?, BioVec::new(&b, 0, 8)?];
    /// let src = IovIterSource::bvec(&segs);
    /// assert_eq!((src.npages(16), src.npages(1)), (2, 1));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn npages(&self, max: usize) -> usize {
        let max = max.min(c_int::MAX as usize) as c_int;
        // SAFETY: The iterator is valid; the function only reads it.
        let n = unsafe { bindings::iov_iter_npages(self.raw(), max) };
        n.max(0) as usize
    }

    /// Returns the OR of the addresses and lengths of the rest of the segments, whose lowest set
    /// bit is the alignment of the whole (C's `iov_iter_alignment()`); 0 when empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIter, IovIterSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&page, 512, 1024)?];
    /// let mut src = IovIterSource::bvec(&segs);
    /// assert_eq!(src.alignment() & 511, 0);
    /// src.advance(2);
    /// assert_eq!(src.alignment() & 3, 2);
    /// src.advance(usize::MAX);
    /// assert_eq!(src.alignment(), 0);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn alignment(&self) -> usize {
        // SAFETY: The iterator is valid; the function only reads it, and reads no segment
        // once it is empty.
        unsafe { bindings::iov_iter_alignment(self.raw()) as usize }
    }

    /// Returns the OR of the boundaries between the segments of a user-backed iterator (the start
    /// of each segment but the first, the end of each but the last), which tells whether they can
    /// be merged into one request (C's `iov_iter_gap_alignment()`); `None` for other types, for
    /// which C does not define it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// let segs = [IoSlice::new(b"ab"), IoSlice::new(b"cd")];
    /// assert_eq!(IovIterSource::kvec(&segs).gap_alignment(), None);
    /// ```
    #[inline]
    fn gap_alignment(&self) -> Option<usize> {
        if !self.is_user_backed() {
            return None;
        }
        // SAFETY: The iterator is valid and user-backed, as the function requires; it only
        // reads it.
        Some(unsafe { bindings::iov_iter_gap_alignment(self.raw()) as usize })
    }

    /// Returns `true` if no segment's address has a bit of `addr_mask` set and no segment's
    /// length a bit of `len_mask` (C's `iov_iter_is_aligned()`); an empty iterator is aligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIter, IovIterSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&page, 512, 1024)?];
    /// let mut src = IovIterSource::bvec(&segs);
    /// assert!(src.is_aligned(511, 511));
    /// src.advance(1);
    /// assert!(!src.is_aligned(511, 0));
    /// src.advance(usize::MAX);
    /// assert!(src.is_aligned(511, 511));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn is_aligned(&self, addr_mask: u32, len_mask: u32) -> bool {
        // SAFETY: The iterator is valid; the function only reads it, and reads no segment
        // once it is empty.
        unsafe { bindings::iov_iter_is_aligned(self.raw(), addr_mask, len_mask) }
    }

    /// Remembers where the iterator is and what is left of it; the returned guard gives access
    /// to the iterator, moves it back safely and puts it back when dropped.
    ///
    /// # Examples
    ///
    /// Try a copy, and undo it unless all of it went through:
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// fn take_all(src: &mut IovIterSource<'_>, out: &mut [u8]) -> bool {
    ///     let mut guard = src.checkpoint();
    ///     if guard.copy_from_iter(out) != out.len() {
    ///         return false; // Dropping the guard moves `src` back.
    ///     }
    ///     guard.commit();
    ///     true
    /// }
    ///
    /// let segs = [IoSlice::new(b"abc"), IoSlice::new(b"defgh")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// src.advance(1);
    /// assert!(take_all(&mut src, &mut [0u8; 4]));
    /// assert!(!take_all(&mut src, &mut [0u8; 4]));
    /// assert_eq!(src.len(), 3);
    /// ```
    #[inline]
    fn checkpoint(&mut self) -> IovCheckpoint<'_, Self> {
        IovCheckpoint {
            // SAFETY: The iterator is initialised and plain data; this is a copy of it.
            saved: unsafe { ptr::read(self.raw()) },
            hidden: 0,
            iov: self,
        }
    }
}

impl IovIter for IovIterSource<'_> {}
impl IovIter for IovIterDest<'_> {}

/// A position of an iterator to come back to, with the iterator it belongs to: what
/// [`IovIter::checkpoint`] returns.
///
/// It dereferences to the iterator, so everything can be done through it. What C leaves to its
/// caller's care is checked here: [`IovCheckpoint::revert`] never goes back before the
/// checkpoint, [`IovCheckpoint::reexpand`] gives back only what [`IovCheckpoint::truncate`]
/// took. Dropping the guard puts the iterator back where it was, with all of its bytes;
/// [`IovCheckpoint::commit`] keeps the new position instead.
///
/// It keeps a copy of the C iterator as it was (C's `iov_iter_save_state()` keeps part of
/// one). Going back writes that copy and moves forward from it, so it stays within the
/// iterator's memory even if the iterator behind the guard was replaced meanwhile (through
/// [`DerefMut`] and [`core::mem::swap`]), and it works for every iterator type (C's
/// `iov_iter_restore()` refuses discard, xarray and folio queue iterators).
///
/// # Invariants
///
/// `saved` is the state `iov` had when the guard was made, so it describes memory `iov` may
/// access for its `'data`; `hidden` is at most what [`IovCheckpoint::truncate`] took away and
/// not given back.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIter, IovIterDest};
///
/// let mut dst = IovIterDest::discard(10);
/// {
///     let mut guard = dst.checkpoint();
///     guard.advance(7);
///     assert_eq!(guard.consumed(), 7);
///     assert_eq!(guard.revert(8), Err(EINVAL));
///     guard.revert(2)?;
///     assert_eq!(guard.len(), 5);
/// }
/// assert_eq!(dst.len(), 10);
/// # Ok::<(), Error>(())
/// ```
pub struct IovCheckpoint<'a, I: IovIter> {
    iov: &'a mut I,
    saved: bindings::iov_iter,
    hidden: usize,
}

impl<I: IovIter> IovCheckpoint<'_, I> {
    /// Returns how far the iterator moved forward since the checkpoint.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let seg = IoSlice::new(b"abcdef");
    /// let mut src = seg.source();
    /// let mut guard = src.checkpoint();
    /// guard.copy_from_iter(&mut [0u8; 4]);
    /// guard.truncate(1);
    /// assert_eq!(guard.consumed(), 4);
    /// ```
    #[inline]
    pub fn consumed(&self) -> usize {
        // SAFETY: `saved` is an initialised iterator state.
        let start = unsafe { raw_count(&self.saved) };
        // SAFETY: The iterator is initialised.
        let now = unsafe { raw_count(self.iov.raw()) };
        start.saturating_sub(now.saturating_add(self.hidden))
    }

    /// Puts the iterator `pos` bytes past the checkpoint with at most `len` bytes left.
    #[inline]
    fn seek(&mut self, pos: usize, len: usize) {
        let raw = self.iov.raw();
        // SAFETY: By the type invariants `saved` is a state of this iterator, valid for its
        // `'data`: writing it back, then moving forward and lowering the count from there,
        // leaves it inside its memory, whatever was done to it meanwhile. `&mut` access to the
        // iterator is held.
        unsafe {
            ptr::write(raw, ptr::read(&self.saved));
            bindings::iov_iter_advance(raw, pos);
            if raw_count(raw) > len {
                set_raw_count(raw, len);
            }
        }
    }

    /// Moves the iterator back by `bytes`, or fails with [`EINVAL`] and leaves it where it is
    /// if that would go before the checkpoint.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// let segs = [IoSlice::new(b"abc"), IoSlice::new(b"def")];
    /// let mut src = IovIterSource::kvec(&segs);
    /// src.advance(1);
    /// let mut guard = src.checkpoint();
    /// let mut out = [0u8; 4];
    /// assert_eq!(guard.copy_from_iter(&mut out), 4);
    /// guard.revert(3)?;
    /// assert_eq!(guard.copy_from_iter(&mut out[..2]), 2);
    /// assert_eq!(&out[..2], b"cd");
    /// assert_eq!(guard.revert(4), Err(EINVAL));
    /// guard.revert(3)?;
    /// assert_eq!(guard.len(), 5);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn revert(&mut self, bytes: usize) -> Result {
        let consumed = self.consumed();
        if bytes > consumed {
            return Err(EINVAL);
        }
        let len = self.iov_len() + bytes;
        self.seek(consumed - bytes, len);
        Ok(())
    }

    /// Lowers the number of bytes left to at most `max` and returns by how much it went down
    /// (C's `iov_iter_truncate()`); [`IovCheckpoint::reexpand`] gives them back, and so do
    /// [`IovCheckpoint::commit`] and dropping the guard.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let seg = IoSlice::new(b"abcdefgh");
    /// let mut src = seg.source();
    /// let mut guard = src.checkpoint();
    /// assert_eq!(guard.truncate(3), 5);
    /// let mut out = [0u8; 8];
    /// assert_eq!(guard.copy_from_iter(&mut out), 3);
    /// assert_eq!(guard.reexpand(usize::MAX), 5);
    /// assert_eq!(guard.copy_from_iter(&mut out[3..]), 5);
    /// assert_eq!(&out, b"abcdefgh");
    /// ```
    #[inline]
    pub fn truncate(&mut self, max: usize) -> usize {
        let len = self.iov_len();
        if len <= max {
            return 0;
        }
        // SAFETY: Lowering the count keeps the iterator inside its memory; `&mut` access to it
        // is held.
        unsafe { set_raw_count(self.iov.raw(), max) };
        // INVARIANT: `len - max` more bytes are hidden.
        self.hidden += len - max;
        len - max
    }

    /// Gives back up to `bytes` of what [`IovCheckpoint::truncate`] took and returns how many
    /// (C's `iov_iter_reexpand()`, which takes the new count and trusts its caller).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let seg = IoSlice::new(b"abcdefgh");
    /// let mut src = seg.source();
    /// let mut guard = src.checkpoint();
    /// assert_eq!(guard.reexpand(1), 0);
    /// guard.truncate(2);
    /// assert_eq!(guard.reexpand(4), 4);
    /// assert_eq!(guard.reexpand(4), 2);
    /// assert_eq!(guard.len(), 8);
    /// ```
    #[inline]
    pub fn reexpand(&mut self, bytes: usize) -> usize {
        let bytes = bytes.min(self.hidden);
        if bytes > 0 {
            let len = self.iov_len() + bytes;
            let consumed = self.consumed();
            self.seek(consumed, len);
            // INVARIANT: `bytes` of the hidden ones were given back.
            self.hidden -= bytes;
        }
        bytes
    }

    /// Keeps the iterator where it is, with the bytes [`IovCheckpoint::truncate`] took given
    /// back.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let seg = IoSlice::new(b"abcd");
    /// let mut src = seg.source();
    /// let mut guard = src.checkpoint();
    /// guard.advance(1);
    /// guard.truncate(1);
    /// guard.commit();
    /// assert_eq!(src.len(), 3);
    /// ```
    #[inline]
    pub fn commit(mut self) {
        self.reexpand(usize::MAX);
        core::mem::forget(self);
    }

    /// Puts the iterator back where it was when the guard was made: the same as dropping the
    /// guard.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let seg = IoSlice::new(b"abc");
    /// let mut src = seg.source();
    /// src.advance(1);
    /// let mut guard = src.checkpoint();
    /// guard.advance(2);
    /// guard.rollback();
    /// assert_eq!(src.len(), 2);
    /// ```
    #[inline]
    pub fn rollback(self) {}

    /// The count of the iterator.
    #[inline]
    fn iov_len(&self) -> usize {
        // SAFETY: The iterator is initialised.
        unsafe { raw_count(self.iov.raw()) }
    }
}

impl<I: IovIter> Deref for IovCheckpoint<'_, I> {
    type Target = I;

    #[inline]
    fn deref(&self) -> &I {
        self.iov
    }
}

impl<I: IovIter> DerefMut for IovCheckpoint<'_, I> {
    #[inline]
    fn deref_mut(&mut self) -> &mut I {
        self.iov
    }
}

impl<I: IovIter> Drop for IovCheckpoint<'_, I> {
    #[inline]
    fn drop(&mut self) {
        let raw = self.iov.raw();
        // SAFETY: As in `seek`: `saved` is a state of this iterator, valid for its `'data`.
        unsafe { ptr::write(raw, ptr::read(&self.saved)) };
    }
}

impl<'data> IovIterSource<'data> {
    /// Fills all of `out` from the iterator, or fails with [`EFAULT`] and moves the iterator back
    /// to where it was (C's `copy_from_iter_full()`); `out` may be partly written then.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let seg = IoSlice::new(b"abcdef");
    /// let mut src = seg.source();
    /// let mut out = [0u8; 4];
    /// src.copy_from_iter_full(&mut out)?;
    /// assert_eq!(&out, b"abcd");
    /// assert_eq!(src.copy_from_iter_full(&mut out), Err(EFAULT));
    /// assert_eq!(src.len(), 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_from_iter_full(&mut self, out: &mut [u8]) -> Result {
        let n = self.copy_from_iter(out);
        if n == out.len() {
            return Ok(());
        }
        // SAFETY: The copy just moved the iterator forward by `n` bytes.
        unsafe { self.revert(n) };
        Err(EFAULT)
    }

    /// Reads a plain-data value from the next `size_of::<T>()` bytes, or fails with [`EFAULT`]
    /// and leaves the iterator where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let bytes = [1u8, 0, 0, 0, 2, 0];
    /// let seg = IoSlice::new(&bytes);
    /// let mut src = seg.source();
    /// assert_eq!(src.read::<u32>()?, u32::from_le_bytes([1, 0, 0, 0]));
    /// assert_eq!(src.read::<u32>(), Err(EFAULT));
    /// assert_eq!(src.read::<u16>()?, u16::from_le_bytes([2, 0]));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn read<T: FromBytes>(&mut self) -> Result<T> {
        let mut value = MaybeUninit::<T>::uninit();
        // SAFETY: `value` is valid for writes of `size_of::<T>()` bytes, any of which may be
        // written since `T: FromBytes`.
        let bytes = unsafe {
            slice::from_raw_parts_mut(value.as_mut_ptr().cast::<MaybeUninit<u8>>(), size_of::<T>())
        };
        let n = self.copy_from_iter_raw(bytes).len();
        if n != size_of::<T>() {
            // SAFETY: The copy just moved the iterator forward by `n` bytes.
            unsafe { self.revert(n) };
            return Err(EFAULT);
        }
        // SAFETY: All of `value` was written, and any bytes are a valid `T`.
        Ok(unsafe { value.assume_init() })
    }

    /// Copies up to `len` bytes from the iterator into `page` at `offset` and returns how many it
    /// copied (C's `copy_page_from_iter()`); fails with [`EINVAL`] if the range is not inside
    /// the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let seg = IoSlice::new(b"xyz");
    /// let mut src = seg.source();
    /// assert_eq!(src.copy_page_from_iter(&mut page, PAGE_SIZE - 2, 3), Err(EINVAL));
    /// assert_eq!(src.copy_page_from_iter(&mut page, PAGE_SIZE - 8, 8)?, 3);
    /// let mut back = [0u8; 3];
    /// // SAFETY: `back` is valid for 3 bytes and nothing else uses `page`.
    /// unsafe { page.read_raw(back.as_mut_ptr(), PAGE_SIZE - 8, 3)? };
    /// assert_eq!(&back, b"xyz");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_from_iter(
        &mut self,
        page: &mut Page,
        offset: usize,
        len: usize,
    ) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed mutably; the iterator may be
        // read for `'data`.
        Ok(unsafe { bindings::copy_page_from_iter(page.as_ptr(), offset, len, self.as_raw()) })
    }

    /// Like [`IovIterSource::copy_page_from_iter`], with page faults disabled: it may be used
    /// with a page lock held or in atomic context (C's `copy_page_from_iter_atomic()`). For user
    /// memory that is not present it copies less, possibly nothing.
    ///
    /// # Examples
    ///
    /// A write loop in the style of filesystems: fault the source in, copy with faults
    /// disabled, go on by what was copied.
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIterSource};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// fn fill(page: &mut Page, src: &mut IovIterSource<'_>) -> Result<usize> {
    ///     let mut done = 0;
    ///     while done < PAGE_SIZE && !src.is_empty() {
    ///         let want = (PAGE_SIZE - done).min(src.len());
    ///         if src.fault_in_readable(want) == want {
    ///             return Err(EFAULT);
    ///         }
    ///         // A page lock would be taken here.
    ///         done += src.copy_page_from_iter_atomic(page, done, want)?;
    ///     }
    ///     Ok(done)
    /// }
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL)?;
    /// let data = [7u8; 100];
    /// let seg = IoSlice::new(&data);
    /// assert_eq!(fill(&mut page, &mut seg.source())?, 100);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_from_iter_atomic(
        &mut self,
        page: &mut Page,
        offset: usize,
        len: usize,
    ) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: As for `copy_page_from_iter`.
        Ok(unsafe {
            bindings::copy_page_from_iter_atomic(page.as_ptr(), offset, len, self.as_raw())
        })
    }

    /// Serves a `write_iter` of a file whose whole contents are `contents`: copies from the
    /// iterator into them at position `*ppos`, moves `*ppos` past the bytes copied and returns
    /// how many there were (C's `simple_write_to_buffer()`).
    ///
    /// Returns 0 at or past the end of `contents` or for an empty iterator; fails with
    /// [`EINVAL`] for a negative position and, as C does, with [`EFAULT`] if not one byte could
    /// be copied.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let mut file = *b"..........";
    /// let seg = IoSlice::new(b"abcdef");
    /// let mut src = seg.source();
    /// let mut pos = 7;
    /// assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 3);
    /// assert_eq!(pos, 10);
    /// assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 0);
    /// let mut start = 0;
    /// assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 3);
    /// assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 0);
    /// assert_eq!(&file, b"def....abc");
    /// let mut bad = i64::MIN;
    /// assert_eq!(src.simple_write_to_buffer(&mut bad, &mut file), Err(EINVAL));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn simple_write_to_buffer(&mut self, ppos: &mut i64, contents: &mut [u8]) -> Result<usize> {
        if *ppos < 0 {
            return Err(EINVAL);
        }
        let Some(rest) = usize::try_from(*ppos)
            .ok()
            .and_then(|pos| contents.get_mut(pos..))
        else {
            return Ok(0);
        };
        if rest.is_empty() || self.is_empty() {
            return Ok(0);
        }
        let n = self.copy_from_iter(rest);
        if n == 0 {
            return Err(EFAULT);
        }
        // `*ppos + n <= contents.len() <= isize::MAX`, which fits.
        *ppos += n as i64;
        Ok(n)
    }

    /// Faults in up to `bytes` of user memory at the start of the iterator and returns how many
    /// could *not* be (C's `fault_in_iov_iter_readable()`); 0 for kernel memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// assert_eq!(IoSlice::new(b"kernel memory").source().fault_in_readable(5), 0);
    /// ```
    #[inline]
    pub fn fault_in_readable(&self, bytes: usize) -> usize {
        // SAFETY: The iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_readable(self.iov.get(), bytes) }
    }
}

impl<'data> IovIterDest<'data> {
    /// Copies all of `input` into the iterator, or fails with [`EFAULT`] and moves the iterator
    /// back to where it was (C's `copy_to_iter_full()`); the iterator's memory may be partly
    /// written then.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 5];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// dst.copy_to_iter_full(b"abc")?;
    /// assert_eq!(dst.copy_to_iter_full(b"def"), Err(EFAULT));
    /// assert_eq!(dst.len(), 2);
    /// dst.copy_to_iter_full(b"de")?;
    /// assert_eq!(&buf, b"abcde");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_to_iter_full(&mut self, input: &[u8]) -> Result {
        let n = self.copy_to_iter(input);
        if n == input.len() {
            return Ok(());
        }
        // SAFETY: The copy just moved the iterator forward by `n` bytes.
        unsafe { self.revert(n) };
        Err(EFAULT)
    }

    /// Writes the bytes of a plain-data value, or fails with [`EFAULT`] and leaves the iterator
    /// where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 6];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// dst.write(&0x0102_0304u32.to_le())?;
    /// assert_eq!(dst.write(&0u32), Err(EFAULT));
    /// dst.write(&0x0506u16.to_le())?;
    /// assert_eq!(buf, [4, 3, 2, 1, 6, 5]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn write<T: AsBytes>(&mut self, value: &T) -> Result {
        // SAFETY: `value` is valid for reads of `size_of::<T>()` bytes, all initialised since
        // `T: AsBytes`.
        let bytes = unsafe { slice::from_raw_parts(ptr::from_ref(value).cast(), size_of::<T>()) };
        self.copy_to_iter_full(bytes)
    }

    /// Writes up to `bytes` zeroes and returns how many it wrote (C's `iov_iter_zero()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [9u8; 4];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// dst.advance(1);
    /// assert_eq!(dst.zero(10), 3);
    /// assert_eq!(buf, [9, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn zero(&mut self, bytes: usize) -> usize {
        // SAFETY: The iterator may be written for `'data`.
        unsafe { bindings::iov_iter_zero(bytes, self.as_raw()) }
    }

    /// Copies up to `len` bytes of `page` from `offset` into the iterator and returns how many it
    /// copied (C's `copy_page_to_iter()`); fails with [`EINVAL`] if the range is not inside the
    /// page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// // SAFETY: The source is valid for 2 bytes and nothing else uses `page`.
    /// unsafe { page.write_raw(b"ok".as_ptr(), 40, 2)? };
    /// let mut buf = [1u8; 4];
    /// let mut seg = IoSliceMut::new(&mut buf);
    /// let mut dst = seg.dest();
    /// assert_eq!(dst.copy_page_to_iter(&page, 40, PAGE_SIZE), Err(EINVAL));
    /// assert_eq!(dst.copy_page_to_iter(&page, 39, 10)?, 4);
    /// assert_eq!(&buf, b"\0ok\0");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_to_iter(&mut self, page: &Page, offset: usize, len: usize) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed; the iterator may be written
        // for `'data`.
        Ok(unsafe { bindings::copy_page_to_iter(page.as_ptr(), offset, len, self.as_raw()) })
    }

    /// Faults in up to `bytes` of user memory at the start of the iterator for writing and
    /// returns how many could *not* be (C's `fault_in_iov_iter_writeable()`); 0 for kernel
    /// memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 8];
    /// assert_eq!(IoSliceMut::new(&mut buf).dest().fault_in_writeable(8), 0);
    /// ```
    #[inline]
    pub fn fault_in_writeable(&self, bytes: usize) -> usize {
        // SAFETY: The iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_writeable(self.iov.get(), bytes) }
    }
}
