//! Four-player board strings and position strings (free-for-all and partnership games,
//! `docs/notation.md` section 6): the university format extended to four colours, with the variant,
//! the seat to move, the controllers and the seats out of play.
//!
//! # Grammar
//!
//! ```text
//! position    := variant ' ' board ' ' turn ' ' controllers ' ' out
//! variant     := 'ffa' | 'partnership'
//! board       := as in the two-player board string (see crate::board), with colours
//! colour      := 'g' | 'r' | 'y' | 'b'                    (Green, Red, Yellow, Blue)
//! turn        := seat                                     (the seat whose turn it is)
//! controllers := seat seat seat seat     (who controls Green's, Red's, Yellow's, Blue's pieces)
//! out         := '-' | seat+            (the seats out of play, in turn order, each once)
//! seat        := 'g' | 'r' | 'y' | 'b'
//! ```
//!
//! The board has the two-player board string's shape (ranks 9 down to 1 separated by `/`,
//! squares `a`..`i` separated by `,`, a square empty or a colour letter and the decimal mask
//! 1..255), but its letters are the four colours: here `b` is **Blue**, not the two-player
//! bottom side.
//!
//! - `turn` is the seat whose turn it is, which is not always the player who moves: in a
//!   partnership game a partner plays the turns of an absorbed team mate
//!   ([`Position::mover`] follows from the string and the rules).
//! - `controllers` gives, for each colour in turn order, the seat that moves its pieces:
//!   `gryb` at the start; `ggyb` after Green eliminated Red in a free-for-all.
//! - `out` lists the seats no longer in play (eliminated), `-` if none.
//!
//! The rules are not part of the string (as for two players): they are given when the text
//! becomes a position ([`FourPlayerPositionString::to_position`]), which checks that the
//! controllers and seats in play can arise under them ([`Position::from_setup`]).
//!
//! # Examples
//!
//! The free-for-all start position, Green to move, everybody in play:
//!
//! ```text
//! ffa r85,r28,r48,,,,y24,y168,y85/r42,r20,r8,,,,y32,y80,y112/r6,r8,r8,,,,y32,y32,y192/,,,,,,,,/,,,,,,,,/,,,,,,,,/g12,g2,g2,,,,b128,b128,b96/g7,g5,g2,,,,b128,b65,b162/g85,g138,g129,,,,b3,b193,b85 g gryb -
//! ```
//!
//! A free-for-all game in which Green took Red's commander (Red's pieces are Green's now,
//! Red's turns are skipped) and Yellow is to move:
//!
//! ```
//! use ploy_core::{Rules, Seat, SeatSet, Variant};
//! use ploy_notation::{FourPlayerPositionString, PositionString};
//! let text = "ffa r16,,,,,,,y16,y85/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,g17,,,,/,,,,,,,,/,,,,,,,,/\
//!             ,,,,,,,,/g85,,,,,,,b1,b85 y ggyb r";
//! let parsed: FourPlayerPositionString = text.parse()?;
//! assert_eq!(parsed.variant(), Variant::FreeForAll);
//! assert_eq!(parsed.controllers(), [Seat::Green, Seat::Green, Seat::Yellow, Seat::Blue]);
//! assert_eq!(parsed.out_of_play(), SeatSet::only(Seat::Red));
//! let pos = parsed.to_position(Rules::university())?;
//! assert_eq!(pos.controller(Seat::Red), Seat::Green);
//! assert_eq!(pos.in_play(), SeatSet::ALL.without(Seat::Red));
//! assert_eq!(PositionString::from_position(&pos).to_string(), text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A partnership game in which Red lost his commander and Blue absorbed him: Red's seat is
//! out of play, Blue controls Red's pieces and plays Red's turns (here it is Red's turn, so
//! Blue moves): `partnership <board> r gbyb r`.
//!
//! # Never mistaken for a two-player string
//!
//! A four-player string starts with the word `ffa` or `partnership`; a two-player string
//! starts with its board, whose first byte is `,`, whitespace, `b` or `w`. So no text is
//! both: the two-player reader rejects every four-player string (a two-player board cannot
//! start with `f` or `p`; the reader may report its side to move first), and [`crate::PositionString`] reads text that starts
//! with `ffa` or `partnership` as a four-player string and anything else as a two-player
//! string, whose syntax and errors are unchanged.
//!
//! # Leniency
//!
//! - **Board:** exactly as lenient as the two-player board (ASCII whitespace around each
//!   field, nothing else), with the letters `g`, `r`, `y`, `b` instead of `b`, `w`.
//! - **Everything else is strict:** the variant word at byte 0, then single spaces between
//!   the fields (the board may not begin or end with whitespace:
//!   [`crate::ParsePositionError::Separator`]), `turn` one letter, `controllers` exactly four letters, `out` either `-` or
//!   the seats in turn order without repetition (`rb`, not `br` or `rr`); lower case only;
//!   nothing after `out`, not even a line ending.
//! - The fields after the board are found from the end: the text after the last three
//!   spaces (fewer than three spaces after the variant, or `,` or `/` in one of those
//!   fields, is reported as missing fields at the end of the input). Errors report the
//!   variant first, then missing fields, the seat to move, the controllers, the seats out of
//!   play, and then the board (ranks 9 to 1, files `a` to `i`), each with its byte offset
//!   (from the start of the input) and what was expected.
//!
//! # Round trip
//!
//! Every state a four-player game can reach (board, variant, seat to move, controllers,
//! seats in play) has exactly one canonical string, and reading it back with the same rules
//! gives the same state and hash. A decided game's winners follow from the seats in play;
//! why the last opponent went out (commander captured or only commanders left) is history,
//! not state, and is judged again from the board ([`Position::from_setup`]).

