//! The games the server plays, each reached through one trait, [`GameType`].
//!
//! The server knows nothing of any game's rules. A game type tells it its name, its options
//! (declared as [`OptionSpec`]s, so that the server parses every game's options the same
//! pbmserv way and refuses unknown ones), how many players it takes, and how to start a game;
//! a game in progress ([`GameType::State`]) plays moves given as text, lists the legal moves
//! in their canonical text, says whose turn it is and how the game ended, draws itself as
//! text and JSON, and finds a bot move within a [`Budget`].
//!
//! The server only ever stores move texts (the canonical ones that
//! [`GameType::play`] returns) and rebuilds a game by replaying them from
//! [`GameType::new_game`]; the state is never stored.
//!
//! [`Registry`] erases the type of the state so that the server holds all game types in one
//! list ([`DynGame`], [`Match`]).

pub mod pente;
pub mod ploy;
pub mod pyloff;

use std::fmt;
use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::sync::Arc;
use std::time::Duration;

pub use ploy_search::Level;

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A flag: `-relaxed`. Giving a value is an error.
    Flag,
    /// A whole number within bounds: `-size=6`.
    Number {
        /// The smallest value allowed.
        min: u32,
        /// The largest value allowed.
        max: u32,
    },
    /// One word of a list: `-variant=ffa`.
    Choice(&'static [&'static str]),
}

/// One option a game type accepts, pbmserv style (`-name` or `-name=value`).
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The canonical name, without the dash.
    pub name: &'static str,
    /// Other names that mean the same option (stored under the canonical name).
    pub aliases: &'static [&'static str],
    /// The values it takes.
    pub kind: OptionKind,
    /// One line for `help`.
    pub help: &'static str,
}

impl OptionSpec {
    /// A flag, `-name`, without aliases.
    #[must_use]
    pub const fn flag(name: &'static str, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            aliases: &[],
            kind: OptionKind::Flag,
            help,
        }
    }

    /// A number from `min` to `max`, `-name=n`, without aliases.
    #[must_use]
    pub const fn number(name: &'static str, min: u32, max: u32, help: &'static str) -> OptionSpec {
        OptionSpec {
            kind: OptionKind::Number { min, max },
            ..OptionSpec::flag(name, help)
        }
    }

    /// One of `words`, `-name=word`, without aliases.
    #[must_use]
    pub const fn choice(
        name: &'static str,
        words: &'static [&'static str],
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            kind: OptionKind::Choice(words),
            ..OptionSpec::flag(name, help)
        }
    }

    /// The same option, also called `aliases`.
    #[must_use]
    pub const fn with_aliases(self, aliases: &'static [&'static str]) -> OptionSpec {
        OptionSpec { aliases, ..self }
    }
}

/// Options as given to a game type: the canonical name and the value (`None` for a flag),
/// in the order of the game type's [`OptionSpec`]s, each at most once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    values: Vec<(&'static str, Option<String>)>,
}

impl Options {
    /// Whether the flag or option `name` was given.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _)| *n == name)
    }

    /// The value of `name`, if it was given with one.
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// The number given for `name` (already checked against its bounds).
    #[must_use]
    pub fn number(&self, name: &str) -> Option<u32> {
        self.value(name).and_then(|v| v.parse().ok())
    }

    /// The canonical texts (`-size=6`, `-cut_down`), in the specs' order.
    #[must_use]
    pub fn to_texts(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|(n, v)| match v {
                Some(v) => format!("-{n}={v}"),
                None => format!("-{n}"),
            })
            .collect()
    }

    /// Reads option texts against `specs`. Texts that are not the game's options are
    /// returned in `rest` (for the server's own options); with `strict` they are refused.
    ///
    /// # Errors
    /// A message naming the bad option: unknown, given twice, a flag with a value, a
    /// missing or out-of-range number, a word not in the choice list.
    pub fn parse<'a>(
        specs: &[OptionSpec],
        texts: impl IntoIterator<Item = &'a str>,
        rest: &mut Vec<(String, Option<String>)>,
    ) -> Result<Options, String> {
        let mut given: Vec<(usize, Option<String>)> = Vec::new();
        for text in texts {
            let Some(body) = text.strip_prefix('-') else {
                return Err(format!("`{}`: an option starts with `-`", excerpt(text)));
            };
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let found = specs
                .iter()
                .position(|s| s.name == name || s.aliases.contains(&name));
            let Some(i) = found else {
                rest.push((name.to_owned(), value.map(str::to_owned)));
                continue;
            };
            let spec = &specs[i];
            if given.iter().any(|(j, _)| *j == i) {
                return Err(format!("option -{} is given twice", spec.name));
            }
            let value = check_value(spec, value)?;
            given.push((i, value));
        }
        given.sort_by_key(|(i, _)| *i);
        Ok(Options {
            values: given.into_iter().map(|(i, v)| (specs[i].name, v)).collect(),
        })
    }

    /// For the adapters' tests: `texts`, every one an option of `specs`, read.
    ///
    /// # Panics
    /// If a text is not one of `specs`'s options or is refused.
    #[cfg(test)]
    pub(crate) fn of(specs: &[OptionSpec], texts: &[&str]) -> Options {
        let mut rest = Vec::new();
        let o = Options::parse(specs, texts.iter().copied(), &mut rest).unwrap();
        assert!(rest.is_empty());
        o
    }
}

