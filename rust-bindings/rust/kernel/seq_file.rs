// SPDX-License-Identifier: GPL-2.0

//! Sequence files: text that a file operation prints into, e.g. `/proc/<pid>/fdinfo/<fd>`.
//!
//! C header: [`include/linux/seq_file.h`](srctree/include/linux/seq_file.h)

use crate::{bindings, types::Opaque};
use core::fmt;

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
    ///
    /// The text is formatted in Rust and appended piece by piece with C's `seq_write()`, so
    /// formatting that prints into the same file (a `Display` implementation given the
    /// `SeqFile`) only adds its text in between. (Mainline formats with `seq_printf("%pA")`,
    /// which adds the text to the file's count only after formatting: text printed meanwhile is
    /// overwritten, and as many bytes of stale buffer are shown instead.) When the buffer is
    /// full, the file is marked as overflowing and the caller of the `show` operation retries
    /// with a larger one, as for C's `seq_printf()`.
    #[inline]
    pub fn call_printf(&self, args: fmt::Arguments<'_>) {
        // Formatting only fails if a piece does, and a piece only fails to fit, which `seq_write`
        // already recorded.
        let _ = fmt::write(&mut Writer(self), args);
    }
}

/// Appends formatted text to a [`SeqFile`].
struct Writer<'a>(&'a SeqFile);

impl fmt::Write for Writer<'_> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // SAFETY: By the type invariants the file is valid and only used by this task; `s` is
        // valid for reads of its length. `seq_write` copies it and updates the count before it
        // returns, and keeps nothing: printing into the file again, from anywhere, is fine.
        unsafe { bindings::seq_write(self.0.inner.get(), s.as_ptr().cast(), s.len()) };
        Ok(())
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
///
/// Text printed into the file while an argument is formatted lands where it was printed:
///
/// ```
/// use core::fmt;
/// use kernel::{bindings, seq_file::SeqFile, seq_print};
///
/// struct Nested<'a>(&'a SeqFile);
///
/// impl fmt::Display for Nested<'_> {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         seq_print!(self.0, "[inner {}]", 7);
///         f.write_str("x")
///     }
/// }
///
/// let mut buf = [0u8; 32];
/// // SAFETY: All zeroes is a valid `struct seq_file`.
/// let mut raw: bindings::seq_file = unsafe { core::mem::zeroed() };
/// raw.buf = buf.as_mut_ptr().cast();
/// raw.size = buf.len();
/// // SAFETY: `raw` outlives `m`, and only `m` uses it.
/// let m = unsafe { SeqFile::from_raw(&mut raw) };
/// seq_print!(m, "a{}b\n", Nested(m));
/// assert_eq!(&buf[..raw.count], b"a[inner 7]xb\n");
/// ```
#[macro_export]
macro_rules! seq_print {
    ($m:expr, $($arg:tt)+) => (
        $m.call_printf(format_args!($($arg)+))
    );
}
