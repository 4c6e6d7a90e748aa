//! Small value types: players, rule sets, options, moves, outcomes.

use core::fmt;
use core::str::FromStr;

use crate::geometry::{Cell, DEFAULT_SIZE, MAX_GRID, MAX_SIZE, MIN_SIZE};

/// The longest piece of rejected input an error quotes.
const EXCERPT: usize = 24;

/// `s`, cut to a few characters (on a character boundary) so that an error message stays
/// short whatever the input.
pub(crate) fn excerpt(s: &str) -> String {
    ploy_search::excerpt(s, EXCERPT)
}

/// Game options out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// The board size is not 2 to 13.
    #[error("board size {0} is not 2 to 13")]
    Size(u8),
    /// The number of players is not 2 to 4.
    #[error("{0} players: a game has 2 to 4")]
    Players(u8),
    /// A player number is not 1 to 4.
    #[error("no player {0}: players are numbered 1 to 4")]
    Player(u8),
    /// Not a rule set's name.
    #[error("unknown rule set `{0}` (default, all_freedoms, cut_down)")]
    RuleSet(String),
}

/// A move's text is malformed (whatever the position).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing to read.
    #[error("empty move")]
    Empty,
    /// Not a cell (letter and row number), `swap` or `pass`.
    #[error("`{0}` is not a move (a cell such as c3, swap or pass)")]
    Syntax(String),
    /// A column or row beyond the largest board's grid (`a` to `y`, 1 to 25).
    #[error("`{0}` lies outside every board's grid")]
    OutOfRange(String),
    /// Column and row of different parity name no point.
    #[error("`{0}` is not a point: column and row differ in parity")]
    MixedParity(String),
}

/// A player, numbered 1 to 4 in the order of the challenge; player 1 moves first.
///
/// ```
/// use pyloff::Player;
/// let p = Player::new(3).unwrap();
/// assert_eq!(p.number(), 3);
/// assert_eq!(p.symbol(), '+');
/// assert_eq!(p.to_string(), "3");
/// assert!(Player::new(5).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u8", into = "u8"))]
pub struct Player(u8);

impl Player {
    /// Player 1.
    pub const ONE: Player = Player(1);
    /// Player 2.
    pub const TWO: Player = Player(2);
    /// Every player number, 1 to 4.
    pub const ALL: [Player; 4] = [Player(1), Player(2), Player(3), Player(4)];
    /// The symbols of the colours on the drawn board: `x`, `o`, `+`, `*`.
    pub const SYMBOLS: [char; 4] = ['x', 'o', '+', '*'];

    /// The player numbered `n` (1 to 4).
    #[must_use]
    pub const fn new(n: u8) -> Option<Player> {
        if n >= 1 && n <= 4 {
            Some(Player(n))
        } else {
            None
        }
    }

    /// The player's number, 1 to 4.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// 0 to 3.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// The symbol of the player's colour: `x`, `o`, `+` or `*`.
    #[must_use]
    pub const fn symbol(self) -> char {
        Player::SYMBOLS[self.index()]
    }

