// SPDX-License-Identifier: GPL-2.0
// expect: proc macro panicked
//! Misuse: a module name that is not an identifier.
//!
//! `module!` pastes the name into the identifiers and sections of the code it generates; a name
//! with other characters could close that code and open code of its own (where the generated
//! `unsafe` blocks can be taken apart by a macro of the driver's). Only ASCII letters, digits and
//! `_` are allowed.

use kernel::prelude::*;

struct Named;

impl kernel::Module for Named {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(Named)
    }
}

#[cfg(not(misuse))]
module! {
    type: Named,
    name: "module_name_code",
    license: "GPL",
}

#[cfg(misuse)]
module! {
    type: Named,
    name: "module_name_code } mod more {",
    license: "GPL",
}
