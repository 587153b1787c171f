// SPDX-License-Identifier: GPL-2.0

//! Miscellaneous character devices.
//!
//! C header: [`include/linux/miscdevice.h`](srctree/include/linux/miscdevice.h)
//!
//! Reference: <https://www.kernel.org/doc/html/latest/driver-api/misc_devices.html>
//!
//! A misc device is a character device with major number 10 and a minor number the misc core
//! hands out; registering one creates its node in `/dev`. Its file operations are the methods
//! of a [`MiscDevice`] implementation, with the interface of mainline Linux (6.18): `open`
//! returns the state of one open file ([`MiscDevice::Ptr`]), which the other operations borrow
//! and `release` gets back; `read_iter` and `write_iter` get a [`Kiocb`] and an
//! [`IovIterDest`] or [`IovIterSource`].
//!
//! On top of mainline's interface: `llseek`, `RWF_NOWAIT` requests ([`MiscDevice::NOWAIT`]),
//! `splice()` and `sendfile()` ([`MiscDevice::SPLICE`]), and data of the registration that
//! every `open` sees ([`MiscDevice::RegistrationData`]).
//!
//! Where mainline (6.18) lets a driver without `unsafe` break the kernel, this one does not:
//!
//! - The file operations belong to the module that implements [`MiscDevice`] (their `owner`,
//!   recorded by `#[vtable]`), so the module cannot be unloaded while one of its files is open.
//!   Mainline sets no owner: unloading the module under an open file leaves the VFS calling
//!   freed code.
//! - A `read_iter` or `write_iter` result is checked before C sees it (see
//!   [`MiscDevice::read_iter`]): C trusts it to size pipe buffers and page arrays, and mainline
//!   passes it on as it is.
//! - [`IovIterDest`] and [`IovIterSource`] cannot be replaced by the handler they are lent to:
//!   safe code gets no iterator by value (see [`crate::iov`]).

use crate::{
    bindings, build_error,
    device::Device,
    error::{code::*, to_result, Error, Result, VTABLE_DEFAULT_ERROR},
    ffi::{c_int, c_long, c_uint, c_ulong},
    fs::{File, Kiocb, LocalFile},
    init::{self, PinInit},
    iov::{self, IovIterDest, IovIterSource},
    prelude::*,
    seq_file::SeqFile,
    types::{ForeignOwnable, Opaque},
};
use core::{
    marker::PhantomData,
    mem::MaybeUninit,
    pin::Pin,
    ptr,
    sync::atomic::{AtomicBool, AtomicPtr, Ordering},
};

/// The task inside a Rust misc device's `open`, if any. `misc_open()` calls every `open` with the
/// misc core's lock (`misc_mtx`) held, so there is at most one; registering a misc device takes
/// that lock, and would wait for it forever on that task.
static OPENING: AtomicPtr<bindings::task_struct> = AtomicPtr::new(ptr::null_mut());

/// Returns whether the current task is inside a misc device's `open` (holds `misc_mtx`).
#[inline]
fn current_is_opening() -> bool {
    // SAFETY: `get_current()` has no requirements.
    OPENING.load(Ordering::Relaxed) == unsafe { bindings::get_current() }
}

/// Where an `lseek()` is relative to (C's `SEEK_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whence {
    /// From the start of the file (`SEEK_SET`).
    Set,
    /// From the current position (`SEEK_CUR`).
    Cur,
    /// From the end of the file (`SEEK_END`).
    End,
    /// To the next data at or after the offset (`SEEK_DATA`).
    Data,
    /// To the next hole at or after the offset (`SEEK_HOLE`).
    Hole,
}

impl Whence {
    /// Converts C's `whence`, or returns `None` for a value 6.12 does not define.
    fn from_raw(whence: c_int) -> Option<Self> {
        Some(match u32::try_from(whence).ok()? {
            bindings::SEEK_SET => Self::Set,
            bindings::SEEK_CUR => Self::Cur,
            bindings::SEEK_END => Self::End,
            bindings::SEEK_DATA => Self::Data,
            bindings::SEEK_HOLE => Self::Hole,
            _ => return None,
        })
    }
}

/// The longest device name registering accepts, in bytes: a file name's (`NAME_MAX`).
const MAX_NAME_LEN: usize = 255;

/// How to register a misc device.
#[derive(Clone, Copy)]
pub struct MiscDeviceOptions {
    /// The name of the device, and of its node in `/dev`: a C string literal, `c"name"`. It
    /// must not be empty nor longer than a file name (255 bytes): registering fails with
    /// `EINVAL` then.
    ///
    /// A `core::ffi::CStr`, as in mainline since it moved to Rust's own C string type; this
    /// field alone changes here, while the rest of 6.12 keeps `kernel::str::CStr`.
    pub name: &'static core::ffi::CStr,
}

