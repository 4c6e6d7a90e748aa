//! Building an [`Info`] outside this crate (it is `#[non_exhaustive]`, so a game crate
//! with a search of its own, such as a threat search, reports through these), and its text
//! form, shared by every game's `analyze` program and engine protocol.

use core::fmt;
use std::time::Duration;

use crate::{Info, Score};

impl<'a, M: Copy> Info<'a, M> {
    /// Progress of an iteration of `depth` plies with `score` for the side to move, its
    /// principal variation `pv` (the best move is its first), after `nodes` nodes in
    /// `time`. The view is unnamed, the share is the two-sided share of the score
    /// ([`two_sided_share`](crate::two_sided_share); set another with
    /// [`Info::with_share`]), one line is searched and no table is reported.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ploy_search::{Info, Score};
    /// let pv = [7u8, 3];
    /// let info = Info::new(3, Score::win_in(3), &pv, 1_000, Duration::from_millis(10));
    /// assert_eq!(info.best_move, Some(7));
    /// assert_eq!(info.nps, 100_000);
    /// assert_eq!(info.share, 100.0);
    /// ```
    #[must_use]
    pub fn new(depth: u32, score: Score, pv: &'a [M], nodes: u64, time: Duration) -> Self {
        Info {
            depth,
            score,
            view: None,
            share: crate::two_sided_share(score),
            multipv: None,
            best_move: pv.first().copied(),
            pv,
            nodes,
            nps: crate::nps(nodes, time),
            time,
            table_fill: 0,
        }
    }

    /// The same with the side to move's expected share of the win, in percent.
    #[must_use]
    pub fn with_share(mut self, share: f64) -> Self {
        self.share = share;
        self
    }

    /// The same with the name of whose view the score takes.
    #[must_use]
    pub fn with_view(mut self, view: &'static str) -> Self {
        self.view = Some(view);
        self
    }

    /// The same with the permille of the table written.
    #[must_use]
    pub fn with_table_fill(mut self, permille: u32) -> Self {
        self.table_fill = permille;
        self
    }
}

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
/// use std::time::Duration;
/// use ploy_search::{Info, Score};
///
/// let pv = [7u8, 3];
/// let info = Info::new(2, Score::new(35), &pv, 1_000, Duration::from_millis(10));
/// let line = info.to_string();
/// assert!(line.starts_with("depth 2 score 35 share "));
/// assert!(line.ends_with(" time 10 pv 7 3"));
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