fn check_value(spec: &OptionSpec, value: Option<&str>) -> Result<Option<String>, String> {
    match (spec.kind, value) {
        (OptionKind::Flag, None) => Ok(None),
        (OptionKind::Flag, Some(_)) => Err(format!("option -{} takes no value", spec.name)),
        (OptionKind::Number { min, max }, Some(v)) => match v.parse::<u32>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n.to_string())),
            _ => Err(format!(
                "option -{}: expected a number from {min} to {max}, found `{}`",
                spec.name,
                excerpt(v)
            )),
        },
        (OptionKind::Choice(words), Some(v)) if words.contains(&v) => Ok(Some(v.to_owned())),
        (OptionKind::Choice(words), Some(v)) => Err(format!(
            "option -{}: expected one of {}, found `{}`",
            spec.name,
            words.join(", "),
            excerpt(v)
        )),
        (_, None) => Err(format!(
            "option -{} needs a value (-{}=...)",
            spec.name, spec.name
        )),
    }
}

/// At most 40 characters of `text`, for error messages (so a huge input never comes back
/// whole).
#[must_use]
pub fn excerpt(text: &str) -> String {
    ploy_search::Excerpt::new(40)
        .replacing_controls('?')
        .of(text)
}

/// Why a move text was refused. Both kinds answer 422; the text is the rules' reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text does not spell a move of this game.
    #[error("{0}")]
    Malformed(String),
    /// The move is not legal here.
    #[error("{0}")]
    Illegal(String),
}

/// How a game ended by its rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning seats (empty for a draw).
    pub winners: Vec<usize>,
    /// Why, as one word with underscores: `commander_captured`, `repetition`, `score`, ...
    /// The server's own endings are `resignation`, `time` and `agreement`.
    pub reason: String,
}

/// What a bot may spend on one move. Every field set is a limit; the bot answers when the
/// first is reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock time for the move.
    pub time: Option<Duration>,
    /// Search nodes.
    pub nodes: Option<u64>,
    /// Search depth in plies.
    pub depth: Option<u32>,
}

impl Budget {
    /// The search limits of this budget; one second a move when no limit is set.
    #[must_use]
    pub fn limits(&self) -> ploy_search::Limits {
        let mut limits = match self.time {
            Some(t) => ploy_search::Limits::move_time(t),
            None => ploy_search::Limits::default(),
        };
        limits.nodes = self.nodes;
        limits.depth = self.depth;
        if limits.nodes.is_none() && limits.depth.is_none() && limits.hard_time.is_none() {
            limits = ploy_search::Limits::move_time(Duration::from_secs(1));
        }
        limits
    }
}

/// How strongly a bot plays one move: its [`Level`] and the seed of a weaker level's
/// choices (the server derives it from the board number, so that a game replays the same
/// bot moves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotPlay {
    /// The level, 1 (weakest) to 8 (full strength within the [`Budget`]); levels 1 to 7
    /// search within their own limits as well as the budget.
    pub level: Level,
    /// The seed of a weaker level's random choices.
    pub seed: u64,
}

/// The server's option `-level=N`: the strength of every bot seat of a game, 1 to 8
/// (default 8). Refused in a game without a bot seat.
pub const LEVEL_OPTION: OptionSpec = OptionSpec::number(
    "level",
    1,
    8,
    "the bot's strength, 1 (weakest) to 8 (full strength, the default); only in a game \
     with a bot seat",
);

/// The server's option `-rated`: the game changes its two players' ratings (Glicko-2, per
/// game type and board size). Only in a game of two people (no bot seat).
pub const RATED_OPTION: OptionSpec = OptionSpec::flag(
    "rated",
    "the game changes both players' ratings; only in a game of two people, without a bot",
);

/// The transposition table of each game's bot, bytes.
pub(crate) const BOT_TABLE_BYTES: usize = 8 << 20;

