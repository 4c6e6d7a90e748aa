//! Properties of the four-player games (`docs/rules.md` section 7) on random playouts of both
//! variants with random rule options, checked against the reference generator of
//! `common/reference.rs`, which keeps its own control, turn and elimination state: the fast
//! generator lists exactly the reference moves (as sets, no duplicates), make/unmake
//! restores everything, the incremental hash equals the recomputed one, `is_legal` agrees,
//! and so do every seat's moves out of turn (`generate_moves_of`, `is_legal_for`).

use crate::common::SplitMix;
use crate::common::reference::{self, RefState};
use ploy_core::{
    BareCommander, Board, Elimination, Move, MoveList, Outcome, PartnerElimination, Position,
    Rotation, Rules, Seat, SeatSet, Setup, Square, Variant,
};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeSet;

fn set_of(moves: &[Move]) -> BTreeSet<Move> {
    moves.iter().copied().collect()
}

/// Random four-player rules: every option of `docs/rules.md` section 7.
fn any_four_player_rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(relaxed, single, plays_on, removed)| {
            Rules::university()
                .with_elimination(if relaxed {
                    Elimination::Relaxed
                } else {
                    Elimination::Strict
                })
                .with_rotation(if single {
                    Rotation::SingleStep
                } else {
                    Rotation::Any
                })
                .with_partner_elimination(if plays_on {
                    PartnerElimination::PlaysOn
                } else {
                    PartnerElimination::Absorbed
                })
                .with_bare_commander(if removed {
                    BareCommander::Removed
                } else {
                    BareCommander::Stays
                })
        },
    )
}

fn any_four_player_variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::FreeForAll), Just(Variant::Partnership)]
}

/// The position's state equals the reference state.
fn check_state(pos: &Position, state: &RefState) {
    assert_eq!(pos.board(), &state.board, "board in {pos:?}");
    assert_eq!(pos.turn(), state.turn, "turn in {pos:?}");
    for c in Seat::ALL {
        assert_eq!(
            pos.controller(c),
            state.controllers[c.index()],
            "controller of {c} in {pos:?}"
        );
        assert_eq!(
            pos.in_play().contains(c),
            state.in_play[c.index()],
            "{c} in play in {pos:?}"
        );
    }
    assert_eq!(
        pos.outcome().map(Outcome::winners),
        state.winners(),
        "outcome in {pos:?}"
    );
    assert_eq!(pos.is_game_over(), state.decided);
    if !state.decided {
        assert_eq!(Some(pos.mover()), state.player_of(pos.turn()), "mover");
    }
}

/// The fast generator lists exactly the reference moves, without duplicates; its other
/// entry points agree with it.
fn check_generation(pos: &Position, state: &RefState) -> BTreeSet<Move> {
    let fast = pos.legal_moves();
    let fast_set = set_of(&fast);
    assert_eq!(fast_set.len(), fast.len(), "duplicate moves in {pos:?}");
    let reference = set_of(&state.moves());
    if fast_set != reference {
        let extra: Vec<_> = fast_set.difference(&reference).collect();
        let missing: Vec<_> = reference.difference(&fast_set).collect();
        panic!(
            "generator differs from the reference in {pos:?}\nextra {extra:?}\nmissing {missing:?}"
        );
    }
    assert_eq!(pos.count_legal_moves(), fast.len());
    assert!(
        fast.is_sorted_by_key(crate::common::generation_order),
        "generation order in {pos:?}: {:?}",
        fast.iter().collect::<Vec<_>>()
    );
    crate::common::check_board_sets(pos.board());
    let mut appended = MoveList::new();
    appended.push(Move::turn(Square::A1, 0));
    pos.generate_moves(&mut appended);
    assert_eq!(appended[0], Move::turn(Square::A1, 0));
    assert_eq!(set_of(&appended[1..]), fast_set);
    for from in Square::ALL {
        let mine = pos.legal_moves_from(from);
        let expected: BTreeSet<Move> = fast_set
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect();
        assert_eq!(set_of(&mine), expected, "legal_moves_from({from})");
        assert_eq!(mine.len(), expected.len());
    }
    for &mv in &fast_set {
        assert!(
            pos.is_legal(mv),
            "generated {mv:?} is not is_legal in {pos:?}"
        );
    }
    // No stalemate: a player to move always controls a piece that can turn.
    assert_eq!(fast_set.is_empty(), pos.is_game_over(), "moves vs outcome");
    fast_set
}

