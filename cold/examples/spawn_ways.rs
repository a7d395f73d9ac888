//! Where the runner's `noop` wall parts from hyperfine's (scripts/bench-harness.sh): spawns one
//! child in tight loops, in alternating rounds, three ways: a plain `Command::spawn` and `wait`
//! (what `hyperfine -N` does), thaw's own spawn and wait (`process::run`) called in this process,
//! and the same through the spawner process, as the runner does it (a request and a reply over a
//! pipe around each child). Prints each way's median wall (the median over rounds of each
//! round's median) and its ratio to the plain loop.
//!
//!   cargo run --release -p cold --example spawn_ways [-- ROUNDS SAMPLES]
//!
//! The child is `child-noop-de-any` beside the example's folder (`cargo build --release -p
//! children` builds it) reading users-2kb; run it under `taskset -c N` to see the same pinned.

use anyhow::{bail, Context, Result};
use spawner::capture::Capture;
use spawner::process::{self, Watch};
use spawner::{Request, Spawner};
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WAYS: [&str; 3] = ["plain", "thaw spawn+wait", "thaw spawner"];

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<()> {
    let a: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: usize| -> Result<usize> {
        a.get(i).map_or(Ok(default), |t| {
            t.parse()
                .with_context(|| format!("`{t}`: give a whole number of rounds, then of samples"))
        })
    };
    let (rounds, samples) = (number(1, 10)?.max(1), number(2, 300)?.max(1));
    // target/release/examples/spawn_ways → target/release.
    let exe = std::env::current_exe()?;
    let folder = exe
        .parent()
        .and_then(|p| p.parent())
        .context("no target folder")?;
    let child = folder.join("child-noop-de-any");
    if !child.is_file() {
        bail!(
            "{} is not built: run cargo build --release -p children",
            child.display()
        );
    }
    let input = std::env::temp_dir().join(format!("thaw-spawn-ways-{}.json", std::process::id()));
    let document = fixtures::find("users-2kb")?.document(fixtures::DEFAULT_SEED, None)?;
    std::fs::write(&input, document)
        .with_context(|| format!("cannot write {}", input.display()))?;
    let result = compare(&child, &input, folder, rounds, samples);
    let _ = std::fs::remove_file(&input);
    result
}

fn compare(child: &Path, input: &Path, folder: &Path, rounds: usize, samples: usize) -> Result<()> {
    let args: Vec<OsString> = vec![
        "--op".into(),
        "de".into(),
        "--batch".into(),
        "1".into(),
        "--input".into(),
        input.into(),
        "--drops".into(),
        "end".into(),
    ];
    let env: Vec<(OsString, OsString)> = ["PATH", "HOME"]
        .iter()
        .filter_map(|k| Some((OsString::from(k), std::env::var_os(k)?)))
        .collect();
    let mut capture = Capture::new()?;
    let mut spawner = Spawner::start(&folder.join(spawner::BINARY))?;
    let timeout = Duration::from_secs(60);
    let mut medians = vec![Vec::new(); WAYS.len()];
    for round in 1..=rounds {
        for (way, name) in WAYS.iter().enumerate() {
            let mut walls = Vec::with_capacity(samples);
            for _ in 0..samples {
                let ns = match way {
                    0 => {
                        let mut command = Command::new(child);
                        command
                            .args(&args)
                            .env_clear()
                            .envs(env.iter().map(|(k, v)| (k, v)))
                            .stdin(Stdio::null())
                            .stdout(Stdio::null())
                            .stderr(Stdio::null());
                        let t = Instant::now();
                        let status = command
                            .spawn()
                            .with_context(|| format!("cannot start {}", child.display()))?
                            .wait()?;
                        let ns = t.elapsed().as_nanos() as u64;
                        if !status.success() {
                            bail!("{} failed: {status}", child.display());
                        }
                        ns
                    }
                    1 => {
                        let r = process::run(
                            child,
                            &args,
                            &env,
                            timeout,
                            &mut capture,
                            Watch::Auto,
                            &mut |_| {},
                        )?;
                        r.reaped_ns - r.spawn_ns
                    }
                    _ => {
                        let request = Request {
                            program: child.to_path_buf(),
                            args: args.clone(),
                            env: env.clone(),
                            timeout,
                            memory_limit: 0,
                            watch: Watch::Auto,
                        };
                        let r = spawner
                            .run(&request, &|| false)?
                            .map_err(anyhow::Error::msg)?;
                        r.reaped_ns - r.spawn_ns
                    }
                };
                walls.push(ns as f64 / 1e3);
            }
            let m = median(&mut walls);
            println!("round {round}  {name:<20} {m:9.1} us");
            medians[way].push(m);
        }
    }
    let plain = median(&mut medians[0].clone());
    println!("\nmedian over {rounds} rounds of {samples} samples:");
    for (way, name) in WAYS.iter().enumerate() {
        let m = median(&mut medians[way]);
        println!("  {name:<20} {m:9.1} us  {:.3}x plain", m / plain);
    }
    Ok(())
}
