//! Text forms of Ploy positions and moves: board strings and position strings (the
//! university "FEN" format), university move strings (`e3-e4-0`) and Tensi's algebraic
//! notation (`e4xf5`, `c3+3`, `e7-d6+2`). For players they are described in
//! `docs/notation.md` in the repository (also `ploy::docs::notation` in the facade's
//! documentation); this page is for programmers.
//!
//! # Positions to text and back
//!
//! One call each way: [`read_position`] reads a position string of any variant (or the
//! words `start`, `ffa`, `partnership`) into a [`Position`];
//! [`PositionString::from_position`] writes any position (`to_string()` gives the text).
//!
//! ```
//! use ploy_core::{Position, Rules};
//! use ploy_notation::{PositionString, read_position};
//!
//! let pos: Position = read_position("start", Rules::standard())?;
//! let text: String = PositionString::from_position(&pos).to_string();
//! assert!(text.ends_with(",b69,b146,b131,b170,b131,b146,b69, b"));
//! assert_eq!(read_position(&text, Rules::standard())?, pos);
//! # Ok::<(), ploy_notation::ReadPositionError>(())
//! ```
//!
//! A move's own text, the university string, is ploy-core's ([`Move`]'s `Display` and
//! `FromStr`); this crate adds resolution against a position and Tensi's notation.
//!
//! Every codec has two stages, as in the chess libraries this workspace learns from:
//!
//! 1. **Syntax**, context-free: [`BoardString`], [`PositionString`] (two-player
//!    [`TwoPlayerPositionString`] or four-player [`FourPlayerPositionString`]),
//!    [`UniversityMove`], [`AlgebraicMove`] read text with `FromStr` / `from_ascii` (any bytes, never a panic)
//!    and write their canonical text with `Display`, without allocating. Malformed text gives
//!    a [`ParseBoardError`], [`ParsePositionError`] or [`ParseMoveError`] that says what is
//!    wrong and where (byte offset, rank or square, what was expected; for move text the
//!    character, counting from 1, and the character found there). No error quotes more
//!    than a bounded [`excerpt`] of the input.
//! 2. **Resolution** against the rules: a position string becomes a [`Position`] through
//!    [`PositionString::to_position`] ([`InvalidPositionError`]: a mask that is not a piece,
//!    or a board that breaks the rules of a valid position); a move text becomes the one legal
//!    [`Move`] it names through `to_move(&position)` ([`IllegalMoveError`], with the reason).
//!
//! [`read_position`], [`read_university`] and [`read_algebraic`] do both stages at once,
//! with errors that keep "malformed" ([`ReadPositionError::Malformed`],
//! [`ReadMoveError::Malformed`]) apart from "not valid / not legal here".
//!
//! Each module's docs say exactly how lenient its parser is: [`board`] and [`four_player`]
//! (whitespace around squares, nothing else; exactly one space between the fields),
//! [`university`] (nothing), [`algebraic`] (any case, `-`/`x` either way or no separator,
//! optional `#`, any `+n`/`-n`, university strings).
//!
//! # Example
//!
//! ```
//! use ploy_core::{Move, Rules, Square};
//! use ploy_notation::{AlgebraicMove, PositionString, UniversityMove, read_position};
//!
//! // A hand-built position: Tensi's light lance on e4 (flags NE, S, NW = mask 146).
//! let text = "\
//!     w16,,,,w170,,,,/,,,,,,,,/,,,,,,,,/,,b1,,,,,,/,,,,,w1,,,/,,,,b146,,,,/\
//!     ,,,,,,,,/,,,,,,,,/b170,,,,,,,, b";
//! let pos = read_position(text, Rules::university())?;
//!
//! // Read moves in either notation, resolved against the position.
//! let capture: AlgebraicMove = "e4xf5".parse()?;
//! assert_eq!(capture.to_move(&pos)?, Move::new(Square::E4, Square::F5, 0));
//! assert_eq!(AlgebraicMove::from_move(&pos, capture.as_move()).to_string(), "e4xf5");
//! let step: UniversityMove = "e4-e1-0".parse()?;
//! assert_eq!(step.to_move(&pos)?, Move::new(Square::E4, Square::E1, 0));
//! assert!("e4-c6".parse::<AlgebraicMove>()?.to_move(&pos).is_err()); // own piece on c6
//!
//! // Write them back: the capture gets its `x`, a turn counterclockwise its `+`.
//! let turn = Move::turn(Square::E4, 5);
//! assert_eq!(AlgebraicMove::from_move(&pos, turn).to_string(), "e4+3");
//! assert_eq!(UniversityMove::from(turn).to_string(), "e4-e4-5");
//! assert_eq!(PositionString::from_position(&pos).to_string(), text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Four-player positions have their own string, which starts with the variant:
//!
//! ```
//! use ploy_core::{Position, Rules, Variant};
//! use ploy_notation::{PositionString, read_position};
//!
//! let ffa = Position::start(Variant::FreeForAll, Rules::university());
//! let text = PositionString::from_position(&ffa).to_string();
//! assert!(text.starts_with("ffa r85,r28,r48,,,,y24,y168,y85/"));
//! assert!(text.ends_with(",b3,b193,b85 g gryb -")); // Green to move, own colours, nobody out
//! assert_eq!(read_position(&text, Rules::university())?, ffa);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Choices where the rules are silent
//!
//! - Position strings are split at their last space; nothing may follow the side to move.
//! - A mask with 5 to 8 flags is well-formed text (the university format allows 1..255) and
//!   rejected by the validity stage, naming the square ([`NotAPieceError`]).
//! - `#` on a move that does not win, and `-`/`x` that do not match the capture, are
//!   accepted on input and ignored; output always has the right ones.
//! - A direction move by 0 (never legal) is written `e4-0` so that every syntax value writes
//!   text that reads back as itself.
//! - Four-player positions have their own string ([`four_player`]):
//!   `ffa <board> <turn> <controllers> <out>` or `partnership ...`, with the colour letters
//!   `g`, `r`, `y`, `b`. It starts with the variant word, which no two-player string can,
//!   so neither form is ever mistaken for the other; [`PositionString`] reads and writes
//!   both, and the two-player form is unchanged.
//! - Algebraic notation is the same in every variant; `#` marks a move after which fewer
//!   players are in play (it eliminates a player, or wins the game).
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for the syntax types as their canonical strings
//!   (deserializing runs the parser), and for [`Side`].
//! - `fuzzing`: exposes the module `fuzzing`, the bodies of the cargo-fuzz targets, for the fuzz
//!   crate. Not a stable API.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod algebraic;
pub mod board;
pub mod conformance;
pub mod four_player;
mod moves;
mod picture;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod university;
mod util;

#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;

pub use algebraic::{AlgebraicMove, read_algebraic};
pub use board::{
    BoardString, InvalidPositionError, NotAPieceError, NotTwoPlayerError, ParseBoardError,
    ParsePositionError, PositionString, RawPiece, ReadPositionError, Side, TwoPlayerPositionString,
    read_position, read_position_bytes,
};
pub use four_player::{
    FourPlayerBoardString, FourPlayerPositionString, RawFourPlayerPiece, seat_from_letter,
    seat_letter,
};
pub use moves::{IllegalMoveError, ParseMoveError, ReadMoveError, check_legal};
pub use picture::{board_picture, board_picture_turned};
pub use university::{UniversityMove, read_university};
pub use util::{EXCERPT_CHARS, excerpt};

#[doc(no_inline)]
pub use ploy_core::{Move, Position};
