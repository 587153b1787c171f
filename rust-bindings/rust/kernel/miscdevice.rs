// SPDX-License-Identifier: GPL-2.0

//! Miscellaneous character devices.
//!
//! C header: [`include/linux/miscdevice.h`](srctree/include/linux/miscdevice.h)
//!
//! A misc device is a character device with major number 10 and a minor number the misc core
//! hands out; registering one creates its node in `/dev`. The device's file operations are the
//! methods of a [`MiscDevice`] implementation: the glue here turns the raw C arguments into
//! [`File`], [`Kiocb`] and [`IovIter`](crate::iov::IovIter) values and the results back into C
//! return values.
//!
//! Two kinds of state are involved:
//!
//! - [`MiscDevice::Data`] belongs to the [`MiscDeviceRegistration`] and is dropped with it. Only
//!   [`MiscDevice::open`] sees it: the misc core serialises `open` against deregistration, but
//!   files stay open after the device is deregistered.
//! - [`MiscDevice::Ptr`] is what `open` returns for one open file (typically an
//!   [`Arc`](crate::sync::Arc) of state shared by all opens, or a [`KBox`]
//!   of state of its own). It is kept in the file's `private_data`, borrowed by the other
//!   operations, and handed back to [`MiscDevice::release`] when the last reference to the file
//!   goes away.

use crate::{
    bindings, build_error,
    error::{code::*, to_result, Error, Result, VTABLE_DEFAULT_ERROR},
    ffi::c_int,
    fs::{File, Kiocb},
    init::{self, PinInit},
    iov::{IovDest, IovSource},
    prelude::*,
    str::CStr,
    types::{ForeignOwnable, Opaque},
    ThisModule,
};
use core::{marker::PhantomData, mem::MaybeUninit, pin::Pin};

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

/// How to register a misc device.
#[derive(Clone, Copy)]
pub struct MiscDeviceOptions {
    /// The name of the device, and of its node in `/dev`.
    pub name: &'static CStr,
}

/// The file operations of a misc device, and its state.
///
/// Operations that are not implemented are left out of the `struct file_operations`: the VFS
/// then fails `read()` and `write()` with `EINVAL` and `lseek()` with `ESPIPE`. `open` and
/// `release` are always there.
#[vtable]
pub trait MiscDevice: Sized {
    /// The module that implements the device: `&THIS_MODULE`.
    ///
    /// The VFS holds a reference on it while a file of the device is open, so the module (and
    /// with it the code of these operations) cannot go away under an open file.
    const OWNER: &'static ThisModule;

    /// Whether requests with `IOCB_NOWAIT` (`RWF_NOWAIT`) are served: every open file then gets
    /// `FMODE_NOWAIT`, without which the VFS fails them with `EOPNOTSUPP`. The handlers must then
    /// fail with [`EAGAIN`] where they would otherwise wait (see [`Kiocb::is_nowait`]).
    const NOWAIT: bool = false;

    /// State of the device, owned by its registration; seen only by [`MiscDevice::open`].
    type Data: Send + Sync;

    /// State of one open file, stored in the file while it is open.
    type Ptr: ForeignOwnable + Send + Sync;

    /// Opens the device: checks `file` (e.g. its [`flags`](crate::fs::file::flags)) and returns
    /// the state the other operations of this open file get.
    fn open(data: &Self::Data, file: &File) -> Result<Self::Ptr>;

    /// Called when the last reference to an open file is dropped; by default drops `device`.
    fn release(device: Self::Ptr, _file: &File) {
        drop(device);
    }

