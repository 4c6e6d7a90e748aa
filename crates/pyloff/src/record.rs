//! Games (a position with its moves, undo and history) and game records.
//!
//! # The record format
//!
//! ```text
//! pyloff size=6 players=2 rules=default
//! 1 c3
//! 2 swap
//! 1 e5
//! 2 pass
//! result ongoing
//! ```
//!
//! - The **header** line: `pyloff` and the options `size=N` (2 to 13), `players=K` (2 to 4)
//!   and `rules=R` (`default`, `all_freedoms`, `cut_down`), each exactly once, in any order.
//! - One **move** a line: the player's number and the move (a cell, `swap` or `pass`), in
//!   the order played from the empty board. Passes are recorded like any other move.
//! - The **result** line, last: `result ongoing` (the game goes on), `result over W` (the
//!   game ended by the rules: `W` is the winners' numbers separated by spaces, or `draw`),
//!   or `result capped W` (the game was stopped at a move cap and decided by the score).
//!   Without a result line a record reads as `ongoing`.
//!
//! Blank lines and lines starting with `#` are ignored anywhere; fields are separated by
//! any ASCII whitespace; moves read case-insensitively. [`Record::replay`] checks that each
//! move is its player's and legal, and that the result is the replayed game's.

use core::fmt;
use core::str::FromStr;

use crate::error::{IllegalMove, OptionsError, ParseMoveError, RecordError};
use crate::position::{Position, Undo};
use crate::types::{Move, Options, Outcome, Player, Players, RuleSet};

/// A game: the position after the moves played from the empty board, the moves with their
/// players, and what undo and the repetition check need.
///
/// ```
/// use pyloff::{Game, Options};
/// let mut game = Game::from_moves(Options::default(), "c3 swap e5").unwrap();
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(game.position().to_move().number(), 2);
/// game.undo();
/// assert_eq!(game.moves().len(), 2);
/// assert!(Game::from_moves(Options::default(), "c3 c3").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    pos: Position,
    moves: Vec<(Player, Move)>,
    undos: Vec<Undo>,
    hashes: Vec<u64>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.pos == other.pos && self.moves == other.moves
    }
}

impl Eq for Game {}

/// A move of a move list that cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveListError {
    /// The move's text is malformed.
    #[error("move {number} `{text}`: {error}")]
    Parse {
        /// The move's number in the list, from 1.
        number: usize,
        /// Its text (cut short if long).
        text: String,
        /// Why.
        error: ParseMoveError,
    },
    /// The move is not legal.
    #[error("move {number} `{text}` by player {}: {}", .error.player, .error.reason)]
    Illegal {
        /// The move's number in the list, from 1.
        number: usize,
        /// Its text (cut short if long).
        text: String,
        /// Why.
        error: IllegalMove,
    },
}

impl Game {
    /// A game on the empty board.
    #[must_use]
    pub fn new(options: Options) -> Game {
        Game {
            pos: Position::new(options),
            moves: Vec::new(),
            undos: Vec::new(),
            hashes: Vec::new(),
        }
    }

    /// The game of `moves` played from the empty board: moves separated by whitespace
    /// (cells, `swap`, `pass`; case-insensitive).
    ///
    /// # Errors
    ///
    /// [`MoveListError`] naming the first move that cannot be read or is illegal.
    pub fn from_moves(options: Options, moves: &str) -> Result<Game, MoveListError> {
        let mut game = Game::new(options);
        for (n, text) in moves.split_ascii_whitespace().enumerate() {
            game.play_text(n + 1, text)?;
        }
        Ok(game)
    }

    fn play_text(&mut self, number: usize, text: &str) -> Result<Move, MoveListError> {
        let mv: Move = text.parse().map_err(|error| MoveListError::Parse {
            number,
            text: crate::error::excerpt(text),
            error,
        })?;
        self.play(mv).map_err(|error| MoveListError::Illegal {
            number,
            text: crate::error::excerpt(text),
            error,
        })?;
        Ok(mv)
    }

