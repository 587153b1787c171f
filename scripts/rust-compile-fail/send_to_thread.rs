// SPDX-License-Identifier: GPL-2.0
// expect: E0277
//! Misuse: sending an iterator to another thread.
//!
//! An iterator is not `Send`: its C iterator belongs to the calling context. Anything that
//! runs work elsewhere (workqueues, kthreads) requires `Send`.

use kernel::iov::IovIterDest;

/// Requires what a thread-spawning API requires of the value it moves.
fn to_other_thread<T: Send>(value: T) -> T {
    value
}

/// Sends the iterator (misuse) or only its length (control).
pub fn case() -> usize {
    IovIterDest::with_discard(16, |dst| {
        #[cfg(misuse)]
        let dst = to_other_thread(dst);
        #[cfg(not(misuse))]
        let _len = to_other_thread(dst.len());
        dst.len()
    })
}
