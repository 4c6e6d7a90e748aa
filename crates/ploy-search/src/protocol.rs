//! The text form of a search's progress, shared by the `analyze` and `engine` examples.

use core::fmt;

use crate::Info;

/// The info line of a completed iteration, as `analyze` and the engine protocol write it:
///
/// ```text
/// depth D score S nodes N nps R time MS pv M1 M2 ...
/// ```
///
/// The score is the [`Score`](crate::Score)'s `Display` (an integer, or `win N` / `loss N`),
/// the time in whole milliseconds, and the moves of the principal variation are written
/// with their `Debug` form (for Ploy's moves, the university move string `e3-e4-0`).
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
/// assert!(lines[0].contains(" pv "));
/// ```
impl<M: fmt::Debug> fmt::Display for Info<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {} score {} nodes {} nps {} time {} pv",
            self.depth,
            self.score,
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
