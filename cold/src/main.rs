//! `cold`: the runner of thaw's cold track; the command is `cold::command`.

fn main() {
    cold::command::main()
}
