//! Ploy's free-for-all as a game of four players with a score each, for the searches of
//! [`ploy_search::multi`]: [`FreeForAll`] and its evaluation.

use crate::SearchMoves;
use crate::eval::tracks::{BY_PARITY, Tracks};
use crate::eval::{Evaluation, Tables, default_tables};
use ploy_core::{Game, Move, Outcome, Position, Undo, Variant};
use ploy_search::multi::{MultiEvaluator, MultiGame, ScoreVector};
use std::sync::Arc;

/// The final score of the winner of a free-for-all game; the losers get its negative. It
/// lies far beyond every evaluation, as [`MultiGame::outcome`] asks.
pub const FFA_WIN: i32 = 1_000_000;

/// A free-for-all position as a game of four players for [`ploy_search::multi`]: the moves
/// of ploy-core's generator, a pass for Best-Reply Search, and the final scores by the
/// rules (`docs/rules.md`, sections 6 and 7).
///
/// - **Players** are the seats (`0..4`, [`Seat::index`](ploy_core::Seat::index)); the player to move is
///   [`Position::mover`], and the turn skips the players who are out, as the rules say.
/// - **Final scores** ([`MultiGame::outcome`]): the last player in play wins, [`FFA_WIN`],
///   and everybody else gets `-FFA_WIN`. A draw gives 0 to every player still in play and
///   `-FFA_WIN` to those out. A game is drawn for the search when a position repeats
///   one since the last capture (in the search or in the game's history: like the
///   two-sided search, the engine treats any repetition as a draw, so as not to play in
///   circles), or when the rules' no-capture limit is reached. An eliminated player's
///   colours pass to his eliminator and the game goes on without him.
/// - **A pass** ([`MultiGame::make_pass`]) hands the turn to the next player in play and
///   changes nothing else; it counts as a ply for the no-capture limit. Ploy has no pass:
///   only Best-Reply Search makes one, in lines it searches.
/// - **Move ordering** ([`MultiGame::order`]): captures first, most valuable victim then
///   least valuable attacker (the two-sided search's capture order), a capture of a
///   commander above all; other moves in generation order.
/// - **Evaluation** ([`MultiEvaluator`] for [`Evaluation`]): see
///   [`Evaluation::every_player_scores`].
///
/// The evaluation's sets of squares are kept up to date move by move, as in
/// [`crate::Paranoid`]; one set serves all four players.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_engine::{Evaluation, FreeForAll};
/// use ploy_search::Limits;
/// use ploy_search::multi::{Brs, MultiGame};
///
/// let g = FreeForAll::new(Position::start(Variant::FreeForAll, Rules::standard()));
/// assert_eq!((g.players(), g.to_move()), (4, 0));
/// let r = Brs::new(Evaluation::default()).search(&g, &Limits::depth(2));
/// assert!(g.position().is_legal(r.best_move.unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct FreeForAll {
    pos: Position,
    tracks: Tracks,
    tables: Arc<Tables>,
    /// The hashes of the positions since the last capture, the current one last (the
    /// game's before the search's).
    path: Vec<u64>,
    /// Where the positions since the last capture start in `path`.
    since: usize,
    /// Plies since the last capture.
    quiet: u32,
    /// Whether the current position is drawn by repetition or the no-capture limit.
    drawn: bool,
    /// The passes made, to take back.
    passes: Vec<(Move, Undo, u32, bool)>,
}

impl PartialEq for FreeForAll {
    fn eq(&self, other: &FreeForAll) -> bool {
        self.pos == other.pos
            && self.path[self.since..] == other.path[other.since..]
            && self.quiet == other.quiet
            && self.drawn == other.drawn
    }
}

/// What [`FreeForAll`]'s `unmake` needs besides the move.
#[derive(Clone, Copy, Debug)]
pub struct FreeForAllUndo {
    undo: Undo,
    rebuilt: bool,
    since: usize,
    quiet: u32,
    drawn: bool,
}

impl FreeForAll {
    /// `pos`, a free-for-all position, without history (no earlier position counts for
    /// repetition, no ply for the no-capture limit).
    ///
    /// # Panics
    ///
    /// If `pos` is not of the free-for-all variant.
    #[must_use]
    pub fn new(pos: Position) -> FreeForAll {
        FreeForAll::with_tables(pos, default_tables())
    }

    /// The position of `game` with its history: the positions since the last capture
    /// (for repetitions) and the plies since then (for the no-capture limit).
    ///
    /// # Panics
    ///
    /// If `game` is not a free-for-all game.
    #[must_use]
    pub fn from_game(game: &Game) -> FreeForAll {
        FreeForAll::from_game_with(game, default_tables())
    }

