//! Ploy's playing strengths: what each [`Level`] does ([`LevelLimits`], one table for
//! two-player games and one for four-player games), and the choice among the lines a
//! weakened search found.

use ploy_core::{Move, Variant};
use ploy_search::{Level, LevelRng, Limits, Score, choose_within};

/// What a [`Level`] below 8 does in Ploy: how far it searches (within the caller's budget),
/// how many best lines it searches, and how it errs.
///
/// [`LevelLimits::of`] gives the table (level 8 searches as the caller asks and errs never).
/// A weakened search searches `lines` best lines (MultiPV) no deeper than `depth` and with
/// no more than `nodes` nodes, both also within the caller's [`Limits`]; then, with the
/// level's random numbers ([`LevelRng`], seeded by the engine's seed, the position and the
/// ply), it plays a *blunder* `blunder_per_mille` times in a thousand (a line other than the
/// best, uniformly among those not found lost), and otherwise one of the lines scored
/// within `margin` of the best ([`choose_within`]).
///
/// ```
/// use ploy_core::Variant;
/// use ploy_engine::{Level, LevelLimits};
///
/// let weakest = LevelLimits::of(Level::MIN, Variant::TwoPlayer);
/// assert_eq!(weakest.depth, Some(1));
/// assert!(weakest.lines > 1 && weakest.blunder_per_mille > 0);
/// let full = LevelLimits::of(Level::MAX, Variant::TwoPlayer);
/// assert_eq!((full.depth, full.nodes, full.lines, full.margin), (None, None, 1, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LevelLimits {
    /// Deepest iteration, if the level limits it.
    pub depth: Option<u32>,
    /// Most nodes (all lines together), if the level limits them.
    pub nodes: Option<u64>,
    /// Best lines searched, at least 1.
    pub lines: usize,
    /// How far below the best line's score (evaluation units) a line may be and still be
    /// chosen.
    pub margin: i32,
    /// How often, in a thousand moves, a line other than the best is played.
    pub blunder_per_mille: u32,
}

/// A row of the table.
const fn row(
    depth: Option<u32>,
    nodes: Option<u64>,
    lines: usize,
    margin: i32,
    blunder_per_mille: u32,
) -> LevelLimits {
    LevelLimits {
        depth,
        nodes,
        lines,
        margin,
        blunder_per_mille,
    }
}

/// Two-player Ploy, levels 1 to 7, calibrated by the matches in `docs/search-tuning.md`
/// ("Levels"); level 8 is [`FULL`].
const TWO_PLAYER: [LevelLimits; 7] = [
    row(Some(1), None, 12, 400, 400),
    row(Some(1), None, 8, 150, 200),
    row(Some(2), None, 6, 80, 150),
    row(Some(2), None, 2, 10, 10),
    row(Some(3), None, 3, 15, 30),
    row(Some(4), None, 1, 0, 0),
    row(None, Some(9_000), 1, 0, 0),
];

/// Level 8: the caller's budget, one line, no error.
const FULL: LevelLimits = row(None, None, 1, 0, 0);

impl LevelLimits {
    /// The limits of `level` in games of `variant`. Four-player games (partnership and
    /// free-for-all) use the two-player table with the margin doubled, since their scores
    /// add up two or more armies on each side.
    #[must_use]
    pub fn of(level: Level, variant: Variant) -> LevelLimits {
        if level.is_full() {
            return FULL;
        }
        let mut limits = TWO_PLAYER[usize::from(level.get() - 1)];
        if variant.is_four_player() {
            limits.margin *= 2;
        }
        limits
    }

    /// `caller`'s limits narrowed to this level's: the smaller depth and the smaller node
    /// count of the two; the time limits and the stop flag stay the caller's.
    ///
    /// ```
    /// use ploy_core::Variant;
    /// use ploy_engine::{Level, LevelLimits};
    /// use ploy_search::Limits;
    ///
    /// let three = LevelLimits::of(Level::new(3)?, Variant::TwoPlayer);
    /// let limits = three.limits(&Limits::depth(6).with_nodes(100));
    /// assert_eq!(limits.depth, three.depth);
    /// assert_eq!(limits.nodes, Some(100));
    /// # Ok::<(), ploy_engine::LevelError>(())
    /// ```
    #[must_use]
    pub fn limits(&self, caller: &Limits) -> Limits {
        fn smaller<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        let mut limits = caller.clone();
        limits.depth = smaller(caller.depth, self.depth);
        limits.nodes = smaller(caller.nodes, self.nodes);
        limits
    }
}

/// One line a weakened search found: its first move, score and principal variation.
pub(crate) struct Line {
    pub(crate) depth: u32,
    pub(crate) mv: Move,
    pub(crate) score: Score,
    pub(crate) pv: Vec<Move>,
}

/// The lines of the deepest iteration that searched them all (the deepest one if none
/// did), best first.
pub(crate) fn last_complete(lines: Vec<Line>) -> Vec<Line> {
    let mut by_depth: Vec<Vec<Line>> = Vec::new();
    for line in lines {
        match by_depth.last_mut() {
            Some(set) if set[0].depth == line.depth => set.push(line),
            _ => by_depth.push(vec![line]),
        }
    }
    let most = by_depth.iter().map(Vec::len).max().unwrap_or(0);
    match by_depth.iter().rposition(|set| set.len() == most) {
        Some(i) => by_depth.swap_remove(i),
        None => Vec::new(),
    }
}

/// The index of the line `limits` plays among `lines` (best first, not empty).
pub(crate) fn choose(lines: &[Line], limits: &LevelLimits, rng: &mut LevelRng) -> usize {
    let weaker: Vec<usize> = (1..lines.len())
        .filter(|&i| !lines[i].score.is_loss())
        .collect();
    if !weaker.is_empty() && rng.chance(limits.blunder_per_mille) {
        let pick = rng.below(weaker.len() as u64);
        return weaker[usize::try_from(pick).unwrap_or(0)];
    }
    let scored: Vec<(usize, i16)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (i, l.score.raw()))
        .collect();
    choose_within(&scored, i64::from(limits.margin), rng).unwrap_or(0)
}
