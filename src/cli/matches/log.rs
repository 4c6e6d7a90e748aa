//! The match log of `--log FILE`, so that a long match can run across sessions.
//!
//! The file is JSON lines. The first line describes the match:
//! `{"ploy_match_log": 1, "setup": {...}}`, `setup` holding everything that decides which
//! games are played and how they are counted (the game and its options or rules, the
//! players and their options, the budget, the seed, the openings, the cap, the SPRT), but
//! not the number of games, the workers or the outputs. Then one line per game counted, in
//! the games' order, appended and flushed as soon as the game is counted:
//!
//! ```text
//! {"game":1,"opening":"K10 L9 M12","a_seat":"white","result":"win","forfeit":null,
//!  "plies":41,"how":"white wins (five)","stats":{"a":[20,81234,1021],"b":[20,80011,998]}}
//! ```
//!
//! (on one line): `a_seat` is A's seat (`white`, `black`, `green`, `red`, `player 3`),
//! `result` A's `win`, `draw` or `loss` in a two-player game, `forfeit` `"A"`, `"B"` or
//! `null`, `stats` each side's moves, nodes and time in microseconds. A game for three or
//! four players has instead `seat` (A's, from 1), `scores` (by seat: Pente's 1 for the
//! winner, Pyloff's pieces on the board) and `placings` (by seat: `{"share", "rank"}`).
//!
//! Without `--resume`, a log that already holds games is refused (the match does not start
//! and the file is not touched). With `--resume`, the log's setup must be this match's; its
//! games are counted as if just played (their lines are not printed again) and the match
//! goes on from the next game, up to `--games` in all. A last line cut short (a match
//! stopped while writing) is dropped. A match resumed this way, with a depth or node budget,
//! ends with the totals of one run in one go.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::{Failure, GameResult, PlayerStats};

/// The first line's version.
const VERSION: u64 = 1;

/// A match log open for appending.
#[derive(Debug)]
pub struct MatchLog {
    path: PathBuf,
    file: File,
}

/// What a log held when it was opened: the entries of the games counted so far.
pub type Entries = Vec<Value>;

impl MatchLog {
    /// Opens `path` for the match `setup`: a new or empty file gets the first line; with
    /// `resume`, the games already there are given back (checked to be this match's games
    /// 1, 2, ... in order).
    ///
    /// # Errors
    /// A usage failure: a log with games without `resume`, a log of another match, a line
    /// that is not a game entry; a file that cannot be read or written.
    pub fn open(path: &Path, setup: &Value, resume: bool) -> Result<(MatchLog, Entries), Failure> {
        let shown = path.display();
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| Failure::usage(format!("log {shown}: not UTF-8 text")))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Failure::usage(format!("log {shown}: {e}"))),
        };
        // A last line without its line end was cut short: dropped.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut lines = text[..whole].lines();
        let header = json!({"ploy_match_log": VERSION, "setup": setup});
        let mut entries = Vec::new();
        if let Some(first) = lines.next() {
            let found: Value = serde_json::from_str(first).map_err(|_| {
                Failure::usage(format!(
                    "log {shown}: line 1 is not a match log's first line"
                ))
            })?;
            if found.get("ploy_match_log").is_none() {
                return Err(Failure::usage(format!(
                    "log {shown}: line 1 is not a match log's first line"
                )));
            }
            if !resume {
                return Err(Failure::usage(format!(
                    "log {shown} already holds a match: --resume to go on with it, or \
                     another file"
                )));
            }
            if found != header {
                return Err(Failure::usage(format!(
                    "log {shown} is another match's (its setup: {}; this one's: {})",
                    crate::cli::excerpt(&found["setup"].to_string(), 400),
                    crate::cli::excerpt(&setup.to_string(), 400)
                )));
            }
            for (i, line) in lines.enumerate() {
                let entry: Value = serde_json::from_str(line)
                    .map_err(|e| Failure::usage(format!("log {shown}: line {}: {e}", i + 2)))?;
                if entry["game"].as_u64() != Some(i as u64 + 1) {
                    return Err(Failure::usage(format!(
                        "log {shown}: line {} is not game {}",
                        i + 2,
                        i + 1
                    )));
                }
                entries.push(entry);
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Failure::usage(format!("log {shown}: {e}")))?;
        if whole < text.len() {
            file.set_len(whole as u64)
                .map_err(|e| Failure::failed(format!("log {shown}: {e}")))?;
        }
        let mut log = MatchLog {
            path: path.to_owned(),
            file,
        };
        if whole == 0 {
            log.append(&header)?;
        }
        Ok((log, entries))
    }

    /// Appends `entry` as one line, flushed.
    ///
    /// # Errors
    /// A failed write (status 1).
    pub fn append(&mut self, entry: &Value) -> Result<(), Failure> {
        let mut line = entry.to_string();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| Failure::failed(format!("cannot write {}: {e}", self.path.display())))
    }
}

