//! The board (a padded array) and the position: stones, captures, turn, outcome, legal
//! moves, make/unmake with an incremental Zobrist hash.

use core::fmt;

use thiserror::Error;

use crate::types::{Color, Move, Outcome, Point, Rules, Size, WinReason};
use crate::zobrist;

/// Guard cells around the board on every side. Four, so that every cell within four steps
/// of a point in any of the eight directions is inside the array (the engine's line
/// patterns look four points each way; the rules need one).
pub(crate) const PAD: usize = 4;

/// The most cells a board array needs (19x19 with its guards).
pub(crate) const MAX_CELLS: usize = (19 + 2 * PAD) * (19 + PAD) + 2 * PAD;

/// A cell's content.
pub(crate) const EMPTY: u8 = 0;
/// A guard cell outside the board.
pub(crate) const OFF: u8 = 3;

/// The cell value of a colour's stone: 1 White, 2 Black.
#[inline]
pub(crate) const fn stone(c: Color) -> u8 {
    c as u8 + 1
}

/// The geometry of a board of one size: a row-major array of `(size + 8)` rows of
/// `size + 4` cells, the last four of each row guards (they serve as the left guards of the
/// next row too), four guard rows above and below and four spare cells at both ends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Layout {
    pub size: u8,
    pub stride: usize,
}

impl Layout {
    pub(crate) const fn new(size: Size) -> Layout {
        Layout {
            size: size.get(),
            stride: size.get() as usize + PAD,
        }
    }

    /// The cell of an on-board point.
    #[inline]
    pub(crate) const fn index(self, p: Point) -> usize {
        (p.row() as usize + PAD) * self.stride + p.col() as usize + PAD
    }

    /// The point of a cell, if it is on the board.
    #[inline]
    pub(crate) fn point(self, index: usize) -> Option<Point> {
        let i = index.checked_sub(PAD)?;
        let row = (i / self.stride).checked_sub(PAD)?;
        let col = i % self.stride;
        if row < self.size as usize && col < self.size as usize {
            Point::new(col as u8, row as u8)
        } else {
            None
        }
    }

    /// The eight direction offsets: E, W, N, S, NE, SW, NW, SE (entry `k ^ 1` is the
    /// opposite of entry `k`; the even entries are the four line axes).
    pub(crate) const fn directions(self) -> [isize; 8] {
        let s = self.stride as isize;
        [1, -1, s, -s, s + 1, -(s + 1), s - 1, -(s - 1)]
    }

    /// The four line axes (one direction of each).
    pub(crate) const fn axes(self) -> [isize; 4] {
        let s = self.stride as isize;
        [1, s, s + 1, s - 1]
    }
}

#[inline]
pub(crate) fn step(i: usize, d: isize) -> usize {
    i.wrapping_add_signed(d)
}

/// The cells of every pair bracketed from cell `i` in the directions of `mask` (a capture
/// mask: bit `k` for the direction `dirs[k]`), the nearer cell first: what a capture takes,
/// an undo puts back and the engine updates.
#[inline]
pub(crate) fn captured_pairs(
    dirs: &[isize; 8],
    i: usize,
    mask: u8,
) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut m = mask;
    core::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let d = dirs[m.trailing_zeros() as usize];
        m &= m - 1;
        let a = step(i, d);
        Some((a, step(a, d)))
    })
}

/// Why a move is not legal here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The game is over: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// The point is not on this board.
    #[error("the point is not on the board")]
    OffBoard,
    /// The point already holds a stone.
    #[error("the point is occupied")]
    Occupied,
    /// The first stone goes on the centre.
    #[error("the first stone must go on the centre")]
    NotCentre,
    /// The tournament rule: White's second stone lies at least three points from the
    /// centre.
    #[error("the tournament rule: White's second stone must be at least 3 points from the centre")]
    TournamentRule,
}

/// A rejected move and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalMove,
}

/// What [`Position::unmake`] needs besides the move: the directions in which the move
/// captured (bit `k` for direction `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    capture_dirs: u8,
}

impl Undo {
    /// How many pairs the move captured.
    #[must_use]
    pub const fn pairs_captured(self) -> u32 {
        self.capture_dirs.count_ones()
    }

    /// The capture directions (bit `k`: direction `k` of the layout).
    #[inline]
    pub(crate) const fn capture_dirs(self) -> u8 {
        self.capture_dirs
    }
}

