//! Four-player search: the paranoid reduction of a free-for-all game to two sides, and
//! [`PloyGame`], one game type for every variant.

use crate::game::{SearchGame, Side, Terminal};
use crate::ploy::{EvalPosition, Tracked};
use ploy_core::{Game, Move, MoveList, Outcome, Position, Seat, Variant};

/// Keys mixed into a paranoid position's hash, one per root seat, so that a table shared by
/// searches for different seats never mixes their values (fixed, from SplitMix64).
const ROOT_KEYS: [u64; 4] = [
    0x7A1F_35C2_9B04_E6D1,
    0xC3B8_0E57_41A9_2F6D,
    0x1E6D_94A0_57C3_B82F,
    0x94C2_6B1F_E807_3DA5,
];

/// A free-for-all position searched *paranoidly*: the root seat (side 0) against a coalition
/// of every other player (side 1), who are assumed to play against him alone.
///
/// - **Sides.** Side 0 moves when the root seat moves, side 1 whenever anybody else does;
///   the coalition moves up to three times in a row, which the search handles (it compares
///   sides before and after each move).
/// - **Outcome.** The root winning is a win for side 0. Anybody else winning is a loss. The
///   root being eliminated while the game goes on is a loss at once (the position is
///   terminal for the search and has no moves): he takes no more turns, so nothing that
///   follows can help him. A draw is a draw.
/// - **Evaluation** ([`crate::Evaluation`]): the pieces of every colour the root controls
///   against all other pieces on the board (colours the root took over count for him).
/// - **Hash:** the position's hash with a key for the root mixed in; use
///   [`crate::GameHistory::history`] (or [`PloyGame::history`]) for repetitions.
///
/// ```
/// use ploy_core::{Position, Rules, Seat, Variant};
/// use ploy_search::{Paranoid, SearchGame, Side};
/// let g = Paranoid::new(Position::start(Variant::FreeForAll, Rules::standard()));
/// assert_eq!(g.root(), Seat::Green);
/// assert_eq!(g.side(), Side(0));
/// ```
///
/// Like [`EvalPosition`], it keeps the evaluation's bitboards up to date move by move (for
/// the root's group and the coalition's), rebuilding them when a colour changes hands.
#[derive(Clone, Debug)]
pub struct Paranoid {
    pos: Position,
    root: Seat,
    pub(crate) tracked: Tracked,
}

impl PartialEq for Paranoid {
    fn eq(&self, other: &Paranoid) -> bool {
        self.pos == other.pos && self.root == other.root
    }
}

impl Eq for Paranoid {}

impl Paranoid {
    /// The search of `pos` for the player who moves now ([`Position::mover`]).
    #[must_use]
    pub fn new(pos: Position) -> Paranoid {
        let root = pos.mover();
        Paranoid::for_seat(pos, root)
    }

    /// The search of `pos` for `root` (any variant works, though two-sided games are better
    /// searched as [`EvalPosition`]).
    #[must_use]
    pub fn for_seat(pos: Position, root: Seat) -> Paranoid {
        let tracked = Tracked::paranoid(&pos, root);
        Paranoid { pos, root, tracked }
    }

    pub(crate) fn from_parts(pos: Position, root: Seat, tracked: Tracked) -> Paranoid {
        Paranoid { pos, root, tracked }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The seat searched for (side 0).
    #[must_use]
    pub fn root(&self) -> Seat {
        self.root
    }

    /// Unwraps the position.
    #[must_use]
    pub fn into_position(self) -> Position {
        self.pos
    }

    /// The key mixed into the hashes of this root's positions.
    #[must_use]
    pub fn hash_key(&self) -> u64 {
        ROOT_KEYS[self.root.index()]
    }

    #[inline]
    fn root_out(&self) -> bool {
        !self.pos.in_play().contains(self.root)
    }
}

impl SearchGame for Paranoid {
    type Move = Move;
    /// The position's undo, and whether the bitboards were rebuilt.
    type Undo = (ploy_core::Undo, bool);
    type Moves = MoveList;

    #[inline]
    fn side(&self) -> Side {
        Side(u8::from(self.pos.mover() != self.root))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash() ^ self.hash_key()
    }

    fn terminal(&self) -> Option<Terminal> {
        match self.pos.outcome() {
            Some(Outcome::Win { winners, .. }) => {
                Some(Terminal::Win(Side(u8::from(!winners.contains(self.root)))))
            }
            Some(Outcome::Draw { .. }) => Some(Terminal::Draw),
            None if self.root_out() => Some(Terminal::Win(Side::SECOND)),
            None => None,
        }
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList) {
        if !self.root_out() {
            self.pos.generate_moves(moves);
        }
    }

