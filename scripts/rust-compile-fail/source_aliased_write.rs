// SPDX-License-Identifier: GPL-2.0
// expect: E0502
//! Misuse: writing to a buffer while a source iterator reads from it.
//!
//! A source borrows its memory shared; nothing may change it under the iterator.

use kernel::iov::IoSlice;
use kernel::prelude::*;

/// Changes the buffer while (misuse) or after (control) the iterator reads it.
pub fn case() -> Result<u8> {
    let mut buf = KVec::from_elem(1u8, 8, GFP_KERNEL)?;
    let mut out = [0u8; 1];
    IoSlice::new(&buf).with_source(|src| {
        #[cfg(misuse)]
        {
            buf[0] = 2;
        }
        src.copy_from_iter_full(&mut out)
    })?;
    buf[0] = 2;
    Ok(out[0] + buf[0])
}
