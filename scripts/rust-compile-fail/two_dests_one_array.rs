// SPDX-License-Identifier: GPL-2.0
// expect: E0499
//! Misuse: two destination iterators over the same segment array.
//!
//! Destinations borrow their segment array mutably, so two of them cannot write to the same
//! buffers at once.

use kernel::iov::{IoSliceMut, IovIterDest};

/// Builds a second destination while (misuse) or after (control) the first is used.
pub fn case() -> usize {
    let mut buf = [0u8; 8];
    let mut segs = [IoSliceMut::new(&mut buf)];
    let mut first = IovIterDest::kvec(&mut segs);
    #[cfg(misuse)]
    let mut second = IovIterDest::kvec(&mut segs);
    let n = first.zero(4);
    #[cfg(not(misuse))]
    let mut second = IovIterDest::kvec(&mut segs);
    n + second.zero(4)
}
