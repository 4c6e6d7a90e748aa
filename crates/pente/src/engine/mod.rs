//! The engine: Pente on ploy-search, at full strength or as the difficulty ladder.

mod eval;
pub(crate) mod patterns;
mod state;
mod threat;

use core::fmt;
use std::time::{Duration, Instant};

use ploy_search::{Config, Info, Limits, Score, SearchGame, Searcher};
use thiserror::Error;

pub use eval::{EvalParams, Evaluation};
pub use state::{SearchPosition, Tuning};

use crate::position::Position;
use crate::types::Move;
use state::Narrowing;
use threat::{ThreatBudget, ThreatSearch};

/// A level of the ladder: look-ahead depth, padding of the candidate box, and widths per
/// ply (see [`Level::difficulty`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Level {
    /// Plies of look-ahead (0: the best-ordered move, no look-ahead).
    pub depth: u32,
    /// Candidate moves are the legal points inside the bounding box of all stones widened
    /// by this many points on every side (widened further, one step at a time, if none is
    /// legal there).
    pub padding: u8,
    /// At ply `i` of the look-ahead only the `width[i]` best-ordered moves are searched;
    /// the last entry repeats. Never empty; entries at least 1.
    pub width: Vec<u16>,
}

/// A difficulty outside 1..=5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("difficulty {0} is not from 1 to 5")]
pub struct DifficultyError(pub u32);

impl Level {
    /// The preset of a difficulty from 1 (easiest) to 5:
    ///
    /// | difficulty | depth | padding | width |
    /// |---|---|---|---|
    /// | 1 | 1 | 1 | 3 |
    /// | 2 | 3 | 1 | 3, 2 |
    /// | 3 | 5 | 2 | 4, 3, 2 |
    /// | 4 | 5 | 2 | 6, 4, 3 |
    /// | 5 | 7 | 3 | 8, 5, 3, 2 |
    ///
    /// # Errors
    /// [`DifficultyError`] outside 1..=5.
    pub fn difficulty(d: u32) -> Result<Level, DifficultyError> {
        let (depth, padding, width): (u32, u8, &[u16]) = match d {
            1 => (1, 1, &[3]),
            2 => (3, 1, &[3, 2]),
            3 => (5, 2, &[4, 3, 2]),
            4 => (5, 2, &[6, 4, 3]),
            5 => (7, 3, &[8, 5, 3, 2]),
            _ => return Err(DifficultyError(d)),
        };
        Ok(Level {
            depth,
            padding,
            width: width.to_vec(),
        })
    }
}

impl fmt::Display for Level {
    /// `depth 5, padding 2, width [4,3,2]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}, padding {}, width [", self.depth, self.padding)?;
        for (i, w) in self.width.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{w}")?;
        }
        f.write_str("]")
    }
}

/// How the engine plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Strength {
    /// Full strength: the threat search, then the whole search within the budget.
    #[default]
    Full,
    /// A ladder level: the same evaluation and move ordering, limited by depth, padding and
    /// width; budgets other than the stop flag do not apply.
    Level(Level),
}

/// The answer of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play (`None` when the game is over).
    pub best_move: Option<Move>,
    /// Its score for the player to move: an evaluation, or a win or loss in plies.
    pub score: Score,
    /// Depth reached (plies; for a win found by the threat search, the win's length).
    pub depth: u32,
    /// The expected line, starting with the best move.
    pub pv: Vec<Move>,
    /// Nodes searched (moves made).
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// Whether the threat search proved the win.
    pub by_threats: bool,
}

/// The engine: a searcher with its table, a strength and a seeded generator for the
/// choice among equal moves.
///
/// ```
/// use pente::{Engine, Position, Rules, Size, Strength, Level};
/// use ploy_search::Limits;
/// let pos = Position::from_moves(Rules::new(Size::S9), &["E5".parse()?, "F6".parse()?])
///     .map_err(|(_, e)| e)?;
/// let mut engine = Engine::new(Strength::Full);
/// let a = engine.search(&pos, &Limits::depth(3), |_| {});
/// assert!(pos.is_legal(a.best_move.unwrap()));
/// let mut easy = Engine::new(Strength::Level(Level::difficulty(1)?)).with_seed(7);
/// assert!(pos.is_legal(easy.search(&pos, &Limits::default(), |_| {}).best_move.unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    strength: Strength,
    searcher: Searcher<SearchPosition, Evaluation>,
    seed: u64,
    rng: u64,
    threat_nodes: u64,
    tuning: Tuning,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("strength", &self.strength)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