    #[inline]
    fn generate_captures(&self, moves: &mut MoveList) {
        if !self.root_out() {
            SearchGame::generate_captures(&self.pos, moves);
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        !self.root_out() && self.pos.is_legal(mv)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        SearchGame::is_capture(&self.pos, mv)
    }

    #[inline]
    fn capture_order(&self, mv: Move) -> i32 {
        SearchGame::capture_order(&self.pos, mv)
    }

    #[inline]
    fn make(&mut self, mv: Move) -> (ploy_core::Undo, bool) {
        self.tracked.make(&mut self.pos, self.root, mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: (ploy_core::Undo, bool)) {
        self.tracked.unmake(&mut self.pos, self.root, mv, undo);
    }

    /// The root seat's name when he is to move (his score against all the others); `None`
    /// when the coalition is.
    fn view(&self) -> Option<&'static str> {
        (self.pos.mover() == self.root).then(|| self.root.name())
    }

    fn win_share(&self, score: crate::Score) -> f64 {
        if self.pos.mover() == self.root {
            crate::win_share(&self.pos, score)
        } else {
            // The coalition's score: what the root does not get.
            100.0 - crate::share::seat_share(&self.pos, self.root, -score)
        }
    }

    crate::ploy::ploy_move_codec!();
}

/// Any Ploy position, ready for search as two sides: the one entry point for every variant.
///
/// [`PloyGame::new`] (or [`crate::Evaluation::game`]) picks the reduction by variant:
/// two-player and partnership positions are searched as [`EvalPosition`]s (seats or teams as
/// sides, incremental evaluation), free-for-all positions as [`Paranoid`] for the player
/// who moves.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_search::{Config, Evaluation, Limits, PloyGame, SearchGame, Searcher};
/// for variant in [Variant::TwoPlayer, Variant::Partnership, Variant::FreeForAll] {
///     let g = PloyGame::new(Position::start(variant, Rules::standard()));
///     let mut searcher = Searcher::new(Config::default(), Evaluation::default());
///     let r = searcher.search(&g, &[], &Limits::depth(2), |_| {});
///     assert!(g.is_legal(r.best_move.unwrap()));
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PloyGame {
    /// Two sides: two-player or partnership.
    Sides(EvalPosition),
    /// A free-for-all position searched for one seat.
    Paranoid(Paranoid),
}

impl PloyGame {
    /// `pos` ready for search with the default evaluation's tables; see the type docs.
    #[must_use]
    pub fn new(pos: Position) -> PloyGame {
        match pos.variant() {
            Variant::FreeForAll => PloyGame::Paranoid(Paranoid::new(pos)),
            _ => PloyGame::Sides(EvalPosition::new(pos)),
        }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        match self {
            PloyGame::Sides(p) => p.position(),
            PloyGame::Paranoid(p) => p.position(),
        }
    }

    /// The seat the search plays for in a free-for-all game (`None` for two sides).
    #[must_use]
    pub fn root(&self) -> Option<Seat> {
        match self {
            PloyGame::Sides(_) => None,
            PloyGame::Paranoid(p) => Some(p.root()),
        }
    }

    /// The hashes of `game`'s earlier positions since the last capture in this game's
    /// hashes ([`crate::GameHistory::history`]): pass them to [`crate::Searcher::search`]
    /// so the game's repetitions count.
    #[must_use]
    pub fn history(&self, game: &Game) -> Vec<u64> {
        crate::GameHistory::history(self, game)
    }
}

macro_rules! dispatch {
    ($self:expr, $g:ident => $e:expr) => {
        match $self {
            PloyGame::Sides($g) => $e,
            PloyGame::Paranoid($g) => $e,
        }
    };
}

impl SearchGame for PloyGame {
    type Move = Move;
    /// The position's undo, and (free-for-all) whether the bitboards were rebuilt.
    type Undo = (ploy_core::Undo, bool);
    type Moves = MoveList;

    #[inline]
    fn side(&self) -> Side {
        dispatch!(self, g => g.side())
    }

    #[inline]
    fn hash(&self) -> u64 {
        dispatch!(self, g => SearchGame::hash(g))
    }

    #[inline]
    fn terminal(&self) -> Option<Terminal> {
        dispatch!(self, g => SearchGame::terminal(g))
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList) {
        dispatch!(self, g => g.generate(moves));
    }

    #[inline]
    fn generate_captures(&self, moves: &mut MoveList) {
        dispatch!(self, g => g.generate_captures(moves));
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        dispatch!(self, g => SearchGame::is_legal(g, mv))
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        dispatch!(self, g => SearchGame::is_capture(g, mv))
    }

    #[inline]
    fn capture_order(&self, mv: Move) -> i32 {
        dispatch!(self, g => SearchGame::capture_order(g, mv))
    }

    #[inline]
    fn make(&mut self, mv: Move) -> (ploy_core::Undo, bool) {
        match self {
            PloyGame::Sides(g) => (g.make(mv), false),
            PloyGame::Paranoid(g) => g.make(mv),
        }
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: (ploy_core::Undo, bool)) {
        match self {
            PloyGame::Sides(g) => g.unmake(mv, undo.0),
            PloyGame::Paranoid(g) => g.unmake(mv, undo),
        }
    }

    fn view(&self) -> Option<&'static str> {
        dispatch!(self, g => SearchGame::view(g))
    }

    fn win_share(&self, score: crate::Score) -> f64 {
        dispatch!(self, g => SearchGame::win_share(g, score))
    }

    crate::ploy::ploy_move_codec!();

    // The selective search's hints: the two-sided games' (a free-for-all game has none).
    const CONTINUATION_SIZE: usize = crate::tactics::CONTINUATION_SIZE;

    #[inline]
    fn continuation_index(&self, mv: Move) -> usize {
        crate::tactics::continuation_index(self.position(), mv)
    }

    #[inline]
    fn in_check(&self) -> bool {
        matches!(self, PloyGame::Sides(g) if g.in_check())
    }

    #[inline]
    fn make_null(&mut self) -> bool {
        match self {
            PloyGame::Sides(g) => g.make_null(),
            PloyGame::Paranoid(_) => false,
        }
    }

    #[inline]
    fn unmake_null(&mut self) {
        if let PloyGame::Sides(g) = self {
            g.unmake_null();
        }
    }

    #[inline]
    fn capture_value(&self, mv: Move) -> Option<i32> {
        match self {
            PloyGame::Sides(g) => g.capture_value(mv),
            PloyGame::Paranoid(_) => None,
        }
    }

    #[inline]
    fn exchange_value(&self, mv: Move) -> Option<i32> {
        match self {
            PloyGame::Sides(g) => g.exchange_value(mv),
            PloyGame::Paranoid(_) => None,
        }
    }
}
