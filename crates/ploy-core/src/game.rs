//! Games: a position with its history, draw rules, and recorded endings.

use crate::{
    DrawReason, IllegalMove, Move, MoveList, Outcome, Position, Rules, Seat, SeatSet, Variant,
    WinReason,
};

/// Why [`Game::play`] (or another action) was refused. The game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// The seat does not take part in this game or is no longer in play.
    #[error("{0} is not in play")]
    NotInPlay(Seat),
    /// Kept for compatibility: no action returns it since a free-for-all player who
    /// resigns or loses on time with several opponents in play leaves the game
    /// ([`Game::resign`]).
    #[error("several opponents are still in play")]
    SeveralOpponents,
    /// There is no move to take back.
    #[error("no move to take back")]
    NothingToUndo,
    /// There is no resignation, time forfeit, agreed draw or withdrawal to take back
    /// ([`Game::take_back_ending`]).
    #[error("no resignation, time forfeit or agreed draw to take back")]
    NoEnding,
}

/// A player who left a free-for-all game that went on without him: he resigned or lost on
/// time while at least two opponents were in play (see [`Game::resign`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Withdrawal {
    /// The number of moves played when he left.
    pub ply: usize,
    /// The player.
    pub seat: Seat,
    /// [`WinReason::Resignation`] or [`WinReason::TimeForfeit`].
    pub reason: WinReason,
}

/// What [`Game::take_back_ending`] took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A resignation, time forfeit or agreed draw that ended the game.
    Result(Outcome),
    /// A free-for-all player's leaving, after which the game went on.
    Withdrawal(Withdrawal),
}

/// A game for people who play: the position, the moves that led to it, the draw rules of
/// its [`Rules`], and endings that the board does not decide (resignation, time, agreement).
///
/// `play` checks every move and leaves the game untouched on error; `undo` takes back the
/// last move. A game ended by a draw rule has no legal moves, while the same position on its
/// own (without the history) still has them.
///
/// ```
/// use ploy_core::{Game, Move, Rules, Square};
/// let mut game = Game::new(Rules::standard());
/// game.play(Move::new(Square::E3, Square::E4, 0)).unwrap();
/// assert!(game.play(Move::new(Square::E3, Square::E4, 0)).is_err()); // e3 is empty now
/// assert_eq!(game.moves().len(), 1);
/// game.undo().unwrap();
/// assert_eq!(game.position(), game.start_position());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[i]` is the position after `i` moves; never empty.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// `quiet[i]`: plies without a capture leading to `positions[i]`.
    quiet: Vec<u32>,
    /// A draw by rule in the current position.
    draw: Option<Outcome>,
    /// Resignation, time forfeit or agreed draw.
    recorded: Option<Outcome>,
    /// Free-for-all players who left a game that went on, in order, each with the position
    /// before he left (`positions[w.ply]` is the one after).
    withdrawals: Vec<(Withdrawal, Position)>,
}

