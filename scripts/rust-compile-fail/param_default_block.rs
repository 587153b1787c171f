// SPDX-License-Identifier: GPL-2.0
// expect: proc macro panicked
//! Misuse: a module parameter whose default is a block.
//!
//! `module!` pastes the default into its expansion as text, where the compiler's lints on
//! unsafe code do not look: a block there declared a static with `#[link_section]` (which
//! Kbuild forbids elsewhere), written after `init` (an oops in the guest). A default may have no
//! blocks, attributes or macro calls.

use kernel::prelude::*;

/// The module.
pub struct Params;

impl kernel::Module for Params {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Params)
    }
}

#[cfg(misuse)]
module! {
    type: Params,
    name: "param_default_block",
    license: "GPL",
    params: {
        value: u32 {
            default: { 4 << 20 },
            description: "a value",
        },
    },
}

#[cfg(not(misuse))]
module! {
    type: Params,
    name: "param_default_block",
    license: "GPL",
    params: {
        value: u32 {
            default: 4 << 20,
            description: "a value",
        },
    },
}
