//! The bot: Pyloff on the generic search of `ploy-search`.
//!
//! - **Two players**: the sides of the search are the players ([`SearchPosition`]).
//! - **Three and four players**: by default ([`crate::multi::default_search`]) the
//!   *paranoid* reduction below with three players and BRS+ with four;
//!   [`Engine::set_search_kind`] chooses another search. Best-Reply Search, BRS+ and
//!   Monte-Carlo tree search run on [`crate::MultiPosition`] (see [`crate::multi`]). The
//!   paranoid reduction: the player to move at the root
//!   (side 0) plays against a coalition of all the others (side 1), who are assumed to play
//!   against him alone; the coalition moves two or three times in a row, which the search
//!   handles (it compares sides before and after each move). A finished game is a win for
//!   the root when he alone leads the score, a draw when he shares the lead (or everybody
//!   ties), a loss otherwise. The evaluation is the root's terms against the others'
//!   ([`EvalParams::best_other`]). A key for the root is mixed into the hash, so one table may serve searches for
//!   different players. The same budgets ([`Limits`]) apply.
//! - **Repetitions** score as a draw: the rules have no ko, so without this the search
//!   would walk in circles. A capture does not make earlier positions unreachable in Pyloff
//!   (placements can be taken off again), so every position since the start is compared.
//! - **Move ordering**: with three players, after the table's move, the *urgent* moves
//!   ([`SearchPosition::is_urgent`]: taking the last freedom of an enemy group, or filling
//!   the last one of the mover's own groups of two or more pieces) come first, the most
//!   valuable first; the search knows them as its "captures" and never reduces them
//!   ([`SearchPosition::orders_urgent_moves`]: chosen by matches, they won with three
//!   players and not with two or four). There is no quiescence search
//!   ([`Engine::default_config`]); the evaluation's danger terms stand in for it. Under a move cap
//!   ([`Engine::set_move_cap`]) the number of moves made is part of the searched state
//!   instead, so nothing repeats and the capped game is searched as it is played: a cycle
//!   runs on to the cap, where the score decides. The engine sees such a cycle at once: a
//!   position that repeats one of the last 24 (of the game or of the search's path) is
//!   final for its search, decided by the scores of the position the cycle reaches at the
//!   cap ([`SearchPosition::with_game_trail`]); so it enters a cycle of recaptures only
//!   when the cap falls where the cycle favours it, and otherwise leaves it in time.
//! - **Contempt** (two players, [`EvalParams::contempt`](crate::EvalParams::contempt)): an even score at the end or at
//!   the cap is worth a little less than an even evaluation to the player searched for, so
//!   the bot does not settle for it.
//! - **Evaluation** ([`EvalParams`]): for each player, 100 a piece (the score), minus the
//!   pieces of his freedomless groups that the next placement removes when it is another
//!   player's turn, minus pieces of groups in atari (one freedom; more when another player
//!   moves first), a little for groups with two freedoms, plus pieces that something rests
//!   on (they cannot be removed while it stays: safe upper structures), pieces above the
//!   board, and freedoms. Two players: mine minus the opponent's; paranoid: the root's minus
//!   the best other player's (by default; [`EvalParams::best_other`] can blend in the
//!   others' mean).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ploy_search::{
    Config, Evaluator, Info, Level, LevelRng, Limits, SearchGame, SearchOptions, SearchResult,
    Searcher, Side, Terminal, choose_within,
};

use ploy_search::multi::{MctsConfig, SearchKind};

use crate::eval::Evaluation;
use crate::position::{Position, Undo};
use crate::record::Game;
use crate::types::{Move, Outcome, Player, Status};

/// The most legal moves of a position: one a cell that holds points (`n²` cells of even
/// parity, `(n-1)²` of odd parity; the other cells of the `(2n-1)²` grid hold no point) and
/// the swap: 314 on the largest board, within the search's scratch arrays.
const MOST_MOVES: usize = {
    let n = crate::geometry::MAX_SIZE as usize;
    n * n + (n - 1) * (n - 1) + 1
};
const _: () = assert!(MOST_MOVES <= ploy_search::MAX_MOVES);

/// The ordering key from which a move is urgent ([`SearchPosition::is_urgent`]): a piece.
const URGENT: i32 = 100;

/// Keys mixed into the hash of a paranoid search, one per root player.
const ROOT_KEYS: [u64; 4] = [
    0x2F9A_61C4_8E07_D35B,
    0xB461_0D7E_95C2_3A18,
    0x6C3E_F082_1DB5_9A47,
    0xD807_3B59_C4A6_E21F,
];

