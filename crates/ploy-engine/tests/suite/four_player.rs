//! Four-player search: partnership as two teams, free-for-all by the paranoid reduction.
//! Every exact configuration returns plain negamax's value and one of its best moves on
//! random positions of both variants under every rule option; hand-built positions; legal
//! moves; determinism.

use crate::common::*;
use ploy_core::{
    BareCommander, Board, Elimination, Flags, Move, PartnerElimination, Piece, Position, Rotation,
    Rules, Seat, SeatSet, Setup, Square, Variant,
};
use ploy_engine::{EvalPosition, Evaluation, Paranoid, PlainPosition, PloyGame, SearchMoves};
use ploy_search::{Config, Evaluator, Limits, SearchGame, Searcher, negamax};
use proptest::prelude::*;

/// Checks every exact configuration against negamax on `pos` at `depth`.
fn check<G, E>(pos: &G, eval: &E, depth: u32, quiescence: Option<u8>)
where
    G: SearchGame + Clone + Send + std::fmt::Debug,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    let (value, best) = negamax(pos, eval, &[], depth, quiescence);
    for (name, config) in exact_configs(quiescence) {
        let mut s = Searcher::new(config, eval.clone());
        let r = s.search(pos, &[], &Limits::depth(depth), |_| {});
        assert_eq!(
            r.score, value,
            "{name} depth {depth} q {quiescence:?} on {pos:?}"
        );
        match r.best_move {
            Some(m) => {
                assert!(pos.is_legal(m), "{name}: illegal {m:?} on {pos:?}");
                assert!(
                    best.contains(&m),
                    "{name}: {m:?} not among {best:?} on {pos:?}"
                );
            }
            None => assert!(best.is_empty(), "{name}: no move on {pos:?}"),
        }
    }
}

/// Every combination of the rule options, picked by `bits`.
pub(crate) fn rules(bits: u8) -> Rules {
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

/// A move of `moves` (not empty) picked by the random `s`: a capture every other time when
/// there is one, so that players get eliminated and colours change hands.
pub(crate) fn pick_move(moves: &[Move], s: u64, is_capture: impl Fn(Move) -> bool) -> Move {
    let captures: Vec<Move> = moves.iter().copied().filter(|&m| is_capture(m)).collect();
    if !captures.is_empty() && s % 2 == 0 {
        captures[(s >> 8) as usize % captures.len()]
    } else {
        moves[(s >> 8) as usize % moves.len()]
    }
}

/// A random playout of `plies` from `variant`'s start, preferring captures two times in
/// three (so players get eliminated and colours change hands).
pub(crate) fn playout(variant: Variant, rule_bits: u8, seed: u64, plies: u32) -> Position {
    let mut pos = Position::start(variant, rules(rule_bits));
    let mut s = mix(seed);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        s = mix(s);
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| SearchGame::is_capture(&PlainPosition(pos.clone()), m))
            .collect();
        let mv = if !captures.is_empty() && s % 3 != 0 {
            captures[(s >> 8) as usize % captures.len()]
        } else {
            moves[(s >> 8) as usize % moves.len()]
        };
        pos.make_move(mv);
    }
    pos
}

/// Material only, in whole pieces, for the side to move: many ties.
fn coarse_teams(g: &EvalPosition) -> i32 {
    let pos = g.position();
    let team = pos.turn().index() & 1;
    Seat::ALL
        .into_iter()
        .map(|c| {
            let n = pos.board().count_colour(c) as i32;
            if c.index() & 1 == team { n } else { -n }
        })
        .sum()
}

/// Root's controlled pieces against the others', for the side to move.
fn coarse_paranoid(g: &Paranoid) -> i32 {
    let pos = g.position();
    let v: i32 = Seat::ALL
        .into_iter()
        .map(|c| {
            let n = pos.board().count_colour(c) as i32;
            if pos.controller(c) == g.root() { n } else { -n }
        })
        .sum();
    if g.side().0 == 0 { v } else { -v }
}