impl MiscDeviceOptions {
    /// Returns a `struct miscdevice` for these options and the file operations of `T`, ready to
    /// be registered.
    ///
    /// Registering it needs `unsafe` code, which must register it as the `inner` field of a
    /// [`MiscDeviceRegistration<T>`] (as [`MiscDeviceRegistration::register`] does): the `open`
    /// operation of `T` finds the registration around the `struct miscdevice` it is opened
    /// through.
    pub const fn into_raw<T: MiscDevice>(self) -> bindings::miscdevice {
        // SAFETY: All zeroes is a valid `struct miscdevice` (null pointers, an empty list).
        let mut misc: bindings::miscdevice = unsafe { MaybeUninit::zeroed().assume_init() };
        misc.minor = bindings::MISC_DYNAMIC_MINOR as c_int;
        misc.name = self.name.as_ptr().cast();
        misc.fops = &MiscdeviceVTable::<T>::VTABLE;
        misc
    }
}

/// The file operations of a misc device, and the state they work on.
///
/// Operations that are not implemented are left out of the `struct file_operations`: the VFS
/// then fails `read()` and `write()` with `EINVAL`, `ioctl()` with `ENOTTY` and `lseek()` with
/// `ESPIPE`. `open` and `release` are always there.
///
/// The operations are owned by the module whose crate has the `#[vtable] impl` (C's
/// `.owner = THIS_MODULE`): while a file of the device is open, the module stays loaded
/// (`delete_module()` fails with `EAGAIN`). Until the module's `init` has returned successfully,
/// `open()` fails with `EAGAIN`: a module whose `init` fails is freed however many files of it
/// are open.
#[vtable]
pub trait MiscDevice: Sized {
    /// What `open` returns and the file keeps: the state of one open file, e.g. a
    /// `Pin<KBox<Self>>` or an [`Arc`](crate::sync::Arc) of state shared by all opens.
    type Ptr: ForeignOwnable + Send + Sync;

    /// Data that the registration owns and every `open` sees ([`MiscDeviceRegistration::data`]),
    /// e.g. the shared state opens hand out. Initialised before the device is registered,
    /// dropped after it is deregistered. Mainline has no such data: there it is `()`.
    type RegistrationData: Send + Sync = ();

    /// Whether requests with `IOCB_NOWAIT` (`RWF_NOWAIT`, io_uring's first attempt) are served:
    /// every open file then gets `FMODE_NOWAIT`, without which the VFS fails them with
    /// `EOPNOTSUPP`. Where they would wait, the handlers must fail with [`EAGAIN`] instead (see
    /// [`Kiocb::is_nowait`]).
    const NOWAIT: bool = false;

    /// Whether `splice()`, `sendfile()` and `tee` reach the device: its `read_iter` then also
    /// serves `splice_read` (C's `copy_splice_read()`, with an `ITER_BVEC` iterator over pages
    /// it allocates) and its `write_iter` serves `splice_write` (C's
    /// `iter_file_splice_write()`, with an `ITER_BVEC` iterator over the pipe's pages), as C
    /// character devices wire it (`drivers/char/random.c`).
    ///
    /// `splice_write` calls `write_iter` with the pipe locked, so the device's own locks nest
    /// inside the pipe's `mutex`: a device must not wait on a pipe while holding a lock its
    /// `write_iter` takes. Off by default, as in C, where each driver opts in; mainline has no
    /// splice for misc devices.
    const SPLICE: bool = false;

