//! The options of the 2018 Prolog program in its own spelling (`size(13)`,
//! `difficulty(4)`, `width([4,3,2])`, `flip(true)`, `rule(false)`, ...), and the settings
//! they build.
//!
//! | option | aliases | values |
//! |---|---|---|
//! | `board_size(S)` | `size(S)` | odd, 7 to 19 |
//! | `level(N)` | | 1 to 8 (not in the 2018 program) |
//! | `difficulty(D)` | | 1 to 5: level `D + 1` |
//! | `depth(D)` | | 0 to 20 plies |
//! | `padding(P)` | | 0 to 18 |
//! | `width([W0,W1,...])` | `width(W)` | 1 to 361 each, 1 to 32 entries |
//! | `flip_board(B)` | `flip(B)` | `true` or `false` |
//! | `tournament_rule(B)` | `rule(B)` | `true` or `false` |
//!
//! Reading ignores spaces around the name, the parentheses, the commas and the value, and
//! accepts a final `.` (as typed at a Prolog prompt) and names in any case; nothing else.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::engine::{Ladder, Strength, level_of_difficulty};
use crate::types::{Rules, Size};
use ploy_search::Level;

/// One option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedOption {
    /// `board_size(S)`, `size(S)`.
    Size(Size),
    /// `level(N)`: the bot's level, 1 to 8 (wins over every other strength option).
    Level(Level),
    /// `difficulty(D)`: the bot's level `D + 1` (see [`level_of_difficulty`]); with
    /// `depth`, `padding` or `width`, the old preset of the narrowed search
    /// ([`Ladder::difficulty`]).
    Difficulty(u32),
    /// `depth(D)`: plies of look-ahead.
    Depth(u32),
    /// `padding(P)`: how far around the stones candidate moves lie.
    Padding(u8),
    /// `width([W0,...])` or `width(W)`: moves kept per ply.
    Width(Vec<u16>),
    /// `flip_board(B)`, `flip(B)`: show the board turned for Black when Black is to move.
    Flip(bool),
    /// `tournament_rule(B)`, `rule(B)`.
    TournamentRule(bool),
}

/// An option that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// Not `name(value)`.
    #[error("expected name(value), such as size(13)")]
    Syntax,
    /// An unknown name.
    #[error("unknown option {0:?}")]
    Unknown(String),
    /// A value of the wrong form or out of range.
    #[error("bad value for {name}: {reason}")]
    Value {
        /// The option.
        name: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
}

fn number(s: &str, name: &'static str, max: u32, reason: &'static str) -> Result<u32, OptionError> {
    let s = s.trim();
    if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(OptionError::Value { name, reason });
    }
    let n: u32 = s.parse().map_err(|_| OptionError::Value { name, reason })?;
    if n > max {
        return Err(OptionError::Value { name, reason });
    }
    Ok(n)
}

fn boolean(s: &str, name: &'static str) -> Result<bool, OptionError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::Value {
            name,
            reason: "expected true or false",
        }),
    }
}

impl FromStr for SeedOption {
    type Err = OptionError;

