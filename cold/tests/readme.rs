//! The README's table of `cold run`'s options is the command's own: every option `cold run --help`
//! shows has a row, every row is an option, and where the command has a default the row gives
//! that default. An option added, renamed or given another default without the manual fails here.

use clap::CommandFactory;
use cold::cli::Cli;
use schema::manual;

#[test]
fn the_readme_gives_every_option_of_cold_run_with_its_default() {
    let readme = std::fs::read_to_string(manual::README).expect("the README");
    let table = manual::table_after(&readme, "<!-- options of cold run").expect("the table");
    let command = Cli::command();
    let run = command.find_subcommand("run").expect("cold run");
    let mut documented: Vec<&str> = table.iter().filter_map(|r| manual::option_of(r)).collect();
    for arg in run.get_arguments().filter(|a| !a.is_hide_set()) {
        let Some(long) = arg.get_long().filter(|l| *l != "help") else {
            continue;
        };
        let option = format!("--{long}");
        let row = table
            .iter()
            .find(|r| manual::option_of(r) == Some(&option))
            .unwrap_or_else(|| panic!("README's table of `cold run` options has no {option}"));
        documented.retain(|o| *o != option);
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() {
            assert_eq!(
                row[1],
                defaults.join(","),
                "README's default of {option} differs from `cold run --help`"
            );
        }
    }
    assert!(
        documented.is_empty(),
        "README's table of `cold run` options has rows that are no option: {documented:?}"
    );
}
