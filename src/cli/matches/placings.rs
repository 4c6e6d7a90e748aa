//! The statistics of a match for three or four players: the candidate A plays one seat,
//! the baseline B all the others, and A's seat turns game by game. What counts is where A
//! finishes among the `n` players.
//!
//! # Placings
//!
//! A finished game ranks its players by their scores ([`placings`]): players with equal
//! scores share their places. **First-place share**: a player alone at the top scores 1, `k`
//! players sharing the top score `1/k` each, the others 0; the shares of a game add up to 1,
//! so a player no better than the others expects `1/n` a game (the *fair share*). **Rank**:
//! 1 for the top, `n` for the bottom; tied players take the average of the places they
//! share (two tied for first rank 1.5 each); the ranks of a game add up to `n(n+1)/2`, and
//! a player no better than the others expects `(n+1)/2`.
//!
//! # Intervals (95 %)
//!
//! - The **first-place share** (A's mean share per game) comes with the Wilson score
//!   interval of that mean over the number of games, as a proportion of successes. With
//!   whole first places (no ties) this is the usual interval for a binomial proportion; a
//!   shared first place is a value between 0 and 1 whose variance is smaller than that of a
//!   win or loss with the same mean, so the interval is then somewhat wider than it needs to
//!   be (conservative), never narrower.
//! - The **mean rank** comes with Student's t interval over the per-game ranks: the mean
//!   plus or minus `t(0.975, g − 1) · s / √g`, `s` the sample standard deviation of the
//!   ranks over `g` games (`t` from the tables for 1 to 4 degrees of freedom, from the
//!   Cornish–Fisher expansion, within 0.001 of the tables, from 5 on). Ranks are bounded, so for tens of games the
//!   normal approximation behind it holds well; the interval is cut to 1 to `n`, where
//!   the mean rank lies. With fewer than two games, or ranks all equal, there is no spread
//!   to estimate and the interval is the mean alone.

/// Where a player finished in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placing {
    /// First-place share: 1 alone at the top, `1/k` for `k` tied at the top, else 0.
    pub share: f64,
    /// Rank, 1 (top) to `n`; tied players take the average of the places they share.
    pub rank: f64,
}

/// The placings of a game's players from their scores (higher is better), by seat.
///
/// ```
/// use ploy::cli::matches::placings::placings;
/// let p = placings(&[5, 9, 9, 2]);
/// assert_eq!(p.iter().map(|p| p.share).collect::<Vec<_>>(), [0.0, 0.5, 0.5, 0.0]);
/// assert_eq!(p.iter().map(|p| p.rank).collect::<Vec<_>>(), [3.0, 1.5, 1.5, 4.0]);
/// ```
#[must_use]
pub fn placings(scores: &[i64]) -> Vec<Placing> {
    let best = scores.iter().copied().max().unwrap_or(0);
    let at_top = scores.iter().filter(|&&s| s == best).count();
    scores
        .iter()
        .map(|&s| {
            let above = scores.iter().filter(|&&o| o > s).count();
            let tied = scores.iter().filter(|&&o| o == s).count();
            Placing {
                share: if s == best { 1.0 / at_top as f64 } else { 0.0 },
                // Places above + 1 to above + tied, averaged.
                rank: above as f64 + (tied as f64 + 1.0) / 2.0,
            }
        })
        .collect()
}

/// A mean with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Low end of the 95 % interval.
    pub low: f64,
    /// High end of the 95 % interval.
    pub high: f64,
}

/// Running sums of a per-game value: count, sum, sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sums {
    /// Games counted.
    pub games: u32,
    /// The sum of the values.
    pub sum: f64,
    /// The sum of their squares.
    pub squares: f64,
}

impl Sums {
    /// Counts a value.
    pub fn add(&mut self, value: f64) {
        self.games += 1;
        self.sum += value;
        self.squares += value * value;
    }

    /// The mean, if anything was counted.
    #[must_use]
    pub fn mean(&self) -> Option<f64> {
        (self.games > 0).then(|| self.sum / f64::from(self.games))
    }

