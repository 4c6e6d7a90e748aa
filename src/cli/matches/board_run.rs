//! Running a Pente or Pyloff match: two players are counted as Ploy's two-player matches
//! are (tally, Elo, pairs, SPRT: [`MatchReport`]); three and four players by A's placings
//! ([`MultiReport`], see [the placings](super::placings)).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};

use super::board_match::{BoardPlan, BoardReport, play_board_one};
use super::board_players::{BoardPlayer, board_player, check_board_spec};
use super::boards::{BoardKind, BoardOpenings, read_board_openings};
use super::log::{Entries, MatchLog, stats_from, two_player_entry};
use super::placings::{Placing, PlacingTally};
use super::report::{Counter, progress_message, write_move_stats};
use super::{
    Failure, MatchArgs, MatchReport, PlayerReport, PlayerStats, Standing, make_dir, schedule,
    write_file,
};
use crate::cli::progress_bar;

/// What a match for three or four players counts: A's placings, forfeits, what A and the B
/// players did.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiCount {
    /// A's placings.
    pub tally: PlacingTally,
    /// Games lost by a fault: A's, the B players'.
    pub forfeits: [u32; 2],
    /// What A and the B players (added up) did.
    pub stats: [PlayerStats; 2],
}

impl MultiCount {
    /// Nothing counted yet, for `players` seats.
    #[must_use]
    pub fn new(players: usize) -> MultiCount {
        MultiCount {
            tally: PlacingTally::new(players),
            forfeits: [0, 0],
            stats: [PlayerStats::default(); 2],
        }
    }

    /// Counts a game.
    pub fn count(
        &mut self,
        a_seat: usize,
        placings: &[Placing],
        forfeit: Option<usize>,
        stats: [PlayerStats; 2],
    ) {
        self.tally.add(a_seat, placings);
        if let Some(side) = forfeit {
            self.forfeits[side] += 1;
        }
        self.stats[0].add(stats[0]);
        self.stats[1].add(stats[1]);
    }

    /// Counts a game from its log entry.
    ///
    /// # Errors
    /// A message when the entry has no seat or placings for this many players.
    pub fn count_entry(&mut self, entry: &Value) -> Result<(), String> {
        let n = self.tally.seats.len();
        let bad = || format!("game {}: not a game for {n} players", entry["game"]);
        let seat = entry["seat"]
            .as_u64()
            .and_then(|s| usize::try_from(s).ok())
            .filter(|s| (1..=n).contains(s))
            .ok_or_else(bad)?;
        let placings = entry["placings"]
            .as_array()
            .filter(|p| p.len() == n)
            .ok_or_else(bad)?
            .iter()
            .map(|p| {
                Some(Placing {
                    share: p["share"].as_f64()?,
                    rank: p["rank"].as_f64()?,
                })
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        let forfeit = match entry["forfeit"].as_str() {
            Some("A") => Some(0),
            Some("B") => Some(1),
            _ => None,
        };
        self.count(seat - 1, &placings, forfeit, stats_from(entry));
        Ok(())
    }
}

/// A finished match for three or four players.
#[derive(Clone, Debug)]
pub struct MultiReport {
    /// The game.
    pub kind: BoardKind,
    /// The counts.
    pub count: MultiCount,
    /// Player A.
    pub a: PlayerReport,
    /// The B players (their figures added up).
    pub b: PlayerReport,
}

impl MultiReport {
    /// The JSON object of `--json`: `{"game", "players", "games", "share", "share_low",
    /// "share_high", "fair_share", "b_share", "rank", "rank_low", "rank_high", "fair_rank",
    /// "seats", "forfeits", "a", "b"}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let t = &self.count.tally;
        let n = t.seats.len();
        let share = t.share.wilson();
        let rank = t.rank_estimate();
        json!({
            "game": self.kind.to_string(),
            "players": n,
            "games": t.share.games,
            "share": share.map(|e| e.mean),
            "share_low": share.map(|e| e.low),
            "share_high": share.map(|e| e.high),
            "fair_share": t.fair_share(),
            "b_share": t.b_share.mean(),
            "rank": rank.map(|e| e.mean),
            "rank_low": rank.map(|e| e.low),
            "rank_high": rank.map(|e| e.high),
            "fair_rank": (n as f64 + 1.0) / 2.0,
            "seats": t.seats.iter().enumerate().map(|(i, (s, r))| json!({
                "seat": i + 1,
                "games": s.games,
                "share_sum": s.sum,
                "share": s.mean(),
                "rank": r.mean(),
            })).collect::<Vec<_>>(),
            "forfeits": self.count.forfeits,
            "a": self.a.name,
            "b": self.b.name,
        })
    }

    /// The summary lines of the text output.
    #[must_use]
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let t = &self.count.tally;
        let n = t.seats.len();
        let mut out = String::new();
        let named = |p: &PlayerReport| match &p.about {
            Some(about) => format!("{} ({about})", p.name),
            None => p.name.clone(),
        };
        let _ = writeln!(
            out,
            "A = {}  B = {} in the other {} seats",
            named(&self.a),
            named(&self.b),
            n - 1
        );
        let _ = writeln!(out, "games {} ({})", t.share.games, self.kind);
        if let Some(s) = t.share.wilson() {
            let _ = writeln!(
                out,
                "first place: A {:.3} (95 % Wilson: {:.3} to {:.3}), fair share {:.3}, B {:.3} \
                 in {} seats",
                s.mean,
                s.low,
                s.high,
                t.fair_share(),
                t.b_share.mean().unwrap_or(0.0),
                n - 1
            );
        }
        if let Some(r) = t.rank_estimate() {
            let _ = writeln!(
                out,
                "mean rank: A {:.2} (95 % t: {:.2} to {:.2}), fair {:.2}",
                r.mean,
                r.low,
                r.high,
                (n as f64 + 1.0) / 2.0
            );
        }
        for (i, (s, r)) in t.seats.iter().enumerate() {
            if let (Some(share), Some(rank)) = (s.mean(), r.mean()) {
                let _ = writeln!(
                    out,
                    "A as {}: {} games, first place {share:.3}, mean rank {rank:.2}",
                    self.kind.seat_name(i),
                    s.games
                );
            }
        }
        if self.count.forfeits != [0, 0] {
            let _ = writeln!(
                out,
                "forfeits: A {}, B {} (crash, time-out or illegal move)",
                self.count.forfeits[0], self.count.forfeits[1]
            );
        }
        write_move_stats(&mut out, [("A", self.a.stats), ("B", self.b.stats)]);
        out
    }
}

