//! warm: thaw's warm track. A long-lived process's view of every JSON library: criterion
//! benches of steady throughput (`benches/throughput.rs`) and allocations per operation
//! (`src/bin/alloc.rs`), on the same fixtures and codec adapters as the cold track.
//!
//! The library holds what both programs share, so that they run exactly the same code:
//! where results go and which variant they are ([`settings`]), the correctness gate and the
//! list of cells ([`gate`]), how one operation of codec `C` is run ([`run`]), how a cell is
//! handed to criterion ([`bench`]), the counting allocator ([`count`]), and the forks: each cell
//! in several fresh processes ([`forks`], the plan; [`driver`], the processes). It measures nothing
//! by itself, and it never reads what it wrote: the `analysis` crate does.

pub mod bench;
pub mod count;
pub mod driver;
pub mod forks;
pub mod gate;
pub mod run;
pub mod settings;

use codecs::Op;

/// The criterion group of a cell: `<fixture>/<op>`. The codec id is the function inside it, so
/// criterion's full id is [`bench_id`].
pub fn group_name(fixture: &str, op: Op) -> String {
    format!("{fixture}/{op}")
}

/// A cell's benchmark id, `<fixture>/<op>/<codec>`, as criterion writes it in
/// `benchmark.json`'s `full_id` and as the analysis crate reads it back.
pub fn bench_id(fixture: &str, op: Op, codec: &str) -> String {
    format!("{}/{codec}", group_name(fixture, op))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_ids_are_fixture_op_codec() {
        assert_eq!(group_name("users-1kb", Op::De), "users-1kb/de");
        assert_eq!(
            bench_id("users-1kb", Op::De, "serde_json"),
            "users-1kb/de/serde_json"
        );
        assert_eq!(
            bench_id("twitter", Op::Ser, "simd-json-value"),
            "twitter/ser/simd-json-value"
        );
        // Every fixture and codec id splits back into exactly three parts.
        for fixture in fixtures::FIXTURES {
            for codec in codecs::registry() {
                for op in Op::ALL {
                    let id = bench_id(fixture.name, op, codec.id());
                    let parts: Vec<&str> = id.split('/').collect();
                    assert_eq!(parts, [fixture.name, op.name(), codec.id()]);
                }
            }
        }
    }
}
