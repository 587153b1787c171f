// SPDX-License-Identifier: GPL-2.0
// expect: E0277
//! Misuse: an item with plain list links, inserted as if they were self-pointer links.
//!
//! `impl_list_item!`'s `using ListLinksSelfPtr` form writes the item's address after the links,
//! inside a `ListLinksSelfPtr`; given a plain `ListLinks` it wrote past them (a KASAN
//! out-of-bounds write in the guest). The form now requires `HasSelfPtr`, which only
//! `impl_has_list_links_self_ptr!` implements.

use kernel::list::{impl_has_list_links, impl_list_arc_safe, impl_list_item, ListLinks};
use kernel::prelude::*;

// The form used to name this trait unqualified, so a caller had to bring it (or a trait of its
// own with that name) into scope.
#[cfg(misuse)]
#[allow(unused_imports)]
use kernel::list::HasListLinks;

/// An item with plain links.
#[pin_data]
pub struct Item {
    /// Its value.
    pub value: u32,
    #[pin]
    links: ListLinks,
}

impl_has_list_links! {
    impl HasListLinks<0> for Item { self.links }
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Item { untracked; }
}

#[cfg(misuse)]
impl_list_item! {
    impl ListItem<0> for Item { using ListLinksSelfPtr; }
}

#[cfg(not(misuse))]
impl_list_item! {
    impl ListItem<0> for Item { using ListLinks; }
}
