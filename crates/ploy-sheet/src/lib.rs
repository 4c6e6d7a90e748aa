//! Score sheets and game records for Ploy: write them from a [`Game`], read them back by
//! replaying every move through ploy-core.
//!
//! Two formats, both plain UTF-8 text with `\n` line ends:
//!
//! - a **score sheet** ([`SavedGame::sheet`], [`read_sheet`]): tab-separated columns for
//!   people and spreadsheets, the moves in Tensi's algebraic notation, one row per round,
//!   as Tensi's program exports them;
//! - a **game record** ([`SavedGame::to_record`], [`Record`], [`read_record`]): the file a
//!   program saves and loads to go on with a game, one `key: value` per header line and one
//!   university move string per line, readable and diffable by a person.
//!
//! Reading either replays every move from the start position, so the [`Game`] it gives has
//! the whole history: the repetition count and the plies since the last capture are those
//! of the game as it was played, which a bare position string cannot restore. The first
//! unreadable or illegal move is reported with its line, column and why ([`ReadError`]); a
//! reader never panics and never returns a half-replayed game. [`read`] tells the two
//! formats apart by their first line.
//!
//! From a file or any reader, use [`load`] or [`load_from`] (or [`load_text`] /
//! [`read_text`] for the text alone): they read at most [`MAX_BYTES`] (16 MiB, far more than
//! any game) and refuse a larger input with [`LoadError::TooLarge`], so a wrong path such as
//! `/dev/zero` is an error, not a program that reads until memory runs out.
//!
//! # Example
//!
//! ```
//! use ploy_core::{Game, Move, Rules, Seat, Square};
//! use ploy_sheet::{Format, SavedGame};
//!
//! let mut game = Game::new(Rules::standard());
//! game.play(Move::new(Square::E3, Square::E4, 0))?; // the green shield steps forward
//! game.play(Move::turn(Square::E9, 1))?;            // the red commander turns
//! game.resign(Seat::Green)?;
//!
//! let mut saved = SavedGame::new(game);
//! saved.header.event = Some("Club night".into());
//! saved.header.players.set(Seat::Green, Some("Alice".into()));
//!
//! // To a score sheet and back.
//! let sheet = saved.to_sheet()?;
//! assert!(sheet.contains("Round\tGreen\tRed\n1\te3-e4\te9-1\nResult\tRed wins\tresignation\n"));
//! assert_eq!(ploy_sheet::read_sheet(&sheet)?, saved);
//!
//! // To a game record and back.
//! let record = saved.to_record()?.to_string();
//! assert!(record.ends_with("result: Red wins, resignation\nmoves:\ne3-e4-0\ne9-e9-1\n"));
//! assert_eq!(ploy_sheet::read(&record)?, (Format::Record, saved.clone()));
//!
//! // A misspelled move: the error says where and why.
//! let damaged = sheet.replace("e9-1", "e9-9");
//! let err = ploy_sheet::read_sheet(&damaged).unwrap_err();
//! assert_eq!(err.to_string(), "line 11, column 12: move 2 (red) `e9-9`: character 4: expected a rotation digit `0`..`7`, found `9`");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Score sheets
//!
//! A score sheet of a two-player game (`→` stands for a tab):
//!
//! ```text
//! Ploy score sheet
//! Event→Club night
//! Date→2026-11-22
//! Variant→two-player
//! Elimination→strict
//! Rotation→any
//! Repetition draw→yes
//! No-capture limit→200
//! Green→Alice
//! Red→Bob
//! Round→Green→Red
//! 1→e3-e4→e7-e6
//! 2→e4-e5→e6xe5
//! 3→d2-e3→e9-1
//! 4→e3-d4
//! Result→Red wins→time forfeit
//! ```
//!
//! A partnership game that goes on: in round 7 Green captures Blue's commander (`g7xg9#`),
//! Red takes over Blue's pieces and plays Blue's turns, and writes those moves in Blue's
//! column (`g2xh1`, `h9xg9`):
//!
//! ```text
//! Ploy score sheet
//! Variant→partnership
//! Elimination→strict
//! Rotation→any
//! Repetition draw→yes
//! No-capture limit→200
//! Partner elimination→absorbed
//! Bare commander→stays
//! Green→Ann
//! Red→Bea
//! Yellow→Cid
//! Blue→Dan
//! Round→Green→Red→Yellow→Blue
//! 1→b2-1→d7-d6-1→f3-f4→f9-e8
//! 2→d1-f3→c7-1→g2-1→h7-h6+1
//! 3→f3-h5→b8+4→g3-g4+1→h8+2
//! 4→c3-2→d6+3→f1+2→g8-i6
//! 5→h5xh6→d6-2→f1+2→i6xg4
//! 6→h6xg7→c7-b6+3→h3+1→g4xh3
//! 7→g7xg9#→h3xg2→g1+1→g2xh1
//! 8→b3-b4-2→b6-c6-3→g1xh1→h9xg9
//! 9→d2+4
//! Result→unfinished
//! ```
//!
//! - The title line `Ploy score sheet`.
//! - Header rows, a label and a value: `Event`, `Date` and `Time control` (optional, free
//!   text); `Variant` (`two-player`, `free-for-all`, `partnership`); the rule options
//!   `Elimination` (`strict`, `relaxed`), `Rotation` (`any`, `single-step`), `Repetition
//!   draw` (`yes`, `no`), `No-capture limit` (a number of plies or `none`), and for
//!   four-player games (or when not the standard value) `Partner elimination` (`absorbed`,
//!   `plays on`) and `Bare commander` (`stays`, `removed`); `Start` with a position string
//!   when the game did not start from the standard position; one row per seat in turn
//!   order with the player's name (the value left out when unknown). On input the rows may
//!   come in any order, every row is optional (the defaults: two-player, the standard
//!   rules, the standard start), and `Rules` with `standard` or `university` chooses the
//!   preset that the option rows change.
//! - The column header `Round`, then the seats in turn order: `Green`, `Red` for two
//!   players; `Green`, `Red`, `Yellow`, `Blue` for four.
//! - One row per round: its number (1, 2, …), then in each seat's column the move made on
//!   that seat's turn in algebraic notation (canonical: `x` for a capture, `#` for a move
//!   that wins or eliminates a player). A cell is empty where the seat did not move: a game
//!   that starts with Red to move, a player out of play whose turn is skipped, the rest of
//!   the last round. A move a partner made on an absorbed partner's turn goes in the
//!   absorbed seat's column. A new round starts when the turn comes round again.
//! - `Result` and two cells: `Green wins`, `Green and Yellow win` (a team) or `draw`, and
//!   the reason (`commander captured`, `only commanders left`, `resignation`, `time
//!   forfeit`, `repetition`, `no-capture limit`, `agreement`); or `unfinished`.
//!
//! [`read_sheet`] says how lenient the reader is.
//!
//! # Game records
//!
//! The same game as a record:
//!
//! ```text
//! ploy-record: 1
//! event: Club night
//! date: 2026-11-22
//! variant: two-player
//! elimination: strict
//! rotation: any
//! repetition-draw: yes
//! no-capture-limit: 200
//! start: standard
//! green: Alice
//! red: Bob
//! result: Red wins, time forfeit
//! moves:
//! e3-e4-0
//! e7-e6-0
//! e4-e5-0
//! e6-e5-0
//! d2-e3-0
//! e9-e9-1
//! e3-d4-0
//! ```
//!
//! The first line names the format and its version ([`FORMAT_VERSION`]). Header lines are
//! `key: value` with the keys and values of the sheet's header rows (keys in lower case with
//! `-`: `time-control`, `repetition-draw`, `no-capture-limit`, `partner-elimination`,
//! `bare-commander`), `start: standard` or a position string, one line per seat, and the
//! `result` as on the sheet with a comma before the reason. `moves:` ends the header; the
//! moves follow in university move strings, one per line, so that a game that goes on adds
//! lines at the end and a diff shows them. [`read_record`] says how lenient the reader is.
//!
//! A free-for-all player who resigns or runs out of time while two or more opponents are
//! in play leaves the game and his pieces leave the board ([`Game::resign`]); the game goes
//! on. A sheet writes `resigns` or `out of time` in his column where it happened (his move
//! of that round, if he had one to make, then stays empty); a record writes a line
//! `red-resigns` or `red-out-of-time` among the moves, after the moves played before it.
//!
//! # Choices where the formats leave room
//!
//! - A result line that is missing means "not stated": the moves decide. `unfinished` with
//!   moves that end the game, or any result the moves do not give, is an error.
//! - A resignation or time forfeit is recorded on the game with [`Game::resign`] /
//!   [`Game::forfeit_on_time`] for the first seat in play that is not among the winners (in
//!   a partnership game a player resigns for his team, so any of them gives the same
//!   result); the core allows a free-for-all resignation only when one opponent is left, so
//!   one with more players in play cannot be recorded (nor arise from a [`Game`]).
//! - Header texts (event, date, time control, names) are free text without control
//!   characters and without white space at the ends; writing any other text is an error
//!   ([`WriteError::Text`]) rather than a file that reads back differently. Unknown header
//!   keys are errors, so that a misspelled `Varient` is not silently ignored.
//! - A start position other than the variant's standard one is written as a position string
//!   (ploy-notation's two- or four-player form); reading one of another variant than the
//!   header's is [`ReadErrorKind::StartVariant`].
//! - The `x` and `#` marks of a sheet's moves are not checked on input (as in
//!   ploy-notation); the writer always writes the right ones.
//! - Both formats carry the same header: the sheet also has an optional `Time control` row,
//!   so a sheet and a record of a game convert into each other without loss.
//! - Writers always write the four two-player rule options; `Partner elimination` and
//!   `Bare commander` only for four-player games or when they differ from the standard
//!   rules. A missing option is read as its value in the preset (`Rules`, default
//!   `standard`), so every [`ploy_core::Rules`] value round-trips.
//! - Rounds count from 1 whatever the start position; a round's cells follow
//!   [`ploy_core::Position::turn`], the seat whose turn it is, not the player who moves.
//! - Errors point at the character that is wrong in a malformed move, at the start of the
//!   cell or word for an illegal one, at the value for a bad header value, and at the result
//!   for a result the moves do not give. Lines and columns count from 1, columns in
//!   characters.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`SavedGame`], [`Record`], [`Header`] and
//!   [`Players`]. Moves travel as their text, and deserializing a [`SavedGame`] replays its
//!   game from the start, so tampered data is refused rather than read as an impossible
//!   game.
//! - `fuzzing`: exposes the module `fuzzing`, the bodies of the cargo-fuzz targets. Not a
//!   stable API.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
mod file;
mod record;
mod replay;
mod result;
mod sheet;
mod text;

