// SPDX-License-Identifier: GPL-2.0

//! A guard through which an iterator can be moved back, truncated and re-expanded without ever
//! leaving the range it had when the guard was made ([`IovCheckpoint`]).
//!
//! C's `iov_iter_revert()` and `iov_iter_reexpand()` trust their caller to stay inside what
//! the iterator walked; the guard checks it, so safe code can retry or undo a copy.

use super::{raw_count, IovIter};
use crate::{
    bindings,
    error::{code::*, Result},
};
use core::{
    ops::{Deref, DerefMut},
    ptr,
};

/// A position of an iterator to come back to, with the iterator it belongs to: what the
/// closure of [`IovIter::checkpoint`] gets.
///
/// It dereferences to the iterator, so everything can be done through it. What C leaves to its
/// caller's care is checked here: [`IovCheckpoint::revert`] never goes back before the
/// checkpoint, [`IovCheckpoint::reexpand`] gives back only what [`IovCheckpoint::truncate`]
/// took. When the closure returns, the iterator goes back to where it was, with all of its
/// bytes, unless [`IovCheckpoint::commit`] was called.
///
/// It keeps a copy of the C iterator as it was (C's `iov_iter_save_state()` keeps part of
/// one). Going back writes that copy and moves forward from it, so it works for every iterator
/// type (C's `iov_iter_restore()` refuses discard, xarray and folio queue iterators). The copy
/// is the state of the iterator behind the guard: safe code cannot put another iterator there,
/// as it can reach no other value of the same type (see [`super::buffers`]).
///
/// # Invariants
///
/// `saved` is the state `iov` had when the guard was made, so it describes memory `iov` may
/// access for its `'data`; `hidden` is at most what [`IovCheckpoint::truncate`] took away and
/// not given back.
///
/// # Examples
///
/// ```
/// use kernel::iov::{IovIter, IovIterDest};
///
/// IovIterDest::with_discard(10, |dst| {
///     dst.checkpoint(|cp| {
///         cp.advance(7);
///         assert_eq!(cp.consumed(), 7);
///         assert_eq!(cp.revert(8), Err(EINVAL));
///         cp.revert(2)?;
///         assert_eq!(cp.len(), 5);
///         Ok::<(), Error>(())
///     })?;
///     assert_eq!(dst.len(), 10);
///     Ok::<(), Error>(())
/// })?;
/// # Ok::<(), Error>(())
/// ```
pub struct IovCheckpoint<'a, I: IovIter> {
    iov: &'a mut I,
    saved: bindings::iov_iter,
    hidden: usize,
    keep: bool,
}

impl<'a, I: IovIter> IovCheckpoint<'a, I> {
    /// Runs `f` with a guard over `iov`, then puts `iov` back or keeps it as `f` decided.
    #[inline]
    pub(super) fn run<R>(iov: &'a mut I, f: impl FnOnce(&mut IovCheckpoint<'_, I>) -> R) -> R {
        // INVARIANT: `saved` is the state of `iov` now; nothing is hidden yet.
        let mut cp = IovCheckpoint {
            // SAFETY: The iterator is initialised and plain data; this is a copy of it.
            saved: unsafe { ptr::read(iov.raw()) },
            hidden: 0,
            keep: false,
            iov,
        };
        let ret = f(&mut cp);
        if cp.keep {
            cp.reexpand(usize::MAX);
        } else {
            // SAFETY: As in `seek`: `saved` is a state of this iterator, valid for its `'data`.
            unsafe { ptr::write(cp.iov.raw(), ptr::read(&cp.saved)) };
        }
        ret
    }
}