    /// Reads into `to` at [`Kiocb::pos`] (`read()`, `readv()`, `pread()`, `preadv2()`, ...) and
    /// returns the number of bytes read, 0 at the end of the file.
    ///
    /// The handler moves the position ([`Kiocb::advance_pos`]) by the number it returns.
    fn read_iter(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _iocb: &mut Kiocb<'_>,
        _to: &mut IovDest<'_>,
    ) -> Result<usize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Writes from `from` at [`Kiocb::pos`] (`write()`, `writev()`, `pwrite()`, `pwritev2()`,
    /// ...) and returns the number of bytes written.
    ///
    /// The handler moves the position ([`Kiocb::advance_pos`]) to the end of what it wrote.
    fn write_iter(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _iocb: &mut Kiocb<'_>,
        _from: &mut IovSource<'_>,
    ) -> Result<usize> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Computes the new file position for `lseek(offset, whence)`.
    ///
    /// The glue stores the position in the file if it is in `0..=MAX_LFS_FILESIZE`, and fails
    /// with `EINVAL` otherwise; a `whence` that 6.12 does not know fails with `EINVAL` before the
    /// handler is called. [`File::pos`] gives the current position for [`Whence::Cur`].
    fn llseek(
        _device: <Self::Ptr as ForeignOwnable>::Borrowed<'_>,
        _file: &File,
        _offset: i64,
        _whence: Whence,
    ) -> Result<i64> {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// A registered misc device; dropping it deregisters the device.
///
/// # Invariants
///
/// `inner` is registered with the misc core, with `fops` pointing to the `FOPS` of `T`, until
/// `self` is dropped.
///
/// # Examples
///
/// A device that reads as an endless stream of one byte, which each open file chooses once with
/// its access mode: `0xff` when opened read-only, 0 otherwise.
///
/// ```
/// use kernel::fs::{file::flags, File, Kiocb};
/// use kernel::iov::IovDest;
/// use kernel::miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration};
/// use kernel::{c_str, ThisModule};
///
/// // Code built into the kernel, as the doctests are, has no module.
/// // SAFETY: `THIS_MODULE` is null for built-in code.
/// static BUILT_IN: ThisModule = unsafe { ThisModule::from_ptr(core::ptr::null_mut()) };
///
/// struct Filler;
///
/// #[vtable]
/// impl MiscDevice for Filler {
///     const OWNER: &'static ThisModule = &BUILT_IN;
///     type Data = ();
///     type Ptr = KBox<u8>;
///
///     fn open(_data: &(), file: &File) -> Result<KBox<u8>> {
///         let fill = if file.flags() & flags::O_ACCMODE == flags::O_RDONLY { 0xff } else { 0 };
///         Ok(KBox::new(fill, GFP_KERNEL)?)
///     }
///
///     fn read_iter(fill: &u8, iocb: &mut Kiocb<'_>, to: &mut IovDest<'_>) -> Result<usize> {
///         let mut done = 0;
///         while !to.is_empty() {
///             let n = to.copy_to_iter(&[*fill; 64]);
///             if n == 0 {
///                 break;
///             }
///             done += n;
///             // A read can ask for up to 2 GiB: let others run.
///             kernel::task::cond_resched();
///         }
///         if done == 0 && !to.is_empty() {
///             return Err(EFAULT);
///         }
///         iocb.advance_pos(done)?;
///         Ok(done)
///     }
/// }
///
/// let options = MiscDeviceOptions {
///     name: c_str!("rust-misc-doctest"),
/// };
/// let reg = KBox::pin_init(MiscDeviceRegistration::<Filler>::register(options, ()), GFP_KERNEL)?;
/// assert!(reg.minor() >= 0);
/// drop(reg);
/// # Ok::<(), Error>(())
/// ```
#[pin_data(PinnedDrop)]
pub struct MiscDeviceRegistration<T: MiscDevice> {
    data: T::Data,
    #[pin]
    inner: Opaque<bindings::miscdevice>,
    _t: PhantomData<T>,
}

// SAFETY: The misc core does everything it does with `inner` under its own lock, and Rust code
// only reads fields the core no longer changes once the device is registered; `data` is `Send`.
unsafe impl<T: MiscDevice> Send for MiscDeviceRegistration<T> {}

// SAFETY: As for `Send`; `&self` only gives shared access to `data`, which is `Sync`.
unsafe impl<T: MiscDevice> Sync for MiscDeviceRegistration<T> {}

impl<T: MiscDevice> MiscDeviceRegistration<T> {
    /// Registers a misc device with a dynamic minor number; `data` is what `open` will see.
    ///
    /// The device can be opened as soon as this returns; the registration must be pinned, as
    /// the misc core keeps a pointer to it.
    pub fn register(options: MiscDeviceOptions, data: T::Data) -> impl PinInit<Self, Error> {
        let init_inner = move |slot: *mut bindings::miscdevice| {
            // SAFETY: All zeroes is a valid `struct miscdevice` (null pointers, no list).
            let mut misc: bindings::miscdevice = unsafe { MaybeUninit::zeroed().assume_init() };
            misc.minor = bindings::MISC_DYNAMIC_MINOR as c_int;
            misc.name = options.name.as_char_ptr();
            misc.fops = &Self::FOPS;
            // SAFETY: `slot` is valid for writes; it is pinned, so the misc core may keep
            // pointers to it until `misc_deregister()` in `drop`. The name and the operations
            // are static.
            unsafe {
                slot.write(misc);
                to_result(bindings::misc_register(slot))
            }
        };
        // `data` comes first: the device may be opened as soon as it is registered.
        try_pin_init!(Self {
            data,
            // SAFETY: `init_inner` initialises the `Opaque` at `slot`, or fails and leaves
            // nothing registered; it does not move it.
            inner <- unsafe {
                init::pin_init_from_closure(move |slot: *mut Opaque<bindings::miscdevice>| {
                    init_inner(Opaque::raw_get(slot))
                })
            },
            _t: PhantomData,
        }? Error)
    }

    /// Returns the data given to [`MiscDeviceRegistration::register`].
    pub fn data(&self) -> &T::Data {
        &self.data
    }

    /// Returns the minor number the device got.
    pub fn minor(&self) -> i32 {
        // SAFETY: By the type invariants `inner` is registered; the misc core set `minor` in
        // `misc_register()` and changes it only in `misc_deregister()`.
        unsafe { (*self.inner.get()).minor }
    }

    /// The file operations of every misc device implemented by `T`.
    const FOPS: bindings::file_operations = bindings::file_operations {
        owner: T::OWNER.as_ptr(),
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
        llseek: if T::HAS_LLSEEK {
            Some(Self::llseek)
        } else {
            None
        },
        // SAFETY: All zeroes is a valid `struct file_operations`: no other operations.
        ..unsafe { MaybeUninit::zeroed().assume_init() }
    };

    /// Returns the state `open` stored in `file`.
    ///
    /// # Safety
    ///
    /// `file` is a file of a `T` device that `open` succeeded on and that has not been released;
    /// the returned value is not used after it is released.
    unsafe fn device<'a>(file: &File) -> <T::Ptr as ForeignOwnable>::Borrowed<'a> {
        // SAFETY: `open` stored the result of `into_foreign()` in `private_data`, and it is given
        // back to `from_foreign()` only in `release`, as the caller guarantees.
        unsafe { T::Ptr::borrow((*file.as_raw()).private_data) }
    }

    /// `open` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by `misc_open()` with `file` valid, its `private_data` pointing to the `inner` of
    /// a `MiscDeviceRegistration<T>` (whose `FOPS` are in use) and `misc_mtx` held.
    unsafe extern "C" fn open(_inode: *mut bindings::inode, file: *mut bindings::file) -> c_int {
        // SAFETY: `misc_open()` stored the registered `struct miscdevice` in `private_data`;
        // it is the `inner` of a registration for `T`, since these operations are `T`'s.
        let misc = unsafe { (*file).private_data }.cast::<bindings::miscdevice>();
        // SAFETY: `inner` is a field of a `MiscDeviceRegistration<T>`, which `misc_mtx` keeps
        // registered, and so alive, while `open` runs.
        let reg = unsafe { &*crate::container_of!(misc, Self, inner) };
        // SAFETY: Nobody else uses the file before `open` returns, so `f_mode` can be changed.
        unsafe {
            if T::NOWAIT {
                (*file).f_mode |= bindings::FMODE_NOWAIT;
            }
        }
        // SAFETY: `file` is valid until `open` returns.
        let file_ref = unsafe { File::from_raw(file) };
        match T::open(&reg.data, file_ref) {
            Ok(device) => {
                // SAFETY: As above; `release` and the other operations find the state here.
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
        // SAFETY: `file` is valid until `release` returns.
        T::release(device, unsafe { File::from_raw(file) });
        0
    }

    /// `read_iter` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by the VFS with `iocb` and `to` valid until it returns, `iocb` for a file that
    /// `open` succeeded on and that is not released before the call returns.
    unsafe extern "C" fn read_iter(
        iocb: *mut bindings::kiocb,
        to: *mut bindings::iov_iter,
    ) -> isize {
        // SAFETY: The VFS guarantees what `from_raw` requires until the call returns.
        let res = unsafe { Kiocb::from_raw(iocb) }.and_then(|mut iocb| {
            // SAFETY: As above; the C iterator belongs to this call.
            let mut to = unsafe { IovDest::from_raw(to) }?;
            let requested = to.len();
            // SAFETY: `open` succeeded on the file, which stays open during the call.
            let device = unsafe { Self::device(iocb.file()) };
            check_count(T::read_iter(device, &mut iocb, &mut to), requested)
        });
        to_ssize(res)
    }

    /// `write_iter` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// As for `read_iter`.
    unsafe extern "C" fn write_iter(
        iocb: *mut bindings::kiocb,
        from: *mut bindings::iov_iter,
    ) -> isize {
        // SAFETY: The VFS guarantees what `from_raw` requires until the call returns.
        let res = unsafe { Kiocb::from_raw(iocb) }.and_then(|mut iocb| {
            // SAFETY: As above; the C iterator belongs to this call.
            let mut from = unsafe { IovSource::from_raw(from) }?;
            let requested = from.len();
            // SAFETY: `open` succeeded on the file, which stays open during the call.
            let device = unsafe { Self::device(iocb.file()) };
            check_count(T::write_iter(device, &mut iocb, &mut from), requested)
        });
        to_ssize(res)
    }

    /// `llseek` of `struct file_operations`.
    ///
    /// # Safety
    ///
    /// Called by the VFS with `file` valid until it returns, a file that `open` succeeded on.
    unsafe extern "C" fn llseek(file: *mut bindings::file, offset: i64, whence: c_int) -> i64 {
        // SAFETY: `file` is valid until the call returns.
        let file = unsafe { File::from_raw(file) };
        let Some(whence) = Whence::from_raw(whence) else {
            return EINVAL.to_errno().into();
        };
        // SAFETY: `open` succeeded on the file, which stays open during the call.
        let device = unsafe { Self::device(file) };
        match T::llseek(device, file, offset, whence) {
            // SAFETY: `file` is valid; `vfs_setpos()` checks the range and sets `f_pos`.
            Ok(pos) => unsafe {
                bindings::vfs_setpos(file.as_raw(), pos, bindings::MAX_LFS_FILESIZE)
            },
            Err(e) => e.to_errno().into(),
        }
    }
}

/// Checks the result of a `read_iter` or `write_iter` handler for a request of `requested`
/// bytes. A count larger than the request would reach user space as is, and [`EIOCBQUEUED`]
/// means "completes later", which these synchronous handlers cannot do (the VFS treats it as a
/// bug): both are handler bugs, reported as [`EIO`].
#[inline]
fn check_count(res: Result<usize>, requested: usize) -> Result<usize> {
    match res {
        Ok(n) if n > requested => Err(EIO),
        Err(e) if e == EIOCBQUEUED => Err(EIO),
        res => res,
    }
}

/// Converts the result of a `read_iter` or `write_iter` handler to C's `ssize_t`: a byte count
/// that does not fit is [`EOVERFLOW`], never a negative number.
fn to_ssize(res: Result<usize>) -> isize {
    match res.and_then(|n| isize::try_from(n).map_err(|_| EOVERFLOW)) {
        Ok(n) => n,
        // An errno is in `-MAX_ERRNO..0`, which fits any `isize`.
        Err(e) => e.to_errno() as isize,
    }
}

#[pinned_drop]
impl<T: MiscDevice> PinnedDrop for MiscDeviceRegistration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: By the type invariants `inner` is registered. Once this returns, `open` is not
        // called any more; files already open keep their own state.
        unsafe { bindings::misc_deregister(self.inner.get()) };
    }
}