/// `generate_moves_of` and `is_legal_for` give every seat in play the moves the reference
/// generator finds when a setup hands that seat the turn (the moves another player could
/// answer with out of turn, as Best-Reply Search asks), in generation order.
fn check_moves_of(pos: &Position) {
    for seat in Seat::ALL.into_iter().filter(|&s| pos.in_play().contains(s)) {
        let mut setup = pos.to_setup();
        setup.turn = seat;
        let Ok(turned) = Position::from_setup(setup, pos.rules()) else {
            continue;
        };
        if turned.mover() != seat || turned.is_game_over() {
            continue;
        }
        let reference = set_of(&RefState::of(&turned).moves());
        let mut list = MoveList::new();
        pos.generate_moves_of(seat, &mut list);
        assert_eq!(set_of(&list), reference, "moves of {seat:?} in {pos:?}");
        assert_eq!(list.len(), reference.len());
        assert!(list.is_sorted_by_key(crate::common::generation_order));
        for &mv in &reference {
            assert!(pos.is_legal_for(seat, mv), "{mv:?} of {seat:?} in {pos:?}");
        }
        if seat == pos.mover() {
            assert_eq!(list[..], pos.legal_moves()[..]);
        }
    }
}

/// `is_legal` agrees with the generator on every `(from, to, r)` triple.
fn check_is_legal_exhaustive(pos: &Position, legal: &BTreeSet<Move>) {
    for from in Square::ALL {
        for to in Square::ALL {
            for r in 0..8 {
                let mv = Move::new(from, to, r);
                assert_eq!(pos.is_legal(mv), legal.contains(&mv), "is_legal({mv:?})");
            }
        }
    }
}

/// `attacks` agrees with the reference: the piece's lines, stopping before pieces that are
/// friends of the piece's controller.
fn check_attacks(pos: &Position) {
    let board = pos.board();
    for (sq, p) in board.pieces() {
        let controller = pos.controller(p.colour());
        let friend = |c: Seat| {
            let cc = pos.controller(c);
            cc == controller
                || (pos.variant() == Variant::Partnership
                    && cc == reference::partner_of(controller))
        };
        let expected: BTreeSet<Square> = reference::motion_targets_with(board, sq, &friend)
            .into_iter()
            .collect();
        let got: BTreeSet<Square> = pos.attacks(sq).into_iter().collect();
        assert_eq!(got, expected, "attacks({sq}) in {pos:?}");
    }
}

/// Makes `mv` and checks the result against the reference state after it, the hash and a
/// fresh position from the setup; unmakes it and checks everything is restored.
fn check_make_unmake(pos: &mut Position, state: &RefState, mv: Move) {
    let before = pos.clone();
    let undo = pos.make_move(mv);
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash after {mv:?} in {before:?}"
    );
    check_state(pos, &state.after(mv));
    let fresh = Position::from_setup(pos.to_setup(), pos.rules())
        .unwrap_or_else(|e| panic!("{e} after {mv:?} in {before:?}"));
    assert!(fresh.same_state(pos));
    assert_eq!(fresh.hash(), pos.hash());
    assert_eq!(fresh.mover(), pos.mover());
    assert_eq!(
        fresh.outcome().map(Outcome::winners),
        pos.outcome().map(Outcome::winners)
    );
    let mut checked = before.clone();
    assert!(checked.play(mv).is_ok());
    assert_eq!(&checked, pos);
    pos.unmake_move(mv, undo);
    assert_eq!(*pos, before, "unmake {mv:?}");
    assert_eq!(pos.hash(), before.hash());
}

