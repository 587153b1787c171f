// SPDX-License-Identifier: GPL-2.0

//! Iterators over memory borrowed from Rust: kernel buffers (`kvec`) and page fragments
//! (`bio_vec`), to hand to C code that takes a `struct iov_iter`, or to test code that takes
//! one.
//!
//! An iterator built here lives for the length of a closure, which gets `&mut` to it
//! ([`IovIterSource::with_kvec`], [`IovIterDest::with_bvec`], [`IoSlice::with_source`], ...):
//! safe code never owns one. If it did, it could put one in place of the iterator a
//! `read_iter` or `write_iter` handler was lent (`*iov = ...`, [`core::mem::swap`]), and C,
//! which keeps using that iterator after the handler returns (io_uring restores and retries
//! it), would walk this one's segment array with the caller's count, out of bounds. The
//! closure's iterator has a lifetime of its own that nothing outside the closure can name, so
//! it cannot be swapped with another iterator either.
//!
//! # Examples
//!
//! The methods of mainline's API on a destination of two kernel buffers:
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
//! let n = IovIterDest::with_kvec(&mut segs, |dst| {
//!     assert_eq!(dst.len(), 25);
//!     fill(dst, 0xa5)
//! });
//! assert_eq!(n, 25);
//! assert!(head.iter().all(|&b| b == 0xa5) && tail.iter().all(|&b| b == 0xa5));
//!
//! // `advance` zeroes the kernel memory it skips; `simple_read_from_buffer` serves a file.
//! let mut buf = [b'.'; 6];
//! let mut pos = 1;
//! IoSliceMut::new(&mut buf).with_dest(|dst| {
//!     dst.advance(2);
//!     assert_eq!(dst.simple_read_from_buffer(&mut pos, b"hello")?, 4);
//!     assert_eq!(dst.simple_read_from_buffer(&mut pos, b"hello")?, 0);
//!     assert!(dst.is_empty());
//!     Ok::<(), Error>(())
//! })?;
//! assert_eq!((&buf, pos), (b"\0\0ello", 5));
//! # Ok::<(), Error>(())
//! ```
//!
//! And on a source:
//!
//! ```
//! use kernel::iov::{IovIterSource, IoSlice};
//!
//! let segs = [IoSlice::new(b"012"), IoSlice::new(b""), IoSlice::new(b"3456789")];
//! IovIterSource::with_kvec(&segs, |src| {
//!     let mut two = [0u8; 2];
//!     assert_eq!(src.copy_from_iter(&mut two), 2);
//!     src.advance(1);
//!     // SAFETY: It moved forward by 3 bytes.
//!     unsafe { src.revert(2) };
//!     let mut vec = KVec::new();
//!     vec.push(b'>', GFP_KERNEL)?;
//!     assert_eq!(src.copy_from_iter_vec(&mut vec, GFP_KERNEL)?, 9);
//!     assert_eq!(&vec[..], b">123456789");
//!     assert_eq!(src.copy_from_iter(&mut two), 0);
//!     Ok::<(), Error>(())
//! })?;
//! # Ok::<(), Error>(())
//! ```

