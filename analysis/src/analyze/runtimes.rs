//! The runtimes of a run's codecs: Rust's (a codec the manifest gives no runtime), and each of
//! the other languages' (`jvm`, `python`, `node`…, named by the manifest), each with its floor:
//! the codec of that runtime whose style is `baseline`, a child that starts the runtime and the
//! harness and runs no library. A codec's figures are read against its own runtime's floor,
//! never another's, and no codec is a floor by its name.

use schema::run_folder::CodecEntry;
use schema::Style;
use serde::Serialize;
use std::collections::BTreeSet;

/// The runtime of the codecs the manifest gives none: Rust binaries.
pub(crate) const RUST: &str = "rust";

/// One runtime of the run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Runtime {
    /// `rust`, or the manifest's name (`jvm`, `python`, `node`).
    pub(crate) name: String,
    /// Its version as the manifest gives it (rustc's for Rust).
    pub(crate) version: Option<String>,
    /// Its floor: the codec of this runtime with the style `baseline` (the first, in the
    /// manifest's order); `None` when the run has none.
    pub(crate) floor: Option<String>,
    /// Its codecs with samples in the run, the floor included, in the manifest's order (codecs
    /// the manifest does not list last, by name).
    pub(crate) codecs: Vec<String>,
    /// The codecs the manifest reads against another baseline of this runtime than `floor`
    /// (the JVM's common-model children, against the common-model floor), with that floor.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub(crate) other_floors: std::collections::BTreeMap<String, String>,
}

/// The runtimes of a run in the order the report groups codecs: Rust first, then the others in
/// the order their first codec has in the manifest.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub(crate) struct Runtimes(pub Vec<Runtime>);

impl Runtimes {
    /// The runtimes of the codecs `in_run` as the manifest's `codecs` describe them (a codec
    /// it does not list is taken for Rust, with no style); `rustc` is Rust's version.
    pub(crate) fn of(
        codecs: &[CodecEntry],
        in_run: &BTreeSet<&str>,
        rustc: Option<&str>,
    ) -> Runtimes {
        let listed = codecs.iter().filter(|c| in_run.contains(c.id.as_str()));
        let unlisted = in_run
            .iter()
            .filter(|id| !codecs.iter().any(|c| c.id == **id));
        let mut list: Vec<Runtime> = Vec::new();
        let entries = listed
            .map(|c| {
                (
                    c.id.as_str(),
                    c.runtime.as_deref(),
                    c.runtime_version.as_deref(),
                    Some(c.style),
                    c.floor.as_deref(),
                )
            })
            .chain(unlisted.map(|id| (*id, None, None, None, None)));
        let mut floors: Vec<(usize, &str, &str)> = Vec::new();
        for (id, runtime, version, style, floor) in entries {
            let name = runtime.unwrap_or(RUST);
            let i = match list.iter().position(|r| r.name == name) {
                Some(i) => i,
                None => {
                    list.push(Runtime {
                        name: name.to_string(),
                        version: match runtime {
                            None => rustc.map(String::from),
                            Some(_) => version.map(String::from),
                        },
                        floor: None,
                        codecs: Vec::new(),
                        other_floors: Default::default(),
                    });
                    list.len() - 1
                }
            };
            let r = &mut list[i];
            if r.version.is_none() && runtime.is_some() {
                r.version = version.map(String::from);
            }
            if style == Some(Style::Baseline) && r.floor.is_none() {
                r.floor = Some(id.to_string());
            }
            r.codecs.push(id.to_string());
            if let Some(floor) = floor.filter(|f| in_run.contains(f)) {
                floors.push((i, id, floor));
            }
        }
        // a floor the manifest names, where it is another than the runtime's first
        for (i, id, floor) in floors {
            if list[i].floor.as_deref() != Some(floor) {
                list[i]
                    .other_floors
                    .insert(id.to_string(), floor.to_string());
            }
        }
        // Rust first, the others as they came
        list.sort_by_key(|r| r.name != RUST);
        Runtimes(list)
    }

    /// Whether the run's codecs are of more than one runtime.
    pub(crate) fn several(&self) -> bool {
        self.0.len() > 1
    }

    fn find(&self, codec: &str) -> Option<(usize, usize)> {
        self.0.iter().enumerate().find_map(|(i, r)| {
            let j = r.codecs.iter().position(|c| c == codec)?;
            Some((i, j))
        })
    }

    /// The runtime of `codec` (Rust for a codec the run does not have).
    pub(crate) fn runtime_of(&self, codec: &str) -> &str {
        self.find(codec)
            .map_or(RUST, |(i, _)| self.0[i].name.as_str())
    }

