//! Files the tests of several crates start from, each written once: a manifest of one run of one
//! child (`noop`'s `de` on `small`), as a run writes it.

/// A thaw manifest as JSON (data/manifest.json).
pub const MANIFEST: &str = include_str!("../data/manifest.json");
