// SPDX-License-Identifier: GPL-2.0

//! The pages behind an iterator, held for the length of a closure.
//!
//! C header: [`include/linux/uio.h`](srctree/include/linux/uio.h)
//!
//! Code that hands memory to hardware or to another context wants the pages, not a copy.
//! `get_pages()` ([`IovIterSource::get_pages`], [`IovIterDest::get_pages`]) takes a reference on
//! each page (C's `iov_iter_get_pages2()`); `extract_pages()` pins user pages and only borrows
//! kernel ones (C's `iov_iter_extract_pages()`). Both move the iterator past the bytes they
//! take, fill an array inside an [`IterPages`] (no allocation), and lend it to a closure; when
//! the closure returns they release what they took, with `put_page()` (a `static inline`,
//! called through a C helper) or `unpin_user_pages()`.
//!
//! The pages are lent, not returned, because leaking a value is safe
//! ([`core::mem::forget`]): a returned value that released its pages only when dropped could
//! be leaked, and with a checkpoint's `revert` one request could take the same user page again
//! and again, until its reference count overflowed (a pin adds `GUP_PIN_COUNTING_BIAS`, 1024,
//! to it). Here the release does not depend on anything the closure does.

use super::{IovIter, IovIterDest, IovIterSource, IterType};
use crate::{
    bindings,
    error::{code::*, Error, Result},
    ffi::{c_int, c_uint, c_ulong},
    page::PAGE_SIZE,
};
use core::{cell::Cell, marker::PhantomData, ptr};

/// How the pages of an [`IterPages`] are held.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IoSlice, PageHold};
///
/// let data = KVec::from_elem(1u8, 64, GFP_KERNEL)?;
/// let hold = IoSlice::new(&data).with_source(|src| src.extract_pages::<1, _>(64, |p| p.hold()))?;
/// assert_eq!(hold, PageHold::Borrowed);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageHold {
    /// Each page has a reference, dropped with `put_page()`.
    Ref,
    /// Each page is pinned, released with `unpin_user_pages()`.
    Pin,
    /// Nothing is held: the pages belong to memory that the iterator borrows for `'data`.
    Borrowed,
}

/// The largest `N` of [`IterPages`]: its page array lives where the value does, usually on the
/// kernel stack, which has no room for large ones (and no guard against them).
pub const MAX_PAGES: usize = 64;

/// Up to `N` pages taken from an iterator, with the data at `offset()..offset() + len()` of
/// their concatenation. `N` is at most [`MAX_PAGES`]: a larger one does not build.
///
/// Only ever lent to a closure (see the [module documentation](self)): the function that took
/// the pages owns the value and releases the pages when the closure returns.
///
/// # Invariants
///
/// The first `count` entries of `pages` are valid pages and `count <= N`. Each is held as
/// `hold` says, unless [`IterPages::hand_over`] gave the holds away (then `count` is 0); with
/// [`PageHold::Borrowed`], the memory is borrowed for `'data`. `offset` is less than
/// `PAGE_SIZE` when `len` is not zero.
///
/// # Examples
///
/// ```
/// use kernel::iov::{BioVec, IovIterSource, PageHold};
/// use kernel::page::Page;
///
/// let page = Page::alloc_page(GFP_KERNEL)?;
/// let segs = [BioVec::new(&page, 100, 200)?];
/// IovIterSource::with_bvec(&segs, |src| {
///     src.get_pages::<4, _>(usize::MAX, |pages| {
///         assert_eq!(pages.hold(), PageHold::Ref);
///         assert_eq!((pages.offset(), pages.len()), (100, 200));
///         assert_eq!(pages.pages(), &[page.as_ptr()]);
///     })?;
///     assert!(src.is_empty());
///     Ok::<(), Error>(())
/// })?;
/// # Ok::<(), Error>(())
/// ```
pub struct IterPages<'data, const N: usize> {
    pages: [*mut bindings::page; N],
    count: Cell<usize>,
    offset: usize,
    len: usize,
    hold: PageHold,
    _p: PhantomData<&'data [u8]>,
}

