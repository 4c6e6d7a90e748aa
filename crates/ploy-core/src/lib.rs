//! The rules of Ploy, the 1970 3M strategy game: squares, pieces with their direction
//! flags, positions, legal moves, make/unmake, Zobrist hashing, outcomes, games and perft.
//!
//! This crate is the only one in the `ploy` workspace that knows the rules; it knows no text
//! format beyond a square's name (`e4`). The rules for users are `docs/rules.md` in the
//! repository (also `ploy::docs::rules` in the facade's documentation); where they leave
//! room, the choices are written down here.
//!
//! # Example
//!
//! ```
//! use ploy_core::{perft, Game, Move, Outcome, Position, Rules, Seat, Square};
//!
//! // The two-player start position: Green (the university format's "black") moves first.
//! let pos = Position::new();
//! assert_eq!(pos.turn(), Seat::BLACK);
//! assert_eq!(pos.legal_moves().len(), 145);
//! assert_eq!(perft(&pos, 2), 21_025);
//!
//! // A game checks every move and keeps the history for the draw rules.
//! let mut game = Game::new(Rules::standard());
//! game.play(Move::new(Square::E3, Square::E4, 0))?; // the shield steps forward
//! game.play(Move::turn(Square::E9, 1))?;            // the red commander turns
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), ploy_core::GameError>(())
//! ```
//!
//! # Choices where the rules are silent
//!
//! - **Seats.** One type, [`Seat`], for all variants: Green, Red, Yellow, Blue in turn order.
//!   The two-player game is Green (first, bottom; [`Seat::BLACK`]) against Red
//!   ([`Seat::WHITE`]).
//! - **Moves** are plain `(from, to, rotation)` triples packed in 16 bits; any triple is a
//!   [`Move`], legal or not. Two moves leading to the same position (a commander turned by 1
//!   and by 3) are distinct.
//! - **Move lists** hold [`MAX_MOVES`] = 512 moves on the stack; the bound is proved in its
//!   docs and asserted at compile time.
//! - **Hashing.** Zobrist hashing with keys drawn from SplitMix64 seeded with
//!   [`ZOBRIST_SEED`], in this order: one key per colour and square (colours Green, Red,
//!   Yellow, Blue; squares by index), one per direction and square (directions N..NW), one
//!   per seat to move, one per colour and controller, one per seat out of play. A position's
//!   hash is the XOR of the key of the seat to move, for each piece its colour key and one
//!   flag key per flag on its square, the controller key of each colour controlled by
//!   another seat, and the out-of-play key of each seat of the variant no longer in play.
//!   The keys and this recipe are stable across runs, platforms and versions of this crate
//!   (a test derives them independently).
//! - **Decided positions.** A position whose board already decides the game (one side has no
//!   commander, or only commanders under strict elimination) has an [`Outcome`] and no legal
//!   moves. The turn still passes after the deciding move. If both sides of a two-player
//!   setup are eliminated, the side not to move wins.
//! - **Draw rules** belong to a [`Game`]: the repetition count compares board, seat to move,
//!   controllers and seats in play, counting only positions since the last capture; the
//!   no-capture count starts at zero at the game's first position. A win by the board takes
//!   precedence over a draw rule.
//! - **Attacks.** [`Position::attacks`] lists where a piece could move or capture;
//!   [`Position::attackers`] the pieces of a seat that could capture on a square.
//!
//! # Valid positions
//!
//! [`Position::from_setup`] (and so every position string, and every position read with
//! `serde`) accepts a setup only if a game could be in that state, so no search, replay or
//! program meets a state the rules never produce. What it rejects ([`SetupProblem`]):
//!
//! - a mask that is not a piece, a colour that does not play in the variant, or more pieces
//!   of a kind than the start army (pieces are never created in play);
//! - a two-player board **without any commander** ([`SetupProblem::NoCommander`]). A
//!   board may show a decided game, and then its outcome is reported: one side without its
//!   commander (the other side won), or both sides eliminated (under strict elimination a
//!   side with only its commander is eliminated, so two bare commanders are both out; the
//!   side not to move, who moved last, wins). But the game ends at the first commander
//!   capture, under every rule option, so no game ever reaches a board with no commander
//!   at all;
//! - four players: controllers and seats in play that the rules cannot produce, a player in
//!   play who already meets the elimination test, a seat to move nobody plays, and an
//!   out-of-play colour whose commander stands beside other pieces of its colour
//!   ([`SetupProblem::OutOfPlayWithArmy`]): a player goes out when his commander is
//!   captured (then it is gone) or when every piece he controls is a commander (then his
//!   own colour has only its commander left), and pieces never come back.
//!
//! What is reachable under *some* rule options is accepted under all of them (a board
//! whose side has only its commander arises under relaxed elimination and is judged by the
//! rules given), so [`Position::with_rules`] never fails for a two-player position.
//!
//! # Speed
//!
//! Legal moves are counted and generated set-wise. Besides its squares, the [`Board`] keeps
//! the squares of the pieces with a flag in each direction ([`Board::with_flag`]) and of
//! each kind ([`Board::by_kind`]), updated by every move without a branch per flag. Per
//! direction, a few shifts and ANDs of these sets with the empty squares and the squares not
//! held by a friend give the pieces whose move by one, two or three squares is legal; the
//! counter ([`Position::count_legal_moves`], which [`perft`] uses for the last ply) adds
//! these sets with carry-save adders and one population count, which needs no
//! population-count instruction, so a build for the default target loses little;
//! [`Position::generate_moves`] writes the same sets out in the documented order.
//!
//! Measured figures, with the commands that measure them, are kept in one place:
//! `docs/speed.md` in the repository. A build for the processor it runs on
//! (`RUSTFLAGS="-C target-cpu=native" cargo build --release`, or `-C target-cpu=x86-64-v3`
//! for any x86-64 processor from about 2015 on) is a few per cent faster still; such a
//! binary does not start on older processors, so the repository never sets the flag.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for the small value types, [`Rules`], [`Outcome`],
//!   [`Position`] and [`Game`]. A [`Move`] travels as its university move string
//!   (`"c8-c6-0"`), a [`Square`] as its name (`"e4"`), a [`SeatSet`] as a list of seats
//!   (`TextVisitor` reads such text for the crates built on this one). A
//!   position travels as its setup (variant, rules, seat to move, controllers, seats in
//!   play, the pieces by square and, when it is won, `won_by`, the reason, which the board
//!   alone does not always tell) and is read through [`Position::from_setup`], the same
//!   checks a position string goes through (a `won_by` that does not fit is refused); a game travels as its start position, its moves
//!   and a recorded ending (resignation, time forfeit, agreed draw), and is read by
//!   replaying the moves from the start. So no impossible position or game can be built by
//!   deserializing: tampered data is refused with an error.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use ploy_core::{Game, Rules};
//! let mut game = Game::new(Rules::standard());
//! game.play("e3-e4-0".parse()?)?;
//! let json = serde_json::to_string(&game)?;
//! assert!(json.contains(r#""moves":["e3-e4-0"]"#));
//! assert_eq!(serde_json::from_str::<Game>(&json)?, game);
//! let tampered = json.replace("e3-e4-0", "e3-e5-0");
//! assert!(serde_json::from_str::<Game>(&tampered).is_err());
//! # Ok(()) }
//! # main().unwrap(); }
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitboard;
mod bitset;
mod board;
mod direction;
mod game;
mod movegen;
mod moves;
mod named;
mod perft;
mod piece;
mod position;
mod rules;
#[cfg(feature = "serde")]
mod serde_text;
mod square;
mod tables;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::Board;
pub use direction::{Direction, Flags, FlagsIter};
pub use game::{Ending, Game, GameError, Withdrawal};
pub use moves::{MAX_MOVES, Move, MoveIndexError, MoveList, MoveListIntoIter, ParseMoveError};
pub use perft::{divide, perft, perft_full};
pub use piece::{InvalidFlags, Piece, PieceKind, Seat, SeatSet};
pub use position::{IllegalMove, Position, PositionError, Setup, SetupProblem, Undo};
pub use rules::{
    BareCommander, DrawReason, Elimination, FOUR_PLAYER_ARMY, Outcome, ParseVariantError,
    PartnerElimination, Rotation, Rules, TWO_PLAYER_ARMY, Variant, WinReason,
};
#[cfg(feature = "serde")]
pub use serde_text::TextVisitor;
pub use square::{ParseSquareError, Square, SquareIndexError};
pub use tables::ZOBRIST_SEED;