    /// Opens the device: checks `file` (e.g. its [`flags`](crate::fs::file::flags)) and returns
    /// the state of this open file.
    ///
    /// It runs with the misc core's lock (`misc_mtx`) held, as in C, which keeps the registration
    /// alive meanwhile and holds up every other misc device's `open` until it returns. Registering
    /// a misc device from it fails with `EBUSY` (the registration would wait for that lock);
    /// dropping one would wait for the lock forever, as `misc_deregister()` does in C. So does
    /// waiting in `open` for another task (a work item) that registers or drops a misc device:
    /// `open` must not wait for anything that takes `misc_mtx`.
    ///
    /// `file` is not open yet: nothing else may use it until `open` returns, and if `open`
    /// fails the VFS tears it down. So no reference to it can be taken
    /// ([`File::try_get`] fails), and it cannot be kept or installed in a file descriptor.
    fn open(file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Self::Ptr>;

    /// Called when the last reference to an open file is dropped; drops `device` by default.
    ///
    /// `file` is being released: its count is zero and the VFS frees it when this returns, so
    /// no reference to it can be taken ([`File::try_get`] fails). It may run on a task that is
    /// exiting and has no file table any more, or on a kernel worker (a file whose last
    /// reference was dropped by a kernel thread): file descriptors of the current task are not
    /// the opener's.
    fn release(device: Self::Ptr, _file: &File) {
        drop(device);
    }

    /// Reads into `iov` from position [`Kiocb::ki_pos`] (`read()`, `readv()`, `pread()`,
    /// `preadv2()`, `splice()`, io_uring, AIO, ...) and returns the number of bytes read, 0 at
    /// the end of the file.
    ///
    /// What the handler must do, as a C `read_iter` does:
    ///
    /// - Move the position past the bytes read ([`Kiocb::ki_pos_mut`]); nothing else does.
    /// - Return at most the bytes it copied into `iov`, i.e. how far `iov` moved. A larger
    ///   result is refused: the request fails with `EIO` and the kernel log says which handler
    ///   returned what, once. (C trusts the result: `splice()` sizes the pipe buffers it fills
    ///   by it, and `read()` reports it to user space.)
    /// - Fail a request of at least one byte that copied nothing because the user buffer faulted
    ///   with [`EFAULT`] rather than return 0, which means the end of the file. (The copies
    ///   return short counts, not errors; mainline's
    ///   [`IovIterDest::simple_read_from_buffer`] returns 0 there.)
    /// - With [`MiscDevice::NOWAIT`], fail with [`EAGAIN`] where it would wait and the request
    ///   is [`Kiocb::is_nowait`].
    ///
    /// `iov` is lent for the call: C goes on using it afterwards, so it cannot be kept or
    /// replaced (the types make both impossible). [`EIOCBQUEUED`] ("completes later") becomes
    /// `EIO`: no Rust API completes a request later, so its caller would wait forever.
    ///
    /// # Examples
    ///
    /// A read of an in-memory buffer that fails with `EFAULT` on a user buffer it cannot write
    /// at all, run here on a user mapping without access rights:
    ///
    /// ```
    /// use core::{mem::MaybeUninit, ptr};
    /// use kernel::{bindings, fs::Kiocb, iov::IovIterDest};
    ///
    /// fn read_buffer<T>(
    ///     kiocb: &mut Kiocb<'_, T>,
    ///     iov: &mut IovIterDest<'_>,
    ///     data: &[u8],
    /// ) -> Result<usize>
    /// where
    ///     T: kernel::types::ForeignOwnable,
    /// {
    ///     let n = iov.simple_read_from_buffer(kiocb.ki_pos_mut(), data)?;
    ///     let at_end = usize::try_from(kiocb.ki_pos()).map_or(true, |pos| pos >= data.len());
    ///     if n == 0 && !iov.is_empty() && !at_end {
    ///         return Err(EFAULT);
    ///     }
    ///     Ok(n)
    /// }
    ///
    /// // A page of user memory that may not be written (PROT_NONE), in this KUnit test's mm.
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     bindings::kunit_vm_mmap(test, ptr::null_mut(), 0, 4096, 0, 0x22, 0)
    /// };
    /// assert_ne!(user, 0);
    /// // SAFETY: All zeroes is a valid `struct file` and `struct kiocb`.
    /// let (mut file, mut raw_kiocb) = unsafe {
    ///     (core::mem::zeroed::<bindings::file>(), core::mem::zeroed::<bindings::kiocb>())
    /// };
    /// raw_kiocb.ki_filp = &mut file;
    /// // SAFETY: `raw_kiocb` and `file` outlive `kiocb`; `()` needs no private data.
    /// let mut kiocb = unsafe { Kiocb::<()>::from_raw(&mut raw_kiocb) };
    /// let mut raw = MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_DEST as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, user as _, 16, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` outlives `iov`, its only user; it describes this task's user memory.
    /// let iov = unsafe { IovIterDest::from_raw(raw.as_mut_ptr()) };
    /// // The copy faults at once: `simple_read_from_buffer` says 0, the handler `EFAULT`.
    /// assert_eq!(read_buffer(&mut kiocb, iov, b"data"), Err(EFAULT));
    /// assert_eq!(kiocb.ki_pos(), 0);
    /// ```
    fn read_iter(_kiocb: Kiocb<'_, Self::Ptr>, _iov: &mut IovIterDest<'_>) -> Result<usize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Writes from `iov` at position [`Kiocb::ki_pos`] (`write()`, `writev()`, `pwrite()`,
    /// `pwritev2()`, `splice()`, io_uring, AIO, ...) and returns the number of bytes written.
    ///
    /// As for [`MiscDevice::read_iter`]: move the position past the bytes written, fail a
    /// request that could not read one byte of its user buffer with [`EFAULT`], and return at
    /// most the request's length: a larger result fails the request with `EIO` (C trusts it:
    /// `splice()` releases that many bytes of pipe buffers).
    fn write_iter(_kiocb: Kiocb<'_, Self::Ptr>, _iov: &mut IovIterSource<'_>) -> Result<usize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Computes the new file position for `lseek(offset, whence)`.
    ///
    /// The position is stored in the file if it is in `0..=MAX_LFS_FILESIZE`, and the call
    /// fails with `EINVAL` otherwise; a `whence` that 6.12 does not know fails with `EINVAL`
    /// before the handler is called. [`LocalFile::pos`] gives the current position.
    ///
    /// The file is a [`LocalFile`]: `lseek()` may be using its position without a lock on this
    /// thread.
    fn llseek(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _file: &LocalFile,
        _offset: i64,
        _whence: Whence,
    ) -> Result<i64> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Handles an `ioctl()`; [`kernel::ioctl`](crate::ioctl) takes `cmd` apart.
    fn ioctl(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _file: &File,
        _cmd: u32,
        _arg: usize,
    ) -> Result<isize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Handles an `ioctl()` of 32-bit user space on a 64-bit kernel. Only needed when the
    /// structures the commands pass differ between the two; otherwise `ioctl` serves both, its
    /// pointer argument converted (C's `compat_ptr_ioctl()`).
    #[cfg(CONFIG_COMPAT)]
    fn compat_ioctl(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _file: &File,
        _cmd: u32,
        _arg: usize,
    ) -> Result<isize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Adds lines to `/proc/<pid>/fdinfo/<fd>` of an open file.
    fn show_fdinfo(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _m: &SeqFile,
        _file: &File,
    ) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// A registered misc device; dropping it deregisters the device.
///
/// # Invariants
///
/// `inner` is registered with the misc core, with the file operations of `T`, and `data` is
/// initialised, until `self` is dropped; `data` is only accessed by shared reference meanwhile.
///
/// # Examples
///
/// A device that reads as an endless run of one byte, which each open chooses once: `0xff`
/// when opened read-only, 0 otherwise.
///
/// ```
/// use kernel::fs::{file::flags, File, Kiocb};
/// use kernel::iov::IovIterDest;
/// use kernel::miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration};
///
/// struct Filler;
///
/// #[vtable]
/// impl MiscDevice for Filler {
///     type Ptr = KBox<u8>;
///
///     fn open(file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<KBox<u8>> {
///         let fill = if file.flags() & flags::O_ACCMODE == flags::O_RDONLY { 0xff } else { 0 };
///         Ok(KBox::new(fill, GFP_KERNEL)?)
///     }
///
///     fn read_iter(mut kiocb: Kiocb<'_, KBox<u8>>, iov: &mut IovIterDest<'_>) -> Result<usize> {
///         let fill = *kiocb.file();
///         let mut done = 0;
///         while !iov.is_empty() {
///             // Short counts as in C: 0 means the user buffer faulted.
///             let n = iov.copy_to_iter(&[fill; 64]);
///             if n == 0 {
///                 break;
///             }
///             done += n;
///             // A read can ask for up to 2 GiB: let others run.
///             kernel::task::cond_resched();
///         }
///         if done == 0 && !iov.is_empty() {
///             return Err(EFAULT);
///         }
///         kiocb.advance_pos(done)?;
///         Ok(done)
///     }
/// }
///
/// let options = MiscDeviceOptions {
///     name: c"rust-misc-doctest",
/// };
/// let reg = KBox::pin_init(MiscDeviceRegistration::<Filler>::register(options), GFP_KERNEL)?;
/// assert!(reg.minor() >= 0);
/// // The device of the node in /dev has the name of the misc device.
/// let dev = core::ptr::from_ref(reg.device()).cast::<kernel::bindings::device>();
/// // SAFETY: `dev` is the registered device, valid while `reg` exists; its name is a string.
/// let name = unsafe { kernel::str::CStr::from_char_ptr((*dev).kobj.name) };
/// assert_eq!(name.as_bytes(), b"rust-misc-doctest");
/// drop(reg);
/// # Ok::<(), Error>(())
/// ```
#[pin_data(PinnedDrop)]
pub struct MiscDeviceRegistration<T: MiscDevice> {
    #[pin]
    inner: Opaque<bindings::miscdevice>,
    #[pin]
    data: Opaque<T::RegistrationData>,
    _t: PhantomData<T>,
}

// SAFETY: `misc_deregister()` may be called from any thread; `data` is `Send`.
unsafe impl<T: MiscDevice> Send for MiscDeviceRegistration<T> {}

// SAFETY: `&self` methods only read fields the misc core no longer changes once the device is
// registered, and give shared access to `data`, which is `Sync`.
unsafe impl<T: MiscDevice> Sync for MiscDeviceRegistration<T> {}

impl<T: MiscDevice<RegistrationData = ()>> MiscDeviceRegistration<T> {
    /// Registers a misc device with a dynamic minor number.
    ///
    /// The device can be opened as soon as this returns; the registration is pinned, as the
    /// misc core keeps a pointer to it.
    pub fn register(opts: MiscDeviceOptions) -> impl PinInit<Self, Error> {
        Self::register_with_data(opts, ())
    }
}

impl<T: MiscDevice> MiscDeviceRegistration<T> {
    /// Registers a misc device with a dynamic minor number and `data`, which every `open` sees
    /// ([`MiscDeviceRegistration::data`]).
    ///
    /// Fails with `EINVAL` for an empty name, and with `EBUSY` when called from a misc device's
    /// `open`, which holds the lock registering takes.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::fs::File;
    /// use kernel::miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration};
    /// use kernel::sync::Arc;
    ///
    /// struct Shared {
    ///     greeting: &'static str,
    /// }
    ///
    /// #[vtable]
    /// impl MiscDevice for Shared {
    ///     type Ptr = Arc<Shared>;
    ///     type RegistrationData = Arc<Shared>;
    ///
    ///     fn open(_file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Arc<Shared>> {
    ///         Ok(misc.data().clone())
    ///     }
    /// }
    ///
    /// let shared = Arc::new(Shared { greeting: "hello" }, GFP_KERNEL)?;
    /// let options = MiscDeviceOptions {
    ///     name: c"rust-misc-data-doctest",
    /// };
    /// let reg = KBox::pin_init(
    ///     MiscDeviceRegistration::<Shared>::register_with_data(options, shared),
    ///     GFP_KERNEL,
    /// )?;
    /// assert_eq!(reg.data().greeting, "hello");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_with_data(
        opts: MiscDeviceOptions,
        data: impl PinInit<T::RegistrationData, Error>,
    ) -> impl PinInit<Self, Error> {
        let init = move |slot: *mut Self| {
            // An empty name makes the kobject core warn; a long one overflows the uevent
            // buffer, which warns too (the name goes in twice, `DEVPATH` and `DEVNAME`).
            if opts.name.is_empty() || opts.name.to_bytes().len() > MAX_NAME_LEN {
                return Err(EINVAL);
            }
            if current_is_opening() {
                // `misc_register()` would wait for the lock this task holds.
                return Err(EBUSY);
            }
            // SAFETY: `slot` is valid for writes of a `Self`, so its fields are too; `Opaque` is
            // a transparent wrapper.
            let (data_slot, misc) = unsafe {
                (
                    Opaque::raw_get(&raw const (*slot).data),
                    Opaque::raw_get(&raw const (*slot).inner),
                )
            };
            // `data` comes first: the device may be opened as soon as it is registered.
            // SAFETY: `data_slot` is valid for writes and pinned with `*slot`; on failure `data`
            // leaves nothing to drop.
            unsafe { data.__pinned_init(data_slot)? };
            // SAFETY: `misc` is valid for writes; it is pinned, so the misc core may keep
            // pointers to it until `misc_deregister()` in `drop`. The name and the operations
            // are static, and `misc` is the `inner` of a `MiscDeviceRegistration<T>`, as the
            // operations of `T` require.
            let ret = unsafe {
                misc.write(opts.into_raw::<T>());
                to_result(bindings::misc_register(misc))
            };
            if let Err(e) = ret {
                // SAFETY: `data` was initialised above, and nothing saw it: the device was not
                // registered. The caller gets the error and treats `*slot` as uninitialised.
                unsafe { ptr::drop_in_place(data_slot) };
                return Err(e);
            }
            // INVARIANT: `inner` is registered with the operations of `T`, and `data` is
            // initialised (`_t` is zero-sized).
            Ok(())
        };
        // SAFETY: `init` initialises all of `*slot` and returns `Ok`, or returns the error and
        // leaves nothing to drop or deregister. It does not move `*slot`.
        unsafe { init::pin_init_from_closure(init) }
    }

    /// Returns the `struct miscdevice`, for C code.
    pub fn as_raw(&self) -> *mut bindings::miscdevice {
        self.inner.get()
    }

    /// Returns the device the misc core made for the node in `/dev` (its `this_device`).
    pub fn device(&self) -> &Device {
        // SAFETY: By the type invariants the device is registered, so `this_device` is a valid
        // device until `misc_deregister()`, which drop calls after the last use of `&self`.
        unsafe { Device::as_ref((*self.as_raw()).this_device) }
    }

    /// Returns the data given to [`MiscDeviceRegistration::register_with_data`].
    pub fn data(&self) -> &T::RegistrationData {
        // SAFETY: By the type invariants `data` is initialised and only accessed by shared
        // reference until the registration is dropped.
        unsafe { &*self.data.get() }
    }

    /// Returns the minor number the device got.
    pub fn minor(&self) -> i32 {
        // SAFETY: By the type invariants `inner` is registered; the misc core set `minor` in
        // `misc_register()` and changes it only in `misc_deregister()`.
        unsafe { (*self.as_raw()).minor }
    }
}

#[pinned_drop]
impl<T: MiscDevice> PinnedDrop for MiscDeviceRegistration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: By the type invariants `inner` is registered. Once this returns, no `open`
        // runs and none starts (the misc core serialises both under `misc_mtx`). Files already
        // open keep their own state and do not use the registration any more; they use the
        // operations of `T`, which are static, and its code, which stays: the module that has
        // both is their owner, which the VFS holds until each file is released.
        unsafe { bindings::misc_deregister(self.inner.get()) };
        // SAFETY: By the type invariants `data` is initialised, and nothing can borrow it any
        // more: only `open` did, and `open` is over.
        unsafe { ptr::drop_in_place(self.data.get()) };
    }
}

