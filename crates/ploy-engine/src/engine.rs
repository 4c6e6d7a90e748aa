//! One call to search a game of any variant: [`Engine`], and the game history in each
//! search game's own hashes ([`GameHistory`]).

use ploy_core::{Game, Move, Outcome, Position, Variant};

use crate::eval::Evaluation;
use crate::level::{self, LevelLimits};
use crate::paranoid::Paranoid;
use crate::ploy_game::PloyGame;
use crate::position::{EvalPosition, PlainPosition};
use ploy_search::Score;
use ploy_search::SearchGame;
use ploy_search::multi::{MctsConfig, SearchKind, SearchKindError};
use ploy_search::{Clock, Limits};
use ploy_search::{Config, Info, MAX_THREADS, SearchOptions, SearchResult, Searcher};
use ploy_search::{ConfigError, Level, LevelRng};

/// Default transposition table size in MiB (the engine protocol's `Hash` option).
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest table size [`Engine::set_hash_mb`] accepts, in MiB.
pub const MAX_HASH_MB: usize = 4096;

/// An option [`Engine::set_option`] did not take; the engine is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineOptionError {
    /// `ffa_search` with a value that names no search.
    #[error("engine option `ffa_search`: {0}")]
    FfaSearch(#[from] SearchKindError),
    /// Any other name: not a search option ([`Config::set`]) or a bad value for it.
    #[error(transparent)]
    Config(#[from] ConfigError),
}

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
///
/// # Levels
///
/// An engine plays at full strength ([`Level::MAX`], 8) unless told a weaker [`Level`]
/// ([`Engine::set_level`], [`Engine::with_level`]). Levels 1 to 7 search less (their own
/// depth and node limits, within the caller's [`Limits`]) and err on purpose (they choose
/// among several best lines, and now and then play a weaker one), as [`LevelLimits`] says.
/// Their random choices are seeded by the engine's seed ([`Engine::set_seed`], 0 unless
/// set), the position and the ply, so that with a depth or node budget the same game and
/// seed replay the same moves. Level 8 searches exactly as an engine without a level.
///
/// ```
/// use ploy_core::{Game, Rules};
/// use ploy_engine::{Engine, Level};
/// use ploy_search::Limits;
///
/// let play = |seed| -> Result<Vec<_>, Box<dyn std::error::Error>> {
///     let mut engine = Engine::default().with_level("2".parse::<Level>()?).with_seed(seed);
///     let mut game = Game::new(Rules::standard());
///     for _ in 0..6 {
///         let mv = engine.best_move(&game, &Limits::nodes(20_000)).expect("the game goes on");
///         game.play(mv)?;
///     }
///     Ok(game.moves().to_vec())
/// };
/// // The same seed replays the same game.
/// assert_eq!(play(7)?, play(7)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    config: Config,
    eval: Evaluation,
    level: Level,
    seed: u64,
    /// The search of free-for-all games (`None`: the default, Best-Reply Search on the
    /// two-sided searcher).
    ffa_search: Option<SearchKind>,
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
            level: Level::MAX,
            seed: 0,
            ffa_search: None,
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

    /// The same engine playing at `level`.
    #[must_use]
    pub fn with_level(mut self, level: Level) -> Engine {
        self.level = level;
        self
    }

    /// Plays at `level` from the next search on (8, [`Level::MAX`], is full strength).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The level the engine plays at (8 unless told otherwise).
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The same engine with the seed `seed` for a weaker level's choices.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Engine {
        self.seed = seed;
        self
    }

    /// Seeds a weaker level's choices from the next search on (with the position and the
    /// ply: the same game and seed give the same choices).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The seed of a weaker level's choices (0 unless set).
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The same engine searching free-for-all games by `kind` (`None`: the default).
    #[must_use]
    pub fn with_ffa_search(mut self, kind: impl Into<Option<SearchKind>>) -> Engine {
        self.set_ffa_search(kind);
        self
    }

    /// Searches free-for-all games by `kind` from the next search on (`None`: the default);
    /// two-player and partnership games are not affected.
    ///
    /// - **The default** (`None`) is Best-Reply Search on the engine's two-sided searcher:
    ///   [`crate::Paranoid`] in best-reply mode ([`crate::Paranoid::with_best_reply`]), with
    ///   the table, the quiescence search and every selective switch of the configuration.
    ///   Between two moves of the player to move it lets one opponent reply, whichever
    ///   hurts him most. It was chosen by matches (see the crate docs). A search for a
    ///   forced win (`mate_plies`) and a level below 8 use the paranoid search instead.
    /// - [`SearchKind::Paranoid`] is the two-sided search of the paranoid reduction
    ///   ([`crate::Paranoid`]: every opponent replies, all against the player to move), the
    ///   default before Best-Reply Search won its matches.
    /// - [`SearchKind::Brs`], [`SearchKind::BrsPlus`] and [`SearchKind::Mcts`] are the
    ///   plain searches of [`ploy_search::multi`] on [`crate::FreeForAll`] with the engine's
    ///   evaluation ([`Evaluation::every_player_scores`]), without table-driven pruning or
    ///   quiescence. They search at full strength only (a level below 8 plays the level's
    ///   paranoid search) and answer one line: a search asking for several lines, some root
    ///   moves only, a forced win or pondering is the paranoid search too. Their depth
    ///   counts plies for paranoid search and layers for BRS; Monte-Carlo tree search runs
    ///   until its node or time budget (or stop flag) is spent, or with only a depth limit
    ///   for [`crate::MCTS_ITERATIONS_PER_DEPTH`] iterations per ply, and reports depth 1.
    ///
    /// ```
    /// use ploy_core::{Game, Rules, Variant};
    /// use ploy_engine::Engine;
    /// use ploy_search::Limits;
    /// use ploy_search::multi::SearchKind;
    ///
    /// let game = Game::start(Variant::FreeForAll, Rules::standard());
    /// let mut engine = Engine::default();
    /// assert_eq!(engine.ffa_search(), None);
    /// for kind in SearchKind::ALL {
    ///     engine.set_ffa_search(kind);
    ///     let mv = engine.best_move(&game, &Limits::nodes(3_000)).unwrap();
    ///     assert!(game.is_legal(mv));
    /// }
    /// engine.set_ffa_search(None);
    /// assert!(game.is_legal(engine.best_move(&game, &Limits::nodes(3_000)).unwrap()));
    /// ```
    pub fn set_ffa_search(&mut self, kind: impl Into<Option<SearchKind>>) {
        self.ffa_search = kind.into();
    }

    /// The search of free-for-all games: `None` for the default (Best-Reply Search on the
    /// two-sided searcher, [`Engine::set_ffa_search`]).
    #[must_use]
    pub fn ffa_search(&self) -> Option<SearchKind> {
        self.ffa_search
    }

    /// Sets an option by name from text: `ffa_search` (`default`, `paranoid`, `brs`, `brs+`,
    /// `mcts`: [`Engine::set_ffa_search`]) or any search option [`Config::set`] knows, which
    /// applies from the next search on with a new searcher (everything learnt is
    /// forgotten). Match specs such as `full:ffa_search=brs,null_move=off` are read this
    /// way.
    ///
    /// ```
    /// use ploy_engine::Engine;
    /// use ploy_search::multi::SearchKind;
    ///
    /// let mut engine = Engine::default();
    /// engine.set_option("ffa_search", "brs+")?;
    /// assert_eq!(engine.ffa_search(), Some(SearchKind::BrsPlus));
    /// engine.set_option("null_move", "off")?;
    /// assert!(!engine.config().null_move);
    /// assert!(engine.set_option("ffa_search", "minimax").is_err());
    /// assert!(engine.set_option("nonsense", "1").is_err());
    /// assert_eq!(engine.ffa_search(), Some(SearchKind::BrsPlus));
    /// engine.set_option("ffa_search", "default")?;
    /// assert_eq!(engine.ffa_search(), None);
    /// # Ok::<(), ploy_engine::EngineOptionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`EngineOptionError`] for an unknown name or a value that does not fit it.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineOptionError> {
        if name == "ffa_search" {
            self.ffa_search = if value == "default" {
                None
            } else {
                Some(value.parse()?)
            };
            return Ok(());
        }
        let mut config = self.config.clone();
        config.set(name, value)?;
        if config != self.config {
            self.config = config;
            self.searcher = None;
            self.searcher = Some(Searcher::new(self.config.clone(), self.eval.clone()));
        }
        Ok(())
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
    /// At a level below 8 the search is the level's ([`LevelLimits`]): within the level's
    /// limits and `limits`, with at least the level's number of lines (the observer gets
    /// the lines `options` asks for), and the result is the line the level chooses: its
    /// move, score and principal variation.
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
        if !self.level.is_full() {
            return self.level_search(game, limits, options, observer);
        }
        let plain = options.root_moves.is_empty()
            && options.lines <= 1
            && options.mate_plies.is_none()
            && options.ponder.is_none();
        let multi = self.ffa_search.filter(|&k| k != SearchKind::Paranoid);
        if let Some(kind) =
            multi.filter(|_| plain && game.position().variant() == Variant::FreeForAll)
        {
            return crate::ffa_search::search(
                kind,
                &self.eval,
                &MctsConfig::default(),
                game,
                limits,
                observer,
            );
        }
        // Best-Reply Search's wins assume opponents who pass: a forced win is searched
        // paranoidly.
        let best_reply = self.ffa_search.is_none() && options.mate_plies.is_none();
        let searcher = self.searcher_mut();
        let root = searcher
            .evaluator()
            .game(game.position().clone())
            .with_best_reply(best_reply);
        let history = root.history(game);
        if !best_reply || game.position().variant() != Variant::FreeForAll {
            return searcher.search_with(&root, &history, limits, options, observer);
        }
        // A best-reply line skips the turns of the opponents who pass: only its start, up
        // to the first reply out of turn, is a line of the game.
        let pos = game.position();
        let mut observer = observer;
        let mut result = searcher.search_with(&root, &history, limits, options, |info| {
            let mut shown = info.clone();
            shown.pv = &info.pv[..legal_prefix(pos, info.pv)];
            observer(&shown);
        });
        result.pv.truncate(legal_prefix(pos, &result.pv));
        result
    }

    /// The search of a level below 8 (the game goes on).
    fn level_search(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions<Move>,
        mut observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        let plan = LevelLimits::of(self.level, game.position().variant());
        let limits = plan.limits(limits);
        let asked = options.lines.max(1);
        let mut options = options.clone();
        options.lines = asked.max(plan.lines);
        let mut lines = Vec::new();
        let searcher = self.searcher_mut();
        let root = searcher.evaluator().game(game.position().clone());
        let history = root.history(game);
        let mut result = searcher.search_with(&root, &history, &limits, &options, |info| {
            let k = info.multipv.unwrap_or(1) as usize;
            if let Some(mv) = info.best_move {
                lines.push(level::Line {
                    depth: info.depth,
                    mv,
                    score: info.score,
                    pv: info.pv.to_vec(),
                });
            }
            if k <= asked {
                let mut shown = info.clone();
                if asked == 1 {
                    shown.multipv = None;
                }
                observer(&shown);
            }
        });
        let lines = level::last_complete(lines);
        if lines.is_empty() {
            return result;
        }
        let ply = game.moves().len() as u64;
        let mut rng = LevelRng::new(self.seed, game.position().hash(), ply);
        let chosen = &lines[level::choose(&lines, &plan, &mut rng)];
        result.best_move = Some(chosen.mv);
        result.score = chosen.score;
        result.pv.clone_from(&chosen.pv);
        result
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

/// How many moves of `pv` from `pos` are a line of the game (each legal in turn).
fn legal_prefix(pos: &Position, pv: &[Move]) -> usize {
    let mut pos = pos.clone();
    let mut n = 0;
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        n += 1;
    }
    n
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
