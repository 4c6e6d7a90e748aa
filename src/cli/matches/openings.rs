//! The openings of a match: lines read from an openings file, or random legal plies.
//!
//! # The openings file
//!
//! One opening a line; blank lines and lines starting with `#` are skipped. An opening is
//! a start position, optionally followed by ` | ` and moves, or the moves alone:
//!
//! ```text
//! # the standard start, then two moves
//! start | e3-e4-0 e7-e6-0
//! # moves alone are played from the two-player start
//! c2-c4-0 g8-g6-0 d1-d1-1
//! # a position string (two-player: the board and the side to move), with or without moves
//! ,,,,w170,,,,/,,,,,,,,/,,,,w1,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b16,,,,/,,,,,,,,/,,,,b170,,,, b
//! # the four-player starts, and four-player position strings
//! partnership | b3-c4-0
//! ffa
//! ```
//!
//! The position is a position string of any variant (see the notation guide) or one of
//! the words `start` (the two-player start), `ffa` and `partnership` (the four-player
//! starts). Moves are university move strings (`e3-e4-0`) or Tensi's algebraic notation,
//! separated by white space; they are played under the match's rules and must be legal and
//! leave the game undecided. A line without `|` that does not read as a position is read as
//! moves from the two-player start. The file is at most 16 MiB.
//!
//! Pair `k` (counting from 0) plays opening `k` of the file, from the top again when the
//! file has fewer openings than the match has pairs. With `--opening-plies N` as well, `N`
//! random legal plies follow each opening of the file.
//!
//! # Random openings
//!
//! Without a file, each pair's opening is `--opening-plies` random legal plies from the
//! two-player start, drawn by a generator seeded with the match's seed and the pair's
//! number: the same seed gives the same openings on every run and machine. A random ply
//! that would end the game is not played (the opening is then shorter).

use std::fmt;

use ploy_core::{Game, Move, Position, Rules, Variant};
use ploy_engine::random_line;
use ploy_notation::{PositionString, UniversityMove, read_algebraic, read_position};
use ploy_search::splitmix64;

use crate::cli::excerpt;

/// One opening: where the game starts and the moves played before the players take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// The moves played from it (legal, and the game is still undecided after them).
    pub moves: Vec<Move>,
    /// Where it came from: `random`, or the file's line number (`line 12`).
    pub source: String,
}

impl Opening {
    /// The game after the opening.
    ///
    /// # Panics
    /// Never for an opening built by this module (its moves were checked).
    #[must_use]
    pub fn game(&self) -> Game {
        Game::replay(self.start.clone(), self.moves.iter().copied())
            .expect("an opening's moves were checked when it was built")
    }

    /// The opening as a line of an openings file: `<position> | <moves>`.
    #[must_use]
    pub fn to_line(&self) -> String {
        let standard = self.start == Position::start(self.start.variant(), self.start.rules());
        let pos = match self.start.variant() {
            Variant::TwoPlayer if standard => "start".to_owned(),
            Variant::FreeForAll if standard => "ffa".to_owned(),
            Variant::Partnership if standard => "partnership".to_owned(),
            _ => PositionString::from_position(&self.start).to_string(),
        };
        if self.moves.is_empty() {
            pos
        } else {
            format!("{pos} | {}", moves_text(&self.moves))
        }
    }
}

/// Moves as university strings separated by spaces.
pub(crate) fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| UniversityMove::from(m).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where the games' openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// `plies` random plies from the two-player start, seeded by `seed` and the pair's
    /// number.
    Random {
        /// The match's seed.
        seed: u64,
        /// Plies per opening.
        plies: u32,
    },
    /// The openings of a file, in order (from the top again when they run out), each
    /// followed by `plies` random plies seeded by `seed` and the pair's number.
    List {
        /// The openings (at least one).
        openings: Vec<Opening>,
        /// The match's seed.
        seed: u64,
        /// Random plies after each opening.
        plies: u32,
    },
}

impl Openings {
    /// The opening of pair `pair` under `rules`.
    #[must_use]
    pub fn opening(&self, rules: Rules, pair: u32) -> Opening {
        let (base, seed, plies) = match self {
            Openings::Random { seed, plies } => (
                Opening {
                    start: Position::start(Variant::TwoPlayer, rules),
                    moves: Vec::new(),
                    source: "random".to_owned(),
                },
                *seed,
                *plies,
            ),
            Openings::List {
                openings,
                seed,
                plies,
            } => {
                let mut o = openings[pair as usize % openings.len().max(1)].clone();
                o.start = o.start.with_rules(rules).unwrap_or(o.start);
                (o, *seed, *plies)
            }
        };
        if plies == 0 {
            return base;
        }
        let pair_seed = seed.wrapping_mul(1000).wrapping_add(u64::from(pair));
        let mut game = base.game();
        let extra = if base.moves.is_empty() && base.start.variant() == Variant::TwoPlayer {
            // The generator the match always used for its random openings, so that a seed
            // keeps giving the same openings.
            random_line(game.position(), pair_seed, plies, false)
        } else {
            let mut state = pair_seed;
            let mut line = Vec::new();
            let mut pos = game.position().clone();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(splitmix64(&mut state) >> 8) as usize % moves.len()];
                pos.make_move(mv);
                line.push(mv);
            }
            line
        };
        let mut moves = base.moves.clone();
        for mv in extra {
            let mut next = game.clone();
            if next.play(mv).is_err() || next.outcome().is_some() {
                break;
            }
            game = next;
            moves.push(mv);
        }
        let source = if base.source == "random" {
            base.source
        } else {
            format!("{} + {plies} random plies", base.source)
        };
        Opening {
            start: base.start,
            moves,
            source,
        }
    }
}

