// SPDX-License-Identifier: GPL-2.0

//! Sequence files: text that a file operation prints into, e.g. `/proc/<pid>/fdinfo/<fd>`.
//!
//! C header: [`include/linux/seq_file.h`](srctree/include/linux/seq_file.h)

use crate::{bindings, c_str, types::Opaque};

/// A `struct seq_file` being filled by one call, e.g. of `show_fdinfo`.
///
/// # Invariants
///
/// `inner` is a valid `struct seq_file`, used only by the current task while a reference exists
/// (the type is neither `Send` nor `Sync`: the C structure holds raw pointers).
#[repr(transparent)]
pub struct SeqFile {
    inner: Opaque<bindings::seq_file>,
}

impl SeqFile {
    /// Creates a reference to the `struct seq_file` at `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` points to a valid `struct seq_file` that, for `'a`, only the current task uses and
    /// only through the returned reference.
    #[inline]
    pub unsafe fn from_raw<'a>(ptr: *mut bindings::seq_file) -> &'a SeqFile {
        // INVARIANT: The caller guarantees validity and exclusive use for `'a`.
        // SAFETY: `SeqFile` is a transparent `struct seq_file`.
        unsafe { &*ptr.cast() }
    }

    /// Prints formatted text into the file; use [`seq_print!`](crate::seq_print) rather than this.
    #[inline]
    pub fn call_printf(&self, args: core::fmt::Arguments<'_>) {
        // SAFETY: By the type invariants the file is valid; `%pA` formats the `Arguments` that
        // the pointer points to, which lives until the call returns.
        unsafe {
            bindings::seq_printf(
                self.inner.get(),
                c_str!("%pA").as_char_ptr(),
                core::ptr::from_ref(&args).cast::<crate::ffi::c_void>(),
            )
        };
    }
}

/// Prints formatted text into a [`SeqFile`], as `seq_printf()` does in C.
///
/// # Examples
///
/// ```
/// use kernel::{bindings, seq_file::SeqFile, seq_print};
///
/// let mut buf = [0u8; 32];
/// // SAFETY: All zeroes is a valid `struct seq_file`.
/// let mut raw: bindings::seq_file = unsafe { core::mem::zeroed() };
/// raw.buf = buf.as_mut_ptr().cast();
/// raw.size = buf.len();
/// // SAFETY: `raw` outlives `m`, and only `m` uses it.
/// let m = unsafe { SeqFile::from_raw(&mut raw) };
/// seq_print!(m, "pos:\t{}\n", 42);
/// assert_eq!(&buf[..raw.count], b"pos:\t42\n");
/// ```
#[macro_export]
macro_rules! seq_print {
    ($m:expr, $($arg:tt)+) => (
        $m.call_printf(format_args!($($arg)+))
    );
}
