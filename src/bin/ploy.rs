//! `ploy`: one command for every program of the workspace (`ploy play`, `ploy analyze`,
//! `ploy engine`, `ploy perft`, `ploy moves`, `ploy match`, `ploy bench`, `ploy sheet`),
//! and the other games' (`ploy pente play`, `ploy pyloff moves`, ...).
//! `ploy --help` lists them; the code is [`ploy::cli`].

fn main() -> std::process::ExitCode {
    ploy::cli::Ploy::main()
}