/// Depth 3 only where the tree is small enough for plain negamax in a test.
fn depth_for(pos: &Position, depth: u32) -> u32 {
    if depth == 3 && pos.legal_moves().len() > 60 {
        2
    } else {
        depth
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn partnership_matches_negamax(seed in any::<u64>(), plies in 0u32..160, rule_bits in 0u8..16, depth in 1u32..=3, quiescence in any::<bool>()) {
        let pos = playout(Variant::Partnership, rule_bits, seed, plies);
        let depth = depth_for(&pos, depth);
        let q = quiescence.then_some(2);
        let g = EvalPosition::new(pos.clone());
        check(&g, &(coarse_teams as fn(&EvalPosition) -> i32), depth, q);
        check(&g, &Evaluation::default(), depth, q);
        check(&PloyGame::new(pos), &Evaluation::default(), depth.min(2), q);
    }

    #[test]
    fn free_for_all_matches_negamax(seed in any::<u64>(), plies in 0u32..160, rule_bits in 0u8..16, depth in 1u32..=3, quiescence in any::<bool>()) {
        let pos = playout(Variant::FreeForAll, rule_bits, seed, plies);
        let depth = depth_for(&pos, depth);
        let q = quiescence.then_some(2);
        let g = Paranoid::new(pos.clone());
        check(&g, &(coarse_paranoid as fn(&Paranoid) -> i32), depth, q);
        check(&g, &Evaluation::default(), depth, q);
        check(&PloyGame::new(pos), &Evaluation::default(), depth.min(2), q);
    }

    #[test]
    fn partnership_tracks_match_scratch(seed in any::<u64>(), plies in 0u32..200, rule_bits in 0u8..16) {
        // Incremental evaluation and captures equal the plain position's along a random
        // game (bare commanders taken off the board included), and unwinding restores it.
        let eval = Evaluation::default();
        let start = Position::start(Variant::Partnership, rules(rule_bits));
        let mut pos = EvalPosition::new(start.clone());
        let mut s = mix(seed);
        let mut made = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            s = mix(s);
            let mv = pick_move(&moves, s, |m| pos.is_capture(m));
            made.push((mv, pos.make(mv)));
            if pos.terminal().is_some() { break; }
            prop_assert_eq!(eval.evaluate(&pos), eval.evaluate(pos.position()));
            let (mut a, mut b, mut all) = (SearchMoves::default(), SearchMoves::default(), SearchMoves::default());
            pos.generate_captures(&mut a);
            SearchGame::generate_captures(&PlainPosition(pos.position().clone()), &mut b);
            pos.generate(&mut all);
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.sort();
            b.sort();
            let mut expected: Vec<Move> = all.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            expected.sort();
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(&a, &expected);
        }
        while let Some((mv, undo)) = made.pop() {
            pos.unmake(mv, undo);
            prop_assert_eq!(eval.evaluate(&pos), eval.evaluate(pos.position()));
        }
        prop_assert_eq!(pos.position(), &start);
    }

    #[test]
    fn paranoid_tracks_match_scratch(seed in any::<u64>(), plies in 0u32..200, rule_bits in 0u8..16, root in 0u8..4) {
        // Incremental evaluation equals a fresh wrapper's along a random free-for-all game
        // (colours changing hands, bare commanders taken off the board), and unwinding
        // restores the start.
        let eval = Evaluation::default();
        let start = Position::start(Variant::FreeForAll, rules(rule_bits));
        let root = Seat::from_index(root).expect("seat");
        let mut g = Paranoid::for_seat(start.clone(), root);
        let mut s = mix(seed);
        let mut made = Vec::new();
        let fresh = |g: &Paranoid| Paranoid::for_seat(g.position().clone(), g.root());
        for _ in 0..plies {
            let moves = g.position().legal_moves();
            if moves.is_empty() { break; }
            s = mix(s);
            let mv = pick_move(&moves, s, |m| g.is_capture(m));
            made.push((mv, g.make(mv)));
            if g.terminal().is_none() {
                prop_assert_eq!(eval.evaluate(&g), eval.evaluate(&fresh(&g)));
            }
        }
        while let Some((mv, undo)) = made.pop() {
            g.unmake(mv, undo);
            if g.terminal().is_none() {
                prop_assert_eq!(eval.evaluate(&g), eval.evaluate(&fresh(&g)));
            }
        }
        prop_assert_eq!(g.position(), &start);
    }

    #[test]
    fn four_player_search_plays_legal_moves_deterministically(seed in any::<u64>(), plies in 0u32..120, rule_bits in 0u8..16, ffa in any::<bool>()) {
        let variant = if ffa { Variant::FreeForAll } else { Variant::Partnership };
        let pos = playout(variant, rule_bits, seed, plies);
        let g = PloyGame::new(pos.clone());
        let limits = Limits::nodes(3000);
        let run = || {
            let mut s = Searcher::new(Config { table_bytes: 1 << 16, ..Config::default() }, Evaluation::default());
            s.search(&g, &[], &limits, |_| {})
        };
        let (a, b) = (run(), run());
        prop_assert_eq!(a.best_move, b.best_move);
        prop_assert_eq!(a.score, b.score);
        prop_assert_eq!(a.nodes, b.nodes);
        match a.best_move {
            Some(m) => prop_assert!(pos.is_legal(m)),
            None => prop_assert!(g.terminal().is_some()),
        }
    }
}