    /// Plays `mv`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] if it is not legal; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let player = self.pos.to_move();
        let hash = self.pos.hash();
        let undo = self.pos.play(mv)?;
        self.hashes.push(hash);
        self.undos.push(undo);
        self.moves.push((player, mv));
        Ok(())
    }

    /// Takes back the last move, returning it with its player (`None` at the start).
    pub fn undo(&mut self) -> Option<(Player, Move)> {
        let undo = self.undos.pop()?;
        self.pos.unmake(undo);
        self.hashes.pop();
        self.moves.pop()
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> Options {
        self.pos.options()
    }

    /// The moves played, with their players.
    #[must_use]
    pub fn moves(&self) -> &[(Player, Move)] {
        &self.moves
    }

    /// The hashes ([`Position::hash`]) of the positions before the current one, oldest
    /// first: what a search needs to score repetitions.
    #[must_use]
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// The record of the game so far (`ongoing` or `over`).
    #[must_use]
    pub fn record(&self) -> Record {
        Record {
            options: self.options(),
            moves: self.moves.clone(),
            result: match self.pos.outcome() {
                Some(o) => RecordResult::Over(o),
                None => RecordResult::Ongoing,
            },
        }
    }
}

/// How a recorded game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RecordResult {
    /// The game goes on.
    Ongoing,
    /// The game ended by the rules (nobody can place).
    Over(Outcome),
    /// The game was stopped at a move cap and decided by the score.
    Capped(Outcome),
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordResult::Ongoing => f.write_str("ongoing"),
            RecordResult::Over(o) => write!(f, "over {o}"),
            RecordResult::Capped(o) => write!(f, "capped {o}"),
        }
    }
}

/// A game record: options, the moves with their players, and the result. Written and read
/// in the format of the module docs ([`fmt::Display`], [`FromStr`]); [`Record::replay`]
/// checks it.
///
/// ```
/// use pyloff::{Game, Options, Record};
/// let game = Game::from_moves(Options::default(), "c3 swap e5").unwrap();
/// let text = game.record().to_string();
/// assert_eq!(text, "pyloff size=6 players=2 rules=default\n1 c3\n2 swap\n1 e5\nresult ongoing\n");
/// let record: Record = text.parse().unwrap();
/// assert_eq!(record.replay().unwrap(), game);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// The options.
    pub options: Options,
    /// The moves from the empty board, with their players.
    pub moves: Vec<(Player, Move)>,
    /// The result.
    pub result: RecordResult,
}

impl Record {
    /// Replays the record: every move must be its player's and legal, and the result the
    /// replayed game's (for `capped`, the game must go on and the winners lead the score).
    ///
    /// # Errors
    ///
    /// [`RecordError`] for a wrong player, an illegal move or a result that does not match
    /// (lines are counted as in a record with one move a line after the header).
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.options);
        for (n, &(player, mv)) in self.moves.iter().enumerate() {
            let line = n + 2;
            let expected = game.position().to_move();
            if player != expected {
                return Err(RecordError::WrongPlayer {
                    line,
                    number: n + 1,
                    expected,
                    found: player,
                });
            }
            game.play(mv).map_err(|error| RecordError::Illegal {
                line,
                number: n + 1,
                error,
            })?;
        }
        let pos = game.position();
        let actual = match (self.result, pos.outcome()) {
            (_, Some(o)) => RecordResult::Over(o),
            (RecordResult::Capped(_), None) => {
                RecordResult::Capped(Outcome::from_scores(pos.scores()))
            }
            (_, None) => RecordResult::Ongoing,
        };
        if actual != self.result {
            return Err(RecordError::Result {
                recorded: self.result.to_string(),
                actual: actual.to_string(),
            });
        }
        Ok(game)
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "pyloff size={} players={} rules={}",
            self.options.size(),
            self.options.players(),
            self.options.rules()
        )?;
        for (player, mv) in &self.moves {
            writeln!(f, "{player} {mv}")?;
        }
        writeln!(f, "result {}", self.result)
    }
}

fn syntax(line: usize, message: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        message: message.into(),
    }
}

fn parse_header(line: usize, words: &[&str]) -> Result<Options, RecordError> {
    if words.first() != Some(&"pyloff") {
        return Err(RecordError::NoHeader);
    }
    let (mut size, mut players, mut rules) = (None, None, None);
    for word in &words[1..] {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| syntax(line, format!("`{}` is not key=value", excerpt(word))))?;
        // The size and the number of players are numbers; an error names the key.
        let number = || {
            value
                .parse::<u8>()
                .map_err(|_| syntax(line, format!("{key} `{}`", excerpt(value))))
        };
        let first = match key {
            "size" => size.replace(number()?).is_none(),
            "players" => players.replace(number()?).is_none(),
            "rules" => {
                let v: RuleSet = value
                    .parse()
                    .map_err(|e: OptionsError| syntax(line, e.to_string()))?;
                rules.replace(v).is_none()
            }
            other => {
                return Err(syntax(
                    line,
                    format!("unknown option `{}` (size, players, rules)", excerpt(other)),
                ));
            }
        };
        if !first {
            return Err(syntax(line, format!("`{key}` given twice")));
        }
    }
    let (Some(size), Some(players), Some(rules)) = (size, players, rules) else {
        return Err(syntax(line, "the header names size, players and rules"));
    };
    Options::new(size, players, rules).map_err(|e| syntax(line, e.to_string()))
}