/// The move a bot plays: the search's `best` if `is_legal` says it is legal, else the
/// first of `legal` (a search stopped before it chose one); `None` when nothing is legal.
pub(crate) fn bot_choice<M: Copy>(
    best: Option<M>,
    is_legal: impl Fn(M) -> bool,
    legal: &[M],
) -> Option<M> {
    best.filter(|&mv| is_legal(mv))
        .or_else(|| legal.first().copied())
}

/// The last lines of a game's text board: `Last move: {last}` with the places it
/// `captured` (if it made one), then `Position: {position}`.
pub(crate) fn write_last_and_position(
    out: &mut String,
    last: Option<(String, Vec<String>)>,
    position: &dyn fmt::Display,
) {
    if let Some((last, captured)) = last {
        let _ = write!(out, "Last move: {last}");
        if !captured.is_empty() {
            let _ = write!(out, " (captured {})", captured.join(" "));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "Position: {position}");
}

/// How the server, not the rules, ended a game (for its record).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerEnding {
    /// The player of this seat resigned.
    Resigned(usize),
    /// The player of this seat ran out of time.
    OutOfTime(usize),
    /// The players agreed to a draw.
    Agreed,
}

/// A game's record as a file: the text in its game's record format, the file name's
/// extension and the media type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    /// The record.
    pub text: String,
    /// The file name's extension, without the dot (`ploy`, `pente`, `pyloff`).
    pub extension: &'static str,
    /// The media type.
    pub media_type: &'static str,
}

/// What the server knows of a game type before a game starts: its name, rules version,
/// options, help, players and seat names (a [`GameType`]'s, and a [`DynGame`]'s).
pub trait GameInfo: Send + Sync + 'static {
    /// The name used in commands and JSON: `ploy`, `pente`, `pyloff`.
    fn name(&self) -> &'static str;

    /// The version of the rules this adapter plays. Stored with every game; a game stored
    /// under another version is refused rather than replayed under different rules.
    /// Raise it whenever a stored move list could replay differently.
    fn rules_version(&self) -> u32;

    /// The options, pbmserv style. The server refuses anything else.
    fn options(&self) -> &'static [OptionSpec];

    /// The game-specific part of `help GAME`: move syntax, seats, notes.
    fn help(&self) -> &'static str;

    /// How many players a game with `options` takes.
    fn players(&self, options: &Options) -> RangeInclusive<usize>;

    /// The name of each seat for people (`Green`, `White`, `player 1`).
    fn seat_name(&self, options: &Options, seat: usize) -> String;
}

/// A game the server can play: one adapter per game crate.
///
/// Seats are numbered from 0 in turn order (seat 0 moves first). A move text given to
/// [`GameType::play`] may be any spelling the game accepts; the text it returns is the
/// canonical one, which the server stores and which [`GameType::legal_moves`] lists.
///
/// Everything here must be deterministic: replaying the same canonical texts from
/// [`GameType::new_game`] with the same options must give the same state (the server
/// rebuilds every game that way).
pub trait GameType: GameInfo + Clone {
    /// A game in progress: the position and whatever history the rules need.
    type State: Clone + Send + 'static;

    /// A new game for `players` players (within [`GameInfo::players`]).
    ///
    /// # Errors
    /// A message if the options cannot be combined.
    fn new_game(&self, options: &Options, players: usize) -> Result<Self::State, String>;

    /// Plays the move that `text` names, returning its canonical text. On error the state
    /// is unchanged.
    ///
    /// # Errors
    /// [`MoveError`] with the rules' reason.
    fn play(&self, state: &mut Self::State, text: &str) -> Result<String, MoveError>;

    /// The legal moves in canonical text, in a stable order; empty once the game is over.
    fn legal_moves(&self, state: &Self::State) -> Vec<String>;

    /// The seat whose player moves now, or `None` once the game is over.
    fn to_move(&self, state: &Self::State) -> Option<usize>;

    /// A move the rules force on the seat to move (Pyloff's pass when nothing else is
    /// legal), which the server plays at once in the same transaction as the move that
    /// caused it. `None` (the default) while the player has a choice.
    fn forced_move(&self, state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }

    /// How the rules ended the game, or `None` while it goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Who wins if `seat` leaves the game now (resigns or runs out of time).
    ///
    /// The default: in a two-player game the other seat; otherwise refused.
    ///
    /// # Errors
    /// The rules' reason why `seat` cannot leave the game that way.
    fn winners_without(&self, state: &Self::State, seat: usize) -> Result<Vec<usize>, String> {
        let _ = state;
        match seat {
            0 => Ok(vec![1]),
            1 => Ok(vec![0]),
            _ => Err("the rules do not say who wins when this player leaves".to_owned()),
        }
    }

