//! Ploy's evaluation against a plain reference: every term of [`EvalParams`] computed the
//! slow, obvious way (each piece walks its lines square by square, sets of squares are
//! sorted vectors), on random positions of every variant, from scratch and kept up to date
//! move by move (made and taken back), with the default weights and with random ones.
//!
//! The reference is the evaluation as it was before it was made incremental; the fast one
//! must give exactly the same value everywhere (the bench's node count depends on it).

use crate::common::{mix, random_playout, random_sparse};
use ploy_core::{
    BareCommander, Elimination, Move, PartnerElimination, PieceKind, Position, Rotation, Rules,
    Seat, Square, Variant,
};
use ploy_engine::{EvalParams, EvalPosition, Evaluation, Paranoid, PlainPosition, PloyGame};
use ploy_search::{Evaluator, SearchGame};
use proptest::prelude::*;

/// The squares a piece on `from` reaches: along each of its directions, up to its range,
/// the empty squares and the first occupied one (of any colour).
fn reach(pos: &Position, from: Square) -> Vec<Square> {
    let piece = pos.board().piece_at(from).expect("a piece");
    let mut out = Vec::new();
    for dir in piece.flags() {
        let mut sq = from;
        for _ in 0..piece.kind().range() {
            let Some(next) = sq.step(dir) else { break };
            sq = next;
            out.push(sq);
            if pos.board().piece_at(sq).is_some() {
                break;
            }
        }
    }
    out
}

/// The evaluation for group `to_move`, the pieces of each colour counting for group
/// `group(colour)` (0 or 1). `four_player`: centre placement only, no advancement.
fn reference(
    p: &EvalParams,
    pos: &Position,
    group: impl Fn(Seat) -> usize,
    to_move: usize,
    four_player: bool,
) -> i32 {
    let board = pos.board();
    let pieces: Vec<_> = board.pieces().collect();
    let kind = |k: PieceKind| k.index();
    // What each group reaches, by kind and in all.
    let mut reached = [
        [Vec::new(), Vec::new(), Vec::new(), Vec::new()],
        Default::default(),
    ];
    for &(sq, piece) in &pieces {
        reached[group(piece.colour())][kind(piece.kind())].extend(reach(pos, sq));
    }
    for by_kind in &mut reached {
        for set in by_kind.iter_mut() {
            set.sort();
            set.dedup();
        }
    }
    let reaches = |g: usize, sq: Square| reached[g].iter().any(|set| set.contains(&sq));
    let owner = |sq: Square| board.piece_at(sq).map(|pc| group(pc.colour()));
    let mut score = [0i32; 2];
    for (c, s) in score.iter_mut().enumerate() {
        let o = c ^ 1;
        for &(sq, piece) in pieces.iter().filter(|(_, pc)| group(pc.colour()) == c) {
            let k = kind(piece.kind());
            let (file, rank) = (i32::from(sq.file()), i32::from(sq.rank()));
            let edge = file.min(8 - file).min(rank).min(8 - rank);
            let advance = if four_player {
                0
            } else if c == 0 {
                rank
            } else {
                8 - rank
            };
            *s += p.material[k] + p.advance[k] * advance + p.centre[k] * edge;
        }
        // The commander's mobility weight is not used.
        for (w, set) in p.mobility.iter().zip(&reached[c]).take(3) {
            let free = set.iter().filter(|&&sq| owner(sq) != Some(c)).count();
            *s += w * free as i32;
        }
        let threatened: i32 = pieces
            .iter()
            .filter(|(sq, pc)| group(pc.colour()) == o && reaches(c, *sq))
            .map(|(_, pc)| p.material[kind(pc.kind())])
            .sum();
        let w = if c == to_move {
            p.threat_to_move
        } else {
            p.threat
        };
        *s += w * threatened / 16;
        let is_own_commander = |sq: Square| {
            board
                .piece_at(sq)
                .is_some_and(|pc| group(pc.colour()) == c && pc.kind() == PieceKind::Commander)
        };
        for &(sq, _) in pieces.iter().filter(|(sq, _)| is_own_commander(*sq)) {
            if reaches(o, sq) {
                *s -= p.commander_attacked;
            }
            let guards = ploy_core::Direction::ALL
                .into_iter()
                .filter_map(|d| sq.step(d))
                .filter(|&n| owner(n) == Some(c) && !is_own_commander(n))
                .count();
            *s += p.commander_guard * guards as i32;
        }
    }
    score[to_move] - score[to_move ^ 1] + p.tempo
}

/// The reference for a two-sided position (two-player, or partnership by teams).
fn reference_sides(p: &EvalParams, pos: &Position) -> i32 {
    let four = pos.variant().is_four_player();
    reference(p, pos, |s| s.index() & 1, pos.turn().index() & 1, four)
}

