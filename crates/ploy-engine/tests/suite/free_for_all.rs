//! Ploy's free-for-all as a game of four players ([`FreeForAll`]) for the searches of
//! `ploy_search::multi`, and the engine's choice among them: make/unmake and the pass
//! restore everything; the evaluation kept move by move equals one built from scratch and
//! the paranoid reduction's for each player; the alpha-beta searches equal the plain
//! references; every kind plays legal moves and finds a winning capture; two-player and
//! partnership searches do not depend on the free-for-all search chosen.

use crate::common::*;
use crate::four_player::{playout, rules};
use ploy_core::{
    Board, Flags, Game, Move, Piece, Position, Rules, Seat, SeatSet, Setup, Square, Variant,
};
use ploy_engine::{
    Engine, Evaluation, FFA_WIN, FreeForAll, Paranoid, SearchMoves, bench_positions,
};
use ploy_search::multi::{
    Brs, BrsPlayers, Mcts, MctsConfig, MultiGame, Paranoid as MultiParanoid, SearchKind,
    brs_reference, paranoid_reference,
};
use ploy_search::{Config, Evaluator, Limits, Searcher};
use proptest::prelude::*;

/// A free-for-all game of `plies` random moves (captures preferred two times in three),
/// played through [`Game`] so that it has a history; it stops where the game ends.
fn game_playout(rule_bits: u8, seed: u64, plies: u32) -> Game {
    let mut game = Game::start(Variant::FreeForAll, rules(rule_bits));
    let mut s = mix(seed);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        s = mix(s);
        let pos = game.position();
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_direction_move() && pos.board().occupied().contains(m.to()))
            .collect();
        let mv = if !captures.is_empty() && s % 3 != 0 {
            captures[(s >> 8) as usize % captures.len()]
        } else {
            moves[(s >> 8) as usize % moves.len()]
        };
        game.play(mv).expect("a legal move");
    }
    game
}

/// The next seat in play after `seat` in turn order.
fn next_in_play(pos: &Position, seat: Seat) -> Seat {
    (1..=4)
        .map(|i| Seat::ALL[(seat.index() + i) % 4])
        .find(|&s| pos.in_play().contains(s))
        .expect("someone is in play")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every legal move made and taken back, and a pass made and taken back, restore the
    /// game exactly (position, hash, history, evaluation); after each move the hash is the
    /// position's from scratch and the evaluation kept move by move is the one built from
    /// scratch.
    #[test]
    fn make_unmake_and_pass_restore_everything(
        seed in any::<u64>(),
        plies in 0u32..220,
        rule_bits in 0u8..16,
    ) {
        let game = game_playout(rule_bits, seed, plies);
        let g = FreeForAll::from_game(&game);
        prop_assume!(g.outcome().is_none());
        let eval = Evaluation::default();
        let scores = eval.every_player_scores(&g);
        let mut moves = SearchMoves::default();
        g.generate(&mut moves);
        prop_assert_eq!(moves.len(), g.position().legal_moves().len());
        let mut h = g.clone();
        for &m in moves.iter() {
            let u = h.make(m);
            prop_assert_eq!(h.position().hash(), h.position().compute_hash());
            prop_assert_eq!(h.position(), &g.position().after(m).unwrap());
            let fresh = FreeForAll::new(h.position().clone());
            prop_assert_eq!(eval.every_player(&h), eval.every_player(&fresh));
            // One move deeper (the first), to take back two in a row.
            let mut deeper = SearchMoves::default();
            h.generate(&mut deeper);
            if let Some(&m2) = deeper.first() {
                let u2 = h.make(m2);
                let fresh = FreeForAll::new(h.position().clone());
                prop_assert_eq!(eval.every_player(&h), eval.every_player(&fresh));
                h.unmake(m2, u2);
            }
            h.unmake(m, u);
            prop_assert_eq!(&h, &g);
            prop_assert_eq!(h.position().hash(), g.position().hash());
            prop_assert_eq!(eval.every_player_scores(&h), scores);
        }
        // A pass: the next player in play moves, nothing else changes.
        let mover = g.position().mover();
        h.make_pass();
        prop_assert_eq!(h.position().mover(), next_in_play(g.position(), mover));
        prop_assert_eq!(h.position().board(), g.position().board());
        prop_assert_eq!(h.position().in_play(), g.position().in_play());
        for c in Seat::ALL {
            prop_assert_eq!(h.position().controller(c), g.position().controller(c));
        }
        prop_assert_eq!(h.position().hash(), h.position().compute_hash());
        h.unmake_pass();
        prop_assert_eq!(&h, &g);
        prop_assert_eq!(eval.every_player_scores(&h), scores);
    }

    /// Each player's evaluation is the paranoid reduction's with him as root, from his
    /// view; a player out of play has none and scores a loss; the scores of the players in
    /// play sum to zero but for rounding (each is his value less the mean, halved, and the
    /// capture at hand moves value between two of them, less its mean from everybody).
    #[test]
    fn every_player_is_the_paranoid_evaluation(
        seed in any::<u64>(),
        plies in 0u32..260,
        rule_bits in 0u8..16,
    ) {
        let pos = playout(Variant::FreeForAll, rule_bits, seed, plies);
        prop_assume!(pos.outcome().is_none());
        let eval = Evaluation::default();
        let g = FreeForAll::new(pos.clone());
        let each = eval.every_player(&g);
        let scores = eval.every_player_scores(&g);
        let mut sum = 0;
        for seat in Seat::ALL {
            if pos.in_play().contains(seat) {
                // The paranoid value is for the side to move.
                let paranoid = eval.evaluate(&Paranoid::for_seat(pos.clone(), seat));
                let view = if seat == pos.mover() { paranoid } else { -paranoid };
                prop_assert_eq!(each[seat.index()], Some(view));
                prop_assert!(scores[seat.index()].abs() < FFA_WIN / 10);
                sum += scores[seat.index()];
            } else {
                prop_assert_eq!(each[seat.index()], None);
                prop_assert_eq!(scores[seat.index()], -FFA_WIN);
            }
        }
        // Two integer divisions round: each player's halved difference from the mean, and
        // the share of the capture at hand taken from each player in play; each leaves less
        // than 1 a player, so at most 3 each with four players.
        prop_assert!(sum.abs() <= 6, "{:?}", scores);
    }
}

