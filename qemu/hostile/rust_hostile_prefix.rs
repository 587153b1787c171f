// SPDX-License-Identifier: GPL-2.0

//! A module that gives its crate a log prefix of its own, without a NUL, in safe code only (the
//! build refuses the word `unsafe`).
//!
//! The printing macros pass `crate::__LOG_PREFIX`, the one `module!` generates at the root of
//! the crate, to printk's `%s`. With `module!` invoked in a submodule, the root is free to
//! define its own: printk must not read past its end. `hostile_test.c` loads the module and
//! looks for its line in the kernel log.

use kernel::prelude::*;

/// What the printing macros of this crate take for the module's name.
const __LOG_PREFIX: &[u8] = b"hostile-prefix-without-end";

mod loadable {
    use super::Prefixed;
    use kernel::prelude::*;

    module! {
        type: Prefixed,
        name: "rust_hostile_prefix",
        author: "Rust for Linux Contributors",
        description: "A log prefix without a NUL (test module)",
        license: "GPL",
    }
}

struct Prefixed;

impl kernel::Module for Prefixed {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        pr_info!("printed under a prefix without a NUL\n");
        Ok(Prefixed)
    }
}
