//! The synthetic run's codecs: a made-up cost model per codec, and the truth a cell of it is
//! planted with (its init_plus_ops in ns, or the instruction and allocation counts of a counted
//! run).

use schema::phases::{Figure, Phase, Quantity};
use schema::rows::Figures;
use schema::{Op, Style, Variant};

/// A made-up codec: its style and costs in ns (init; first call and each further call of `de`
/// and `ser`), its child's size, and its native build's cost over its portable one. `ser_first`
/// of 0 means it cannot serialise (like jiter).
pub struct CostModel {
    pub id: &'static str,
    pub(super) style: Style,
    pub(super) init: f64,
    pub(super) de_first: f64,
    pub(super) de_per_op: f64,
    pub(super) ser_first: f64,
    pub(super) ser_per_op: f64,
    pub(super) child_kib: u64,
    /// The library's phases of a `native` child over a `portable` one's (the planted variant
    /// ratio).
    pub native: f64,
}

const fn model(
    id: &'static str,
    style: Style,
    init: f64,
    (de_first, de_per_op): (f64, f64),
    (ser_first, ser_per_op): (f64, f64),
    child_kib: u64,
) -> CostModel {
    CostModel {
        id,
        style,
        init,
        de_first,
        de_per_op,
        ser_first,
        ser_per_op,
        child_kib,
        native: 1.0,
    }
}

/// `m` with a native build `native` times its portable one.
const fn native(m: CostModel, native: f64) -> CostModel {
    CostModel { native, ..m }
}

/// The synthetic run's codecs: made-up cost models named after thaw's codecs so a synthetic
/// report reads like a real one. They are test data, not the registry.
pub(super) const MODELS: &[CostModel] = &[
    model(
        "noop",
        Style::Baseline,
        0.0,
        (300.0, 60.0),
        (300.0, 60.0),
        400,
    ),
    model(
        "serde_json",
        Style::Typed,
        30.0,
        (26_000.0, 4_000.0),
        (12_000.0, 1_500.0),
        560,
    ),
    model(
        "serde_json-value",
        Style::Dom,
        30.0,
        (31_000.0, 6_000.0),
        (15_000.0, 2_500.0),
        600,
    ),
    native(
        model(
            "simd-json",
            Style::Typed,
            2_000.0,
            (44_000.0, 2_500.0),
            (14_000.0, 1_800.0),
            900,
        ),
        0.48,
    ),
    native(
        model(
            "simd-json-value",
            Style::Dom,
            2_000.0,
            (50_000.0, 3_200.0),
            (16_000.0, 2_200.0),
            950,
        ),
        0.44,
    ),
    native(
        model(
            "sonic-rs",
            Style::Typed,
            40.0,
            (62_000.0, 2_000.0),
            (18_000.0, 1_200.0),
            1_100,
        ),
        0.69,
    ),
    native(
        model(
            "sonic-rs-value",
            Style::Dom,
            40.0,
            (66_000.0, 2_600.0),
            (20_000.0, 1_600.0),
            1_150,
        ),
        0.49,
    ),
    model(
        "miniserde",
        Style::Typed,
        20.0,
        (21_000.0, 7_000.0),
        (10_000.0, 3_000.0),
        480,
    ),
    model(
        "nanoserde",
        Style::Typed,
        20.0,
        (18_000.0, 5_000.0),
        (9_000.0, 2_500.0),
        470,
    ),
    model(
        "jiter",
        Style::Dom,
        20.0,
        (23_000.0, 3_000.0),
        (0.0, 0.0),
        700,
    ),
];

impl CostModel {
    pub(super) fn can_ser(&self) -> bool {
        self.ser_first > 0.0
    }

    /// (first call, each further call) of `op`.
    pub(super) fn costs(&self, op: Op) -> (f64, f64) {
        match op {
            Op::De => (self.de_first, self.de_per_op),
            Op::Ser => (self.ser_first, self.ser_per_op),
        }
    }
}

/// The planted truth of a cell's init_plus_ops, ns: init, the first call and batch − 1 further
/// calls (each 2% dearer than a warm one) of the cost model, `scale`d, times the model's native
/// factor for a native build. `None` for a codec the synthetic run does not have, or a `ser` it
/// cannot do. The ratio of two cells' truths is the ratio their within-block pairs estimate.
pub fn truth(codec: &str, op: Op, batch: u32, variant: Variant, scale: f64) -> Option<f64> {
    let m = MODELS.iter().find(|m| m.id == codec)?;
    if op == Op::Ser && !m.can_ser() {
        return None;
    }
    let (first, per) = m.costs(op);
    let build = if variant == Variant::NATIVE {
        m.native
    } else {
        1.0
    };
    Some((m.init + first + f64::from(batch - 1) * per * 1.02) * scale * build)
}

/// The cost models of the synthetic run, in its codec order.
pub fn models() -> &'static [CostModel] {
    MODELS
}

/// Instructions a counted synthetic run plants per ns of its cost model's truth.
pub const INSTRUCTIONS_PER_NS: f64 = 4.0;

/// The counts a counted synthetic run plants in every ok sample of a cell: the library's phases
/// from the cost model's truth (init, the first call, batch − 1 further calls; `scale` applied
/// as `--scale` does, and a native build's factor), times [`INSTRUCTIONS_PER_NS`], rounded; the
/// process's other phases and the allocations from simple rules. `None` for a codec the
/// synthetic run does not have, or a `ser` it cannot do.
pub fn planted(codec: &str, op: Op, batch: u32, scale: f64) -> Option<Figures> {
    let m = MODELS.iter().find(|m| m.id == codec)?;
    if op == Op::Ser && !m.can_ser() {
        return None;
    }
    let (first, per) = m.costs(op);
    let instr = |ns: f64| (ns * scale * INSTRUCTIONS_PER_NS).round() as u64;
    let further = u64::from(batch.saturating_sub(1));
    // a block per 500 ns of first call, of 75 bytes; simd-json-like inits allocate 4 blocks
    let first_blocks = (first / 500.0).round() as u64;
    let per_blocks = (per / 500.0).round() as u64;
    let init_blocks = if m.init >= 1_000.0 { 4 } else { 0 };
    let mut f = Figures::default();
    let instructions = [
        250_000 + m.child_kib * 20,
        0, // model: a Rust child has none to load
        if op == Op::De { 7_400 } else { 35_000 },
        instr(m.init),
        instr(first),
        further * instr(per),
        if op == Op::De { 8_704 } else { 7_076 },
        26_000 + m.child_kib * 2,
    ];
    for (p, v) in Phase::ALL.into_iter().zip(instructions) {
        f.set(Figure::Of(Quantity::Instructions, p), Some(v));
    }
    let blocks = [init_blocks, first_blocks, further * per_blocks];
    let bytes = [
        init_blocks * 95,
        first_blocks * 75,
        further * per_blocks * 75,
    ];
    for ((p, b), y) in Phase::LIBRARY.into_iter().zip(blocks).zip(bytes) {
        f.set(Figure::Of(Quantity::AllocBlocks, p), Some(b));
        f.set(Figure::Of(Quantity::AllocBytes, p), Some(y));
    }
    Some(f)
}
