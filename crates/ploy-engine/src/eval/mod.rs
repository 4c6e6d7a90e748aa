//! Ploy's evaluation: [`EvalParams`] (the weights), [`Evaluation`] (the weights with their
//! tables), and the sets of squares it keeps up to date move by move ([`tracks`]).
//!
//! The game adapters ([`crate::EvalPosition`], [`crate::Paranoid`]) own the tracked sets and
//! call into this module; nothing here knows about them.

pub(crate) mod layout;
pub(crate) mod tracks;

use layout::{KIND_OF, NARROW, RING1, for_each, popcount};
use ploy_core::{Position, Variant};

#[cfg(doc)]
use ploy_core::PieceKind;
use std::sync::{Arc, LazyLock};
use tracks::{BY_PARITY, Psqt, Tracks};

/// The tunable terms of Ploy's evaluation, all in the same units (centipawn-like: the
/// search reports scores in them).
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
/// No term generates moves. The squares each piece reaches are kept up to date move by
/// move (see [`EvalPosition`](crate::EvalPosition)), so an evaluation only combines sets of
/// squares (measured speed: `docs/speed.md` in the repository).
///
/// # The default weights
///
/// [`EvalParams::default`] holds weights fitted by logistic ("texel") regression with this
/// crate's `tune` example, on 55,718 quiet positions of 2,000 self-play games (3,000 nodes
/// a move, seed 1) played by the engine with the earlier, hand-set weights
/// (material 100 / 180 / 280, mobility 3 / 4 / 4, advance 4 / 3 / 2 / −6, centre
/// 2 / 3 / 3 / −4, threat 1 and 3, commander attacked 60 and guarded 8, tempo 10). The fit
/// lowered the mean squared error of the predicted results from 0.1554 to 0.1447 on the
/// fitted games and from 0.1835 to 0.1719 on the tenth of the games held out (scale
/// k = 0.511). The commander's material and mobility and the threat to move have no signal
/// in quiet positions and keep their hand-set values.
///
/// Some fitted values look odd one by one (a probe's material below a shield's, a shield
/// penalised per square it faces): the terms overlap (a probe's worth is mostly in its
/// mobility and placement terms), and only the whole set was tested. It earned its place in
/// a match against the hand-set weights, two engine builds that differ only in these
/// constants, both driven over the engine protocol (2026-11-24):
///
/// ```text
/// ploy match --a engine:TUNED/engine --b engine:HAND-SET/engine --nodes 20000 -j 2 \
///     --sprt 0,10 --opening-plies 4 --no-capture-limit 0 --ply-cap 400 --seed 7
/// ```
///
/// 428 games (214 openings of 4 random legal plies, each played with colours swapped),
/// 20,000 nodes a move, the repetition draw on, no no-capture limit, a draw at 400 plies:
/// the tuned weights won 254, drew 27 and lost 147 (62.5 %), **+89 Elo, 95 % interval +55
/// to +123**; the SPRT (elo0 0, elo1 10, alpha = beta = 0.05) accepted H1 (log-likelihood
/// ratio 2.95).
///
/// To fit them again (the games, hence the weights, change whenever the search or the
/// evaluation does; the fit starts from the current defaults and plays with them):
///
/// ```text
/// cargo run --release -p ploy-engine --example tune -- --seed 1 --games 2000 --nodes 3000 -j 2
/// ```
///
/// then paste the printed `EvalParams` here, and keep them only if they win such a match
/// (`ploy match` with two engine builds, see the facade crate's `match` docs).
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
    /// The tuned weights; see [the type docs](EvalParams#the-default-weights).
    fn default() -> EvalParams {
        EvalParams {
            material: [72, 31, 304, 0],
            mobility: [-42, 6, 4, 1],
            advance: [-7, 15, 12, -36],
            centre: [9, -2, 24, 30],
            threat: 2,
            threat_to_move: 3,
            commander_attacked: 207,
            commander_guard: 36,
            tempo: 32,
        }
    }
}

impl EvalParams {
    /// The number of weights.
    pub const LEN: usize = 21;

    /// The name of each weight, in the order of [`EvalParams::to_array`].
    pub const NAMES: [&'static str; EvalParams::LEN] = [
        "material.shield",
        "material.probe",
        "material.lance",
        "material.commander",
        "mobility.shield",
        "mobility.probe",
        "mobility.lance",
        "mobility.commander",
        "advance.shield",
        "advance.probe",
        "advance.lance",
        "advance.commander",
        "centre.shield",
        "centre.probe",
        "centre.lance",
        "centre.commander",
        "threat",
        "threat_to_move",
        "commander_attacked",
        "commander_guard",
        "tempo",
    ];

