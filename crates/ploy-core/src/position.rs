//! Positions: setup validation, move generation, make/unmake, hashing, outcome.

use crate::movegen;
use crate::tables::{KEYS, NEIGHBOUR, OFF, RAYS, TURNS, UPWARD, flags_key, piece_key, turn_key};
use crate::{
    BareCommander, Bitboard, Board, Direction, DrawReason, Elimination, Flags, Move, MoveList,
    Outcome, PartnerElimination, Piece, PieceKind, Rotation, Rules, Seat, SeatSet, Square, Variant,
    WinReason,
};
use core::fmt;

/// An unvalidated position: plain data to fill in, then turn into a [`Position`] with
/// [`Position::from_setup`].
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

/// A move that is not legal in the position it was offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0:?}")]
pub struct IllegalMove(pub Move);

/// Everything [`Position::unmake_move`] needs besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece that moved, as it was before the move.
    piece: Piece,
    captured: Option<Piece>,
    /// A bare commander taken off the board ([`BareCommander::Removed`]). One move
    /// eliminates at most one player: only the controller of the captured piece loses a
    /// piece he controls, and its colour's owner, if in play, is that controller.
    removed: Option<(Square, Piece)>,
    state: State,
}

impl Undo {
    /// The piece the move captured, if any.
    #[inline]
    #[must_use]
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

/// Everything of a position besides the board, in two words: the hash, and the seat to move,
/// the seats in play, the controllers and the outcome packed into `meta` (bits 0-7 the
/// seat to move, 8-15 the seats in play, 16-23 two bits per colour for its controller,
/// 24-31 the outcome: bit 0 set if decided, bit 1 a draw, bits 2-5 the winners, bits 6-7
/// the reason; bits 56-63 a copy of the seat to move, see [`State::set_turn`]). Saving it in an [`Undo`] and restoring it are two full-width copies, and
/// every change writes a whole word: partial or overlapping copies would stall
/// store-to-load forwarding between make and unmake.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    hash: u64,
    meta: u64,
}

const WIN_REASONS: [WinReason; 4] = [
    WinReason::CommanderCaptured,
    WinReason::OnlyCommanders,
    WinReason::Resignation,
    WinReason::TimeForfeit,
];

const DRAW_REASONS: [DrawReason; 3] = [
    DrawReason::Repetition,
    DrawReason::NoCaptureLimit,
    DrawReason::Agreement,
];

impl State {
    fn new(turn: Seat, controllers: [Seat; 4], in_play: SeatSet) -> State {
        let mut st = State { hash: 0, meta: 0 };
        st.set_turn(turn);
        st.set_in_play(in_play);
        for c in Seat::ALL {
            st.set_controller(c, controllers[c.index()]);
        }
        st
    }

    #[inline(always)]
    fn turn(self) -> Seat {
        Seat::ALL[(self.meta & 3) as usize]
    }

    /// Also writes a copy of the seat to bits 56-63 (never read): a change then spans the
    /// word, so the compiler cannot narrow its store to one byte (a later full-width read of
    /// the word, such as the next make's saved copy, could not forward from a byte store).
    #[inline(always)]
    fn set_turn(&mut self, seat: Seat) {
        let i = seat.index() as u64;
        self.meta = (self.meta & !(0xFF | 0xFF << 56)) | i | i << 56;
    }

    /// Green to move becomes Red to move and back (both copies of the seat).
    #[inline(always)]
    fn flip_two_player_turn(&mut self) {
        self.meta ^= 1 | 1 << 56;
    }

    #[inline(always)]
    fn in_play(self) -> SeatSet {
        SeatSet::from_bits((self.meta >> 8) as u8)
    }

    #[inline(always)]
    fn set_in_play(&mut self, seats: SeatSet) {
        self.meta = (self.meta & !0xFF00) | u64::from(seats.bits()) << 8;
    }

    #[inline(always)]
    fn controller(self, colour: Seat) -> Seat {
        Seat::ALL[(self.meta >> (16 + 2 * colour.index()) & 3) as usize]
    }

    #[inline(always)]
    fn set_controller(&mut self, colour: Seat, seat: Seat) {
        let shift = 16 + 2 * colour.index();
        self.meta = (self.meta & !(3 << shift)) | (seat.index() as u64) << shift;
    }

    fn controllers(self) -> [Seat; 4] {
        Seat::ALL.map(|c| self.controller(c))
    }