    /// The player after this one in a game of `players` players.
    #[must_use]
    pub const fn next(self, players: u8) -> Player {
        Player(self.0 % players + 1)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl TryFrom<u8> for Player {
    type Error = OptionsError;
    fn try_from(n: u8) -> Result<Player, OptionsError> {
        Player::new(n).ok_or(OptionsError::Player(n))
    }
}

impl From<Player> for u8 {
    fn from(p: Player) -> u8 {
        p.0
    }
}

/// A set of players (the winners of a game).
///
/// ```
/// use pyloff::{Player, Players};
/// let w = Players::EMPTY.with(Player::new(3).unwrap()).with(Player::ONE);
/// assert_eq!(w.iter().map(Player::number).collect::<Vec<_>>(), [1, 3]);
/// assert_eq!(w.to_string(), "1 3");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "Vec<Player>", into = "Vec<Player>"))]
pub struct Players(u8);

#[cfg(feature = "serde")]
impl From<Vec<Player>> for Players {
    fn from(v: Vec<Player>) -> Players {
        v.into_iter().fold(Players::EMPTY, Players::with)
    }
}

#[cfg(feature = "serde")]
impl From<Players> for Vec<Player> {
    fn from(p: Players) -> Vec<Player> {
        p.iter().collect()
    }
}

impl Players {
    /// Nobody.
    pub const EMPTY: Players = Players(0);

    /// This set and `p`.
    #[must_use]
    pub const fn with(self, p: Player) -> Players {
        Players(self.0 | 1 << p.index())
    }

    /// Whether `p` is in the set.
    #[must_use]
    pub const fn contains(self, p: Player) -> bool {
        self.0 & 1 << p.index() != 0
    }

    /// How many players.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The players, by number.
    pub fn iter(self) -> impl Iterator<Item = Player> {
        Player::ALL.into_iter().filter(move |&p| self.contains(p))
    }
}

impl fmt::Display for Players {
    /// The numbers separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, p) in self.iter().enumerate() {
            if n > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// The three rule sets of the game (the server's options `-all_freedoms` and `-cut_down`).
///
/// Written `default`, `all_freedoms` and `cut_down` (reading also accepts hyphens and any
/// case).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RuleSet {
    /// Freedoms only on the board level.
    #[default]
    Default,
    /// Freedoms on every level: an empty, valid same-level neighbour point.
    AllFreedoms,
    /// The all-freedoms game where connections do not propagate downwards and any empty
    /// same-level neighbour point is a freedom.
    CutDown,
}

impl RuleSet {
    /// Every rule set.
    pub const ALL: [RuleSet; 3] = [RuleSet::Default, RuleSet::AllFreedoms, RuleSet::CutDown];

    /// The rule set of the two flags (`cut_down` implies `all_freedoms`).
    #[must_use]
    pub const fn from_flags(all_freedoms: bool, cut_down: bool) -> RuleSet {
        if cut_down {
            RuleSet::CutDown
        } else if all_freedoms {
            RuleSet::AllFreedoms
        } else {
            RuleSet::Default
        }
    }

    /// The canonical name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Default => "default",
            RuleSet::AllFreedoms => "all_freedoms",
            RuleSet::CutDown => "cut_down",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = OptionsError;
    fn from_str(s: &str) -> Result<RuleSet, OptionsError> {
        let lower = s.trim().to_ascii_lowercase().replace('-', "_");
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == lower)
            .ok_or_else(|| OptionsError::RuleSet(excerpt(s)))
    }
}

/// The options of a game: board size (2 to 13, default 6), number of players (2 to 4) and
/// rule set. Checked when built.
///
/// ```
/// use pyloff::{Options, RuleSet};
/// let o = Options::new(5, 3, RuleSet::CutDown).unwrap();
/// assert_eq!((o.size(), o.players(), o.rules()), (5, 3, RuleSet::CutDown));
/// assert_eq!(Options::default().size(), 6);
/// assert!(Options::new(14, 2, RuleSet::Default).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RawOptions", into = "RawOptions"))]
pub struct Options {
    size: u8,
    players: u8,
    rules: RuleSet,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            size: DEFAULT_SIZE,
            players: 2,
            rules: RuleSet::Default,
        }
    }
}

impl Options {
    /// Options for a board of `size` and `players` players.
    ///
    /// # Errors
    ///
    /// [`OptionsError`] if the size is not 2 to 13 or the players not 2 to 4.
    pub const fn new(size: u8, players: u8, rules: RuleSet) -> Result<Options, OptionsError> {
        if size < MIN_SIZE || size > MAX_SIZE {
            return Err(OptionsError::Size(size));
        }
        if players < 2 || players > 4 {
            return Err(OptionsError::Players(players));
        }
        Ok(Options {
            size,
            players,
            rules,
        })
    }

    /// The board size.
    #[must_use]
    pub const fn size(self) -> u8 {
        self.size
    }

    /// The number of players.
    #[must_use]
    pub const fn players(self) -> u8 {
        self.players
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(self) -> RuleSet {
        self.rules
    }

    /// The players of the game, in turn order.
    pub fn player_list(self) -> impl Iterator<Item = Player> {
        Player::ALL.into_iter().take(usize::from(self.players))
    }

    /// The move cap the match programs use, `4 * n(n+1)(2n+1)/6` (364 on size 6): a game
    /// that reaches it is decided by the score. The rules themselves have no cap.
    #[must_use]
    pub const fn move_cap(self) -> u32 {
        4 * crate::geometry::pyramid(self.size)
    }
}

impl fmt::Display for Options {
    /// `size=6 players=2 rules=default`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "size={} players={} rules={}",
            self.size, self.players, self.rules
        )
    }
}

/// The plain form of [`Options`] for serde.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct RawOptions {
    size: u8,
    players: u8,
    rules: RuleSet,
}

#[cfg(feature = "serde")]
impl TryFrom<RawOptions> for Options {
    type Error = OptionsError;
    fn try_from(r: RawOptions) -> Result<Options, OptionsError> {
        Options::new(r.size, r.players, r.rules)
    }
}

#[cfg(feature = "serde")]
impl From<Options> for RawOptions {
    fn from(o: Options) -> RawOptions {
        RawOptions {
            size: o.size,
            players: o.players,
            rules: o.rules,
        }
    }
}

