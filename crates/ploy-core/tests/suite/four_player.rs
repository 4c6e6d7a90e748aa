//! Four-player rules (`docs/rules.md` section 7): scripted games through each
//! elimination path, checking control, turns and outcome after every move, and make/unmake
//! with hashes along the way.

use ploy_core::{
    BareCommander, Board, Elimination, Flags, Move, Outcome, PartnerElimination, Piece, Position,
    Rules, Seat, SeatSet, Setup, Square, Variant, WinReason,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;
const Y: Seat = Seat::Yellow;
const B: Seat = Seat::Blue;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    let b = s.as_bytes();
    Move::new(sq(&s[0..2]), sq(&s[3..5]), b[6] - b'0')
}

fn setup(variant: Variant, pieces: &[(Seat, &str, u8)]) -> Setup {
    let mut board = Board::empty();
    for &(c, s, m) in pieces {
        board.put(sq(s), Piece::new(c, Flags::new(m)).unwrap());
    }
    let mut st = Setup::start_of(variant);
    st.board = board;
    st
}

/// Plays `m`, checks the hash and that unmaking restores the position exactly.
fn play(pos: &mut Position, m: &str) {
    let m = mv(m);
    assert!(pos.is_legal(m), "{m:?} should be legal in {pos:?}");
    assert!(pos.legal_moves().contains(&m));
    let before = pos.clone();
    let undo = pos.make_move(m);
    assert_eq!(pos.hash(), pos.compute_hash());
    let after = pos.clone();
    pos.unmake_move(m, undo);
    assert_eq!(*pos, before);
    *pos = after;
}

#[test]
fn start_positions_move_counts() {
    // Worked out by hand from the layouts (`docs/rules.md` section 7). Free-for-all, Green:
    // commander a1 only turns (1, 3, 5, 7: 4); lance b1, probe c1, lance a2, probe b2, probe
    // a3 are boxed in by own pieces (7 turns each); shields c2, b3, c3 each step NE (8
    // rotations + 7 turns).
    let ffa = Position::start(Variant::FreeForAll, Rules::university());
    assert_eq!(ffa.turn(), G);
    assert_eq!(ffa.legal_moves().len(), 4 + 5 * 7 + 3 * 15);
    // Partnership, Green: lance b1 (N,E,W) may go to a1 (1 + 7); commander c1 turns (4);
    // lance d1 (N,NE,NW) may go to e2 but not f3 (partner's shield) (1 + 7); probes b2, c2,
    // d2 are boxed in (7 each); shields b3, c3, d3 step N (15 each).
    let part = Position::start(Variant::Partnership, Rules::university());
    assert_eq!(part.legal_moves().len(), 8 + 4 + 8 + 3 * 7 + 3 * 15);
    assert!(!part.is_legal(mv("d1-f3-0")));
    for pos in [&ffa, &part] {
        assert_eq!(pos.in_play(), SeatSet::ALL);
        for c in Seat::ALL {
            assert_eq!(pos.controller(c), c);
            assert_eq!(pos.board().count_colour(c), 9);
        }
    }
}

#[test]
fn start_layouts_are_rotations_or_mirrors() {
    // Free-for-all: every corner is Green's corner turned by 90, 180 or 270 degrees.
    let ffa = Position::start(Variant::FreeForAll, Rules::university());
    let turn90 = |s: Square| Square::new(s.rank(), 8 - s.file()); // clockwise: (f, r) -> (r, 8 - f)
    for (s, p) in ffa.board().pieces().filter(|(_, p)| p.colour() == G) {
        let mut t = s;
        let mut flags = p.flags();
        for c in [R, Y, B] {
            t = turn90(t);
            flags = flags.rotate(2);
            let q = ffa.board().piece_at(t).unwrap();
            assert_eq!((q.colour(), q.flags()), (c, flags), "{s} turned to {t}");
        }
    }
}

fn ffa_commander_capture_setup() -> Setup {
    setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17), // probe N,S
            (R, "e5", 85),
            (R, "a9", 16), // shield S
            (Y, "i9", 85),
            (Y, "h9", 16),
            (B, "i1", 85),
            (B, "h1", 1),
        ],
    )
}

