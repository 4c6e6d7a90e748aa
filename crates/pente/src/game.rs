//! A game: the moves from the empty board, with undo.

use crate::position::{IllegalMoveError, Position, Undo};
use crate::types::{Move, Outcome, Rules};

/// A game from the empty board: the current position and the moves that led to it.
///
/// ```
/// use pente::{Game, Rules, Size};
/// let mut game = Game::new(Rules::new(Size::S9));
/// game.play("E5".parse()?)?;
/// game.play("F6".parse()?)?;
/// assert!(game.play("E6".parse()?).is_err()); // the tournament rule
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.undo().map(|m| m.to_string()), Some("F6".to_owned()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
    undos: Vec<Undo>,
}

impl Game {
    /// A new game under `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Game {
        Game {
            position: Position::new(rules),
            moves: Vec::new(),
            undos: Vec::new(),
        }
    }

    /// The game of `moves` from the empty board.
    ///
    /// # Errors
    /// The first illegal move and its index in `moves`.
    pub fn from_moves(rules: Rules, moves: &[Move]) -> Result<Game, (usize, IllegalMoveError)> {
        let mut game = Game::new(rules);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The outcome, if the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if it is illegal (the game is then unchanged).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let undo = self.position.play(mv)?;
        self.moves.push(mv);
        self.undos.push(undo);
        Ok(())
    }

    /// Takes back the last move and returns it (`None` at the start).
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        let undo = self.undos.pop().expect("one undo per move");
        self.position.unmake(mv, undo);
        Some(mv)
    }
}
