// SPDX-License-Identifier: GPL-2.0
// expect: lifetime may not live long enough
//! Misuse: keeping the iterator reached through a checkpoint guard after the checkpoint ends.
//!
//! When the closure returns, the checkpoint writes the saved position back into the iterator; a
//! reference taken through the guard would then see the iterator change under it. It cannot
//! leave the closure.

use kernel::iov::{IoSlice, IovIter, IovIterSource};

/// Keeps (misuse) or only uses (control) the iterator reached through the guard.
pub fn case() -> usize {
    let data = [0u8; 8];
    IoSlice::new(&data).with_source(|src| {
        let left = src.checkpoint(|cp| {
            let inner: &mut IovIterSource<'_> = cp;
            inner.advance(3);
            #[cfg(misuse)]
            let out = inner;
            #[cfg(not(misuse))]
            let out = inner.len();
            out
        });
        #[cfg(misuse)]
        let n = left.len();
        #[cfg(not(misuse))]
        let n = left;
        n + src.len()
    })
}
