//! `ploy bench` and the `bench` example: searches the fixed set of 24 bench positions
//! (`ploy_engine::bench_positions`) to a fixed depth and prints the total node count (a
//! signature that changes only when the search changes) and the speed.
//!
//! Every position gets a fresh searcher (16 MiB table), so the count does not depend on the
//! order or on earlier searches. Output: `nodes N`, `nps N`, `time MS ms`; with `--verbose`
//! a line per position first. With `--json` one object:
//! `{"depth", "signature", "nodes", "seconds", "nps"}` (the signature is the node count),
//! plus `"positions"` (one object per position) with `--verbose`.
//!
//! `--threads N` (N > 1) searches with N threads (Lazy SMP): the node count then sums the
//! threads' and changes from run to run, so it is no signature; the time to reach the depth
//! is what to compare with one thread. The text output then begins with a `threads N` line,
//! the JSON has a `"threads"` key.
//!
//! `--overrun SEARCHES LIMIT` measures instead how far past a hard time limit searches
//! return. The positions and their rules are fixed (the signature would mean nothing
//! otherwise), so `bench` takes no rule flags.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Parser;
use ploy_engine::{EvalPosition, Evaluation, bench_positions};
use ploy_notation::UniversityMove;
use ploy_search::{Config, Driver, Limits, SearchGame, Searcher, nps};
use serde_json::json;

use super::output::{rate, thousands};
use super::{Failure, parse_duration, progress_bar, write_json};

/// Search benchmark: the node count (a signature of the search) and the speed over 24 fixed
/// positions.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(name = "bench", version)]
pub struct BenchArgs {
    /// Search each position this many plies deep.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// The alpha-beta driver (principal variation search in aspiration windows): the
    /// default since the selective search; kept so that older scripts still run.
    #[arg(long, conflicts_with = "mtdf")]
    pub alphabeta: bool,
    /// The MTD(f) driver (zero-window searches from a first guess) instead of the default
    /// alpha-beta driver.
    #[arg(long)]
    pub mtdf: bool,
    /// No principal variation search in the alpha-beta driver.
    #[arg(long)]
    pub no_pvs: bool,
    /// No late move reductions.
    #[arg(long)]
    pub no_lmr: bool,
    /// The first guess (MTD(f)) or the first window's centre (alpha-beta) from the previous
    /// iteration (not the one two plies back).
    #[arg(long)]
    pub previous_guess: bool,
    /// Search threads (Lazy SMP; 1, the default, is deterministic). With more, the node
    /// count is the sum over the threads and varies from run to run: it is no signature,
    /// and the time to reach the depth is the figure to compare.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=ploy_search::MAX_THREADS as i64))]
    pub threads: u32,
    /// A search option by its name in `ploy_search::Config` (`NAME=VALUE`, e.g.
    /// `table_eval=off` or `null_move=off`), after the flags above; repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// A line per position.
    #[arg(long)]
    pub verbose: bool,
    /// Measure instead how far past a hard time limit (`LIMIT`, e.g. `50ms`; a bare number is
    /// milliseconds) `SEARCHES` searches return.
    #[arg(long, num_args = 2, value_names = ["SEARCHES", "LIMIT"])]
    pub overrun: Option<Vec<String>>,
    /// Print one JSON object: {"depth", "signature", "nodes", "seconds", "nps"}.
    #[arg(long)]
    pub json: bool,
}

impl BenchArgs {
    /// The search configuration the flags ask for.
    #[must_use]
    pub fn config(&self) -> Config {
        let mut config = Config {
            threads: self.threads as usize,
            ..Config::default()
        };
        if self.alphabeta {
            config.driver = Driver::AlphaBeta;
        }
        if self.mtdf {
            config.driver = Driver::Mtdf;
        }
        if self.no_lmr {
            config.late_move_reductions = false;
        }
        if self.previous_guess {
            config.guess_from_same_parity = false;
        }
        if self.no_pvs {
            config.pvs = false;
        }
        config
    }

    /// [`BenchArgs::config`] with the `--set` options applied.
    ///
    /// # Errors
    /// A usage failure for an option that is not `NAME=VALUE` or that
    /// `ploy_search::Config::set` refuses.
    pub fn configured(&self) -> Result<Config, Failure> {
        let mut config = self.config();
        for item in &self.set {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| Failure::usage(format!("--set {item}: expected NAME=VALUE")))?;
            config
                .set(name.trim(), value.trim())
                .map_err(|e| Failure::usage(format!("--set {item}: {e}")))?;
        }
        Ok(config)
    }

    /// `--overrun`'s two values.
    fn overrun(&self) -> Result<Option<(u32, Duration)>, Failure> {
        let Some(values) = &self.overrun else {
            return Ok(None);
        };
        let [n, limit] = values.as_slice() else {
            return Err(Failure::usage("--overrun takes SEARCHES and LIMIT"));
        };
        let n: u32 = n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
            Failure::usage(format!(
                "--overrun: `{}` is not a number of searches (1 or more)",
                super::excerpt(n, 40)
            ))
        })?;
        let limit = parse_duration(limit).map_err(|e| Failure::usage(format!("--overrun: {e}")))?;
        Ok(Some((n, limit)))
    }
}

/// One position's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReport {
    /// Legal moves at the root.
    pub moves: usize,
    /// Depth reached.
    pub depth: u32,
    /// The score's text.
    pub score: String,
    /// The best move's university string (`none` if the position is decided).
    pub best: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every bench position to `depth`, showing progress on standard error.
