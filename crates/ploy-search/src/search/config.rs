//! The search's configuration: [`Config`], its switches and tuning values, and
//! [`Config::set`], which sets one by name (the engine protocol's options).

use super::{MAX_KILLERS, MAX_THREADS};
use crate::table::Table;

/// The root driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Driver {
    /// MTD(f): a series of zero-window searches converging on the value (default).
    #[default]
    Mtdf,
    /// One full-window alpha-beta search per iteration (principal variation search when
    /// [`Config::pvs`] is on).
    AlphaBeta,
}

/// Search options. Every pruning, reduction, extension and ordering heuristic can be
/// switched off.
///
/// The selective switches (forward pruning, reductions, the extension) make the search
/// inexact: [`Config::exact`] and [`Config::without_selectivity`] switch them all off, and
/// the search then returns exactly the negamax value of the searched depth. The ordering
/// switches (table move, captures, killers, history, counter moves, continuation history),
/// the drivers, the table and the caches never change the value, only the time to find it.
/// Each default was chosen by a match; the crate docs list them with their results.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Config {
    /// The root driver.
    pub driver: Driver,
    /// Transposition table size in bytes; 0 switches the table off.
    pub table_bytes: usize,
    /// Try the table's move first.
    pub table_move: bool,
    /// Order captures first, most valuable victim first.
    pub order_captures: bool,
    /// Killer moves kept per ply, 0..=[`MAX_KILLERS`].
    pub killers: usize,
    /// Order quiet moves by the history heuristic.
    pub history: bool,
    /// Try the move that last refuted the opponent's previous move (the counter move) right
    /// after the killers.
    pub counter_moves: bool,
    /// Order quiet moves also by how well they did after the same previous move and the
    /// same move two plies back (continuation history, [`SearchGame::continuation_index`](crate::SearchGame::continuation_index)).
    pub continuation_history: bool,
    /// Principal variation search in the alpha-beta driver (zero-window searches of all but
    /// the first move, re-searched when they fail high).
    pub pvs: bool,
    /// The alpha-beta driver's first window around the expected score (aspiration), in
    /// evaluation units, widened on each failure; 0 searches every iteration with the full
    /// window.
    pub aspiration_window: u16,
    /// MTD(f)'s most zero-window passes per iteration; when they have not converged, one
    /// search with the window between the bounds found settles the value (exactly). 0: no
    /// cap.
    pub mtdf_max_passes: u16,
    /// Quiescence search on captures at the horizon.
    pub quiescence: bool,
    /// Most plies of quiescence search below the horizon.
    pub max_quiescence: u8,
    /// Selective: late move reductions. Quiet moves late in the order are first searched
    /// shallower, by a table of depth and move number, less for moves with a good history,
    /// killers and counter moves, and moves that attack the opponent's commander, more
    /// outside the principal variation; they are searched again in full only if they beat
    /// alpha.
    pub late_move_reductions: bool,
    /// Selective: null-move pruning. Where the static evaluation is at least beta, the side
    /// to move passes ([`SearchGame::make_null`](crate::SearchGame::make_null)) and a shallower search follows; if even
    /// then the opponent cannot bring the score below beta, the node fails high. Never
    /// where the side to move is in check ([`SearchGame::in_check`](crate::SearchGame::in_check)) or the game refuses a
    /// pass (few pieces left); deep nullmove cutoffs are verified by a reduced search
    /// without null moves.
    pub null_move: bool,
    /// Selective: reverse futility pruning. Near the horizon, a node whose static
    /// evaluation exceeds beta by a margin per ply left fails high at once.
    pub reverse_futility: bool,
    /// Selective: futility pruning. Near the horizon, quiet moves are skipped when the
    /// static evaluation plus a margin per ply left cannot reach alpha.
    pub futility: bool,
    /// Selective: late move pruning. Near the horizon, quiet moves after the first few
    /// (more with more depth left) are skipped.
    pub late_move_pruning: bool,
    /// Selective: delta pruning in quiescence search. A capture is skipped when even the
    /// value of what it takes ([`SearchGame::capture_value`](crate::SearchGame::capture_value)) and a margin cannot lift the
    /// standing score to alpha.
    pub delta_pruning: bool,
    /// Selective: quiescence search skips captures that lose material by static exchange
    /// evaluation ([`SearchGame::exchange_value`](crate::SearchGame::exchange_value)).
    pub exchange_pruning: bool,
    /// Selective: search one ply deeper where the side to move is in check
    /// ([`SearchGame::in_check`](crate::SearchGame::in_check): in Ploy, its commander is attacked). Off by default: it
    /// showed no gain in its match (see the crate docs).
    pub check_extension: bool,
    /// Selective: internal iterative reductions. A node deep enough to matter but without a
    /// move from the table is searched one ply shallower (it is probably not on the
    /// principal variation, and the table will have a move next time).
    pub internal_reductions: bool,
    /// Size in bytes of the evaluation cache (8-byte entries keyed by the position hash);
    /// 0 switches it off.
    pub eval_cache_bytes: usize,
    /// Keep each node's static evaluation in its transposition table entry (beside the
    /// bounds; a node that prunes without storing bounds stores its evaluation alone), so
    /// that a node met again takes it from the table instead of evaluating. It never
    /// changes a value, only the work per node; the tree changes only where the entries that
    /// hold just an evaluation take table slots that others would have had.
    #[cfg_attr(feature = "serde", serde(default = "table_eval_default"))]
    pub table_eval: bool,
    /// Stop deepening when a forced result within the searched depth is proven (with
    /// selective switches on, only by iterations of at most 2 plies).
    pub stop_at_proven_result: bool,
    /// Use the score of the iteration two plies back as the first guess (MTD(f)) or the
    /// centre of the first window (aspiration), for Ploy's odd/even swing; otherwise the
    /// previous iteration's.
    pub guess_from_same_parity: bool,
    /// Search threads, 1..=[`MAX_THREADS`] (default 1): with more, helper threads search
    /// the same root at once and share the table (Lazy SMP; see the crate docs, Threads).
    /// One thread searches on the caller's thread alone, deterministically.
    #[cfg_attr(feature = "serde", serde(default = "one_thread"))]
    pub threads: usize,
}