    /// The weights as one array, in the order of [`EvalParams::NAMES`].
    ///
    /// ```
    /// use ploy_engine::EvalParams;
    /// let p = EvalParams::default();
    /// assert_eq!(EvalParams::from_array(p.to_array()), p);
    /// ```
    #[must_use]
    pub fn to_array(&self) -> [i32; EvalParams::LEN] {
        let mut a = [0; EvalParams::LEN];
        a[0..4].copy_from_slice(&self.material);
        a[4..8].copy_from_slice(&self.mobility);
        a[8..12].copy_from_slice(&self.advance);
        a[12..16].copy_from_slice(&self.centre);
        a[16] = self.threat;
        a[17] = self.threat_to_move;
        a[18] = self.commander_attacked;
        a[19] = self.commander_guard;
        a[20] = self.tempo;
        a
    }

    /// The weights from one array in the order of [`EvalParams::NAMES`].
    #[must_use]
    pub fn from_array(a: [i32; EvalParams::LEN]) -> EvalParams {
        let four = |i: usize| [a[i], a[i + 1], a[i + 2], a[i + 3]];
        EvalParams {
            material: four(0),
            mobility: four(4),
            advance: four(8),
            centre: four(12),
            threat: a[16],
            threat_to_move: a[17],
            commander_attacked: a[18],
            commander_guard: a[19],
            tempo: a[20],
        }
    }
}

/// Ploy's evaluation: [`EvalParams`] with its material and placement tables precomputed.
///
/// ```
/// use ploy_core::Position;
/// use ploy_engine::Evaluation;
/// use ploy_search::Evaluator;
/// let eval = Evaluation::default();
/// // The start position is symmetric: only the tempo bonus remains.
/// assert_eq!(eval.evaluate(&Position::new()), eval.params().tempo);
/// ```
#[derive(Clone, Debug)]
pub struct Evaluation {
    params: EvalParams,
    tables: Arc<Tables>,
}

/// Material plus placement for two-player and for four-player games.
#[derive(Debug)]
pub(crate) struct Tables {
    /// Two-player: advancement from each group's own back rank, and centralisation.
    two: Psqt,
    /// Four-player: centralisation only, the same for both groups (the seats sit on
    /// different edges and corners, and the centre is where the others are).
    four: Psqt,
}

impl Tables {
    fn new(p: &EvalParams) -> Tables {
        let mut two = [[[0; 90]; 4]; 2];
        let mut four = [[[0; 90]; 4]; 2];
        for g in 0..2 {
            for k in 0..4 {
                for (w, &sq) in NARROW.iter().enumerate() {
                    if (1u128 << w) & layout::VALID == 0 {
                        continue;
                    }
                    let (file, rank) = (i32::from(sq % 9), i32::from(sq / 9));
                    let rel_rank = if g == 0 { rank } else { 8 - rank };
                    let edge = file.min(8 - file).min(rank).min(8 - rank);
                    two[g][k][w] = p.material[k] + p.advance[k] * rel_rank + p.centre[k] * edge;
                    four[g][k][w] = p.material[k] + p.centre[k] * edge;
                }
            }
        }
        Tables { two, four }
    }

    /// The tables for `variant`.
    #[inline]
    pub(crate) fn of(&self, variant: Variant) -> &Psqt {
        if variant.is_four_player() {
            &self.four
        } else {
            &self.two
        }
    }
}

/// The default evaluation's tables, shared by every default [`Evaluation`] and every
/// position made ready without one.
static DEFAULT_TABLES: LazyLock<Arc<Tables>> =
    LazyLock::new(|| Arc::new(Tables::new(&EvalParams::default())));

impl Default for Evaluation {
    fn default() -> Evaluation {
        Evaluation {
            params: EvalParams::default(),
            tables: default_tables(),
        }
    }
}

/// The default evaluation's tables.
pub(crate) fn default_tables() -> Arc<Tables> {
    DEFAULT_TABLES.clone()
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
            tables: Arc::new(Tables::new(&params)),
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The tables.
    pub(crate) fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// The value of `t` for group `to_move`, with `t`'s material and placement sums if
    /// they were made with this evaluation's `tables` (otherwise they are summed again),
    /// and the squares each group reaches.
    #[inline]
    pub(crate) fn evaluate_tracks(
        &self,
        t: &Tracks,
        tables: &Arc<Tables>,
        variant: Variant,
        to_move: usize,
    ) -> (i32, [u128; 2]) {
        let psqt = if Arc::ptr_eq(tables, &self.tables) {
            t.psqt
        } else {
            t.psqt_sums(self.tables.of(variant))
        };
        evaluate(&self.params, t, psqt, to_move)
    }
}