    /// The mean as a proportion with its Wilson score interval (for values 0 to 1).
    #[must_use]
    pub fn wilson(&self) -> Option<Estimate> {
        let mean = self.mean()?;
        let (low, high) = super::stats::wilson(mean.clamp(0.0, 1.0), f64::from(self.games));
        Some(Estimate { mean, low, high })
    }

    /// The mean with Student's t interval over the values, kept within `bounds` (the
    /// values' range: the true mean cannot lie outside it).
    #[must_use]
    pub fn t_interval(&self, bounds: (f64, f64)) -> Option<Estimate> {
        let mean = self.mean()?;
        if self.games < 2 {
            return Some(Estimate {
                mean,
                low: mean,
                high: mean,
            });
        }
        let g = f64::from(self.games);
        let variance = ((self.squares - g * mean * mean) / (g - 1.0)).max(0.0);
        let half = t_975(g - 1.0) * (variance / g).sqrt();
        Some(Estimate {
            mean,
            low: (mean - half).max(bounds.0),
            high: (mean + half).min(bounds.1),
        })
    }
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom (whole numbers from 1;
/// the tables' values to 4, then the Cornish–Fisher expansion around the normal quantile
/// 1.96).
#[must_use]
pub fn t_975(df: f64) -> f64 {
    if df < 4.5 {
        return [12.706, 4.303, 3.182, 2.776][(df.round().max(1.0) as usize - 1).min(3)];
    }
    let z = 1.959_963_984_540_054_f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * df)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * df.powi(2))
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * df.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * df.powi(4))
}

/// A's placings over the games of a match, in all and by seat.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacingTally {
    /// A's first-place shares.
    pub share: Sums,
    /// A's ranks.
    pub rank: Sums,
    /// The same by A's seat (index 0 is the seat that moves first).
    pub seats: Vec<(Sums, Sums)>,
    /// The B players' first-place shares, added over their seats, per game.
    pub b_share: Sums,
}

impl PlacingTally {
    /// Nothing counted yet, for `players` seats.
    #[must_use]
    pub fn new(players: usize) -> PlacingTally {
        PlacingTally {
            share: Sums::default(),
            rank: Sums::default(),
            seats: vec![(Sums::default(), Sums::default()); players],
            b_share: Sums::default(),
        }
    }

    /// Counts a game: every seat's placing, A in `a_seat`.
    pub fn add(&mut self, a_seat: usize, placings: &[Placing]) {
        let a = placings[a_seat];
        self.share.add(a.share);
        self.rank.add(a.rank);
        if let Some((share, rank)) = self.seats.get_mut(a_seat) {
            share.add(a.share);
            rank.add(a.rank);
        }
        let b: f64 = placings
            .iter()
            .enumerate()
            .filter(|&(seat, _)| seat != a_seat)
            .map(|(_, p)| p.share)
            .sum();
        self.b_share.add(b);
    }

    /// A's mean rank with its t interval, within 1 to `n`.
    #[must_use]
    pub fn rank_estimate(&self) -> Option<Estimate> {
        self.rank.t_interval((1.0, self.seats.len().max(1) as f64))
    }

