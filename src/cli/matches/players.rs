//! The players of a match: what the command line names ([`PlayerSpec`]) and the
//! [`Player`]s it builds: the search in this process, a random mover, or an engine program
//! driven over the engine protocol ([`super::process`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use ploy_core::{Game, Move, Rules};
use ploy_engine::Engine;
use ploy_search::{Config, Driver, Limits, MAX_DEPTH, splitmix64};

pub use super::player::{Budget, Fault, FaultKind, Player, PlayerStats};
use super::process::{EngineProcess, ProcessSpec};
use crate::cli::{excerpt, parse_duration};

/// Which engine a [`PlayerSpec`] names.
#[derive(Clone, Debug)]
pub enum EngineKind {
    /// The search with this configuration.
    Search(Box<Config>),
    /// A uniformly random mover.
    Random,
    /// An engine program driven over the engine protocol.
    Process(ProcessSpec),
}

/// A player as the command line names it: an engine name with optional budget overrides
/// joined by `@` (`full`, `full@d4`, `nolmr@t200ms`, `random`), a search engine's name may be
/// followed by `:` and search options by name (`full:null_move=off,aspiration_window=40`,
/// see `ploy_search::Config::set`), or `engine:` and the path of
/// an engine program (`engine:target/release/examples/engine@t100ms`).
///
/// ```
/// use ploy::cli::matches::{Budget, EngineKind, PlayerSpec};
/// let spec: PlayerSpec = "full@d4".parse().unwrap();
/// assert_eq!(spec.budget(), Some(Budget::Depth(4)));
/// assert_eq!(spec.to_string(), "full@d4");
/// assert!("fast".parse::<PlayerSpec>().is_err());
/// let spec: PlayerSpec = "engine:/opt/old build/engine@n5000".parse().unwrap();
/// assert!(matches!(spec.engine(), EngineKind::Process(p) if p.path.ends_with("old build/engine")));
/// assert_eq!(spec.budget(), Some(Budget::Nodes(5000)));
/// ```
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    text: String,
    engine: EngineKind,
    budget: Option<Budget>,
}

/// What a match gives every player it builds, besides its spec.
#[derive(Clone, Debug)]
pub struct PlayerSetup {
    /// The budget of a spec without an override.
    pub budget: Budget,
    /// Seeds a random player (mixed with each game's number).
    pub seed: u64,
    /// The match's rules (an engine program is told them as options).
    pub rules: Rules,
    /// How long an engine program may take for a move: over its time per move with a time
    /// budget (default 5 s), in all with a depth or node budget (default 60 s).
    pub timeout: Option<Duration>,
    /// More options for an engine program, `(name, value)`, sent after the rules.
    pub options: Vec<(String, String)>,
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

    /// Whether the spec names an engine program.
    #[must_use]
    pub fn is_process(&self) -> bool {
        matches!(self.engine, EngineKind::Process(_))
    }