#[test]
fn free_for_all_commander_capture_passes_control_to_the_capturer() {
    let mut pos = Position::from_setup(ffa_commander_capture_setup(), Rules::university()).unwrap();
    play(&mut pos, "e3-e5-0");
    assert_eq!(pos.in_play(), SeatSet::ALL.without(R));
    assert_eq!(pos.controller(R), G);
    assert_eq!(pos.turn(), Y, "Red's turn is skipped");
    assert_eq!(pos.outcome(), None);
    assert!(
        !pos.is_legal(mv("a9-a8-0")),
        "Yellow may not move Red's pieces"
    );
    play(&mut pos, "h9-h8-0");
    assert_eq!(pos.turn(), B);
    play(&mut pos, "h1-h2-0");
    assert_eq!(pos.turn(), G);
    assert!(pos.is_legal(mv("a9-a8-0")), "Green now moves Red's pieces");
    play(&mut pos, "a9-a8-0");
    assert_eq!(pos.turn(), Y);
}

#[test]
fn free_for_all_last_player_left_wins() {
    // Green takes Red's commander, then Yellow's, then Blue's.
    let st = setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17),
            (G, "c3", 17),
            (G, "g3", 17),
            (R, "e5", 85),
            (R, "a9", 16),
            (Y, "c5", 85),
            (Y, "i9", 16),
            (B, "g5", 85),
            (B, "i1", 1),
        ],
    );
    let mut pos = Position::from_setup(st, Rules::university()).unwrap();
    play(&mut pos, "e3-e5-0");
    assert_eq!(pos.turn(), Y);
    play(&mut pos, "i9-i8-0");
    play(&mut pos, "i1-i2-0");
    play(&mut pos, "c3-c5-0");
    assert_eq!(pos.controller(Y), G);
    assert_eq!(pos.controller(R), G);
    assert_eq!(pos.turn(), B);
    play(&mut pos, "i2-i3-0");
    play(&mut pos, "g3-g5-0");
    assert_eq!(pos.in_play(), SeatSet::only(G));
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(G, WinReason::CommanderCaptured))
    );
    assert!(pos.legal_moves().is_empty());
}

fn bare_commander_setup() -> Setup {
    setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17),
            (R, "a9", 85),
            (R, "e5", 16), // Red's last piece besides the commander
            (Y, "i9", 85),
            (Y, "h9", 16),
            (B, "i1", 85),
            (B, "h1", 1),
        ],
    )
}

#[test]
fn bare_commander_stays_and_passes_to_the_capturer() {
    let mut pos = Position::from_setup(bare_commander_setup(), Rules::university()).unwrap();
    play(&mut pos, "e3-e5-0");
    assert!(!pos.in_play().contains(R));
    assert_eq!(pos.controller(R), G);
    assert!(
        pos.board().piece_at(sq("a9")).is_some(),
        "the commander stays"
    );
    play(&mut pos, "h9-h8-0");
    play(&mut pos, "h1-h2-0");
    assert!(
        pos.is_legal(mv("a9-a8-0")),
        "Green moves Red's bare commander"
    );
}

#[test]
fn bare_commander_removed_option() {
    let rules = Rules::university().with_bare_commander(BareCommander::Removed);
    let mut pos = Position::from_setup(bare_commander_setup(), rules).unwrap();
    play(&mut pos, "e3-e5-0");
    assert!(!pos.in_play().contains(R));
    assert_eq!(
        pos.board().piece_at(sq("a9")),
        None,
        "the bare commander leaves the board"
    );
    assert_eq!(pos.board().count_colour(R), 0);
}

#[test]
fn relaxed_elimination_keeps_a_bare_commander_in_play() {
    let rules = Rules::university().with_elimination(Elimination::Relaxed);
    let mut pos = Position::from_setup(bare_commander_setup(), rules).unwrap();
    play(&mut pos, "e3-e5-0");
    assert_eq!(pos.in_play(), SeatSet::ALL);
    assert_eq!(pos.turn(), R);
}

fn partnership_setup() -> Setup {
    setup(
        Variant::Partnership,
        &[
            (G, "c1", 170),
            (G, "e3", 17),
            (Y, "g1", 170),
            (Y, "g7", 17), // probe N,S: can reach g9 through g8
            (R, "e5", 170),
            (R, "b9", 16),
            (B, "g9", 170),
            (B, "f9", 16),
        ],
    )
}

