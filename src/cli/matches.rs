//! `ploy match` and the `match` example: games between two players (engine
//! configurations), with the result from the first player's view and an Elo difference with
//! its 95 % interval.
//!
//! The pieces, meant to be extended (parallel games, other stopping rules, other openings,
//! engine processes as players):
//! - [`Player`]: anything that chooses a move in a [`Game`]; [`PlayerSpec`] is its text form
//!   on the command line and builds one ([`PlayerSpec::player`]), so that each game (or each
//!   worker) can have its own.
//! - [`Openings`]: the opening line of each pair of games.
//! - Game pairs: game `g` (counting from 0) plays opening `g / 2`, with A as Green when `g`
//!   is even and as Red when it is odd ([`pairing`]), so each opening is played once with
//!   each colour.
//! - [`play_game`] plays one game, [`play_match`] the whole schedule, calling back after
//!   each game; [`Tally`] counts the results and gives the score and [`Elo`].
//!
//! Output: a line per game (`game   1 A plays green : A wins after 57 plies (Green wins,
//! commander captured)`), then the players, the tally, the Elo and each searching player's
//! average nodes and time per move. With `--json` only one object on standard output:
//! `{"games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high", "a", "b"}`
//! (`score` is A's points per game, 0 to 1, a draw counting one half). Progress (games left,
//! an estimate of the time left) goes to standard error when it is a terminal.

use std::io::Write;
use std::str::FromStr;
use std::time::{Duration, Instant};

use clap::Parser;
use ploy_core::{Game, Move, Outcome, Position, Rules, Seat, Variant};
use ploy_search::{
    Config, Driver, EvalPosition, Evaluation, GameHistory, Limits, MAX_DEPTH, Searcher,
    random_line, splitmix64,
};
use ploy_sheet::ResultText;
use serde_json::json;

use super::{Failure, RuleArgs, excerpt, format_duration, parse_duration, progress_bar};

/// Play games between two engine configurations and estimate their Elo difference.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "match",
    version,
    after_help = "A SPEC is an engine name with optional budget overrides joined by `@`: \
                  full (the default configuration), noorder (table and move ordering off), \
                  alphabeta, nolmr (late move reductions off), random (a uniformly random \
                  mover); overrides dN (depth), nN (nodes), tT (time per move: t500 = 500 ms, \
                  t2s), e.g. full@d4. Games are played in pairs: each opening (random plies \
                  from the seed) once with each colour. Games longer than the ply cap are \
                  adjudicated as draws. The score is from A's view; the Elo difference comes \
                  with the 95 % Wilson interval of the score (a perfect score is counted a \
                  quarter game short of perfect, so that every figure stays finite)."
)]
pub struct MatchArgs {
    /// Number of games (played in pairs, each opening once with each colour).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Seed of the openings and of the random players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 4, value_name = "PLIES")]
    pub opening_plies: u32,
    /// Plies after which a game is adjudicated as a draw.
    #[arg(long, default_value_t = 200, value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_cap: u32,
    /// Default budget: nodes per move (the default is 20000 nodes).
    #[arg(long, group = "budget", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Default budget: time per move, e.g. `100ms` (a bare number is milliseconds).
    #[arg(long, group = "budget", value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Default budget: depth per move.
    #[arg(long, group = "budget",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Player A.
    #[arg(long = "a", value_name = "SPEC", default_value = "full")]
    pub a: PlayerSpec,
    /// Player B.
    #[arg(long = "b", value_name = "SPEC", default_value = "full")]
    pub b: PlayerSpec,
    /// Print one JSON object: {"games", "wins", "draws", "losses", "score", "elo",
    /// "elo_low", "elo_high", "a", "b"} (and no game lines).
    #[arg(long)]
    pub json: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl MatchArgs {
    /// The default budget of both players.
    #[must_use]
    pub fn budget(&self) -> Budget {
        if let Some(n) = self.nodes {
            Budget::Nodes(n)
        } else if let Some(t) = self.time {
            Budget::MoveTime(t)
        } else if let Some(d) = self.depth {
            Budget::Depth(d)
        } else {
            Budget::Nodes(20_000)
        }
    }

    /// The match these arguments describe.
    #[must_use]
    pub fn plan(&self) -> MatchPlan {
        MatchPlan {
            games: self.games,
            rules: self.rules.rules(Rules::standard()),
            ply_cap: self.ply_cap as usize,
            openings: Openings::Random {
                seed: self.seed,
                plies: self.opening_plies,
            },
        }
    }
}

/// What limits a searching player's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed depth.
    Depth(u32),
    /// A node budget.
    Nodes(u64),
    /// A time per move.
    MoveTime(Duration),
}

