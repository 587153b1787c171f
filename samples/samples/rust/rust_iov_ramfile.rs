// SPDX-License-Identifier: GPL-2.0

//! A fixed-capacity RAM file behind a misc device, served through `kernel::iov`.
//!
//! `/dev/rust-iov-ramfile` is the Rust twin of `/dev/c-iov-ramfile`
//! (`samples/iov_ramfile/c_iov_ramfile.c`). The header comment of the C driver specifies the
//! behaviour of both, to the errno; `samples/iov_ramfile/iov_ramfile_test.c` checks from user
//! space that the two give identical results for every request.
//!
//! In short: one file shared by every open, `capacity` bytes (module parameter, 1 byte to
//! 256 MiB, default 4 MiB) kept in zeroed pages, and a size. `O_TRUNC` on a writable open empties
//! it. `read_iter` copies out up to the size; `write_iter` stores page by page the way
//! filesystems do (fault the source in, copy with page faults disabled, go on by what was
//! copied), stores what fits below the capacity and then fails with `ENOSPC`, and returns the
//! bytes stored or `EFAULT`. One mutex serialises the requests; `RWF_NOWAIT` only tries it.

use kernel::{
    c_str, current,
    fs::{file::flags, File, Kiocb},
    iov::{Bvec, IovDest, IovSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration, Whence},
    page::{Page, PAGE_SIZE},
    prelude::*,
    sync::{
        lock::{mutex::MutexBackend, Guard},
        new_mutex, Arc, ArcBorrow, Mutex,
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
        capacity: ulong {
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
            let mut segs = [Bvec::dest(&mut self.pages[pos / PAGE_SIZE], 0, len)?];
            IovDest::bvec(&mut segs).zero(len);
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
    /// Takes the lock for a request; only tries it for an `IOCB_NOWAIT` one.
    fn lock(&self, iocb: &Kiocb<'_>) -> Result<Guard<'_, Contents, MutexBackend>> {
        if iocb.is_nowait() {
            self.contents.try_lock().ok_or(EAGAIN)
        } else {
            Ok(self.contents.lock())
        }
    }
}

#[vtable]
impl MiscDevice for RamFile {
    const OWNER: &'static ThisModule = &THIS_MODULE;
    const NOWAIT: bool = true;
    type Data = Arc<RamFile>;
    type Ptr = Arc<RamFile>;

    fn open(file: &Arc<RamFile>, open: &File) -> Result<Arc<RamFile>> {
        if open.flags() & flags::O_TRUNC != 0 && open.is_writable() {
            file.contents.lock().truncate()?;
        }
        Ok(file.clone())
    }

    // Inline into the file operation, so that it reaches the copy without an extra call.
    #[inline]
    fn read_iter(
        file: ArcBorrow<'_, RamFile>,
        iocb: &mut Kiocb<'_>,
        to: &mut IovDest<'_>,
    ) -> Result<usize> {
        if to.is_empty() {
            return Ok(0);
        }
        let contents = file.lock(iocb)?;
        // A position that does not fit in a `usize` is far beyond the end of the file.
        let start = usize::try_from(iocb.pos()).unwrap_or(usize::MAX);
        let mut pos = start;
        let mut fault = false;
        while !to.is_empty() && pos < contents.size {
            let offset = pos % PAGE_SIZE;
            let want = (PAGE_SIZE - offset).min(to.len()).min(contents.size - pos);
            let copied = to.copy_page_to_iter(&contents.pages[pos / PAGE_SIZE], offset, want)?;
            pos += copied;
            if copied < want {
                fault = true;
                break;
            }
        }
        drop(contents);

        let done = pos - start;
        if done == 0 {
            return if fault { Err(EFAULT) } else { Ok(0) };
        }
        iocb.advance_pos(done)?;
        Ok(done)
    }

    #[inline]
    fn write_iter(
        file: ArcBorrow<'_, RamFile>,
        iocb: &mut Kiocb<'_>,
        from: &mut IovSource<'_>,
    ) -> Result<usize> {
        if from.is_empty() {
            return Ok(0);
        }
        let mut contents = file.lock(iocb)?;
        let start = if iocb.is_append() {
            contents.size
        } else {
            // A position that does not fit in a `usize` is beyond the capacity.
            usize::try_from(iocb.pos()).unwrap_or(usize::MAX)
        };
        if start >= file.capacity {
            return Err(ENOSPC);
        }

        let mut pos = start;
        let mut stop = Ok(());
        while !from.is_empty() && pos < file.capacity {
            let offset = pos % PAGE_SIZE;
            let want = (PAGE_SIZE - offset)
                .min(from.len())
                .min(file.capacity - pos);
            if current!().fatal_signal_pending() {
                stop = Err(EINTR);
                break;
            }
            // The copy below runs with page faults disabled, so bring the source in first; if
            // none of it can be, the write ends here.
            if from.fault_in_readable(want) == want {
                stop = Err(EFAULT);
                break;
            }
            let page = &mut contents.pages[pos / PAGE_SIZE];
            // A short copy means the source went away again or only its start could be faulted
            // in: go round, fault in what is left and either copy it or stop at the fault.
            match from.copy_page_from_iter_atomic(page, offset, want) {
                Ok(copied) => pos += copied,
                // Not expected (the range lies inside the page), but what was stored so far
                // must still be accounted for below.
                Err(e) => {
                    stop = Err(e);
                    break;
                }
            }
            task::cond_resched();
        }
        if pos > start && pos > contents.size {
            // INVARIANT: The bytes up to `pos` were just written; those after it stay zero.
            contents.size = pos;
        }
        drop(contents);

        let done = pos - start;
        if done == 0 {
            // The loop ran at least once and left without copying, so `stop` is an error.
            return Err(stop.err().unwrap_or(EFAULT));
        }
        // At most the capacity, which fits.
        iocb.set_pos(i64::try_from(pos)?)?;
        Ok(done)
    }

    fn llseek(
        file: ArcBorrow<'_, RamFile>,
        open: &File,
        offset: i64,
        whence: Whence,
    ) -> Result<i64> {
        let base = match whence {
            Whence::Set => 0,
            Whence::Cur => open.pos(),
            Whence::End => i64::try_from(file.contents.lock().size)?,
            Whence::Data | Whence::Hole => return Err(EINVAL),
        };
        match base.checked_add(offset) {
            Some(pos) if pos >= 0 => Ok(pos),
            _ => Err(EINVAL),
        }
    }
}

struct RustIovRamfile {
    _misc: Pin<KBox<MiscDeviceRegistration<RamFile>>>,
}

impl kernel::Module for RustIovRamfile {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let capacity: usize = module_parameters::capacity.get();
        if capacity == 0 || capacity > MAX_CAPACITY {
            pr_err!("capacity {capacity} out of range (1 .. {MAX_CAPACITY})\n");
            return Err(EINVAL);
        }
        let nr_pages = capacity.div_ceil(PAGE_SIZE);
        let mut pages = KVVec::with_capacity(nr_pages, GFP_KERNEL)?;
        for _ in 0..nr_pages {
            pages.push(Page::alloc_page(GFP_KERNEL | __GFP_ZERO)?, GFP_KERNEL)?;
        }
        // INVARIANT: `nr_pages` zeroed pages hold `capacity` bytes, all zero.
        let file = Arc::pin_init(
            pin_init!(RamFile {
                capacity,
                contents <- new_mutex!(Contents { pages, size: 0 }, "RamFile::contents"),
            }),
            GFP_KERNEL,
        )?;
        let options = MiscDeviceOptions {
            name: c_str!("rust-iov-ramfile"),
        };
        let misc = KBox::pin_init(MiscDeviceRegistration::register(options, file), GFP_KERNEL)?;
        pr_info!("/dev/rust-iov-ramfile: {capacity} bytes\n");
        Ok(Self { _misc: misc })
    }
}
