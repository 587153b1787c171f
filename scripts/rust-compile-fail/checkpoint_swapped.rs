// SPDX-License-Identifier: GPL-2.0
// expect: E0521
//! Misuse: swapping the iterator behind a checkpoint guard with another one.
//!
//! The guard puts back the state it saved; behind it there must be the iterator it saved it
//! from. The guard dereferences to the iterator, but no other iterator of the same type (the
//! same lifetime) can be reached to swap it with.

use kernel::iov::{IoSlice, IovIter, IovIterSource};

/// Swaps (misuse) or only reads (control) inside a checkpoint.
pub fn case() -> usize {
    let a = [IoSlice::new(b"abcd")];
    let b = [IoSlice::new(b"efghijkl")];
    IovIterSource::with_kvec(&a, |src| {
        src.checkpoint(|cp| {
            IovIterSource::with_kvec(&b, |other| {
                #[cfg(misuse)]
                core::mem::swap(&mut **cp, other);
                #[cfg(not(misuse))]
                other.advance(cp.len());
            });
            cp.advance(2);
            cp.revert(2).map_or(0, |()| cp.len())
        })
    })
}
