//! docs/manual.md's table of `cold run`'s options is the command's own: every option `cold run --help`
//! shows has a row, every row is an option, and where the command has a default the row gives
//! that default. An option added, renamed or given another default without the manual fails here.

use clap::CommandFactory;
use cold::cli::Cli;

use testkit::options::{check, Shown};

/// `command`'s options as `--help` shows them, for the manual's check.
fn shown(command: &clap::Command) -> Vec<Shown> {
    command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| {
            Some(Shown {
                long: a.get_long()?.to_string(),
                defaults: a
                    .get_default_values()
                    .iter()
                    .map(|v| v.to_string_lossy().into_owned())
                    .collect(),
            })
        })
        .collect()
}

#[test]
fn the_manual_gives_every_option_of_cold_run_with_its_default() {
    let command = Cli::command();
    let run = command.find_subcommand("run").expect("cold run");
    check(&shown(run), "cold run", "<!-- options of cold run");
}