use core::fmt;
use core::num::NonZeroU8;

use ploy_core::{
    Board, Flags, InvalidFlags, Piece, Position, Rules, Seat, SeatSet, Setup, Square, Variant,
};

use crate::board::{Letters, board_from_fields, parse_grid, write_grid};
use crate::util::is_ws;
use crate::{InvalidPositionError, NotAPieceError, ParseBoardError, ParsePositionError};

/// The letter of a seat (and colour) in four-player strings: `g`, `r`, `y` or `b`.
#[must_use]
pub const fn seat_letter(seat: Seat) -> char {
    match seat {
        Seat::Green => 'g',
        Seat::Red => 'r',
        Seat::Yellow => 'y',
        Seat::Blue => 'b',
    }
}

/// The seat with this letter in four-player strings (`g`, `r`, `y` or `b`, lower case
/// only).
#[must_use]
pub const fn seat_from_letter(byte: u8) -> Option<Seat> {
    match byte {
        b'g' => Some(Seat::Green),
        b'r' => Some(Seat::Red),
        b'y' => Some(Seat::Yellow),
        b'b' => Some(Seat::Blue),
        _ => None,
    }
}

/// What the last field of a four-player position string holds.
const OUT_EXPECTED: &str = "the seats out of play, `-` or letters `g`, `r`, `y`, `b` in turn order";

/// Whether `text` is to be read as a four-player position string: it starts with `ffa` or
/// `partnership`.
pub(crate) fn starts_four_player(text: &[u8]) -> bool {
    text.starts_with(b"ffa") || text.starts_with(b"partnership")
}

/// One occupied field of a four-player board string: a colour and a mask 1..255, not yet
/// checked to be a piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RawFourPlayerPiece {
    /// Whose piece it is.
    pub colour: Seat,
    /// The direction mask as written (bit 0 north, clockwise).
    pub mask: NonZeroU8,
}

impl RawFourPlayerPiece {
    /// The core piece, if the mask has 1 to 4 flags.
    ///
    /// # Errors
    /// [`InvalidFlags`] for a mask with 5 to 8 flags.
    pub const fn to_piece(self) -> Result<Piece, InvalidFlags> {
        Piece::new(self.colour, Flags::new(self.mask.get()))
    }

    /// The field for a piece (any colour).
    #[must_use]
    pub const fn from_piece(piece: Piece) -> RawFourPlayerPiece {
        RawFourPlayerPiece {
            colour: piece.colour(),
            // A piece has 1 to 4 flags, so its mask is never 0.
            mask: match NonZeroU8::new(piece.flags().bits()) {
                Some(mask) => mask,
                None => NonZeroU8::MIN,
            },
        }
    }
}

impl fmt::Display for RawFourPlayerPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", seat_letter(self.colour), self.mask)
    }
}

