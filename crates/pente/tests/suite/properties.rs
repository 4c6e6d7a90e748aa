//! Properties, crate against crate: the rules against a slow implementation written from
//! the rule book, make/unmake, hashes, the engine's incremental state, the text forms.

use crate::common::{RULE_SETS, Reference, random_game};
use pente::{Game, Move, Point, Position, Record, Rules, SearchPosition};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn rules(i: usize) -> Rules {
    let (size, t) = RULE_SETS[i % RULE_SETS.len()];
    Rules::new(size).with_tournament_rule(t)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every step of a random game: same stones, captures, outcome, turn and legal moves;
    /// random points (on and off the board) are legal in both or in neither.
    #[test]
    fn rules_equal_the_reference(seed in any::<u64>(), set in 0usize..8, plies in 0usize..400) {
        let r = rules(set);
        let (moves, _) = random_game(seed, r, plies);
        let mut pos = Position::new(r);
        let mut reference = Reference::new(r);
        let mut rng = StdRng::seed_from_u64(seed ^ 0xABCD);
        reference.assert_same(&pos);
        for mv in moves {
            for _ in 0..4 {
                let (c, rw) = (rng.random_range(0..19u8), rng.random_range(0..19u8));
                let p = Point::new(c, rw).unwrap();
                prop_assert_eq!(pos.is_legal(Move(p)), reference.is_legal(i32::from(c), i32::from(rw)));
            }
            pos.play(mv).unwrap();
            reference.play(i32::from(mv.point().col()), i32::from(mv.point().row()));
            reference.assert_same(&pos);
        }
        // After the end nothing is legal.
        if pos.is_over() {
            prop_assert!(pos.legal_moves().is_empty());
            prop_assert_eq!(pos.side_to_move(), None);
        }
    }

    /// Make then unmake of every legal move restores the position, hash included; the
    /// incremental hash equals the recomputed one.
    #[test]
    fn make_unmake_restores(seed in any::<u64>(), set in 0usize..8, plies in 0usize..200) {
        let r = rules(set);
        let (_, mut pos) = random_game(seed, r, plies);
        prop_assert_eq!(pos.hash(), pos.compute_hash());
        let before = pos.clone();
        for mv in before.legal_moves() {
            let undo = pos.make(mv);
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            pos.unmake(mv, undo);
            prop_assert_eq!(&pos, &before);
        }
    }

    /// The engine's incremental state equals the state built from scratch, along a game
    /// and after taking moves back.
    #[test]
    fn incremental_state_equals_recomputed(seed in any::<u64>(), set in 0usize..8, plies in 0usize..160) {
        let r = rules(set);
        let (moves, _) = random_game(seed, r, plies);
        let mut g = SearchPosition::new(Position::new(r));
        let mut undos = Vec::new();
        for &mv in &moves {
            undos.push(g.play(mv));
            prop_assert!(g == SearchPosition::new(g.position().clone()));
        }
        for (&mv, undo) in moves.iter().zip(undos).rev() {
            g.take_back(mv, undo);
            prop_assert!(g == SearchPosition::new(g.position().clone()));
        }
        prop_assert!(g == SearchPosition::new(Position::new(r)));
    }

    /// Position strings round-trip and are canonical.
    #[test]
    fn position_strings_round_trip(seed in any::<u64>(), set in 0usize..8, plies in 0usize..300) {
        let r = rules(set);
        let (_, pos) = random_game(seed, r, plies);
        let text = pos.to_string();
        let back: Position = text.parse().unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.to_string(), text);
    }

    /// Records round-trip and replay to the same game.
    #[test]
    fn records_round_trip_and_replay(seed in any::<u64>(), set in 0usize..8, plies in 0usize..300) {
        let r = rules(set);
        let (moves, pos) = random_game(seed, r, plies);
        let game = Game::from_moves(r, &moves).unwrap();
        let record = Record::from_game(&game, "Ann \"the\" first", "Bob\\");
        let text = record.to_string();
        let back: Record = text.parse().unwrap();
        prop_assert_eq!(&back, &record);
        let replayed = back.replay();
        prop_assert_eq!(replayed.position(), &pos);
        prop_assert_eq!(back.to_string(), text);
    }
}

/// The random games above reach what the rules must get right: captures, wins by five and
/// by captures, on every size.
#[test]
fn random_games_cover_both_wins_and_captures() {
    for (set, rule_set) in RULE_SETS.iter().enumerate() {
        let (mut fives, mut tens, mut captures) = (0, 0, 0);
        for seed in 0..40 {
            let (_, pos) = random_game(seed, rules(set), 400);
            if let Some(pente::Outcome::Win { reason, .. }) = pos.outcome() {
                fives += usize::from(reason.has_five());
                tens += usize::from(reason.has_captures());
            }
            captures += usize::from(
                pos.plies() as usize
                    > pos.stones(pente::Color::White) as usize
                        + pos.stones(pente::Color::Black) as usize,
            );
        }
        eprintln!(
            "{:?}: fives {fives}, ten captures {tens}, games with captures {captures}",
            rule_set
        );
        assert!(fives > 0 && tens > 0 && captures > 0, "{:?}", rule_set);
    }
}
