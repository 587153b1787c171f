// SPDX-License-Identifier: GPL-2.0
// expect: unsafe attribute used without unsafe
//! Misuse: placing a static in a section by an attribute that does not say `unsafe`.
//!
//! The loader makes `.data..ro_after_init` read-only once `init` has returned: a counter placed
//! there and incremented later faults (an oops in the guest). Kbuild forbids `link_section`,
//! `no_mangle` and `export_name` unless written `#[unsafe(...)]`.

use core::sync::atomic::{AtomicU32, Ordering};

/// Counts calls (misuse: in memory that becomes read-only after init).
#[cfg_attr(misuse, link_section = ".data..ro_after_init")]
pub static CALLS: AtomicU32 = AtomicU32::new(0);

/// Counts a call.
pub fn count() -> u32 {
    CALLS.fetch_add(1, Ordering::Relaxed)
}
