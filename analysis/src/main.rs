//! `analysis`: thaw's statistics and reports; the subcommands are `analysis::commands`.

fn main() -> std::process::ExitCode {
    analysis::commands::main()
}
