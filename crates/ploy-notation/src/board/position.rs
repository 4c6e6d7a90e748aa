//! Position strings: the two-player form ([`TwoPlayerPositionString`]), either form
//! ([`PositionString`]), and [`read_position`], which reads and validates at once.

use core::fmt;

use ploy_core::{Position, Rules, Seat, Setup, Variant};

use super::grid::parse_board;
use super::{
    BoardString, InvalidPositionError, NotAPieceError, ParsePositionError, ReadPositionError, Side,
};
use crate::four_player::FourPlayerPositionString;
use crate::util::is_ws;

/// A two-player position string, parsed but not validated: a [`BoardString`], one space,
/// and the side to move. [`PositionString`] covers it and the four-player form.
///
/// ```
/// use ploy_core::{Position, Rules};
/// use ploy_notation::{Side, TwoPlayerPositionString};
/// let text = "\
///     ,w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/\
///     ,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/\
///     ,b69,b146,b131,b170,b131,b146,b69, b";
/// let parsed: TwoPlayerPositionString = text.parse()?;
/// assert_eq!(parsed.turn(), Side::Black);
/// let pos = parsed.to_position(Rules::university())?;
/// assert_eq!(pos, Position::start(Default::default(), Rules::university()));
/// assert_eq!(TwoPlayerPositionString::from_position(&pos).unwrap().to_string(), text);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TwoPlayerPositionString {
    board: BoardString,
    turn: Side,
}

impl TwoPlayerPositionString {
    /// The position string of `board` with `turn` to move.
    #[must_use]
    pub const fn new(board: BoardString, turn: Side) -> TwoPlayerPositionString {
        TwoPlayerPositionString { board, turn }
    }

    /// The two-player start position, black (Green) to move.
    #[must_use]
    pub fn start() -> TwoPlayerPositionString {
        TwoPlayerPositionString::new(BoardString::start(), Side::Black)
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &BoardString {
        &self.board
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The string of a two-player position, or `None` for a position of another variant
    /// (use [`PositionString::from_position`] for any position).
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<TwoPlayerPositionString> {
        if pos.variant() != Variant::TwoPlayer {
            return None;
        }
        let board = BoardString::from_board(pos.board()).ok()?;
        let turn = Side::from_seat(pos.turn())?;
        Some(TwoPlayerPositionString { board, turn })
    }

    /// The validity stage, first half: the unvalidated core setup.
    ///
    /// # Errors
    /// [`NotAPieceError`] for a mask with 5 to 8 flags.
    pub fn to_setup(&self) -> Result<Setup, NotAPieceError> {
        Ok(Setup::two_player(self.board.to_board()?, self.turn.seat()))
    }

    /// The validity stage: the position, played by `rules`.
    ///
    /// # Errors
    /// [`InvalidPositionError`]: a mask that is not a piece, or a board that breaks the rules
    /// of a valid position (`docs/rules.md` section 8).
    pub fn to_position(&self, rules: Rules) -> Result<Position, InvalidPositionError> {
        Ok(Position::from_setup(self.to_setup()?, rules)?)
    }

    /// Reads a two-player position string from bytes (any bytes: the input need not be
    /// UTF-8).
    ///
    /// # Errors
    /// [`ParsePositionError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<TwoPlayerPositionString, ParsePositionError> {
        let Some(space) = text.iter().rposition(|&b| b == b' ') else {
            return Err(ParsePositionError::MissingTurn { offset: text.len() });
        };
        let turn_text = &text[space + 1..];
        // Text after the last space that looks like board text (a separator, or a field
        // such as `b69` on square i1) means the side to move is missing.
        let looks_like_a_field =
            turn_text.len() > 1 && turn_text[1..].iter().all(u8::is_ascii_digit);
        if looks_like_a_field || turn_text.iter().any(|&b| b == b',' || b == b'/') {
            return Err(ParsePositionError::MissingTurn { offset: text.len() });
        }
        let turn = match turn_text.first() {
            None => {
                return Err(ParsePositionError::Turn {
                    offset: space + 1,
                    found: None,
                });
            }
            Some(&b) => Side::from_letter(b).ok_or(ParsePositionError::Turn {
                offset: space + 1,
                found: Some(b),
            })?,
        };
        if let Some(&b) = turn_text.get(1) {
            return Err(ParsePositionError::Trailing {
                offset: space + 2,
                found: b,
            });
        }
        // Exactly one space separates the board from the side to move.
        let ws = text[..space]
            .iter()
            .rev()
            .take_while(|&&b| is_ws(b))
            .count();
        if ws > 0 {
            return Err(ParsePositionError::Separator { offset: space - ws });
        }
        let board = parse_board(&text[..space], 0)?;
        Ok(TwoPlayerPositionString { board, turn })
    }
}

impl fmt::Display for TwoPlayerPositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board, self.turn)
    }
}

