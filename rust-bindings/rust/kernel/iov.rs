// SPDX-License-Identifier: GPL-2.0

//! I/O vector iterators.
//!
//! C header: [`include/linux/uio.h`](srctree/include/linux/uio.h)
//!
//! A `struct iov_iter` is a cursor over a list of buffers (user `iovec`s, kernel `kvec`s, pages
//! in `bio_vec`s, ...) that moves forward as data is copied in or out of it. [`IovIter`] wraps
//! one and makes its use safe:
//!
//! - **The direction is part of the type.** An [`IovSource`] is an iterator that data is copied
//!   *out of* (C's `ITER_SOURCE`; a `write_iter` handler receives one), an [`IovDest`] one that
//!   data is copied *into* (`ITER_DEST`; a `read_iter` handler receives one). Copy methods exist
//!   only on the matching type; everything else is shared.
//! - **The iterator borrows what it describes.** The lifetime `'data` covers the memory and, for
//!   iterators built in Rust, the segment array ([`Kvec`], [`Bvec`]) the C code walks. A
//!   destination borrows its memory mutably, so nothing else can look at the buffer while the
//!   iterator may still write to it.
//! - **Moving backwards is checked.** C's `iov_iter_revert()` trusts its caller not to go back
//!   past the start. [`IovIter`] counts how far it has moved forward since it was created
//!   ([`IovIter::consumed`]); [`IovIter::revert`] refuses to go back further and returns
//!   [`EINVAL`] instead. [`IovIter::truncate`] and [`IovIter::reexpand`] are balanced in the
//!   same way, and [`IovIter::checkpoint`] gives a guard that restores the position when dropped.
//!
//! An [`IovIter`] is neither [`Send`] nor [`Sync`]: a user-backed iterator means the address
//! space of the task that built it (another task copying through it would reach into its own),
//! an iterator handed in by C belongs to the call that handed it in, and the C functions assume
//! a single user. (The `kmap_local_page()` mappings of `bio_vec` copies are not the reason: each
//! copy makes and drops its own.)
//!
//! Every method is `#[inline]` and calls the exported C function directly where there is one
//! (`_copy_to_iter()`, not the `static inline` `copy_to_iter()`: a slice is always the right
//! size). The `static inline` accessors of `uio.h` that only read or write one field
//! (`iov_iter_count()`, `iov_iter_type()`, `iov_iter_truncate()`, `iov_iter_reexpand()`,
//! `user_backed_iter()`) are done here on the structure itself, which is cheaper than a call to
//! a C helper. Nothing allocates, except [`IovIter::append_to_kvec`] when asked to.
//!
//! # Examples
//!
//! A function that fills whatever destination it is given, and its use with two kernel buffers:
//!
//! ```
//! use kernel::iov::{IovDest, Kvec};
//!
//! fn fill(dst: &mut IovDest<'_>, pattern: u8) -> usize {
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
//! let mut segs = [Kvec::dest(&mut head), Kvec::dest(&mut tail)];
//! let mut dst = IovDest::kvec(&mut segs);
//! assert_eq!(fill(&mut dst, 0xa5), 25);
//! assert!(head.iter().all(|&b| b == 0xa5) && tail.iter().all(|&b| b == 0xa5));
//! ```

use crate::{
    alloc::{Flags, KVec},
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
    ptr::NonNull,
};

mod private {
    pub trait Sealed {}
}

/// The direction of an [`IovIter`]: [`Source`] or [`Dest`].
///
/// # Examples
///
/// ```
/// use kernel::iov::{Dest, Direction, IovIter, Source};
///
/// fn is_source<D: Direction>(_: &IovIter<'_, D>) -> bool {
///     D::IS_SOURCE
/// }
///
/// let data = [1u8; 4];
/// assert!(is_source(&IovIter::<Source>::from_slice(&data)));
/// assert!(!is_source(&IovIter::<Dest>::discard(4)));
/// ```
pub trait Direction: private::Sealed {
    /// Whether data is copied out of iterators of this direction (C's `iov_iter_rw() == WRITE`).
    const IS_SOURCE: bool;
}

/// Marks an iterator that data is copied out of (C's `ITER_SOURCE`).
///
/// # Examples
///
/// ```
/// use kernel::iov::{Direction, Source};
///
/// assert!(Source::IS_SOURCE);
/// ```
pub enum Source {}

/// Marks an iterator that data is copied into (C's `ITER_DEST`).
///
/// # Examples
///
/// ```
/// use kernel::iov::{Dest, Direction};
///
/// assert!(!Dest::IS_SOURCE);
/// ```
pub enum Dest {}

impl private::Sealed for Source {}
impl private::Sealed for Dest {}

impl Direction for Source {
    const IS_SOURCE: bool = true;
}

impl Direction for Dest {
    const IS_SOURCE: bool = false;
}

/// An iterator that data is copied out of, e.g. the one a `write_iter` handler receives.
pub type IovSource<'data> = IovIter<'data, Source>;

/// An iterator that data is copied into, e.g. the one a `read_iter` handler receives.
pub type IovDest<'data> = IovIter<'data, Dest>;

/// The largest number of bytes C's `iov_iter_revert()` accepts in one call.
const MAX_RW_COUNT: usize = bindings::MAX_RW_COUNT;

/// The kind of memory an [`IovIter`] walks (C's `enum iter_type`).
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovDest, IterType};
///
/// assert_eq!(IovDest::discard(8).iter_type(), IterType::Discard);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IterType {
    /// One user-space buffer (`ITER_UBUF`).
    Ubuf,
    /// An array of user-space buffers (`ITER_IOVEC`).
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

impl IterType {
    /// Converts C's `iter_type` value, or returns `None` for a value 6.12 does not define.
    #[inline]
    fn from_raw(value: u8) -> Option<Self> {
        Some(match u32::from(value) {
            bindings::iter_type_ITER_UBUF => Self::Ubuf,
            bindings::iter_type_ITER_IOVEC => Self::Iovec,
            bindings::iter_type_ITER_BVEC => Self::Bvec,
            bindings::iter_type_ITER_KVEC => Self::Kvec,
            bindings::iter_type_ITER_FOLIOQ => Self::Folioq,
            bindings::iter_type_ITER_XARRAY => Self::Xarray,
            bindings::iter_type_ITER_DISCARD => Self::Discard,
            _ => return None,
        })
    }
}

/// One kernel buffer of a `kvec` iterator (C's `struct kvec`).
///
/// A `Kvec<'data, Source>` is made from a shared slice and can only be part of an [`IovSource`];
/// a `Kvec<'data, Dest>` is made from a mutable slice.
///
/// # Invariants
///
/// `iov_base` and `iov_len` describe memory that is valid for reads for `'data` and, when `D` is
/// [`Dest`], valid for writes and not accessed through any other path for `'data`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovSource, Kvec};
///
/// let head = *b"head";
/// let tail = *b"tail";
/// let segs = [Kvec::source(&head), Kvec::source(&tail)];
/// let src = IovSource::kvec(&segs);
/// assert_eq!(src.len(), 8);
/// assert_eq!(src.nr_segs(), 2);
/// ```
#[repr(transparent)]
pub struct Kvec<'data, D: Direction> {
    kvec: bindings::kvec,
    _p: PhantomData<(&'data [u8], D)>,
}

