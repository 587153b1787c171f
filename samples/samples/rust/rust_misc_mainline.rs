// SPDX-License-Identifier: GPL-2.0

//! A scratch pad behind a misc device, written against mainline's Rust API only.
//!
//! `/dev/rust-misc-mainline` keeps, per open file, a buffer that a write replaces and a read
//! returns. It uses nothing but what mainline Linux 6.18 offers for misc devices: `MiscDevice`
//! with `open(file, misc)`, `read_iter`/`write_iter` taking a `Kiocb<'_, Self::Ptr>`,
//! `IovIterDest::simple_read_from_buffer` and `IovIterSource::copy_from_iter_vec`, `ioctl`,
//! `show_fdinfo` with `seq_print!`, an `InPlaceModule` and a module parameter (`tag`, an `i8`
//! shown in fdinfo).
//! It builds unchanged on mainline, which is what it is here to prove: if this series' API drifts
//! from mainline's, this sample stops building. `rust_misc_mainline_test.c` tests it from user
//! space.
//!
//! ioctl commands (`'|'` type, as in C: `_IO('|', 0x90)` and `_IO('|', 0x91)`):
//! `SCRATCH_GET_LEN` returns the buffer's length, `SCRATCH_CLEAR` empties it; anything else is
//! `ENOTTY`.

use kernel::{
    c_str,
    fs::{File, Kiocb},
    ioctl::_IO,
    iov::{IovIterDest, IovIterSource},
    miscdevice::{MiscDevice, MiscDeviceOptions, MiscDeviceRegistration},
    new_mutex,
    prelude::*,
    seq_file::SeqFile,
    seq_print,
    sync::Mutex,
};

const SCRATCH_GET_LEN: u32 = _IO('|' as u32, 0x90);
const SCRATCH_CLEAR: u32 = _IO('|' as u32, 0x91);

module! {
    type: ScratchModule,
    name: "rust_misc_mainline",
    author: "Rust for Linux Contributors",
    description: "Scratch pad misc device using only mainline's Rust API",
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
            name: c_str!("rust-misc-mainline"),
        };
        try_pin_init!(Self {
            _misc <- MiscDeviceRegistration::register(options),
        })
    }
}

/// What one open file holds.
struct Pad {
    data: KVVec<u8>,
    writes: u64,
}

#[pin_data]
struct Scratch {
    #[pin]
    pad: Mutex<Pad>,
}

#[vtable]
impl MiscDevice for Scratch {
    type Ptr = Pin<KBox<Self>>;

    fn open(_file: &File, _misc: &MiscDeviceRegistration<Self>) -> Result<Pin<KBox<Self>>> {
        KBox::try_pin_init(
            try_pin_init!(Scratch {
                pad <- new_mutex!(Pad {
                    data: KVVec::new(),
                    writes: 0,
                }),
            }),
            GFP_KERNEL,
        )
    }

    fn read_iter(mut kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterDest<'_>) -> Result<usize> {
        let me = kiocb.file();
        let pad = me.pad.lock();
        iov.simple_read_from_buffer(kiocb.ki_pos_mut(), &pad.data)
    }

    fn write_iter(mut kiocb: Kiocb<'_, Self::Ptr>, iov: &mut IovIterSource<'_>) -> Result<usize> {
        let me = kiocb.file();
        let mut pad = me.pad.lock();
        pad.data.clear();
        let len = iov.copy_from_iter_vec(&mut pad.data, GFP_KERNEL)?;
        pad.writes += 1;
        // The next read starts from the new contents.
        *kiocb.ki_pos_mut() = 0;
        Ok(len)
    }

    fn ioctl(me: Pin<&Scratch>, _file: &File, cmd: u32, _arg: usize) -> Result<isize> {
        let mut pad = me.pad.lock();
        match cmd {
            // A buffer holds at most `isize::MAX` bytes.
            SCRATCH_GET_LEN => Ok(pad.data.len() as isize),
            SCRATCH_CLEAR => {
                pad.data.clear();
                Ok(0)
            }
            _ => Err(ENOTTY),
        }
    }

    fn show_fdinfo(me: Pin<&Scratch>, m: &SeqFile, _file: &File) {
        let pad = me.pad.lock();
        seq_print!(
            m,
            "scratch_len:\t{}\nscratch_writes:\t{}\nscratch_tag:\t{}\n",
            pad.data.len(),
            pad.writes,
            *module_parameters::tag.value()
        );
    }
}
