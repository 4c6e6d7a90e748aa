//! One call to search a game of any variant: [`Engine`], and the game history in each
//! search game's own hashes ([`GameHistory`]).

use ploy_core::{Game, Move, Outcome, Position, Variant};

use crate::eval::Evaluation;
use crate::paranoid::Paranoid;
use crate::ploy_game::PloyGame;
use crate::position::{EvalPosition, PlainPosition};
use ploy_search::Score;
use ploy_search::SearchGame;
use ploy_search::{Clock, Limits};
use ploy_search::{Config, Info, MAX_THREADS, SearchOptions, SearchResult, Searcher};

/// Default transposition table size in MiB (the engine protocol's `Hash` option).
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest table size [`Engine::set_hash_mb`] accepts, in MiB.
pub const MAX_HASH_MB: usize = 4096;

/// Searches Ploy [`Game`]s of every variant: the one Ploy engine, behind `ploy play`, the
/// engine protocol, `ploy match` and the server's bot.
///
/// [`Engine::best_move`] takes the game as it stands and the [`Limits`], and does the rest:
/// it picks the search for the variant (two-player and partnership games as two sides,
/// free-for-all games by the paranoid reduction for the player to move, as
/// [`PloyGame::new`] does), hands the search the game's earlier positions in the right hash
/// space so that repetitions count as draws, and answers `None` once the game is over
/// (decided on the board, drawn by a rule, resigned, lost on time, agreed drawn). The table,
/// killers and history persist from move to move; [`Engine::clear`] forgets them for a new
/// game.
///
/// ```
/// use ploy_core::{Game, Rules, Variant};
/// use ploy_engine::Engine;
/// use ploy_search::{Config, Limits};
///
/// let mut engine = Engine::new(Config::default());
/// for variant in [Variant::TwoPlayer, Variant::FreeForAll, Variant::Partnership] {
///     let mut game = Game::start(variant, Rules::standard());
///     for _ in 0..4 {
///         let mv = engine.best_move(&game, &Limits::depth(2)).expect("the game goes on");
///         game.play(mv)?;
///     }
/// }
/// # Ok::<(), ploy_core::GameError>(())
/// ```
///
/// The table is allocated, and every page of it touched, when the engine is made and when
/// its size changes ([`Engine::set_hash_mb`]), never during a search: a large table costs
/// its time there, not in a move's time budget.
///
/// An engine is [`Send`]: it may live on a search thread (its clock is a `Clock + Send`).
/// Scores are for the side to move; in a free-for-all game, for the player to move against
/// all the others together (see the crate docs).
pub struct Engine {
    config: Config,
    eval: Evaluation,
    /// `None` only while the table is being replaced (the old one is freed first).
    searcher: Option<Searcher<PloyGame, Evaluation>>,
}

// An engine may move to another thread.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Engine>();
    send::<Searcher<PloyGame, Evaluation>>();
    send::<Searcher<EvalPosition, Evaluation>>();
};

impl Engine {
    /// An engine with `config` and the default evaluation. The transposition table
    /// ([`Config::table_bytes`]) is allocated now.
    #[must_use]
    pub fn new(config: Config) -> Engine {
        Engine::with_evaluation(config, Evaluation::default())
    }

    /// An engine with `config` and the evaluation `eval`.
    #[must_use]
    pub fn with_evaluation(config: Config, eval: Evaluation) -> Engine {
        Engine {
            searcher: Some(Searcher::new(config.clone(), eval.clone())),
            config,
            eval,
        }
    }

    /// An engine with the default configuration and a table of `hash_mb` MiB (clamped to
    /// 1..=[`MAX_HASH_MB`]), allocated now: the engine protocol's engine.
    #[must_use]
    pub fn with_hash_mb(hash_mb: usize) -> Engine {
        Engine::new(Config {
            table_bytes: hash_mb.clamp(1, MAX_HASH_MB) << 20,
            ..Config::default()
        })
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.config.table_bytes >> 20
    }

    /// Search threads (from the configuration; 1 unless [`Engine::set_threads`] said
    /// otherwise).
    #[must_use]
    pub fn threads(&self) -> usize {
        self.config.threads
    }

