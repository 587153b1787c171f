// SPDX-License-Identifier: GPL-2.0

//! I/O control blocks: the request a `read_iter` or `write_iter` file operation serves.
//!
//! C header: [`include/linux/fs.h`](srctree/include/linux/fs.h)

use crate::{
    bindings,
    error::{code::*, Result},
    fs::LocalFile,
    types::ForeignOwnable,
};
use core::{marker::PhantomData, ptr::NonNull};

/// A `struct kiocb`: the file a `read_iter` or `write_iter` call is for, the position it reads
/// or writes at, and how.
///
/// `T` is the type of the file's private data, which [`Kiocb::file`] borrows: what the driver's
/// `open` stored there (for misc devices, [`MiscDevice::Ptr`]). The data itself travels in the
/// iterator passed next to the `Kiocb`. The handler moves the position ([`Kiocb::ki_pos_mut`])
/// by what it transferred; the VFS stores it back in the file for `read()`/`write()` and drops
/// it for `pread()`/`pwrite()`.
///
/// [`MiscDevice::Ptr`]: crate::miscdevice::MiscDevice::Ptr
///
/// # Invariants
///
/// `inner` points to a valid `struct kiocb` for `'a`, whose `ki_filp` is a valid file whose
/// `private_data` came from `T::into_foreign()` and is not released for `'a`.
///
/// # Examples
///
/// A request for a file whose private data is a `KBox<u32>`, as a file operation would see it:
///
/// ```
/// use kernel::{bindings, fs::Kiocb, types::ForeignOwnable};
///
/// // SAFETY: All zeroes is a valid `struct file` and `struct kiocb`.
/// let (mut file, mut raw) = unsafe {
///     (core::mem::zeroed::<bindings::file>(), core::mem::zeroed::<bindings::kiocb>())
/// };
/// file.private_data = KBox::new(7u32, GFP_KERNEL)?.into_foreign().cast_mut();
/// raw.ki_filp = &mut file;
/// raw.ki_pos = 100;
/// raw.ki_flags = bindings::IOCB_NOWAIT;
/// {
///     // SAFETY: `raw` and `file` outlive `kiocb`; the private data is a `KBox<u32>`.
///     let mut kiocb = unsafe { Kiocb::<KBox<u32>>::from_raw(&mut raw) };
///     assert_eq!(*kiocb.file(), 7);
///     assert!(kiocb.is_nowait() && !kiocb.is_append());
///     assert_eq!(kiocb.ki_pos(), 100);
///     *kiocb.ki_pos_mut() += 28;
/// }
/// assert_eq!(raw.ki_pos, 128);
/// // SAFETY: The private data came from `into_foreign()` and is not borrowed any more.
/// drop(unsafe { KBox::<u32>::from_foreign(file.private_data) });
/// # Ok::<(), Error>(())
/// ```
pub struct Kiocb<'a, T> {
    inner: NonNull<bindings::kiocb>,
    _p: PhantomData<&'a T>,
}

impl<'a, T: ForeignOwnable> Kiocb<'a, T> {
    /// Wraps the `struct kiocb` a `read_iter` or `write_iter` call was given.
    ///
    /// # Safety
    ///
    /// - `kiocb` points to a valid `struct kiocb` that is valid for `'a`, and that nothing else
    ///   accesses for `'a`.
    /// - Its `ki_filp` is valid for `'a`, and its `private_data` came from `T::into_foreign()`
    ///   and is neither released nor borrowed mutably for `'a` (true for the file of a file
    ///   operation whose `open` stored a `T` there, until the operation returns).
    #[inline]
    pub unsafe fn from_raw(kiocb: *mut bindings::kiocb) -> Self {
        // INVARIANT: The caller guarantees what the invariants ask for.
        Self {
            // SAFETY: The caller guarantees that `kiocb` is valid, and so not null.
            inner: unsafe { NonNull::new_unchecked(kiocb) },
            _p: PhantomData,
        }
    }

    /// Returns the `struct kiocb`, for C code.
    #[inline]
    pub fn as_raw(&self) -> *mut bindings::kiocb {
        self.inner.as_ptr()
    }

