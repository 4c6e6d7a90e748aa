//! Building an [`Info`] outside this crate (it is `#[non_exhaustive]`, so a game crate
//! with a search of its own, such as a threat search, reports through these).

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
