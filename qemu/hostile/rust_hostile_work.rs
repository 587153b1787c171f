// SPDX-License-Identifier: GPL-2.0

//! A misc device that leaves work items behind when its files are released and when its
//! module exits, in safe code only (the build refuses the word `unsafe`).
//!
//! A work item's function is code of this module: the module must stay while an item of it is
//! queued or running. `hostile_test.c` closes a file of `/dev/hostile-work`, whose state queues
//! an item that sleeps a second when it is dropped, and unloads the module at once: that must
//! fail (`EWOULDBLOCK`) until the item has run. The module's own drop queues another item,
//! which its exit must wait for.

use kernel::{
    fs::File,
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    new_condvar, new_mutex,
    prelude::*,
    time::msecs_to_jiffies,
    workqueue,
};

module! {
    type: LeaveWork,
    name: "rust_hostile_work",
    author: "Rust for Linux Contributors",
    description: "Work items queued on release and on exit (test module)",
    license: "GPL",
}

/// Sleeps about `ms` milliseconds, in steps of 10 ms.
fn nap(ms: u32) {
    let (Ok(lock), Ok(cond)) = (
        KBox::pin_init(new_mutex!(()), GFP_KERNEL),
        KBox::pin_init(new_condvar!(), GFP_KERNEL),
    ) else {
        return;
    };
    let mut guard = lock.lock();
    for _ in 0..ms / 10 {
        // Nothing notifies `cond`: this sleeps 10 ms, or less if a signal comes.
        let _ = cond.wait_interruptible_timeout(&mut guard, msecs_to_jiffies(10));
    }
}

#[pin_data(PinnedDrop)]
struct LeaveWork {
    #[pin]
    _dev: MiscDeviceRegistration<Leaver>,
}

impl kernel::InPlaceModule for LeaveWork {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let options = MiscDeviceOptions {
            name: c"hostile-work",
        };
        try_pin_init!(Self { _dev <- MiscDeviceRegistration::register(options) })
    }
}

#[pinned_drop]
impl PinnedDrop for LeaveWork {
    fn drop(self: Pin<&mut Self>) {
        let _ = workqueue::system_long().try_spawn(GFP_KERNEL, || {
            nap(500);
            pr_info!("rust_hostile_work: the exit's work item ran\n");
        });
    }
}

/// The state of one open file: dropping it queues slow cleanup.
struct OpenState;

impl Drop for OpenState {
    fn drop(&mut self) {
        let _ = workqueue::system_long().try_spawn(GFP_KERNEL, || nap(1000));
    }
}

struct Leaver;

#[vtable]
impl MiscDevice for Leaver {
    type Ptr = KBox<OpenState>;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<KBox<OpenState>> {
        Ok(KBox::new(OpenState, GFP_KERNEL)?)
    }
}
