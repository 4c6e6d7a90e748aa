//! A random toy game tree (for a game without names) and random Ploy positions, for the
//! engine's tests (ploy-search's tests hold the other toy games).
#![allow(dead_code)]

use ploy_core::{Board, Flags, Piece, PieceKind, Position, Rules, Seat, Setup, Square};
use ploy_search::Config;

#[path = "../../../../ploy-search/tests/suite/common/tree.rs"]
mod tree;
pub use tree::*;

// ----- Ploy positions -------------------------------------------------------------------

/// The position after `plies` random moves from the start (fewer if the game ends).
pub fn random_playout(seed: u64, plies: u32) -> Position {
    let mut pos = Position::new();
    let mut s = seed;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        s = mix(s);
        // Prefer captures now and then so that positions thin out.
        let caps: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_direction_move() && pos.board().occupied().contains(m.to()))
            .collect();
        let mv = if !caps.is_empty() && s % 3 == 0 {
            caps[(s >> 8) as usize % caps.len()]
        } else {
            moves[(s >> 8) as usize % moves.len()]
        };
        pos.make_move(mv);
    }
    pos
}

/// A random sparse two-player position: each side has its commander and `1..=extra`
/// other pieces, on random squares with random masks.
pub fn random_sparse(seed: u64, extra: u32) -> Position {
    let mut s = mix(seed);
    let mut next = |n: u64| {
        s = mix(s);
        s % n
    };
    let mut board = Board::empty();
    for seat in [Seat::Green, Seat::Red] {
        let n = 1 + next(u64::from(extra)) as u32;
        for i in 0..=n {
            let kind = if i == 0 { 4 } else { 1 + next(3) as u32 };
            let mask = loop {
                let m = next(256) as u8;
                if m.count_ones() == kind {
                    break m;
                }
            };
            let piece = Piece::new(seat, Flags::new(mask)).expect("mask has 1..4 flags");
            if piece.kind() != PieceKind::Commander && board.count(seat, piece.kind()) >= 3 {
                continue;
            }
            loop {
                let sq = Square::from_index(next(81) as u8).expect("index below 81");
                if board.piece_at(sq).is_none() {
                    board.put(sq, piece);
                    break;
                }
            }
        }
    }
    let turn = if next(2) == 0 { Seat::Green } else { Seat::Red };
    Position::from_setup(Setup::two_player(board, turn), Rules::standard()).expect("valid setup")
}

/// Configurations that must all return the negamax value (no forward pruning).
pub fn exact_configs(quiescence: Option<u8>) -> Vec<(&'static str, Config)> {
    let q = |mut c: Config| {
        c.quiescence = quiescence.is_some();
        c.max_quiescence = quiescence.unwrap_or(0);
        c.without_selectivity()
    };
    let base = Config {
        driver: ploy_search::Driver::Mtdf,
        table_bytes: 1 << 16,
        eval_cache_bytes: 1 << 12,
        counter_moves: true,
        continuation_history: true,
        ..Config::default()
    };
    vec![
        ("mtdf", q(base.clone())),
        (
            "mtdf-capped",
            q(Config {
                mtdf_max_passes: 2,
                ..base.clone()
            }),
        ),
        (
            "default-ordering",
            q(Config {
                table_bytes: 1 << 16,
                eval_cache_bytes: 1 << 12,
                ..Config::default()
            }),
        ),
        (
            "alphabeta-aspiration",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                aspiration_window: 1,
                ..base.clone()
            }),
        ),
        (
            "mtdf-tiny-table",
            q(Config {
                table_bytes: 64,
                ..base.clone()
            }),
        ),
        (
            "mtdf-no-table",
            q(Config {
                table_bytes: 0,
                ..base.clone()
            }),
        ),
        (
            "mtdf-previous-guess",
            q(Config {
                guess_from_same_parity: false,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-pvs",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                aspiration_window: 0,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-no-table",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                table_bytes: 0,
                pvs: false,
                ..base.clone()
            }),
        ),
        (
            "alphabeta-tiny-table",
            q(Config {
                driver: ploy_search::Driver::AlphaBeta,
                table_bytes: 64,
                ..base.clone()
            }),
        ),
        ("plain", q(Config::plain())),
    ]
}
