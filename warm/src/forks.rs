//! The fork plan of the warm track, as JMH forks: every cell runs in several fresh processes, so
//! the warm figure is a median across processes with an interval across them, not one process's
//! estimate (whose interval says nothing of the next process: code layout, the heap's state and
//! the machine's moment differ from process to process). A fork is one round of every cell once,
//! in an order shuffled by ChaCha8 from the seed, so the machine's drift is spread over cells.
//!
//! Pure logic only: the plan, the reading of criterion's arguments, the names of folders. The
//! processes are started by `driver`.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// How many fresh processes each cell runs in (JMH's default too).
pub const DEFAULT_FORKS: u32 = 5;
/// The most forks a run may ask for.
pub const MAX_FORKS: u32 = 100;

/// One process of the plan: the `fork`-th run (from 0) of the cell `<fixture>/<op>/<codec>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkRun {
    pub fork: u32,
    pub cell: String,
}

/// `forks` rounds of every cell once, each round shuffled by ChaCha8 from `seed` (one stream for
/// the whole plan): the same cells, forks and seed give the same plan on every machine.
pub fn plan(cells: &[String], forks: u32, seed: u64) -> Vec<ForkRun> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(cells.len() * forks as usize);
    for fork in 0..forks {
        let mut order: Vec<&String> = cells.iter().collect();
        order.shuffle(&mut rng);
        out.extend(order.into_iter().map(|cell| ForkRun {
            fork,
            cell: cell.clone(),
        }));
    }
    out
}