    /// A new player of this spec. An engine program is started now and told the rules and
    /// options.
    ///
    /// # Errors
    /// An engine program that cannot be started, does not answer the protocol's
    /// handshake, or refuses an option.
    pub fn player(&self, setup: &PlayerSetup) -> Result<Box<dyn Player>, String> {
        let name = self.text.clone();
        let budget = self.budget.unwrap_or(setup.budget);
        Ok(match &self.engine {
            EngineKind::Random => Box::new(RandomPlayer {
                name,
                seed: setup.seed,
                rng: setup.seed,
                stats: PlayerStats::default(),
            }),
            EngineKind::Search(config) => Box::new(SearchPlayer {
                name,
                config: (**config).clone(),
                engine: None,
                limits: budget.limits(),
                stats: PlayerStats::default(),
            }),
            EngineKind::Process(spec) => {
                let mut spec = spec.clone();
                spec.options.extend(setup.options.iter().cloned());
                Box::new(EngineProcess::start(
                    name,
                    spec,
                    setup.rules,
                    budget,
                    setup.timeout,
                )?)
            }
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Reads a budget override: `dN`, `nN` or `tT`.
fn parse_override(part: &str) -> Option<Budget> {
    let (kind, value) = part.split_at(part.chars().next().map_or(0, char::len_utf8));
    Some(match kind {
        "d" => Budget::Depth(value.parse().ok().filter(|d| (1..=MAX_DEPTH).contains(d))?),
        "n" => Budget::Nodes(value.parse().ok().filter(|&n| n > 0)?),
        "t" => Budget::MoveTime(parse_duration(value).ok().filter(|t| !t.is_zero())?),
        _ => return None,
    })
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        if let Some(rest) = text.strip_prefix("engine:") {
            // The path may hold `@`: only trailing parts that read as overrides are cut.
            let mut path = rest;
            let mut overrides = Vec::new();
            while let Some((head, tail)) = path.rsplit_once('@') {
                match parse_override(tail) {
                    Some(b) => {
                        overrides.push(b);
                        path = head;
                    }
                    None => break,
                }
            }
            if path.is_empty() {
                return Err(format!(
                    "`{}`: `engine:` needs the path of an engine program, e.g. \
                     engine:target/release/examples/engine",
                    excerpt(text, 40)
                ));
            }
            return Ok(PlayerSpec {
                text: text.to_owned(),
                engine: EngineKind::Process(ProcessSpec {
                    path: PathBuf::from(path),
                    options: Vec::new(),
                }),
                // Cut from the end: the first one cut is the last written, which counts.
                budget: overrides.first().copied(),
            });
        }
        let mut parts = text.split('@');
        let head = parts.next().unwrap_or_default();
        let (name, settings) = match head.split_once(':') {
            Some((name, settings)) => (name, Some(settings)),
            None => (head, None),
        };
        let mut engine = match name {
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
                    "unknown engine `{}`: expected full, noorder, alphabeta, nolmr, random \
                     or engine:PATH",
                    excerpt(other, 40)
                ));
            }
        };
        if let Some(settings) = settings {
            // `name:option=value,...`: search options by name (ploy_search::Config::set).
            let EngineKind::Search(config) = &mut engine else {
                return Err(format!(
                    "`{}`: the random player takes no search options",
                    excerpt(text, 40)
                ));
            };
            for setting in settings.split(',').filter(|s| !s.is_empty()) {
                let (key, value) = setting.split_once('=').unwrap_or((setting, "on"));
                config
                    .set(key, value)
                    .map_err(|e| format!("`{}`: {e}", excerpt(text, 40)))?;
            }
        }
        let mut budget = None;
        for part in parts {
            budget = Some(parse_override(part).ok_or_else(|| {
                format!(
                    "`{}`: a budget override is dN (depth), nN (nodes) or tT (time per move, \
                     e.g. t500 or t2s)",
                    excerpt(part, 40)
                )
            })?);
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

/// The search in this process.
struct SearchPlayer {
    name: String,
    config: Config,
    engine: Option<Engine>,
    limits: Limits,
    stats: PlayerStats,
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _number: u32) -> Result<(), Fault> {
        // A new engine rather than a cleared one: nothing learnt can survive.
        self.engine = Some(Engine::new(self.config.clone()));
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Fault> {
        let t = Instant::now();
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(self.config.clone()));
        let r = engine.search(game, &self.limits, |_| {});
        self.stats.nodes += r.nodes;
        self.stats.time += t.elapsed();
        self.stats.moves += 1;
        r.best_move
            .ok_or_else(|| Fault::new(FaultKind::NoMove, "the search found no move"))
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}

/// A uniformly random mover, seeded anew for each game.
struct RandomPlayer {
    name: String,
    seed: u64,
    rng: u64,
    stats: PlayerStats,
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        let mut mix = u64::from(number);
        self.rng = self.seed ^ splitmix64(&mut mix);
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Fault> {
        let t = Instant::now();
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(Fault::new(FaultKind::NoMove, "no legal move"));
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

#[cfg(test)]
mod tests {
    use super::*;

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
            "engine:",
            "engine:@d4",
            "full:nonsense=1",
            "full:null_move=maybe",
            "random:null_move",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
        let s: PlayerSpec = "nolmr:null_move,aspiration_window=40@n500".parse().unwrap();
        assert!(
            matches!(s.engine(), EngineKind::Search(c) if c.null_move && c.aspiration_window == 40 && !c.late_move_reductions)
        );
        assert_eq!(s.budget(), Some(Budget::Nodes(500)));
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
    fn engine_specs_keep_their_paths() {
        let path = |s: &str| match s.parse::<PlayerSpec>().unwrap().engine() {
            EngineKind::Process(p) => p.path.display().to_string(),
            _ => panic!("{s} is not an engine program"),
        };
        assert_eq!(path("engine:./engine"), "./engine");
        assert_eq!(path("engine:/a@b/engine"), "/a@b/engine");
        assert_eq!(path("engine:/a/engine@d4@t1s"), "/a/engine");
        let s: PlayerSpec = "engine:/a/engine@d4@t1s".parse().unwrap();
        assert_eq!(s.budget(), Some(Budget::MoveTime(Duration::from_secs(1))));
        assert!(s.is_process());
        assert_eq!(s.to_string(), "engine:/a/engine@d4@t1s");
    }

    #[test]
    fn go_words() {
        assert_eq!(Budget::Depth(4).go_words(), "depth 4");
        assert_eq!(Budget::Nodes(20_000).go_words(), "nodes 20000");
        assert_eq!(
            Budget::MoveTime(Duration::from_millis(100)).go_words(),
            "movetime 100"
        );
    }

    #[test]
    fn random_players_depend_on_the_game_only() {
        let spec: PlayerSpec = "random".parse().unwrap();
        let setup = PlayerSetup {
            budget: Budget::Depth(1),
            seed: 5,
            rules: Rules::standard(),
            timeout: None,
            options: Vec::new(),
        };
        let game = Game::new(Rules::standard());
        let mut one = spec.player(&setup).unwrap();
        let mut two = spec.player(&setup).unwrap();
        one.new_game(1).unwrap();
        let _ = one.choose(&game).unwrap();
        one.new_game(3).unwrap();
        two.new_game(3).unwrap();
        assert_eq!(one.choose(&game).unwrap(), two.choose(&game).unwrap());
    }
}