impl Evaluation {
    /// The evaluation of a two-sided `pos` (as [`Evaluator<Position>`](crate::Evaluator)
    /// sees it) as a linear function of the weights: coefficient `i` multiplies weight `i`
    /// of [`EvalParams::to_array`], and the sum of the products is the evaluation up to
    /// rounding (the threat terms divide by 16).
    ///
    /// The threat coefficients are the attacked enemy material by this evaluation's
    /// material weights, divided by 16: they are the one place where the value is not
    /// linear in the weights. This is what a tuner of the weights fits to (the `tune`
    /// example of this crate).
    ///
    /// ```
    /// use ploy_core::Position;
    /// use ploy_engine::{EvalParams, Evaluation};
    /// use ploy_search::Evaluator;
    /// let eval = Evaluation::default();
    /// let pos = Position::new();
    /// let terms = eval.terms(&pos);
    /// let weights = eval.params().to_array();
    /// let sum: f64 = terms.iter().zip(weights).map(|(c, w)| c * f64::from(w)).sum();
    /// assert!((sum - f64::from(eval.evaluate(&pos))).abs() < 2.0);
    /// ```
    #[must_use]
    pub fn terms(&self, pos: &Position) -> [f64; EvalParams::LEN] {
        let p = &self.params;
        let t = Tracks::new(pos, &BY_PARITY, self.tables.of(pos.variant()));
        let to_move = pos.turn().index() & 1;
        let four_player = pos.variant().is_four_player();
        let (by_kind, _) = t.reached();
        let reached = by_kind.map(|r| r[0] | r[1] | r[2] | r[3]);
        let mut a = [0.0; EvalParams::LEN];
        for c in 0..2 {
            let o = c ^ 1;
            let sign = if c == to_move { 1.0 } else { -1.0 };
            let own = t.colour[c];
            for k in 0..4 {
                for_each(t.by_kind[c][k], |w| {
                    let sq = NARROW[w];
                    let (file, rank) = (i32::from(sq % 9), i32::from(sq / 9));
                    let rel_rank = if c == 0 { rank } else { 8 - rank };
                    let edge = file.min(8 - file).min(rank).min(8 - rank);
                    a[k] += sign;
                    if !four_player {
                        a[8 + k] += sign * f64::from(rel_rank);
                    }
                    a[12 + k] += sign * f64::from(edge);
                });
                if k < 3 {
                    a[4 + k] += sign * f64::from((by_kind[c][k] & !own).count_ones());
                }
            }
            let mut threatened = 0;
            for_each(reached[c] & t.colour[o], |w| {
                threatened += p.material[KIND_OF[t.masks[w] as usize] as usize];
            });
            a[if c == to_move { 17 } else { 16 }] += sign * f64::from(threatened) / 16.0;
            let commanders = t.by_kind[c][3];
            for_each(commanders, |w| {
                if reached[o] & layout::bit(w) != 0 {
                    a[18] -= sign;
                }
                a[19] += sign * f64::from((RING1[w] & own & !commanders).count_ones());
            });
        }
        a[20] = 1.0;
        a
    }
}

/// The evaluation of `t` for group `to_move` given its material and placement sums `psqt`,
/// and the squares each group reaches.
#[inline(always)]
fn evaluate(p: &EvalParams, t: &Tracks, psqt: [i32; 2], to_move: usize) -> (i32, [u128; 2]) {
    let (by_kind, mobility) = t.reached();
    let reached = by_kind.map(|r| r[0] | r[1] | r[2] | r[3]);
    let mut score = [0i32; 2];
    for (c, s) in score.iter_mut().enumerate() {
        let o = c ^ 1;
        let own = t.colour[c];
        *s = psqt[c];
        // The commander's mobility is not counted.
        for (w, &m) in p.mobility.iter().zip(&mobility[c]) {
            *s += w * m as i32;
        }
        // Threats: enemy material this group reaches (usually a few pieces at most).
        let mut threatened = 0;
        for_each(reached[c] & t.colour[o], |w| {
            threatened += p.material[KIND_OF[t.masks[w] as usize] as usize];
        });
        let w = if c == to_move {
            p.threat_to_move
        } else {
            p.threat
        };
        *s += w * threatened / 16;
        // One commander per colour: two for a partnership team, up to four for the
        // coalition of a paranoid search.
        let commanders = t.by_kind[c][3];
        for_each(commanders, |w| {
            if reached[o] & layout::bit(w) != 0 {
                *s -= p.commander_attacked;
            }
            *s += p.commander_guard * popcount(RING1[w] & own & !commanders) as i32;
        });
    }
    (score[to_move] - score[to_move ^ 1] + p.tempo, reached)
}