/// A finished Pente or Pyloff match.
#[derive(Clone, Debug)]
pub enum BoardMatchReport {
    /// Two players: as a Ploy match.
    Two(MatchReport),
    /// Three or four.
    Multi(MultiReport),
}

/// How the games so far stand, for the progress message.
enum Count {
    Two(Counter),
    Multi(MultiCount),
}

/// Plays the match `plan`: `make` gives each worker its players (A, then one B player for
/// each other seat), `names` are A's and B's names; `entries` are games already counted
/// (from a log; the match goes on after them); `on_game` is called after each counted game,
/// in the games' order.
///
/// # Errors
/// Players that cannot be made (status 1), a log entry that is not a game of this match
/// (status 2), or what `on_game` returns.
pub fn play_board_match(
    plan: &BoardPlan,
    names: [&str; 2],
    make: &(dyn Fn() -> Result<Vec<Box<dyn BoardPlayer>>, String> + Sync),
    entries: &Entries,
    mut on_game: impl FnMut(&BoardReport, &str) -> Result<(), Failure>,
) -> Result<BoardMatchReport, Failure> {
    let n = plan.kind.players();
    let mut count = if n == 2 {
        Count::Two(Counter::new(plan.sprt))
    } else {
        Count::Multi(MultiCount::new(n))
    };
    let mut decided = false;
    for e in entries {
        match &mut count {
            Count::Two(c) => {
                let (r, f, s) = two_player_entry(e).map_err(Failure::usage)?;
                decided = c.count(r, f, s);
            }
            Count::Multi(c) => c.count_entry(e).map_err(Failure::usage)?,
        }
    }
    let first = if decided {
        plan.games
    } else {
        entries.len().try_into().unwrap_or(u32::MAX)
    };
    let play = |index: u32, players: &mut Vec<Box<dyn BoardPlayer>>, stop: &AtomicBool| {
        play_board_one(plan, index, players, stop)
    };
    let about = schedule::schedule(first, plan.games, plan.jobs, make, &play, |report| {
        let (decided, message) = match &mut count {
            Count::Two(c) => {
                let d = c.count(report.result(), report.forfeit_side(), report.stats);
                (d, progress_message(&c.standing, plan.sprt))
            }
            Count::Multi(c) => {
                c.count(
                    report.a_seat,
                    &report.placings(),
                    report.forfeit_side(),
                    report.stats,
                );
                let share = c.tally.share.mean().unwrap_or(0.0);
                (false, format!("A first place {share:.3}"))
            }
        };
        on_game(&report, &message)?;
        Ok(decided)
    })?;
    let mut about = about.into_iter();
    let (a_about, b_about) = (about.next().flatten(), about.next().flatten());
    let player = |name: &str, about, stats| PlayerReport {
        name: name.to_owned(),
        about,
        stats,
    };
    Ok(match count {
        Count::Two(c) => {
            let standing: Standing = c.standing;
            BoardMatchReport::Two(MatchReport {
                standing,
                sprt: plan.sprt,
                a: player(names[0], a_about, standing.stats[0]),
                b: player(names[1], b_about, standing.stats[1]),
            })
        }
        Count::Multi(c) => BoardMatchReport::Multi(MultiReport {
            kind: plan.kind,
            a: player(names[0], a_about, c.stats[0]),
            b: player(names[1], b_about, c.stats[1]),
            count: c,
        }),
    })
}

