// SPDX-License-Identifier: GPL-2.0
// expect: E0505
//! Misuse: freeing the segment array while a `kvec` iterator walks it.
//!
//! The C code reads the `struct kvec` array as it moves, so the iterator borrows the array too.

use kernel::iov::{IoSlice, IovIterSource};
use kernel::prelude::*;

/// Moves over the segments after (misuse) or before (control) dropping the array.
pub fn case() -> Result<usize> {
    let a = [1u8; 4];
    let b = [2u8; 4];
    let mut segs = KVec::new();
    segs.push(IoSlice::new(&a), GFP_KERNEL)?;
    segs.push(IoSlice::new(&b), GFP_KERNEL)?;
    let n = IovIterSource::with_kvec(&segs, |src| {
        #[cfg(misuse)]
        drop(segs);
        src.advance(6);
        src.len()
    });
    #[cfg(not(misuse))]
    drop(segs);
    Ok(n)
}
