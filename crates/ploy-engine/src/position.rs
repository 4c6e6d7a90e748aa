//! Ploy positions as the search sees them: [`PlainPosition`] (a position as it is) and
//! [`EvalPosition`] (a two-sided position with the evaluation's sets of squares kept up to
//! date move by move), with their move list [`SearchMoves`].

use crate::eval::layout::{VALID, WIDE, neighbours};
use crate::eval::tracks::{BY_PARITY, Tracks, push_capture};
use crate::eval::{Evaluation, Tables, default_tables};
use core::cell::Cell;
use ploy_core::{Move, MoveList, Outcome, PieceKind, Position, Seat, Square, Variant};
use ploy_search::{MoveBuffer, SearchGame, Side, Terminal};
use std::sync::Arc;

const OFF: u8 = 81;

/// `NEIGHBOUR[d][sq]`: the square next to `sq` in direction `d`, or `OFF`.
static NEIGHBOUR: [[u8; 81]; 8] = neighbours(9, OFF);

/// The squares a piece on `sq` with direction mask `flags` and `range` reaches along its
/// lines: empty squares and the first occupied square on each line (of either colour).
#[inline]
fn reach(sq: usize, flags: u8, range: u8, occ: u128) -> u128 {
    let mut t = 0u128;
    let mut bits = flags;
    while bits != 0 {
        let d = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let row = &NEIGHBOUR[d];
        let mut s = sq as u8;
        for _ in 0..range {
            s = row[s as usize];
            if s == OFF {
                break;
            }
            let b = 1u128 << s;
            t |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    t
}

#[inline]
fn sq(i: u32) -> Square {
    Square::from_index(i as u8).expect("square index below 81")
}

fn kind_order(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Shield => 1,
        PieceKind::Probe => 2,
        PieceKind::Lance => 3,
        PieceKind::Commander => 100,
    }
}

/// The [`SearchGame`] items every wrapper of a Ploy [`Position`] answers from the position
/// alone (`$s => $pos` names the position inside `self`): the side to move, the hash, the
/// result, the view and win share, and the tests and order of moves.
///
/// The side is the seat to move's parity: in partnership games teams are seats 0+2 and 1+3.
/// (In a free-for-all game that pairing means nothing: search those as
/// [`Paranoid`](crate::Paranoid).)
macro_rules! ploy_queries {
    ($s:ident => $pos:expr) => {
        #[inline]
        fn side(&self) -> Side {
            let $s = self;
            Side(($pos.turn().index() & 1) as u8)
        }

        #[inline]
        fn hash(&self) -> u64 {
            let $s = self;
            $pos.hash()
        }

        #[inline]
        fn terminal(&self) -> Option<Terminal> {
            let $s = self;
            terminal_of(&$pos)
        }

        fn view(&self) -> Option<&'static str> {
            let $s = self;
            Some(crate::share::view_of(&$pos))
        }

        fn win_share(&self, score: crate::Score) -> f64 {
            let $s = self;
            crate::win_share(&$pos, score)
        }

        #[inline]
        fn is_legal(&self, mv: Move) -> bool {
            let $s = self;
            $pos.is_legal(mv)
        }

        #[inline]
        fn is_capture(&self, mv: Move) -> bool {
            let $s = self;
            is_capture_in(&$pos, mv)
        }

        #[inline]
        fn capture_order(&self, mv: Move) -> i32 {
            let $s = self;
            capture_order_in(&$pos, mv)
        }
    };
}
pub(crate) use ploy_queries;

/// The move types, codec and history slots every `SearchGame` impl over ploy-core's
/// [`Move`] shares: moves in a [`SearchMoves`], the packed 16-bit move, and one history slot
/// per from/to pair (a shield's turns after moving share a slot).
macro_rules! ploy_move_codec {
    () => {
        type Move = Move;
        type Moves = SearchMoves;

        #[inline]
        fn move_to_u16(mv: Move) -> u16 {
            mv.to_u16()
        }

        #[inline]
        fn move_from_u16(code: u16) -> Option<Move> {
            Move::from_u16(code)
        }

        const HISTORY_SIZE: usize = 81 * 81;

        #[inline]
        fn history_index(mv: Move) -> usize {
            mv.from().index() * 81 + mv.to().index()
        }
    };
}
pub(crate) use ploy_move_codec;