impl MatchArgs {
    /// The Pente or Pyloff match these arguments describe (the openings file read).
    ///
    /// # Errors
    /// A usage [`Failure`] when the openings file cannot be read or has a bad line.
    pub fn board_plan(&self, kind: BoardKind) -> Result<BoardPlan, Failure> {
        let default_plies = match kind {
            BoardKind::Pente(_) => 3,
            BoardKind::Pyloff(_) | BoardKind::PloyFfa(_) => 4,
        };
        let openings = match &self.openings {
            None => BoardOpenings {
                list: Vec::new(),
                seed: self.seed,
                plies: self.opening_plies.unwrap_or(default_plies),
            },
            Some(path) => {
                let shown = path.display();
                let text = ploy_sheet::load_text(path)
                    .map_err(|e| Failure::usage(format!("openings file {shown}: {e}")))?;
                let list = read_board_openings(&text, kind)
                    .map_err(|e| Failure::usage(format!("openings file {shown}: {e}")))?;
                BoardOpenings {
                    list,
                    seed: self.seed,
                    plies: self.opening_plies.unwrap_or(0),
                }
            }
        };
        let sprt = self.sprt();
        if sprt.is_some() && kind.players() > 2 {
            return Err(Failure::usage(
                "--sprt is for two players (a match for three or four reports placings)",
            ));
        }
        Ok(BoardPlan {
            kind,
            games: self
                .games
                .unwrap_or(if sprt.is_some() { 20_000 } else { 20 }),
            openings,
            cap: self.ply_cap.map(|c| c as usize).or(kind.default_cap()),
            sprt,
            jobs: self.jobs,
        })
    }
}

