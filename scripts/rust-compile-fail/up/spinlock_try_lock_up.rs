// SPDX-License-Identifier: GPL-2.0
// expect: E0599
//! Misuse: `try_lock` on a spinlock of a uniprocessor kernel without `CONFIG_DEBUG_SPINLOCK`.
//!
//! Such a spinlock has no state, and `spin_trylock()` always succeeds: a second guard of a lock
//! the caller holds would give two `&mut` to its data. `try_lock` is only there for backends
//! that fail while the lock is held. Built against a kernel configured that way (lint's
//! `build/obj-up`); on the test kernels (SMP) the same code compiles, and the second
//! `try_lock` fails.

use kernel::prelude::*;
use kernel::sync::new_spinlock;

/// Takes a spinlock, then tries it again (misuse) or not (control).
pub fn case() -> Result<u8> {
    let lock = KBox::pin_init(new_spinlock!(5u8), GFP_KERNEL)?;
    let mut guard = lock.lock();
    #[cfg(misuse)]
    if let Some(mut second) = lock.try_lock() {
        *second += 1;
    }
    *guard += 1;
    Ok(*guard)
}
