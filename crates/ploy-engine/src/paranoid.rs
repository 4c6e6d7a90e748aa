//! Four-player search: the paranoid and best-reply reductions of a free-for-all game to two
//! sides.

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

/// Mixed into the hash in best-reply mode, whose positions are searched with other
/// replies (fixed, from SplitMix64).
const BEST_REPLY_KEY: u64 = 0x5D2B_8E61_03F7_C94A;

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
/// - **Best-reply mode** ([`Paranoid::with_best_reply`], the engine's default search of
///   free-for-all games): the coalition makes one move between two of the root's, any one
///   opponent's, the others passing.
/// - **Hash:** the position's hash with a key for the root (and one for best-reply mode)
///   mixed in; use
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
    /// Best-reply mode ([`Paranoid::with_best_reply`]).
    best_reply: bool,
    /// Best-reply mode: the passes made, to take back.
    passes: Vec<(Move, ploy_core::Undo)>,
    /// Best-reply mode: how many passes came before and after each move made.
    marks: Vec<(u8, u8)>,
}

impl PartialEq for Paranoid {
    fn eq(&self, other: &Paranoid) -> bool {
        self.pos == other.pos && self.root == other.root && self.best_reply == other.best_reply
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
            best_reply: false,
            passes: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// This search in *best-reply mode* (`true`) or the paranoid one (`false`, the default):
    /// Best-Reply Search (Schadd and Winands) as a two-sided game. Between two moves of the
    /// root, the coalition makes one move: any one opponent's, the others passing. Side 1's
    /// moves are then every opponent's moves together; making one passes the turn to that
    /// opponent, plays his move and passes on to the root. The root sees his own moves every
    /// second ply instead of every fourth, and the search keeps everything the two-sided
    /// search has (table, quiescence of every opponent's captures, reductions), at the price
    /// of lines in which some opponents pass, which Ploy does not allow.
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Seat, Variant};
    /// use ploy_engine::Paranoid;
    /// use ploy_engine::SearchMoves;
    /// use ploy_search::{SearchGame, Side};
    /// let start = Position::start(Variant::FreeForAll, Rules::standard());
    /// let mut g = Paranoid::new(start).with_best_reply(true);
    /// let mut moves = SearchMoves::default();
    /// g.generate(&mut moves);
    /// let mv = moves[0];
    /// g.make(mv);
    /// // The coalition's layer: the moves of all three opponents.
    /// assert_eq!(g.side(), Side(1));
    /// let mut replies = SearchMoves::default();
    /// g.generate(&mut replies);
    /// assert!(replies.len() > 2 * moves.len());
    /// ```
    #[must_use]
    pub fn with_best_reply(mut self, on: bool) -> Paranoid {
        self.best_reply = on;
        self
    }

    /// Whether this is the best-reply mode ([`Paranoid::with_best_reply`]).
    #[must_use]
    pub fn is_best_reply(&self) -> bool {
        self.best_reply
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
        let mode = if self.best_reply { BEST_REPLY_KEY } else { 0 };
        ROOT_KEYS[self.root.index()] ^ mode
    }

    /// Whether the coalition moves in best-reply mode.
    #[inline]
    fn coalition_layer(&self) -> bool {
        self.best_reply && self.pos.mover() != self.root
    }

    /// Best-reply mode: the moves (or only the captures) of every opponent in play who moves
    /// before the root's next turn, in turn order from the player to move.
    fn coalition_moves(&self, moves: &mut ploy_core::MoveList, captures: bool) {
        for seat in self.coalition() {
            if captures {
                crate::position::captures_of_seat(&self.pos, seat, moves);
            } else {
                self.pos.generate_moves_of(seat, moves);
            }
        }
    }

    /// Best-reply mode: the opponents in play from the player to move up to the root, in
    /// turn order (the turn goes round the seats in order, skipping those out).
    fn coalition(&self) -> impl Iterator<Item = Seat> + '_ {
        let in_play = self.pos.in_play();
        let start = self.pos.mover().index();
        (0..4)
            .map(move |k| Seat::ALL[(start + k) % 4])
            .take_while(move |&s| s != self.root)
            .filter(move |&s| in_play.contains(s))
    }

    /// The player whose piece `mv` moves, if any.
    fn owner(&self, mv: Move) -> Option<Seat> {
        let piece = self.pos.board().piece_at(mv.from())?;
        Some(self.pos.controller(piece.colour()))
    }

    /// Passes the turn on (best-reply mode), to take back.
    fn pass(&mut self) {
        let mv = crate::position::pass_move(&self.pos);
        let undo = self.pos.make_move(mv);
        self.passes.push((mv, undo));
    }

    fn unpass(&mut self) {
        let (mv, undo) = self.passes.pop().expect("a pass was made");
        self.pos.unmake_move(mv, undo);
    }

    /// Plays `mv` with the evaluation's sets kept up to date; whether they were rebuilt.
    fn make_tracked(&mut self, mv: Move) -> (ploy_core::Undo, bool) {
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

    fn unmake_tracked(&mut self, mv: Move, undo: (ploy_core::Undo, bool)) {
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
        if self.root_out() {
            return;
        }
        if self.coalition_layer() {
            self.coalition_moves(moves, false);
        } else {
            self.pos.generate_moves(moves);
        }
    }

    #[inline]
    fn generate_captures(&self, moves: &mut SearchMoves) {
        let moves = &mut moves.0;
        if self.root_out() {
            return;
        }
        if self.coalition_layer() {
            self.coalition_moves(moves, true);
        } else {
            crate::position::captures_of(&self.pos, moves);
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        if self.root_out() {
            return false;
        }
        if !self.coalition_layer() {
            return self.pos.is_legal(mv);
        }
        match self.owner(mv) {
            Some(owner) if self.coalition().any(|s| s == owner) => self.pos.is_legal_for(owner, mv),
            _ => false,
        }
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
    /// hands, or a bare commander left the board with its player). In best-reply mode an
    /// opponent's move comes with the passes that bring his turn and the root's.
    #[inline]
    fn make(&mut self, mv: Move) -> (ploy_core::Undo, bool) {
        if !self.best_reply {
            return self.make_tracked(mv);
        }
        let coalition = self.coalition_layer();
        let mut before = 0;
        if let Some(owner) = self.owner(mv).filter(|_| coalition) {
            while self.pos.mover() != owner && before < 4 {
                self.pass();
                before += 1;
            }
        }
        let undo = self.make_tracked(mv);
        let mut after = 0;
        if coalition {
            while self.pos.outcome().is_none() && !self.root_out() && self.pos.mover() != self.root
            {
                self.pass();
                after += 1;
            }
        }
        self.marks.push((before, after));
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: (ploy_core::Undo, bool)) {
        if !self.best_reply {
            return self.unmake_tracked(mv, undo);
        }
        let (before, after) = self.marks.pop().expect("a move was made");
        for _ in 0..after {
            self.unpass();
        }
        self.unmake_tracked(mv, undo);
        for _ in 0..before {
            self.unpass();
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
