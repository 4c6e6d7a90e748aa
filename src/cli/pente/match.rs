//! `ploy pente match`: matches between players: full strength, a level 1 to 8, or a
//! one-ply greedy player; or the levels' ladder (each level against the next).
//!
//! ```text
//! ploy pente match [--a full] [--b 3] [--openings 50]
//!     [--size 19] [--no-tournament-rule] [--min-movetime 200ms] [--nodes N] [--seed 1]
//!     [--ladder] [--jobs N] [--verbose]
//! ```
//!
//! A player is `full`, a level `1` to `8` (`8` is full strength), or `greedy`: the move
//! after which the static evaluation is best for the player who made it (a five first),
//! ties broken at random (seeded). Each opening is the centre and two random legal moves
//! (seeded), played twice with the colours swapped. With `--nodes N` every engine player
//! has N nodes a move (levels 1 to 7 fewer, by their own limits); without it a level 1 to
//! 7 searches within its own limits alone, and `full` (or level 8) gets per move the mean
//! time the other players in the match have used so far, and at least `--min-movetime`
//! (`--movetime` fixes it instead; a bare number is milliseconds). The summary
//! gives wins, losses, draws, the score with a 95 % interval, the mean time and nodes per
//! move of each side, and the games' lengths.
//!
//! Time is the thread's processor time (read from `/proc/thread-self/schedstat` on Linux;
//! the wall clock elsewhere, or with `--wall-clock`): on a machine shared with other jobs,
//! a wall-clock budget would give the time-limited player only the share of the processor
//! the other jobs leave, and the result would measure the load.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use ploy_search::Clock;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pente::{
    Color, Engine, Evaluation, Level, Limits, Move, Outcome, Position, Rules, SearchPosition, Size,
    Strength,
};
use ploy_search::{LevelRng, SearchGame};

use crate::cli::{Failure, parse_duration};

/// Plays engine against engine and reports the score.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// First player: `full`, a level 1 to 8, or `greedy` (one ply, best static evaluation).
    #[arg(long, default_value = "full")]
    pub a: String,
    /// Second player.
    #[arg(long, default_value = "3")]
    pub b: String,
    /// Openings (each played twice, colours swapped).
    #[arg(long, default_value_t = 50)]
    pub openings: u32,
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    pub size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
    /// Least time per move of a full-strength player; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "200ms", value_parser = parse_duration)]
    pub min_movetime: Duration,
    /// Fixed time per move of a full-strength player (overrides the mean of the levels);
    /// a bare number is milliseconds.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub movetime: Option<Duration>,
    /// Fixed nodes per move of every engine player instead of a time (repeatable
    /// comparisons on a busy machine); levels 1 to 7 use fewer by their own limits.
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Seed of the openings (and of the engines' choices among equal moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play the levels' ladder instead: 1 against 2, 2 against 3, ..., 7 against 8.
    #[arg(long)]
    pub ladder: bool,
    /// Print every game's moves.
    #[arg(long)]
    pub verbose: bool,
    /// Measure time on the wall clock instead of the thread's processor time.
    #[arg(long)]
    pub wall_clock: bool,
    /// Games played at once, each on its own thread. With processor time (the default)
    /// or nodes the games do not depend on it, but for the full-strength budget: the mean
    /// time of the levels so far, which the order of finishing moves changes a little.
    #[arg(short, long, default_value_t = 1)]
    pub jobs: u32,
}

/// The processor time of the calling thread (Linux: `/proc/thread-self/schedstat`, in
/// nanoseconds), or the wall clock where that cannot be read. On a busy machine a wall
/// clock gives a time-limited player a share of the processor that depends on the other
/// jobs; processor time does not.
#[derive(Clone, Copy, Debug)]
struct ThreadTime {
    wall: bool,
    origin: Instant,
}

impl ThreadTime {
    fn new(wall: bool) -> ThreadTime {
        let wall = wall || ThreadTime::read().is_none();
        ThreadTime {
            wall,
            origin: Instant::now(),
        }
    }

    fn read() -> Option<Duration> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
        Some(Duration::from_nanos(ns))
    }
}

impl Clock for ThreadTime {
    fn now(&self) -> Duration {
        if self.wall {
            self.origin.elapsed()
        } else {
            ThreadTime::read().unwrap_or_else(|| self.origin.elapsed())
        }
    }
}

/// A player of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Player {
    /// The engine at a strength.
    Engine(Strength),
    /// One ply: the best static evaluation after the move.
    Greedy,
}

impl Player {
    /// Whether this player gets the full-strength budget (a time, without `--nodes`).
    fn is_full(&self) -> bool {
        match self {
            Player::Engine(Strength::Full) => true,
            Player::Engine(Strength::Level(l)) => l.is_full(),
            _ => false,
        }
    }
}

