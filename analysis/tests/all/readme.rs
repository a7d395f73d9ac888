//! docs/manual.md's tables of `analysis report`'s and `analysis compare`'s options are the commands'
//! own: every option `--help` shows has a row, every row is an option, and where the command has
//! a default the row gives that default. An option added, renamed or given another default
//! without the manual fails here.

use analysis::cli::Cli;
use clap::CommandFactory;

use testkit::options::Shown;

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

/// Checks docs/manual.md's table after `marker` against subcommand `name`'s options.
fn check(name: &str, marker: &str) {
    let command = Cli::command();
    let sub = command.find_subcommand(name).expect("the subcommand");
    testkit::options::check(&shown(sub), &format!("analysis {name}"), marker);
}

#[test]
fn the_manual_gives_every_option_of_analysis_report_with_its_default() {
    check("report", "<!-- options of analysis report");
}

#[test]
fn the_manual_gives_every_option_of_analysis_compare_with_its_default() {
    check("compare", "<!-- options of analysis compare");
}
