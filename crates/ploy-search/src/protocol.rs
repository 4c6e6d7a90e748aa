//! The text form of a search's progress, shared by the `analyze` and `engine` examples.

use core::fmt;

use crate::Info;

/// The info line of a completed iteration, as `analyze` and the engine protocol write it:
///
/// ```text
/// depth D score S [view V] share P [multipv K] nodes N nps R time MS pv M1 M2 ...
/// ```
///
/// - `score S`: the [`Score`](crate::Score)'s `Display` (an integer, or `win N` / `loss N`
///   for a forced result `N` plies away), for the side to move;
/// - `view V`: whose view the score takes, the side to move ([`crate::SearchGame::view`]:
///   for Ploy the mover's colour, `green`, `red`, `yellow` or `blue`, or in partnership
///   games his team, `green+yellow` or `red+blue`); left out if the game names no side;
/// - `share P`: the side to move's expected share of the win in whole percent
///   ([`crate::SearchGame::win_share`]); 100 and 0 only for a forced win or loss, other
///   scores stay within 1..=99;
/// - `multipv K`: only when several lines are searched, which one this is (1 = the best);
/// - `time` in whole milliseconds; the moves of the principal variation are written with
///   their `Debug` form (for Ploy's moves, the university move string `e3-e4-0`).
///
/// ```
/// use ploy_core::Position;
/// use ploy_search::{Config, EvalPosition, Evaluation, Limits, Searcher};
///
/// let mut searcher = Searcher::new(Config::default(), Evaluation::default());
/// let mut lines = Vec::new();
/// searcher.search(&EvalPosition::new(Position::new()), &[], &Limits::depth(1), |info| {
///     lines.push(info.to_string());
/// });
/// assert!(lines[0].starts_with("depth 1 score "));
/// assert!(lines[0].contains(" view green share "));
/// assert!(lines[0].contains(" pv "));
/// ```
impl<M: fmt::Debug> fmt::Display for Info<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {} score {}", self.depth, self.score)?;
        if let Some(view) = self.view {
            write!(f, " view {view}")?;
        }
        write!(f, " share {}", share_percent(self.score, self.share))?;
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        write!(
            f,
            " nodes {} nps {} time {} pv",
            self.nodes,
            self.nps,
            self.time.as_millis()
        )?;
        for mv in self.pv {
            write!(f, " {mv:?}")?;
        }
        Ok(())
    }
}

/// The share in whole percent: 0 and 100 only for decided scores.
fn share_percent(score: crate::Score, share: f64) -> u32 {
    if score.is_win() {
        100
    } else if score.is_loss() {
        0
    } else {
        share.round().clamp(1.0, 99.0) as u32
    }
}