/// A four-player board string, parsed but not validated: the two-player board string's
/// shape with the colour letters `g`, `r`, `y`, `b` (see the [module docs](self)).
///
/// ```
/// use ploy_core::{Seat, Square};
/// use ploy_notation::FourPlayerBoardString;
/// let text = ",,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,y1,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,b170";
/// let board: FourPlayerBoardString = text.parse()?;
/// assert_eq!(board.get(Square::I1).unwrap().colour, Seat::Blue);
/// assert_eq!(board.to_string(), text);
/// # Ok::<(), ploy_notation::ParseBoardError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct FourPlayerBoardString {
    squares: [Option<RawFourPlayerPiece>; 81],
}

impl FourPlayerBoardString {
    /// A board with no pieces.
    #[must_use]
    pub const fn empty() -> FourPlayerBoardString {
        FourPlayerBoardString {
            squares: [None; 81],
        }
    }

    /// What is written on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<RawFourPlayerPiece> {
        self.squares[sq.index()]
    }

    /// Sets what is written on `sq`.
    pub fn set(&mut self, sq: Square, field: Option<RawFourPlayerPiece>) {
        self.squares[sq.index()] = field;
    }

    /// The text of a board: the pieces of `board` as fields (any colours).
    #[must_use]
    pub fn from_board(board: &Board) -> FourPlayerBoardString {
        let mut out = FourPlayerBoardString::empty();
        for (square, piece) in board.pieces() {
            out.set(square, Some(RawFourPlayerPiece::from_piece(piece)));
        }
        out
    }

    /// The validity stage, first half: the core board, if every mask is a piece.
    ///
    /// # Errors
    /// [`NotAPieceError`] for the first field (in text order: rank 9 to 1, file `a` to `i`)
    /// whose mask has 5 to 8 flags.
    pub fn to_board(&self) -> Result<Board, NotAPieceError> {
        board_from_fields(|sq| self.get(sq).map(RawFourPlayerPiece::to_piece))
    }

    /// Reads a four-player board string from bytes (any bytes: the input need not be
    /// UTF-8).
    ///
    /// # Errors
    /// [`ParseBoardError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<FourPlayerBoardString, ParseBoardError> {
        parse_four_board(text, 0)
    }
}

fn parse_four_board(text: &[u8], base: usize) -> Result<FourPlayerBoardString, ParseBoardError> {
    let grid = parse_grid(text, base, Letters::FourPlayer)?;
    let mut board = FourPlayerBoardString::empty();
    for (i, field) in grid.iter().enumerate() {
        if let Some((letter, mask)) = *field {
            if let Some(colour) = seat_from_letter(letter) {
                board.squares[i] = Some(RawFourPlayerPiece { colour, mask });
            }
        }
    }
    Ok(board)
}

impl Default for FourPlayerBoardString {
    fn default() -> FourPlayerBoardString {
        FourPlayerBoardString::empty()
    }
}

impl fmt::Debug for FourPlayerBoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourPlayerBoardString({self})")
    }
}

impl fmt::Display for FourPlayerBoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid(f, |sq| self.get(sq))
    }
}

crate::util::from_str_via_ascii!(FourPlayerBoardString => ParseBoardError);

/// The two four-player games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Game {
    FreeForAll,
    Partnership,
}

impl Game {
    const fn word(self) -> &'static str {
        match self {
            Game::FreeForAll => "ffa",
            Game::Partnership => "partnership",
        }
    }

    const fn variant(self) -> Variant {
        match self {
            Game::FreeForAll => Variant::FreeForAll,
            Game::Partnership => Variant::Partnership,
        }
    }
}

/// A four-player position string, parsed but not validated:
/// `<ffa|partnership> <board> <turn> <controllers> <out>` (see the [module docs](self)).
///
/// ```
/// use ploy_core::{Position, Rules, Seat, SeatSet, Variant};
/// use ploy_notation::{FourPlayerPositionString, PositionString};
/// let pos = Position::start(Variant::Partnership, Rules::university());
/// let text = PositionString::from_position(&pos).to_string();
/// assert_eq!(
///     text,
///     "partnership ,r84,r170,r56,,b56,b170,b84,/,r24,r40,r48,,b24,b40,b48,/\
///      ,r16,r16,r16,,b16,b16,b16,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,g1,g1,g1,,y1,y1,y1,/\
///      ,g3,g130,g129,,y3,y130,y129,/,g69,g170,g131,,y131,y170,y69, g gryb -"
/// );
/// let parsed: FourPlayerPositionString = text.parse()?;
/// assert_eq!(parsed.turn(), Seat::Green);
/// assert_eq!(parsed.out_of_play(), SeatSet::EMPTY);
/// assert_eq!(parsed.to_position(Rules::university())?, pos);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct FourPlayerPositionString {
    game: Game,
    board: FourPlayerBoardString,
    turn: Seat,
    controllers: [Seat; 4],
    out: SeatSet,
}

