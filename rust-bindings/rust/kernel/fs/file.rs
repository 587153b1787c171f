// SPDX-License-Identifier: GPL-2.0

//! Files and file descriptors.
//!
//! C headers: [`include/linux/fs.h`](srctree/include/linux/fs.h) and
//! [`include/linux/file.h`](srctree/include/linux/file.h)

use crate::{
    bindings,
    cred::Credential,
    error::{code::*, Error, Result},
    sync::aref::{ARef, RefCounted},
    types::{NotThreadSafe, Opaque},
};
use core::ptr::{self, addr_of};

/// Flags a file was opened with (C's `O_*`, the `f_flags` of a `struct file`).
///
/// The access mode is the two bits of [`O_ACCMODE`](flags::O_ACCMODE), one of
/// [`O_RDONLY`](flags::O_RDONLY), [`O_WRONLY`](flags::O_WRONLY) and [`O_RDWR`](flags::O_RDWR);
/// [`LocalFile::is_readable`] and [`LocalFile::is_writable`] say what the open actually allows.
pub mod flags {
    use crate::bindings;

    /// Every write goes to the end of the file.
    pub const O_APPEND: u32 = bindings::O_APPEND;
    /// Signal-driven I/O (`SIGIO`) is enabled (C's `FASYNC`).
    pub const O_ASYNC: u32 = bindings::FASYNC;
    /// Close the file descriptor on `execve()`.
    pub const O_CLOEXEC: u32 = bindings::O_CLOEXEC;
    /// Create the file if it does not exist.
    pub const O_CREAT: u32 = bindings::O_CREAT;
    /// Bypass the page cache (refused by the VFS for files without `FMODE_CAN_ODIRECT`, which
    /// misc devices do not set).
    pub const O_DIRECT: u32 = bindings::O_DIRECT;
    /// Fail unless the path names a directory.
    pub const O_DIRECTORY: u32 = bindings::O_DIRECTORY;
    /// Write data synchronously, and the metadata needed to read it back.
    pub const O_DSYNC: u32 = bindings::O_DSYNC;
    /// With [`O_CREAT`], fail if the file exists.
    pub const O_EXCL: u32 = bindings::O_EXCL;
    /// Allow files whose size does not fit in an `off_t` (always set on 64-bit).
    pub const O_LARGEFILE: u32 = bindings::O_LARGEFILE;
    /// Do not update the access time on reads.
    pub const O_NOATIME: u32 = bindings::O_NOATIME;
    /// Do not make the terminal this opens the controlling terminal.
    pub const O_NOCTTY: u32 = bindings::O_NOCTTY;
    /// Fail if the last component of the path is a symbolic link.
    pub const O_NOFOLLOW: u32 = bindings::O_NOFOLLOW;
    /// Do not block (for requests without their own `IOCB_NOWAIT`).
    pub const O_NONBLOCK: u32 = bindings::O_NONBLOCK;
    /// The same as [`O_NONBLOCK`].
    pub const O_NDELAY: u32 = bindings::O_NDELAY;
    /// A handle on a path only: no I/O through it.
    pub const O_PATH: u32 = bindings::O_PATH;
    /// Write data and metadata synchronously.
    pub const O_SYNC: u32 = bindings::O_SYNC;
    /// Create an unnamed temporary file in the directory named.
    pub const O_TMPFILE: u32 = bindings::O_TMPFILE;
    /// Empty the file when it is opened for writing. Only the `open` file operation sees it: the
    /// VFS clears it in `f_flags` once the open has succeeded.
    pub const O_TRUNC: u32 = bindings::O_TRUNC;
    /// Mask of the access mode.
    pub const O_ACCMODE: u32 = bindings::O_ACCMODE;
    /// Open for reading only.
    pub const O_RDONLY: u32 = bindings::O_RDONLY;
    /// Open for writing only.
    pub const O_WRONLY: u32 = bindings::O_WRONLY;
    /// Open for reading and writing.
    pub const O_RDWR: u32 = bindings::O_RDWR;
}

