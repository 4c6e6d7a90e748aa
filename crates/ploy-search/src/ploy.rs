//! [`SearchGame`] for ploy-core's [`Position`], and Ploy's evaluation.

use crate::game::{SearchGame, Side, Terminal};
use crate::paranoid::{Paranoid, PloyGame};
use core::cell::Cell;
use ploy_core::{Move, MoveList, Outcome, PieceKind, Position, Seat, Square, Variant};
use std::sync::{Arc, LazyLock};

const OFF: u8 = 81;

/// `NEIGHBOUR[d][sq]`: the square next to `sq` in direction `d`, or `OFF`.
static NEIGHBOUR: [[u8; 81]; 8] = {
    const D: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let mut t = [[OFF; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 81 {
            let f = (i % 9) as i8 + D[d].0;
            let r = (i / 9) as i8 + D[d].1;
            if f >= 0 && f < 9 && r >= 0 && r < 9 {
                t[d][i] = (r * 9 + f) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

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

/// The move codec and history slots every `SearchGame` impl over ploy-core's [`Move`]
/// shares: the packed 16-bit move, and one history slot per from/to pair (a shield's turns
/// after moving share a slot).
macro_rules! ploy_move_codec {
    () => {
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

impl SearchGame for Position {
    type Move = Move;
    type Undo = ploy_core::Undo;
    type Moves = MoveList;

    /// The side of the seat to move; in partnership games teams are seats 0+2 and 1+3. (In a
    /// free-for-all game that pairing means nothing: search those as [`Paranoid`].)
    #[inline]
    fn side(&self) -> Side {
        Side((self.turn().index() & 1) as u8)
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    #[inline]
    fn terminal(&self) -> Option<Terminal> {
        match self.outcome()? {
            Outcome::Win { winners, .. } => {
                let seat = winners.iter().next().unwrap_or(Seat::Green);
                Some(Terminal::Win(Side((seat.index() & 1) as u8)))
            }
            Outcome::Draw { .. } => Some(Terminal::Draw),
        }
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList) {
        self.generate_moves(moves);
    }

    fn generate_captures(&self, moves: &mut MoveList) {
        if self.outcome().is_some() {
            return;
        }
        // The player who moves (in a partnership game a partner may play an absorbed
        // seat's turn: the seat to move then controls nothing).
        let turn = self.mover();
        let board = self.board();
        let own = self.friends_of(turn).0;
        let occ = board.occupied().0;
        let enemy = occ & !own;
        let shield_rots = self.rules().rotation.shield_mask();
        for from in self.controlled_by(turn) {
            let Some(p) = board.piece_at(from) else {
                continue;
            };
            let kind = p.kind();
            let mut targets = reach(from.index(), p.flags().bits(), kind.range(), occ) & enemy;
            while targets != 0 {
                let to = sq(targets.trailing_zeros());
                targets &= targets - 1;
                if kind == PieceKind::Shield {
                    let mut r = shield_rots;
                    while r != 0 {
                        moves.push(Move::new(from, to, r.trailing_zeros() as u8));
                        r &= r - 1;
                    }
                } else {
                    moves.push(Move::new(from, to, 0));
                }
            }
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        Position::is_legal(self, mv)
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        !mv.is_direction_move() && self.board().occupied().contains(mv.to())
    }

    #[inline]
    fn capture_order(&self, mv: Move) -> i32 {
        let b = self.board();
        let victim = b.piece_at(mv.to()).map_or(0, |p| kind_order(p.kind()));
        let attacker = b.piece_at(mv.from()).map_or(0, |p| kind_order(p.kind()));
        // Shields that turn after capturing: keep the untouched one first.
        victim * 64 - attacker * 8 - i32::from(mv.rotation() != 0)
    }

    #[inline]
    fn make(&mut self, mv: Move) -> ploy_core::Undo {
        self.make_move(mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: ploy_core::Undo) {
        self.unmake_move(mv, undo);
    }

    fn view(&self) -> Option<&'static str> {
        Some(crate::share::view_of(self))
    }

    fn win_share(&self, score: crate::Score) -> f64 {
        crate::win_share(self, score)
    }

    crate::ploy::ploy_move_codec!();
    crate::tactics::ploy_tactics!(s => *s);
}

/// The tunable terms of Ploy's evaluation, all in the same units (a shield is about 100).
///
/// Every array is indexed by [`PieceKind::index`]: shield, probe, lance, commander.
/// The evaluation is the sum over the side to move's pieces minus the sum over the
/// opponent's, plus `tempo`:
///
/// - `material[kind]` per piece (the commander's entry only matters for symmetry: losing it
///   ends the game, which the search scores as a loss);
/// - `mobility[kind]` per square the side's pieces of that kind could move to as they face
///   now (empty squares on their lines within range, and enemy pieces they could capture),
///   each square counted once per kind however many pieces of the kind reach it; the
///   commander's entry is unused;
/// - `advance[kind]` per rank the piece stands away from its own back rank, and
///   `centre[kind]` per step it stands closer to the centre than the edge (0 on the rim,
///   4 on e5);
/// - `threat` per 16 units of material of each enemy piece the side attacks (the side to
///   move gets `threat_to_move` instead: it can take at once);
/// - `commander_attacked` when the own commander stands on a square an enemy piece reaches;
/// - `commander_guard` per own piece on a square next to the own commander.
///
/// No term generates moves: the evaluation walks each piece's lines once, which keeps it
/// cheap (measured speed: `docs/speed.md` in the repository).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EvalParams {
    /// Value of a piece by kind.
    pub material: [i32; 4],
    /// Per reachable square, by kind.
    pub mobility: [i32; 4],
    /// Per rank advanced, by kind.
    pub advance: [i32; 4],
    /// Per step towards the centre, by kind.
    pub centre: [i32; 4],
    /// Per 16 units of attacked enemy material, for the side not to move.
    pub threat: i32,
    /// Per 16 units of attacked enemy material, for the side to move.
    pub threat_to_move: i32,
    /// When the own commander is attacked.
    pub commander_attacked: i32,
    /// Per own piece next to the own commander.
    pub commander_guard: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            material: [100, 180, 280, 0],
            mobility: [3, 4, 4, 1],
            advance: [4, 3, 2, -6],
            centre: [2, 3, 3, -4],
            threat: 1,
            threat_to_move: 3,
            commander_attacked: 60,
            commander_guard: 8,
            tempo: 10,
        }
    }
}

/// Ploy's evaluation: [`EvalParams`] with its placement tables precomputed.
///
/// ```
/// use ploy_core::Position;
/// use ploy_search::{Evaluation, Evaluator};
/// let eval = Evaluation::default();
/// // The start position is symmetric: only the tempo bonus remains.
/// assert_eq!(eval.evaluate(&Position::new()), eval.params().tempo);
/// ```
#[derive(Clone, Debug)]
pub struct Evaluation {
    params: EvalParams,
    /// `placement[colour][kind][square]`.
    placement: Arc<Placement>,
    /// The same for four-player games (both groups alike: no own back rank).
    placement4: Arc<Placement>,
}

impl Evaluation {
    /// The evaluation with `params`.
    #[must_use]
    pub fn new(params: EvalParams) -> Evaluation {
        if params == EvalParams::default() {
            return Evaluation::default();
        }
        Evaluation {
            params,
            placement: Arc::new(placement_tables(&params)),
            placement4: Arc::new(placement_tables_four_player(&params)),
        }
    }

    /// `pos` ready for fast evaluation by this evaluation.
    ///
    /// # Panics
    /// If `pos` is a free-for-all position (use [`Evaluation::game`]).
    #[must_use]
    pub fn position(&self, pos: Position) -> EvalPosition {
        let placement = self.placement_for(pos.variant()).clone();
        EvalPosition::with_placement(pos, placement)
    }

    /// `pos` ready for search by this evaluation, whatever the variant: the root mover's
    /// [`PloyGame`] (see [`PloyGame::new`]).
    #[must_use]
    pub fn game(&self, pos: Position) -> PloyGame {
        match pos.variant() {
            Variant::FreeForAll => {
                let root = pos.mover();
                let tracked = Tracked::paranoid_with(&pos, root, self.placement4.clone());
                PloyGame::Paranoid(Paranoid::from_parts(pos, root, tracked))
            }
            _ => PloyGame::Sides(self.position(pos)),
        }
    }

    fn placement_for(&self, variant: Variant) -> &Arc<Placement> {
        if variant.is_four_player() {
            &self.placement4
        } else {
            &self.placement
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &EvalParams {
        &self.params
    }
}

/// Placement values: `[colour][kind][square]`.
type Placement = [[[i32; 81]; 4]; 2];

fn placement_tables(params: &EvalParams) -> Placement {
    {
        let mut placement = [[[0; 81]; 4]; 2];
        for (c, table) in placement.iter_mut().enumerate() {
            for (k, row) in table.iter_mut().enumerate() {
                for (i, v) in row.iter_mut().enumerate() {
                    let (file, rank) = ((i % 9) as i32, (i / 9) as i32);
                    let rel_rank = if c == 0 { rank } else { 8 - rank };
                    let edge = file.min(8 - file).min(rank).min(8 - rank);
                    *v = params.advance[k] * rel_rank + params.centre[k] * edge;
                }
            }
        }
        placement
    }
}

/// Four-player placement values: the centre terms only, the same for every colour (the
/// seats sit on different edges and corners, and the centre is where the others are).
fn placement_tables_four_player(params: &EvalParams) -> Placement {
    let mut placement = [[[0; 81]; 4]; 2];
    for table in &mut placement {
        for (k, row) in table.iter_mut().enumerate() {
            for (i, v) in row.iter_mut().enumerate() {
                let (file, rank) = ((i % 9) as i32, (i / 9) as i32);
                let edge = file.min(8 - file).min(rank).min(8 - rank);
                *v = params.centre[k] * edge;
            }
        }
    }
    placement
}

/// The default evaluation's placement tables, shared by every default [`Evaluation`] and
/// [`EvalPosition::new`].
static DEFAULT_PLACEMENT: LazyLock<Arc<Placement>> =
    LazyLock::new(|| Arc::new(placement_tables(&EvalParams::default())));

/// The same for four-player games.
static DEFAULT_PLACEMENT4: LazyLock<Arc<Placement>> =
    LazyLock::new(|| Arc::new(placement_tables_four_player(&EvalParams::default())));

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation {
            params: EvalParams::default(),
            placement: DEFAULT_PLACEMENT.clone(),
            placement4: DEFAULT_PLACEMENT4.clone(),
        }
    }
}

// The evaluation's bitboards use a board ten squares wide: square `rank * 9 + file` is bit
// `rank * 10 + file`, and the tenth column is a guard that no piece stands on. A step east
// from file i or west from file a lands on a guard bit, so no file masks are needed: moving
// fronts are filtered by `& empty` (which never includes a guard) and results by `& VALID`.

/// The 10-wide bit of each square.
static WIDE: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i + i / 9) as u8;
        i += 1;
    }
    t
};

/// The square of each 10-wide bit (guard bits map to 0; they never hold a piece).
static NARROW: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut g = 0;
    while g < 90 {
        if g % 10 != 9 {
            t[g] = (g - g / 10) as u8;
        }
        g += 1;
    }
    t
};

/// Every real square in the 10-wide layout.
const VALID: u128 = {
    let mut b = 0u128;
    let mut i = 0;
    while i < 81 {
        b |= 1u128 << (i + i / 9);
        i += 1;
    }
    b
};

/// The bit of `sq` in the 10-wide layout.
#[inline(always)]
fn wide(sq: usize) -> u128 {
    1u128 << WIDE[sq]
}

/// The square of a 10-wide bit index.
#[inline(always)]
fn narrow(g: u32) -> Square {
    sq(u32::from(NARROW[g as usize]))
}

/// Every bit of `b` (10-wide layout) moved one step in direction `d`; see the layout note.
#[inline(always)]
fn shift(b: u128, d: usize) -> u128 {
    match d {
        0 => b << 10,
        1 => b << 11,
        2 => b << 1,
        3 => b >> 9,
        4 => b >> 10,
        5 => b >> 11,
        6 => b >> 1,
        _ => b << 9,
    }
}

/// `RING10[g]`: the squares next to the square of 10-wide bit `g`, 10-wide.
static RING10: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let n = NEIGHBOUR[d][i];
            if n != OFF {
                t[i + i / 9] |= 1u128 << (n as usize + n as usize / 9);
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Kind index (0 shield .. 3 commander) by mask; masks that are no piece map to 0.
static KIND_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let n = (m as u8).count_ones();
        t[m] = if n >= 1 && n <= 4 { (n - 1) as u8 } else { 0 };
        m += 1;
    }
    t
};

/// Adds to `reach[kind]` the squares the pieces in `starts[kind]` reach along direction `D`:
/// empty squares within range, and the first occupied square of each line.
#[inline(always)]
fn sweep<const D: usize>(starts: &[[u128; 8]; 4], empty: u128, reach: &mut [u128; 4]) {
    reach[0] |= shift(starts[0][D], D);
    reach[3] |= shift(starts[3][D], D);
    let p1 = shift(starts[1][D], D);
    reach[1] |= p1 | shift(p1 & empty, D);
    let l1 = shift(starts[2][D], D);
    let l2 = shift(l1 & empty, D);
    reach[2] |= l1 | l2 | shift(l2 & empty, D);
}

/// Bitboards (10-wide layout) kept up to date move by move for the evaluation: for each
/// group (two-player: Green 0, Red 1; partnership: the teams; paranoid: root, coalition) its
/// squares, for each kind the squares of its pieces,
/// and for each direction the squares of its pieces with a flag in that direction.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tracks {
    /// `rays[colour][kind][direction]`.
    rays: [[[u128; 8]; 4]; 2],
    /// `by_kind[colour][kind]`.
    by_kind: [[u128; 4]; 2],
    /// `colour[colour]`.
    colour: [u128; 2],
}

