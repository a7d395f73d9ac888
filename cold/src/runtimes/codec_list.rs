//! Every codec a cold run can take: the Rust ones of the fixtures' registry and the ones of other
//! runtimes described in `runtimes/`. `--codecs` takes ids and groups (`rust`, `jvm`,
//! `jvm-common`, `python`, `node`); the default run is the Rust registry alone.

use crate::runtimes::{self, ExternalCodec};
use anyhow::{bail, Result};
use codecs::{find_codec, registry, AnyCodec, Style};

/// The runtime group of the Rust codecs.
pub(crate) const RUST: &str = "rust";

/// The codec `id`, Rust or described; the error lists what is known.
pub(crate) fn find(id: &str) -> Result<&'static dyn AnyCodec> {
    if let Ok(c) = find_codec(id) {
        return Ok(c);
    }
    if let Some(c) = runtimes::find(id) {
        return Ok(c);
    }
    let mut known: Vec<&str> = registry().iter().map(|c| c.id()).collect();
    known.extend(runtimes::all()?.iter().map(|c| c.id));
    let mut groups = vec![RUST];
    groups.extend(runtimes::groups());
    bail!(
        "unknown codec `{}`; known codecs: {}; or a runtime group: {}",
        text::echo(id),
        known.join(", "),
        groups.join(", ")
    )
}

/// The codecs `names` ask for (ids or runtime groups), in the order given, each once. The
/// descriptions of other runtimes are read first, so one that is wrong (or shadows a Rust
/// codec's id) is an error whatever is asked.
pub(crate) fn select(names: &[String]) -> Result<Vec<&'static dyn AnyCodec>> {
    runtimes::all()?;
    let mut chosen: Vec<&'static dyn AnyCodec> = Vec::new();
    let mut add = |c: &'static dyn AnyCodec| {
        if !chosen.iter().any(|k| k.id() == c.id()) {
            chosen.push(c);
        }
    };
    for name in names.iter().map(|n| n.trim()) {
        if name == RUST {
            registry().into_iter().for_each(&mut add);
        } else if runtimes::groups().contains(&name) {
            for c in runtimes::all()?.iter().filter(|c| c.group == name) {
                add(c);
            }
        } else {
            add(find(name)?);
        }
    }
    Ok(chosen)
}

/// The described codec behind `codec`, if it is not a Rust one.
pub(crate) fn external_of(codec: &dyn AnyCodec) -> Option<&'static ExternalCodec> {
    if find_codec(codec.id()).is_ok() {
        return None;
    }
    runtimes::find(codec.id())
}

/// `rust`, or the runtime of a described codec.
pub(crate) fn runtime_of(codec: &dyn AnyCodec) -> &'static str {
    external_of(codec).map_or(RUST, |e| e.runtime.name)
}

/// The runtime whose children variant `v` builds: an external runtime's when its description
/// names it, Rust's otherwise (portable, native, or a build of the Rust children).
pub(crate) fn runtime_of_variant(v: schema::Variant) -> &'static str {
    runtimes::runtime_of_variant(v).unwrap_or(RUST)
}

/// `rust`, or the group of a described codec (`jvm`, `jvm-common`, `python`, …).
fn group_of(codec: &dyn AnyCodec) -> &str {
    external_of(codec).map_or(RUST, |e| e.group.as_str())
}

/// The floor of `codec` among `codecs`: the baseline of its runtime and group (the JVM's
/// common-model children have a floor that loads that model), else of its runtime.
pub(crate) fn floor_of<'a>(codec: &str, codecs: &[&'a dyn AnyCodec]) -> Option<&'a str> {
    let codec = find(codec).ok()?;
    let baselines = || codecs.iter().filter(|c| c.style() == Style::Baseline);
    baselines()
        .find(|c| group_of(**c) == group_of(codec))
        .or_else(|| baselines().find(|c| runtime_of(**c) == runtime_of(codec)))
        .map(|c| c.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<&'static str> {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        select(&names).unwrap().iter().map(|c| c.id()).collect()
    }

    #[test]
    fn groups_and_ids() {
        let rust = ids(&["rust"]);
        assert_eq!(rust.len(), registry().len());
        assert_eq!(rust[0], "noop");
        let jvm = ids(&["jvm"]);
        assert_eq!(jvm, ["fory", "gson", "jackson", "jvm-floor", "kotlinx"]);
        let common = ids(&["jvm-common"]);
        assert!(common.iter().all(|c| c.ends_with("-common")), "{common:?}");
        assert_eq!(common.len(), jvm.len());
        // In the order asked, each once.
        assert_eq!(
            ids(&["orjson", "serde_json", "orjson"]),
            ["orjson", "serde_json"]
        );
        let e = find("yaml").err().unwrap().to_string();
        assert!(
            e.contains("serde_json") && e.contains("orjson") && e.contains("jvm"),
            "{e}"
        );
    }

    #[test]
    fn each_runtime_has_its_floor() {
        let codecs = select(&["rust".into(), "python".into()]).unwrap();
        assert_eq!(floor_of("serde_json", &codecs), Some("noop"));
        assert_eq!(floor_of("orjson", &codecs), Some("python-floor"));
        assert_eq!(floor_of("python-floor", &codecs), Some("python-floor"));
        // the common-model JVM children have their own floor when it is in the run
        let jvm = select(&["jvm".into(), "jvm-common".into()]).unwrap();
        assert_eq!(floor_of("gson", &jvm), Some("jvm-floor"));
        assert_eq!(floor_of("gson-common", &jvm), Some("jvm-floor-common"));
        let without = select(&["jvm".into(), "gson-common".into()]).unwrap();
        assert_eq!(floor_of("gson-common", &without), Some("jvm-floor"));
        assert_eq!(runtime_of(find("jackson").unwrap()), "jvm");
        assert_eq!(runtime_of(find("simd-json").unwrap()), RUST);
    }
}