    /// Searches with `threads` threads from the next search on (clamped to
    /// 1..=[`MAX_THREADS`]; [`Config::threads`]). The table and everything learnt stay. One
    /// thread searches deterministically; more search one shared table at once (Lazy SMP),
    /// reaching a depth sooner but not reproducibly.
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.clamp(1, MAX_THREADS);
        if let Some(s) = &mut self.searcher {
            s.set_threads(self.config.threads);
        }
    }

    /// Changes the table size (clamped to 1..=[`MAX_HASH_MB`]): the old table is freed
    /// first, then the new one allocated and every page of it touched, which may take
    /// seconds for a large table. Everything learnt is forgotten.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.config.table_bytes = hash_mb.clamp(1, MAX_HASH_MB) << 20;
        self.searcher = None;
        self.searcher = Some(Searcher::new(self.config.clone(), self.eval.clone()));
    }

    /// Whether the engine can search games of `variant` (every variant, since the search
    /// has the paranoid reduction for free-for-all games).
    #[must_use]
    pub fn supports(variant: Variant) -> bool {
        matches!(
            variant,
            Variant::TwoPlayer | Variant::FreeForAll | Variant::Partnership
        )
    }

    /// The best move in `game` now, within `limits`, or `None` if the game is over.
    #[must_use]
    pub fn best_move(&mut self, game: &Game, limits: &Limits) -> Option<Move> {
        self.search(game, limits, |_| {}).best_move
    }

    /// Searches `game` as it stands within `limits`, calling `observer` after every
    /// completed iteration, and gives the whole result (move, score, depth, principal
    /// variation, nodes, time).
    ///
    /// A game that is over gives no move and no search: the score is then its result for
    /// the side to move (a win or loss now, or a draw), with depth 0.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        self.search_with(game, limits, &SearchOptions::default(), observer)
    }

    /// [`Engine::search`] with [`SearchOptions`]: only some moves, several lines, a mate
    /// search, pondering (see [`Searcher::search_with`]).
    ///
    /// ```
    /// use ploy_core::{Game, Rules};
    /// use ploy_engine::Engine;
    /// use ploy_search::{Limits, SearchOptions};
    ///
    /// let game = Game::new(Rules::standard());
    /// let mut engine = Engine::default();
    /// let mut lines = Vec::new();
    /// let options = SearchOptions::default().with_lines(3);
    /// let r = engine.search_with(&game, &Limits::depth(2), &options, |info| {
    ///     lines.push((info.depth, info.multipv, info.best_move));
    /// });
    /// assert_eq!(lines.len(), 6);
    /// assert_eq!(lines[3], (2, Some(1), r.best_move));
    /// // Three different moves at each depth.
    /// assert!(lines[3].2 != lines[4].2 && lines[4].2 != lines[5].2 && lines[3].2 != lines[5].2);
    /// ```
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions<Move>,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        if let Some(outcome) = game.outcome() {
            return SearchResult {
                best_move: None,
                score: outcome_score(game.position(), outcome),
                depth: 0,
                pv: Vec::new(),
                nodes: 0,
                time: std::time::Duration::ZERO,
                interrupted: false,
            };
        }
        let searcher = self.searcher_mut();
        let root = searcher.evaluator().game(game.position().clone());
        let history = root.history(game);
        searcher.search_with(&root, &history, limits, options, observer)
    }

    /// Forgets everything learnt (table, killers, history): for a new game. Clears every
    /// entry of the table (touching every page).
    pub fn clear(&mut self) {
        self.searcher_mut().clear();
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Replaces the clock the time limits are read from (tests inject a fake one).
    pub fn set_clock(&mut self, clock: impl Clock + Send + 'static) {
        self.searcher_mut().set_clock(clock);
    }

    /// The searcher underneath, for what this type does not offer.
    #[must_use]
    pub fn searcher(&self) -> &Searcher<PloyGame, Evaluation> {
        self.searcher
            .as_ref()
            .expect("the engine always has a searcher")
    }

    /// The searcher underneath, mutably.
    pub fn searcher_mut(&mut self) -> &mut Searcher<PloyGame, Evaluation> {
        if self.searcher.is_none() {
            self.searcher = Some(Searcher::new(self.config.clone(), self.eval.clone()));
        }
        self.searcher.as_mut().expect("made above")
    }
}

impl Default for Engine {
    /// The default configuration, with a table of [`DEFAULT_HASH_MB`] MiB.
    fn default() -> Engine {
        Engine::with_hash_mb(DEFAULT_HASH_MB)
    }
}

/// The result of a finished game for the side to move in `pos`, as a score.
fn outcome_score(pos: &Position, outcome: Outcome) -> Score {
    match outcome {
        Outcome::Draw { .. } => Score::DRAW,
        Outcome::Win { winners, .. } => {
            let mover = pos.mover();
            if winners.contains(mover) {
                Score::win_in(0)
            } else {
                Score::loss_in(0)
            }
        }
    }
}

/// The hashes of a game's positions since the last capture, before the current one.
fn plain_history(game: &Game) -> impl Iterator<Item = u64> + '_ {
    let positions = game.positions();
    let since = positions.len() - 1 - game.plies_since_capture() as usize;
    positions[since..positions.len() - 1]
        .iter()
        .map(Position::hash)
}

/// A Ploy search game that can give the history [`Searcher::search`] needs for a game's
/// repetitions **in its own hashes**: each type hashes positions its own way (a free-for-all
/// search mixes the root seat into every hash), so the history comes from the search game
/// itself and cannot be taken in the wrong hash space.
///
/// [`Engine`] does this for you; use it when calling a [`Searcher`] directly:
///
/// ```
/// use ploy_core::{Game, Rules, Variant};
/// use ploy_engine::{Evaluation, GameHistory};
/// use ploy_search::{Config, Limits, Searcher};
///
/// let mut game = Game::start(Variant::FreeForAll, Rules::standard());
/// game.play("b1-b1-1".parse()?)?;
/// let mut searcher = Searcher::new(Config::default(), Evaluation::default());
/// let root = searcher.evaluator().game(game.position().clone());
/// let history = root.history(&game); // in the paranoid search's hashes
/// let result = searcher.search(&root, &history, &Limits::depth(2), |_| {});
/// assert!(game.is_legal(result.best_move.unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait GameHistory: SearchGame {
    /// The hashes, in this search game's hash space, of `game`'s positions since its last
    /// capture, oldest first, without the current one (which is the position `self` holds).
    fn history(&self, game: &Game) -> Vec<u64>;
}

impl GameHistory for PlainPosition {
    fn history(&self, game: &Game) -> Vec<u64> {
        plain_history(game).collect()
    }
}

impl GameHistory for EvalPosition {
    fn history(&self, game: &Game) -> Vec<u64> {
        plain_history(game).collect()
    }
}

impl GameHistory for Paranoid {
    fn history(&self, game: &Game) -> Vec<u64> {
        let key = self.hash_key();
        plain_history(game).map(|h| h ^ key).collect()
    }
}

impl GameHistory for PloyGame {
    fn history(&self, game: &Game) -> Vec<u64> {
        match self {
            PloyGame::Sides(g) => g.history(game),
            PloyGame::Paranoid(g) => g.history(game),
        }
    }
}
