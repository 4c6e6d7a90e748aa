//! Positions: setup validation, move generation, make/unmake, hashing, outcome.
//!
//! The parts live in child modules: [`setup`] (the unvalidated [`Setup`] and why one is
//! refused), [`state`] (the packed seat to move, controllers, seats in play and outcome),
//! [`generate`] (legal moves, counting, attacks) and [`make`] (make/unmake).

mod generate;
mod make;
mod setup;
mod state;

pub use make::Undo;
pub use setup::{PositionError, Setup, SetupProblem};

use crate::tables::{KEYS, piece_key, turn_key};
use crate::{
    Bitboard, Board, Elimination, Move, Outcome, PartnerElimination, PieceKind, Rules, Seat,
    SeatSet, Variant, WinReason,
};
use core::fmt;
use state::State;

/// A move that is not legal in the position it was offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0:?}")]
pub struct IllegalMove(pub Move);

/// A valid position: board, seat to move, controllers, rules, hash, and the outcome if the
/// game is decided.
///
/// Build one with [`Position::new`] (two-player start, standard rules),
/// [`Position::start`] or [`Position::from_setup`]. Moves are generated with
/// [`Position::legal_moves`] and made with [`Position::play`] (checked) or
/// [`Position::make_move`] / [`Position::unmake_move`] (unchecked, for search).
///
/// ```
/// use ploy_core::{Move, Position, Square};
/// let mut pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 145);
/// let mv = Move::new(Square::E3, Square::E4, 0);
/// assert!(pos.is_legal(mv));
/// let before = pos.clone();
/// let undo = pos.make_move(mv);
/// pos.unmake_move(mv, undo);
/// assert_eq!(pos, before);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    variant: Variant,
    rules: Rules,
    state: State,
}

impl Position {
    /// The two-player start position with the standard rules.
    #[must_use]
    pub fn new() -> Position {
        Position::start(Variant::TwoPlayer, Rules::standard())
    }

    /// The start position of `variant`, played by `rules`.
    #[must_use]
    pub fn start(variant: Variant, rules: Rules) -> Position {
        Position::from_setup(Setup::start_of(variant), rules).expect("start positions are valid")
    }

