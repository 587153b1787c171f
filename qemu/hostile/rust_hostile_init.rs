// SPDX-License-Identifier: GPL-2.0

//! A module whose `init` registers a misc device, waits for user space to open it, and then
//! fails, in safe code only (the build refuses the word `unsafe`).
//!
//! The loader frees a module whose `init` fails whatever files of it are open, so a file opened
//! in between would be left with freed code. `hostile_test.c` loads it in one thread and tries
//! to open `/dev/hostile-init` from another while `init` waits: the open must fail (`EAGAIN`)
//! and `init`'s error (`ENXIO`) must reach `finit_module()`. Before it fails, `init` also
//! queues a work item that sleeps half a second: the module must not be freed under it.

use core::sync::atomic::{AtomicBool, Ordering};
use kernel::{
    fs::File,
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    new_condvar, new_mutex,
    prelude::*,
    time::msecs_to_jiffies,
};

module! {
    type: FailingInit,
    name: "rust_hostile_init",
    author: "Rust for Linux Contributors",
    description: "A module whose init fails after its device was opened (test module)",
    license: "GPL",
}

/// Set by the device's `open`.
static OPENED: AtomicBool = AtomicBool::new(false);

struct FailingInit;

impl kernel::Module for FailingInit {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let options = MiscDeviceOptions {
            name: c"hostile-init",
        };
        let _reg = KBox::pin_init(
            MiscDeviceRegistration::<Late>::register(options),
            GFP_KERNEL,
        )?;
        // Give user space three seconds to open the device, in steps of 10 ms.
        let lock = KBox::pin_init(new_mutex!(()), GFP_KERNEL)?;
        let nap = KBox::pin_init(new_condvar!(), GFP_KERNEL)?;
        let mut guard = lock.lock();
        for _ in 0..300 {
            if OPENED.load(Ordering::Relaxed) {
                break;
            }
            // Nothing notifies `nap`: this sleeps 10 ms, or less if a signal comes.
            let _ = nap.wait_interruptible_timeout(&mut guard, msecs_to_jiffies(10));
        }
        drop(guard);
        // A work item of this module, still running when `init` fails: the module must wait.
        let _ = kernel::workqueue::system().try_spawn(GFP_KERNEL, move || {
            let mut guard = lock.lock();
            for _ in 0..50 {
                let _ = nap.wait_interruptible_timeout(&mut guard, msecs_to_jiffies(10));
            }
        });
        Err(ENXIO)
    }
}

/// Reads as an endless run of `'i'`.
struct Late;

#[vtable]
impl MiscDevice for Late {
    type Ptr = ();

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result {
        OPENED.store(true, Ordering::Relaxed);
        Ok(())
    }

    fn read_iter(
        _kiocb: kernel::fs::Kiocb<'_, ()>,
        iov: &mut kernel::iov::IovIterDest<'_>,
    ) -> Result<usize> {
        Ok(iov.copy_to_iter(&[b'i'; 64]))
    }
}