use super::{IovIterDest, IovIterSource};
use crate::{
    bindings,
    error::{code::*, Result},
    ffi::{c_uint, c_ulong},
    page::{Page, PAGE_SIZE},
    types::Opaque,
};
use core::{marker::PhantomData, slice};

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
/// let mut out = [0u8; 8];
/// assert_eq!(IovIterSource::with_kvec(&segs, |src| src.copy_from_iter(&mut out)), 8);
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

    /// Calls `f` with a source iterator over this one buffer and returns what it returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// assert_eq!(IoSlice::new(b"one").with_source(|src| src.len()), 3);
    /// ```
    #[inline]
    pub fn with_source<R>(&self, f: impl FnOnce(&mut IovIterSource<'_>) -> R) -> R {
        IovIterSource::with_kvec(slice::from_ref(self), f)
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
/// assert_eq!(IovIterDest::with_kvec(&mut segs, |dst| dst.copy_to_iter(b"world!")), 6);
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

    /// Calls `f` with a destination iterator over this one buffer and returns what it returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 2];
    /// assert_eq!(IoSliceMut::new(&mut buf).with_dest(|dst| dst.copy_to_iter(b"ok!")), 2);
    /// assert_eq!(&buf, b"ok");
    /// ```
    #[inline]
    pub fn with_dest<R>(&mut self, f: impl FnOnce(&mut IovIterDest<'_>) -> R) -> R {
        IovIterDest::with_kvec(slice::from_mut(self), f)
    }
}

/// Checks that `len` bytes at `offset` lie inside one page, and that `offset` does.
///
/// An offset of `PAGE_SIZE` is refused even with no bytes: the C page copies and `bio_vec`
/// walks go to the page `offset / PAGE_SIZE` past the given one (and map it) before they look
/// at the length.
#[inline]
pub(super) fn page_range(offset: usize, len: usize) -> Result {
    if offset >= PAGE_SIZE || len > PAGE_SIZE - offset {
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
/// let mut out = [1u8; 64];
/// assert_eq!(IovIterSource::with_bvec(&segs, |src| src.copy_from_iter(&mut out)), 60);
/// assert_eq!((out[..60] == [0u8; 60], out[60]), (true, 1));
/// assert_eq!(BioVec::new(&page, 16, PAGE_SIZE - 15).err(), Some(EINVAL));
/// assert_eq!(BioVec::new(&page, PAGE_SIZE, 0).err(), Some(EINVAL));
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
    /// assert!(BioVec::new(&page, 5, 0)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bvec.bv_len as usize
    }

    /// Returns `true` if the fragment is empty.
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
/// assert_eq!(IovIterDest::with_bvec(&mut segs, |dst| dst.copy_to_iter(b"abcdef")), 4);
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
    /// assert!(BioVecMut::new(&mut page, 0, 0)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bvec.bv_len as usize
    }

    /// Returns `true` if the fragment is empty.
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

impl IovIterSource<'_> {
    /// Calls `f` with an iterator that reads the kernel buffers `segs` in order (C's
    /// `iov_iter_kvec()`) and returns what `f` returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterSource, IoSlice};
    ///
    /// let segs = [IoSlice::new(b"ab"), IoSlice::new(b"cde")];
    /// let mut out = [0u8; 5];
    /// IovIterSource::with_kvec(&segs, |src| {
    ///     assert_eq!(src.copy_from_iter(&mut out), 5);
    ///     assert!(src.is_empty());
    /// });
    /// assert_eq!(&out, b"abcde");
    /// ```
    #[inline]
    pub fn with_kvec<R>(segs: &[IoSlice<'_>], f: impl FnOnce(&mut IovIterSource<'_>) -> R) -> R {
        let mut iov = IovIterSource {
            iov: Opaque::uninit(),
            _source: PhantomData,
        };
        // SAFETY: `iov_iter_kvec` initialises every field of the iterator. `IoSlice` is a
        // transparent `struct kvec`; the array and each buffer are borrowed for the call, so the
        // iterator's invariants hold while `f` can use it.
        unsafe {
            bindings::iov_iter_kvec(
                iov.iov.get(),
                bindings::ITER_SOURCE,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(IoSlice::len)),
            )
        };
        f(&mut iov)
    }

    /// Calls `f` with an iterator that reads the page fragments `segs` in order (C's
    /// `iov_iter_bvec()`) and returns what `f` returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIterSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let segs = [BioVec::new(&page, 0, 16)?];
    /// assert_eq!(IovIterSource::with_bvec(&segs, |src| src.len()), 16);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn with_bvec<R>(segs: &[BioVec<'_>], f: impl FnOnce(&mut IovIterSource<'_>) -> R) -> R {
        let mut iov = IovIterSource {
            iov: Opaque::uninit(),
            _source: PhantomData,
        };
        // SAFETY: `iov_iter_bvec` initialises every field of the iterator. `BioVec` is a
        // transparent `struct bio_vec`; the array and each page are borrowed for the call.
        unsafe {
            bindings::iov_iter_bvec(
                iov.iov.get(),
                bindings::ITER_SOURCE,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(BioVec::len)),
            )
        };
        f(&mut iov)
    }
}

