// SPDX-License-Identifier: GPL-2.0
// expect: E0502
//! Misuse: reading a buffer while a destination iterator may still write to it.
//!
//! A destination borrows its memory mutably; the buffer cannot be looked at until the iterator
//! is gone.

use kernel::iov::IoSliceMut;
use kernel::prelude::*;

/// Peeks at the buffer while (misuse) or after (control) the iterator uses it.
pub fn case() -> Result<u8> {
    let mut buf = KVec::from_elem(0u8, 8, GFP_KERNEL)?;
    let mut seg = IoSliceMut::new(&mut buf);
    seg.with_dest(|dst| {
        #[cfg(misuse)]
        let _peek = buf[0];
        dst.copy_to_iter_full(b"abc")
    })?;
    let peek = buf[0];
    Ok(peek)
}
