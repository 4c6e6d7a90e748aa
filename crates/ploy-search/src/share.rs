//! The mover's expected share of the win, in percent, from a search score: what the engine
//! protocols print beside every score as `share P` (a game's [`crate::SearchGame::win_share`]
//! builds on these).

use crate::Score;

/// Evaluation units that multiply the odds by ten in the share model (see [`share_against`]).
pub const SHARE_SCALE: f64 = 400.0;

/// The side to move's expected share of the win in percent in a game of two sides, for a
/// score of the side to move: 100 for a forced win, 0 for a forced loss, otherwise
/// `100 / (1 + 10^(-score / 400))`.
///
/// ```
/// use ploy_search::{Score, two_sided_share};
/// assert_eq!(two_sided_share(Score::new(0)), 50.0);
/// assert!((two_sided_share(Score::new(100)) - 64.0).abs() < 0.1);
/// assert_eq!(two_sided_share(Score::win_in(3)), 100.0);
/// assert_eq!(two_sided_share(Score::loss_in(3)), 0.0);
/// ```
#[must_use]
pub fn two_sided_share(score: Score) -> f64 {
    if score.is_win() {
        100.0
    } else if score.is_loss() {
        0.0
    } else {
        share_against([f64::from(score.raw())])
    }
}

/// The mover's expected share of the win in percent against opponents over whom he has the
/// given advantages (in evaluation units): `100 / (1 + Σ 10^(-a / 400))`. No opponent
/// gives 100.
///
/// ```
/// use ploy_search::share_against;
/// // Three opponents, all level: a quarter each.
/// assert!((share_against([0.0, 0.0, 0.0]) - 25.0).abs() < 1e-9);
/// // Ahead of everybody: more than a fair share.
/// assert!(share_against([100.0, 50.0, 200.0]) > 25.0);
/// ```
#[must_use]
pub fn share_against(advantages: impl IntoIterator<Item = f64>) -> f64 {
    let odds: f64 = advantages
        .into_iter()
        .map(|a| 10f64.powf(-a / SHARE_SCALE))
        .sum();
    let share = 100.0 / (1.0 + odds);
    if share.is_nan() { 0.0 } else { share }
}