impl<const N: usize> IterPages<'_, N> {
    /// Returns the number of data bytes in the pages.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIterSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&page, 0, 300)?];
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     assert_eq!(src.get_pages::<1, _>(120, |p| p.len())?, 120);
    ///     assert_eq!(src.len(), 180);
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Returns `true` if no pages were taken, e.g. because the iterator was empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let data = KVec::from_elem(0u8, 8, GFP_KERNEL)?;
    /// IoSlice::new(&data).with_source(|src| {
    ///     src.advance(8);
    ///     src.extract_pages::<2, _>(8, |pages| {
    ///         assert!(pages.is_empty());
    ///         assert!(pages.pages().is_empty());
    ///     })
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Returns the offset of the data in the first page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    /// use kernel::page::PAGE_SIZE;
    ///
    /// let data = KVec::from_elem(0u8, 100, GFP_KERNEL)?;
    /// IoSlice::new(&data).with_source(|src| {
    ///     src.advance(10);
    ///     let offset = src.extract_pages::<2, _>(50, |pages| pages.offset())?;
    ///     assert_eq!(offset, (data.as_ptr() as usize + 10) % PAGE_SIZE);
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Returns the pages, for use by C code. They stay held until the closure `self` is lent to
    /// returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIterSource};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let a = Page::alloc_page(GFP_KERNEL)?;
    /// let b = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&a, 0, PAGE_SIZE)?, BioVec::new(&b, 0, 8)?];
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     // One segment at a time.
    ///     src.get_pages::<2, _>(usize::MAX, |p| assert_eq!(p.pages(), &[a.as_ptr()]))?;
    ///     src.get_pages::<2, _>(usize::MAX, |p| assert_eq!(p.pages(), &[b.as_ptr()]))?;
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn pages(&self) -> &[*mut bindings::page] {
        &self.pages[..self.count.get()]
    }

    /// Returns how the pages are held, and so how they are released when the closure returns.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IovIterSource, PageHold};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [BioVec::new(&page, 0, 64)?];
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     assert_eq!(src.extract_pages::<1, _>(32, |p| p.hold())?, PageHold::Borrowed);
    ///     assert_eq!(src.get_pages::<1, _>(32, |p| p.hold())?, PageHold::Ref);
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn hold(&self) -> PageHold {
        self.hold
    }

    /// Gives the holds on the pages to the caller, and returns the pages: nothing releases them
    /// when the closure returns. For C glue that passes the pages on to C code which releases
    /// them itself.
    ///
    /// # Safety
    ///
    /// The caller releases every page returned as [`IterPages::hold`] says (`put_page()` for
    /// [`PageHold::Ref`], `unpin_user_page()` for [`PageHold::Pin`]) exactly once. Leaking them
    /// leaks page references that can be taken again until a page's count overflows.
    #[inline]
    pub unsafe fn hand_over(&self) -> &[*mut bindings::page] {
        let count = self.count.replace(0);
        // INVARIANT: `count` is 0: the holds are the caller's now.
        &self.pages[..count]
    }
}

impl<const N: usize> Drop for IterPages<'_, N> {
    #[inline]
    fn drop(&mut self) {
        let count = self.count.get();
        match self.hold {
            PageHold::Ref => {
                for &page in &self.pages[..count] {
                    // SAFETY: By the type invariants we own a reference on `page`.
                    unsafe { bindings::put_page(page) };
                }
            }
            // SAFETY: By the type invariants we own a pin on each of the first `count` pages.
            PageHold::Pin => unsafe {
                bindings::unpin_user_pages(self.pages.as_mut_ptr(), count as c_ulong)
            },
            PageHold::Borrowed => {}
        }
    }
}

