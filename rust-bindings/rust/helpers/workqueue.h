/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RUST_HELPERS_WORKQUEUE_H
#define _RUST_HELPERS_WORKQUEUE_H

#include <linux/module.h>
#include <linux/workqueue.h>

/*
 * A Rust work item: kernel::workqueue::Work wraps this structure (the
 * bindings see it through bindings_helper.h).  Its work_struct runs a C
 * function that calls @func, the item's own function in the module that
 * implements it, and only then drops the reference on @owner, that module,
 * which queueing the item took (see helpers/workqueue.c).
 */
struct rust_work {
	struct work_struct work;
	work_func_t func;
	struct module *owner;
};

#endif /* _RUST_HELPERS_WORKQUEUE_H */
