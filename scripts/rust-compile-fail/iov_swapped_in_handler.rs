// SPDX-License-Identifier: GPL-2.0
// expect: E0521
//! Misuse: putting another iterator in place of the one a `read_iter` handler was lent.
//!
//! C goes on using the iterator after the handler returns (io_uring restores its count and
//! retries from a worker): another one, over other memory, would be walked with the caller's
//! count, out of bounds. Safe code owns no iterator, and the one a closure gets has a lifetime
//! nothing else can name, so it cannot be swapped with the handler's.

use kernel::fs::{File, Kiocb};
use kernel::iov::IovIterDest;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;

/// A device whose reads swap their iterator with one over nothing.
pub struct Swapper;

#[vtable]
impl MiscDevice for Swapper {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        IovIterDest::with_discard(16, |other| {
            #[cfg(misuse)]
            core::mem::swap(iov, other);
            #[cfg(not(misuse))]
            other.advance(iov.len());
        });
        Ok(0)
    }
}