impl Evaluation {
    /// Free-for-all: for every player in play, the evaluation of his colours against all
    /// the other colours together from his view, exactly as [`crate::Paranoid`] evaluates
    /// the position for him as root (the others count as one army; the paranoid value is
    /// for the side to move, so it is the negative of this one when another player is to
    /// move); `None` for a player out of play.
    ///
    /// `t` follows `pos` (with any grouping: only the reach of each piece is read), so that
    /// one set of tracks serves all four players.
    pub(crate) fn every_player_on(&self, pos: &Position, t: &Tracks) -> [Option<i32>; 4] {
        let psqt = &self.tables.four;
        // By colour: the squares, and the squares reached, of each kind; material and
        // placement (the four-player tables are the same for both groups).
        let mut squares = [[0u128; 4]; 4];
        let mut reach = [[0u128; 4]; 4];
        let mut sums = [0i32; 4];
        for (sq, piece) in pos.board().pieces() {
            let w = layout::wide(sq);
            let c = piece.colour().index();
            let k = KIND_OF[t.masks[w] as usize] as usize;
            squares[c][k] |= layout::bit(w);
            reach[c][k] |= t.reach_at(w);
            sums[c] += psqt[0][k][w];
        }
        let in_play = pos.in_play();
        let mover = pos.mover();
        let mut out = [None; 4];
        for seat in in_play.iter() {
            let mut colour = [0u128; 2];
            let mut by_kind = [[0u128; 4]; 2];
            let mut reached = [[0u128; 4]; 2];
            let mut group_sums = [0i32; 2];
            for c in ploy_core::Seat::ALL {
                let g = usize::from(pos.controller(c) != seat);
                let i = c.index();
                for k in 0..4 {
                    colour[g] |= squares[i][k];
                    by_kind[g][k] |= squares[i][k];
                    reached[g][k] |= reach[i][k];
                }
                group_sums[g] += sums[i];
            }
            let to_move = usize::from(mover != seat);
            // For the group to move; the player's own view is the other way round when
            // another player moves.
            let sign = if to_move == 0 { 1 } else { -1 };
            out[seat.index()] = Some(
                sign * score_groups(
                    &self.params,
                    colour,
                    &by_kind,
                    &reached,
                    &t.masks,
                    group_sums,
                    to_move,
                ),
            );
        }
        out
    }
}

/// What the free-for-all evaluation counts for a commander captured (besides the colours
/// that pass to the captor): the victim is out of the game.
pub(crate) const ELIMINATION_VALUE: i32 = 500;

/// What the free-for-all evaluation counts a commander for as the attacker of a defended
/// piece: recapturing it would end its player's game.
const COMMANDER_AT_RISK: i32 = 1_000;

/// The capture the player to move is assumed to make at a leaf of a multi-player search
/// ([`Evaluation::best_capture`]): its victim and how the material each side holds
/// changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LeafCapture {
    /// The player whose piece is taken (index of his seat).
    pub(crate) victim: usize,
    /// The change for the player to move: his attacker lost if the piece was defended;
    /// the victim's material if that was his commander.
    pub(crate) mover: i32,
    /// The change for the victim (negative).
    pub(crate) loss: i32,
}

