// SPDX-License-Identifier: GPL-2.0

//! A fixed-capacity RAM file behind a misc device, served through `kernel::iov`.
//!
//! `/dev/rust-iov-ramfile` is the Rust twin of `/dev/c-iov-ramfile`
//! (`samples/iov_ramfile/c_iov_ramfile.c`). The header comment of the C driver specifies the
//! behaviour of both, to the errno; `samples/iov_ramfile/iov_ramfile*_test.c` check from user
//! space that the two give identical results for every request.
//!
//! In short: one file shared by every open, `capacity` bytes (module parameter, 1 byte to
//! 256 MiB, default 4 MiB) kept in zeroed pages, and a size. `O_TRUNC` on a writable open empties
//! it. `read_iter` copies out up to the size; `write_iter` stores page by page the way
//! filesystems do (fault the source in, copy with page faults disabled, go on by what was
//! copied), stores what fits below the capacity and then fails with `ENOSPC`, and returns the
//! bytes stored or `EFAULT`. One mutex serialises the requests; a task waits for it killably,
//! and `RWF_NOWAIT` only tries it.
//!
//! The device is written against mainline's `kernel::miscdevice` (6.18), with this series'
//! additions: the shared file as registration data, `llseek`, `RWF_NOWAIT` and the owner.

use kernel::{
    current,
    fs::{file::flags, File, Kiocb, LocalFile},
    iov::{BioVecMut, IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration, Whence},
    new_mutex,
    page::{Page, PAGE_SIZE},
    prelude::*,
    sync::{
        lock::{mutex::MutexBackend, Guard},
        Arc, ArcBorrow, Mutex,
    },
    task,
};

module! {
    type: RustIovRamfile,
    name: "rust_iov_ramfile",
    author: "Rust for Linux Contributors",
    description: "RAM file misc device served through kernel::iov",
    license: "GPL",
    params: {
        capacity: usize {
            default: 4 << 20,
            description: "capacity of the file in bytes (1 .. 256 MiB, default 4 MiB)",
        },
    },
}

/// The largest capacity the module accepts, as for the C twin.
const MAX_CAPACITY: usize = 256 << 20;

/// The file's bytes, guarded by [`RamFile::contents`].
///
/// # Invariants
///
/// `pages` hold at least `capacity` bytes, and every byte from `size` on is zero.
struct Contents {
    pages: KVVec<Page>,
    size: usize,
}

impl Contents {
    /// Empties the file, zeroing what was in use so the invariant holds for size 0.
    fn truncate(&mut self) -> Result {
        let mut pos = 0;
        while pos < self.size {
            let len = PAGE_SIZE.min(self.size - pos);
            let mut segs = [BioVecMut::new(&mut self.pages[pos / PAGE_SIZE], 0, len)?];
            IovIterDest::with_bvec(&mut segs, |dst| dst.zero(len));
            pos += len;
        }
        // INVARIANT: Every byte that was in use is zero now.
        self.size = 0;
        Ok(())
    }
}

/// The file of the device, shared by every open.
#[pin_data]
struct RamFile {
    capacity: usize,
    #[pin]
    contents: Mutex<Contents>,
}

impl RamFile {
    /// Takes the lock for a request: only tries it for an `IOCB_NOWAIT` one, and otherwise
    /// waits killably, so a task stuck behind a holder (e.g. one whose user buffer faults into
    /// userfaultfd) can still be killed.
    fn lock<T>(&self, kiocb: &Kiocb<'_, T>) -> Result<Guard<'_, Contents, MutexBackend>>
    where
        T: kernel::types::ForeignOwnable,
    {
        if kiocb.is_nowait() {
            self.contents.try_lock().ok_or(EAGAIN)
        } else {
            self.contents.lock_killable()
        }
    }

    /// The copy of `read_iter`: copies out, page by page from `start` into the non-empty `iov`,
    /// what lies below the size, and returns where it stopped and whether the user buffer
    /// faulted there.
    #[inline]
    fn read(contents: &Contents, start: usize, iov: &mut IovIterDest<'_>) -> (usize, bool) {
        let mut pos = start;
        while pos < contents.size {
            let offset = pos % PAGE_SIZE;
            let want = (PAGE_SIZE - offset).min(iov.len()).min(contents.size - pos);
            // The range lies inside the page, so this does not fail; if it did, the read would
            // end there as at a fault.
            let page = &contents.pages[pos / PAGE_SIZE];
            let copied = iov.copy_page_to_iter(page, offset, want).unwrap_or(0);
            // `copied <= want <= size - pos`, so this does not wrap.
            pos = pos.wrapping_add(copied);
            if copied < want {
                return (pos, true);
            }
            if iov.is_empty() {
                break;
            }
            // Between pages: a read can ask for up to 2 GiB.
            task::cond_resched();
        }
        (pos, false)
    }
}

#[vtable]
impl MiscDevice for RamFile {
    const NOWAIT: bool = true;
    const SPLICE: bool = true;
    type Ptr = Arc<RamFile>;
    type RegistrationData = Arc<RamFile>;