impl Budget {
    /// The search limits of this budget.
    #[must_use]
    pub fn limits(self) -> Limits {
        match self {
            Budget::Depth(d) => Limits::depth(d),
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::MoveTime(t) => Limits::move_time(t),
        }
    }
}

impl std::fmt::Display for Budget {
    /// The override text of a [`PlayerSpec`]: `d4`, `n20000`, `t500ms`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Budget::Depth(d) => write!(f, "d{d}"),
            Budget::Nodes(n) => write!(f, "n{n}"),
            Budget::MoveTime(t) => write!(f, "t{}", format_duration(t)),
        }
    }
}

/// Which engine a [`PlayerSpec`] names.
#[derive(Clone, Debug)]
pub enum EngineKind {
    /// The search with this configuration.
    Search(Box<Config>),
    /// A uniformly random mover.
    Random,
}

/// A player as the command line names it: an engine name with optional budget overrides
/// joined by `@` (`full`, `full@d4`, `nolmr@t200ms`, `random`).
///
/// ```
/// use ploy::cli::matches::{Budget, PlayerSpec};
/// let spec: PlayerSpec = "full@d4".parse().unwrap();
/// assert_eq!(spec.budget(), Some(Budget::Depth(4)));
/// assert_eq!(spec.to_string(), "full@d4");
/// assert!("fast".parse::<PlayerSpec>().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    text: String,
    engine: EngineKind,
    budget: Option<Budget>,
}

impl PlayerSpec {
    /// The budget override, if the spec has one (the last one counts).
    #[must_use]
    pub fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// The engine.
    #[must_use]
    pub fn engine(&self) -> &EngineKind {
        &self.engine
    }

    /// A new player of this spec, searching with `default` unless the spec overrides it;
    /// `seed` seeds a random player.
    #[must_use]
    pub fn player(&self, default: Budget, seed: u64) -> Box<dyn Player> {
        let name = self.text.clone();
        match &self.engine {
            EngineKind::Random => Box::new(RandomPlayer {
                name,
                rng: seed,
                stats: PlayerStats::default(),
            }),
            EngineKind::Search(config) => Box::new(SearchPlayer {
                name,
                searcher: Searcher::new((**config).clone(), Evaluation::default()),
                limits: self.budget.unwrap_or(default).limits(),
                stats: PlayerStats::default(),
            }),
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let mut parts = text.split('@');
        let name = parts.next().unwrap_or_default();
        let engine = match name {
            "full" => EngineKind::Search(Box::default()),
            "noorder" => EngineKind::Search(Box::new(Config {
                table_bytes: 0,
                table_move: false,
                order_captures: false,
                killers: 0,
                history: false,
                ..Config::default()
            })),
            "alphabeta" => EngineKind::Search(Box::new(Config {
                driver: Driver::AlphaBeta,
                ..Config::default()
            })),
            "nolmr" => EngineKind::Search(Box::new(Config::exact())),
            "random" => EngineKind::Random,
            other => {
                return Err(format!(
                    "unknown engine `{}`: expected full, noorder, alphabeta, nolmr or random",
                    excerpt(other, 40)
                ));
            }
        };
        let mut budget = None;
        for part in parts {
            let bad = || {
                format!(
                    "`{}`: a budget override is dN (depth), nN (nodes) or tT (time per move, \
                     e.g. t500 or t2s)",
                    excerpt(part, 40)
                )
            };
            let (kind, value) = part.split_at(part.chars().next().map_or(0, char::len_utf8));
            budget = Some(match kind {
                "d" => Budget::Depth(
                    value
                        .parse()
                        .ok()
                        .filter(|d| (1..=MAX_DEPTH).contains(d))
                        .ok_or_else(bad)?,
                ),
                "n" => Budget::Nodes(value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?),
                "t" => Budget::MoveTime(
                    parse_duration(value)
                        .ok()
                        .filter(|t| !t.is_zero())
                        .ok_or_else(bad)?,
                ),
                _ => return Err(bad()),
            });
        }
        if matches!(engine, EngineKind::Random) && budget.is_some() {
            return Err(format!(
                "`{}`: the random player takes no budget",
                excerpt(text, 40)
            ));
        }
        Ok(PlayerSpec {
            text: text.to_owned(),
            engine,
            budget,
        })
    }
}

/// What a player has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Moves chosen.
    pub moves: u64,
    /// Nodes searched (0 for a player that does not search).
    pub nodes: u64,
    /// Time spent choosing.
    pub time: Duration,
}

