//! An opening book: positions of the first moves with the move the engine chose for each
//! after a long search of its own.
//!
//! A [`Book`] maps positions to moves. A position is found whatever its orientation: the
//! board's eight symmetries (turns and reflections about the centre) leave the rules,
//! the tournament rule included, unchanged, so the book stores each position once, in a
//! canonical orientation, and turns the stored move back to the orientation asked about.
//!
//! [`Book::builtin`] is the book the engine plays from (19 × 19, tournament rule), built by
//! the engine alone: `ploy pente book` searched every position the book holds with a
//! fixed node budget, far more than a move of a game gets, and kept its answer. Nothing in
//! it comes from another program. Which positions it holds, and what it did in matches, is
//! in the workspace's `docs/pente.md` ("The opening book").
//!
//! # The text form
//!
//! One entry a line: the moves from the empty board that reach the position, a colon, the
//! book's move, and what the search that chose it reported (its score for the player to
//! move, the depth, the nodes); a header line names the rules. Lines starting with `#` and
//! blank lines are skipped.
//!
//! ```text
//! rules 19x19 tournament
//! K10 : L11 score 31 depth 19 nodes 4000000
//! K10 L11 N13 : N11 score 254 depth 27 nodes 4146241
//! ```
//!
//! ```
//! use pente::book::Book;
//! use pente::{Position, Rules};
//!
//! let book: Book = "rules 19x19 tournament\nK10 L11 N12 : M11 score 254 depth 27 nodes 4146241"
//!     .parse()?;
//! let at = |moves: &str| {
//!     let moves: Vec<pente::Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
//!     Position::from_moves(Rules::default(), &moves).unwrap()
//! };
//! assert_eq!(book.probe(&at("K10 L11 N12")), Some("M11".parse()?));
//! // The same position reflected left to right (K is the middle column): the move too.
//! assert_eq!(book.probe(&at("K10 J11 G12")), Some("H11".parse()?));
//! assert_eq!(book.probe(&at("K10 L11 N13")), None);
//! // The text form reads back to the same book.
//! assert_eq!(book.to_string().parse::<Book>()?, book);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

use ploy_search::Score;
use thiserror::Error;

use crate::{Analysis, Color, Move, Point, Position, Rules, Size};

/// The committed book's text (19 × 19, tournament rule).
const BUILTIN: &str = include_str!("../data/book.txt");

/// One of the board's eight symmetries: a turn by a quarter `turns` times after an
/// optional reflection (columns reversed), both about the centre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Symmetry {
    reflect: bool,
    turns: u8,
}

impl Symmetry {
    /// The eight symmetries; the first is the identity.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            reflect: false,
            turns: 0,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                reflect: i >= 4,
                turns: (i % 4) as u8,
            };
            i += 1;
        }
        all
    };

    /// The image of `p` on a board of `size`.
    #[must_use]
    pub fn apply(self, size: Size, p: Point) -> Point {
        let last = size.get() - 1;
        let (mut c, mut r) = (p.col(), p.row());
        if self.reflect {
            c = last - c;
        }
        for _ in 0..self.turns {
            (c, r) = (r, last - c);
        }
        Point::new(c, r).expect("a symmetry keeps a point on the board")
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub fn inverse(self) -> Symmetry {
        if self.reflect {
            // A reflection then turns is its own inverse.
            self
        } else {
            Symmetry {
                reflect: false,
                turns: (4 - self.turns) % 4,
            }
        }
    }
}

/// A position in the canonical orientation: the stones (`code * 2 + colour`, sorted),
/// the captures of each colour and the player to move.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Key {
    stones: Vec<u16>,
    captures: [u8; 2],
    turn: u8,
}

fn key_under(pos: &Position, s: Symmetry) -> Key {
    let size = pos.size();
    let mut stones: Vec<u16> = pos
        .stones_iter()
        .map(|(p, c)| s.apply(size, p).code() * 2 + c.index() as u16)
        .collect();
    stones.sort_unstable();
    Key {
        stones,
        captures: [pos.captures(Color::White), pos.captures(Color::Black)],
        turn: pos.turn().index() as u8,
    }
}

/// The canonical key of `pos` (the least over the symmetries) and a symmetry that maps
/// `pos` onto it.
fn canonical(pos: &Position) -> (Key, Symmetry) {
    Symmetry::ALL
        .iter()
        .map(|&s| (key_under(pos, s), s))
        .min_by(|a, b| a.0.cmp(&b.0))
        .expect("eight symmetries")
}

/// A book entry: how the position was reached and the move chosen there.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BookEntry {
    /// The moves from the empty board to the position, as the entry was made.
    pub line: Vec<Move>,
    /// The book's move in the position reached by `line`.
    pub reply: Move,
    /// The chosen move's score for the player to move, as the search reported it.
    pub score: Score,
    /// The depth that search reached.
    pub depth: u32,
    /// The nodes it searched.
    pub nodes: u64,
}