/// Turns the return value of a C page-taking function into an [`IterPages`].
///
/// How many entries of `pages` hold a page is not returned by C: it follows from the byte count
/// and the offset. In 6.12 every iterator type's `get_pages` and `extract_pages` code fills
/// and holds exactly `DIV_ROUND_UP(offset + len, PAGE_SIZE)` entries for a return value of
/// `len` (user memory: `len` is cut down to the pages `pin_user_pages_fast()` or
/// `get_user_pages_fast()` returned; bvec and folio queue: one entry per page of the range
/// returned; xarray: `len` is cut down to the pages found), and nothing for an error or 0.
/// The count is also held to the entries C wrote (`pages` starts out null), so that a later
/// change to that C code makes this release fewer pages, never ones it does not hold.
///
/// # Safety
///
/// `ret` and `offset` come from a call that filled `pages` (which was all null before) and
/// holds the pages as `hold` says, for memory valid for `'a` if it holds nothing.
#[inline]
unsafe fn took_pages<'a, const N: usize>(
    ret: isize,
    pages: [*mut bindings::page; N],
    offset: usize,
    hold: PageHold,
) -> Result<IterPages<'a, N>> {
    if ret < 0 {
        return Err(Error::from_errno(ret as c_int));
    }
    let len = ret as usize;
    let filled = pages.iter().take_while(|page| !page.is_null()).count();
    let count = if len == 0 {
        0
    } else {
        offset.saturating_add(len).div_ceil(PAGE_SIZE).min(filled)
    };
    // INVARIANT: `count <= N` pages were filled and are held as `hold` says, with `offset` inside
    // the first; the caller vouches for the rest.
    Ok(IterPages {
        pages,
        count: Cell::new(count),
        offset,
        len,
        hold,
        _p: PhantomData,
    })
}

/// `iov_iter_get_pages2()` on `iov`, an iterator of type `iter_type`.
///
/// # Safety
///
/// `iov` is a valid iterator that the caller may move forward.
#[inline]
unsafe fn get_pages<const N: usize>(
    iov: *mut bindings::iov_iter,
    iter_type: IterType,
    max_len: usize,
) -> Result<IterPages<'static, N>> {
    crate::build_assert!(N <= MAX_PAGES, "IterPages holds at most MAX_PAGES pages");
    if N == 0 {
        return Err(EINVAL);
    }
    if iter_type == IterType::Bvec {
        // `iov_iter_get_pages2()` takes the current segment as it is and warns if it is empty;
        // a zero-byte advance steps over empty segments first.
        // SAFETY: The caller guarantees that `iov` is valid.
        unsafe { bindings::iov_iter_advance(iov, 0) };
    }
    let mut pages = [ptr::null_mut(); N];
    let mut offset = 0;
    // SAFETY: The caller guarantees that `iov` is valid; `pages` has room for `N` entries and
    // `offset` is writable.
    let ret = unsafe {
        bindings::iov_iter_get_pages2(
            iov,
            pages.as_mut_ptr(),
            max_len,
            N.min(c_uint::MAX as usize) as c_uint,
            &mut offset,
        )
    };
    // SAFETY: `iov_iter_get_pages2()` takes a reference on every page it returns, so the pages
    // stay valid on their own.
    unsafe { took_pages(ret, pages, offset, PageHold::Ref) }
}

/// `iov_iter_extract_pages()` on `iov`.
///
/// # Safety
///
/// `iov` is a valid iterator that the caller may move forward, whose memory is valid for `'a`.
#[inline]
unsafe fn extract_pages<'a, const N: usize>(
    iov: *mut bindings::iov_iter,
    user_backed: bool,
    max_len: usize,
) -> Result<IterPages<'a, N>> {
    crate::build_assert!(N <= MAX_PAGES, "IterPages holds at most MAX_PAGES pages");
    if N == 0 {
        return Err(EINVAL);
    }
    let hold = if user_backed {
        PageHold::Pin
    } else {
        PageHold::Borrowed
    };
    let mut pages = [ptr::null_mut(); N];
    let mut array = pages.as_mut_ptr();
    let mut offset = 0;
    // SAFETY: The caller guarantees that `iov` is valid; `array` is not null, so the C function
    // fills it, with at most `N` entries, instead of allocating one.
    let ret = unsafe {
        bindings::iov_iter_extract_pages(
            iov,
            &mut array,
            max_len,
            N.min(c_uint::MAX as usize) as c_uint,
            0,
            &mut offset,
        )
    };
    // SAFETY: `iov_iter_extract_pages()` pins user pages (C's `iov_iter_extract_will_pin()` is
    // `user_backed_iter()`) and takes nothing on other pages, which belong to the memory the
    // caller vouches for, for `'a`.
    unsafe { took_pages(ret, pages, offset, hold) }
}

