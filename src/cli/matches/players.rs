//! The players of a match: what the command line names ([`PlayerSpec`]) and the
//! [`Player`]s it builds: the search in this process (at any [`Level`]), a random mover, a
//! one-ply greedy player, or an engine program driven over the engine protocol
//! ([`super::process`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use ploy_core::{Game, Move, Outcome, Rules};
use ploy_engine::{Engine, Evaluation, Level};
use ploy_search::multi::SearchKind;
use ploy_search::{Config, Driver, Evaluator, Limits, MAX_DEPTH, splitmix64};

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
    /// A one-ply greedy player: the move after which the static evaluation is best for it
    /// (a win above all), ties broken at random.
    Greedy,
    /// An engine program driven over the engine protocol.
    Process(ProcessSpec),
}

/// A player as the command line names it: an engine name with optional budget overrides
/// joined by `@` (`full`, `full@d4`, `nolmr@t200ms`, `random`, `greedy`), a search engine's
/// name may be followed by `:` and search options by name
/// (`full:null_move=off,aspiration_window=40`, see `ploy_search::Config::set`), or `engine:`
/// and the path of an engine program (`engine:target/release/examples/engine@t100ms`). A
/// level override `@lN` (1 to 8) plays a search engine at that [`Level`] (an engine program
/// is told `setoption name Level value N`).
///
/// ```
/// use ploy::cli::matches::{Budget, EngineKind, PlayerSpec};
/// let spec: PlayerSpec = "full@d4".parse().unwrap();
/// assert_eq!(spec.budget(), Some(Budget::Depth(4)));
/// assert_eq!(spec.to_string(), "full@d4");
/// assert!("fast".parse::<PlayerSpec>().is_err());
/// let spec: PlayerSpec = "full@l3@n20000".parse().unwrap();
/// assert_eq!(spec.level().map(|l| l.get()), Some(3));
/// assert_eq!(spec.budget(), Some(Budget::Nodes(20000)));
/// assert!("full@l9".parse::<PlayerSpec>().is_err());
/// // The free-for-all's search, beside the search options.
/// let spec: PlayerSpec = "full:ffa_search=brs+,null_move=off".parse().unwrap();
/// assert_eq!(spec.ffa_search().map(|k| k.to_string()), Some("brs+".to_owned()));
/// assert!("full:ffa_search=minimax".parse::<PlayerSpec>().is_err());
/// let spec: PlayerSpec = "engine:/opt/old build/engine@n5000".parse().unwrap();
/// assert!(matches!(spec.engine(), EngineKind::Process(p) if p.path.ends_with("old build/engine")));
/// assert_eq!(spec.budget(), Some(Budget::Nodes(5000)));
/// ```
#[derive(Clone, Debug)]
pub struct PlayerSpec {
    text: String,
    engine: EngineKind,
    budget: Option<Budget>,
    level: Option<Level>,
    /// The search of a free-for-all game (`full:ffa_search=brs`), if the spec names one.
    ffa_search: Option<SearchKind>,
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

    /// The level override, if the spec has one (the last one counts).
    #[must_use]
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// The free-for-all search the spec chooses (`full:ffa_search=brs`), if any; without
    /// one the engine's default ([`ploy_engine::Engine::set_ffa_search`]).
    #[must_use]
    pub fn ffa_search(&self) -> Option<SearchKind> {
        self.ffa_search
    }

    /// The engine.
    #[must_use]
    pub fn engine(&self) -> &EngineKind {
        &self.engine
    }

