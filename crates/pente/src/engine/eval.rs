//! The evaluation: threat classes of the empty points for both players, captures made and
//! threatened, from the incrementally kept counts of [`SearchPosition`].

use ploy_search::Evaluator;

use super::patterns::CLASSES;
use super::state::SearchPosition;

/// The weights of the evaluation (units: a hundredth of the first captured pair's worth; a
/// won game is far above every evaluation). The defaults are fitted to the results of the
/// engine's own games by the `pente_tune` example (`cargo run --release -p pente
/// --example pente_tune -- DIR`, which says how).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EvalParams {
    /// Per empty point where the player to move would make a threat, by class (none, two,
    /// open two or three, two of those, open three, open three and three, two open threes,
    /// four, four and open three, open four or two fours, five).
    pub attack: [i32; CLASSES],
    /// The same for the opponent's points.
    pub defend: [i32; CLASSES],
    /// The worth of the stones captured so far, by count (0 to 10 and more).
    pub captured: [i32; 11],
    /// Share (percent) of the worth of the best capture the player to move could make now.
    pub capture_now: i32,
    /// Share (percent) of the worth of a capture the opponent threatens, per point beyond
    /// the first (the first can be defended).
    pub capture_threatened: i32,
    /// Per point where the opponent could capture (tempo).
    pub capture_point: i32,
    /// The value of a position where the player to move can win at once.
    pub win_now: i32,
    /// The value of a position where the opponent threatens to win at once (the search
    /// looks at the defences; this keeps the static value from standing in for them).
    pub must_defend: i32,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            attack: [0, 7, 4, 17, 94, 139, 165, 268, 548, 2179, 0],
            defend: [0, 0, 2, 16, 64, 84, 143, 235, 367, 385, 0],
            captured: [0, 0, 100, 100, 236, 236, 388, 388, 572, 572, 2000],
            capture_now: 423,
            capture_threatened: 31,
            capture_point: 244,
            win_now: 20_000,
            must_defend: 12_000,
        }
    }
}

/// The evaluation of [`SearchPosition`]s (an [`Evaluator`] for ploy-search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// The weights.
    pub params: EvalParams,
}

impl Evaluation {
    /// An evaluation with `params`.
    #[must_use]
    pub fn new(params: EvalParams) -> Evaluation {
        Evaluation { params }
    }

    fn captured(&self, n: u8) -> i32 {
        self.params.captured[usize::from(n.min(10))]
    }

    /// The value of `g` for the player to move.
    #[must_use]
    pub fn value(&self, g: &SearchPosition) -> i32 {
        self.value_of(&EvalTerms::of(g))
    }

    /// The value of a position that shows `t` (what [`Evaluation::value`] computes from
    /// the position; a tuner computes it for many weights from terms read once).
    #[must_use]
    pub fn value_of(&self, t: &EvalTerms) -> i32 {
        let p = &self.params;
        if t.win_now {
            return p.win_now;
        }
        if t.must_defend {
            return -p.must_defend;
        }
        let [mine, theirs] = t.captured;
        let mut v = self.captured(mine) - self.captured(theirs);
        for cl in 1..CLASSES {
            v += i32::from(t.attack[cl]) * p.attack[cl] - i32::from(t.defend[cl]) * p.defend[cl];
        }
        if t.best_pairs > 0 {
            v += (self.captured(mine + 2 * t.best_pairs) - self.captured(mine)) * p.capture_now
                / 100;
        }
        let points = t.threatened_points;
        if points > 0 {
            let loss = self.captured(theirs + 2) - self.captured(theirs);
            v -= loss * p.capture_threatened * i32::from(points - 1) / 100;
            v -= p.capture_point * i32::from(points);
        }
        v
    }
}

/// What the evaluation reads of a position, from the side of the player to move: the
/// counts the search keeps incrementally. [`Evaluation::value_of`] turns them into a value;
/// the tuner (`cargo run --release -p pente --example pente_tune`) reads them once per position
/// and weighs them many times.
///
/// ```
/// use pente::{EvalTerms, Evaluation, Position, Rules, SearchPosition, Size};
/// let moves = ["K10".parse()?, "L11".parse()?, "K13".parse()?];
/// let pos = Position::from_moves(Rules::new(Size::S19), &moves).map_err(|(_, e)| e)?;
/// let g = SearchPosition::new(pos);
/// let terms = EvalTerms::of(&g);
/// assert_eq!(terms.captured, [0, 0]);
/// assert!(!terms.win_now && !terms.must_defend);
/// let eval = Evaluation::default();
/// assert_eq!(eval.value_of(&terms), eval.value(&g));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalTerms {
    /// The player to move can win with one stone (a five or the tenth captured stone).
    pub win_now: bool,
    /// The opponent could win with one stone.
    pub must_defend: bool,
    /// Stones captured so far: by the player to move, by the opponent.
    pub captured: [u8; 2],
    /// Empty points per threat class for the player to move (index 0 unused; the classes
    /// of [`EvalParams::attack`]).
    pub attack: [u16; CLASSES],
    /// The same for the opponent.
    pub defend: [u16; CLASSES],
    /// The most pairs the player to move could capture with one stone.
    pub best_pairs: u8,
    /// Empty points where the opponent could capture.
    pub threatened_points: u16,
}

impl EvalTerms {
    /// The terms of `g`.
    #[must_use]
    pub fn of(g: &SearchPosition) -> EvalTerms {
        let me = g.mover();
        let them = me.other();
        let win_now = g.can_win_at_once(me);
        let must_defend = !win_now && g.can_win_at_once(them);
        if win_now || must_defend {
            return EvalTerms {
                win_now,
                must_defend,
                ..EvalTerms::default()
            };
        }
        let pos = g.position();
        EvalTerms {
            win_now,
            must_defend,
            captured: [pos.captures(me), pos.captures(them)],
            attack: *g.classes(me),
            defend: *g.classes(them),
            best_pairs: g.max_pairs(me),
            threatened_points: g.capture_points(them)[1..].iter().sum(),
        }
    }
}

impl Evaluator<SearchPosition> for Evaluation {
    #[inline]
    fn evaluate(&self, g: &SearchPosition) -> i32 {
        self.value(g)
    }
}
