//! `ploy pyloff match`: matches of the bot against simple players, a weaker copy of itself
//! or another level.
//!
//! ```text
//! ploy pyloff match --opponent random|greedy|depth2|level [--opponent-level M] \
//!     [--level N] [--nodes N] [--games N] [--movetime TIME] [--seed S] \
//!     [--search KIND] [--opponent-search KIND] [--mcts-exploration C] \
//!     [--opening-plies P] [--records DIR] [--size N] [--players K] [--all-freedoms] [--cut-down]
//! ```
//!
//! The bot (the engine at `--level N`, 1 to 8, default 8, full strength; with
//! `--movetime`, default 200ms a move, a bare number is milliseconds, or `--nodes` a move
//! instead) plays one seat; every other seat is the opponent:
//!
//! - `random`: a uniformly random legal move (seeded);
//! - `greedy`: one ply: the move after which its own pieces minus the most pieces of any
//!   other player is largest (captures count), ties broken at random (seeded);
//! - `depth2`: the same engine limited to depth 2;
//! - `level`: the engine at `--opponent-level M` with the bot's budget.
//!
//! The engines' choices at levels 1 to 7 are seeded by `--seed` and the game's number.
//!
//! With three or four players, `--search KIND` chooses the bot's search (`paranoid`,
//! `brs`, `brs+`, `mcts`; default: the engine's default) and `--opponent-search KIND` that
//! of the `depth2` and `level` opponents (default `paranoid`, today's bot). A candidate
//! search against today's bot: `--opponent level --opponent-level 8 --search KIND --nodes N`.
//!
//! Both engines know the move cap (a position at the cap is final for their search).
//!
//! Games go in pairs from seeded openings of `--opening-plies` random moves (default 2):
//! each opening is played with the bot in each seat in turn (colours swapped), so
//! `--games` should be a multiple of the number of players. A game that reaches the move
//! cap, 4 x n(n+1)(2n+1)/6 moves (passes and swap included; 364 on size 6), is decided by
//! the score then. A game line per game on standard output, then the totals: wins (the
//! bot alone leads), shared wins, draws and losses, the score rate (a shared win or a draw
//! counts half) with its 95 % interval; then the bot's share of first place (1/k when k
//! players share the highest score, everybody's share in a draw) and its mean rank (1 to the
//! number of players; tied players share their ranks, 1.5 each for two tied first), each
//! with a 95 % interval (as `ploy match` computes them: Wilson's for the share, Student's t
//! over the games for the rank).
//! `--records DIR` writes each game's record there.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use ploy_search::multi::{MctsConfig, SearchKind};
use pyloff::{Engine, Game, Level, Limits, Move, Outcome, Player, Position, RecordResult};

use super::GameArgs;
use crate::cli::matches::placings::{Sums, placings};
use crate::cli::{Failure, parse_duration};

/// The players the bot meets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// One ply: most own pieces minus the best other player's after the move.
    Greedy,
    /// The same engine limited to depth 2.
    Depth2,
    /// The engine at `--opponent-level`.
    Level,
}

/// Matches of the Pyloff bot against random, greedy or depth-2 players.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    /// The game's options.
    #[command(flatten)]
    pub game: GameArgs,
    /// Who plays the other seats.
    #[arg(long, value_enum)]
    pub opponent: Opponent,
    /// Number of games.
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// The bot's level, 1 (weakest) to 8 (full strength, the default).
    #[arg(long, value_name = "N", default_value = "8")]
    pub level: Level,
    /// The opponent's level with `--opponent level`.
    #[arg(long, value_name = "M", required_if_eq("opponent", "level"))]
    pub opponent_level: Option<Level>,
    /// The bot's time per move; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "200ms", value_parser = parse_duration)]
    pub movetime: Duration,
    /// Nodes per move instead of a time, for the bot and a `level` opponent (repeatable
    /// results on a busy machine).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seed of the openings and of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random moves of each opening.
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u32,
    /// Directory to write each game's record into.
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// The bot's search for three and four players: paranoid, brs, brs+ or mcts (default:
    /// the engine's default).
    #[arg(long, value_name = "KIND")]
    pub search: Option<SearchKind>,
    /// The search of the `depth2` and `level` opponents for three and four players.
    #[arg(long, value_name = "KIND", default_value = "paranoid")]
    pub opponent_search: SearchKind,
    /// The exploration constant of the bot's Monte-Carlo tree search (`--search mcts`):
    /// UCB1's `c`, rewards being shares of first place in 0 to 1 [default: the engine's,
    /// 0.7].
    #[arg(long, value_name = "C", value_parser = parse_exploration)]
    pub mcts_exploration: Option<f64>,
}