/// The result of a decided Ploy position as two sides see it (seat parity: a won game's
/// winners are a seat or a team).
#[inline]
pub(crate) fn terminal_of(pos: &Position) -> Option<Terminal> {
    match pos.outcome()? {
        Outcome::Win { winners, .. } => {
            let seat = winners.iter().next().unwrap_or(Seat::Green);
            Some(Terminal::Win(Side((seat.index() & 1) as u8)))
        }
        Outcome::Draw { .. } => Some(Terminal::Draw),
    }
}

/// Appends the captures of the player who moves in `pos` (in a partnership game a partner
/// may play an absorbed seat's turn: the seat to move then controls nothing).
pub(crate) fn captures_of(pos: &Position, moves: &mut MoveList) {
    captures_of_seat(pos, pos.mover(), moves);
}

/// Appends the captures `turn` would have if it were his turn (Best-Reply Search lets an
/// opponent answer out of turn).
pub(crate) fn captures_of_seat(pos: &Position, turn: ploy_core::Seat, moves: &mut MoveList) {
    if pos.outcome().is_some() {
        return;
    }
    let board = pos.board();
    let own = pos.friends_of(turn).0;
    let occ = board.occupied().0;
    let enemy = occ & !own;
    let shield_rots = pos.rules().rotation.shield_mask();
    for from in pos.controlled_by(turn) {
        let Some(p) = board.piece_at(from) else {
            continue;
        };
        let kind = p.kind();
        let mut targets = reach(from.index(), p.flags().bits(), kind.range(), occ) & enemy;
        while targets != 0 {
            let to = sq(targets.trailing_zeros());
            targets &= targets - 1;
            push_capture(moves, from, to, kind == PieceKind::Shield, shield_rots);
        }
    }
}

/// A move that changes nothing but hands the turn on: a piece of the player to move turned
/// by zero steps (ploy-core's `make_move` then passes the turn to the next player in play).
/// Ploy has no pass: only the searches that let players pass (Best-Reply Search) make one.
pub(crate) fn pass_move(pos: &Position) -> Move {
    let sq = pos
        .controlled_by(pos.mover())
        .iter()
        .next()
        .expect("a player in play has a piece");
    Move::turn(sq, 0)
}

/// Whether `mv` captures in `pos`.
#[inline]
pub(crate) fn is_capture_in(pos: &Position, mv: Move) -> bool {
    !mv.is_direction_move() && pos.board().occupied().contains(mv.to())
}

/// The order of a capture: most valuable victim, then least valuable attacker.
#[inline]
pub(crate) fn capture_order_in(pos: &Position, mv: Move) -> i32 {
    let b = pos.board();
    let victim = b.piece_at(mv.to()).map_or(0, |p| kind_order(p.kind()));
    let attacker = b.piece_at(mv.from()).map_or(0, |p| kind_order(p.kind()));
    // Shields that turn after capturing: keep the untouched one first.
    victim * 64 - attacker * 8 - i32::from(mv.rotation() != 0)
}

/// Ploy's move list as the search fills it: a [`MoveList`] (the `SearchGame::Moves` of every
/// Ploy search game). It dereferences to the moves as a slice; `.0` is the list.
///
/// ploy-core's [`MoveList`] cannot implement ploy-search's [`MoveBuffer`] itself (neither
/// crate knows the other), so this crate wraps it.
#[derive(Clone, Debug, Default)]
pub struct SearchMoves(pub MoveList);