#[test]
fn partnership_absorbed_partner_plays_both_seats_then_team_loses() {
    let mut pos = Position::from_setup(partnership_setup(), Rules::university()).unwrap();
    assert!(!pos.is_legal(mv("e3-e1-0")) || pos.board().piece_at(sq("e1")).is_none());
    play(&mut pos, "e3-e5-0");
    assert_eq!(pos.in_play(), SeatSet::ALL.without(R));
    assert_eq!(pos.controller(R), B, "Blue absorbs Red");
    assert_eq!((pos.turn(), pos.mover()), (R, B), "Blue plays Red's turn");
    assert!(pos.is_legal(mv("b9-b8-0")));
    assert!(pos.is_legal(mv("f9-f8-0")), "with all team pieces");
    play(&mut pos, "b9-b8-0");
    assert_eq!((pos.turn(), pos.mover()), (Y, Y));
    play(&mut pos, "g7-g9-0");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winners: SeatSet::only(G).with(Y),
            reason: WinReason::CommanderCaptured
        })
    );
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn partners_block_and_never_capture_each_other() {
    let st = setup(
        Variant::Partnership,
        &[
            (G, "c1", 170),
            (G, "e3", 17),
            (Y, "e4", 1),
            (Y, "g1", 170),
            (R, "c9", 170),
            (R, "a9", 16),
            (B, "g9", 170),
            (B, "i9", 16),
        ],
    );
    let pos = Position::from_setup(st, Rules::university()).unwrap();
    assert!(!pos.is_legal(mv("e3-e4-0")));
    assert!(!pos.is_legal(mv("e3-e5-0")));
    assert!(
        pos.legal_moves_from(sq("e3"))
            .iter()
            .all(|m| m.from() == m.to() || m.to() == sq("e2") || m.to() == sq("e1"))
    );
}

#[test]
fn partnership_plays_on_eliminated_player_keeps_moving() {
    let rules = Rules::university().with_partner_elimination(PartnerElimination::PlaysOn);
    let mut pos = Position::from_setup(partnership_setup(), rules).unwrap();
    play(&mut pos, "e3-e5-0");
    assert!(!pos.in_play().contains(R));
    assert_eq!(pos.controller(R), R, "nobody takes Red's pieces");
    assert_eq!(
        (pos.turn(), pos.mover()),
        (R, R),
        "Red plays on with his shield"
    );
    assert!(!pos.is_legal(mv("f9-f8-0")), "but not with Blue's pieces");
    play(&mut pos, "b9-b8-0");
    play(&mut pos, "g7-g9-0");
    assert_eq!(pos.outcome().unwrap().winners(), SeatSet::only(G).with(Y));
}

#[test]
fn partnership_plays_on_seat_passes_to_partner_without_pieces() {
    let rules = Rules::university()
        .with_partner_elimination(PartnerElimination::PlaysOn)
        .with_elimination(Elimination::Relaxed);
    let st = setup(
        Variant::Partnership,
        &[
            (G, "c1", 170),
            (G, "e3", 17),
            (Y, "g1", 170),
            (R, "e5", 170),
            (B, "g9", 170),
            (B, "f9", 16),
        ],
    );
    let mut pos = Position::from_setup(st, rules).unwrap();
    play(&mut pos, "e3-e5-0");
    assert_eq!(
        (pos.turn(), pos.mover()),
        (R, B),
        "Red has no pieces: Blue plays his turn"
    );
}

#[test]
fn invalid_four_player_setups_are_rejected() {
    // A player in play who already meets the elimination test.
    let mut st = ffa_commander_capture_setup();
    st.board.remove(sq("e5"));
    assert!(Position::from_setup(st, Rules::university()).is_err());
    // A colour in play controlled by someone else.
    let mut st = ffa_commander_capture_setup();
    st.controllers[R.index()] = G;
    assert!(Position::from_setup(st, Rules::university()).is_err());
    // Too many pieces for a four-player army (3 shields at most).
    let mut st = ffa_commander_capture_setup();
    for s in ["b5", "c5", "d5"] {
        st.board.put(sq(s), Piece::new(R, Flags::new(1)).unwrap());
    }
    assert!(Position::from_setup(st, Rules::university()).is_err());
}

