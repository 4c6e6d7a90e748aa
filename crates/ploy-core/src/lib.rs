//! The rules of Ploy, the 1970 3M strategy game: squares, pieces with their direction
//! flags, positions, legal moves, make/unmake, Zobrist hashing, outcomes, games and perft.
//!
//! This crate is the only one in the `ploy` workspace that knows the rules; it knows no text
//! format beyond a square's name (`e4`). The rules are those of the project's rule book
//! (`RULES.md`); where the sources are silent the choices are written down here.
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
//! # Choices where the rule book is silent
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
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for the small value types, [`Rules`] and [`Outcome`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bitboard;
mod board;
mod direction;
mod game;
mod moves;
mod perft;
mod piece;
mod position;
mod rules;
mod square;
mod tables;

pub use bitboard::{Bitboard, BitboardIter};
pub use board::Board;
pub use direction::{Direction, Flags, FlagsIter};
pub use game::{Ending, Game, GameError, Withdrawal};
pub use moves::{MAX_MOVES, Move, MoveIndexError, MoveList, MoveListIntoIter};
pub use perft::{divide, perft, perft_full};
pub use piece::{InvalidFlags, Piece, PieceKind, Seat, SeatSet};
pub use position::{IllegalMove, Position, PositionError, Setup, SetupProblem, Undo};
pub use rules::{
    BareCommander, DrawReason, Elimination, FOUR_PLAYER_ARMY, Outcome, PartnerElimination,
    Rotation, Rules, TWO_PLAYER_ARMY, Variant, WinReason,
};
pub use square::{ParseSquareError, Square, SquareIndexError};
pub use tables::ZOBRIST_SEED;