crate::util::from_str_via_ascii!(TwoPlayerPositionString => ParsePositionError);

/// A position string of any variant, parsed but not validated: the two-player form
/// (`<board> b`) or the four-player form (`ffa <board> g gryb -`); see the
/// [module docs](crate::board) and [`crate::four_player`].
///
/// `FromStr`/[`PositionString::from_ascii`] read either form: text that starts with `ffa`
/// or `partnership` is read as a four-player string, anything else as a two-player string.
/// [`PositionString::from_position`] writes any position. `Display` writes the canonical
/// form without allocating.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_notation::PositionString;
/// for variant in [Variant::TwoPlayer, Variant::FreeForAll, Variant::Partnership] {
///     let pos = Position::start(variant, Rules::university());
///     let text = PositionString::from_position(&pos).to_string();
///     let parsed: PositionString = text.parse()?;
///     assert_eq!(parsed.variant(), variant);
///     assert_eq!(parsed.to_position(Rules::university())?, pos);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum PositionString {
    /// `<board> <b|w>`: a two-player position.
    TwoPlayer(TwoPlayerPositionString),
    /// `<ffa|partnership> <board> <turn> <controllers> <out of play>`: a four-player
    /// position.
    FourPlayer(FourPlayerPositionString),
}

impl PositionString {
    /// The two-player start position, black (Green) to move.
    #[must_use]
    pub fn start() -> PositionString {
        PositionString::TwoPlayer(TwoPlayerPositionString::start())
    }

    /// The start position of `variant`.
    #[must_use]
    pub fn start_of(variant: Variant) -> PositionString {
        PositionString::from_position(&Position::start(variant, Rules::university()))
    }

    /// The string of any position: the two-player form for a two-player position, the
    /// four-player form for the others. Never fails: every valid position has a string,
    /// and reading it back (with the same rules) gives the same state (board, seat to move,
    /// controllers, seats in play).
    #[must_use]
    pub fn from_position(pos: &Position) -> PositionString {
        match TwoPlayerPositionString::from_position(pos) {
            Some(two) => PositionString::TwoPlayer(two),
            None => PositionString::FourPlayer(FourPlayerPositionString::of(pos)),
        }
    }

    /// The variant the string is for.
    #[must_use]
    pub fn variant(&self) -> Variant {
        match self {
            PositionString::TwoPlayer(_) => Variant::TwoPlayer,
            PositionString::FourPlayer(four) => four.variant(),
        }
    }

    /// The seat to move (black is [`Seat::Green`], white [`Seat::Red`]).
    #[must_use]
    pub fn turn(&self) -> Seat {
        match self {
            PositionString::TwoPlayer(two) => two.turn().seat(),
            PositionString::FourPlayer(four) => four.turn(),
        }
    }

    /// The two-player string, if it is one.
    #[must_use]
    pub fn as_two_player(&self) -> Option<&TwoPlayerPositionString> {
        match self {
            PositionString::TwoPlayer(two) => Some(two),
            PositionString::FourPlayer(_) => None,
        }
    }

    /// The four-player string, if it is one.
    #[must_use]
    pub fn as_four_player(&self) -> Option<&FourPlayerPositionString> {
        match self {
            PositionString::TwoPlayer(_) => None,
            PositionString::FourPlayer(four) => Some(four),
        }
    }

    /// The validity stage, first half: the unvalidated core setup.
    ///
    /// # Errors
    /// [`NotAPieceError`] for a mask with 5 to 8 flags.
    pub fn to_setup(&self) -> Result<Setup, NotAPieceError> {
        match self {
            PositionString::TwoPlayer(two) => two.to_setup(),
            PositionString::FourPlayer(four) => four.to_setup(),
        }
    }