    fn from_game_with(game: &Game, tables: Arc<Tables>) -> FreeForAll {
        let mut g = FreeForAll::with_tables(game.position().clone(), tables);
        let positions = game.positions();
        let quiet = game.plies_since_capture();
        let first = positions.len() - 1 - quiet as usize;
        g.path = positions[first..].iter().map(Position::hash).collect();
        g.quiet = quiet;
        g
    }

    fn with_tables(pos: Position, tables: Arc<Tables>) -> FreeForAll {
        assert_eq!(
            pos.variant(),
            Variant::FreeForAll,
            "FreeForAll searches free-for-all positions"
        );
        let tracks = Tracks::new(&pos, &BY_PARITY, tables.of(Variant::FreeForAll));
        let path = vec![pos.hash()];
        FreeForAll {
            pos,
            tracks,
            tables,
            path,
            since: 0,
            quiet: 0,
            drawn: false,
            passes: Vec::new(),
        }
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Whether the search counts the position as drawn (a repetition since the last
    /// capture, or the no-capture limit reached), though the board has not decided it.
    #[must_use]
    pub fn is_drawn(&self) -> bool {
        self.drawn
    }

    /// Records the position just reached: its hash, and whether it is drawn.
    fn arrive(&mut self, captured: bool) {
        let h = self.pos.hash();
        if captured {
            self.since = self.path.len();
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        let repeated = self.path[self.since..].contains(&h);
        let limit = self
            .pos
            .rules()
            .no_capture_limit
            .is_some_and(|n| self.quiet >= u32::from(n));
        self.path.push(h);
        self.drawn = repeated || limit;
    }

    /// The final scores of a draw: 0 for the players in play, a loss for the others.
    fn draw_scores(&self) -> ScoreVector {
        let mut s = [-FFA_WIN; 4];
        for seat in self.pos.in_play().iter() {
            s[seat.index()] = 0;
        }
        s
    }
}

impl MultiGame for FreeForAll {
    type Move = Move;
    type Undo = FreeForAllUndo;
    type Moves = SearchMoves;

    #[inline]
    fn players(&self) -> usize {
        4
    }

    #[inline]
    fn to_move(&self) -> usize {
        self.pos.mover().index()
    }

    fn outcome(&self) -> Option<ScoreVector> {
        match self.pos.outcome() {
            Some(Outcome::Win { winners, .. }) => {
                let mut s = [-FFA_WIN; 4];
                for seat in winners.iter() {
                    s[seat.index()] = FFA_WIN;
                }
                Some(s)
            }
            Some(Outcome::Draw { .. }) => Some(self.draw_scores()),
            None if self.drawn => Some(self.draw_scores()),
            None => None,
        }
    }

    #[inline]
    fn generate(&self, moves: &mut SearchMoves) {
        if !self.drawn {
            self.pos.generate_moves(&mut moves.0);
        }
    }

    #[inline]
    fn make(&mut self, mv: Move) -> FreeForAllUndo {
        let (since, quiet, drawn) = (self.since, self.quiet, self.drawn);
        let psqt = self.tables.of(Variant::FreeForAll);
        let undo = self.tracks.make(&mut self.pos, mv, psqt);
        let captured = undo.captured().is_some();
        // A bare commander may leave the board with its player.
        let rebuilt = captured && !self.tracks.count_matches(&self.pos);
        if rebuilt {
            self.tracks.rebuild_after_make(&self.pos, &BY_PARITY, psqt);
        }
        self.arrive(captured);
        FreeForAllUndo {
            undo,
            rebuilt,
            since,
            quiet,
            drawn,
        }
    }

    #[inline]
    fn unmake(&mut self, mv: Move, u: FreeForAllUndo) {
        let psqt = self.tables.of(Variant::FreeForAll);
        if u.rebuilt {
            self.tracks.discard_last();
            self.pos.unmake_move(mv, u.undo);
            self.tracks.rebuild(&self.pos, &BY_PARITY, psqt);
        } else {
            self.tracks
                .unmake(&mut self.pos, mv, u.undo, &BY_PARITY, psqt);
        }
        self.path.pop();
        (self.since, self.quiet, self.drawn) = (u.since, u.quiet, u.drawn);
    }

    /// Turns a piece of the player to move by zero steps: ploy-core's `make_move` then
    /// changes no piece and passes the turn on as after any move (to the next player in
    /// play), with the hash. The tracked sets do not change.
    fn make_pass(&mut self) {
        let mv = crate::position::pass_move(&self.pos);
        let (quiet, drawn) = (self.quiet, self.drawn);
        let undo = self.pos.make_move(mv);
        debug_assert_eq!(self.pos.hash(), self.pos.compute_hash());
        self.arrive(false);
        self.passes.push((mv, undo, quiet, drawn));
    }

    fn unmake_pass(&mut self) {
        let (mv, undo, quiet, drawn) = self.passes.pop().expect("a pass was made");
        self.pos.unmake_move(mv, undo);
        self.path.pop();
        (self.quiet, self.drawn) = (quiet, drawn);
    }

    /// Captures first (a commander above all), by most valuable victim then least
    /// valuable attacker; 0 for other moves.
    #[inline]
    fn order(&self, mv: Move) -> i32 {
        if crate::position::is_capture_in(&self.pos, mv) {
            10_000 + crate::position::capture_order_in(&self.pos, mv)
        } else {
            0
        }
    }

    /// The position's Zobrist hash (the seat to move included), for the searches' table.
    fn hash(&self) -> Option<u64> {
        Some(self.pos.hash())
    }

    /// The move's squares (its turn left out): 81 x 81 indices for the history scores.
    fn move_index(&self, mv: Move) -> Option<usize> {
        Some(mv.from().index() * 81 + mv.to().index())
    }
}

impl Evaluation {
    /// `game`'s position with its history as a [`FreeForAll`] for this evaluation.
    ///
    /// # Panics
    ///
    /// If `game` is not a free-for-all game.
    #[must_use]
    pub fn free_for_all(&self, game: &Game) -> FreeForAll {
        FreeForAll::from_game_with(game, self.tables().clone())
    }

    /// Every player's score in a free-for-all position `g` that is not decided, as the
    /// multi-player searches read it ([`MultiEvaluator`]).
    ///
    /// First each player in play gets this evaluation of his colours (those he took over
    /// included) against all the others together, the value the paranoid reduction
    /// ([`crate::Paranoid`]) gives with him as root; [`Evaluation::every_player`] has
    /// them. That value is about −1900 for everybody in the start position (his one army
    /// against three). A player's score is then his value less the mean value of the
    /// players in play, halved: 0 for everybody when all stand level (as in a draw), and,
    /// as material goes, about his material less the mean material of the players in
    /// play. A player out of play scores `-`[`FFA_WIN`].
    ///
    /// Then, because the multi-player searches have no quiescence search, the capture the
    /// player to move has at hand counts as made: the best by a static exchange of one
    /// step (a piece its controller does not defend gains its material, a defended one its
    /// material less the cheapest attacker's; a commander gains all its player controls,
    /// which passes to the captor, and 500 more, its player being out). The victim's
    /// score and the captor's change by what each loses or gains, less the mean change of
    /// the players in play.
    #[must_use]
    pub fn every_player_scores(&self, g: &FreeForAll) -> ScoreVector {
        let raw = self.every_player(g);
        let (mut sum, mut k) = (0i64, 0i64);
        for v in raw.iter().flatten() {
            sum += i64::from(*v);
            k += 1;
        }
        let mut s = [-FFA_WIN; 4];
        for (i, v) in raw.iter().enumerate() {
            if let Some(v) = v {
                let rel = (k * i64::from(*v) - sum) / (2 * k.max(1));
                s[i] = i32::try_from(rel).expect("evaluations are small");
            }
        }
        // The capture the player to move has at hand, as if made.
        if let Some(c) = self.best_capture(&g.pos, &g.tracks) {
            let mover = g.pos.mover().index();
            let k = i32::try_from(k.max(1)).expect("at most four players");
            let mean = (c.mover + c.loss) / k;
            for (i, v) in s.iter_mut().enumerate() {
                if raw[i].is_some() {
                    *v -= mean;
                }
            }
            s[mover] += c.mover;
            s[c.victim] += c.loss;
        }
        s
    }

    /// Each player's evaluation against all the others in `g`, from his view (`None` for
    /// a player out of play): for each player in play what [`crate::Paranoid`] evaluates
    /// with him as root, which is for the side to move (so negated when another player is
    /// to move).
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Seat, Variant};
    /// use ploy_engine::{Evaluation, FreeForAll, Paranoid};
    /// use ploy_search::Evaluator;
    ///
    /// let pos = Position::start(Variant::FreeForAll, Rules::standard());
    /// let eval = Evaluation::default();
    /// let each = eval.every_player(&FreeForAll::new(pos.clone()));
    /// for seat in Seat::ALL {
    ///     let paranoid = eval.evaluate(&Paranoid::for_seat(pos.clone(), seat));
    ///     let view = if seat == pos.mover() { paranoid } else { -paranoid };
    ///     assert_eq!(each[seat.index()], Some(view));
    /// }
    /// ```
    #[must_use]
    pub fn every_player(&self, g: &FreeForAll) -> [Option<i32>; 4] {
        self.every_player_on(&g.pos, &g.tracks)
    }
}

/// [`Evaluation::every_player_scores`].
impl MultiEvaluator<FreeForAll> for Evaluation {
    #[inline]
    fn evaluate(&self, g: &FreeForAll) -> ScoreVector {
        self.every_player_scores(g)
    }
}