impl core::ops::Deref for SearchMoves {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl core::ops::DerefMut for SearchMoves {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

impl MoveBuffer<Move> for SearchMoves {
    #[inline]
    fn clear(&mut self) {
        self.0.clear();
    }
    #[inline]
    fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }
}

/// A two-player or partnership [`Position`] searched as it is, its evaluation computed from
/// scratch at every leaf: the plain reference the tests hold [`EvalPosition`] (the fast
/// way, with the evaluation's sets kept up to date move by move) against. Dereferences to
/// the position.
///
/// ploy-core's [`Position`] is a rules type and knows no search; this newtype is how a
/// plain position becomes a [`SearchGame`].
///
/// ```
/// use ploy_core::Position;
/// use ploy_engine::{EvalPosition, Evaluation, PlainPosition};
/// use ploy_search::{Config, Limits, Searcher};
///
/// let mut plain = Searcher::new(Config::default(), Evaluation::default());
/// let mut fast = Searcher::new(Config::default(), Evaluation::default());
/// let a = plain.search(&PlainPosition(Position::new()), &[], &Limits::depth(3), |_| {});
/// let b = fast.search(&EvalPosition::new(Position::new()), &[], &Limits::depth(3), |_| {});
/// assert_eq!((a.best_move, a.score, a.nodes), (b.best_move, b.score, b.nodes));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainPosition(pub Position);

impl From<Position> for PlainPosition {
    fn from(pos: Position) -> PlainPosition {
        PlainPosition(pos)
    }
}

impl core::ops::Deref for PlainPosition {
    type Target = Position;
    fn deref(&self) -> &Position {
        &self.0
    }
}

impl core::ops::DerefMut for PlainPosition {
    fn deref_mut(&mut self) -> &mut Position {
        &mut self.0
    }
}

impl SearchGame for PlainPosition {
    crate::position::ploy_move_codec!();

    type Undo = ploy_core::Undo;

    #[inline]
    fn generate(&self, moves: &mut SearchMoves) {
        self.0.generate_moves(&mut moves.0);
    }

    fn generate_captures(&self, moves: &mut SearchMoves) {
        captures_of(&self.0, &mut moves.0);
    }

    #[inline]
    fn make(&mut self, mv: Move) -> ploy_core::Undo {
        self.0.make_move(mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: ploy_core::Undo) {
        self.0.unmake_move(mv, undo);
    }

    crate::position::ploy_queries!(s => s.0);
    crate::tactics::ploy_tactics!(s => s.0);
}

/// A two-player or partnership [`Position`] together with the sets of squares Ploy's
/// [`Evaluation`] needs (per side: a seat, or a team), kept up to date by every move: the
/// fast way to search Ploy. Dereferences to the position. Free-for-all positions are
/// searched as [`Paranoid`](crate::Paranoid).
///
/// It keeps, for each side, its squares by kind and its material and placement sums, and
/// for every piece the squares it reaches; a move computes again only the reach of the
/// moved piece and of the probes and lances whose lines it opened or closed.
///
/// ```
/// use ploy_core::Position;
/// use ploy_engine::{EvalPosition, Evaluation};
/// use ploy_search::{Evaluator, SearchGame};
/// let mut pos = EvalPosition::new(Position::new());
/// let eval = Evaluation::default();
/// let mv = pos.legal_moves()[7];
/// let undo = pos.make(mv);
/// assert_eq!(eval.evaluate(&pos), eval.evaluate(pos.position()));
/// pos.unmake(mv, undo);
/// assert_eq!(pos.position(), &Position::new());
/// ```
#[derive(Clone, Debug)]
pub struct EvalPosition {
    pos: Position,
    tracks: Tracks,
    /// The tables the material and placement sums are for.
    tables: Arc<Tables>,
    /// The squares the side to move reaches, computed by the last evaluation, with the hash
    /// of the position it was computed for: capture generation reuses it.
    reached: Cell<(u64, u128)>,
}

impl PartialEq for EvalPosition {
    fn eq(&self, other: &EvalPosition) -> bool {
        self.pos == other.pos
    }
}

impl Eq for EvalPosition {}

impl EvalPosition {
    /// Wraps `pos`, a two-player or partnership position (a partnership's teams are the
    /// two sides: its sets track Green + Yellow and Red + Blue).
    ///
    /// # Panics
    /// If `pos` is a free-for-all position: search those through [`Paranoid`](crate::Paranoid) (or
    /// [`PloyGame`](crate::PloyGame), which picks the right type by variant).
    #[must_use]
    pub fn new(pos: Position) -> EvalPosition {
        EvalPosition::with_tables(pos, default_tables())
    }