impl Game {
    /// A two-player game from the start position.
    #[must_use]
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(Variant::TwoPlayer, rules))
    }

    /// A game of `variant` from its start position.
    #[must_use]
    pub fn start(variant: Variant, rules: Rules) -> Game {
        Game::from_position(Position::start(variant, rules))
    }

    /// A game from `start` (played by `start`'s rules), counting repetitions and plies
    /// without capture from there.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            quiet: vec![0],
            draw: None,
            recorded: None,
            withdrawals: Vec::new(),
        }
    }

    /// A game from `start` with `moves` replayed.
    ///
    /// # Errors
    /// The index of the first move that could not be played, and why.
    pub fn replay(
        start: Position,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Game, (usize, GameError)> {
        let mut g = Game::from_position(start);
        for (i, mv) in moves.into_iter().enumerate() {
            g.play(mv).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &Position {
        match self.withdrawals.first() {
            // A free-for-all player left before the first move: the start is from before.
            Some((w, before)) if w.ply == 0 => before,
            _ => &self.positions[0],
        }
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last: the one
    /// after `i` moves (and after any free-for-all player's leaving then) at index `i`.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.position().rules()
    }

    /// Plies in a row without a capture up to the current position.
    #[must_use]
    pub fn plies_since_capture(&self) -> u32 {
        *self.quiet.last().expect("never empty")
    }

    /// How often the current position (board, seat to move, controllers) has occurred in
    /// this game, counting itself.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        // Positions before the last capture cannot recur: captured pieces never come back.
        let since = self.positions.len() - 1 - self.plies_since_capture() as usize;
        self.positions[since..]
            .iter()
            .filter(|p| p.same_state(cur))
            .count()
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome().or(self.draw).or(self.recorded)
    }

    /// The legal moves; none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_some() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Whether `mv` may be played now.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.outcome().is_none() && self.position().is_legal(mv)
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`GameError::GameOver`] or [`GameError::Illegal`]; the game is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let next = self.position().after(mv)?;
        let captured = next.board().occupied().count() < self.position().board().occupied().count();
        let quiet = if captured {
            0
        } else {
            self.plies_since_capture() + 1
        };
        self.positions.push(next);
        self.moves.push(mv);
        self.quiet.push(quiet);
        self.draw = self.judge_draw();
        Ok(())
    }

    fn judge_draw(&self) -> Option<Outcome> {
        let rules = self.rules();
        if self.position().outcome().is_some() {
            return None;
        }
        if rules.repetition_draw && self.repetitions() >= 3 {
            return Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            });
        }
        match rules.no_capture_limit {
            Some(n) if self.plies_since_capture() >= u32::from(n) => Some(Outcome::Draw {
                reason: DrawReason::NoCaptureLimit,
            }),
            _ => None,
        }
    }

    /// Takes back the last move (and any resignation, time forfeit, agreed draw or
    /// withdrawal recorded after it), returning it. To take back only such an ending, use
    /// [`Game::take_back_ending`].
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`] at the start of the game.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        let mv = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        self.quiet.pop();
        self.recorded = None;
        let n = self.moves.len();
        self.withdrawals.retain(|(w, _)| w.ply <= n);
        self.draw = self.judge_draw();
        Ok(mv)
    }

    /// Takes back the last resignation, time forfeit or agreed draw (the game goes on from
    /// the same position), or else a free-for-all player's leaving made since the last
    /// move (his pieces come back); the moves stay. Returns what it took back.
    ///
    /// ```
    /// use ploy_core::{Ending, Game, Rules, Seat};
    /// let mut game = Game::new(Rules::standard());
    /// game.agree_draw().unwrap();
    /// assert!(matches!(game.take_back_ending(), Ok(Ending::Result(_))));
    /// assert_eq!(game.outcome(), None);
    /// assert!(game.take_back_ending().is_err());
    /// ```
    ///
    /// # Errors
    /// [`GameError::NoEnding`] if there is nothing of the kind to take back.
    pub fn take_back_ending(&mut self) -> Result<Ending, GameError> {
        if let Some(o) = self.recorded.take() {
            return Ok(Ending::Result(o));
        }
        match self.withdrawals.last() {
            Some((w, _)) if w.ply == self.moves.len() => {
                let (w, before) = self.withdrawals.pop().expect("just seen");
                *self.positions.last_mut().expect("never empty") = before;
                self.draw = self.judge_draw();
                Ok(Ending::Withdrawal(w))
            }
            _ => Err(GameError::NoEnding),
        }
    }

    /// The free-for-all players who left the game while it went on, in order.
    pub fn withdrawals(&self) -> impl ExactSizeIterator<Item = Withdrawal> + '_ {
        self.withdrawals.iter().map(|(w, _)| *w)
    }

    /// `seat` leaves a free-for-all game with several opponents in play
    /// ([`Position::without_player`]).
    fn withdraw(&mut self, seat: Seat, reason: WinReason) -> Result<(), GameError> {
        let before = self.position().clone();
        let after = before
            .without_player(seat)
            .ok_or(GameError::NotInPlay(seat))?;
        let ply = self.moves.len();
        *self.positions.last_mut().expect("never empty") = after;
        self.withdrawals
            .push((Withdrawal { ply, seat, reason }, before));
        self.draw = self.judge_draw();
        Ok(())
    }

    fn record(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        self.recorded = Some(outcome);
        Ok(())
    }

    /// Who wins if `seat` leaves the game now: the opponent (two players), the other team
    /// (partnership: a player resigns for his team), or the one player left (free-for-all;
    /// nobody yet, the empty set, while two or more are left).
    fn winners_without(&self, seat: Seat) -> Result<SeatSet, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::GameOver(o));
        }
        let pos = self.position();
        let in_play = pos.in_play();
        if !in_play.contains(seat) {
            return Err(GameError::NotInPlay(seat));
        }
        let variant = pos.variant();
        let team = variant.team(seat);
        let others = SeatSet::from_bits(variant.seats().bits() & !team.bits());
        match variant {
            Variant::FreeForAll => {
                let left = in_play.without(seat);
                if left.count() == 1 {
                    Ok(left)
                } else {
                    Ok(SeatSet::EMPTY)
                }
            }
            _ => Ok(others),
        }
    }

    /// `seat` resigns; the opponent (or the other team) wins.
    ///
    /// In a free-for-all game with two or more opponents still in play, the game does not
    /// end: he leaves it, every piece he controls leaves the board, and the others play on
    /// ([`Position::without_player`]; the rules book is silent here, and this is what
    /// happens to an eliminated player's turns, without handing his pieces to anyone). The
    /// leaving is listed by [`Game::withdrawals`]; [`Game::take_back_ending`] or
    /// [`Game::undo`] takes it back. With one opponent left, he wins.
    ///
    /// ```
    /// use ploy_core::{Game, Rules, Seat, Variant};
    /// let mut game = Game::start(Variant::FreeForAll, Rules::standard());
    /// game.resign(Seat::Green)?;
    /// assert_eq!(game.outcome(), None);
    /// assert_eq!(game.position().in_play().count(), 3);
    /// game.resign(Seat::Red)?;
    /// game.resign(Seat::Yellow)?;
    /// assert_eq!(game.outcome().unwrap().winner(), Some(Seat::Blue));
    /// # Ok::<(), ploy_core::GameError>(())
    /// ```
    ///
    /// # Errors
    /// [`GameError::GameOver`] if the game is over, [`GameError::NotInPlay`] if `seat` is not
    /// in play.
    pub fn resign(&mut self, seat: Seat) -> Result<(), GameError> {
        self.leave(seat, WinReason::Resignation)
    }

    /// `seat` ran out of time; the opponent (or the other team) wins. In a free-for-all
    /// game with two or more opponents in play, he leaves the game as in [`Game::resign`].
    ///
    /// # Errors
    /// As [`Game::resign`].
    pub fn forfeit_on_time(&mut self, seat: Seat) -> Result<(), GameError> {
        self.leave(seat, WinReason::TimeForfeit)
    }

    fn leave(&mut self, seat: Seat, reason: WinReason) -> Result<(), GameError> {
        let winners = self.winners_without(seat)?;
        if winners.is_empty() {
            return self.withdraw(seat, reason);
        }
        self.record(Outcome::Win { winners, reason })
    }

    /// The players agree to a draw.
    ///
    /// # Errors
    /// [`GameError::GameOver`] if the game is already over.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.record(Outcome::Draw {
            reason: DrawReason::Agreement,
        })
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Rules::standard())
    }
}

