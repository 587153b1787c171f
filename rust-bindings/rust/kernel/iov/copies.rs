// SPDX-License-Identifier: GPL-2.0

//! Copies beyond mainline's: all-or-nothing and typed copies, page copies (also with page
//! faults disabled), zeroing, faulting user memory in, and `simple_write_to_buffer`.

use super::{buffers::page_range, IovIter, IovIterDest, IovIterSource};
use crate::{
    bindings,
    error::{code::*, Result},
    page::Page,
    types::{AsBytes, FromBytes},
};
use core::{
    mem::{size_of, MaybeUninit},
    ptr, slice,
};

impl IovIterSource<'_> {
    /// Fills all of `out` from the iterator, or fails with [`EFAULT`] and leaves the iterator
    /// where it was (C's `copy_from_iter_full()`).
    ///
    /// An iterator shorter than `out` fails before anything is copied; one whose user memory
    /// faults part of the way fails after, with `out` partly written. Going back restores the
    /// state the iterator had (C's `iov_iter_revert()` would refuse to go back more than
    /// `MAX_RW_COUNT`, and only warn).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// IoSlice::new(b"abcdef").with_source(|src| {
    ///     let mut out = [0u8; 4];
    ///     src.copy_from_iter_full(&mut out)?;
    ///     assert_eq!(&out, b"abcd");
    ///     assert_eq!(src.copy_from_iter_full(&mut out), Err(EFAULT));
    ///     assert_eq!((&out, src.len()), (b"abcd", 2));
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_from_iter_full(&mut self, out: &mut [u8]) -> Result {
        if out.len() > self.len() {
            return Err(EFAULT);
        }
        self.checkpoint(|cp| {
            if cp.copy_from_iter(out) != out.len() {
                return Err(EFAULT);
            }
            cp.commit();
            Ok(())
        })
    }

    /// Reads a plain-data value from the next `size_of::<T>()` bytes, or fails with [`EFAULT`]
    /// and leaves the iterator where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let bytes = [1u8, 0, 0, 0, 2, 0];
    /// IoSlice::new(&bytes).with_source(|src| {
    ///     assert_eq!(src.read::<u32>()?, u32::from_le_bytes([1, 0, 0, 0]));
    ///     assert_eq!(src.read::<u32>(), Err(EFAULT));
    ///     assert_eq!(src.read::<u16>()?, u16::from_le_bytes([2, 0]));
    ///     Ok::<(), Error>(())
    /// })?;
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn read<T: FromBytes>(&mut self) -> Result<T> {
        let mut value = MaybeUninit::<T>::uninit();
        // SAFETY: `value` is valid for writes of `size_of::<T>()` bytes, any of which may be
        // written since `T: FromBytes`.
        let bytes = unsafe {
            slice::from_raw_parts_mut(value.as_mut_ptr().cast::<MaybeUninit<u8>>(), size_of::<T>())
        };
        if bytes.len() > self.len() {
            return Err(EFAULT);
        }
        self.checkpoint(|cp| {
            if cp.copy_from_iter_raw(bytes).len() != size_of::<T>() {
                return Err(EFAULT);
            }
            cp.commit();
            Ok(())
        })?;
        // SAFETY: All of `value` was written, and any bytes are a valid `T`.
        Ok(unsafe { value.assume_init() })
    }

    /// Copies up to `len` bytes from the iterator into `page` at `offset` and returns how many it
    /// copied (C's `copy_page_from_iter()`); fails with [`EINVAL`] if the range is not inside
    /// the page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// IoSlice::new(b"xyz").with_source(|src| {
    ///     assert_eq!(src.copy_page_from_iter(&mut page, PAGE_SIZE - 2, 3), Err(EINVAL));
    ///     assert_eq!(src.copy_page_from_iter(&mut page, PAGE_SIZE - 8, 8)?, 3);
    ///     Ok::<(), Error>(())
    /// })?;
    /// let mut back = [0u8; 3];
    /// // SAFETY: `back` is valid for 3 bytes and nothing else uses `page`.
    /// unsafe { page.read_raw(back.as_mut_ptr(), PAGE_SIZE - 8, 3)? };
    /// assert_eq!(&back, b"xyz");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_from_iter(
        &mut self,
        page: &mut Page,
        offset: usize,
        len: usize,
    ) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed mutably; the iterator may be
        // read for `'data`.
        Ok(unsafe { bindings::copy_page_from_iter(page.as_ptr(), offset, len, self.as_raw()) })
    }

    /// Like [`IovIterSource::copy_page_from_iter`], with page faults disabled: it may be used
    /// with a page lock held or in atomic context (C's `copy_page_from_iter_atomic()`). For user
    /// memory that is not present it copies less, possibly nothing.
    ///
    /// # Examples
    ///
    /// A write loop in the style of filesystems: fault the source in, copy with faults
    /// disabled, go on by what was copied.
    ///
    /// ```
    /// use kernel::iov::{IoSlice, IovIterSource};
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// fn fill(page: &mut Page, src: &mut IovIterSource<'_>) -> Result<usize> {
    ///     let mut done = 0;
    ///     while done < PAGE_SIZE && !src.is_empty() {
    ///         let want = (PAGE_SIZE - done).min(src.len());
    ///         if src.fault_in_readable(want) == want {
    ///             return Err(EFAULT);
    ///         }
    ///         // A page lock would be taken here.
    ///         done += src.copy_page_from_iter_atomic(page, done, want)?;
    ///     }
    ///     Ok(done)
    /// }
    ///
    /// let mut page = Page::alloc_page(GFP_KERNEL)?;
    /// let data = [7u8; 100];
    /// assert_eq!(IoSlice::new(&data).with_source(|src| fill(&mut page, src))?, 100);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_from_iter_atomic(
        &mut self,
        page: &mut Page,
        offset: usize,
        len: usize,
    ) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: As for `copy_page_from_iter`.
        Ok(unsafe {
            bindings::copy_page_from_iter_atomic(page.as_ptr(), offset, len, self.as_raw())
        })
    }

    /// Serves a `write_iter` of a file whose whole contents are `contents`: copies from the
    /// iterator into them at position `*ppos`, moves `*ppos` past the bytes copied and returns
    /// how many there were (C's `simple_write_to_buffer()`).
    ///
    /// Returns 0 at or past the end of `contents` or for an empty iterator; fails with
    /// [`EINVAL`] for a negative position and, as C does, with [`EFAULT`] if not one byte could
    /// be copied. (Its reading twin, mainline's [`IovIterDest::simple_read_from_buffer`],
    /// returns 0 there.)
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// let mut file = *b"..........";
    /// IoSlice::new(b"abcdef").with_source(|src| {
    ///     let mut pos = 7;
    ///     assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 3);
    ///     assert_eq!(pos, 10);
    ///     assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file)?, 0);
    ///     let mut start = 0;
    ///     assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 3);
    ///     assert_eq!(src.simple_write_to_buffer(&mut start, &mut file)?, 0);
    ///     let mut bad = i64::MIN;
    ///     assert_eq!(src.simple_write_to_buffer(&mut bad, &mut file), Err(EINVAL));
    ///     Ok::<(), Error>(())
    /// })?;
    /// assert_eq!(&file, b"def....abc");
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// A user buffer that cannot be read (a `PROT_NONE` mapping of this KUnit test's mm) fails
    /// the call, where `simple_read_from_buffer` returns 0:
    ///
    /// ```
    /// use core::{mem::MaybeUninit, ptr};
    /// use kernel::{bindings, iov::IovIterSource};
    ///
    /// // SAFETY: This runs in a KUnit test; the mapping goes away with the test's mm.
    /// let user = unsafe {
    ///     let test = bindings::kunit_get_current_test();
    ///     bindings::kunit_vm_mmap(test, ptr::null_mut(), 0, 4096, 0, 0x22, 0)
    /// };
    /// assert_ne!(user, 0);
    /// let mut raw = MaybeUninit::<bindings::iov_iter>::uninit();
    /// let dir = bindings::ITER_SOURCE as core::ffi::c_int;
    /// // SAFETY: `import_ubuf` initialises `raw` when it succeeds.
    /// assert_eq!(unsafe { bindings::import_ubuf(dir, user as _, 16, raw.as_mut_ptr()) }, 0);
    /// // SAFETY: `raw` outlives `src`, its only user; it describes this task's user memory.
    /// let src = unsafe { IovIterSource::from_raw(raw.as_mut_ptr()) };
    /// let mut file = [0u8; 32];
    /// let mut pos = 0;
    /// assert_eq!(src.simple_write_to_buffer(&mut pos, &mut file), Err(EFAULT));
    /// assert_eq!((pos, src.len()), (0, 16));
    /// ```
    #[inline]
    pub fn simple_write_to_buffer(&mut self, ppos: &mut i64, contents: &mut [u8]) -> Result<usize> {
        if *ppos < 0 {
            return Err(EINVAL);
        }
        let Some(rest) = usize::try_from(*ppos)
            .ok()
            .and_then(|pos| contents.get_mut(pos..))
        else {
            return Ok(0);
        };
        if rest.is_empty() || self.is_empty() {
            return Ok(0);
        }
        let n = self.copy_from_iter(rest);
        if n == 0 {
            return Err(EFAULT);
        }
        // `*ppos + n <= contents.len() <= isize::MAX`, which fits.
        *ppos += n as i64;
        Ok(n)
    }

    /// Faults in up to `bytes` of user memory at the start of the iterator and returns how many
    /// could *not* be (C's `fault_in_iov_iter_readable()`); 0 for kernel memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSlice;
    ///
    /// assert_eq!(IoSlice::new(b"kernel memory").with_source(|src| src.fault_in_readable(5)), 0);
    /// ```
    #[inline]
    pub fn fault_in_readable(&self, bytes: usize) -> usize {
        // SAFETY: The iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_readable(self.iov.get(), bytes) }
    }
}

