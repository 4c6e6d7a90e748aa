//! The players of a Pente or Pyloff match: an engine program over the engine protocol
//! (told `Game` and the game's options), the game crate's own engine in this process
//! (`full`, at any level), or a uniformly random mover. In Ploy's free-for-all every player
//! of Ploy's matches plays ([`super::players`]).

use std::time::Instant;

use ploy_search::{Level, Limits, splitmix64};

use super::boards::{Board, BoardKind, BoardMove};
use super::player::{Fault, FaultKind, PlayerStats};
use super::players::{EngineKind, PlayerSetup, PlayerSpec};
use super::process::EngineProcess;
use crate::cli::excerpt;

/// Anything that plays Pente or Pyloff games of a match.
pub trait BoardPlayer {
    /// What the player says about itself (an engine program's `id name`).
    fn about(&self) -> Option<String> {
        None
    }
    /// Game `number` (counting from 1) starts: forget the last one.
    ///
    /// # Errors
    /// A [`Fault`] when the player cannot play: it loses the game.
    fn new_game(&mut self, number: u32) -> Result<(), Fault>;
    /// The move to play in `board` (undecided, this player to move).
    ///
    /// # Errors
    /// A [`Fault`] when the player gives no legal move: it loses the game.
    fn choose(&mut self, board: &Board) -> Result<BoardMove, Fault>;
    /// Moves, nodes and time so far.
    fn stats(&self) -> PlayerStats;
}

/// Whether `spec` can play a Pente or Pyloff match: an engine program, `full` or
/// `random`.
///
/// # Errors
/// A message naming what can.
pub fn check_board_spec(spec: &PlayerSpec, kind: BoardKind) -> Result<(), String> {
    if let BoardKind::PloyFfa(_) = kind {
        return Ok(());
    }
    match spec.engine() {
        EngineKind::Process(_) | EngineKind::Random => Ok(()),
        EngineKind::Search(_) if spec.is_plain_full() => Ok(()),
        _ => Err(format!(
            "`{}`: a {} match takes engine:PATH, full or random players",
            excerpt(&spec.to_string(), 60),
            kind.name()
        )),
    }
}

/// A new player of `spec` for games of `kind`. An engine program is started now and told
/// the game and its options, the level, then `setup.options`.
///
/// # Errors
/// A spec no Pente or Pyloff player has ([`check_board_spec`]), or an engine program that
/// cannot be started, does not answer the handshake, or refuses an option.
pub fn board_player(
    spec: &PlayerSpec,
    kind: BoardKind,
    cap: Option<usize>,
    setup: &PlayerSetup,
) -> Result<Box<dyn BoardPlayer>, String> {
    check_board_spec(spec, kind)?;
    if let BoardKind::PloyFfa(rules) = kind {
        let setup = PlayerSetup {
            rules,
            ..setup.clone()
        };
        return Ok(Box::new(PloyPlayer(spec.player(&setup)?)));
    }
    let budget = spec.budget().unwrap_or(setup.budget);
    Ok(match spec.engine() {
        EngineKind::Process(p) => {
            let mut p = p.clone();
            if let Some(level) = spec.level() {
                p.options.push(("Level".to_owned(), level.to_string()));
            }
            p.options.extend(setup.options.iter().cloned());
            Box::new(EngineProcess::start_with(
                spec.to_string(),
                p,
                kind.engine_options(),
                budget,
                setup.timeout,
            )?)
        }
        EngineKind::Random => Box::new(RandomMover {
            seed: setup.seed,
            rng: setup.seed,
            stats: PlayerStats::default(),
        }),
        _ => Box::new(CrateEngine {
            engine: None,
            limits: budget.limits(),
            level: spec.level().unwrap_or_default(),
            seed: setup.seed,
            number: 0,
            cap,
            stats: PlayerStats::default(),
        }),
    })
}