/// A position: the stones, both players' captures, the player to move, and the outcome if
/// the game is over.
///
/// Moves are checked by [`Position::play`]; [`Position::make`] trusts its caller and is
/// undone by [`Position::unmake`], which restores everything, hash included. The text form
/// is the position string (see [`crate::text`]).
///
/// ```
/// use pente::{Color, Move, Position, Rules, Size};
/// let mut pos = Position::new(Rules::new(Size::S9));
/// assert_eq!(pos.legal_moves(), vec!["E5".parse::<Move>()?]);
/// pos.play("E5".parse()?)?;
/// assert_eq!(pos.side_to_move(), Some(Color::Black));
/// assert_eq!(pos.legal_moves().len(), 80);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Position {
    rules: Rules,
    layout: Layout,
    dirs: [isize; 8],
    cells: [u8; MAX_CELLS],
    turn: Color,
    captures: [u8; 2],
    stones: [u16; 2],
    plies: u16,
    hash: u64,
    outcome: Option<Outcome>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.rules == other.rules
            && self.cells[..] == other.cells[..]
            && self.turn == other.turn
            && self.captures == other.captures
            && self.stones == other.stones
            && self.plies == other.plies
            && self.hash == other.hash
            && self.outcome == other.outcome
    }
}

impl Eq for Position {}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.rules.hash(state);
        self.hash.hash(state);
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::new(Rules::default())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Position {
    /// The empty board of `rules`, White to move.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        let layout = Layout::new(rules.size);
        let mut cells = [OFF; MAX_CELLS];
        for p in rules.size.points_iter() {
            cells[layout.index(p)] = EMPTY;
        }
        let mut pos = Position {
            rules,
            layout,
            dirs: layout.directions(),
            cells,
            turn: Color::White,
            captures: [0; 2],
            stones: [0; 2],
            plies: 0,
            hash: 0,
            outcome: None,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position after playing `moves` from the empty board of `rules`.
    ///
    /// # Errors
    /// The first illegal move, with its index in `moves`.
    pub fn from_moves(rules: Rules, moves: &[Move]) -> Result<Position, (usize, IllegalMoveError)> {
        let mut pos = Position::new(rules);
        for (i, &mv) in moves.iter().enumerate() {
            pos.play(mv).map_err(|e| (i, e))?;
        }
        Ok(pos)
    }

    /// Builds a position from its parts (used by the position string and the setup).
    pub(crate) fn from_parts(
        rules: Rules,
        stones: &[(Point, Color)],
        captures: [u8; 2],
        plies: u16,
    ) -> Position {
        let mut pos = Position::new(rules);
        for &(p, c) in stones {
            let i = pos.layout.index(p);
            pos.cells[i] = stone(c);
            pos.stones[c.index()] += 1;
        }
        pos.captures = captures;
        pos.plies = plies;
        pos.turn = if plies % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        pos.hash = pos.compute_hash();
        pos.outcome = pos.compute_outcome();
        pos
    }

    /// The rule options.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The board size.
    #[inline]
    #[must_use]
    pub const fn size(&self) -> Size {
        self.rules.size
    }

    /// The player whose turn it is by the count of moves (White after an even number),
    /// whether or not the game is over.
    #[inline]
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The player to move, or `None` when the game is over.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Option<Color> {
        if self.outcome.is_some() {
            None
        } else {
            Some(self.turn)
        }
    }

    /// Stones captured by `c` (always even).
    #[inline]
    #[must_use]
    pub const fn captures(&self, c: Color) -> u8 {
        self.captures[c as usize]
    }

    /// Stones of `c` on the board.
    #[inline]
    #[must_use]
    pub const fn stones(&self, c: Color) -> u16 {
        self.stones[c as usize]
    }

    /// Moves played since the empty board (stones on the board plus stones captured).
    #[inline]
    #[must_use]
    pub const fn plies(&self) -> u16 {
        self.plies
    }

    /// The Zobrist hash (see the crate docs for the keys).
    #[inline]
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The outcome, if the game is over.
    #[inline]
    #[must_use]
    pub const fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The stone on `p`, if any (`None` also off the board).
    #[must_use]
    pub fn stone_at(&self, p: Point) -> Option<Color> {
        if !self.rules.size.contains(p) {
            return None;
        }
        match self.cells[self.layout.index(p)] {
            1 => Some(Color::White),
            2 => Some(Color::Black),
            _ => None,
        }
    }

    /// Every stone on the board, row by row from row 1.
    pub fn stones_iter(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.rules
            .size
            .points_iter()
            .filter_map(|p| self.stone_at(p).map(|c| (p, c)))
    }

    /// Whether the board is full.
    #[must_use]
    pub fn is_full(&self) -> bool {
        usize::from(self.stones[0] + self.stones[1]) == self.rules.size.points()
    }

    /// Why `mv` is not legal here, or `Ok`.
    ///
    /// # Errors
    /// The reason the move is illegal.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let p = mv.point();
        if !self.rules.size.contains(p) {
            return Err(IllegalMove::OffBoard);
        }
        if self.cells[self.layout.index(p)] != EMPTY {
            return Err(IllegalMove::Occupied);
        }
        let centre = self.rules.size.centre();
        if self.plies == 0 && p != centre {
            return Err(IllegalMove::NotCentre);
        }
        if self.plies == 2 && self.rules.tournament_rule && p.distance(centre) < 3 {
            return Err(IllegalMove::TournamentRule);
        }
        Ok(())
    }

    /// Whether `mv` is legal here.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// The legal moves, row by row from row 1 and from column A (none when the game is
    /// over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Appends the legal moves to `moves`, in the order of [`Position::legal_moves`].
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let size = self.rules.size;
        if self.plies == 0 {
            moves.push(Move(size.centre()));
            return;
        }
        let restricted = self.plies == 2 && self.rules.tournament_rule;
        let centre = size.centre();
        for p in size.points_iter() {
            if self.cells[self.layout.index(p)] == EMPTY && !(restricted && p.distance(centre) < 3)
            {
                moves.push(Move(p));
            }
        }
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if the move is illegal; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Undo, IllegalMoveError> {
        self.check(mv)
            .map_err(|reason| IllegalMoveError { mv, reason })?;
        Ok(self.make(mv))
    }

    /// The pairs `mv` would capture for the player to move (bit `k` for direction `k`),
    /// assuming the point is empty.
    #[inline]
    pub(crate) fn capture_dirs(&self, i: usize, own: u8) -> u8 {
        let opp = own ^ 3;
        let mut mask = 0u8;
        for (k, &d) in self.dirs.iter().enumerate() {
            let a = step(i, d);
            if self.cells[a] == opp {
                let b = step(a, d);
                if self.cells[b] == opp && self.cells[step(b, d)] == own {
                    mask |= 1 << k;
                }
            }
        }
        mask
    }

    /// Whether the stone of colour value `own` on cell `i` lies in a line of five or more.
    #[inline]
    pub(crate) fn makes_five(&self, i: usize, own: u8) -> bool {
        for k in 0..4 {
            let d = self.dirs[2 * k];
            let mut n = 1;
            let mut j = step(i, d);
            while self.cells[j] == own {
                n += 1;
                j = step(j, d);
            }
            let mut j = step(i, -d);
            while self.cells[j] == own {
                n += 1;
                j = step(j, -d);
            }
            if n >= 5 {
                return true;
            }
        }
        false
    }

    /// Plays `mv`, which must be legal (see [`Position::is_legal`]). Captures, updates the
    /// counts and the hash, decides the outcome and passes the turn.
    ///
    /// # Panics
    /// May panic, or leave a corrupt position, if the move is not legal.
    pub fn make(&mut self, mv: Move) -> Undo {
        debug_assert!(self.is_legal(mv), "make: illegal move {mv}");
        let c = self.turn;
        let own = stone(c);
        let p = mv.point();
        let i = self.layout.index(p);
        self.cells[i] = own;
        self.stones[c.index()] += 1;
        self.hash ^= zobrist::STONE[c.index()][usize::from(p.code())];
        let mask = self.capture_dirs(i, own);
        if mask != 0 {
            let o = c.other();
            self.set_captured_pairs(i, mask, o, EMPTY);
            let pairs = mask.count_ones() as u8;
            self.stones[o.index()] -= 2 * u16::from(pairs);
            self.set_captures(c, self.captures[c.index()] + 2 * pairs);
        }
        let five = self.makes_five(i, own);
        let ten = self.captures[c.index()] >= 10;
        self.outcome = match (five, ten) {
            (true, true) => Some(Outcome::Win {
                winner: c,
                reason: WinReason::FiveAndCaptures,
            }),
            (true, false) => Some(Outcome::Win {
                winner: c,
                reason: WinReason::Five,
            }),
            (false, true) => Some(Outcome::Win {
                winner: c,
                reason: WinReason::Captures,
            }),
            (false, false) if self.is_full() => Some(Outcome::Draw),
            _ => None,
        };
        self.turn = c.other();
        self.hash ^= zobrist::BLACK_TO_MOVE;
        self.plies += 1;
        Undo { capture_dirs: mask }
    }

    /// Takes back `mv`, the last move made, with the `undo` its [`Position::make`]
    /// returned. Restores everything, hash included.
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.plies -= 1;
        self.hash ^= zobrist::BLACK_TO_MOVE;
        let c = self.turn.other();
        self.turn = c;
        self.outcome = None;
        let p = mv.point();
        let i = self.layout.index(p);
        let mask = undo.capture_dirs;
        if mask != 0 {
            let o = c.other();
            self.set_captured_pairs(i, mask, o, stone(o));
            let pairs = mask.count_ones() as u8;
            self.stones[o.index()] += 2 * u16::from(pairs);
            self.set_captures(c, self.captures[c.index()] - 2 * pairs);
        }
        self.cells[i] = EMPTY;
        self.stones[c.index()] -= 1;
        self.hash ^= zobrist::STONE[c.index()][usize::from(p.code())];
    }

    /// Puts `cell` on both points of every pair bracketed from cell `i` in the directions
    /// of `mask` (a capture mask of [`Position::capture_dirs`]) and toggles the keys of
    /// `victim`'s stones there: [`EMPTY`] when [`Position::make`] captures them, `victim`'s
    /// stone when [`Position::unmake`] puts them back.
    #[inline]
    fn set_captured_pairs(&mut self, i: usize, mask: u8, victim: Color, cell: u8) {
        for (a, b) in captured_pairs(&self.dirs, i, mask) {
            for j in [a, b] {
                self.cells[j] = cell;
                let q = self
                    .layout
                    .point(j)
                    .expect("a captured stone is on the board");
                self.hash ^= zobrist::STONE[victim.index()][usize::from(q.code())];
            }
        }
    }

    fn set_captures(&mut self, c: Color, n: u8) {
        let old = usize::from(self.captures[c.index()]);
        self.hash ^= zobrist::CAPTURES[c.index()][old.min(31)];
        self.hash ^= zobrist::CAPTURES[c.index()][usize::from(n).min(31)];
        self.captures[c.index()] = n;
    }

    /// The hash computed from scratch (equal to [`Position::hash`]).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (p, c) in self.stones_iter() {
            h ^= zobrist::STONE[c.index()][usize::from(p.code())];
        }
        for c in Color::ALL {
            h ^= zobrist::CAPTURES[c.index()][usize::from(self.captures[c.index()]).min(31)];
        }
        if self.turn == Color::Black {
            h ^= zobrist::BLACK_TO_MOVE;
        }
        h
    }

    /// Whether `c` has five or more stones in a line anywhere on the board.
    #[must_use]
    pub fn has_five(&self, c: Color) -> bool {
        let own = stone(c);
        self.rules.size.points_iter().any(|p| {
            let i = self.layout.index(p);
            self.cells[i] == own && self.makes_five(i, own)
        })
    }

    /// The outcome computed from the board and counts alone (the player who moved last
    /// wins by a five or by captures; a full board without a winner is a draw).
    pub(crate) fn compute_outcome(&self) -> Option<Outcome> {
        for c in [self.turn.other(), self.turn] {
            let five = self.has_five(c);
            let ten = self.captures[c.index()] >= 10;
            let reason = match (five, ten) {
                (true, true) => WinReason::FiveAndCaptures,
                (true, false) => WinReason::Five,
                (false, true) => WinReason::Captures,
                (false, false) => continue,
            };
            return Some(Outcome::Win { winner: c, reason });
        }
        self.is_full().then_some(Outcome::Draw)
    }

    // ----- crate-internal access for the engine ------------------------------------------

    #[inline]
    pub(crate) const fn layout(&self) -> Layout {
        self.layout
    }

    #[inline]
    pub(crate) fn cell(&self, i: usize) -> u8 {
        self.cells[i]
    }

    #[inline]
    pub(crate) const fn dirs(&self) -> &[isize; 8] {
        &self.dirs
    }
}