/// Returns whether `module`'s `init` has returned successfully (`MODULE_STATE_LIVE`), or the
/// code is built in.
#[cfg(CONFIG_MODULES)]
#[inline]
fn module_is_live(module: &crate::ThisModule) -> bool {
    let module = module.as_ptr();
    // SAFETY: A non-null `THIS_MODULE` is the module holding the caller's code, which is loaded
    // while it runs; the loader changes `state` concurrently, so it is read once.
    module.is_null()
        || unsafe { (&raw const (*module).state).read_volatile() }
            == bindings::module_state_MODULE_STATE_LIVE
}

/// Without module support all code is built in: no module's `init` can fail and leave its
/// code to be freed.
#[cfg(not(CONFIG_MODULES))]
#[inline]
fn module_is_live(_module: &crate::ThisModule) -> bool {
    true
}

/// Converts the error of a `read_iter` or `write_iter` handler to C's `ssize_t`.
///
/// `EIOCBQUEUED` means "completes later", which these synchronous handlers cannot do; the VFS
/// would treat it as a bug, so it becomes `EIO`.
#[inline]
fn err_to_ssize(e: Error) -> isize {
    if e == EIOCBQUEUED {
        EIO.to_errno() as isize
    } else {
        e.to_errno() as isize
    }
}

