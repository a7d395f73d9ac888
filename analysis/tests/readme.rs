//! The README's tables of `analysis report`'s and `analysis compare`'s options are the commands'
//! own: every option `--help` shows has a row, every row is an option, and where the command has
//! a default the row gives that default. An option added, renamed or given another default
//! without the manual fails here.

use analysis::cli::Cli;
use clap::CommandFactory;
use schema::manual;

/// Checks the README's table after `marker` against subcommand `name`'s options.
fn check(name: &str, marker: &str) {
    let readme = std::fs::read_to_string(manual::README).expect("the README");
    let table = manual::table_after(&readme, marker).expect("the table");
    let command = Cli::command();
    let sub = command.find_subcommand(name).expect("the subcommand");
    let mut documented: Vec<&str> = table.iter().filter_map(|r| manual::option_of(r)).collect();
    for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
        let Some(long) = arg.get_long().filter(|l| *l != "help") else {
            continue;
        };
        let option = format!("--{long}");
        let row = table
            .iter()
            .find(|r| manual::option_of(r) == Some(&option))
            .unwrap_or_else(|| panic!("README's table of `analysis {name}` has no {option}"));
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
                "README's default of `analysis {name} {option}` differs from its --help"
            );
        }
    }
    assert!(
        documented.is_empty(),
        "README's table of `analysis {name}` options has rows that are no option: {documented:?}"
    );
}

#[test]
fn the_readme_gives_every_option_of_analysis_report_with_its_default() {
    check("report", "<!-- options of analysis report");
}

#[test]
fn the_readme_gives_every_option_of_analysis_compare_with_its_default() {
    check("compare", "<!-- options of analysis compare");
}
