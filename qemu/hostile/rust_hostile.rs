// SPDX-License-Identifier: GPL-2.0

//! Misc devices that break the rules of the Rust API on purpose, in safe code only.
//!
//! A test module, not a sample: every device here does something a driver must not do, and
//! the kernel must survive it. Nothing in this file may be `unsafe` (the build refuses the
//! word): whatever harm these devices can do, safe Rust can do. `hostile_test.c` loads the
//! module, drives each device from user space and checks that the misuse became a clean error
//! (or, where the misuse cannot compile any more, `scripts/rust-compile-fail/` has the case).
//!
//! - `hostile-read-more`: `read_iter` copies the request and claims one byte more.
//! - `hostile-read-queued`: `read_iter` claims `2^64 - 529` bytes, `-EIOCBQUEUED` once cast.
//! - `hostile-read-unwritten`: `read_iter` claims the whole request and writes none of it.
//! - `hostile-read-skipped`: `read_iter` moves past the whole request without writing it.
//! - `hostile-write-more`: `write_iter` takes the request and claims 4096 bytes more.
//! - `hostile-fdinfo`: `show_fdinfo` prints into its `SeqFile` from inside a `Display` that is
//!   being printed into the same `SeqFile`.
//! - `hostile-status`: `ioctl(HOSTILE_DUP_REGISTER)` registers a second device under this name,
//!   which fails with `EEXIST`, and returns how many registration data values were dropped
//!   since load.
//! - `hostile-leaked`: registered at load and leaked, so nothing deregisters it when the module
//!   goes away.
//! - `hostile-file-ref`: `open` and `release` try to take a reference to the file they are
//!   lent, `open` to register a misc device (under the lock registering takes), and `release` a
//!   file descriptor and an `fget()`; ioctls report what each got.
//! - `hostile-stale-page`: `read_iter` copies freshly allocated pages it never wrote, with
//!   `copy_page_to_iter` (at position 0) or through a `BioVec` source (elsewhere).
//! - `hostile-big`: `write_iter` reserves room for the whole request in a `KVec` (at position 0)
//!   or a `KVVec` (elsewhere); ioctls allocate what user space asks for, and register a device
//!   with an empty name.
//!
//! None names an owner module: the module must not unload while one of its files is open.

use core::{
    fmt,
    sync::atomic::{AtomicI32, AtomicUsize, Ordering},
};
use kernel::{
    fs::{
        file::{flags, FileDescriptorReservation, LocalFile},
        File, Kiocb,
    },
    ioctl::_IO,
    iov::{BioVec, IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    new_condvar, new_mutex, new_spinlock,
    page::{Page, PAGE_SIZE},
    prelude::*,
    seq_file::SeqFile,
    seq_print,
    sync::Arc,
    uaccess::{UserPtr, UserSlice},
    workqueue,
};

module! {
    type: Hostile,
    name: "rust_hostile",
    author: "Rust for Linux Contributors",
    description: "Misc devices that misuse the Rust API on purpose (test module)",
    license: "GPL",
}

/// `_IO('|', 0xa0)`: try to register a second `hostile-status`, return the drop count.
const HOSTILE_DUP_REGISTER: u32 = _IO('|' as u32, 0xa0);

/// `hostile-file-ref`: what the last `try_get` in `open` got, in `release`, the last file
/// descriptor reservation and `fget(0)` in `release`, a `try_get` in this `ioctl`.
const HOSTILE_OPEN_GET: u32 = _IO('|' as u32, 0xa1);
const HOSTILE_RELEASE_GET: u32 = _IO('|' as u32, 0xa2);
const HOSTILE_RELEASE_FD: u32 = _IO('|' as u32, 0xa3);
const HOSTILE_RELEASE_FGET: u32 = _IO('|' as u32, 0xa4);
const HOSTILE_IOCTL_GET: u32 = _IO('|' as u32, 0xa5);
/// `hostile-file-ref`: what registering a misc device in the last `open` got; forget what
/// `release` got.
const HOSTILE_OPEN_REGISTER: u32 = _IO('|' as u32, 0xa9);
const HOSTILE_RESET: u32 = _IO('|' as u32, 0xaa);

/// `hostile-big`: a `KVec` (`0xa6`) or `KVVec` (`0xa7`) with room for `arg` bytes; a device
/// named `c""` (`0xa8`).
const HOSTILE_ALLOC_KVEC: u32 = _IO('|' as u32, 0xa6);
const HOSTILE_ALLOC_KVVEC: u32 = _IO('|' as u32, 0xa7);
const HOSTILE_EMPTY_NAME: u32 = _IO('|' as u32, 0xa8);
/// `hostile-big`: allocate with flags C refuses for slab memory, or the page allocator takes
/// as an index past its tables, made by flag arithmetic.
const HOSTILE_ALLOC_FLAGS: u32 = _IO('|' as u32, 0xab);
/// `hostile-big`: read 16 bytes at user address `arg` from a work item, wait for it, return
/// how many it read.
const HOSTILE_USER_FROM_WORK: u32 = _IO('|' as u32, 0xac);
/// `hostile-big`: under a spinlock, grow a vmalloc'ed `KVVec` and make a `VVec`, both with
/// `GFP_ATOMIC`; return 1 for the first and 2 for the second if they succeeded.
const HOSTILE_ALLOC_ATOMIC: u32 = _IO('|' as u32, 0xad);
/// `hostile-big`: register a device whose name is 1000 bytes long.
const HOSTILE_LONG_NAME: u32 = _IO('|' as u32, 0xae);

/// A name longer than a file name, whose uevent would not fit its buffer.
static LONG_NAME: [u8; 1001] = {
    let mut name = [b'n'; 1001];
    name[1000] = 0;
    name
};

/// An outcome as the ioctls report it: 0 for success, the positive errno for a failure, and
/// `NEVER` for a call that did not happen yet.
const NEVER: i32 = 1000;

fn outcome<T, E: Into<Error>>(r: core::result::Result<T, E>) -> i32 {
    match r {
        Ok(_) => 0,
        Err(e) => -e.into().to_errno(),
    }
}

static OPEN_GET: AtomicI32 = AtomicI32::new(NEVER);
static OPEN_REGISTER: AtomicI32 = AtomicI32::new(NEVER);
static RELEASE_GET: AtomicI32 = AtomicI32::new(NEVER);
static RELEASE_FD: AtomicI32 = AtomicI32::new(NEVER);
static RELEASE_FGET: AtomicI32 = AtomicI32::new(NEVER);

/// Registration data values dropped since the module was loaded.
static DROPPED: AtomicUsize = AtomicUsize::new(0);

/// Registration data that counts its drops.
struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.fetch_add(1, Ordering::Relaxed);
    }
}

