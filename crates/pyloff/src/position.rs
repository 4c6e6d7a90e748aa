//! The position: pieces on every level, the player to move, make and unmake.

use core::fmt;

use crate::error::{IllegalMove, IllegalMoveReason, SetupError};
use crate::geometry::{Cell, Geometry, MAX_POINTS, NONE, Point};
use crate::rules::{Rules, Scratch, with_scratch};
use crate::types::{Move, Options, Outcome, Player, RuleSet, Status};

/// SplitMix64, for the fixed Zobrist keys.
const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const PIECE_KEYS: usize = MAX_POINTS * 4;

/// The Zobrist keys: one per (point number, player) (`4 * point + player - 1`), then one per
/// player to move, then the key of "swap allowed". Fixed (seeded SplitMix64): they are part
/// of the stable API through [`Position::hash`].
static KEYS: [u64; PIECE_KEYS + 5] = {
    let mut keys = [0u64; PIECE_KEYS + 5];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = splitmix(0x5059_4C4F_4646_0000 ^ (i as u64).wrapping_mul(0x9E37_79B9));
        i += 1;
    }
    keys
};

#[inline]
fn piece_key(point: u16, colour: u8) -> u64 {
    KEYS[point as usize * 4 + colour as usize - 1]
}

#[inline]
fn turn_key(p: Player) -> u64 {
    KEYS[PIECE_KEYS + p.index()]
}

const SWAP_KEY: usize = PIECE_KEYS + 4;

/// What [`Position::unmake`] needs to take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The placed point, or [`NONE`].
    placed: u16,
    /// The length of the removal log before the move.
    log_len: u32,
    status: Status,
    to_move: Player,
    swapped: bool,
}

