// SPDX-License-Identifier: GPL-2.0

//! A misc device built out of tree: a log per open file.
//!
//! Each write appends to the log of its open file, up to [`CAPACITY`] bytes; a write that
//! finds it full fails with `ENOSPC`. Reads return the log from the file position. The log
//! goes with the last close.
//!
//! It uses only API that mainline has too.

use kernel::fs::{File, Kiocb};
use kernel::iov::{IovIterDest, IovIterSource};
use kernel::miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration};
use kernel::{new_mutex, prelude::*, sync::Mutex};

module! {
    type: OutOfTreeModule,
    name: "rust_out_of_tree",
    authors: ["Rust for Linux Contributors"],
    description: "A misc device built out of tree: a log per open file",
    license: "GPL",
}

/// How many bytes the log of one open file holds.
const CAPACITY: usize = 16 * 1024;

#[pin_data]
struct OutOfTreeModule {
    #[pin]
    _misc: MiscDeviceRegistration<OpenLog>,
}

impl kernel::InPlaceModule for OutOfTreeModule {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        pr_info!("loaded\n");
        let options = MiscDeviceOptions {
            name: c"rust-out-of-tree",
        };
        try_pin_init!(Self {
            _misc <- MiscDeviceRegistration::register(options)
        })
    }
}

/// The log of one open file.
#[pin_data]
struct OpenLog {
    #[pin]
    log: Mutex<KVVec<u8>>,
}

#[vtable]
impl MiscDevice for OpenLog {
    type Ptr = Pin<KBox<Self>>;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        KBox::try_pin_init(
            try_pin_init!(OpenLog {
                log <- new_mutex!(KVVec::new())
            }),
            GFP_KERNEL,
        )
    }

    fn read_iter(mut kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let me = kiocb.file();
        let log = me.log.lock();
        let n = iov.simple_read_from_buffer(kiocb.ki_pos_mut(), &log)?;
        // Nothing copied with bytes left on both sides: the user buffer faulted.
        let left = usize::try_from(kiocb.ki_pos()).is_ok_and(|pos| pos < log.len());
        if n == 0 && left && !iov.is_empty() {
            return Err(EFAULT);
        }
        Ok(n)
    }

    fn write_iter(kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let me = kiocb.file();
        let mut log = me.log.lock();
        // Through a buffer on the stack: no allocation sized by the caller, and the log takes
        // no more than it has room for.
        let mut chunk = [0u8; 256];
        let mut written = 0;
        while !iov.is_empty() && log.len() < CAPACITY {
            let want = chunk.len().min(CAPACITY - log.len()).min(iov.len());
            // Room first: once copied, the bytes are gone from the iterator.
            if let Err(e) = log.reserve(want, GFP_KERNEL) {
                if written > 0 {
                    break;
                }
                return Err(e.into());
            }
            let n = iov.copy_from_iter(&mut chunk[..want]);
            if n == 0 {
                break;
            }
            // Cannot fail: the room is reserved.
            log.extend_from_slice(&chunk[..n], GFP_NOWAIT)?;
            written += n;
        }
        if written == 0 && !iov.is_empty() {
            return Err(if log.len() < CAPACITY { EFAULT } else { ENOSPC });
        }
        Ok(written)
    }
}
