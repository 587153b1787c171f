// SPDX-License-Identifier: GPL-2.0

//! Module parameters.
//!
//! C header: [`include/linux/moduleparam.h`](srctree/include/linux/moduleparam.h)
//!
//! A module declares its parameters in the `params` key of [`module!`](crate::prelude::module),
//! as in mainline Linux: a name, a Rust integer type (`u8`, `i16`, `u16`, `i32`, `u32`, `i64`,
//! `u64`, `isize`, `usize`; `bool` too), a default and a description. The macro puts a
//! [`ModuleParamAccess`] static holding the value in the module's `module_parameters` module, read
//! with `value()` as in mainline, a [`KernelParam`] describing it in the `__param` section (where
//! the kernel finds the parameters of built-in code and of loaded modules) and `parm`/`parmtype`
//! strings in `.modinfo` (for `modinfo`). The values are parsed by the kernel's C parsers
//! (`param_ops_ulong`, ...), so they accept what `module_param()` accepts.
//!
//! The parameters are read-only after load: their files in `/sys/module/<name>/parameters/` have
//! mode 0444. The kernel sets them from the command line (`<name>.<param>=value`, built-in code)
//! or from the `insmod`/`modprobe` arguments before the module's `init` runs, and never
//! afterwards, so the module reads them without a lock.
//!
//! # Examples
//!
//! ```ignore
//! use kernel::prelude::*;
//!
//! module! {
//!     type: Buffer,
//!     name: "rust_buffer",
//!     license: "GPL",
//!     params: {
//!         size: usize {
//!             default: 4096,
//!             description: "size of the buffer in bytes",
//!         },
//!     },
//! }
//!
//! struct Buffer;
//!
//! impl kernel::Module for Buffer {
//!     fn init(_module: &'static ThisModule) -> Result<Self> {
//!         pr_info!("{} bytes\n", *module_parameters::size.value());
//!         Ok(Self)
//!     }
//! }
//! ```

use crate::{bindings, ffi::c_void, str::CStr};
use core::cell::UnsafeCell;

/// The value of a module parameter of type `T`, set by the kernel before the module runs.
///
/// Declared by [`module!`](crate::prelude::module), not by hand.
///
/// # Invariants
///
/// The value is only written by the kernel's parameter parsing, before the code of the module
/// that owns it first runs, and never while that code runs.
#[repr(transparent)]
pub struct ModuleParamAccess<T: Copy>(UnsafeCell<T>);

// SAFETY: By the type invariants nothing writes the value while the module's code may read it,
// from any thread.
unsafe impl<T: Copy + Send> Sync for ModuleParamAccess<T> {}

impl<T: Copy> ModuleParamAccess<T> {
    /// Creates the storage of a parameter with the value it has when none is given.
    ///
    /// # Safety
    ///
    /// The value may only be written by the kernel's parameter parsing, through a
    /// [`KernelParam`] with read-only permissions whose `ops` write a `T`, before the module
    /// runs.
    #[doc(hidden)]
    pub const unsafe fn new(default: T) -> Self {
        // INVARIANT: The caller guarantees how the value is written.
        Self(UnsafeCell::new(default))
    }

    /// Returns the value of the parameter.
    #[inline]
    pub fn value(&self) -> &T {
        // SAFETY: By the type invariants nothing writes the value while module code runs.
        unsafe { &*self.0.get() }
    }

    /// Returns the address the kernel's parameter parsing writes to.
    #[doc(hidden)]
    pub const fn as_arg(&self) -> *mut c_void {
        self.0.get().cast()
    }
}

/// A `struct kernel_param`: one parameter as the kernel's parameter parsing sees it.
///
/// Declared by [`module!`](crate::prelude::module), not by hand.
///
/// Like C's, it is never written after it is built, so it is a plain (read-only) static, not an
/// `Opaque` one.
#[repr(transparent)]
pub struct KernelParam(bindings::kernel_param);

// SAFETY: The C side only reads the structure; every pointer in it refers to static data, and
// the value it points to is synchronised as described by `ModuleParamAccess`.
unsafe impl Sync for KernelParam {}

impl KernelParam {
    /// Describes a read-only parameter named `name` (`<module>.<param>` for built-in code,
    /// `<param>` for a loadable module), parsed and printed by `ops`, stored at `arg`.
    ///
    /// # Safety
    ///
    /// - `module` is the module that owns the parameter (null for built-in code).
    /// - `ops` reads and writes a value of the type of the [`ModuleParamAccess`] at `arg`, which
    ///   was returned by [`ModuleParamAccess::as_arg`] on a static.
    #[doc(hidden)]
    pub const unsafe fn new(
        name: &'static CStr,
        module: *mut bindings::module,
        ops: *const bindings::kernel_param_ops,
        arg: *mut c_void,
    ) -> Self {
        Self(bindings::kernel_param {
            name: name.as_char_ptr(),
            mod_: module,
            ops,
            // Read-only for everyone: the value cannot change under the module.
            perm: 0o444,
            // Not an early parameter (C's `module_param()` also uses -1).
            level: -1,
            flags: 0,
            __bindgen_anon_1: bindings::kernel_param__bindgen_ty_1 { arg },
        })
    }
}