fn player(s: &str) -> Result<Player, String> {
    match s.trim() {
        "full" => Ok(Player::Engine(Strength::Full)),
        "greedy" => Ok(Player::Greedy),
        other => other
            .parse::<Level>()
            .map(|l| Player::Engine(Strength::Level(l)))
            .map_err(|e| format!("bad player: {e}; or `full` or `greedy`")),
    }
}

/// The greedy player's move: the one after which the static evaluation (for the player
/// who made it) is best, a five or a tenth captured stone first; ties broken at random.
fn greedy_move(pos: &Position, eval: &Evaluation, rng: &mut LevelRng) -> Move {
    let me = pos.turn();
    let mut g = SearchPosition::new(pos.clone());
    let mut best = Vec::new();
    let mut best_value = i64::MIN;
    for mv in pos.legal_moves() {
        let undo = g.make(mv);
        let value = match g.position().outcome() {
            Some(o) if o.winner() == Some(me) => i64::MAX,
            Some(o) if o.winner().is_some() => i64::MIN + 1,
            Some(_) => 0,
            None => -i64::from(eval.value(&g)),
        };
        g.unmake(mv, undo);
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    }
    best[rng.below(best.len() as u64) as usize]
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The centre and two random legal moves.
fn opening(rules: Rules, seed: u64) -> Vec<Move> {
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    let mut state = seed;
    for _ in 0..3 {
        let legal = pos.legal_moves();
        state = mix(state);
        let mv = legal[(state % legal.len() as u64) as usize];
        pos.play(mv).expect("legal");
        moves.push(mv);
    }
    moves
}

#[derive(Default)]
struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
    time: [Duration; 2],
    moves: [u32; 2],
    nodes: [u64; 2],
    plies: u64,
    /// Games printed so far (in order).
    printed: usize,
}

impl Tally {
    fn add(&mut self, r: &GameResult) {
        match r.outcome.winner() {
            None => self.draws += 1,
            Some(w) if (w == Color::White) == r.a_white => self.wins += 1,
            Some(_) => self.losses += 1,
        }
        self.plies += u64::from(r.plies);
        for i in 0..2 {
            self.time[i] += r.time[i];
            self.moves[i] += r.moves[i];
            self.nodes[i] += r.nodes[i];
        }
    }

    fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score of A and its 95 % interval (normal approximation).
    fn score(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        (s, 1.96 * (var / n).sqrt())
    }

    fn mean_ms(&self, i: usize) -> f64 {
        self.time[i].as_secs_f64() * 1000.0 / f64::from(self.moves[i].max(1))
    }

    fn mean_nodes(&self, i: usize) -> u64 {
        self.nodes[i] / u64::from(self.moves[i].max(1))
    }
}