#[pin_data]
struct Hostile {
    #[pin]
    read_more: MiscDeviceRegistration<ReadMore>,
    #[pin]
    read_queued: MiscDeviceRegistration<ReadQueued>,
    #[pin]
    read_unwritten: MiscDeviceRegistration<ReadUnwritten>,
    #[pin]
    read_skipped: MiscDeviceRegistration<ReadSkipped>,
    #[pin]
    write_more: MiscDeviceRegistration<WriteMore>,
    #[pin]
    fdinfo: MiscDeviceRegistration<Fdinfo>,
    #[pin]
    status: MiscDeviceRegistration<Status>,
    #[pin]
    file_ref: MiscDeviceRegistration<FileRef>,
    #[pin]
    stale_page: MiscDeviceRegistration<StalePage>,
    #[pin]
    big: MiscDeviceRegistration<Big>,
}

fn opts(name: &'static core::ffi::CStr) -> MiscDeviceOptions {
    MiscDeviceOptions { name }
}

impl kernel::InPlaceModule for Hostile {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        // A registration that is never dropped, so never deregistered.
        if let Ok(leaked) = KBox::pin_init(
            MiscDeviceRegistration::<Leaked>::register(opts(c"hostile-leaked")),
            GFP_KERNEL,
        ) {
            core::mem::forget(leaked);
        }
        try_pin_init!(Self {
            read_more <- MiscDeviceRegistration::register(opts(c"hostile-read-more")),
            read_queued <- MiscDeviceRegistration::register(opts(c"hostile-read-queued")),
            read_unwritten <-
                MiscDeviceRegistration::register(opts(c"hostile-read-unwritten")),
            read_skipped <- MiscDeviceRegistration::register(opts(c"hostile-read-skipped")),
            write_more <- MiscDeviceRegistration::register(opts(c"hostile-write-more")),
            fdinfo <- MiscDeviceRegistration::register(opts(c"hostile-fdinfo")),
            status <- MiscDeviceRegistration::register_with_data(
                opts(c"hostile-status"),
                Counted
            ),
            file_ref <- MiscDeviceRegistration::register(opts(c"hostile-file-ref")),
            stale_page <- MiscDeviceRegistration::register(opts(c"hostile-stale-page")),
            big <- MiscDeviceRegistration::register(opts(c"hostile-big")),
        })
    }
}

/// Claims one byte more than it copied.
struct ReadMore;

#[vtable]
impl MiscDevice for ReadMore {
    type Ptr = ();
    const SPLICE: bool = true;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let mut done = 0;
        while !iov.is_empty() {
            let n = iov.copy_to_iter(&[b'r'; 256]);
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(done + 1)
    }
}

/// Claims what is `-EIOCBQUEUED` once the VFS reads it as an `ssize_t`.
struct ReadQueued;

