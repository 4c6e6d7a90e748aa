//! What every player of a match is: the [`Player`] trait, the [`Budget`] of its moves, what
//! it has done ([`PlayerStats`]) and how it can fail ([`Fault`]). The built-in players live
//! in `players`, engine programs in `process`.

use std::fmt;
use std::time::Duration;

use ploy_core::{Game, Move};
use ploy_search::Limits;

use crate::cli::format_duration;

/// What limits a player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed depth.
    Depth(u32),
    /// A node budget.
    Nodes(u64),
    /// A time per move.
    MoveTime(Duration),
}

impl Budget {
    /// The search limits of this budget.
    #[must_use]
    pub fn limits(self) -> Limits {
        match self {
            Budget::Depth(d) => Limits::depth(d),
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::MoveTime(t) => Limits::move_time(t),
        }
    }

    /// The words of the engine protocol's `go` for this budget: `depth 4`, `nodes 20000`,
    /// `movetime 100`.
    #[must_use]
    pub fn go_words(self) -> String {
        match self {
            Budget::Depth(d) => format!("depth {d}"),
            Budget::Nodes(n) => format!("nodes {n}"),
            Budget::MoveTime(t) => format!("movetime {}", t.as_millis().max(1)),
        }
    }

    /// How the budget reads in a game record's time control: `depth 4`, `20000 nodes`,
    /// `100ms a move`.
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Budget::Depth(d) => format!("depth {d}"),
            Budget::Nodes(n) => format!("{n} nodes"),
            Budget::MoveTime(t) => format!("{} a move", format_duration(t)),
        }
    }
}

impl fmt::Display for Budget {
    /// The override text of a [`PlayerSpec`](super::PlayerSpec): `d4`, `n20000`, `t500ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Budget::Depth(d) => write!(f, "d{d}"),
            Budget::Nodes(n) => write!(f, "n{n}"),
            Budget::MoveTime(t) => write!(f, "t{}", format_duration(t)),
        }
    }
}

/// What a player has done so far (or in one game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Moves chosen.
    pub moves: u64,
    /// Nodes searched (0 for a player that does not search or an engine program that does
    /// not say).
    pub nodes: u64,
    /// Time spent choosing.
    pub time: Duration,
}

impl PlayerStats {
    /// What was done since `earlier`.
    #[must_use]
    pub fn since(self, earlier: PlayerStats) -> PlayerStats {
        PlayerStats {
            moves: self.moves - earlier.moves,
            nodes: self.nodes - earlier.nodes,
            time: self.time.saturating_sub(earlier.time),
        }
    }

    /// Adds `other`.
    pub fn add(&mut self, other: PlayerStats) {
        self.moves += other.moves;
        self.nodes += other.nodes;
        self.time += other.time;
    }
}

/// Why a player gave no legal move: it loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// The details: an exit status and the last line on standard error, the move given.
    pub detail: String,
}

/// The kinds of [`Fault`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The engine program ended, or its pipes broke, or it could not be (re)started.
    Crashed,
    /// No answer within the time allowed.
    TimedOut,
    /// A move that is malformed or not legal.
    IllegalMove,
    /// No move in an undecided game (`bestmove none`).
    NoMove,
}

impl Fault {
    /// A fault of `kind`.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    /// `crashed (exit status 101)`, `timed out (no answer within 5.1s)`, `illegal move ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FaultKind::Crashed => "crashed",
            FaultKind::TimedOut => "timed out",
            FaultKind::IllegalMove => "illegal move",
            FaultKind::NoMove => "no move",
        };
        if self.detail.is_empty() {
            f.write_str(what)
        } else {
            write!(f, "{what} ({})", self.detail)
        }
    }
}

/// Anything that plays games of a match: chooses a move when it is its turn.
pub trait Player {
    /// The name in the output (the spec's text).
    fn name(&self) -> &str;
    /// What the player says about itself, if anything (an engine program's `id name`).
    fn about(&self) -> Option<String> {
        None
    }
    /// Game `number` (counting from 1) starts: forget the last one, so that a game's play
    /// depends on nothing but the game (with a depth or node budget, the same moves
    /// whichever worker plays it, after whichever games).
    ///
    /// # Errors
    /// A [`Fault`] when the player cannot play (an engine program that cannot be
    /// restarted): it loses the game.
    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        let _ = number;
        Ok(())
    }
    /// The move to play in `game` (undecided, this player to move).
    ///
    /// # Errors
    /// A [`Fault`] when the player gives no legal move: it loses the game.
    fn choose(&mut self, game: &Game) -> Result<Move, Fault>;
    /// Moves, nodes and time so far.
    fn stats(&self) -> PlayerStats;
}