impl<'data> IovIterSource<'data> {
    /// Takes a reference on the pages behind up to `max_len` bytes at the start of the
    /// iterator, at most `N` pages, moves the iterator past those bytes (C's
    /// `iov_iter_get_pages2()`), lends the pages to `f` and drops the references when `f`
    /// returns. Returns what `f` returns.
    ///
    /// Works for user-backed and page iterators; fails with [`EFAULT`] for `kvec` iterators,
    /// and with [`EINVAL`] if `N` is 0, without calling `f`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVec, IoSlice, IovIterSource, PageHold};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let empty = Page::alloc_page(GFP_KERNEL)?;
    /// // SAFETY: `page` is a valid page and `_refcount` is only read.
    /// let refs = |p: *mut kernel::bindings::page| unsafe { (*p)._refcount.counter };
    /// let before = refs(page.as_ptr());
    /// // An empty first segment is stepped over.
    /// let segs = [BioVec::new(&empty, 8, 0)?, BioVec::new(&page, 16, 64)?];
    /// IovIterSource::with_bvec(&segs, |src| {
    ///     src.get_pages::<1, _>(PAGE_SIZE, |taken| {
    ///         assert_eq!((taken.pages(), taken.offset()), (&[page.as_ptr()][..], 16));
    ///         assert_eq!((refs(page.as_ptr()), taken.hold()), (before + 1, PageHold::Ref));
    ///     })
    /// })?;
    /// // Released when the closure returned.
    /// assert_eq!(refs(page.as_ptr()), before);
    ///
    /// let data = KVec::from_elem(0u8, 8, GFP_KERNEL)?;
    /// IoSlice::new(&data).with_source(|src| {
    ///     assert_eq!(src.get_pages::<1, _>(8, |_| ()).err(), Some(EFAULT));
    ///     assert_eq!(src.get_pages::<0, _>(8, |_| ()).err(), Some(EINVAL));
    ///     assert_eq!(src.len(), 8);
    /// });
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get_pages<const N: usize, R>(
        &mut self,
        max_len: usize,
        f: impl FnOnce(&IterPages<'_, N>) -> R,
    ) -> Result<R> {
        let iter_type = self.iter_type();
        // SAFETY: By the type invariants the iterator is valid; it is borrowed mutably.
        let pages = unsafe { get_pages::<N>(self.as_raw(), iter_type, max_len) }?;
        // `pages` is dropped, and its references with it, when this returns.
        Ok(f(&pages))
    }

    /// Lends `f` the pages behind up to `max_len` bytes at the start of the iterator, at most
    /// `N` pages, after moving the iterator past those bytes (C's `iov_iter_extract_pages()`).
    /// Returns what `f` returns.
    ///
    /// User pages are pinned, as DMA needs ([`PageHold::Pin`]), until `f` returns; the pages of
    /// kernel memory are not held ([`PageHold::Borrowed`]): the memory is the iterator's. Fails
    /// with [`EINVAL`] if `N` is 0, without calling `f`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, PageHold};
    /// use kernel::page::PAGE_SIZE;
    ///
    /// let mut data = KVec::new();
    /// for i in 0..200u8 {
    ///     data.push(i, GFP_KERNEL)?;
    /// }
    /// IoSlice::new(&data).with_source(|src| {
    ///     src.advance(20);
    ///     let (len, first) = src.extract_pages::<2, _>(100, |pages| {
    ///         assert_eq!(pages.hold(), PageHold::Borrowed);
    ///         assert!(!pages.is_empty() && pages.len() <= 100);
    ///         assert!(pages.offset() < PAGE_SIZE);
    ///         // SAFETY: The page is valid while `pages` is lent; the mapping is released right
    ///         // away.
    ///         let first = unsafe {
    ///             let va = kernel::bindings::kmap_local_page(pages.pages()[0]).cast::<u8>();
    ///             let b = *va.add(pages.offset());
    ///             kernel::bindings::kunmap_local(va.cast());
    ///             b
    ///         };
    ///         (pages.len(), first)
    ///     })?;
    ///     assert_eq!(src.len(), 180 - len);
    ///     // The first byte in the pages is `data[20]`.
    ///     assert_eq!(first, 20);
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn extract_pages<const N: usize, R>(
        &mut self,
        max_len: usize,
        f: impl FnOnce(&IterPages<'_, N>) -> R,
    ) -> Result<R> {
        let user_backed = self.is_user_backed();
        // SAFETY: By the type invariants the iterator is valid and its memory may be read for
        // `'data`; it is borrowed mutably.
        let pages = unsafe { extract_pages::<N>(self.as_raw(), user_backed, max_len) }?;
        // `pages` is dropped, and its pins with it, when this returns.
        Ok(f(&pages))
    }
}

impl<'data> IovIterDest<'data> {
    /// Takes a reference on the pages behind up to `max_len` bytes at the start of the
    /// iterator, at most `N` pages, moves the iterator past those bytes (C's
    /// `iov_iter_get_pages2()`) and lends the pages to `f`; see [`IovIterSource::get_pages`].
    ///
    /// Over kernel memory the bytes passed are zeroed first, as [`IovIterDest::advance`] does:
    /// the pages come out as raw pointers, which safe code cannot write, and the C code that
    /// lent the iterator takes every byte before its position for data.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{BioVecMut, IovIterDest};
    /// use kernel::page::Page;
    ///
    /// let mut a = Page::alloc_page(GFP_KERNEL)?;
    /// let mut b = Page::alloc_page(GFP_KERNEL)?;
    /// let (pa, pb) = (a.as_ptr(), b.as_ptr());
    /// let mut segs = [BioVecMut::new(&mut a, 0, 100)?, BioVecMut::new(&mut b, 0, 100)?];
    /// IovIterDest::with_bvec(&mut segs, |dst| {
    ///     // One segment at a time.
    ///     dst.get_pages::<2, _>(usize::MAX, |p| assert_eq!(p.pages(), &[pa]))?;
    ///     dst.get_pages::<2, _>(usize::MAX, |p| assert_eq!(p.pages(), &[pb]))?;
    ///     assert!(dst.is_empty());
    ///     Ok::<(), Error>(())
    /// })?;
    /// let mut back = [1u8; 100];
    /// // SAFETY: `back` is valid for 100 bytes and nothing else uses `b`.
    /// unsafe { b.read_raw(back.as_mut_ptr(), 0, 100)? };
    /// assert_eq!(back, [0u8; 100]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get_pages<const N: usize, R>(
        &mut self,
        max_len: usize,
        f: impl FnOnce(&IterPages<'_, N>) -> R,
    ) -> Result<R> {
        let iter_type = self.iter_type();
        let saved = self.zero_ahead(iter_type);
        // SAFETY: By the type invariants the iterator is valid; it is borrowed mutably.
        let pages = unsafe { get_pages::<N>(self.as_raw(), iter_type, max_len) }?;
        self.zero_taken(saved, &pages);
        // `pages` is dropped, and its references with it, when this returns.
        Ok(f(&pages))
    }

    /// For kernel memory, returns the state of the iterator before pages are taken, so that
    /// [`IovIterDest::zero_taken`] can zero what they cover.
    #[inline]
    fn zero_ahead(&self, iter_type: IterType) -> Option<bindings::iov_iter> {
        match iter_type {
            IterType::Ubuf | IterType::Iovec | IterType::Discard => None,
            // SAFETY: The iterator is initialised and plain data; this is a copy of it.
            _ => Some(unsafe { ptr::read(self.iov.get()) }),
        }
    }

    /// Zeroes the bytes `pages` cover: puts the iterator back to `saved` and zeroes forward
    /// from there, which moves it to where taking the pages did.
    #[inline]
    fn zero_taken<const N: usize>(
        &mut self,
        saved: Option<bindings::iov_iter>,
        pages: &IterPages<'_, N>,
    ) {
        if let Some(saved) = saved {
            // SAFETY: `saved` is the state this iterator had before the pages were taken, with
            // the same memory, valid for `'data`; `&mut` access to it is held.
            unsafe { ptr::write(self.as_raw(), saved) };
            self.zero(pages.len());
        }
    }

    /// Lends `f` the pages behind up to `max_len` bytes at the start of the iterator, at most
    /// `N` pages, after moving the iterator past those bytes (C's `iov_iter_extract_pages()`);
    /// see [`IovIterSource::extract_pages`]. Over kernel memory the bytes passed are zeroed
    /// first, as for [`IovIterDest::get_pages`].
    ///
    /// # Examples
    ///
    /// User memory, as a `read_iter` handler gets it: the page is pinned while `f` runs, and
    /// copies stop where the mapping ends. (In a KUnit test, `kunit_vm_mmap()`
    /// provides the user memory.)
    ///
    /// ```
    /// use core::ffi::c_void;
    /// use kernel::bindings;
    /// use kernel::iov::{IovIter, IovIterDest, IovIterSource, PageHold};
    /// use kernel::page::PAGE_SIZE;
    ///
    /// const PROT_READ_WRITE: usize = 0x3;
    /// const MAP_PRIVATE_ANONYMOUS: usize = 0x22;
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     let (len, prot, flags) = (2 * PAGE_SIZE, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS);
    ///     bindings::kunit_vm_mmap(test, core::ptr::null_mut(), 0, len, prot, flags, 0)
    /// };
    /// assert_ne!(user, 0);
    /// // Unmap the second page: the iterators below end in a hole.
    /// // SAFETY: The range belongs to the mapping made above.
    /// assert_eq!(unsafe { bindings::vm_munmap(user + PAGE_SIZE, PAGE_SIZE) }, 0);
    ///
    /// // 16 bytes: the last 8 of the mapped page and 8 unmapped ones.
    /// let start = (user + PAGE_SIZE - 8) as *mut c_void;
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_DEST as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, start, 16, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` is initialised and outlives `dst`, its only user; it describes user
    /// // memory of this task, which may be written with the C copy functions.
    /// let dst = unsafe { IovIterDest::from_raw(raw.as_mut_ptr()) };
    /// assert!(dst.is_user_backed());
    ///
    /// dst.checkpoint(|cp| {
    ///     let (page, pinned) = cp.extract_pages::<2, _>(16, |pages| {
    ///         assert_eq!(pages.hold(), PageHold::Pin);
    ///         let (offset, len, n) = (pages.offset(), pages.len(), pages.pages().len());
    ///         assert_eq!((offset, len, n), (PAGE_SIZE - 8, 8, 1));
    ///         let page = pages.pages()[0];
    ///         // SAFETY: The page is pinned; `_refcount` is only read.
    ///         (page, unsafe { (*page)._refcount.counter })
    ///     })?;
    ///     // SAFETY: The page stays mapped in the test's mm, so it stays valid; it is only read.
    ///     let refs = unsafe { (*page)._refcount.counter };
    ///     // The pin went when the closure returned.
    ///     assert_eq!(refs, pinned - bindings::GUP_PIN_COUNTING_BIAS as i32);
    ///
    ///     // Copies are short at the hole; a `_full` copy that cannot finish is undone.
    ///     cp.revert(8)?;
    ///     assert_eq!(cp.copy_to_iter(&[1u8; 16]), 8);
    ///     assert_eq!(cp.copy_to_iter_full(&[2u8; 8]), Err(EFAULT));
    ///     assert_eq!(cp.len(), 8);
    ///     cp.revert(8)?;
    ///     assert_eq!(cp.copy_to_iter_full(&[3u8; 16]), Err(EFAULT));
    ///     assert_eq!(cp.len(), 16);
    ///     // A fault at once: mainline's `simple_read_from_buffer` reads nothing.
    ///     cp.advance(8);
    ///     let mut pos = 0;
    ///     assert_eq!(cp.simple_read_from_buffer(&mut pos, b"data")?, 0);
    ///     assert_eq!(pos, 0);
    ///     Ok::<(), Error>(())
    /// })?;
    ///
    /// // Read back what landed in user memory.
    /// let mut raw_src = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_SOURCE as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw_src` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, start, 16, raw_src.as_mut_ptr()) }, 0);
    /// // SAFETY: As for `raw`.
    /// let src = unsafe { IovIterSource::from_raw(raw_src.as_mut_ptr()) };
    /// let mut back = [0u8; 16];
    /// assert_eq!(src.copy_from_iter(&mut back), 8);
    /// assert_eq!(back, [3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn extract_pages<const N: usize, R>(
        &mut self,
        max_len: usize,
        f: impl FnOnce(&IterPages<'_, N>) -> R,
    ) -> Result<R> {
        let iter_type = self.iter_type();
        let saved = self.zero_ahead(iter_type);
        // SAFETY: By the type invariants the iterator is valid and its memory may be accessed
        // for `'data`; it is borrowed mutably.
        let pages = unsafe { extract_pages::<N>(self.as_raw(), self.is_user_backed(), max_len) }?;
        self.zero_taken(saved, &pages);
        // `pages` is dropped, and its pins with it, when this returns.
        Ok(f(&pages))
    }
}