    fn with_tables(pos: Position, tables: Arc<Tables>) -> EvalPosition {
        assert!(
            pos.variant() != Variant::FreeForAll,
            "EvalPosition is for two sides: two-player or partnership (free-for-all: Paranoid)"
        );
        let tracks = Tracks::new(&pos, &BY_PARITY, tables.of(pos.variant()));
        EvalPosition {
            pos,
            tracks,
            tables,
            reached: Cell::new((!0, 0)),
        }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Unwraps the position.
    #[must_use]
    pub fn into_position(self) -> Position {
        self.pos
    }
}

impl Evaluation {
    /// `pos` ready for fast evaluation by this evaluation.
    ///
    /// # Panics
    /// If `pos` is a free-for-all position (use [`Evaluation::game`](crate::Evaluation::game)).
    #[must_use]
    pub fn position(&self, pos: Position) -> EvalPosition {
        EvalPosition::with_tables(pos, self.tables().clone())
    }
}

impl From<Position> for EvalPosition {
    fn from(pos: Position) -> EvalPosition {
        EvalPosition::new(pos)
    }
}

impl core::ops::Deref for EvalPosition {
    type Target = Position;
    fn deref(&self) -> &Position {
        &self.pos
    }
}

impl SearchGame for EvalPosition {
    crate::position::ploy_move_codec!();

    type Undo = ploy_core::Undo;

    #[inline]
    fn generate(&self, moves: &mut SearchMoves) {
        let moves = &mut moves.0;
        self.pos.generate_moves(moves);
    }

    /// The same captures as the plain position's, in the same order, found from the
    /// tracked reach of every piece.
    fn generate_captures(&self, moves: &mut SearchMoves) {
        let moves = &mut moves.0;
        let pos = &self.pos;
        if pos.outcome().is_some() {
            return;
        }
        let turn = pos.mover();
        let t = &self.tracks;
        let c = turn.index() & 1;
        let (h, cached) = self.reached.get();
        let reached = if h == pos.hash() {
            cached
        } else {
            t.reach_of(t.colour[c])
        };
        // The pieces the player to move may move: in a partnership game not his partner's.
        let mine = if pos.variant() == Variant::TwoPlayer {
            t.colour[c]
        } else {
            pos.controlled_by(turn)
                .into_iter()
                .fold(0u128, |m, sq| m | 1u128 << WIDE[sq.index()])
        };
        let shield_rots = pos.rules().rotation.shield_mask();
        t.captures(mine, t.colour[c ^ 1] & VALID, reached, shield_rots, moves);
    }

    #[inline]
    fn make(&mut self, mv: Move) -> ploy_core::Undo {
        let psqt = self.tables.of(self.pos.variant());
        let undo = self.tracks.make(&mut self.pos, mv, psqt);
        if undo.captured().is_some()
            && self.pos.variant().is_four_player()
            && !self.tracks.count_matches(&self.pos)
        {
            // A bare commander left the board with its player.
            self.tracks.rebuild_after_make(&self.pos, &BY_PARITY, psqt);
        }
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: ploy_core::Undo) {
        let psqt = self.tables.of(self.pos.variant());
        self.tracks
            .unmake(&mut self.pos, mv, undo, &BY_PARITY, psqt);
    }

    crate::position::ploy_queries!(s => s.pos);
    crate::tactics::ploy_tactics!(s => s.pos);
}

impl crate::Evaluator<EvalPosition> for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &EvalPosition) -> i32 {
        let to_move = pos.pos.turn().index() & 1;
        let (v, reached) =
            self.evaluate_tracks(&pos.tracks, &pos.tables, pos.pos.variant(), to_move);
        pos.reached.set((pos.pos.hash(), reached[to_move]));
        v
    }
}

impl crate::Evaluator<PlainPosition> for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &PlainPosition) -> i32 {
        crate::Evaluator::<Position>::evaluate(self, &pos.0)
    }
}