/// Anything that plays a game of a match: chooses a move when it is its turn.
pub trait Player {
    /// The name in the output (the spec's text).
    fn name(&self) -> &str;
    /// A new game starts: forget what belongs to the last one (a search's table).
    fn new_game(&mut self) {}
    /// The move to play in `game` (undecided, this player to move).
    ///
    /// # Errors
    /// A message when the player cannot give a legal move (an engine process that died,
    /// say); the match stops with it.
    fn choose(&mut self, game: &Game) -> Result<Move, String>;
    /// Moves, nodes and time so far.
    fn stats(&self) -> PlayerStats;
}

struct SearchPlayer {
    name: String,
    searcher: Searcher<EvalPosition, Evaluation>,
    limits: Limits,
    stats: PlayerStats,
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }

    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        let t = Instant::now();
        let root = EvalPosition::new(game.position().clone());
        let r = self
            .searcher
            .search(&root, &root.history(game), &self.limits, |_| {});
        self.stats.nodes += r.nodes;
        self.stats.time += t.elapsed();
        self.stats.moves += 1;
        r.best_move
            .ok_or_else(|| format!("{} found no move in an undecided game", self.name))
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}

struct RandomPlayer {
    name: String,
    rng: u64,
    stats: PlayerStats,
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, game: &Game) -> Result<Move, String> {
        let t = Instant::now();
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return Err(format!("{} has no legal move", self.name));
        }
        let mv = moves[splitmix64(&mut self.rng) as usize % moves.len()];
        self.stats.time += t.elapsed();
        self.stats.moves += 1;
        Ok(mv)
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}

/// Where the games' opening lines come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// `plies` random moves, seeded by `seed` and the pair's number.
    Random {
        /// The match's seed.
        seed: u64,
        /// Plies per opening.
        plies: u32,
    },
}

impl Openings {
    /// The opening of pair `pair` from `start`.
    #[must_use]
    pub fn line(&self, start: &Position, pair: u32) -> Vec<Move> {
        match *self {
            Openings::Random { seed, plies } => random_line(
                start,
                seed.wrapping_mul(1000).wrapping_add(u64::from(pair)),
                plies,
                false,
            ),
        }
    }
}

/// Game `game` (counting from 0) of a match: its pair (opening) number, and whether A plays
/// Green (moving first).
#[must_use]
pub fn pairing(game: u32) -> (u32, bool) {
    (game / 2, game % 2 == 0)
}

/// The schedule and conditions of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchPlan {
    /// Number of games.
    pub games: u32,
    /// The rules of every game.
    pub rules: Rules,
    /// Plies after which a game is adjudicated as a draw.
    pub ply_cap: usize,
    /// The openings.
    pub openings: Openings,
}

