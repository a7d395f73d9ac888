//! The `cold` command (`cold run`, `cold resume`, `cold list`, `cold build`): it parses the
//! command line, hands the checked options to the library, and prints any error with its
//! context, every character a terminal would act on escaped.

use crate::cli::{Cli, Command, RunRequest};
use clap::Parser;

/// The command line parsed and run; a failure exits as the shells expect.
pub fn main() {
    let cli = parsed();
    if let Err(error) = dispatch(cli) {
        // A reader that went away (`cold run --dry-run | head`) is not an error.
        let broken_pipe = error.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if broken_pipe {
            return;
        }
        // A run stopped by a signal says how to finish it, and exits as the shells expect
        // (128 + the signal).
        if let Some(stopped) = error.downcast_ref::<crate::system::interrupt::Interrupted>() {
            eprintln!("cold: {stopped}");
            std::process::exit(128 + stopped.signal);
        }
        // A run whose samples did not all succeed: its summary said which; exit 3.
        if let Some(failed) = error.downcast_ref::<crate::run::session::Incomplete>() {
            eprintln!("cold: {}", text::for_terminal(&failed.to_string(), true));
            std::process::exit(crate::run::session::INCOMPLETE_EXIT);
        }
        eprintln!(
            "cold: error: {}",
            text::for_terminal(&format!("{error:#}"), true)
        );
        std::process::exit(1);
    }
}

/// The command line, parsed; a refusal of it printed as every error is, each argument it
/// quotes echoed as every value is (`text::with_args_echoed`), with clap's exit code;
/// help and version printed as clap prints them.
fn parsed() -> Cli {
    Cli::try_parse().unwrap_or_else(|e| {
        if !e.use_stderr() {
            e.exit()
        }
        let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
        eprint!("{}", text::with_args_echoed(&e.render().to_string(), args));
        std::process::exit(e.exit_code())
    })
}

fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::List(args) => crate::list::list(
            args.seed,
            args.corpora.folder().as_deref(),
            &mut std::io::stdout().lock(),
        ),
        Command::Build(args) => crate::system::variants::build_all(&args.variants),
        Command::Resume(args) => crate::run::resume::resume(&args.dir, args.dry_run).map(drop),
        Command::Run(args) => match args.resolve()? {
            RunRequest::Fresh(options) => crate::run::fresh::run(&options).map(drop),
            RunRequest::Resume { dir, dry_run } => {
                crate::run::resume::resume(&dir, dry_run).map(drop)
            }
        },
    }
}