/// The reference for a free-for-all position searched for `root`.
fn reference_paranoid(p: &EvalParams, pos: &Position, root: Seat) -> i32 {
    let to_move = usize::from(pos.mover() != root);
    reference(
        p,
        pos,
        |s| usize::from(pos.controller(s) != root),
        to_move,
        true,
    )
}

/// Every combination of the rule options, picked by `bits`.
fn rules(bits: u8) -> Rules {
    Rules::standard()
        .with_elimination(if bits & 1 == 0 {
            Elimination::Strict
        } else {
            Elimination::Relaxed
        })
        .with_rotation(if bits & 2 == 0 {
            Rotation::Any
        } else {
            Rotation::SingleStep
        })
        .with_partner_elimination(if bits & 4 == 0 {
            PartnerElimination::Absorbed
        } else {
            PartnerElimination::PlaysOn
        })
        .with_bare_commander(if bits & 8 == 0 {
            BareCommander::Stays
        } else {
            BareCommander::Removed
        })
}

/// A random move of `pos`, a capture two times in three when there is one.
fn pick(pos: &Position, s: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|&m| SearchGame::is_capture(&PlainPosition(pos.clone()), m))
        .collect();
    Some(if !captures.is_empty() && s % 3 != 0 {
        captures[(s >> 8) as usize % captures.len()]
    } else {
        moves[(s >> 8) as usize % moves.len()]
    })
}

/// Random weights, negative ones included.
fn params() -> impl Strategy<Value = EvalParams> {
    let four = || prop::array::uniform4(-300i32..300);
    (
        four(),
        four(),
        four(),
        four(),
        prop::array::uniform5(-200i32..200),
    )
        .prop_map(
            |(material, mobility, advance, centre, [a, b, c, d, e])| EvalParams {
                material,
                mobility,
                advance,
                centre,
                threat: a,
                threat_to_move: b,
                commander_attacked: c,
                commander_guard: d,
                tempo: e,
            },
        )
}

/// Plays a random game of `start`'s variant on a two-sided search game and checks the
/// evaluation against the reference after every move and every take-back.
fn along_game_sides(eval: &Evaluation, start: Position, seed: u64, plies: u32) {
    let p = eval.params();
    let mut g = eval.position(start.clone());
    let mut plain = EvalPosition::new(start.clone());
    let mut s = mix(seed);
    let mut made = Vec::new();
    for _ in 0..plies {
        s = mix(s);
        let Some(mv) = pick(g.position(), s) else {
            break;
        };
        made.push((mv, g.make(mv), plain.make(mv)));
        // Not after every move: what the evaluation caches must survive several moves.
        if g.terminal().is_some() || s >> 60 == 0 {
            continue;
        }
        let want = reference_sides(p, g.position());
        assert_eq!(eval.evaluate(&g), want, "{:?}", g.position());
        assert_eq!(eval.evaluate(&plain), want, "{:?}", g.position());
        assert_eq!(eval.evaluate(g.position()), want, "{:?}", g.position());
    }
    while let Some((mv, undo, plain_undo)) = made.pop() {
        g.unmake(mv, undo);
        plain.unmake(mv, plain_undo);
        s = mix(s);
        if g.terminal().is_none() && s >> 61 != 0 {
            let want = reference_sides(p, g.position());
            assert_eq!(eval.evaluate(&g), want, "{:?}", g.position());
            assert_eq!(eval.evaluate(&plain), want, "{:?}", g.position());
        }
    }
    assert_eq!(g.position(), &start);
}

/// The same for a free-for-all game searched for `root`.
fn along_game_paranoid(eval: &Evaluation, start: Position, root: Seat, seed: u64, plies: u32) {
    let p = eval.params();
    let mut g = Paranoid::for_seat(start.clone(), root);
    let mut s = mix(seed);
    let mut made = Vec::new();
    for _ in 0..plies {
        s = mix(s);
        let Some(mv) = pick(g.position(), s) else {
            break;
        };
        made.push((mv, g.make(mv)));
        if g.terminal().is_none() && s >> 60 != 0 {
            let want = reference_paranoid(p, g.position(), root);
            assert_eq!(eval.evaluate(&g), want, "{:?}", g.position());
        }
    }
    while let Some((mv, undo)) = made.pop() {
        g.unmake(mv, undo);
        s = mix(s);
        if g.terminal().is_none() && s >> 61 != 0 {
            let want = reference_paranoid(p, g.position(), root);
            assert_eq!(eval.evaluate(&g), want, "{:?}", g.position());
        }
    }
    assert_eq!(g.position(), &start);
}