impl<'data> Kvec<'data, Source> {
    /// Describes `data` as a segment of a source iterator.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Kvec;
    ///
    /// let seg = Kvec::source(b"abc");
    /// assert_eq!(seg.len(), 3);
    /// ```
    #[inline]
    pub fn source(data: &'data [u8]) -> Self {
        // INVARIANT: `data` is valid for reads for `'data`.
        Self {
            kvec: bindings::kvec {
                iov_base: data.as_ptr().cast_mut().cast(),
                iov_len: data.len(),
            },
            _p: PhantomData,
        }
    }
}

impl<'data> Kvec<'data, Dest> {
    /// Describes `data` as a segment of a destination iterator; `data` stays borrowed mutably for
    /// as long as the segment exists.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovDest, Kvec};
    ///
    /// let mut buf = [0u8; 6];
    /// let (a, b) = buf.split_at_mut(2);
    /// let mut segs = [Kvec::dest(b), Kvec::dest(a)];
    /// let mut dst = IovDest::kvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"world!"), 6);
    /// assert_eq!(&buf, b"d!worl");
    /// ```
    #[inline]
    pub fn dest(data: &'data mut [u8]) -> Self {
        // INVARIANT: `data` is a mutable borrow, so it is valid for reads and writes and not
        // accessed through any other path for `'data`.
        Self {
            kvec: bindings::kvec {
                iov_base: data.as_mut_ptr().cast(),
                iov_len: data.len(),
            },
            _p: PhantomData,
        }
    }
}

impl<D: Direction> Kvec<'_, D> {
    /// Returns the length of the segment in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Kvec;
    ///
    /// assert_eq!(Kvec::source(&[0u8; 7]).len(), 7);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.kvec.iov_len
    }

    /// Returns `true` if the segment is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Kvec;
    ///
    /// assert!(Kvec::source(&[]).is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A fragment of a page, one segment of a `bvec` iterator (C's `struct bio_vec`).
///
/// A `Bvec<'data, Source>` borrows its [`Page`] shared, a `Bvec<'data, Dest>` mutably.
///
/// # Invariants
///
/// `bv_page` is the page of a [`Page`] borrowed for `'data` (mutably when `D` is [`Dest`]), and
/// `bv_offset + bv_len <= PAGE_SIZE`.
///
/// # Examples
///
/// ```
/// use kernel::iov::{Bvec, IovSource};
/// use kernel::page::Page;
///
/// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
/// let segs = [Bvec::source(&page, 100, 50)?, Bvec::source(&page, 0, 10)?];
/// let mut src = IovSource::bvec(&segs);
/// assert_eq!(src.len(), 60);
/// let mut out = [1u8; 60];
/// assert_eq!(src.copy_from_iter(&mut out), 60);
/// assert_eq!(out, [0u8; 60]);
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct Bvec<'data, D: Direction> {
    bvec: bindings::bio_vec,
    _p: PhantomData<(&'data Page, D)>,
}

/// Builds a `bio_vec` after checking that the range lies inside one page.
#[inline]
fn page_range(page: &Page, offset: usize, len: usize) -> Result<bindings::bio_vec> {
    if offset > PAGE_SIZE || len > PAGE_SIZE - offset {
        return Err(EINVAL);
    }
    Ok(bindings::bio_vec {
        bv_page: page.as_ptr(),
        // Both fit: they are at most `PAGE_SIZE`.
        bv_len: len as c_uint,
        bv_offset: offset as c_uint,
    })
}

impl<'data> Bvec<'data, Source> {
    /// Describes `len` bytes of `page` from `offset` as a segment of a source iterator.
    ///
    /// Fails with [`EINVAL`] if the range does not fit in the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Bvec;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// assert_eq!(Bvec::source(&page, 16, PAGE_SIZE - 16)?.len(), PAGE_SIZE - 16);
    /// assert_eq!(Bvec::source(&page, 16, PAGE_SIZE - 15).err(), Some(EINVAL));
    /// assert_eq!(Bvec::source(&page, PAGE_SIZE + 1, 0).err(), Some(EINVAL));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn source(page: &'data Page, offset: usize, len: usize) -> Result<Self> {
        // INVARIANT: `page_range` checked the range; `page` is borrowed for `'data`.
        Ok(Self {
            bvec: page_range(page, offset, len)?,
            _p: PhantomData,
        })
    }
}

impl<'data> Bvec<'data, Dest> {
    /// Describes `len` bytes of `page` from `offset` as a segment of a destination iterator; the
    /// page stays borrowed mutably for as long as the segment exists.
    ///
    /// Fails with [`EINVAL`] if the range does not fit in the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovDest};
    /// use kernel::page::Page;
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let mut segs = [Bvec::dest(&mut page, 8, 4)?];
    /// let mut dst = IovDest::bvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"abcdef"), 4);
    /// let mut back = [0u8; 12];
    /// // SAFETY: `back` is valid for 12 bytes and nothing else uses `page`.
    /// unsafe { page.read_raw(back.as_mut_ptr(), 0, 12)? };
    /// assert_eq!(&back, b"\0\0\0\0\0\0\0\0abcd");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn dest(page: &'data mut Page, offset: usize, len: usize) -> Result<Self> {
        // INVARIANT: `page_range` checked the range; `page` is borrowed mutably for `'data`.
        Ok(Self {
            bvec: page_range(page, offset, len)?,
            _p: PhantomData,
        })
    }
}

impl<D: Direction> Bvec<'_, D> {
    /// Returns the length of the segment in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Bvec;
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// assert_eq!(Bvec::source(&page, 0, 42)?.len(), 42);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.bvec.bv_len as usize
    }

    /// Returns `true` if the segment is empty.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::Bvec;
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// assert!(Bvec::source(&page, 5, 0)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where the `struct iov_iter` of an [`IovIter`] lives.
enum Store {
    /// Owned by C, handed in through [`IovIter::from_raw`].
    Foreign(NonNull<bindings::iov_iter>),
    /// Built here over a segment array borrowed from the caller.
    Local(Opaque<bindings::iov_iter>),
    /// Built here over one slice; the second field is its only segment. The iterator's `kvec`
    /// pointer is pointed at it again before each use, as the value may have moved.
    Slice(Opaque<bindings::iov_iter>, bindings::kvec),
}

/// A `struct iov_iter` whose direction is `D` and whose memory is borrowed for `'data`.
///
/// See the [module documentation](self) for the model.
///
/// # Invariants
///
/// - The `struct iov_iter` in `store` is initialised, its `data_source` equals `D::IS_SOURCE`
///   and its `iter_type` is one of [`IterType`]; it describes memory that stays valid (and, for
///   [`Dest`], writable and not otherwise accessed) for `'data`, and nobody else uses it while
///   `self` exists.
/// - For `Store::Slice`, the iterator's `kvec` pointer plus its `nr_segs` is one past the
///   `kvec` stored next to it, whenever `IovIter::raw` has returned.
/// - `consumed` is at most the number of bytes the iterator has moved forward since it was
///   created, so moving back by `consumed` bytes stays inside the memory it was created over.
/// - `hidden` is at most the number of bytes the iterator's count has been lowered by
///   [`IovIter::truncate`] and not given back, so raising the count by `hidden` stays inside
///   that memory too.
pub struct IovIter<'data, D: Direction> {
    store: Store,
    consumed: usize,
    hidden: usize,
    /// Borrows `'data`; the raw pointer keeps the type `!Send` and `!Sync`.
    _p: PhantomData<(&'data mut [u8], D, *mut ())>,
}

