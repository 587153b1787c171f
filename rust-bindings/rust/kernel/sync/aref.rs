// SPDX-License-Identifier: GPL-2.0

//! Internal reference counting support.

use core::{marker::PhantomData, mem::ManuallyDrop, ops::Deref, ptr::NonNull};

/// Types whose objects carry a reference count that an [`ARef`] can own.
///
/// An [`ARef<T>`] owns one increment of the count; cloning it takes another, dropping it gives
/// one back. A `RefCounted` type does not promise that every `&T` is backed by a count: C may
/// lend an object whose count already reached zero while it tears it down (a `struct file`
/// during its `release`). So a borrow alone gives no `ARef`: only a clone of an `ARef`, an
/// `unsafe` [`ARef::from_raw`], or a method of the type that checks the count. Types whose every
/// borrow is counted also implement [`AlwaysRefCounted`], which adds `ARef::from(&T)`.
///
/// # Safety
///
/// Implementers must ensure that an increment of the count keeps the object alive in memory at
/// least until the matching decrement, and that [`RefCounted::inc_owned_ref`] and
/// [`RefCounted::dec_owned_ref`] increment and decrement it.
pub unsafe trait RefCounted {
    /// Increments the reference count of an object the caller holds a counted reference to.
    ///
    /// # Safety
    ///
    /// The caller owns an increment of the count (e.g. through an [`ARef`]) for the duration of
    /// the call, so the count is not zero.
    unsafe fn inc_owned_ref(&self);

    /// Decrements the reference count, freeing the object when it reaches zero.
    ///
    /// # Safety
    ///
    /// The caller gives up an increment it owns, and does not use the object afterwards unless
    /// it owns another.
    unsafe fn dec_owned_ref(obj: NonNull<Self>);
}

/// Types that are _always_ reference counted.
///
/// It allows such types to define their own custom ref increment and decrement functions.
/// Additionally, it allows users to convert from a shared reference `&T` to an owned reference
/// [`ARef<T>`].
///
/// This is usually implemented by wrappers to existing structures on the C side of the code. For
/// Rust code, the recommendation is to use [`Arc`](crate::sync::Arc) to create reference-counted
/// instances of a type.
///
/// Every `AlwaysRefCounted` type is [`RefCounted`]; a type that is counted but may be borrowed
/// while its count is zero implements only [`RefCounted`].
///
/// # Safety
///
/// Implementers must ensure that increments to the reference count keep the object alive in memory
/// at least until matching decrements are performed.
///
/// Implementers must also ensure that all instances are reference-counted, and that the count of
/// an object is not zero while a `&Self` to it exists. (Otherwise they won't be able to honour
/// the requirement that [`AlwaysRefCounted::inc_ref`] keep the object alive.)
pub unsafe trait AlwaysRefCounted {
    /// Increments the reference count on the object.
    fn inc_ref(&self);

    /// Decrements the reference count on the object.
    ///
    /// Frees the object when the count reaches zero.
    ///
    /// # Safety
    ///
    /// Callers must ensure that there was a previous matching increment to the reference count,
    /// and that the object is no longer used after its reference count is decremented (as it may
    /// result in the object being freed), unless the caller owns another increment on the refcount
    /// (e.g., it calls [`AlwaysRefCounted::inc_ref`] twice, then calls
    /// [`AlwaysRefCounted::dec_ref`] once).
    unsafe fn dec_ref(obj: NonNull<Self>);
}

// SAFETY: `AlwaysRefCounted` requires all that `RefCounted` does, with the same operations.
unsafe impl<T: AlwaysRefCounted> RefCounted for T {
    #[inline]
    unsafe fn inc_owned_ref(&self) {
        AlwaysRefCounted::inc_ref(self)
    }

    #[inline]
    unsafe fn dec_owned_ref(obj: NonNull<Self>) {
        // SAFETY: The caller gives up an increment it owns.
        unsafe { <T as AlwaysRefCounted>::dec_ref(obj) }
    }
}