/// The search configuration at full strength: ploy-search's defaults with the game's own
/// move order instead of the history heuristic, and alpha-beta with principal variation
/// search instead of MTD(f) (it won 73 of 120 games against MTD(f) at 20,000 nodes a move:
/// Pente's evaluation swings with the side to move, which costs MTD(f) re-searches).
#[must_use]
pub fn full_strength_config() -> Config {
    Config {
        history: false,
        driver: ploy_search::Driver::AlphaBeta,
        ..Config::default()
    }
}

/// The configuration of the ladder: plain alpha-beta over the narrowed moves, no
/// quiescence, no reductions, no table (so that widths per ply are respected exactly).
fn ladder_config() -> Config {
    Config {
        table_bytes: 0,
        ..Config::plain()
    }
}

impl Engine {
    /// An engine of `strength`, seed 0.
    #[must_use]
    pub fn new(strength: Strength) -> Engine {
        Engine::with_evaluation(strength, Evaluation::default())
    }

    /// An engine of `strength` with evaluation `eval`.
    #[must_use]
    pub fn with_evaluation(strength: Strength, eval: Evaluation) -> Engine {
        let config = match strength {
            Strength::Full => full_strength_config(),
            Strength::Level(_) => ladder_config(),
        };
        Engine::with_config(strength, config, eval)
    }

    /// An engine of `strength` with evaluation `eval` and the search configuration
    /// `config` (for experiments; [`full_strength_config`] is the full strength's).
    #[must_use]
    pub fn with_config(strength: Strength, config: Config, eval: Evaluation) -> Engine {
        Engine {
            strength,
            searcher: Searcher::new(config, eval),
            seed: 0,
            rng: mix64(0),
            threat_nodes: 200_000,
            tuning: Tuning::default(),
        }
    }