impl<'data, D: Direction> IovIter<'data, D> {
    /// The C direction value of `D`.
    const C_DIRECTION: c_uint = if D::IS_SOURCE {
        bindings::ITER_SOURCE
    } else {
        bindings::ITER_DEST
    };

    /// Wraps an iterator that C code built, e.g. the one passed to `read_iter` or `write_iter`.
    ///
    /// Fails with [`EINVAL`] if `ptr` is null, if the iterator's direction is not `D`, or if its
    /// type is unknown. The iterator starts with nothing to revert: [`IovIter::revert`] cannot
    /// move it back past the position it had when it was handed in.
    ///
    /// # Safety
    ///
    /// - `ptr` is null or points to an initialised `struct iov_iter`.
    /// - For `'data`, the iterator and the memory it describes stay valid, and nothing but the
    ///   returned value uses the iterator (C code that handed it to a callback satisfies this
    ///   until the callback returns).
    /// - For [`Dest`], nothing else accesses the memory the iterator describes for `'data`,
    ///   except user space for user-backed iterators.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::{IovDest, IovSource};
    ///
    /// let mut buf = [0u8; 8];
    /// let seg = bindings::kvec {
    ///     iov_base: buf.as_mut_ptr().cast(),
    ///     iov_len: buf.len(),
    /// };
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// // SAFETY: `iov_iter_kvec` initialises every field of `raw`; `seg` describes `buf`.
    /// unsafe { bindings::iov_iter_kvec(raw.as_mut_ptr(), bindings::ITER_DEST, &seg, 1, 8) };
    ///
    /// // SAFETY: `raw` is initialised, and it, `seg` and `buf` outlive the wrapper.
    /// assert_eq!(unsafe { IovSource::from_raw(raw.as_mut_ptr()) }.err(), Some(EINVAL));
    /// // SAFETY: As above.
    /// assert_eq!(unsafe { IovDest::from_raw(core::ptr::null_mut()) }.err(), Some(EINVAL));
    ///
    /// // SAFETY: As above.
    /// let mut dst = unsafe { IovDest::from_raw(raw.as_mut_ptr()) }?;
    /// assert_eq!(dst.copy_to_iter(b"12345"), 5);
    /// assert_eq!(dst.revert(6), Err(EINVAL));
    /// // The C iterator itself moved: its count went down.
    /// // SAFETY: `raw` is initialised and no longer used through `dst`.
    /// let left = unsafe { bindings::iov_iter_single_seg_count(raw.as_ptr()) };
    /// assert_eq!(left, 3);
    /// assert_eq!(&buf[..5], b"12345");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub unsafe fn from_raw(ptr: *mut bindings::iov_iter) -> Result<Self> {
        let ptr = NonNull::new(ptr).ok_or(EINVAL)?;
        // SAFETY: The caller guarantees that a non-null `ptr` points to an initialised iterator.
        let (data_source, iter_type) =
            unsafe { ((*ptr.as_ptr()).data_source, (*ptr.as_ptr()).iter_type) };
        if data_source != D::IS_SOURCE || IterType::from_raw(iter_type).is_none() {
            return Err(EINVAL);
        }
        // INVARIANT: Direction and type were just checked; the caller guarantees the rest.
        // Nothing has been consumed or hidden yet.
        Ok(Self {
            store: Store::Foreign(ptr),
            consumed: 0,
            hidden: 0,
            _p: PhantomData,
        })
    }

    /// Builds a `kvec` iterator of direction `D` over `nr` segments starting at `segs`.
    ///
    /// # Safety
    ///
    /// `segs` points to `nr` `struct kvec`s that, with the memory they describe, satisfy the
    /// type invariants for `'data`.
    #[inline]
    unsafe fn new_kvec(segs: *const bindings::kvec, nr: usize) -> Self {
        let mut total = 0usize;
        for i in 0..nr {
            // SAFETY: `i < nr`, so the caller guarantees that the element is valid.
            total = total.saturating_add(unsafe { (*segs.add(i)).iov_len });
        }
        let iter = Opaque::uninit();
        // SAFETY: `iov_iter_kvec` initialises every field of `*iter.get()`; it only stores
        // `segs`. A saturated `total` is smaller than the real sum, which is allowed.
        unsafe {
            bindings::iov_iter_kvec(iter.get(), Self::C_DIRECTION, segs, nr as c_ulong, total)
        };
        // INVARIANT: The iterator is initialised with direction `D`, type `ITER_KVEC`, over the
        // memory the caller vouches for.
        Self {
            store: Store::Local(iter),
            consumed: 0,
            hidden: 0,
            _p: PhantomData,
        }
    }

    /// Builds a `kvec` iterator of direction `D` over the single segment `seg`.
    ///
    /// # Safety
    ///
    /// `seg` and the memory it describes satisfy the type invariants for `'data`.
    #[inline]
    unsafe fn new_slice(seg: bindings::kvec) -> Self {
        let iter = Opaque::uninit();
        // SAFETY: `iov_iter_kvec` initialises every field of `*iter.get()`. The segment pointer
        // it stores is replaced by `raw()` before any use.
        unsafe { bindings::iov_iter_kvec(iter.get(), Self::C_DIRECTION, &seg, 1, seg.iov_len) };
        // INVARIANT: As for `new_kvec`; `raw()` keeps the `kvec` pointer right.
        Self {
            store: Store::Slice(iter, seg),
            consumed: 0,
            hidden: 0,
            _p: PhantomData,
        }
    }

    /// Builds a `bvec` iterator of direction `D` over the `segs` array.
    ///
    /// # Safety
    ///
    /// `segs` and the pages they describe satisfy the type invariants for `'data`.
    #[inline]
    unsafe fn new_bvec(segs: &[bindings::bio_vec]) -> Self {
        let total = segs
            .iter()
            .map(|s| s.bv_len as usize)
            .fold(0, usize::saturating_add);
        let iter = Opaque::uninit();
        // SAFETY: `iov_iter_bvec` initialises every field of `*iter.get()`; it only stores the
        // array pointer.
        unsafe {
            bindings::iov_iter_bvec(
                iter.get(),
                Self::C_DIRECTION,
                segs.as_ptr(),
                segs.len() as c_ulong,
                total,
            )
        };
        // INVARIANT: The iterator is initialised with direction `D`, type `ITER_BVEC`, over the
        // pages the caller vouches for.
        Self {
            store: Store::Local(iter),
            consumed: 0,
            hidden: 0,
            _p: PhantomData,
        }
    }

    /// Returns the C iterator, ready to be passed to a C function.
    #[inline]
    fn raw(&self) -> *mut bindings::iov_iter {
        match &self.store {
            Store::Foreign(ptr) => ptr.as_ptr(),
            Store::Local(iter) => iter.get(),
            Store::Slice(iter, seg) => {
                let ptr = iter.get();
                let seg: *const bindings::kvec = seg;
                // SAFETY: By the type invariants `ptr` is an initialised `ITER_KVEC` iterator
                // with one segment, so `nr_segs` is 0 or 1 and the `kvec` pointer is one past
                // `seg` minus `nr_segs`. Only this `!Sync` value uses it, and the `Opaque`
                // allows writing through a shared reference.
                unsafe {
                    let done = 1 - (*ptr).__bindgen_anon_2.nr_segs;
                    (*ptr)
                        .__bindgen_anon_1
                        .__bindgen_anon_1
                        .as_mut()
                        .__bindgen_anon_1
                        .kvec = seg.wrapping_add(done);
                }
                ptr
            }
        }
    }

    /// Returns the `struct iov_iter` for use by C code.
    ///
    /// The pointer is valid while `self` is neither moved nor dropped. C code may move the
    /// iterator forward through it but must not move it backwards, raise its count, or keep the
    /// pointer; [`IovIter::revert`] relies on that.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovSource;
    ///
    /// let data = *b"abcdef";
    /// let mut src = IovSource::from_slice(&data);
    /// // SAFETY: The pointer is valid; `iov_iter_single_seg_count` only reads the iterator.
    /// assert_eq!(unsafe { bindings::iov_iter_single_seg_count(src.as_raw()) }, 6);
    /// ```
    #[inline]
    pub fn as_raw(&mut self) -> *mut bindings::iov_iter {
        self.raw()
    }

    /// Returns the number of bytes left in the iterator (C's `iov_iter_count()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"0123456789");
    /// assert_eq!(src.len(), 10);
    /// src.advance(4);
    /// assert_eq!(src.len(), 6);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is initialised; `count` is valid for every
        // iterator type.
        unsafe {
            (*self.raw())
                .__bindgen_anon_1
                .__bindgen_anon_1
                .as_ref()
                .count
        }
    }

    /// Sets the count of the iterator.
    ///
    /// # Safety
    ///
    /// The iterator must have at least `count` bytes from its current position.
    #[inline]
    unsafe fn set_len(&mut self, count: usize) {
        // SAFETY: By the type invariants the iterator is initialised; the caller guarantees that
        // `count` bytes are there.
        unsafe {
            (*self.raw())
                .__bindgen_anon_1
                .__bindgen_anon_1
                .as_mut()
                .count = count
        };
    }

    /// Returns `true` if no bytes are left in the iterator.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"xy");
    /// assert!(!src.is_empty());
    /// src.advance(2);
    /// assert!(src.is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Returns the kind of memory the iterator walks.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, IterType};
    ///
    /// assert_eq!(IovSource::from_slice(b"x").iter_type(), IterType::Kvec);
    /// ```
    #[inline]
    pub fn iter_type(&self) -> IterType {
        // SAFETY: By the type invariants the iterator is initialised.
        let value = unsafe { (*self.raw()).iter_type };
        // The type invariants exclude unknown types; `Discard` is never reached.
        IterType::from_raw(value).unwrap_or(IterType::Discard)
    }

    /// Returns `true` if the iterator walks user-space memory (C's `user_backed_iter()`).
    ///
    /// Copies to and from such an iterator can fault and come up short at any point.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// assert!(!IovSource::from_slice(b"kernel").is_user_backed());
    /// ```
    #[inline]
    pub fn is_user_backed(&self) -> bool {
        matches!(self.iter_type(), IterType::Ubuf | IterType::Iovec)
    }

    /// Returns the number of segments left, including the current one.
    ///
    /// This is C's `nr_segs` for segment-array iterators (`ITER_IOVEC`, `ITER_KVEC`,
    /// `ITER_BVEC`) and 1 for `ITER_UBUF`; other types have no segment array and return 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"ab"), Kvec::source(b"cd"), Kvec::source(b"ef")];
    /// let mut src = IovSource::kvec(&segs);
    /// assert_eq!(src.nr_segs(), 3);
    /// src.advance(3);
    /// assert_eq!(src.nr_segs(), 2);
    /// src.advance(3);
    /// assert_eq!(src.nr_segs(), 0);
    /// ```
    #[inline]
    pub fn nr_segs(&self) -> usize {
        match self.iter_type() {
            // SAFETY: By the type invariants the iterator is initialised, and for these types
            // the union holds `nr_segs`.
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
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"abcd"), Kvec::source(b"ef")];
    /// let mut src = IovSource::kvec(&segs);
    /// assert_eq!(src.segment_len(), 4);
    /// src.advance(1);
    /// assert_eq!(src.segment_len(), 3);
    /// src.advance(3);
    /// assert_eq!(src.segment_len(), 2);
    /// ```
    #[inline]
    pub fn segment_len(&self) -> usize {
        // SAFETY: By the type invariants the iterator is valid; the function only reads it.
        unsafe { bindings::iov_iter_single_seg_count(self.raw()) }
    }

    /// Returns the number of pages the rest of the iterator touches, counting at most `max`
    /// (C's `iov_iter_npages()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovSource};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let a = Page::alloc_page(GFP_KERNEL)?;
    /// let b = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [Bvec::source(&a, PAGE_SIZE - 8, 8)?, Bvec::source(&b, 0, 8)?];
    /// let src = IovSource::bvec(&segs);
    /// assert_eq!(src.npages(16), 2);
    /// assert_eq!(src.npages(1), 1);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn npages(&self, max: usize) -> usize {
        let max = max.min(c_int::MAX as usize) as c_int;
        // SAFETY: By the type invariants the iterator is valid; the function only reads it.
        let n = unsafe { bindings::iov_iter_npages(self.raw(), max) };
        n.max(0) as usize
    }

    /// Returns the OR of the addresses and lengths of the rest of the iterator's segments, so
    /// that its lowest set bit gives the alignment of the whole (C's `iov_iter_alignment()`).
    /// An empty iterator gives 0; the C function is not called for it, as it would read the
    /// segment after the last one.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [Bvec::source(&page, 512, 1024)?];
    /// let mut src = IovSource::bvec(&segs);
    /// assert_eq!(src.alignment() & 511, 0);
    /// src.advance(2);
    /// assert_eq!(src.alignment() & 1, 0);
    /// assert_ne!(src.alignment() & 2, 0);
    /// src.advance(usize::MAX);
    /// assert_eq!(src.alignment(), 0);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn alignment(&self) -> usize {
        // The C function reads the current segment even when there is none left.
        if self.is_empty() {
            return 0;
        }
        // SAFETY: By the type invariants the iterator is valid; the function only reads it. It is
        // not empty, so its current segment exists.
        unsafe { bindings::iov_iter_alignment(self.raw()) as usize }
    }

    /// Returns the OR of the boundaries between the segments of a user-backed iterator (the
    /// start of each segment but the first and the end of each but the last), which tells
    /// whether the segments can be merged into one request (C's `iov_iter_gap_alignment()`).
    ///
    /// Returns `None` for other iterators, for which the C function is not defined.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"ab"), Kvec::source(b"cd")];
    /// assert_eq!(IovSource::kvec(&segs).gap_alignment(), None);
    ///
    /// // Two user segments, 0x10000..0x10010 and 0x10020..0x10030 (never accessed here).
    /// let user = [
    ///     bindings::iovec { iov_base: 0x10000 as *mut _, iov_len: 16 },
    ///     bindings::iovec { iov_base: 0x10020 as *mut _, iov_len: 16 },
    /// ];
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_SOURCE;
    /// // SAFETY: `iov_iter_init` initialises every field of `raw`.
    /// unsafe { bindings::iov_iter_init(raw.as_mut_ptr(), dir, user.as_ptr(), 2, 32) };
    /// // SAFETY: `raw` is initialised and outlives `src`; it describes user memory.
    /// let src = unsafe { IovSource::from_raw(raw.as_mut_ptr()) }?;
    /// assert_eq!(src.gap_alignment(), Some(0x10020 | 0x10010));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn gap_alignment(&self) -> Option<usize> {
        if !self.is_user_backed() {
            return None;
        }
        // SAFETY: By the type invariants the iterator is valid; the function only reads it, and
        // it is user-backed as the function requires.
        Some(unsafe { bindings::iov_iter_gap_alignment(self.raw()) as usize })
    }

    /// Returns `true` if every segment's address has no bit of `addr_mask` set and every
    /// segment's length no bit of `len_mask` (C's `iov_iter_is_aligned()`). An empty iterator is
    /// aligned; the C function is not called for it, as it would read the segment after the last.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL)?;
    /// let segs = [Bvec::source(&page, 512, 1024)?];
    /// let mut src = IovSource::bvec(&segs);
    /// assert!(src.is_aligned(511, 511));
    /// src.advance(1);
    /// assert!(!src.is_aligned(511, 0));
    /// src.advance(usize::MAX);
    /// assert!(src.is_aligned(511, 511));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn is_aligned(&self, addr_mask: u32, len_mask: u32) -> bool {
        // The C function reads the current segment even when there is none left.
        if self.is_empty() {
            return true;
        }
        // SAFETY: By the type invariants the iterator is valid; the function only reads it. It is
        // not empty, so its current segment exists.
        unsafe { bindings::iov_iter_is_aligned(self.raw(), addr_mask, len_mask) }
    }

    /// Returns how far the iterator can be moved back with [`IovIter::revert`]: the bytes it
    /// has moved forward since it was created, minus those already reverted.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abcdef");
    /// src.advance(4);
    /// src.revert(1)?;
    /// assert_eq!(src.consumed(), 3);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// Records that the C code moved the iterator forward by `n` bytes.
    #[inline]
    fn moved(&mut self, n: usize) -> usize {
        // INVARIANT: The caller reports a forward move that happened.
        self.consumed += n;
        n
    }

    /// Moves the iterator forward by up to `n` bytes and returns how far it went: `n`, or
    /// [`IovIter::len`] if that is smaller (C's `iov_iter_advance()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"abc"), Kvec::source(b"def")];
    /// let mut src = IovSource::kvec(&segs);
    /// assert_eq!(src.advance(4), 4);
    /// let mut rest = [0u8; 2];
    /// assert_eq!(src.copy_from_iter(&mut rest), 2);
    /// assert_eq!(&rest, b"ef");
    /// assert_eq!(src.advance(100), 0);
    /// ```
    #[inline]
    pub fn advance(&mut self, n: usize) -> usize {
        let n = n.min(self.len());
        // SAFETY: By the type invariants the iterator is valid; `n` is at most its count.
        unsafe { bindings::iov_iter_advance(self.raw(), n) };
        self.moved(n)
    }

    /// Moves the iterator back by `n` bytes (C's `iov_iter_revert()`).
    ///
    /// Fails with [`EINVAL`], leaving the iterator as it was, if `n` is larger than
    /// [`IovIter::consumed`]: the iterator never goes back past where it started.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"abc"), Kvec::source(b"def")];
    /// let mut src = IovSource::kvec(&segs);
    /// let mut out = [0u8; 5];
    /// assert_eq!(src.copy_from_iter(&mut out), 5);
    /// src.revert(4)?;
    /// assert_eq!(src.len(), 5);
    /// assert_eq!(src.copy_from_iter(&mut out[..2]), 2);
    /// assert_eq!(&out[..2], b"bc");
    ///
    /// // Only three bytes have been consumed.
    /// assert_eq!(src.consumed(), 3);
    /// assert_eq!(src.revert(4), Err(EINVAL));
    /// assert_eq!(src.len(), 3);
    /// src.revert(3)?;
    /// assert_eq!(src.len(), 6);
    /// assert_eq!(src.revert(1), Err(EINVAL));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn revert(&mut self, n: usize) -> Result {
        if n > self.consumed {
            return Err(EINVAL);
        }
        self.unwind(n);
        Ok(())
    }

    /// Moves the iterator back by `n <= self.consumed` bytes.
    #[inline]
    fn unwind(&mut self, n: usize) {
        // INVARIANT: `n <= consumed`, so the new value is still bounded by forward moves.
        self.consumed -= n;
        let mut left = n;
        while left > 0 {
            // `iov_iter_revert()` warns about larger amounts and ignores them.
            let step = left.min(MAX_RW_COUNT);
            // SAFETY: By the type invariants the iterator is valid and moved forward by at least
            // `n` bytes since it was created, so this stays inside its memory.
            unsafe { bindings::iov_iter_revert(self.raw(), step) };
            left -= step;
        }
    }

    /// Lowers the count of the iterator to at most `max` bytes and returns by how much it went
    /// down (C's `iov_iter_truncate()`). [`IovIter::reexpand`] gives the bytes back.
    ///
    /// Dropping the iterator does not give them back. For an iterator handed in by C
    /// ([`IovIter::from_raw`]), call [`IovIter::reexpand`] before returning, as C code does after
    /// `iov_iter_truncate()`, or the caller sees the lowered count.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abcdefgh");
    /// assert_eq!(src.truncate(3), 5);
    /// let mut out = [0u8; 8];
    /// assert_eq!(src.copy_from_iter(&mut out), 3);
    /// assert_eq!(src.truncate(10), 0);
    /// assert_eq!(src.reexpand(usize::MAX), 5);
    /// assert_eq!(src.copy_from_iter(&mut out[3..]), 5);
    /// assert_eq!(&out, b"abcdefgh");
    /// ```
    #[inline]
    pub fn truncate(&mut self, max: usize) -> usize {
        let len = self.len();
        if len <= max {
            return 0;
        }
        // SAFETY: `max < len`, and the old count was valid.
        unsafe { self.set_len(max) };
        // INVARIANT: The count went down by `len - max`.
        self.hidden += len - max;
        len - max
    }

    /// Raises the count of the iterator by up to `n` of the bytes [`IovIter::truncate`] took
    /// away and returns by how much it went up (C's `iov_iter_reexpand()`, which takes the new
    /// count instead and trusts its caller).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abcdefgh");
    /// assert_eq!(src.reexpand(1), 0);
    /// src.truncate(2);
    /// assert_eq!(src.reexpand(4), 4);
    /// assert_eq!(src.len(), 6);
    /// assert_eq!(src.reexpand(4), 2);
    /// assert_eq!(src.len(), 8);
    /// ```
    #[inline]
    pub fn reexpand(&mut self, n: usize) -> usize {
        let n = n.min(self.hidden);
        let len = self.len() + n;
        // SAFETY: By the type invariants the iterator has at least `hidden` bytes beyond its
        // count, and `n <= hidden`.
        unsafe { self.set_len(len) };
        // INVARIANT: `n` bytes were given back.
        self.hidden -= n;
        n
    }

    /// Saves the position and count of the iterator; the returned guard puts them back when it
    /// is dropped unless [`Checkpoint::commit`] is called.
    ///
    /// Use the guard like the iterator itself to try something that may have to be undone.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"abc"), Kvec::source(b"defgh")];
    /// let mut src = IovSource::kvec(&segs);
    /// let mut out = [0u8; 4];
    /// src.advance(1);
    /// {
    ///     let mut try_it = src.checkpoint();
    ///     assert_eq!(try_it.copy_from_iter(&mut out), 4);
    ///     try_it.truncate(1);
    ///     // Dropped: undone.
    /// }
    /// assert_eq!(src.len(), 7);
    /// let mut keep = src.checkpoint();
    /// assert_eq!(keep.copy_from_iter(&mut out), 4);
    /// keep.commit();
    /// assert_eq!(&out, b"bcde");
    /// assert_eq!(src.len(), 3);
    /// ```
    #[inline]
    pub fn checkpoint(&mut self) -> Checkpoint<'_, 'data, D> {
        Checkpoint {
            consumed: self.consumed,
            len: self.len(),
            iter: self,
        }
    }

    /// Brings the iterator to `consumed` bytes from its start with `len` bytes visible, using
    /// only the checked moves, so it cannot go wrong even for another iterator.
    #[inline]
    fn rewind_to(&mut self, consumed: usize, len: usize) {
        self.reexpand(usize::MAX);
        if self.consumed >= consumed {
            self.unwind(self.consumed - consumed);
        } else {
            self.advance(consumed - self.consumed);
        }
        self.truncate(len);
    }
}

