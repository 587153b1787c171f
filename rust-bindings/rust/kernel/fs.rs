// SPDX-License-Identifier: GPL-2.0

//! File systems and files.
//!
//! C header: [`include/linux/fs.h`](srctree/include/linux/fs.h)
//!
//! What a file operation is called with: the open [`File`] (a [`LocalFile`] for `read_iter`,
//! `write_iter` and `llseek`) and, for `read_iter` and `write_iter`, the [`Kiocb`] describing the
//! request. Drivers implement file operations through [`miscdevice`](crate::miscdevice).

pub mod file;
pub mod kiocb;

pub use self::file::{File, LocalFile};
pub use self::kiocb::Kiocb;