/// A sparse free-for-all position (at most `max_pieces` pieces, not decided), from seeded
/// random play preferring captures, or `None` if the playout did not thin out so far.
fn sparse(seed: u64, rule_bits: u8, max_pieces: usize) -> Option<Position> {
    for plies in [200, 260, 320, 400] {
        let pos = playout(Variant::FreeForAll, rule_bits, seed, plies);
        if pos.outcome().is_some() {
            return None;
        }
        if pos.board().pieces().count() <= max_pieces {
            return Some(pos);
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// At a fixed depth, paranoid search and BRS (passing and BRS+) on the game give the
    /// value of the plain recursions and one of their best moves.
    #[test]
    fn alpha_beta_searches_equal_the_references(
        seed in any::<u64>(),
        rule_bits in 0u8..16,
        depth in 1u32..=2,
    ) {
        let pos = sparse(seed, rule_bits, 14);
        prop_assume!(pos.is_some());
        let g = FreeForAll::new(pos.unwrap());
        prop_assume!(g.outcome().is_none());
        let eval = Evaluation::default();
        let limits = Limits::depth(depth);
        let pdepth = depth + 1; // plies: one more than the layers, still small
        let (v, best) = paranoid_reference(&g, &eval, pdepth);
        let r = MultiParanoid::new(eval.clone()).search(&g, &Limits::depth(pdepth));
        prop_assert_eq!(r.value, v);
        prop_assert!(best.contains(&r.best_move.unwrap()));
        for players in [BrsPlayers::Pass, BrsPlayers::Policy] {
            let (v, best) = brs_reference(&g, &eval, depth, players);
            let mut brs = match players {
                BrsPlayers::Pass => Brs::new(eval.clone()),
                BrsPlayers::Policy => Brs::plus(eval.clone()),
            };
            let r = brs.search(&g, &limits);
            prop_assert_eq!(r.value, v, "{:?}", players);
            prop_assert!(best.contains(&r.best_move.unwrap()), "{:?}", players);
        }
    }

    /// Every kind, through the engine, answers a legal move in random free-for-all games
    /// within a small node budget, and the same move twice (node budgets are
    /// deterministic).
    #[test]
    fn every_kind_plays_legal_moves(
        seed in any::<u64>(),
        plies in 0u32..200,
        rule_bits in 0u8..16,
    ) {
        let game = game_playout(rule_bits, seed, plies);
        prop_assume!(game.outcome().is_none());
        for kind in SearchKind::ALL {
            let mut a = Engine::with_hash_mb(1).with_ffa_search(kind);
            let mut b = Engine::with_hash_mb(1).with_ffa_search(kind);
            let ra = a.search(&game, &Limits::nodes(1_500), |_| {});
            let rb = b.search(&game, &Limits::nodes(1_500), |_| {});
            let mv = ra.best_move.expect("the game goes on");
            prop_assert!(game.is_legal(mv), "{}: {} in {:?}", kind, mv, game.position());
            prop_assert_eq!(ra.best_move, rb.best_move, "{}", kind);
            prop_assert_eq!(ra.nodes, rb.nodes, "{}", kind);
            prop_assert!(ra.nodes <= 1_500 + 64, "{}: {}", kind, ra.nodes);
        }
    }
}

fn piece(seat: Seat, mask: u8) -> Piece {
    Piece::new(seat, Flags::new(mask)).expect("valid mask")
}

fn position(
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
        variant: Variant::FreeForAll,
        turn,
        controllers,
        in_play: in_play.iter().copied().collect::<SeatSet>(),
    };
    Position::from_setup(setup, Rules::standard()).expect("valid position")
}

/// Green and Red are left (Green took Blue, Red took Yellow); Green's lance on e2 looks
/// north at Red's commander on e4: taking it wins the game.
fn last_commander_position() -> (Position, Move) {
    let pos = position(
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
    (pos, Move::new(Square::E2, Square::E4, 0))
}

#[test]
fn the_winning_capture_of_the_last_commander_is_found_by_every_kind() {
    let (pos, win) = last_commander_position();
    let g = FreeForAll::new(pos.clone());
    let eval = Evaluation::default();
    // The capture ends the game with Green the winner.
    let mut after = g.clone();
    let u = after.make(win);
    let mut expect = [-FFA_WIN; 4];
    expect[0] = FFA_WIN;
    assert_eq!(after.outcome(), Some(expect));
    after.unmake(win, u);
    for depth in 1..=3 {
        let limits = Limits::depth(depth);
        let p = MultiParanoid::new(eval.clone()).search(&g, &limits);
        assert_eq!(
            (p.best_move, p.value),
            (Some(win), FFA_WIN),
            "paranoid {depth}"
        );
        for mut brs in [Brs::new(eval.clone()), Brs::plus(eval.clone())] {
            let r = brs.search(&g, &limits);
            assert_eq!((r.best_move, r.value), (Some(win), FFA_WIN), "brs {depth}");
        }
    }
    let m = Mcts::new(MctsConfig::default(), eval.clone()).search(&g, 200, &Limits::default());
    assert_eq!(m.best_move, Some(win));
    // Through the engine, every kind, at a depth and at a node budget.
    let game = Game::from_position(pos);
    for kind in SearchKind::ALL {
        let mut engine = Engine::with_hash_mb(1).with_ffa_search(kind);
        for limits in [Limits::depth(2), Limits::nodes(2_000)] {
            let r = engine.search(&game, &limits, |_| {});
            assert_eq!(r.best_move, Some(win), "{kind} {limits:?}");
            assert!(r.score.is_win(), "{kind}: {:?}", r.score);
        }
    }
}

#[test]
fn a_repetition_is_a_draw_shared_by_the_players_in_play() {
    // Each player turns his commander a step and back: after two rounds the start
    // position is there again.
    let mut g = FreeForAll::new(Position::start(Variant::FreeForAll, Rules::standard()));
    let squares = [Square::A1, Square::A9, Square::I9, Square::I1];
    let mut undos = Vec::new();
    for (round, r) in [1u8, 7].into_iter().enumerate() {
        for sq in squares {
            assert!(g.outcome().is_none(), "round {round}");
            let mv = Move::turn(sq, r);
            assert!(g.position().is_legal(mv), "{mv}");
            undos.push((mv, g.make(mv)));
        }
    }
    assert!(g.is_drawn());
    assert_eq!(g.outcome(), Some([0; 4]));
    let mut moves = SearchMoves::default();
    g.generate(&mut moves);
    assert!(moves.is_empty());
    while let Some((mv, u)) = undos.pop() {
        g.unmake(mv, u);
    }
    assert!(!g.is_drawn());
    // The no-capture limit: two plies under a limit of 2.
    let rules = Rules::standard().with_no_capture_limit(Some(2));
    let mut g = FreeForAll::new(Position::start(Variant::FreeForAll, rules));
    g.make(Move::turn(Square::A1, 1));
    assert_eq!(g.outcome(), None);
    g.make(Move::turn(Square::A9, 1));
    assert_eq!(g.outcome(), Some([0; 4]));
}

#[test]
fn the_game_history_counts_for_repetitions() {
    let mut game = Game::start(Variant::FreeForAll, Rules::standard());
    let squares = [Square::A1, Square::A9, Square::I9, Square::I1];
    for sq in squares {
        game.play(Move::turn(sq, 1)).unwrap();
    }
    for sq in &squares[..3] {
        game.play(Move::turn(*sq, 7)).unwrap();
    }
    // Blue turning back repeats the start position.
    let mut g = FreeForAll::from_game(&game);
    assert!(g.outcome().is_none());
    g.make(Move::turn(Square::I1, 7));
    assert!(g.is_drawn());
}

/// Two-player and partnership searches are the same whatever free-for-all search the
/// engine is told: best move, score and nodes of a plain searcher's.
#[test]
fn two_sided_searches_do_not_depend_on_the_free_for_all_search() {
    let mut games: Vec<Game> = bench_positions()
        .into_iter()
        .step_by(6)
        .map(Game::from_position)
        .collect();
    games.push(Game::start(Variant::Partnership, Rules::standard()));
    games.push(Game::from_position(playout(Variant::Partnership, 0, 7, 60)));
    for game in &games {
        let mut plain = Searcher::new(Config::default(), Evaluation::default());
        let root = plain.evaluator().game(game.position().clone());
        let history = root.history(game);
        let want = plain.search(&root, &history, &Limits::depth(4), |_| {});
        for kind in SearchKind::ALL {
            let mut engine = Engine::new(Config::default()).with_ffa_search(kind);
            let r = engine.search(game, &Limits::depth(4), |_| {});
            assert_eq!(
                (r.best_move, r.score, r.nodes),
                (want.best_move, want.score, want.nodes),
                "{kind}"
            );
        }
    }
}