fn piece(seat: Seat, mask: u8) -> Piece {
    Piece::new(seat, Flags::new(mask)).expect("valid mask")
}

fn setup(
    variant: Variant,
    pieces: &[(Seat, u8, Square)],
    turn: Seat,
    controllers: [Seat; 4],
    in_play: &[Seat],
) -> Position {
    let mut board = Board::empty();
    for &(seat, mask, sq) in pieces {
        board.put(sq, piece(seat, mask));
    }
    let setup = Setup {
        board,
        variant,
        turn,
        controllers,
        in_play: in_play.iter().copied().collect::<SeatSet>(),
    };
    Position::from_setup(setup, Rules::standard()).expect("valid position")
}

fn finds_win_in_one<G>(g: &G, winning: Move)
where
    G: SearchGame<Move = Move> + Clone + Send + std::fmt::Debug,
    G::Moves: Send,
    Evaluation: Evaluator<G>,
{
    for (name, config) in exact_configs(None) {
        for depth in 1..=2 {
            let mut s = Searcher::new(config.clone(), Evaluation::default());
            let r = s.search(g, &[], &Limits::depth(depth), |_| {});
            assert_eq!(r.best_move, Some(winning), "{name} depth {depth}");
            assert!(r.score.is_win(), "{name} depth {depth}: {:?}", r.score);
        }
    }
}

#[test]
fn free_for_all_commander_capture_in_one() {
    // Green and Red are left; Green took Blue (no pieces left), Red took Yellow. A green
    // lance on e2 looks north at Red's commander on e4.
    let pos = setup(
        Variant::FreeForAll,
        &[
            (Seat::Green, 85, Square::A1),
            (Seat::Green, 0b1000_0011, Square::E2),
            (Seat::Red, 85, Square::E4),
            (Seat::Red, 3, Square::I9),
            (Seat::Yellow, 16, Square::H8),
        ],
        Seat::Green,
        [Seat::Green, Seat::Red, Seat::Red, Seat::Green],
        &[Seat::Green, Seat::Red],
    );
    let capture = Move::new(Square::E2, Square::E4, 0);
    let g = Paranoid::new(pos.clone());
    assert_eq!(g.root(), Seat::Green);
    finds_win_in_one(&g, capture);
    finds_win_in_one(&PloyGame::new(pos), capture);
}

