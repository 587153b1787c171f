// SPDX-License-Identifier: GPL-2.0
// expect: E0507
// expect: E0521
//! Misuse: assigning another iterator over the one a `read_iter` handler was lent.
//!
//! Safe code gets iterators only by reference, so there is no value to assign.

use kernel::fs::{File, Kiocb};
use kernel::iov::IovIterDest;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;

/// A device whose reads replace their iterator with one over nothing.
pub struct Replacer;

#[vtable]
impl MiscDevice for Replacer {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        IovIterDest::with_discard(16, |other| {
            #[cfg(misuse)]
            {
                *iov = *other;
            }
            #[cfg(not(misuse))]
            other.advance(iov.len());
        });
        Ok(0)
    }
}