    /// Whether the spec names the search in this process in its default configuration
    /// (`full`, with any overrides but no search options).
    #[must_use]
    pub fn is_plain_full(&self) -> bool {
        matches!(self.engine, EngineKind::Search(_)) && self.text.split('@').next() == Some("full")
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
            EngineKind::Greedy => Box::new(GreedyPlayer {
                name,
                seed: setup.seed,
                rng: setup.seed,
                eval: Evaluation::default(),
                stats: PlayerStats::default(),
            }),
            EngineKind::Search(config) => Box::new(SearchPlayer {
                name,
                config: (**config).clone(),
                ffa_search: self.ffa_search,
                engine: None,
                limits: budget.limits(),
                level: self.level.unwrap_or_default(),
                seed: setup.seed,
                stats: PlayerStats::default(),
            }),
            EngineKind::Process(spec) => {
                let mut spec = spec.clone();
                if let Some(level) = self.level {
                    spec.options.push(("Level".to_owned(), level.to_string()));
                }
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

/// An override after `@`: a budget or a level.
#[derive(Clone, Copy)]
enum Override {
    Budget(Budget),
    Level(Level),
}

/// Reads an override: `dN`, `nN` or `tT` (a budget), `lN` (a level, 1 to 8).
fn parse_override(part: &str) -> Option<Override> {
    let (kind, value) = part.split_at(part.chars().next().map_or(0, char::len_utf8));
    Some(Override::Budget(match kind {
        "d" => Budget::Depth(value.parse().ok().filter(|d| (1..=MAX_DEPTH).contains(d))?),
        "n" => Budget::Nodes(value.parse().ok().filter(|&n| n > 0)?),
        "t" => Budget::MoveTime(parse_duration(value).ok().filter(|t| !t.is_zero())?),
        "l" => return value.parse().ok().map(Override::Level),
        _ => return None,
    }))
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
            // Cut from the end: the first one cut is the last written, which counts.
            return Ok(PlayerSpec {
                text: text.to_owned(),
                engine: EngineKind::Process(ProcessSpec {
                    path: PathBuf::from(path),
                    options: Vec::new(),
                }),
                budget: overrides.iter().find_map(|o| match o {
                    Override::Budget(b) => Some(*b),
                    Override::Level(_) => None,
                }),
                level: overrides.iter().find_map(|o| match o {
                    Override::Level(l) => Some(*l),
                    Override::Budget(_) => None,
                }),
                ffa_search: None,
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
            "greedy" => EngineKind::Greedy,
            other => {
                return Err(format!(
                    "unknown engine `{}`: expected full, noorder, alphabeta, nolmr, random, \
                     greedy or engine:PATH",
                    excerpt(other, 40)
                ));
            }
        };
        let searches = matches!(engine, EngineKind::Search(_));
        let mut ffa_search = None;
        if let Some(settings) = settings {
            // `name:option=value,...`: search options by name (ploy_search::Config::set).
            let EngineKind::Search(config) = &mut engine else {
                return Err(format!(
                    "`{}`: the {name} player takes no search options",
                    excerpt(text, 40)
                ));
            };
            for setting in settings.split(',').filter(|s| !s.is_empty()) {
                let (key, value) = setting.split_once('=').unwrap_or((setting, "on"));
                if key == "ffa_search" {
                    ffa_search = Some(
                        value
                            .parse()
                            .map_err(|e| format!("`{}`: {e}", excerpt(text, 40)))?,
                    );
                    continue;
                }
                config
                    .set(key, value)
                    .map_err(|e| format!("`{}`: {e}", excerpt(text, 40)))?;
            }
        }
        let mut budget = None;
        let mut level = None;
        for part in parts {
            match parse_override(part) {
                Some(Override::Budget(b)) => budget = Some(b),
                Some(Override::Level(l)) => level = Some(l),
                None if part.starts_with('l') => {
                    return Err(format!(
                        "`{}`: a level override is lN, N a whole number from 1 to 8",
                        excerpt(part, 40)
                    ));
                }
                None => {
                    return Err(format!(
                        "`{}`: an override is dN (depth), nN (nodes), tT (time per move, \
                         e.g. t500 or t2s) or lN (level 1 to 8)",
                        excerpt(part, 40)
                    ));
                }
            }
        }
        if !searches && (budget.is_some() || level.is_some()) {
            return Err(format!(
                "`{}`: the {name} player takes no budget or level",
                excerpt(text, 40)
            ));
        }
        Ok(PlayerSpec {
            text: text.to_owned(),
            engine,
            budget,
            level,
            ffa_search,
        })
    }
}

/// The search in this process.
struct SearchPlayer {
    name: String,
    config: Config,
    ffa_search: Option<SearchKind>,
    engine: Option<Engine>,
    limits: Limits,
    level: Level,
    /// Mixed with each game's number into the seed of the level's choices.
    seed: u64,
    stats: PlayerStats,
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        // A new engine rather than a cleared one: nothing learnt can survive.
        let mut mix = u64::from(number);
        let mut engine = Engine::new(self.config.clone())
            .with_level(self.level)
            .with_seed(self.seed ^ splitmix64(&mut mix));
        if let Some(kind) = self.ffa_search {
            engine.set_ffa_search(kind);
        }
        self.engine = Some(engine);
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Fault> {
        let t = Instant::now();
        let (config, level, seed, ffa) = (&self.config, self.level, self.seed, self.ffa_search);
        let engine = self.engine.get_or_insert_with(|| {
            let mut engine = Engine::new(config.clone())
                .with_level(level)
                .with_seed(seed);
            if let Some(kind) = ffa {
                engine.set_ffa_search(kind);
            }
            engine
        });
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

/// The one-ply greedy player: every legal move is played on a copy of the position and
/// judged by Ploy's static evaluation from the mover's view (a win first, a loss last);
/// the best, ties broken at random, seeded anew for each game.
struct GreedyPlayer {
    name: String,
    seed: u64,
    rng: u64,
    eval: Evaluation,
    stats: PlayerStats,
}

impl GreedyPlayer {
    /// The value of `mv` for the player to move in `game`.
    fn value(&self, game: &Game, mv: Move) -> i64 {
        let pos = game.position();
        let me = pos.variant().team(pos.mover());
        let Ok(after) = pos.after(mv) else {
            return i64::MIN;
        };
        match after.outcome() {
            Some(Outcome::Draw { .. }) => 0,
            Some(o @ Outcome::Win { .. }) => {
                if o.winners().iter().any(|s| me.contains(s)) {
                    i64::MAX
                } else {
                    i64::MIN + 1
                }
            }
            None => {
                let v = i64::from(self.eval.evaluate(&after));
                if me.contains(after.mover()) { v } else { -v }
            }
        }
    }
}

impl Player for GreedyPlayer {
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
        let mut best = Vec::new();
        let mut top = i64::MIN;
        for &mv in game.legal_moves().iter() {
            let v = self.value(game, mv);
            if v > top || best.is_empty() {
                top = v;
                best.clear();
            }
            if v == top {
                best.push(mv);
            }
        }
        if best.is_empty() {
            return Err(Fault::new(FaultKind::NoMove, "no legal move"));
        }
        let mv = best[(splitmix64(&mut self.rng) % best.len() as u64) as usize];
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
            "full@l0",
            "full@l9",
            "full@lx",
            "greedy@l2",
            "greedy@n100",
            "greedy:null_move",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
        let e = "full@l9".parse::<PlayerSpec>().unwrap_err();
        assert!(e.contains("lN, N a whole number from 1 to 8"), "{e}");
        let s: PlayerSpec = "nolmr@l3@n500@l5".parse().unwrap();
        assert_eq!(
            (s.level(), s.budget()),
            (Some(Level::new(5).unwrap()), Some(Budget::Nodes(500)))
        );
        let s: PlayerSpec = "engine:/a/engine@l2@d4".parse().unwrap();
        assert_eq!(
            (s.level(), s.budget()),
            (Some(Level::new(2).unwrap()), Some(Budget::Depth(4)))
        );
        assert!(matches!(
            "greedy".parse::<PlayerSpec>().unwrap().engine(),
            EngineKind::Greedy
        ));
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

    /// Green's lance on e6 can take Red's commander on e9: the greedy player takes it
    /// (a win is worth more than any evaluation), whatever its seed.
    #[test]
    fn the_greedy_player_takes_a_win_in_one() {
        use ploy_core::{Board, Flags, Piece, Position, Seat, Setup};
        let mut board = Board::empty();
        for (seat, mask, sq) in [
            (Seat::Green, 85, "a1"),
            (Seat::Green, 1, "b2"),
            (Seat::Green, 131, "e6"),
            (Seat::Red, 85, "e9"),
            (Seat::Red, 16, "i8"),
        ] {
            board.put(
                sq.parse().unwrap(),
                Piece::new(seat, Flags::new(mask)).unwrap(),
            );
        }
        let pos =
            Position::from_setup(Setup::two_player(board, Seat::Green), Rules::standard()).unwrap();
        let game = Game::from_position(pos);
        let spec: PlayerSpec = "greedy".parse().unwrap();
        for seed in 0..4 {
            let setup = PlayerSetup {
                budget: Budget::Depth(1),
                seed,
                rules: Rules::standard(),
                timeout: None,
                options: Vec::new(),
            };
            let mut greedy = spec.player(&setup).unwrap();
            greedy.new_game(1).unwrap();
            let mv = greedy.choose(&game).unwrap();
            let mut after = game.clone();
            after.play(mv).unwrap();
            assert!(
                after
                    .outcome()
                    .is_some_and(|o| o.winners().contains(Seat::Green)),
                "seed {seed}: {mv:?}"
            );
        }
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