impl FourPlayerPositionString {
    /// The string with these fields, or `None` if `variant` is not a four-player game.
    #[must_use]
    pub const fn new(
        variant: Variant,
        board: FourPlayerBoardString,
        turn: Seat,
        controllers: [Seat; 4],
        out_of_play: SeatSet,
    ) -> Option<FourPlayerPositionString> {
        let game = match variant {
            Variant::FreeForAll => Game::FreeForAll,
            Variant::Partnership => Game::Partnership,
            _ => return None,
        };
        Some(FourPlayerPositionString {
            game,
            board,
            turn,
            controllers,
            out: SeatSet::from_bits(out_of_play.bits() & SeatSet::ALL.bits()),
        })
    }

    /// The string of a four-player position, or `None` for a two-player position.
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<FourPlayerPositionString> {
        pos.variant()
            .is_four_player()
            .then(|| FourPlayerPositionString::of(pos))
    }

    /// The string of `pos`, read as a four-player position (a partnership game if it is
    /// one, else a free-for-all).
    pub(crate) fn of(pos: &Position) -> FourPlayerPositionString {
        let game = if pos.variant() == Variant::Partnership {
            Game::Partnership
        } else {
            Game::FreeForAll
        };
        FourPlayerPositionString {
            game,
            board: FourPlayerBoardString::from_board(pos.board()),
            turn: pos.turn(),
            controllers: Seat::ALL.map(|c| pos.controller(c)),
            out: SeatSet::from_bits(SeatSet::ALL.bits() & !pos.in_play().bits()),
        }
    }

    /// The variant: [`Variant::FreeForAll`] or [`Variant::Partnership`].
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &FourPlayerBoardString {
        &self.board
    }

    /// The seat whose turn it is.
    #[must_use]
    pub const fn turn(&self) -> Seat {
        self.turn
    }

    /// `controllers()[c]`: the seat controlling the pieces of colour `c`.
    #[must_use]
    pub const fn controllers(&self) -> [Seat; 4] {
        self.controllers
    }

    /// The seats no longer in play.
    #[must_use]
    pub const fn out_of_play(&self) -> SeatSet {
        self.out
    }

    /// The validity stage, first half: the unvalidated core setup.
    ///
    /// # Errors
    /// [`NotAPieceError`] for a mask with 5 to 8 flags.
    pub fn to_setup(&self) -> Result<Setup, NotAPieceError> {
        Ok(Setup {
            board: self.board.to_board()?,
            variant: self.variant(),
            turn: self.turn,
            controllers: self.controllers,
            in_play: SeatSet::from_bits(SeatSet::ALL.bits() & !self.out.bits()),
        })
    }

    /// The validity stage: the position, played by `rules`.
    ///
    /// # Errors
    /// [`InvalidPositionError`]: a mask that is not a piece, or a setup that is not a valid
    /// four-player position under `rules` (armies, controllers, seats in play, a player in
    /// play who already meets the elimination test, a seat to move nobody plays).
    pub fn to_position(&self, rules: Rules) -> Result<Position, InvalidPositionError> {
        Ok(Position::from_setup(self.to_setup()?, rules)?)
    }