#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;

pub use error::{ReadError, ReadErrorKind, WriteError};
pub use file::{LoadError, MAX_BYTES, load, load_from, load_text, read_text};
pub use record::{FORMAT_VERSION, RECORD_KEY, Record, read_record};
pub use result::ResultText;
pub use sheet::{SHEET_TITLE, SheetDisplay, read_sheet};

use ploy_core::{Game, Position, Seat};
use ploy_notation::PositionString;

/// The players' names, one per seat (`None`: not known).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Players {
    /// Green: the two-player game's first, bottom side ("black").
    pub green: Option<String>,
    /// Red: the two-player game's second, top side ("white").
    pub red: Option<String>,
    /// Yellow (four-player games).
    pub yellow: Option<String>,
    /// Blue (four-player games).
    pub blue: Option<String>,
}

impl Players {
    /// The name of `seat`'s player.
    #[must_use]
    pub fn get(&self, seat: Seat) -> Option<&str> {
        self.slot(seat).as_deref()
    }

    /// Sets (or with `None` clears) the name of `seat`'s player.
    pub fn set(&mut self, seat: Seat, name: Option<String>) {
        *self.slot_mut(seat) = name;
    }

    /// The seats with a name, in turn order.
    pub fn named(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL.into_iter().filter(|&s| self.get(s).is_some())
    }