impl<I: IovIter> IovCheckpoint<'_, I> {
    /// Returns how far the iterator moved forward since the checkpoint.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// IoSlice::new(b"abcdef").with_source(|src| {
    ///     src.checkpoint(|cp| {
    ///         cp.copy_from_iter(&mut [0u8; 4]);
    ///         cp.truncate(1);
    ///         assert_eq!(cp.consumed(), 4);
    ///     })
    /// });
    /// ```
    #[inline]
    pub fn consumed(&self) -> usize {
        // SAFETY: `saved` is an initialised iterator state.
        let start = unsafe { raw_count(&self.saved) };
        start.saturating_sub(self.iov_len().saturating_add(self.hidden))
    }

    /// Puts the iterator `pos` bytes past the checkpoint with at most `len` bytes left.
    #[inline]
    fn seek(&mut self, pos: usize, len: usize) {
        let raw = self.iov.raw();
        // SAFETY: By the type invariants `saved` is a state of this iterator, valid for its
        // `'data`: writing it back, then moving forward and lowering the count from there,
        // leaves it inside its memory. For a destination the bytes moved over were written
        // already: they are at most what it had moved forward. `&mut` access to the iterator is
        // held.
        unsafe {
            ptr::write(raw, ptr::read(&self.saved));
            bindings::iov_iter_advance(raw, pos);
            if raw_count(raw) > len {
                (*raw).__bindgen_anon_1.__bindgen_anon_1.as_mut().count = len;
            }
        }
    }

    /// Moves the iterator back by `bytes`, or fails with [`EINVAL`] and leaves it where it is
    /// if that would go before the checkpoint.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter, IovIterSource};
    ///
    /// let segs = [IoSlice::new(b"abc"), IoSlice::new(b"def")];
    /// IovIterSource::with_kvec(&segs, |src| {
    ///     src.advance(1);
    ///     src.checkpoint(|cp| {
    ///         let mut out = [0u8; 4];
    ///         assert_eq!(cp.copy_from_iter(&mut out), 4);
    ///         cp.revert(3)?;
    ///         assert_eq!(cp.copy_from_iter(&mut out[..2]), 2);
    ///         assert_eq!(&out[..2], b"cd");
    ///         assert_eq!(cp.revert(4), Err(EINVAL));
    ///         cp.revert(3)?;
    ///         assert_eq!(cp.len(), 5);
    ///         Ok::<(), Error>(())
    ///     })
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn revert(&mut self, bytes: usize) -> Result {
        let consumed = self.consumed();
        if bytes > consumed {
            return Err(EINVAL);
        }
        let len = self.iov_len().saturating_add(bytes);
        self.seek(consumed - bytes, len);
        Ok(())
    }

    /// Lowers the number of bytes left to at most `max` and returns by how much it went down
    /// (C's `iov_iter_truncate()`); [`IovCheckpoint::reexpand`] gives them back, and so does
    /// the end of the closure, whether it committed or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// let mut out = [0u8; 8];
    /// IoSlice::new(b"abcdefgh").with_source(|src| {
    ///     src.checkpoint(|cp| {
    ///         assert_eq!(cp.truncate(3), 5);
    ///         assert_eq!(cp.copy_from_iter(&mut out), 3);
    ///         assert_eq!(cp.reexpand(usize::MAX), 5);
    ///         assert_eq!(cp.copy_from_iter(&mut out[3..]), 5);
    ///     })
    /// });
    /// assert_eq!(&out, b"abcdefgh");
    /// ```
    #[inline]
    pub fn truncate(&mut self, max: usize) -> usize {
        let len = self.iov_len();
        if len <= max {
            return 0;
        }
        let raw = self.iov.raw();
        // SAFETY: Lowering the count keeps the iterator inside its memory; `&mut` access to it
        // is held.
        unsafe { (*raw).__bindgen_anon_1.__bindgen_anon_1.as_mut().count = max };
        // INVARIANT: `len - max` more bytes are hidden.
        self.hidden = self.hidden.saturating_add(len - max);
        len - max
    }

    /// Gives back up to `bytes` of what [`IovCheckpoint::truncate`] took and returns how many
    /// (C's `iov_iter_reexpand()`, which takes the new count and trusts its caller).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// IoSlice::new(b"abcdefgh").with_source(|src| {
    ///     src.checkpoint(|cp| {
    ///         assert_eq!(cp.reexpand(1), 0);
    ///         cp.truncate(2);
    ///         assert_eq!(cp.reexpand(4), 4);
    ///         assert_eq!(cp.reexpand(4), 2);
    ///         assert_eq!(cp.len(), 8);
    ///     })
    /// });
    /// ```
    #[inline]
    pub fn reexpand(&mut self, bytes: usize) -> usize {
        let bytes = bytes.min(self.hidden);
        if bytes > 0 {
            let len = self.iov_len().saturating_add(bytes);
            let consumed = self.consumed();
            self.seek(consumed, len);
            // INVARIANT: `bytes` of the hidden ones were given back.
            self.hidden -= bytes;
        }
        bytes
    }

    /// Keeps the iterator where it is when the closure returns (with the bytes
    /// [`IovCheckpoint::truncate`] took given back), instead of putting it back.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// IoSlice::new(b"abcd").with_source(|src| {
    ///     src.checkpoint(|cp| {
    ///         cp.advance(1);
    ///         cp.truncate(1);
    ///         cp.commit();
    ///     });
    ///     assert_eq!(src.len(), 3);
    /// });
    /// ```
    #[inline]
    pub fn commit(&mut self) {
        self.keep = true;
    }

    /// Undoes [`IovCheckpoint::commit`]: the iterator goes back to the checkpoint when the
    /// closure returns, as it does by default.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIter};
    ///
    /// IoSlice::new(b"abc").with_source(|src| {
    ///     src.advance(1);
    ///     src.checkpoint(|cp| {
    ///         cp.advance(2);
    ///         cp.commit();
    ///         cp.rollback();
    ///     });
    ///     assert_eq!(src.len(), 2);
    /// });
    /// ```
    #[inline]
    pub fn rollback(&mut self) {
        self.keep = false;
    }

    /// The count of the iterator.
    #[inline]
    fn iov_len(&self) -> usize {
        // SAFETY: The iterator is initialised.
        unsafe { raw_count(self.iov.raw()) }
    }
}

impl<I: IovIter> Deref for IovCheckpoint<'_, I> {
    type Target = I;

    #[inline]
    fn deref(&self) -> &I {
        self.iov
    }
}

impl<I: IovIter> DerefMut for IovCheckpoint<'_, I> {
    #[inline]
    fn deref_mut(&mut self) -> &mut I {
        self.iov
    }
}
