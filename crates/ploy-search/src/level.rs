//! Playing strength: [`Level`] 1 (weakest) to 8 (full strength), and the seeded choice
//! ([`LevelRng`], [`choose_within`]) by which a weaker level picks among good moves.
//!
//! What each level does is the game's business (its engine's table of depth, node and
//! error limits); this module holds what the three games share: the type, its text form,
//! its error, and a random choice that replays the same moves for the same game and seed.
//!
//! ```
//! use ploy_search::{Level, LevelRng, choose_within};
//!
//! let level: Level = "3".parse()?;
//! assert_eq!(level.get(), 3);
//! assert!(!level.is_full());
//! assert_eq!(Level::default(), Level::MAX);
//! assert!("9".parse::<Level>().is_err());
//!
//! // Lines a search found, best first: (move, score).
//! let lines = [('a', 120), ('b', 100), ('c', -300)];
//! let mut rng = LevelRng::new(7, 0xFEED, 12);
//! let m = choose_within(&lines, 50, &mut rng);
//! assert!(m == Some('a') || m == Some('b'));
//! // The same seed, position and ply choose the same move.
//! assert_eq!(m, choose_within(&lines, 50, &mut LevelRng::new(7, 0xFEED, 12)));
//! # Ok::<(), ploy_search::LevelError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::rng::splitmix64;

/// A bot's playing strength, 1 (weakest) to 8 (full strength at the caller's budget).
///
/// Text form: the number (`"5"`); [`FromStr`] accepts surrounding spaces and refuses
/// anything outside 1 to 8 with a [`LevelError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Level(u8);

/// A level outside 1 to 8, or text that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a level: a level is a whole number from 1 to 8")]
pub struct LevelError {
    text: String,
}

impl Level {
    /// The weakest level, 1.
    pub const MIN: Level = Level(1);
    /// Full strength, 8.
    pub const MAX: Level = Level(8);

    /// The level `n`.
    ///
    /// # Errors
    /// `n` is outside 1 to 8.
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (1..=8).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError {
                text: n.to_string(),
            })
        }
    }

    /// The number, 1 to 8.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Whether this is full strength (level 8).
    #[must_use]
    pub const fn is_full(self) -> bool {
        self.0 == 8
    }

    /// The eight levels, weakest first.
    pub fn all() -> impl DoubleEndedIterator<Item = Level> + ExactSizeIterator {
        (1..=8u8).map(Level)
    }
}

impl Default for Level {
    /// Full strength.
    fn default() -> Level {
        Level::MAX
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        let t = s.trim();
        match t.parse::<u8>() {
            Ok(n) if (1..=8).contains(&n) && t.bytes().all(|b| b.is_ascii_digit()) => Ok(Level(n)),
            _ => Err(LevelError {
                text: crate::text::excerpt(t, 20),
            }),
        }
    }
}

impl TryFrom<u8> for Level {
    type Error = LevelError;

    fn try_from(n: u8) -> Result<Level, LevelError> {
        Level::new(n)
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

/// The random numbers of a weakened level: seeded by the caller's seed, the position (its
/// hash) and the ply, so that a level replays the same moves for the same game and seed,
/// whatever happened in other games or earlier searches.
#[derive(Clone, Debug)]
pub struct LevelRng(u64);

impl LevelRng {
    /// The generator for the move at `ply` of a game in the position hashed `position`,
    /// under `seed`.
    #[must_use]
    pub fn new(seed: u64, position: u64, ply: u64) -> LevelRng {
        let mut s = seed ^ 0x6C65_7665_6C73_2121;
        let a = splitmix64(&mut s);
        let mut t = a ^ position;
        let b = splitmix64(&mut t);
        let mut u = b ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        LevelRng(splitmix64(&mut u))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Multiply-shift: uniform enough for choosing moves, and the same on every platform.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < u64::from(per_mille)
    }
}

/// A move chosen at random, uniformly, among `lines` whose score is within `margin` of the
/// best one (`lines` is `(move, score)`, in any order; scores on one scale, higher better
/// for the side to move). `None` when `lines` is empty. With a margin of 0 (or below) it is
/// one of the best-scored moves.
pub fn choose_within<M: Copy, S: Copy + Into<i64>>(
    lines: &[(M, S)],
    margin: i64,
    rng: &mut LevelRng,
) -> Option<M> {
    let best = lines.iter().map(|&(_, s)| s.into()).max()?;
    let floor = best.saturating_sub(margin.max(0));
    let near = lines.iter().filter(|&&(_, s)| s.into() >= floor).count() as u64;
    let pick = rng.below(near);
    lines
        .iter()
        .filter(|&&(_, s)| s.into() >= floor)
        .nth(usize::try_from(pick).unwrap_or(0))
        .map(|&(m, _)| m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_refuses_outside() {
        for level in Level::all() {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        for bad in ["0", "9", "-1", "+3", "", "x", "3.5", "256"] {
            let e = bad.parse::<Level>().unwrap_err();
            assert!(e.to_string().contains("1 to 8"), "{bad}: {e}");
        }
        assert_eq!(" 4 ".parse::<Level>(), Ok(Level::new(4).unwrap()));
        assert!(Level::new(0).is_err() && Level::new(9).is_err());
    }

    #[test]
    fn choice_stays_within_the_margin_and_replays() {
        let lines = [(0u8, 10i32), (1, 5), (2, -40), (3, 9)];
        let mut seen = [false; 4];
        for seed in 0..200 {
            let m = choose_within(&lines, 5, &mut LevelRng::new(seed, 1, 2)).unwrap();
            assert!(m != 2);
            seen[usize::from(m)] = true;
            let again = choose_within(&lines, 5, &mut LevelRng::new(seed, 1, 2)).unwrap();
            assert_eq!(m, again);
        }
        assert!(
            seen[0] && seen[1] && seen[3],
            "every move within the margin is chosen"
        );
        assert_eq!(
            choose_within(&lines, 0, &mut LevelRng::new(1, 1, 1)),
            Some(0)
        );
        assert_eq!(
            choose_within::<u8, i32>(&[], 5, &mut LevelRng::new(1, 1, 1)),
            None
        );
    }

    #[test]
    fn below_is_in_range() {
        let mut r = LevelRng::new(3, 4, 5);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
        assert_eq!(r.below(0), 0);
    }
}
