//! Command-line options shared by the examples.
#![allow(dead_code)]

use clap::Args;
use pyloff::{Options, RuleSet};

/// The game's options.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// Board size, 2 to 13.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(2..=13))]
    pub size: u8,
    /// Number of players, 2 to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
    /// Freedoms on every level (an empty, valid same-level neighbour point).
    #[arg(long)]
    pub all_freedoms: bool,
    /// The "cut down" rules (implies --all-freedoms): connections do not propagate down,
    /// any empty same-level neighbour point is a freedom.
    #[arg(long)]
    pub cut_down: bool,
}

impl GameArgs {
    pub fn options(&self) -> Options {
        Options::new(
            self.size,
            self.players,
            RuleSet::from_flags(self.all_freedoms, self.cut_down),
        )
        .expect("clap checked the ranges")
    }
}
