// SPDX-License-Identifier: GPL-2.0

//! A misc device written against mainline's Rust API only.
//!
//! `/dev/rust-misc-mainline` is the device of mainline's `samples/rust/rust_misc_device.rs`,
//! written anew: every open file has a value that `ioctl`s read and set, and a buffer that a
//! write replaces and a read returns; the device logs opens, closes and hellos through its
//! `struct device`. On top, two `ioctl`s on the buffer, an fdinfo line and a module parameter.
//! It uses nothing but what mainline offers: `MiscDevice` with `open(file, misc)`,
//! `read_iter`/`write_iter` taking a `Kiocb<'_, Self::Ptr>`, `IovIterDest` and
//! `IovIterSource`, `UserSlice` over a `UserPtr`, `ARef<Device>` and `dev_info!`/`dev_err!`,
//! `show_fdinfo` with `seq_print!`, an `InPlaceModule`, `module!` with `authors` and a
//! parameter (`tag`, an `i8` shown in fdinfo), and a `c"…"` device name. If this series' API
//! drifts from mainline's, this sample stops building. `rust_misc_mainline_test.c` tests it
//! from user space.
//!
//! Unlike mainline's sample, a read that faults before copying anything fails with `EFAULT`
//! instead of returning 0 (the end of the file), and a write from a bad buffer fails with
//! `EFAULT` and keeps the old contents.
//!
//! `ioctl` commands, of type `'|'` as in mainline's sample:
//!
//! - `MISC_HELLO` (`_IO('|', 0x80)`) logs a hello;
//! - `MISC_GET_VALUE` (`_IOR('|', 0x81, int)`) writes the file's value to the `int` at `arg`;
//! - `MISC_SET_VALUE` (`_IOW('|', 0x82, int)`) sets it from the `int` at `arg`;
//! - `SCRATCH_GET_LEN` (`_IO('|', 0x90)`) returns the buffer's length;
//! - `SCRATCH_CLEAR` (`_IO('|', 0x91)`) empties it;
//!
//! anything else is logged and fails with `ENOTTY`.

use core::mem;
use kernel::{
    device::Device,
    fs::{File, Kiocb},
    ioctl::{_IO, _IOC_SIZE, _IOR, _IOW},
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    seq_file::SeqFile,
    seq_print,
    sync::{aref::ARef, Mutex},
    uaccess::UserSlice,
};

const MISC_HELLO: u32 = _IO('|' as u32, 0x80);
const MISC_GET_VALUE: u32 = _IOR::<i32>('|' as u32, 0x81);
const MISC_SET_VALUE: u32 = _IOW::<i32>('|' as u32, 0x82);
const SCRATCH_GET_LEN: u32 = _IO('|' as u32, 0x90);
const SCRATCH_CLEAR: u32 = _IO('|' as u32, 0x91);

module! {
    type: ScratchModule,
    name: "rust_misc_mainline",
    authors: ["Rust for Linux Contributors"],
    description: "Misc device using only mainline's Rust API",
    license: "GPL",
    params: {
        tag: i8 {
            default: 0,
            description: "a number every open file shows in its fdinfo",
        },
    },
}

#[pin_data]
struct ScratchModule {
    #[pin]
    _misc: MiscDeviceRegistration<Scratch>,
}

impl kernel::InPlaceModule for ScratchModule {
    fn init(_module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let options = MiscDeviceOptions {
            name: c"rust-misc-mainline",
        };
        try_pin_init!(Self {
            _misc <- MiscDeviceRegistration::register(options),
        })
    }
}

/// What one open file holds.
struct Pad {
    value: i32,
    data: KVVec<u8>,
    writes: u64,
}

#[pin_data(PinnedDrop)]
struct Scratch {
    #[pin]
    pad: Mutex<Pad>,
    dev: ARef<Device>,
}

#[vtable]
impl MiscDevice for Scratch {
    type Ptr = Pin<KBox<Self>>;

    fn open(_file: &File, misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        let dev = ARef::from(misc.device());
        dev_info!(dev, "opened\n");
        KBox::try_pin_init(
            try_pin_init!(Scratch {
                pad <- new_mutex!(Pad {
                    value: 0,
                    data: KVVec::new(),
                    writes: 0,
                }),
                dev,
            }),
            GFP_KERNEL,
        )
    }

    fn read_iter(mut kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let me = kiocb.file();
        let pad = me.pad.lock();
        let n = iov.simple_read_from_buffer(kiocb.ki_pos_mut(), &pad.data)?;
        // 0 with bytes left on both sides: the user buffer faulted, not the end of the file.
        let left = usize::try_from(kiocb.ki_pos()).is_ok_and(|pos| pos < pad.data.len());
        if n == 0 && left && !iov.is_empty() {
            return Err(EFAULT);
        }
        Ok(n)
    }

    fn write_iter(mut kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let me = kiocb.file();
        // Copy into a new buffer first: a bad user buffer must not cost the old contents.
        let mut data = KVVec::new();
        let len = iov.copy_from_iter_vec(&mut data, GFP_KERNEL)?;
        if len == 0 && !iov.is_empty() {
            return Err(EFAULT);
        }
        let mut pad = me.pad.lock();
        mem::swap(&mut pad.data, &mut data);
        pad.writes += 1;
        drop(pad);
        // The next read starts from the new contents.
        *kiocb.ki_pos_mut() = 0;
        Ok(len)
    }

    fn ioctl(me: Pin<&Scratch>, _file: &File, cmd: u32, arg: usize) -> Result<isize> {
        let size = _IOC_SIZE(cmd);
        let mut pad = me.pad.lock();
        match cmd {
            MISC_HELLO => dev_info!(me.dev, "hello\n"),
            MISC_GET_VALUE => {
                let mut writer = UserSlice::new(UserPtr::from_addr(arg), size).writer();
                writer.write::<i32>(&pad.value)?;
            }
            MISC_SET_VALUE => {
                let mut reader = UserSlice::new(UserPtr::from_addr(arg), size).reader();
                pad.value = reader.read::<i32>()?;
            }
            // A buffer holds at most `isize::MAX` bytes.
            SCRATCH_GET_LEN => return Ok(pad.data.len() as isize),
            SCRATCH_CLEAR => pad.data.clear(),
            _ => {
                dev_err!(me.dev, "unknown ioctl {:#x}\n", cmd);
                return Err(ENOTTY);
            }
        }
        Ok(0)
    }

    fn show_fdinfo(me: Pin<&Scratch>, m: &SeqFile, _file: &File) {
        let pad = me.pad.lock();
        seq_print!(
            m,
            "scratch_len:\t{}\nscratch_writes:\t{}\nscratch_value:\t{}\nscratch_tag:\t{}\n",
            pad.data.len(),
            pad.writes,
            pad.value,
            *module_parameters::tag.value()
        );
    }
}

#[pinned_drop]
impl PinnedDrop for Scratch {
    fn drop(self: Pin<&mut Self>) {
        dev_info!(self.dev, "closed\n");
    }
}
