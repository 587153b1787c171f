// SPDX-License-Identifier: GPL-2.0

//! Open files.
//!
//! C header: [`include/linux/fs.h`](srctree/include/linux/fs.h)

use crate::{bindings, types::Opaque};
use core::ptr::addr_of;

/// Flags a file was opened with (C's `O_*`, the `f_flags` of a `struct file`).
///
/// The access mode is the two bits of [`O_ACCMODE`](flags::O_ACCMODE), one of
/// [`O_RDONLY`](flags::O_RDONLY), [`O_WRONLY`](flags::O_WRONLY) and [`O_RDWR`](flags::O_RDWR);
/// [`File::is_readable`] and [`File::is_writable`] say what the open actually allows.
pub mod flags {
    /// Mask of the access mode.
    pub const O_ACCMODE: u32 = bindings::O_ACCMODE;
    /// Open for reading only.
    pub const O_RDONLY: u32 = bindings::O_RDONLY;
    /// Open for writing only.
    pub const O_WRONLY: u32 = bindings::O_WRONLY;
    /// Open for reading and writing.
    pub const O_RDWR: u32 = bindings::O_RDWR;
    /// Every write goes to the end of the file.
    pub const O_APPEND: u32 = bindings::O_APPEND;
    /// Empty the file when it is opened for writing. Only the `open` file operation sees it: the
    /// VFS clears it in `f_flags` once the open has succeeded.
    pub const O_TRUNC: u32 = bindings::O_TRUNC;
    /// Do not block (for requests without their own `IOCB_NOWAIT`).
    pub const O_NONBLOCK: u32 = bindings::O_NONBLOCK;
    /// Write data and metadata synchronously.
    pub const O_SYNC: u32 = bindings::O_SYNC;
    /// Bypass the page cache (refused by the VFS for files without `FMODE_CAN_ODIRECT`, which
    /// misc devices do not set).
    pub const O_DIRECT: u32 = bindings::O_DIRECT;
}

/// An open file, as passed to file operations (C's `struct file`).
///
/// Only a reference to it is ever handed out, valid for the duration of the file operation. The
/// fields it reads may be changed concurrently by other tasks (`fcntl(F_SETFL)`, `lseek()`), so
/// each is read once, as C's `READ_ONCE()` would.
///
/// # Invariants
///
/// The `struct file` is valid for the lifetime of every reference to a `File`.
///
/// # Examples
///
/// ```
/// use kernel::bindings;
/// use kernel::fs::file::{flags, File};
///
/// // A file as the `open` handler of an `open(O_RDWR | O_TRUNC)` sees it.
/// // SAFETY: All zeroes is a valid `struct file`.
/// let mut raw: bindings::file = unsafe { core::mem::zeroed() };
/// raw.f_flags = flags::O_RDWR | flags::O_TRUNC;
/// raw.f_mode = bindings::FMODE_READ | bindings::FMODE_WRITE;
/// raw.f_pos = 42;
/// // SAFETY: `raw` is valid and outlives `file`.
/// let file = unsafe { File::from_raw_file(&raw) };
/// assert_eq!(file.flags() & flags::O_ACCMODE, flags::O_RDWR);
/// assert_ne!(file.flags() & flags::O_TRUNC, 0);
/// assert!(file.is_readable() && file.is_writable());
/// assert_eq!(file.pos(), 42);
/// ```
#[repr(transparent)]
pub struct File(Opaque<bindings::file>);

impl File {
    /// Creates a reference to a `File` from a pointer the C side passed in.
    ///
    /// # Safety
    ///
    /// `ptr` points to a valid `struct file` that stays valid for `'a`.
    #[inline]
    pub unsafe fn from_raw_file<'a>(ptr: *const bindings::file) -> &'a File {
        // INVARIANT: The caller guarantees validity for `'a`.
        // SAFETY: `File` is a transparent wrapper of `struct file`; the caller guarantees that
        // `ptr` is valid for `'a`.
        unsafe { &*ptr.cast() }
    }

    /// Returns the `struct file` for use by C code.
    #[inline]
    pub fn as_ptr(&self) -> *mut bindings::file {
        self.0.get()
    }

    /// Returns the flags the file was opened with, as changed by `fcntl(F_SETFL)` since (see
    /// [`flags`]).
    #[inline]
    pub fn flags(&self) -> u32 {
        // SAFETY: By the type invariants the file is valid; the field may be written
        // concurrently, so it is read once, without tearing.
        unsafe { addr_of!((*self.as_ptr()).f_flags).read_volatile() }
    }

    /// Returns the `FMODE_*` bits of the file.
    #[inline]
    fn mode(&self) -> bindings::fmode_t {
        // SAFETY: As for `flags`.
        unsafe { addr_of!((*self.as_ptr()).f_mode).read_volatile() }
    }

    /// Returns `true` if the file was opened for reading (C's `FMODE_READ`).
    #[inline]
    pub fn is_readable(&self) -> bool {
        self.mode() & bindings::FMODE_READ != 0
    }

    /// Returns `true` if the file was opened for writing (C's `FMODE_WRITE`).
    #[inline]
    pub fn is_writable(&self) -> bool {
        self.mode() & bindings::FMODE_WRITE != 0
    }

    /// Returns the file position of this open file (`f_pos`), which `read()`, `write()` and
    /// `lseek()` use; `pread()`-like calls do not.
    ///
    /// For character devices the VFS does not serialise the position: another thread sharing the
    /// open file may change it at any time.
    #[inline]
    pub fn pos(&self) -> i64 {
        // SAFETY: As for `flags`.
        unsafe { addr_of!((*self.as_ptr()).f_pos).read_volatile() }
    }
}
