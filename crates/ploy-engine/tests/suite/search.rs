//! Hand-built positions, budgets, the stop flag, time logic with an injected clock,
//! repetitions and determinism.

use crate::common::*;
use ploy_core::{Board, Flags, Move, Piece, Position, Rules, Seat, Setup, Square};
use ploy_engine::{EvalPosition, Evaluation, PlainPosition};
use ploy_search::{
    Clock, Config, Driver, Limits, POLL_INTERVAL, Score, SearchGame, Searcher, negamax,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

fn position(pieces: &[(Seat, u8, Square)], turn: Seat) -> Position {
    let mut board = Board::empty();
    for &(seat, mask, sq) in pieces {
        board.put(sq, Piece::new(seat, Flags::new(mask)).expect("valid mask"));
    }
    Position::from_setup(Setup::two_player(board, turn), Rules::standard()).expect("valid position")
}

fn small_config() -> Config {
    Config {
        table_bytes: 1 << 20,
        ..Config::default()
    }
}

fn searcher() -> Searcher<EvalPosition, Evaluation> {
    Searcher::new(small_config(), Evaluation::default())
}

fn all_drivers() -> Vec<Config> {
    vec![
        small_config(),
        Config {
            driver: Driver::AlphaBeta,
            ..small_config()
        },
        Config {
            late_move_reductions: true,
            ..small_config()
        },
    ]
}

#[test]
fn commander_capture_in_one() {
    // A green lance on e5 looks north at the red commander on e8.
    let pos = position(
        &[
            (Seat::Green, 0b0000_0111, Square::E5), // N, NE, E: a lance
            (Seat::Green, 170, Square::A1),
            (Seat::Green, 1, Square::B1),
            (Seat::Red, 170, Square::E8),
            (Seat::Red, 16, Square::I9),
        ],
        Seat::Green,
    );
    for config in all_drivers() {
        let mut s = Searcher::new(config, Evaluation::default());
        let r = s.search(
            &EvalPosition::new(pos.clone()),
            &[],
            &Limits::depth(4),
            |_| {},
        );
        assert_eq!(r.best_move, Some(Move::new(Square::E5, Square::E8, 0)));
        assert_eq!(r.score, Score::win_in(1));
        assert_eq!(r.depth, 1, "a proven result ends the search");
    }
}

#[test]
fn forced_win_in_three() {
    // Green's commander on f4 steps to f3; Red cannot stop the win two plies later.
    let pos = position(
        &[
            (Seat::Green, 1, Square::E6),
            (Seat::Green, 60, Square::F4),
            (Seat::Green, 66, Square::H1),
            (Seat::Red, 196, Square::G6),
            (Seat::Red, 86, Square::F2),
        ],
        Seat::Green,
    );
    let (v, best) = negamax(
        &PlainPosition(pos.clone()),
        &|_: &PlainPosition| 0,
        &[],
        3,
        None,
    );
    assert_eq!(v, Score::win_in(3));
    assert_eq!(best, vec![Move::new(Square::F4, Square::F3, 0)]);
    for config in all_drivers() {
        let mut s = Searcher::new(config, Evaluation::default());
        let r = s.search(
            &EvalPosition::new(pos.clone()),
            &[],
            &Limits::depth(5),
            |_| {},
        );
        assert_eq!(r.score, Score::win_in(3));
        assert_eq!(r.best_move, Some(Move::new(Square::F4, Square::F3, 0)));
        assert_eq!(r.pv.first(), r.best_move.as_ref());
    }
}

#[test]
fn only_a_rotation_saves() {
    // Red to move. Every motion move loses within four plies, and so does every rotation
    // but one: the shield on f9 turns five steps, from north-west to south,
    // attacking the green lance on f8.
    let pos = position(
        &[
            (Seat::Red, 128, Square::F9),
            (Seat::Green, 134, Square::F8),
            (Seat::Red, 141, Square::I7),
            (Seat::Green, 45, Square::A5),
        ],
        Seat::Red,
    );
    let saving = Move::turn(Square::F9, 5);
    let zero = |_: &PlainPosition| 0;
    for mv in pos.legal_moves() {
        let after = pos.after(mv).expect("legal");
        let (v, _) = negamax(&PlainPosition(after), &zero, &[], 3, None);
        assert_eq!(!(-v).is_loss(), mv == saving, "{mv:?} scores {:?}", -v);
    }
    for config in all_drivers() {
        let mut s = Searcher::new(config, Evaluation::default());
        let r = s.search(
            &EvalPosition::new(pos.clone()),
            &[],
            &Limits::depth(4),
            |_| {},
        );
        assert_eq!(r.best_move, Some(saving));
        assert!(!r.score.is_loss(), "{:?}", r.score);
    }
}

#[test]
fn decided_position_has_no_move() {
    let pos = position(
        &[
            (Seat::Green, 170, Square::E1),
            (Seat::Green, 1, Square::A1),
            (Seat::Red, 1, Square::E9),
        ],
        Seat::Red,
    );
    let r = searcher().search(&EvalPosition::new(pos), &[], &Limits::depth(3), |_| {
        panic!("no iteration")
    });
    assert_eq!(r.best_move, None);
    assert!(r.score.is_loss());
}

#[test]
fn node_budget_is_honoured() {
    for (i, budget) in [0u64, 1, 7, 100, 1000, 5000, 30_000]
        .into_iter()
        .enumerate()
    {
        let pos = EvalPosition::new(random_playout(i as u64, 10 + 7 * i as u32));
        for config in all_drivers() {
            let mut s = Searcher::new(config, Evaluation::default());
            let r = s.search(&pos, &[], &Limits::nodes(budget), |info| {
                assert!(info.nodes <= budget)
            });
            assert!(
                r.nodes <= budget,
                "{} nodes for a budget of {budget}",
                r.nodes
            );
            let mv = r.best_move.expect("a legal move");
            assert!(pos.is_legal(mv), "{mv:?}");
        }
    }
}

#[test]
fn same_budget_same_result() {
    let pos = EvalPosition::new(random_playout(3, 20));
    let run = || {
        let mut s = searcher();
        let mut infos = Vec::new();
        let r = s.search(&pos, &[], &Limits::nodes(40_000), |i| {
            infos.push((i.depth, i.score, i.best_move, i.nodes))
        });
        (r.best_move, r.score, r.depth, r.pv, r.nodes, infos)
    };
    assert_eq!(run(), run());
}

/// The static evaluation kept in the table (`Config::table_eval`) saves work only, as long
/// as the table has room: one searcher running a sequence of searches (so that later ones
/// meet the earlier ones' entries) plays the same moves, scores and node counts with it and
/// without it, with the selective search on (where the evaluation is used). (In a full
/// table, the entries that keep only an evaluation take slots that other entries would
/// have had, so the trees may differ there.)
#[test]
fn table_evaluation_changes_nothing_but_the_work() {
    let positions: Vec<EvalPosition> = ploy_engine::bench_positions()
        .into_iter()
        .take(8)
        .map(EvalPosition::new)
        .collect();
    for table_bytes in [Config::default().table_bytes, 1 << 20] {
        let run = |table_eval: bool| {
            let config = Config {
                table_eval,
                table_bytes,
                ..Config::default()
            };
            assert!(config.is_selective());
            let mut s = Searcher::new(config, Evaluation::default());
            positions
                .iter()
                .map(|pos| {
                    let r = s.search(pos, &[], &Limits::depth(6), |_| {});
                    (r.best_move, r.score, r.depth, r.nodes, r.pv)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(true), run(false), "table of {table_bytes} bytes");
    }
}

#[test]
fn stop_flag_is_honoured() {
    // Raised before the search: not even the first iteration completes, yet a legal move
    // comes back.
    let pos = EvalPosition::new(Position::new());
    let stop = Arc::new(AtomicBool::new(true));
    let r = searcher().search(
        &pos,
        &[],
        &Limits::depth(20).with_stop(stop.clone()),
        |_| {},
    );
    assert!(r.nodes <= POLL_INTERVAL);
    assert!(r.interrupted);
    assert!(pos.is_legal(r.best_move.expect("a move")));

    // Raised by the observer after depth 2: the search ends within one poll.
    let stop = Arc::new(AtomicBool::new(false));
    let mut at_stop = 0;
    let r = searcher().search(
        &pos,
        &[],
        &Limits::depth(20).with_stop(stop.clone()),
        |info| {
            if info.depth == 2 {
                stop.store(true, Ordering::Relaxed);
                at_stop = info.nodes;
            }
        },
    );
    assert_eq!(r.depth, 2);
    assert!(
        r.nodes <= at_stop + POLL_INTERVAL,
        "{} nodes after the stop at {at_stop}",
        r.nodes
    );
    assert!(pos.is_legal(r.best_move.expect("a move")));
}

/// A clock that moves only when told to, or by a fixed step at every reading.
#[derive(Clone, Default)]
struct FakeClock {
    nanos: Arc<AtomicU64>,
    step: u64,
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.fetch_add(self.step, Ordering::Relaxed))
    }
}

#[test]
fn hard_time_limit_with_injected_clock() {
    // Every reading advances the clock by 1 ms: the search must stop within one poll of
    // passing 40 ms.
    let clock = FakeClock {
        nanos: Arc::default(),
        step: 1_000_000,
    };
    let mut s = searcher();
    s.set_clock(clock.clone());
    let limits = Limits {
        hard_time: Some(Duration::from_millis(40)),
        ..Limits::default()
    };
    let r = s.search(&EvalPosition::new(Position::new()), &[], &limits, |_| {});
    assert!(r.interrupted);
    assert!(
        r.time >= Duration::from_millis(40) && r.time <= Duration::from_millis(45),
        "{:?}",
        r.time
    );
    // The clock is read once per poll (plus once per iteration and at the end).
    assert!(r.nodes <= 45 * POLL_INTERVAL, "{} nodes", r.nodes);
    assert!(Position::new().is_legal(r.best_move.expect("a move")));
}

#[test]
fn soft_time_limit_with_injected_clock() {
    // The clock stands still during an iteration and jumps 100 ms after each one: with a
    // soft limit of 250 ms, depths 1, 2 and 3 complete and depth 4 never starts.
    let clock = FakeClock::default();
    let mut s = searcher();
    s.set_clock(clock.clone());
    let limits = Limits {
        soft_time: Some(Duration::from_millis(250)),
        hard_time: Some(Duration::from_secs(10)),
        ..Limits::default()
    };
    let mut depths = Vec::new();
    let r = s.search(&EvalPosition::new(Position::new()), &[], &limits, |info| {
        depths.push(info.depth);
        clock.nanos.fetch_add(100_000_000, Ordering::Relaxed);
    });
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(r.depth, 3);
    assert!(!r.interrupted);
}

#[test]
fn time_helpers() {
    let l = Limits::move_time(Duration::from_millis(800));
    assert_eq!(
        (l.soft_time, l.hard_time),
        (
            Some(Duration::from_millis(400)),
            Some(Duration::from_millis(800))
        )
    );
    let l = Limits::clock(Duration::from_millis(30_010), Duration::ZERO);
    assert_eq!(l.hard_time, Some(Duration::from_millis(6_000)));
    assert_eq!(l.soft_time, Some(Duration::from_millis(500)));
    let l = Limits::clock(Duration::from_millis(10_010), Duration::from_secs(2));
    assert_eq!(l.hard_time, Some(Duration::from_millis(4_000)));
    assert_eq!(l.soft_time, Some(Duration::from_nanos(916_666_666)));
    // Almost no time left: the hard limit never exceeds what is left minus the reserve.
    let l = Limits::clock(Duration::from_millis(15), Duration::from_secs(5));
    assert_eq!(l.hard_time, Some(Duration::from_millis(5)));
}

#[test]
fn repetition_is_a_draw() {
    // Green loses by the evaluation everywhere, so at depth 1 it prefers the one move that
    // repeats a position of the game: a draw.
    let start = Position::new();
    let mv = Move::new(Square::E3, Square::E4, 0);
    let after = start.after(mv).expect("legal");
    let history = [after.hash(), 12345];
    let eval = |p: &PlainPosition| if p.turn() == Seat::Green { -100 } else { 100 };
    let mut s: Searcher<PlainPosition, _> = Searcher::new(small_config(), eval);
    let start = PlainPosition(start);
    let r = s.search(&start, &history, &Limits::depth(1), |_| {});
    assert_eq!(r.best_move, Some(mv));
    assert_eq!(r.score, Score::DRAW);
    let (v, best) = negamax(&start, &eval, &history, 1, None);
    assert_eq!((v, best), (Score::DRAW, vec![mv]));
}

#[test]
fn the_game_history_holds_positions_since_the_last_capture() {
    let mut game = ploy_core::Game::new(Rules::standard());
    for mv in [
        Move::new(Square::E3, Square::E4, 0),
        Move::turn(Square::E9, 1),
    ] {
        game.play(mv).expect("legal");
    }
    let h = ploy_engine::GameHistory::history(&PlainPosition(game.position().clone()), &game);
    assert_eq!(
        h,
        vec![game.positions()[0].hash(), game.positions()[1].hash()]
    );
}

#[test]
fn observer_sees_every_iteration() {
    let mut seen = Vec::new();
    let r = searcher().search(
        &EvalPosition::new(Position::new()),
        &[],
        &Limits::depth(3),
        |i| {
            assert_eq!(i.pv.first().copied(), i.best_move);
            seen.push((i.depth, i.nodes));
        },
    );
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1));
    assert_eq!(r.nodes, seen[2].1);
    let _ = SearchGame::hash(&PlainPosition(Position::new()));
}