/// A position as the search sees it: two players as two sides, or three and four
/// players reduced to the root player against the others (see the module docs).
///
/// ```
/// use ploy_search::{SearchGame, Side};
/// use pyloff::{Options, Position, RuleSet, SearchPosition};
/// let pos = Position::new(Options::new(5, 3, RuleSet::Default).unwrap());
/// let g = SearchPosition::new(pos);
/// assert_eq!(g.root().map(|p| p.number()), Some(1));
/// assert_eq!(g.side(), Side(0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchPosition {
    pos: Position,
    root: Option<Player>,
    cap: Option<u32>,
    /// The player whose search this is in a two-player game with contempt for an even
    /// score ([`SearchPosition::with_contempt_for`]).
    contempt_for: Option<Player>,
    /// Under a move cap: the positions of the game's last moves and of the search's path,
    /// each with the scores (see [`SearchPosition::with_game_trail`]).
    trail: Vec<(u64, [u32; 4])>,
    /// The length of the trail at the search's root (the root itself is never final for a
    /// cycle: the game goes on from it).
    trail_root: usize,
}

/// How far back (in moves) a cycle is looked for under a move cap.
const CYCLE_WINDOW: usize = 24;

/// The key of a position with `plies` moves made, for searches under a move cap
/// (SplitMix64 of the count).
fn ply_key(plies: u32) -> u64 {
    let mut z = u64::from(plies).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SearchPosition {
    /// `pos` ready for search, for the player to move (paranoid with three or four
    /// players).
    #[must_use]
    pub fn new(pos: Position) -> SearchPosition {
        let root = (pos.players() > 2).then(|| pos.to_move());
        SearchPosition {
            pos,
            root,
            cap: None,
            contempt_for: None,
            trail: Vec::new(),
            trail_root: 0,
        }
    }

    /// The position's entry in the trail.
    fn trail_entry(pos: &Position) -> (u64, [u32; 4]) {
        let mut scores = [0; 4];
        scores[..pos.scores().len()].copy_from_slice(pos.scores());
        (pos.hash(), scores)
    }

    /// Under a move cap, lets the search see cycles: the game's last positions (`game` must
    /// end in this position) and then the search's path are kept, and a position that
    /// repeats one of them (within 24 moves) is final for the search, decided by the
    /// scores of the position that the cycle, played on, reaches at the cap. The player
    /// who does not like that result must leave the cycle earlier, which the search sees.
    /// Without a cap (or without this call) repetitions are left to the search (draws).
    #[must_use]
    pub fn with_game_trail(mut self, game: &Game) -> SearchPosition {
        let moves = game.moves();
        let mut pos = Position::new(game.options());
        let start = moves.len().saturating_sub(CYCLE_WINDOW);
        self.trail.clear();
        for (i, &(_, mv)) in moves.iter().enumerate() {
            if i >= start {
                self.trail.push(Self::trail_entry(&pos));
            }
            if pos.play(mv).is_err() {
                self.trail.clear();
                return self;
            }
        }
        self.trail.push(Self::trail_entry(&self.pos));
        self.trail_root = self.trail.len();
        self
    }

    /// In a two-player game, makes the search prefer anything but an even score for
    /// `player` (the side searched for): the evaluation counts [`EvalParams::contempt`](crate::EvalParams::contempt)
    /// for him. A key for him is mixed into the hash.
    #[must_use]
    pub fn with_contempt_for(mut self, player: Option<Player>) -> SearchPosition {
        if self.root.is_none() {
            self.contempt_for = player;
        }
        self
    }

    /// Under a move cap, the scores at the cap if the position closes a cycle of the trail
    /// that is played on to the cap.
    pub(crate) fn cycle_scores(&self) -> Option<[u32; 4]> {
        let cap = self.cap?;
        if self.trail.len() <= self.trail_root {
            return None;
        }
        let t = self.trail.len() - 1;
        let (h, _) = self.trail[t];
        let period = (1..=t.min(CYCLE_WINDOW)).find(|&p| self.trail[t - p].0 == h)?;
        let first_ply = self.pos.plies() - period as u32;
        let offset = (cap.saturating_sub(first_ply) as usize) % period;
        Some(self.trail[t - period + offset].1)
    }

    /// The result of a final position with these scores.
    fn result(&self, scores: &[u32]) -> Terminal {
        let outcome = Outcome::from_scores(scores);
        match (outcome, self.root) {
            (Outcome::Draw, _) => Terminal::Draw,
            (Outcome::Win(w), None) => {
                let winner = w.iter().next().expect("a winner");
                Terminal::Win(Side(winner.number() - 1))
            }
            (Outcome::Win(w), Some(r)) => {
                if !w.contains(r) {
                    Terminal::Win(Side::SECOND)
                } else if w.len() == 1 {
                    Terminal::Win(Side::FIRST)
                } else {
                    Terminal::Draw
                }
            }
        }
    }

    /// The same, for a game stopped after `cap` moves and decided by the score then (the
    /// match programs' rule; the game's rules have no cap): a position with `cap` moves
    /// made is final for the search. The number of moves made is then part of the state
    /// (it is mixed into the hash), so no position repeats: the search plays the capped
    /// game exactly, where a cycle of captures is not a draw but runs on until the cap
    /// and the score decides.
    #[must_use]
    pub fn with_move_cap(mut self, cap: Option<u32>) -> SearchPosition {
        self.cap = cap;
        self
    }

    /// Whether the search treats the position as final: the game is over, or the move cap
    /// is reached.
    pub(crate) fn is_final(&self) -> bool {
        self.pos.status() == Status::Over || self.cap.is_some_and(|c| self.pos.plies() >= c)
    }

    /// The player to move passes (the multi-player searches' pass, see
    /// [`Position::pass_turn`]), kept in the trail like a move.
    pub(crate) fn make_pass(&mut self) -> Undo {
        let undo = self.pos.pass_turn();
        if !self.trail.is_empty() {
            self.trail.push(Self::trail_entry(&self.pos));
        }
        undo
    }

    /// The cap the search plays for.
    pub(crate) fn cap(&self) -> Option<u32> {
        self.cap
    }

    /// Whether `mv` (legal here) is *urgent*: worth at least a piece by the move ordering of
    /// the multi-player searches (100 a piece of an enemy group whose last freedom it takes,
    /// 50 a piece of the mover's own such groups, 1 a group it touches on its level). With
    /// three players ([`SearchPosition::orders_urgent_moves`]) the search tries urgent moves
    /// first, the most valuable first, and never reduces them; it treats them as its
    /// "captures" for ordering only (Pyloff's engines run without a quiescence search,
    /// [`Engine::default_config`]).
    #[must_use]
    pub fn is_urgent(&self, mv: Move) -> bool {
        self.pos.order_key(mv) >= URGENT
    }

    /// Whether the search tries the urgent moves ([`SearchPosition::is_urgent`]) first as
    /// its "captures": with three players only. In matches at a fixed node budget against
    /// the engine without them they took 38.4 % and 40.8 % of first places with three
    /// players (a fair share 33.3 %), 24.4 % with four (fair 25 %), and 49-14-37 in 100
    /// games with two (not shown better); see the crate's document, "Urgent moves first".
    #[must_use]
    pub fn orders_urgent_moves(&self) -> bool {
        self.pos.players() == 3
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The player searched for in a game of three or four players.
    #[must_use]
    pub fn root(&self) -> Option<Player> {
        self.root
    }

    /// The key mixed into the hashes of this search: the root player's in a paranoid
    /// search, and, under a move cap, one for the number of moves made (see
    /// [`SearchPosition::with_move_cap`]).
    #[must_use]
    pub fn hash_key(&self) -> u64 {
        self.key_at(self.pos.plies())
    }

    /// [`SearchPosition::hash_key`] for a position with `plies` moves made.
    fn key_at(&self, plies: u32) -> u64 {
        let root = self
            .root
            .or(self.contempt_for)
            .map_or(0, |r| ROOT_KEYS[r.index()]);
        match self.cap {
            Some(_) => root ^ ply_key(plies),
            None => root,
        }
    }

    /// The game's earlier positions in this search's hashes (for repetitions; under a move
    /// cap none can repeat).
    #[must_use]
    pub fn history(&self, game: &Game) -> Vec<u64> {
        game.history()
            .iter()
            .zip(0u32..)
            .map(|(h, plies)| h ^ self.key_at(plies))
            .collect()
    }
}

impl SearchGame for SearchPosition {
    type Move = Move;
    type Undo = Undo;
    type Moves = Vec<Move>;

    #[inline]
    fn side(&self) -> Side {
        match self.root {
            None => Side(self.pos.to_move().number() - 1),
            Some(r) => Side(u8::from(self.pos.to_move() != r)),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash() ^ self.hash_key()
    }

    fn terminal(&self) -> Option<Terminal> {
        if self.is_final() {
            return Some(self.result(self.pos.scores()));
        }
        let players = usize::from(self.pos.players());
        self.cycle_scores()
            .map(|scores| self.result(&scores[..players]))
    }

    #[inline]
    fn generate(&self, moves: &mut Vec<Move>) {
        if !self.is_final() {
            self.pos.generate(moves);
        }
    }

    /// The urgent moves ([`SearchPosition::is_urgent`]), tried before the others, where
    /// [`SearchPosition::orders_urgent_moves`].
    fn generate_captures(&self, moves: &mut Vec<Move>) {
        if self.is_final() || !self.orders_urgent_moves() {
            return;
        }
        let start = moves.len();
        self.pos.generate(moves);
        let mut keep = start;
        for i in start..moves.len() {
            if self.is_urgent(moves[i]) {
                moves[keep] = moves[i];
                keep += 1;
            }
        }
        moves.truncate(keep);
    }

    fn capture_order(&self, mv: Move) -> i32 {
        self.pos.order_key(mv)
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        !self.is_final() && self.pos.is_legal(mv)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        self.orders_urgent_moves() && self.is_urgent(mv)
    }

    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        let undo = self
            .pos
            .play(mv)
            .expect("the search plays legal moves only");
        if !self.trail.is_empty() {
            self.trail.push(Self::trail_entry(&self.pos));
        }
        undo
    }

    #[inline]
    fn unmake(&mut self, _mv: Move, undo: Undo) {
        self.pos.unmake(undo);
        if self.trail.len() > 1 {
            self.trail.pop();
        }
    }

    #[inline]
    fn move_to_u16(mv: Move) -> u16 {
        mv.code()
    }

    const HISTORY_SIZE: usize = 1024;

    #[inline]
    fn move_from_u16(code: u16) -> Option<Move> {
        Move::from_code(code)
    }
}

impl Evaluator<SearchPosition> for Evaluation {
    fn evaluate(&self, g: &SearchPosition) -> i32 {
        let pos = &g.pos;
        let values = self.values(pos, g.cap);
        let mover = pos.to_move();
        match g.root {
            None => {
                let v = values[mover.index()] - values[1 - mover.index()];
                match g.contempt_for {
                    Some(c) if c == mover => v + self.params(pos.rules()).contempt,
                    Some(_) => v - self.params(pos.rules()).contempt,
                    None => v,
                }
            }
            Some(root) => {
                let v = values[root.index()] - self.opposition(pos, &values, root.index());
                if mover == root { v } else { -v }
            }
        }
    }
}

/// The bot: a searcher over [`SearchPosition`]s with the [`Evaluation`]. Its table, killer
/// moves and history persist between searches ([`Engine::clear`] forgets them).
///
/// ```
/// use ploy_search::Limits;
/// use pyloff::{Engine, Game, Options};
/// let game = Game::from_moves(Options::default(), "c3").unwrap();
/// let mut engine = Engine::new();
/// let result = engine.search(&game, &Limits::depth(2));
/// assert!(game.position().is_legal(result.best_move.unwrap()));
/// ```
pub struct Engine {
    pub(crate) searcher: Searcher<SearchPosition, Evaluation>,
    cap: Option<u32>,
    pub(crate) level: Level,
    pub(crate) seed: u64,
    /// The three- and four-player search chosen; `None`: [`crate::multi::default_search`].
    pub(crate) kind: Option<SearchKind>,
    pub(crate) mcts: MctsConfig,
}

/// What a level below 8 does: its own limits within the caller's budget, how many best
/// lines it searches, and its deliberate error (the same for two, three and four players).
///
/// | level | nodes | depth | lines | margin | other move ‰ |
/// |---|---|---|---|---|---|
/// | 1 | 3,000 | 1 | 40 | 3,000 | 950 |
/// | 2 | 300 | 1 | 4 | 150 | 250 |
/// | 3 | 300 | 1 | 3 | 60 | 80 |
/// | 4 | 300 | 2 | 3 | 60 | 100 |
/// | 5 | 300 | 3 | 2 | 20 | 20 |
/// | 6 | 900 | | 1 | 0 | 0 |
/// | 7 | 3,000 | | 1 | 0 | 0 |
/// | 8 | | | 1 | 0 | 0 |
///
/// A level searches with at most `nodes` nodes and `depth` plies (and the caller's limits
/// when smaller) for `lines` best lines; then, seeded by the engine's seed
/// ([`Engine::set_seed`]), the position's hash and the move number, it plays a move chosen
/// at random among the lines within `margin` of the best (100 is a piece), or, with a
/// chance of `other` in a thousand, any of the lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// Most nodes a move; `None`: the caller's.
    pub nodes: Option<u64>,
    /// Most plies; `None`: the caller's.
    pub depth: Option<u32>,
    /// Best lines searched (MultiPV).
    pub lines: usize,
    /// Lines within this of the best are equally likely.
    pub margin: i64,
    /// Chance in a thousand of playing any of the lines.
    pub other_per_mille: u32,
}

/// Levels 1 to 8.
const LEVELS: [LevelParams; 8] = [
    LevelParams::row(Some(3_000), Some(1), 40, 3_000, 950),
    LevelParams::row(Some(300), Some(1), 4, 150, 250),
    LevelParams::row(Some(300), Some(1), 3, 60, 80),
    LevelParams::row(Some(300), Some(2), 3, 60, 100),
    LevelParams::row(Some(300), Some(3), 2, 20, 20),
    LevelParams::row(Some(900), None, 1, 0, 0),
    LevelParams::row(Some(3_000), None, 1, 0, 0),
    LevelParams::row(None, None, 1, 0, 0),
];

impl LevelParams {
    /// The parameters of `level` (level 8: the caller's budget, one line, no error).
    #[must_use]
    pub const fn of(level: Level) -> LevelParams {
        LEVELS[level.get() as usize - 1]
    }

    const fn row(
        nodes: Option<u64>,
        depth: Option<u32>,
        lines: usize,
        margin: i64,
        other_per_mille: u32,
    ) -> LevelParams {
        LevelParams {
            nodes,
            depth,
            lines,
            margin,
            other_per_mille,
        }
    }
}

/// The smaller of two optional limits (`None`: no limit).
pub(crate) fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// The default configuration and evaluation.
    #[must_use]
    pub fn new() -> Engine {
        Engine::with(Engine::default_config(), Evaluation::default())
    }

    /// The search configuration of [`Engine::new`]: the search's defaults without quiescence
    /// search. With three players Pyloff's urgent moves ([`SearchPosition::is_urgent`]) are
    /// the search's "captures" for move ordering; searched to quiet positions they took fewer first places
    /// in matches (the numbers are in the Pyloff document's match results), and the
    /// evaluation's danger terms stand in for a quiescence search.
    ///
    /// ```
    /// assert!(!pyloff::Engine::default_config().quiescence);
    /// ```
    #[must_use]
    pub fn default_config() -> Config {
        Config {
            quiescence: false,
            ..Config::default()
        }
    }

    /// A searcher with `config` and `eval`.
    #[must_use]
    pub fn with(config: Config, eval: Evaluation) -> Engine {
        Engine {
            searcher: Searcher::new(config, eval),
            cap: None,
            level: Level::MAX,
            seed: 0,
            kind: None,
            mcts: MctsConfig::default(),
        }
    }

    /// Plays at `level` from the next search on (level 8, the default, is full strength;
    /// see [`LevelParams`] for the others).
    ///
    /// ```
    /// use pyloff::{Engine, Game, Level, Limits, Options};
    /// let game = Game::from_moves(Options::default(), "c3").unwrap();
    /// let mut engine = Engine::new();
    /// engine.set_level(Level::new(2)?);
    /// engine.set_seed(7);
    /// let m = engine.search(&game, &Limits::nodes(5_000)).best_move;
    /// // A fresh engine with the same level and seed plays the same move.
    /// let mut again = Engine::new();
    /// again.set_level(Level::new(2)?);
    /// again.set_seed(7);
    /// assert_eq!(again.search(&game, &Limits::nodes(5_000)).best_move, m);
    /// # Ok::<(), pyloff::LevelError>(())
    /// ```
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Seeds the choices of levels 1 to 7 (0 by default): with the position and the move
    /// number it decides which of the good moves a level plays.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Plays for a game stopped after `cap` moves and decided by the score then (as the
    /// match programs do; `None`, the default, is the game's own rules, which have no cap).
    pub fn set_move_cap(&mut self, cap: Option<u32>) {
        self.cap = cap;
    }

    /// Forgets the table, killer moves and history.
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    /// The underlying searcher.
    pub fn searcher(&mut self) -> &mut Searcher<SearchPosition, Evaluation> {
        &mut self.searcher
    }

    /// Searches the game's position within `limits` (the game's earlier positions count
    /// for repetitions).
    pub fn search(&mut self, game: &Game, limits: &Limits) -> SearchResult<Move> {
        self.search_with(game, limits, |_| {})
    }

    /// [`Engine::search`], calling `observer` after every completed iteration (levels 1 to
    /// 7: of every line).
    ///
    /// In a two-player game the result's score is on the evaluation's scale: the search
    /// counts [`EvalParams::contempt`](crate::EvalParams::contempt) for the player to move, which is taken off the score
    /// again (the `observer`'s scores keep it), so an even position scores about 0 and a
    /// line the search finds drawn scores minus the contempt.
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        let g = SearchPosition::new(game.position().clone())
            .with_move_cap(self.cap)
            .with_contempt_for(Some(game.position().to_move()));
        let g = if self.cap.is_some() {
            g.with_game_trail(game)
        } else {
            g
        };
        let history = g.history(game);
        let mut result =
            self.search_root(&g, &history, limits, &SearchOptions::default(), observer);
        // Report the evaluation's scale: the contempt moves to the drawn ends, which the
        // player searched for counts at minus the contempt.
        let contempt = self
            .searcher
            .evaluator()
            .params(game.position().rules())
            .contempt;
        if game.position().players() == 2 && !result.score.is_win() && !result.score.is_loss() {
            let v = i32::from(result.score.raw()) - contempt;
            result.score = ploy_search::Score::new(v.clamp(-30_000, 30_000) as i16);
        }
        result
    }

    /// Searches `root` (the game's earlier positions hashed as [`SearchPosition::history`]
    /// gives them) at the engine's level with `options`: at level 8 the searcher's
    /// [`Searcher::search_with`]; below, within the level's limits and with the level's
    /// number of lines (in place of `options.lines`), then the level's seeded choice among
    /// them. The score is the searcher's (with the contempt of a two-player search).
    pub fn search_root(
        &mut self,
        root: &SearchPosition,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions<Move>,
        mut observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        let players = root.position().players();
        if players > 2 && self.search_kind_for(players) != SearchKind::Paranoid {
            return self.search_multi(root, limits, options, observer);
        }
        if self.level.is_full() {
            return self
                .searcher
                .search_with(root, history, limits, options, observer);
        }
        let g = root;
        let p = LevelParams::of(self.level);
        let mut limits = limits.clone();
        limits.nodes = min_option(limits.nodes, p.nodes);
        limits.depth = min_option(limits.depth, p.depth);
        let options = options.clone().with_lines(p.lines);
        // The lines of the deepest iteration that reported as many as the first did.
        let mut current: Vec<(Move, i64, Vec<Move>)> = Vec::new();
        let mut complete: Vec<(Move, i64, Vec<Move>)> = Vec::new();
        let mut full = 0;
        let mut result =
            self.searcher
                .search_with(g, history, &limits, &options, |info: &Info<'_, Move>| {
                    if let Some(mv) = info.best_move {
                        if info.multipv.unwrap_or(1) == 1 {
                            if full == 0 {
                                full = current.len();
                            }
                            current.clear();
                        }
                        current.push((mv, i64::from(info.score.raw()), info.pv.to_vec()));
                        if full == 0 || current.len() >= full {
                            complete.clone_from(&current);
                        }
                    }
                    observer(info);
                });
        if full == 0 {
            complete = current;
        }
        if complete.len() < 2 {
            return result;
        }
        let mut rng = LevelRng::new(
            self.seed,
            g.position().hash(),
            u64::from(g.position().plies()),
        );
        let margin = if rng.chance(p.other_per_mille) {
            i64::MAX
        } else {
            p.margin
        };
        let scored: Vec<(Move, i64)> = complete.iter().map(|l| (l.0, l.1)).collect();
        if let Some(choice) = choose_within(&scored, margin, &mut rng) {
            if let Some((m, s, pv)) = complete.into_iter().find(|l| l.0 == choice) {
                result.best_move = Some(m);
                result.score = ploy_search::Score::from_raw(s as i16);
                result.pv = pv;
            }
        }
        result
    }

    /// Searches with a time budget and an external stop flag (for a protocol's `stop`).
    pub fn search_until(
        &mut self,
        game: &Game,
        move_time: Option<std::time::Duration>,
        stop: Arc<AtomicBool>,
    ) -> SearchResult<Move> {
        let mut limits = move_time.map(Limits::move_time).unwrap_or_default();
        limits.stop = Some(stop);
        self.search(game, &limits)
    }
}
