// SPDX-License-Identifier: GPL-2.0
// expect: E0505
//! Misuse: freeing the buffer while a source iterator over it is still in use.
//!
//! The iterator borrows its memory for `'data`, so the buffer cannot be moved into `drop` while
//! the iterator is alive.

use kernel::iov::IoSlice;
use kernel::prelude::*;

/// Reads one byte after (misuse) or before (control) dropping the buffer.
pub fn case() -> Result<u8> {
    let buf = KVec::from_elem(7u8, 16, GFP_KERNEL)?;
    let seg = IoSlice::new(&buf);
    let mut out = [0u8; 1];
    seg.with_source(|src| {
        #[cfg(misuse)]
        drop(buf);
        src.copy_from_iter_full(&mut out)
    })?;
    #[cfg(not(misuse))]
    drop(buf);
    Ok(out[0])
}