/// Runs a Pente or Pyloff `match` with `args`, writing to standard output.
///
/// # Errors
/// As [`super::run`].
pub(super) fn run_board(args: &MatchArgs, kind: BoardKind) -> Result<(), Failure> {
    let plan = args.board_plan(kind)?;
    for spec in [&args.a, &args.b] {
        check_board_spec(spec, kind).map_err(Failure::usage)?;
    }
    if args.sheets.is_some() {
        return Err(Failure::usage(
            "--sheets is for Ploy matches of two sides; this match has --records",
        ));
    }
    super::check_program_options(args)?;
    if let Some(dir) = &args.records {
        make_dir(dir)?;
    }
    let (mut log, entries) = match &args.log {
        Some(path) => {
            let (log, entries) = MatchLog::open(path, &args.setup_json(), args.resume)?;
            (Some(log), entries)
        }
        None => (None, Vec::new()),
    };
    let names = [args.a.to_string(), args.b.to_string()];
    let time_control = args.time_control();
    let setups = [args.setup(0), args.setup(1)];
    let n = kind.players();
    let cap = plan.cap;
    let make = || -> Result<Vec<Box<dyn BoardPlayer>>, String> {
        let mut players = vec![board_player(&args.a, kind, cap, &setups[0])?];
        for _ in 1..n {
            players.push(board_player(&args.b, kind, cap, &setups[1])?);
        }
        Ok(players)
    };
    let bar = progress_bar(
        u64::from(plan.games),
        "match {pos}/{len} [{bar:12}] {msg} ~{eta} left",
    );
    bar.set_position(entries.len() as u64);
    let width = plan.games.to_string().len().max(3);
    let mut out = std::io::stdout().lock();
    if !args.json && !entries.is_empty() {
        writeln!(out, "({} games counted from the log)", entries.len())?;
    }
    let ext = match kind {
        BoardKind::Pente(_) => "pente",
        BoardKind::Pyloff(_) => "pyloff",
        BoardKind::PloyFfa(_) => "plg",
    };
    let report = play_board_match(
        &plan,
        [&names[0], &names[1]],
        &make,
        &entries,
        |game, message| {
            bar.inc(1);
            bar.set_message(message.to_owned());
            if let Some(log) = &mut log {
                log.append(&game.log_entry())?;
            }
            if let Some(dir) = &args.records {
                let text = game.record_text([&names[0], &names[1]], &time_control);
                write_file(
                    &dir.join(format!("game-{:0width$}.{ext}", game.number)),
                    &text,
                )?;
            }
            if !args.json {
                bar.suspend(|| writeln!(out, "{}", game.line()).and_then(|()| out.flush()))?;
            }
            Ok(())
        },
    );
    bar.finish_and_clear();
    let (json, summary) = match report? {
        BoardMatchReport::Two(r) => (r.to_json(), r.summary()),
        BoardMatchReport::Multi(r) => (r.to_json(), r.summary()),
    };
    if args.json {
        return crate::cli::write_json(&mut out, &json);
    }
    out.write_all(summary.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::matches::{Budget, PlayerSetup, PlayerSpec};

    fn setup(seed: u64) -> PlayerSetup {
        PlayerSetup {
            budget: Budget::Nodes(300),
            seed,
            rules: ploy_core::Rules::standard(),
            timeout: None,
            options: Vec::new(),
        }
    }

    /// Plays `plan` between in-process players; gives the report and the games' records.
    fn play(plan: &BoardPlan, a: &str, b: &str) -> (BoardMatchReport, Vec<String>) {
        let (a_spec, b_spec): (PlayerSpec, PlayerSpec) = (a.parse().unwrap(), b.parse().unwrap());
        let n = plan.kind.players();
        let make = || -> Result<Vec<Box<dyn BoardPlayer>>, String> {
            let mut players = vec![board_player(&a_spec, plan.kind, plan.cap, &setup(1))?];
            for _ in 1..n {
                players.push(board_player(&b_spec, plan.kind, plan.cap, &setup(2))?);
            }
            Ok(players)
        };
        let mut records = Vec::new();
        let report = play_board_match(plan, [a, b], &make, &Vec::new(), |g, _| {
            records.push(g.record_text([a, b], "300 nodes"));
            Ok(())
        })
        .unwrap();
        (report, records)
    }

    #[test]
    fn the_crate_engines_play_in_this_process() {
        let plan = BoardPlan {
            kind: BoardKind::Pente(pente::Rules::new(pente::Size::S9)),
            games: 2,
            openings: BoardOpenings {
                list: Vec::new(),
                seed: 1,
                plies: 3,
            },
            cap: None,
            sprt: None,
            jobs: 1,
        };
        let (report, records) = play(&plan, "full@n300", "random");
        let BoardMatchReport::Two(r) = report else {
            panic!("two players")
        };
        assert_eq!(r.standing.tally.games(), 2);
        assert!(r.a.stats.nodes > 0);
        for text in &records {
            let record: pente::Record = text.parse().unwrap();
            assert!(record.validate().unwrap().outcome().is_some(), "{text}");
        }
    }

    /// Three players on two workers: the same games as on one (a node budget), every seat
    /// to A once per opening.
    #[test]
    fn workers_give_the_games_of_one() {
        let mut plan = BoardPlan {
            kind: BoardKind::Pyloff(pyloff::Options::new(3, 3, pyloff::RuleSet::Default).unwrap()),
            games: 6,
            openings: BoardOpenings {
                list: Vec::new(),
                seed: 5,
                plies: 2,
            },
            cap: Some(30),
            sprt: None,
            jobs: 1,
        };
        let (one, records) = play(&plan, "full@n300", "random");
        plan.jobs = 2;
        let (two, again) = play(&plan, "full@n300", "random");
        // The same records but for the date (a run may cross midnight).
        let undated = |r: &[String]| -> Vec<String> {
            r.iter()
                .map(|t| t.lines().filter(|l| !l.starts_with("# date:")).collect())
                .collect()
        };
        assert_eq!(undated(&records), undated(&again));
        let (BoardMatchReport::Multi(one), BoardMatchReport::Multi(two)) = (one, two) else {
            panic!("three players")
        };
        assert_eq!(one.count.tally, two.count.tally);
        assert!(one.count.tally.seats.iter().all(|(s, _)| s.games == 2));
        for text in &records {
            let record: pyloff::Record = text.parse().unwrap();
            record.replay().unwrap();
        }
    }
}