/// Saved position and count of an [`IovIter`], restored when dropped (C's
/// `iov_iter_save_state()` and `iov_iter_restore()`).
///
/// It dereferences to the iterator. Restoring goes through [`IovIter::revert`],
/// [`IovIter::advance`], [`IovIter::truncate`] and [`IovIter::reexpand`] rather than C's
/// `iov_iter_restore()`: it works for every iterator type (the C function warns about
/// `ITER_DISCARD`, `ITER_FOLIOQ` and `ITER_XARRAY` in 6.12), and it stays safe even if the
/// iterator behind the guard was replaced through [`DerefMut`].
///
/// # Examples
///
/// ```
/// use kernel::iov::IovDest;
///
/// let mut dst = IovDest::discard(10);
/// {
///     let mut guard = dst.checkpoint();
///     assert_eq!(guard.zero(7), 7);
///     assert_eq!(guard.len(), 3);
/// }
/// assert_eq!(dst.len(), 10);
/// ```
pub struct Checkpoint<'a, 'data, D: Direction> {
    iter: &'a mut IovIter<'data, D>,
    consumed: usize,
    len: usize,
}

impl<D: Direction> Checkpoint<'_, '_, D> {
    /// Keeps the iterator where it is now.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abc");
    /// let mut guard = src.checkpoint();
    /// guard.advance(2);
    /// guard.commit();
    /// assert_eq!(src.len(), 1);
    /// ```
    #[inline]
    pub fn commit(self) {
        core::mem::forget(self);
    }