#[cfg(feature = "serde")]
impl Game {
    /// Records `ending` (a resignation, a time forfeit or an agreed draw) as what ended the
    /// game, if this game could have ended so now: the inverse of reading
    /// [`Game::outcome`] after [`Game::resign`], [`Game::forfeit_on_time`] or
    /// [`Game::agree_draw`].
    fn record_ending(&mut self, ending: Outcome) -> Result<(), String> {
        let result = match ending {
            Outcome::Win {
                winners,
                reason: reason @ (WinReason::Resignation | WinReason::TimeForfeit),
            } => {
                // The seat that left: any seat in play outside the winners (in a partnership
                // game either player of the losing team gives the same outcome).
                let pos = self.position();
                let Some(loser) = pos.in_play().iter().find(|&s| !winners.contains(s)) else {
                    return Err(format!("no seat in play could have lost by {ending:?}"));
                };
                if reason == WinReason::Resignation {
                    self.resign(loser)
                } else {
                    self.forfeit_on_time(loser)
                }
            }
            Outcome::Draw {
                reason: DrawReason::Agreement,
            } => self.agree_draw(),
            _ => return Err(format!("{ending:?} is decided by the moves, not recorded")),
        };
        result.map_err(|e| format!("the ending {ending:?} cannot be recorded: {e}"))?;
        if self.outcome() == Some(ending) {
            Ok(())
        } else {
            Err(format!(
                "the ending {ending:?} cannot be recorded: it would give {:?}",
                self.outcome()
            ))
        }
    }
}

