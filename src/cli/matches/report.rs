//! A match's results: the standing after some games, each player's figures and the
//! report written at the end.

use serde_json::json;

use super::{GameResult, Hypothesis, Pentanomial, PlayerStats, Sprt, Tally};

/// The standing of a match after some games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Standing {
    /// The results.
    pub tally: Tally,
    /// The complete pairs.
    pub pairs: Pentanomial,
    /// The SPRT's log-likelihood ratio (with an SPRT).
    pub llr: Option<f64>,
    /// The SPRT's decision, once made.
    pub verdict: Option<Hypothesis>,
    /// Games lost by a fault: A's, B's.
    pub forfeits: [u32; 2],
    /// What A and B did.
    pub stats: [PlayerStats; 2],
}

/// A player of a finished match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerReport {
    /// Its name (the spec's text).
    pub name: String,
    /// What it said about itself (an engine program's `id name`).
    pub about: Option<String>,
    /// What it did in the games counted.
    pub stats: PlayerStats,
}

/// A finished match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The standing at the end.
    pub standing: Standing,
    /// The test, if there was one.
    pub sprt: Option<Sprt>,
    /// Player A.
    pub a: PlayerReport,
    /// Player B.
    pub b: PlayerReport,
}

impl MatchReport {
    /// The JSON object of `--json`.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let s = &self.standing;
        let t = &s.tally;
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
            "llr": self.sprt.and(s.llr),
            "lower_bound": self.sprt.map(|t| t.lower_bound()),
            "upper_bound": self.sprt.map(|t| t.upper_bound()),
            "sprt": s.verdict.map(|h| h.to_string()),
            "pentanomial": s.pairs.counts,
            "forfeits": s.forfeits,
            "a": self.a.name,
            "b": self.b.name,
        })
    }

    /// The summary lines of the text output.
    #[must_use]
    pub fn summary(&self) -> String {
        use std::fmt::Write as _;
        let s = &self.standing;
        let t = &s.tally;
        let mut out = String::new();
        let named = |p: &PlayerReport| match &p.about {
            Some(about) => format!("{} ({about})", p.name),
            None => p.name.clone(),
        };
        let _ = writeln!(out, "A = {}  B = {}", named(&self.a), named(&self.b));
        let _ = writeln!(
            out,
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
                    out,
                    "elo {:+.0} (95 %: {:+.0} to {:+.0}; a perfect score, counted a quarter game short)",
                    e.elo, e.low, e.high
                );
            } else {
                let _ = writeln!(
                    out,
                    "elo {:+.0} +/- {:.0} (95 %: {:+.0} to {:+.0})",
                    e.elo,
                    (e.high - e.low) / 2.0,
                    e.low,
                    e.high
                );
            }
        }
        if s.pairs.pairs() > 0 {
            let _ = writeln!(
                out,
                "pairs {} {} (A's points per pair: 0, 1/2, 1, 3/2, 2)",
                s.pairs.pairs(),
                s.pairs
            );
        }
        if let (Some(sprt), Some(llr)) = (self.sprt, s.llr) {
            let _ = writeln!(
                out,
                "sprt {sprt}: llr {llr:.2} (bounds {:.2} and {:.2}): {}",
                sprt.lower_bound(),
                sprt.upper_bound(),
                match s.verdict {
                    Some(Hypothesis::H0) => format!("H0 accepted (elo {} or less)", sprt.elo0),
                    Some(Hypothesis::H1) => format!("H1 accepted (elo {} or more)", sprt.elo1),
                    None => "no decision".to_owned(),
                }
            );
        }
        if s.forfeits != [0, 0] {
            let _ = writeln!(
                out,
                "forfeits: A {}, B {} (crash, time-out or illegal move)",
                s.forfeits[0], s.forfeits[1]
            );
        }
        write_move_stats(&mut out, [("A", self.a.stats), ("B", self.b.stats)]);
        out
    }
}

/// The progress message: the tally, and the ratio with its bounds.
pub(super) fn progress_message(standing: &Standing, sprt: Option<Sprt>) -> String {
    let t = &standing.tally;
    let mut msg = format!("A +{} ={} -{}", t.wins, t.draws, t.losses);
    if let (Some(sprt), Some(llr)) = (sprt, standing.llr) {
        msg.push_str(&format!(
            " llr {llr:.2} ({:.2}..{:.2})",
            sprt.lower_bound(),
            sprt.upper_bound()
        ));
    }
    msg
}

/// Counts the games of a two-player match in their order: the tally, the pairs (games
/// `2k` and `2k + 1` share an opening), forfeits, the players' figures and the SPRT.
#[derive(Clone, Copy, Debug)]
pub(super) struct Counter {
    /// The standing so far.
    pub standing: Standing,
    /// The test, if there is one.
    sprt: Option<Sprt>,
    /// The result of the first game of a pair whose second is not counted yet.
    first_of_pair: Option<GameResult>,
}

impl Counter {
    /// Nothing counted yet.
    pub fn new(sprt: Option<Sprt>) -> Counter {
        Counter {
            standing: Standing {
                llr: sprt.map(|_| 0.0),
                ..Standing::default()
            },
            sprt,
            first_of_pair: None,
        }
    }

    /// Counts the next game: A's result, who forfeited (0 for A, 1 for B), what A and B
    /// did. Says whether the SPRT has decided.
    pub fn count(
        &mut self,
        result: GameResult,
        forfeit: Option<usize>,
        stats: [PlayerStats; 2],
    ) -> bool {
        let s = &mut self.standing;
        s.tally.add(result);
        if let Some(loser) = forfeit {
            s.forfeits[loser] += 1;
        }
        s.stats[0].add(stats[0]);
        s.stats[1].add(stats[1]);
        match self.first_of_pair.take() {
            None => self.first_of_pair = Some(result),
            Some(first) => {
                s.pairs.add(first, result);
                if let Some(sprt) = self.sprt {
                    let llr = sprt.llr(&s.pairs);
                    s.llr = Some(llr);
                    s.verdict = sprt.verdict(llr);
                    return s.verdict.is_some();
                }
            }
        }
        false
    }
}

/// A line per player with moves: how many, the nodes and the time per move.
pub(super) fn write_move_stats(out: &mut String, players: [(&str, PlayerStats); 2]) {
    use std::fmt::Write as _;
    for (label, stats) in players {
        if stats.moves > 0 && (stats.nodes > 0 || !stats.time.is_zero()) {
            let moves = stats.moves as f64;
            let _ = write!(out, "{label}: {} moves, ", stats.moves);
            if stats.nodes > 0 {
                let _ = write!(out, "{:.0} nodes/move, ", stats.nodes as f64 / moves);
            }
            let _ = writeln!(
                out,
                "{:.1} ms/move",
                stats.time.as_secs_f64() * 1000.0 / moves
            );
        }
    }
}
