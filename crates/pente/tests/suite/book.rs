//! The opening book: found in every orientation, answered by the engine without a search,
//! its text form round-trips, and the committed book holds what `ploy pente book` builds.

use std::sync::Arc;

use crate::common::{RULE_SETS, random_game};
use pente::book::{Book, BookEntry, Symmetry, opening_lines, same_up_to_symmetry};
use pente::{Engine, Level, Limits, Move, Position, Rules, Score, Strength};
use proptest::prelude::*;

fn turned(rules: Rules, s: Symmetry, moves: &[Move]) -> Vec<Move> {
    moves
        .iter()
        .map(|m| Move(s.apply(rules.size, m.point())))
        .collect()
}

/// The committed book, every entry in each of the eight orientations: the book answers
/// the entry's move turned the same way (or, in a position a symmetry maps onto itself,
/// a move the same symmetry group maps the entry's move to).
#[test]
fn the_builtin_book_answers_in_every_orientation() {
    let book = Book::builtin();
    let rules = book.rules();
    assert!(book.len() >= 100, "{} entries", book.len());
    for e in book.entries() {
        for s in Symmetry::ALL {
            let line = turned(rules, s, &e.line);
            let pos = Position::from_moves(rules, &line).unwrap();
            let m = book.probe(&pos).expect("found in every orientation");
            let expected = Move(s.apply(rules.size, e.reply.point()));
            if m != expected {
                // Only a symmetric position may answer another, equivalent move.
                let mut a = pos.clone();
                a.play(m).unwrap();
                let mut b = pos.clone();
                b.play(expected).unwrap();
                assert!(same_up_to_symmetry(&a, &b), "{line:?}: {m} / {expected}");
            }
        }
    }
}

/// The committed book holds one entry for every opening position `ploy pente book`
/// searches (the three-stone openings of the matches and the positions before them).
#[test]
fn the_builtin_book_covers_the_match_openings() {
    let book = Book::builtin();
    for line in opening_lines(book.rules(), 3) {
        let pos = Position::from_moves(book.rules(), &line).unwrap();
        assert!(book.contains(&pos), "{line:?}");
    }
}

/// With a book, full strength answers a book position with the book's move and searches
/// nothing; outside the book, and at levels 1 to 7, it searches as before.
#[test]
fn the_engine_plays_from_the_book_at_full_strength() {
    let book = Book::builtin();
    let e = book.entries().find(|e| e.line.len() == 3).unwrap();
    let rules = book.rules();
    let s = Symmetry::ALL[6];
    let pos = Position::from_moves(rules, &turned(rules, s, &e.line)).unwrap();
    let mut engine = Engine::new(Strength::Full);
    engine.set_book(Some(Arc::clone(&book)));
    let a = engine.search(&pos, &Limits::nodes(50_000), |_| {});
    assert_eq!(
        a.best_move,
        Some(Move(s.apply(rules.size, e.reply.point())))
    );
    assert_eq!((a.nodes, a.score, a.depth), (0, e.score, e.depth));
    assert_eq!(a.pv, [a.best_move.unwrap()]);

    // One move later the game has left the book.
    let mut after = pos.clone();
    after.play(a.best_move.unwrap()).unwrap();
    let reply = after.legal_moves()[0];
    after.play(reply).unwrap();
    if !book.contains(&after) {
        assert!(engine.search(&after, &Limits::nodes(20_000), |_| {}).nodes > 0);
    }

    let mut weaker = Engine::new(Strength::Level(Level::new(5).unwrap()));
    weaker.set_book(Some(Arc::clone(&book)));
    assert!(weaker.search(&pos, &Limits::nodes(20_000), |_| {}).nodes > 0);

    engine.set_book(None);
    assert!(engine.search(&pos, &Limits::nodes(20_000), |_| {}).nodes > 0);
}

/// A book of another board answers nothing.
#[test]
fn a_book_answers_only_its_own_rules() {
    let book = Book::builtin();
    let other = Rules::default().without_tournament_rule();
    let pos = Position::from_moves(other, &["K10".parse().unwrap()]).unwrap();
    assert_eq!(book.probe(&pos), None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random books (entries at the positions of random games, moves a random legal move)
    /// write text that reads back equal, and answer every entry in every orientation; an
    /// entry for a position already held, in any orientation, is refused and changes
    /// nothing.
    #[test]
    fn books_round_trip_and_refuse_duplicates(seed in any::<u64>(), set in 0usize..8, n in 1usize..12) {
        let (size, t) = RULE_SETS[set % RULE_SETS.len()];
        let rules = Rules::new(size).with_tournament_rule(t);
        let mut book = Book::new(rules);
        for k in 0..n {
            let (moves, pos) = random_game(seed.wrapping_add(k as u64), rules, 1 + k * 3 % 20);
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue;
            }
            let entry = BookEntry {
                line: moves,
                reply: legal[(seed as usize).wrapping_add(k) % legal.len()],
                score: Score::new(i16::try_from(k).unwrap() * 7 - 30),
                depth: u32::try_from(k).unwrap(),
                nodes: seed % 1_000_000,
            };
            let before = book.clone();
            if book.insert(entry.clone()).is_err() {
                prop_assert_eq!(&book, &before);
            }
        }
        let again: Book = book.to_string().parse().unwrap();
        prop_assert_eq!(&again, &book);
        for e in book.entries() {
            for s in Symmetry::ALL {
                let pos = Position::from_moves(rules, &turned(rules, s, &e.line)).unwrap();
                let m = book.probe(&pos).unwrap();
                prop_assert!(pos.is_legal(m));
                let dup = BookEntry { line: turned(rules, s, &e.line), ..e.clone() };
                let before = book.clone();
                prop_assert!(book.clone().insert(dup).is_err());
                prop_assert_eq!(&book, &before);
            }
        }
    }
}
