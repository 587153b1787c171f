// SPDX-License-Identifier: GPL-2.0

//! File-style copies between an [`IovIter`] and a buffer at a file position.
//!
//! C header: [`include/linux/fs.h`](srctree/include/linux/fs.h)
//!
//! C's `simple_read_from_buffer()` and `simple_write_to_buffer()` serve `read` and `write`
//! handlers of files backed by one buffer, on user pointers. These do the same on an iterator,
//! which is what `read_iter` and `write_iter` handlers get, with the same rules: a negative
//! position is [`EINVAL`], a position at or past the end of the buffer or an empty iterator
//! copies nothing, a copy that could not move any byte is [`EFAULT`], and the position moves by
//! the number of bytes copied.

use super::{Dest, IovIter, Source};
use crate::error::{code::*, Result};

/// Checks a file position against a buffer of `available` bytes as C's simple helpers do, and
/// returns the offset to copy at, or `None` if there is nothing to copy.
#[inline]
fn start_at(pos: i64, available: usize) -> Result<Option<usize>> {
    let start = usize::try_from(pos).map_err(|_| EINVAL)?;
    Ok((start < available).then_some(start))
}

impl IovIter<'_, Dest> {
    /// Copies bytes of `buf` from position `*pos` into the iterator, moves `*pos` past them
    /// and returns how many there were (C's `simple_read_from_buffer()`).
    ///
    /// Returns 0 if `*pos` is at or past the end of `buf` or the iterator is empty. Fails with
    /// [`EINVAL`] if `*pos` is negative and with [`EFAULT`] if not a single byte could be
    /// copied; `*pos` does not move then.
    ///
    /// # Examples
    ///
    /// The body of a `read_iter` handler for a file whose contents are `contents`; `pos` is the
    /// file position (`ki_pos` of the `struct kiocb`):
    ///
    /// ```
    /// use kernel::iov::IovDest;
    ///
    /// fn read_iter(dst: &mut IovDest<'_>, pos: &mut i64, contents: &[u8]) -> Result<usize> {
    ///     dst.simple_read_from_buffer(pos, contents)
    /// }
    ///
    /// let mut buf = [0u8; 4];
    /// let mut pos = 0;
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// assert_eq!(read_iter(&mut dst, &mut pos, b"hello")?, 4);
    /// assert_eq!((&buf, pos), (b"hell", 4));
    /// let mut dst = IovDest::from_slice(&mut buf);
    /// assert_eq!(read_iter(&mut dst, &mut pos, b"hello")?, 1);
    /// assert_eq!(read_iter(&mut dst, &mut pos, b"hello")?, 0);
    /// assert_eq!(pos, 5);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// Segments, a position near the end, and the edge cases:
    ///
    /// ```
    /// use kernel::iov::{IovDest, Kvec};
    ///
    /// let file = b"0123456789";
    /// let mut a = [0u8; 2];
    /// let mut b = [0u8; 3];
    /// let mut segs = [Kvec::dest(&mut a), Kvec::dest(&mut b)];
    /// let mut dst = IovDest::kvec(&mut segs);
    /// let mut pos = 6;
    /// assert_eq!(dst.simple_read_from_buffer(&mut pos, file)?, 4);
    /// assert_eq!(pos, 10);
    /// assert_eq!(dst.simple_read_from_buffer(&mut pos, file)?, 0);
    ///
    /// let mut bad = -1;
    /// assert_eq!(dst.simple_read_from_buffer(&mut bad, file), Err(EINVAL));
    /// let mut past = 11;
    /// assert_eq!(dst.simple_read_from_buffer(&mut past, file)?, 0);
    /// assert_eq!(past, 11);
    /// assert_eq!((&a, &b), (b"67", b"89\0"));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// Nothing copied because the user memory behind the iterator is not there:
    ///
    /// ```
    /// use kernel::bindings;
    /// use kernel::iov::IovDest;
    ///
    /// // An unmapped user address.
    /// let user = 0x10000usize as *mut core::ffi::c_void;
    /// let mut raw = core::mem::MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_DEST as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// let ret = unsafe { bindings::import_ubuf(dir, user, 16, raw.as_mut_ptr()) };
    /// assert_eq!(ret, 0);
    /// // SAFETY: `raw` is initialised and outlives `dst`; it describes user memory.
    /// let mut dst = unsafe { IovDest::from_raw(raw.as_mut_ptr()) }?;
    /// assert!(dst.is_user_backed());
    /// let mut pos = 0;
    /// assert_eq!(dst.simple_read_from_buffer(&mut pos, b"data"), Err(EFAULT));
    /// assert_eq!((pos, dst.len()), (0, 16));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn simple_read_from_buffer(&mut self, pos: &mut i64, buf: &[u8]) -> Result<usize> {
        let Some(start) = start_at(*pos, buf.len())? else {
            return Ok(0);
        };
        if self.is_empty() {
            return Ok(0);
        }
        let n = self.copy_to_iter(&buf[start..]);
        if n == 0 {
            return Err(EFAULT);
        }
        // `start + n <= buf.len()`, which fits in an `i64`.
        *pos += n as i64;
        Ok(n)
    }
}

impl IovIter<'_, Source> {
    /// Copies bytes from the iterator into `buf` from position `*pos`, moves `*pos` past them
    /// and returns how many there were (C's `simple_write_to_buffer()`).
    ///
    /// Returns 0 if `*pos` is at or past the end of `buf` or the iterator is empty. Fails with
    /// [`EINVAL`] if `*pos` is negative and with [`EFAULT`] if not a single byte could be
    /// copied; `*pos` does not move then.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IovSource;
    ///
    /// let mut file = *b"..........";
    /// let mut src = IovSource::from_slice(b"abcdef");
    /// let mut pos = 7;
    /// assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 3);
    /// assert_eq!(pos, 10);
    /// assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 0);
    /// let mut start = 0;
    /// assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 3);
    /// assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 0);
    /// assert_eq!(&file, b"def....abc");
    ///
    /// let mut bad = i64::MIN;
    /// assert_eq!(src.simple_write_to_buffer(&mut bad, &mut file), Err(EINVAL));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn simple_write_to_buffer(&mut self, pos: &mut i64, buf: &mut [u8]) -> Result<usize> {
        let Some(start) = start_at(*pos, buf.len())? else {
            return Ok(0);
        };
        if self.is_empty() {
            return Ok(0);
        }
        let n = self.copy_from_iter(&mut buf[start..]);
        if n == 0 {
            return Err(EFAULT);
        }
        // `start + n <= buf.len()`, which fits in an `i64`.
        *pos += n as i64;
        Ok(n)
    }
}
