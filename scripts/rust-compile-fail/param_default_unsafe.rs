// SPDX-License-Identifier: GPL-2.0
// expect: E0133
//! Misuse: a module parameter whose default does something `unsafe` without saying so.
//!
//! `module!` used to paste the default into its own `unsafe` block; now it is evaluated outside
//! it, and an `unsafe` operation there needs an `unsafe` block of the driver's own.

use kernel::prelude::*;

/// Something only `unsafe` code may call.
///
/// # Safety
///
/// None needed here; the point is that callers must say `unsafe`.
pub const unsafe fn secret() -> i32 {
    42
}

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
    name: "param_default_unsafe",
    license: "GPL",
    params: {
        value: i32 {
            default: crate::secret(),
            description: "a value",
        },
    },
}

#[cfg(not(misuse))]
module! {
    type: Params,
    name: "param_default_unsafe",
    license: "GPL",
    params: {
        value: i32 {
            default: 42,
            description: "a value",
        },
    },
}
