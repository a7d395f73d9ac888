//! warm's integration tests, in one binary so that they link once; each module was a test binary
//! of its own, and its tests keep their names under the module's. `count` installs the counting
//! allocator as this binary's global allocator: its counters are per thread, so the other
//! modules' tests, on their own threads, do not disturb its counts.

mod alloc_file;
mod count;