/// What A and B did, as a log entry holds it: `{"a": [moves, nodes, microseconds], "b": ...}`.
#[must_use]
pub fn stats_json(stats: [PlayerStats; 2]) -> Value {
    let one = |s: PlayerStats| json!([s.moves, s.nodes, s.time.as_micros() as u64]);
    json!({"a": one(stats[0]), "b": one(stats[1])})
}

/// A and B's figures back from a log entry.
#[must_use]
pub fn stats_from(entry: &Value) -> [PlayerStats; 2] {
    let one = |v: &Value| PlayerStats {
        moves: v[0].as_u64().unwrap_or(0),
        nodes: v[1].as_u64().unwrap_or(0),
        time: Duration::from_micros(v[2].as_u64().unwrap_or(0)),
    };
    [one(&entry["stats"]["a"]), one(&entry["stats"]["b"])]
}

/// `win`, `draw` or `loss`.
#[must_use]
pub fn result_word(result: GameResult) -> &'static str {
    match result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

/// A two-player entry's result, forfeit side (0 for A, 1 for B) and figures.
///
/// # Errors
/// A message when the entry has no result.
pub fn two_player_entry(
    entry: &Value,
) -> Result<(GameResult, Option<usize>, [PlayerStats; 2]), String> {
    let result = match entry["result"].as_str() {
        Some("win") => GameResult::Win,
        Some("draw") => GameResult::Draw,
        Some("loss") => GameResult::Loss,
        _ => return Err(format!("game {}: no two-player result", entry["game"])),
    };
    let forfeit = match entry["forfeit"].as_str() {
        Some("A") => Some(0),
        Some("B") => Some(1),
        _ => None,
    };
    Ok((result, forfeit, stats_from(entry)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ploy-match-log-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("log.jsonl")
    }

    #[test]
    fn a_log_is_refused_unless_resumed_and_the_same_match() {
        let path = scratch("refuse");
        let setup = json!({"game": "pente", "seed": 1});
        let (mut log, entries) = MatchLog::open(&path, &setup, false).unwrap();
        assert!(entries.is_empty());
        log.append(&json!({"game": 1, "result": "win"})).unwrap();
        drop(log);
        let before = std::fs::read(&path).unwrap();
        assert!(MatchLog::open(&path, &setup, false).is_err());
        assert!(MatchLog::open(&path, &json!({"game": "pente", "seed": 2}), true).is_err());
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "a refusal changes nothing"
        );
        // A line cut short is dropped.
        std::fs::write(&path, [&before[..], b"{\"game\":2,\"res"].concat()).unwrap();
        let (mut log, entries) = MatchLog::open(&path, &setup, true).unwrap();
        assert_eq!(entries.len(), 1);
        log.append(&json!({"game": 2, "result": "loss"})).unwrap();
        drop(log);
        let (_, entries) = MatchLog::open(&path, &setup, true).unwrap();
        assert_eq!(entries[1]["result"], "loss");
        // Games out of order are not this match's.
        std::fs::write(&path, [&before[..], b"{\"game\":5}\n"].concat()).unwrap();
        assert!(MatchLog::open(&path, &setup, true).is_err());
    }

    #[test]
    fn entries_read_back() {
        let stats = [
            PlayerStats {
                moves: 3,
                nodes: 100,
                time: Duration::from_micros(1500),
            },
            PlayerStats::default(),
        ];
        let entry =
            json!({"game": 1, "result": "draw", "forfeit": "B", "stats": stats_json(stats)});
        assert_eq!(
            two_player_entry(&entry).unwrap(),
            (GameResult::Draw, Some(1), stats)
        );
        assert!(two_player_entry(&json!({"game": 1})).is_err());
    }
}