impl Tracks {
    /// Two-player and partnership: colours (seats) 0 and 2 are group 0, 1 and 3 group 1.
    fn new(pos: &Position) -> Tracks {
        Tracks::grouped(pos, |colour| colour.index() & 1)
    }

    /// The pieces of each colour in group `group(colour)` (0 or 1).
    fn grouped(pos: &Position, group: impl Fn(Seat) -> usize) -> Tracks {
        let mut t = Tracks {
            rays: [[[0; 8]; 4]; 2],
            by_kind: [[0; 4]; 2],
            colour: [0; 2],
        };
        for (s, p) in pos.board().pieces() {
            t.toggle(group(p.colour()), p.flags().bits(), s.index());
        }
        t
    }

    /// Adds or removes a piece of colour `c` with mask `mask` on square index `sq`.
    #[inline(always)]
    fn toggle(&mut self, c: usize, mask: u8, sq: usize) {
        let bit = wide(sq);
        let k = KIND_OF[mask as usize] as usize;
        self.colour[c] ^= bit;
        self.by_kind[c][k] ^= bit;
        let row = &mut self.rays[c][k];
        let mut f = mask;
        while f != 0 {
            row[f.trailing_zeros() as usize] ^= bit;
            f &= f - 1;
        }
    }

    /// The empty squares.
    #[inline]
    fn empty(&self) -> u128 {
        VALID & !(self.colour[0] | self.colour[1])
    }

