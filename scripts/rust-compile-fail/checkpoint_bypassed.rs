// SPDX-License-Identifier: GPL-2.0
// expect: E0499
//! Misuse: moving the iterator behind the back of a checkpoint guard.
//!
//! The guard borrows the iterator mutably until it is committed or dropped; all moves in between
//! go through the guard.

use kernel::iov::{IoSlice, IovIter};

/// Advances the iterator directly while (misuse) or after (control) a guard holds it.
pub fn case() -> usize {
    let data = [0u8; 8];
    let seg = IoSlice::new(&data);
    let mut src = seg.source();
    let mut guard = src.checkpoint();
    #[cfg(misuse)]
    src.advance(1);
    guard.advance(2);
    guard.commit();
    #[cfg(not(misuse))]
    src.advance(1);
    src.len()
}
