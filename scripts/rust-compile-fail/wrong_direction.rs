// SPDX-License-Identifier: GPL-2.0
// expect: E0599
//! Misuse: copying into a source iterator.
//!
//! Data only flows out of an `IovIterSource`: it has no `copy_to_iter` method at all.

use kernel::iov::IoSlice;

/// Copies into (misuse) or out of (control) a source iterator.
pub fn case() -> usize {
    let data = [0u8; 8];
    IoSlice::new(&data).with_source(|src| {
        #[cfg(misuse)]
        let n = src.copy_to_iter(b"abc");
        #[cfg(not(misuse))]
        let n = src.copy_from_iter(&mut [0u8; 3]);
        n
    })
}
