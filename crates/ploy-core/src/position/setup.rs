//! [`Setup`], the unvalidated data a [`Position`](crate::Position) is built from, the start
//! layouts of every variant, and the reasons a setup is refused.

use crate::{Board, Flags, Piece, PieceKind, Seat, SeatSet, Square, Variant};

/// An unvalidated position: plain data to fill in, then turn into a
/// [`Position`](crate::Position) with [`Position::from_setup`](crate::Position::from_setup).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The game the position belongs to.
    pub variant: Variant,
    /// The seat to move.
    pub turn: Seat,
    /// `controllers[c]` is the seat controlling the pieces of colour `c`. In the two-player
    /// game every colour controls itself.
    pub controllers: [Seat; 4],
    /// The seats still in play (not eliminated). In the two-player game this is both seats:
    /// who is eliminated follows from the board.
    pub in_play: SeatSet,
}

impl Setup {
    /// A two-player setup with `board` and `turn` to move.
    #[must_use]
    pub fn two_player(board: Board, turn: Seat) -> Setup {
        Setup {
            board,
            variant: Variant::TwoPlayer,
            turn,
            controllers: Seat::ALL,
            in_play: SeatSet::TWO_PLAYER,
        }
    }

    /// The two-player start position (`docs/rules.md` section 5), Green (black) to move.
    #[must_use]
    pub fn start() -> Setup {
        // (file, rank, mask) for Green; Red's army is the same turned by 180 degrees.
        const GREEN: [(u8, u8, u8); 15] = [
            (1, 0, 69),
            (2, 0, 146),
            (3, 0, 131),
            (4, 0, 170),
            (5, 0, 131),
            (6, 0, 146),
            (7, 0, 69),
            (2, 1, 3),
            (3, 1, 130),
            (4, 1, 17),
            (5, 1, 130),
            (6, 1, 129),
            (3, 2, 1),
            (4, 2, 1),
            (5, 2, 1),
        ];
        let mut board = Board::empty();
        for (file, rank, mask) in GREEN {
            let g = Piece::new(Seat::Green, Flags::new(mask)).expect("start army masks are valid");
            board.put(Square::new(file, rank), g);
            let r = Piece::new(Seat::Red, Flags::new(mask).rotate(4)).expect("valid");
            board.put(Square::new(8 - file, 8 - rank), r);
        }
        Setup::two_player(board, Seat::Green)
    }
}

/// `(colour, square, mask)` of every piece of a four-player start layout.
type Layout = [(Seat, Square, u8); 36];

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;
const Y: Seat = Seat::Yellow;
const B: Seat = Seat::Blue;

/// `docs/rules.md` section 7, free-for-all: one corner each, commanders pointing N, E, S, W.
#[rustfmt::skip]
const FREE_FOR_ALL: Layout = [
    (G, Square::A1, 85), (G, Square::B1, 138), (G, Square::C1, 129), (G, Square::A2, 7),
    (G, Square::B2, 5), (G, Square::C2, 2), (G, Square::A3, 12), (G, Square::B3, 2),
    (G, Square::C3, 2),
    (R, Square::A7, 6), (R, Square::B7, 8), (R, Square::C7, 8), (R, Square::A8, 42),
    (R, Square::B8, 20), (R, Square::C8, 8), (R, Square::A9, 85), (R, Square::B9, 28),
    (R, Square::C9, 48),
    (Y, Square::G7, 32), (Y, Square::H7, 32), (Y, Square::I7, 192), (Y, Square::G8, 32),
    (Y, Square::H8, 80), (Y, Square::I8, 112), (Y, Square::G9, 24), (Y, Square::H9, 168),
    (Y, Square::I9, 85),
    (B, Square::G1, 3), (B, Square::H1, 193), (B, Square::I1, 85), (B, Square::G2, 128),
    (B, Square::H2, 65), (B, Square::I2, 162), (B, Square::G3, 128), (B, Square::H3, 128),
    (B, Square::I3, 96),
];