    /// `seat` leaves a game that goes on without him (`reason`: `resignation` or `time`),
    /// when [`GameType::winners_without`] says nobody wins by his leaving: Ploy's
    /// free-for-all player withdraws and his pieces leave the board.
    ///
    /// The default: refused (the game's rules have no withdrawal). On error the state is
    /// unchanged.
    ///
    /// # Errors
    /// Why `seat` cannot withdraw.
    fn withdraw(&self, state: &mut Self::State, seat: usize, reason: &str) -> Result<(), String> {
        let _ = (state, seat, reason);
        Err("the rules of this game have no withdrawal".to_owned())
    }

    /// The seats still in the game, out of `players` (all of them by default; Ploy's
    /// four-player games leave out the players eliminated or withdrawn).
    fn seats_in_play(&self, state: &Self::State, players: usize) -> Vec<usize> {
        let _ = state;
        (0..players).collect()
    }

    /// The board for people, as plain text lines (no line is a single `.`).
    fn render_text(&self, state: &Self::State) -> String;

    /// The position as JSON, for programs and the page.
    fn render_json(&self, state: &Self::State) -> serde_json::Value;

    /// The game's record in its game's own record format (the game crate's writer), with
    /// `players` (userids in seat order) as the names and `ending`, how the server ended
    /// it if it did.
    ///
    /// # Errors
    /// The writer's reason when the game cannot be written.
    fn record(
        &self,
        state: &Self::State,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String>;

    /// The built-in bot's move for the seat to move, within `budget`, at `play`'s level and
    /// seed; `None` if there is no legal move.
    fn bot_move(&self, state: &Self::State, budget: &Budget, play: BotPlay) -> Option<String>;
}

/// Writes the four fixed facts of a game type in its [`GameInfo`] impl, the same way for
/// every adapter: [`GameInfo::name`], [`GameInfo::rules_version`], [`GameInfo::options`]
/// and [`GameInfo::help`]; with `players`, a game type whose games always take that many
/// players, also [`GameInfo::players`].
macro_rules! game_facts {
    (name: $name:expr, rules_version: $version:expr, options: $options:expr, help: $help:expr $(,)?) => {
        fn name(&self) -> &'static str {
            $name
        }

        fn rules_version(&self) -> u32 {
            $version
        }

        fn options(&self) -> &'static [$crate::game::OptionSpec] {
            $options
        }

        fn help(&self) -> &'static str {
            $help
        }
    };
    (name: $name:expr, rules_version: $version:expr, options: $options:expr, help: $help:expr, players: $players:expr $(,)?) => {
        $crate::game::game_facts!(name: $name, rules_version: $version, options: $options, help: $help);

        fn players(&self, _options: &$crate::game::Options) -> ::std::ops::RangeInclusive<usize> {
            $players
        }
    };
}
pub(crate) use game_facts;

/// A game type with its state type erased, as the server holds it: every [`GameType`] is
/// one.
pub trait DynGame: GameInfo {
    /// [`GameType::new_game`], boxed.
    ///
    /// # Errors
    /// As [`GameType::new_game`].
    fn start(&self, options: &Options, players: usize) -> Result<Box<dyn Match>, String>;
}