    /// Puts the iterator back where it was when the guard was made; the same as dropping the
    /// guard.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abc");
    /// src.advance(1);
    /// let mut guard = src.checkpoint();
    /// guard.advance(2);
    /// guard.revert(3)?;
    /// guard.rollback();
    /// assert_eq!(src.len(), 2);
    /// assert_eq!(src.consumed(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn rollback(self) {}
}

impl<'data, D: Direction> Deref for Checkpoint<'_, 'data, D> {
    type Target = IovIter<'data, D>;

    #[inline]
    fn deref(&self) -> &Self::Target {
        self.iter
    }
}

impl<D: Direction> DerefMut for Checkpoint<'_, '_, D> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.iter
    }
}

impl<D: Direction> Drop for Checkpoint<'_, '_, D> {
    #[inline]
    fn drop(&mut self) {
        // For the same iterator, `consumed + len + hidden` never changes, so this also puts
        // `hidden` back.
        self.iter.rewind_to(self.consumed, self.len);
    }
}

impl<'data> IovIter<'data, Source> {
    /// Builds a source iterator over one kernel buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let data = *b"payload";
    /// let mut src = IovSource::from_slice(&data);
    /// let mut out = [0u8; 3];
    /// assert_eq!(src.copy_from_iter(&mut out), 3);
    /// assert_eq!(&out, b"pay");
    /// ```
    #[inline]
    pub fn from_slice(data: &'data [u8]) -> Self {
        // SAFETY: `Kvec::source` satisfies the invariants for `'data`.
        unsafe { Self::new_slice(Kvec::source(data).kvec) }
    }