    /// `reach[kind]` of colour `c`: the squares its pieces of each kind reach (empty squares
    /// within range, and the first occupied square of each line).
    #[inline(never)]
    fn reach(&self, c: usize, empty: u128) -> [u128; 4] {
        let starts = &self.rays[c];
        let mut reach = [0u128; 4];
        sweep::<0>(starts, empty, &mut reach);
        sweep::<1>(starts, empty, &mut reach);
        sweep::<2>(starts, empty, &mut reach);
        sweep::<3>(starts, empty, &mut reach);
        sweep::<4>(starts, empty, &mut reach);
        sweep::<5>(starts, empty, &mut reach);
        sweep::<6>(starts, empty, &mut reach);
        sweep::<7>(starts, empty, &mut reach);
        [
            reach[0] & VALID,
            reach[1] & VALID,
            reach[2] & VALID,
            reach[3] & VALID,
        ]
    }
}

/// A two-player or partnership [`Position`] together with the bitboards Ploy's
/// [`Evaluation`] needs (per side: a seat, or a team), kept up to date by every move: the
/// fast way to search Ploy. Dereferences to the position. Free-for-all positions are
/// searched as [`Paranoid`].
///
/// ```
/// use ploy_core::Position;
/// use ploy_search::{EvalPosition, Evaluation, Evaluator, SearchGame};
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
    /// The placement tables the sums below are for.
    placement: Arc<Placement>,
    /// Placement sum per colour.
    place: [i32; 2],
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
    /// two sides: its bitboards track Green + Yellow and Red + Blue).
    ///
    /// # Panics
    /// If `pos` is a free-for-all position: search those through [`Paranoid`] (or
    /// [`PloyGame`], which picks the right type by variant).
    #[must_use]
    pub fn new(pos: Position) -> EvalPosition {
        let placement = if pos.variant().is_four_player() {
            DEFAULT_PLACEMENT4.clone()
        } else {
            DEFAULT_PLACEMENT.clone()
        };
        EvalPosition::with_placement(pos, placement)
    }

    fn with_placement(pos: Position, placement: Arc<Placement>) -> EvalPosition {
        assert!(
            pos.variant() != Variant::FreeForAll,
            "EvalPosition is for two sides: two-player or partnership (free-for-all: Paranoid)"
        );
        let tracks = Tracks::new(&pos);
        let place = placement_sums(&tracks, &placement);
        EvalPosition {
            pos,
            tracks,
            placement,
            place,
            reached: Cell::new((!0, 0)),
        }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Rebuilds the bitboards if the board lost or regained a piece they did not see: a
    /// bare commander taken off the board with its eliminated player
    /// ([`ploy_core::BareCommander::Removed`], four-player games only; rare).
    #[cold]
    fn resync(&mut self) {
        let tracked = (self.tracks.colour[0] | self.tracks.colour[1]).count_ones();
        if tracked != self.pos.board().occupied().count() {
            self.tracks = Tracks::new(&self.pos);
            self.place = placement_sums(&self.tracks, &self.placement);
        }
    }

    /// Unwraps the position.
    #[must_use]
    pub fn into_position(self) -> Position {
        self.pos
    }
}