/// Fails a request whose handler returned `n` bytes where at most `limit` may be (see
/// [`MiscDevice::read_iter`]), and says so in the kernel log, once per boot for each of
/// `read_iter` and `write_iter`.
///
/// Out of line and cold: the check that calls it is the only cost on the fast path.
#[cold]
#[inline(never)]
fn result_too_large(handler: &'static str, op: &'static str, n: usize, limit: usize) -> isize {
    static READ_SAID: AtomicBool = AtomicBool::new(false);
    static WRITE_SAID: AtomicBool = AtomicBool::new(false);
    let said = if op == "read_iter" {
        &READ_SAID
    } else {
        &WRITE_SAID
    };
    if !said.swap(true, Ordering::Relaxed) {
        let what = if op == "read_iter" {
            "copied"
        } else {
            "was asked for"
        };
        crate::pr_warn!(
            "{handler}::{op} returned {n} bytes but {what} {limit}: failing the request with \
             EIO\n"
        );
    }
    EIO.to_errno() as isize
}

/// The file operations of a misc device implemented by `T`.
struct MiscdeviceVTable<T: MiscDevice>(PhantomData<T>);

impl<T: MiscDevice> MiscdeviceVTable<T> {
    /// Borrows the state `open` stored in `file`.
    ///
    /// # Safety
    ///
    /// `file` is a file of a `T` device that `open` succeeded on and that is not released
    /// before the returned value is last used.
    #[inline]
    unsafe fn device<'a>(file: *mut bindings::file) -> <T::Ptr as ForeignOwnable>::Borrowed<'a> {
        // SAFETY: `open` stored the result of `into_foreign()` in `private_data`, and it is given
        // back to `from_foreign()` only in `release`, as the caller guarantees.
        unsafe { T::Ptr::borrow((*file).private_data) }
    }

