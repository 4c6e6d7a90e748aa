//! The statistics of a match: the tally of results and its Elo difference with a 95 %
//! interval, the pentanomial count of game pairs, and the sequential probability ratio test
//! (SPRT) on it.
//!
//! # Elo
//!
//! Elo differences are logistic: a score fraction `s` (points per game, a draw counting one
//! half) is `-400 log10(1/s - 1)` Elo, and `elo` is worth the expected score
//! `1 / (1 + 10^(-elo/400))` ([`expected_score`]). The estimate of [`Tally::elo`] is the Elo
//! of the match score; its 95 % interval is the Elo of the ends of the Wilson score interval
//! of the games.
//!
//! # The SPRT on game pairs
//!
//! Games come in pairs, the same opening once with each colour; what A scores in a pair is
//! 0, ½, 1, 1½ or 2 points, and [`Pentanomial`] counts the pairs of each kind. A pair's
//! outcomes are far less spread than two independent games (an unbalanced opening tends to
//! give one win to each side), so a test on pairs needs fewer games than one on single
//! games.
//!
//! [`Sprt`] tests H0: "A is `elo0` stronger than B" against H1: "A is `elo1` stronger",
//! with false-positive rate `alpha` (accepting H1 when H0 holds) and false-negative rate
//! `beta`. It is the generalised SPRT: the log-likelihood ratio ([`Sprt::llr`]) compares
//! the most likely distribution of the five pair scores among those whose expected score per
//! game is that of `elo1` with the most likely among those whose expected score is that of
//! `elo0` ([`pentanomial_llr`]). The match goes on while the ratio stays between the bounds
//! `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)` (±2.94 for alpha = beta = 0.05),
//! and accepts H0 at or below the lower one, H1 at or above the upper one.
//!
//! Before the ratio is computed, a kind of pair not seen yet is counted as 0.001 pairs, so
//! that the ratio stays finite when every pair so far scored the same (the same small prior
//! as the chess engines' testing framework, fishtest, uses).

use std::fmt;

/// A game's result for player A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// A draw (including a game stopped by the ply cap).
    Draw,
    /// A lost.
    Loss,
}

impl GameResult {
    /// A's points in half points: 2 for a win, 1 for a draw, 0 for a loss.
    #[must_use]
    pub fn half_points(self) -> u32 {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }
}

/// The results so far, from A's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
}

/// An Elo difference with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Low end of the 95 % interval.
    pub low: f64,
    /// High end of the 95 % interval.
    pub high: f64,
}

/// The expected score per game (0 to 1) of a player `elo` Elo stronger than his opponent.
///
/// ```
/// use ploy::cli::matches::expected_score;
/// assert_eq!(expected_score(0.0), 0.5);
/// assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction (strictly between 0 and 1).
fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The 95 % Wilson score interval of a score fraction `p` over `n` games (a draw counts as
/// half a win); it stays inside 0..1 and is sensible for perfect scores.
pub(super) fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl Tally {
    /// Counts one result.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's points per game (0 to 1, a draw counting one half); `None` before any game.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Whether A won or lost every game.
    #[must_use]
    pub fn is_perfect(&self) -> bool {
        self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
    }

    /// The Elo difference of A over B with the 95 % Wilson interval of the score; `None`
    /// before any game. Every figure is finite: score fractions are kept a quarter game
    /// away from 0 and 1 before they are turned into Elo, so a perfect score gives a
    /// finite estimate and interval (to be read as "at least").
    ///
    /// ```
    /// use ploy::cli::matches::Tally;
    /// let even = Tally { wins: 5, draws: 10, losses: 5 }.elo().unwrap();
    /// assert!(even.elo == 0.0 && even.elo.is_sign_positive() && even.low < 0.0 && even.high > 0.0);
    /// let perfect = Tally { wins: 20, draws: 0, losses: 0 }.elo().unwrap();
    /// assert!(perfect.elo.is_finite() && perfect.low > 0.0 && perfect.high.is_finite());
    /// ```
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let margin = 0.25 / n;
        // Adding 0.0 turns the -0 of an even score into 0.
        let elo = |x: f64| elo_of(x.clamp(margin, 1.0 - margin)) + 0.0;
        let (low, high) = wilson(p, n);
        Some(Elo {
            elo: elo(p),
            low: elo(low),
            high: elo(high),
        })
    }
}

