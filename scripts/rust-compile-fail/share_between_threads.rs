// SPDX-License-Identifier: GPL-2.0
// expect: E0277
//! Misuse: sharing an iterator between threads.
//!
//! An iterator is not `Sync`: even its read-only queries call C functions that assume a single
//! user.

use kernel::iov::IoSlice;

/// Requires what sharing a reference with another thread requires.
fn share<T: Sync + ?Sized>(value: &T) -> &T {
    value
}

/// Shares the iterator (misuse) or its data (control).
pub fn case() -> usize {
    let data = [0u8; 4];
    IoSlice::new(&data).with_source(|src| {
        #[cfg(misuse)]
        let n = share(&*src).len();
        #[cfg(not(misuse))]
        let n = share(&data[..]).len();
        n + src.len()
    })
}