#[test]
fn an_out_of_play_colour_cannot_keep_its_commander_and_other_pieces() {
    // Red is out after Green took his last piece besides the commander: his commander stays.
    let mut pos = Position::from_setup(bare_commander_setup(), Rules::university()).unwrap();
    play(&mut pos, "e3-e5-0");
    let out = pos.to_setup();
    assert!(!out.in_play.contains(R));
    assert!(Position::from_setup(out.clone(), Rules::university()).is_ok());
    // The same with a red shield back on the board: no game gets there, under any rules.
    let mut st = out;
    st.board
        .put(sq("c5"), Piece::new(R, Flags::new(1)).unwrap());
    for rules in [
        Rules::university(),
        Rules::university().with_elimination(Elimination::Relaxed),
        Rules::university().with_bare_commander(BareCommander::Removed),
    ] {
        let err = Position::from_setup(st.clone(), rules).expect_err("red's army is back");
        assert!(
            err.problems
                .contains(&ploy_core::SetupProblem::OutOfPlayWithArmy(R)),
            "{err}"
        );
    }
    // Without its commander an out-of-play colour may keep other pieces (they pass on).
    st.board.remove(sq("a9"));
    assert!(Position::from_setup(st, Rules::university()).is_ok());
}

#[test]
fn random_four_player_playouts_keep_hash_and_unmake_exact() {
    let mut rng = StdRng::seed_from_u64(4);
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        for game in 0..40 {
            let rules = Rules::university()
                .with_partner_elimination(if game % 2 == 0 {
                    PartnerElimination::Absorbed
                } else {
                    PartnerElimination::PlaysOn
                })
                .with_bare_commander(if game % 4 < 2 {
                    BareCommander::Stays
                } else {
                    BareCommander::Removed
                })
                .with_elimination(if game % 8 < 4 {
                    Elimination::Strict
                } else {
                    Elimination::Relaxed
                });
            let mut pos = Position::start(variant, rules);
            for _ in 0..300 {
                let moves = pos.legal_moves();
                // Prefer captures so that games reach eliminations.
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| pos.board().piece_at(m.to()).is_some() && m.from() != m.to())
                    .collect();
                let m = if !captures.is_empty() && rng.random_bool(0.7) {
                    *captures.choose(&mut rng).unwrap()
                } else {
                    match moves.choose(&mut rng) {
                        Some(&m) => m,
                        None => break,
                    }
                };
                let before = pos.clone();
                let undo = pos.make_move(m);
                assert_eq!(pos.hash(), pos.compute_hash());
                // The position is one that from_setup accepts as it is.
                let again = Position::from_setup(pos.to_setup(), rules)
                    .unwrap_or_else(|e| panic!("{e} after {m:?} in {before:?}"));
                // A setup does not say why the last player went out: compare all but that.
                assert!(again.same_state(&pos));
                assert_eq!(
                    again.outcome().map(Outcome::winners),
                    pos.outcome().map(Outcome::winners)
                );
                let after = pos.clone();
                pos.unmake_move(m, undo);
                assert_eq!(pos, before);
                pos = after;
                if pos.outcome().is_some() {
                    assert!(pos.legal_moves().is_empty());
                    break;
                }
                assert!(pos.legal_moves().len() <= ploy_core::MAX_MOVES);
            }
        }
    }
}

#[test]
fn resignation_in_four_player_games() {
    use ploy_core::{Game, GameError};
    // Partnership: a player resigns for his team.
    let mut g = Game::start(Variant::Partnership, Rules::standard());
    g.resign(B).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winners: SeatSet::only(G).with(Y),
            reason: WinReason::Resignation
        })
    );
    // Free-for-all with several opponents left: he leaves, his pieces leave the board,
    // the others play on; taking it back restores the game exactly.
    let mut g = Game::start(Variant::FreeForAll, Rules::standard());
    let before = g.clone();
    g.resign(R).unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.position().in_play(), SeatSet::ALL.without(R));
    assert!(g.position().board().by_colour(R).is_empty());
    assert_eq!(g.position().board().pieces().count(), 27);
    assert_eq!(g.position().turn(), G); // not his turn: the turn stays
    assert_eq!(
        g.withdrawals().collect::<Vec<_>>(),
        [ploy_core::Withdrawal {
            ply: 0,
            seat: R,
            reason: WinReason::Resignation
        }]
    );
    assert_eq!(g.resign(R), Err(GameError::NotInPlay(R)));
    assert!(matches!(
        g.take_back_ending(),
        Ok(ploy_core::Ending::Withdrawal(_))
    ));
    assert_eq!(g, before);
    assert_eq!(g.take_back_ending(), Err(GameError::NoEnding));
    // Free-for-all with one opponent left: he wins.
    let st = setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17),
            (R, "e5", 85),
            (R, "a9", 16),
            (Y, "i9", 85),
            (Y, "h9", 16),
        ],
    );
    let mut st = st;
    st.in_play = SeatSet::ALL.without(B);
    st.controllers[B.index()] = G;
    let mut g = Game::from_position(Position::from_setup(st, Rules::standard()).unwrap());
    g.play(mv("e3-e5-0")).unwrap();
    assert_eq!(g.position().in_play(), SeatSet::only(G).with(Y));
    g.forfeit_on_time(Y).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::win(G, WinReason::TimeForfeit)));
}