/// `serde` form of a [`Game`]: the start position, the moves as university move strings,
/// the free-for-all players who left while the game went on (each at its ply), and an
/// ending recorded on top of the moves; replayed and checked on the way in.
#[cfg(feature = "serde")]
mod serde_form {
    use super::{Game, Withdrawal};
    use crate::{Move, Outcome, Position, WinReason};

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename = "Game", deny_unknown_fields)]
    struct Form {
        start: Position,
        moves: Vec<Move>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        withdrawals: Vec<Withdrawal>,
        #[serde(default)]
        ending: Option<Outcome>,
    }

    impl serde::Serialize for Game {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            Form {
                start: self.start_position().clone(),
                moves: self.moves.clone(),
                withdrawals: self.withdrawals().collect(),
                ending: self.recorded,
            }
            .serialize(serializer)
        }
    }

    /// Lets every player who left at `ply` leave again.
    fn withdraw_at(game: &mut Game, withdrawals: &[Withdrawal], ply: usize) -> Result<(), String> {
        for w in withdrawals.iter().filter(|w| w.ply == ply) {
            let before = game.withdrawals.len();
            let result = match w.reason {
                WinReason::Resignation => game.resign(w.seat),
                WinReason::TimeForfeit => game.forfeit_on_time(w.seat),
                _ => return Err(format!("a player cannot leave by {:?}", w.reason)),
            };
            result.map_err(|e| format!("{:?} cannot leave after {ply} moves: {e}", w.seat))?;
            if game.withdrawals.len() != before + 1 || game.recorded.is_some() {
                return Err(format!(
                    "{:?} leaving after {ply} moves would end the game: write it as the ending",
                    w.seat
                ));
            }
        }
        Ok(())
    }

    impl<'de> serde::Deserialize<'de> for Game {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
            use serde::de::Error;
            let form = Form::deserialize(deserializer)?;
            if form.withdrawals.windows(2).any(|w| w[0].ply > w[1].ply)
                || form.withdrawals.iter().any(|w| w.ply > form.moves.len())
            {
                return Err(D::Error::custom(
                    "withdrawals must be in order and within the moves played",
                ));
            }
            let mut game = Game::from_position(form.start);
            for (i, &mv) in form.moves.iter().enumerate() {
                withdraw_at(&mut game, &form.withdrawals, i).map_err(D::Error::custom)?;
                game.play(mv).map_err(|e| {
                    D::Error::custom(format_args!("move {} ({}): {e}", i + 1, form.moves[i]))
                })?;
            }
            withdraw_at(&mut game, &form.withdrawals, form.moves.len())
                .map_err(D::Error::custom)?;
            if let Some(ending) = form.ending {
                game.record_ending(ending).map_err(D::Error::custom)?;
            }
            Ok(game)
        }
    }
}