    fn slot(&self, seat: Seat) -> &Option<String> {
        match seat {
            Seat::Green => &self.green,
            Seat::Red => &self.red,
            Seat::Yellow => &self.yellow,
            Seat::Blue => &self.blue,
        }
    }

    fn slot_mut(&mut self, seat: Seat) -> &mut Option<String> {
        match seat {
            Seat::Green => &mut self.green,
            Seat::Red => &mut self.red,
            Seat::Yellow => &mut self.yellow,
            Seat::Blue => &mut self.blue,
        }
    }
}

/// What a sheet or record says about a game besides its moves and rules: event, date,
/// time control and players. Every field is free text, `None` when not known.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Header {
    /// The event (a tournament, a club night).
    pub event: Option<String>,
    /// The date, as the writer likes it (`2026-11-22` is a good choice).
    pub date: Option<String>,
    /// The time control, as the writer likes it (`40 moves in 2 hours`).
    pub time_control: Option<String>,
    /// The players' names.
    pub players: Players,
}

/// A game with its header: what a sheet or record holds, and what the readers give.
///
/// The [`Game`] carries the variant, the rules (in its positions), the start position, the
/// moves, the history the draw rules need, and a recorded resignation, time forfeit or
/// agreed draw.
///
/// With the `serde` feature it travels as `{"header": ..., "game": ...}`, the game in
/// ploy-core's form (start position, moves as university move strings, recorded ending),
/// replayed and checked on the way in like a sheet or record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct SavedGame {
    /// Event, date, time control, players.
    pub header: Header,
    /// The game.
    pub game: Game,
}

