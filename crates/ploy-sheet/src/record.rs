//! Game records: the file a program saves and loads to go on with a game.
//!
//! See the [crate docs](crate#game-records) for the layout and an example.

use core::fmt;

use ploy_core::{Game, Outcome, Rules, Variant, Withdrawal};
use ploy_notation::{PositionString, UniversityMove};

use crate::error::{ReadError, ReadErrorKind, WriteError};
use crate::replay::{
    finish, finish_at, leave, leaving_word, parse_leaving, play, play_text, start_from_string,
    start_game,
};
use crate::text::{
    Claim, Key, RawHeader, ResultText, column, lines, parse_result, quote, rule_values, squash,
};
use crate::{Header, SavedGame};

/// The format version that [`Record`]'s `Display` writes and [`read_record`] reads.
pub const FORMAT_VERSION: u32 = 1;

/// The key of a record's first line, `ploy-record: 1`.
pub const RECORD_KEY: &str = "ploy-record";

/// A game record as data: everything a program needs to go on with a game, the moves in
/// university move strings. `Display` writes the record's text; [`read_record`] reads it
/// back, and [`Record::replay`] turns the data into a game.
///
/// With the `serde` feature, `Record` (like [`Header`] and [`crate::Players`]) is
/// `Serialize`/`Deserialize`: the moves and the start position travel as their strings,
/// the variant, rules and result as ploy-core's serde forms.
///
/// A record's `Display` writes header texts as they are; [`SavedGame::to_record`] checks
/// that they read back as themselves (no line breaks, no white space at the ends).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Record {
    /// Event, date, time control, players.
    pub header: Header,
    /// The game being played.
    pub variant: Variant,
    /// The rules it is played by.
    pub rules: Rules,
    /// The start position, or `None` for the variant's standard start. Any variant's
    /// position string (ploy-notation's two- or four-player form).
    pub start: Option<PositionString>,
    /// The moves, in order.
    pub moves: Vec<UniversityMove>,
    /// Free-for-all players who left the game while it went on (resigned or ran out of
    /// time with two or more opponents in play), in order; written among the moves as
    /// `green-resigns` or `green-out-of-time` after the moves played before it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub withdrawals: Vec<Withdrawal>,
    /// How the game ended, or `None` while it goes on.
    pub result: Option<Outcome>,
}

impl Record {
    /// Replays the record: the start position, every move, and the result (a resignation,
    /// time forfeit or agreed draw is recorded on the game; any other result must be what
    /// the moves give).
    ///
    /// ```
    /// use ploy_core::{Game, Move, Rules, Square};
    /// use ploy_sheet::SavedGame;
    /// let mut game = Game::new(Rules::standard());
    /// game.play(Move::new(Square::E3, Square::E4, 0))?;
    /// game.resign(ploy_core::Seat::Red)?;
    /// let record = SavedGame::new(game.clone()).to_record()?;
    /// assert_eq!(record.moves[0].to_string(), "e3-e4-0");
    /// assert_eq!(record.replay()?.game, game);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ReadErrorKind`]: a start position that is not valid or of another variant, a
    /// player named for a seat that does not play, the first move that cannot be played
    /// (with its number, counting from 1), or a result the moves do not give.
    pub fn replay(&self) -> Result<SavedGame, ReadErrorKind> {
        for seat in self.header.players.named() {
            if !self.variant.seats().contains(seat) {
                return Err(ReadErrorKind::SeatNotInVariant {
                    seat,
                    variant: self.variant,
                });
            }
        }
        let start = start_from_string(self.variant, self.rules, self.start.as_ref())?;
        let mut game = Game::from_position(start);
        let mut left = self.withdrawals.iter().peekable();
        for (i, mv) in self.moves.iter().enumerate() {
            while let Some(w) = left.next_if(|w| w.ply <= i) {
                leave(&mut game, w.seat, w.reason, &leaving_token(w))?;
            }
            play(&mut game, mv.as_move(), &mv.to_string())?;
        }
        for w in left {
            leave(&mut game, w.seat, w.reason, &leaving_token(w))?;
        }
        finish(&mut game, Claim::Stated(self.result))?;
        Ok(SavedGame {
            header: self.header.clone(),
            game,
        })
    }
}

