// SPDX-License-Identifier: GPL-2.0
// expect: E0277
//! Misuse: a `release` handler that turns the file it is lent into a new reference.
//!
//! `release` runs inside `__fput()` after the file's last reference is gone, and the VFS frees
//! the file when it returns. A reference taken there would take the count from zero and queue
//! a second `__fput()` of a freed file. `File` is therefore not `AlwaysRefCounted`: a borrow
//! alone gives no `ARef<File>`; `File::try_get()` does, and refuses this file.

use kernel::fs::File;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;
#[cfg(misuse)]
use kernel::sync::aref::ARef;

/// A device that keeps its file past `release`.
pub struct Resurrect;

#[vtable]
impl MiscDevice for Resurrect {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn release(_device: (), file: &File) {
        #[cfg(misuse)]
        drop(ARef::from(file));
        #[cfg(not(misuse))]
        let _ = file.try_get();
    }
}