    fn open(file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Arc<RamFile>> {
        let rf = misc.data();
        if file.flags() & flags::O_TRUNC != 0 && file.is_writable() {
            rf.contents.lock_killable()?.truncate()?;
        }
        Ok(rf.clone())
    }

    // Inline into the file operation, so that it reaches the copy without an extra call.
    #[inline]
    fn read_iter(mut kiocb: Kiocb<'_, Arc<RamFile>>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let asked = iov.len();
        if asked == 0 {
            return Ok(0);
        }
        let rf: ArcBorrow<'_, RamFile> = kiocb.file();
        let contents = rf.lock(&kiocb)?;
        // The VFS never passes a negative position; one would become a huge one here, and a
        // position that does not fit in a `usize` is far beyond the end of the file.
        let start = usize::try_from(kiocb.ki_pos() as u64).unwrap_or(usize::MAX);
        let (pos, fault) = RamFile::read(&contents, start, iov);
        drop(contents);
        // What was read is how far `iov` moved: `read` moves it only by copying into it, and its
        // count only goes down, so this does not wrap. (The misc device glue checks the result
        // against the same difference, which the compiler then computes once.)
        let done = asked.wrapping_sub(iov.len());
        if done == 0 {
            return if fault { Err(EFAULT) } else { Ok(0) };
        }
        // At most the capacity (256 MiB), so the conversion is exact.
        *kiocb.ki_pos_mut() = pos as i64;
        Ok(done)
    }

    #[inline]
    fn write_iter(
        mut kiocb: Kiocb<'_, Arc<RamFile>>,
        iov: &mut IovIterSource<'_>,
    ) -> Result<usize> {
        if iov.is_empty() {
            return Ok(0);
        }
        let rf: ArcBorrow<'_, RamFile> = kiocb.file();
        let mut contents = rf.lock(&kiocb)?;
        let start = if kiocb.is_append() {
            contents.size
        } else {
            // As in `read_iter`; such a position is beyond the capacity.
            usize::try_from(kiocb.ki_pos() as u64).unwrap_or(usize::MAX)
        };
        if start >= rf.capacity {
            return Err(ENOSPC);
        }

        // Not empty and below the capacity: at least one copy.
        let mut pos = start;
        let stop = loop {
            let offset = pos % PAGE_SIZE;
            let want = (PAGE_SIZE - offset).min(iov.len()).min(rf.capacity - pos);
            // The copy below runs with page faults disabled, so bring the source in first; if
            // none of it can be, the write ends here.
            if iov.fault_in_readable(want) == want {
                break Err(EFAULT);
            }
            let page = &mut contents.pages[pos / PAGE_SIZE];
            // A short copy means the source went away again or only its start could be faulted
            // in: go round, fault in what is left and either copy it or stop at the fault.
            match iov.copy_page_from_iter_atomic(page, offset, want) {
                Ok(copied) => pos += copied,
                // Not expected (the range lies inside the page), but what was stored so far
                // must still be accounted for below.
                Err(e) => break Err(e),
            }
            if iov.is_empty() || pos >= rf.capacity {
                break Ok(());
            }
            // Before the next page or a retry: a write can be up to 2 GiB, so let a fatal
            // signal end it and other tasks run.
            if current!().fatal_signal_pending() {
                break Err(EINTR);
            }
            task::cond_resched();
        };
        if pos > start && pos > contents.size {
            // INVARIANT: The bytes up to `pos` were just written; those after it stay zero.
            contents.size = pos;
        }
        drop(contents);

        if pos == start {
            // Only an error ends the loop before anything is copied.
            return Err(stop.err().unwrap_or(EFAULT));
        }
        // At most the capacity (256 MiB), so the conversion is exact.
        *kiocb.ki_pos_mut() = pos as i64;
        Ok(pos - start)
    }

    fn llseek(
        rf: ArcBorrow<'_, RamFile>,
        file: &LocalFile,
        offset: i64,
        whence: Whence,
    ) -> Result<i64> {
        let base = match whence {
            Whence::Set => 0,
            Whence::Cur => file.pos(),
            Whence::End => i64::try_from(rf.contents.lock_killable()?.size)?,
            Whence::Data | Whence::Hole => return Err(EINVAL),
        };
        match base.checked_add(offset) {
            Some(pos) if pos >= 0 => Ok(pos),
            _ => Err(EINVAL),
        }
    }
}

#[pin_data]
struct RustIovRamfile {
    #[pin]
    misc: MiscDeviceRegistration<RamFile>,
}

impl kernel::InPlaceModule for RustIovRamfile {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        try_pin_init!(Self {
            misc <- MiscDeviceRegistration::register_with_data(
                MiscDeviceOptions {
                    name: c"rust-iov-ramfile",
                },
                new_ramfile()?,
            ),
        })
    }
}

/// The file, `capacity` bytes of zeroed pages.
fn new_ramfile() -> Result<Arc<RamFile>> {
    let capacity = *module_parameters::capacity.value();
    if capacity == 0 || capacity > MAX_CAPACITY {
        pr_err!("capacity {capacity} out of range (1 .. {MAX_CAPACITY})\n");
        return Err(EINVAL);
    }
    let nr_pages = capacity.div_ceil(PAGE_SIZE);
    let mut pages = KVVec::with_capacity(nr_pages, GFP_KERNEL)?;
    for _ in 0..nr_pages {
        pages.push(Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?, GFP_KERNEL)?;
    }
    pr_info!("/dev/rust-iov-ramfile: {capacity} bytes\n");
    // INVARIANT: `nr_pages` zeroed pages hold `capacity` bytes, all zero.
    Arc::pin_init(
        pin_init!(RamFile {
            capacity,
            contents <- new_mutex!(Contents { pages, size: 0 }, "RamFile::contents"),
        }),
        GFP_KERNEL,
    )
}
