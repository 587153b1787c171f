// SPDX-License-Identifier: GPL-2.0
// expect: E0599
//! Misuse: asking a task held by reference for its group leader.
//!
//! A task holds no reference to its group leader: once the task is not running, the leader can
//! exit and be freed. Only the running task (`current!()`, a `CurrentTask`) has a
//! `group_leader()`.

use kernel::sync::aref::ARef;
use kernel::task::Task;

/// Returns the pid of a task's group leader: of any task (misuse), of the running one (control).
pub fn leader_pid(task: &ARef<Task>) -> i32 {
    #[cfg(misuse)]
    let pid = task.group_leader().pid();
    #[cfg(not(misuse))]
    let pid = {
        let _ = task;
        kernel::current!().group_leader().pid()
    };
    pid
}