/// A game in progress with its type erased: the [`GameType`] methods on one state.
pub trait Match: Send {
    /// [`GameType::play`].
    ///
    /// # Errors
    /// As [`GameType::play`].
    fn play(&mut self, text: &str) -> Result<String, MoveError>;
    /// [`GameType::legal_moves`].
    fn legal_moves(&self) -> Vec<String>;
    /// [`GameType::to_move`].
    fn to_move(&self) -> Option<usize>;
    /// [`GameType::forced_move`].
    fn forced_move(&self) -> Option<String>;
    /// [`GameType::outcome`].
    fn outcome(&self) -> Option<Outcome>;
    /// [`GameType::winners_without`].
    ///
    /// # Errors
    /// As [`GameType::winners_without`].
    fn winners_without(&self, seat: usize) -> Result<Vec<usize>, String>;
    /// [`GameType::withdraw`].
    ///
    /// # Errors
    /// As [`GameType::withdraw`].
    fn withdraw(&mut self, seat: usize, reason: &str) -> Result<(), String>;
    /// [`GameType::seats_in_play`].
    fn seats_in_play(&self, players: usize) -> Vec<usize>;
    /// [`GameType::render_text`].
    fn render_text(&self) -> String;
    /// [`GameType::render_json`].
    fn render_json(&self) -> serde_json::Value;
    /// [`GameType::record`].
    ///
    /// # Errors
    /// As [`GameType::record`].
    fn record(
        &self,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String>;
    /// [`GameType::bot_move`].
    fn bot_move(&self, budget: &Budget, play: BotPlay) -> Option<String>;
    /// A copy of the game.
    fn boxed_clone(&self) -> Box<dyn Match>;
}

struct Typed<G: GameType> {
    game: G,
    state: G::State,
}

impl<G: GameType> DynGame for G {
    fn start(&self, options: &Options, players: usize) -> Result<Box<dyn Match>, String> {
        let state = self.new_game(options, players)?;
        Ok(Box::new(Typed {
            game: self.clone(),
            state,
        }))
    }
}

impl<G: GameType> Match for Typed<G> {
    fn play(&mut self, text: &str) -> Result<String, MoveError> {
        self.game.play(&mut self.state, text)
    }
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves(&self.state)
    }
    fn to_move(&self) -> Option<usize> {
        self.game.to_move(&self.state)
    }
    fn forced_move(&self) -> Option<String> {
        self.game.forced_move(&self.state)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }
    fn winners_without(&self, seat: usize) -> Result<Vec<usize>, String> {
        self.game.winners_without(&self.state, seat)
    }
    fn withdraw(&mut self, seat: usize, reason: &str) -> Result<(), String> {
        self.game.withdraw(&mut self.state, seat, reason)
    }
    fn seats_in_play(&self, players: usize) -> Vec<usize> {
        self.game.seats_in_play(&self.state, players)
    }
    fn render_text(&self) -> String {
        self.game.render_text(&self.state)
    }
    fn render_json(&self) -> serde_json::Value {
        self.game.render_json(&self.state)
    }
    fn record(
        &self,
        players: &[String],
        ending: Option<ServerEnding>,
    ) -> Result<RecordFile, String> {
        self.game.record(&self.state, players, ending)
    }
    fn bot_move(&self, budget: &Budget, play: BotPlay) -> Option<String> {
        self.game.bot_move(&self.state, budget, play)
    }
    fn boxed_clone(&self) -> Box<dyn Match> {
        Box::new(Typed {
            game: self.game.clone(),
            state: self.state.clone(),
        })
    }
}

/// The game types a server plays, by name.
#[derive(Clone, Default)]
pub struct Registry {
    games: Vec<Arc<dyn DynGame>>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.games.iter().map(|g| g.name()))
            .finish()
    }
}

impl Registry {
    /// No game types.
    #[must_use]
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Every game type of this build: Ploy, Pente and Pyloff.
    #[must_use]
    pub fn standard() -> Registry {
        let mut r = Registry::new();
        r.add(ploy::PloyType);
        r.add(pente::PenteType);
        r.add(pyloff::PyloffType);
        r
    }

    /// Adds a game type (replacing one of the same name).
    pub fn add<G: GameType>(&mut self, game: G) {
        self.games.retain(|g| g.name() != game.name());
        self.games.push(Arc::new(game));
    }

    /// The game type called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Arc<dyn DynGame>> {
        self.games.iter().find(|g| g.name() == name)
    }

    /// Every game type, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn DynGame>> {
        self.games.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec::number("size", 2, 13, "").with_aliases(&["board_size"]),
        OptionSpec::flag("cut_down", ""),
        OptionSpec::choice("variant", &["a", "b"], ""),
    ];

    type Parsed = (Vec<String>, Vec<(String, Option<String>)>);

    fn parse(texts: &[&str]) -> Result<Parsed, String> {
        let mut rest = Vec::new();
        let o = Options::parse(SPECS, texts.iter().copied(), &mut rest)?;
        Ok((o.to_texts(), rest))
    }

    #[test]
    fn options_are_canonical_and_checked() {
        let (t, rest) = parse(&["-cut_down", "-board_size=6", "-deadline=7d"]).unwrap();
        assert_eq!(t, ["-size=6", "-cut_down"]);
        assert_eq!(rest, [("deadline".to_owned(), Some("7d".to_owned()))]);
        assert!(parse(&["-size=6", "-size=7"]).is_err());
        assert!(parse(&["-size=1"]).is_err());
        assert!(parse(&["-size"]).is_err());
        assert!(parse(&["-cut_down=1"]).is_err());
        assert!(parse(&["-variant=c"]).is_err());
        assert!(parse(&["size=6"]).is_err());
        assert_eq!(parse(&["-variant=b"]).unwrap().0, ["-variant=b"]);
    }

    #[test]
    fn excerpts_are_bounded() {
        let long = "x".repeat(10_000);
        assert!(excerpt(&long).len() < 50);
        assert_eq!(excerpt("a\nb"), "a?b");
    }
}