/// An exploration constant: a finite number, at least 0.
fn parse_exploration(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(c) if c.is_finite() && c >= 0.0 => Ok(c),
        _ => Err(format!(
            "`{text}` is not an exploration constant (a number, at least 0)"
        )),
    }
}

/// SplitMix64 step, for the seeded random choices.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniformly random legal move.
fn random_move(pos: &Position, seed: &mut u64) -> Move {
    let moves = pos.legal_moves();
    *seed = mix(*seed);
    moves[(*seed % moves.len() as u64) as usize]
}

/// The greedy player's move: most own pieces minus the most of any other player after it.
fn greedy_move(pos: &Position, seed: &mut u64) -> Move {
    let me = pos.to_move();
    let mut best = Vec::new();
    let mut best_value = i64::MIN;
    let mut probe = pos.clone();
    for mv in pos.legal_moves() {
        let undo = probe.play(mv).expect("a legal move");
        let mine = i64::from(probe.score(me));
        let others = probe
            .options()
            .player_list()
            .filter(|&p| p != me)
            .map(|p| i64::from(probe.score(p)))
            .max()
            .unwrap_or(0);
        probe.unmake(undo);
        let value = mine - others;
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    }
    *seed = mix(*seed);
    best[(*seed % best.len() as u64) as usize]
}

/// The bot's results so far.
struct Tally {
    wins: u32,
    shared: u32,
    draws: u32,
    losses: u32,
}

