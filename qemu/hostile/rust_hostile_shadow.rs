// SPDX-License-Identifier: GPL-2.0

//! A module whose crate has an item named `kernel` where it invokes `module!`, in safe code only
//! (the build refuses the word `unsafe`).
//!
//! `module!` builds `THIS_MODULE` inside an `unsafe` block at the place it is invoked; with
//! relative paths there, this crate's `kernel::types::Opaque` would hand
//! `ThisModule::from_ptr()` a pointer of its choosing, and unloading would use it.
//! `hostile_test.c` loads and unloads the module.

use ::kernel::prelude::*;

/// What `kernel::` means in this module of the crate (unused since `module!` says `::kernel::`).
#[allow(dead_code, unused_imports)]
mod kernel {
    pub(crate) use ::kernel::{bindings, ThisModule};

    pub(crate) mod types {
        /// Not the kernel's `Opaque`: its `get()` returns an address that is no module.
        #[repr(C)]
        pub(crate) struct Opaque<T> {
            _none: [u8; 0],
            _type: core::marker::PhantomData<T>,
        }

        impl<T> Opaque<T> {
            /// The address a `module!` with relative paths would take for the module.
            pub(crate) const fn get(&self) -> *mut T {
                0x4141_4141_4141_4140usize as *mut T
            }
        }
    }
}

module! {
    type: Shadowed,
    name: "rust_hostile_shadow",
    author: "Rust for Linux Contributors",
    description: "An item named kernel where module! is invoked (test module)",
    license: "GPL",
}

struct Shadowed;

impl ::kernel::Module for Shadowed {
    fn init(module: &'static ThisModule) -> Result<Self> {
        let forged = module.as_ptr() as usize == 0x4141_4141_4141_4140;
        pr_info!("rust_hostile_shadow: THIS_MODULE forged: {forged}\n");
        Ok(Shadowed)
    }
}
