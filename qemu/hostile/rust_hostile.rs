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
//!   which fails, and returns how many registration data values were dropped since load.
//! - `hostile-leaked`: registered at load and leaked, so nothing deregisters it when the module
//!   goes away.
//!
//! None names an owner module: the module must not unload while one of its files is open.

use core::{
    fmt,
    sync::atomic::{AtomicUsize, Ordering},
};
use kernel::{
    fs::{File, Kiocb},
    ioctl::_IO,
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    prelude::*,
    seq_file::SeqFile,
    seq_print,
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
        if dup.is_ok() {
            return Err(EINVAL);
        }
        Ok(DROPPED.load(Ordering::Relaxed) as isize)
    }
}
