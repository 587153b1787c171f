// SPDX-License-Identifier: GPL-2.0
// expect: E0133
//! Misuse: moving an iterator back with C's `iov_iter_revert()` semantics without `unsafe`.
//!
//! `revert()` on the iterator trusts its caller not to go back before the start, as C does, so
//! it is `unsafe`; safe code goes back through a checkpoint guard, which checks.

#[cfg(not(misuse))]
use kernel::iov::IovIter;
use kernel::iov::IoSlice;
use kernel::prelude::*;

/// Reads two bytes, then goes back one of them.
pub fn case() -> Result<usize> {
    let data = [0u8; 8];
    IoSlice::new(&data).with_source(|src| {
        #[cfg(misuse)]
        {
            src.advance(2);
            src.revert(1);
        }
        #[cfg(not(misuse))]
        src.checkpoint(|cp| {
            cp.advance(2);
            cp.revert(1)?;
            cp.commit();
            Ok::<(), Error>(())
        })?;
        Ok(src.len())
    })
}
