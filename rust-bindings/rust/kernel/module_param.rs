// SPDX-License-Identifier: GPL-2.0

//! Module parameters.
//!
//! C header: [`include/linux/moduleparam.h`](srctree/include/linux/moduleparam.h)
//!
//! A module declares its parameters in the `params` key of [`module!`](crate::prelude::module),
//! as in mainline Linux: a name, a Rust integer type (`i8`, `u8`, `i16`, `u16`, `i32`, `u32`,
//! `i64`, `u64`, `isize`, `usize`; `bool` too), a default and a description. The macro puts a
//! [`ModuleParamAccess`] static holding the value in the module's `module_parameters` module, read
//! with `value()` as in mainline, a [`KernelParam`] describing it in the `__param` section (where
//! the kernel finds the parameters of built-in code and of loaded modules) and `parm`/`parmtype`
//! strings in `.modinfo` (for `modinfo`). The values are parsed by the kernel's C parsers
//! (`param_ops_ulong`, ...), so they accept what `module_param()` accepts; `i8`, which C has no
//! parser for, by [`PARAM_OPS_I8`], in the same way.
//!
//! The parameters are read-only after load: their files in `/sys/module/<name>/parameters/` have
//! mode 0444. The kernel sets them from the command line (`<name>.<param>=value`, built-in code)
//! or from the `insmod`/`modprobe` arguments before the module's `init` runs, and never
//! afterwards, so the module reads them without a lock.
//!
//! # Examples
//!
//! ```ignore
//! //! A buffer whose size is a module parameter.
//!
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

use crate::{
    bindings,
    ffi::{c_char, c_int, c_void},
    str::CStr,
};
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

/// The `kernel_param_ops` of an `i8` parameter, which C has none for (its `byte` is unsigned):
/// parsed like C's integer parameters, with `kstrtos8()` (an optional sign, then decimal, `0x`
/// hex or `0` octal, a trailing newline allowed; out of range is `ERANGE`, anything else
/// `EINVAL`), printed in decimal. Mainline has one under the same name.
///
/// # Examples
///
/// ```
/// use kernel::{bindings, c_str, module_param::PARAM_OPS_I8, str::CStr};
///
/// let mut value: i8 = 0;
/// // SAFETY: All zeroes is a valid `struct kernel_param`.
/// let mut kp: bindings::kernel_param = unsafe { core::mem::zeroed() };
/// kp.__bindgen_anon_1.arg = core::ptr::addr_of_mut!(value).cast();
/// let set = PARAM_OPS_I8.set.unwrap();
/// let parse = |text: &CStr| {
///     // SAFETY: `text` is NUL-terminated and `kp.arg` points to `value`, which only `set`
///     // accesses during the call.
///     unsafe { set(text.as_char_ptr(), &kp) }
/// };
/// assert_eq!(parse(c_str!("-128")), 0);
/// assert_eq!(value, -128);
/// assert_eq!(parse(c_str!("0x7f\n")), 0);
/// assert_eq!(value, 127);
/// assert_eq!(parse(c_str!("128")), ERANGE.to_errno());
/// assert_eq!(parse(c_str!("-129")), ERANGE.to_errno());
/// assert_eq!(parse(c_str!("1x")), EINVAL.to_errno());
/// assert_eq!(parse(c_str!("")), EINVAL.to_errno());
/// // A value that does not parse leaves the old one.
/// assert_eq!(value, 127);
/// ```
pub static PARAM_OPS_I8: bindings::kernel_param_ops = bindings::kernel_param_ops {
    flags: 0,
    set: Some(param_set_i8),
    get: Some(param_get_i8),
    free: None,
};

/// Parses `val` into the `i8` that `kp` points to (the `set` of [`PARAM_OPS_I8`]).
///
/// # Safety
///
/// `val` is a NUL-terminated string, and `kp` a `struct kernel_param` whose `arg` points to an
/// `i8` that nothing else accesses during the call.
unsafe extern "C" fn param_set_i8(val: *const c_char, kp: *const bindings::kernel_param) -> c_int {
    // SAFETY: The caller guarantees `val` and that `kp->arg` points to an `i8` that only this
    // call accesses; `kstrtos8()` writes it only when `val` parses.
    unsafe { bindings::kstrtos8(val, 0, (*kp).__bindgen_anon_1.arg.cast()) }
}

/// Prints the `i8` that `kp` points to into `buffer`, with a newline, as C's `param_get_*()`
/// do (the `get` of [`PARAM_OPS_I8`], for the parameter's file in sysfs).
///
/// # Safety
///
/// `buffer` is valid for writes of `PAGE_SIZE` bytes, and `kp` a `struct kernel_param` whose
/// `arg` points to an `i8` that nothing writes during the call.
unsafe extern "C" fn param_get_i8(buffer: *mut c_char, kp: *const bindings::kernel_param) -> c_int {
    // SAFETY: The caller guarantees that `kp->arg` points to an `i8` nothing writes meanwhile.
    let value = unsafe { *(*kp).__bindgen_anon_1.arg.cast::<i8>() };
    // SAFETY: The caller guarantees `PAGE_SIZE` bytes at `buffer`; the format is NUL-terminated
    // and takes the one `int` passed. `scnprintf()` returns at most `PAGE_SIZE - 1`.
    unsafe {
        bindings::scnprintf(
            buffer,
            crate::page::PAGE_SIZE,
            crate::c_str!("%d\n").as_char_ptr(),
            c_int::from(value),
        )
    }
}