    /// The fair first-place share, `1/n`.
    #[must_use]
    pub fn fair_share(&self) -> f64 {
        1.0 / self.seats.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_small_case() {
        let p = placings(&[10, 20, 30]);
        assert_eq!(
            p,
            [
                Placing {
                    share: 0.0,
                    rank: 3.0
                },
                Placing {
                    share: 0.0,
                    rank: 2.0
                },
                Placing {
                    share: 1.0,
                    rank: 1.0
                },
            ]
        );
        // Three games of a three-player match, A in seats 0, 1, 2: first, last, second.
        let mut t = PlacingTally::new(3);
        t.add(0, &placings(&[30, 20, 10]));
        t.add(1, &placings(&[30, 10, 20]));
        t.add(2, &placings(&[30, 10, 20]));
        assert_eq!(t.share.mean(), Some(1.0 / 3.0));
        assert_eq!(t.rank.mean(), Some(2.0));
        assert_eq!(t.b_share.mean(), Some(2.0 / 3.0));
        assert_eq!(t.seats[1].1.mean(), Some(3.0));
        // Ranks 1, 3, 2: standard deviation 1; t(0.975, 2) = 4.303.
        let r = t
            .rank
            .t_interval((f64::NEG_INFINITY, f64::INFINITY))
            .unwrap();
        let half = 4.303 / 3f64.sqrt();
        assert!((r.low - (2.0 - half)).abs() < 0.01, "{r:?}");
        assert!((r.high - (2.0 + half)).abs() < 0.01, "{r:?}");
        // Cut to the ranks' range, 1 to 3.
        let r = t.rank_estimate().unwrap();
        assert_eq!((r.low, r.high), (1.0, 3.0));
        assert!((t.fair_share() - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn shared_first_places() {
        // All equal: each has 1/n and the middle rank.
        let p = placings(&[4, 4, 4, 4]);
        assert!(p.iter().all(|p| p.share == 0.25 && p.rank == 2.5));
        // Two of four share the top; the other two share the bottom.
        let p = placings(&[7, 1, 7, 1]);
        assert_eq!(p.iter().map(|p| p.share).sum::<f64>(), 1.0);
        assert_eq!(
            p.iter().map(|p| p.rank).collect::<Vec<_>>(),
            [1.5, 3.5, 1.5, 3.5]
        );
        // In every case the shares add to 1 and the ranks to n(n+1)/2.
        for scores in [[1, 2, 3, 4], [3, 3, 1, 0], [0, 0, 0, 9], [5, 5, 5, 2]] {
            let p = placings(&scores);
            assert!((p.iter().map(|p| p.share).sum::<f64>() - 1.0).abs() < 1e-12);
            assert!((p.iter().map(|p| p.rank).sum::<f64>() - 10.0).abs() < 1e-12);
        }
    }

    #[test]
    fn t_quantiles() {
        // Tables: t(0.975) for 3, 5, 6, 10, 30 and 120 degrees of freedom.
        for (df, t) in [
            (3.0, 3.182),
            (5.0, 2.571),
            (6.0, 2.447),
            (10.0, 2.228),
            (30.0, 2.042),
            (120.0, 1.980),
        ] {
            assert!((t_975(df) - t).abs() < 0.001, "{df}: {}", t_975(df));
        }
    }

    /// Simulated matches: 2,000 matches of 60 games, A first with chance 0.35 and a rank
    /// drawn from 1 to 4: both intervals hold the true value about 95 % of the time.
    #[test]
    fn the_intervals_cover_the_true_values() {
        let mut rng = 12345u64;
        let mut next = || (ploy_search::splitmix64(&mut rng) >> 11) as f64 / (1u64 << 53) as f64;
        let (mut share_in, mut rank_in) = (0, 0);
        let matches = 2000;
        // Rank 1 with 0.35, then 2, 3, 4 with 0.25, 0.2, 0.2: the mean rank is 2.25.
        let true_rank = 0.35 + 2.0 * 0.25 + 3.0 * 0.2 + 4.0 * 0.2;
        for _ in 0..matches {
            let mut t = PlacingTally::new(4);
            for g in 0..60 {
                let u = next();
                let a_rank = if u < 0.35 {
                    1
                } else if u < 0.6 {
                    2
                } else if u < 0.8 {
                    3
                } else {
                    4
                };
                // Scores that put A at that rank, the others in order.
                let mut scores = [0i64; 4];
                let a_seat = g % 4;
                let mut others = (1..=4).filter(|&r| r != a_rank);
                for (seat, s) in scores.iter_mut().enumerate() {
                    let r = if seat == a_seat {
                        a_rank
                    } else {
                        others.next().unwrap()
                    };
                    *s = 10 - r;
                }
                t.add(a_seat, &placings(&scores));
            }
            let s = t.share.wilson().unwrap();
            share_in += i32::from(s.low <= 0.35 && 0.35 <= s.high);
            let r = t.rank.t_interval((1.0, 4.0)).unwrap();
            rank_in += i32::from(r.low <= true_rank && true_rank <= r.high);
        }
        let share_cover = f64::from(share_in) / f64::from(matches);
        let rank_cover = f64::from(rank_in) / f64::from(matches);
        assert!((0.93..=0.97).contains(&share_cover), "{share_cover}");
        assert!((0.93..=0.97).contains(&rank_cover), "{rank_cover}");
    }
}
