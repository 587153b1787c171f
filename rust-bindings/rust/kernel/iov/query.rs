// SPDX-License-Identifier: GPL-2.0

//! Questions about an iterator beyond its length: the kind of memory it walks, its segments,
//! the pages it touches, its alignment ([`IovIter`]).

use super::{checkpoint::IovCheckpoint, IovIterDest, IovIterSource};
use crate::{bindings, ffi::c_int};

/// The kind of memory an iterator walks (C's `enum iter_type`).
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIter, IovIterDest, IterType};
///
/// assert_eq!(IovIterDest::with_discard(8, |dst| dst.iter_type()), IterType::Discard);
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
    /// assert_eq!(IoSlice::new(b"x").with_source(|src| src.iter_type()), IterType::Kvec);
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
    /// assert!(!IoSlice::new(b"kernel").with_source(|src| src.is_user_backed()));
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
    /// IovIterSource::with_kvec(&segs, |src| {
    ///     assert_eq!(src.nr_segs(), 3);
    ///     src.advance(3);
    ///     assert_eq!(src.nr_segs(), 2);
    ///     src.advance(3);
    ///     assert_eq!(src.nr_segs(), 0);
    /// });
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
    /// IovIterSource::with_kvec(&segs, |src| {
    ///     src.advance(1);
    ///     assert_eq!(src.segment_len(), 3);
    ///     src.advance(3);
    ///     assert_eq!(src.segment_len(), 2);
    /// });
    /// ```
    #[inline]
    fn segment_len(&self) -> usize {
        // SAFETY: The iterator is valid; the function only reads it, and reads the current
        // segment only when more than one is left, so it exists.
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
    /// let n = IovIterSource::with_bvec(&segs, |src| (src.npages(16), src.npages(1)));
    /// assert_eq!(n, (2, 1));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn npages(&self, max: usize) -> usize {
        let max = max.min(c_int::MAX as usize) as c_int;
        // SAFETY: The iterator is valid; the function only reads it, and walks no further than
        // its count.
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
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     assert_eq!(src.alignment() & 511, 0);
    ///     src.advance(2);
    ///     assert_eq!(src.alignment() & 3, 2);
    ///     src.advance(usize::MAX);
    ///     assert_eq!(src.alignment(), 0);
    /// });
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn alignment(&self) -> usize {
        // SAFETY: The iterator is valid and the function only reads it. It reads no segment
        // once the iterator is empty: that is what the patch "iov_iter: don't read past the end
        // in iov_iter_alignment() and iov_iter_is_aligned()" of this series makes true; 6.12
        // read one entry past the segment array of an iterator advanced to its end.
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
    /// assert_eq!(IovIterSource::with_kvec(&segs, |src| src.gap_alignment()), None);
    /// ```
    #[inline]
    fn gap_alignment(&self) -> Option<usize> {
        if !self.is_user_backed() {
            return None;
        }
        // SAFETY: The iterator is valid and user-backed, as the function requires; it only
        // reads it, and no more than its `nr_segs` segments.
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
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     assert!(src.is_aligned(511, 511));
    ///     src.advance(1);
    ///     assert!(!src.is_aligned(511, 0));
    ///     src.advance(usize::MAX);
    ///     assert!(src.is_aligned(511, 511));
    /// });
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    fn is_aligned(&self, addr_mask: u32, len_mask: u32) -> bool {
        // SAFETY: As for `alignment`: valid, only read, and with the series' fix to
        // `iov_iter_is_aligned()` no segment is read once the iterator is empty.
        unsafe { bindings::iov_iter_is_aligned(self.raw(), addr_mask, len_mask) }
    }

    /// Calls `f` with a guard over the iterator that remembers where it is now, and returns
    /// what `f` returns.
    ///
    /// Through the guard the iterator can be used as usual, and also moved back, truncated and
    /// re-expanded, never past where it was when the guard was made ([`IovCheckpoint`]). When
    /// `f` returns, the iterator is put back where it was, with all of its bytes, unless `f`
    /// called [`IovCheckpoint::commit`]: then it stays where it got to, with the bytes
    /// [`IovCheckpoint::truncate`] took given back. That happens after `f`, not in a `Drop`, so
    /// no guard can be leaked with its iterator truncated.
    ///
    /// # Examples
    ///
    /// Try a copy, and undo it unless all of it went through:
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// fn take_all(src: &mut IovIterSource<'_>, out: &mut [u8]) -> bool {
    ///     src.checkpoint(|cp| {
    ///         if cp.copy_from_iter(out) != out.len() {
    ///             return false; // The iterator goes back when the closure returns.
    ///         }
    ///         cp.commit();
    ///         true
    ///     })
    /// }
    ///
    /// let segs = [IoSlice::new(b"abc"), IoSlice::new(b"defgh")];
    /// IovIterSource::with_kvec(&segs, |src| {
    ///     src.advance(1);
    ///     assert!(take_all(src, &mut [0u8; 4]));
    ///     assert!(!take_all(src, &mut [0u8; 4]));
    ///     assert_eq!(src.len(), 3);
    /// });
    /// ```
    #[inline]
    fn checkpoint<R>(&mut self, f: impl FnOnce(&mut IovCheckpoint<'_, Self>) -> R) -> R {
        IovCheckpoint::run(self, f)
    }
}

impl IovIter for IovIterSource<'_> {}
impl IovIter for IovIterDest<'_> {}
