// SPDX-License-Identifier: GPL-2.0

//! Credentials.
//!
//! C header: [`include/linux/cred.h`](srctree/include/linux/cred.h)
//!
//! Reference: <https://www.kernel.org/doc/html/latest/security/credentials.html>

use crate::{bindings, sync::aref::AlwaysRefCounted, types::Opaque};
use core::ptr::NonNull;

/// The credentials of a task or of an open file (C's `struct cred`): user and group ids,
/// capabilities, security labels.
///
/// A `struct cred` does not change once it is published: a task that changes its credentials
/// installs a new one. Only its reference count changes, which `get_cred()` and `put_cred()` do
/// atomically.
///
/// # Invariants
///
/// The `struct cred` is valid and its reference count is non-zero for as long as the
/// `Credential` is used: an [`ARef<Credential>`](crate::sync::aref::ARef) owns a reference, a
/// `&Credential` borrows one.
#[repr(transparent)]
pub struct Credential(Opaque<bindings::cred>);

// SAFETY: A `struct cred` is immutable once published, so it may be read from any thread, and
// the last reference may be dropped on any thread (`put_cred()` frees it through RCU).
unsafe impl Send for Credential {}

// SAFETY: As for `Send`: `&Credential` only reads an immutable structure.
unsafe impl Sync for Credential {}

impl Credential {
    /// Creates a reference to a [`Credential`] from a pointer the C side holds.
    ///
    /// # Safety
    ///
    /// `ptr` points to a valid `struct cred` whose reference count stays non-zero for `'a`.
    #[inline]
    pub unsafe fn from_ptr<'a>(ptr: *const bindings::cred) -> &'a Credential {
        // INVARIANT: Guaranteed by the caller.
        // SAFETY: `Credential` is a transparent wrapper of `struct cred`; the caller guarantees
        // that `ptr` is valid for `'a`.
        unsafe { &*ptr.cast() }
    }

    /// Returns the effective user id of these credentials.
    #[inline]
    pub fn euid(&self) -> bindings::kuid_t {
        // SAFETY: By the type invariants the credentials are valid, and they never change.
        unsafe { (*self.0.get()).euid }
    }
}

// SAFETY: `get_cred()` and `put_cred()` take and drop a reference; the credentials stay
// allocated until the last one is dropped.
unsafe impl AlwaysRefCounted for Credential {
    #[inline]
    fn inc_ref(&self) {
        // SAFETY: By the type invariants the reference count is non-zero.
        unsafe { bindings::get_cred(self.0.get()) };
    }

    #[inline]
    unsafe fn dec_ref(obj: NonNull<Credential>) {
        // SAFETY: The caller owns the reference it drops; `Credential` is a transparent wrapper
        // of `struct cred`.
        unsafe { bindings::put_cred(obj.cast().as_ptr()) };
    }
}