/// A Pyloff position: the pieces on every level, the player to move, the number of moves
/// made (for the swap), and the options.
///
/// The position knows what its player to move may do ([`Position::status`]): place, pass
/// (forced) or nothing (the game is over). [`Position::play`] checks a move and leaves the
/// position unchanged when it is illegal; [`Position::unmake`] takes a move back exactly,
/// hash included.
///
/// ```
/// use pyloff::{Move, Options, Position, Status};
/// let mut pos = Position::new(Options::default());
/// let undo = pos.play("c3".parse().unwrap()).unwrap();
/// assert_eq!(pos.to_move().number(), 2);
/// assert!(pos.legal_moves().contains(&Move::Swap));
/// pos.unmake(undo);
/// assert_eq!(pos, Position::new(Options::default()));
/// assert_eq!(pos.status(), Status::Place);
/// ```
#[derive(Clone)]
pub struct Position {
    geo: &'static Geometry,
    options: Options,
    owner: Vec<u8>,
    height: Vec<u8>,
    counts: [u32; 4],
    to_move: Player,
    plies: u32,
    hash: u64,
    status: Status,
    /// Pieces removed by the moves made, for unmake.
    log: Vec<(u16, u8)>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.options == other.options
            && self.owner == other.owner
            && self.to_move == other.to_move
            && self.plies == other.plies
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Position {
    /// The empty board, player 1 to move.
    #[must_use]
    pub fn new(options: Options) -> Position {
        let geo = Geometry::get(options.size());
        let mut pos = Position {
            geo,
            options,
            owner: vec![0; geo.len()],
            height: vec![0; geo.cells.len()],
            counts: [0; 4],
            to_move: Player::ONE,
            plies: 0,
            hash: 0,
            status: Status::Place,
            log: Vec::new(),
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// A position from its parts (checked by the caller: supported pieces, players in
    /// range).
    pub(crate) fn from_parts(
        options: Options,
        owner: Vec<u8>,
        to_move: Player,
        plies: u32,
    ) -> Position {
        let geo = Geometry::get(options.size());
        let mut pos = Position::new(options);
        for (x, &c) in owner.iter().enumerate() {
            if c != 0 {
                pos.owner[x] = c;
                pos.counts[usize::from(c) - 1] += 1;
                pos.height[geo.point_slot[x] as usize] += 1;
            }
        }
        pos.to_move = to_move;
        pos.plies = plies;
        pos.hash = pos.compute_hash();
        pos.status = pos.compute_status();
        pos
    }

    #[inline]
    pub(crate) fn rules_ref(&self) -> Rules<'static> {
        Rules {
            geo: self.geo,
            rules: self.options.rules(),
        }
    }

    pub(crate) fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The owners of the points (0 = empty), in the geometry's numbering.
    pub(crate) fn owners(&self) -> &[u8] {
        &self.owner
    }

    /// The hash of the pieces alone (the key of the analysis cache).
    #[inline]
    pub(crate) fn board_key(&self) -> u64 {
        let mut h = self.hash ^ turn_key(self.to_move);
        if self.swap_allowed() {
            h ^= KEYS[SWAP_KEY];
        }
        h
    }

    /// The hash recomputed from scratch (equals [`Position::hash`]).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = turn_key(self.to_move);
        for (x, &c) in self.owner.iter().enumerate() {
            if c != 0 {
                h ^= piece_key(x as u16, c);
            }
        }
        if self.swap_allowed() {
            h ^= KEYS[SWAP_KEY];
        }
        h
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.options.size()
    }

    /// The number of players.
    #[must_use]
    pub fn players(&self) -> u8 {
        self.options.players()
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> RuleSet {
        self.options.rules()
    }

    /// The player to move (when the game is over, the one who would be next).
    #[must_use]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The number of moves made (placements, swaps and passes).
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The Zobrist hash of the pieces, the player to move and whether swap is allowed.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// What the player to move may do.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.status == Status::Over
    }

    /// Whether `swap` is legal: the second move of a two-player game.
    #[must_use]
    pub fn swap_allowed(&self) -> bool {
        self.options.players() == 2 && self.plies == 1
    }

    /// The piece on `p` (`None` if empty or not a point of this board).
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Player> {
        if !p.on_board(self.size()) {
            return None;
        }
        Player::new(self.owner[self.geo.index(p) as usize])
    }

    /// Whether the piece on `p` is buried (the point two levels up in its cell is occupied).
    #[must_use]
    pub fn is_buried(&self, p: Point) -> bool {
        p.on_board(self.size())
            && self.owner[self.geo.index(p) as usize] != 0
            && self.rules_ref().buried(&self.owner, self.geo.index(p))
    }

    /// Whether `p` is a valid point: on the board, or resting on four occupied points.
    #[must_use]
    pub fn is_valid(&self, p: Point) -> bool {
        p.on_board(self.size()) && self.rules_ref().valid(&self.owner, self.geo.index(p))
    }

    /// The group of the piece on `p`: the pieces linked to it (in both directions, even
    /// under `cut_down`) and their freedoms, sorted; a buried piece is a group of its own.
    /// `None` if `p` is empty or not on the board.
    #[must_use]
    pub fn group(&self, p: Point) -> Option<Group> {
        let player = self.get(p)?;
        let x = self.geo.index(p);
        let r = self.rules_ref();
        with_scratch(|s| {
            r.group(&self.owner, x, &mut s.w);
            let mut pieces: Vec<Point> = s.w.members.iter().map(|&y| self.geo.point(y)).collect();
            let mut freedoms: Vec<Point> =
                s.w.members
                    .iter()
                    .flat_map(|&y| r.freedoms_of(&self.owner, y))
                    .map(|q| self.geo.point(q))
                    .collect();
            pieces.sort_unstable();
            freedoms.sort_unstable();
            freedoms.dedup();
            Some(Group {
                player,
                pieces,
                freedoms,
            })
        })
    }

    /// Whether the piece on `p` is alive: its group has a freedom (under `cut_down`: a path
    /// of links that never goes down reaches a piece with a freedom). A piece of another
    /// colour than the mover's that is not alive is captured by the next placement.
    /// `false` for an empty point.
    #[must_use]
    pub fn is_alive(&self, p: Point) -> bool {
        if self.get(p).is_none() {
            return false;
        }
        let r = self.rules_ref();
        with_scratch(|s| r.alive(&self.owner, self.geo.index(p), &mut s.w))
    }

    /// The number of pieces of `player` on the board, every level, buried or not.
    #[must_use]
    pub fn score(&self, player: Player) -> u32 {
        self.counts[player.index()]
    }

    /// The scores of the game's players, by player number.
    #[must_use]
    pub fn scores(&self) -> &[u32] {
        &self.counts[..usize::from(self.players())]
    }

    /// The number of pieces on the board.
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The outcome, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        (self.status == Status::Over).then(|| Outcome::from_scores(self.scores()))
    }

