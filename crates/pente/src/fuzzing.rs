//! The bodies of the cargo-fuzz targets in `fuzz/` (feature `fuzzing`; not a stable API).
//!
//! Each function takes arbitrary bytes, must never panic on them, and asserts the
//! properties of one parser: text that parses writes canonical text that parses back to
//! the same value; positions and records that parse are consistent (hash, replay, legal
//! moves). The crate's own tests run every body over generated inputs, so that CI
//! exercises them on stable Rust.

use crate::json_lines;
use crate::options::SeedOption;
use crate::{Move, Point, Position, Record, Rules, Size};

fn text(data: &[u8]) -> Option<&str> {
    core::str::from_utf8(data).ok()
}

/// Points and moves: parse, write, parse again.
pub fn point(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(p) = s.parse::<Point>() {
        let canonical = p.to_string();
        assert_eq!(canonical.parse::<Point>().ok(), Some(p));
        assert!(
            s.eq_ignore_ascii_case(&canonical),
            "{s:?} reads as {canonical}"
        );
        assert_eq!(Point::from_code(p.code()), Some(p));
    }
    if let Ok(m) = s.parse::<Move>() {
        assert_eq!(m.to_string().parse::<Move>().ok(), Some(m));
    }
}

/// Position strings: a valid one writes canonical text that reads back equal, its hash
/// is the recomputed one, and every legal move can be made and unmade.
pub fn position_string(data: &[u8]) {
    let Some(s) = text(data) else { return };
    match s.parse::<Position>() {
        Ok(pos) => {
            let canonical = pos.to_string();
            let again: Position = canonical.parse().expect("canonical text reads");
            assert_eq!(again, pos);
            assert_eq!(again.to_string(), canonical);
            assert_eq!(pos.hash(), pos.compute_hash());
            let mut p = pos.clone();
            for mv in pos.legal_moves() {
                let undo = p.make(mv);
                assert_eq!(p.hash(), p.compute_hash());
                p.unmake(mv, undo);
            }
            assert_eq!(p, pos);
            if pos.is_over() {
                assert!(pos.legal_moves().is_empty());
            }
        }
        Err(e) => {
            assert!(e.offset() <= s.len());
            let _ = e.to_string();
        }
    }
}

/// Records: a valid one writes text that reads back equal and replays.
pub fn record(data: &[u8]) {
    let Some(s) = text(data) else { return };
    match s.parse::<Record>() {
        Ok(record) => {
            let written = record.to_string();
            let again: Record = written.parse().expect("written records read");
            assert_eq!(again.rules, record.rules);
            assert_eq!(again.moves, record.moves);
            assert_eq!(again.result, record.result);
            assert_eq!(again.to_string(), written);
            let game = record.validate().expect("read records validate");
            assert_eq!(game.moves(), &record.moves[..]);
        }
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1);
            assert!(e.line <= s.lines().count().max(1) + 1);
            let _ = e.to_string();
        }
    }
}

/// The `moves` line protocol: byte 0 picks the rules (size by its low 3 bits, the
/// tournament rule by bit 3); the rest is the input line. Exactly one line of output, an
/// object with the contract's keys or an error; a line that plays also plays move by move.
pub fn moves_line(data: &[u8]) {
    let Some((&opts, line)) = data.split_first() else {
        return;
    };
    let size = Size::ALL[usize::from(opts & 7) % Size::ALL.len()];
    let rules = Rules::new(size).with_tournament_rule(opts & 8 == 0);
    let answer = json_lines::moves_line(line, rules);
    assert!(!answer.contains('\n'));
    assert!(answer.starts_with("{\"legal\": [") || answer.starts_with("{\"error\": \""));
    assert!(answer.ends_with('}'));
    if let Ok(pos) = json_lines::play_line(line, rules) {
        assert!(answer.contains("\"to_move\": "));
        assert_eq!(pos.is_over(), answer.contains("\"legal\": []"));
    }
}

/// The options in the Prolog program's spelling: parse, write, parse again.
pub fn seed_option(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(o) = s.parse::<SeedOption>() {
        assert_eq!(o.to_string().parse::<SeedOption>().ok(), Some(o));
    }
}

