//! A test double, not a codec: the `noop` child's `de` with one extra call in every operation
//! (`doubles::NoopExtraCall`), printing what `noop` prints. A counted run of it against
//! the real `child-noop-de-any` must show a change in first_op and remaining_ops and nothing
//! else: the check that `analysis compare --fail-on-regression` of counted runs catches a change
//! (cold/tests/all/run.rs).
fn main() {
    children::run::de::<doubles::NoopExtraCall, codecs::inputs::AnyInput>()
}