impl Evaluation {
    /// Free-for-all: the best capture of the player to move in `pos` by a static exchange
    /// of one step, or `None` if no capture gains: a piece not defended by its controller
    /// gains its material, a defended one its material less that of the cheapest attacker
    /// (a commander as attacker counts [`COMMANDER_AT_RISK`]); a commander gains
    /// everything its player controls (it passes to the captor) plus
    /// [`ELIMINATION_VALUE`]. `t` follows `pos`.
    pub(crate) fn best_capture(&self, pos: &Position, t: &Tracks) -> Option<LeafCapture> {
        let m = &self.params.material;
        let mut by_seat = [0u128; 4];
        let mut reach_by_seat = [0u128; 4];
        let mut held = [0i32; 4];
        for (sq, piece) in pos.board().pieces() {
            let w = layout::wide(sq);
            let s = pos.controller(piece.colour()).index();
            by_seat[s] |= layout::bit(w);
            reach_by_seat[s] |= t.reach_at(w);
            held[s] += m[KIND_OF[t.masks[w] as usize] as usize];
        }
        let me = pos.mover().index();
        let targets =
            reach_by_seat[me] & !by_seat[me] & (by_seat[0] | by_seat[1] | by_seat[2] | by_seat[3]);
        let mut best: Option<(i32, LeafCapture)> = None;
        for_each(targets, |w| {
            let b = layout::bit(w);
            let Some(victim) = (0..4).find(|&s| by_seat[s] & b != 0) else {
                return;
            };
            let kind = KIND_OF[t.masks[w] as usize] as usize;
            let (gain, mover, loss) = if kind == 3 {
                let v = held[victim] + ELIMINATION_VALUE;
                (v, held[victim], -v)
            } else {
                let x = m[kind];
                let risk = if reach_by_seat[victim] & b != 0 {
                    let mut a = i32::MAX;
                    for_each(by_seat[me], |f| {
                        if t.reach_at(f) & b != 0 {
                            let k = KIND_OF[t.masks[f] as usize] as usize;
                            a = a.min(if k == 3 { COMMANDER_AT_RISK } else { m[k] });
                        }
                    });
                    a
                } else {
                    0
                };
                (x - risk, -risk, -x)
            };
            if gain > 0 && best.is_none_or(|(g, _)| gain > g) {
                best = Some((
                    gain,
                    LeafCapture {
                        victim,
                        mover,
                        loss,
                    },
                ));
            }
        });
        best.map(|(_, c)| c)
    }
}

/// The evaluation for group `to_move` of two groups given their squares (`colour`, by kind
/// in `by_kind`), the squares their pieces of each kind reach, the direction masks by
/// square, and their material and placement sums: the same terms as [`evaluate`], from sets
/// gathered by the caller instead of [`Tracks::reached`].
#[inline]
fn score_groups(
    p: &EvalParams,
    colour: [u128; 2],
    by_kind: &[[u128; 4]; 2],
    reach: &[[u128; 4]; 2],
    masks: &[u8; 90],
    psqt: [i32; 2],
    to_move: usize,
) -> i32 {
    let reached = reach.map(|r| r[0] | r[1] | r[2] | r[3]);
    let mut score = [0i32; 2];
    for (c, s) in score.iter_mut().enumerate() {
        let o = c ^ 1;
        let own = colour[c];
        *s = psqt[c];
        for (w, set) in p.mobility.iter().zip(&reach[c][..3]) {
            *s += w * popcount(set & !own) as i32;
        }
        let mut threatened = 0;
        for_each(reached[c] & colour[o], |w| {
            threatened += p.material[KIND_OF[masks[w] as usize] as usize];
        });
        let w = if c == to_move {
            p.threat_to_move
        } else {
            p.threat
        };
        *s += w * threatened / 16;
        let commanders = by_kind[c][3];
        for_each(commanders, |w| {
            if reached[o] & layout::bit(w) != 0 {
                *s -= p.commander_attacked;
            }
            *s += p.commander_guard * popcount(RING1[w] & own & !commanders) as i32;
        });
    }
    score[to_move] - score[to_move ^ 1] + p.tempo
}

/// The same value as for a [`EvalPosition`](crate::EvalPosition), computed from scratch (slower). Two-player
/// and partnership positions (teams as sides); a free-for-all position is evaluated as if
/// seats 0 + 2 and 1 + 3 were teams, which is meaningless: search those as
/// [`crate::Paranoid`].
impl crate::Evaluator<Position> for Evaluation {
    fn evaluate(&self, pos: &Position) -> i32 {
        let psqt = self.tables.of(pos.variant());
        let t = Tracks::new(pos, &BY_PARITY, psqt);
        evaluate(&self.params, &t, t.psqt, pos.turn().index() & 1).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ploy_core::PieceKind;

    #[test]
    fn tables_hold_material_and_placement() {
        let p = EvalParams::default();
        let t = Tables::new(&p);
        let e5 = layout::WIDE[ploy_core::Square::new(4, 4).index()] as usize;
        let a1 = layout::WIDE[0] as usize;
        for k in PieceKind::ALL {
            let k = k.index();
            assert_eq!(t.two[0][k][a1], p.material[k]);
            assert_eq!(t.two[1][k][a1], p.material[k] + 8 * p.advance[k]);
            assert_eq!(t.four[1][k][e5], p.material[k] + 4 * p.centre[k]);
            assert_eq!(
                t.two[0][k][e5],
                p.material[k] + 4 * p.advance[k] + 4 * p.centre[k]
            );
        }
    }
}
