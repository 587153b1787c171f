// SPDX-License-Identifier: GPL-2.0
// expect: E0277
//! Misuse: an `open` handler that installs the file it is opening in a file descriptor.
//!
//! The file is not open until `open` returns: another thread could reach it through the
//! descriptor while its private data is still the misc core's, and if `open` failed the
//! descriptor would be left to a torn-down file. A borrow gives no `ARef<File>`, and
//! `File::try_get()` refuses a file that is not open yet.

use kernel::fs::file::{flags, FileDescriptorReservation};
use kernel::fs::File;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;
#[cfg(misuse)]
use kernel::sync::aref::ARef;

/// A device that publishes its file before it is open.
pub struct Publish;

#[vtable]
impl MiscDevice for Publish {
    type Ptr = ();

    fn open(file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        let fd = FileDescriptorReservation::get_unused_fd_flags(flags::O_CLOEXEC)?;
        #[cfg(misuse)]
        fd.fd_install(ARef::from(file));
        #[cfg(not(misuse))]
        if let Ok(file) = file.try_get() {
            fd.fd_install(file);
        }
        Ok(())
    }
}