#[test]
fn a_free_for_all_player_who_leaves_takes_the_pieces_he_controls_with_him() {
    use ploy_core::{Ending, Game};
    // Green controls Blue's pieces (he captured Blue's commander) and leaves on his turn:
    // Green's and Blue's pieces leave the board, the turn passes to Red, the game goes on.
    let mut st = setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17),
            (B, "h2", 17),
            (R, "a9", 85),
            (R, "b8", 16),
            (Y, "i9", 85),
            (Y, "h9", 16),
        ],
    );
    st.in_play = SeatSet::ALL.without(B);
    st.controllers[B.index()] = G;
    let start = Position::from_setup(st, Rules::standard()).unwrap();
    let mut g = Game::from_position(start.clone());
    g.forfeit_on_time(G).unwrap();
    let pos = g.position().clone();
    assert_eq!(g.outcome(), None);
    assert_eq!(pos.in_play(), SeatSet::only(R).with(Y));
    assert_eq!(pos.turn(), R);
    assert_eq!(pos.board().pieces().count(), 4);
    assert_eq!(pos.hash(), pos.compute_hash());
    // A position that a position string can hold: it survives its setup.
    assert_eq!(
        Position::from_setup(pos.to_setup(), pos.rules()).unwrap(),
        pos
    );
    // The game goes on between Red and Yellow; `undo` of the next move keeps the leaving,
    // `take_back_ending` then brings Green's and Blue's pieces back.
    let m = pos.legal_moves()[0];
    g.play(m).unwrap();
    assert_eq!(g.position().turn(), Y);
    g.undo().unwrap();
    assert_eq!(g.position(), &pos);
    assert_eq!(
        g.take_back_ending().unwrap(),
        Ending::Withdrawal(ploy_core::Withdrawal {
            ply: 0,
            seat: G,
            reason: WinReason::TimeForfeit
        })
    );
    assert_eq!(g.position(), &start);
    // Leaving after a move, then `undo`: the move and the leaving are both taken back.
    let m = start.legal_moves()[0];
    g.play(m).unwrap();
    g.resign(Y).unwrap();
    assert_eq!(g.withdrawals().len(), 1);
    g.undo().unwrap();
    assert_eq!(g.withdrawals().len(), 0);
    assert_eq!(g.position(), &start);
    // Not in the other variants: there a player's leaving ends the game.
    assert!(
        Position::start(Variant::Partnership, Rules::standard())
            .without_player(G)
            .is_none()
    );
    assert!(Position::new().without_player(G).is_none());
}

#[test]
fn bare_commander_removed_takes_only_the_eliminated_players_own_commander() {
    // A free-for-all setup in which Green controls Red's commander (as after a strict game
    // with the commander staying) and is then eliminated with only commanders left, played
    // with the bare commander removed: only Green's own commander leaves the board; Red's
    // passes with Green's other colours to the capturer. Unmake restores both.
    let mut st = setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e4", 1), // Green's last piece that is not a commander
            (R, "a9", 85),
            (Y, "i9", 85),
            (Y, "e6", 17), // probe N,S: takes e4 through e5
            (B, "i1", 85),
            (B, "h1", 1),
        ],
    );
    st.in_play = SeatSet::ALL.without(R);
    st.controllers[R.index()] = G;
    st.turn = Y;
    let rules = Rules::university().with_bare_commander(BareCommander::Removed);
    let mut pos = Position::from_setup(st, rules).unwrap();
    play(&mut pos, "e6-e4-0");
    assert_eq!(pos.in_play(), SeatSet::only(Y).with(B));
    assert_eq!(
        pos.board().piece_at(sq("a1")),
        None,
        "Green's commander is removed"
    );
    assert!(pos.board().piece_at(sq("a9")).is_some(), "Red's stays");
    assert_eq!(pos.controller(R), Y);
    assert_eq!(pos.controller(G), Y);
    assert_eq!(pos.turn(), B);
}
