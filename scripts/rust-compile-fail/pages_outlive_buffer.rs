// SPDX-License-Identifier: GPL-2.0
// expect: E0505
//! Misuse: keeping extracted kernel pages after the buffer they belong to is freed.
//!
//! `extract_pages` holds nothing on the pages of kernel memory, so its result borrows that
//! memory for the iterator's `'data`.

use kernel::iov::{IoSlice, IovIterSource};
use kernel::prelude::*;

/// Uses the extracted pages after (misuse) or before (control) freeing the buffer.
pub fn case() -> Result<usize> {
    let buf = KVec::from_elem(0u8, 64, GFP_KERNEL)?;
    let segs = [IoSlice::new(&buf)];
    let n = IovIterSource::with_kvec(&segs, |src| {
        let pages = src.extract_pages::<1>(64)?;
        #[cfg(misuse)]
        drop(buf);
        let n = pages.len();
        drop(pages);
        Ok::<usize, Error>(n)
    })?;
    #[cfg(not(misuse))]
    drop(buf);
    Ok(n)
}
