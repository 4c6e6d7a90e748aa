//! [`PloyGame`]: one game type for every variant, picking the two-sided reduction by
//! variant.

use crate::SearchMoves;
use crate::eval::Evaluation;
use crate::paranoid::Paranoid;
use crate::position::EvalPosition;
use ploy_core::{Game, Move, Position, Seat, Variant};
use ploy_search::{SearchGame, Side, Terminal};

/// Any Ploy position, ready for search as two sides: the one entry point for every variant.
///
/// [`PloyGame::new`] (or [`crate::Evaluation::game`]) picks the reduction by variant:
/// two-player and partnership positions are searched as [`EvalPosition`]s (seats or teams as
/// sides, incremental evaluation), free-for-all positions as [`Paranoid`] for the player
/// who moves.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_engine::{Evaluation, PloyGame};
/// use ploy_search::{Config, Limits, SearchGame, Searcher};
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

    /// The same game with the free-for-all searched in best-reply mode (`true`) or
    /// paranoidly ([`Paranoid::with_best_reply`]); two sides are not affected. The engine
    /// searches free-for-all games in best-reply mode by default.
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Variant};
    /// use ploy_engine::PloyGame;
    /// let g = PloyGame::new(Position::start(Variant::FreeForAll, Rules::standard()));
    /// assert!(matches!(g.with_best_reply(true), PloyGame::Paranoid(p) if p.is_best_reply()));
    /// ```
    #[must_use]
    pub fn with_best_reply(self, on: bool) -> PloyGame {
        match self {
            PloyGame::Paranoid(p) => PloyGame::Paranoid(p.with_best_reply(on)),
            sides => sides,
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
    /// hashes ([`crate::GameHistory::history`]): pass them to [`ploy_search::Searcher::search`]
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
    crate::position::ploy_move_codec!();

    /// The free-for-all game's undo (the position's, and whether the bitboards were
    /// rebuilt); the two-sided game's never rebuilds them.
    type Undo = <Paranoid as SearchGame>::Undo;

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
    fn generate(&self, moves: &mut SearchMoves) {
        dispatch!(self, g => g.generate(moves));
    }

    #[inline]
    fn generate_captures(&self, moves: &mut SearchMoves) {
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

impl Evaluation {
    /// `pos` ready for search by this evaluation, whatever the variant: the root mover's
    /// [`PloyGame`] (see [`PloyGame::new`]).
    #[must_use]
    pub fn game(&self, pos: Position) -> PloyGame {
        match pos.variant() {
            Variant::FreeForAll => {
                let root = pos.mover();
                PloyGame::Paranoid(self.paranoid(pos, root))
            }
            _ => PloyGame::Sides(self.position(pos)),
        }
    }
}

/// Dispatches to the evaluation of the wrapped game.
impl crate::Evaluator<PloyGame> for Evaluation {
    #[inline]
    fn evaluate(&self, g: &PloyGame) -> i32 {
        match g {
            PloyGame::Sides(p) => crate::Evaluator::evaluate(self, p),
            PloyGame::Paranoid(p) => crate::Evaluator::evaluate(self, p),
        }
    }
}