impl SavedGame {
    /// `game` with an empty header.
    #[must_use]
    pub fn new(game: Game) -> SavedGame {
        SavedGame {
            header: Header::default(),
            game,
        }
    }

    /// Checks that the game can be written; gives the start position string unless the
    /// game started from the standard position.
    fn check(&self) -> Result<Option<PositionString>, WriteError> {
        let h = &self.header;
        for (field, value) in [
            ("event", &h.event),
            ("date", &h.date),
            ("time control", &h.time_control),
            ("green", &h.players.green),
            ("red", &h.players.red),
            ("yellow", &h.players.yellow),
            ("blue", &h.players.blue),
        ] {
            if let Some(v) = value {
                text::check_text(field, v)?;
            }
        }
        let start = self.game.start_position();
        let variant = start.variant();
        for seat in h.players.named() {
            if !variant.seats().contains(seat) {
                return Err(WriteError::SeatNotInVariant { seat, variant });
            }
        }
        if *start == Position::start(variant, start.rules()) {
            Ok(None)
        } else {
            Ok(Some(PositionString::from_position(start)))
        }
    }
}

impl From<Game> for SavedGame {
    fn from(game: Game) -> SavedGame {
        SavedGame::new(game)
    }
}

/// Which format a text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// A score sheet ([`read_sheet`]).
    Sheet,
    /// A game record ([`read_record`]).
    Record,
}

/// The format of `text`: a record if its first line that is not blank or a `#` comment
/// starts with `ploy-record`, else a sheet.
#[must_use]
pub fn detect(text: &str) -> Format {
    let first = text
        .strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    match first {
        Some(l) if text::squash(l).starts_with(&text::squash(RECORD_KEY)) => Format::Record,
        _ => Format::Sheet,
    }
}

/// Reads a sheet or a record, whichever `text` is ([`detect`]).
///
/// # Errors
/// As [`read_sheet`] or [`read_record`].
pub fn read(text: &str) -> Result<(Format, SavedGame), ReadError> {
    let format = detect(text);
    let saved = match format {
        Format::Sheet => read_sheet(text)?,
        Format::Record => read_record(text)?,
    };
    Ok((format, saved))
}