    /// The floor `codec`'s figures are read against: its own runtime's.
    pub(crate) fn floor_of(&self, codec: &str) -> Option<&str> {
        let r = &self.0[self.find(codec)?.0];
        r.other_floors
            .get(codec)
            .or(r.floor.as_ref())
            .map(String::as_str)
    }

    /// Where `codec` stands in the report's grouping: its runtime's place, then its place in
    /// that runtime's list; unknown codecs after all others.
    pub(crate) fn rank(&self, codec: &str) -> (usize, usize) {
        self.find(codec).unwrap_or((usize::MAX, usize::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codec(id: &str, style: Style, runtime: Option<&str>) -> CodecEntry {
        CodecEntry {
            id: id.into(),
            library: id.into(),
            version: "1".into(),
            style,
            output: schema::OutputMode::ReusedBuffer,
            runtime: runtime.map(String::from),
            runtime_version: runtime.map(|r| format!("{r} 9")),
            pair: None,
            floor: None,
        }
    }

    #[test]
    fn rust_first_then_the_manifests_order_each_with_its_own_floor() {
        // the manifest lists python before jvm, and Rust last; a floor named like nothing
        // special; `extra` has samples but no manifest entry
        let codecs = [
            codec("orjson", Style::Dom, Some("python")),
            codec("py-base", Style::Baseline, Some("python")),
            codec("jackson", Style::Typed, Some("jvm")),
            codec("jvm-floor", Style::Baseline, Some("jvm")),
            codec("serde_json", Style::Typed, None),
            codec("floor-of-rust", Style::Baseline, None),
            codec("gson", Style::Typed, Some("jvm")),
        ];
        let in_run = BTreeSet::from([
            "orjson",
            "py-base",
            "jackson",
            "jvm-floor",
            "serde_json",
            "floor-of-rust",
            "extra",
        ]);
        let r = Runtimes::of(&codecs, &in_run, Some("rustc 1.95"));
        let names: Vec<&str> = r.0.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["rust", "python", "jvm"]);
        assert_eq!(
            r.0[0].codecs,
            ["serde_json", "floor-of-rust", "extra"],
            "gson has no samples: not listed"
        );
        assert_eq!(r.0[0].version.as_deref(), Some("rustc 1.95"));
        assert_eq!(r.0[2].version.as_deref(), Some("jvm 9"));
        assert_eq!(r.floor_of("serde_json"), Some("floor-of-rust"));
        assert_eq!(r.floor_of("orjson"), Some("py-base"));
        assert_eq!(r.floor_of("jackson"), Some("jvm-floor"));
        assert_eq!(r.floor_of("jvm-floor"), Some("jvm-floor"));
        assert_eq!(r.floor_of("gson"), None);
        assert_eq!(r.runtime_of("jackson"), "jvm");
        assert_eq!(r.runtime_of("extra"), RUST);
        assert!(r.rank("serde_json") < r.rank("orjson"));
        assert!(r.rank("orjson") < r.rank("jackson"));
        assert_eq!(r.rank("gson"), (usize::MAX, usize::MAX));
        assert!(r.several());
        // a run with no floor has none to read against
        let only = Runtimes::of(&codecs[4..5], &BTreeSet::from(["serde_json"]), None);
        assert_eq!(only.floor_of("serde_json"), None);
        assert!(!only.several());
    }

    #[test]
    fn a_codec_is_read_against_the_floor_its_manifest_names() {
        // the JVM's common-model children have their own floor; an older manifest names none
        let mut common = codec("gson-common", Style::Typed, Some("jvm"));
        common.floor = Some("jvm-floor-common".into());
        let codecs = [
            codec("jvm-floor", Style::Baseline, Some("jvm")),
            codec("gson", Style::Typed, Some("jvm")),
            codec("jvm-floor-common", Style::Baseline, Some("jvm")),
            common,
        ];
        let ids = ["jvm-floor", "gson", "jvm-floor-common", "gson-common"];
        let r = Runtimes::of(&codecs, &BTreeSet::from(ids), None);
        assert_eq!(r.floor_of("gson"), Some("jvm-floor"));
        assert_eq!(r.floor_of("gson-common"), Some("jvm-floor-common"));
        // a floor the run has no sample of is not read against
        let without = Runtimes::of(&codecs, &BTreeSet::from(["jvm-floor", "gson-common"]), None);
        assert_eq!(without.floor_of("gson-common"), Some("jvm-floor"));
    }
}