    /// Validates `setup` (`docs/rules.md` section 8; the crate docs' "Valid positions") and
    /// builds the position.
    ///
    /// Two players: a setup in which a side is already eliminated gives a decided position
    /// with its outcome and no legal moves; if both sides are eliminated, the side not to
    /// move (who moved last) wins. A board without any commander is rejected
    /// ([`SetupProblem::NoCommander`]): no game reaches it. `controllers` must be the
    /// identity and `in_play` both seats (elimination follows from the board).
    ///
    /// Four players: `controllers` and `in_play` must be a state that can arise in play
    /// under `rules` (an in-play colour controls itself; an out-of-play colour is controlled
    /// by a player in play, by its partner under [`PartnerElimination::Absorbed`], by itself
    /// under [`PartnerElimination::PlaysOn`]), no player in play may already meet the
    /// elimination test, an out-of-play colour may not show its commander beside other
    /// pieces ([`SetupProblem::OutOfPlayWithArmy`]), and the seat to move must have someone
    /// to play it. The game is decided when one player (free-for-all) or one team
    /// (partnership) is left in play.
    ///
    /// # Errors
    /// [`PositionError`] with the setup and every problem found.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let mut problems = Vec::new();
        let seats = setup.variant.seats();
        let army = setup.variant.army();
        for (sq, p) in setup.board.pieces() {
            if !seats.contains(p.colour()) {
                problems.push(SetupProblem::ColourNotInVariant {
                    square: sq,
                    colour: p.colour(),
                });
            }
        }
        for colour in seats.iter() {
            for kind in PieceKind::ALL {
                let count = setup.board.count(colour, kind);
                let max = army[kind.index()];
                if count > max {
                    problems.push(SetupProblem::TooManyPieces {
                        colour,
                        kind,
                        count,
                        max,
                    });
                }
            }
        }
        if !seats.contains(setup.turn) {
            problems.push(SetupProblem::TurnNotInVariant(setup.turn));
        }
        if setup.variant == Variant::TwoPlayer {
            if setup.controllers != Seat::ALL || setup.in_play != seats {
                problems.push(SetupProblem::Control);
            }
            if seats
                .iter()
                .all(|s| setup.board.count(s, PieceKind::Commander) == 0)
            {
                problems.push(SetupProblem::NoCommander);
            }
        } else {
            Self::check_four_player_control(&setup, rules, &mut problems);
            for seat in seats.iter().filter(|&s| !setup.in_play.contains(s)) {
                let others: u32 = [PieceKind::Shield, PieceKind::Probe, PieceKind::Lance]
                    .into_iter()
                    .map(|k| setup.board.count(seat, k))
                    .sum();
                if setup.board.count(seat, PieceKind::Commander) > 0 && others > 0 {
                    problems.push(SetupProblem::OutOfPlayWithArmy(seat));
                }
            }
        }
        if !problems.is_empty() {
            return Err(PositionError {
                setup: Box::new(setup),
                problems,
            });
        }
        let mut pos = Position {
            board: setup.board,
            variant: setup.variant,
            rules,
            state: State::new(setup.turn, setup.controllers, setup.in_play),
        };
        if pos.variant == Variant::TwoPlayer {
            let mover = pos.state.turn();
            let other = pos.two_player_opponent(mover);
            // The side to move first: if both are eliminated, the side not to move wins.
            if let Some(reason) = pos.elimination(mover) {
                pos.eliminate_two_player(other, mover, reason);
            } else if let Some(reason) = pos.elimination(other) {
                pos.eliminate_two_player(mover, other, reason);
            }
        } else {
            let mut bad = Vec::new();
            for seat in pos.state.in_play().iter() {
                if pos.elimination(seat).is_some() {
                    bad.push(SetupProblem::ShouldBeEliminated(seat));
                }
            }
            pos.state.set_outcome(pos.four_player_result(None));
            if !pos.state.is_decided() && pos.actor(pos.state.turn()).is_none() {
                bad.push(SetupProblem::TurnNotTaken(pos.state.turn()));
            }
            if !bad.is_empty() {
                return Err(PositionError {
                    setup: Box::new(pos.to_setup()),
                    problems: bad,
                });
            }
        }
        pos.state.hash = pos.compute_hash();
        Ok(pos)
    }

    fn check_four_player_control(setup: &Setup, rules: Rules, problems: &mut Vec<SetupProblem>) {
        let in_play = setup.in_play;
        if in_play.is_empty() {
            problems.push(SetupProblem::NobodyInPlay);
            return;
        }
        let partnership = setup.variant == Variant::Partnership;
        for colour in Seat::ALL {
            let controller = setup.controllers[colour.index()];
            let ok = if in_play.contains(colour) {
                controller == colour
            } else if !partnership {
                in_play.contains(controller)
            } else if rules.partner_elimination == PartnerElimination::PlaysOn {
                controller == colour
            } else if in_play.contains(colour.partner()) {
                controller == colour.partner()
            } else {
                controller == colour || controller == colour.partner()
            };
            if !ok {
                problems.push(SetupProblem::Controller { colour, controller });
            }
        }
    }

    /// The setup this position was or could have been built from.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            variant: self.variant,
            turn: self.state.turn(),
            controllers: self.state.controllers(),
            in_play: if self.variant == Variant::TwoPlayer {
                self.variant.seats()
            } else {
                self.state.in_play()
            },
        }
    }

    /// The pieces.
    #[inline]
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The variant.
    #[inline]
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rules.
    #[inline]
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same position played by other rules (the outcome is judged again).
    ///
    /// # Errors
    /// None for a two-player position: it was valid and stays so. A four-player position's
    /// controllers and seats in play may not fit other rules (a partner absorbed under
    /// [`PartnerElimination::Absorbed`] cannot be under [`PartnerElimination::PlaysOn`];
    /// a player with only commanders left, in play under relaxed elimination, is eliminated
    /// under strict): [`PositionError`] then, as from [`Position::from_setup`].
    pub fn with_rules(&self, rules: Rules) -> Result<Position, PositionError> {
        Position::from_setup(self.to_setup(), rules)
    }

    /// The seat controlling the pieces of `colour`.
    #[inline]
    #[must_use]
    pub fn controller(&self, colour: Seat) -> Seat {
        self.state.controller(colour)
    }

    /// The seats still in play.
    #[inline]
    #[must_use]
    pub fn in_play(&self) -> SeatSet {
        self.state.in_play()
    }

    /// The Zobrist hash, updated with every move.
    ///
    /// The keys come from a fixed-seed generator ([`crate::ZOBRIST_SEED`]): the same position
    /// has the same hash on every run and platform, and the values are part of the stable API.
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.state.hash
    }

    /// The hash computed from scratch (equal to [`Position::hash`]; for tests and tools).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = turn_key(self.state.turn());
        for (sq, p) in self.board.pieces() {
            h ^= piece_key(sq, p);
        }
        for c in Seat::ALL {
            let s = self.state.controller(c);
            if s != c {
                h ^= KEYS.control[c.index()][s.index()];
            }
        }
        for s in self.variant.seats().iter() {
            if !self.state.in_play().contains(s) {
                h ^= KEYS.out[s.index()];
            }
        }
        h
    }

    /// How the game ended, or `None` while it goes on. A position knows only the outcomes
    /// the board decides; draws by rule and resignations belong to a [`crate::Game`].
    #[inline]
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.state.outcome()
    }

    /// Whether the board has decided the game.
    #[inline]
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.state.is_decided()
    }

    /// The seat whose turn it is. Usually also the player who moves ([`Position::mover`]);
    /// in a partnership game a partner may play an eliminated player's turns.
    #[inline]
    #[must_use]
    pub fn turn(&self) -> Seat {
        self.state.turn()
    }

    /// The player who moves now: the seat to move, or in a partnership game the partner
    /// playing that seat's turn.
    #[inline]
    #[must_use]
    pub fn mover(&self) -> Seat {
        match self.variant {
            Variant::TwoPlayer => self.state.turn(),
            _ => self.actor(self.state.turn()).unwrap_or(self.state.turn()),
        }
    }

    /// Who plays `slot`'s turn, or `None` if that turn is skipped.
    fn actor(&self, slot: Seat) -> Option<Seat> {
        let in_play = self.state.in_play();
        match self.variant {
            Variant::TwoPlayer => Some(slot),
            Variant::FreeForAll => in_play.contains(slot).then_some(slot),
            Variant::Partnership => {
                let plays_on = self.rules.partner_elimination == PartnerElimination::PlaysOn;
                let takes_turns =
                    |s: Seat| in_play.contains(s) || (plays_on && self.controlled_by(s).any());
                if takes_turns(slot) {
                    Some(slot)
                } else if takes_turns(slot.partner()) {
                    Some(slot.partner())
                } else {
                    None
                }
            }
        }
    }

    /// The pieces `seat` may move: every colour it controls.
    #[inline]
    #[must_use]
    pub fn controlled_by(&self, seat: Seat) -> Bitboard {
        match self.variant {
            Variant::TwoPlayer => self.board.by_colour(seat),
            _ => {
                let mut bb = Bitboard::EMPTY;
                for c in Seat::ALL {
                    if self.state.controller(c) == seat {
                        bb |= self.board.by_colour(c);
                    }
                }
                bb
            }
        }
    }

    /// The pieces that block `seat` and that it may not capture: those it controls and, in
    /// a partnership game, those its partner controls.
    #[inline]
    #[must_use]
    pub fn friends_of(&self, seat: Seat) -> Bitboard {
        match self.variant {
            Variant::Partnership => self.controlled_by(seat) | self.controlled_by(seat.partner()),
            _ => self.controlled_by(seat),
        }
    }

    /// Why `seat` is eliminated on this board, or `None` if he is not.
    fn elimination(&self, seat: Seat) -> Option<WinReason> {
        if self.board.count(seat, PieceKind::Commander) == 0 {
            return Some(WinReason::CommanderCaptured);
        }
        if self.rules.elimination == Elimination::Strict {
            let non_commanders: u32 = self
                .variant
                .seats()
                .iter()
                .filter(|&c| self.state.controller(c) == seat)
                .map(|c| {
                    [PieceKind::Shield, PieceKind::Probe, PieceKind::Lance]
                        .into_iter()
                        .map(|k| self.board.count(c, k))
                        .sum::<u32>()
                })
                .sum();
            if non_commanders == 0 {
                return Some(WinReason::OnlyCommanders);
            }
        }
        None
    }

    #[inline]
    fn two_player_opponent(&self, seat: Seat) -> Seat {
        Seat::ALL[seat.index() ^ 1]
    }

    fn eliminate_two_player(&mut self, winner: Seat, loser: Seat, reason: WinReason) {
        self.state.set_in_play(self.state.in_play().without(loser));
        self.state.set_outcome(Some(Outcome::win(winner, reason)));
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] if it is not; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Undo, IllegalMove> {
        if self.is_legal(mv) {
            Ok(self.make_move(mv))
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// The position after `mv`, leaving `self` as it is.
    ///
    /// # Errors
    /// [`IllegalMove`] if `mv` is not legal here.
    pub fn after(&self, mv: Move) -> Result<Position, IllegalMove> {
        let mut p = self.clone();
        p.play(mv)?;
        Ok(p)
    }

    /// Whether two positions are the same for the repetition rule: board, seat to move,
    /// controllers and seats in play.
    #[must_use]
    pub fn same_state(&self, other: &Position) -> bool {
        self.state.hash == other.state.hash
            && self.state.turn() == other.state.turn()
            && self.state.controllers() == other.state.controllers()
            && self.state.in_play() == other.state.in_play()
            && self.board == other.board
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.variant)
            .field("turn", &self.state.turn())
            .field("outcome", &self.state.outcome())
            .field("hash", &format_args!("{:#018x}", self.state.hash))
            .field("board", &self.board)
            .finish()
    }
}