    /// The topmost piece of `cell` and its point.
    #[must_use]
    pub fn top(&self, cell: Cell) -> Option<(Point, Player)> {
        let slot = self.slot(cell)?;
        let h = self.height[slot] as usize;
        let x = *self.geo.slot_points[slot].get(h.checked_sub(1)?)?;
        Some((self.geo.point(x), Player::new(self.owner[x as usize])?))
    }

    /// The lowest empty point of `cell` (`None` if the cell is full or not on this board).
    #[must_use]
    pub fn lowest_empty(&self, cell: Cell) -> Option<Point> {
        let slot = self.slot(cell)?;
        let x = self.lowest_empty_slot(slot)?;
        Some(self.geo.point(x))
    }

    #[inline]
    fn slot(&self, cell: Cell) -> Option<usize> {
        if !cell.on_board(self.size()) {
            return None;
        }
        let s = self.geo.cell_slot[cell.code() as usize];
        (s != NONE).then_some(s as usize)
    }

    #[inline]
    fn lowest_empty_slot(&self, slot: usize) -> Option<u16> {
        self.geo.slot_points[slot]
            .get(self.height[slot] as usize)
            .copied()
    }

    /// The point `mv` would place on, or why it cannot (not checking suicide).
    fn target(&self, cell: Cell) -> Result<u16, IllegalMoveReason> {
        let slot = self.slot(cell).ok_or(IllegalMoveReason::OffBoard)?;
        let x = self
            .lowest_empty_slot(slot)
            .ok_or(IllegalMoveReason::Full)?;
        if !self.rules_ref().valid(&self.owner, x) {
            return Err(IllegalMoveReason::Unsupported);
        }
        Ok(x)
    }

    /// Whether `player` has a legal placement on this board.
    #[must_use]
    pub fn has_placement(&self, player: Player) -> bool {
        with_scratch(|s| self.has_placement_with(player.number(), s))
    }

    fn has_placement_with(&self, c: u8, s: &mut Scratch) -> bool {
        // Common case first: an empty board point with an empty neighbour is legal for all.
        let board = self.geo.level_start[1] as usize;
        let free = (0..board).any(|x| {
            self.owner[x] == 0
                && self.geo.info[x]
                    .nbr
                    .iter()
                    .any(|&q| q != NONE && self.owner[q as usize] == 0)
        });
        if free {
            return true;
        }
        // Then the cells whose legality needs no trial, then the trials.
        let r = self.rules_ref();
        let slot = r.analyse(&self.owner, self.board_key(), s);
        let (an, w) = s.split(slot);
        let candidates = (0..self.geo.cells.len())
            .filter_map(|slot| self.lowest_empty_slot(slot))
            .filter(|&x| r.valid(&self.owner, x));
        if candidates
            .clone()
            .any(|x| r.surely_legal(&self.owner, x, c) || r.quick_legal(&self.owner, an, x, c))
        {
            return true;
        }
        candidates
            .into_iter()
            .any(|x| r.legal_with(&self.owner, an, x, c, w))
    }

    /// Calls `f(slot, point)` for each legal placement of `c` by slot order until it returns
    /// `true`; returns whether it did.
    fn placements(&self, c: u8, s: &mut Scratch, mut f: impl FnMut(usize, u16) -> bool) -> bool {
        let r = self.rules_ref();
        let key = self.board_key();
        let mut analysed = None;
        for slot in 0..self.geo.cells.len() {
            let Some(x) = self.lowest_empty_slot(slot) else {
                continue;
            };
            if !r.valid(&self.owner, x) {
                continue;
            }
            let legal = r.surely_legal(&self.owner, x, c) || {
                let slot = *analysed.get_or_insert_with(|| r.analyse(&self.owner, key, s));
                let (an, w) = s.split(slot);
                r.legal_with(&self.owner, an, x, c, w)
            };
            if legal && f(slot, x) {
                return true;
            }
        }
        false
    }

