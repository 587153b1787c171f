// SPDX-License-Identifier: GPL-2.0
// expect: lifetime may not live long enough
//! Misuse: keeping the pages taken from an iterator, to leak their pins.
//!
//! Leaking a value is safe (`core::mem::forget`), so pages returned by value could have their
//! pins or references leaked, again and again, until a page's count overflowed. The pages are
//! lent to a closure and released when it returns: they cannot be taken out of it.

use kernel::fs::{File, Kiocb};
use kernel::iov::IovIterDest;
use kernel::miscdevice::{MiscDevice, MiscDeviceRegistration};
use kernel::prelude::*;

/// A device whose reads pin their user buffer and forget the pins.
pub struct Pinner;

#[vtable]
impl MiscDevice for Pinner {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        Ok(())
    }

    fn read_iter(_kiocb: Kiocb<'_, ()>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        #[cfg(misuse)]
        {
            let kept = iov.extract_pages::<1, _>(16, |pages| pages)?;
            core::mem::forget(kept);
        }
        #[cfg(not(misuse))]
        iov.extract_pages::<1, _>(16, |pages| pages.len())?;
        Ok(0)
    }
}