/// An open file (C's `struct file`) that may be shared with other threads.
///
/// A `struct file` is reference counted (`f_count`): [`ARef<File>`] owns one reference, taken
/// with `get_file()` and dropped with `fput()`; `&File` owns none and is valid while someone else
/// holds one, as a file operation's caller does for the duration of the call, or as C's
/// `fdget()` does without touching the count when the file descriptor table is not shared.
///
/// Two file operations are lent a file that has no reference to share: `open`, before the file
/// is open (until it returns, nothing else may use the file, and if it fails the file is torn
/// down), and `release`, after the last reference is gone (the VFS frees the file when it
/// returns). So a `&File` cannot be turned into an [`ARef<File>`] by itself, as an
/// [`AlwaysRefCounted`](crate::sync::aref::AlwaysRefCounted) type's borrow can: the
/// [`File::try_get`] check refuses both cases. Every `ARef<File>` is therefore of an open file,
/// which is what [`FileDescriptorReservation::fd_install`] needs.
///
/// The file position is different. `read()`, `write()` and `lseek()` reach the file through
/// `fdget_pos()`, which takes the file's `f_pos_lock` only if the `struct file` may be shared
/// between threads (`FMODE_ATOMIC_POS`, set for regular files and directories, not for
/// character devices): otherwise the caller's thread uses `f_pos` unlocked until the system call
/// returns. A file that may be inside such an unlocked region must not be used from another
/// thread; it is a [`LocalFile`], which is neither [`Send`] nor [`Sync`]. A `File` is one that
/// is not: every other file operation (`open`, `release`, `ioctl`, ...) gets a `&File`, and
/// `read_iter`/`write_iter`/`llseek` get a `&LocalFile`. A `File` is a `LocalFile` (through
/// [`Deref`](core::ops::Deref)), so all the methods of `LocalFile` work on it.
///
/// # Invariants
///
/// - The `struct file` is valid for as long as the `File` is used. Its reference count is
///   non-zero, except for a file lent to `release`, whose count is zero, or to `open`, which is
///   not open yet (no `FMODE_OPENED`).
/// - An [`ARef<File>`] owns a reference to a file that is open (`FMODE_OPENED`).
/// - Every active `fdget_pos()` region of this file took `f_pos_lock`.
///
/// # Examples
///
/// An owned reference: it keeps the file open after the descriptor is closed, on any thread.
///
/// ```
/// use kernel::{bindings, error::from_err_ptr, fs::file::{flags, File}, sync::aref::ARef};
/// use core::ptr::NonNull;
///
/// // SAFETY: The path is a valid string; `filp_open()` returns a file with one reference, or
/// // an error pointer.
/// let raw = from_err_ptr(unsafe { bindings::filp_open(c"/".as_ptr().cast(), 0, 0) })?;
/// // SAFETY: `raw` is a file with one reference, which the `ARef` takes over. Nobody else has
/// // it, so it has no `fdget_pos()` region.
/// let file: ARef<File> = unsafe { ARef::from_raw(NonNull::new_unchecked(raw.cast())) };
/// let other = file.clone();
/// assert_eq!(other.flags() & flags::O_ACCMODE, flags::O_RDONLY);
/// assert!(other.is_readable() && !other.is_writable());
/// drop(file);
/// // Opened by the kernel thread running this example, as root.
/// assert_eq!(other.cred().euid().val, 0);
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct File {
    inner: Opaque<bindings::file>,
}

// SAFETY: By the type invariants, no thread uses the file's position without its lock while
// another thread has the `File`; everything else of a `struct file` used through this type is
// either immutable once the file is open or read with `READ_ONCE()` semantics, and references
// may be taken and dropped (`fput()` defers the final release) on any thread.
unsafe impl Send for File {}

// SAFETY: As for `Send`: `&File` only gives access that is safe from several threads at once.
unsafe impl Sync for File {}

// SAFETY: `get_file()` and `fput()` take and drop a reference; the file stays allocated until
// the last one is dropped.
unsafe impl RefCounted for File {
    #[inline]
    unsafe fn inc_owned_ref(&self) {
        // SAFETY: The caller owns a reference, so the count is not zero.
        unsafe { bindings::get_file(self.as_ptr()) };
    }

