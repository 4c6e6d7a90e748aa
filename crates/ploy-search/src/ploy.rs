//! [`SearchGame`] for ploy-core's [`Position`], and Ploy's evaluation.

use crate::game::{SearchGame, Side, Terminal};
use ploy_core::{Move, MoveList, Outcome, PieceKind, Position, Seat, Square};

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

/// `RING[sq]`: the up to 8 squares next to `sq`.
static RING: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let n = NEIGHBOUR[d][i];
            if n != OFF {
                t[i] |= 1u128 << n;
            }
            d += 1;
        }
        i += 1;
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

impl SearchGame for Position {
    type Move = Move;
    type Undo = ploy_core::Undo;
    type Moves = MoveList;

    /// The side of the seat to move; in partnership games teams are seats 0+2 and 1+3.
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
        let turn = self.turn();
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

    #[inline]
    fn move_to_u16(mv: Move) -> u16 {
        mv.to_u16()
    }

    #[inline]
    fn move_from_u16(code: u16) -> Option<Move> {
        Move::from_u16(code)
    }
}

/// The tunable terms of Ploy's evaluation, all in the same units (a shield is about 100).
///
/// Every array is indexed by [`PieceKind::index`]: shield, probe, lance, commander.
/// The evaluation is the sum over the side to move's pieces minus the sum over the
/// opponent's, plus `tempo`:
///
/// - `material[kind]` per piece (the commander's entry only matters for symmetry: losing it
///   ends the game, which the search scores as a loss);
/// - `mobility[kind]` per square the piece could move to as it faces now (empty squares on
///   its lines within range, and enemy pieces it could capture);
/// - `advance[kind]` per rank the piece stands away from its own back rank, and
///   `centre[kind]` per step it stands closer to the centre than the edge (0 on the rim,
///   4 on e5);
/// - `threat` per 16 units of material of each enemy piece the side attacks (the side to
///   move gets `threat_to_move` instead: it can take at once);
/// - `commander_attacked` when the own commander stands on a square an enemy piece reaches;
/// - `commander_guard` per own piece on a square next to the own commander.
///
/// No term generates moves: the evaluation walks each piece's lines once, which keeps it
/// cheap (see the crate docs for measured speed).
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
    placement: Box<[[[i32; 81]; 4]; 2]>,
}

impl Evaluation {
    /// The evaluation with `params`.
    #[must_use]
    pub fn new(params: EvalParams) -> Evaluation {
        let mut placement = Box::new([[[0; 81]; 4]; 2]);
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
        Evaluation { params, placement }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &EvalParams {
        &self.params
    }
}

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation::new(EvalParams::default())
    }
}

impl crate::Evaluator<Position> for Evaluation {
    fn evaluate(&self, pos: &Position) -> i32 {
        let p = &self.params;
        let board = pos.board();
        let occ = board.occupied().0;
        let mut score = [0i32; 2];
        let mut reached = [0u128; 2];
        let mut commander = [None::<usize>; 2];
        let colours = [Seat::Green, Seat::Red];
        for (c, &seat) in colours.iter().enumerate() {
            let own = board.by_colour(seat).0;
            let place = &self.placement[c];
            let mut s = 0;
            let mut bits = own;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(piece) = board.piece_at(sq(i as u32)) else {
                    continue;
                };
                let kind = piece.kind();
                let k = kind.index();
                let r = reach(i, piece.flags().bits(), kind.range(), occ);
                reached[c] |= r;
                s += p.material[k] + p.mobility[k] * (r & !own).count_ones() as i32 + place[k][i];
                if kind == PieceKind::Commander {
                    commander[c] = Some(i);
                }
            }
            score[c] = s;
        }
        let to_move = pos.turn().index() & 1;
        for c in 0..2 {
            let enemy_seat = colours[c ^ 1];
            // Threats: enemy material this colour reaches.
            let mut hit = reached[c] & board.by_colour(enemy_seat).0;
            let mut threatened = 0;
            while hit != 0 {
                let i = hit.trailing_zeros();
                hit &= hit - 1;
                if let Some(piece) = board.piece_at(sq(i)) {
                    threatened += p.material[piece.kind().index()];
                }
            }
            let w = if c == to_move {
                p.threat_to_move
            } else {
                p.threat
            };
            score[c] += w * threatened / 16;
            if let Some(ci) = commander[c] {
                if reached[c ^ 1] >> ci & 1 != 0 {
                    score[c] -= p.commander_attacked;
                }
                let guards = RING[ci] & board.by_colour(colours[c]).0;
                score[c] += p.commander_guard * guards.count_ones() as i32;
            }
        }
        score[to_move] - score[to_move ^ 1] + p.tempo
    }
}