/// A move: a placement on a cell (its lowest empty point), the swap of the second move, or
/// a forced pass. Written as the cell (`c3`), `swap` or `pass`.
///
/// Reading ([`FromStr`]) is context-free and case-insensitive, and ignores surrounding
/// whitespace; whether a cell lies on the board and the move is legal is decided by a
/// position ([`crate::Position::check`]).
///
/// ```
/// use pyloff::{Cell, Move};
/// assert_eq!("swap".parse::<Move>().unwrap(), Move::Swap);
/// assert_eq!("C3".parse::<Move>().unwrap(), Move::Place(Cell::new(2, 2).unwrap()));
/// assert_eq!(Move::Pass.to_string(), "pass");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece on the lowest empty point of the cell.
    Place(Cell),
    /// Player 2 takes player 1's first piece as his own (two players, second move only).
    Swap,
    /// A forced pass (the only move of a player without a legal placement).
    Pass,
}

const _: () = assert!(core::mem::size_of::<Move>() <= 4);

impl Move {
    /// A compact code: a cell's code (below 625), 1000 for swap, 1001 for pass.
    #[must_use]
    pub const fn code(self) -> u16 {
        match self {
            Move::Place(c) => c.code(),
            Move::Swap => 1000,
            Move::Pass => 1001,
        }
    }

    /// The move of a [`Move::code`].
    #[must_use]
    pub const fn from_code(code: u16) -> Option<Move> {
        match code {
            1000 => Some(Move::Swap),
            1001 => Some(Move::Pass),
            _ => match Cell::from_code(code) {
                Some(c) => Some(Move::Place(c)),
                None => None,
            },
        }
    }

    /// The cell of a placement.
    #[must_use]
    pub const fn cell(self) -> Option<Cell> {
        match self {
            Move::Place(c) => Some(c),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(c) => c.fmt(f),
            Move::Swap => f.write_str("swap"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Cell {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Cell, ParseMoveError> {
        let t = s.trim();
        let bytes = t.as_bytes();
        let Some((&first, digits)) = bytes.split_first() else {
            return Err(ParseMoveError::Empty);
        };
        let letter = first.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(ParseMoveError::Syntax(excerpt(t)));
        }
        if digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || digits[0] == b'0'
        {
            return Err(ParseMoveError::Syntax(excerpt(t)));
        }
        let row = digits
            .iter()
            .fold(0u32, |a, &d| a * 10 + u32::from(d - b'0'));
        let x = letter - b'a';
        if u32::from(x) >= u32::from(MAX_GRID) || row > u32::from(MAX_GRID) {
            return Err(ParseMoveError::OutOfRange(excerpt(t)));
        }
        let y = (row - 1) as u8;
        Cell::new(x, y).ok_or_else(|| ParseMoveError::MixedParity(excerpt(t)))
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("swap") {
            Ok(Move::Swap)
        } else if t.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            t.parse().map(Move::Place)
        }
    }
}

#[cfg(feature = "serde")]
mod serde_text {
    use super::{Cell, Move};
    use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

    /// Each type travels as its text: written with `Display`, read back with `FromStr`.
    macro_rules! as_text {
        ($($t:ty),+) => {$(
            impl Serialize for $t {
                fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    s.collect_str(self)
                }
            }
            impl<'de> Deserialize<'de> for $t {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                    let s = String::deserialize(d)?;
                    s.parse().map_err(D::Error::custom)
                }
            }
        )+};
    }
    as_text!(Cell, Move);
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// The players with the highest score (several when they tie).
    Win(Players),
    /// Every player has the same score.
    Draw,
}

impl Outcome {
    /// The outcome of final scores (indexed by player, `players` of them): the highest score
    /// wins, equal highest scores share the win, all equal is a draw.
    #[must_use]
    pub fn from_scores(scores: &[u32]) -> Outcome {
        let best = scores.iter().copied().max().unwrap_or(0);
        if scores.iter().all(|&s| s == best) {
            return Outcome::Draw;
        }
        let mut w = Players::EMPTY;
        for (i, &s) in scores.iter().enumerate() {
            if s == best {
                w = w.with(Player::ALL[i]);
            }
        }
        Outcome::Win(w)
    }

    /// The winners (empty for a draw).
    #[must_use]
    pub const fn winners(self) -> Players {
        match self {
            Outcome::Win(w) => w,
            Outcome::Draw => Players::EMPTY,
        }
    }
}

impl fmt::Display for Outcome {
    /// The winners' numbers (`1`, `1 3`) or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(w) => w.fmt(f),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// What the player to move may do.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Status {
    /// He has a legal placement.
    Place,
    /// He has none, but another player has: he must pass.
    MustPass,
    /// Nobody has a legal placement: the game is over.
    Over,
}

/// Checks at compile time that the largest size's grid fits the letters.
const _: () = assert!(MAX_GRID <= 26 && MAX_SIZE * 2 - 1 == MAX_GRID);