    #[inline]
    unsafe fn dec_owned_ref(obj: ptr::NonNull<File>) {
        // SAFETY: The caller owns the reference it drops; `File` is a transparent wrapper of
        // `struct file`.
        unsafe { bindings::fput(obj.cast().as_ptr()) }
    }
}

impl File {
    /// Creates a reference to a [`File`] from a pointer the C side passed in.
    ///
    /// # Safety
    ///
    /// - `ptr` points to a valid `struct file` that stays valid for `'a`, and whose reference
    ///   count stays non-zero for `'a` unless the file is not open yet (as in `open`) or is being
    ///   released (as in `release`).
    /// - No thread other than the caller's is inside an `fdget_pos()` region of the file that
    ///   did not take `f_pos_lock`, and the caller's own such region, if any, ends before `'a`
    ///   ends or the reference reaches another thread.
    #[inline]
    pub unsafe fn from_raw_file<'a>(ptr: *const bindings::file) -> &'a File {
        // INVARIANT: The caller guarantees validity, the reference count and the `fdget_pos()`
        // rules.
        // SAFETY: `File` is a transparent wrapper of `struct file`; the caller guarantees that
        // `ptr` is valid for `'a`.
        unsafe { &*ptr.cast() }
    }

    /// Takes a new reference to the file, which may then be kept or installed in a file
    /// descriptor ([`FileDescriptorReservation::fd_install`]).
    ///
    /// Fails with [`BadFdError`] (`EBADF`) for a file that is not open yet (the one `open` is
    /// lent) or whose last reference is gone (the one `release` is lent): such a file has no
    /// reference to share.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::{bindings, error::from_err_ptr, fs::file::File, sync::aref::ARef};
    /// use core::ptr::NonNull;
    ///
    /// // SAFETY: The path is a valid string; `filp_open()` returns an open file with one
    /// // reference, or an error pointer.
    /// let raw = from_err_ptr(unsafe { bindings::filp_open(c"/".as_ptr().cast(), 0, 0) })?;
    /// // SAFETY: `raw` is an open file with one reference, which the `ARef` takes over. Nobody
    /// // else has it, so it has no `fdget_pos()` region.
    /// let file: ARef<File> = unsafe { ARef::from_raw(NonNull::new_unchecked(raw.cast())) };
    /// let borrowed: &File = &file;
    /// let kept = borrowed.try_get()?;
    /// drop(file);
    /// assert_eq!(kept.as_ptr(), raw);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn try_get(&self) -> Result<ARef<File>, BadFdError> {
        let file = LocalFile::try_get(self)?;
        // INVARIANT: The reference is to this `File`, which no thread uses without the position
        // lock while another has it.
        // SAFETY: `File` and `LocalFile` are transparent wrappers of the same `struct file`, and
        // the new `ARef` takes over the reference.
        Ok(unsafe { ARef::from_raw(ARef::into_raw(file).cast()) })
    }
}

impl core::ops::Deref for File {
    type Target = LocalFile;

    #[inline]
    fn deref(&self) -> &LocalFile {
        // SAFETY: A `File` satisfies every requirement of a `LocalFile` and more; both are
        // transparent wrappers of `struct file`.
        unsafe { LocalFile::from_raw_file(self.inner.get()) }
    }
}

/// An open file (C's `struct file`) that may be in an `fdget_pos()` region of the current
/// thread, so it must stay on this thread.
///
/// See [`File`] for the difference. `read_iter`, `write_iter` and `llseek` of a misc device get
/// a `&LocalFile`; [`LocalFile::fget`] gives an [`ARef<LocalFile>`].
///
/// # Invariants
///
/// - The `struct file` is valid for as long as the `LocalFile` is used, and its reference count
///   is non-zero, except as for [`File`] (the file lent to `open` or `release`).
/// - An [`ARef<LocalFile>`] owns a reference to a file that is open (`FMODE_OPENED`).
/// - An `fdget_pos()` region of this file that did not take `f_pos_lock` is on the current
///   thread, if there is one.
#[repr(transparent)]
pub struct LocalFile {
    inner: Opaque<bindings::file>,
}

// SAFETY: As for `File`; a reference may be taken and dropped on the owning thread.
unsafe impl RefCounted for LocalFile {
    #[inline]
    unsafe fn inc_owned_ref(&self) {
        // SAFETY: The caller owns a reference, so the count is not zero.
        unsafe { bindings::get_file(self.as_ptr()) };
    }

