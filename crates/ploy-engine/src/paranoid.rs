//! Four-player search: the paranoid reduction of a free-for-all game to two sides.

use crate::SearchMoves;
use crate::eval::tracks::{Groups, Tracks};
use crate::eval::{Evaluation, Tables, default_tables};
use ploy_core::{Move, Outcome, Position, Seat, Variant};
use ploy_search::{SearchGame, Side, Terminal};
use std::sync::Arc;

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
///   [`crate::GameHistory::history`] (or [`crate::PloyGame::history`]) for repetitions.
///
/// ```
/// use ploy_core::{Position, Rules, Seat, Variant};
/// use ploy_engine::Paranoid;
/// use ploy_search::{SearchGame, Side};
/// let g = Paranoid::new(Position::start(Variant::FreeForAll, Rules::standard()));
/// assert_eq!(g.root(), Seat::Green);
/// assert_eq!(g.side(), Side(0));
/// ```
///
/// Like [`crate::EvalPosition`], it keeps the evaluation's sets of squares up to date move
/// by move (for the root's group and the coalition's), rebuilding them when a colour
/// changes hands.
#[derive(Clone, Debug)]
pub struct Paranoid {
    pos: Position,
    root: Seat,
    /// The group of each colour: 0 if the root controls it, else 1.
    groups: Groups,
    tracks: Tracks,
    /// The tables the material and placement sums are for.
    tables: Arc<Tables>,
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
    /// searched as [`crate::EvalPosition`]).
    #[must_use]
    pub fn for_seat(pos: Position, root: Seat) -> Paranoid {
        Paranoid::with_tables(pos, root, default_tables())
    }

    fn with_tables(pos: Position, root: Seat, tables: Arc<Tables>) -> Paranoid {
        let groups = groups(&pos, root);
        let tracks = Tracks::new(&pos, &groups, tables.of(Variant::FreeForAll));
        Paranoid {
            pos,
            root,
            groups,
            tracks,
            tables,
        }
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
    crate::position::ploy_move_codec!();

    /// The position's undo, and whether the bitboards were rebuilt.
    type Undo = (ploy_core::Undo, bool);

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
    fn generate(&self, moves: &mut SearchMoves) {
        let moves = &mut moves.0;
        if !self.root_out() {
            self.pos.generate_moves(moves);
        }
    }

    #[inline]
    fn generate_captures(&self, moves: &mut SearchMoves) {
        let moves = &mut moves.0;
        if !self.root_out() {
            crate::position::captures_of(&self.pos, moves);
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        !self.root_out() && self.pos.is_legal(mv)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        crate::position::is_capture_in(&self.pos, mv)
    }

    #[inline]
    fn capture_order(&self, mv: Move) -> i32 {
        crate::position::capture_order_in(&self.pos, mv)
    }

    /// Plays `mv`; the flag tells whether the sets were built again (a colour changed
    /// hands, or a bare commander left the board with its player).
    #[inline]
    fn make(&mut self, mv: Move) -> (ploy_core::Undo, bool) {
        let psqt = self.tables.of(Variant::FreeForAll);
        let undo = self.tracks.make(&mut self.pos, mv, psqt);
        let mut rebuilt = false;
        if undo.captured().is_some() {
            let now = groups(&self.pos, self.root);
            if now != self.groups || !self.tracks.count_matches(&self.pos) {
                self.groups = now;
                self.tracks.rebuild_after_make(&self.pos, &now, psqt);
                rebuilt = true;
            }
        }
        (undo, rebuilt)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: (ploy_core::Undo, bool)) {
        let psqt = self.tables.of(Variant::FreeForAll);
        if undo.1 {
            self.tracks.discard_last();
            self.pos.unmake_move(mv, undo.0);
            self.groups = groups(&self.pos, self.root);
            self.tracks.rebuild(&self.pos, &self.groups, psqt);
        } else {
            self.tracks
                .unmake(&mut self.pos, mv, undo.0, &self.groups, psqt);
        }
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
}

/// The group of each colour of `pos` searched for `root`: 0 if `root` controls it, else 1.
fn groups(pos: &Position, root: Seat) -> Groups {
    Seat::ALL.map(|c| u8::from(pos.controller(c) != root))
}

impl Evaluation {
    /// `pos` searched paranoidly for `root` with this evaluation ([`Paranoid::for_seat`]).
    #[must_use]
    pub fn paranoid(&self, pos: Position, root: Seat) -> Paranoid {
        Paranoid::with_tables(pos, root, self.tables().clone())
    }
}

/// Root's pieces (every colour he controls) against everybody else's: the coalition is one
/// group, so its pieces count as one army in the mobility and threat terms (they neither
/// threaten nor capture each other there). Four-player placement (centre terms only).
impl crate::Evaluator<Paranoid> for Evaluation {
    #[inline]
    fn evaluate(&self, g: &Paranoid) -> i32 {
        let to_move = g.side().index();
        self.evaluate_tracks(&g.tracks, &g.tables, Variant::FreeForAll, to_move)
            .0
    }
}
