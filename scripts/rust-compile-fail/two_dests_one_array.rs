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
    let n = IovIterDest::with_kvec(&mut segs, |first| {
        #[cfg(misuse)]
        IovIterDest::with_kvec(&mut segs, |second| second.zero(4));
        first.zero(4)
    });
    n + IovIterDest::with_kvec(&mut segs, |second| second.zero(4))
}