impl IovIterDest<'_> {
    /// Copies all of `input` into the iterator, or fails with [`EFAULT`] and leaves the iterator
    /// where it was (C's `copy_to_iter_full()`).
    ///
    /// An iterator shorter than `input` fails before anything is copied; one whose user memory
    /// faults part of the way fails after, with that memory partly written.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 5];
    /// IoSliceMut::new(&mut buf).with_dest(|dst| {
    ///     dst.copy_to_iter_full(b"abc")?;
    ///     assert_eq!(dst.copy_to_iter_full(b"def"), Err(EFAULT));
    ///     assert_eq!(dst.len(), 2);
    ///     dst.copy_to_iter_full(b"de")
    /// })?;
    /// assert_eq!(&buf, b"abcde");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_to_iter_full(&mut self, input: &[u8]) -> Result {
        if input.len() > self.len() {
            return Err(EFAULT);
        }
        self.checkpoint(|cp| {
            if cp.copy_to_iter(input) != input.len() {
                return Err(EFAULT);
            }
            cp.commit();
            Ok(())
        })
    }

    /// Writes the bytes of a plain-data value, or fails with [`EFAULT`] and leaves the iterator
    /// where it was.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 6];
    /// IoSliceMut::new(&mut buf).with_dest(|dst| {
    ///     dst.write(&0x0102_0304u32.to_le())?;
    ///     assert_eq!(dst.write(&0u32), Err(EFAULT));
    ///     dst.write(&0x0506u16.to_le())
    /// })?;
    /// assert_eq!(buf, [4, 3, 2, 1, 6, 5]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn write<T: AsBytes>(&mut self, value: &T) -> Result {
        // SAFETY: `value` is valid for reads of `size_of::<T>()` bytes, all initialised since
        // `T: AsBytes`.
        let bytes = unsafe { slice::from_raw_parts(ptr::from_ref(value).cast(), size_of::<T>()) };
        self.copy_to_iter_full(bytes)
    }

    /// Writes up to `bytes` zeroes and returns how many it wrote (C's `iov_iter_zero()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [9u8; 4];
    /// IoSliceMut::new(&mut buf).with_dest(|dst| {
    ///     assert_eq!(dst.copy_to_iter(&[5]), 1);
    ///     assert_eq!(dst.zero(10), 3);
    /// });
    /// assert_eq!(buf, [5, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn zero(&mut self, bytes: usize) -> usize {
        // SAFETY: The iterator may be written for `'data`.
        unsafe { bindings::iov_iter_zero(bytes, self.as_raw()) }
    }

    /// Copies up to `len` bytes of `page` from `offset` into the iterator and returns how many it
    /// copied (C's `copy_page_to_iter()`); fails with [`EINVAL`] if the range is not inside the
    /// page.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    /// use kernel::page::{Page, PAGE_SIZE};
    ///
    /// let page = Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?;
    /// // SAFETY: The source is valid for 2 bytes and nothing else uses `page`.
    /// unsafe { page.write_raw(b"ok".as_ptr(), 40, 2)? };
    /// let mut buf = [1u8; 4];
    /// IoSliceMut::new(&mut buf).with_dest(|dst| {
    ///     assert_eq!(dst.copy_page_to_iter(&page, 40, PAGE_SIZE), Err(EINVAL));
    ///     assert_eq!(dst.copy_page_to_iter(&page, 39, 10)?, 4);
    ///     Ok::<(), Error>(())
    /// })?;
    /// assert_eq!(&buf, b"\0ok\0");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn copy_page_to_iter(&mut self, page: &Page, offset: usize, len: usize) -> Result<usize> {
        page_range(offset, len)?;
        // SAFETY: The range lies inside `page`, which is borrowed; the iterator may be written
        // for `'data`.
        Ok(unsafe { bindings::copy_page_to_iter(page.as_ptr(), offset, len, self.as_raw()) })
    }

    /// Faults in up to `bytes` of user memory at the start of the iterator for writing and
    /// returns how many could *not* be (C's `fault_in_iov_iter_writeable()`); 0 for kernel
    /// memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::iov::IoSliceMut;
    ///
    /// let mut buf = [0u8; 8];
    /// assert_eq!(IoSliceMut::new(&mut buf).with_dest(|dst| dst.fault_in_writeable(8)), 0);
    /// ```
    #[inline]
    pub fn fault_in_writeable(&self, bytes: usize) -> usize {
        // SAFETY: The iterator is valid; the function only reads it.
        unsafe { bindings::fault_in_iov_iter_writeable(self.iov.get(), bytes) }
    }
}