    #[inline]
    unsafe fn dec_owned_ref(obj: ptr::NonNull<LocalFile>) {
        // SAFETY: The caller owns the reference it drops; `LocalFile` is a transparent wrapper
        // of `struct file`.
        unsafe { bindings::fput(obj.cast().as_ptr()) }
    }
}

impl LocalFile {
    /// Takes a reference to the file behind file descriptor `fd` of the current task.
    ///
    /// The result is a [`LocalFile`]: the current thread may be in an `fdget_pos()` region of
    /// it (a system call that passed the same descriptor). See
    /// [`LocalFile::assume_no_fdget_pos`].
    ///
    /// Fails with [`BadFdError`] if the number is not an open file descriptor, or if the task
    /// has no file table of its own: a `release` operation may run while an exiting task's
    /// files are being closed, after its table is gone, or on a kernel worker.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::fs::file::{BadFdError, LocalFile};
    ///
    /// // No task has this many descriptors.
    /// assert!(matches!(LocalFile::fget(u32::MAX), Err(BadFdError)));
    /// ```
    #[inline]
    pub fn fget(fd: u32) -> Result<ARef<LocalFile>, BadFdError> {
        if !current_has_own_file_table() {
            return Err(BadFdError);
        }
        // SAFETY: The current task has a file table; `fget()` may be called with any number, and
        // returns a file with a new reference, or NULL.
        let ptr = ptr::NonNull::new(unsafe { bindings::fget(fd) }).ok_or(BadFdError)?;
        // INVARIANT: `fget()` took a reference, which the `ARef` owns. The current thread may
        // be inside an unlocked `fdget_pos()` region of this very file (a system call that
        // passed the same descriptor); `ARef<LocalFile>` is not `Send`, so it stays here.
        // SAFETY: We own the reference `fget()` took.
        Ok(unsafe { ARef::from_raw(ptr.cast()) })
    }

    /// Creates a reference to a [`LocalFile`] from a pointer the C side passed in.
    ///
    /// # Safety
    ///
    /// - `ptr` points to a valid `struct file` that stays valid for `'a`, and whose reference
    ///   count stays non-zero for `'a` unless the file is not open yet or is being released, as
    ///   for [`File::from_raw_file`].
    /// - An `fdget_pos()` region of the file that did not take `f_pos_lock` is on the current
    ///   thread, if there is one.
    #[inline]
    pub unsafe fn from_raw_file<'a>(ptr: *const bindings::file) -> &'a LocalFile {
        // INVARIANT: Guaranteed by the caller.
        // SAFETY: `LocalFile` is a transparent wrapper of `struct file`; the caller guarantees
        // that `ptr` is valid for `'a`.
        unsafe { &*ptr.cast() }
    }

    /// Takes a new reference to the file, as [`File::try_get`] does; the reference is a
    /// [`LocalFile`] too.
    #[inline]
    pub fn try_get(&self) -> Result<ARef<LocalFile>, BadFdError> {
        if self.mode() & bindings::FMODE_OPENED == 0 {
            // Not open yet (or never opened): nothing may use it but the `open` it is lent to.
            return Err(BadFdError);
        }
        let mut file = self.as_ptr();
        // SAFETY: `file` points to a valid `struct file` (type invariants); `get_file_active()`
        // takes a reference only if the count is not zero, as it is for the file lent to
        // `release`, and returns NULL otherwise.
        let got = unsafe { bindings::get_file_active(&mut file) };
        let got = ptr::NonNull::new(got).ok_or(BadFdError)?;
        // INVARIANT: The file is open and the new reference is ours; it stays a `LocalFile`.
        // SAFETY: `get_file_active()` took the reference the `ARef` takes over.
        Ok(unsafe { ARef::from_raw(got.cast()) })
    }