/// `serde` form of a [`Position`]: the setup and the rules, validated on the way in; and,
/// for a won position, why it was won, which the board alone does not always tell (under
/// strict elimination with the bare commander removed, a side left with only commanders
/// loses them too, and looks like a side whose commander was captured).
#[cfg(feature = "serde")]
mod serde_form {
    use super::{Position, Setup};
    use crate::{
        Board, Elimination, Outcome, Piece, PieceKind, Rules, Seat, SeatSet, Square, Variant,
        WinReason,
    };
    use std::collections::BTreeMap;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename = "Position", deny_unknown_fields)]
    struct Form {
        variant: Variant,
        rules: Rules,
        turn: Seat,
        controllers: [Seat; 4],
        in_play: SeatSet,
        pieces: BTreeMap<Square, Piece>,
        /// Why the position is won, when it is (absent in older forms: then the board's
        /// most likely reason).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        won_by: Option<WinReason>,
    }

    impl serde::Serialize for Position {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let setup = self.to_setup();
            Form {
                variant: setup.variant,
                rules: self.rules,
                turn: setup.turn,
                controllers: setup.controllers,
                in_play: setup.in_play,
                pieces: setup.board.pieces().collect(),
                won_by: match self.outcome() {
                    Some(Outcome::Win { reason, .. }) => Some(reason),
                    _ => None,
                },
            }
            .serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for Position {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
            let form = Form::deserialize(deserializer)?;
            let mut board = Board::empty();
            for (square, piece) in form.pieces {
                board.put(square, piece);
            }
            let setup = Setup {
                board,
                variant: form.variant,
                turn: form.turn,
                controllers: form.controllers,
                in_play: form.in_play,
            };
            let mut position =
                Position::from_setup(setup, form.rules).map_err(serde::de::Error::custom)?;
            if let Some(reason) = form.won_by {
                let Some(Outcome::Win { winners, .. }) = position.outcome() else {
                    return Err(serde::de::Error::custom(
                        "`won_by` is given but nobody has won this position",
                    ));
                };
                let losers = SeatSet::from_bits(SeatSet::ALL.bits() & !winners.bits());
                let fits = match reason {
                    WinReason::CommanderCaptured => losers
                        .iter()
                        .any(|s| position.board.count(s, PieceKind::Commander) == 0),
                    WinReason::OnlyCommanders => position.rules.elimination == Elimination::Strict,
                    _ => false,
                };
                if !fits {
                    return Err(serde::de::Error::custom(format!(
                        "`won_by` {reason:?} does not fit the board"
                    )));
                }
                position
                    .state
                    .set_outcome(Some(Outcome::Win { winners, reason }));
            }
            Ok(position)
        }
    }
}