/// The number of forks `text` names: 1 to [`MAX_FORKS`].
pub fn parse_forks(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(n) if (1..=MAX_FORKS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` forks: expected a whole number from 1 to {MAX_FORKS}"
        )),
    }
}

/// criterion's options that take a value (criterion 0.8): their value is not a filter.
const VALUED: &[&str] = &[
    "-c",
    "--color",
    "-s",
    "--save-baseline",
    "-b",
    "--baseline",
    "--baseline-lenient",
    "--load-baseline",
    "--sample-size",
    "--warm-up-time",
    "--measurement-time",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--profile-time",
    "--plotting-backend",
    "--output-format",
    "--format",
];

/// criterion's modes that measure nothing (or not as a run): these run in one process, as before.
const IN_PROCESS: &[&str] = &["--test", "--list", "--profile-time", "--exact", "--ignored"];

/// The bench's arguments split into criterion's filter (its one positional argument, if any) and
/// the others, handed to every fork as they are.
pub fn split_filter(args: &[String]) -> (Option<String>, Vec<String>) {
    let mut filter = None;
    let mut rest = Vec::new();
    let mut value_next = false;
    for arg in args {
        if value_next {
            value_next = false;
            rest.push(arg.clone());
        } else if arg.starts_with('-') {
            value_next = VALUED.contains(&arg.as_str());
            rest.push(arg.clone());
        } else if filter.is_none() {
            filter = Some(arg.clone());
        } else {
            rest.push(arg.clone());
        }
    }
    (filter, rest)
}

/// Whether the arguments ask for one of criterion's modes that run in this process (a test pass,
/// a listing, a profile, an exact filter given by hand).
pub fn in_process(args: &[String]) -> bool {
    args.iter().any(|a| {
        let name = a.split('=').next().unwrap_or(a);
        IN_PROCESS.contains(&name)
    })
}

/// A fork's folder under the variant's forks folder: `fork-<k>`, from 0.
pub fn fork_folder(fork: u32) -> String {
    format!("fork-{fork}")
}

/// The fork a folder name is, if it is one.
pub fn parse_fork_folder(name: &str) -> Option<u32> {
    name.strip_prefix("fork-")?.parse().ok()
}

/// Where criterion files a cell below its output folder: `<fixture>_<op>/<codec>` (its group
/// `<fixture>/<op>` with the `/` made `_`, then the function's id).
pub fn cell_folder(cell: &str) -> Option<(String, String)> {
    let (group, codec) = cell.rsplit_once('/')?;
    Some((group.replace('/', "_"), codec.to_string()))
}

/// What the driver tells a fork in its environment: `<fork> <cell>`.
pub fn fork_env(run: &ForkRun) -> String {
    format!("{} {}", run.fork, run.cell)
}

/// The fork and cell of [`fork_env`]'s text.
pub fn parse_fork_env(text: &str) -> Result<ForkRun, String> {
    let bad = || format!("`{text}`: expected `<fork> <fixture>/<op>/<codec>`");
    let (fork, cell) = text.split_once(' ').ok_or_else(bad)?;
    let fork = fork.parse().map_err(|_| bad())?;
    if cell.split('/').count() != 3 {
        return Err(bad());
    }
    Ok(ForkRun {
        fork,
        cell: cell.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("f{i}/de/c")).collect()
    }

    #[test]
    fn every_cell_runs_once_in_every_fork() {
        let cells = cells(7);
        let plan = plan(&cells, 5, 42);
        assert_eq!(plan.len(), 35);
        for fork in 0..5 {
            let mut got: Vec<&String> = plan
                .iter()
                .filter(|r| r.fork == fork)
                .map(|r| &r.cell)
                .collect();
            got.sort();
            let mut want: Vec<&String> = cells.iter().collect();
            want.sort();
            assert_eq!(got, want, "fork {fork}");
        }
        // forks come one after another: a fork's runs are contiguous
        let forks: Vec<u32> = plan.iter().map(|r| r.fork).collect();
        assert!(forks.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn the_order_is_the_seeds_and_differs_between_forks() {
        let cells = cells(12);
        assert_eq!(plan(&cells, 3, 7), plan(&cells, 3, 7));
        assert_ne!(plan(&cells, 3, 7), plan(&cells, 3, 8));
        let p = plan(&cells, 2, 7);
        let (a, b) = p.split_at(12);
        let order = |rs: &[ForkRun]| rs.iter().map(|r| r.cell.clone()).collect::<Vec<_>>();
        assert_ne!(order(a), order(b), "each fork is shuffled anew");
        assert!(plan(&[], 5, 1).is_empty());
    }

    #[test]
    fn forks_parse_within_bounds() {
        assert_eq!(parse_forks("5"), Ok(5));
        assert_eq!(parse_forks(" 2 "), Ok(2));
        for bad in ["0", "-1", "101", "two", ""] {
            assert!(parse_forks(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_filter_is_the_positional_argument_and_values_are_not_filters() {
        let args: Vec<String> = ["--bench", "--warm-up-time", "1", "users-1kb/de", "--noplot"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (filter, rest) = split_filter(&args);
        assert_eq!(filter.as_deref(), Some("users-1kb/de"));
        assert_eq!(rest, ["--bench", "--warm-up-time", "1", "--noplot"]);
        assert_eq!(split_filter(&["--bench".to_string()]).0, None);
        assert!(in_process(&["--bench".into(), "--test".into()]));
        assert!(in_process(&["--profile-time=5".into()]));
        assert!(!in_process(&["--bench".into(), "small".into()]));
    }

    #[test]
    fn folders_and_the_fork_env_round_trip() {
        assert_eq!(fork_folder(3), "fork-3");
        assert_eq!(parse_fork_folder("fork-3"), Some(3));
        assert_eq!(parse_fork_folder("users-1kb_de"), None);
        assert_eq!(
            cell_folder("users-1kb/de/serde_json-value"),
            Some(("users-1kb_de".into(), "serde_json-value".into()))
        );
        let run = ForkRun {
            fork: 4,
            cell: "twitter/de/simd-json-value".into(),
        };
        assert_eq!(parse_fork_env(&fork_env(&run)), Ok(run));
        assert!(parse_fork_env("4 twitter/de").is_err());
        assert!(parse_fork_env("x a/b/c").is_err());
    }
}