impl BoardPlayer for EngineProcess {
    fn about(&self) -> Option<String> {
        super::Player::about(self)
    }

    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        super::Player::new_game(self, number)
    }

    fn choose(&mut self, board: &Board) -> Result<BoardMove, Fault> {
        let answer = self.best_move(&board.position_command())?;
        let illegal = |why: String| {
            Fault::new(
                FaultKind::IllegalMove,
                format!("`{}`: {why}", excerpt(&answer, 40)),
            )
        };
        let mv = board.read_move(&answer).map_err(illegal)?;
        let mut after = board.clone();
        after.play(mv).map_err(illegal)?;
        Ok(mv)
    }

    fn stats(&self) -> PlayerStats {
        super::Player::stats(self)
    }
}

/// A player of Ploy's matches in a free-for-all game.
struct PloyPlayer(Box<dyn super::Player>);

impl BoardPlayer for PloyPlayer {
    fn about(&self) -> Option<String> {
        self.0.about()
    }

    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        self.0.new_game(number)
    }

    fn choose(&mut self, board: &Board) -> Result<BoardMove, Fault> {
        match board {
            Board::Ploy(g) => self.0.choose(g).map(BoardMove::Ploy),
            _ => Err(Fault::new(FaultKind::NoMove, "not a Ploy game")),
        }
    }

    fn stats(&self) -> PlayerStats {
        self.0.stats()
    }
}

/// The game crate's engine, in this process.
enum Searcher {
    Pente(Box<pente::Engine>),
    Pyloff(Box<pyloff::Engine>),
}

/// The game crate's engine as a player: a new one each game, seeded by the game's number.
struct CrateEngine {
    engine: Option<Searcher>,
    limits: Limits,
    level: Level,
    seed: u64,
    /// The game's number, mixed into the seed.
    number: u32,
    cap: Option<usize>,
    stats: PlayerStats,
}

impl CrateEngine {
    fn make(&self, board: &Board) -> Searcher {
        let mut mix = u64::from(self.number);
        let seed = self.seed ^ splitmix64(&mut mix);
        match board {
            Board::Pente(_) => Searcher::Pente(Box::new(
                pente::Engine::new(pente::Strength::Level(self.level)).with_seed(seed),
            )),
            Board::Pyloff(_) | Board::Ploy(_) => {
                let mut e = pyloff::Engine::new();
                e.set_level(self.level);
                e.set_seed(seed);
                e.set_move_cap(self.cap.map(|c| u32::try_from(c).unwrap_or(u32::MAX)));
                Searcher::Pyloff(Box::new(e))
            }
        }
    }
}

impl BoardPlayer for CrateEngine {
    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        // Made at the first move, when the game is known; nothing learnt survives.
        self.engine = None;
        self.number = number;
        Ok(())
    }

    fn choose(&mut self, board: &Board) -> Result<BoardMove, Fault> {
        let t = Instant::now();
        let engine = match self.engine.take() {
            Some(e) => e,
            None => self.make(board),
        };
        let engine = self.engine.insert(engine);
        let (mv, nodes) = match (engine, board) {
            (Searcher::Pente(e), Board::Pente(g)) => {
                let r = e.search(g.position(), &self.limits, |_| {});
                (r.best_move.map(BoardMove::Pente), r.nodes)
            }
            (Searcher::Pyloff(e), Board::Pyloff(g)) => {
                let r = e.search(g, &self.limits);
                (r.best_move.map(BoardMove::Pyloff), r.nodes)
            }
            _ => (None, 0),
        };
        self.stats.nodes += nodes;
        self.stats.time += t.elapsed();
        self.stats.moves += 1;
        mv.ok_or_else(|| Fault::new(FaultKind::NoMove, "the search found no move"))
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}

/// A uniformly random mover, seeded anew for each game.
struct RandomMover {
    seed: u64,
    rng: u64,
    stats: PlayerStats,
}

impl BoardPlayer for RandomMover {
    fn new_game(&mut self, number: u32) -> Result<(), Fault> {
        let mut mix = u64::from(number);
        self.rng = self.seed ^ splitmix64(&mut mix);
        Ok(())
    }

    fn choose(&mut self, board: &Board) -> Result<BoardMove, Fault> {
        let t = Instant::now();
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Err(Fault::new(FaultKind::NoMove, "no legal move"));
        }
        let mv = moves[(splitmix64(&mut self.rng) >> 8) as usize % moves.len()];
        self.stats.time += t.elapsed();
        self.stats.moves += 1;
        Ok(mv)
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}
