//! The row format of a cold run's `samples.csv` and `plan.csv`: written by `cold`, read here.
//!
//! This module is the one definition of those files; the cold runner links it to write them, so
//! a column cannot be renamed on one side only. It holds formats, not statistics.

use serde::{Deserialize, Serialize};

/// One finished sample: one child process, one cell. Failed samples keep their row with the
/// timing fields empty and `status` saying why (`timeout`, `crash`, `signal:N`, `bad-output`,
/// `wrong-checksum`, `spawn-failed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct SampleRow {
    pub plan_index: u64,
    pub block: u32,
    pub codec: String,
    pub op: String,
    pub batch: u32,
    pub fixture: String,
    pub variant: String,
    /// `ok`, or why not.
    pub status: String,
    /// spawn → main: clone, exec, dynamic loader, runtime start.
    pub spawn_to_main_ns: Option<u64>,
    /// main → fixture: reading or building the input (not charged to the library).
    pub fixture_ns: Option<u64>,
    /// fixture → init: the library's own set-up.
    pub init_ns: Option<u64>,
    /// init → first: the first operation.
    pub first_op_ns: Option<u64>,
    /// first → done: the other batch − 1 operations.
    pub remaining_ops_ns: Option<u64>,
    /// done → checked: the child computing its checksum (outside every library phase).
    pub check_ns: Option<u64>,
    /// checked → reaped: drops, exit handlers, teardown, reaping.
    pub exit_ns: Option<u64>,
    /// init + first_op + remaining_ops: the headline figure.
    pub init_plus_ops_ns: Option<u64>,
    /// spawn → reaped: the whole process.
    pub wall_ns: Option<u64>,
    pub user_us: Option<u64>,
    pub sys_us: Option<u64>,
    pub maxrss_kib: Option<u64>,
    pub minflt: Option<u64>,
    pub majflt: Option<u64>,
    pub inblock: Option<u64>,
    pub nvcsw: Option<u64>,
    pub nivcsw: Option<u64>,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub checksum: Option<String>,
    pub error: Option<String>,
}

impl SampleRow {
    pub fn is_ok(&self) -> bool {
        self.status == "ok"
    }
}

/// One planned sample, in run order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanRow {
    pub plan_index: u64,
    pub block: u32,
    pub codec: String,
    pub op: String,
    pub batch: u32,
    pub fixture: String,
    pub variant: String,
}