/// Why a book could not be read or an entry not added.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BookError {
    /// The first line that is not a comment must be `rules SIZE tournament|free`.
    #[error("line {line}: expected `rules SIZE tournament` or `rules SIZE free`")]
    Rules {
        /// The line's number, from 1.
        line: usize,
    },
    /// A line that is not an entry.
    #[error("line {line}: {reason}")]
    Syntax {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A move of the line is illegal where it is played, or the position is over.
    #[error("line {line}: {reason}")]
    Illegal {
        /// The line's number, from 1 (0 for an entry added by [`Book::insert`]).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Two entries for one position (in any orientation).
    #[error("line {line}: the position of `{moves}` is in the book already")]
    Duplicate {
        /// The line's number, from 1 (0 for an entry added by [`Book::insert`]).
        line: usize,
        /// The line's moves.
        moves: String,
    },
}

/// An opening book for one set of rules (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Book {
    rules: Rules,
    /// Entries in the order they were added (the text form keeps it).
    entries: Vec<BookEntry>,
    /// Canonical key → index in `entries`, with the reply in the canonical orientation.
    index: HashMap<Key, (usize, Move)>,
}

impl PartialEq for Book {
    fn eq(&self, other: &Book) -> bool {
        self.rules == other.rules && self.entries == other.entries
    }
}

impl Eq for Book {}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Book {
    /// An empty book for `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Book {
        Book {
            rules,
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The book the engine plays from: 19 × 19 with the tournament rule, built by the
    /// engine's own searches (read once, on first use).
    #[must_use]
    pub fn builtin() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        Arc::clone(
            BOOK.get_or_init(|| Arc::new(BUILTIN.parse().expect("the committed book reads"))),
        )
    }

    /// The rules of the book's positions.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = &BookEntry> + '_ {
        self.entries.iter()
    }

    /// Adds an entry.
    ///
    /// # Errors
    /// [`BookError::Illegal`] when a move of `entry.line` or `entry.reply` is illegal or
    /// the position is over, [`BookError::Duplicate`] when the book holds the position
    /// already (in any orientation); the book is then unchanged.
    pub fn insert(&mut self, entry: BookEntry) -> Result<(), BookError> {
        self.insert_at(entry, 0)
    }

    fn insert_at(&mut self, entry: BookEntry, line: usize) -> Result<(), BookError> {
        let pos =
            Position::from_moves(self.rules, &entry.line).map_err(|(i, e)| BookError::Illegal {
                line,
                reason: format!("move {} ({}): {e}", i + 1, entry.line[i]),
            })?;
        if let Err(e) = pos.check(entry.reply) {
            return Err(BookError::Illegal {
                line,
                reason: format!("the reply {}: {e}", entry.reply),
            });
        }
        let (key, s) = canonical(&pos);
        if self.index.contains_key(&key) {
            return Err(BookError::Duplicate {
                line,
                moves: moves_text(&entry.line),
            });
        }
        let reply = Move(s.apply(self.rules.size, entry.reply.point()));
        self.index.insert(key, (self.entries.len(), reply));
        self.entries.push(entry);
        Ok(())
    }

    /// The book's move in `pos`, in `pos`'s orientation; `None` when the book does not
    /// hold the position (or holds other rules).
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Move> {
        self.probe_entry(pos).map(|(m, _)| m)
    }

    /// The book's move in `pos` with the entry it comes from (whose `line` may reach
    /// `pos` in another orientation).
    #[must_use]
    pub fn probe_entry(&self, pos: &Position) -> Option<(Move, &BookEntry)> {
        if pos.rules() != self.rules || pos.is_over() {
            return None;
        }
        let (key, s) = canonical(pos);
        let &(i, reply) = self.index.get(&key)?;
        let m = Move(s.inverse().apply(self.rules.size, reply.point()));
        debug_assert!(pos.is_legal(m));
        Some((m, &self.entries[i]))
    }

    /// The engine's answer from the book in `pos`: its move, with the score and depth
    /// of the search that chose it, no nodes and no time.
    pub(crate) fn answer(&self, pos: &Position) -> Option<Analysis> {
        let (m, e) = self.probe_entry(pos)?;
        Some(Analysis {
            best_move: Some(m),
            score: e.score,
            depth: e.depth,
            pv: vec![m],
            nodes: 0,
            time: std::time::Duration::ZERO,
            by_threats: false,
        })
    }

    /// Whether the book holds `pos` (in any orientation).
    #[must_use]
    pub fn contains(&self, pos: &Position) -> bool {
        self.probe(pos).is_some()
    }
}

