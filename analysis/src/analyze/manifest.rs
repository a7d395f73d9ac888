//! The run's conditions, for the report's "run conditions" section: each setting and fact of the
//! machine the manifest records, read through `schema::run_folder::Manifest`, with its label.
//! Only known fields are shown: a key a manifest adds that thaw does not know is not read.

use schema::run_folder::{Counting, Manifest, Stopping};

/// `items` joined by spaces, or `none`.
fn words<T: ToString>(items: &[T]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.iter().map(T::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// (label, value) pairs of the run's conditions, in the order the report lists them.
pub(crate) fn conditions(m: &Manifest) -> Vec<(String, String)> {
    let s = &m.settings;
    let several = crate::inputs::machine::Machines::of(m).is_some_and(|x| x.several());
    let or_dash = |v: &Option<String>| v.clone().unwrap_or_else(|| "—".into());
    // a run merged from several machines has no one machine: the Machines section has each
    let machine = |v: String| {
        if several {
            "several machines (each shard's is in the manifest's shards)".to_string()
        } else {
            v
        }
    };
    let mut out: Vec<(&str, String)> = vec![
        ("thaw version", m.thaw_version.clone()),
        ("commit", or_dash(&m.commit)),
        ("command line", words(&m.command_line)),
        ("started (UTC)", m.started_utc.clone()),
        ("resumed (UTC)", words(&m.resumed_utc)),
        (
            "finished",
            match &m.finished_utc {
                Some(at) if m.finished => format!("true ({at})"),
                _ => m.finished.to_string(),
            },
        ),
        ("seed", s.seed.to_string()),
        ("plan seed", s.plan_seed.to_string()),
        ("samples per cell", s.samples_per_cell.to_string()),
        (
            "builds",
            s.variants
                .iter()
                .map(|v| format!("{} ({}: {})", v.variant, v.runtime, v.children_dir))
                .collect::<Vec<_>>()
                .join("; "),
        ),
        ("rustc", or_dash(&m.rustc)),
        ("CPU", machine(or_dash(&m.machine.cpu_model))),
        ("cores", machine(m.machine.cores.to_string())),
        ("kernel", machine(or_dash(&m.machine.kernel))),
        (
            "virtualization",
            machine(or_dash(&m.machine.virtualization)),
        ),
        ("pinning", or_dash(&s.pinning)),
        (
            "cold cache",
            match &m.cold_cache_check {
                Some(check) if s.cold_cache => format!("true ({check})"),
                _ => s.cold_cache.to_string(),
            },
        ),
        ("timeout per sample (s)", s.timeout_secs.to_string()),
        (
            "memory limit per child (MiB)",
            s.memory_limit_mib.to_string(),
        ),
        (
            "containment of each sample",
            machine(or_dash(&m.machine.containment)),
        ),
        (
            "de values dropped (end: after all calls; each: after each call, timed)",
            s.drops.to_string(),
        ),
        ("environment given to children", words(&s.child_env)),
        (
            "measure (time; or instructions, counted under Valgrind)",
            s.measure.to_string(),
        ),
    ];
    if let Some(c) = &m.counting {
        out.push(("how the counts were taken", counting(c)));
    }
    if let Some(rule) = &s.stopping {
        out.push(("stopping rule", stopping_rule(rule)));
    }
    out.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// How a counted run's counts were taken: the tool and its options, and the allocation counter.
fn counting(c: &Counting) -> String {
    format!(
        "{} {} {}; allocations by {} (sha256 {})",
        c.valgrind,
        c.tool,
        c.options.join(" "),
        c.alloc_library,
        c.alloc_library_sha256
    )
}

/// `cold run --precision`'s stopping rule: the precision, the level and the blocks.
fn stopping_rule(rule: &Stopping) -> String {
    format!(
        "±{}% at {}%, {} to {} blocks, checked every {}",
        rule.precision * 100.0,
        rule.level * 100.0,
        rule.min_blocks,
        rule.max_blocks,
        rule.check_every
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{synth, SynthOptions};

    #[test]
    fn conditions_come_from_known_fields_in_order() {
        let s = synth(SynthOptions {
            samples: 2,
            ..SynthOptions::default()
        });
        let c = conditions(&s.manifest);
        assert_eq!(c[0].0, "thaw version");
        assert_eq!(
            c[2],
            (
                "command line".to_string(),
                s.manifest.command_line.join(" ")
            )
        );
        let seed = c.iter().find(|(k, _)| k == "seed").unwrap();
        assert_eq!(seed.1, s.manifest.settings.seed.to_string());
        assert!(c.iter().all(|(k, _)| k != "how the counts were taken"));
    }
}
