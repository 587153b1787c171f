// SPDX-License-Identifier: GPL-2.0
// expect: no rules expected `::`
//! Misuse: printing with a format string of the module's own through `print_macro!`.
//!
//! `print_macro!` is exported (hidden) for `pr_info!` and the other printing macros, and took
//! any path to a `[u8; 10]` as printk's format, inside its own `unsafe` block: `"%s%s%s%s"`
//! read arguments nobody passed (a KASAN report, then an oops in the guest). It now takes the
//! name of one of the kernel's fixed format strings.

use kernel::prelude::*;

module! {
    type: Printer,
    name: "print_format_own",
    license: "GPL",
}

/// The module.
pub struct Printer;

impl kernel::Module for Printer {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        print_line();
        Ok(Printer)
    }
}

/// A printk format string of the kernel's length (misuse: four strings, one argument).
pub static OWN_FORMAT: [u8; 10] = *b"%s%s%s%s\0\0";

/// Prints a line.
pub fn print_line() {
    #[cfg(misuse)]
    kernel::print_macro!(crate::OWN_FORMAT, false, "x\n");
    #[cfg(not(misuse))]
    pr_info!("x {}\n", OWN_FORMAT.len());
}
