// SPDX-License-Identifier: GPL-2.0
// expect: E0500
// expect: E0501
//! Misuse: moving the iterator behind the back of a checkpoint guard.
//!
//! The guard borrows the iterator mutably for as long as its closure runs; all moves in between go
//! through the guard.

use kernel::iov::{IoSlice, IovIter};

/// Advances the iterator directly while (misuse) or after (control) a guard holds it.
pub fn case() -> usize {
    let data = [0u8; 8];
    IoSlice::new(&data).with_source(|src| {
        src.checkpoint(|cp| {
            #[cfg(misuse)]
            src.advance(1);
            cp.advance(2);
            cp.commit();
        });
        #[cfg(not(misuse))]
        src.advance(1);
        src.len()
    })
}