    fn from_str(s: &str) -> Result<SeedOption, OptionError> {
        let s = s.trim();
        let s = s.strip_suffix('.').unwrap_or(s).trim_end();
        let (name, rest) = s.split_once('(').ok_or(OptionError::Syntax)?;
        let value = rest.strip_suffix(')').ok_or(OptionError::Syntax)?;
        let name = name.trim().to_ascii_lowercase();
        match name.as_str() {
            "board_size" | "size" => {
                let n = number(value, "size", 99, "expected an odd number from 7 to 19")?;
                Size::new(n)
                    .map(SeedOption::Size)
                    .map_err(|_| OptionError::Value {
                        name: "size",
                        reason: "expected an odd number from 7 to 19",
                    })
            }
            "level" => {
                value
                    .parse::<Level>()
                    .map(SeedOption::Level)
                    .map_err(|_| OptionError::Value {
                        name: "level",
                        reason: "expected a whole number from 1 to 8",
                    })
            }
            "difficulty" => {
                let d = number(value, "difficulty", 5, "expected 1 to 5")?;
                if d == 0 {
                    return Err(OptionError::Value {
                        name: "difficulty",
                        reason: "expected 1 to 5",
                    });
                }
                Ok(SeedOption::Difficulty(d))
            }
            "depth" => number(value, "depth", 20, "expected 0 to 20").map(SeedOption::Depth),
            "padding" => number(value, "padding", 18, "expected 0 to 18")
                .map(|p| SeedOption::Padding(p as u8)),
            "width" => {
                let v = value.trim();
                let list = match v.strip_prefix('[') {
                    Some(inner) => inner.strip_suffix(']').ok_or(OptionError::Value {
                        name: "width",
                        reason: "expected [W0,W1,...] or W",
                    })?,
                    None => v,
                };
                let mut widths = Vec::new();
                for part in list.split(',') {
                    let w = number(part, "width", 361, "widths are 1 to 361")?;
                    if w == 0 || widths.len() >= 32 {
                        return Err(OptionError::Value {
                            name: "width",
                            reason: "widths are 1 to 361, at most 32 of them",
                        });
                    }
                    widths.push(w as u16);
                }
                Ok(SeedOption::Width(widths))
            }
            "flip_board" | "flip" => boolean(value, "flip").map(SeedOption::Flip),
            "tournament_rule" | "rule" => {
                boolean(value, "tournament_rule").map(SeedOption::TournamentRule)
            }
            _ => Err(OptionError::Unknown(name.chars().take(24).collect())),
        }
    }
}

impl fmt::Display for SeedOption {
    /// The canonical spelling: `board_size(13)`, `width([4,3,2])`, `tournament_rule(false)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedOption::Size(s) => write!(f, "board_size({s})"),
            SeedOption::Level(l) => write!(f, "level({l})"),
            SeedOption::Difficulty(d) => write!(f, "difficulty({d})"),
            SeedOption::Depth(d) => write!(f, "depth({d})"),
            SeedOption::Padding(p) => write!(f, "padding({p})"),
            SeedOption::Width(w) => {
                f.write_str("width([")?;
                for (i, x) in w.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("])")
            }
            SeedOption::Flip(b) => write!(f, "flip_board({b})"),
            SeedOption::TournamentRule(b) => write!(f, "tournament_rule({b})"),
        }
    }
}

/// Game and bot settings built from options.
///
/// ```
/// use pente::options::{SeedOption, Settings};
/// use pente::{Level, Strength};
/// let mut s = Settings::default();
/// assert_eq!(s.strength(), Strength::Full); // no difficulty: full strength
/// s.apply(&"difficulty(4)".parse::<SeedOption>()?);
/// assert_eq!(s.strength(), Strength::Level(Level::new(5)?)); // difficulty D is level D + 1
/// s.apply(&"depth(3)".parse::<SeedOption>()?);
/// let Strength::Ladder(ladder) = s.strength() else { panic!() };
/// assert_eq!((ladder.depth, ladder.padding, ladder.width.clone()), (3, 2, vec![6, 4, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Settings {
    /// Board size and tournament rule.
    pub rules: Rules,
    /// The level, if given.
    pub level: Option<Level>,
    /// The difficulty, if given.
    pub difficulty: Option<u32>,
    /// An explicit depth.
    pub depth: Option<u32>,
    /// An explicit padding.
    pub padding: Option<u8>,
    /// Explicit widths.
    pub width: Option<Vec<u16>>,
    /// Turn the board for Black.
    pub flip: bool,
}

impl Settings {
    /// Applies one option.
    pub fn apply(&mut self, option: &SeedOption) {
        match option {
            SeedOption::Size(s) => self.rules.size = *s,
            SeedOption::Level(l) => self.level = Some(*l),
            SeedOption::Difficulty(d) => self.difficulty = Some(*d),
            SeedOption::Depth(d) => self.depth = Some(*d),
            SeedOption::Padding(p) => self.padding = Some(*p),
            SeedOption::Width(w) => self.width = Some(w.clone()),
            SeedOption::Flip(b) => self.flip = *b,
            SeedOption::TournamentRule(b) => self.rules.tournament_rule = *b,
        }
    }