fn placement_sums(t: &Tracks, placement: &Placement) -> [i32; 2] {
    let mut sums = [0; 2];
    for (c, sum) in sums.iter_mut().enumerate() {
        for (table, &kind_bits) in placement[c].iter().zip(&t.by_kind[c]) {
            let mut bits = kind_bits;
            while bits != 0 {
                *sum += table[NARROW[bits.trailing_zeros() as usize] as usize];
                bits &= bits - 1;
            }
        }
    }
    sums
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
    type Move = Move;
    type Undo = ploy_core::Undo;
    type Moves = MoveList;

    #[inline]
    fn side(&self) -> Side {
        self.pos.side()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    #[inline]
    fn terminal(&self) -> Option<Terminal> {
        SearchGame::terminal(&self.pos)
    }

    fn view(&self) -> Option<&'static str> {
        Some(crate::share::view_of(&self.pos))
    }

    fn win_share(&self, score: crate::Score) -> f64 {
        crate::win_share(&self.pos, score)
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList) {
        self.pos.generate_moves(moves);
    }

    /// The same captures as the plain position's, found from the tracked bitboards: one
    /// sweep tells whether there are any, and only attacked squares are looked at.
    fn generate_captures(&self, moves: &mut MoveList) {
        let pos = &self.pos;
        if pos.outcome().is_some() {
            return;
        }
        let turn = pos.mover();
        let board = pos.board();
        let c = turn.index() & 1;
        let (h, cached) = self.reached.get();
        let reached = if h == pos.hash() {
            cached
        } else {
            let reach = self.tracks.reach(c, self.tracks.empty());
            reach[0] | reach[1] | reach[2] | reach[3]
        };
        let mut targets = reached & self.tracks.colour[c ^ 1];
        let shield_rots = pos.rules().rotation.shield_mask();
        while targets != 0 {
            let to = narrow(targets.trailing_zeros());
            targets &= targets - 1;
            for from in pos.attackers(to, turn) {
                let Some(p) = board.piece_at(from) else {
                    continue;
                };
                if p.kind() == PieceKind::Shield {
                    let mut r = shield_rots;
                    while r != 0 {
                        moves.push(Move::new(from, to, r.trailing_zeros() as u8));
                        r &= r - 1;
                    }
                } else {
                    moves.push(Move::new(from, to, 0));
                }
            }
        }
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_legal(mv)
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
    fn make(&mut self, mv: Move) -> ploy_core::Undo {
        let (from, to) = (mv.from(), mv.to());
        let piece = self
            .pos
            .board()
            .piece_at(from)
            .expect("make: no piece on the start square");
        let c = piece.colour().index() & 1;
        let mask = piece.flags().bits();
        let k = KIND_OF[mask as usize] as usize;
        self.tracks.toggle(c, mask, from.index());
        let undo = self.pos.make_move(mv);
        let table = &self.placement[c][k];
        self.place[c] += table[to.index()] - table[from.index()];
        if let Some(v) = undo.captured() {
            let (vc, vm) = (v.colour().index() & 1, v.flags().bits());
            self.tracks.toggle(vc, vm, to.index());
            self.place[vc] -= self.placement[vc][KIND_OF[vm as usize] as usize][to.index()];
        }
        self.tracks
            .toggle(c, mask.rotate_left(u32::from(mv.rotation())), to.index());
        if undo.captured().is_some() && self.pos.variant().is_four_player() {
            self.resync();
        }
        undo
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: ploy_core::Undo) {
        self.unmake_tracks(mv, undo);
        if undo.captured().is_some() && self.pos.variant() != Variant::TwoPlayer {
            self.unmake_four_player_capture(mv, undo);
        } else {
            self.pos.unmake_move(mv, undo);
        }
    }

    crate::ploy::ploy_move_codec!();
    crate::tactics::ploy_tactics!(s => s.pos);
}

impl EvalPosition {
    /// The bitboard half of taking back `mv` (before the position's).
    #[inline(always)]
    fn unmake_tracks(&mut self, mv: Move, undo: ploy_core::Undo) {
        let (from, to) = (mv.from(), mv.to());
        let moved = self
            .pos
            .board()
            .piece_at(to)
            .expect("unmake: no piece on the end square");
        let c = moved.colour().index() & 1;
        let mask = moved.flags().bits();
        let k = KIND_OF[mask as usize] as usize;
        self.tracks.toggle(c, mask, to.index());
        let table = &self.placement[c][k];
        self.place[c] -= table[to.index()] - table[from.index()];
        if let Some(v) = undo.captured() {
            let (vc, vm) = (v.colour().index() & 1, v.flags().bits());
            self.tracks.toggle(vc, vm, to.index());
            self.place[vc] += self.placement[vc][KIND_OF[vm as usize] as usize][to.index()];
        }
        self.tracks
            .toggle(c, mask.rotate_right(u32::from(mv.rotation())), from.index());
    }

    /// The position's half of taking back a capture in a partnership game: a bare commander
    /// may come back.
    #[inline(never)]
    fn unmake_four_player_capture(&mut self, mv: Move, undo: ploy_core::Undo) {
        self.pos.unmake_move(mv, undo);
        self.resync();
    }
}

impl Evaluation {
    /// The evaluation for group `to_move` of the two groups of `t` (sides of the search).
    /// `count(group, kind)` is the number of the group's pieces of that kind (the board
    /// keeps counts per colour, cheaper than counting bits).
    #[inline(always)]
    fn evaluate_tracked(
        &self,
        pos: &Position,
        t: &Tracks,
        place: [i32; 2],
        to_move: usize,
        cache: Option<&Cell<(u64, u128)>>,
        count: impl Fn(usize, PieceKind) -> u32,
    ) -> i32 {
        let p = &self.params;
        let board = pos.board();
        let empty = t.empty();
        let reach = [t.reach(0, empty), t.reach(1, empty)];
        let reached = [
            reach[0][0] | reach[0][1] | reach[0][2] | reach[0][3],
            reach[1][0] | reach[1][1] | reach[1][2] | reach[1][3],
        ];
        if let Some(cell) = cache {
            cell.set((pos.hash(), reached[to_move]));
        }
        let mut score = [0i32; 2];
        for c in 0..2 {
            let o = c ^ 1;
            let own = t.colour[c];
            let mut s = place[c];
            for (m, kind) in p.material.iter().zip(PieceKind::ALL) {
                s += m * count(c, kind) as i32;
            }
            for (w, r) in p.mobility.iter().zip(&reach[c]).take(3) {
                s += w * (r & !own).count_ones() as i32;
            }
            // Threats: enemy material this colour reaches (usually a few pieces at most).
            let mut hit = reached[c] & t.colour[o];
            let mut threatened = 0;
            while hit != 0 {
                let i = hit.trailing_zeros();
                hit &= hit - 1;
                if let Some(piece) = board.piece_at(narrow(i)) {
                    threatened += p.material[KIND_OF[piece.flags().bits() as usize] as usize];
                }
            }
            let w = if c == to_move {
                p.threat_to_move
            } else {
                p.threat
            };
            s += w * threatened / 16;
            // One commander per colour: two for a partnership team, up to four for the
            // coalition of a paranoid search.
            let all_cmd = t.by_kind[c][3];
            let mut cmds = all_cmd;
            while cmds != 0 {
                let cmd = cmds & cmds.wrapping_neg();
                cmds ^= cmd;
                if reached[o] & cmd != 0 {
                    s -= p.commander_attacked;
                }
                let ring = RING10[cmd.trailing_zeros() as usize];
                s += p.commander_guard * (ring & own & !all_cmd).count_ones() as i32;
            }
            score[c] = s;
        }
        score[to_move] - score[to_move ^ 1] + p.tempo
    }
}

impl crate::Evaluator<EvalPosition> for Evaluation {
    #[inline]
    fn evaluate(&self, pos: &EvalPosition) -> i32 {
        let to_move = pos.pos.turn().index() & 1;
        let placement = self.placement_for(pos.pos.variant());
        let (place, cache) = if Arc::ptr_eq(&pos.placement, placement) {
            (pos.place, Some(&pos.reached))
        } else {
            (placement_sums(&pos.tracks, placement), None)
        };
        self.evaluate_sides(&pos.pos, &pos.tracks, place, to_move, cache)
    }
}

/// The same value as for an [`EvalPosition`], computed from scratch (slower). Two-player
/// and partnership positions (teams as sides); a free-for-all position is evaluated as if
/// seats 0 + 2 and 1 + 3 were teams, which is meaningless: search those as [`Paranoid`].
impl crate::Evaluator<Position> for Evaluation {
    fn evaluate(&self, pos: &Position) -> i32 {
        let tracks = Tracks::new(pos);
        let place = placement_sums(&tracks, self.placement_for(pos.variant()));
        self.evaluate_sides(pos, &tracks, place, pos.turn().index() & 1, None)
    }
}

impl Evaluation {
    /// Two sides: the two seats, or the two teams of a partnership game.
    #[inline]
    fn evaluate_sides(
        &self,
        pos: &Position,
        t: &Tracks,
        place: [i32; 2],
        to_move: usize,
        cache: Option<&Cell<(u64, u128)>>,
    ) -> i32 {
        let board = pos.board();
        if pos.variant() == Variant::TwoPlayer {
            self.evaluate_tracked(pos, t, place, to_move, cache, |c, k| {
                board.count(Seat::ALL[c], k)
            })
        } else {
            self.evaluate_tracked(pos, t, place, to_move, cache, |c, k| {
                board.count(Seat::ALL[c], k) + board.count(Seat::ALL[c + 2], k)
            })
        }
    }
}

/// Root's pieces (every colour he controls) against everybody else's: the coalition is one
/// group, so its pieces count as one army in the mobility and threat terms (they neither
/// threaten nor capture each other there). Four-player placement (centre terms only).
impl crate::Evaluator<Paranoid> for Evaluation {
    #[inline]
    fn evaluate(&self, g: &Paranoid) -> i32 {
        let t = &g.tracked;
        let placement = &self.placement4;
        let place = if Arc::ptr_eq(&t.placement, placement) {
            t.place
        } else {
            placement_sums(&t.tracks, placement)
        };
        let pos = g.position();
        let board = pos.board();
        let group = Seat::ALL.map(|c| usize::from(pos.controller(c) != g.root()));
        self.evaluate_tracked(pos, &t.tracks, place, g.side().index(), None, |c, k| {
            Seat::ALL
                .into_iter()
                .filter(|s| group[s.index()] == c)
                .map(|s| board.count(s, k))
                .sum()
        })
    }
}

/// The bitboards of a paranoid search ([`Paranoid`]): group 0 the colours the root
/// controls, group 1 every other colour, with their placement sums.
#[derive(Clone, Debug)]
pub(crate) struct Tracked {
    tracks: Tracks,
    placement: Arc<Placement>,
    place: [i32; 2],
}

impl Tracked {
    /// The groups of `pos` searched for `root`, with the default four-player placement.
    pub(crate) fn paranoid(pos: &Position, root: Seat) -> Tracked {
        Tracked::paranoid_with(pos, root, DEFAULT_PLACEMENT4.clone())
    }

    fn paranoid_with(pos: &Position, root: Seat, placement: Arc<Placement>) -> Tracked {
        let tracks = Tracks::grouped(pos, |colour| usize::from(pos.controller(colour) != root));
        let place = placement_sums(&tracks, &placement);
        Tracked {
            tracks,
            placement,
            place,
        }
    }

    /// Adds or removes a piece of group `g`.
    #[inline]
    fn toggle(&mut self, g: usize, mask: u8, sq: usize, sign: i32) {
        self.tracks.toggle(g, mask, sq);
        self.place[g] += sign * self.placement[g][KIND_OF[mask as usize] as usize][sq];
    }

    /// Plays `mv` on `pos` and follows it; `true` if the groups had to be rebuilt (a
    /// colour changed hands or a bare commander left the board).
    pub(crate) fn make(
        &mut self,
        pos: &mut Position,
        root: Seat,
        mv: Move,
    ) -> (ploy_core::Undo, bool) {
        let (from, to) = (mv.from(), mv.to());
        let board = pos.board();
        let piece = board
            .piece_at(from)
            .expect("make: no piece on the start square");
        let group = |c: Seat| usize::from(pos.controller(c) != root);
        let g = group(piece.colour());
        let victim_group = board.piece_at(to).map_or(0, |v| group(v.colour()));
        let controllers = Seat::ALL.map(|c| pos.controller(c));
        let mask = piece.flags().bits();
        self.toggle(g, mask, from.index(), -1);
        let undo = pos.make_move(mv);
        let mut rebuilt = false;
        if let Some(v) = undo.captured() {
            if from != to {
                self.toggle(victim_group, v.flags().bits(), to.index(), -1);
            }
            rebuilt = Seat::ALL.map(|c| pos.controller(c)) != controllers
                || pos.board().occupied().count()
                    != (self.tracks.colour[0] | self.tracks.colour[1]).count_ones() + 1;
        }
        if rebuilt {
            *self = Tracked::paranoid_with(pos, root, self.placement.clone());
        } else {
            self.toggle(g, mask.rotate_left(u32::from(mv.rotation())), to.index(), 1);
        }
        (undo, rebuilt)
    }

    /// Takes back `mv` on `pos`.
    pub(crate) fn unmake(
        &mut self,
        pos: &mut Position,
        root: Seat,
        mv: Move,
        undo: (ploy_core::Undo, bool),
    ) {
        let (undo, rebuilt) = undo;
        let captured = undo.captured();
        pos.unmake_move(mv, undo);
        if rebuilt {
            *self = Tracked::paranoid_with(pos, root, self.placement.clone());
            return;
        }
        let (from, to) = (mv.from(), mv.to());
        let piece = pos
            .board()
            .piece_at(from)
            .expect("unmake: no piece back on the start square");
        let group = |c: Seat| usize::from(pos.controller(c) != root);
        let g = group(piece.colour());
        let mask = piece.flags().bits();
        self.toggle(
            g,
            mask.rotate_left(u32::from(mv.rotation())),
            to.index(),
            -1,
        );
        self.toggle(g, mask, from.index(), 1);
        if let Some(v) = captured {
            self.toggle(group(v.colour()), v.flags().bits(), to.index(), 1);
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