/// Whether `a` and `b` are the same position up to the board's symmetries (same rules,
/// and one of the eight [`Symmetry`]s maps one onto the other): the book stores such
/// positions once.
#[must_use]
pub fn same_up_to_symmetry(a: &Position, b: &Position) -> bool {
    a.rules() == b.rules() && canonical(a).0 == canonical(b).0
}

/// The positions `ploy pente book` searches for the book: from the empty board of
/// `rules`, White's centre, every answer of Black within three points of the centre, and
/// every second stone of White within three points (with the tournament rule, exactly
/// three), up to `plies` moves (1 to 3); one line of moves for each position up to
/// symmetry, shortest first. These are the three-stone openings `ploy match` draws for
/// Pente, and the positions before them.
#[must_use]
pub fn opening_lines(rules: Rules, plies: usize) -> Vec<Vec<Move>> {
    let centre = rules.size.centre();
    let near: Vec<Point> = rules
        .size
        .points_iter()
        .filter(|p| p.distance(centre) <= 3)
        .collect();
    let mut out: Vec<Vec<Move>> = Vec::new();
    let mut frontier: Vec<Vec<Move>> = vec![Vec::new()];
    for ply in 0..plies.min(3) {
        let mut seen: HashSet<Key> = HashSet::new();
        let mut next = Vec::new();
        for line in &frontier {
            let pos = Position::from_moves(rules, line).expect("legal lines");
            let candidates: Vec<Point> = if ply == 0 { vec![centre] } else { near.clone() };
            for p in candidates {
                if !pos.is_legal(Move(p)) {
                    continue;
                }
                let mut l = line.clone();
                l.push(Move(p));
                let after = Position::from_moves(rules, &l).expect("legal");
                if after.is_over() {
                    continue;
                }
                if seen.insert(canonical(&after).0) {
                    next.push(l);
                }
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = if self.rules.tournament_rule {
            "tournament"
        } else {
            "free"
        };
        writeln!(f, "rules {0}x{0} {mode}", self.rules.size)?;
        for e in &self.entries {
            let line = moves_text(&e.line);
            let sep = if line.is_empty() { "" } else { " " };
            writeln!(
                f,
                "{line}{sep}: {} score {} depth {} nodes {}",
                e.reply,
                score_text(e.score),
                e.depth,
                e.nodes
            )?;
        }
        Ok(())
    }
}

/// A score as one word: the evaluation, `win5`, `loss4`.
fn score_text(s: Score) -> String {
    s.to_string().replace(' ', "")
}

fn read_score(text: &str) -> Option<Score> {
    if let Some(n) = text.strip_prefix("win") {
        n.parse().ok().filter(|&n| n <= 200).map(Score::win_in)
    } else if let Some(n) = text.strip_prefix("loss") {
        n.parse().ok().filter(|&n| n <= 200).map(Score::loss_in)
    } else {
        let v: i16 = text.parse().ok()?;
        let s = Score::new(v);
        (!s.is_win() && !s.is_loss()).then_some(s)
    }
}

fn read_rules(text: &str) -> Option<Rules> {
    let mut words = text.split_whitespace();
    if words.next()? != "rules" {
        return None;
    }
    let size: Size = words.next()?.parse().ok()?;
    let tournament = match words.next()? {
        "tournament" => true,
        "free" => false,
        _ => return None,
    };
    words
        .next()
        .is_none()
        .then(|| Rules::new(size).with_tournament_rule(tournament))
}

fn read_entry(text: &str, line: usize) -> Result<BookEntry, BookError> {
    let bad = |reason: &str| BookError::Syntax {
        line,
        reason: reason.to_string(),
    };
    let (moves, rest) = text.split_once(':').ok_or_else(|| bad("no `:`"))?;
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| m.parse().map_err(|e| bad(&format!("`{m}`: {e}"))))
        .collect::<Result<_, _>>()?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [reply, "score", score, "depth", depth, "nodes", nodes] = words[..] else {
        return Err(bad("expected `: MOVE score S depth D nodes N`"));
    };
    Ok(BookEntry {
        line: moves,
        reply: reply.parse().map_err(|e| bad(&format!("`{reply}`: {e}")))?,
        score: read_score(score).ok_or_else(|| bad(&format!("bad score `{score}`")))?,
        depth: depth
            .parse()
            .map_err(|_| bad(&format!("bad depth `{depth}`")))?,
        nodes: nodes
            .parse()
            .map_err(|_| bad(&format!("bad nodes `{nodes}`")))?,
    })
}

impl FromStr for Book {
    type Err = BookError;

    fn from_str(s: &str) -> Result<Book, BookError> {
        let mut book: Option<Book> = None;
        for (i, text) in s.lines().enumerate() {
            let line = i + 1;
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            match &mut book {
                None => {
                    book = Some(Book::new(
                        read_rules(text).ok_or(BookError::Rules { line })?,
                    ))
                }
                Some(b) => b.insert_at(read_entry(text, line)?, line)?,
            }
        }
        book.ok_or(BookError::Rules { line: 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rules: Rules, moves: &str) -> Position {
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        Position::from_moves(rules, &moves).unwrap()
    }

    #[test]
    fn symmetries_are_a_group_of_eight_that_fix_the_centre() {
        let size = Size::S19;
        let p: Point = "M13".parse().unwrap();
        let images: std::collections::HashSet<Point> =
            Symmetry::ALL.iter().map(|s| s.apply(size, p)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            assert_eq!(s.apply(size, size.centre()), size.centre());
            for q in size.points_iter() {
                assert_eq!(s.inverse().apply(size, s.apply(size, q)), q);
                assert_eq!(
                    s.apply(size, q).distance(size.centre()),
                    q.distance(size.centre())
                );
            }
        }
    }

    #[test]
    fn the_builtin_book_reads_and_every_move_is_legal() {
        let book = Book::builtin();
        assert_eq!(book.rules(), Rules::default());
        for e in book.entries() {
            let pos = Position::from_moves(book.rules(), &e.line).unwrap();
            assert!(pos.is_legal(e.reply));
            assert_eq!(book.probe(&pos), Some(e.reply));
        }
    }

    #[test]
    fn the_openings_are_the_match_openings_up_to_symmetry() {
        let rules = Rules::default();
        let lines = opening_lines(rules, 3);
        // The centre; 9 answers up to symmetry (offsets 0 <= dy <= dx <= 3 but not 0, 0).
        assert_eq!(lines.iter().filter(|l| l.len() == 1).count(), 1);
        assert_eq!(lines.iter().filter(|l| l.len() == 2).count(), 9);
        let threes: Vec<Position> = lines
            .iter()
            .filter(|l| l.len() == 3)
            .map(|l| Position::from_moves(rules, l).unwrap())
            .collect();
        // No two are the same position turned or reflected.
        for (i, a) in threes.iter().enumerate() {
            for b in &threes[i + 1..] {
                assert!(!same_up_to_symmetry(a, b));
            }
        }
        // Every three-stone opening of the match generator is one of them.
        let centre = rules.size.centre();
        let near: Vec<Point> = rules
            .size
            .points_iter()
            .filter(|p| p.distance(centre) <= 3)
            .collect();
        for &b in &near {
            for &w in &near {
                let Ok(pos) = Position::from_moves(rules, &[Move(centre), Move(b), Move(w)]) else {
                    continue;
                };
                assert!(threes.iter().any(|t| same_up_to_symmetry(t, &pos)));
            }
        }
    }

    #[test]
    fn errors_name_the_line() {
        let bad = "rules 19x19 tournament\nK10 : L11 score 3 depth 4 nodes 5\nK10 : M12 score 3 depth 4 nodes 5\n";
        assert!(matches!(
            bad.parse::<Book>(),
            Err(BookError::Duplicate { line: 3, .. })
        ));
        assert!(matches!(
            "rules 19x19 tournament\nK10 : K10 score 1 depth 1 nodes 1".parse::<Book>(),
            Err(BookError::Illegal { line: 2, .. })
        ));
        assert!(matches!(
            "K10 : L11".parse::<Book>(),
            Err(BookError::Rules { line: 1 })
        ));
        assert!(matches!(
            "rules 19x19 tournament\nK10 L11".parse::<Book>(),
            Err(BookError::Syntax { line: 2, .. })
        ));
        assert!(matches!(
            "".parse::<Book>(),
            Err(BookError::Rules { line: 0 })
        ));
        // The tournament rule: White's second stone within two points of the centre.
        assert!(matches!(
            "rules 19x19 tournament\nK10 L11 : L10 score 1 depth 1 nodes 1".parse::<Book>(),
            Err(BookError::Illegal { line: 2, .. })
        ));
    }

    #[test]
    fn a_symmetric_position_answers_a_legal_move_in_every_orientation() {
        let rules = Rules::default();
        let mut book = Book::new(rules);
        book.insert(BookEntry {
            line: vec!["K10".parse().unwrap()],
            reply: "L11".parse().unwrap(),
            score: Score::new(10),
            depth: 3,
            nodes: 100,
        })
        .unwrap();
        let pos = at(rules, "K10");
        let m = book.probe(&pos).unwrap();
        assert_eq!(m.point().distance(rules.size.centre()), 1);
        assert!(
            m.point().col() != 9 && m.point().row() != 9,
            "a diagonal neighbour"
        );
        assert_eq!(
            book.probe(&at(rules.without_tournament_rule(), "K10")),
            None
        );
    }
}