    /// The bot's strength: the level if one is given; full strength when none of
    /// difficulty, depth, padding and width is given; level `D + 1` for difficulty `D` alone; with depth, padding or width, the
    /// narrowed search of the difficulty's old preset (3 if not given) with the explicit
    /// values in place of the preset's.
    #[must_use]
    pub fn strength(&self) -> Strength {
        if let Some(level) = self.level {
            return Strength::Level(level);
        }
        if self.depth.is_none() && self.padding.is_none() && self.width.is_none() {
            return match self.difficulty.map(level_of_difficulty) {
                Some(Ok(level)) => Strength::Level(level),
                _ => Strength::Full,
            };
        }
        let mut level = Ladder::difficulty(self.difficulty.unwrap_or(3))
            .unwrap_or_else(|_| Ladder::difficulty(3).expect("3 is a difficulty"));
        if let Some(d) = self.depth {
            level.depth = d;
        }
        if let Some(p) = self.padding {
            level.padding = p;
        }
        if let Some(w) = &self.width {
            level.width.clone_from(w);
        }
        Strength::Ladder(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        let cases = [
            ("size(13)", SeedOption::Size(Size::S13)),
            ("board_size( 9 ).", SeedOption::Size(Size::S9)),
            ("difficulty(4)", SeedOption::Difficulty(4)),
            ("level(1)", SeedOption::Level(Level::MIN)),
            ("LEVEL( 8 ).", SeedOption::Level(Level::MAX)),
            ("depth(0)", SeedOption::Depth(0)),
            ("padding(2)", SeedOption::Padding(2)),
            ("width([4,3,2])", SeedOption::Width(vec![4, 3, 2])),
            ("width([4, 3, 2])", SeedOption::Width(vec![4, 3, 2])),
            ("width(5)", SeedOption::Width(vec![5])),
            ("flip(true)", SeedOption::Flip(true)),
            ("FLIP_BOARD(false)", SeedOption::Flip(false)),
            ("rule(false)", SeedOption::TournamentRule(false)),
            ("tournament_rule(true)", SeedOption::TournamentRule(true)),
        ];
        for (text, want) in cases {
            let got: SeedOption = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(got, want, "{text}");
            assert_eq!(got.to_string().parse::<SeedOption>().unwrap(), want);
        }
        for bad in [
            "size(12)",
            "size(21)",
            "size()",
            "size",
            "size(13",
            "difficulty(0)",
            "difficulty(6)",
            "level(0)",
            "level(9)",
            "level(x)",
            "level(-1)",
            "width([])",
            "width([0])",
            "width([4,,2])",
            "flip(yes)",
            "colour(red)",
            "depth(-1)",
            "depth(99)",
        ] {
            assert!(bad.parse::<SeedOption>().is_err(), "{bad}");
        }
        let e = "level(9)".parse::<SeedOption>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value for level: expected a whole number from 1 to 8"
        );
    }

    #[test]
    fn difficulty_maps_onto_levels() {
        for d in 1..=5u32 {
            let mut s = Settings::default();
            s.apply(&SeedOption::Difficulty(d));
            let want = Level::new(d as u8 + 1).unwrap();
            assert_eq!(s.strength(), Strength::Level(want), "difficulty {d}");
            // An explicit level wins over the difficulty.
            s.apply(&SeedOption::Level(Level::MIN));
            assert_eq!(s.strength(), Strength::Level(Level::MIN));
        }
        // Depth, padding or width: the old preset, narrowed.
        let mut s = Settings::default();
        s.apply(&SeedOption::Difficulty(2));
        s.apply(&SeedOption::Padding(3));
        let mut want = Ladder::difficulty(2).unwrap();
        want.padding = 3;
        assert_eq!(s.strength(), Strength::Ladder(want));
        assert_eq!(Settings::default().strength(), Strength::Full);
    }
}