/// Generated inputs for the bodies: canonical texts from seeded playouts, mutated byte by
/// byte, and random strings from the notations' alphabet.
/// Opening books: a book that reads writes text that reads back equal; every entry's move
/// is legal where its line leads and is what the book answers there; errors name a line
/// of the input.
pub fn book(data: &[u8]) {
    use crate::book::{Book, BookError};
    let Some(s) = text(data) else { return };
    match s.parse::<Book>() {
        Ok(book) => {
            let canonical = book.to_string();
            let again: Book = canonical.parse().expect("canonical text reads");
            assert_eq!(again, book);
            for e in book.entries() {
                let pos = Position::from_moves(book.rules(), &e.line).expect("entries replay");
                assert!(pos.is_legal(e.reply));
                assert_eq!(book.probe(&pos), Some(e.reply));
            }
        }
        Err(e) => {
            let line = match &e {
                BookError::Rules { line }
                | BookError::Syntax { line, .. }
                | BookError::Illegal { line, .. }
                | BookError::Duplicate { line, .. } => *line,
            };
            assert!(line <= s.lines().count());
            let _ = e.to_string();
        }
    }
}

#[cfg(test)]
pub(crate) mod inputs {
    use crate::engine::mix64;
    use crate::{Game, Position, Record, Rules, Size};

    const ALPHABET: &[u8] = b"abcdefghjklmnopqrstwABKTw0123456789/ -.[](),\"\\{}*\t\n\r\xff";

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = mix64(self.0);
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    /// Seeds: points, position strings, records, `moves` lines, options.
    fn seeds(rng: &mut Rng) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for i in 0..24 {
            let size = Size::ALL[i % Size::ALL.len()];
            let rules = Rules::new(size).with_tournament_rule(i % 2 == 0);
            let mut pos = Position::new(rules);
            let mut game = Game::new(rules);
            let plies = rng.below(120);
            let mut line = String::new();
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                pos.play(m).expect("legal");
                game.play(m).expect("legal");
                out.push(m.to_string().into_bytes());
                line.push_str(&m.to_string());
                line.push(' ');
            }
            out.push(pos.to_string().into_bytes());
            out.push(
                Record::from_game(&game, "White", "Black")
                    .to_string()
                    .into_bytes(),
            );
            let mut l = vec![(i % 7) as u8 | if i % 2 == 0 { 0 } else { 8 }];
            l.extend_from_slice(line.as_bytes());
            out.push(l);
        }
        let book = "rules 19x19 tournament\nK10 : L11 score 12 depth 20 nodes 3500000\n\
                    K10 L11 N13 : N11 score 254 depth 27 nodes 4146241\n\
                    K10 J9 G9 : H10 score win5 depth 5 nodes 10\n";
        out.push(book.as_bytes().to_vec());
        out.push(b"rules 9 free\n# a comment\n\nE5 : F6 score -3 depth 4 nodes 100\n".to_vec());
        let builtin = crate::book::Book::builtin().to_string();
        out.push(builtin.as_bytes()[..builtin.len().min(600)].to_vec());
        for o in [
            "size(13)",
            "board_size(9).",
            "difficulty(4)",
            "depth(5)",
            "padding(2)",
            "width([4,3,2])",
            "width(3)",
            "flip(true)",
            "rule(false)",
        ] {
            out.push(o.as_bytes().to_vec());
        }
        out
    }

    /// `n` inputs: mutated seeds and random strings.
    pub(crate) fn generate(seed: u64, n: usize) -> Vec<Vec<u8>> {
        let mut rng = Rng(seed);
        let seeds = seeds(&mut rng);
        (0..n)
            .map(|_| {
                if rng.below(7) == 0 {
                    let len = rng.below(12);
                    return (0..len)
                        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                        .collect();
                }
                let mut s = seeds[rng.below(seeds.len())].clone();
                for _ in 0..rng.below(4) {
                    let at = rng.below(s.len() + 1);
                    let byte = ALPHABET[rng.below(ALPHABET.len())];
                    match rng.below(4) {
                        0 if at < s.len() => s[at] = byte,
                        1 => s.insert(at, byte),
                        2 if at < s.len() => {
                            s.remove(at);
                        }
                        _ => s.truncate(at),
                    }
                }
                s
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::inputs::generate;
    use super::*;

    fn run(body: fn(&[u8]), seed: u64) {
        for input in generate(seed, 1500) {
            body(&input);
        }
    }

    #[test]
    fn fuzz_body_point() {
        run(point, 1);
    }

    #[test]
    fn fuzz_body_position_string() {
        run(position_string, 2);
    }

    #[test]
    fn fuzz_body_record() {
        run(record, 3);
    }

    #[test]
    fn fuzz_body_moves_line() {
        run(moves_line, 4);
    }

    #[test]
    fn fuzz_body_seed_option() {
        run(seed_option, 5);
    }

    #[test]
    fn fuzz_body_book() {
        run(book, 6);
    }
}
