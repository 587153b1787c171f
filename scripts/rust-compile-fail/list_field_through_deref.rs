// SPDX-License-Identifier: GPL-2.0
// expect: E0026
//! Misuse: a `ListArc` field getter that reaches the field through `Deref`.
//!
//! `define_list_arc_field_getter!` hands out `&mut` to a `ListArcField` of the item, unique
//! because the `ListArc` is. Reached as `self.field`, it followed `Deref` to a value other
//! items share, and two `ListArc`s gave two `&mut` to one vector (a use after free in the
//! guest). The getter now names the field in a struct pattern: a field of the item only.

use core::ops::Deref;
use kernel::list::{define_list_arc_field_getter, impl_list_arc_safe, ListArc, ListArcField};
use kernel::prelude::*;

/// What items may share.
pub struct Shared {
    /// A count (misuse: reached through `Deref`).
    pub count: ListArcField<KVec<u64>>,
}

/// An item.
pub struct Item {
    #[cfg(not(misuse))]
    count: ListArcField<KVec<u64>>,
    shared: Shared,
}

impl Deref for Item {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.shared
    }
}

impl_list_arc_safe! {
    impl ListArcSafe<0> for Item { untracked; }
}

impl Item {
    define_list_arc_field_getter! {
        fn count_mut(&mut self) -> &mut KVec<u64> { count }
    }
}

/// Adds `n` to the count of an item whose `ListArc` the caller holds.
pub fn add(item: &mut ListArc<Item>, n: u64) -> Result {
    item.count_mut().push(n, GFP_KERNEL)?;
    Ok(())
}