    /// Turns an owned [`LocalFile`] into a [`File`], which may go to other threads.
    ///
    /// # Safety
    ///
    /// The current thread is not in an `fdget_pos()` region of the file that did not take
    /// `f_pos_lock`, or it leaves it before the returned `File` reaches another thread (for
    /// example: the caller is an `ioctl` handler, which C reaches through `fdget()`, not
    /// `fdget_pos()`).
    #[inline]
    pub unsafe fn assume_no_fdget_pos(me: ARef<LocalFile>) -> ARef<File> {
        // INVARIANT: The caller guarantees the `fdget_pos()` rule; the reference moves over.
        // SAFETY: `File` and `LocalFile` are transparent wrappers of the same `struct file`, and
        // the `ARef` gives up its reference to the new one.
        unsafe { ARef::from_raw(ARef::into_raw(me).cast()) }
    }

    /// Returns the `struct file` for use by C code.
    #[inline]
    pub fn as_ptr(&self) -> *mut bindings::file {
        self.inner.get()
    }

    /// Returns the credentials of the task that opened the file.
    #[inline]
    pub fn cred(&self) -> &Credential {
        // SAFETY: By the type invariants the file is valid; `f_cred` is set when the file is
        // created and never changed.
        let cred = unsafe { (*self.as_ptr()).f_cred };
        // SAFETY: The file holds a reference to its credentials until it is freed, which cannot
        // happen while `self` is borrowed.
        unsafe { Credential::from_ptr(cred) }
    }

    /// Returns the flags the file was opened with, as changed by `fcntl(F_SETFL)` since (see
    /// [`flags`]).
    #[inline]
    pub fn flags(&self) -> u32 {
        // SAFETY: By the type invariants the file is valid; the field may be written
        // concurrently, so it is read once, without tearing, as C's `READ_ONCE()` would.
        unsafe { addr_of!((*self.as_ptr()).f_flags).read_volatile() }
    }

    /// Returns the `FMODE_*` bits of the file.
    #[inline]
    fn mode(&self) -> bindings::fmode_t {
        // SAFETY: As for `flags`.
        unsafe { addr_of!((*self.as_ptr()).f_mode).read_volatile() }
    }

    /// Returns `true` if the file was opened for reading (C's `FMODE_READ`). Not in mainline.
    #[inline]
    pub fn is_readable(&self) -> bool {
        self.mode() & bindings::FMODE_READ != 0
    }

    /// Returns `true` if the file was opened for writing (C's `FMODE_WRITE`). Not in mainline.
    #[inline]
    pub fn is_writable(&self) -> bool {
        self.mode() & bindings::FMODE_WRITE != 0
    }

    /// Returns the file position of this open file (`f_pos`), which `read()`, `write()` and
    /// `lseek()` use; `pread()`-like calls do not. Not in mainline.
    ///
    /// For character devices the VFS does not serialise the position: another thread sharing the
    /// open file may change it at any time, so this is a snapshot.
    #[inline]
    pub fn pos(&self) -> i64 {
        // SAFETY: As for `flags`.
        unsafe { addr_of!((*self.as_ptr()).f_pos).read_volatile() }
    }
}

/// A file descriptor reserved in the current task's file table, not yet pointing to a file.
///
/// Reserving first and installing last lets a driver hand out a new file with nothing left to
/// undo once user space can see it: everything that can fail happens before
/// [`FileDescriptorReservation::fd_install`]. Dropping the reservation frees the number again.
///
/// # Invariants
///
/// `fd` is a file descriptor number reserved with `get_unused_fd_flags()` in the file table of
/// the task that created the reservation, which is the current task whenever it is used: the
/// type is neither [`Send`] nor [`Sync`].
///
/// # Examples
///
/// ```
/// use kernel::fs::file::{flags, FileDescriptorReservation};
///
/// fn reserve_two() -> Result<(u32, u32)> {
///     let first = FileDescriptorReservation::get_unused_fd_flags(flags::O_CLOEXEC)?;
///     let second = FileDescriptorReservation::get_unused_fd_flags(flags::O_CLOEXEC)?;
///     assert_ne!(first.reserved_fd(), second.reserved_fd());
///     drop(first);
///     // Dropping a reservation frees its number; the other one stays reserved.
///     let again = FileDescriptorReservation::get_unused_fd_flags(flags::O_CLOEXEC)?;
///     assert_ne!(again.reserved_fd(), second.reserved_fd());
///     Ok((again.reserved_fd(), second.reserved_fd()))
/// }
///
/// // A kernel thread, such as the one running this example, has no file table of its own.
/// assert_eq!(reserve_two().err(), Some(EMFILE));
/// # Ok::<(), Error>(())
/// ```
pub struct FileDescriptorReservation {
    fd: u32,
    _not_send: NotThreadSafe,
}

