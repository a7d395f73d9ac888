//! docs/manual.md's table of `cold run`'s options is the command's own: every option `cold run --help`
//! shows has a row, every row is an option, and where the command has a default the row gives
//! that default. An option added, renamed or given another default without the manual fails here.

use clap::CommandFactory;
use cold::cli::Cli;

#[path = "../../../crates/schema/tests/support/readme_options.rs"]
mod readme_options;

#[test]
fn the_manual_gives_every_option_of_cold_run_with_its_default() {
    let command = Cli::command();
    let run = command.find_subcommand("run").expect("cold run");
    readme_options::check(run, "cold run", "<!-- options of cold run");
}