    /// `open` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by `misc_open()` with `file` valid, its `private_data` pointing to the `inner` of
    /// a `MiscDeviceRegistration<T>` (whose operations these are) and `misc_mtx` held.
    unsafe extern "C" fn open(inode: *mut bindings::inode, file: *mut bindings::file) -> c_int {
        // SAFETY: The pointers are valid and for a file being opened.
        let ret = unsafe { bindings::generic_file_open(inode, file) };
        if ret != 0 {
            return ret;
        }
        // SAFETY: `misc_open()` stored the registered `struct miscdevice` in `private_data`;
        // it is the `inner` of a registration for `T`, since these operations are `T`'s.
        let misc = unsafe { (*file).private_data }.cast::<bindings::miscdevice>();
        // SAFETY: `inner` is a field of a `MiscDeviceRegistration<T>`, which `misc_mtx` keeps
        // registered, and so alive, while `open` runs.
        let reg = unsafe { &*crate::container_of!(misc, MiscDeviceRegistration<T>, inner) };
        if !module_is_live(T::__OWNER) {
            // The module's `init` has not returned yet, and may still fail: the loader then
            // frees the module whatever its count, so no file of it may be open by then.
            return EAGAIN.to_errno();
        }
        if T::NOWAIT {
            // SAFETY: Nothing else uses the file before `open` returns.
            unsafe { (*file).f_mode |= bindings::FMODE_NOWAIT };
        }
        // `misc_mtx` is held: only this task is in an `open` until it is cleared below.
        // SAFETY: `get_current()` has no requirements.
        OPENING.store(unsafe { bindings::get_current() }, Ordering::Relaxed);
        // SAFETY: `file` is valid until `open` returns. It is not open yet (`FMODE_OPENED` is set
        // after this returns), which `from_raw_file` allows without a reference; nobody can have
        // reached it through `fdget_pos()` before it is open.
        let opened = T::open(unsafe { File::from_raw_file(file) }, reg);
        OPENING.store(ptr::null_mut(), Ordering::Relaxed);
        match opened {
            Ok(device) => {
                // SAFETY: As above; the other operations find the state here.
                unsafe { (*file).private_data = device.into_foreign().cast_mut() };
                0
            }
            Err(e) => e.to_errno(),
        }
    }