fn excerpt(s: &str) -> String {
    crate::error::excerpt(s)
}

fn parse_outcome(line: usize, words: &[&str]) -> Result<Outcome, RecordError> {
    if words == ["draw"] {
        return Ok(Outcome::Draw);
    }
    if words.is_empty() {
        return Err(syntax(line, "a result names the winners or draw"));
    }
    let mut w = Players::EMPTY;
    let mut last = 0;
    for word in words {
        let p = word
            .parse::<u8>()
            .ok()
            .and_then(Player::new)
            .filter(|p| p.number() > last)
            .ok_or_else(|| {
                syntax(
                    line,
                    format!("`{}`: winners are increasing player numbers", excerpt(word)),
                )
            })?;
        last = p.number();
        w = w.with(p);
    }
    Ok(Outcome::Win(w))
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(s: &str) -> Result<Record, RecordError> {
        let mut options = None;
        let mut moves = Vec::new();
        let mut result = None;
        for (n, raw) in s.lines().enumerate() {
            let line = n + 1;
            let text = raw.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = text.split_ascii_whitespace().collect();
            let Some(opts) = options else {
                options = Some(parse_header(line, &words)?);
                continue;
            };
            if result.is_some() {
                return Err(syntax(line, "nothing may follow the result"));
            }
            if words[0] == "result" {
                result = Some(match words.get(1).copied() {
                    Some("ongoing") if words.len() == 2 => RecordResult::Ongoing,
                    Some("over") => RecordResult::Over(parse_outcome(line, &words[2..])?),
                    Some("capped") => RecordResult::Capped(parse_outcome(line, &words[2..])?),
                    _ => {
                        return Err(syntax(
                            line,
                            "the result is `ongoing`, `over W` or `capped W`",
                        ));
                    }
                });
                if let Some(RecordResult::Over(o) | RecordResult::Capped(o)) = result {
                    if o.winners().iter().any(|p| p.number() > opts.players()) {
                        return Err(syntax(line, "a winner who does not play"));
                    }
                }
                continue;
            }
            if words.len() != 2 {
                return Err(syntax(line, "a move line is `<player> <move>`"));
            }
            let player = words[0]
                .parse::<u8>()
                .ok()
                .and_then(Player::new)
                .filter(|p| p.number() <= opts.players())
                .ok_or_else(|| syntax(line, format!("`{}` is not a player", excerpt(words[0]))))?;
            let mv: Move = words[1]
                .parse()
                .map_err(|e: ParseMoveError| syntax(line, e.to_string()))?;
            moves.push((player, mv));
        }
        Ok(Record {
            options: options.ok_or(RecordError::NoHeader)?,
            moves,
            result: result.unwrap_or(RecordResult::Ongoing),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        let text = "# a comment\n\npyloff rules=cut_down players=3 size=4\n1 a1\n2 C3\n3 e5\nresult ongoing\n";
        let r: Record = text.parse().unwrap();
        assert_eq!(r.options, Options::new(4, 3, RuleSet::CutDown).unwrap());
        assert_eq!(r.moves.len(), 3);
        assert!(r.replay().is_ok());
        let wrong = "pyloff size=4 players=3 rules=default\n2 a1\n";
        assert!(matches!(
            wrong.parse::<Record>().unwrap().replay(),
            Err(RecordError::WrongPlayer { .. })
        ));
        let over = "pyloff size=4 players=2 rules=default\n1 a1\nresult over 1\n";
        assert!(matches!(
            over.parse::<Record>().unwrap().replay(),
            Err(RecordError::Result { .. })
        ));
        let capped = "pyloff size=4 players=2 rules=default\n1 a1\nresult capped 1\n";
        assert!(capped.parse::<Record>().unwrap().replay().is_ok());
        for bad in [
            "",
            "size=4",
            "pyloff size=4 players=2\n",
            "pyloff size=4 players=2 rules=default size=5\n",
            "pyloff size=4 players=2 rules=default\n3 a1\n",
            "pyloff size=4 players=2 rules=default\n1 a2\n",
            "pyloff size=4 players=2 rules=default\nresult over 2 1\n",
            "pyloff size=4 players=2 rules=default\nresult ongoing\n1 a1\n",
        ] {
            assert!(bad.parse::<Record>().is_err(), "{bad:?}");
        }
    }
}