    /// Builds a source iterator over several kernel buffers.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovSource, Kvec};
    ///
    /// let segs = [Kvec::source(b"ab"), Kvec::source(b""), Kvec::source(b"cde")];
    /// let mut src = IovSource::kvec(&segs);
    /// let mut out = [0u8; 5];
    /// assert_eq!(src.copy_from_iter(&mut out), 5);
    /// assert_eq!(&out, b"abcde");
    /// ```
    #[inline]
    pub fn kvec<'s: 'data>(segs: &'data [Kvec<'s, Source>]) -> Self {
        // SAFETY: `Kvec` is a transparent `struct kvec`; each one satisfies the invariants for
        // `'s`, which outlives `'data`, and the array is borrowed for `'data`.
        unsafe { Self::new_kvec(segs.as_ptr().cast(), segs.len()) }
    }

    /// Builds a source iterator over page fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovSource};
    /// use kernel::page::Page;
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let segs = [Bvec::source(&page, 0, 16)?];
    /// let src = IovSource::bvec(&segs);
    /// assert_eq!(src.len(), 16);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn bvec<'s: 'data>(segs: &'data [Bvec<'s, Source>]) -> Self {
        // SAFETY: `Bvec` is a transparent `struct bio_vec`; each page is borrowed for `'s`,
        // which outlives `'data`, and the array is borrowed for `'data`.
        unsafe {
            Self::new_bvec(core::slice::from_raw_parts(
                segs.as_ptr().cast(),
                segs.len(),
            ))
        }
    }

    /// Copies bytes out of the iterator into `out` and returns how many: fewer than
    /// `out.len()` if the iterator ends or, for user memory, faults first (C's
    /// `copy_from_iter()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"short");
    /// let mut out = [0u8; 8];
    /// assert_eq!(src.copy_from_iter(&mut out), 5);
    /// assert_eq!(&out, b"short\0\0\0");
    /// assert_eq!(src.copy_from_iter(&mut out), 0);
    /// ```
    #[inline]
    pub fn copy_from_iter(&mut self, out: &mut [u8]) -> usize {
        // SAFETY: `u8` and `MaybeUninit<u8>` have the same layout, and only initialised bytes
        // are written.
        let out = unsafe { &mut *(out as *mut [u8] as *mut [MaybeUninit<u8>]) };
        self.copy_from_iter_uninit(out).len()
    }

    /// Copies bytes out of the iterator into possibly uninitialised memory and returns the
    /// initialised part of `out`, which is shorter than `out` if the iterator ends or faults.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::MaybeUninit;
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abc");
    /// let mut out = [MaybeUninit::<u8>::uninit(); 8];
    /// let got = src.copy_from_iter_uninit(&mut out);
    /// assert_eq!(got, b"abc");
    /// ```
    #[inline]
    pub fn copy_from_iter_uninit<'b>(&mut self, out: &'b mut [MaybeUninit<u8>]) -> &'b mut [u8] {
        // SAFETY: `out` is valid for writes of `out.len()` bytes and the iterator is valid by
        // the type invariants. The C function checks the direction again.
        let n =
            unsafe { bindings::_copy_from_iter(out.as_mut_ptr().cast(), out.len(), self.raw()) };
        let n = self.moved(n);
        // SAFETY: The first `n <= out.len()` bytes of `out` were just written.
        unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast(), n) }
    }

    /// Fills all of `out` from the iterator, or, if that is not possible, moves the iterator
    /// back to where it was and fails with [`EFAULT`] (C's `copy_from_iter_full()`).
    ///
    /// `out` may have been partly written when it fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"abcdef");
    /// let mut out = [0u8; 4];
    /// src.copy_from_iter_full(&mut out)?;
    /// assert_eq!(&out, b"abcd");
    /// assert_eq!(src.copy_from_iter_full(&mut out), Err(EFAULT));
    /// assert_eq!(src.len(), 2);
    /// assert_eq!(src.consumed(), 4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_from_iter_full(&mut self, out: &mut [u8]) -> Result {
        let n = self.copy_from_iter(out);
        if n == out.len() {
            return Ok(());
        }
        self.unwind(n);
        Err(EFAULT)
    }

    /// Reads a plain-data value from the next `size_of::<T>()` bytes of the iterator, or fails
    /// with [`EFAULT`] and leaves the iterator where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let bytes = [1u8, 0, 0, 0, 2, 0];
    /// let mut src = IovSource::from_slice(&bytes);
    /// assert_eq!(src.read::<u32>()?, u32::from_le_bytes([1, 0, 0, 0]));
    /// assert_eq!(src.read::<u32>(), Err(EFAULT));
    /// assert_eq!(src.read::<u16>()?, u16::from_le_bytes([2, 0]));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn read<T: FromBytes>(&mut self) -> Result<T> {
        let mut value = MaybeUninit::<T>::uninit();
        // SAFETY: `value` is valid for writes of `size_of::<T>()` bytes, and every byte may be
        // written with anything since all bit patterns are valid for `T`.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(
                value.as_mut_ptr().cast::<MaybeUninit<u8>>(),
                size_of::<T>(),
            )
        };
        let n = self.copy_from_iter_uninit(bytes).len();
        if n != size_of::<T>() {
            self.unwind(n);
            return Err(EFAULT);
        }
        // SAFETY: All bytes of `value` were written, and `T: FromBytes` accepts any of them.
        Ok(unsafe { value.assume_init() })
    }

    /// Appends up to `max` bytes from the iterator to `vec` and returns how many it appended.
    ///
    /// At most `min(max, self.len())` bytes of room are reserved, so a large iterator cannot
    /// make this allocate more than the caller allows.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut src = IovSource::from_slice(b"0123456789");
    /// let mut vec = KVec::new();
    /// assert_eq!(src.append_to_kvec(&mut vec, 4, GFP_KERNEL)?, 4);
    /// assert_eq!(src.append_to_kvec(&mut vec, 100, GFP_KERNEL)?, 6);
    /// assert_eq!(&vec[..], b"0123456789");
    /// assert!(vec.capacity() < 100);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn append_to_kvec(
        &mut self,
        vec: &mut KVec<u8>,
        max: usize,
        flags: Flags,
    ) -> Result<usize> {
        let want = max.min(self.len());
        vec.reserve(want, flags)?;
        let n = self
            .copy_from_iter_uninit(&mut vec.spare_capacity_mut()[..want])
            .len();
        // SAFETY: The `n` bytes after the current length were just initialised, and they are
        // within the capacity.
        unsafe { vec.set_len(vec.len() + n) };
        Ok(n)
    }

    /// Copies `len` bytes from the iterator into `page` at `offset` and returns how many it
    /// copied (C's `copy_page_from_iter()`).
    ///
    /// Fails with [`EINVAL`] if the range does not fit in the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// let mut src = IovSource::from_slice(b"xyz");
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
        let range = page_range(page, offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed mutably, and the iterator is
        // valid by the type invariants.
        let n = unsafe { bindings::copy_page_from_iter(range.bv_page, offset, len, self.raw()) };
        Ok(self.moved(n))
    }

    /// Like [`IovIter::copy_page_from_iter`], but with page faults disabled, so it can be used
    /// with a page lock held or in atomic context (C's `copy_page_from_iter_atomic()`).
    ///
    /// For user memory that is not present it copies less, possibly nothing. The loop of the
    /// example faults the memory in with [`IovIter::fault_in_readable`] before each copy, outside
    /// the lock; C's `generic_perform_write()` copies first and faults in only after a copy that
    /// made no progress, once the page is unlocked. Either way, a short copy is retried.
    ///
    /// # Examples
    ///
    /// A write loop that fills a page from the iterator:
    ///
    /// ```
    /// use kernel::iov::IovSource;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// fn fill(page: &mut Page, src: &mut IovSource<'_>) -> Result<usize> {
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
    /// let mut src = IovSource::from_slice(&data);
    /// assert_eq!(fill(&mut page, &mut src)?, 100);
    /// assert!(src.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// With user memory that has never been touched, the atomic copy gets nothing until the
    /// memory is faulted in. (In a KUnit test, `kunit_vm_mmap()` provides the user memory.)
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovSource;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// const PROT_READ_WRITE: usize = 0x3;
    /// const MAP_PRIVATE_ANONYMOUS: usize = 0x22;
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     let (prot, flags) = (PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS);
    ///     bindings::kunit_vm_mmap(test, core::ptr::null_mut(), 0, PAGE_SIZE, prot, flags, 0)
    /// };
    /// assert_ne!(user, 0);
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_SOURCE as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, user as _, 64, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` is initialised and outlives `src`; it describes user memory.
    /// let mut src = unsafe { IovSource::from_raw(raw.as_mut_ptr()) }?;
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL)?;
    /// assert_eq!(src.copy_page_from_iter_atomic(&mut page, 0, 64)?, 0);
    /// assert_eq!(src.fault_in_readable(64), 0);
    /// assert_eq!(src.copy_page_from_iter_atomic(&mut page, 0, 64)?, 64);
    /// assert!(src.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_from_iter_atomic(
        &mut self,
        page: &mut Page,
        offset: usize,
        len: usize,
    ) -> Result<usize> {
        let range = page_range(page, offset, len)?;
        // SAFETY: As for `copy_page_from_iter`.
        let n =
            unsafe { bindings::copy_page_from_iter_atomic(range.bv_page, offset, len, self.raw()) };
        Ok(self.moved(n))
    }

    /// Faults in up to `n` bytes of user memory at the start of the iterator and returns how
    /// many of them could *not* be faulted in (C's `fault_in_iov_iter_readable()`).
    ///
    /// Returns 0 for iterators over kernel memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let src = IovSource::from_slice(b"kernel memory");
    /// assert_eq!(src.fault_in_readable(5), 0);
    /// ```
    #[inline]
    pub fn fault_in_readable(&self, n: usize) -> usize {
        // SAFETY: By the type invariants the iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_readable(self.raw(), n) }
    }
}

