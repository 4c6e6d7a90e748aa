//! Plays games between two players and reports the result with an Elo difference and its
//! 95 % interval, optionally stopping when a sequential probability ratio test decides.
//!
//! ```text
//! cargo run --release --example match -- [--games N] [--seed S] [--opening-plies P]
//!     [--openings FILE] [--ply-cap C] [--nodes N | --time DURATION | --depth D]
//!     --a SPEC --b SPEC [--a-option NAME=VALUE ...] [--b-option NAME=VALUE ...]
//!     [--timeout DURATION] [--sprt ELO0,ELO1 [--alpha A] [--beta B]] [-j N]
//!     [--records DIR] [--sheets DIR] [--json]
//! ```
//!
//! A SPEC is an engine name with optional budget overrides, joined by `@`:
//! `full` (the default configuration), `noorder` (table and move ordering off),
//! `alphabeta`, `nolmr` (late move reductions off), `random` (a uniformly random mover), or
//! `engine:PATH`, an engine program driven over the engine protocol (told the match's rules
//! as options, then the `--a-option`/`--b-option` options; it loses a game when it crashes,
//! plays an illegal move or does not answer within its time per move plus `--timeout`);
//! overrides `dN` (depth), `nN` (nodes), `tT` (time per move: `t500` is 500 ms, `t2s`),
//! e.g. `full@d4`, `engine:old/engine@t100ms`. Games are played in pairs: each opening (P
//! random plies from the seed, or a line of the openings file) once with each colour.
//! Standard rules (repetition and 200-ply no-capture draws) unless a rule option says
//! otherwise; games reaching the ply cap are adjudicated as draws. The score is from A's
//! point of view; the Elo difference comes with the 95 % Wilson interval of the score.
//! `--sprt 0,10` tests "A is 0 Elo stronger" against "10 Elo stronger" on game pairs and
//! stops at its bounds. `-j N` plays N games at once (the same games and result as `-j 1`
//! with depth or node budgets). `--records DIR` / `--sheets DIR` write every game.
//! `--json` prints one object, `{"games", "wins", "draws", "losses", "score", "elo",
//! "elo_low", "elo_high", "llr", "lower_bound", "upper_bound", "sprt", "pentanomial",
//! "forfeits", "a", "b"}`, instead of the text.
//!
//! `--game pente|pyloff` plays Pente or Pyloff (with their options; three and four Pyloff
//! players, and Ploy's free-for-all with `--ffa-seats`, put A in one seat, turning, and
//! report A's first-place share and mean rank); `--log FILE` and `--resume` run a long match
//! across sessions (docs/matches.md).
//!
//! The same program is `ploy match`; the code and the details are in
//! `ploy::cli::matches`.

use clap::Parser;
use ploy::cli::matches::{MatchArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&MatchArgs::parse()))
}