    fn compute_status(&self) -> Status {
        with_scratch(|s| {
            if self.has_placement_with(self.to_move.number(), s) {
                return Status::Place;
            }
            let mut p = self.to_move.next(self.players());
            while p != self.to_move {
                if self.has_placement_with(p.number(), s) {
                    return Status::MustPass;
                }
                p = p.next(self.players());
            }
            Status::Over
        })
    }

    /// The legal moves, in the order of the `moves` program: placements by cell (column
    /// letter, then row number), then `swap` when allowed; `[pass]` when the player must
    /// pass; nothing when the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
    }

    /// Appends the legal moves (see [`Position::legal_moves`]) to `moves`.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        match self.status {
            Status::Over => {}
            Status::MustPass => moves.push(Move::Pass),
            Status::Place => {
                let c = self.to_move.number();
                with_scratch(|s| {
                    self.placements(c, s, |slot, _| {
                        moves.push(Move::Place(self.geo.cells[slot]));
                        false
                    })
                });
                if self.swap_allowed() {
                    moves.push(Move::Swap);
                }
            }
        }
    }

    /// Whether `mv` is legal here.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Checks `mv` without playing it.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the reason when `mv` is not legal here.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        self.check_reason(mv).map_err(|reason| IllegalMove {
            mv,
            player: self.to_move,
            reason,
        })
    }

    fn check_reason(&self, mv: Move) -> Result<(), IllegalMoveReason> {
        if self.status == Status::Over {
            return Err(IllegalMoveReason::GameOver);
        }
        match mv {
            Move::Pass => {
                if self.status == Status::MustPass {
                    Ok(())
                } else {
                    Err(IllegalMoveReason::Pass)
                }
            }
            Move::Swap => {
                if self.swap_allowed() {
                    Ok(())
                } else {
                    Err(IllegalMoveReason::Swap)
                }
            }
            Move::Place(cell) => {
                if !cell.on_board(self.size()) {
                    return Err(IllegalMoveReason::OffBoard);
                }
                if self.status == Status::MustPass {
                    return Err(IllegalMoveReason::MustPass);
                }
                let x = self.target(cell)?;
                let r = self.rules_ref();
                let key = self.board_key();
                if with_scratch(|s| {
                    r.legal_placement(&self.owner, key, x, self.to_move.number(), s)
                }) {
                    Ok(())
                } else {
                    Err(IllegalMoveReason::Suicide)
                }
            }
        }
    }

    /// Plays `mv` if it is legal, returning what [`Position::unmake`] needs.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] if `mv` is not legal here; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<Undo, IllegalMove> {
        let err = |reason| IllegalMove {
            mv,
            player: self.to_move,
            reason,
        };
        if self.status == Status::Over {
            return Err(err(IllegalMoveReason::GameOver));
        }
        let undo = Undo {
            placed: NONE,
            log_len: self.log.len() as u32,
            status: self.status,
            to_move: self.to_move,
            swapped: mv == Move::Swap,
        };
        match mv {
            Move::Pass | Move::Swap => {
                self.check(mv)?;
                if mv == Move::Swap {
                    // The single piece on the board becomes player 2's.
                    self.set(self.only_piece(), 2);
                }
                self.advance();
                Ok(undo)
            }
            Move::Place(cell) => {
                if !cell.on_board(self.size()) {
                    return Err(err(IllegalMoveReason::OffBoard));
                }
                if self.status == Status::MustPass {
                    return Err(err(IllegalMoveReason::MustPass));
                }
                let x = self.target(cell).map_err(err)?;
                let c = self.to_move.number();
                let r = self.rules_ref();
                let key = self.board_key();
                let ok = with_scratch(|s| {
                    let log_len = self.log.len();
                    let alive = r.place(&mut self.owner, key, x, c, s, &mut self.log);
                    if !alive {
                        // Put back what the trial removed, and take the piece away.
                        while self.log.len() > log_len {
                            let (y, owner) = self.log.pop().expect("a logged removal");
                            self.owner[y as usize] = owner;
                        }
                        self.owner[x as usize] = 0;
                    }
                    alive
                });
                if !ok {
                    return Err(err(IllegalMoveReason::Suicide));
                }
                self.apply_placement(x, c, undo.log_len as usize);
                self.advance();
                Ok(Undo { placed: x, ..undo })
            }
        }
    }

    /// Updates counts, heights and hash for a placement at `x` whose removals were logged
    /// from `from` on (the owners are already updated).
    fn apply_placement(&mut self, x: u16, c: u8, from: usize) {
        let slot = self.geo.point_slot[x as usize] as usize;
        self.height[slot] += 1;
        self.counts[usize::from(c) - 1] += 1;
        self.hash ^= piece_key(x, c);
        for &(y, owner) in &self.log[from..] {
            let slot = self.geo.point_slot[y as usize] as usize;
            self.height[slot] -= 1;
            self.counts[usize::from(owner) - 1] -= 1;
            self.hash ^= piece_key(y, owner);
        }
    }

    /// The point of the single piece on the board when the swap is played or taken back.
    fn only_piece(&self) -> u16 {
        let x = self
            .owner
            .iter()
            .position(|&c| c != 0)
            .expect("one piece on the board at the swap");
        x as u16
    }

    /// Sets the owner of an occupied point (the swap).
    fn set(&mut self, x: u16, c: u8) {
        let old = self.owner[x as usize];
        self.hash ^= piece_key(x, old) ^ piece_key(x, c);
        self.counts[usize::from(old) - 1] -= 1;
        self.counts[usize::from(c) - 1] += 1;
        self.owner[x as usize] = c;
    }

    /// The move is made: next player, one more ply, the new status.
    fn advance(&mut self) {
        if self.swap_allowed() {
            self.hash ^= KEYS[SWAP_KEY];
        }
        self.hash ^= turn_key(self.to_move);
        self.to_move = self.to_move.next(self.players());
        self.plies += 1;
        self.hash ^= turn_key(self.to_move);
        if self.swap_allowed() {
            self.hash ^= KEYS[SWAP_KEY];
        }
        self.status = self.compute_status();
    }

    /// The turn passes to the next player as after a move, nothing else changes (the
    /// multi-player searches' pass, which the rules do not have); [`Position::unmake`]
    /// takes it back.
    pub(crate) fn pass_turn(&mut self) -> Undo {
        let undo = Undo {
            placed: NONE,
            log_len: self.log.len() as u32,
            status: self.status,
            to_move: self.to_move,
            swapped: false,
        };
        self.advance();
        undo
    }

    /// The move ordering's key of the legal move `mv` (higher first): 100 a piece of
    /// another colour whose group it takes the last freedom of (a capture, by the
    /// analysis of this board), 50 a piece of a group of the mover's own in atari whose
    /// last freedom it fills, 1 for touching a piece on its level. The forced pass and the
    /// swap score 0.
    pub(crate) fn order_key(&self, mv: Move) -> i32 {
        let Move::Place(cell) = mv else {
            return 0;
        };
        let Some(x) = self.slot(cell).and_then(|s| self.lowest_empty_slot(s)) else {
            return 0;
        };
        let c = self.to_move.number();
        let r = self.rules_ref();
        let info = &self.geo.info[x as usize];
        with_scratch(|s| {
            let slot = r.analyse(&self.owner, self.board_key(), s);
            let (an, _) = s.split(slot);
            let mut seen = [NONE; 8];
            let mut key = 0;
            for &q in info.nbr.iter().chain(info.sup.iter()) {
                if q == NONE || self.owner[q as usize] == 0 {
                    continue;
                }
                let g = an.group[q as usize];
                if g == NONE || seen.contains(&g) {
                    continue;
                }
                if let Some(free) = seen.iter_mut().find(|f| **f == NONE) {
                    *free = g;
                }
                let gi = &an.groups[g as usize];
                if info.nbr.contains(&q) {
                    key += 1;
                }
                if gi.freedoms == 1 && gi.free1 == x {
                    let size = i32::from(gi.size);
                    key += if gi.colour == c {
                        50 * size
                    } else {
                        100 * size
                    };
                }
            }
            key
        })
    }

    /// Takes back the last move made, given its undo.
    pub fn unmake(&mut self, undo: Undo) {
        if self.swap_allowed() {
            self.hash ^= KEYS[SWAP_KEY];
        }
        self.hash ^= turn_key(self.to_move);
        self.to_move = undo.to_move;
        self.plies -= 1;
        self.hash ^= turn_key(self.to_move);
        if self.swap_allowed() {
            self.hash ^= KEYS[SWAP_KEY];
        }
        self.status = undo.status;
        if undo.placed != NONE {
            let x = undo.placed;
            let c = self.owner[x as usize];
            while self.log.len() > undo.log_len as usize {
                let (y, owner) = self.log.pop().expect("a logged removal");
                self.owner[y as usize] = owner;
                let slot = self.geo.point_slot[y as usize] as usize;
                self.height[slot] += 1;
                self.counts[usize::from(owner) - 1] += 1;
                self.hash ^= piece_key(y, owner);
            }
            self.owner[x as usize] = 0;
            let slot = self.geo.point_slot[x as usize] as usize;
            self.height[slot] -= 1;
            self.counts[usize::from(c) - 1] -= 1;
            self.hash ^= piece_key(x, c);
        } else if undo.swapped {
            self.set(self.only_piece(), 1);
        }
    }
}