    /// Reads a four-player position string from bytes (any bytes: the input need not be
    /// UTF-8). See the [module docs](self) for the grammar and the leniency.
    ///
    /// # Errors
    /// [`ParsePositionError`] with what is wrong and where: [`ParsePositionError::FourPlayer`]
    /// for the fields outside the board, [`ParsePositionError::Board`] for the board.
    pub fn from_ascii(text: &[u8]) -> Result<FourPlayerPositionString, ParsePositionError> {
        let at = |offset: usize, expected: &'static str| ParsePositionError::FourPlayer {
            offset,
            expected,
            found: text.get(offset).copied(),
        };
        let game = if text.starts_with(b"ffa") {
            Game::FreeForAll
        } else if text.starts_with(b"partnership") {
            Game::Partnership
        } else {
            return Err(at(0, "`ffa` or `partnership`"));
        };
        let word = game.word().len();
        if text.get(word) != Some(&b' ') {
            return Err(at(word, "a space after the variant"));
        }
        let rest_at = word + 1;
        let rest = &text[rest_at..];
        if rest.first().copied().is_some_and(is_ws) {
            return Err(ParsePositionError::Separator { offset: rest_at });
        }
        // The three fields after the board, found from the end.
        let missing = || ParsePositionError::FourPlayer {
            offset: text.len(),
            expected: "the board, the seat to move, the controllers and the seats out of \
                       play, separated by single spaces",
            found: None,
        };
        let space = |end: usize| rest[..end].iter().rposition(|&b| b == b' ');
        let s3 = space(rest.len()).ok_or_else(missing)?;
        let s2 = space(s3).ok_or_else(missing)?;
        let s1 = space(s2).ok_or_else(missing)?;
        if s3 + 1 == rest.len() {
            // A space ends the text: the seats out of play are missing.
            return Err(at(text.len(), OUT_EXPECTED));
        }
        if rest[s1 + 1..].iter().any(|&b| b == b',' || b == b'/') {
            return Err(missing());
        }
        let ws = rest[..s1].iter().rev().take_while(|&&b| is_ws(b)).count();
        if ws > 0 {
            return Err(ParsePositionError::Separator {
                offset: rest_at + s1 - ws,
            });
        }
        // The seat to move.
        let turn_at = rest_at + s1 + 1;
        let turn = seat_from_letter(rest[s1 + 1])
            .filter(|_| s2 > s1 + 1)
            .ok_or_else(|| at(turn_at, "the seat to move, `g`, `r`, `y` or `b`"))?;
        if s2 > s1 + 2 {
            return Err(at(turn_at + 1, "a space after the seat to move"));
        }
        // The controllers.
        const CONTROLLER: [&str; 4] = [
            "the controller of Green's pieces, `g`, `r`, `y` or `b`",
            "the controller of Red's pieces, `g`, `r`, `y` or `b`",
            "the controller of Yellow's pieces, `g`, `r`, `y` or `b`",
            "the controller of Blue's pieces, `g`, `r`, `y` or `b`",
        ];
        let controllers_at = rest_at + s2 + 1;
        let controllers_text = &rest[s2 + 1..s3];
        let mut controllers = [Seat::Green; 4];
        for (i, c) in controllers.iter_mut().enumerate() {
            *c = controllers_text
                .get(i)
                .and_then(|&b| seat_from_letter(b))
                .ok_or_else(|| at(controllers_at + i, CONTROLLER[i]))?;
        }
        if controllers_text.len() > 4 {
            return Err(at(controllers_at + 4, "a space after the four controllers"));
        }
        // The seats out of play.
        let out_at = rest_at + s3 + 1;
        let out_text = &rest[s3 + 1..];
        let mut out = SeatSet::EMPTY;
        if out_text == b"-" {
            // Nobody is out.
        } else if out_text.first() == Some(&b'-') {
            return Err(at(out_at + 1, "the end of the input after `-`"));
        } else if out_text.is_empty() {
            return Err(at(out_at, OUT_EXPECTED));
        } else {
            let mut last = None;
            for (i, &b) in out_text.iter().enumerate() {
                let Some(seat) = seat_from_letter(b) else {
                    return Err(at(
                        out_at + i,
                        "a seat out of play, `g`, `r`, `y` or `b` (or `-` alone for none)",
                    ));
                };
                if last.is_some_and(|l: Seat| l.index() >= seat.index()) {
                    return Err(at(
                        out_at + i,
                        "the seats out of play in turn order `g`, `r`, `y`, `b`, each once",
                    ));
                }
                last = Some(seat);
                out = out.with(seat);
            }
        }
        let board = parse_four_board(&rest[..s1], rest_at)?;
        Ok(FourPlayerPositionString {
            game,
            board,
            turn,
            controllers,
            out,
        })
    }
}

impl fmt::Display for FourPlayerPositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        write!(
            f,
            "{} {} {} ",
            self.game.word(),
            self.board,
            seat_letter(self.turn)
        )?;
        for c in self.controllers {
            f.write_char(seat_letter(c))?;
        }
        f.write_char(' ')?;
        if self.out.is_empty() {
            f.write_char('-')
        } else {
            for s in self.out.iter() {
                f.write_char(seat_letter(s))?;
            }
            Ok(())
        }
    }
}

crate::util::from_str_via_ascii!(FourPlayerPositionString => ParsePositionError);