/// `cases` cases (or `PLOY_PROPTEST_CASES`); failures are saved beside this file
/// (`four_player_properties.regressions`) and rerun first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        // `PLOY_PROPTEST_CASES=5000 cargo test --release -p ploy-core --test ...` for a deep run.
        cases: std::env::var("PLOY_PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// Random playouts from both four-player start positions, preferring captures so that
    /// players are eliminated; the reference follows the game with its own state.
    #[test]
    fn random_four_player_playouts(
        variant in any_four_player_variant(),
        rules in any_four_player_rules(),
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix(seed);
        let mut pos = Position::start(variant, rules);
        let mut state = RefState::of(&pos);
        let mut history = vec![pos.clone()];
        let mut played = Vec::new();
        for ply in 0..400 {
            check_state(&pos, &state);
            assert_eq!(pos.hash(), pos.compute_hash());
            let legal = check_generation(&pos, &state);
            if ply % 32 == 0 {
                check_is_legal_exhaustive(&pos, &legal);
            }
            if ply % 8 == 0 {
                check_attacks(&pos);
                check_moves_of(&pos);
            }
            if legal.is_empty() {
                break;
            }
            let legal: Vec<Move> = legal.into_iter().collect();
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
                .collect();
            // Every capture (where eliminations happen) and a few other moves.
            for &mv in captures.iter().chain(legal.iter().take(6)) {
                check_make_unmake(&mut pos, &state, mv);
            }
            let mv = if !captures.is_empty() && rng.below(4) != 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.make_move(mv);
            state = state.after(mv);
            history.push(pos.clone());
            played.push(mv);
        }
        // Unwinding the whole game restores every earlier position.
        let mut game = ploy_core::Game::from_position(history[0].clone());
        for &mv in &played {
            game.play(mv).expect("legal");
        }
        assert_eq!(game.position(), history.last().unwrap());
        for expected in history.iter().rev().skip(1) {
            game.undo().expect("a move to undo");
            assert_eq!(game.position(), expected);
        }
    }
}

/// A random four-player setup: random armies (within the four-player army) anywhere on the
/// board, random seats out of play with controllers such as play could leave them under
/// `rules`, a random seat to move. Not always valid: the caller filters with `from_setup`.
fn random_setup(rng: &mut SplitMix, variant: Variant, rules: Rules) -> Setup {
    let mut squares: Vec<Square> = Square::ALL.to_vec();
    for i in (1..squares.len()).rev() {
        squares.swap(i, rng.below(i + 1));
    }
    let mut squares = squares.into_iter();
    let out = SeatSet::from_bits(rng.below(16) as u8);
    let in_play = SeatSet::from_bits(SeatSet::ALL.bits() & !out.bits());
    let mut board = Board::empty();
    for colour in Seat::ALL {
        // Players in play keep their commander; others may have lost it.
        let commander = in_play.contains(colour) || rng.below(3) == 0;
        let mut masks: Vec<u8> = Vec::new();
        if commander {
            masks.push(crate::common::masks_with(4)[rng.below(70)]);
        }
        for (flags, max) in [(3u32, 2usize), (2, 3), (1, 3)] {
            let all = crate::common::masks_with(flags);
            for _ in 0..rng.below(max + 1) {
                masks.push(all[rng.below(all.len())]);
            }
        }
        for mask in masks {
            board.put(squares.next().unwrap(), crate::common::piece(colour, mask));
        }
    }
    let in_play_seats: Vec<Seat> = in_play.iter().collect();
    let controllers = Seat::ALL.map(|c| {
        if in_play.contains(c) {
            c
        } else if variant == Variant::FreeForAll {
            if in_play_seats.is_empty() {
                c
            } else {
                in_play_seats[rng.below(in_play_seats.len())]
            }
        } else if rules.partner_elimination == PartnerElimination::PlaysOn {
            c
        } else if in_play.contains(reference::partner_of(c)) || rng.below(2) == 0 {
            reference::partner_of(c)
        } else {
            c
        }
    });
    Setup {
        board,
        variant,
        turn: Seat::ALL[rng.below(4)],
        controllers,
        in_play,
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Random valid four-player setups (and a few plies after them): every check of the
    /// playouts, with every legal move made and unmade.
    #[test]
    fn random_four_player_setups(
        variant in any_four_player_variant(),
        rules in any_four_player_rules(),
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix(seed);
        let mut found = None;
        for _ in 0..64 {
            if let Ok(pos) = Position::from_setup(random_setup(&mut rng, variant, rules), rules) {
                found = Some(pos);
                break;
            }
        }
        let Some(mut pos) = found else {
            return Ok(());
        };
        let mut state = RefState::of(&pos);
        for ply in 0..4 {
            check_state(&pos, &state);
            assert_eq!(pos.hash(), pos.compute_hash());
            let legal = check_generation(&pos, &state);
            if ply == 0 {
                check_is_legal_exhaustive(&pos, &legal);
            }
            check_attacks(&pos);
            for &mv in &legal {
                check_make_unmake(&mut pos, &state, mv);
            }
            let legal: Vec<Move> = legal.into_iter().collect();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            pos.make_move(mv);
            state = state.after(mv);
        }
    }
}

#[test]
fn reference_agrees_at_the_start_positions() {
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        let pos = Position::start(variant, Rules::university());
        let state = RefState::of(&pos);
        let legal = check_generation(&pos, &state);
        assert_eq!(
            legal.len(),
            if variant == Variant::FreeForAll {
                84
            } else {
                86
            }
        );
        check_is_legal_exhaustive(&pos, &legal);
        check_attacks(&pos);
    }
}