    #[inline(always)]
    fn is_decided(self) -> bool {
        self.meta & 1 << 24 != 0
    }

    fn outcome(self) -> Option<Outcome> {
        let o = (self.meta >> 24) as u8;
        if o & 1 == 0 {
            return None;
        }
        let reason = usize::from(o >> 6);
        Some(if o & 2 == 0 {
            Outcome::Win {
                winners: SeatSet::from_bits(o >> 2),
                reason: WIN_REASONS[reason],
            }
        } else {
            Outcome::Draw {
                reason: DRAW_REASONS[reason.min(2)],
            }
        })
    }

    fn set_outcome(&mut self, outcome: Option<Outcome>) {
        let o: u8 = match outcome {
            None => 0,
            Some(Outcome::Win { winners, reason }) => {
                let r = WIN_REASONS.iter().position(|&w| w == reason).unwrap_or(0);
                1 | (winners.bits() & 15) << 2 | (r as u8) << 6
            }
            Some(Outcome::Draw { reason }) => {
                let r = DRAW_REASONS.iter().position(|&d| d == reason).unwrap_or(0);
                3 | (r as u8) << 6
            }
        };
        self.meta = (self.meta & !(0xFF << 24)) | u64::from(o) << 24;
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("hash", &format_args!("{:#018x}", self.hash))
            .field("turn", &self.turn())
            .field("controllers", &self.controllers())
            .field("in_play", &self.in_play())
            .field("outcome", &self.outcome())
            .finish()
    }
}

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

    // ----- move generation -------------------------------------------------------------

    /// Every legal move, in a fixed-capacity list. Empty when the game is decided.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Appends every legal move to `list` (which the caller usually clears first).
    ///
    /// The moves come ordered by start square (index order), then by end square, then by
    /// rotation; a piece's direction moves follow its motion moves. The search breaks ties
    /// in this order, so it is part of what makes a search repeat exactly.
    pub fn generate_moves(&self, list: &mut MoveList) {
        if self.state.is_decided() {
            return;
        }
        let (movers, friends) = self.side_sets();
        movegen::generate(&self.board, movers.0, friends.0, self.rules.rotation, list);
    }

    /// The pieces the player to move may move, and those that block him.
    #[inline(always)]
    fn side_sets(&self) -> (Bitboard, Bitboard) {
        if self.variant == Variant::TwoPlayer {
            let own = self.board.by_colour(self.state.turn());
            (own, own)
        } else {
            let mover = self.mover();
            (self.controlled_by(mover), self.friends_of(mover))
        }
    }

    /// The legal moves of the piece on `sq` (none if it is not the mover's to move).
    #[must_use]
    pub fn legal_moves_from(&self, sq: Square) -> MoveList {
        let mut list = MoveList::new();
        let mover = self.mover();
        if !self.state.is_decided() && self.controlled_by(mover).contains(sq) {
            if let Some(p) = self.board.piece_at(sq) {
                let own = self.friends_of(mover);
                self.piece_moves(sq, p, own, self.board.occupied(), &mut list);
            }
        }
        list
    }

    /// The number of legal moves, counted without listing them (set-wise, on the board's
    /// square sets per flag direction: much faster than generating them).
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        self.count_moves()
    }

    /// [`Position::count_legal_moves`], inlined into its caller (perft's last ply).
    #[inline(always)]
    pub(crate) fn count_moves(&self) -> usize {
        if self.state.is_decided() {
            return 0;
        }
        let (movers, friends) = self.side_sets();
        let rotation = self.rules.rotation;
        let occupied = self.board.occupied().0;
        let motion = movegen::count_motion(&self.board, movers.0, friends.0, occupied, rotation);
        let turns = if self.variant == Variant::TwoPlayer {
            self.turn_moves(self.state.turn(), rotation)
        } else {
            let mover = self.mover();
            Seat::ALL
                .into_iter()
                .filter(|&c| self.state.controller(c) == mover)
                .map(|c| self.turn_moves(c, rotation))
                .sum()
        };
        (motion + turns) as usize
    }

    /// The number of legal moves after `mv` (legal here), as [`Position::count_moves`]
    /// would give after making it. In a two-player game a move that captures nothing
    /// changes nothing the opponent's moves depend on but which squares are occupied (his
    /// pieces, their flags and kinds stay, and only a capture can decide the game), so his
    /// moves are counted on the board as it is with the occupancy the move leaves; any
    /// other move is made, counted after and unmade. (perft's last two plies.)
    #[inline(always)]
    pub(crate) fn count_moves_after(&mut self, mv: Move) -> usize {
        if self.variant == Variant::TwoPlayer {
            let (from, to) = (mv.from(), mv.to());
            let occupied = self.board.occupied();
            if from == to || !occupied.contains(to) {
                let next = Seat::ALL[self.state.turn().index() ^ 1];
                let own = self.board.by_colour(next).0;
                let after = if from == to {
                    occupied.0
                } else {
                    occupied.0 ^ (Bitboard::from_square(from) | Bitboard::from_square(to)).0
                };
                let rotation = self.rules.rotation;
                let motion = movegen::count_motion(&self.board, own, own, after, rotation);
                return (motion + self.turn_moves(next, rotation)) as usize;
            }
        }
        let undo = self.make_move(mv);
        let n = self.count_moves();
        self.unmake_move(mv, undo);
        n
    }

    /// The direction moves of the pieces of `colour`.
    #[inline(always)]
    fn turn_moves(&self, colour: Seat, rotation: Rotation) -> u32 {
        match rotation {
            Rotation::Any => self.board.turn_moves(colour),
            // Every piece has exactly two (asserted with the tables).
            Rotation::SingleStep => 2 * self.board.pieces_of(colour),
        }
    }

    /// The squares a piece with `flags` and `range` on `sq` may move to: along each flag,
    /// up to `range` squares, stopping before a friend and on an enemy.
    #[inline]
    fn targets(sq: Square, flags: Flags, range: u8, own: Bitboard, occ: Bitboard) -> Bitboard {
        let rays = &RAYS[range as usize - 1];
        let mut t = 0u128;
        let mut bits = flags.bits();
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let ray = rays[d][sq.index()];
            let blockers = ray & occ.0;
            t |= if blockers == 0 {
                ray
            } else if UPWARD & (1 << d) != 0 {
                // Nearest blocker is the lowest bit: keep the squares up to and including it.
                let b = blockers & blockers.wrapping_neg();
                ray & (b | (b - 1))
            } else {
                // Nearest blocker is the highest bit: keep it and everything above it.
                let b = 1u128 << (127 - blockers.leading_zeros());
                ray & !(b - 1)
            };
        }
        Bitboard(t & !own.0)
    }

    #[inline]
    fn piece_moves(&self, sq: Square, p: Piece, own: Bitboard, occ: Bitboard, list: &mut MoveList) {
        let kind = p.kind();
        let targets = Self::targets(sq, p.flags(), kind.range(), own, occ);
        if kind == PieceKind::Shield {
            let rots = self.rules.rotation.shield_mask();
            for to in targets {
                let mut r = rots;
                while r != 0 {
                    list.push(Move::new(sq, to, r.trailing_zeros() as u8));
                    r &= r - 1;
                }
            }
        } else {
            for to in targets {
                list.push(Move::new(sq, to, 0));
            }
        }
        let mut r = TURNS[p.flags().bits() as usize] & self.rules.rotation.turn_mask();
        while r != 0 {
            list.push(Move::turn(sq, r.trailing_zeros() as u8));
            r &= r - 1;
        }
    }

    /// Whether `mv` is legal here (the same answer as looking it up in
    /// [`Position::legal_moves`], but without generating them).
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.state.is_decided() {
            return false;
        }
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        let turn = self.mover();
        if !self.controlled_by(turn).contains(from) {
            return false;
        }
        let Some(p) = self.board.piece_at(from) else {
            return false;
        };
        if from == to {
            return TURNS[p.flags().bits() as usize] & self.rules.rotation.turn_mask() & (1 << r)
                != 0;
        }
        let kind = p.kind();
        let rot_ok = if kind == PieceKind::Shield {
            self.rules.rotation.shield_mask() & (1 << r) != 0
        } else {
            r == 0
        };
        rot_ok
            && Self::targets(
                from,
                p.flags(),
                kind.range(),
                self.friends_of(turn),
                self.board.occupied(),
            )
            .contains(to)
    }

    /// The squares the piece on `sq` could move to (empty squares and enemy pieces on its
    /// lines, within range), whoever is to move. Empty if `sq` is empty.
    #[must_use]
    pub fn attacks(&self, sq: Square) -> Bitboard {
        match self.board.piece_at(sq) {
            Some(p) => {
                let friends = self.friends_of(self.controller(p.colour()));
                Self::targets(
                    sq,
                    p.flags(),
                    p.kind().range(),
                    friends,
                    self.board.occupied(),
                )
            }
            None => Bitboard::EMPTY,
        }
    }

    /// The pieces `seat` controls that could capture a piece of another side standing on
    /// `sq` (whatever stands there now).
    #[must_use]
    pub fn attackers(&self, sq: Square, seat: Seat) -> Bitboard {
        let mine = self.controlled_by(seat);
        let occ = self.board.occupied();
        let mut out = Bitboard::EMPTY;
        for d in Direction::ALL {
            // Walk away from `sq` opposite to `d`; the first piece met may come back along `d`.
            let back = d.opposite().index();
            let mut s = sq.index() as u8;
            for dist in 1..=3u8 {
                s = NEIGHBOUR[back][s as usize];
                if s == OFF {
                    break;
                }
                let from = Square::from_index_unchecked(s);
                if occ.contains(from) {
                    if mine.contains(from) {
                        if let Some(p) = self.board.piece_at(from) {
                            if p.flags().contains(d) && p.kind().range() >= dist {
                                out.insert(from);
                            }
                        }
                    }
                    break;
                }
            }
        }
        out
    }

    /// Whether any piece `seat` controls could capture an enemy piece standing on `sq`.
    #[must_use]
    pub fn is_attacked(&self, sq: Square, seat: Seat) -> bool {
        self.attackers(sq, seat).any()
    }

    // ----- making moves ----------------------------------------------------------------

    /// Plays `mv`, which must be legal, and returns what [`Position::unmake_move`] needs to
    /// take it back.
    ///
    /// Precondition: `mv` is legal here (from [`Position::legal_moves`] or checked with
    /// [`Position::is_legal`]). An illegal move leaves the position in an unspecified but
    /// memory-safe state; use [`Position::play`] for untrusted moves.
    ///
    /// # Panics
    /// May panic if `from` is empty.
    #[inline(always)]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let prev = self.state;
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        let piece = self
            .board
            .piece_at(from)
            .expect("make_move: no piece on the start square");
        let moved = piece.rotate(r);
        let mut captured = None;
        let mut h = self.state.hash;
        if from == to {
            // The colour keys cancel, and the flag keys of a square combine by XOR.
            h ^= flags_key(
                from,
                Flags::new(piece.flags().bits() ^ moved.flags().bits()),
            );
            self.board.turn_piece(from, piece, moved);
        } else {
            h ^= piece_key(from, piece) ^ piece_key(to, moved);
            captured = self.board.piece_at(to);
            match captured {
                None => self.board.relocate(from, to, piece, moved),
                Some(c) => {
                    h ^= piece_key(to, c);
                    self.board.capture(from, to, piece, moved, c);
                }
            }
        }
        if self.variant == Variant::TwoPlayer {
            self.state.hash = h ^ KEYS.turn[0] ^ KEYS.turn[1];
            self.state.flip_two_player_turn();
            if captured.is_some() {
                let next = self.state.turn();
                self.judge_two_player(Seat::ALL[next.index() ^ 1], next);
            }
            return Undo {
                piece,
                captured,
                removed: None,
                state: prev,
            };
        }
        self.state.hash = h;
        let removed = self.finish_four_player(prev.turn(), captured.is_some());
        Undo {
            piece,
            captured,
            removed,
            state: prev,
        }
    }

    /// After a capture by `mover` in a two-player game: ends the game if `next` is
    /// eliminated.
    #[inline]
    fn judge_two_player(&mut self, mover: Seat, next: Seat) {
        if let Some(reason) = self.elimination(next) {
            self.eliminate_two_player(mover, next, reason);
            self.state.hash ^= KEYS.out[next.index()];
        }
    }

    /// The four-player part of [`Position::make_move`]: eliminations and the next turn.
    #[inline(never)]
    fn finish_four_player(&mut self, slot: Seat, captured: bool) -> Option<(Square, Piece)> {
        let mover = self.actor(slot).unwrap_or(slot);
        let removed = if captured {
            self.judge_four_player(mover)
        } else {
            None
        };
        let next = self.next_turn(slot);
        self.state.hash ^= turn_key(slot) ^ turn_key(next);
        self.state.set_turn(next);
        removed
    }

    /// The free-for-all position after `seat` left the game (resigned or lost on time)
    /// while at least two other players are still in play: every piece `seat` controls
    /// (his own and those he took over) leaves the board, he is out of play, and if it was
    /// his turn, it passes to the next player in play. The colours he controlled, now
    /// without pieces, pass to the next player in play after him in turn order (so that
    /// the position is one [`Position::from_setup`] accepts; no piece moves with them).
    ///
    /// Nothing else changes: no other player is eliminated by it, and the game goes on.
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Seat, Variant};
    /// let pos = Position::start(Variant::FreeForAll, Rules::standard());
    /// let after = pos.without_player(Seat::Green).unwrap();
    /// assert!(!after.in_play().contains(Seat::Green));
    /// assert_eq!(after.turn(), Seat::Red);
    /// assert_eq!(after.board().pieces().count(), 27);
    /// assert!(after.outcome().is_none());
    /// ```
    ///
    /// `None` unless this is a free-for-all game that goes on, `seat` is in play, and at
    /// least two other players are.
    #[must_use]
    pub fn without_player(&self, seat: Seat) -> Option<Position> {
        let in_play = self.state.in_play();
        if self.variant != Variant::FreeForAll
            || self.state.outcome().is_some()
            || !in_play.contains(seat)
            || in_play.without(seat).count() < 2
        {
            return None;
        }
        let mut setup = self.to_setup();
        setup.in_play = in_play.without(seat);
        let heir = (1..4)
            .map(|i| Seat::ALL[(seat.index() + i) & 3])
            .find(|&s| setup.in_play.contains(s))?;
        for colour in Seat::ALL {
            if setup.controllers[colour.index()] == seat {
                setup.controllers[colour.index()] = heir;
                let squares: Vec<Square> = setup.board.by_colour(colour).into_iter().collect();
                for sq in squares {
                    setup.board.remove(sq);
                }
            }
        }
        if setup.turn == seat {
            setup.turn = heir;
        }
        Position::from_setup(setup, self.rules).ok()
    }

    /// The seat after `slot` in turn order whose turn someone takes (after the game has
    /// ended: simply the next seat).
    fn next_turn(&self, slot: Seat) -> Seat {
        let mut s = slot;
        for _ in 0..4 {
            s = Seat::ALL[(s.index() + 1) & 3];
            if self.state.is_decided() || self.actor(s).is_some() {
                return s;
            }
        }
        slot
    }

    /// After `mover` captured: checks every other player in play, in turn order after the
    /// mover, eliminates those who meet the test, and ends the game if one player or team
    /// is left. Returns a bare commander taken off the board, if any.
    fn judge_four_player(&mut self, mover: Seat) -> Option<(Square, Piece)> {
        let mut removed = None;
        let mut last_reason = None;
        for i in 1..4 {
            let seat = Seat::ALL[(mover.index() + i) & 3];
            if !self.state.in_play().contains(seat) {
                continue;
            }
            let Some(reason) = self.elimination(seat) else {
                continue;
            };
            last_reason = Some(reason);
            self.state.set_in_play(self.state.in_play().without(seat));
            self.state.hash ^= KEYS.out[seat.index()];
            if reason == WinReason::OnlyCommanders
                && self.rules.bare_commander == BareCommander::Removed
            {
                // His own commander leaves the board (`docs/rules.md` section 7, the bare
                // commander). Another colour's commander he controls (possible only in a
                // position set up by hand: in play an out-of-play colour's commander is
                // gone under this option) passes on with its colour like any other piece.
                let own = self.board.by_colour(seat);
                for sq in own {
                    if let Some(p) = self.board.piece_at(sq) {
                        if p.kind() == PieceKind::Commander {
                            self.board.remove(sq);
                            self.state.hash ^= piece_key(sq, p);
                            debug_assert!(removed.is_none(), "one bare commander per move");
                            removed = Some((sq, p));
                        }
                    }
                }
            }
            let heir = match (self.variant, self.rules.partner_elimination) {
                (Variant::FreeForAll, _) => Some(mover),
                (Variant::Partnership, PartnerElimination::Absorbed)
                    if self.state.in_play().contains(seat.partner()) =>
                {
                    Some(seat.partner())
                }
                _ => None,
            };
            if let Some(heir) = heir {
                self.transfer_control(seat, heir);
            }
        }
        if last_reason.is_some() {
            self.state.set_outcome(self.four_player_result(last_reason));
        }
        removed
    }

    /// Every colour `from` controls passes to `to`.
    fn transfer_control(&mut self, from: Seat, to: Seat) {
        for c in Seat::ALL {
            if self.state.controller(c) == from {
                let key = |s: Seat| {
                    if s == c {
                        0
                    } else {
                        KEYS.control[c.index()][s.index()]
                    }
                };
                self.state.hash ^= key(from) ^ key(to);
                self.state.set_controller(c, to);
            }
        }
    }

    /// The outcome if one player (free-for-all) or one team (partnership) is left in play.
    /// `reason` is why the last opponent went out; for a position read from a setup it is
    /// guessed from the board (commander captured if a loser has no commander).
    fn four_player_result(&self, reason: Option<WinReason>) -> Option<Outcome> {
        let in_play = self.state.in_play();
        let winners = match self.variant {
            Variant::TwoPlayer => return self.state.outcome(),
            Variant::FreeForAll if in_play.count() == 1 => in_play,
            Variant::Partnership => {
                let team = |s: Seat| SeatSet::only(s).with(s.partner());
                let green = team(Seat::Green);
                let red = team(Seat::Red);
                match (
                    (in_play.bits() & green.bits()) != 0,
                    (in_play.bits() & red.bits()) != 0,
                ) {
                    (true, false) => green,
                    (false, true) => red,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let reason = reason.unwrap_or_else(|| {
            let losers = SeatSet::ALL.bits() & !winners.bits();
            let no_commander = SeatSet::from_bits(losers)
                .iter()
                .any(|s| self.board.count(s, PieceKind::Commander) == 0);
            if no_commander {
                WinReason::CommanderCaptured
            } else {
                WinReason::OnlyCommanders
            }
        });
        Some(Outcome::Win { winners, reason })
    }

    /// Takes back `mv`, which must be the last move made, with its [`Undo`].
    #[inline(always)]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        if let Some((sq, p)) = undo.removed {
            self.board.put_on_empty(sq, p);
        }
        let piece = undo.piece;
        let moved = piece.rotate(r);
        if from == to {
            self.board.turn_piece(from, moved, piece);
        } else {
            match undo.captured {
                None => self.board.relocate(to, from, moved, piece),
                Some(c) => self.board.uncapture(from, to, piece, moved, c),
            }
        }
        self.state = undo.state;
    }

    /// Passes the turn to the opponent without moving: a *null move*, which the rules do
    /// not allow, for searches that ask "what if this side could do nothing" (null-move
    /// pruning). Only the seat to move and the hash change; [`Position::unmake_null_move`]
    /// takes it back.
    ///
    /// Returns `false` and changes nothing in a decided game or a four-player game (where
    /// a pass would have to decide whose turn comes next).
    ///
    /// ```
    /// use ploy_core::{Position, Seat};
    /// let mut pos = Position::new();
    /// let before = pos.clone();
    /// assert!(pos.make_null_move());
    /// assert_eq!(pos.turn(), Seat::Red);
    /// assert_eq!(pos.hash(), pos.compute_hash());
    /// pos.unmake_null_move();
    /// assert_eq!(pos, before);
    /// ```
    #[inline]
    pub fn make_null_move(&mut self) -> bool {
        if self.variant != Variant::TwoPlayer || self.state.outcome().is_some() {
            return false;
        }
        self.swap_two_player_turn();
        true
    }

    /// Takes back a null move made by [`Position::make_null_move`] (which returned `true`),
    /// the last move made.
    #[inline]
    pub fn unmake_null_move(&mut self) {
        self.swap_two_player_turn();
    }

    #[inline]
    fn swap_two_player_turn(&mut self) {
        let mover = self.state.turn();
        let next = self.two_player_opponent(mover);
        self.state.hash ^= turn_key(mover) ^ turn_key(next);
        self.state.set_turn(next);
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

/// `serde` form of a [`Position`]: the setup and the rules, validated on the way in.
#[cfg(feature = "serde")]
mod serde_form {
    use super::{Position, Setup};
    use crate::{Board, Piece, Rules, Seat, SeatSet, Square, Variant};
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
            Position::from_setup(setup, form.rules).map_err(serde::de::Error::custom)
        }
    }
}