impl FileDescriptorReservation {
    /// Reserves the lowest free file descriptor of the current task; `flags` may hold
    /// [`flags::O_CLOEXEC`].
    ///
    /// Fails with [`EMFILE`] if the task has no file table of its own: a `release` operation
    /// may run while an exiting task's files are being closed, after its table is gone, or on a
    /// kernel worker, whose table all kernel threads share.
    #[inline]
    pub fn get_unused_fd_flags(flags: u32) -> Result<Self> {
        if !current_has_own_file_table() {
            return Err(EMFILE);
        }
        // SAFETY: The current task has a file table; any flags may be passed, the C function
        // checks them.
        let fd: i32 = unsafe { bindings::get_unused_fd_flags(flags) };
        if fd < 0 {
            return Err(Error::from_errno(fd));
        }
        // INVARIANT: `fd` was just reserved in the current task's table.
        Ok(Self {
            fd: fd as u32,
            _not_send: NotThreadSafe,
        })
    }

    /// Returns the reserved file descriptor number.
    #[inline]
    pub fn reserved_fd(&self) -> u32 {
        self.fd
    }

    /// Makes the reserved descriptor point to `file`, giving the reference to the file table.
    ///
    /// This cannot fail, and cannot be undone by the kernel: from now on user space owns the
    /// descriptor, and may already have closed it. `file` is open: an [`ARef<File>`] is never
    /// of a file that `open` is still setting up or `release` is tearing down.
    #[inline]
    pub fn fd_install(self, file: ARef<File>) {
        // SAFETY: By the type invariants `self.fd` is reserved in the current task's table and
        // not installed yet; `fd_install()` takes over the reference `file` owns. A `File` (not
        // a `LocalFile`) has no `fdget_pos()` region left, so it may be shared by the file table.
        unsafe { bindings::fd_install(self.fd, file.as_ptr()) };
        // The reservation is used up and the reference given away: neither may be dropped.
        core::mem::forget(self);
        core::mem::forget(file);
    }
}

impl Drop for FileDescriptorReservation {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: By the type invariants `self.fd` is a reservation of the current task that was
        // not installed (`fd_install` forgets `self`).
        unsafe { bindings::put_unused_fd(self.fd) };
    }
}

/// Returns whether the current task has a file descriptor table of its own: it is not a kernel
/// thread, and it has not dropped its table.
///
/// An exiting task drops its table (`exit_files()`) before the files it had open are released
/// (`exit_task_work()` runs the deferred `fput()`s), so a `release` operation may run with
/// `current->files` NULL, which C's `fget()` and `get_unused_fd_flags()` would dereference. And
/// a file whose last reference a kernel thread drops is released on a kernel worker
/// (`delayed_fput()`: user space gets there by closing a file io_uring holds, for one), whose
/// table is the one all kernel threads share and the user-mode helpers they start inherit.
#[inline]
fn current_has_own_file_table() -> bool {
    // SAFETY: `get_current()` returns the running task, which is valid while it runs. Only the
    // task itself changes its `files` (`exit_files()`, `unshare()`) and `PF_KTHREAD`, so reading
    // them here races with nothing.
    let (files, flags) = unsafe {
        let task = bindings::get_current();
        ((*task).files, (*task).flags)
    };
    !files.is_null() && flags & bindings::PF_KTHREAD == 0
}

/// The error of [`LocalFile::fget`]: the number is not an open file descriptor of the current
/// task; also of [`File::try_get`]: the file has no reference to share. It converts to
/// [`EBADF`].
#[derive(Copy, Clone, Eq, PartialEq)]
pub struct BadFdError;

impl From<BadFdError> for Error {
    #[inline]
    fn from(_: BadFdError) -> Error {
        EBADF
    }
}

impl core::fmt::Debug for BadFdError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.pad("EBADF")
    }
}