    /// Borrows the private data of the file the request is for.
    #[inline]
    pub fn file(&self) -> <T as ForeignOwnable>::Borrowed<'a> {
        // SAFETY: By the type invariants the kiocb and its file are valid.
        let private = unsafe { (*(*self.as_raw()).ki_filp).private_data };
        // SAFETY: By the type invariants the private data came from `T::into_foreign()` and is
        // not released or borrowed mutably for `'a`.
        unsafe { T::borrow(private) }
    }

    /// Returns the file the request is for. Not in mainline.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{bindings, fs::{file::flags, Kiocb}};
    ///
    /// // SAFETY: All zeroes is a valid `struct file` and `struct kiocb`.
    /// let (mut file, mut raw) = unsafe {
    ///     (core::mem::zeroed::<bindings::file>(), core::mem::zeroed::<bindings::kiocb>())
    /// };
    /// file.f_flags = flags::O_APPEND;
    /// raw.ki_filp = &mut file;
    /// // SAFETY: `raw` and `file` outlive `kiocb`; `()` needs no private data.
    /// let kiocb = unsafe { Kiocb::<()>::from_raw(&mut raw) };
    /// assert_eq!(kiocb.ki_filp().flags() & flags::O_APPEND, flags::O_APPEND);
    /// ```
    #[inline]
    pub fn ki_filp(&self) -> &'a LocalFile {
        // SAFETY: By the type invariants the kiocb and its file are valid for `'a`. A
        // `read_iter` or `write_iter` call may be inside an `fdget_pos()` region of the file
        // that did not take `f_pos_lock` (`read()` and `write()` on a character device), on
        // this thread: hence a `LocalFile`, which cannot leave it.
        unsafe { LocalFile::from_raw_file((*self.as_raw()).ki_filp) }
    }

    /// Returns the position the request reads or writes at.
    #[inline]
    pub fn ki_pos(&self) -> i64 {
        // SAFETY: By the type invariants the kiocb is valid and only accessed through `self`.
        unsafe { (*self.as_raw()).ki_pos }
    }

    /// Returns the position to move it, e.g. past the bytes transferred.
    #[inline]
    pub fn ki_pos_mut(&mut self) -> &mut i64 {
        // SAFETY: By the type invariants the kiocb is valid and only accessed through `self`,
        // which is borrowed mutably.
        unsafe { &mut (*self.as_raw()).ki_pos }
    }

    /// Moves the position forward by `n` bytes and returns the new position; fails with
    /// [`EOVERFLOW`], changing nothing, if that would not fit in an `i64` (it never wraps).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{bindings, fs::Kiocb};
    ///
    /// // SAFETY: All zeroes is a valid `struct file` and `struct kiocb`.
    /// let (mut file, mut raw) = unsafe {
    ///     (core::mem::zeroed::<bindings::file>(), core::mem::zeroed::<bindings::kiocb>())
    /// };
    /// raw.ki_filp = &mut file;
    /// raw.ki_pos = i64::MAX - 1;
    /// // SAFETY: `raw` and `file` outlive `kiocb`; `()` needs no private data.
    /// let mut kiocb = unsafe { Kiocb::<()>::from_raw(&mut raw) };
    /// assert_eq!(kiocb.advance_pos(2), Err(EOVERFLOW));
    /// assert_eq!(kiocb.advance_pos(usize::MAX), Err(EOVERFLOW));
    /// assert_eq!(kiocb.advance_pos(1)?, i64::MAX);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn advance_pos(&mut self, n: usize) -> Result<i64> {
        let pos = i64::try_from(n)
            .ok()
            .and_then(|n| self.ki_pos().checked_add(n))
            .ok_or(EOVERFLOW)?;
        *self.ki_pos_mut() = pos;
        Ok(pos)
    }

    /// Sets the position from a byte offset, e.g. where the data really went; fails with
    /// [`EOVERFLOW`], changing nothing, if it does not fit in an `i64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{bindings, fs::Kiocb};
    ///
    /// // SAFETY: All zeroes is a valid `struct file` and `struct kiocb`.
    /// let (mut file, mut raw) = unsafe {
    ///     (core::mem::zeroed::<bindings::file>(), core::mem::zeroed::<bindings::kiocb>())
    /// };
    /// raw.ki_filp = &mut file;
    /// // SAFETY: `raw` and `file` outlive `kiocb`; `()` needs no private data.
    /// let mut kiocb = unsafe { Kiocb::<()>::from_raw(&mut raw) };
    /// kiocb.set_pos(4096)?;
    /// assert_eq!(kiocb.set_pos(usize::MAX), Err(EOVERFLOW));
    /// assert_eq!(kiocb.ki_pos(), 4096);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn set_pos(&mut self, pos: usize) -> Result {
        *self.ki_pos_mut() = i64::try_from(pos).map_err(|_| EOVERFLOW)?;
        Ok(())
    }

    /// Returns the `IOCB_*` flags of the request.
    #[inline]
    pub fn flags(&self) -> i32 {
        // SAFETY: By the type invariants the kiocb is valid and only accessed through `self`.
        unsafe { (*self.as_raw()).ki_flags }
    }

    /// Returns `true` if the request must not wait (`IOCB_NOWAIT`, from `RWF_NOWAIT` or an
    /// io_uring first attempt): where it would have to wait, e.g. for a lock, the handler fails
    /// with [`EAGAIN`] instead. Only files with `FMODE_NOWAIT` get such requests.
    #[inline]
    pub fn is_nowait(&self) -> bool {
        self.flags() & bindings::IOCB_NOWAIT != 0
    }

    /// Returns `true` if the request appends (`IOCB_APPEND`, from `O_APPEND` or `RWF_APPEND`):
    /// a write goes to the end of the file, whatever its position says.
    #[inline]
    pub fn is_append(&self) -> bool {
        self.flags() & bindings::IOCB_APPEND != 0
    }
}