#[test]
fn start_positions_match_the_reference() {
    let eval = Evaluation::default();
    let p = eval.params();
    for variant in [Variant::TwoPlayer, Variant::Partnership] {
        let pos = Position::start(variant, Rules::standard());
        assert_eq!(eval.evaluate(&pos), reference_sides(p, &pos));
        assert_eq!(
            eval.evaluate(&EvalPosition::new(pos.clone())),
            reference_sides(p, &pos)
        );
    }
    let pos = Position::start(Variant::FreeForAll, Rules::standard());
    for root in Seat::ALL {
        let g = Paranoid::for_seat(pos.clone(), root);
        assert_eq!(eval.evaluate(&g), reference_paranoid(p, &pos, root));
    }
    // The two-player start is symmetric: only the tempo remains.
    assert_eq!(eval.evaluate(&Position::new()), p.tempo);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn two_player_games_match_the_reference(seed in any::<u64>(), plies in 0u32..120) {
        along_game_sides(&Evaluation::default(), Position::new(), seed, plies);
    }

    #[test]
    fn two_player_positions_match_the_reference(seed in any::<u64>(), plies in 0u32..150, sparse in 1u32..8) {
        let eval = Evaluation::default();
        for pos in [random_playout(seed, plies), random_sparse(seed, sparse)] {
            if pos.outcome().is_some() {
                continue;
            }
            let want = reference_sides(eval.params(), &pos);
            prop_assert_eq!(eval.evaluate(&pos), want);
            prop_assert_eq!(eval.evaluate(&EvalPosition::new(pos.clone())), want);
            prop_assert_eq!(eval.evaluate(&PloyGame::new(pos.clone())), want);
        }
    }

    #[test]
    fn partnership_games_match_the_reference(seed in any::<u64>(), plies in 0u32..200, rule_bits in 0u8..16) {
        let start = Position::start(Variant::Partnership, rules(rule_bits));
        along_game_sides(&Evaluation::default(), start, seed, plies);
    }

    #[test]
    fn free_for_all_games_match_the_reference(seed in any::<u64>(), plies in 0u32..200, rule_bits in 0u8..16, root in 0u8..4) {
        let start = Position::start(Variant::FreeForAll, rules(rule_bits));
        let root = Seat::from_index(root).expect("seat");
        along_game_paranoid(&Evaluation::default(), start, root, seed, plies);
    }

    /// The coefficients the tuner fits are the evaluation: their sum with the weights is
    /// the value, up to the rounding of the two threat terms (below 1 each).
    #[test]
    fn terms_times_weights_are_the_evaluation(p in params(), seed in any::<u64>(), plies in 0u32..150, partnership in any::<bool>()) {
        let eval = Evaluation::new(p);
        let pos = if partnership {
            let mut pos = Position::start(Variant::Partnership, Rules::standard());
            let mut s = seed;
            for _ in 0..plies {
                s = mix(s);
                let Some(mv) = pick(&pos, s) else { break };
                pos.make_move(mv);
            }
            pos
        } else {
            random_playout(seed, plies)
        };
        prop_assume!(pos.outcome().is_none());
        let sum: f64 = eval
            .terms(&pos)
            .iter()
            .zip(p.to_array())
            .map(|(c, w)| c * f64::from(w))
            .sum();
        let value = f64::from(eval.evaluate(&pos));
        prop_assert!((sum - value).abs() < 2.0, "{} against {} in {:?}", sum, value, pos);
        prop_assert_eq!(EvalParams::from_array(p.to_array()), p);
    }

    #[test]
    fn any_weights_match_the_reference(p in params(), seed in any::<u64>(), plies in 0u32..120, variant in 0u8..3, rule_bits in 0u8..16) {
        let eval = Evaluation::new(p);
        prop_assert_eq!(eval.params(), &p);
        match variant {
            0 => along_game_sides(&eval, Position::new(), seed, plies),
            1 => along_game_sides(&eval, Position::start(Variant::Partnership, rules(rule_bits)), seed, plies),
            _ => {
                let start = Position::start(Variant::FreeForAll, rules(rule_bits));
                let root = Seat::ALL[(seed % 4) as usize];
                along_game_paranoid(&eval, start.clone(), root, seed, plies);
                // Through the one entry point too: the root is the player to move.
                let mut pos = start;
                let mut s = seed;
                for _ in 0..plies / 2 {
                    s = mix(s);
                    let Some(mv) = pick(&pos, s) else { break };
                    pos.make_move(mv);
                }
                let g = eval.game(pos.clone());
                if g.terminal().is_none() {
                    prop_assert_eq!(eval.evaluate(&g), reference_paranoid(&p, &pos, pos.mover()));
                }
            }
        }
    }
}
