//! `ploy pente book`: builds the opening book from the engine's own searches.
//!
//! ```text
//! ploy pente book --out FILE [--nodes N] [--plies P] [--follow] [-j N]
//! ```
//!
//! The positions are those of [`pente::book::opening_lines`] (White's centre, Black's
//! answers within three points, White's second stones: one position for each up to the
//! board's symmetries), up to `--plies` stones; with `--follow` also, after each
//! three-stone position, the position the book's own answer there leads to (White to
//! move: the answer a player of the book meets when the other side plays as it would).
//! Each is searched by a fresh full-strength engine with `--nodes` nodes, and its answer
//! is the book's move. The search is seeded and node-limited, so the same command builds
//! the same book on any machine.
//!
//! The file is rewritten (through a temporary file and a rename) after every position,
//! entries in the order of the positions above; a run that finds `FILE` already holding
//! entries keeps them and searches only the positions missing, so a long build can stop
//! and go on.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use clap::Args;
use pente::book::{Book, BookEntry, opening_lines};
use pente::{Engine, Limits, Move, Position, Rules, Size, Strength};

use crate::cli::Failure;
use crate::cli::output::{progress_bar, thousands};

/// Builds an opening book: searches the first positions of the game with a large node
/// budget and writes the engine's answers to FILE.
#[derive(Args, Clone, Debug)]
pub struct BookArgs {
    /// The book file (read first when it exists: its entries are kept).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Nodes a position.
    #[arg(long, default_value_t = 4_000_000)]
    pub nodes: u64,
    /// The stones on the board in the positions searched: 1 to 3.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub plies: u8,
    /// Also search, after each three-stone position, the position its book move leads to.
    #[arg(long)]
    pub follow: bool,
    /// Positions searched at once.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    pub size: Size,
    /// Build for games without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
}

/// The book being built: an entry (or none yet) for every line, in the lines' order.
struct Building {
    rules: Rules,
    lines: Vec<Vec<Move>>,
    entries: Vec<Option<BookEntry>>,
}

impl Building {
    fn book(&self) -> Book {
        let mut book = Book::new(self.rules);
        for e in self.entries.iter().flatten() {
            // The lines are distinct up to symmetry and legal: insert cannot fail.
            let _ = book.insert(e.clone());
        }
        book
    }
}

/// Builds the book.
///
/// # Errors
/// A book file that does not read, or a failed write.
pub fn run(args: &BookArgs) -> Result<(), Failure> {
    let rules = super::rules(args.size, args.no_tournament_rule);
    let old = match std::fs::read_to_string(&args.out) {
        Ok(text) => {
            let book: Book = text
                .parse()
                .map_err(|e| Failure::failed(format!("{}: {e}", args.out.display())))?;
            if book.rules() != rules {
                return Err(Failure::failed(format!(
                    "{} holds a book for other rules",
                    args.out.display()
                )));
            }
            book
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Book::new(rules),
        Err(e) => return Err(Failure::failed(format!("{}: {e}", args.out.display()))),
    };
    let lines = opening_lines(rules, usize::from(args.plies));
    let mut building = Building {
        rules,
        entries: lines.iter().map(|l| kept(&old, rules, l)).collect(),
        lines,
    };
    // Everything first, then (with --follow) what the book's three-stone answers lead to.
    search_missing(args, &mut building)?;
    if args.follow {
        let book = building.book();
        let mut extra = Vec::new();
        for e in book.entries().filter(|e| e.line.len() == 3) {
            let mut line = e.line.clone();
            line.push(e.reply);
            let pos = Position::from_moves(rules, &line).expect("legal book lines");
            if pos.is_over() || book.contains(&pos) {
                continue;
            }
            let pos_seen = extra.iter().any(|l: &Vec<Move>| {
                let other = Position::from_moves(rules, l).expect("legal");
                pente::book::same_up_to_symmetry(&other, &pos)
            });
            if !pos_seen {
                extra.push(line);
            }
        }
        for line in extra {
            let entry = kept(&old, rules, &line);
            building.lines.push(line);
            building.entries.push(entry);
        }
        search_missing(args, &mut building)?;
    }
    let book = building.book();
    eprintln!(
        "{}: {} positions, {} nodes each",
        args.out.display(),
        book.len(),
        thousands(args.nodes)
    );
    Ok(())
}

/// The entry `old` holds for the position of `line`, turned to `line`'s orientation.
fn kept(old: &Book, rules: Rules, line: &[Move]) -> Option<BookEntry> {
    let pos = Position::from_moves(rules, line).ok()?;
    let (reply, e) = old.probe_entry(&pos)?;
    Some(BookEntry {
        line: line.to_vec(),
        reply,
        ..e.clone()
    })
}

/// Searches every line without an entry, `args.jobs` at once, writing the book after each.
fn search_missing(args: &BookArgs, building: &mut Building) -> Result<(), Failure> {
    let todo: Vec<usize> = (0..building.lines.len())
        .filter(|&i| building.entries[i].is_none())
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    let bar = progress_bar(
        todo.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} positions, eta {eta}",
    );
    let shared = Arc::new(Mutex::new(std::mem::replace(
        building,
        Building {
            rules: building.rules,
            lines: Vec::new(),
            entries: Vec::new(),
        },
    )));
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<Failure>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = todo.get(k) else { break };
                    let (rules, line) = {
                        let b = shared.lock().expect("no panics while locked");
                        (b.rules, b.lines[i].clone())
                    };
                    let entry = search(rules, &line, args.nodes);
                    let mut b = shared.lock().expect("no panics while locked");
                    b.entries[i] = entry;
                    let text = b.book().to_string();
                    if let Err(e) = crate::play::write_atomically(&args.out, text.as_bytes()) {
                        let mut f = failure.lock().expect("no panics while locked");
                        f.get_or_insert(Failure::failed(format!("{}: {e}", args.out.display())));
                        break;
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    *building = Arc::try_unwrap(shared)
        .ok()
        .expect("the threads have ended")
        .into_inner()
        .expect("no panics while locked");
    match failure.into_inner().expect("no panics while locked") {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// The book entry for the position of `line`: a fresh full-strength engine's answer with
/// `nodes` nodes (`None` when the game is over there).
fn search(rules: Rules, line: &[Move], nodes: u64) -> Option<BookEntry> {
    let pos = Position::from_moves(rules, line).ok()?;
    let mut engine = Engine::new(Strength::Full);
    let a = engine.search(&pos, &Limits::nodes(nodes), |_| {});
    Some(BookEntry {
        line: line.to_vec(),
        reply: a.best_move?,
        score: a.score,
        depth: a.depth,
        nodes: a.nodes,
    })
}
