// SPDX-License-Identifier: GPL-2.0
// expect: E0505
//! Misuse: freeing a buffer while its pages are lent by `extract_pages`.
//!
//! `extract_pages` holds nothing on the pages of kernel memory, so the pages it lends its
//! closure are only valid while the buffer is borrowed.

use kernel::iov::{IoSlice, IovIterSource};
use kernel::prelude::*;

/// Frees the buffer while (misuse) or after (control) its pages are lent.
pub fn case() -> Result<usize> {
    let buf = KVec::from_elem(0u8, 64, GFP_KERNEL)?;
    let segs = [IoSlice::new(&buf)];
    let n = IovIterSource::with_kvec(&segs, |src| {
        src.extract_pages::<1, _>(64, |pages| {
            #[cfg(misuse)]
            drop(buf);
            pages.len()
        })
    })?;
    #[cfg(not(misuse))]
    drop(buf);
    Ok(n)
}