/// A line of an openings file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsError {
    /// Its line number, counting from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for OpeningsError {}

/// Reads an openings file (see the [module docs](self)) under `rules`.
///
/// # Errors
/// The first line that is not a position, a position with moves, or moves from the
/// start; or a move that is not legal or ends the game; or a file with no opening.
///
/// ```
/// use ploy::cli::matches::read_openings;
/// use ploy_core::Rules;
/// let list = read_openings("# two openings\nstart | e3-e4-0\n\nc2-c4-0 g8-g6-0\n", Rules::standard())?;
/// assert_eq!(list.len(), 2);
/// assert_eq!(list[1].moves.len(), 2);
/// assert_eq!(list[1].source, "line 4");
/// let err = read_openings("start | e3-e5-0\n", Rules::standard()).unwrap_err();
/// assert_eq!(err.line, 1);
/// # Ok::<(), ploy::cli::matches::OpeningsError>(())
/// ```
pub fn read_openings(text: &str, rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |message: String| OpeningsError {
            line: i + 1,
            message,
        };
        let (start, moves) = match line.split_once('|') {
            Some((pos, moves)) => (
                read_position(pos.trim(), rules)
                    .map_err(|e| at(format!("`{}`: {e}", excerpt(pos.trim(), 60))))?,
                moves,
            ),
            None => match read_position(line, rules) {
                Ok(pos) => (pos, ""),
                Err(pos_err) => {
                    let start = Position::start(Variant::TwoPlayer, rules);
                    // Not a position: moves from the start, if the first word is a move.
                    let first = line.split_whitespace().next().unwrap_or_default();
                    if read_algebraic(&start, first).is_err() && !looks_like_move(first) {
                        return Err(at(format!(
                            "`{}` is neither a position nor moves from the start: {pos_err}",
                            excerpt(line, 60)
                        )));
                    }
                    (start, line)
                }
            },
        };
        let mut game = Game::from_position(start.clone());
        if let Some(o) = game.outcome() {
            return Err(at(format!(
                "the game is already over ({})",
                ploy_sheet::ResultText(Some(o))
            )));
        }
        let mut played = Vec::new();
        for (n, word) in moves.split_whitespace().enumerate() {
            let mv = read_algebraic(game.position(), word)
                .map_err(|e| at(format!("move {} `{}`: {e}", n + 1, excerpt(word, 40))))?;
            game.play(mv)
                .map_err(|e| at(format!("move {} `{}`: {e}", n + 1, excerpt(word, 40))))?;
            if let Some(o) = game.outcome() {
                return Err(at(format!(
                    "move {} `{}` ends the game ({})",
                    n + 1,
                    excerpt(word, 40),
                    ploy_sheet::ResultText(Some(o))
                )));
            }
            played.push(mv);
        }
        list.push(Opening {
            start,
            moves: played,
            source: format!("line {}", i + 1),
        });
    }
    if list.is_empty() {
        return Err(OpeningsError {
            line: text.lines().count().max(1),
            message: "no opening in the file".to_owned(),
        });
    }
    Ok(list)
}