/// The default of [`Config::threads`] when deserialising a configuration without it.
#[cfg(feature = "serde")]
fn one_thread() -> usize {
    1
}

/// The default of [`Config::table_eval`] when deserialising a configuration without it.
#[cfg(feature = "serde")]
fn table_eval_default() -> bool {
    Config::default().table_eval
}

impl Default for Config {
    fn default() -> Config {
        Config {
            driver: Driver::AlphaBeta,
            table_bytes: Table::DEFAULT_BYTES,
            table_move: true,
            order_captures: true,
            killers: 3,
            history: true,
            counter_moves: true,
            continuation_history: true,
            pvs: true,
            aspiration_window: 30,
            mtdf_max_passes: 0,
            quiescence: true,
            max_quiescence: 16,
            late_move_reductions: true,
            null_move: true,
            reverse_futility: true,
            futility: false,
            late_move_pruning: false,
            delta_pruning: false,
            exchange_pruning: false,
            check_extension: false,
            internal_reductions: true,
            eval_cache_bytes: 1 << 18,
            table_eval: true,
            stop_at_proven_result: true,
            guess_from_same_parity: true,
            threads: 1,
        }
    }
}

impl Config {
    /// The default configuration without forward pruning, reductions or extensions: the
    /// search returns exactly the negamax value of the searched depth.
    #[must_use]
    pub fn exact() -> Config {
        Config::default().without_selectivity()
    }

    /// This configuration with every selective switch off (late move reductions, null
    /// move, reverse futility, futility, late move pruning, delta and exchange pruning, the
    /// check extension, internal iterative reductions): exact, with the same ordering, table
    /// and driver.
    #[must_use]
    pub fn without_selectivity(self) -> Config {
        Config {
            late_move_reductions: false,
            null_move: false,
            reverse_futility: false,
            futility: false,
            late_move_pruning: false,
            delta_pruning: false,
            exchange_pruning: false,
            check_extension: false,
            internal_reductions: false,
            ..self
        }
    }

    /// Whether any selective switch is on (the search may then differ from negamax).
    #[must_use]
    pub fn is_selective(&self) -> bool {
        *self != self.clone().without_selectivity()
    }

    /// Everything off: no table, no ordering, no quiescence, no reductions; the alpha-beta
    /// driver without PVS. The base for tests and comparisons.
    #[must_use]
    pub fn plain() -> Config {
        Config {
            driver: Driver::AlphaBeta,
            table_bytes: 0,
            table_move: false,
            order_captures: false,
            killers: 0,
            history: false,
            counter_moves: false,
            continuation_history: false,
            pvs: false,
            aspiration_window: 0,
            mtdf_max_passes: 0,
            quiescence: false,
            max_quiescence: 0,
            eval_cache_bytes: 1 << 18,
            table_eval: false,
            stop_at_proven_result: false,
            guess_from_same_parity: true,
            threads: 1,
            ..Config::default().without_selectivity()
        }
    }