fn elo(s: f64) -> f64 {
    let s = s.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// One finished game.
struct GameResult {
    /// How it ended (`a_white` tells whose win it is).
    outcome: Outcome,
    a_white: bool,
    plies: u16,
    line: Vec<String>,
    time: [Duration; 2],
    moves: [u32; 2],
    nodes: [u64; 2],
}

/// The time the levels have used so far, shared by the games running at once (the
/// full-strength player's budget is their mean).
#[derive(Default)]
struct LevelTime {
    time: Duration,
    moves: u32,
}

fn play_game(
    args: &MatchArgs,
    rules: Rules,
    players: [&Player; 2],
    game: u32,
    level_time: &Mutex<LevelTime>,
) -> GameResult {
    let open = opening(rules, mix(args.seed ^ u64::from(game / 2)));
    // Even games: A plays White.
    let a_white = game % 2 == 0;
    let seed = mix(args.seed.wrapping_add(u64::from(game)));
    let clock = ThreadTime::new(args.wall_clock);
    let engine = |p: &Player, seed: u64| {
        let strength = match p {
            Player::Engine(s) => s.clone(),
            Player::Greedy => Strength::Full,
        };
        Engine::new(strength).with_seed(seed).with_clock(clock)
    };
    let mut engines = [engine(players[0], seed), engine(players[1], seed ^ 1)];
    let eval = Evaluation::default();
    let mut pos = Position::from_moves(rules, &open).expect("legal opening");
    let mut line: Vec<String> = open.iter().map(ToString::to_string).collect();
    let mut result = GameResult {
        outcome: Outcome::Draw,
        a_white,
        plies: 0,
        line: Vec::new(),
        time: [Duration::ZERO; 2],
        moves: [0; 2],
        nodes: [0; 2],
    };
    while !pos.is_over() {
        let who = usize::from((pos.turn() == Color::White) != a_white);
        let player = players[who];
        if *player == Player::Greedy {
            let mut rng = LevelRng::new(seed ^ who as u64, pos.hash(), u64::from(pos.plies()));
            let mv = greedy_move(&pos, &eval, &mut rng);
            result.moves[who] += 1;
            pos.play(mv).expect("the greedy player plays legal moves");
            line.push(mv.to_string());
            continue;
        }
        let limits = match player {
            _ if args.nodes.is_some() => Limits::nodes(args.nodes.unwrap_or(1)),
            p if p.is_full() => {
                let time = args.movetime.unwrap_or_else(|| {
                    let lt = level_time.lock().unwrap_or_else(PoisonError::into_inner);
                    // The mean in whole milliseconds.
                    let mean = if lt.moves == 0 {
                        0
                    } else {
                        (lt.time / lt.moves).as_millis() as u64
                    };
                    Duration::from_millis(mean).max(args.min_movetime)
                });
                Limits::move_time(time)
            }
            _ => Limits::default(),
        };
        let t = clock.now();
        let analysis = engines[who].search(&pos, &limits, |_| {});
        let used = clock.now().saturating_sub(t);
        result.time[who] += used;
        result.moves[who] += 1;
        result.nodes[who] += analysis.nodes;
        if !player.is_full() {
            let mut lt = level_time.lock().unwrap_or_else(PoisonError::into_inner);
            lt.time += used;
            lt.moves += 1;
        }
        let mv = analysis.best_move.expect("a move while the game goes on");
        pos.play(mv).expect("the engine plays legal moves");
        line.push(mv.to_string());
    }
    result.plies = pos.plies();
    result.outcome = pos.outcome().expect("over");
    result.line = line;
    result
}

fn play_match(
    args: &MatchArgs,
    rules: Rules,
    a: &Player,
    b: &Player,
    name_a: &str,
    name_b: &str,
) -> Tally {
    let games = 2 * args.openings;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(u64::from(games))
    } else {
        ProgressBar::hidden()
    };
    if let Ok(style) = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("{name_a} vs {name_b}"));
    let level_time = Mutex::new(LevelTime::default());
    let next = AtomicU32::new(0);
    let shared = Mutex::new((Tally::default(), Vec::<Option<GameResult>>::new()));
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let r = play_game(args, rules, [a, b], game, &level_time);
                    let mut guard = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    let (tally, done) = &mut *guard;
                    tally.add(&r);
                    let i = game as usize;
                    if done.len() <= i {
                        done.resize_with(i + 1, || None);
                    }
                    done[i] = Some(r);
                    // Print the finished games in order.
                    while let Some(Some(r)) = done.get(tally.printed) {
                        if args.verbose {
                            bar.suspend(|| {
                                println!(
                                    "game {:3} {name_a} {}: {} in {} plies: {}",
                                    tally.printed + 1,
                                    if r.a_white { "white" } else { "black" },
                                    r.outcome,
                                    r.plies,
                                    r.line.join(" ")
                                );
                            });
                        }
                        tally.printed += 1;
                    }
                    bar.set_message(format!(
                        "+{} -{} ={}",
                        tally.wins, tally.losses, tally.draws
                    ));
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let (tally, _) = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    tally
}

fn report(name_a: &str, name_b: &str, t: &Tally) {
    let (s, ci) = t.score();
    println!(
        "{name_a} vs {name_b}: {} games, +{} -{} ={}, score {:.1} % ± {:.1} (Elo {:+.0}, {:+.0} to {:+.0}); mean time per move {:.1} ms vs {:.1} ms, mean nodes per move {} vs {}; mean length {:.1} plies",
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        100.0 * s,
        100.0 * ci,
        elo(s),
        elo(s - ci),
        elo(s + ci),
        t.mean_ms(0),
        t.mean_ms(1),
        t.mean_nodes(0),
        t.mean_nodes(1),
        t.plies as f64 / f64::from(t.games().max(1)),
    );
}

/// Plays the match (or the levels' ladder) and prints the summary.
///
/// # Errors
/// A bad player (status 2).
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    let rules = super::rules(args.size, args.no_tournament_rule);
    if args.ladder {
        let levels: Vec<Level> = Level::all().collect();
        for pair in levels.windows(2) {
            let (a, b) = (
                Player::Engine(Strength::Level(pair[0])),
                Player::Engine(Strength::Level(pair[1])),
            );
            let (na, nb) = (format!("level {}", pair[0]), format!("level {}", pair[1]));
            let t = play_match(args, rules, &a, &b, &na, &nb);
            report(&na, &nb, &t);
        }
        return Ok(());
    }
    let a = player(&args.a).map_err(Failure::usage)?;
    let b = player(&args.b).map_err(Failure::usage)?;
    let t = play_match(args, rules, &a, &b, &args.a, &args.b);
    report(&args.a, &args.b, &t);
    Ok(())
}