/// A game's result for player A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// A draw (including a game stopped by the ply cap).
    Draw,
    /// A lost.
    Loss,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Its number, counting from 1.
    pub number: u32,
    /// Its pair (opening) number, counting from 0.
    pub pair: u32,
    /// A's seat.
    pub a_seat: Seat,
    /// The game, opening included.
    pub game: Game,
    /// Stopped by the ply cap (a draw by adjudication).
    pub capped: bool,
}

impl GameReport {
    /// The result for A.
    #[must_use]
    pub fn result(&self) -> GameResult {
        match self.game.outcome() {
            Some(Outcome::Win { .. }) => {
                if self.game.outcome().and_then(Outcome::winner) == Some(self.a_seat) {
                    GameResult::Win
                } else {
                    GameResult::Loss
                }
            }
            _ => GameResult::Draw,
        }
    }

    /// How the game ended: the result text (`Red wins, commander captured`) or `ply cap`.
    #[must_use]
    pub fn how(&self) -> String {
        if self.capped {
            "ply cap".to_owned()
        } else {
            ResultText(self.game.outcome()).to_string()
        }
    }

    /// The game's line of the output.
    #[must_use]
    pub fn line(&self) -> String {
        format!(
            "game {:3} A plays {} : {} after {} plies ({})",
            self.number,
            if self.a_seat == Seat::Green {
                "green"
            } else {
                "red  "
            },
            match self.result() {
                GameResult::Win => "A wins",
                GameResult::Loss => "B wins",
                GameResult::Draw => "draw",
            },
            self.game.moves().len(),
            self.how()
        )
    }
}

/// Plays one two-player game from `opening` under `rules` until it ends or reaches
/// `ply_cap` plies (opening included). Returns the game and whether the cap stopped it.
///
/// # Errors
/// A message when a player gives no move or an illegal one, or the opening is not legal.
pub fn play_game(
    green: &mut dyn Player,
    red: &mut dyn Player,
    opening: &[Move],
    rules: Rules,
    ply_cap: usize,
) -> Result<(Game, bool), String> {
    let mut game = Game::start(Variant::TwoPlayer, rules);
    for &m in opening {
        game.play(m).map_err(|e| {
            format!(
                "opening move {}: {e}",
                ploy_notation::UniversityMove::from(m)
            )
        })?;
    }
    while game.outcome().is_none() && game.moves().len() < ply_cap {
        let player: &mut dyn Player = if game.position().turn() == Seat::Green {
            &mut *green
        } else {
            &mut *red
        };
        let mv = player.choose(&game)?;
        game.play(mv).map_err(|e| {
            format!(
                "{} played {}: {e}",
                player.name(),
                ploy_notation::UniversityMove::from(mv)
            )
        })?;
    }
    let capped = game.outcome().is_none();
    Ok((game, capped))
}

/// The results so far, from A's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
}

/// An Elo difference with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// Low end of the 95 % interval.
    pub low: f64,
    /// High end of the 95 % interval.
    pub high: f64,
}

