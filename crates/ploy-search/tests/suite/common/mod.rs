//! Toy games with known values, and random Ploy positions, for the search tests.
#![allow(dead_code)]

use ploy_search::{Config, SearchGame, Side, Terminal};

mod tree;
pub use tree::*;

// ----- Nim ------------------------------------------------------------------------------

/// Nim: take any number of stones from one heap; who takes the last stone wins. The side to
/// move wins exactly when the heaps' XOR is not zero.
#[derive(Clone, Debug)]
pub struct Nim {
    pub heaps: Vec<u8>,
    pub side: Side,
}

impl SearchGame for Nim {
    type Move = (u8, u8);
    type Undo = ();
    type Moves = Vec<(u8, u8)>;

    fn side(&self) -> Side {
        self.side
    }
    fn hash(&self) -> u64 {
        let mut h = mix(u64::from(self.side.0) + 1);
        for (i, &x) in self.heaps.iter().enumerate() {
            h = mix(h ^ (u64::from(x) << (8 * i)));
        }
        h
    }
    fn terminal(&self) -> Option<Terminal> {
        self.heaps
            .iter()
            .all(|&h| h == 0)
            .then_some(Terminal::Win(self.side.other()))
    }
    fn generate(&self, moves: &mut Vec<(u8, u8)>) {
        for (i, &h) in self.heaps.iter().enumerate() {
            for take in 1..=h {
                moves.push((i as u8, take));
            }
        }
    }
    fn generate_captures(&self, _moves: &mut Vec<(u8, u8)>) {}
    fn is_legal(&self, (i, take): (u8, u8)) -> bool {
        take >= 1 && self.heaps.get(usize::from(i)).is_some_and(|&h| take <= h)
    }
    fn is_capture(&self, _mv: (u8, u8)) -> bool {
        false
    }
    fn make(&mut self, (i, take): (u8, u8)) {
        self.heaps[usize::from(i)] -= take;
        self.side = self.side.other();
    }
    fn unmake(&mut self, (i, take): (u8, u8), _undo: ()) {
        self.heaps[usize::from(i)] += take;
        self.side = self.side.other();
    }
    fn move_to_u16((i, take): (u8, u8)) -> u16 {
        u16::from(i) << 8 | u16::from(take)
    }
    fn move_from_u16(code: u16) -> Option<(u8, u8)> {
        Some(((code >> 8) as u8, code as u8))
    }
}

// ----- tic-tac-toe ----------------------------------------------------------------------

/// Tic-tac-toe, a draw with best play.
#[derive(Clone, Debug, Default)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub side: u8,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl SearchGame for TicTacToe {
    type Move = u8;
    type Undo = ();
    type Moves = Vec<u8>;

    fn side(&self) -> Side {
        Side(self.side)
    }
    fn hash(&self) -> u64 {
        let packed = self
            .cells
            .iter()
            .fold(u64::from(self.side), |h, &c| h * 3 + u64::from(c));
        mix(packed)
    }
    fn terminal(&self) -> Option<Terminal> {
        for l in LINES {
            let c = self.cells[l[0]];
            if c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]] {
                return Some(Terminal::Win(Side(c - 1)));
            }
        }
        self.cells.iter().all(|&c| c != 0).then_some(Terminal::Draw)
    }
    fn generate(&self, moves: &mut Vec<u8>) {
        if self.terminal().is_none() {
            moves.extend((0..9).filter(|&i| self.cells[usize::from(i)] == 0));
        }
    }
    fn generate_captures(&self, _moves: &mut Vec<u8>) {}
    fn is_legal(&self, mv: u8) -> bool {
        mv < 9 && self.cells[usize::from(mv)] == 0 && self.terminal().is_none()
    }
    fn is_capture(&self, _mv: u8) -> bool {
        false
    }
    fn make(&mut self, mv: u8) {
        self.cells[usize::from(mv)] = self.side + 1;
        self.side ^= 1;
    }
    fn unmake(&mut self, mv: u8, _undo: ()) {
        self.cells[usize::from(mv)] = 0;
        self.side ^= 1;
    }
    fn move_to_u16(mv: u8) -> u16 {
        u16::from(mv)
    }
    fn move_from_u16(code: u16) -> Option<u8> {
        u8::try_from(code).ok()
    }
}

// ----- Ploy positions -------------------------------------------------------------------

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