/// Plays the games, a line each, and prints the totals.
///
/// # Errors
/// A records directory that cannot be created (status 1).
pub fn run(cli: &MatchArgs) -> Result<(), Failure> {
    let options = cli.game.options()?;
    let players = u32::from(options.players());
    let cap = options.move_cap();
    let bot_limits = match cli.nodes {
        Some(n) => Limits::nodes(n),
        None => Limits::move_time(cli.movetime),
    };
    let depth2_limits = Limits {
        depth: Some(2),
        ..Limits::move_time(cli.movetime)
    };
    let opponent_level = match cli.opponent {
        Opponent::Level => cli.opponent_level.unwrap_or(Level::MAX),
        _ => Level::MAX,
    };
    let budget = match cli.nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", cli.movetime.as_millis()),
    };
    let multi = players > 2;
    let bot_kind = match cli.search {
        Some(kind) => kind,
        None => {
            let mut probe = Engine::new();
            probe.set_level(cli.level);
            probe.search_kind_for(options.players())
        }
    };
    let mut against = match cli.opponent {
        Opponent::Level => format!("level {opponent_level}"),
        o => format!("{o:?}"),
    };
    if multi && matches!(cli.opponent, Opponent::Level | Opponent::Depth2) {
        let _ = write!(against, " ({})", cli.opponent_search);
    }
    let bot_name = if multi {
        format!("bot level {} ({bot_kind})", cli.level)
    } else {
        format!("bot level {}", cli.level)
    };
    if let Some(dir) = &cli.records {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::failed(format!("cannot create {}: {e}", dir.display())))?;
    }
    println!(
        "# {options}, {bot_name} at {budget} a move against {against}, {} games, seed {}, openings of {} random moves, cap {cap} moves",
        cli.games, cli.seed, cli.opening_plies
    );
    let bar = ProgressBar::new(u64::from(cli.games));
    if let Ok(style) =
        ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed_precise} {msg}")
    {
        bar.set_style(style);
    }
    let mut tally = Tally {
        wins: 0,
        shared: 0,
        draws: 0,
        losses: 0,
    };
    let started = Instant::now();
    let mut bot_time = Duration::ZERO;
    let mut bot_moves = 0u64;
    let mut bot_depths = 0u64;
    let mut shares = Sums::default();
    let mut ranks = Sums::default();
    for n in 0..cli.games {
        let opening = n / players;
        let bot = Player::new((n % players) as u8 + 1).expect("a seat");
        let mut seed = mix(cli.seed ^ u64::from(opening) << 20);
        let mut game = Game::new(options);
        for _ in 0..cli.opening_plies {
            if game.position().is_over() {
                break;
            }
            let mv = random_move(game.position(), &mut seed);
            game.play(mv).expect("a legal move");
        }
        let game_seed = mix(cli.seed ^ 0x5EED ^ u64::from(n));
        let mut bot_engine = Engine::new();
        bot_engine.set_move_cap(Some(cap));
        bot_engine.set_level(cli.level);
        bot_engine.set_seed(game_seed);
        bot_engine.set_search_kind(bot_kind);
        if let Some(c) = cli.mcts_exploration {
            bot_engine.set_mcts_config(MctsConfig {
                exploration: c,
                ..MctsConfig::default()
            });
        }
        let mut opponents: Vec<Engine> = (0..players)
            .map(|i| {
                let mut e = Engine::new();
                e.set_move_cap(Some(cap));
                e.set_level(opponent_level);
                e.set_seed(game_seed ^ u64::from(i + 1));
                e.set_search_kind(cli.opponent_search);
                e
            })
            .collect();
        let mut rng = mix(seed ^ 0xABCD ^ u64::from(n));
        while !game.position().is_over() && (game.moves().len() as u32) < cap {
            let pos = game.position();
            let to_move = pos.to_move();
            let mv = if pos.legal_moves() == [Move::Pass] {
                Move::Pass
            } else if to_move == bot {
                let t = Instant::now();
                let r = bot_engine.search(&game, &bot_limits);
                bot_time += t.elapsed();
                bot_moves += 1;
                bot_depths += u64::from(r.depth);
                r.best_move.expect("a move")
            } else {
                match cli.opponent {
                    Opponent::Random => random_move(pos, &mut rng),
                    Opponent::Greedy => greedy_move(pos, &mut rng),
                    Opponent::Depth2 => opponents[to_move.index()]
                        .search(&game, &depth2_limits)
                        .best_move
                        .expect("a move"),
                    Opponent::Level => opponents[to_move.index()]
                        .search(&game, &bot_limits)
                        .best_move
                        .expect("a move"),
                }
            };
            game.play(mv).expect("players play legal moves");
        }
        let pos = game.position();
        let (outcome, how) = match pos.outcome() {
            Some(o) => (o, "over"),
            None => (Outcome::from_scores(pos.scores()), "capped"),
        };
        let verdict = match outcome {
            Outcome::Draw => {
                tally.draws += 1;
                "draw"
            }
            Outcome::Win(w) if w.contains(bot) && w.len() == 1 => {
                tally.wins += 1;
                "win"
            }
            Outcome::Win(w) if w.contains(bot) => {
                tally.shared += 1;
                "shared"
            }
            Outcome::Win(_) => {
                tally.losses += 1;
                "loss"
            }
        };
        let scores: Vec<i64> = pos.scores().iter().map(|&x| i64::from(x)).collect();
        let placing = placings(&scores)[bot.index()];
        shares.add(placing.share);
        ranks.add(placing.rank);
        let mut scores = String::new();
        for (i, s) in pos.scores().iter().enumerate() {
            let _ = write!(scores, "{}{s}", if i > 0 { "-" } else { "" });
        }
        let line = format!(
            "game {:>3}: opening {opening:>2}, bot is player {bot}, {} moves, {how}, scores {scores}: {verdict}",
            n + 1,
            game.moves().len()
        );
        bar.suspend(|| println!("{line}"));
        bar.inc(1);
        bar.set_message(format!(
            "+{} ={} -{}",
            tally.wins,
            tally.shared + tally.draws,
            tally.losses
        ));
        if let Some(dir) = &cli.records {
            let mut record = game.record();
            if how == "capped" {
                record.result = RecordResult::Capped(outcome);
            }
            let path = dir.join(format!("game-{:03}.txt", n + 1));
            if let Err(e) = crate::play::write_atomically(&path, record.to_string().as_bytes()) {
                eprintln!("error: cannot write {}: {e}", path.display());
            }
        }
    }
    bar.finish_and_clear();
    let games = f64::from(cli.games.max(1));
    let points = f64::from(tally.wins) + 0.5 * f64::from(tally.shared + tally.draws);
    let rate = points / games;
    let half = 1.96 * (rate * (1.0 - rate) / games).sqrt();
    println!(
        "bot: {} wins, {} shared wins, {} draws, {} losses in {} games: wins {:.0} %, score {:.1} % (95 % interval {:.1} to {:.1} %)",
        tally.wins,
        tally.shared,
        tally.draws,
        tally.losses,
        cli.games,
        100.0 * f64::from(tally.wins) / games,
        100.0 * rate,
        100.0 * (rate - half).max(0.0),
        100.0 * (rate + half).min(1.0)
    );
    if let (Some(share), Some(rank)) =
        (shares.wilson(), ranks.t_interval((1.0, f64::from(players))))
    {
        println!(
            "bot: first place {:.1} % (95 % interval {:.1} to {:.1} %; a fair share is {:.1} %), mean rank {:.2} (95 % interval {:.2} to {:.2})",
            100.0 * share.mean,
            100.0 * share.low,
            100.0 * share.high,
            100.0 / f64::from(players),
            rank.mean,
            rank.low,
            rank.high
        );
    }
    println!(
        "bot: {bot_moves} searches, {:.0} ms and depth {:.1} on average; total {:.0} s",
        bot_time.as_secs_f64() * 1000.0 / bot_moves.max(1) as f64,
        bot_depths as f64 / bot_moves.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