impl IovIterDest<'_> {
    /// Calls `f` with an iterator that writes the kernel buffers `segs` in order (C's
    /// `iov_iter_kvec()`) and returns what `f` returns. The array is borrowed mutably: no two
    /// iterators write through the same segments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovIterDest, IoSliceMut};
    ///
    /// let mut a = [0u8; 2];
    /// let mut b = [0u8; 3];
    /// let mut segs = [IoSliceMut::new(&mut a), IoSliceMut::new(&mut b)];
    /// IovIterDest::with_kvec(&mut segs, |dst| {
    ///     assert_eq!(dst.copy_to_iter(b"12"), 2);
    ///     assert_eq!(dst.copy_to_iter(b"345678"), 3);
    ///     assert_eq!(dst.copy_to_iter(b"9"), 0);
    /// });
    /// assert_eq!((&a, &b), (b"12", b"345"));
    /// ```
    #[inline]
    pub fn with_kvec<R>(
        segs: &mut [IoSliceMut<'_>],
        f: impl FnOnce(&mut IovIterDest<'_>) -> R,
    ) -> R {
        let mut iov = IovIterDest {
            iov: Opaque::uninit(),
            _dest: PhantomData,
        };
        // SAFETY: `iov_iter_kvec` initialises every field of the iterator. `IoSliceMut` is a
        // transparent `struct kvec`; the array and each buffer are borrowed mutably for the
        // call, so nothing else writes or reads through them meanwhile.
        unsafe {
            bindings::iov_iter_kvec(
                iov.iov.get(),
                bindings::ITER_DEST,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(IoSliceMut::len)),
            )
        };
        f(&mut iov)
    }

    /// Calls `f` with an iterator that writes the page fragments `segs` in order (C's
    /// `iov_iter_bvec()`) and returns what `f` returns.
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
    /// assert_eq!(IovIterDest::with_bvec(&mut segs, |dst| dst.copy_to_iter(b"abcd")), 4);
    /// let mut back = [0u8; 2];
    /// // SAFETY: `back` is valid for 2 bytes and nothing else uses `p1`.
    /// unsafe { p1.read_raw(back.as_mut_ptr(), 20, 2)? };
    /// assert_eq!(&back, b"cd");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn with_bvec<R>(
        segs: &mut [BioVecMut<'_>],
        f: impl FnOnce(&mut IovIterDest<'_>) -> R,
    ) -> R {
        let mut iov = IovIterDest {
            iov: Opaque::uninit(),
            _dest: PhantomData,
        };
        // SAFETY: `iov_iter_bvec` initialises every field of the iterator. `BioVecMut` is a
        // transparent `struct bio_vec`; the array and each page are borrowed mutably for the
        // call.
        unsafe {
            bindings::iov_iter_bvec(
                iov.iov.get(),
                bindings::ITER_DEST,
                segs.as_ptr().cast(),
                segs.len() as c_ulong,
                total(segs.iter().map(BioVecMut::len)),
            )
        };
        f(&mut iov)
    }

    /// Calls `f` with an iterator that takes `len` bytes and drops them (C's
    /// `iov_iter_discard()`) and returns what `f` returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovIterDest;
    ///
    /// IovIterDest::with_discard(10, |dst| {
    ///     dst.advance(3);
    ///     assert_eq!(dst.copy_to_iter(b"abcdefgh"), 7);
    ///     assert!(dst.is_empty());
    /// });
    /// ```
    #[inline]
    pub fn with_discard<R>(len: usize, f: impl FnOnce(&mut IovIterDest<'_>) -> R) -> R {
        let mut iov = IovIterDest {
            iov: Opaque::uninit(),
            _dest: PhantomData,
        };
        // SAFETY: `iov_iter_discard` initialises every field of the iterator, which describes
        // no memory.
        unsafe { bindings::iov_iter_discard(iov.iov.get(), bindings::ITER_DEST, len) };
        f(&mut iov)
    }
}
