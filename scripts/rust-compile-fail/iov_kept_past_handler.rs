// SPDX-License-Identifier: GPL-2.0
// expect: E0521
//! Misuse: keeping the iterator a `read_iter` handler was given after the handler returns.
//!
//! The VFS owns the C iterator and the memory behind it only for the call; the handler gets a
//! reference whose lifetimes end with the call, so it cannot be stored anywhere longer-lived.

use kernel::fs::{File, Kiocb};
use kernel::iov::IovIterDest;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;

/// Somewhere that outlives a call.
#[cfg_attr(not(misuse), allow(dead_code))]
fn keep(_iov: &'static mut IovIterDest<'static>) {}

/// A device whose reads store the iterator.
pub struct Keeper;

#[vtable]
impl MiscDevice for Keeper {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let n = iov.len();
        #[cfg(misuse)]
        keep(iov);
        Ok(n)
    }
}