/// An owned reference to a reference-counted object.
///
/// The object's reference count is automatically decremented when an instance of [`ARef`] is
/// dropped. It is also automatically incremented when a new instance is created via
/// [`ARef::clone`].
///
/// # Invariants
///
/// The pointer stored in `ptr` is non-null and valid for the lifetime of the [`ARef`] instance. In
/// particular, the [`ARef`] instance owns an increment on the underlying object's reference count.
pub struct ARef<T: RefCounted> {
    ptr: NonNull<T>,
    _p: PhantomData<T>,
}

// SAFETY: It is safe to send `ARef<T>` to another thread when the underlying `T` is `Sync` because
// it effectively means sharing `&T` (which is safe because `T` is `Sync`); additionally, it needs
// `T` to be `Send` because any thread that has an `ARef<T>` may ultimately access `T` using a
// mutable reference, for example, when the reference count reaches zero and `T` is dropped.
unsafe impl<T: RefCounted + Sync + Send> Send for ARef<T> {}

// SAFETY: It is safe to send `&ARef<T>` to another thread when the underlying `T` is `Sync`
// because it effectively means sharing `&T` (which is safe because `T` is `Sync`); additionally,
// it needs `T` to be `Send` because any thread that has a `&ARef<T>` may clone it and get an
// `ARef<T>` on that thread, so the thread may ultimately access `T` using a mutable reference, for
// example, when the reference count reaches zero and `T` is dropped.
unsafe impl<T: RefCounted + Sync + Send> Sync for ARef<T> {}

impl<T: RefCounted> ARef<T> {
    /// Creates a new instance of [`ARef`].
    ///
    /// It takes over an increment of the reference count on the underlying object.
    ///
    /// # Safety
    ///
    /// Callers must ensure that the reference count was incremented at least once, and that they
    /// are properly relinquishing one increment. That is, if there is only one increment, callers
    /// must not use the underlying object anymore -- it is only safe to do so via the newly
    /// created [`ARef`].
    pub unsafe fn from_raw(ptr: NonNull<T>) -> Self {
        // INVARIANT: The safety requirements guarantee that the new instance now owns the
        // increment on the refcount.
        Self {
            ptr,
            _p: PhantomData,
        }
    }

    /// Consumes the `ARef`, returning a raw pointer.
    ///
    /// This function does not change the refcount. After calling this function, the caller is
    /// responsible for the refcount previously managed by the `ARef`.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::ptr::NonNull;
    /// use kernel::sync::aref::{ARef, AlwaysRefCounted};
    ///
    /// struct Empty {}
    ///
    /// # // SAFETY: TODO.
    /// unsafe impl AlwaysRefCounted for Empty {
    ///     fn inc_ref(&self) {}
    ///     unsafe fn dec_ref(_obj: NonNull<Self>) {}
    /// }
    ///
    /// let mut data = Empty {};
    /// let ptr = NonNull::<Empty>::new(&mut data as *mut _).unwrap();
    /// # // SAFETY: TODO.
    /// let data_ref: ARef<Empty> = unsafe { ARef::from_raw(ptr) };
    /// let raw_ptr: NonNull<Empty> = ARef::into_raw(data_ref);
    ///
    /// assert_eq!(ptr, raw_ptr);
    /// ```
    pub fn into_raw(me: Self) -> NonNull<T> {
        ManuallyDrop::new(me).ptr
    }
}

impl<T: RefCounted> Clone for ARef<T> {
    fn clone(&self) -> Self {
        // SAFETY: By the type invariants `self` owns an increment of the count.
        unsafe { RefCounted::inc_owned_ref(&**self) };
        // SAFETY: We just incremented the refcount above.
        unsafe { Self::from_raw(self.ptr) }
    }
}

impl<T: RefCounted> Deref for ARef<T> {
    type Target = T;

    fn deref(&self) -> &Self::Target {
        // SAFETY: The type invariants guarantee that the object is valid.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: AlwaysRefCounted> From<&T> for ARef<T> {
    fn from(b: &T) -> Self {
        AlwaysRefCounted::inc_ref(b);
        // SAFETY: We just incremented the refcount above.
        unsafe { Self::from_raw(NonNull::from(b)) }
    }
}

impl<T: RefCounted> Drop for ARef<T> {
    fn drop(&mut self) {
        // SAFETY: The type invariants guarantee that the `ARef` owns the reference we're about to
        // decrement.
        unsafe { T::dec_owned_ref(self.ptr) };
    }
}
