//! `pbrain-ploy-pente`: the Gomocup (Piskvork) brain for Pente, the same program as
//! `ploy pente piskvork` under the `pbrain-` name that Gomocup managers look for. It reads
//! the manager's commands on standard input and answers on standard output; the protocol
//! and its Pente extension are described in `docs/pente.md` and `pente::piskvork`.

use clap::Parser;
use ploy::cli::finish;
use ploy::cli::pente::piskvork::{PiskvorkArgs, run};

/// A Gomocup (Piskvork) brain playing Pente on standard input and output.
#[derive(Parser, Debug)]
#[command(name = "pbrain-ploy-pente", version)]
struct Brain {
    #[command(flatten)]
    args: PiskvorkArgs,
}

fn main() -> std::process::ExitCode {
    finish(run(&Brain::parse().args))
}