    /// The same engine with seed `seed`: its choices among equal moves follow it.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Engine {
        self.seed = seed;
        self.rng = mix64(seed);
        self
    }

    /// The same engine with at most `nodes` nodes for the threat search before each
    /// search at full strength (default 200,000; 0 switches it off).
    #[must_use]
    pub fn with_threat_nodes(mut self, nodes: u64) -> Engine {
        self.threat_nodes = nodes;
        self
    }

    /// The same engine with the move generation's knobs `tuning` (full strength only).
    #[must_use]
    pub fn with_tuning(mut self, tuning: Tuning) -> Engine {
        self.tuning = tuning;
        self
    }

    /// The strength.
    #[must_use]
    pub fn strength(&self) -> &Strength {
        &self.strength
    }

    /// Forgets the table and killers (a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    fn next_random(&mut self) -> u64 {
        self.rng = mix64(self.rng);
        self.rng
    }

    /// Searches `pos` within `limits` and returns the move to play. `observer` sees every
    /// completed iteration of the main search, or the threat search's proven win.
    ///
    /// At full strength the threat search runs first, with at most a quarter of the
    /// budget; a win it proves is answered at once. A level of the ladder ignores every
    /// budget but the stop flag. A finished game answers `best_move: None` with the
    /// result as the score.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> Analysis {
        let start = Instant::now();
        match self.strength.clone() {
            Strength::Full => self.search_full(pos, limits, observer, start),
            Strength::Level(level) => self.search_level(pos, &level, limits, start),
        }
    }

    fn search_full(
        &mut self,
        pos: &Position,
        limits: &Limits,
        mut observer: impl FnMut(&Info<'_, Move>),
        start: Instant,
    ) -> Analysis {
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_tuning(self.tuning);
        let mut nodes = 0;
        if !pos.is_over() && self.threat_nodes > 0 {
            // The threat search gets a share of the budget.
            let share = u64::from(self.tuning.threat_share.min(100));
            let deadline = limits
                .hard_time
                .map(|t| start + t * self.tuning.threat_share.min(100) / 100);
            let budget = ThreatBudget {
                nodes: limits.nodes.map_or(self.threat_nodes, |n| {
                    (n * share / 100).min(self.threat_nodes)
                }),
                deadline,
                stop: limits.stop.clone(),
            };
            let mut ts = ThreatSearch::new(budget);
            let found = ts.solve(&g, 12);
            nodes = ts.nodes;
            if let Some((mv, plies)) = found {
                let pv = [mv];
                let time = start.elapsed();
                observer(&Info::new(plies, Score::win_in(plies), &pv, nodes, time));
                return Analysis {
                    best_move: Some(mv),
                    score: Score::win_in(plies),
                    depth: plies,
                    pv: vec![mv],
                    nodes,
                    time: start.elapsed(),
                    by_threats: true,
                };
            }
        }
        let mut limits = limits.clone();
        if let Some(n) = limits.nodes.as_mut() {
            *n = n.saturating_sub(nodes).max(1);
        }
        if let Some(t) = limits.hard_time.as_mut() {
            *t = t.saturating_sub(start.elapsed());
        }
        if let Some(t) = limits.soft_time.as_mut() {
            *t = t.saturating_sub(start.elapsed());
        }
        let r = self.searcher.search(&g, &[], &limits, &mut observer);
        Analysis {
            best_move: r.best_move,
            score: r.score,
            depth: r.depth,
            pv: r.pv,
            nodes: nodes + r.nodes,
            time: start.elapsed(),
            by_threats: false,
        }
    }

    fn search_level(
        &mut self,
        pos: &Position,
        level: &Level,
        limits: &Limits,
        start: Instant,
    ) -> Analysis {
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_narrowing(Some(Narrowing {
            padding: level.padding,
            width: level.width.clone(),
        }));
        let mut analysis = Analysis {
            best_move: None,
            score: Score::DRAW,
            depth: level.depth,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            by_threats: false,
        };
        if let Some(o) = pos.outcome() {
            analysis.score = match o.winner() {
                Some(w) if w == pos.turn() => Score::win_in(0),
                Some(_) => Score::loss_in(0),
                None => Score::DRAW,
            };
            analysis.depth = 0;
            return analysis;
        }
        let mut moves = Vec::new();
        g.generate(&mut moves);
        let mut scored: Vec<(Score, Move)> = Vec::with_capacity(moves.len());
        if level.depth == 0 {
            let best = moves
                .iter()
                .map(|m| g.order_score_of(*m))
                .max()
                .unwrap_or(0);
            for &m in &moves {
                if g.order_score_of(m) == best {
                    scored.push((Score::DRAW, m));
                }
            }
        } else {
            let child_limits = Limits {
                depth: Some(level.depth - 1),
                stop: limits.stop.clone(),
                ..Limits::default()
            };
            for &m in &moves {
                let undo = g.make(m);
                analysis.nodes += 1;
                let value = if let Some(o) = g.position().outcome() {
                    match o.winner() {
                        Some(_) => Score::win_in(1),
                        None => Score::DRAW,
                    }
                } else if level.depth == 1 {
                    Score::new(clamp16(-self.searcher.evaluator().value(&g)))
                } else {
                    let r = self.searcher.search(&g, &[], &child_limits, |_| {});
                    analysis.nodes += r.nodes;
                    -r.score
                };
                g.unmake(m, undo);
                scored.push((value, m));
            }
            let best = scored.iter().map(|s| s.0).max().unwrap_or(Score::DRAW);
            scored.retain(|s| s.0 == best);
        }
        if !scored.is_empty() {
            let pick = (self.next_random() % scored.len() as u64) as usize;
            analysis.best_move = Some(scored[pick].1);
            analysis.score = scored[pick].0;
            analysis.pv = vec![scored[pick].1];
        }
        analysis.time = start.elapsed();
        analysis
    }
}

/// The SplitMix64 output function of `z` (a well-mixed 64-bit hash).
#[must_use]
pub(crate) const fn mix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn clamp16(v: i32) -> i16 {
    v.clamp(-i32::from(Score::EVAL_MAX), i32::from(Score::EVAL_MAX)) as i16
}