    /// Sets one option by name (the field's name, as [`Config::NAMES`] lists them) from
    /// text: `on`/`off`/`true`/`false`/`1`/`0` for switches, a
    /// number for sizes and counts, `mtdf`/`alphabeta` for the driver. Match programs and
    /// engine options use it to try configurations.
    ///
    /// ```
    /// use ploy_search::Config;
    /// let mut c = Config::exact();
    /// c.set("null_move", "on").unwrap();
    /// c.set("aspiration_window", "40").unwrap();
    /// assert!(c.null_move && c.aspiration_window == 40);
    /// assert!(c.set("nonsense", "1").is_err());
    /// assert!(c.set("null_move", "maybe").is_err());
    /// ```
    ///
    /// # Errors
    /// [`ConfigError`] for an unknown name or a value that does not fit it; the
    /// configuration is then unchanged.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
        let bad = || ConfigError::Value {
            name: name.to_owned(),
            value: value.to_owned(),
        };
        let flag = || match value {
            "on" | "true" | "1" | "yes" => Ok(true),
            "off" | "false" | "0" | "no" => Ok(false),
            _ => Err(bad()),
        };
        macro_rules! number {
            () => {
                value.parse().map_err(|_| bad())?
            };
        }
        match name {
            "driver" => {
                self.driver = match value {
                    "mtdf" => Driver::Mtdf,
                    "alphabeta" => Driver::AlphaBeta,
                    _ => return Err(bad()),
                }
            }
            "table_bytes" => self.table_bytes = number!(),
            "table_move" => self.table_move = flag()?,
            "order_captures" => self.order_captures = flag()?,
            "killers" => {
                let k: usize = number!();
                if k > MAX_KILLERS {
                    return Err(bad());
                }
                self.killers = k;
            }
            "history" => self.history = flag()?,
            "counter_moves" => self.counter_moves = flag()?,
            "continuation_history" => self.continuation_history = flag()?,
            "pvs" => self.pvs = flag()?,
            "aspiration_window" => self.aspiration_window = number!(),
            "mtdf_max_passes" => self.mtdf_max_passes = number!(),
            "quiescence" => self.quiescence = flag()?,
            "max_quiescence" => self.max_quiescence = number!(),
            "late_move_reductions" => self.late_move_reductions = flag()?,
            "null_move" => self.null_move = flag()?,
            "reverse_futility" => self.reverse_futility = flag()?,
            "futility" => self.futility = flag()?,
            "late_move_pruning" => self.late_move_pruning = flag()?,
            "delta_pruning" => self.delta_pruning = flag()?,
            "exchange_pruning" => self.exchange_pruning = flag()?,
            "check_extension" => self.check_extension = flag()?,
            "internal_reductions" => self.internal_reductions = flag()?,
            "eval_cache_bytes" => self.eval_cache_bytes = number!(),
            "table_eval" => self.table_eval = flag()?,
            "stop_at_proven_result" => self.stop_at_proven_result = flag()?,
            "guess_from_same_parity" => self.guess_from_same_parity = flag()?,
            "threads" => {
                let n: usize = number!();
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(bad());
                }
                self.threads = n;
            }
            _ => {
                return Err(ConfigError::Name(name.to_owned()));
            }
        }
        Ok(())
    }

    /// The names [`Config::set`] knows, in the order of the fields.
    pub const NAMES: &'static [&'static str] = &[
        "driver",
        "table_bytes",
        "table_move",
        "order_captures",
        "killers",
        "history",
        "counter_moves",
        "continuation_history",
        "pvs",
        "aspiration_window",
        "mtdf_max_passes",
        "quiescence",
        "max_quiescence",
        "late_move_reductions",
        "null_move",
        "reverse_futility",
        "futility",
        "late_move_pruning",
        "delta_pruning",
        "exchange_pruning",
        "check_extension",
        "internal_reductions",
        "eval_cache_bytes",
        "table_eval",
        "stop_at_proven_result",
        "guess_from_same_parity",
        "threads",
    ];
}

/// A [`Config::set`] that did not apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No option has this name.
    #[error("unknown search option `{0}`")]
    Name(String),
    /// The value does not fit the option.
    #[error("search option `{name}` cannot be `{value}`")]
    Value {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
}
