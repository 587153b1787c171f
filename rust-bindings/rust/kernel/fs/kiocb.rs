// SPDX-License-Identifier: GPL-2.0

//! I/O control blocks, the requests of `read_iter` and `write_iter`.
//!
//! C header: [`include/linux/fs.h`](srctree/include/linux/fs.h)

use crate::{
    bindings,
    error::{code::*, Result},
    fs::File,
};
use core::{marker::PhantomData, ptr::NonNull};

/// The request a `read_iter` or `write_iter` handler serves (C's `struct kiocb`): the file, the
/// position to read or write at, and how.
///
/// The data itself is in the [`IovIter`](crate::iov::IovIter) passed next to it. The handler
/// moves the position by what it transferred ([`Kiocb::advance_pos`]); the VFS then stores it
/// back in the file for `read()`/`write()`, and drops it for `pread()`/`pwrite()`.
///
/// # Invariants
///
/// `ptr` points to a valid `struct kiocb` for `'a`, which nothing else accesses for `'a`, and
/// its `ki_pos` is not negative.
///
/// # Examples
///
/// ```
/// use kernel::bindings;
/// use kernel::fs::Kiocb;
///
/// // SAFETY: All zeroes is a valid `struct kiocb` (with no file).
/// let mut raw: bindings::kiocb = unsafe { core::mem::zeroed() };
/// raw.ki_pos = 100;
/// raw.ki_flags = bindings::IOCB_NOWAIT;
/// {
///     // SAFETY: `raw` is valid, outlives `iocb` and is not used while `iocb` exists.
///     let mut iocb = unsafe { Kiocb::from_raw(&mut raw) }?;
///     assert_eq!(iocb.pos(), 100);
///     assert!(iocb.is_nowait() && !iocb.is_append());
///     assert_eq!(iocb.advance_pos(28)?, 128);
/// }
/// assert_eq!(raw.ki_pos, 128);
///
/// raw.ki_pos = -1;
/// // SAFETY: As above.
/// assert_eq!(unsafe { Kiocb::from_raw(&mut raw) }.err(), Some(EINVAL));
/// # Ok::<(), Error>(())
/// ```
pub struct Kiocb<'a> {
    ptr: NonNull<bindings::kiocb>,
    _p: PhantomData<&'a mut bindings::kiocb>,
}

impl<'a> Kiocb<'a> {
    /// Wraps the `struct kiocb` a `read_iter` or `write_iter` call was given.
    ///
    /// Fails with [`EINVAL`] if `ptr` is null or its position is negative (the VFS never passes
    /// such a request to a file without `FMODE_UNSIGNED_OFFSET`).
    ///
    /// # Safety
    ///
    /// `ptr` is null or points to a valid `struct kiocb` whose `ki_filp` is valid, and both stay
    /// valid for `'a`, during which nothing else accesses the `struct kiocb`.
    #[inline]
    pub unsafe fn from_raw(ptr: *mut bindings::kiocb) -> Result<Self> {
        let ptr = NonNull::new(ptr).ok_or(EINVAL)?;
        // SAFETY: The caller guarantees that a non-null `ptr` is valid.
        if unsafe { (*ptr.as_ptr()).ki_pos } < 0 {
            return Err(EINVAL);
        }
        // INVARIANT: Checked above, or guaranteed by the caller.
        Ok(Self {
            ptr,
            _p: PhantomData,
        })
    }

    /// Returns the file the request is for.
    #[inline]
    pub fn file(&self) -> &File {
        // SAFETY: By the type invariants the kiocb is valid, and `from_raw`'s caller guarantees
        // that its file is valid for `'a`, which outlives `&self`.
        unsafe { File::from_raw((*self.ptr.as_ptr()).ki_filp) }
    }

    /// Returns the position the request reads or writes at, in bytes; never negative.
    #[inline]
    pub fn pos(&self) -> i64 {
        // SAFETY: By the type invariants the kiocb is valid and only used through `self`.
        unsafe { (*self.ptr.as_ptr()).ki_pos }
    }

    /// Sets the position, e.g. to where the data was really written.
    ///
    /// Fails with [`EINVAL`], changing nothing, if `pos` is negative.
    #[inline]
    pub fn set_pos(&mut self, pos: i64) -> Result {
        if pos < 0 {
            return Err(EINVAL);
        }
        // INVARIANT: `pos` is not negative.
        // SAFETY: By the type invariants the kiocb is valid and only used through `self`.
        unsafe { (*self.ptr.as_ptr()).ki_pos = pos };
        Ok(())
    }

    /// Moves the position forward by `n` bytes and returns the new position.
    ///
    /// Fails with [`EOVERFLOW`], changing nothing, if the result would not fit in an `i64`; it
    /// never wraps.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::fs::Kiocb;
    ///
    /// // SAFETY: All zeroes is a valid `struct kiocb` (with no file).
    /// let mut raw: bindings::kiocb = unsafe { core::mem::zeroed() };
    /// raw.ki_pos = i64::MAX - 1;
    /// // SAFETY: `raw` is valid, outlives `iocb` and is not used while `iocb` exists.
    /// let mut iocb = unsafe { Kiocb::from_raw(&mut raw) }?;
    /// assert_eq!(iocb.advance_pos(2), Err(EOVERFLOW));
    /// assert_eq!(iocb.advance_pos(usize::MAX), Err(EOVERFLOW));
    /// assert_eq!(iocb.advance_pos(1)?, i64::MAX);
    /// assert_eq!(iocb.advance_pos(0)?, i64::MAX);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn advance_pos(&mut self, n: usize) -> Result<i64> {
        let pos = i64::try_from(n)
            .ok()
            .and_then(|n| self.pos().checked_add(n))
            .ok_or(EOVERFLOW)?;
        self.set_pos(pos)?;
        Ok(pos)
    }

    /// Returns the `IOCB_*` flags of the request.
    #[inline]
    pub fn flags(&self) -> i32 {
        // SAFETY: By the type invariants the kiocb is valid and only used through `self`.
        unsafe { (*self.ptr.as_ptr()).ki_flags }
    }

    /// Returns `true` if the request must not wait (`IOCB_NOWAIT`, from `RWF_NOWAIT`): where
    /// it would have to wait, e.g. for a lock, the handler fails with [`EAGAIN`] instead.
    ///
    /// Only files opened with `FMODE_NOWAIT` get such requests.
    #[inline]
    pub fn is_nowait(&self) -> bool {
        self.flags() & bindings::IOCB_NOWAIT != 0
    }

    /// Returns `true` if the request appends (`IOCB_APPEND`, from `O_APPEND` or `RWF_APPEND`): a
    /// write goes to the end of the file, whatever its position says.
    #[inline]
    pub fn is_append(&self) -> bool {
        self.flags() & bindings::IOCB_APPEND != 0
    }
}
