//! Errors shared by the move notations: malformed text, and moves not legal in a position.

use ploy_core::{Move, PieceKind, Position, Seat, Square};

pub use ploy_core::ParseMoveError;

/// The lower-case byte at `i`, if any: the algebraic reader ignores case.
fn lower(text: &[u8], i: usize) -> Option<u8> {
    text.get(i).map(u8::to_ascii_lowercase)
}

/// Whether the byte at `offset` starts a square's file, in either case.
pub(crate) fn is_file_at(text: &[u8], offset: usize) -> bool {
    matches!(lower(text, offset), Some(b'a'..=b'i'))
}

/// A well-formed move that is not legal in the position (the resolution stage), with the
/// reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMoveError {
    /// The game is over: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// No piece stands on the start square.
    #[error("{0} is empty")]
    Empty(Square),
    /// The piece on the start square is not the mover's to move.
    #[error("the piece on {square} is {colour}'s, but {turn} is to move")]
    NotYours {
        /// The start square.
        square: Square,
        /// The piece's colour.
        colour: Seat,
        /// The player to move ([`Position::mover`]: in a partnership game the partner
        /// playing an absorbed seat's turn).
        turn: Seat,
    },
    /// A direction move that leaves the piece as it was (rotation 0, or a turn onto the
    /// same flags, like a commander turned by 2).
    #[error("turning the {kind} on {square} by {rotation} does not change it")]
    NoChange {
        /// The square.
        square: Square,
        /// The piece's kind.
        kind: PieceKind,
        /// The clockwise rotation.
        rotation: u8,
    },
    /// The rules' rotation option forbids this turn (single-step rotation).
    #[error("a turn by {rotation} clockwise is not allowed by the rotation rule")]
    RotationRule {
        /// The clockwise rotation.
        rotation: u8,
    },
    /// A piece other than a shield turns after a motion move.
    #[error("only a shield may turn after moving; the piece on {square} is a {kind}")]
    TurnAfterMotion {
        /// The start square.
        square: Square,
        /// The piece's kind.
        kind: PieceKind,
    },
    /// The end square is not among the piece's motion targets.
    #[error("the {kind} on {from} cannot move to {to}")]
    Unreachable {
        /// The start square.
        from: Square,
        /// The end square.
        to: Square,
        /// The piece's kind.
        kind: PieceKind,
    },
}

/// Checks that `mv` is legal in `pos`, and says why not if it is not.
///
/// `Ok` exactly when [`Position::is_legal`] is true.
///
/// # Errors
/// [`IllegalMoveError`] with the first reason found, in the order of its variants.
pub fn check_legal(pos: &Position, mv: Move) -> Result<(), IllegalMoveError> {
    if pos.is_legal(mv) {
        return Ok(());
    }
    Err(why_illegal(pos, mv))
}

fn why_illegal(pos: &Position, mv: Move) -> IllegalMoveError {
    let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
    if pos.is_game_over() {
        return IllegalMoveError::GameOver;
    }
    let Some(piece) = pos.board().piece_at(from) else {
        return IllegalMoveError::Empty(from);
    };
    // The player who moves, not the seat whose turn it is: in a partnership game a partner
    // plays an absorbed team mate's turns with every piece the team controls.
    let turn = pos.mover();
    if !pos.controlled_by(turn).contains(from) {
        return IllegalMoveError::NotYours {
            square: from,
            colour: piece.colour(),
            turn,
        };
    }
    let kind = piece.kind();
    let rotation_rule = pos.rules().rotation;
    if from == to {
        if piece.rotate(r) == piece {
            return IllegalMoveError::NoChange {
                square: from,
                kind,
                rotation: r,
            };
        }
        // The turn changes the piece, so only the rotation rule can forbid it.
        debug_assert!(rotation_rule.turn_mask() & (1 << r) == 0);
        return IllegalMoveError::RotationRule { rotation: r };
    }
    if r != 0 && kind != PieceKind::Shield {
        return IllegalMoveError::TurnAfterMotion { square: from, kind };
    }
    if !pos.is_legal(Move::new(from, to, 0)) {
        return IllegalMoveError::Unreachable { from, to, kind };
    }
    // The motion is legal without the turn, so only the rotation rule can forbid it.
    debug_assert!(rotation_rule.shield_mask() & (1 << r) == 0);
    IllegalMoveError::RotationRule { rotation: r }
}

/// Why move text could not be read as a legal move: malformed, or not legal here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadMoveError {
    /// The text is malformed.
    #[error(transparent)]
    Malformed(#[from] ParseMoveError),
    /// The text names a move that is not legal in the position.
    #[error("not legal here: {0}")]
    Illegal(#[from] IllegalMoveError),
}