    /// `release` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by the VFS once, after `open` succeeded on `file`, when nothing else uses it.
    unsafe extern "C" fn release(_inode: *mut bindings::inode, file: *mut bindings::file) -> c_int {
        // SAFETY: `open` stored the result of `into_foreign()` in `private_data`; this is the
        // last use of the file, so no borrow of it is left.
        let device = unsafe { T::Ptr::from_foreign((*file).private_data) };
        // SAFETY: `file` is valid until `release` returns. It is being released (count zero),
        // which `from_raw_file` allows; its last reference is gone, so no `fdget_pos()` region of
        // it is active.
        T::release(device, unsafe { File::from_raw_file(file) });
        0
    }

    /// `read_iter` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by the VFS (or `splice()`, io_uring, AIO) with `kiocb` and `iter` valid until it
    /// returns, `kiocb` for a file that `open` succeeded on and that stays open until then,
    /// `iter` a destination (`ITER_DEST`) whose memory may be written with the C copy
    /// functions until then, and that nothing else uses meanwhile. The caller goes on using
    /// `iter` afterwards, and trusts the result.
    #[inline]
    unsafe extern "C" fn read_iter(
        kiocb: *mut bindings::kiocb,
        iter: *mut bindings::iov_iter,
    ) -> isize {
        // SAFETY: The caller guarantees what `Kiocb::from_raw` needs until the call returns; the
        // private data is a `T::Ptr` stored by `open`.
        let kiocb = unsafe { Kiocb::from_raw(kiocb) };
        // SAFETY: As above. The handler gets `&mut` to the caller's iterator for the call only;
        // it can move it, but cannot keep it or put another in its place, because no safe code
        // owns an `IovIterDest` (see `kernel::iov`). So after the call `iter` is the caller's
        // iterator, moved forward, and `raw_count` below reads it.
        let iov = unsafe { IovIterDest::from_raw(iter) };
        let asked = iov.len();
        match T::read_iter(kiocb, iov) {
            Ok(n) => {
                // SAFETY: `iter` is valid until the call returns, and no longer borrowed.
                let left = unsafe { iov::raw_count(iter) };
                // How far the iterator moved: nothing but C code given `as_raw()`, which must
                // not, raises the count of an iterator, so `left <= asked`.
                let moved = asked.wrapping_sub(left);
                // At most what the iterator moved, so at most the request's count, which is at
                // most `MAX_RW_COUNT`: it fits. Every byte the iterator moved over was written
                // (see `IovIterDest`), so C gets no byte of its memory it did not get from the
                // handler.
                if n <= moved {
                    n as isize
                } else {
                    result_too_large(core::any::type_name::<T>(), "read_iter", n, moved)
                }
            }
            Err(e) => err_to_ssize(e),
        }
    }

    /// `write_iter` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// As for `read_iter`, with `iter` a source (`ITER_SOURCE`) whose memory may be read.
    #[inline]
    unsafe extern "C" fn write_iter(
        kiocb: *mut bindings::kiocb,
        iter: *mut bindings::iov_iter,
    ) -> isize {
        // SAFETY: As for `read_iter`.
        let kiocb = unsafe { Kiocb::from_raw(kiocb) };
        // SAFETY: As for `read_iter`, with a source for `write_iter`.
        let iov = unsafe { IovIterSource::from_raw(iter) };
        let asked = iov.len();
        match T::write_iter(kiocb, iov) {
            // At most the request's count, which is at most `MAX_RW_COUNT`: it fits. That is
            // all C needs: a write that did not read all it claims loses data, not memory.
            Ok(n) if n <= asked => n as isize,
            Ok(n) => result_too_large(core::any::type_name::<T>(), "write_iter", n, asked),
            Err(e) => err_to_ssize(e),
        }
    }