/// How many game pairs A scored 0, ½, 1, 1½ and 2 points in (index = half points).
///
/// ```
/// use ploy::cli::matches::{GameResult, Pentanomial};
/// let mut p = Pentanomial::default();
/// p.add(GameResult::Win, GameResult::Draw);
/// p.add(GameResult::Loss, GameResult::Win);
/// assert_eq!(p.counts, [0, 0, 1, 1, 0]);
/// assert_eq!(p.pairs(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by A's points in half points: `counts[3]` is the pairs scored 1½.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts the pair of games with these results.
    pub fn add(&mut self, first: GameResult, second: GameResult) {
        self.counts[(first.half_points() + second.half_points()) as usize] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
}

impl fmt::Display for Pentanomial {
    /// `[0, 3, 10, 4, 1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// H0: A is `elo0` stronger (or less).
    H0,
    /// H1: A is `elo1` stronger (or more).
    H1,
}

impl fmt::Display for Hypothesis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        })
    }
}

/// A sequential probability ratio test on game pairs (see the [module docs](self)).
///
/// ```
/// use ploy::cli::matches::{Hypothesis, Pentanomial, Sprt};
/// let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
/// assert!((sprt.upper_bound() - 2.944).abs() < 1e-3);
/// assert_eq!(sprt.lower_bound(), -sprt.upper_bound());
/// // 100 pairs that A won 1½ to ½ and 150 it lost ½ to 1½: H0 holds.
/// let p = Pentanomial { counts: [0, 150, 0, 100, 0] };
/// assert_eq!(sprt.verdict(sprt.llr(&p)), Some(Hypothesis::H0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (more than `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// A kind of pair not seen yet counts as this many pairs (see the [module docs](self)).
const UNSEEN_PAIRS: f64 = 1e-3;

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`.
    ///
    /// # Errors
    /// A message unless `elo0 < elo1` (both finite, between -2000 and 2000), and `alpha`
    /// and `beta` are strictly between 0 and 1 with `alpha + beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let elo_ok = |e: f64| e.is_finite() && e.abs() <= 2000.0;
        if !elo_ok(elo0) || !elo_ok(elo1) || elo0 >= elo1 {
            return Err(format!(
                "the SPRT needs elo0 < elo1, both between -2000 and 2000 (got {elo0} and {elo1})"
            ));
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !rate_ok(alpha) || !rate_ok(beta) || alpha + beta >= 1.0 {
            return Err(format!(
                "the SPRT needs alpha and beta between 0 and 1 with alpha + beta < 1 \
                 (got {alpha} and {beta})"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bound at or below which H0 is accepted: `ln(beta / (1 - alpha))`.
    #[must_use]
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The bound at or above which H1 is accepted: `ln((1 - beta) / alpha)`.
    #[must_use]
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for these pairs (0 before any pair); a
    /// kind of pair not seen yet counts as 0.001 pairs.
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs
            .counts
            .map(|n| if n == 0 { UNSEEN_PAIRS } else { f64::from(n) });
        // With every kind of pair present, both expected scores (strictly between 0 and 1)
        // lie strictly inside the support, so the ratio exists.
        pentanomial_llr(counts, expected_score(self.elo0), expected_score(self.elo1)).unwrap_or(0.0)
    }

    /// The hypothesis that `llr` accepts, or `None` while it lies between the bounds.
    #[must_use]
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper_bound() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower_bound() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

impl fmt::Display for Sprt {
    /// `elo0 0 elo1 10 alpha 0.05 beta 0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0 {} elo1 {} alpha {} beta {}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// The generalised log-likelihood ratio of pair counts for an expected score per game of
/// `s1` against one of `s0`.
///
/// `counts[i]` is the number (or weight) of pairs with `i` half points, whose score per
/// game is `a_i = i / 4`. Under a hypothesis "the expected score per game is `s`", the most
/// likely distribution of the five kinds is `p_i = q_i / (1 + t (a_i - s))`, where `q_i`
/// is the observed share of kind `i` and `t` the one root of
/// `sum q_i (a_i - s) / (1 + t (a_i - s)) = 0` (a Lagrange multiplier; the sum falls as `t`
/// grows, so bisection finds it). The ratio is `sum counts_i ln(p1_i / p0_i)`.
///
/// `None` when there are no pairs, or when `s0` or `s1` is not strictly between the lowest
/// and the highest score per game seen (no distribution on the kinds seen has that mean: the
/// ratio would be infinite).
///
/// ```
/// use ploy::cli::matches::pentanomial_llr;
/// // Only pairs of 1½ and ½ points: the likeliest distribution with mean s is then
/// // (1½ points with chance 2s - ½), so the ratio has a closed form.
/// let llr = pentanomial_llr([0.0, 40.0, 0.0, 60.0, 0.0], 0.5, 0.55).unwrap();
/// let q1: f64 = 2.0 * 0.55 - 0.5;
/// assert!((llr - (60.0 * (q1 / 0.5).ln() + 40.0 * ((1.0 - q1) / 0.5).ln())).abs() < 1e-9);
/// assert_eq!(pentanomial_llr([0.0, 0.0, 5.0, 0.0, 0.0], 0.5, 0.55), None);
/// ```
#[must_use]
pub fn pentanomial_llr(counts: [f64; 5], s0: f64, s1: f64) -> Option<f64> {
    let n: f64 = counts.iter().sum();
    if n.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || counts.iter().any(|&c| c < 0.0) {
        return None;
    }
    let shares = counts.map(|c| c / n);
    let t0 = tilt(&shares, s0)?;
    let t1 = tilt(&shares, s1)?;
    let mut llr = 0.0;
    for (i, &c) in counts.iter().enumerate() {
        if c > 0.0 {
            let a = i as f64 / 4.0;
            llr += c * ((1.0 + t0 * (a - s0)).ln() - (1.0 + t1 * (a - s1)).ln());
        }
    }
    Some(llr)
}

/// The multiplier `t` of [`pentanomial_llr`] for the shares `q` and the mean `s`.
fn tilt(q: &[f64; 5], s: f64) -> Option<f64> {
    let seen = || (0..5).filter(|&i| q[i] > 0.0).map(|i| i as f64 / 4.0);
    let low = seen().fold(f64::INFINITY, f64::min);
    let high = seen().fold(f64::NEG_INFINITY, f64::max);
    if !(low < s && s < high) {
        return None;
    }
    // Every 1 + t (a - s) of a kind seen stays positive for t strictly between these ends.
    let (mut lo, mut hi) = (-1.0 / (high - s), 1.0 / (s - low));
    let slope = |t: f64| -> f64 {
        (0..5)
            .filter(|&i| q[i] > 0.0)
            .map(|i| {
                let d = i as f64 / 4.0 - s;
                q[i] * d / (1.0 + t * d)
            })
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if slope(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_finite_and_ordered() {
        for (w, d, l) in [
            (1, 0, 0),
            (0, 0, 1),
            (0, 1, 0),
            (20, 0, 0),
            (3, 4, 5),
            (0, 0, 200),
        ] {
            let t = Tally {
                wins: w,
                draws: d,
                losses: l,
            };
            let e = t.elo().unwrap();
            assert!(e.elo.is_finite() && e.low.is_finite() && e.high.is_finite());
            assert!(e.low <= e.elo && e.elo <= e.high, "{t:?} {e:?}");
        }
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(Tally::default().score(), None);
    }

    #[test]
    fn elo_of_a_score_by_hand() {
        // 75 % is 400 log10(3) = 190.85 Elo; 3 wins 2 draws 5 losses score 40 %.
        let t = Tally {
            wins: 15,
            draws: 0,
            losses: 5,
        };
        assert!((t.elo().unwrap().elo - 190.848_501_887_864_9).abs() < 1e-9);
        let t = Tally {
            wins: 3,
            draws: 2,
            losses: 5,
        };
        assert!((t.score().unwrap() - 0.4).abs() < 1e-12);
        assert!((expected_score(t.elo().unwrap().elo) - 0.4).abs() < 1e-12);
    }

    #[test]
    fn sprt_bounds_by_hand() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // ln(0.95 / 0.05) = ln 19.
        assert!((s.upper_bound() - 19f64.ln()).abs() < 1e-12);
        assert!((s.lower_bound() + 19f64.ln()).abs() < 1e-12);
        let s = Sprt::new(-5.0, 5.0, 0.1, 0.2).unwrap();
        assert!((s.lower_bound() - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!((s.upper_bound() - 8f64.ln()).abs() < 1e-12);
        for (e0, e1, a, b) in [
            (10.0, 0.0, 0.05, 0.05),
            (0.0, 0.0, 0.05, 0.05),
            (0.0, 10.0, 0.0, 0.05),
            (0.0, 10.0, 0.5, 0.5),
            (f64::NAN, 10.0, 0.05, 0.05),
            (0.0, 1e9, 0.05, 0.05),
        ] {
            assert!(Sprt::new(e0, e1, a, b).is_err(), "{e0} {e1} {a} {b}");
        }
    }

    /// Pairs of only two kinds: the likeliest distribution with mean `s` on them is fixed by
    /// the mean alone, so the ratio has a closed form, worked out by hand.
    #[test]
    fn llr_of_two_kinds_by_hand() {
        // 60 pairs of 1½ points (score ¾), 40 of ½ (score ¼). With elo0 = 0 (s0 = ½) and
        // elo1 = 10 (s1 = 0.514387...), a pair scores ¾ with chance q = 2s - ½:
        // q0 = ½, q1 = 0.528774...; LLR = 60 ln(q1/q0) + 40 ln((1-q1)/(1-q0)) = 0.98638.
        let s1 = expected_score(10.0);
        assert!((s1 - 0.514_387_184_165_998_7).abs() < 1e-12);
        let llr = pentanomial_llr([0.0, 40.0, 0.0, 60.0, 0.0], 0.5, s1).unwrap();
        assert!((llr - 0.986_380_213_962_200_4).abs() < 1e-9, "{llr}");
        // Wins and losses only (2 or 0 points): a Bernoulli trial on pairs.
        let llr = pentanomial_llr([7.0, 0.0, 0.0, 0.0, 13.0], 0.5, 0.6).unwrap();
        let by_hand = 13.0 * (0.6f64 / 0.5).ln() + 7.0 * (0.4f64 / 0.5).ln();
        assert!((llr - by_hand).abs() < 1e-9, "{llr} {by_hand}");
        // Swapping the hypotheses changes the sign.
        let back = pentanomial_llr([7.0, 0.0, 0.0, 0.0, 13.0], 0.6, 0.5).unwrap();
        assert!((llr + back).abs() < 1e-12);
    }

    /// A mean the kinds seen cannot reach: no ratio (it would be infinite).
    #[test]
    fn llr_outside_the_support() {
        assert_eq!(pentanomial_llr([0.0; 5], 0.5, 0.6), None);
        assert_eq!(pentanomial_llr([0.0, 0.0, 3.0, 4.0, 0.0], 0.5, 0.6), None);
        assert!(pentanomial_llr([0.0, 1.0, 3.0, 4.0, 0.0], 0.5, 0.6).is_some());
        // The test itself never sees that: unseen kinds count 0.001 pairs.
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let all_wins = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        let llr = s.llr(&all_wins);
        assert!(llr.is_finite() && llr > 0.0, "{llr}");
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    }

    /// The multiplier found another way: the profile log-likelihood `sum q ln(1 + t(a - s))`
    /// is concave in `t` and its maximum is the root the code finds by bisection, so a
    /// golden-section search for the maximum (no derivative) must give the same ratio.
    fn llr_by_golden_section(counts: [f64; 5], s0: f64, s1: f64) -> f64 {
        let n: f64 = counts.iter().sum();
        let profile = |s: f64, t: f64| -> f64 {
            (0..5)
                .filter(|&i| counts[i] > 0.0)
                .map(|i| counts[i] / n * (1.0 + t * (i as f64 / 4.0 - s)).ln())
                .sum()
        };
        let best = |s: f64| -> f64 {
            let (low, high) = (
                (0..5)
                    .filter(|&i| counts[i] > 0.0)
                    .map(|i| i as f64 / 4.0)
                    .fold(1.0, f64::min),
                (0..5)
                    .filter(|&i| counts[i] > 0.0)
                    .map(|i| i as f64 / 4.0)
                    .fold(0.0, f64::max),
            );
            let (mut a, mut b) = (-1.0 / (high - s) + 1e-12, 1.0 / (s - low) - 1e-12);
            let g = (5f64.sqrt() - 1.0) / 2.0;
            for _ in 0..300 {
                let c = b - g * (b - a);
                let d = a + g * (b - a);
                if profile(s, c) > profile(s, d) {
                    b = d;
                } else {
                    a = c;
                }
            }
            profile(s, 0.5 * (a + b))
        };
        // ln p_h = ln q - ln(1 + t_h (a - s_h)): the ratio is n (max_0 - max_1).
        n * (best(s0) - best(s1))
    }

    #[test]
    fn llr_agrees_with_a_second_computation() {
        for (counts, e0, e1) in [
            ([1.0, 3.0, 6.0, 5.0, 2.0], 0.0, 10.0),
            ([10.0, 31.0, 62.0, 40.0, 9.0], -5.0, 5.0),
            ([0.0, 12.0, 40.0, 30.0, 4.0], 0.0, 20.0),
            ([3.0, 0.0, 1.0, 0.0, 3.0], 10.0, 30.0),
            ([0.001, 0.001, 0.001, 0.001, 25.0], 0.0, 10.0),
        ] {
            let (s0, s1) = (expected_score(e0), expected_score(e1));
            let llr = pentanomial_llr(counts, s0, s1).unwrap();
            let other = llr_by_golden_section(counts, s0, s1);
            assert!(
                (llr - other).abs() < 1e-7 * (1.0 + llr.abs()),
                "{counts:?}: {llr} against {other}"
            );
        }
    }

    /// Worked out by hand, outside this code, for pairs [1, 3, 6, 5, 2] with elo0 = 0 and
    /// elo1 = 10: the shares q = (1, 3, 6, 5, 2) / 17, mean score 9.5 / 17 = 0.5588; under
    /// s0 = ½ the multiplier is t0 = 0.78977, under s1 = 0.51439 it is t1 = 0.60774 (60
    /// bisection steps each), and the ratio 0.171073 (a direct search of the most likely
    /// distributions under each mean, with no multiplier, gives the same to 12 digits). The
    /// usual approximation n (s1 - s0)(2m - s0 - s1) / (2 var), with the mean m and variance
    /// var of a pair's score per game, gives 0.1802: near, not equal.
    #[test]
    fn llr_of_a_small_sample_by_hand() {
        let counts = [1.0, 3.0, 6.0, 5.0, 2.0];
        let (s0, s1) = (0.5, expected_score(10.0));
        let llr = pentanomial_llr(counts, s0, s1).unwrap();
        assert!((llr - 0.171_073_164_616).abs() < 1e-9, "{llr}");
        let n = 17.0;
        let m: f64 = (0..5).map(|i| counts[i] * i as f64 / 4.0).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| counts[i] * (i as f64 / 4.0 - m).powi(2))
            .sum::<f64>()
            / n;
        let approx = n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var);
        assert!((approx - 0.180_218).abs() < 1e-6, "{approx}");
        assert!((llr - approx).abs() < 0.1 * llr, "{llr} {approx}");
    }

    #[test]
    fn more_wins_raise_the_ratio() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let mut p = Pentanomial {
            counts: [5, 20, 40, 20, 5],
        };
        let mut last = s.llr(&p);
        assert!(last < 0.0, "an even match favours H0 a little: {last}");
        for _ in 0..20 {
            p.counts[3] += 1;
            let now = s.llr(&p);
            assert!(now > last);
            last = now;
        }
    }
}
