//! What the evaluation reads of a position ([`EvalTerms`], the tuner's input) against the
//! rules: captures as counted by the position, a win with one stone found by trying every
//! legal move, the most pairs one stone captures found the same way.

use crate::common::{RULE_SETS, random_game, wins_at_once};
use pente::{EvalTerms, Evaluation, Position, Rules, SearchPosition};
use proptest::prelude::*;

/// The most pairs the player to move captures with one legal stone.
fn most_pairs(pos: &Position) -> u8 {
    let me = pos.turn();
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m).unwrap();
            (next.captures(me) - pos.captures(me)) / 2
        })
        .max()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_terms_are_what_the_rules_say(seed in any::<u64>(), set in 0usize..8, plies in 3usize..120) {
        let (size, t) = RULE_SETS[set % RULE_SETS.len()];
        let (_, pos) = random_game(seed, Rules::new(size).with_tournament_rule(t), plies);
        prop_assume!(!pos.is_over() && pos.plies() >= 3);
        let g = SearchPosition::new(pos.clone());
        let terms = EvalTerms::of(&g);
        let eval = Evaluation::default();
        prop_assert_eq!(eval.value(&g), eval.value_of(&terms));
        prop_assert_eq!(terms.win_now, wins_at_once(&pos));
        if terms.win_now || terms.must_defend {
            return Ok(());
        }
        let me = pos.turn();
        prop_assert_eq!(terms.captured, [pos.captures(me), pos.captures(me.other())]);
        prop_assert_eq!(terms.best_pairs, most_pairs(&pos));
        // A point counts for at most one class per player.
        let empty = pos.legal_moves().len() as u16;
        prop_assert!(terms.attack[1..].iter().sum::<u16>() <= empty);
        prop_assert!(terms.defend[1..].iter().sum::<u16>() <= empty);
    }
}