/// `docs/rules.md` section 7, partnership: Green and Yellow at the bottom, Red and Blue at
/// the top.
#[rustfmt::skip]
const PARTNERSHIP: Layout = [
    (G, Square::B1, 69), (G, Square::C1, 170), (G, Square::D1, 131), (G, Square::B2, 3),
    (G, Square::C2, 130), (G, Square::D2, 129), (G, Square::B3, 1), (G, Square::C3, 1),
    (G, Square::D3, 1),
    (R, Square::B7, 16), (R, Square::C7, 16), (R, Square::D7, 16), (R, Square::B8, 24),
    (R, Square::C8, 40), (R, Square::D8, 48), (R, Square::B9, 84), (R, Square::C9, 170),
    (R, Square::D9, 56),
    (Y, Square::F1, 131), (Y, Square::G1, 170), (Y, Square::H1, 69), (Y, Square::F2, 3),
    (Y, Square::G2, 130), (Y, Square::H2, 129), (Y, Square::F3, 1), (Y, Square::G3, 1),
    (Y, Square::H3, 1),
    (B, Square::F7, 16), (B, Square::G7, 16), (B, Square::H7, 16), (B, Square::F8, 24),
    (B, Square::G8, 40), (B, Square::H8, 48), (B, Square::F9, 56), (B, Square::G9, 170),
    (B, Square::H9, 84),
];

impl Setup {
    /// The start position of `variant`, Green to move: [`Setup::start`] for two players,
    /// the layouts of `docs/rules.md` section 7 for four.
    #[must_use]
    pub fn start_of(variant: Variant) -> Setup {
        let layout = match variant {
            Variant::TwoPlayer => return Setup::start(),
            Variant::FreeForAll => &FREE_FOR_ALL,
            Variant::Partnership => &PARTNERSHIP,
        };
        let mut board = Board::empty();
        for &(colour, sq, mask) in layout {
            board.put(
                sq,
                Piece::new(colour, Flags::new(mask)).expect("layout masks are valid"),
            );
        }
        Setup {
            board,
            variant,
            turn: Seat::Green,
            controllers: Seat::ALL,
            in_play: SeatSet::ALL,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// One reason a [`Setup`] is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupProblem {
    /// A piece's colour does not play in this variant.
    #[error("{square}: {colour} does not play in this variant")]
    ColourNotInVariant {
        /// Where the piece stands.
        square: Square,
        /// Its colour.
        colour: Seat,
    },
    /// A colour has more pieces of a kind than its start army.
    #[error("{colour} has {count} {kind}s; the start army has {max}")]
    TooManyPieces {
        /// The colour.
        colour: Seat,
        /// The kind.
        kind: PieceKind,
        /// How many it has.
        count: u32,
        /// How many the start army has.
        max: u32,
    },
    /// The seat to move does not play in this variant.
    #[error("{0} to move does not play in this variant")]
    TurnNotInVariant(Seat),
    /// Controllers or seats in play are not what this variant allows.
    #[error("controllers or seats in play do not fit this variant")]
    Control,
    /// `colour` is controlled by a seat that may not control it.
    #[error("{colour} cannot be controlled by {controller}")]
    Controller {
        /// The colour.
        colour: Seat,
        /// Its claimed controller.
        controller: Seat,
    },
    /// No player is in play.
    #[error("no player is in play")]
    NobodyInPlay,
    /// The seat to move has no turn: nobody plays it.
    #[error("{0} has no turn to take")]
    TurnNotTaken(Seat),
    /// A player in play already meets the elimination test, which cannot arise in play.
    #[error("{0} is in play but already eliminated")]
    ShouldBeEliminated(Seat),
    /// A two-player board without any commander: the game ends at the first commander
    /// capture, so no game reaches it.
    #[error("neither side has a commander; the game ends when the first one is captured")]
    NoCommander,
    /// A four-player colour out of play still has its commander and other pieces: a player
    /// goes out when his commander is captured or when only commanders are left to him, and
    /// pieces never come back, so no game reaches it.
    #[error(
        "{0} is out of play, but its commander and other pieces of its colour are on the board"
    )]
    OutOfPlayWithArmy(Seat),
}

/// A [`Setup`] was rejected: it comes back with every reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid position: {}", problems_text(.problems))]
pub struct PositionError {
    /// The rejected setup, unchanged.
    pub setup: Box<Setup>,
    /// Why, at least one reason.
    pub problems: Vec<SetupProblem>,
}

fn problems_text(p: &[SetupProblem]) -> String {
    p.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