/// The Elo difference of a score fraction (strictly between 0 and 1).
fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The 95 % Wilson score interval of a score fraction `p` over `n` games (a draw counts as
/// half a win); it stays inside 0..1 and is sensible for perfect scores.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

impl Tally {
    /// Counts one result.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's points per game (0 to 1, a draw counting one half); `None` before any game.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// Whether A won or lost every game.
    #[must_use]
    pub fn is_perfect(&self) -> bool {
        self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
    }

    /// The Elo difference of A over B with the 95 % Wilson interval of the score; `None`
    /// before any game. Every figure is finite: score fractions are kept a quarter game
    /// away from 0 and 1 before they are turned into Elo, so a perfect score gives a
    /// finite estimate and interval (to be read as "at least").
    ///
    /// ```
    /// use ploy::cli::matches::Tally;
    /// let even = Tally { wins: 5, draws: 10, losses: 5 }.elo().unwrap();
    /// assert!(even.elo.abs() < 1e-9 && even.low < 0.0 && even.high > 0.0);
    /// let perfect = Tally { wins: 20, draws: 0, losses: 0 }.elo().unwrap();
    /// assert!(perfect.elo.is_finite() && perfect.low > 0.0 && perfect.high.is_finite());
    /// ```
    #[must_use]
    pub fn elo(&self) -> Option<Elo> {
        let p = self.score()?;
        let n = f64::from(self.games());
        let margin = 0.25 / n;
        let elo = |x: f64| elo_of(x.clamp(margin, 1.0 - margin));
        let (low, high) = wilson(p, n);
        Some(Elo {
            elo: elo(p),
            low: elo(low),
            high: elo(high),
        })
    }
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The results.
    pub tally: Tally,
    /// A's name and statistics.
    pub a: (String, PlayerStats),
    /// B's name and statistics.
    pub b: (String, PlayerStats),
}

/// Plays the match `plan` between `a` and `b`, calling `on_game` after each game (with the
/// tally so far).
///
/// # Errors
/// A player that gives no legal move ([`Failure`] with status 1), or what `on_game` returns.
pub fn play_match(
    plan: &MatchPlan,
    a: &mut dyn Player,
    b: &mut dyn Player,
    mut on_game: impl FnMut(&GameReport, &Tally) -> Result<(), Failure>,
) -> Result<MatchReport, Failure> {
    let start = Position::start(Variant::TwoPlayer, plan.rules);
    let mut tally = Tally::default();
    for g in 0..plan.games {
        let (pair, a_green) = pairing(g);
        let opening = plan.openings.line(&start, pair);
        a.new_game();
        b.new_game();
        let (green, red): (&mut dyn Player, &mut dyn Player) = if a_green {
            (&mut *a, &mut *b)
        } else {
            (&mut *b, &mut *a)
        };
        let (game, capped) = play_game(green, red, &opening, plan.rules, plan.ply_cap)
            .map_err(|e| Failure::failed(format!("game {}: {e}", g + 1)))?;
        let report = GameReport {
            number: g + 1,
            pair,
            a_seat: if a_green { Seat::Green } else { Seat::Red },
            game,
            capped,
        };
        tally.add(report.result());
        on_game(&report, &tally)?;
    }
    Ok(MatchReport {
        tally,
        a: (a.name().to_owned(), a.stats()),
        b: (b.name().to_owned(), b.stats()),
    })
}

impl MatchReport {
    /// The JSON object of `--json`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let t = &self.tally;
        let elo = t.elo();
        json!({
            "games": t.games(),
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "score": t.score(),
            "elo": elo.map(|e| e.elo),
            "elo_low": elo.map(|e| e.low),
            "elo_high": elo.map(|e| e.high),
            "a": self.a.0,
            "b": self.b.0,
        })
    }

    /// The summary lines of the text output.
    #[must_use]
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let t = &self.tally;
        let mut s = String::new();
        let _ = writeln!(s, "A = {}  B = {}", self.a.0, self.b.0);
        let _ = writeln!(
            s,
            "games {} wins {} draws {} losses {} score {:.1}%",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score().unwrap_or(0.5)
        );
        if let Some(e) = t.elo() {
            if t.is_perfect() {
                let _ = writeln!(
                    s,
                    "elo {:+.0} (95 %: {:+.0} to {:+.0}; a perfect score, counted a quarter game short)",
                    e.elo, e.low, e.high
                );
            } else {
                let _ = writeln!(
                    s,
                    "elo {:+.0} +/- {:.0} (95 %: {:+.0} to {:+.0})",
                    e.elo,
                    (e.high - e.low) / 2.0,
                    e.low,
                    e.high
                );
            }
        }
        for (label, (_, stats)) in [("A", &self.a), ("B", &self.b)] {
            if stats.moves > 0 && stats.nodes > 0 {
                let moves = stats.moves as f64;
                let _ = writeln!(
                    s,
                    "{label}: {} moves, {:.0} nodes/move, {:.1} ms/move",
                    stats.moves,
                    stats.nodes as f64 / moves,
                    stats.time.as_secs_f64() * 1000.0 / moves
                );
            }
        }
        s
    }
}