#[test]
fn free_for_all_coalition_and_eliminated_root() {
    // All four in play. Red, to move, is the root; Green's lance on e2 would take Red's
    // commander on e5 as soon as Red's shield on e4 leaves the line (or is taken), so Red
    // must step the commander out of the line.
    let pos = setup(
        Variant::FreeForAll,
        &[
            (Seat::Green, 85, Square::A1),
            (Seat::Green, 0b1000_0011, Square::E2),
            (Seat::Red, 0b0000_0100, Square::E4), // a shield facing east
            (Seat::Red, 85, Square::E5),
            (Seat::Red, 4, Square::A9),
            (Seat::Yellow, 85, Square::I9),
            (Seat::Yellow, 16, Square::H8),
            (Seat::Blue, 85, Square::I1),
            (Seat::Blue, 1, Square::H1),
        ],
        Seat::Red,
        Seat::ALL,
        &Seat::ALL,
    );
    let g = Paranoid::new(pos.clone());
    assert_eq!(g.root(), Seat::Red);
    assert_eq!(g.side().0, 0);
    // The root eliminated while three players go on: a loss, with no moves.
    let mut after = pos.clone();
    for mv in [
        Move::new(Square::E4, Square::F4, 0), // Red's shield steps aside
        Move::new(Square::H8, Square::H7, 0), // Yellow
        Move::new(Square::H1, Square::H2, 0), // Blue
        Move::new(Square::E2, Square::E5, 0), // Green takes Red's commander
    ] {
        after.play(mv).expect("legal");
    }
    assert!(!after.in_play().contains(Seat::Red));
    assert!(after.outcome().is_none());
    let lost = Paranoid::for_seat(after, Seat::Red);
    assert_eq!(
        lost.terminal(),
        Some(ploy_search::Terminal::Win(ploy_search::Side(1)))
    );
    let mut moves = SearchMoves::default();
    lost.generate(&mut moves);
    assert!(moves.is_empty());
    // Searched for Red, the line that loses its commander is avoided.
    let mut s = Searcher::new(Config::exact(), Evaluation::default());
    let r = s.search(&g, &[], &Limits::depth(4), |_| {});
    assert!(!r.score.is_loss(), "{:?} {:?}", r.score, r.pv);
}

#[test]
fn partnership_commander_capture_in_one() {
    // Green + Yellow against Red + Blue; Red is out and Blue plays his turns. A green lance
    // on e2 looks north at Blue's commander on e4: taking it ends the game.
    let pos = setup(
        Variant::Partnership,
        &[
            (Seat::Green, 85, Square::A1),
            (Seat::Green, 0b1000_0011, Square::E2),
            (Seat::Yellow, 85, Square::I9),
            (Seat::Yellow, 16, Square::H8),
            (Seat::Red, 16, Square::B8),
            (Seat::Blue, 85, Square::E4),
            (Seat::Blue, 1, Square::H1),
        ],
        Seat::Green,
        [Seat::Green, Seat::Blue, Seat::Yellow, Seat::Blue],
        &[Seat::Green, Seat::Yellow, Seat::Blue],
    );
    let capture = Move::new(Square::E2, Square::E4, 0);
    finds_win_in_one(&EvalPosition::new(pos.clone()), capture);
    finds_win_in_one(&PlainPosition(pos.clone()), capture);
    finds_win_in_one(&PloyGame::new(pos), capture);
}

#[test]
fn partnership_partner_plays_an_absorbed_turn() {
    // Red's turn, played by Blue (Red is out, Yellow too: Green plays Yellow's). A blue
    // lance on e6 looks south at Green's commander on e4: taking it ends the game, and
    // quiescence sees the capture (captures come from the mover, not the seat to move).
    let pos = setup(
        Variant::Partnership,
        &[
            (Seat::Green, 85, Square::E4),
            (Seat::Green, 1, Square::A1),
            (Seat::Yellow, 16, Square::H8),
            (Seat::Red, 16, Square::B8),
            (Seat::Blue, 85, Square::I1),
            (Seat::Blue, 0b0011_1000, Square::E6),
        ],
        Seat::Red,
        [Seat::Green, Seat::Blue, Seat::Green, Seat::Blue],
        &[Seat::Green, Seat::Blue],
    );
    assert_eq!(pos.mover(), Seat::Blue);
    let capture = Move::new(Square::E6, Square::E4, 0);
    let g = EvalPosition::new(pos.clone());
    let mut caps = SearchMoves::default();
    g.generate_captures(&mut caps);
    assert!(caps.contains(&capture));
    let mut caps = SearchMoves::default();
    SearchGame::generate_captures(&PlainPosition(pos.clone()), &mut caps);
    assert!(caps.contains(&capture));
    finds_win_in_one(&g, capture);
    finds_win_in_one(&PlainPosition(pos), capture);
}

#[test]
fn start_positions_search_to_depth_two() {
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        let g = PloyGame::new(Position::start(variant, Rules::standard()));
        let mut s = Searcher::new(Config::default(), Evaluation::default());
        let r = s.search(&g, &[], &Limits::depth(2), |_| {});
        assert_eq!(r.depth, 2);
        assert!(g.is_legal(r.best_move.expect("moves")));
    }
}
