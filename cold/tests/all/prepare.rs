//! The runner's own correctness gate and preflight leave a misreading codec out of the plan,
//! before a single sample is timed: one that fails the in-process gate (it needs no child), and
//! one whose child prints something else than the runner computed (the preflight).

use codecs::models::{Model, ModelKind};
use codecs::verify::GateVerdict;
use codecs::{find_codec, AnyCodec, ChildOutput, CodecError, Op, OutputMode, Style, Support};
use cold::run::options::RunOptions;
use cold::run::prepare;
use schema::run_folder::CheckStatus;
use schema::{Drops, Variant};
use std::path::PathBuf;
use std::time::Duration;

/// serde_json, but `wrong_output` makes it compute a checksum its child will not print, and
/// `misreads` makes the gate find it wrong.
struct Double {
    id: &'static str,
    misreads: bool,
    wrong_output: bool,
}

fn serde() -> &'static dyn AnyCodec {
    find_codec("serde_json").unwrap()
}

impl AnyCodec for Double {
    fn id(&self) -> &'static str {
        self.id
    }
    fn library(&self) -> &'static str {
        "serde_json"
    }
    fn style(&self) -> Style {
        Style::Typed
    }
    fn output(&self) -> OutputMode {
        OutputMode::ReusedBuffer
    }
    fn type_path(&self) -> String {
        serde().type_path()
    }
    fn supports(&self, model: Option<ModelKind>, op: Op) -> Support {
        serde().supports(model, op)
    }
    fn verify(&self, op: Op, model: Option<&Model>, document: &[u8]) -> GateVerdict {
        if self.misreads {
            return GateVerdict::Fail("at users[0].isActive: expected true, got false".into());
        }
        serde().verify(op, model, document)
    }
    fn expected_output(
        &self,
        op: Op,
        model: Option<ModelKind>,
        input: &[u8],
    ) -> Result<ChildOutput, CodecError> {
        let mut out = serde().expected_output(op, model, input)?;
        if self.wrong_output {
            out.checksum ^= 1;
        }
        Ok(out)
    }
    fn accepts(&self, bytes: &[u8]) -> bool {
        serde().accepts(bytes)
    }
}

static MISREADS: Double = Double {
    id: "misreads",
    misreads: true,
    wrong_output: false,
};
static WRONG_CHILD: Double = Double {
    id: "serde_json",
    misreads: false,
    wrong_output: true,
};

use crate::common;

/// The children and the spawner beside this test's runner.
fn children_dir() -> PathBuf {
    common::beside_runner("")
}

#[test]
fn a_misreading_codec_is_left_out_before_anything_is_timed() {
    let dir = std::env::temp_dir().join(format!("thaw-prepare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    cold::folder::create(&dir).unwrap();
    let o = RunOptions {
        codecs: vec![find_codec("noop").unwrap(), &MISREADS, &WRONG_CHILD],
        ops: vec![Op::De],
        batches: vec![1, 2],
        samples: 3,
        fixtures: vec![fixtures::find("users-1kb").unwrap()],
        seed: fixtures::DEFAULT_SEED,
        plan_seed: 1,
        out: None,
        pin: None,
        cold_cache: false,
        drops: Drops::End,
        timeout: Duration::from_secs(30),
        memory_limit_mib: 8192,
        env: vec![("PATH".into(), "/usr/bin:/bin".into())],
        variants: vec![Variant::PORTABLE],
        children_dir: Some(children_dir()),
        corpora: None,
        measure: schema::Measure::Time,
        stopping: None,
        shard: None,
        curve: None,
        require_runtimes: false,
        dry_run: false,
    };
    let prepared = prepare::ready(&o).unwrap().prepare(&o, &dir).unwrap();
    let planned: Vec<&str> = prepared.plan.iter().map(|r| r.codec.as_str()).collect();
    assert!(planned.iter().all(|c| *c == "noop"), "{planned:?}");
    assert_eq!(planned.len(), 2 * 3, "noop at two batches, three blocks");
    let why = |codec: &str| {
        prepared
            .excluded
            .iter()
            .find(|e| e.codec == codec)
            .map(|e| (e.status, e.detail.clone()))
            .unwrap()
    };
    let (status, detail) = why("misreads");
    assert_eq!(status, CheckStatus::GateFailed);
    assert!(detail.contains("users[0].isActive"), "{detail}");
    let (status, detail) = why("serde_json");
    assert_eq!(status, CheckStatus::PreflightFailed);
    assert!(detail.contains("batch 1: wrong-checksum"), "{detail}");
    std::fs::remove_dir_all(&dir).unwrap();
}