#[vtable]
impl MiscDevice for ReadQueued {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, _iov: &mut IovIterDest<'_>) -> Result<usize> {
        Ok(0usize.wrapping_sub(529))
    }
}

/// Claims the whole request and writes none of it.
struct ReadUnwritten;

#[vtable]
impl MiscDevice for ReadUnwritten {
    type Ptr = ();
    const SPLICE: bool = true;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        Ok(iov.len())
    }
}

/// Moves past the whole request without writing it, and claims it.
struct ReadSkipped;

#[vtable]
impl MiscDevice for ReadSkipped {
    type Ptr = ();
    const SPLICE: bool = true;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let n = iov.len();
        iov.advance(n);
        Ok(n)
    }
}

/// Takes the whole request and claims 4096 bytes more.
struct WriteMore;

#[vtable]
impl MiscDevice for WriteMore {
    type Ptr = ();
    const SPLICE: bool = true;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn write_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let mut done = 0;
        let mut sink = [0u8; 256];
        while !iov.is_empty() {
            let n = iov.copy_from_iter(&mut sink);
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(done + 4096)
    }
}

/// A value whose formatting prints into the `SeqFile` it is being printed into.
struct Reenter<'a>(&'a SeqFile);

impl fmt::Display for Reenter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        seq_print!(self.0, "inner:\t{:#<1000}\n", "");
        f.write_str("x")
    }
}

/// Prints into its `SeqFile` while printing into it.
struct Fdinfo;

#[vtable]
impl MiscDevice for Fdinfo {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn show_fdinfo(_device: (), m: &SeqFile, _file: &File) {
        seq_print!(m, "outer:\t{}\tend\n", Reenter(m));
    }
}

/// A device whose registration is leaked.
struct Leaked;

#[vtable]
impl MiscDevice for Leaked {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }
}

/// Registers a second device of its own name on request.
struct Status;

#[vtable]
impl MiscDevice for Status {
    type Ptr = ();
    type RegistrationData = Counted;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn ioctl(_device: (), _file: &File, cmd: u32, _arg: usize) -> Result<isize> {
        if cmd != HOSTILE_DUP_REGISTER {
            return Err(ENOTTY);
        }
        let options = MiscDeviceOptions {
            name: c"hostile-status",
        };
        let dup = KBox::pin_init(
            MiscDeviceRegistration::<Status>::register_with_data(options, Counted),
            GFP_KERNEL,
        );
        match dup {
            Ok(_) => Err(EINVAL),
            // The misc core refuses a name it has already, before sysfs reports it.
            Err(e) if e != EEXIST => Err(e),
            Err(_) => Ok(DROPPED.load(Ordering::Relaxed) as isize),
        }
    }
}

/// Tries to keep, and to hand out, the file it is lent in `open` and `release`.
struct FileRef;

#[vtable]
impl MiscDevice for FileRef {
    type Ptr = ();

    fn open(file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        // A reference to a file that is not open yet could be installed in a descriptor.
        OPEN_GET.store(outcome(file.try_get()), Ordering::Relaxed);
        // `open` runs with the misc core's lock held, which registering takes.
        let child = KBox::pin_init(
            MiscDeviceRegistration::<Leaked>::register(opts(c"hostile-in-open")),
            GFP_KERNEL,
        );
        OPEN_REGISTER.store(outcome(child), Ordering::Relaxed);
        Ok(())
    }

    fn release(_device: (), file: &File) {
        // A reference to a file whose count is zero would resurrect it.
        RELEASE_GET.store(outcome(file.try_get()), Ordering::Relaxed);
        // An exiting task has no file table any more when its files are released.
        let fd = FileDescriptorReservation::get_unused_fd_flags(flags::O_CLOEXEC);
        RELEASE_FD.store(outcome(fd), Ordering::Relaxed);
        RELEASE_FGET.store(outcome(LocalFile::fget(0)), Ordering::Relaxed);
    }

    fn ioctl(_device: (), file: &File, cmd: u32, _arg: usize) -> Result<isize> {
        let got = match cmd {
            HOSTILE_OPEN_GET => OPEN_GET.load(Ordering::Relaxed),
            HOSTILE_OPEN_REGISTER => OPEN_REGISTER.load(Ordering::Relaxed),
            HOSTILE_RESET => {
                for what in [&RELEASE_GET, &RELEASE_FD, &RELEASE_FGET] {
                    what.store(NEVER, Ordering::Relaxed);
                }
                0
            }
            HOSTILE_RELEASE_GET => RELEASE_GET.load(Ordering::Relaxed),
            HOSTILE_RELEASE_FD => RELEASE_FD.load(Ordering::Relaxed),
            HOSTILE_RELEASE_FGET => RELEASE_FGET.load(Ordering::Relaxed),
            // The file of an ioctl is open and counted: this one must work.
            HOSTILE_IOCTL_GET => outcome(file.try_get()),
            _ => return Err(ENOTTY),
        };
        Ok(got as isize)
    }
}