/// Whether `word` is shaped like a move (a square first), so that an illegal first move
/// is reported as such rather than as "not a position".
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 3
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && (b'1'..=b'9').contains(&b[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_of_line() {
        let rules = Rules::standard();
        let text = "\
# comment

start
start | e3-e4-0 e7-e6-0
  c2-c4-0   g8-g6-0
e3-e4 e7-e6
ffa | b3-c4-0
partnership
";
        let list = read_openings(text, rules).unwrap();
        assert_eq!(list.len(), 6);
        assert_eq!(list[0].moves, []);
        assert_eq!(list[0].start, Position::start(Variant::TwoPlayer, rules));
        assert_eq!(list[1].moves.len(), 2);
        assert_eq!(list[2].moves.len(), 2);
        assert_eq!(list[2].source, "line 5");
        // Algebraic moves read as the university ones.
        assert_eq!(list[3].moves, list[1].moves);
        assert_eq!(list[4].start.variant(), Variant::FreeForAll);
        assert_eq!(list[4].moves.len(), 1);
        assert_eq!(list[5].start.variant(), Variant::Partnership);
        // Each writes a line that reads back as itself.
        for o in &list {
            let back = read_openings(&o.to_line(), rules).unwrap();
            assert_eq!(back[0].start, o.start);
            assert_eq!(back[0].moves, o.moves);
        }
        // A position string, with and without moves.
        let pos = PositionString::from_position(&list[1].game().position().clone()).to_string();
        let list2 = read_openings(&format!("{pos}\n{pos} | c2-c4-0\n"), rules).unwrap();
        assert_eq!(&list2[0].start, list[1].game().position());
        assert_eq!(list2[1].moves.len(), 1);
    }

    #[test]
    fn bad_lines_say_where_and_why() {
        let rules = Rules::standard();
        for (text, line, words) in [
            ("start\nnonsense here\n", 2, "neither a position nor moves"),
            ("start | e3-e5-0\n", 1, "move 1 `e3-e5-0`"),
            ("e3-e4-0 e3-e4-0\n", 1, "move 2 `e3-e4-0`"),
            ("start | zz\n", 1, "move 1 `zz`"),
            ("bogus | e3-e4-0\n", 1, "`bogus`"),
            ("# only a comment\n", 1, "no opening"),
            ("", 1, "no opening"),
        ] {
            let err = read_openings(text, rules).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
            assert!(err.to_string().contains(words), "{text:?}: {err}");
        }
        let long = format!("start | {}\n", "x".repeat(100_000));
        assert!(read_openings(&long, rules).unwrap_err().to_string().len() < 300);
    }

    /// Generated files of pieces of lines (words, moves legal and not, pipes, comments,
    /// position strings, control characters and bytes that are not ASCII): the reader
    /// never panics, and every opening it accepts replays from its start, is undecided,
    /// and writes a line that reads back as itself.
    #[test]
    fn generated_files_never_panic_and_what_is_read_replays() {
        let rules = Rules::standard();
        let board = PositionString::from_position(&Position::new()).to_string();
        let pieces = [
            "start",
            "ffa",
            "partnership",
            "|",
            " | ",
            "#",
            "\n",
            "\n",
            " ",
            "\t",
            "e3-e4-0",
            "e7-e6-0",
            "c2-c4-0",
            "g8-g6-0",
            "e3-e4",
            "E3E4",
            "b3-c4-0",
            "e3-e5-0",
            "z9-z9-9",
            "d1-d1-1",
            "moves",
            "fen",
            "\u{0}",
            "é",
            "\r\n",
            "-",
            "w",
            "b",
            &board,
        ];
        let mut state = 99;
        let mut accepted = 0;
        for _ in 0..3000 {
            let n = splitmix64(&mut state) % 12;
            let mut text = String::new();
            for _ in 0..n {
                text.push_str(pieces[(splitmix64(&mut state) % pieces.len() as u64) as usize]);
                if splitmix64(&mut state) % 2 == 0 {
                    text.push(' ');
                }
            }
            let Ok(list) = read_openings(&text, rules) else {
                continue;
            };
            for o in list {
                accepted += 1;
                let game = o.game();
                assert!(game.outcome().is_none(), "{text:?}");
                let back = read_openings(&o.to_line(), rules).unwrap();
                assert_eq!((&back[0].start, &back[0].moves), (&o.start, &o.moves));
            }
        }
        assert!(accepted > 100, "{accepted}");
    }

    #[test]
    fn random_openings_are_legal_seeded_and_as_before() {
        let rules = Rules::standard();
        let random = Openings::Random { seed: 7, plies: 4 };
        for pair in 0..20 {
            let o = random.opening(rules, pair);
            assert_eq!(o.moves.len(), 4);
            assert!(o.game().outcome().is_none());
            assert_eq!(o, random.opening(rules, pair));
            // The generator the match used before openings files existed.
            assert_eq!(
                o.moves,
                random_line(&Position::new(), 7000 + u64::from(pair), 4, false)
            );
        }
        assert_ne!(random.opening(rules, 0), random.opening(rules, 1));
    }

    #[test]
    fn file_openings_cycle_and_take_random_plies() {
        let rules = Rules::standard();
        let list = read_openings("start | e3-e4-0\nffa\n", rules).unwrap();
        let plain = Openings::List {
            openings: list.clone(),
            seed: 1,
            plies: 0,
        };
        assert_eq!(plain.opening(rules, 0), list[0]);
        assert_eq!(plain.opening(rules, 3), list[1]);
        let more = Openings::List {
            openings: list,
            seed: 1,
            plies: 3,
        };
        let o = more.opening(rules, 1);
        assert_eq!(o.moves.len(), 3);
        assert_eq!(o.start.variant(), Variant::FreeForAll);
        assert_eq!(o.source, "line 2 + 3 random plies");
        assert!(o.game().outcome().is_none());
        let o = more.opening(rules, 0);
        assert_eq!(o.moves.len(), 4);
        // The file's rules do not matter: the match's do.
        let uni = more.opening(Rules::university(), 0);
        assert_eq!(uni.start.rules(), Rules::university());
    }
}
