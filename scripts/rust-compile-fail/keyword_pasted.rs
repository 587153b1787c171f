// SPDX-License-Identifier: GPL-2.0
// expect: proc macro panicked
//! Misuse: making the `unsafe` keyword out of pieces with `paste!`.
//!
//! `Ident::new("unsafe")` is the keyword itself, so a module whose source never says `unsafe`
//! would get an `unsafe` block, and with it any write to any address. `paste!` (and
//! `concat_idents!`) refuse to make a keyword.

use kernel::macros::paste;

/// Reads a byte at an address (misuse).
#[cfg(misuse)]
pub fn peek(addr: usize) -> u8 {
    paste! { [<un safe>] { core::ptr::read_volatile(addr as *const u8) } }
}

/// Truncates an address to a byte (control: a pasted identifier that is not a keyword).
#[cfg(not(misuse))]
pub fn peek(addr: usize) -> u8 {
    paste! { [<trunc ate>](addr) }
}

#[cfg(not(misuse))]
fn truncate(addr: usize) -> u8 {
    addr as u8
}