#[must_use]
pub fn measure(config: &Config, depth: u32) -> Vec<PositionReport> {
    let eval = Evaluation::default();
    let positions = bench_positions();
    let bar = progress_bar(
        positions.len() as u64,
        "bench {prefix} [{bar:20}] {pos}/{len} positions, {msg}",
    );
    bar.set_prefix(format!("depth {depth}"));
    let mut reports = Vec::with_capacity(positions.len());
    let (mut nodes, mut time) = (0, Duration::ZERO);
    for pos in positions {
        let mut s = Searcher::new(config.clone(), eval.clone());
        let pos = EvalPosition::new(pos);
        let t = Instant::now();
        let r = s.search(&pos, &[], &Limits::depth(depth), |_| {});
        let dt = t.elapsed();
        nodes += r.nodes;
        time += dt;
        bar.inc(1);
        bar.set_message(format!(
            "{} nodes at {}",
            thousands(nodes),
            rate(nodes, time)
        ));
        reports.push(PositionReport {
            moves: pos.legal_moves().len(),
            depth: r.depth,
            score: r.score.to_string(),
            best: r.best_move.map_or_else(
                || "none".to_owned(),
                |m| UniversityMove::from(m).to_string(),
            ),
            nodes: r.nodes,
            time: dt,
        });
    }
    bar.finish_and_clear();
    reports
}

/// Runs `bench` with `args`, writing to standard output.
///
/// # Errors
/// A usage [`Failure`] for bad `--overrun` values; a failed write.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let config = args.configured()?;
    let mut out = std::io::stdout().lock();
    if let Some((n, limit)) = args.overrun()? {
        return measure_overrun(&config, n, limit, args.json, &mut out);
    }
    let reports = measure(&config, args.depth);
    let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
    let time: Duration = reports.iter().map(|r| r.time).sum();
    if args.json {
        let mut value = json!({
            "depth": args.depth,
            "signature": nodes,
            "nodes": nodes,
            "seconds": time.as_secs_f64(),
            "nps": nps(nodes, time),
        });
        if args.threads > 1 {
            value["threads"] = json!(args.threads);
        }
        if args.verbose {
            value["positions"] = reports
                .iter()
                .map(|r| {
                    json!({
                        "moves": r.moves,
                        "depth": r.depth,
                        "score": r.score,
                        "best": r.best,
                        "nodes": r.nodes,
                        "seconds": r.time.as_secs_f64(),
                    })
                })
                .collect();
        }
        return write_json(&mut out, &value);
    }
    if args.threads > 1 {
        writeln!(out, "threads {}", args.threads)?;
    }
    if args.verbose {
        for (i, r) in reports.iter().enumerate() {
            writeln!(
                out,
                "position {i:2} moves {:3} depth {} score {:>8} best {} nodes {:9} nps {:8} time {} ms",
                r.moves,
                r.depth,
                r.score,
                r.best,
                r.nodes,
                nps(r.nodes, r.time),
                r.time.as_millis()
            )?;
        }
    }
    writeln!(out, "nodes {nodes}")?;
    writeln!(out, "nps {}", nps(nodes, time))?;
    writeln!(out, "time {} ms", time.as_millis())?;
    out.flush()?;
    Ok(())
}

/// Runs `n` searches with a hard limit of `limit` over the bench positions and reports how
/// far past the limit they returned (wall clock, including the time to set the search up
/// and to answer).
fn measure_overrun(
    config: &Config,
    n: u32,
    limit: Duration,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let eval = Evaluation::default();
    let positions: Vec<EvalPosition> = bench_positions()
        .into_iter()
        .map(EvalPosition::new)
        .collect();
    let limits = Limits {
        hard_time: Some(limit),
        soft_time: Some(limit),
        ..Limits::default()
    };
    let bar = progress_bar(
        u64::from(n),
        "overrun [{bar:20}] {pos}/{len} searches, ~{eta} left",
    );
    let mut s = Searcher::new(config.clone(), eval);
    let mut overruns = Vec::with_capacity(n as usize);
    for i in 0..n as usize {
        let pos = &positions[i % positions.len()];
        let t = Instant::now();
        let r = s.search(pos, &[], &limits, |_| {});
        let dt = t.elapsed();
        if !r.best_move.is_some_and(|m| pos.is_legal(m)) {
            return Err(Failure::failed(format!(
                "search {} gave no legal move under a {} ms limit",
                i + 1,
                limit.as_millis()
            )));
        }
        overruns.push(dt.saturating_sub(limit));
        bar.inc(1);
    }
    bar.finish_and_clear();
    overruns.sort();
    let mean = overruns.iter().sum::<Duration>() / n;
    let pct = |p: f64| overruns[((overruns.len() - 1) as f64 * p) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    if json {
        return write_json(
            out,
            &json!({
                "searches": n,
                "limit_ms": ms(limit),
                "overrun_mean_ms": ms(mean),
                "overrun_median_ms": ms(pct(0.5)),
                "overrun_p99_ms": ms(pct(0.99)),
                "overrun_max_ms": ms(pct(1.0)),
            }),
        );
    }
    writeln!(out, "searches {n} limit {} ms", limit.as_millis())?;
    writeln!(
        out,
        "overrun mean {:.3} ms median {:.3} ms p99 {:.3} ms max {:.3} ms",
        ms(mean),
        ms(pct(0.5)),
        ms(pct(0.99)),
        ms(pct(1.0))
    )?;
    out.flush()?;
    Ok(())
}
