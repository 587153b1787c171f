// SPDX-License-Identifier: GPL-2.0
// expect: E0308
//! Misuse: building a destination iterator over memory that is only shared-borrowed.
//!
//! `IoSliceMut::new` takes `&mut [u8]`: a shared slice (here of a string literal in read-only
//! memory) cannot be written through.

use kernel::iov::IoSliceMut;

/// Builds a destination over a shared (misuse) or mutable (control) slice.
pub fn case() -> usize {
    let mut buf = [0u8; 5];
    #[cfg(misuse)]
    let mut seg = IoSliceMut::new(b"const");
    #[cfg(not(misuse))]
    let mut seg = IoSliceMut::new(&mut buf);
    let n = seg.with_dest(|dst| dst.copy_to_iter(b"xy"));
    n + usize::from(buf[0])
}