    /// `llseek` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by the VFS with `file` valid until it returns, a file that `open` succeeded on.
    unsafe extern "C" fn llseek(file: *mut bindings::file, offset: i64, whence: c_int) -> i64 {
        let Some(whence) = Whence::from_raw(whence) else {
            return EINVAL.to_errno().into();
        };
        // SAFETY: `open` succeeded on the file, which stays open during the call.
        let device = unsafe { Self::device(file) };
        // SAFETY: `file` is valid until the call returns. `lseek()` reaches it through
        // `fdget_pos()`, which does not lock the position of a character device: a
        // `LocalFile`, which stays on this thread.
        let local = unsafe { LocalFile::from_raw_file(file) };
        match T::llseek(device, local, offset, whence) {
            // SAFETY: `file` is valid; `vfs_setpos()` checks the range and sets `f_pos`.
            Ok(pos) => unsafe { bindings::vfs_setpos(file, pos, bindings::MAX_LFS_FILESIZE) },
            Err(e) => e.to_errno().into(),
        }
    }

    /// `unlocked_ioctl` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// As for `llseek`.
    unsafe extern "C" fn ioctl(file: *mut bindings::file, cmd: c_uint, arg: c_ulong) -> c_long {
        // SAFETY: `open` succeeded on the file, which stays open during the call.
        let device = unsafe { Self::device(file) };
        // SAFETY: `file` is valid until the call returns. `ioctl()` reaches it through
        // `fdget()`, not `fdget_pos()`, so this thread is in no `fdget_pos()` region of it.
        match T::ioctl(device, unsafe { File::from_raw_file(file) }, cmd, arg) {
            Ok(ret) => ret as c_long,
            Err(e) => e.to_errno() as c_long,
        }
    }

    /// `compat_ioctl` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// As for `llseek`.
    #[cfg(CONFIG_COMPAT)]
    unsafe extern "C" fn compat_ioctl(
        file: *mut bindings::file,
        cmd: c_uint,
        arg: c_ulong,
    ) -> c_long {
        // SAFETY: `open` succeeded on the file, which stays open during the call.
        let device = unsafe { Self::device(file) };
        // SAFETY: As for `ioctl`.
        match T::compat_ioctl(device, unsafe { File::from_raw_file(file) }, cmd, arg) {
            Ok(ret) => ret as c_long,
            Err(e) => e.to_errno() as c_long,
        }
    }

    /// `show_fdinfo` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// As for `llseek`, with `m` a valid `struct seq_file` that only this call uses until it
    /// returns.
    unsafe extern "C" fn show_fdinfo(m: *mut bindings::seq_file, file: *mut bindings::file) {
        // SAFETY: `open` succeeded on the file, which stays open during the call.
        let device = unsafe { Self::device(file) };
        // SAFETY: `m` is valid and only used here until the call returns.
        let m = unsafe { SeqFile::from_raw(m) };
        // SAFETY: `file` is valid until the call returns. `/proc` holds a reference of its own
        // to it (`fget_task()`), not an `fdget_pos()` region.
        T::show_fdinfo(device, m, unsafe { File::from_raw_file(file) });
    }

    /// The operations: those `T` implements, and `open` and `release`.
    const VTABLE: bindings::file_operations = bindings::file_operations {
        owner: T::__OWNER.as_ptr(),
        open: Some(Self::open),
        release: Some(Self::release),
        read_iter: if T::HAS_READ_ITER {
            Some(Self::read_iter)
        } else {
            None
        },
        write_iter: if T::HAS_WRITE_ITER {
            Some(Self::write_iter)
        } else {
            None
        },
        splice_read: if T::SPLICE && T::HAS_READ_ITER {
            Some(bindings::copy_splice_read)
        } else {
            None
        },
        splice_write: if T::SPLICE && T::HAS_WRITE_ITER {
            Some(bindings::iter_file_splice_write)
        } else {
            None
        },
        llseek: if T::HAS_LLSEEK {
            Some(Self::llseek)
        } else {
            None
        },
        unlocked_ioctl: if T::HAS_IOCTL {
            Some(Self::ioctl)
        } else {
            None
        },
        #[cfg(CONFIG_COMPAT)]
        compat_ioctl: if T::HAS_COMPAT_IOCTL {
            Some(Self::compat_ioctl)
        } else if T::HAS_IOCTL {
            Some(bindings::compat_ptr_ioctl)
        } else {
            None
        },
        show_fdinfo: if T::HAS_SHOW_FDINFO {
            Some(Self::show_fdinfo)
        } else {
            None
        },
        // SAFETY: All zeroes is a valid `struct file_operations`: no other operations.
        ..unsafe { MaybeUninit::zeroed().assume_init() }
    };
}