impl SavedGame {
    /// The game as a record.
    ///
    /// # Errors
    /// As [`SavedGame::sheet`]: a header text that would not read back, or a player named
    /// for a seat that does not play.
    pub fn to_record(&self) -> Result<Record, WriteError> {
        let start = self.check()?;
        let pos = self.game.position();
        Ok(Record {
            header: self.header.clone(),
            variant: pos.variant(),
            rules: self.game.rules(),
            start,
            moves: self
                .game
                .moves()
                .iter()
                .map(|&m| UniversityMove::from(m))
                .collect(),
            withdrawals: self.game.withdrawals().collect(),
            result: self.game.outcome(),
        })
    }
}

impl fmt::Display for Record {
    /// Writes the record's text (see the [crate docs](crate#game-records)).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{RECORD_KEY}: {FORMAT_VERSION}")?;
        for (key, value) in [
            (Key::Event, &self.header.event),
            (Key::Date, &self.header.date),
            (Key::TimeControl, &self.header.time_control),
        ] {
            if let Some(v) = value {
                writeln!(f, "{}: {v}", key.record_key())?;
            }
        }
        writeln!(f, "{}: {}", Key::Variant.record_key(), self.variant)?;
        for (key, value) in rule_values(self.variant, self.rules) {
            writeln!(f, "{}: {value}", key.record_key())?;
        }
        match &self.start {
            Some(start) => writeln!(f, "{}: {start}", Key::Start.record_key())?,
            None => writeln!(f, "{}: standard", Key::Start.record_key())?,
        }
        for seat in self.variant.seats().iter() {
            match self.header.players.get(seat) {
                Some(name) => writeln!(f, "{}: {name}", seat.name())?,
                None => writeln!(f, "{}:", seat.name())?,
            }
        }
        writeln!(
            f,
            "{}: {}",
            Key::Result.record_key(),
            ResultText(self.result)
        )?;
        writeln!(f, "moves:")?;
        let mut left = self.withdrawals.iter().peekable();
        for (i, mv) in self.moves.iter().enumerate() {
            while let Some(w) = left.next_if(|w| w.ply <= i) {
                writeln!(f, "{}", leaving_token(w))?;
            }
            writeln!(f, "{mv}")?;
        }
        for w in left {
            writeln!(f, "{}", leaving_token(w))?;
        }
        Ok(())
    }
}

/// A leaving as a record writes it: `green-resigns`, `red-out-of-time`.
fn leaving_token(w: &Withdrawal) -> String {
    format!(
        "{}-{}",
        w.seat.name(),
        leaving_word(w.reason).replace(' ', "-")
    )
}

/// Reads a leaving token (`green-resigns`, `red-out-of-time`; any case).
fn parse_leaving_token(tok: &str) -> Option<(ploy_core::Seat, ploy_core::WinReason)> {
    let (seat, word) = tok.split_once('-')?;
    let seat = crate::text::seat_from_name(&seat.to_ascii_lowercase())?;
    Some((seat, parse_leaving(word)?))
}

/// The tokens of `s` separated by white space, with their byte offsets.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    s.split(|c: char| c.is_ascii_whitespace())
        .scan(0usize, |at, tok| {
            let start = *at;
            *at += tok.len() + 1;
            Some((start, tok))
        })
        .filter(|(_, t)| !t.is_empty())
}

