//! Ploy's evaluation: [`EvalParams`] (the weights), [`Evaluation`] (the weights with their
//! tables), and the sets of squares it keeps up to date move by move ([`tracks`]).
//!
//! The game adapters ([`crate::EvalPosition`], [`crate::Paranoid`]) own the tracked sets and
//! call into this module; nothing here knows about them.

pub(crate) mod layout;
pub(crate) mod tracks;

use layout::{KIND_OF, NARROW, RING1, for_each};
use ploy_core::{Position, Variant};

#[cfg(doc)]
use ploy_core::PieceKind;
use std::sync::{Arc, LazyLock};
use tracks::{BY_PARITY, Psqt, Tracks};

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
/// No term generates moves. The squares each piece reaches are kept up to date move by
/// move (see [`EvalPosition`](crate::EvalPosition)), so an evaluation only combines sets of squares (measured
/// speed: `docs/speed.md` in the repository).
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

/// Ploy's evaluation: [`EvalParams`] with its material and placement tables precomputed.
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

/// The evaluation of `t` for group `to_move` given its material and placement sums `psqt`,
/// and the squares each group reaches.
#[inline(always)]
fn evaluate(p: &EvalParams, t: &Tracks, psqt: [i32; 2], to_move: usize) -> (i32, [u128; 2]) {
    let by_kind = t.unions();
    let reached = by_kind.map(|r| r[0] | r[1] | r[2] | r[3]);
    let mut score = [0i32; 2];
    for (c, s) in score.iter_mut().enumerate() {
        let o = c ^ 1;
        let own = t.colour[c];
        *s = psqt[c];
        // The commander's mobility is not counted.
        for (w, r) in p.mobility.iter().zip(&by_kind[c]).take(3) {
            *s += w * (r & !own).count_ones() as i32;
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
            *s += p.commander_guard * (RING1[w] & own & !commanders).count_ones() as i32;
        });
    }
    (score[to_move] - score[to_move ^ 1] + p.tempo, reached)
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