impl<'data> IovIter<'data, Dest> {
    /// Builds a destination iterator over one kernel buffer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut buf = [0u8; 4];
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// assert_eq!(dst.copy_to_iter(b"hi"), 2);
    /// assert_eq!(&buf, b"hi\0\0");
    /// ```
    #[inline]
    pub fn from_slice(data: &'data mut [u8]) -> Self {
        // SAFETY: `Kvec::dest` satisfies the invariants for `'data`.
        unsafe { Self::new_slice(Kvec::dest(data).kvec) }
    }

    /// Builds a destination iterator over several kernel buffers. The segment array is borrowed
    /// mutably, so no two iterators can write through the same segments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovDest, Kvec};
    ///
    /// let mut a = [0u8; 2];
    /// let mut b = [0u8; 3];
    /// let mut segs = [Kvec::dest(&mut a), Kvec::dest(&mut b)];
    /// let mut dst = IovDest::kvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"12345678"), 5);
    /// assert_eq!((&a, &b), (b"12", b"345"));
    /// ```
    #[inline]
    pub fn kvec<'s: 'data>(segs: &'data mut [Kvec<'s, Dest>]) -> Self {
        // SAFETY: `Kvec` is a transparent `struct kvec`; each one satisfies the invariants for
        // `'s`, which outlives `'data`, and the array is borrowed mutably for `'data`.
        unsafe { Self::new_kvec(segs.as_ptr().cast(), segs.len()) }
    }

    /// Builds a destination iterator over page fragments.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{Bvec, IovDest};
    /// use kernel::page::Page;
    ///
    /// let mut p0 = Page::alloc_page(GFP_KERNEL)?;
    /// let mut p1 = Page::alloc_page(GFP_KERNEL)?;
    /// let mut segs = [Bvec::dest(&mut p0, 10, 2)?, Bvec::dest(&mut p1, 20, 2)?];
    /// let mut dst = IovDest::bvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"abcd"), 4);
    /// let mut back = [0u8; 2];
    /// // SAFETY: `back` is valid for 2 bytes and nothing else uses `p1`.
    /// unsafe { p1.read_raw(back.as_mut_ptr(), 20, 2)? };
    /// assert_eq!(&back, b"cd");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn bvec<'s: 'data>(segs: &'data mut [Bvec<'s, Dest>]) -> Self {
        // SAFETY: `Bvec` is a transparent `struct bio_vec`; each page is borrowed mutably for
        // `'s`, which outlives `'data`, and the array is borrowed mutably for `'data`.
        unsafe {
            Self::new_bvec(core::slice::from_raw_parts(
                segs.as_ptr().cast(),
                segs.len(),
            ))
        }
    }

    /// Builds a destination iterator that accepts `len` bytes and drops them (C's
    /// `iov_iter_discard()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut dst = IovDest::discard(3);
    /// assert_eq!(dst.copy_to_iter(b"abcd"), 3);
    /// assert!(dst.is_empty());
    /// ```
    #[inline]
    pub fn discard(len: usize) -> Self {
        let iter = Opaque::uninit();
        // SAFETY: `iov_iter_discard` initialises every field of `*iter.get()`; the direction is
        // `ITER_DEST` as it requires.
        unsafe { bindings::iov_iter_discard(iter.get(), bindings::ITER_DEST, len) };
        // INVARIANT: A discard iterator describes no memory.
        Self {
            store: Store::Local(iter),
            consumed: 0,
            hidden: 0,
            _p: PhantomData,
        }
    }

    /// Copies `data` into the iterator and returns how many bytes it copied: fewer than
    /// `data.len()` if the iterator ends or, for user memory, faults first (C's
    /// `copy_to_iter()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IovDest, Kvec};
    ///
    /// let mut a = [0u8; 3];
    /// let mut b = [0u8; 1];
    /// let mut segs = [Kvec::dest(&mut a), Kvec::dest(&mut b)];
    /// let mut dst = IovDest::kvec(&mut segs);
    /// assert_eq!(dst.copy_to_iter(b"ab"), 2);
    /// assert_eq!(dst.copy_to_iter(b"cdef"), 2);
    /// assert_eq!(dst.copy_to_iter(b"g"), 0);
    /// assert_eq!((&a, &b), (b"abc", b"d"));
    /// ```
    #[inline]
    pub fn copy_to_iter(&mut self, data: &[u8]) -> usize {
        // SAFETY: `data` is valid for reads of `data.len()` bytes and the iterator is valid by
        // the type invariants. The C function checks the direction again.
        let n = unsafe { bindings::_copy_to_iter(data.as_ptr().cast(), data.len(), self.raw()) };
        self.moved(n)
    }

    /// Copies all of `data` into the iterator, or, if that is not possible, moves the iterator
    /// back to where it was and fails with [`EFAULT`] (C's `copy_to_iter_full()`).
    ///
    /// The memory of the iterator may have been partly written when it fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut buf = [0u8; 5];
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// dst.copy_to_iter_full(b"abc")?;
    /// assert_eq!(dst.copy_to_iter_full(b"def"), Err(EFAULT));
    /// assert_eq!(dst.len(), 2);
    /// dst.copy_to_iter_full(b"de")?;
    /// assert_eq!(&buf, b"abcde");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_to_iter_full(&mut self, data: &[u8]) -> Result {
        let n = self.copy_to_iter(data);
        if n == data.len() {
            return Ok(());
        }
        self.unwind(n);
        Err(EFAULT)
    }

    /// Writes the bytes of a plain-data value into the iterator, or fails with [`EFAULT`] and
    /// leaves the iterator where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut buf = [0u8; 6];
    /// let mut dst = IovDest::from_slice(&mut buf);
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
        let bytes = unsafe {
            core::slice::from_raw_parts((value as *const T).cast::<u8>(), size_of::<T>())
        };
        self.copy_to_iter_full(bytes)
    }

    /// Writes up to `n` zero bytes into the iterator and returns how many it wrote (C's
    /// `iov_iter_zero()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut buf = [9u8; 4];
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// dst.advance(1);
    /// assert_eq!(dst.zero(10), 3);
    /// assert_eq!(buf, [9, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn zero(&mut self, n: usize) -> usize {
        // SAFETY: By the type invariants the iterator is valid.
        let n = unsafe { bindings::iov_iter_zero(n, self.raw()) };
        self.moved(n)
    }

    /// Copies `len` bytes of `page` from `offset` into the iterator and returns how many it
    /// copied (C's `copy_page_to_iter()`).
    ///
    /// Fails with [`EINVAL`] if the range does not fit in the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// // SAFETY: The source is valid for 2 bytes and nothing else uses `page`.
    /// unsafe { page.write_raw(b"ok".as_ptr(), 40, 2)? };
    /// let mut buf = [1u8; 4];
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// assert_eq!(dst.copy_page_to_iter(&page, 40, PAGE_SIZE), Err(EINVAL));
    /// assert_eq!(dst.copy_page_to_iter(&page, 39, 10)?, 4);
    /// assert_eq!(&buf, b"\0ok\0");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_to_iter(&mut self, page: &Page, offset: usize, len: usize) -> Result<usize> {
        let range = page_range(page, offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed, and the iterator is valid by
        // the type invariants.
        let n = unsafe { bindings::copy_page_to_iter(range.bv_page, offset, len, self.raw()) };
        Ok(self.moved(n))
    }

    /// Faults in up to `n` bytes of user memory at the start of the iterator for writing and
    /// returns how many of them could *not* be faulted in (C's `fault_in_iov_iter_writeable()`).
    ///
    /// Returns 0 for iterators over kernel memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// let mut buf = [0u8; 8];
    /// let dst = IovDest::from_slice(&mut buf);
    /// assert_eq!(dst.fault_in_writeable(8), 0);
    /// ```
    #[inline]
    pub fn fault_in_writeable(&self, n: usize) -> usize {
        // SAFETY: By the type invariants the iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_writeable(self.raw(), n) }
    }
}