/// Reads a game record and replays its moves.
///
/// Lenient about a byte order mark at the start, blank lines, `\r\n` line ends, white space around keys, values and moves,
/// comment lines starting with `#`, keys and values in any case and with spaces, `-` or `_`
/// as one likes, `black`/`white` for `green`/`red`, and several moves on a line (separated
/// by white space). Strict about the rest: the first line is `ploy-record: 1`, every header
/// line is `key: value` with a known key, given once, `moves:` ends the header, and every
/// move is a university move string (exactly `e3-e4-0`). A record without a `result` line
/// takes the result the moves give.
///
/// ```
/// let text = "ploy-record: 1\r\nvariant: two-player\r\n\r\nmoves:\r\ne3-e4-0 e7-e6-0\r\n";
/// let saved = ploy_sheet::read_record(text)?;
/// assert_eq!(saved.game.moves().len(), 2);
/// # Ok::<(), ploy_sheet::ReadError>(())
/// ```
///
/// # Errors
/// [`ReadError`] with the line, column and reason of the first problem: the first line, a
/// header line, the first move that is malformed, not legal or after the end, or a result
/// that is not what the moves give. No game is returned then.
pub fn read_record(text: &str) -> Result<SavedGame, ReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut content = lines(text).filter(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    });
    let indent = |l: &str| column(l, l.len() - l.trim_start().len());
    let Some((n, first)) = content.next() else {
        return Err(ReadError::new(1, 1, ReadErrorKind::Empty));
    };
    let title = || {
        ReadError::new(
            n,
            indent(first),
            ReadErrorKind::Title {
                expected: "`ploy-record: 1`",
            },
        )
    };
    let (key, version) = first.split_once(':').ok_or_else(title)?;
    if squash(key) != squash(RECORD_KEY) {
        return Err(title());
    }
    if version.trim() != FORMAT_VERSION.to_string() {
        let at = key.len() + 1 + (version.len() - version.trim_start().len());
        return Err(ReadError::new(
            n,
            column(first, at),
            ReadErrorKind::Version(quote(version.trim())),
        ));
    }
    let mut raw = RawHeader::default();
    let mut claim = Claim::Unstated;
    let mut result_at = (n, 1);
    let mut moves_line = None;
    for (n, line) in content.by_ref() {
        let Some((k, v)) = line.split_once(':') else {
            return Err(ReadError::new(
                n,
                indent(line),
                ReadErrorKind::Syntax {
                    expected: "`key: value`, or `moves:` and the moves",
                },
            ));
        };
        let value_col = column(line, k.len() + 1 + (v.len() - v.trim_start().len()));
        if squash(k) == "moves" {
            moves_line = Some((n, line, k.len() + 1));
            break;
        }
        let key = Key::from_text(k).ok_or_else(|| {
            ReadError::new(n, indent(line), ReadErrorKind::UnknownKey(quote(k.trim())))
        })?;
        raw.add(key, v, n, value_col, k.trim())
            .map_err(|e| ReadError::new(n, indent(line), e))?;
        if key == Key::Result {
            result_at = (n, value_col);
            let stated = parse_result(v, None).map_err(|e| ReadError::new(n, value_col, e))?;
            claim = Claim::Stated(stated);
        }
    }
    let interp = raw
        .interpret()
        .map_err(|((l, c), k)| ReadError::new(l, c, k))?;
    let mut game = start_game(interp.variant, interp.rules, interp.start)?;
    if let Some((n, line, skip)) = moves_line {
        let mut move_lines = vec![(n, line, skip)];
        for (n, line) in content {
            if line.contains(':') {
                return Err(ReadError::new(
                    n,
                    indent(line),
                    ReadErrorKind::Unexpected {
                        after: "`moves:` (the header comes before it)",
                    },
                ));
            }
            move_lines.push((n, line, 0));
        }
        for (n, line, skip) in move_lines {
            for (at, tok) in tokens(&line[skip..]) {
                let col = column(line, skip + at);
                if let Some((seat, reason)) = parse_leaving_token(tok) {
                    leave(&mut game, seat, reason, tok).map_err(|k| ReadError::new(n, col, k))?;
                    continue;
                }
                let mv = UniversityMove::from_ascii(tok.as_bytes()).map(|m| m.as_move());
                play_text(&mut game, (n, col), tok, mv)?;
            }
        }
    }
    finish_at(game, claim, result_at, interp.header)
}