/// Reads pages it allocated and never wrote.
struct StalePage;

#[vtable]
impl MiscDevice for StalePage {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let through_bvec = kiocb.ki_pos() != 0;
        let mut done = 0;
        while !iov.is_empty() {
            let page = Page::alloc_page(GFP_KERNEL)?;
            let n = if through_bvec {
                let segs = [BioVec::new(&page, 0, PAGE_SIZE)?];
                let mut buf = KVec::new();
                IovIterSource::with_bvec(&segs, |src| {
                    src.copy_from_iter_vec(&mut buf, GFP_KERNEL)
                })?;
                iov.copy_to_iter(&buf)
            } else {
                iov.copy_page_to_iter(&page, 0, PAGE_SIZE)?
            };
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(done)
    }
}

/// Allocates whatever size user space asks for.
struct Big;

#[vtable]
impl MiscDevice for Big {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn write_iter(kiocb: Kiocb<'_, ()>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        if kiocb.ki_pos() == 0 {
            iov.copy_from_iter_vec(&mut KVec::new(), GFP_KERNEL)
        } else {
            iov.copy_from_iter_vec(&mut KVVec::new(), GFP_KERNEL)
        }
    }

    fn ioctl(_device: (), _file: &File, cmd: u32, arg: usize) -> Result<isize> {
        match cmd {
            HOSTILE_ALLOC_KVEC => {
                Ok(KVec::<u8>::with_capacity(arg, GFP_KERNEL)?.capacity() as isize)
            }
            HOSTILE_ALLOC_KVVEC => {
                Ok(KVVec::<u8>::with_capacity(arg, GFP_KERNEL)?.capacity() as isize)
            }
            HOSTILE_EMPTY_NAME => {
                let options = MiscDeviceOptions { name: c"" };
                KBox::pin_init(
                    MiscDeviceRegistration::<Leaked>::register(options),
                    GFP_KERNEL,
                )?;
                Err(EEXIST)
            }
            HOSTILE_LONG_NAME => {
                let name = core::ffi::CStr::from_bytes_with_nul(&LONG_NAME).map_err(|_| EINVAL)?;
                let options = MiscDeviceOptions { name };
                KBox::pin_init(
                    MiscDeviceRegistration::<Leaked>::register(options),
                    GFP_KERNEL,
                )?;
                Err(EEXIST)
            }
            HOSTILE_ALLOC_FLAGS => {
                let high = KVec::<u8>::with_capacity(16384, GFP_KERNEL | __GFP_HIGHMEM)?;
                let any = KBox::new([0u8; 64], !__GFP_ZERO)?;
                // `__GFP_MOVABLE | __GFP_RECLAIMABLE` among the bits: no migrate type.
                let _page = Page::alloc_page(!__GFP_NOWARN)?;
                Ok((high.capacity() + any.len()) as isize)
            }
            HOSTILE_ALLOC_ATOMIC => {
                let lock = KBox::pin_init(new_spinlock!(()), GFP_KERNEL)?;
                // Above what kmalloc serves: vmalloc'ed.
                let mut big = KVVec::<u8>::with_capacity(8 << 20, GFP_KERNEL)?;
                let _guard = lock.lock();
                let grown = big.reserve(16 << 20, GFP_ATOMIC).is_ok();
                let made = VVec::<u8>::with_capacity(PAGE_SIZE, GFP_ATOMIC).is_ok();
                Ok(isize::from(grown) + 2 * isize::from(made))
            }
            HOSTILE_USER_FROM_WORK => user_from_work(arg),
            _ => Err(ENOTTY),
        }
    }
}

/// Reads user memory at `addr` from a work item: a kworker has no user memory of its own, but
/// runs on the page tables of the task that ran last on its CPU, here the caller waiting for it.
fn user_from_work(addr: usize) -> Result<isize> {
    let done = Arc::pin_init(new_mutex!(None::<Result<usize>>), GFP_KERNEL)?;
    let wake = Arc::pin_init(new_condvar!(), GFP_KERNEL)?;
    let (done2, wake2) = (done.clone(), wake.clone());
    workqueue::system().try_spawn(GFP_KERNEL, move || {
        let mut buf = [0u8; 16];
        let read = UserSlice::new(UserPtr::from_addr(addr), buf.len())
            .reader()
            .read_slice(&mut buf)
            .map(|()| buf.len());
        *done2.lock() = Some(read);
        wake2.notify_all();
    })?;
    let mut guard = done.lock();
    loop {
        if let Some(read) = *guard {
            return read.map(|n| n as isize);
        }
        wake.wait(&mut guard);
    }
}