/// A group of pieces and its freedoms ([`Position::group`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Whose pieces.
    pub player: Player,
    /// The pieces, sorted by level, then column, then row (the order of [`Point`]).
    pub pieces: Vec<Point>,
    /// The freedoms: distinct points, sorted.
    pub freedoms: Vec<Point>,
}

/// An unchecked description of a position: options, pieces, player to move and moves made.
/// [`Setup::position`] checks it.
///
/// ```
/// use pyloff::{Options, Player, Point, Setup};
/// let setup = Setup {
///     options: Options::default(),
///     pieces: vec![(Point::new(0, 0, 0), Player::ONE), (Point::new(0, 1, 0), Player::TWO)],
///     to_move: Player::ONE,
///     plies: 2,
/// };
/// let pos = setup.position().unwrap();
/// assert_eq!(pos.score(Player::TWO), 1);
/// assert_eq!(Setup::from(&pos), setup);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// The options.
    pub options: Options,
    /// The pieces, each on a point of the board.
    pub pieces: Vec<(Point, Player)>,
    /// The player to move.
    pub to_move: Player,
    /// The moves made (1 in a two-player game allows the swap).
    pub plies: u32,
}

impl Default for Player {
    fn default() -> Player {
        Player::ONE
    }
}

impl Setup {
    /// The position, if the setup is one: every piece on a point of the board and of one of
    /// the players, no point twice, every piece above the board resting on four pieces, the
    /// player to move one of the players, and in a two-player game with one move made,
    /// player 1's single piece on the board with player 2 to move.
    ///
    /// # Errors
    ///
    /// [`SetupError`] saying which condition fails.
    pub fn position(&self) -> Result<Position, SetupError> {
        let options = self.options;
        let geo = Geometry::get(options.size());
        if self.to_move.number() > options.players() {
            return Err(SetupError::ToMove(self.to_move));
        }
        let mut owner = vec![0u8; geo.len()];
        for &(p, player) in &self.pieces {
            if !p.on_board(options.size()) {
                return Err(SetupError::OffBoard(p, options.size()));
            }
            if player.number() > options.players() {
                return Err(SetupError::Colour(player.number()));
            }
            let x = geo.index(p) as usize;
            if owner[x] != 0 {
                return Err(SetupError::Twice(p));
            }
            owner[x] = player.number();
        }
        for (x, &c) in owner.iter().enumerate() {
            let info = &geo.info[x];
            if c != 0 && info.level > 0 && info.sup.iter().any(|&q| owner[q as usize] == 0) {
                return Err(SetupError::Floating(geo.point(x as u16)));
            }
        }
        if options.players() == 2 && self.plies == 1 {
            let pieces: Vec<u8> = owner.iter().copied().filter(|&c| c != 0).collect();
            if pieces != [1] || self.to_move != Player::TWO {
                return Err(SetupError::FirstMove);
            }
        }
        Ok(Position::from_parts(
            options,
            owner,
            self.to_move,
            self.plies,
        ))
    }
}

impl From<&Position> for Setup {
    fn from(pos: &Position) -> Setup {
        let geo = pos.geometry();
        Setup {
            options: pos.options(),
            pieces: pos
                .owners()
                .iter()
                .enumerate()
                .filter_map(|(x, &c)| Some((geo.point(x as u16), Player::new(c)?)))
                .collect(),
            to_move: pos.to_move(),
            plies: pos.plies(),
        }
    }
}
