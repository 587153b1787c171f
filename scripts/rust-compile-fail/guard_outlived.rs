// SPDX-License-Identifier: GPL-2.0
// expect: E0505
//! Misuse: keeping the iterator reached through a checkpoint guard after the guard is gone.
//!
//! Dropping the guard writes the saved position back into the iterator; a reference taken
//! through the guard would then see the iterator change under it. It borrows the guard, so the
//! guard cannot be dropped while it is in use.

use kernel::iov::{IoSlice, IovIter, IovIterSource};

/// Advances through the guard, drops the guard, uses the iterator.
pub fn case() -> usize {
    let data = [0u8; 8];
    let seg = IoSlice::new(&data);
    let mut src = seg.source();
    let mut guard = src.checkpoint();
    let inner: &mut IovIterSource<'_> = &mut guard;
    inner.advance(3);
    #[cfg(misuse)]
    drop(guard);
    let left = inner.len();
    #[cfg(not(misuse))]
    drop(guard);
    left + src.len()
}