    /// The validity stage: the position, played by `rules`.
    ///
    /// # Errors
    /// [`InvalidPositionError`]: a mask that is not a piece, or a setup that breaks the rules
    /// of a valid position (`docs/rules.md` section 8; for four players also controllers
    /// and seats in play that cannot arise under `rules`).
    pub fn to_position(&self, rules: Rules) -> Result<Position, InvalidPositionError> {
        Ok(Position::from_setup(self.to_setup()?, rules)?)
    }

    /// Reads a position string of either form from bytes (any bytes: the input need not be
    /// UTF-8). Text that starts with `ffa` or `partnership` is read as a four-player string
    /// ([`FourPlayerPositionString::from_ascii`]), anything else as a two-player string
    /// ([`TwoPlayerPositionString::from_ascii`]).
    ///
    /// # Errors
    /// [`ParsePositionError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<PositionString, ParsePositionError> {
        if crate::four_player::starts_four_player(text) {
            FourPlayerPositionString::from_ascii(text).map(PositionString::FourPlayer)
        } else {
            TwoPlayerPositionString::from_ascii(text).map(PositionString::TwoPlayer)
        }
    }
}

impl fmt::Display for PositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionString::TwoPlayer(two) => fmt::Display::fmt(two, f),
            PositionString::FourPlayer(four) => fmt::Display::fmt(four, f),
        }
    }
}

crate::util::from_str_via_ascii!(PositionString => ParsePositionError);

impl From<&Position> for PositionString {
    /// See [`PositionString::from_position`].
    fn from(pos: &Position) -> PositionString {
        PositionString::from_position(pos)
    }
}

impl From<TwoPlayerPositionString> for PositionString {
    fn from(two: TwoPlayerPositionString) -> PositionString {
        PositionString::TwoPlayer(two)
    }
}

impl From<FourPlayerPositionString> for PositionString {
    fn from(four: FourPlayerPositionString) -> PositionString {
        PositionString::FourPlayer(four)
    }
}

/// Reads a position string into a position played by `rules`: both stages at once. The
/// words `start`, `ffa` and `partnership` stand for the start positions of the two-player,
/// free-for-all and partnership games, as every program of this workspace takes them.
///
/// The way back is [`PositionString::from_position`] (`to_string()` gives the text):
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_notation::{PositionString, read_position};
/// let pos = read_position("ffa", Rules::standard())?;
/// assert_eq!(pos, Position::start(Variant::FreeForAll, Rules::standard()));
/// let text = PositionString::from_position(&pos).to_string();
/// assert_eq!(read_position(&text, Rules::standard())?, pos);
/// # Ok::<(), ploy_notation::ReadPositionError>(())
/// ```
///
/// ```
/// use ploy_core::Rules;
/// let pos = ploy_notation::read_position(
///     ",,,,w170,,,,/,,,,,,,,/,,,,w1,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b16,,,,/,,,,,,,,/,,,,b170,,,, w",
///     Rules::university(),
/// )?;
/// // Red's commander on e9 has 2 steps and 4 turns, its shield on e7 8 + 7 moves.
/// assert_eq!(pos.legal_moves().len(), 21);
/// # Ok::<(), ploy_notation::ReadPositionError>(())
/// ```
///
/// # Errors
/// [`ReadPositionError::Malformed`] or [`ReadPositionError::Invalid`].
pub fn read_position(text: &str, rules: Rules) -> Result<Position, ReadPositionError> {
    read_position_bytes(text.as_bytes(), rules)
}

/// [`read_position`] on bytes (any bytes: the input need not be UTF-8).
///
/// # Errors
/// [`ReadPositionError::Malformed`] or [`ReadPositionError::Invalid`].
pub fn read_position_bytes(text: &[u8], rules: Rules) -> Result<Position, ReadPositionError> {
    let variant = match text {
        b"start" => Variant::TwoPlayer,
        b"ffa" => Variant::FreeForAll,
        b"partnership" => Variant::Partnership,
        _ => {
            let parsed = PositionString::from_ascii(text)?;
            return Ok(parsed.to_position(rules)?);
        }
    };
    Ok(Position::start(variant, rules))
}