/// Runs `match` with `args`, writing to standard output.
///
/// # Errors
/// A player that fails; a failed write.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    let plan = args.plan();
    let budget = args.budget();
    let mut a = args.a.player(budget, args.seed ^ 0xA);
    let mut b = args.b.player(budget, args.seed ^ 0xB);
    let bar = progress_bar(
        u64::from(plan.games),
        "match [{bar:20}] {pos}/{len} games, {msg}, ~{eta} left",
    );
    let mut out = std::io::stdout().lock();
    let report = play_match(&plan, a.as_mut(), b.as_mut(), |game, tally| {
        bar.inc(1);
        bar.set_message(format!(
            "A +{} ={} -{}",
            tally.wins, tally.draws, tally.losses
        ));
        if !args.json {
            bar.suspend(|| writeln!(out, "{}", game.line()).and_then(|()| out.flush()))?;
        }
        Ok(())
    });
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        return super::write_json(&mut out, &report.to_json());
    }
    out.write_all(report.summary().as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_play_each_opening_with_each_colour() {
        assert_eq!(pairing(0), (0, true));
        assert_eq!(pairing(1), (0, false));
        assert_eq!(pairing(2), (1, true));
        assert_eq!(pairing(5), (2, false));
    }

    #[test]
    fn specs() {
        for bad in [
            "",
            "fast",
            "full@",
            "full@x4",
            "full@d0",
            "full@n",
            "full@tlong",
            "random@d2",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
        let s: PlayerSpec = "nolmr@d3@t250".parse().unwrap();
        assert_eq!(
            s.budget(),
            Some(Budget::MoveTime(Duration::from_millis(250)))
        );
        assert_eq!(
            Budget::MoveTime(Duration::from_millis(250)).to_string(),
            "t250ms"
        );
        let long = "x".repeat(100_000);
        assert!(long.parse::<PlayerSpec>().unwrap_err().len() < 200);
    }

    #[test]
    fn elo_is_finite_and_ordered() {
        for (w, d, l) in [
            (1, 0, 0),
            (0, 0, 1),
            (0, 1, 0),
            (20, 0, 0),
            (3, 4, 5),
            (0, 0, 200),
        ] {
            let t = Tally {
                wins: w,
                draws: d,
                losses: l,
            };
            let e = t.elo().unwrap();
            assert!(e.elo.is_finite() && e.low.is_finite() && e.high.is_finite());
            assert!(e.low <= e.elo && e.elo <= e.high, "{t:?} {e:?}");
        }
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(Tally::default().score(), None);
    }

    #[test]
    fn a_short_match_between_random_and_a_search() {
        let plan = MatchPlan {
            games: 2,
            rules: Rules::standard(),
            ply_cap: 40,
            openings: Openings::Random { seed: 1, plies: 2 },
        };
        let mut a = "random"
            .parse::<PlayerSpec>()
            .unwrap()
            .player(Budget::Depth(1), 1);
        let mut b = "full@d1"
            .parse::<PlayerSpec>()
            .unwrap()
            .player(Budget::Depth(1), 2);
        let mut lines = Vec::new();
        let report = play_match(&plan, a.as_mut(), b.as_mut(), |g, _| {
            assert_eq!(
                g.game.moves()[..2],
                plan.openings.line(&Position::new(), 0)[..]
            );
            assert!(g.game.moves().len() <= 40);
            lines.push(g.line());
            Ok(())
        })
        .unwrap();
        assert_eq!(report.tally.games(), 2);
        assert!(
            lines[0].starts_with("game   1 A plays green : "),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("game   2 A plays red   : "),
            "{lines:?}"
        );
        for line in &lines {
            assert!(!line.contains('{') && !line.contains("::"), "{line}");
        }
        assert_eq!(report.a.1.nodes, 0);
        assert!(report.b.1.nodes > 0);
    }
}