/// The playouts reach what they are meant to check: over fixed seeds, every variant and
/// option set sees eliminations and decided games, and the strict rules see players go out
/// with only commanders left.
#[test]
fn playouts_reach_eliminations() {
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        for options in 0..16u32 {
            let rules = Rules::university()
                .with_elimination(if options & 1 != 0 {
                    Elimination::Relaxed
                } else {
                    Elimination::Strict
                })
                .with_rotation(if options & 2 != 0 {
                    Rotation::SingleStep
                } else {
                    Rotation::Any
                })
                .with_partner_elimination(if options & 4 != 0 {
                    PartnerElimination::PlaysOn
                } else {
                    PartnerElimination::Absorbed
                })
                .with_bare_commander(if options & 8 != 0 {
                    BareCommander::Removed
                } else {
                    BareCommander::Stays
                });
            let (mut eliminations, mut bare, mut decided, mut absorbed) = (0, 0, 0, 0);
            for seed in 0..12 {
                let mut rng = SplitMix(seed);
                let mut pos = Position::start(variant, rules);
                for _ in 0..400 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        decided += 1;
                        break;
                    }
                    let captures: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| {
                            !m.is_direction_move() && pos.board().piece_at(m.to()).is_some()
                        })
                        .collect();
                    let mv = if !captures.is_empty() && rng.below(4) != 0 {
                        captures[rng.below(captures.len())]
                    } else {
                        legal[rng.below(legal.len())]
                    };
                    let before = pos.in_play();
                    pos.make_move(mv);
                    for s in Seat::ALL {
                        if before.contains(s) && !pos.in_play().contains(s) {
                            eliminations += 1;
                            if pos.board().count(s, ploy_core::PieceKind::Commander) > 0
                                || options & 8 != 0 && pos.board().count_colour(s) == 0
                            {
                                bare += 1;
                            }
                        }
                    }
                    if pos.turn() != pos.mover() {
                        absorbed += 1;
                    }
                }
            }
            eprintln!(
                "{variant:?} options {options:04b}: {eliminations} eliminations, {bare} bare, \
                 {decided} decided, {absorbed} plies played for a partner"
            );
            assert!(eliminations > 0 && decided > 0, "{variant:?} {options:04b}");
            if variant == Variant::Partnership {
                assert!(
                    absorbed > 0,
                    "a partner plays a seat's turns: {options:04b}"
                );
            }
        }
    }
}

/// The random setups are valid often enough, decided ones and out-of-play seats included.
#[test]
fn random_setups_are_often_valid() {
    let mut rng = SplitMix(7);
    let (mut valid, mut decided, mut someone_out) = (0, 0, 0);
    for i in 0..2000 {
        let variant = if i % 2 == 0 {
            Variant::FreeForAll
        } else {
            Variant::Partnership
        };
        let rules = Rules::university().with_partner_elimination(if i % 4 < 2 {
            PartnerElimination::Absorbed
        } else {
            PartnerElimination::PlaysOn
        });
        if let Ok(pos) = Position::from_setup(random_setup(&mut rng, variant, rules), rules) {
            valid += 1;
            decided += usize::from(pos.is_game_over());
            someone_out += usize::from(pos.in_play() != SeatSet::ALL && !pos.is_game_over());
        }
    }
    eprintln!("{valid} valid, {decided} decided, {someone_out} ongoing with someone out");
    assert!(valid > 400 && decided > 50 && someone_out > 100);
}
